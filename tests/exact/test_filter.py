"""The one certified float filter (exactdp.exact.filter) and the three checkers built on it.

Every status the filter gives is checked against exact ``Fraction`` arithmetic (an independent brute force), on
random inputs (hypothesis) and on the boundary: a comparison that is an exact tie must reach the exact path.
"""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Mechanism
from exactdp.privacy.constraints import Constraints
from exactdp.errors import NotAMetric
from exactdp.exact.decide import float_bounds
from exactdp.exact.filter import (NEG, POS, UNKNOWN, ZERO, FilterStats, add, compare, enclose, filtered, mul_nonneg,
                                  resolve, sign_status, sub)
from exactdp.exact.level import Level
from exactdp.metrics import from_matrix, path
from exactdp.extension.extension import extension_data

finite_floats = st.floats(allow_nan=False, allow_infinity=False)
fractions = st.fractions(max_denominator=10**6) | st.builds(
    lambda p, q, e: Fraction(p, q) * Fraction(2) ** e, st.integers(-10**6, 10**6), st.integers(1, 10**6),
    st.integers(-1100, 1100))  # far outside the float range too


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def _bounds(x: Fraction):
    from flint import fmpq

    return float_bounds(fmpq(x.numerator, x.denominator))


# -- the arithmetic is outward: the exact result lies in the enclosure -----------------------------------------
@settings(max_examples=300, deadline=None)
@given(finite_floats, finite_floats)
def test_add_sub_enclose_the_exact_result(x, y):
    X, Y = Fraction(x), Fraction(y)
    lo, hi = add(x, x, y, y)
    assert _le(float(lo), X + Y) and _le(X + Y, float(hi))
    lo, hi = sub(x, x, y, y)
    assert _le(float(lo), X - Y) and _le(X - Y, float(hi))


@settings(max_examples=300, deadline=None)
@given(finite_floats.map(abs), finite_floats.map(abs))
def test_mul_nonneg_encloses_the_exact_product(x, y):
    lo, hi = mul_nonneg(x, x, y, y)
    P = Fraction(x) * Fraction(y)
    assert float(lo) >= 0 and _le(float(lo), P) and _le(P, float(hi))


def _le(a, b) -> bool:
    """``a <= b`` for floats (possibly infinite) and Fractions, exactly."""
    if isinstance(a, float) and math.isinf(a):
        return a < 0
    if isinstance(b, float) and math.isinf(b):
        return b > 0
    return Fraction(a) <= Fraction(b)


def test_outward_at_the_edges_of_the_float_range():
    big = sys.float_info.max
    lo, hi = add(big, big, big, big)  # overflows to inf: the lower bound is still a float <= 2 big
    assert float(lo) == big and float(hi) == math.inf
    tiny = 5e-324
    lo, hi = mul_nonneg(tiny, tiny, 0.5, 0.5)  # the product underflows (rounds to 0 or to tiny)
    assert float(lo) == 0.0 and float(hi) > 0.0
    lo, hi = sub(math.inf, math.inf, math.inf, math.inf)  # inf - inf: NaN, never decided
    assert sign_status(lo, hi).tolist() == UNKNOWN


# -- statuses: sound against brute force, and every tie reaches the exact path --------------------------------
@settings(max_examples=300, deadline=None)
@given(fractions, fractions)
def test_compare_is_sound_and_never_decides_a_tie(a, b):
    s = int(compare(*_bounds(a), *_bounds(b)))
    assert s in (NEG, POS, UNKNOWN)
    if s != UNKNOWN:
        assert s == _sign(a - b)
    assert int(compare(*_bounds(a), *_bounds(a))) == UNKNOWN


@settings(max_examples=200, deadline=None)
@given(st.lists(fractions, min_size=1, max_size=20))
def test_filtered_matches_brute_force_and_sends_only_the_unsettled(xs):
    lo, hi = enclose(xs, lambda x: (float(x), float(x)) if abs(x) < 10**300 else (-math.inf, math.inf))
    sent = []

    def exact(idx):
        sent.extend(idx.tolist())
        return [_sign(xs[i]) for i in idx]

    stats = FilterStats()
    out = filtered(lo, hi, exact, stats)
    assert out.tolist() == [_sign(x) for x in xs]
    assert set(sent) >= {i for i, x in enumerate(xs) if x == 0}  # every exact zero went to the exact path
    assert sent == sorted(sent) and len(set(sent)) == len(sent)
    assert (stats.compared, stats.exact, stats.filtered) == (len(xs), len(sent), len(xs) - len(sent))


def test_boundary_touching_enclosures_go_to_the_exact_path():
    # a ratio equal to its bound: 1/3 <= 3 * (1/9) exactly; the float enclosures touch or overlap
    a, b, E = Fraction(1, 3), Fraction(1, 9), Fraction(3)
    st_ = compare(*_bounds(a), *mul_nonneg(*_bounds(E), *_bounds(b)))
    assert int(st_) == UNKNOWN
    # enclosures that merely touch ([1, 2] and [2, 3]) are not separated
    assert compare([1.0], [2.0], [2.0], [3.0]).tolist() == [UNKNOWN]
    assert sign_status([0.0, -1.0], [1.0, 0.0]).tolist() == [UNKNOWN, UNKNOWN]


def test_resolve_counts_and_keeps_exact_undecided():
    status = np.array([POS, UNKNOWN, NEG, UNKNOWN], dtype=np.int8)
    stats = FilterStats(compared=1, zero=1)
    t = resolve(status, lambda idx: [ZERO, UNKNOWN], stats)
    assert t.tolist() == [POS, ZERO, NEG, UNKNOWN]
    assert (stats.compared, stats.zero, stats.filtered, stats.exact) == (5, 1, 2, 2)
    assert stats.exact_seconds >= 0
    with pytest.raises(RuntimeError, match="internal error"):
        resolve(np.array([UNKNOWN], dtype=np.int8), lambda idx: [])


def test_note_is_one_sentence_for_every_checker():
    s = FilterStats(compared=2, filtered=1, exact=1)
    assert s.note() == ("of 2 distinct comparisons, 1 was settled by a certified outward-rounded floating-point "
                        "filter, 1 decided exactly, 0 by exact zeros")
    s.repeated = 3
    assert s.note("candidate").startswith("of 2 candidates") and s.note().endswith(
        ", 3 by an identical earlier comparison")


# -- the privacy constraints: statuses against brute force -----------------------------------------------------
def _brute_constraints(rows, dist, alpha: Fraction):
    """(violated, tight) over ordered pairs at distance 1 of a path, exactly with Fractions (alpha^-d); a zero
    on the left is slack, never tight (0 <= anything is not a binding constraint)."""
    viol = tight = 0
    n = len(rows)
    for x, y in itertools.permutations(range(n), 2):
        if abs(x - y) != 1:
            continue
        for z in range(len(rows[0])):
            a, b = rows[x][z], rows[y][z]
            s = _sign(a - b / alpha ** dist) if a else -1
            viol += s > 0
            tight += s == 0
    return viol, tight


row_strategy = st.lists(st.integers(0, 6), min_size=3, max_size=3).filter(lambda r: sum(r) > 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(row_strategy, min_size=2, max_size=4), st.sampled_from(["1/2", "1/3", "2/3", "1/4", "3/4"]))
def test_constraint_statuses_match_brute_force(raw, alpha):
    rows = [[Fraction(v, sum(r)) for v in r] for r in raw]
    K = Mechanism.from_rows([str(i) for i in range(len(rows))], ["a", "b", "c"], [[str(v) for v in r] for r in rows])
    S = Constraints(K, path(len(rows))).decide(Level.from_alpha(alpha))
    assert (S.violated, S.tight) == _brute_constraints(rows, 1, Fraction(alpha))
    assert S.stats.compared == S.stats.zero + S.stats.filtered + S.stats.exact


def test_an_exact_tie_in_the_constraints_is_decided_exactly():
    # 1/3 = 3 * 1/9 at alpha = 1/3: tight; the filter must leave it to the exact path
    K = Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/3", "2/3"], ["1/9", "8/9"]])
    S = Constraints(K, path(2)).decide(Level.from_alpha("1/3"))
    assert S.tight == 1 and S.violated == 0 and S.stats.exact >= 1
    S = Constraints(K, path(2)).decide(Level.from_alpha("1/2"))  # 1/3 > 2/9: violated, far from a tie
    assert S.violated == 1 and S.tight == 0


# -- the metric axioms: generating pairs against brute force, with float-inexact ties --------------------------
def _brute_pairs(D):
    n = len(D)
    return sorted((x, y) for x in range(n) for y in range(x + 1, n)
                  if not any(D[x][w] + D[w][y] == D[x][y] for w in range(n) if w not in (x, y)))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(1, 3),
                                 Fraction(2, 3)]), min_size=2, max_size=5))
def test_generating_pairs_match_brute_force_on_a_line(steps):
    # points on a line: d = |p_x - p_y|, so 0.1 + 0.2 = 0.3 is an exact tie that floats miss
    pos = [Fraction(0)]
    for s in steps:
        pos.append(pos[-1] + s)
    D = [[abs(p - q) for q in pos] for p in pos]
    M = from_matrix([str(i) for i in range(len(pos))], [[str(v) for v in r] for r in D])
    got = sorted((i, j) for i, j, _ in M.generating_pairs())
    assert got == _brute_pairs(D) == [(i, i + 1) for i in range(len(pos) - 1)]


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5).flatmap(lambda n: st.tuples(st.just(n), st.lists(
    st.sampled_from([Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(1, 3), Fraction(2, 3), Fraction(1)]),
    min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2))))
def test_metric_axioms_match_brute_force_on_random_matrices(nd):
    # both verdicts: a triangle inequality that fails (found exactly), or the generating pairs (ties included)
    n, upper = nd
    D = [[Fraction(0)] * n for _ in range(n)]
    for (x, y), v in zip(itertools.combinations(range(n), 2), upper, strict=True):
        D[x][y] = D[y][x] = v
    broken = any(D[x][y] > D[x][w] + D[w][y] for x in range(n) for y in range(n) for w in range(n))
    text = [[str(v) for v in r] for r in D]
    if broken:
        with pytest.raises(NotAMetric, match="triangle inequality fails"):
            from_matrix([str(i) for i in range(n)], text)
    else:
        M = from_matrix([str(i) for i in range(n)], text)
        assert sorted((i, j) for i, j, _ in M.generating_pairs()) == _brute_pairs(D)


def test_a_triangle_violated_by_one_ulp_worth_is_refused_exactly():
    D = [["0", "1/10", "3/10"], ["1/10", "0", "2/10"], ["3/10", "2/10", "0"]]
    assert len(from_matrix(["a", "b", "c"], D).generating_pairs()) == 2  # 1/10 + 2/10 = 3/10 exactly
    D[0][2] = D[2][0] = "3/10 + 1/10^30"
    with pytest.raises(NotAMetric, match="triangle inequality fails"):
        from_matrix(["a", "b", "c"], D)


# -- the extension's minima: against brute force -------------------------------------------------------------
def test_extension_minima_match_brute_force_with_ties():
    # H = {0, 3} on a path of 4 at alpha = 1/2: e^(eps d) = 2^d; minima of 2^d(D, D') A(D')(w)
    A = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [[str(v) for v in r] for r in A])
    X = extension_data(Ah, path(4), ["0", "3"], alpha="1/2")
    for i in range(4):
        for w in range(2):
            want = min(Fraction(2) ** abs(i - h) * A[k][w] for k, h in enumerate((0, 3)))
            assert Fraction(str(X.minima[i][w])) == want
    s = X.comparisons
    assert s.compared == s.zero + s.filtered + s.exact + s.repeated
    # every one of the 4 x 2 minima is formed exactly from at least one candidate; at point 0, output a, the
    # candidate 2^3 * 3/4 = 6 is far above 3/4 and is dropped by the filter
    assert s.exact >= 8 and s.filtered >= 1 and s.zero == 0


def _sent_to_exact(monkeypatch, K, metric, alpha):
    """The (a, b) value pairs of the comparisons that reached the exact path, and the summary."""
    sent = []
    compare_exactly = Constraints._compare

    def record(self, a, b, dc, level):
        sent.append((Fraction(str(self.mech.values[a])), Fraction(str(self.mech.values[b]))))
        return compare_exactly(self, a, b, dc, level)

    monkeypatch.setattr(Constraints, "_compare", record)
    S = Constraints(K, metric).decide(Level.from_alpha(alpha))
    return sent, S


def test_only_the_tie_reaches_the_exact_path(monkeypatch):
    K = Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/3", "2/3"], ["1/9", "8/9"]])
    sent, S = _sent_to_exact(monkeypatch, K, path(2), "1/3")   # e^eps = 3: 1/3 = 3 * 1/9 exactly
    assert sent == [(Fraction(1, 3), Fraction(1, 9))]
    assert (S.tight, S.violated) == (1, 0) and S.stats.exact == 1 and S.stats.filtered == 3


def test_a_tie_below_the_float_range_reaches_the_exact_path(monkeypatch):
    # 2^-1100 = 2 * 2^-1101 at alpha = 1/2: both values round to 0.0 as floats, the log-space filter sees a tie
    t1, t2 = Fraction(1, 2**1100), Fraction(1, 2**1101)
    K = Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/2^1100", "1 - 1/2^1100"], ["1/2^1101", "1 - 1/2^1101"]])
    sent, S = _sent_to_exact(monkeypatch, K, path(2), "1/2")
    assert sent == [(t1, t2)]
    assert (S.tight, S.violated) == (1, 0) and S.stats.filtered == 3
