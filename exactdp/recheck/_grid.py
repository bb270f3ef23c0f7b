"""A unit grid re-derived from its definition, and the quotient of its symmetry orbits (structured re-check).

A certificate about a metric too large to carry its distance matrix (ECP14 sec. 7.2: the 100 x 100 grid,
10^8 distances) may instead *describe* the metric: ``{"kind": "grid", "shape": [R, C], "norm": ...}`` is
the ``R x C`` grid of unit step, points labelled ``"r,c"`` in row-major order, with

* ``euclidean``: ``d = sqrt(dr^2 + dc^2)`` (the kernel works with the integer ``dr^2 + dc^2``),
* ``chebyshev``: ``d = max(|dr|, |dc|)``,
* ``manhattan``: ``d = |dr| + |dc|``.

Nothing is read from the checker: the distances are computed here as integers from the definition.

**The partition is derived, not trusted.**  The maps ``(r, c) -> (R-1-r, c)`` and ``(r, c) -> (r, C-1-c)``
(and, on a square grid, ``(r, c) -> (c, r)``) preserve ``|dr|`` and ``|dc|`` up to swapping them, so each is
an isometry of all three norms.  The orbits of the group they generate form an *equitable* partition: if
``a' = g a`` for an isometry ``g`` that maps every orbit ``B`` onto itself, then ``b -> g b`` is a bijection of
``B`` with ``d(a', g b) = d(a, b)``, so ``a`` and ``a'`` see the same multiset of distances into ``B``
(C. Godsil and G. Royle, *Algebraic Graph Theory*, Springer 2001, sec. 9.3: the orbits of any group of
automorphisms form an equitable partition).  No point-by-point check is then needed; the quotient
``Q[A][B] = sum_{b in B} phi(d(a, b))`` is summed from one representative ``a`` per orbit (``k n`` distances
instead of ``n^2``).

**Exact sums from float64 limbs.**  Each ``phi`` is enclosed by integers ``lo <= 2^S phi <= hi`` (the kernel's
intervals); the integers are cut into three base-``2^37`` digits (limbs), and each limb of ``Q[A][B]`` is a sum
of at most 8 limbs (an orbit has at most 8 points), below ``2^40``: every such float64 sum is an exact integer
(below ``2^53``), whatever the order numpy adds in.  The limbs are recombined into Python integers, so
``Qlo <= 2^S Q <= Qhi`` holds exactly.

Imports only the standard library, numpy and this package's kernel.
"""

from __future__ import annotations

import numpy as np

from ._kernel import NotHere, within_limit

__all__ = ["MAX_GRID_POINTS", "Grid", "LimbQ"]

#: largest grid re-derived here: the quotient has k ~ n/8 cells and is held as 2 k^2 Python integers (about 0.4 GB
#: at this limit, a 128 x 128 grid); ECP14 sec. 7.2's 100 x 100 grid is 10,000 points
MAX_GRID_POINTS = 40_000
#: the exact limb products of :meth:`LimbQ.mid_dot` sum at most this many cells in int64 (see its bound)
MAX_DOT_CELLS = 8192
_NORMS = ("euclidean", "chebyshev", "manhattan")
#: bits of one limb, and limbs per fixed-point integer (3 * 37 = 111 >= S + 1)
_LIMB = 37
_NLIMBS = 3


class Grid:
    """The unit grid a certificate describes, checked (``ValueError`` on a malformed description).

    Examples
    --------
    >>> g = Grid({"kind": "grid", "shape": [3, 3], "norm": "euclidean"})
    >>> g.n, g.k, g.points[:3], g.description
    (9, 3, ['0,0', '0,1', '0,2'], '3 x 3 grid, euclidean distance')
    >>> g.cell_of
    [0, 1, 0, 1, 2, 1, 0, 1, 0]
    >>> g.values
    ['sqrt(0)', 'sqrt(1)', 'sqrt(2)', 'sqrt(4)', 'sqrt(5)', 'sqrt(8)']
    """

    def __init__(self, spec):
        """Read a grid description ``{'kind': 'grid', 'shape': [R, C], 'norm': ...}`` strictly (exact keys, integer
        sides >= 1, a known norm), refusing more than ``MAX_GRID_POINTS`` points before any array is built; then
        the distinct distance keys, their value texts, and the orbits of the grid's symmetries."""
        if not isinstance(spec, dict) or spec.get("kind") != "grid" or set(spec) != {"kind", "shape", "norm"}:
            raise ValueError("a grid description is {'kind': 'grid', 'shape': [R, C], 'norm': ...}")
        shape, norm = spec["shape"], spec["norm"]
        if not (isinstance(shape, list) and len(shape) == 2 and all(type(v) is int and v >= 1 for v in shape)):
            raise ValueError(f"a grid shape is two integers >= 1, got {shape!r}")
        if norm not in _NORMS:
            raise ValueError(f"a grid norm is one of {_NORMS}, got {norm!r}")
        R, C = shape
        within_limit(R * C <= MAX_GRID_POINTS, f"a grid of {R * C} points is above this kernel's {MAX_GRID_POINTS}")
        self.R, self.C, self.norm, self.n = R, C, norm, R * C
        self.description = f"{R} x {C} grid, {norm} distance"
        self.points = [f"{r},{c}" for r in range(R) for c in range(C)]
        # distance keys: dr^2 + dc^2 (euclidean), max (chebyshev), sum (manhattan), for every offset
        dr, dc = np.meshgrid(np.arange(R), np.arange(C), indexing="ij")
        keys = self._key(dr, dc)
        self.keys = [int(v) for v in np.unique(keys)]
        self.values = [f"sqrt({v})" if norm == "euclidean" else str(v) for v in self.keys]
        self._code = np.full(int(keys.max()) + 1, -1, dtype=np.int64)
        self._code[self.keys] = np.arange(len(self.keys))
        # orbits of the reflections (and the transpose on a square): fold, then sort on a square
        rr, cc = np.divmod(np.arange(self.n), C)
        fr, fc = np.minimum(rr, R - 1 - rr), np.minimum(cc, C - 1 - cc)
        if R == C:
            fr, fc = np.minimum(fr, fc), np.maximum(fr, fc)
        folded = fr * C + fc
        reps, first, cell = np.unique(folded, return_index=True, return_inverse=True)
        # number the cells in the order of their first point (so the numbering is the row-major one)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        self.cell_of = [int(v) for v in rank[cell]]
        self.k = len(reps)
        self.rep = [int(v) for v in np.asarray(first)[order]]          # the first point of each cell
        self._rr, self._cc = rr, cc
        self._cell = np.asarray(self.cell_of, dtype=np.int64)

    def _key(self, dr, dc):
        """The integer key of the distance at offset ``(dr, dc)``: the square ``dr^2 + dc^2`` (euclidean, so the key
        is exact), ``max`` (chebyshev) or the sum (manhattan)."""
        if self.norm == "euclidean":
            return dr * dr + dc * dc
        return np.maximum(dr, dc) if self.norm == "chebyshev" else dr + dc

    def same_partition(self, cell_of) -> bool:
        """Is ``cell_of`` (a list of cell indices per point) this grid's orbit partition, up to numbering?"""
        if not isinstance(cell_of, list) or len(cell_of) != self.n or any(type(v) is not int for v in cell_of):
            return False
        pairs = set(zip(self.cell_of, cell_of, strict=True))
        return len(pairs) == self.k == len({b for _, b in pairs})

    def enclosure(self, factors: list) -> LimbQ:
        """The quotient enclosure: integers ``Qlo <= 2^S Q <= Qhi`` entrywise (as limbs, :class:`LimbQ`),
        ``factors[c] = (lo, hi)`` the enclosure of ``2^S phi`` for the distance ``values[c]`` (module docstring)."""
        k, n = self.k, self.n
        if len(factors) != len(self.values):
            raise ValueError("one enclosure per distance value")
        base = 1 << _LIMB
        limbs = np.zeros((2, _NLIMBS, len(factors)), dtype=np.float64)
        for c, pair in enumerate(factors):
            for s, v in enumerate(pair):
                if not 0 <= v < base ** _NLIMBS:
                    raise NotHere("a factor outside the fixed-point range")
                for j in range(_NLIMBS - 1, -1, -1):
                    v, limbs[s, j, c] = divmod(v, base)
        out = np.zeros((2, _NLIMBS, k, k), dtype=np.float64)
        chunk = max(1, 2**19 // n)
        for start in range(0, k, chunk):
            reps = self.rep[start:start + chunk]
            rr = np.asarray([self._rr[a] for a in reps])[:, None]
            cc = np.asarray([self._cc[a] for a in reps])[:, None]
            codes = self._code[self._key(np.abs(self._rr[None, :] - rr), np.abs(self._cc[None, :] - cc))]
            idx = (np.arange(len(reps))[:, None] * k + self._cell[None, :]).ravel()
            for s in range(2):
                for j in range(_NLIMBS):
                    w = limbs[s, j][codes].ravel()
                    out[s, j, start:start + len(reps)] = np.bincount(idx, weights=w, minlength=len(reps) * k) \
                        .reshape(len(reps), k)
        if out.max(initial=0.0) >= 2.0**52:
            raise NotHere("a limb sum beyond the exact float range")      # cannot happen: orbits have <= 8 points
        return LimbQ(out.astype(np.int64))

    def quotient(self, factors: list) -> tuple:
        """``(Qlo, Qhi)`` of :meth:`enclosure` as lists of Python integers.

        Examples
        --------
        >>> g = Grid({"kind": "grid", "shape": [2, 2], "norm": "manhattan"})
        >>> g.quotient([(8, 8), (2, 3), (1, 1)])         # one cell: 1 + 2 phi(1) + phi(2)
        ([[13]], [[15]])
        """
        return self.enclosure(factors).lists()


class LimbQ:
    """``[Qlo, Qhi] 2^-S`` held as three base-``2^37`` limbs per entry (int64 arrays ``(2, 3, k, k)``), with what
    the verification needs of it computed exactly in integers without forming ``k^2`` Python integers
    (the interface of :class:`._verified.ListQ`).

    Examples
    --------
    >>> g = Grid({"kind": "grid", "shape": [2, 2], "norm": "manhattan"})
    >>> Q = g.enclosure([(8, 8), (2, 3), (1, 1)])
    >>> Q.widths(), Q.mid_dot([5]), Q.lists()
    ([2], [140], ([[13]], [[15]]))
    """

    def __init__(self, L):
        """Hold the limbs ``L`` and the float ``Qf ~ (lo + hi) 2^-(S+1)`` used only inside the verification's error
        bounds: the limb sums are below ``2^42`` (exact in doubles) and the rounding error is accounted for there."""
        self.L, self.k = L, L.shape[-1]
        M = (L[0] + L[1]).astype(np.float64)         # lo + hi per limb: below 2^42, exact
        # (lo + hi) 2^-(S+1) as doubles: each term exact, two roundings (|err| <= 3u |Qf|)
        self._Qf = M[0] * 2.0**-_LIMB + M[1] * 2.0**(-2 * _LIMB) + M[2] * 2.0**(-3 * _LIMB)

    def midpoints(self):
        """Doubles within ``3u`` of the midpoints."""
        return self._Qf

    def _rows(self, parts) -> list:
        """``sum_j parts[j] 2^(37 (2 - j))`` per row, ``parts[j]`` row sums (int64 arrays)."""
        return [(int(a) << 2 * _LIMB) + (int(b) << _LIMB) + int(c)
                for a, b, c in zip(*(p.tolist() for p in parts), strict=True)]

    def widths(self) -> list:
        """``sum_B (hi - lo)[A][B]`` per row ``A`` (exact integers)."""
        D = self.L[1] - self.L[0]                     # per limb, |D| < 2^41: row sums exact in int64
        return self._rows([D[j].sum(axis=1) for j in range(_NLIMBS)])

    def mid_dot(self, Y: list) -> list:
        """``sum_B (lo + hi)[A][B] Y_B`` per row ``A``, exactly: limbs of 21 bits times limbs of 28 bits of
        ``max(Y, 0)`` and ``max(-Y, 0)``: each product is below ``2^21 * 2^28 = 2^49``, so a sum over at most
        ``2^13`` cells stays below ``2^62`` in int64 (numpy's integer matmul is exact: no BLAS, no rounding)."""
        k = self.k
        if k > MAX_DOT_CELLS:
            raise NotHere(f"a quotient above {MAX_DOT_CELLS} cells (the exact int64 products would overflow)")
        P = [max(v, 0) for v in Y]
        N = [max(-v, 0) for v in Y]
        T = max(1, -(-max(max(P), max(N), 1).bit_length() // 28))
        mask = (1 << 28) - 1
        YL = np.array([[(v >> (28 * t)) & mask for t in range(T)] for v in P + N], dtype=np.int64)
        YL = np.concatenate([YL[:k], YL[k:]], axis=1)           # k x 2T: the limbs of P, then of N
        M = self.L[0] + self.L[1]
        if M.size and (int(M.min()) < 0 or int(M.max()) >= 2**42):   # the bound below needs limbs in [0, 2^42)
            raise NotHere("a limb of the quotient outside [0, 2^42): the exact int64 products are not bounded")
        out = [0] * k
        for j in range(_NLIMBS):
            for h, part in ((21, M[j] >> 21), (0, M[j] & ((1 << 21) - 1))):
                prod = (part @ YL).tolist()
                shift = _LIMB * (_NLIMBS - 1 - j) + h
                for A, row in enumerate(prod):
                    v = 0
                    for t in range(T - 1, -1, -1):
                        v = (v << 28) + row[t] - row[T + t]
                    out[A] += v << shift
        return out

    def near(self, other) -> list:
        """Upper bounds of ``sum_B max(hi - lo', hi' - lo)`` per row (``other`` the primed enclosure):
        ``max(...) = |M - M'|/2 + (w + w')/2`` with ``M = lo + hi``, ``w = hi - lo``, and ``|M - M'|`` bounded
        limb by limb (loose by the borrows between limbs, below ``2^77`` per entry: ``2^-33`` at scale
        ``2^-S``, which only widens the perturbation bound of a threshold bracket's second end)."""
        E = np.abs((self.L[0] + self.L[1]) - (other.L[0] + other.L[1]))
        absE = self._rows([E[j].sum(axis=1) for j in range(_NLIMBS)])
        return [(e + w + w2 + 1) // 2 for e, w, w2 in zip(absE, self.widths(), other.widths(), strict=True)]

    def lists(self) -> tuple:
        """``(Qlo, Qhi)`` as lists of Python integers."""
        L = self.L.astype(np.uint64)
        return _combine(L[0]), _combine(L[1])


def _combine(L) -> list:
    """``a 2^74 + b 2^37 + c`` (limbs ``L = (a, b, c)``, unsigned, ``a < 2^52``, ``b, c < 2^40``) as Python integers,
    row by row: packed into two 64-bit words with exact carries, then read by :meth:`int.from_bytes`."""
    a, b, c = L
    lo_b = b & np.uint64((1 << 27) - 1)
    w0 = c + (lo_b << np.uint64(37))           # below 2^64 + 2^40: may wrap once
    carry = (w0 < c).astype(np.uint64)
    w1 = (b >> np.uint64(27)) + carry + (a << np.uint64(10))
    k = a.shape[1]
    words = np.empty((*a.shape, 2), dtype="<u8")
    words[..., 0], words[..., 1] = w0, w1
    raw = words.tobytes()
    frm = int.from_bytes
    out = []
    step = 16 * k
    for r in range(a.shape[0]):
        row = raw[r * step:(r + 1) * step]
        out.append([frm(row[i:i + 16], "little") for i in range(0, step, 16)])
    return out
