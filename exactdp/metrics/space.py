"""Finite metric spaces with exact distances and their *generating pairs*.

A :class:`FiniteMetric` knows its points (string labels), exact distances
(``fmpq``, :class:`~exactdp.exact.lin.Lin` for square roots, or ``math.inf``
between components that nothing connects), and a set of **generating pairs**:
pairs ``(x, y)`` such that every distance is the length of a chain of
generating pairs.  d-privacy constraints only need checking on generating
pairs, because for a chain ``x = y_0, ..., y_k = x'`` with
``d(x, x') = sum d(y_i, y_{i+1})`` the per-step bounds multiply:

    K(x)(z) <= prod e^(eps d(y_i, y_{i+1})) K(x')(z) = e^(eps d(x, x')) K(x')(z).

For a graph metric the generating pairs are the edges (ECP14 sec. 3.2, where
``eps``-DP is ``eps d_h``-privacy); for an explicit matrix they are the pairs
with no point *strictly between* them (``d(x,w) + d(w,y) = d(x,y)``), found
exactly.  Pairs at infinite distance impose no constraint.

>>> from exactdp.metrics import path
>>> m = path(4)
>>> m.points
('0', '1', '2', '3')
>>> m.distance('0', '3')
3
>>> [(m.points[i], m.points[j], str(d)) for i, j, d in m.generating_pairs()]
[('0', '1', '1'), ('1', '2', '1'), ('2', '3', '1')]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import numpy as np
from flint import fmpq

from ..errors import InputTooLarge, InvalidInput, NotAMetric
from ..exact.decide import exact_str, float_bounds, sign
from ..exact.filter import POS, UNKNOWN, add, sign_status, sub
from ..exact.interop import as_rows
from ..exact.lin import Lin
from ..exact.values import brief
from ..exact.values import distance as parse_distance

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["MAX_POINTS_DENSE", "FiniteMetric", "dist_add", "dist_sub"]

#: largest number of points for which an explicit distance matrix is accepted
MAX_POINTS_DENSE = 5_000


def dist_add(a: Any, b: Any) -> Any:
    """Add two exact distances (``inf`` absorbs; a rational sum comes back as a rational).

    Parameters
    ----------
    a, b : fmpq, Lin or float
        Exact distances (``fmpq`` or ``Lin``), or ``math.inf``.

    Returns
    -------
    fmpq, Lin or float
        ``a + b``: ``math.inf`` if either is, an ``fmpq`` when the sum is rational, else a ``Lin``.

    Examples
    --------
    >>> from exactdp.exact.lin import Lin
    >>> dist_add(fmpq(1, 2), fmpq(1, 3)), dist_add(fmpq(1), math.inf)
    (5/6, inf)
    >>> dist_add(Lin.sqrt(2), fmpq(1)), dist_add(Lin.sqrt(2), 1 - Lin.sqrt(2))
    (Lin('1 + sqrt(2)'), 1)
    """
    if a == math.inf or b == math.inf:
        return math.inf
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        return a + b
    s = Lin.coerce(a) + Lin.coerce(b)
    return s.rational() if s.is_rational() else s


def dist_sub(a: Any, b: Any) -> Any:
    """Subtract two finite exact distances.

    Parameters
    ----------
    a, b : fmpq or Lin
        Finite exact distances.

    Returns
    -------
    fmpq or Lin
        ``a - b``: an ``fmpq`` when both are, else a ``Lin`` (also when the difference is rational).

    Examples
    --------
    >>> from exactdp.exact.lin import Lin
    >>> dist_sub(fmpq(1, 2), fmpq(1, 3)), dist_sub(Lin.sqrt(2), fmpq(1)), dist_sub(Lin.sqrt(2) + 1, Lin.sqrt(2))
    (1/6, Lin('-1 + sqrt(2)'), Lin('1'))
    """
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        return a - b
    return Lin.coerce(a) - Lin.coerce(b)


def dist_sign(x) -> int:
    return sign(x)


class FiniteMetric:
    """A finite metric space with exact distances (see module docstring).

    Build one with the constructors in :mod:`exactdp.metrics`
    (:func:`~exactdp.metrics.from_graph`, :func:`~exactdp.metrics.path`,
    :func:`~exactdp.metrics.grid`, :func:`~exactdp.metrics.hamming`,
    :func:`~exactdp.metrics.from_matrix`, ...); the constructor below is
    their common engine and trusts its arguments (no axiom check).  The
    generating pairs are those of ECP14 sec. 3.2: ``eps d``-privacy on them
    implies it on every pair.

    Parameters
    ----------
    points : iterable of str
        Unique point labels, in index order.
    pairs : list or callable
        The generating pairs ``(i, j, d)`` with ``i < j`` and finite exact
        ``d > 0``, or a callable returning them (computed on first use).
    distance_fn : callable
        ``(i, j) -> d(i, j)``: exact ``fmpq``, ``Lin`` or ``math.inf``.
    kind : str
        The family (``"graph"``, ``"grid"``, ``"matrix"``, ``"hamming"``, ...).
    description : str
        One line for messages and proofs.
    reduction : str
        Why checking the generating pairs suffices (used in worked proofs).
    params : dict, optional
        The constructor's arguments, for the JSON spec of the metric.

    Raises
    ------
    InvalidInput
        A label that appears twice.

    Examples
    --------
    >>> from flint import fmpq
    >>> m = FiniteMetric(["a", "b"], [(0, 1, fmpq(2))], lambda i, j: fmpq(2 * abs(i - j)),
    ...                  kind="matrix", description="two points", reduction="one pair")
    >>> m
    <FiniteMetric two points: 2 points>
    >>> m.distance("a", "b")
    2
    """

    #: for a graph metric, a function returning every edge ``(i, j, w)`` of its graph (also edges longer than
    #: the distance of their ends); ``None``: the generating pairs are the graph (certificate serialisation)
    defining_edges: Callable[[], list] | None = None

    def __init__(self, points, pairs, distance_fn, *, kind: str, description: str,
                 reduction: str, params: dict | None = None):
        self.points: tuple[str, ...] = tuple(points)
        self.index = {p: i for i, p in enumerate(self.points)}
        if len(self.index) != len(self.points):
            dup = next(p for p in self.points if self.points.count(p) > 1)
            raise InvalidInput(f"metric points: label {dup!r} appears twice; "
                               "labels are compared as strings and must be unique")
        self._pairs = pairs  # list of (i, j, d) with i < j, or a callable producing it
        self._distance_fn = distance_fn
        self.kind = kind
        self.description = description
        self.reduction = reduction
        self.params = params or {}

    def __len__(self):
        return len(self.points)

    def __repr__(self):
        return f"<FiniteMetric {self.description}: {len(self)} points>"

    def to_networkx(self) -> nx.Graph:
        """Return the graph of the generating pairs as a networkx graph.

        On a graph metric its shortest paths give back the metric (the
        generating pairs are the edges, ECP14 sec. 3.2).

        Returns
        -------
        networkx.Graph
            Nodes the point labels; one edge per generating pair, with
            ``weight`` its exact distance (a ``fractions.Fraction`` when
            rational, else the exact text) and ``distance`` the exact text.

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> G = path(3).to_networkx()
        >>> sorted(G.edges(data="distance"))
        [('0', '1', '1'), ('1', '2', '1')]
        """
        from fractions import Fraction

        import networkx as nx

        G = nx.Graph()
        G.add_nodes_from(self.points)
        for i, j, d in self.generating_pairs():
            w = Fraction(int(d.p), int(d.q)) if hasattr(d, "p") else exact_str(d)
            G.add_edge(self.points[i], self.points[j], weight=w, distance=exact_str(d))
        return G

    def generating_pairs(self) -> list:
        """Return the generating pairs ``(i, j, d)`` with ``i < j`` and finite ``d > 0``.

        Every finite distance is the length of a chain of them, so privacy
        constraints need checking on them only (ECP14 sec. 3.2).

        Returns
        -------
        list of tuple
            ``(i, j, d)``: point indices and the exact distance.

        Examples
        --------
        >>> from exactdp.metrics import cycle
        >>> [(i, j, str(d)) for i, j, d in cycle(3).generating_pairs()]
        [(0, 1, '1'), (0, 2, '1'), (1, 2, '1')]
        """
        if callable(self._pairs):
            self._pairs = self._pairs()
        return self._pairs

    def _idx(self, x) -> int:
        try:
            return self.index[str(x)]
        except KeyError:
            raise InvalidInput(f"point {x!r} is not in the metric ({self.description})") from None

    def distance(self, x: Any, y: Any) -> Any:
        """Return the exact distance between the points labelled ``x`` and ``y``.

        Parameters
        ----------
        x, y : str or object
            Point labels (compared as strings: ``0`` finds ``"0"``).

        Returns
        -------
        fmpq or Lin or float
            The exact distance; ``math.inf`` between unconnected points.

        Raises
        ------
        InvalidInput
            A label that is not a point of the metric.

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> path(4).distance("0", 3)
        3
        """
        return self._distance_fn(self._idx(x), self._idx(y))

    def d(self, i: int, j: int) -> Any:
        """Return the exact distance between the points of indices ``i`` and ``j``.

        Parameters
        ----------
        i, j : int
            Point indices (positions in :attr:`points`); not checked.

        Returns
        -------
        fmpq or Lin or float
            The exact distance; ``math.inf`` between unconnected points.

        Examples
        --------
        >>> from exactdp.metrics import cycle
        >>> cycle(5).d(0, 4)
        1
        """
        return self._distance_fn(i, j)

    def distance_matrix(self) -> list[list[Any]]:
        """Return the full exact distance matrix; O(n^2) values.

        Returns
        -------
        list of list
            ``D[i][j] = d(i, j)``, exact.

        Raises
        ------
        InputTooLarge
            More than ``MAX_POINTS_DENSE`` points.

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> [[str(v) for v in row] for row in path(3).distance_matrix()]
        [['0', '1', '2'], ['1', '0', '1'], ['2', '1', '0']]
        """
        n = len(self)
        if n > MAX_POINTS_DENSE:
            raise InputTooLarge(f"distance_matrix: {n} points exceed {MAX_POINTS_DENSE}")
        return [[self._distance_fn(i, j) for j in range(n)] for i in range(n)]

    def scaled(self, c) -> FiniteMetric:
        """Return the metric ``c * d`` for an exact ``c > 0`` (rational or a sum of square roots).

        ``eps``-privacy for ``c d`` is ``c eps``-privacy for ``d`` (ECP14 sec. 3).

        Parameters
        ----------
        c : exact number
            The factor: an int, Fraction or exact text such as ``"1/2"`` or
            ``"sqrt(2)"``.

        Returns
        -------
        FiniteMetric
            Same points and generating pairs, every distance times ``c``.

        Raises
        ------
        InvalidInput
            ``c`` is not a finite exact number ``> 0``
            (:class:`~exactdp.errors.ParseError` for text outside the grammar).
        InvalidType
            ``c`` is a binary float.

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> path(3).scaled("3/2").distance(0, 2)
        3
        """
        c = parse_distance(c, what="scale")
        if c == math.inf or dist_sign(c) <= 0:
            raise InvalidInput(f"scale: expected a finite exact number > 0, got {c}")

        def mul(d):
            if d == math.inf:
                return d
            if isinstance(d, fmpq) and isinstance(c, fmpq):
                return d * c
            p = Lin.coerce(d) * Lin.coerce(c)
            return p.rational() if p.is_rational() else p

        base = self
        return FiniteMetric(
            self.points,
            lambda: [(i, j, mul(d)) for i, j, d in base.generating_pairs()],
            lambda i, j: mul(base.d(i, j)),
            kind=self.kind,
            description=f"{exact_str(c)} * ({self.description})",
            reduction=self.reduction,
            params={**self.params, "scale": exact_str(c)},
        )

    def diameter(self) -> Any:
        """Return the largest finite distance.

        Returns
        -------
        fmpq or Lin
            ``max d(x, y)`` over pairs at finite distance (``0`` for one point).

        Examples
        --------
        >>> from exactdp.metrics import cycle
        >>> cycle(7).diameter()
        3
        """
        best = fmpq(0)
        n = len(self)
        for i in range(n):
            for j in range(i + 1, n):
                d = self.d(i, j)
                if d != math.inf and dist_sign(dist_sub(d, best)) > 0:
                    best = d
        return best

    def min_distance(self) -> Any:
        """Return the smallest distance between distinct points (``kappa`` of HLM15 Thm 7).

        Returns
        -------
        fmpq or Lin or float
            The smallest generating distance; ``math.inf`` for one point.

        Examples
        --------
        >>> from exactdp.metrics import grid
        >>> grid((2, 2), step="1/3").min_distance()
        1/3
        """
        best = math.inf
        for _, _, d in self.generating_pairs():
            if best == math.inf or dist_sign(dist_sub(d, best)) < 0:
                best = d
        return best


def _bounds_matrix(D):
    n = len(D)
    lo = np.empty((n, n))
    hi = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            v = D[i][j]
            if v == math.inf:
                lo[i, j] = hi[i, j] = math.inf
            else:
                lo[i, j], hi[i, j] = float_bounds(v)
    return lo, hi


def validate_and_reduce(points: Sequence[str], D) -> list:
    """Check the metric axioms exactly and return the generating pairs.

    Raises :class:`NotAMetric` naming the offending points.  Floats are used
    only as a certified filter (outward-rounded bounds); every near tie is
    decided exactly.
    """
    _check_pointwise_axioms(points, D)
    n = len(points)
    lo, hi = _bounds_matrix(D)
    pairs = []
    for x in range(n):
        # the sign of d(x, w) + d(w, y) - d(x, y) for every (w, y), filtered (exactdp.exact.filter): POS is a
        # strict triangle inequality, NEG a violation (reported exactly), UNKNOWN a possible tie (or an
        # infinite distance: inf - inf is NaN) decided exactly below, lazily
        st = sign_status(*sub(*add(lo[x][:, None], hi[x][:, None], lo, hi), lo[x][None, :], hi[x][None, :]))
        _check_triangles_from(x, points, D, st == POS)
        pairs.extend(_essential_pairs_from(x, D, st == UNKNOWN))
    return pairs


def _check_pointwise_axioms(points, D):
    """Square matrix, ``d(x, x) = 0``, symmetry and ``d(x, y) > 0`` for ``x != y``, decided exactly."""
    n = len(points)
    for i in range(n):
        if len(D[i]) != n:
            raise NotAMetric(f"distances: row {i} ({points[i]!r}) has {len(D[i])} entries, "
                             f"expected {n} (the matrix must be square)")
    for i in range(n):
        if D[i][i] == math.inf or dist_sign(D[i][i]) != 0:
            raise NotAMetric(f"distances: d({points[i]!r}, {points[i]!r}) = {brief(D[i][i])}, expected 0")
        for j in range(i + 1, n):
            a, b = D[i][j], D[j][i]
            if (a == math.inf) != (b == math.inf) or (a != math.inf and dist_sign(dist_sub(a, b)) != 0):
                raise NotAMetric(
                    f"distances: not symmetric: d({points[i]!r}, {points[j]!r}) = {brief(a)} but "
                    f"d({points[j]!r}, {points[i]!r}) = {brief(b)}")
            if a != math.inf and dist_sign(a) <= 0:
                raise NotAMetric(
                    f"distances: d({points[i]!r}, {points[j]!r}) = {brief(a)}, expected > 0 for distinct "
                    "points; hint: merge points at distance 0")


def _check_triangles_from(x, points, D, surely_ok):
    """Triangle inequality ``d(x, y) <= d(x, w) + d(w, y)``, decided exactly where the float filter is unsure."""
    for w, y in np.argwhere(~surely_ok):
        if w in (x, y) or x == y:
            continue
        lhs, rhs = D[x][y], dist_add(D[x][w], D[w][y])
        if rhs == math.inf:
            continue
        if lhs == math.inf or dist_sign(dist_sub(lhs, rhs)) > 0:
            raise NotAMetric(
                f"distances: triangle inequality fails for ({points[x]!r}, {points[w]!r}, {points[y]!r}): "
                f"d({points[x]!r}, {points[y]!r}) = {brief(lhs)} > d({points[x]!r}, {points[w]!r}) + "
                f"d({points[w]!r}, {points[y]!r}) = {brief(rhs)}")


def _essential_pairs_from(x, D, between):
    """Generating pairs ``(x, y)``, ``x < y``, finite, with no ``w`` strictly between (``between`` may say so)."""
    out = []
    for y in range(x + 1, len(D)):
        if D[x][y] == math.inf:
            continue
        essential = True
        for w in np.nonzero(between[:, y])[0]:
            if w in (x, y):
                continue
            if D[x][w] == math.inf or D[w][y] == math.inf:
                continue
            if dist_sign(dist_sub(D[x][y], dist_add(D[x][w], D[w][y]))) == 0:
                essential = False
                break
        if essential:
            out.append((x, y, D[x][y]))
    return out


def from_matrix(points, distances, *, allow_float=False) -> FiniteMetric:
    """A metric from an explicit exact distance matrix (validated exactly).

    The axioms are decided exactly; the generating pairs are the pairs with
    no point strictly between them (ECP14 sec. 3.2 for graphs, generalised).

    Parameters
    ----------
    points : iterable
        The labels (compared as strings).
    distances : sequence of sequences
        The ``n x n`` matrix (lists, a numpy array or a sympy matrix); entries
        exact numbers (ints, Fractions, strings such as ``"3/2"`` or
        ``"sqrt(2)"``) or ``"inf"``.
    allow_float : bool, default False
        Take binary floats at their exact binary value (else refused).

    Returns
    -------
    FiniteMetric
        Distances as given; its generating pairs found exactly.

    Raises
    ------
    NotAMetric
        A non-square matrix, ``d(x, x) != 0``, asymmetry, a zero distance
        between distinct points, or a failed triangle inequality.
    InvalidInput
        No points, a repeated label, or an entry outside the exact grammar
        (:class:`~exactdp.errors.InputTooLarge` above ``MAX_POINTS_DENSE``).
    InvalidType
        A binary float without ``allow_float``.

    Examples
    --------

    >>> m = from_matrix(["a", "b", "c"], [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    >>> [(m.points[i], m.points[j]) for i, j, _ in m.generating_pairs()]
    [('a', 'b'), ('b', 'c')]
    >>> from_matrix(["a", "b", "c"], [[0, 1, 3], [1, 0, 1], [3, 1, 0]])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.errors.NotAMetric: distances: triangle inequality fails for ('a', 'b', 'c'): d('a', 'c') = 3 > d('a', 'b') +
    d('b', 'c') = 2
    """
    points = [str(p) for p in points]
    distances = as_rows(distances, "distances")  # numpy arrays and sympy matrices, structurally
    n = len(points)
    if n == 0:
        raise InvalidInput("metric points: expected at least one point, got none")
    if n > MAX_POINTS_DENSE:
        raise InputTooLarge(f"distances: {n} points exceed the limit {MAX_POINTS_DENSE} for an explicit matrix")
    if len(distances) != n:
        raise NotAMetric(f"distances: {len(distances)} rows for {n} points; the matrix must be {n} x {n}")
    D = [[parse_distance(v, what=f"distance [{i}][{j}]", allow_float=allow_float) for j, v in enumerate(row)]
         for i, row in enumerate(distances)]
    pairs = validate_and_reduce(points, D)
    return FiniteMetric(
        points, pairs, lambda i, j: D[i][j], kind="matrix",
        description=f"explicit distance matrix on {n} points",
        reduction=("the generating pairs are the pairs (x, y) with no point w strictly between them "
                   "(d(x,w) + d(w,y) = d(x,y)), found exactly; every other pair is the sum of a chain of them"),
    )
