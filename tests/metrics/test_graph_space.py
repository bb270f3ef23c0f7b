"""The node-distance space of graphs (BCSZ18): d = the minimum vertex cover of the symmetric difference, against
an independent BFS over all graphs on up to 5 vertices; labels and errors."""

from itertools import combinations

import pytest

from exactdp import InvalidInput
from exactdp.metrics.graph_space import (graph_edges, graph_label, max_degree, min_vertex_cover_sizes,
                                         node_distance_space)


def _bfs_from_empty(n):
    """Independent: BFS over edge masks, a step toggles any non-empty set of edges at one vertex."""
    es = list(combinations(range(n), 2))
    stars = [[k for k, e in enumerate(es) if v in e] for v in range(n)]
    moves = set()
    for s in stars:
        for r in range(1, len(s) + 1):
            for sub in combinations(s, r):
                moves.add(sum(1 << k for k in sub))
    dist = {0: 0}
    frontier = [0]
    while frontier:
        nxt = []
        for x in frontier:
            for mv in moves:
                y = x ^ mv
                if y not in dist:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    return dist


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_node_distance_is_min_vertex_cover_exhaustively(n):
    # adjacency is invariant under G -> G xor S, so d(G, G') = d(empty, G xor G'): one BFS covers all pairs
    dist = _bfs_from_empty(n)
    tau = min_vertex_cover_sizes(n)
    assert len(dist) == 2 ** len(graph_edges(n))
    assert all(dist[m] == tau[m] for m in dist)
    M = node_distance_space(n)
    for i in range(0, len(M), max(1, len(M) // 16)):
        for j in range(len(M)):
            assert M.d(i, j) == dist[i ^ j]


def test_node_distance_space_labels_and_errors():
    assert graph_label(0b101, 3) == "{0-1,1-2}"
    assert max_degree(0b111, 3) == 2
    with pytest.raises(InvalidInput, match="expected n >= 2"):
        node_distance_space(1)
    with pytest.raises(InvalidInput, match="the limit is n = 6"):
        node_distance_space(7)
    with pytest.raises(TypeError, match="expected an integer"):
        node_distance_space("4")
