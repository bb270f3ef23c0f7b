"""Graph metrics: networkx graphs, paths, cycles, the discrete metric and 2-D grids.

The shortest-path metric of a connected graph with positive exact edge weights
is a metric; its generating pairs are the edges whose weight equals the
distance between their ends (a heavier edge is never a shortest path and its
constraint follows from the others).  Points in different components are at
distance ``inf`` and impose no privacy constraint.

Grid points are labelled ``"r,c"`` (row, column from 0).  Manhattan and
Chebyshev grids are graph metrics (4- and 8-neighbour grids); the Euclidean
grid is not, and its generating pairs are the pairs whose segment contains
no other grid point, i.e. with ``gcd(|dr|, |dc|) = 1`` -- in the plane
``d(x,w) + d(w,y) = d(x,y)`` holds exactly when ``w`` lies on the segment.
"""

from __future__ import annotations

import math
import re
from math import gcd
from typing import TYPE_CHECKING, Any, cast
from collections.abc import Iterable

from flint import fmpq

from ..errors import InputTooLarge, InvalidInput, InvalidType
from ..exact.decide import exact_str
from ..exact.interop import as_int
from ..exact.lin import Lin

if TYPE_CHECKING:
    import networkx as nx  # imported where a graph is read: a path or a grid never needs it
from ..exact.values import brief
from ..exact.values import distance as parse_distance
from .space import FiniteMetric, dist_sign, dist_sub

__all__ = ["MAX_POINTS", "cycle", "discrete", "from_graph", "grid", "path"]

#: largest number of points accepted by the structured constructors
MAX_POINTS = 1_000_000

_GRAPH_REDUCTION = (
    "on a graph metric it suffices to check the edges: every distance d(x, x') is the length of a "
    "shortest path x = y_0, ..., y_k = x', and multiplying the edge inequalities "
    "K(y_i)(z) <= e^(eps w(y_i, y_(i+1))) K(y_(i+1))(z) along it gives K(x)(z) <= e^(eps d(x, x')) K(x')(z)"
)


_DECIMAL = re.compile(r"^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$")


def _check_n(n, what, minimum=1):
    n = as_int(n, what)  # numpy integers are integers
    # a JSON number with a decimal point (kept as its text)
    if isinstance(n, str) and _DECIMAL.match(n) and any(c in n for c in ".eE"):
        raise InvalidType(f"{what}: expected an integer, got the decimal number {n[:40]}; write it without a "
                          "decimal point or exponent, e.g. 3")
    if isinstance(n, bool) or not isinstance(n, int):
        raise InvalidType(f"{what}: expected an integer, got {type(n).__name__} {str(n)[:40]!r}")
    if n < minimum:
        raise InvalidInput(f"{what}: expected an integer >= {minimum}, got {n}")
    if n > MAX_POINTS:
        raise InputTooLarge(f"{what}: {n} points exceed the limit {MAX_POINTS}")
    return n


def from_graph(G: nx.Graph, weight: str | None = None, *, allow_float: bool = False) -> FiniteMetric:
    """The shortest-path metric of a networkx graph.

    Parameters
    ----------
    G : networkx.Graph
        Undirected graph (a ``MultiGraph`` too); node labels are compared as
        strings, so two nodes with the same text (``1`` and ``"1"``) are
        refused.  Parallel edges are allowed: the shortest one is the distance
        (shortest-path semantics), the others impose nothing.
    weight : str, optional
        Edge attribute holding an exact positive length (int, Fraction, or
        exact text such as ``"3/2"`` or ``"sqrt(2)"``); unit lengths if omitted.
    allow_float : bool, default False
        Take binary floats among the weights at their exact binary value
        (otherwise a float weight is refused with a hint).

    Returns
    -------
    FiniteMetric
        Points labelled ``str(node)``; ``d(x, y)`` the exact length of a
        shortest path (``inf`` between components); the generating pairs are
        the edges whose length equals their distance (ECP14 sec. 3.2: on a
        graph, checking the edges suffices).

    Raises
    ------
    InvalidType
        ``G`` is not an undirected networkx graph, or a weight is a float
        and ``allow_float`` is false.
    InvalidInput
        An empty graph, a self-loop, two nodes with the same label text, an
        edge without the ``weight`` attribute, or a weight that is not a
        finite exact number ``> 0`` (:class:`~exactdp.errors.ParseError` for
        text outside the grammar).

    Examples
    --------
    >>> import networkx as nx
    >>> m = from_graph(nx.cycle_graph(5))
    >>> m.distance(0, 3)
    2
    >>> G = nx.Graph([(0, 1), (2, 3)])
    >>> from_graph(G).distance(0, 3)
    inf
    >>> M = nx.MultiGraph([(0, 1, {"w": 5}), (0, 1, {"w": 1})])
    >>> from_graph(M, weight="w").distance(0, 1)
    1
    """
    import networkx as nx

    if not isinstance(G, nx.Graph) or G.is_directed():
        raise InvalidType(f"graph: expected an undirected networkx.Graph, got {type(G).__name__}")
    nodes = list(G.nodes)
    if not nodes:
        raise InvalidInput("graph: expected at least one node, got an empty graph")
    H = _index_graph(G, nodes, weight, allow_float)
    return _shortest_path_metric(H, [str(v) for v in nodes], unit=weight is None)


def _index_graph(G, nodes, weight, allow_float):
    """``G`` on the node indices ``0..n-1`` with exact lengths ``w`` (the shortest of parallel edges)."""
    import networkx as nx

    pos = {v: i for i, v in enumerate(nodes)}
    H = nx.Graph()
    H.add_nodes_from(range(len(nodes)))
    for u, v, data in G.edges(data=True):
        if u == v:
            raise InvalidInput(f"graph: self-loop at node {u!r}; a metric has d(x, x) = 0, remove the loop")
        if weight is None:
            w = fmpq(1)
        else:
            if weight not in data:
                raise InvalidInput(f"graph: edge ({u!r}, {v!r}) has no attribute {weight!r}")
            w = parse_distance(data[weight], what=f"weight of edge ({u!r}, {v!r})", allow_float=allow_float)
            if w == math.inf or dist_sign(w) <= 0:
                raise InvalidInput(f"graph: weight of edge ({u!r}, {v!r}) is {exact_str(w)}; "
                                   "expected a finite length > 0")
        a, b = pos[u], pos[v]
        if H.has_edge(a, b) and dist_sign(dist_sub(w, H[a][b]["w"])) >= 0:
            continue  # parallel edges (a MultiGraph, or an edge listed twice): the shortest one is the distance
        H.add_edge(a, b, w=w)
    return H


def _shortest_path_metric(H, labels, *, unit) -> FiniteMetric:
    """The shortest-path metric of the indexed graph ``H``; distances computed lazily, one source at a time."""
    import networkx as nx

    cache: dict = {}

    def dist_from(s):
        if s not in cache:
            if unit:
                lens = nx.single_source_shortest_path_length(H, s)
                cache[s] = {t: fmpq(k) for t, k in lens.items()}
            else:
                cache[s] = nx.single_source_dijkstra_path_length(H, s, weight="w")
        return cache[s]

    def dfn(i, j):
        if i == j:
            return fmpq(0)
        d = dist_from(i).get(j, math.inf)
        return d if not isinstance(d, int) else fmpq(d)

    def pairs():
        out = []
        for u, v, data in H.edges(data=True):
            i, j = (u, v) if u < v else (v, u)
            w = data["w"]
            if unit or dist_sign(dist_sub(w, dfn(i, j))) == 0:
                out.append((i, j, w))
        out.sort(key=lambda t: (t[0], t[1]))
        return out

    ncomp = nx.number_connected_components(H)
    desc = f"graph with {len(labels)} nodes and {H.number_of_edges()} edges"
    if ncomp > 1:
        desc += f" ({ncomp} components; points in different components are at distance inf)"
    m = FiniteMetric(labels, pairs, dfn, kind="graph", description=desc, reduction=_GRAPH_REDUCTION)
    # every edge of the graph (also those longer than their ends' distance): what a certificate's metric rests on
    m.defining_edges = lambda: sorted((min(u, v), max(u, v), w) for u, v, w in H.edges(data="w"))
    return m


def path(n: int) -> FiniteMetric:
    """The path ``0 - 1 - ... - (n-1)``: ``d(i, j) = |i - j|`` (the count-query metric).

    The metric of a count query's results ``{0..n-1}``: GRS12 sec. 2 (the
    geometric mechanism is ``eps``-DP for it), ECP14 sec. 3.2 (``eps d_h``).

    Parameters
    ----------
    n : int
        Number of points, ``1 <= n <= MAX_POINTS``.

    Returns
    -------
    FiniteMetric
        Points ``"0", ..., "n-1"``; generating pairs the ``n - 1`` edges.

    Raises
    ------
    InvalidType
        ``n`` is not an integer.
    InvalidInput
        ``n < 1`` (:class:`~exactdp.errors.InputTooLarge` above ``MAX_POINTS``).

    Examples
    --------
    >>> path(3).distance(0, 2)
    2
    >>> len(path(5).generating_pairs())
    4
    """
    n = _check_n(n, "path n")
    return FiniteMetric(
        [str(i) for i in range(n)],
        lambda: [(i, i + 1, fmpq(1)) for i in range(n - 1)],
        lambda i, j: fmpq(abs(i - j)),
        kind="graph", description=f"path on {n} points (d(i, j) = |i - j|)",
        reduction=_GRAPH_REDUCTION, params={"kind": "path", "n": n},
    )


def cycle(n: int) -> FiniteMetric:
    """The cycle on ``n >= 3`` points: ``d(i, j) = min(|i - j|, n - |i - j|)``.

    A graph metric in the sense of ECP14 sec. 3.2 (the edges generate it).

    Parameters
    ----------
    n : int
        Number of points, ``3 <= n <= MAX_POINTS``.

    Returns
    -------
    FiniteMetric
        Points ``"0", ..., "n-1"``; generating pairs the ``n`` edges.

    Raises
    ------
    InvalidType
        ``n`` is not an integer.
    InvalidInput
        ``n < 3`` (:class:`~exactdp.errors.InputTooLarge` above ``MAX_POINTS``).

    Examples
    --------
    >>> cycle(6).distance(0, 5)
    1
    >>> cycle(6).distance(0, 3)
    3
    """
    n = _check_n(n, "cycle n", 3)
    return FiniteMetric(
        [str(i) for i in range(n)],
        lambda: sorted([(i, i + 1, fmpq(1)) for i in range(n - 1)] + [(0, n - 1, fmpq(1))]),
        lambda i, j: fmpq(min(abs(i - j), n - abs(i - j))),
        kind="graph", description=f"cycle on {n} points",
        reduction=_GRAPH_REDUCTION, params={"kind": "cycle", "n": n},
    )


def discrete(points: int | Iterable[Any]) -> FiniteMetric:
    """The discrete metric: distance 1 between any two distinct points (HLM15 Ex. 7).

    Over it ``eps d``-privacy is plain ``eps``-DP between any two inputs
    (HLM15 Ex. 7: categorical data).

    Parameters
    ----------
    points : int or iterable
        The labels (compared as strings), or a count ``n`` for ``"0".."n-1"``.

    Returns
    -------
    FiniteMetric
        The complete graph with unit edges; every pair is generating.

    Raises
    ------
    InvalidInput
        No points, a repeated label, or a count ``< 1``
        (:class:`~exactdp.errors.InputTooLarge` above ``MAX_POINTS``).

    Examples
    --------
    >>> discrete(["a", "b", "c"]).distance("a", "c")
    1
    >>> discrete(4).points
    ('0', '1', '2', '3')
    """
    if isinstance(points, int) and not isinstance(points, bool):
        _check_n(points, "discrete points")
        points = [str(i) for i in range(points)]
    labels = [str(p) for p in cast(Iterable[Any], points)]  # an int was turned into labels above
    if not labels:
        raise InvalidInput("discrete points: expected at least one point")
    n = len(labels)
    return FiniteMetric(
        labels,
        lambda: [(i, j, fmpq(1)) for i in range(n) for j in range(i + 1, n)],
        lambda i, j: fmpq(0 if i == j else 1),
        kind="graph", description=f"discrete metric on {n} points",
        reduction=_GRAPH_REDUCTION + " (here the graph is complete)",
        params={"kind": "discrete"},
    )


def grid(shape: Iterable[int], norm: str = "manhattan", step: Any = 1) -> FiniteMetric:
    """The ``R x C`` grid with Manhattan, Chebyshev or Euclidean distance, scaled by ``step``.

    Points are labelled ``"r,c"``.  Euclidean distances are exact square roots.
    Location privacy on a grid is the ``eps d``-privacy of ECP14 sec. 3 with
    ``d`` the Euclidean distance (geo-indistinguishability).

    Parameters
    ----------
    shape : pair of int
        ``(R, C)``: rows and columns, both ``>= 1``, ``R * C <= MAX_POINTS``.
    norm : {"manhattan", "chebyshev", "euclidean"}, default "manhattan"
        ``|dr| + |dc|``, ``max(|dr|, |dc|)`` or ``sqrt(dr^2 + dc^2)``.
    step : exact number, default 1
        The spacing ``h > 0`` that scales every distance (``"1/2"``,
        ``"sqrt(2)"``, ...).

    Returns
    -------
    FiniteMetric
        ``R * C`` points; generating pairs the 4- or 8-neighbour edges
        (Manhattan, Chebyshev) or the pairs with ``gcd(|dr|, |dc|) = 1``
        (Euclidean).

    Raises
    ------
    InvalidInput
        A shape that is not two positive integers, an unknown ``norm``, or a
        ``step`` that is not a finite exact number ``> 0``
        (:class:`~exactdp.errors.InputTooLarge` above ``MAX_POINTS``).

    Examples
    --------
    >>> g = grid((3, 3), "euclidean")
    >>> g.distance("0,0", "1,2")
    Lin('sqrt(5)')
    >>> g.distance("0,0", "2,2")
    Lin('2*sqrt(2)')
    >>> grid((3, 3), "chebyshev").distance("0,0", "2,1")
    2
    """
    R, C, h = _grid_args(shape, norm, step)
    labels = [f"{r},{c}" for r in range(R) for c in range(C)]
    scale = _scaler(h)
    sqrt_cache: dict = {}

    def eu(dr, dc):
        k = dr * dr + dc * dc
        if k not in sqrt_cache:
            s = Lin.sqrt(k)
            sqrt_cache[k] = scale(s.rational() if s.is_rational() else s)
        return sqrt_cache[k]

    def dfn(i, j):
        (r1, c1), (r2, c2) = divmod(i, C), divmod(j, C)
        dr, dc = abs(r1 - r2), abs(c1 - c2)
        if norm == "manhattan":
            return scale(fmpq(dr + dc))
        if norm == "chebyshev":
            return scale(fmpq(max(dr, dc)))
        return eu(dr, dc)

    pairs, reduction = _grid_pairs(R, C, norm, eu, scale)
    return FiniteMetric(labels, pairs, dfn, kind="grid",
                        description=f"{R} x {C} grid, {norm} distance" + (f", step {exact_str(h)}" if h != 1 else ""),
                        reduction=reduction, params={"kind": "grid", "shape": [R, C], "norm": norm})


def _grid_args(shape, norm, step):
    """Validate ``grid``'s arguments: the sizes ``R, C`` and the exact step ``h > 0``."""
    try:
        R, C = (int(s) for s in shape)
    except (TypeError, ValueError):
        raise InvalidInput(f"grid shape: expected two integers [rows, columns], got {brief(shape)}") from None
    if R < 1 or C < 1:
        raise InvalidInput(f"grid shape: expected positive sizes, got {R} x {C}")
    _check_n(R * C, "grid size")
    if norm not in ("manhattan", "chebyshev", "euclidean"):
        raise InvalidInput(f"grid norm: expected 'manhattan', 'chebyshev' or 'euclidean', got {norm!r}")
    h = parse_distance(step, what="grid step")
    if h == math.inf or dist_sign(h) <= 0:
        raise InvalidInput(f"grid step: expected a finite length > 0, got {exact_str(h)}")
    return R, C, h


def _scaler(h):
    """The map ``d -> h * d`` on exact distances (rational, or a sum of square roots)."""
    def scale(d):
        if isinstance(h, fmpq) and isinstance(d, fmpq):
            return d * h
        p = Lin.coerce(d) * Lin.coerce(h)
        return p.rational() if p.is_rational() else p
    return scale


def _grid_pairs(R, C, norm, eu, scale):
    """The generating pairs of the grid (a callable, computed on demand) and the reduction that justifies them."""
    if norm == "euclidean":
        def segment_pairs():
            out = []
            for i in range(R * C):
                r1, c1 = divmod(i, C)
                for j in range(i + 1, R * C):
                    r2, c2 = divmod(j, C)
                    dr, dc = abs(r1 - r2), abs(c1 - c2)
                    if gcd(dr, dc) == 1:
                        out.append((i, j, eu(dr, dc)))
            return out
        return segment_pairs, ("on the Euclidean grid d(x,w) + d(w,y) = d(x,y) holds exactly when w lies on the "
                               "segment [x, y]; the pairs whose segment holds no other grid point (gcd(|dr|, |dc|) = 1)"
                               " generate every other pair by chains along the segment, so it suffices to check them")
    moves = [(0, 1), (1, 0)] + ([(1, 1), (1, -1)] if norm == "chebyshev" else [])

    def pairs():
        out = []
        for i in range(R * C):
            r, c = divmod(i, C)
            for dr, dc in moves:
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < R and 0 <= c2 < C:
                    j = r2 * C + c2
                    out.append((min(i, j), max(i, j), scale(fmpq(1))))
        out.sort(key=lambda t: (t[0], t[1]))
        return out
    return pairs, _GRAPH_REDUCTION + (" (the grid graph with " + ("4" if norm == "manhattan" else "8") + " neighbours)")
