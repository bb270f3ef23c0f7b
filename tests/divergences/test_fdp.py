"""f-DP exactly (issue 22 item 3): trade-off functions against an independent brute force over randomized tests
(the fractional-knapsack optimum enumerated over subsets plus one randomised output -- no likelihood-ratio order),
the symmetrised envelope against what defines the greatest convex minorant, the k-fold curve against the product
rows, the Gaussian-DP bracket against mpmath at 60 digits and the closed form 2 Phi^-1(p) of randomized response,
and every refusal."""

import itertools
import math
from fractions import Fraction as Fr

import mpmath
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, Mechanism
from exactdp.exact.decide import sign
from exactdp.exact.values import exact_number
from exactdp.mechanisms import generalized_rr, geometric, randomized_response
from exactdp.metrics import discrete, path
from exactdp.divergences.fdp import fdp_curve, gaussian_mu, gdp_holds, lower_hull, tradeoff
from exactdp.errors import InvalidType


def brute_T(P, Q, a):
    """min type II error at type I error <= a, over tests phi = 1 on S and lam on one more output y.

    The LP  max sum phi_y Q_y  s.t.  sum phi_y P_y <= a, 0 <= phi <= 1  has an optimal vertex with at most one
    fractional coordinate, so enumerating (S, y, best lam) finds its exact optimum.
    """
    n = len(P)
    best = Fr(0)
    for mask in range(1 << n):
        S = [y for y in range(n) if mask >> y & 1]
        pS, qS = sum((P[y] for y in S), Fr(0)), sum((Q[y] for y in S), Fr(0))
        if pS > a:
            continue
        best = max(best, qS)
        for y in range(n):
            if y in S:
                continue
            lam = Fr(1) if P[y] == 0 else min(Fr(1), (a - pS) / P[y])
            best = max(best, qS + lam * Q[y])
    return 1 - best


def fr(v):
    return Fr(str(v))


@st.composite
def distribution(draw, n):
    w = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n).filter(lambda x: sum(x) > 0))
    return [Fr(x, sum(w)) for x in w]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(distribution(n), distribution(n))),
       st.lists(st.fractions(0, 1, max_denominator=40), min_size=1, max_size=4))
def test_tradeoff_against_brute_force(PQ, alphas):
    P, Q = PQ
    f = tradeoff([str(x) for x in P], [str(x) for x in Q])
    for a in alphas + [Fr(0), Fr(1)] + [fr(x) for x, _ in f.points]:
        assert fr(f(str(a))) == brute_T(P, Q, a)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(distribution(n), distribution(n))))
def test_inverse_is_the_swapped_pair(PQ):
    P, Q = PQ
    g = tradeoff([str(x) for x in P], [str(x) for x in Q]).inverse()
    h = tradeoff([str(x) for x in Q], [str(x) for x in P])
    assert [(fr(a), fr(b)) for a, b in g.points] == [(fr(a), fr(b)) for a, b in h.points]


def test_vertices_of_randomized_response():
    # P = (3/4, 1/4), Q = (1/4, 3/4): reject y = 1 first (Q/P = 3), then y = 0
    f = tradeoff(["3/4", "1/4"], ["1/4", "3/4"])
    assert [(fr(a), fr(b)) for a, b in f.points] == [(0, 1), (Fr(1, 4), Fr(1, 4)), (1, 0)]
    assert f.symmetric()
    assert not tradeoff(["1/2", "1/2"], ["1/4", "3/4"]).symmetric()


def brute_min_T(rows, pairs, a):
    return min(brute_T(rows[i], rows[j], a) for x, y in pairs for i, j in ((x, y), (y, x)))


def rows_fr(mech):
    return [[fr(v) for v in r] for r in mech.rows()]


def check_greatest_convex_minorant(f, rows, pairs, grid):
    """f convex, f <= min_pairs T (at every pair's vertices and on a grid), f = min T at f's vertices."""
    pts = [(fr(a), fr(b)) for a, b in f.points]
    assert pts[0][0] == 0 and pts[-1] == (1, 0)
    slopes = [(b1 - b0) / (a1 - a0) for (a0, b0), (a1, b1) in itertools.pairwise(pts)]
    assert all(s0 < s1 for s0, s1 in itertools.pairwise(slopes))
    for a, b in pts:
        assert b == brute_min_T(rows, pairs, a)
    for a in grid:
        assert fr(f(str(a))) <= brute_min_T(rows, pairs, a)


def test_envelope_of_an_asymmetric_mechanism():
    # three inputs on a path; rows chosen so that the two edges give different trade-off functions
    rows = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/8", "1/8", "3/4"]]
    m = Mechanism.from_rows(["0", "1", "2"], ["a", "b", "c"], rows)
    f = fdp_curve(m, path(3))
    R = [[Fr(x) for x in r] for r in rows]
    check_greatest_convex_minorant(f, R, [(0, 1), (1, 2)], [Fr(k, 24) for k in range(25)])
    assert all(p in (("0", "1"), ("1", "0"), ("1", "2"), ("2", "1")) for p in f.pairs)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 3).flatmap(lambda n: st.lists(distribution(3), min_size=n, max_size=n)))
def test_envelope_property(rows):
    m = Mechanism.from_rows([str(i) for i in range(len(rows))], ["a", "b", "c"], [[str(x) for x in r] for r in rows])
    pairs = [(i, i + 1) for i in range(len(rows) - 1)]
    f = fdp_curve(m, path(len(rows)))
    check_greatest_convex_minorant(f, rows, pairs, [Fr(k, 12) for k in range(13)])


def product_rows(rows, k):
    return [[math.prod(c, start=Fr(1)) for c in itertools.product(r, repeat=k)] for r in rows]


@pytest.mark.slow
@pytest.mark.parametrize("n,k", [(2, 2), (1, 3)])
def test_composition_against_product_rows(n, k):
    # brute force over all tests on the (n+1)^k product outputs (at most 9)
    m = geometric(n, "1/3")
    R = product_rows(rows_fr(m), k)
    f = fdp_curve(m, path(n + 1), times=k)
    check_greatest_convex_minorant(f, R, [(i, i + 1) for i in range(n)], [Fr(j, 30) for j in range(31)])


def test_composition_of_randomized_response_by_hand():
    # P^2 = (9, 3, 3, 1)/16 against Q^2 = (1, 3, 3, 9)/16
    f = fdp_curve(randomized_response(2, p="1/4"), [("0", "1")], times=2)
    assert [(fr(a), fr(b)) for a, b in f.points] == [(0, 1), (Fr(1, 16), Fr(7, 16)), (Fr(7, 16), Fr(1, 16)), (1, 0)]


@mpmath.workdps(60)
def test_transcendental_vertex():
    # geometric on {0,1,2} at alpha = e^-1: the one interior vertex is (alpha/(1+alpha), alpha/(1+alpha)) = 1/(1+e)
    f = fdp_curve(geometric(2, eps="1"), path(3))
    assert len(f.points) == 3
    v = exact_number("1/(1+exp(1))")
    assert sign(f.points[1][0] - v) == 0 and sign(f.points[1][1] - v) == 0
    b = gaussian_mu(f, "1/10000")
    mu = 2 * mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.e / (1 + mpmath.e) - 1)   # 2 Phi^-1(e/(1+e))
    assert mp(b.lo) <= mu <= mp(b.hi)


def mp(q):
    """A rational (fmpq or Fraction) as an mpmath number at the working precision."""
    q = Fr(str(q))
    return mpmath.mpf(q.numerator) / q.denominator


def phi_inv(p):
    return mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1)


@pytest.mark.parametrize("p", ["3/4", "2/3", "9/10", "99/100", "51/100"])
@mpmath.workdps(60)
def test_gaussian_mu_of_randomized_response(p):
    # T(P, Q) has one interior vertex (1-p, 1-p): mu* = Phi^-1(p) - Phi^-1(1-p) = 2 Phi^-1(p)
    pq = Fr(p)
    f = tradeoff([p, str(1 - pq)], [str(1 - pq), p])
    b = gaussian_mu(f, "1/100000")
    mu = 2 * phi_inv(mp(pq))
    lo, hi = mp(b.lo), mp(b.hi)
    assert lo <= mu <= hi and b.hi - b.lo <= fmpq(1, 100000) and not b.exact
    assert gdp_holds(f, b.hi) is True
    assert gdp_holds(f, b.lo) is False          # mu* is irrational here, so lo < mu* strictly
    assert fr(b.vertex[0]) == 1 - pq


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 4).flatmap(lambda n: st.tuples(distribution(n), distribution(n))))
@mpmath.workdps(60)
def test_gaussian_mu_against_mpmath(PQ):
    P, Q = PQ
    f = tradeoff([str(x) for x in P], [str(x) for x in Q])
    b = gaussian_mu(f, "1/1000")
    # independent: the vertices by brute force at every partial sum of the outputs, mu_i with mpmath
    if any(q > 0 and p == 0 for p, q in zip(P, Q, strict=True)):
        assert b.hi is None
        return
    mus = []
    for x, _ in f.points:
        x = fr(x)
        t = brute_T(P, Q, x)
        if 0 < x < 1:
            if t == 0:
                assert b.hi is None
                return
            mus.append(phi_inv(1 - mp(x))
                       - phi_inv(mp(t)))
    assert b.hi is not None
    mu = max(mus, default=mpmath.mpf(0))
    assert mp(b.lo) - mpmath.mpf(10) ** -40 <= mu <= mp(b.hi) + mpmath.mpf(10) ** -40


def test_mu_zero_exactly_for_identical_rows():
    f = fdp_curve(Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/3", "2/3"], ["1/3", "2/3"]]), [("0", "1")])
    b = gaussian_mu(f)
    assert (b.lo, b.hi, b.exact) == (0, 0, True)
    assert gdp_holds(f, 0) is True


@pytest.mark.parametrize("P,Q,why", [
    (["1", "0"], ["1/2", "1/2"], "f(0) = 1/2 < 1"),          # Q puts mass where P has none
    (["1/2", "1/2"], ["1", "0"], "f(1/2) = 0"),              # P puts mass where Q has none
])
def test_no_finite_mu(P, Q, why):
    f = tradeoff(P, Q)
    b = gaussian_mu(f)
    assert b.hi is None and why in b.reason
    assert gdp_holds(f, 1000) is False


def test_composition_grows_mu():
    m = generalized_rr(2, eps="log(3)")
    mus = [gaussian_mu(fdp_curve(m, discrete(2), times=k), "1/100") for k in (1, 4)]
    assert mus[0].hi < mus[1].lo


def test_lower_hull_drops_collinear_and_duplicate_abscissae():
    q = fmpq
    pts = [(q(0), q(1)), (q(1, 2), q(1, 2)), (q(1, 2), q(1, 4)), (q(1), q(0)), (q(3, 4), q(1, 8))]
    assert lower_hull(pts) == [(q(0), q(1)), (q(1, 2), q(1, 4)), (q(1), q(0))]


@pytest.mark.parametrize("call,exc,match", [
    (lambda: tradeoff(["1/2", "1/2"], ["1"]), InvalidInput, "entries"),
    (lambda: tradeoff(["1/2", "1/3"], ["1/2", "1/2"]), InvalidInput, "sums to"),
    (lambda: tradeoff(["3/2", "-1/2"], ["1/2", "1/2"]), InvalidInput, "negative"),
    (lambda: tradeoff(["1"], ["1"])("3/2"), InvalidInput, r"in \[0, 1\]"),
    (lambda: gaussian_mu(tradeoff(["1"], ["1"]), "0"), InvalidInput, "width"),
    (lambda: gdp_holds(tradeoff(["1"], ["1"]), "-1"), InvalidInput, "mu"),
    (lambda: gdp_holds(tradeoff(["1"], ["1"]), "sqrt(2)"), InvalidInput, "mu"),
    (lambda: fdp_curve(geometric(2), path(3)), InvalidInput, "symbolic"),
    (lambda: fdp_curve(geometric(2, "1/2"), path(3), times=0), InvalidInput, "k >= 1"),
    (lambda: fdp_curve(geometric(2, "1/2"), path(3), times=True), InvalidType, "integer"),
    (lambda: fdp_curve(geometric(2, "1/2"), []), InvalidInput, "no neighbouring pair"),
])
def test_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
