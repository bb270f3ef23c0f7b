"""Distance codes and equitable partitions of a finite metric (for symmetry-reduced solves).

**Distance codes.**  ``codes[i, j]`` is a small integer with ``codes[i, j] == codes[k, l]`` exactly when
``d(i, j) = d(k, l)``; ``values[c]`` is the exact distance of code ``c``.  Built with numpy from the
structure of paths, cycles, grids and discrete metrics (``|i - j|``, ``dr^2 + dc^2``, ...: injective keys
of the exact distance), and by exact deduplication of ``metric.d`` for any other metric.

**Equitable partitions.**  A partition of the points into cells is *equitable* for the distance matrix
when, for every two cells ``A, B`` and every distance ``r``, the number of ``b in B`` with ``d(a, b) = r``
is the same for every ``a in A``.  Then for any matrix ``Phi_ab = f(d(a, b))`` (ECP14 Def. 3) the
characteristic matrix ``P`` of the cells satisfies ``Phi P = P Q`` with the quotient
``Q[A, B] = sum_{b in B} Phi_ab`` (any ``a in A``).  Partitions come from the metric's automorphisms (the
8 symmetries of a square grid, the reflection of a path), each *verified* exactly on the codes, or from
colour refinement; a partition is used only after it is checked equitable exactly.

>>> from exactdp.metrics import grid
>>> P = equitable_partition(grid((3, 3), "euclidean"))
>>> P.ncells, P.cell_of.tolist()
(3, [0, 1, 0, 1, 2, 1, 0, 1, 0])
>>> P.how
'orbits of 3 automorphisms of the grid (row flip, column flip, transpose), each verified on every pair'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from flint import fmpq

if TYPE_CHECKING:
    from .space import FiniteMetric

__all__ = ["MAX_CODED_POINTS", "DistanceCodes", "Partition", "distance_codes", "equitable_partition", "is_equitable",
           "orbit_cells", "quotient_counts"]

_BLOCK = 1 << 22  # entries per numpy block (bounds temporary memory)
#: most points of a metric whose distances are not a known formula: its whole ``n x n`` code matrix is built
#: (int32: 1.6 GB at this size, and ``n^2`` exact distances read); refused before any of it is computed
MAX_CODED_POINTS = 20_000


def _structured_keys(metric):
    """``(key_fn(rows) -> int array (len(rows), n), rep_row)`` for metrics whose distance is a known formula."""
    kind = metric.params.get("kind")
    n = len(metric)
    idx = np.arange(n, dtype=np.int64)
    if kind == "path" and metric.params.get("n") == n:
        return lambda rows: np.abs(rows[:, None] - idx[None, :])
    if kind == "cycle" and metric.params.get("n") == n:
        def cyc(rows):
            a = np.abs(rows[:, None] - idx[None, :])
            return np.minimum(a, n - a)
        return cyc
    if kind == "discrete":
        return lambda rows: (rows[:, None] != idx[None, :]).astype(np.int64)
    if kind == "grid":
        R, C = (int(s) for s in metric.params["shape"])
        if n != R * C:
            return None
        r, c = idx // C, idx % C
        norm = metric.params.get("norm")

        def gk(rows):
            dr = np.abs(r[rows][:, None] - r[None, :])
            dc = np.abs(c[rows][:, None] - c[None, :])
            if norm == "manhattan":
                return dr + dc
            if norm == "chebyshev":
                return np.maximum(dr, dc)
            return dr * dr + dc * dc  # d = step * sqrt(dr^2 + dc^2): injective in dr^2 + dc^2
        return gk if norm in ("manhattan", "chebyshev", "euclidean") else None
    return None


class DistanceCodes:
    """Distance codes of a metric, row by row (see :func:`distance_codes`).

    ``rows(idx)`` gives the codes of some rows without building the whole matrix when the metric's distance
    is a known formula; ``full()`` builds (and keeps) the ``n x n`` matrix.

    Parameters
    ----------
    metric : FiniteMetric
        The metric; paths, cycles, grids and discrete metrics are coded from their formula.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> dc = DistanceCodes(path(3))
    >>> dc.ncodes, [str(v) for v in dc.values], dc.rows([1]).tolist()
    (3, ['0', '1', '2'], [[1, 0, 1]])
    """

    #: the last large ``rows`` request and its answer (absent until the first)
    _last: tuple[bytes, np.ndarray]

    def __init__(self, metric):
        self.metric = metric
        self.n = len(metric)
        self._full = None
        self.structured = False
        keyf = _structured_keys(metric)
        if keyf is not None:
            k0 = keyf(np.array([0]))[0]  # a corner sees every offset, so every key occurs in row 0 (checked)
            # one sort finds each key's first column (a scan per key was quadratic: a 10^6-point path hung)
            uniq, first = np.unique(k0, return_index=True)
            self._lut = np.full(int(uniq[-1]) + 1, -1, dtype=np.int32)
            self._lut[uniq] = np.arange(len(uniq), dtype=np.int32)
            self._keyf = keyf
            self.values = [metric.d(0, int(j)) for j in first.tolist()]
            self.structured = True
            return
        if self.n > MAX_CODED_POINTS:
            from ..errors import InputTooLarge

            raise InputTooLarge(f"distance codes: {self.n:,} points whose distances are not a known formula (path, "
                                f"cycle, discrete, grid): their n x n codes are beyond the limit of "
                                f"{MAX_CODED_POINTS:,} points")
        codes = _codes_from_pairs(metric)
        self._full, self.values = codes if codes is not None else _codes_generic(metric)

    @property
    def ncodes(self) -> int:
        """The number of distinct distances.

        Examples
        --------
        >>> from exactdp.metrics import discrete
        >>> DistanceCodes(discrete(5)).ncodes          # 0 and 1
        2
        """
        return len(self.values)

    def rows(self, idx) -> np.ndarray:
        """Return the codes of the rows ``idx``; treat the result as read-only.

        The last large request is kept: callers ask for the same representatives repeatedly.

        Parameters
        ----------
        idx : sequence of int
            Point indices.

        Returns
        -------
        numpy.ndarray
            ``int32``, shape ``(len(idx), n)``.

        Examples
        --------
        >>> from exactdp.metrics import cycle
        >>> DistanceCodes(cycle(4)).rows([0, 2]).tolist()
        [[0, 1, 2, 1], [2, 1, 0, 1]]
        """
        idx = np.asarray(idx, dtype=np.int64)
        if self._full is not None:
            return self._full[idx]
        key = idx.tobytes() if len(idx) >= 64 else None
        if key is not None and getattr(self, "_last", (None,))[0] == key:
            return self._last[1]
        out = self._rows(idx)
        if key is not None:
            self._last = (key, out)
        return out

    def _rows(self, idx):
        out = np.empty((len(idx), self.n), dtype=np.int32)
        step = max(1, _BLOCK // max(self.n, 1))
        for s in range(0, len(idx), step):
            k = self._keyf(idx[s:s + step])
            if k.max() >= len(self._lut) or (self._lut[k] < 0).any():
                raise RuntimeError("internal error: a distance key missing from row 0 of a structured metric")
            out[s:s + len(k)] = self._lut[k]
        return out

    def full(self) -> np.ndarray:
        """Return the whole ``n x n`` code matrix (built once, then kept).

        Returns
        -------
        numpy.ndarray
            ``int32``, shape ``(n, n)``.

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> DistanceCodes(path(3)).full().tolist()
        [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
        """
        if self._full is None:
            self._full = self.rows(np.arange(self.n))
        return self._full


def distance_codes(metric: FiniteMetric) -> tuple[np.ndarray, list]:
    """Return an ``int32`` matrix of distance codes and the exact distance of each code.

    ``codes[i, j] == codes[k, l]`` iff ``d(i, j) = d(k, l)`` (exactly); ``values[codes[i, j]] == d(i, j)``.

    Parameters
    ----------
    metric : FiniteMetric
        The metric.

    Returns
    -------
    codes : numpy.ndarray
        ``int32``, shape ``(n, n)``.
    values : list
        The exact distance of each code.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> codes, values = distance_codes(path(3))
    >>> codes.tolist(), [str(v) for v in values]
    ([[0, 1, 2], [1, 0, 1], [2, 1, 0]], ['0', '1', '2'])
    """
    dc = DistanceCodes(metric)
    return dc.full(), dc.values


def _codes_from_pairs(metric):
    """Codes from shortest paths over the generating pairs, when they have rational lengths.

    Every distance is the length of a shortest chain of generating pairs (the defining property of
    generating pairs, see :mod:`exactdp.metrics.space`); with lengths scaled to integers and every total
    below 2^50, the float shortest-path sums are exact integers.  Each code's value is then read with
    ``metric.d`` at one pair and checked equal to the integer found.
    """
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import shortest_path

    n = len(metric)
    pairs = metric.generating_pairs()
    if any(not isinstance(d, fmpq) for _, _, d in pairs):
        return None
    L = 1
    for _, _, d in pairs:
        L = math.lcm(L, int(d.q))
    w = [int(d.p) * (L // int(d.q)) for _, _, d in pairs]
    if pairs and max(w) * n >= 2 ** 50:
        return None
    i = np.array([p[0] for p in pairs], dtype=np.int64)
    j = np.array([p[1] for p in pairs], dtype=np.int64)
    G = coo_matrix((np.array(w, dtype=np.float64), (i, j)), shape=(n, n)).tocsr()
    D = shortest_path(G, method="D", directed=False, unweighted=all(x == 1 for x in w))
    fin = np.isfinite(D)
    key = np.where(fin, D + 1, 0).astype(np.int64)  # 0: infinite distance
    top = int(key.max())
    if top > 50_000_000:
        return None
    flat = key.ravel()
    present = np.zeros(top + 1, dtype=bool)
    present[flat] = True
    uniq = np.flatnonzero(present)
    lut = np.full(top + 1, -1, dtype=np.int32)
    lut[uniq] = np.arange(len(uniq), dtype=np.int32)
    codes = lut[key]
    first = np.zeros(top + 1, dtype=np.int64)
    first[flat] = np.arange(len(flat))  # some pair with each key (checked against metric.d below)
    first = first[uniq]
    uniq = uniq - 1
    values = []
    for kv, pos in zip(uniq.tolist(), first.tolist(), strict=True):
        a, b = divmod(pos, n)
        v = metric.d(a, b)
        want = math.inf if kv < 0 else fmpq(kv, L)
        if v != want:
            return None
        values.append(v)
    return codes, values


def _codes_generic(metric: FiniteMetric) -> tuple[np.ndarray, list]:
    n = len(metric)
    codes = np.empty((n, n), dtype=np.int32)
    values: list = []
    index: dict = {}
    d = metric.d
    for i in range(n):
        row = codes[i]
        for j in range(n):
            v = d(i, j)
            c = index.get(v)
            if c is None:
                c = index[v] = len(values)
                values.append(v)
            row[j] = c
    return codes, values


@dataclass
class Partition:
    """An equitable partition (verified by whoever builds it, e.g. :func:`equitable_partition`).

    Parameters
    ----------
    cell_of : numpy.ndarray
        ``cell_of[i]`` is the cell of point ``i``; cells are numbered ``0..k-1``.
    how : str
        Where the partition came from, in words.

    Examples
    --------
    >>> import numpy as np
    >>> P = Partition(np.array([0, 1, 0]), "the reflection of a path")
    >>> P.ncells, [c.tolist() for c in P.cells()], P.representatives().tolist()
    (2, [[0, 2], [1]], [0, 1])
    """

    cell_of: np.ndarray
    how: str

    @property
    def ncells(self) -> int:
        """The number of cells.

        Examples
        --------
        >>> import numpy as np
        >>> Partition(np.array([0, 1, 1, 2]), "by hand").ncells
        3
        """
        return int(self.cell_of.max()) + 1 if len(self.cell_of) else 0

    def cells(self) -> list:
        """Return the point indices of each cell, in increasing order.

        Returns
        -------
        list of numpy.ndarray
            Cell ``a``'s points.

        Examples
        --------
        >>> import numpy as np
        >>> [c.tolist() for c in Partition(np.array([1, 0, 1, 0]), "by hand").cells()]
        [[1, 3], [0, 2]]
        """
        order = np.argsort(self.cell_of, kind="stable")
        bounds = np.searchsorted(self.cell_of[order], np.arange(self.ncells + 1))
        return [order[bounds[a]:bounds[a + 1]] for a in range(self.ncells)]

    def representatives(self) -> np.ndarray:
        """Return the first point of each cell.

        Returns
        -------
        numpy.ndarray
            ``int64``, one point index per cell.

        Examples
        --------
        >>> import numpy as np
        >>> Partition(np.array([1, 0, 1, 0]), "by hand").representatives().tolist()
        [1, 0]
        """
        reps = np.full(self.ncells, -1, dtype=np.int64)
        for i in range(len(self.cell_of) - 1, -1, -1):
            reps[self.cell_of[i]] = i
        return reps

    def is_constant_on_cells(self, v) -> bool:
        """Return whether ``v`` takes one value on each cell.

        Parameters
        ----------
        v : sequence
            One value per point, compared with ``==``.

        Returns
        -------
        bool
            True iff ``v[i] == v[j]`` whenever ``i`` and ``j`` share a cell.

        Examples
        --------
        >>> import numpy as np
        >>> P = Partition(np.array([0, 1, 0]), "by hand")
        >>> P.is_constant_on_cells([5, 7, 5]), P.is_constant_on_cells([5, 7, 6])
        (True, False)
        """
        reps = self.representatives()
        return all(v[i] == v[reps[self.cell_of[i]]] for i in range(len(v)))


def _canonical(labels) -> np.ndarray:
    """Relabel cells 0, 1, ... in order of first appearance."""
    _, first, inv = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inv.ravel()]


def _generators(metric):
    """Candidate automorphisms (permutations) from the metric's construction, with a name."""
    kind = metric.params.get("kind")
    n = len(metric)
    idx = np.arange(n)
    if kind in ("path", "cycle") and metric.params.get("n") == n:
        gens = [n - 1 - idx] + ([(idx + 1) % n] if kind == "cycle" else [])
        return gens, f"orbits of {len(gens)} automorphism(s) of the {kind} (reflection" + \
            (", rotation" if kind == "cycle" else "") + "), each verified on every pair"
    if kind == "discrete" and n > 1:
        return [np.roll(idx, 1), np.r_[1, 0, idx[2:]]], "orbits of the full symmetric group (verified generators)"
    if kind == "grid":
        R, C = (int(s) for s in metric.params["shape"])
        if n != R * C:
            return None
        r, c = idx // C, idx % C
        gens = [(R - 1 - r) * C + c, r * C + (C - 1 - c)]
        names = ["row flip", "column flip"]
        if R == C:
            gens.append(c * C + r)
            names.append("transpose")
        return gens, (f"orbits of {len(gens)} automorphisms of the grid ({', '.join(names)}), each verified on "
                      "every pair")
    return None


def orbit_cells(metric) -> int | None:
    """The number of cells :func:`equitable_partition` gives a large structured metric, without building it.

    Beyond ``MAX_REFINE`` points a path, cycle, discrete metric or grid is partitioned into the orbits of the
    generators of :func:`_generators`; their number has a closed form, so a command can refuse a route by its
    cells before any O(n) work.  Smaller or other metrics: None (their partition may be coarser).

    Parameters
    ----------
    metric : FiniteMetric
        The metric.

    Returns
    -------
    int or None
        The orbits: ``ceil(n/2)`` on a path (the reflection), 1 on a cycle or discrete metric, on an ``R x C``
        grid ``ceil(R/2) ceil(C/2)`` (row and column flips), and ``m (m + 1) / 2`` with ``m = ceil(R/2)`` on
        a square one (the transpose too).

    Examples
    --------
    >>> from exactdp.metrics import grid, path
    >>> orbit_cells(path(10**4)), orbit_cells(grid((100, 100))), orbit_cells(grid((60, 61)))
    (5000, 1275, 930)
    >>> orbit_cells(path(10)) is None                 # colour refinement may find a coarser partition
    True
    """
    n = len(metric)
    if n <= MAX_REFINE or _structured_keys(metric) is None or _generators(metric) is None:
        return None
    kind = metric.params.get("kind")
    if kind == "path":
        return (n + 1) // 2
    if kind in ("cycle", "discrete"):
        return 1
    R, C = (int(s) for s in metric.params["shape"])
    a, b = (R + 1) // 2, (C + 1) // 2
    return a * (a + 1) // 2 if R == C else a * b


def _is_automorphism(codes, perm) -> bool:
    n = len(perm)
    step = max(1, _BLOCK // max(n, 1))
    for s in range(0, n, step):
        rows = np.arange(s, min(n, s + step))
        if not np.array_equal(codes[perm[rows]][:, perm], codes[rows]):
            return False
    return True


def _orbits(n, gens) -> np.ndarray:
    parent = np.arange(n)

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x
    for g in gens:
        for i in range(n):
            a, b = find(i), find(int(g[i]))
            if a != b:
                parent[max(a, b)] = min(a, b)
    return _canonical(np.array([find(i) for i in range(n)]))


def _signatures(codes, cell_of, ncodes, rows):
    """Sorted ``(cell, code)`` keys of the given rows: equal rows <=> equal counts per (cell, distance)."""
    keys = cell_of[None, :].astype(np.int64) * ncodes + codes[rows]
    keys.sort(axis=1)
    return keys


def is_equitable(codes: np.ndarray, cell_of: np.ndarray) -> bool:
    """Return whether a partition is equitable for a matrix of distance codes (exactly).

    Equitable: every point of a cell has the same number of points at each distance in each cell.

    Parameters
    ----------
    codes : numpy.ndarray
        An ``n x n`` matrix of distance codes (:func:`distance_codes`).
    cell_of : numpy.ndarray
        The cell of each point.

    Returns
    -------
    bool
        True iff the partition is equitable.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    >>> is_equitable(codes, np.array([0, 1, 0])), is_equitable(codes, np.array([0, 0, 1]))
    (True, False)
    """
    n = len(cell_of)
    ncodes = int(codes.max()) + 1 if n else 1
    reps: dict[int, int] = {}
    for i in range(n):
        reps.setdefault(int(cell_of[i]), i)
    rep_of = np.array([reps[int(a)] for a in cell_of])
    step = max(1, _BLOCK // max(n, 1))
    for s in range(0, n, step):
        rows = np.arange(s, min(n, s + step))
        if not np.array_equal(_signatures(codes, cell_of, ncodes, rows),
                              _signatures(codes, cell_of, ncodes, rep_of[rows])):
            return False
    return True


def _colour_refinement(codes, max_rounds=64, initial=None):
    """The coarsest equitable partition (1-dimensional Weisfeiler--Leman on the coloured complete graph) that
    refines ``initial`` (a colouring of the points; default: all one colour)."""
    n = len(codes)
    ncodes = int(codes.max()) + 1
    cell = np.zeros(n, dtype=np.int64) if initial is None else _canonical(np.asarray(initial))
    k = int(cell.max()) + 1 if n else 0
    for _ in range(max_rounds):
        sig = _signatures(codes, cell, ncodes, np.arange(n))
        _, new = np.unique(np.column_stack([cell, sig]), axis=0, return_inverse=True)
        new = _canonical(new.ravel())
        k2 = int(new.max()) + 1
        cell = new
        if k2 == k:
            return cell
        k = k2
    return None


#: largest number of points for colour refinement on a metric without known symmetries
MAX_REFINE = 3000


def equitable_partition(metric: FiniteMetric, codes: DistanceCodes | None = None) -> Partition:
    """Return a verified equitable partition of the metric's distance matrix (see the module docstring).

    Automorphisms named by the metric's construction are checked on every pair of points (beyond
    ``MAX_REFINE`` points, on a structured metric, by the proof that the distance formula depends only on
    what each generator preserves); otherwise colour refinement finds the coarsest equitable partition (up
    to ``MAX_REFINE`` points), checked equitable exactly.  If nothing passes, every point is its own cell.

    Parameters
    ----------
    metric : FiniteMetric
        The metric.
    codes : DistanceCodes, optional
        Its distance codes (built if not given).

    Returns
    -------
    Partition
        The partition and where it came from.

    Examples
    --------
    The reflection of a path pairs its ends:

    >>> from exactdp.metrics import path
    >>> equitable_partition(path(5)).cell_of.tolist()
    [0, 1, 2, 1, 0]
    """
    dc = codes if isinstance(codes, DistanceCodes) else DistanceCodes(metric)
    n = len(metric)
    g = _generators(metric)
    if g is not None:
        gens, how = g
        if n > MAX_REFINE and dc.structured:
            # d is a function of |i - j| (path), min(|i-j|, n-|i-j|) (cycle), [i != j] (discrete), or of
            # (|dr|, |dc|) -- symmetric in the two for every norm offered -- on a grid: each generator
            # preserves these, so it is an automorphism and its orbits form an equitable partition.
            return Partition(_orbits(n, gens), how.replace("each verified on every pair",
                                                           "automorphisms because the distance formula depends "
                                                           "only on offsets they preserve"))
        full = dc.full()
        if all(_is_automorphism(full, p) for p in gens):
            cell = _orbits(n, gens)
            if is_equitable(full, cell):
                return Partition(cell, how)
    if 1 < n <= MAX_REFINE:
        full = dc.full()
        cell = _colour_refinement(full)
        if cell is not None and is_equitable(full, cell):
            return Partition(cell, "coarsest equitable partition (colour refinement), checked equitable exactly")
    return Partition(np.arange(n), "trivial partition (every point its own cell)")


def refine_partition(dc, part: Partition, colours) -> Partition | None:
    """The coarsest equitable partition refining both ``part`` and the colouring ``colours`` (equal colours
    for equal values, e.g. a right-hand side), checked equitable exactly; ``None`` above :data:`MAX_REFINE`
    points or when only the trivial partition remains.

    >>> from exactdp.metrics import path
    >>> m = path(4)
    >>> p = equitable_partition(m)
    >>> p.cell_of.tolist(), refine_partition(DistanceCodes(m), p, [0, 0, 0, 1])
    ([0, 1, 1, 0], None)
    """
    n = len(part.cell_of)
    if n > MAX_REFINE or n < 2:
        return None
    _, col = np.unique(np.asarray(colours), return_inverse=True)
    start = part.cell_of.astype(np.int64) * (int(col.max()) + 1) + col.ravel()
    full = dc.full()
    cell = _colour_refinement(full, initial=start)
    if cell is None or int(cell.max()) + 1 == n or not is_equitable(full, cell):
        return None
    return Partition(cell, part.how + ", refined by the right-hand side (colour refinement), checked equitable "
                     "exactly")


def quotient_counts(dc: DistanceCodes, part: Partition) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return how many points of each cell lie at each distance from each cell's representative.

    ``Q[A, B] = sum count * f(values[code])`` over the entries for ``(A, B)`` is the quotient of
    ``Phi_ab = f(d(a, b))`` (ECP14 Def. 3) on an equitable partition.

    Parameters
    ----------
    dc : DistanceCodes
        The metric's distance codes.
    part : Partition
        An equitable partition of it.

    Returns
    -------
    A, B, code, count : numpy.ndarray
        Entry ``k``: ``count[k]`` points of cell ``B[k]`` at distance code ``code[k]`` from the
        representative of cell ``A[k]`` (sorted by ``A``, then ``B``, then ``code``).

    Examples
    --------
    On the path ``0 - 1 - 2`` with cells ``{0, 2}, {1}``: from point 0, cell 0 holds itself (code 0)
    and point 2 (code 2), cell 1 holds point 1 (code 1); from point 1, both ends of cell 0 are at code 1.

    >>> import numpy as np
    >>> from exactdp.metrics import path
    >>> out = quotient_counts(DistanceCodes(path(3)), Partition(np.array([0, 1, 0]), "by hand"))
    >>> [a.tolist() for a in out]
    [[0, 0, 0, 1, 1], [0, 0, 1, 0, 1], [0, 2, 1, 1, 0], [1, 1, 1, 2, 1]]
    """
    reps = part.representatives()
    k = part.ncells
    ncodes = dc.ncodes
    keys = (np.repeat(np.arange(k, dtype=np.int64), dc.n) * k
            + np.tile(part.cell_of.astype(np.int64), k)) * ncodes + dc.rows(reps).ravel()
    u, cnt = np.unique(keys, return_counts=True)
    code = u % ncodes
    ab = u // ncodes
    return ab // k, ab % k, code, cnt
