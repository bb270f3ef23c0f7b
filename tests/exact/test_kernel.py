"""Lin, ExpFrac, signs, enclosures and levels."""
import math

import pytest
from flint import arb, ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.errors import InvalidInput, UnsupportedRegime
from exactdp.exact.decide import decimal_enclosure, float_bounds, sign
from exactdp.exact.expo import ExpFrac
from exactdp.exact.level import Level
from exactdp.exact.lin import Lin, squarefree_split
from exactdp.exact.values import Setting, exact_number


def test_squarefree():
    assert squarefree_split(1) == (1, 1)
    assert squarefree_split(50) == (5, 2)
    with pytest.raises(InvalidInput):
        squarefree_split(0)


def test_lin_arithmetic_and_sign():
    r2, r3 = Lin.sqrt(2), Lin.sqrt(3)
    assert (r2 * r3) == Lin.sqrt(6)
    assert (r2 + r2) == Lin.sqrt(8)
    assert (r2 - r2).is_zero()
    assert (r2 + r3 - Lin.sqrt(5)).sign() == 1
    assert (Lin.sqrt(2) * 1000 - 1414).sign() == 1 and (Lin.sqrt(2) * 1000 - 1415).sign() == -1
    # very close but not equal: sqrt(10^12+1) - 10^6 > 0
    assert (Lin.sqrt(10**12 + 1) - 10**6).sign() == 1
    with pytest.raises(UnsupportedRegime):
        (Lin.eps() + 1).sign()
    with pytest.raises(UnsupportedRegime):
        Lin.eps() * Lin.eps()
    assert str(Lin.sqrt(5) * fmpq(-3, 2)) == "-3*sqrt(5)/2"


def test_expfrac_lindemann_weierstrass_zero_test():
    e = ExpFrac.exp(Lin.rat(1))
    h = ExpFrac.exp(Lin.rat(fmpq(1, 2)))
    assert (h * h - e).is_zero()
    assert not (h * h - e - ExpFrac.exp(Lin.rat(-100))).is_zero()
    x = (h - 1) / (h + 1)
    assert x == (h * h - 1) / ((h + 1) ** 2)
    assert x.reduced() == x
    assert str(((h * h - 1) / ((h + 1) ** 2)).reduced()) == "(exp(1/2) - 1)/(exp(1/2) + 1)"


def test_expfrac_sign_tiny_difference():
    # e^(1/2) vs its rational approximation: distinct, sign found by balls
    h = ExpFrac.exp(Lin.rat(fmpq(1, 2)))
    # e^(1/2) = 1.64872127070012814684865...
    below = fmpq(1648721270700128146848, 10**21)
    above = fmpq(1648721270700128146849, 10**21)
    assert sign(h - below) == 1
    assert sign(h - above) == -1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-5, 5)), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(-3, 3), st.integers(1, 5)), min_size=1, max_size=3))
def test_expfrac_field_laws_against_balls(nums, dens):
    def poly(ts):
        out = ExpFrac.const(0)
        for e, c in ts:
            out = out + ExpFrac.exp(Lin.rat(fmpq(e, 2)), c)
        return out
    a, b = poly(nums), poly(dens)  # b has positive coefficients: b > 0
    x = a / b
    with ctx.workprec(100):
        assert (x.arb() - a.arb() / b.arb()).contains(0)
        assert ((x * b - a).is_zero())
        assert ((x + x) - 2 * x).is_zero()
        s = sign(x) if not x.is_zero() else 0
        v = x.arb()
        assert (s > 0 and v > 0) or (s < 0 and v < 0) or (s == 0 and v.contains(0))


def test_float_bounds_and_enclosure():
    lo, hi = float_bounds(fmpq(1, 3))
    from fractions import Fraction
    assert lo < hi and Fraction(lo) < Fraction(1, 3) < Fraction(hi)
    lo, hi = float_bounds(ExpFrac.exp(Lin.rat(1)))
    assert lo <= math.e <= hi
    assert decimal_enclosure(fmpq(1, 3), 5) == ("0.33333", "0.33334")
    assert decimal_enclosure(fmpq(5)) == ("5", "5")
    lo, hi = decimal_enclosure(lambda: arb(2).log(), 30)
    assert lo == "0.693147180559945309417232121458" and hi == "0.693147180559945309417232121459"


@pytest.mark.parametrize("spec, kind, eps", [
    (("eps", "log(2)"), "rational", "log(2)"), (("alpha", "1/2"), "rational", "log(2)"),
    (("eps", "log(9/8)"), "rational", "log(9/8)"), (("eps", "2*log(3)"), "rational", "log(9)"),
    (("eps", "log(2)/3"), "rational", "log(2)/3"), (("eps", "1/2"), "transcendental", "1/2"),
    (("alpha", "exp(-1/2)"), "transcendental", "1/2"), (("eps", "sqrt(2)"), "transcendental", "sqrt(2)"),
    (("eps", "-log(1/2)"), "rational", "log(2)"),
])
def test_levels(spec, kind, eps):
    L = Level.from_eps(spec[1]) if spec[0] == "eps" else Level.from_alpha(spec[1])
    assert L.regime == kind and L.eps_str() == eps


@pytest.mark.parametrize("bad", ["0", "-1", "log(1)", "log(1/2)", "alpha", "exp(1)"])
def test_bad_eps(bad):
    with pytest.raises(InvalidInput, match="eps"):
        Level.from_eps(bad)


# sqrt(2)/2 = 2^(-1/2) is the level eps = log(2)/2 since the audit of 2026-11-24 (tests/exact/test_level.py);
# sqrt(2) > 1 and sqrt(2) - 1 (not a square root of a rational) stay refused
@pytest.mark.parametrize("bad", ["0", "1", "3/2", "-1/2", "exp(1/2)", "sqrt(2)", "sqrt(2) - 1"])
def test_bad_alpha(bad):
    with pytest.raises(InvalidInput, match="alpha"):
        Level.from_alpha(bad)


def test_level_compare_boundaries():
    L = Level.from_alpha("1/2")  # e^(eps d) = 2^d
    assert L.compare(fmpq(2), fmpq(1), fmpq(1)) == 0          # exactly at the bound
    assert L.compare(fmpq(2) + fmpq(1, 10**30), fmpq(1), fmpq(1)) == 1
    assert L.compare(fmpq(4), fmpq(1), fmpq(3, 2)) == 1        # 4 > 2^(3/2)
    assert L.compare(fmpq(8), fmpq(3), fmpq(3, 2)) == -1       # 8/3 < 2^(3/2) = 2.83
    assert L.compare(fmpq(2), fmpq(1), Lin.sqrt(2)) == -1      # Gelfond-Schneider: 2 < 2^sqrt2
    assert L.compare(fmpq(0), fmpq(0), fmpq(1)) == 0
    assert L.compare(fmpq(1), fmpq(0), fmpq(1)) == 1
    T = Level.from_eps("1/2")
    h = ExpFrac.exp(Lin.rat(fmpq(1, 2)))
    assert T.compare(h, fmpq(1), fmpq(1)) == 0                # e^(1/2) = e^(eps*1)
    assert T.compare(h * h, fmpq(1), fmpq(2)) == 0
    assert T.compare(fmpq(3, 2), fmpq(1), fmpq(1)) == -1
    S = Level.from_eps("sqrt(2)")
    assert S.compare(ExpFrac.exp(Lin.sqrt(8)), fmpq(1), fmpq(2)) == 0


def test_symbolic_setting_alpha_is_exp_minus_eps():
    a = exact_number("alpha", Setting.symbolic())
    assert (a - exact_number("exp(-eps)", Setting.symbolic())).is_zero()
