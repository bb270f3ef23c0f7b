"""A fractional power of a rational alpha that is itself rational is evaluated, not refused (issue 29, item 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import pytest
from flint import fmpq

from exactdp.errors import UnsupportedRegime
from exactdp.exact.level import Level
from exactdp.mechanism import rational_power_of
from exactdp.mechanisms import exponential
from exactdp.metrics import path


def _brute_rows(alpha: Fraction, n: int):
    """exp(-(eps/2) d) = alpha^(d/2) with alpha = r^2: rows r^|i-j| normalised, in Fractions."""
    r = {Fraction(1, 4): Fraction(1, 2), Fraction(9, 16): Fraction(3, 4)}[alpha]
    rows = []
    for i in range(n):
        w = [r ** abs(i - j) for j in range(n)]
        rows.append([x / sum(w) for x in w])
    return rows


@pytest.mark.parametrize("alpha", [Fraction(1, 4), Fraction(9, 16)])
def test_at_a_square_alpha(alpha):
    M = exponential(path(3)).at(Level.from_alpha(str(alpha)))
    want = _brute_rows(alpha, 3)
    assert [[Fraction(int(v.p), int(v.q)) for v in row] for row in M.rows()] == want


def test_an_irrational_power_is_still_refused():
    with pytest.raises(UnsupportedRegime, match=r"alpha\^\(1/2\) is irrational at alpha = 1/2"):
        exponential(path(2)).at(Level.from_alpha("1/2"))


def test_log_beta_with_a_rational_root():
    """beta = log(4)/2: weights 4^(-d/2) = 2^(-d), rational; log(2)/2 stays refused."""
    assert [[str(v) for v in r] for r in exponential(path(2), beta="log(4)/2").rows()] == [["2/3", "1/3"],
                                                                                          ["1/3", "2/3"]]
    with pytest.raises(UnsupportedRegime, match="irrational"):
        exponential(path(2), beta="log(2)/2")


def test_rational_power_of():
    assert rational_power_of(fmpq(1, 4), fmpq(1, 2)) == fmpq(1, 2)
    assert rational_power_of(fmpq(8, 27), fmpq(-2, 3)) == fmpq(9, 4)
    assert rational_power_of(fmpq(4, 3), fmpq(1, 2)) is None            # numerator a square, denominator not
    assert rational_power_of(fmpq(3, 4), fmpq(1, 2)) is None
    assert rational_power_of(fmpq(2), fmpq(1, 2)) is None
    big = fmpq(3 ** 4000, 7 ** 3000)                                  # the integer Newton root, far past floats
    assert rational_power_of(big, fmpq(1, 1000)) == fmpq(81, 343)
    assert rational_power_of(big + 1, fmpq(1, 1000)) is None


@pytest.mark.slow
def test_cli_exponential_at_alpha_quarter():
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "exactdp", "mechanism", "exponential", "--k", "3", "--alpha", "1/4"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert '"matrix": [["4/7", "2/7", "1/7"], ["1/4", "1/2", "1/4"], ["1/7", "2/7", "4/7"]]' in out.stdout
