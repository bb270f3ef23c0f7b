import math

import networkx as nx
import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, InvalidInput, InvalidType, NotAMetric
from exactdp.exact.lin import Lin
from exactdp.metrics import (cycle, discrete, from_graph, from_matrix, grid, hamming, induced, metric_from_spec, path,
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


def test_euclidean_generating_pairs_are_primitive():
    g = grid((3, 3), "euclidean")
    pairs = {(g.points[i], g.points[j]) for i, j, _ in g.generating_pairs()}
    assert ("0,0", "0,1") in pairs and ("0,0", "1,2") in pairs
    assert ("0,0", "0,2") not in pairs and ("0,0", "2,2") not in pairs


def test_weighted_graph_drops_redundant_edges():
    G = nx.Graph()
    G.add_edge("a", "b", w="1")
    G.add_edge("b", "c", w="1/2")
    G.add_edge("a", "c", w="2")  # longer than a-b-c = 3/2
    m = from_graph(G, weight="w")
    assert m.distance("a", "c") == fmpq(3, 2)
    assert len(m.generating_pairs()) == 2


def test_disconnected_is_infinite_and_unconstrained():
    m = from_graph(nx.Graph([(0, 1), (2, 3)]))
    assert m.distance(0, 2) == math.inf
    assert len(m.generating_pairs()) == 2
    assert "2 components" in m.description


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


def test_induced_graph_of_count_and_pairs():
    m = induced([0, 1], 2, lambda x: sum(x))
    assert m.points == ("0", "1", "2")
    assert [(i, j) for i, j, _ in m.generating_pairs()] == [(0, 1), (1, 2)]
    two = induced([0, 1], 2, lambda x: (x[0], x[0] + x[1]))
    assert len(two) == 4


def test_scaling():
    m = path(3).scaled("1/2")
    assert m.distance(0, 2) == 1
    assert path(3).scaled("sqrt(2)").distance(0, 2) == Lin.sqrt(8)
    with pytest.raises(InvalidInput, match="scale"):
        path(3).scaled("0")


def test_bad_inputs():
    with pytest.raises(InvalidInput, match="path n"):
        path(0)
    with pytest.raises(InvalidType, match="integer"):
        path(2.0)
    with pytest.raises(InvalidInput, match="cycle n"):
        cycle(2)
    with pytest.raises(InvalidInput, match="norm"):
        grid((2, 2), "taxicab")
    with pytest.raises(InvalidInput, match="shape"):
        grid("ab")
    with pytest.raises(InputTooLarge, match="databases"):
        hamming(range(10), 7)
    with pytest.raises(InvalidInput, match="self-loop"):
        from_graph(nx.Graph([(1, 1)]))
    G = nx.Graph()
    G.add_edge(0, 1, w=-1)
    with pytest.raises(InvalidInput, match="finite length > 0"):
        from_graph(G, weight="w")
    with pytest.raises(InvalidInput, match="not in the metric"):
        path(2).distance(0, 5)
    with pytest.raises(InvalidInput, match="appears twice"):
        discrete(["a", "a"])


def test_spec():
    assert len(metric_from_spec({"kind": "grid", "shape": [2, 3]})) == 6
    assert metric_from_spec({"kind": "hamming", "values": [0, 1], "individuals": 2}).distance("0,0", "1,1") == 2
    assert len(metric_from_spec({"kind": "subsets", "ground": ["a"]})) == 2
    with pytest.raises(InvalidInput, match="unknown kind"):
        metric_from_spec({"kind": "torus"})
    with pytest.raises(InvalidInput, match="needs the field 'n'"):
        metric_from_spec({"kind": "path"})
    with pytest.raises(InvalidInput, match="not in 'nodes'"):
        metric_from_spec({"kind": "graph", "nodes": ["a"], "edges": [["a", "b"]]})
