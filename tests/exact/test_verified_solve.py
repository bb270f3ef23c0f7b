"""Verified float solves, distance codes, equitable partitions and the symmetry-reduced Phi solves (issue 12),
and the threshold regressions of issue 8."""

import json

import networkx as nx
import numpy as np
import pytest
from flint import arb_mat, ctx, fmpq, fmpq_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.cli import main
from exactdp.errors import InvalidInput
from exactdp.exact.level import Level
from exactdp.exact.verified_solve import digit_width, verified_solve
from exactdp.metrics import cycle, discrete, from_graph, from_matrix, grid, path
from exactdp.metrics.symmetry import (DistanceCodes, Partition, _codes_generic, distance_codes, equitable_partition,
                                      is_equitable, quotient_counts)
from exactdp.priors.phi import PhiSystem
from exactdp.priors.regular import ball_size_symmetric, tight_constraints
from exactdp.priors.threshold import MAX_EXACT_COST, exact_threshold, threshold


# -- verified_solve against exact rational solves --------------------------------------------------------

def _exact(A, b):
    x = fmpq_mat(A.astype(int).tolist()).solve(fmpq_mat(len(b), 1, b))
    return [x[i, 0] for i in range(len(b))]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(0, 10**6))
def test_verified_solve_encloses_the_exact_solution(k, seed):
    rng = np.random.default_rng(seed)
    A = rng.integers(-9, 10, (k, k)).astype(float) + np.diag(rng.integers(20, 40, k) * rng.choice([-1, 1], k))
    b = [fmpq(int(v)) for v in rng.integers(-5, 6, k)]
    r = verified_solve([A], digit_width(k), fmpq(0), b)
    x = _exact(A, b)
    assert r is not None and r.beta < 1
    for v, (lo, hi), s in zip(x, r.enclosures, r.signs, strict=True):
        assert lo <= v <= hi
        assert s is None or s == (v > 0) - (v < 0)
        if v != 0:
            assert s == (v > 0) - (v < 0)  # the enclosures are tight enough to separate every nonzero x_i


def test_verified_solve_both_signs_and_zero():
    A = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
    b = [fmpq(1), fmpq(-1), fmpq(1)]
    assert _exact(A, b) == [fmpq(3, 2), fmpq(-2), fmpq(3, 2)]
    r = verified_solve([A], 20, fmpq(0), b)
    assert r.signs == [1, -1, 1]
    # an exactly zero component is never given a sign
    b = [fmpq(1), fmpq(3), fmpq(3)]
    r = verified_solve([A], 20, fmpq(0), b)
    assert _exact(A, b) == [0, 1, 1] and r.signs == [None, 1, 1]


def test_verified_solve_with_digits_and_remainder():
    """``A = S0 + S1 2^-w + E`` with ``0 <= E <= eta``: the enclosure holds for every such A."""
    w = 20
    S0 = np.array([[1.0, 0.0], [0.0, 1.0]])
    S1 = np.array([[0.0, 2.0 ** 19], [2.0 ** 19, 0.0]])   # off-diagonal 1/2
    eta = fmpq(1, 2 ** 40)
    r = verified_solve([S0, S1], w, eta, [fmpq(1), fmpq(1)])
    for e in (fmpq(0), eta):  # the two extreme matrices
        x = fmpq_mat([[1, fmpq(1, 2) + e], [fmpq(1, 2) + e, 1]]).solve(fmpq_mat(2, 1, [1, 1]))
        assert all(lo <= x[i, 0] <= hi for i, (lo, hi) in enumerate(r.enclosures))


def test_verified_solve_refuses_singular_and_bad_digits():
    assert verified_solve([np.array([[1.0, 2.0], [2.0, 4.0]])], 20, fmpq(0), [fmpq(1), fmpq(1)]) is None
    # condition number ~ 2^42, but the inverse is dyadic: verified exactly (beta = 0), with the exact solution
    near = np.array([[2.0 ** 20, 2.0 ** 20], [2.0 ** 20, 2.0 ** 20 + 1]])
    r = verified_solve([near], 20, fmpq(0), [fmpq(1), fmpq(2)])
    x = _exact(near, [fmpq(1), fmpq(2)])
    assert r.beta == 0 and x == [fmpq(1 - 2 ** 20, 2 ** 20), 1]
    assert all(lo <= v <= hi for v, (lo, hi) in zip(x, r.enclosures, strict=True))
    with pytest.raises(InvalidInput, match="digits too large"):
        verified_solve([np.array([[2.0 ** 40]])], 20, fmpq(0), [fmpq(1)])
    with pytest.raises(InvalidInput, match="not integers"):
        verified_solve([np.array([[0.5]])], 20, fmpq(0), [fmpq(1)])
    for bad in (0, -1, True, 1.0):  # level 0 holds the identity of I - R A: without it the bound is unsound
        with pytest.raises(InvalidInput, match="levels must be an integer >= 1"):
            verified_solve([np.array([[1.0]])], 20, fmpq(0), [fmpq(1)], levels=bad)


# -- distance codes and equitable partitions -------------------------------------------------------------

@pytest.mark.parametrize("m", [grid((4, 5), "euclidean"), grid((4, 4)), grid((3, 5), "chebyshev"), path(7), cycle(6),
                               discrete(5), grid((3, 3), "euclidean", step="1/2"), path(4).scaled("3/2"),
                               from_graph(nx.Graph([(0, 1), (2, 3), (3, 4)])), from_graph(nx.petersen_graph()),
                               from_matrix(["a", "b", "c"], [[0, 1, "sqrt(2)"], [1, 0, 1], ["sqrt(2)", 1, 0]])])
def test_distance_codes_match_the_metric(m):
    codes, values = distance_codes(m)
    n = len(m)
    assert all(values[codes[i, j]] == m.d(i, j) for i in range(n) for j in range(n))
    assert len(set(map(str, values))) == len(values)  # one code per distinct distance
    p = equitable_partition(m)
    assert is_equitable(codes, p.cell_of)
    g, _ = _codes_generic(m)
    assert is_equitable(g, p.cell_of)


def test_orbit_counts_of_the_papers_metrics():
    from exactdp.papers.ecp14 import sum_query_metric, two_count_metric

    # a 2m x 2m grid under its 8 symmetries has m (m + 1) / 2 orbits; 31 x 31: 16 * 17 / 2 = 136
    assert equitable_partition(grid((100, 100), "euclidean")).ncells == 50 * 51 // 2
    assert equitable_partition(two_count_metric()).ncells == 136
    assert equitable_partition(sum_query_metric()).ncells == 376      # 751 points, reflection
    assert equitable_partition(path(6)).cell_of.tolist() == [0, 1, 2, 2, 1, 0]


def test_equitability_is_checked_exactly():
    codes, _ = distance_codes(path(4))
    assert is_equitable(codes, np.array([0, 1, 1, 0]))
    assert not is_equitable(codes, np.array([0, 0, 1, 1]))
    # a regular graph that is not vertex-transitive still has an equitable partition with one cell per degree
    G = nx.Graph([(0, 1), (1, 2), (2, 0), (3, 4)])
    p = equitable_partition(from_graph(G))
    assert p.ncells == 2 and is_equitable(distance_codes(from_graph(G))[0], p.cell_of)


def test_quotient_counts_sum_to_cell_sizes():
    m = grid((4, 6), "euclidean")
    dc = DistanceCodes(m)
    p = equitable_partition(m, dc)
    A, B, _code, cnt = quotient_counts(dc, p)
    sizes = [len(c) for c in p.cells()]
    for a in range(p.ncells):
        for b in range(p.ncells):
            assert cnt[(a == A) & (b == B)].sum() == sizes[b]


# -- symmetry-reduced solves of Phi z = 1 ----------------------------------------------------------------

@pytest.mark.parametrize("m", [grid((4, 4), "chebyshev"), grid((3, 5)), cycle(7), path(6),
                               from_graph(nx.star_graph(4))])
def test_quotient_solve_equals_the_full_exact_solve(m):
    S = PhiSystem(m, Level.from_alpha("2/5"))
    sol = S.solve_ones()
    full = S.exact_matrix().solve(fmpq_mat(len(m), 1, [1] * len(m)))
    assert sol.values == [full[i, 0] for i in range(len(m))]
    assert sol.partition.ncells < len(m) and "quotient" in sol.method


@pytest.mark.parametrize("m, eps", [(grid((5, 5), "euclidean"), "1/2"), (grid((5, 5), "euclidean"), "2"),
                                    (grid((4, 6), "chebyshev"), "9/10"), (from_graph(nx.star_graph(3)), "3/5")])
def test_verified_quotient_solve_agrees_with_a_full_arb_solve(m, eps):
    S = PhiSystem(m, Level.from_eps(eps))
    sol = S.solve_ones()
    assert "verified float solve" in sol.method
    with ctx.workprec(200):
        x = S.arb_matrix().solve(arb_mat(len(m), 1, [1] * len(m)))
        for i in range(len(m)):
            assert x[i, 0].overlaps(sol.balls[i])
            assert (x[i, 0] > 0 and sol.signs[i] == 1) or (x[i, 0] < 0 and sol.signs[i] == -1)
    assert any(s < 0 for s in sol.signs) == (not tight_constraints(m, Level.from_eps(eps)).holds)
    lo, hi = sol.enclosures[0]
    assert lo < hi and sol.beta < 1


def test_nonuniform_rhs_is_not_reduced():
    m = path(4)
    S = PhiSystem(m, Level.from_eps("1/2"))
    sol = S.solve([1, 2, 3, 4])
    assert sol.partition.ncells == 4


def test_ball_size_symmetry():
    assert ball_size_symmetric(cycle(7)) and ball_size_symmetric(discrete(4))
    assert not ball_size_symmetric(path(3)) and not ball_size_symmetric(grid((3, 3)))


# -- the threshold: issue 8 regressions -------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 11))
def test_threshold_of_a_path_is_zero(n):
    c = threshold(path(n))
    ev = c.evidence
    assert c.holds is True and (ev.lo, ev.hi, ev.exact, ev.route) == ("0", "0", "0", "path")
    assert c.recheck().status == "confirmed"
    # independently of the closed form: the exact polynomial route proves z > 0 on all of (0, 1)
    ex = exact_threshold(path(n))
    assert ex[0] is None and ex[1] == "0" and ex[2].is_empty()


def test_path_closed_form_z():
    a = fmpq(1, 3)
    sol = PhiSystem(path(6), Level.from_alpha(a)).solve_ones()
    assert sol.values == [1 / (1 + a)] + [(1 - a) / (1 + a)] * 4 + [1 / (1 + a)]


@pytest.mark.parametrize("m", [grid((3, 3)), path(8), grid((2, 4)), grid((10, 10)),
                               from_graph(nx.Graph([(0, 1), (1, 2), (3, 4)]))])
def test_threshold_zero_cases_of_issue_8(m):
    c = threshold(m)
    assert c.holds is True and c.evidence.exact == "0"


def test_threshold_zero_by_the_exact_route_on_a_disconnected_graph():
    m = from_graph(nx.Graph([(0, 1), (1, 2), (3, 4)]))
    ex = exact_threshold(m)
    assert ex is not None and ex[0] is None
    assert "fraction-free" in threshold(m).to_markdown()


def test_exact_threshold_values():
    _a, text, _fails = exact_threshold(grid((4, 4), "chebyshev"))
    assert "2*alpha**4 + alpha**3 + 5*alpha**2 + alpha - 1" in text
    star = from_graph(nx.star_graph(3))
    assert exact_threshold(star)[1] == "log(2)"
    assert exact_threshold(grid((3, 3), "euclidean")) is None          # irrational distances
    assert MAX_EXACT_COST > 10**6
    assert exact_threshold(grid((40, 40), "chebyshev")) is None         # over the cost bound: returns at once


def test_threshold_bracket_certified_on_both_sides():
    m = grid((3, 3), "euclidean")
    t = threshold(m).evidence
    lo, hi = fmpq(t.lo_rational), fmpq(t.hi_rational)
    assert 0 < hi - lo <= fmpq(1, 10**9)
    assert tight_constraints(m, Level.from_eps(str(hi))).holds is True
    assert tight_constraints(m, Level.from_eps(str(lo))).holds is False


def test_cli_threshold_on_a_path(tmp_path, capsys):
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"kind": "path", "n": 5}))
    assert main(["tight", str(f), "--threshold", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["evidence"]["exact"] == "0"


def test_partition_helpers():
    p = Partition(np.array([0, 1, 0]), "test")
    assert p.ncells == 2 and p.representatives().tolist() == [0, 1]
    assert p.is_constant_on_cells([5, 7, 5]) and not p.is_constant_on_cells([5, 7, 6])


def _check_prior_brute(pi, metric, level):
    """The definition, pair by pair (ECP14 Props. 1 and 2)."""
    n = len(metric)
    for y in range(n):
        fs = [level.factor(metric.d(y, j)) for j in range(n)]
        up = sum((1 / f for f in fs), fmpq(0))
        down = sum(fs, fmpq(0))
        if not (1 / down <= pi[y] <= 1 / up):
            return ("2", y)
    for y in range(n):
        for y2 in range(n):
            if y != y2 and level.compare(pi[y], pi[y2], metric.d(y, y2)) > 0:
                return ("1", y, y2)
    return None


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=4, max_size=4), st.sampled_from(["1/2", "1/3", "3/4"]))
def test_check_prior_against_the_definition(w, a):
    from exactdp.priors.regular import check_prior

    m, level = cycle(4), Level.from_alpha(a)
    pi = [fmpq(v, sum(w)) for v in w]
    got, want = check_prior(pi, m, level), _check_prior_brute(pi, m, level)
    if want is None:
        assert got is None
    elif want[0] == "2":
        assert got.startswith(f"Prop. 2 fails at '{m.points[want[1]]}'")
    else:
        assert got.startswith(f"Prop. 1 fails for ('{m.points[want[1]]}', '{m.points[want[2]]}')")
