"""Closed forms of sum w^j t^(k w) and of running sums of noises against Fraction brute force (issue 28)."""

from fractions import Fraction

import pytest

from exactdp.programs.ratfunc import RatFunc
from exactdp.programs.sums import chain_probability, poly_geometric

T = Fraction(1, 3)


def _tail_bound(j, k, N):
    """An exact bound on sum_{w >= N} w^j x^w for x = T^k < 1, N >= 2 j: the terms fall by the factor
    ((w+1)/w)^j x <= (1 + 1/N)^j x <= r < 1, so the tail is at most term(N) / (1 - r)."""
    x = T ** k
    r = (1 + Fraction(1, N)) ** j * x
    assert r < 1
    return Fraction(N) ** j * x ** N / (1 - r)


@pytest.mark.parametrize("j", [0, 1, 2, 3])
@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2])
@pytest.mark.parametrize("A,B", [(-4, 5), (0, 0), (3, 7), (-6, -2), (2, 1)])
def test_finite_sums_equal_the_direct_sum(j, k, A, B):
    direct = sum((Fraction(w) ** j * T ** (k * w) for w in range(A, B + 1)), Fraction(0))
    assert poly_geometric(j, k, A, B).at(T) == direct


@pytest.mark.parametrize("j", [0, 1, 2, 4])
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("A", [-5, 0, 4])
def test_infinite_sums_lie_in_the_exact_truncation_interval(j, k, A):
    N = 60
    head = sum((Fraction(w) ** j * T ** (k * w) for w in range(A, N)), Fraction(0))
    right = poly_geometric(j, k, A, None).at(T)
    assert head <= right <= head + _tail_bound(j, k, N)
    # the left tail: sum_{w <= -A} w^j t^(-k w) = (-1)^j sum_{v >= A} v^j t^(k v)
    assert poly_geometric(j, -k, None, -A).at(T) == (-1) ** j * right


def test_known_closed_forms():
    t = RatFunc.mono(1)
    assert poly_geometric(0, 1, 0, None) == 1 / (1 - t)
    assert poly_geometric(1, 1, 1, None) == t / ((1 - t) * (1 - t))
    assert poly_geometric(2, 1, 0, None) == t * (1 + t) / ((1 - t) * (1 - t) * (1 - t))
    assert poly_geometric(3, 0, 1, 4) == RatFunc(100)


@pytest.mark.parametrize("j,k,A,B,msg", [
    (0, 0, 0, None, "diverges"), (1, -1, 0, None, "diverges"), (2, 1, None, 0, "diverges"),
    (-1, 1, 0, 3, "power of w must be >= 0"),
])
def test_divergent_or_bad_sums_are_refused(j, k, A, B, msg):
    with pytest.raises(ValueError, match=msg):
        poly_geometric(j, k, A, B)


def _brute_chain(steps, t, W):
    """``(low, lost)``: the chain summed over noises in ``[-W, W]`` and an exact bound on the mass outside."""
    low, lost = Fraction(0), Fraction(0)

    def rec(k, s, w):
        nonlocal low, lost
        if k == len(steps):
            low += w
            return
        kind, e, lo, hi = steps[k]
        a = t ** e
        lost += w * (a ** (W + 1) if kind == "geo" else 2 * a ** (W + 1) / (1 + a))
        for z in range(0 if kind == "geo" else -W, W + 1):
            pz = (1 - a) * a ** z if kind == "geo" else (1 - a) / (1 + a) * a ** abs(z)
            if (lo is None or s + z >= lo) and (hi is None or s + z <= hi):
                rec(k + 1, s + z, w * pz)

    rec(0, 0, Fraction(1))
    return low, lost


@pytest.mark.parametrize("steps", [
    [("dlap", 1, None, -2), ("dlap", 1, 3, None)],
    [("dlap", 1, 2, None), ("dlap", 1, 2, None)],           # both partial sums in the upper tail: |s| a^|s|
    [("dlap", 2, -1, 1), ("dlap", 1, None, None), ("dlap", 1, 4, None)],
    [("dlap", 1, 1, None), ("dlap", 1, None, 0), ("dlap", 1, 2, None)],
    [("dlap", 1, 8, None), ("dlap", 1, 8, None), ("dlap", 1, None, -6)],
    [("geo", 1, None, None), ("dlap", 1, None, 1), ("geo", 2, 0, 3)],
    [("dlap", 1, -2, 2), ("dlap", 1, -2, 2), ("dlap", 1, -2, 2)],
    [("dlap", 3, 0, 0), ("dlap", 1, None, None), ("dlap", 2, -1, -1)],
])
def test_chains_lie_in_the_brute_force_enclosure(steps):
    t = Fraction(1, 6)
    low, lost = _brute_chain(steps, t, 10)
    assert lost < Fraction(1, 10**6)
    val = chain_probability(steps).at(t)
    assert low <= val <= low + lost


def test_the_law_of_a_sum_of_two_noises_has_the_linear_term():
    # P(Z_1 + Z_2 = s) = C^2 t^|s| (|s| + (1 + t^2)/(1 - t^2)) for s != 0 (the sum over z splits at 0 and s)
    t = RatFunc.mono(1)
    C = (1 - t) / (1 + t)
    for s in (1, 3, -2):
        p = chain_probability([("dlap", 1, None, None), ("dlap", 1, s, s)])
        ts = RatFunc.mono(abs(s))
        assert p == C * C * ts * (abs(s) + (1 + t * t) / (1 - t * t))
    # the whole law sums to one; an empty interval has probability 0
    assert chain_probability([("dlap", 1, None, None), ("geo", 2, None, None)]) == RatFunc(1)
    assert chain_probability([("dlap", 1, 1, 0)]) == RatFunc(0)
    assert chain_probability([("geo", 1, None, -1)]) == RatFunc(0)


def test_bad_steps_are_refused():
    with pytest.raises(ValueError, match="outside dlap/geo"):
        chain_probability([("lap", 1, None, None)])
    with pytest.raises(ValueError, match="outside dlap/geo"):
        chain_probability([("dlap", 0, None, None)])
