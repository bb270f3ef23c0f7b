"""Regular priors, Phi and the tight-constraints mechanism of ECP14 (Props. 1-9): both verdicts, the
boundary, the singular route, disconnected metrics (audit 2026-11-24, defect 3) against a sympy brute force."""

import networkx as nx
import pytest
from flint import fmpq

from exactdp import Mechanism, certify_privacy
from exactdp.errors import InvalidInput
from exactdp.exact.level import Level
from exactdp.mechanisms import geometric
from exactdp.metrics import cycle, discrete, from_graph, hamming, path
from exactdp.priors.phi import PhiSystem
from exactdp.priors.regular import (ball_size_symmetric, check_prior, corner_priors, prop9_mechanism, regular_prior,
                                    tight_constraints)


HALF = Level.from_alpha("1/2")


def test_phi_and_corners():
    S = PhiSystem(path(3), HALF)
    assert S.exact_matrix().tolist()[0] == [1, fmpq(1, 2), fmpq(1, 4)]
    cs = corner_priors(path(3), HALF)
    assert cs[0] == [fmpq(4, 7), fmpq(2, 7), fmpq(1, 7)] and all(sum(c) == 1 for c in cs)
    # each corner prior is regular, with gamma the unit vector (Prop. 3)
    c = regular_prior(cs[1], path(3), HALF)
    assert c.holds is True and c.evidence.gamma == ["0", "1", "0"]


def test_regular_both_verdicts_and_boundary():
    assert regular_prior(["1/3"] * 3, path(3), HALF).holds is True
    c = regular_prior(["9/10", "1/20", "1/20"], path(3), HALF)
    # the reason moved out of the evidence into the note (issue 18)
    assert c.holds is False and c.evidence.negative == ["1"] and "Prop. 2 fails" in c.note
    # discrete metric on 4 points, a = 1/2: regular iff min pi >= a/(1+3a) = 1/5; the boundary itself is regular
    assert regular_prior(["1/5", "1/5", "1/5", "2/5"], discrete(4), HALF).holds is True
    assert regular_prior(["1/5", "1/5", "1/5", "2/5"], discrete(4), HALF).evidence.mu[0] == "0"
    assert regular_prior(["199/1000", "267/1000", "267/1000", "267/1000"], discrete(4), HALF).holds is False
    assert regular_prior(["1/2", "1/2", "0"], path(3), HALF).holds is False


def test_regular_transcendental():
    c = regular_prior(["1/3"] * 3, path(3), Level.from_eps("1/2"))
    assert c.holds is True and c.evidence.regime == "transcendental"
    c = regular_prior(["4/5", "1/10", "1/10"], path(3), Level.from_eps("1/2"))
    assert c.holds is False


def test_prop1_prop2_on_regular_priors():
    for c in corner_priors(cycle(5), HALF):
        assert check_prior(c, cycle(5), HALF) is None


def test_singular_route_by_exact_lp_agrees(monkeypatch):
    """The exact-LP route used when Phi is singular gives the same verdicts as the direct solve."""
    import exactdp.priors.regular as reg

    def singular(self, rhs, **kw):
        raise InvalidInput("Phi is singular at this level: the solution is not unique")
    monkeypatch.setattr(reg.PhiSystem, "solve", singular)
    c = regular_prior(["1/3"] * 3, path(3), HALF)
    assert c.holds is True and c.evidence.mu == ["2/9", "1/9", "2/9"]
    assert regular_prior(["9/10", "1/20", "1/20"], path(3), HALF).holds is False
    t = tight_constraints(path(3), HALF)
    assert t.holds is True and t.evidence.z == ["2/3", "1/3", "2/3"] and t.evidence.rank == 3
    star = from_graph(nx.star_graph(3))
    assert tight_constraints(star, Level.from_alpha("3/4")).holds is False


def test_tight_constraints_mechanism_is_private_prop6():
    for m in (path(5), from_graph(nx.star_graph(3)), hamming([0, 1], 2)):
        c = tight_constraints(m, Level.from_alpha("1/3"))
        assert c.holds is True
        md = c.evidence.mechanism
        mech = Mechanism.from_rows(md.inputs, md.outputs, md.rows())
        p = certify_privacy(mech, m, alpha="1/3")
        assert p.holds is True and p.recheck().ok is True


def test_tight_does_not_exist_below_threshold():
    star = from_graph(nx.star_graph(3))
    c = tight_constraints(star, Level.from_alpha("3/4"))
    assert c.holds is False and c.evidence.negative == ["0"]


def test_truncated_geometric_is_tight():
    for n, a in ((4, "1/2"), (6, "2/3")):
        c = tight_constraints(path(n + 1), Level.from_alpha(a))
        assert c.evidence.mechanism.rows() == [[str(v) for v in r] for r in geometric(n, a).rows()]


def test_ball_size_symmetry_and_prop9():
    assert ball_size_symmetric(cycle(6)) and ball_size_symmetric(from_graph(nx.petersen_graph()))
    assert not ball_size_symmetric(path(3))
    with pytest.raises(InvalidInput, match="ball-size symmetric"):
        prop9_mechanism(path(3), HALF)
    m = cycle(6)
    assert [[str(v) for v in r] for r in prop9_mechanism(m, HALF).rows()] == \
        tight_constraints(m, HALF).evidence.mechanism.rows()


def test_prop2_violation_is_reported():
    # pi_0 = 9/10 exceeds the Prop. 2 upper bound 1/(1 + 1/2 + 1/4) = 4/7 on the path with alpha = 1/2
    assert "Prop." in check_prior([fmpq(9, 10), fmpq(1, 20), fmpq(1, 20)], path(3), HALF)
    assert check_prior([fmpq(1, 3)] * 3, path(3), HALF) is None


def test_tight_certificate_recheck():
    c = tight_constraints(path(4), HALF)
    assert c.recheck().ok is True
    star = from_graph(nx.star_graph(3))
    assert tight_constraints(star, Level.from_alpha("3/4")).recheck().ok is True
    assert tight_constraints(path(4), Level.from_eps("1/2")).recheck().ok is True     # interval re-solve


# ---------------------------------------------------- disconnected metrics (audit 2026-11-24, defect 3) ----
def _two_edges():
    return from_graph(nx.Graph([("0", "1"), ("2", "3")]))


def _brute_mu(pi, alpha):
    """``mu = pi Phi^-1`` by sympy on the 4 x 4 matrix written out by hand: ``phi = alpha^d``, 0 across components."""
    import sympy as sp
    a = sp.Rational(alpha)
    phi = sp.Matrix([[1, a, 0, 0], [a, 1, 0, 0], [0, 0, 1, a], [0, 0, a, 1]])
    return list(sp.Matrix([[sp.Rational(p) for p in pi]]) * phi.inv())


@pytest.mark.parametrize("pi", [["1/4"] * 4, ["1/20", "1/20", "9/20", "9/20"], ["1/2", "1/10", "1/5", "1/5"],
                                ["1/6", "1/3", "1/6", "1/3"], ["1/9", "2/9", "1/3", "1/3"]])
def test_regular_on_a_disconnected_graph_is_decided_per_component(pi):
    # before: Prop. 2's lower bound ignored the inf distances, and a regular prior raised RuntimeError (exit 4)
    mu = _brute_mu(pi, "1/2")
    c = regular_prior(pi, _two_edges(), HALF)
    assert c.holds is all(m >= 0 for m in mu)
    assert c.evidence.mu == [str(m) for m in mu]
    if c.holds:
        assert check_prior([fmpq(p) for p in pi], _two_edges(), HALF) is None
    assert recheck_status(c) == "confirmed"


def test_prop2_lower_bound_is_zero_next_to_an_infinite_distance():
    # 1/20 is below the connected bound 1/(1 + 2) = 1/3 but allowed: the other component is at distance inf
    assert check_prior([fmpq(1, 20), fmpq(1, 20), fmpq(9, 20), fmpq(9, 20)], _two_edges(), HALF) is None
    # the upper bound still binds within a component: 1/(1 + 1/2) = 2/3 < 7/10
    assert "Prop. 2 fails at '0'" in check_prior([fmpq(7, 10), fmpq(1, 10), fmpq(1, 10), fmpq(1, 10)],
                                                 _two_edges(), HALF)


def recheck_status(c):
    from exactdp import recheck
    return recheck(c.to_json()).status
