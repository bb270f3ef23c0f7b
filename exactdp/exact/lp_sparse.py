"""Exact sparse LU factorisation for LP basis systems (rational, Markowitz-ordered).

A basis matrix of the LPs exactdp builds is very sparse: the GRS12 user LP's
privacy rows ``alpha x_(i+1)r <= x_ir`` have two entries each and link
``x_ir`` to ``x_(i+1)r`` along chains, so Gaussian elimination that always
pivots on a short row and a short column (Markowitz's rule) has almost no
fill.  The factorisation is exact (``flint.fmpq``): any non-zero pivot is
stable, so pivots are chosen for sparsity only.

Elimination turns ``M`` into ``E M = U`` where ``E`` is the product of the
recorded row operations and the rows of ``U``, taken in pivot order, are
upper triangular in the pivot columns.  Then ``M x = b`` is ``U x = E b``
(forward then back substitution) and ``M^T u = d`` is ``u = E^T v`` with
``U^T v = d``.

>>> from flint import fmpq
>>> lu = SparseLU([{0: 2, 1: 1}, {1: 3}], 2)
>>> x, u = lu.solve({0: 5, 1: 3}), lu.solve_transpose({0: 2, 1: 4})
>>> lu.rank, sorted(x.items()), sorted(u.items())
(2, [(0, 2), (1, 1)], [(0, 1), (1, 1)])
"""

from __future__ import annotations

import heapq

from flint import fmpq

__all__ = ["SparseLU"]

_ZERO = fmpq(0)


class SparseLU:
    """``E M = U`` for a sparse rational matrix ``M`` given as row dicts ``{column: value}``.

    Rows and columns are arbitrary hashable labels' positions: row ``i`` is ``rows[i]``; column labels are
    the dict keys.  ``rank`` is the number of pivots; :meth:`solve` and :meth:`solve_transpose` need a
    square non-singular ``M`` (``rank`` equal to both dimensions).

    Parameters
    ----------
    rows : sequence of dict
        Row ``i`` of ``M`` as ``{column: value}`` (exact values; zeros may be omitted).
    ncols : int
        The number of columns.

    Examples
    --------
    >>> SparseLU([{0: 1, 1: 1}, {0: 2, 1: 2}], 2).rank         # the second row is twice the first
    1
    """

    def __init__(self, rows, ncols) -> None:
        self.nrows, self.ncols = len(rows), ncols
        active: dict = {}
        colrows: dict = {}
        for i, r in enumerate(rows):
            row: dict | None = {j: v if isinstance(v, fmpq) else fmpq(v) for j, v in r.items() if v != 0}
            if row:
                active[i] = row
                for j in row:
                    colrows.setdefault(j, set()).add(i)
        self.steps: list = []  # (pivot row, pivot column, U row dict, [(row, multiplier), ...])
        heap = [(len(r), i) for i, r in active.items()]
        heapq.heapify(heap)
        while heap:
            ln, r = heapq.heappop(heap)
            row = active.get(r)
            if row is None or len(row) != ln:
                continue
            c = min(row, key=lambda j: len(colrows[j]))
            self._eliminate(r, c, active, colrows, heap)
        self.rank = len(self.steps)

    def _eliminate(self, r, c, active, colrows, heap):
        row = active.pop(r)
        for j in row:
            colrows[j].discard(r)
        piv = row[c]
        ops = []
        for i in list(colrows.pop(c)):
            target = active[i]
            f = target.pop(c) / piv
            ops.append((i, f))
            for j, v in row.items():
                if j == c:
                    continue
                new = target.get(j, _ZERO) - f * v
                if new == 0:
                    if j in target:
                        del target[j]
                        colrows[j].discard(i)
                else:
                    if j not in target:
                        colrows[j].add(i)
                    target[j] = new
            if target:
                heapq.heappush(heap, (len(target), i))
            else:
                del active[i]  # a dependent row: it vanished
        self.steps.append((r, c, row, ops))

    def is_square_nonsingular(self) -> bool:
        """Return whether ``M`` is square and non-singular (so :meth:`solve` applies).

        Returns
        -------
        bool
            True iff the rank equals both dimensions.

        Examples
        --------
        >>> SparseLU([{0: 1, 1: 1}, {0: 1, 1: -1}], 2).is_square_nonsingular()
        True
        >>> SparseLU([{0: 1, 1: 1}, {0: 2, 1: 2}], 2).is_square_nonsingular()
        False
        """
        return self.rank == self.nrows == self.ncols

    def solve(self, b) -> dict:
        """Return ``x`` with ``M x = b``, exactly.

        Parameters
        ----------
        b : dict
            By row position (missing = 0).

        Returns
        -------
        dict
            ``x`` by column (zeros omitted).

        Examples
        --------
        ``x_0 + x_1 = 3``, ``x_0 - x_1 = 1``:

        >>> x = SparseLU([{0: 1, 1: 1}, {0: 1, 1: -1}], 2).solve({0: 3, 1: 1})
        >>> sorted(x.items())
        [(0, 2), (1, 1)]
        """
        w = dict(b)
        for r, _c, _row, ops in self.steps:
            br = w.get(r)
            if br:
                for i, f in ops:
                    w[i] = w.get(i, _ZERO) - f * br
        x: dict = {}
        for r, c, row, _ops in reversed(self.steps):
            s = w.get(r, _ZERO)
            for j, v in row.items():
                if j != c:
                    xj = x.get(j)
                    if xj:
                        s -= v * xj
            if s != 0:
                x[c] = s / row[c]
        return x

    def solve_transpose(self, d) -> dict:
        """Return ``u`` with ``M^T u = d``, exactly.

        Parameters
        ----------
        d : dict
            By column (missing = 0).

        Returns
        -------
        dict
            ``u`` by row position (zeros omitted).

        Examples
        --------
        ``M = [[2, 1], [0, 3]]``: ``2 u_0 = 4`` and ``u_0 + 3 u_1 = 5``.

        >>> u = SparseLU([{0: 2, 1: 1}, {1: 3}], 2).solve_transpose({0: 4, 1: 5})
        >>> sorted(u.items())
        [(0, 2), (1, 1)]
        """
        w = dict(d)
        v = {}
        for r, c, row, _ops in self.steps:
            s = w.get(c, _ZERO)
            if s != 0:
                vr = s / row[c]
                v[r] = vr
                for j, a in row.items():
                    if j != c:
                        w[j] = w.get(j, _ZERO) - a * vr
        for r, _c, _row, ops in reversed(self.steps):
            s = v.get(r, _ZERO)
            for i, f in ops:
                vi = v.get(i)
                if vi:
                    s -= f * vi
            if s != 0:
                v[r] = s
            else:
                v.pop(r, None)
        return v
