"""Finite metric spaces (exactdp.metrics.space): generating pairs reproduce every distance exactly (shortest paths
over them, networkx), exact distances with square roots, matrix validation (triangle, symmetry, ties through
radicals), scaling."""

import math

import networkx as nx
import pytest
from flint import fmpq

from exactdp.errors import InvalidInput, NotAMetric
from exactdp.exact.lin import Lin
from exactdp.metrics import (cycle, discrete, from_graph, from_matrix, grid, hamming, path,
                             symmetric_difference)


def _closure_matches(m):
    """Shortest paths over the generating pairs reproduce every distance exactly."""
    n = len(m)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for i, j, d in m.generating_pairs():
        G.add_edge(i, j, w=d)
    for s in range(n):
        lens = nx.single_source_dijkstra_path_length(G, s, weight="w")
        for t in range(n):
            d = m.d(s, t)
            if d == math.inf:
                assert t not in lens
            else:
                diff = Lin.coerce(lens[t]) - Lin.coerce(d) if not isinstance(d, fmpq) else lens[t] - d
                assert (diff == 0) if isinstance(diff, fmpq) else diff.is_zero()


@pytest.mark.parametrize("m", [path(5), cycle(6), discrete(4), grid((3, 4)), grid((3, 3), "chebyshev"),
                               grid((4, 4), "euclidean"), hamming([0, 1, 2], 2), symmetric_difference("abc"),
                               from_graph(nx.petersen_graph())])
def test_generating_pairs_generate(m):
    _closure_matches(m)


def test_distances():
    assert path(10).distance(2, 9) == 7
    assert cycle(10).distance(0, 7) == 3
    g = grid((5, 5), "euclidean")
    assert g.distance("0,0", "3,4") == 5
    assert g.distance("0,0", "1,1") == Lin.sqrt(2)
    assert g.distance("0,0", "2,4") == Lin.sqrt(20)
    assert grid((2, 2), "manhattan", step="1/2").distance("0,0", "1,1") == 1
    assert hamming(["x", "y"], 3).distance("x,x,x", "y,x,y") == 2
    assert symmetric_difference(["a", "b"]).distance("{}", "{a,b}") == 2


def test_matrix_metric_validation():
    pts = ["a", "b", "c"]
    m = from_matrix(pts, [[0, 1, "inf"], [1, 0, "inf"], ["inf", "inf", 0]])
    assert m.distance("a", "c") == math.inf
    with pytest.raises(NotAMetric, match=r"triangle inequality fails for \('a', 'b', 'c'\)"):
        from_matrix(pts, [[0, 1, 3], [1, 0, 1], [3, 1, 0]])
    with pytest.raises(NotAMetric, match="not symmetric"):
        from_matrix(pts, [[0, 1, 2], [2, 0, 1], [2, 1, 0]])
    with pytest.raises(NotAMetric, match="expected 0"):
        from_matrix(pts, [[1, 1, 2], [1, 0, 1], [2, 1, 0]])
    with pytest.raises(NotAMetric, match="expected > 0"):
        from_matrix(pts, [[0, 0, 1], [0, 0, 1], [1, 1, 0]])
    with pytest.raises(NotAMetric, match="square"):
        from_matrix(pts, [[0, 1], [1, 0], [1, 1]])
    with pytest.raises(NotAMetric, match="3 x 3"):
        from_matrix(pts, [[0, 1, 1], [1, 0, 1]])
    # exact ties through square roots: sqrt(2) + sqrt(8) = sqrt(18)
    m = from_matrix(pts, [[0, "sqrt(2)", "sqrt(18)"], ["sqrt(2)", 0, "sqrt(8)"], ["sqrt(18)", "sqrt(8)", 0]])
    assert [(i, j) for i, j, _ in m.generating_pairs()] == [(0, 1), (1, 2)]
    with pytest.raises(NotAMetric, match="triangle"):
        from_matrix(pts, [[0, "sqrt(2)", "sqrt(18) + 1/10^12"], ["sqrt(2)", 0, "sqrt(8)"],
                          ["sqrt(18) + 1/10^12", "sqrt(8)", 0]])


def test_scaling():
    m = path(3).scaled("1/2")
    assert m.distance(0, 2) == 1
    assert path(3).scaled("sqrt(2)").distance(0, 2) == Lin.sqrt(8)
    with pytest.raises(InvalidInput, match="scale"):
        path(3).scaled("0")
