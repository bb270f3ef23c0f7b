"""A mechanism's name in a builder's form is a claim about its matrix, for every kind (issue 27).

An outside forger, who had not read the kernel, had privacy, epsilon, all_eps, profile and lattice_composition
certificates confirmed over the matrix [[3/4, 1/4], [1/4, 3/4]] named "randomized response ..., p = 1/3" (whose
matrix is [[2/3, 1/3], [1/3, 2/3]]: eps* = log 2, not log 3) and over a matrix named "geometric(n=1)" that is no
geometric mechanism; only the kinds whose module asked rebuilt the name.  The dispatcher now checks every
mechanism record of every confirmed certificate; a name it cannot rebuild is flagged in the detail as a label.
"""

import pytest

from exactdp import Mechanism, certify_all_eps, certify_privacy, discrete, recheck, smallest_epsilon
from exactdp.composition.lattice import certify_lattice_composition
from exactdp.composition.composition import certify_profile

RR_NAME = "randomized response on m + 1 = 2 categories, p = 1/3"
WRONG = Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]], name=RR_NAME)
RIGHT = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]], name=RR_NAME)
D2 = discrete(["0", "1"])

PRODUCERS = {
    "privacy": lambda m: certify_privacy(m, D2, eps="log(2)"),
    "epsilon": lambda m: smallest_epsilon(m, D2),
    "all_eps": lambda m: certify_all_eps(m, D2),
    "profile": lambda m: certify_profile(m, D2, eps="log(2)"),
    "lattice_composition": lambda m: certify_lattice_composition([(m, 3)], D2, eps="log(2)"),
}


@pytest.mark.parametrize("kind", list(PRODUCERS))
def test_a_builder_name_over_another_matrix_is_refuted_in_every_kind(kind):
    r = recheck(PRODUCERS[kind](WRONG).to_json())
    assert r.status == "refuted" and f"named {RR_NAME!r}, but its matrix is not that one" in r.detail


@pytest.mark.parametrize("kind", ["privacy", "epsilon", "profile", "lattice_composition"])
def test_the_builder_name_over_its_own_matrix_is_confirmed(kind):
    r = recheck(PRODUCERS[kind](RIGHT).to_json())
    assert r.status == "confirmed" and "is a label" not in r.detail


def test_a_geometric_name_over_another_matrix_is_refuted():
    m = Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["0", "1"]], name="geometric(n=1)")
    r = recheck(smallest_epsilon(m, D2).to_json())
    assert r.status == "refuted" and "'geometric(n=1)', but its matrix is not that one" in r.detail


def test_any_other_name_is_flagged_as_a_label_in_every_kind():
    named = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]],
                                name="the coin of the example")
    for make in (PRODUCERS["epsilon"], PRODUCERS["profile"]):
        r = recheck(make(named).to_json())
        assert r.status == "confirmed"
        assert "the mechanism's name 'the coin of the example' is a label, not re-derived" in r.detail


def test_grr_and_discrete_gaussian_names_are_claims_too():
    """The forger's other two: "discrete Gaussian (n = 2, sigma^2 = 4)" over the sigma^2 = 1 matrix and
    "generalized randomized response (k = 2)" over a matrix that is no GRR; the builders' own are confirmed."""
    from exactdp.mechanisms import discrete_gaussian, generalized_rr

    d3 = discrete(["0", "1", "2"])
    for genuine in (discrete_gaussian(2, sigma2=4), generalized_rr(3, eps="1")):
        r = recheck(smallest_epsilon(genuine, d3).to_json())
        assert r.status == "confirmed" and "is a label" not in r.detail, r.detail
    one = discrete_gaussian(2, sigma2=1)
    forged = Mechanism.from_rows(one.inputs, one.outputs, [[one.entry(x, y) for y in one.outputs] for x in one.inputs],
                                 name="discrete Gaussian (n = 2, sigma^2 = 4)")
    r = recheck(smallest_epsilon(forged, d3).to_json())
    assert r.status == "refuted" and "but its matrix is not that one" in r.detail
    not_grr = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/2", "1/2"], ["0", "1"]],
                                  name="generalized randomized response (k = 2)")
    r = recheck(certify_all_eps(not_grr, D2).to_json())
    assert r.status == "refuted" and "but its matrix is not that one" in r.detail
