"""The CKS20 reference samplers match their target laws exactly, and every planted bug differs (issue 30):
scales 3/2, 5/2, 7/3 exercise the rational arithmetic (a gcd > 1 occurs), scale 1 does not, so the division slip
is invisible there and must match."""

import random
from fractions import Fraction

import pytest
from flint import arb, ctx, fmpq

from exactdp.samplers import compare, law, target
from exactdp.samplers import cks20

FAST = {"depth": 60, "tol": Fraction(1, 10**12), "bits": 64}
WIDTH = Fraction(1, 10**9)
SCALES = [Fraction(1), Fraction(3, 2), Fraction(5, 2), Fraction(7, 3)]


def _dlaplace(mod, s):
    L = law(mod.dlaplace, [s], summarise=cks20.SUMMARISE, **FAST)
    return compare(L, target("dlaplace", s), (-3, 3), width=WIDTH)


def _witness_is_outside(c, s):
    """The witness re-checked independently: the target ball against the exact ends."""
    w = c.witness
    with ctx.workprec(200):
        t = (1 / (2 * arb(fmpq(s.numerator, s.denominator)))).tanh() * (
            -abs(w.value) / arb(fmpq(s.numerator, s.denominator))).exp()
        lo, hi = arb(fmpq(w.lo.numerator, w.lo.denominator)), arb(fmpq(w.hi.numerator, w.hi.denominator))
        return (t < lo) if w.status == "below" else (t > hi)


@pytest.mark.slow
@pytest.mark.parametrize("s", SCALES, ids=str)
def test_the_reference_dlaplace_matches_and_every_planted_bug_differs(s):
    c = _dlaplace(cks20, s)
    assert c.verdict == "matches" and c.residual <= WIDTH and all(r.status == "inside" for r in c.rows)
    for bug in cks20.BUGS:
        c = _dlaplace(cks20.variant(bug), s)
        if bug == "division" and s == 1:  # no gcd > 1 at scale 1: the slip computes the right numbers
            assert c.verdict == "matches"
            continue
        assert c.verdict == "differs", (bug, s)
        assert _witness_is_outside(c, s), (bug, s)


def test_the_division_slip_differs_in_bernoulli_exp_itself():
    x = Fraction(2, 3)  # Bernoulli(x/2) meets gcd(2, 2) = 2
    ok = law(cks20.bernoulli_exp, [x], **FAST)
    bad = law(cks20.variant("division").bernoulli_exp, [x], **FAST)
    assert compare(ok, target("bernoulli_exp", x), (0, 1), width=WIDTH).verdict == "matches"
    c = compare(bad, target("bernoulli_exp", x), (0, 1), width=WIDTH)
    assert c.verdict == "differs" and c.witness.value == 0


@pytest.mark.parametrize("x", [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(7, 3)], ids=str)
def test_bernoulli_exp_matches_below_and_beyond_one(x):
    L = law(cks20.bernoulli_exp, [x], summarise=["bernoulli_exp01"], **FAST)
    assert compare(L, target("bernoulli_exp", x), (0, 1), width=WIDTH).verdict == "matches"
    assert compare(L, target("bernoulli_exp", x + Fraction(1, 1000)), (0, 1), width=WIDTH).verdict == "differs"


@pytest.mark.parametrize("fn", ["geometric_exp_slow", "geometric_exp_fast"])
def test_the_slow_and_fast_geometric_match(fn):
    x = Fraction(2, 3)
    L = law(getattr(cks20, fn), [x], summarise=cks20.SUMMARISE, **FAST)
    assert compare(L, target("geometric_exp", x), (-1, 5), width=WIDTH).verdict == "matches"
    assert compare(L, target("geometric_exp", Fraction(3, 4)), (-1, 5), width=WIDTH).verdict == "differs"


def test_bernoulli_is_exact():
    for p in (Fraction(0), Fraction(3, 7), Fraction(1)):
        L = law(cks20.bernoulli, [p])
        assert L.masses.get(True, 0) == p and L.residual == 0 and L.paths <= 3


@pytest.mark.slow
def test_the_discrete_gaussian_matches_and_another_variance_differs():
    s2 = Fraction(1)
    L = law(cks20.dgauss, [s2], summarise=cks20.SUMMARISE, **FAST)
    assert compare(L, target("dgauss", s2), (-3, 3), width=WIDTH).verdict == "matches"
    assert compare(L, target("dgauss", Fraction(9, 10)), (-3, 3), width=WIDTH).verdict == "differs"


def test_the_samplers_run_with_a_real_source_of_randomness():
    rng = random.Random(7)
    ys = [cks20.dlaplace(rng, Fraction(3, 2)) for _ in range(50)] + [cks20.dgauss(rng, Fraction(2)) for _ in range(20)]
    assert all(isinstance(y, int) for y in ys)


def test_variants_are_single_mutations():
    with pytest.raises(ValueError, match="unknown planted bug"):
        cks20.variant("nope")
    for bug in cks20.BUGS:
        m = cks20.variant(bug)
        assert m.dlaplace is not cks20.dlaplace and m.dlaplace.__globals__ is vars(m)
