"""Expected error and the HLM15 lower bounds (exactdp.utility.accuracy): the expected and maximal expected error
against an independent Fraction brute force, Theorems 6 and 7 against their closed forms at e^eps = t rational,
both theorems holding for the geometric mechanism and randomized response, Thm 7 attained by randomized response
with p = 1/(m + e^eps) (HLM15 Ex. 7), and the refusals."""

from fractions import Fraction

import pytest

from exactdp.errors import InvalidInput
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.mechanisms import geometric, randomized_response
from exactdp.metrics import discrete, path
from exactdp.utility.accuracy import expected_error, hlm15_theorem6_bound, hlm15_theorem7_bound, max_expected_error


def _brute_errors(mech, dist):
    """E[rho(Y_x, x)] for every input x, from the entries (read as Fractions) and a distance function."""
    return {x: sum(Fraction(str(mech.entry(x, z))) * dist(x, z) for z in mech.outputs) for x in mech.inputs}


@pytest.mark.parametrize("n, alpha", [(1, "1/2"), (2, "1/2"), (3, "1/3"), (5, "2/3")])
def test_geometric_on_a_path_against_the_brute_force(n, alpha):
    G, P = geometric(n, alpha), path(n + 1)
    want = _brute_errors(G, lambda x, z: abs(int(x) - int(z)))
    assert {x: Fraction(str(expected_error(G, P, x))) for x in G.inputs} == want
    assert Fraction(str(max_expected_error(G, P))) == max(want.values())


@pytest.mark.parametrize("m, p", [(2, "1/4"), (3, "1/5"), (4, "0")])
def test_randomized_response_on_the_discrete_metric_against_the_brute_force(m, p):
    R, D = randomized_response(m, p=p), discrete(m)
    want = _brute_errors(R, lambda x, z: int(x != z))
    assert {x: Fraction(str(expected_error(R, D, x))) for x in R.inputs} == want
    assert Fraction(str(max_expected_error(R, D))) == (m - 1) * Fraction(p)       # every row: m - 1 wrong outputs


@pytest.mark.parametrize("n, t, delta", [(2, 2, "0"), (3, 3, "0"), (4, Fraction(3, 2), "1/4"), (6, 5, "1/2")])
def test_theorem6_is_the_closed_form_and_holds_for_the_geometric_mechanism(n, t, delta):
    eps = f"log({t})"
    bound = Fraction(str(hlm15_theorem6_bound(path(n + 1), eps, delta)))
    assert bound == (1 - Fraction(delta)) * n / (2 * (1 + Fraction(t)))     # diam = n on the path of n + 1 points
    alpha = f"{Fraction(1) / Fraction(t)}"                                   # the geometric mechanism at eps = log(t)
    assert Fraction(str(max_expected_error(geometric(n, alpha), path(n + 1)))) >= bound


@pytest.mark.parametrize("m, t, delta", [(2, 2, "0"), (3, 3, "0"), (4, Fraction(5, 2), "1/3"), (5, 4, "0")])
def test_theorem7_is_the_closed_form_and_attained_by_randomized_response(m, t, delta):
    # |D| = m points, so HLM15's m is m - 1; kappa = 1 on the discrete metric
    bound = Fraction(str(hlm15_theorem7_bound(discrete(m), f"log({t})", delta)))
    assert bound == (1 - Fraction(delta)) * (m - 1) / (m - 1 + Fraction(t))
    p = Fraction(1) / (m - 1 + Fraction(t))                                  # HLM15 Ex. 7
    err = Fraction(str(max_expected_error(randomized_response(m, p=str(p)), discrete(m))))
    assert err == (m - 1) * p and (err == bound) is (delta == "0")           # attained exactly when delta = 0
    assert err >= bound


def test_a_transcendental_eps_gives_an_exact_expfrac():
    # eps = 1: 2 / (2 (1 + e)) on the path of 3 points, halved by delta = 1/2; the two are equal exactly
    b = hlm15_theorem6_bound(path(3), "1", "1/2")
    e = ExpFrac.exp(Lin.coerce(1))
    assert isinstance(b, ExpFrac) and (b - 1 / (2 * (1 + e))).is_zero() and not (b - 1 / (1 + e)).is_zero()


def test_refusals():
    with pytest.raises(InvalidInput):
        hlm15_theorem7_bound(discrete(1), "log(2)")                          # a single point: no smallest distance
    with pytest.raises(InvalidInput):
        hlm15_theorem6_bound(path(3), "log(2)/2")                            # e^eps = sqrt(2): irrational algebraic
