"""ExpFrac, exponential polynomials in eps (exactdp.exact.expo): the Lindemann-Weierstrass zero test, signs of tiny
differences, and the field laws against Arb balls."""

from flint import ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.exact.decide import sign
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin


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
