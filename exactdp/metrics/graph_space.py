"""The space of graphs on ``n`` labelled vertices with the node distance (BCSZ18 Sec. 3).

Two graphs ``G, G'`` on the vertex set ``{0..n-1}`` are *node-adjacent* when
they differ only in edges at one vertex: the symmetric difference
``G xor G'`` is a non-empty set of edges that all share one endpoint (a star).
The node distance is the shortest-path distance of that adjacency graph
(BCSZ18 Sec. 3, after Kasiviswanathan--Nissim--Raskhodnikova--Smith, TCC
2013, Sec. 2.1, which BCSZ18 cites for the definition).

It equals the size ``tau(G xor G')`` of a minimum vertex cover of the
symmetric difference: ``k`` steps at vertices ``v_1..v_k`` change only edges
at those vertices, so ``{v_1..v_k}`` covers ``G xor G'``; conversely, a cover
``{v_1..v_k}`` lets the edges be fixed vertex by vertex in ``k`` steps.
:func:`node_distance_space` builds the metric from the cover sizes, and the
tests check the equality against a breadth-first search of the adjacency
graph exhaustively for ``n <= 5``.

A graph is labelled by its edge list, e.g. ``"{0-1,1-2}"`` (``"{}"`` is the
empty graph); internally it is the bit mask of its edges in the order
``(0,1), (0,2), ..., (n-2,n-1)``.

>>> M = node_distance_space(3)
>>> len(M), M.points[:3]
(8, ('{}', '{0-1}', '{0-2}'))
>>> M.distance("{}", "{0-1,0-2,1-2}")   # the triangle: cover {0, 1}
2
>>> M.distance("{0-1}", "{0-2}")        # both edges at vertex 0
1
"""

from __future__ import annotations

from itertools import combinations

from flint import fmpq

from ..errors import InputTooLarge, InvalidInput, InvalidType
from .space import FiniteMetric

__all__ = [
    "MAX_VERTICES",
    "edge_count",
    "graph_edges",
    "graph_label",
    "max_degree",
    "min_vertex_cover_sizes",
    "node_distance_space",
]

#: 2^(n choose 2) graphs; n = 6 has 32,768
MAX_VERTICES = 6

_REDUCTION = ("the generating pairs are the node-adjacent pairs (distance 1), so every distance is the length of a "
              "chain of them")


def graph_edges(n: int) -> list[tuple[int, int]]:
    """Return the possible edges ``(u, v)``, ``u < v``, of a graph on ``n`` vertices in bit order.

    Parameters
    ----------
    n : int
        The number of vertices.

    Returns
    -------
    list of tuple of int
        Edge ``k`` is bit ``k`` of a graph's mask.

    Examples
    --------
    >>> graph_edges(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return list(combinations(range(n), 2))


def graph_label(mask: int, n: int) -> str:
    """Return the label ``"{u-v,...}"`` of the graph with edge bit mask ``mask``.

    Parameters
    ----------
    mask : int
        Bit ``k`` set iff edge ``k`` of :func:`graph_edges` is present.
    n : int
        The number of vertices.

    Returns
    -------
    str
        The edges in bit order, ``"{}"`` for the empty graph.

    Examples
    --------
    >>> graph_label(0b101, 3), graph_label(0, 3)
    ('{0-1,1-2}', '{}')
    """
    es = graph_edges(n)
    return "{" + ",".join(f"{u}-{v}" for k, (u, v) in enumerate(es) if mask >> k & 1) + "}"


def _star_masks(n: int) -> list[int]:
    es = graph_edges(n)
    return [sum(1 << k for k, e in enumerate(es) if v in e) for v in range(n)]


def min_vertex_cover_sizes(n: int) -> list[int]:
    """Return ``tau[m]``, the minimum vertex cover size of the edge set with bit mask ``m`` (exhaustive).

    Parameters
    ----------
    n : int
        The number of vertices.

    Returns
    -------
    list of int
        One entry per mask ``0 .. 2^(n(n-1)/2) - 1``.

    Examples
    --------
    On 3 vertices: no edge needs no vertex, one or two edges (which share a vertex) one, the
    triangle two.

    >>> min_vertex_cover_sizes(3)
    [0, 1, 1, 1, 1, 1, 1, 2]
    """
    stars = _star_masks(n)
    full = (1 << len(graph_edges(n))) - 1
    covered_by = []  # for each vertex subset S (bit mask), the edges it covers
    for S in range(1 << n):
        c = 0
        for v in range(n):
            if S >> v & 1:
                c |= stars[v]
        covered_by.append((bin(S).count("1"), c))
    covered_by.sort()
    tau = []
    for m in range(full + 1):
        tau.append(next(k for k, c in covered_by if m & ~c == 0))
    return tau


def max_degree(mask: int, n: int) -> int:
    """Return the largest vertex degree of the graph with edge mask ``mask``.

    Parameters
    ----------
    mask : int
        The edge bit mask (:func:`graph_edges` order).
    n : int
        The number of vertices.

    Returns
    -------
    int
        The maximum degree.

    Examples
    --------
    >>> max_degree(0b011, 3), max_degree(0b111, 4)     # the path 1-0-2; the star at 0 on 4 vertices
    (2, 3)
    """
    return max(bin(mask & s).count("1") for s in _star_masks(n))


def edge_count(mask: int) -> int:
    """Return the number of edges of the graph with edge mask ``mask``.

    Parameters
    ----------
    mask : int
        The edge bit mask.

    Returns
    -------
    int
        The number of set bits.

    Examples
    --------
    >>> edge_count(0b1011)
    3
    """
    return bin(mask).count("1")


def node_distance_space(n: int) -> FiniteMetric:
    """All graphs on ``n`` labelled vertices with the node distance (see module docstring).

    Parameters
    ----------
    n : int
        Number of vertices, ``2 <= n <= 6`` (``2^(n(n-1)/2)`` points).

    Returns
    -------
    FiniteMetric
        Points are labelled ``"{u-v,...}"`` in edge-mask order; ``params``
        holds ``n`` and ``kind = "node_distance"``.

    Raises
    ------
    InvalidType
        ``n`` is not an integer.
    InvalidInput
        ``n < 2``; :class:`~exactdp.errors.InputTooLarge` for ``n > 6``.

    Examples
    --------
    >>> M = node_distance_space(4)
    >>> len(M), len(M.generating_pairs())
    (64, 704)

    References
    ----------
    BCSZ18 Sec. 3 ("Bounded Degree Graphs").
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidType(f"node_distance_space n: expected an integer, got {type(n).__name__} {n!r}")
    if n < 2:
        raise InvalidInput(f"node_distance_space n: expected n >= 2 vertices, got {n}")
    if n > MAX_VERTICES:
        raise InputTooLarge(f"node_distance_space n: {n} vertices give 2^{n * (n - 1) // 2} graphs; the limit is "
                            f"n = {MAX_VERTICES}")
    m = len(graph_edges(n))
    N = 1 << m
    tau = min_vertex_cover_sizes(n)
    one = fmpq(1)
    dist = [fmpq(k) for k in range(n + 1)]

    def pairs():
        out = []
        for i in range(N):
            for j in range(i + 1, N):
                if tau[i ^ j] == 1:
                    out.append((i, j, one))
        return out

    return FiniteMetric(
        [graph_label(k, n) for k in range(N)], pairs, lambda i, j: dist[tau[i ^ j]],
        kind="graph", description=f"graphs on {n} labelled vertices ({N} graphs) with the node distance",
        reduction=_REDUCTION, params={"kind": "node_distance", "n": n})
