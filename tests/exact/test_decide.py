"""Regression tests for issue 8 (hardening), library side: float bounds and enclosures beyond the float range.

Each input is the one the issue reports. Moved from tests/test_hardening.py, which was split by the module each
test exercises."""

import math

import pytest
from flint import arb, fmpq

from exactdp.certify import certify_privacy
from exactdp.exact.decide import decimal_enclosure, float_bounds
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.exact.values import exact_number
from exactdp.mechanism import Mechanism
from exactdp.metrics import from_matrix


# ------------------------------------------------------------ float filter ----
@pytest.mark.parametrize("text", ["10^400", "1/10^400", "-10^400", "7/10^330"])
def test_float_bounds_beyond_float_range(text):
    x = exact_number(text)
    lo, hi = float_bounds(x)
    assert lo <= hi
    # the bounds enclose x (checked exactly, infinities as sides only)
    assert lo == -math.inf or fmpq(*lo.as_integer_ratio()) <= x
    assert hi == math.inf or x <= fmpq(*hi.as_integer_ratio())


def test_decimal_enclosure_of_tiny_number():
    x = fmpq(1, 10**400)
    lo, hi = decimal_enclosure(x)
    assert lo.startswith("0." + "0" * 399) and exact_number(lo) <= x <= exact_number(hi) < 2 * x


@pytest.mark.parametrize("dist, holds", [("10^400", True), ("1/10^400", False)])
def test_matrix_metric_with_huge_and_tiny_distances(dist, holds):
    m = from_matrix(["0", "1"], [[0, dist], [dist, 0]])
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
    # the binding ratio is 2 against e^(d) (eps = 1) or 2^d (eps = log 2)
    for eps in ("1", "log(2)"):
        assert certify_privacy(K, m, eps=eps).holds is holds


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
