"""Graph metrics (exactdp.metrics.graphs): primitive Euclidean generating pairs, redundant weighted edges dropped,
disconnected graphs at distance inf, every bad input."""

import math

import networkx as nx
import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, InvalidInput, InvalidType
from exactdp.metrics import (cycle, discrete, from_graph, grid, hamming, path)


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
