"""The truncated discrete Gaussian (issue 22 item 1): entries against an independent brute force in
fractions.Fraction, the exact smallest eps against the stated formula, symbolic bases, every refusal."""

from fractions import Fraction as Fr

import pytest
from _central_brute import brute_max_ratio, fr_rows, log_text
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, InvalidType, certify_privacy, path, smallest_epsilon
from exactdp.errors import InputTooLarge
from exactdp.exact.level import level_of
from exactdp.mechanisms.discrete_gaussian import discrete_gaussian


def brute_gaussian(n, beta):
    rows = []
    for x in range(n + 1):
        w = [beta ** ((y - x) ** 2) for y in range(n + 1)]
        rows.append([v / sum(w) for v in w])
    return rows


def gaussian_eps_ratio(n, beta):
    """The module's formula: e^(eps*) = max_x beta^(-(2x+1)) Z_(x+1)/Z_x."""
    Z = [sum(beta ** ((y - x) ** 2) for y in range(n + 1)) for x in range(n + 1)]
    return max(beta ** (-(2 * x + 1)) * Z[x + 1] / Z[x] for x in range(n))


@pytest.mark.parametrize("n,beta", [(1, Fr(1, 2)), (3, Fr(1, 2)), (4, Fr(2, 3)), (6, Fr(9, 10))])
def test_gaussian_brute_and_smallest_eps(n, beta):
    G = discrete_gaussian(n, base=f"{beta.numerator}/{beta.denominator}")
    assert fr_rows(G) == brute_gaussian(n, beta)
    R = gaussian_eps_ratio(n, beta)
    assert brute_max_ratio(brute_gaussian(n, beta), [(x, x + 1) for x in range(n)]) == R
    assert smallest_epsilon(G, path(n + 1)).evidence.epsilon == log_text(R)


def test_gaussian_symbolic_and_sigma2():
    assert fr_rows(discrete_gaussian(3).at(level_of(alpha="1/3"))) == brute_gaussian(3, Fr(1, 3))
    # sigma^2 = 1/2: beta = e^(-1) -- the same as base exp(-1); eps* brackets the float value of the formula
    G = discrete_gaussian(3, sigma2="1/2")
    assert G.to_json() == discrete_gaussian(3, base="exp(-1)").to_json()
    import math
    b = math.exp(-1)
    Z = [sum(b ** ((y - x) ** 2) for y in range(4)) for x in range(4)]
    approx = max((2 * x + 1) + math.log(Z[x + 1] / Z[x]) for x in range(3))
    lo, hi = Fr(approx) - Fr(1, 10**6), Fr(approx) + Fr(1, 10**6)
    assert certify_privacy(G, path(4), eps=f"{hi.numerator}/{hi.denominator}").holds
    assert not certify_privacy(G, path(4), eps=f"{lo.numerator}/{lo.denominator}").holds


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 5), st.integers(1, 9), st.integers(2, 10))
def test_random_gaussian_against_formula(n, a, b):
    beta = Fr(min(a, b - 1), b)
    G = discrete_gaussian(n, base=f"{beta.numerator}/{beta.denominator}")
    assert fr_rows(G) == brute_gaussian(n, beta)
    assert smallest_epsilon(G, path(n + 1)).evidence.epsilon == log_text(gaussian_eps_ratio(n, beta))


@pytest.mark.parametrize("call,exc,match", [
    (lambda: discrete_gaussian(0, base="1/2"), InvalidInput, "n: expected an integer >= 1"),
    (lambda: discrete_gaussian(1000, base="1/2"), InputTooLarge, "exceeds the limit"),
    (lambda: discrete_gaussian(3, base="1/2", sigma2="1"), InvalidInput, "not both"),
    (lambda: discrete_gaussian(3, base="3/2"), InvalidInput, r"^base: expected an exact number 0 < beta < 1 .*'3/2'"),
    (lambda: discrete_gaussian(3, base="2"), InvalidInput, r"^base: .*got '2'$"),      # audit 2026-11-24: not alpha
    (lambda: discrete_gaussian(3, base="x"), InvalidInput, r"^base: .*got 'x'$"),
    (lambda: discrete_gaussian(3, sigma2="-1"), InvalidInput, "sigma\\^2 > 0"),
    (lambda: discrete_gaussian(3.5, base="1/2"), InvalidType, "n: expected an integer"),
])
def test_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
