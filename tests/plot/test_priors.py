"""exactdp.plot.priors: ECP14's regular region, corner points and utility figures; expected values from closed
forms or an independent Fraction solve, never from the code under test."""

from fractions import Fraction as F

import networkx as nx
import pytest

from exactdp import Level, UnsupportedRegime, InvalidInput, cycle, from_graph, geometric, path
from exactdp import plot as P


def _simplex(p):
    return (float(p[1]) + float(p[2]) / 2, float(p[2]) * 3 ** 0.5 / 2)


def _sum_metric(u, v):
    n = u * v + 1
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((i, j) for i in range(n) for j in range(i + 1, min(n, i + v + 1)))
    return from_graph(G), n, v


def _solve_ones(A):
    """Gauss-Jordan over Fractions: A z = 1 (A invertible)."""
    n = len(A)
    M = [[*row[:], F(1)] for row in A]
    for c in range(n):
        p = next(r for r in range(c, n) if M[r][c] != 0)
        M[c], M[p] = M[p], M[c]
        M[c] = [v / M[c][c] for v in M[c]]
        for r in range(n):
            if r != c and M[r][c] != 0:
                M[r] = [a - M[r][c] * b for a, b in zip(M[r], M[c], strict=True)]
    return [M[i][n] for i in range(n)]


def test_utility_data_on_the_path_matches_closed_forms():
    # on a path the tight-constraints mechanism has z = (1, 1 - a, ..., 1 - a, 1)/(1 + a); the geometric
    # mechanism's utility is (2/(1+a) + (N-2)(1-a)/(1+a))/N (column maxima on the diagonal)
    N = 5
    for b in (F(1, 2), F(2, 3), F(9, 10)):
        ((bb, alpha, tight, geo),) = P.utility_data(path(N), [str(b)])
        want_geo = (2 / (1 + b) + (N - 2) * (1 - b) / (1 + b)) / N
        want_tight = (2 + (N - 2) * (1 - b)) / (1 + b) / N
        assert (F(str(bb)), F(str(alpha)), F(str(tight)), F(str(geo))) == (b, b, want_tight, want_geo)


def test_utility_data_sum_query_against_an_independent_solve():
    m, n, v = _sum_metric(2, 5)
    b = F(3, 4)
    ((_, alpha, tight, geo),) = P.utility_data(m, [str(b)], sensitivity=v)
    a = b ** v
    assert F(str(alpha)) == a
    dist = [[-(-abs(i - j) // v) for j in range(n)] for i in range(n)]
    z = _solve_ones([[a ** dist[i][j] for j in range(n)] for i in range(n)])
    assert min(z) > 0 and F(str(tight)) == sum(z) / n
    assert F(str(geo)) == (2 / (1 + b) + (n - 2) * (1 - b) / (1 + b)) / n


def test_bad_inputs():
    with pytest.raises(InvalidInput, match="base must be a rational in \\(0, 1\\), got 3/2"):
        P.utility_data(path(3), ["3/2"])
    with pytest.raises(InvalidInput, match=r"points 0\.\.2 in order"):
        P.utility_data(from_graph(nx.path_graph(["a", "b", "c"])), ["1/2"])
    with pytest.raises(InvalidInput, match="expected a metric on 3 points, got 4 points"):
        P.corner_points(path(4), Level.from_alpha("1/2"))
    with pytest.raises(InvalidInput, match="root s must be a rational in \\(0, 1\\), got 1"):
        P.loss_data(["1"])
    with pytest.raises(UnsupportedRegime, match="symbolic alpha"):
        P.plot_mechanism(geometric(3))


def test_plot_regular_region_path3(plt):
    ax, corners = P.plot_regular_region(path(3), "log(2)", priors=[["1/3", "1/3", "1/3"], ["1", "0", "0"]])
    a = F(1, 2)
    want = []
    for y in range(3):  # ECP14 Def. 5: c^y_y' = a^|y-y'| / sum
        row = [a ** abs(y - j) for j in range(3)]
        want.append([v / sum(row) for v in row])
    assert [[F(str(v)) for v in c] for c in corners] == want
    assert len(ax.patches) == 2
    region = ax.patches[1].get_xy()[:3].tolist()
    assert region == [list(_simplex(c)) for c in want]
    filled = [line.get_fillstyle() for line in ax.lines]
    assert filled == ["full", "none"]  # the uniform prior is regular, (1, 0, 0) is not


def test_plot_regular_region_cycle3_transcendental(plt):
    import math
    ax, _corners = P.plot_regular_region(cycle(3), Level.from_eps("1/2"))
    e = math.exp(-0.5)
    xy = ax.patches[1].get_xy()[:3]
    for (x, y), c in zip(xy, [[1, e, e], [e, 1, e], [e, e, 1]], strict=True):
        s = sum(c)
        wx, wy = _simplex([v / s for v in c])
        assert x == pytest.approx(wx, rel=1e-14) and y == pytest.approx(wy, rel=1e-14)


def test_plot_utility_marks_the_certified_threshold(plt):
    m, _n, v = _sum_metric(4, 5)
    bases = ["7/10", "4/5", "21/25", "9/10"]
    ax, data, th = P.plot_utility(m, bases, sensitivity=v)
    assert len(ax.lines) == 3
    lo, hi = float(th.evidence.lo), float(th.evidence.hi)
    assert ax.lines[2].get_xdata()[0] == hi
    import math
    eps = ax.lines[0].get_xdata()
    assert [e == pytest.approx(5 * math.log(1 / float(F(b))), rel=1e-14)
            for e, b in zip(eps, bases, strict=True)] == [True] * 4
    tight = ax.lines[0].get_ydata()
    geo = ax.lines[1].get_ydata()
    assert geo.tolist() == [float(g) for *_, g in data]
    # the tight mechanism exists exactly above the certified threshold (eps 1.78, 1.12 > hi > 0.87, 0.53)
    for e, t, (_, _, exact_t, _) in zip(eps, tight, data, strict=True):
        if e > hi:
            assert exact_t is not None and t == float(exact_t)
        else:
            assert e < lo and exact_t is None and math.isnan(t)
    assert ax.get_xlabel() == "eps" and ax.get_ylabel().startswith("utility")


def test_plot_geo_utility_marks_the_threshold_and_draws_certified_values(plt):
    from exactdp.utility.grid import planar_laplace_utility
    eps = ["2/5", "7/10", "1", "13/10"]
    ax, data, th = P.plot_geo_utility(6, eps)
    assert len(ax.lines) == 3
    lo, hi = F(th.evidence.lo), F(th.evidence.hi)          # 0.667 on the 6 x 6 grid
    assert ax.lines[2].get_xdata()[0] == float(hi)
    assert ax.lines[0].get_xdata().tolist() == [0.4, 0.7, 1.0, 1.3]
    for (e, t, lap), y_t, y_l in zip(data, ax.lines[0].get_ydata(), ax.lines[1].get_ydata(), strict=True):
        e = F(int(e.p), int(e.q))
        # the tight mechanism exists exactly above the certified threshold
        assert (t is None) is (e < lo) and (t is not None) is (e > hi)
        assert lap == planar_laplace_utility(6, str(e)).enclosure
        assert y_l == float((lap[0] + lap[1]) / 2)
        if t is not None:
            assert y_t == float((t[0] + t[1]) / 2) and t[0] > lap[1]      # tight above Laplace, certified
    with pytest.raises(InvalidInput, match="plot_geo_utility: eps must be a rational > 0"):
        P.geo_utility_data(3, ["0"])
