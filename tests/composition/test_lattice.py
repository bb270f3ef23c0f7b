"""Composition on the privacy-loss lattice (issue 29): equal to the general convolution and to a brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, InvalidInput, InvalidType
from exactdp.exact.decide import sign, simplify
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import discrete_gaussian, generalized_rr, geometric, randomized_response
from exactdp.metrics import discrete, path
from exactdp.composition import lattice
from exactdp.composition.composition import PLD, composed_profile
from exactdp.composition.lattice import composed_delta, composed_deltas, lattice_of, lattice_plan

CASES = [
    (randomized_response(2, p="1/4"), [("0", "1")]),
    (randomized_response(3, p="1/5"), discrete(3)),
    (generalized_rr(2, eps="1"), discrete(2)),
    (geometric(4, "1/2"), path(5)),
    (geometric(3, eps="1"), path(4)),
    (discrete_gaussian(2, sigma2="1"), path(3)),
]
# eps = 0 (total variation), rational eps (transcendental e^eps), log levels; log(9), 2, 3*log(2) and 1 are
# breakpoints of some of the composed profiles (a loss equal to eps)
def _q(text):
    f = Fraction(text)
    return fmpq(f.numerator, f.denominator)


def _inside(x, lo, hi):
    """Exactly: lo <= x <= hi for decimal texts lo, hi (the kernel's sign)."""
    return sign(simplify(x - _q(lo))) >= 0 and sign(simplify(_q(hi) - x)) >= 0


EPS = ["0", "1", "2", "log(2)", "log(9)", "3*log(2)", "1/2"]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_equals_the_general_convolution(case):
    mech, nb = CASES[case]
    for k in ((1, 2, 3) if case < 5 else (1, 2)):      # the discrete Gaussian's reference is the slow one
        pr = composed_profile(mech, nb, k)
        rs = composed_deltas(mech, nb, k, EPS)
        for e, r in zip(EPS, rs, strict=True):
            ref = pr.delta(eps=e)
            assert r.route == "lattice-exact"
            assert sign(simplify(r.value - ref)) == 0, (mech.name, k, e)
            assert _inside(ref, r.lo, r.hi)     # the printed enclosure holds the exact value


def test_a_breakpoint_is_a_tie_not_a_jump():
    """Randomized response with ratio 3, twice: eps = log 9 is a loss; delta there is 0 and just below it is not."""
    rr = randomized_response(2, p="1/4")
    assert composed_delta(rr, [("0", "1")], 2, eps="log(9)").value == 0
    assert composed_delta(rr, [("0", "1")], 2, eps="log(8)").value == fmpq(9, 16) * (1 - fmpq(8, 9))
    # at eps0 = 1, k = 2 the loss 2 is a breakpoint: delta = 0 there
    assert composed_delta(generalized_rr(2, eps="1"), discrete(2), 2, eps="2").value == 0


def _brute(rows_p, rows_q, k, t):
    """delta = sum over output tuples of (P - t Q)_+ with Fractions, from the definition."""
    tot = Fraction(0)
    for ys in itertools.product(range(len(rows_p)), repeat=k):
        p = q = Fraction(1)
        for y in ys:
            p *= rows_p[y]
            q *= rows_q[y]
        tot += max(p - t * q, Fraction(0))
    return tot


@pytest.mark.parametrize("k", [1, 2, 4])
def test_brute_force_fractions(k):
    """A 3-output mechanism (ratios 4, 1/2, 1: a lattice with c = 1/2, b = 2; the reverse order 1/4, 2, 1)
    against a brute-force product of the rows, both orders."""
    P = [Fraction(1, 2), Fraction(3, 8), Fraction(1, 8)]
    Q = [Fraction(1, 8), Fraction(3, 4), Fraction(1, 8)]
    # row b closes the loop so that the mechanism is stochastic; only the pair (a, b) is a neighbour pair
    M = Mechanism.from_rows(["a", "b"], ["0", "1", "2"], [[str(v) for v in P], [str(v) for v in Q]])
    for t in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(5)):
        eps = f"log({t})" if t != 1 else "0"
        got = composed_delta(M, [("a", "b")], k, eps=eps).value
        want = max(_brute(P, Q, k, t), _brute(Q, P, k, t))
        assert got == fmpq(want.numerator, want.denominator)


def test_ball_route_encloses_the_exact_value(monkeypatch):
    """Forced onto balls (the exact budget set to zero), the enclosure holds the exact value and says so."""
    mech, nb = generalized_rr(2, eps="1"), discrete(2)
    exact = composed_delta(mech, nb, 7, eps="2")
    monkeypatch.setattr(lattice, "MAX_EXACT_BITS", 0)
    r = composed_delta(mech, nb, 7, eps="2")
    assert r.route == "lattice-balls" and r.value is None and r.to_json()["delta"] is None
    assert _inside(exact.value, r.lo, r.hi) and _q(r.hi) - _q(r.lo) < fmpq(1, 10**15)
    # the ball's own width (stated) is far below the 17 printed digits' rounding
    assert r.lo != r.hi and 0 < _q(r.width) < fmpq(1, 10**30)
    g = composed_delta(geometric(3, "1/2"), path(4), 5, eps="log(3)")     # rational entries on balls too
    ref = composed_profile(geometric(3, "1/2"), path(4), 5).delta(eps="log(3)")
    assert _inside(ref, g.lo, g.hi) and g.route == "lattice-balls"
    assert "certified enclosure" in r.text()


def test_exact_text_and_json():
    r = composed_delta(generalized_rr(2, eps="1"), discrete(2), 20, eps="3")
    j = r.to_json()
    assert j["route"] == "lattice-exact" and j["k"] == 20 and j["eps"] == "3" and j["pair"] == ["0", "1"]
    from exactdp.exact.values import exact_number

    v = exact_number(j["delta"])                  # the JSON's exact text round-trips and is in the enclosure
    assert sign(simplify(v - r.value)) == 0 and _inside(v, *j["enclosure"])
    t = r.text()
    assert f"[{r.lo}, {r.hi}]" in t and "coefficients up to" in t and "exp(" not in t   # long: its size
    short = composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 2, eps="log(3)")
    assert short.text().startswith("delta(eps = log(3)) of 2 runs = 3/8 exactly") and short.lo == "0.375"


def test_lattice_detection():
    # 2, 3, 4: relative to c = 2 the quotients 3/2 and 2 (log(3/2)/log 2 irrational); two ratios alone always fit
    assert lattice_of(PLD({fmpq(2): fmpq(1, 4), fmpq(3): fmpq(1, 4), fmpq(4): fmpq(1, 2)}, fmpq(0))) is None
    L = lattice_of(PLD({fmpq(2): fmpq(1, 2), fmpq(3): fmpq(1, 2)}, fmpq(0)))
    assert (L.b, L.c, L.terms) == (fmpq(3, 2), 2, {0: fmpq(1, 2), 1: fmpq(1, 2)})
    L = lattice_of(PLD({fmpq(8): fmpq(1, 2), fmpq(1, 2): fmpq(1, 4), fmpq(2): fmpq(1, 4)}, fmpq(0)))
    assert (L.b, L.c, L.terms) == (4, fmpq(1, 2), {2: fmpq(1, 2), 0: fmpq(1, 4), 1: fmpq(1, 4)})
    L = lattice_of(PLD({fmpq(6): fmpq(1, 2), fmpq(36, 1): fmpq(1, 2)}, fmpq(1, 3)))              # b = 6, c = 6
    assert (L.b, L.c, L.terms, L.inf) == (6, 6, {0: fmpq(1, 2), 1: fmpq(1, 2)}, fmpq(1, 3))
    assert lattice_of(PLD({fmpq(6): fmpq(1, 2), fmpq(12): fmpq(1, 2)}, fmpq(0))).b == 2


def test_no_lattice_is_refused_by_name():
    M = Mechanism.from_rows(["a", "b"], ["0", "1", "2"], [["1/2", "1/4", "1/4"], ["1/4", "1/12", "2/3"]])  # 2, 3
    with pytest.raises(InvalidInput, match="no common lattice"):
        composed_delta(M, [("a", "b")], 2, eps="0")


def test_bad_inputs():
    rr = randomized_response(2, p="1/4")
    with pytest.raises(InvalidInput, match="k >= 1"):
        composed_delta(rr, [("0", "1")], 0, eps="0")
    with pytest.raises(InvalidType, match="integer"):
        composed_delta(rr, [("0", "1")], True, eps="0")
    with pytest.raises(InvalidType, match="integer"):
        composed_delta(rr, [("0", "1")], "3", eps="0")
    with pytest.raises(InputTooLarge, match="limit"):
        composed_delta(rr, [("0", "1")], 10**6, eps="0")
    with pytest.raises(InvalidInput):
        composed_delta(rr, [("0", "1")], 2, eps="-1")
    with pytest.raises(InvalidInput, match="symbolic"):
        composed_delta(geometric(3), path(4), 2, eps="1")
    with pytest.raises(InvalidInput):
        composed_delta(rr, [("0", "7")], 2, eps="1")


def test_refused_up_front(monkeypatch):
    """Too large for both routes: refused by the estimate, before any power is taken."""
    def boom(*a, **kw):
        raise AssertionError("a power was computed before the refusal")

    monkeypatch.setattr(lattice, "_ball_pair", boom)
    monkeypatch.setattr(lattice, "_rat_pair", boom)
    monkeypatch.setattr(lattice, "_field_pair", boom)
    with pytest.raises(InputTooLarge, match="refused before any work"):
        composed_delta(discrete_gaussian(5, sigma2="1"), path(6), 100_000, eps="1")
    L = lattice_of(PLD({fmpq(3): fmpq(3, 4), fmpq(1, 3): fmpq(1, 4)}, fmpq(0)))
    assert lattice_plan(L, 1000) == "lattice-exact"
    monkeypatch.setattr(lattice, "MAX_EXACT_BITS", 10)
    assert lattice_plan(L, 1000) == "lattice-balls"


@pytest.mark.parametrize("plan", [
    [(randomized_response(2, p="1/4"), 2), (randomized_response(2, p="1/10"), 1)],       # steps 9 and 81
    [(generalized_rr(2, eps="1"), 1), (generalized_rr(2, eps="2"), 2)],                  # e^2 and e^4 in Q(e)
    [(geometric(1, eps="1"), 2), (generalized_rr(2, eps="1"), 1)],
    # one finite ratio (2, and the reverse 1/2 with mass where P = 0) has no step of its own: it takes 9's
    [(Mechanism.from_rows(["0", "1"], ["a", "b", "c"], [["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"]]), 2),
     (randomized_response(2, p="1/4"), 1)],
])
def test_mixed_factors_equal_the_certified_composition(plan):
    """Several mechanisms on one lattice: equal to certify_composition's exact delta (the kernel-checked route)."""
    from exactdp.exact.values import exact_number
    from exactdp.composition.composition import certify_composition

    eps = ["0", "1", "2", "log(3)", "log(27)"]
    rs = lattice.composed_plan_deltas(plan, [("0", "1")], eps)
    for e, r in zip(eps, rs, strict=True):
        c = certify_composition(plan, [("0", "1")], eps=e)
        ref = exact_number(c.evidence.query.delta_at_eps)
        assert r.route == "lattice-exact" and sign(simplify(r.value - ref)) == 0, e
        assert _inside(ref, r.lo, r.hi) and r.k == sum(k for _, k in plan)


def test_mixed_factors_refused():
    A, C = randomized_response(2, p="1/4"), randomized_response(2, p="1/5")     # steps 9 and 16: incommensurable
    with pytest.raises(InvalidInput, match="incommensurable"):
        lattice.composed_plan_deltas([(A, 1), (C, 1)], [("0", "1")], ["0"])
    with pytest.raises(InvalidInput, match="other inputs"):
        lattice.composed_plan_deltas([(A, 1), (randomized_response(3, p="1/5"), 1)], [("0", "1")], ["0"])
    with pytest.raises(InvalidType, match="non-empty list"):
        lattice.composed_plan_deltas([], [("0", "1")], ["0"])
    with pytest.raises(InvalidType, match="not a pair"):
        lattice.composed_plan_deltas([A], [("0", "1")], ["0"])
