"""The privacy-constraints matrix ``Phi`` (ECP14 Def. 3) and certified solves with it.

``phi_yy' = e^(-d(y, y'))`` for the metric ``eps * d``.  Three regimes:

* **rational** -- ``alpha = e^(-eps)`` rational and integer distances: ``Phi`` is a
  rational matrix, solved exactly with FLINT (``fmpq_mat``);
* **transcendental** -- eps algebraic (e.g. ``1/2``): the entries are monomials
  in generators ``g = e^(-eps * atom / L)`` that are algebraically independent
  (Lindemann--Weierstrass).  The solution of ``Phi x = b`` is enclosed by an Arb
  ball solve (``arb_mat.solve``) at rising precision; a component whose ball
  contains 0 is tested *exactly* first: each component is a rational function
  of the generators, so if an exact rational solve at a rational sample of the
  generators gives a non-zero value, the function is not identically zero and,
  the generators being algebraically independent transcendentals, the true
  component is not zero -- so raising the precision must separate it.
* otherwise **undecided**.

**Symmetry reduction** (docs/sweeps.md#sec-sizes).  When the right-hand side is constant on the cells of a verified
equitable partition of the distance matrix (:mod:`exactdp.metrics.symmetry`; e.g. the orbits of a grid's
8 symmetries), ``Phi P = P Q`` with the quotient ``Q[A, B] = sum_{b in B} phi_ab``, and the system is
solved on ``Q`` and lifted: ``x = P (Q^-1 b)``.  In the transcendental regime ``Q`` is enclosed in fixed
point and ``Q^-1 b`` is enclosed by a verified float solve (:mod:`exactdp.exact.verified_solve`, Rump's
method decided in exact arithmetic) before any Arb solve is tried.  Because ``Phi`` is symmetric, the
projection onto cell-constant vectors commutes with it: if any ``z >= 0`` solves ``Phi z = 1``, so does
its cell average, which solves ``Q x = 1`` -- so with ``Q`` nonsingular, ``Phi z = 1`` has a solution
``z >= 0`` iff ``Q^-1 1 >= 0``.

>>> from exactdp.metrics import path
>>> from exactdp.exact.level import Level
>>> S = PhiSystem(path(3), Level.from_alpha("1/2"))
>>> S.exact_matrix().tolist()
[[1, 1/2, 1/4], [1/2, 1, 1/2], [1/4, 1/2, 1]]
>>> [str(v) for v in S.solve_ones().values]
['2/3', '1/3', '2/3']
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from flint import arb, arb_mat, ctx, fmpq, fmpq_mat

from ..errors import InputTooLarge, InvalidInput, Undecided
from ..exact.lin import Lin
from ..exact.verified_solve import digit_width, verified_solve
from ..metrics.symmetry import (DistanceCodes, Partition, _structured_keys, equitable_partition, quotient_counts,
                                refine_partition)

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = ["MAX_BALL_CELLS", "MAX_CODE_BYTES", "MAX_EXACT_CELLS", "MAX_POINTS", "MAX_STRUCTURED_POINTS",
           "MAX_VERIFIED_CELLS", "PhiSystem", "Route", "Solution", "metric_structure"]


@dataclass
class Solution:
    """Solution of ``Phi x = b``: exact values (rational regime) or certified balls with exact signs.

    Built by :meth:`PhiSystem.solve`.

    Parameters
    ----------
    values : list or None
        Exact ``fmpq`` values (rational regime), or None.
    balls : list or None
        Arb enclosures (transcendental regime), or None.
    signs : list of int
        The exact sign of each component (-1, 0, 1).
    method : str
        How the solution was found.
    precision : int, optional
        The Arb precision of the balls.
    partition : Partition, optional
        The verified equitable partition the solve ran on (None: no reduction).
    enclosures : list, optional
        Exact rational ``(lo, hi)`` per cell (verified float route).
    beta : fmpq, optional
        The verified bound ``||I - R Q||_inf < 1`` (verified float route).
    center : list, optional
        The approximate solution per cell, exact dyadics (verified route).
    inverse : object, optional
        The float approximate inverse ``R`` of ``Q`` (verified route; a numpy array).
    extra : dict
        Further route-specific data.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> from exactdp.exact.level import Level
    >>> s = PhiSystem(path(3), Level.from_alpha("1/2")).solve([1, 0, 0])   # column 1 of the KMS inverse
    >>> s.values, s.signs
    ([4/3, -2/3, 0], [1, -1, 0])
    """

    values: list | None          # exact fmpq values, or None
    balls: list | None           # arb enclosures (transcendental regime)
    signs: list                  # exact sign of each component (-1, 0, 1)
    method: str
    precision: int | None = None
    partition: Partition | None = None   # the verified equitable partition used (None: no reduction)
    enclosures: list | None = None       # exact rational (lo, hi) per cell (verified float route)
    beta: fmpq | None = None             # verified bound ||I - R Q||_inf < 1 (verified float route)
    center: list | None = None           # the approximate solution x~ per cell, exact dyadics (verified route)
    inverse: object = None               # the float approximate inverse R of Q (verified route; numpy array)
    extra: dict = field(default_factory=dict)

    def negative(self) -> list[int]:
        """Return the indices of the negative components.

        Returns
        -------
        list of int

        Examples
        --------
        >>> Solution(values=None, balls=None, signs=[1, -1, 0, -1], method="exact").negative()
        [1, 3]
        """
        return [i for i, s in enumerate(self.signs) if s < 0]

    def nonnegative(self) -> bool:
        """Return whether every component is ``>= 0``.

        Returns
        -------
        bool

        Examples
        --------
        >>> Solution(values=None, balls=None, signs=[1, 0], method="exact").nonnegative()
        True
        """
        return all(s >= 0 for s in self.signs)

    def strings(self) -> list[str]:
        """Return the components as text: exact values, or balls with their radius.

        Returns
        -------
        list of str

        Examples
        --------
        >>> from flint import fmpq
        >>> Solution(values=[fmpq(2, 3), fmpq(-1)], balls=None, signs=[1, -1], method="exact").strings()
        ['2/3', '-1']
        """
        if self.values is not None:
            return [str(v) for v in self.values]
        assert self.balls is not None  # a solution holds exact values or balls
        return [b.str(15, radius=True) for b in self.balls]


# Size limits.  A solve is refused by what its route costs -- the cells k of the quotient it solves and the
# memory of the representatives' distance codes -- not by the number of points; only a metric whose distances
# are not a known formula is limited by its points, because its n x n distance codes are built whole.

#: most points of a metric whose distances are not a known formula (its ``n x n`` int32 distance codes are kept)
MAX_POINTS = 20_000
#: most points of a metric whose distance is a formula (path, cycle, discrete, grid): only the rows of the
#: cells' representatives are computed, so the cells decide; this only bounds the O(n) set-up
MAX_STRUCTURED_POINTS = 1_000_000
#: most cells of the quotient solved exactly over Q (rational regime, FLINT ``fmpq_mat``): about k^3 exact
#: operations on growing rationals
MAX_EXACT_CELLS = 1_500
#: most cells of the quotient on the verified float route (transcendental regime): a k x k float inverse, then
#: Rump's bound ``||I - R Q|| < 1`` from exact digit products, each about k^3 operations.  5,050 cells is the
#: 200 x 200 Euclidean grid, the largest measured (docs/benchmarks.md: about a minute, 4 GB)
MAX_VERIFIED_CELLS = 5_050
#: most cells for the Arb ball solve, the fallback when the verified float solve does not certify every sign
MAX_BALL_CELLS = 1_500
#: most bytes of the representatives' distance codes (``k x n`` int32) and their column-permuted copy
MAX_CODE_BYTES = 2 << 30


@dataclass(frozen=True)
class Route:
    """How ``Phi x = b`` will be solved: the route, the quotient's cells and the metric's points.

    Parameters
    ----------
    name : str
        ``"exact rational solve"`` or ``"verified float solve"``.
    cells : int
        The cells of the quotient solved.
    points : int
        The metric's points.
    how : str
        How the partition's cells were found.

    Examples
    --------
    >>> from exactdp.metrics import grid
    >>> from exactdp.exact.level import Level
    >>> r = PhiSystem(grid((10, 10), norm="euclidean"), Level.from_eps("1")).route()
    >>> r.name, r.cells, r.points, r.refusal()
    ('verified float solve', 15, 100, None)
    """

    name: str       # "exact rational solve" or "verified float solve"
    cells: int
    points: int
    how: str        # the partition: how its cells were found

    @property
    def limit(self) -> int:
        """Most cells this route accepts.

        Examples
        --------
        >>> Route("exact rational solve", 2, 3, "orbits").limit == MAX_EXACT_CELLS
        True
        """
        return MAX_EXACT_CELLS if self.name.startswith("exact") else MAX_VERIFIED_CELLS

    def cost(self) -> str:
        """The route and its cost in words.

        Returns
        -------
        str

        Examples
        --------
        >>> Route("exact rational solve", 10, 100, "orbits").cost().endswith(
        ...     "10 cells for 100 points (orbits): about k^3 = 1.0e+03 exact rational operations")
        True
        """
        kind = "exact rational" if self.name.startswith("exact") else "float and exact digit"
        return (f"the route solves Phi z = b by the {self.name} of the quotient of the metric's equitable partition, "
                f"here {self.cells:,} cells for {self.points:,} points ({self.how}): about k^3 = "
                f"{self.cells ** 3:.1e} {kind} operations")

    def refusal(self) -> str | None:
        """Why the route cannot take this system (its cost and the limit it exceeds), or None.

        Returns
        -------
        str or None

        Examples
        --------
        >>> Route("exact rational solve", 10, 100, "orbits").refusal() is None
        True
        >>> Route("exact rational solve", MAX_EXACT_CELLS + 1, 10**4, "orbits").refusal().endswith(
        ...     "; the limit is 1,500 cells for this route")
        True
        """
        k, n = self.cells, self.points
        if k > self.limit:
            return f"{self.cost()}; the limit is {self.limit:,} cells for this route"
        if k < n and 8 * k * n > MAX_CODE_BYTES:
            return (f"{self.cost()}; the distance codes of the {k:,} representatives take {8 * k * n / 2**30:.1f} "
                    f"GiB, beyond the limit of {MAX_CODE_BYTES / 2**30:.0f} GiB")
        return None

    def check(self) -> Route:
        """``self``, or :class:`~exactdp.errors.InputTooLarge` with :meth:`refusal`.

        Returns
        -------
        Route
            ``self``, when the route can take the system.

        Raises
        ------
        InputTooLarge
            The route cannot (:meth:`refusal` says why).

        Examples
        --------
        >>> r = Route("exact rational solve", 2, 3, "orbits")
        >>> r.check() is r
        True
        """
        why = self.refusal()
        if why is not None:
            raise InputTooLarge(f"Phi: {why}")
        return self


class PhiSystem:
    """``Phi`` for a metric scaled by a level (see module docstring).

    ECP14 Def. 3: ``phi_yy' = e^(-eps d(y, y'))``.

    Parameters
    ----------
    metric : FiniteMetric
        The metric ``d``.
    level : Level
        The privacy level ``eps``.

    Raises
    ------
    InputTooLarge
        More points than :data:`MAX_POINTS` (a metric whose distances are not a known formula) or
        :data:`MAX_STRUCTURED_POINTS`.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> from exactdp.exact.level import Level
    >>> S = PhiSystem(path(2), Level.from_alpha("1/2"))
    >>> S.n, S.exact_matrix().tolist()
    (2, [[1, 1/2], [1/2, 1]])
    """

    def __init__(self, metric, level):
        self.metric, self.level = metric, level
        n = len(metric)
        self.n = n
        if metric not in _STRUCT:
            structured = _structured_keys(metric) is not None
            if not structured and n > MAX_POINTS:
                raise InputTooLarge(f"Phi: {n:,} points whose distances are not a known formula (path, cycle, "
                                    f"discrete, grid): their n x n distance codes are beyond the limit of "
                                    f"{MAX_POINTS:,} points")
            if n > MAX_STRUCTURED_POINTS:
                raise InputTooLarge(f"Phi: {n:,} points is beyond the limit {MAX_STRUCTURED_POINTS:,}")
        self._codes = _structure(metric)["codes"]
        self._dvals = self._codes.values

    @property
    def _dist_codes(self):
        """The full ``n x n`` matrix of distance codes (built on first use)."""
        return self._codes.full()

    @property
    def partition(self) -> Partition:
        """The verified equitable partition of the metric (cached per metric).

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> PhiSystem(path(3), Level.from_alpha("1/2")).partition.ncells      # {0, 2} and {1}
        2
        """
        return metric_structure(self.metric)[1]

    # -- entries -------------------------------------------------------------------
    def _exact_factor(self, d):
        """``e^(-eps d)`` exactly (fmpq or ExpFrac), or None."""
        if d == math.inf:
            return fmpq(0)
        E = self.level.factor(d)
        return None if E is None else 1 / E

    def is_rational(self) -> bool:
        """Return whether every entry is rational at this level (the rational regime).

        Returns
        -------
        bool

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> [PhiSystem(path(2), lv).is_rational() for lv in (Level.from_alpha("1/2"), Level.from_eps("1"))]
        [True, False]
        """
        return all(isinstance(self._exact_factor(d), fmpq) for d in self._dvals)

    def entry(self, i: int, j: int) -> Any:
        """Return ``phi_ij = e^(-eps d(i, j))`` exactly (an fmpq, or an exact exponential), or None.

        Parameters
        ----------
        i, j : int
            Point indices, in the metric's order.

        Returns
        -------
        fmpq, ExpFrac or None

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> PhiSystem(path(3), Level.from_alpha("1/2")).entry(0, 2)        # alpha^2
        1/4
        """
        return self._exact_factor(self._dvals[self._dist_codes[i, j]])

    def exact_matrix(self) -> fmpq_mat:
        """Return ``Phi`` as an exact rational matrix.

        Returns
        -------
        fmpq_mat

        Raises
        ------
        Undecided
            ``Phi`` is not rational at this level.

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> PhiSystem(path(2), Level.from_alpha("1/3")).exact_matrix().tolist()
        [[1, 1/3], [1/3, 1]]
        """
        if not self.is_rational():
            raise Undecided("Phi is not rational at this level (use the transcendental regime)")
        facs = [self._exact_factor(d) for d in self._dvals]
        return fmpq_mat(self.n, self.n, [facs[c] for c in self._dist_codes.ravel().tolist()])

    def arb_matrix(self) -> arb_mat:
        """Return ``Phi`` as a matrix of Arb balls (at the current Arb precision).

        Returns
        -------
        arb_mat

        Examples
        --------
        >>> from flint import arb
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> m = PhiSystem(path(2), Level.from_eps("1")).arb_matrix()
        >>> m[0, 0] == 1, m[0, 1].overlaps(arb(-1).exp())
        (True, True)
        """
        facs = [arb(0) if d == math.inf else 1 / self.level.factor_arb(d) for d in self._dvals]
        return arb_mat(self.n, self.n, [facs[c] for c in self._dist_codes.ravel().tolist()])

    # -- generators for exact zero tests -------------------------------------------------
    def _generator_exponents(self) -> list[dict | None] | None:
        """Each distinct factor ``e^(-eps d)`` as a monomial ``prod g_s^k_s`` with integer ``k_s``."""
        eps = self.level._eps_lin
        if eps is None:
            return None
        units: dict = {}
        exps: list[dict | None] = []
        for d in self._dvals:
            if d == math.inf:
                exps.append(None)
                continue
            e = eps * Lin.coerce(d)
            exps.append(dict(e.terms))
            for a, c in e.terms:
                units[a] = math.lcm(units.get(a, 1), int(c.q))
        out: list[dict | None] = []
        for ex in exps:
            out.append(None if ex is None else {a: int(c * units[a]) for a, c in ex.items()})
        return out

    def sample_matrix(self, samples: dict) -> fmpq_mat:
        """``Phi`` with each generator ``g_s = e^(-atom_s/L_s)`` replaced by a rational ``samples[s]``.

        Parameters
        ----------
        samples : dict
            A rational value for each generator, by its atom.

        Returns
        -------
        fmpq_mat

        Examples
        --------
        >>> from flint import fmpq
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> S = PhiSystem(path(3), Level.from_eps("1/2"))       # one generator g = e^(-1/2), phi = g^d
        >>> S.sample_matrix({1: fmpq(1, 3)}).tolist()
        [[1, 1/3, 1/9], [1/3, 1, 1/3], [1/9, 1/3, 1]]
        """
        facs = self._sample_factors(samples)
        return fmpq_mat(self.n, self.n, [facs[c] for c in self._dist_codes.ravel().tolist()])

    # -- quotient matrices ------------------------------------------------------------
    def _quotient(self, part: Partition, facs) -> list:
        """Entries ``Q[A][B] = sum_{b in B} facs[code(rep_A, b)]`` (exact or ball ``facs``), as a k x k list."""
        k = part.ncells
        A, B, code, cnt = quotient_counts(self._codes, part)
        zero = facs[0] * 0
        Q = [[zero] * k for _ in range(k)]
        for a, b, c, m in zip(A.tolist(), B.tolist(), code.tolist(), cnt.tolist(), strict=True):
            f = facs[c]
            if f != 0:
                Q[a][b] = Q[a][b] + (f if m == 1 else m * f)
        return Q

    def quotient_text(self, part: Partition | None = None) -> dict:
        """Exact text of the quotient (the evidence a re-check of a reduced solve needs).

        ``{"how": ..., "cells": [[point labels]], "entries": {"A,B": [[count, distance]]}}`` with
        ``Q[A, B] = sum count * e^(-eps * distance)``.

        Parameters
        ----------
        part : Partition, optional
            The partition; default the metric's equitable partition.

        Returns
        -------
        dict

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> q = PhiSystem(path(3), Level.from_alpha("1/2")).quotient_text()
        >>> sorted(q["cells"]), sorted(map(sorted, q["entries"].values()))
        ([['0', '2'], ['1']], [[[1, '0']], [[1, '0'], [1, '2']], [[1, '1']], [[2, '1']]])
        """
        part = part or self.partition
        A, B, code, cnt = quotient_counts(self._codes, part)
        entries: dict = {}
        for a, b, c, m in zip(A.tolist(), B.tolist(), code.tolist(), cnt.tolist(), strict=True):
            entries.setdefault(f"{a},{b}", []).append([m, str(self._dvals[c])])
        return {"how": part.how, "cells": [[self.metric.points[i] for i in c.tolist()] for c in part.cells()],
                "entries": entries}

    def _fixed_point_quotient(self, part: Partition, bits: int = 64):
        """Digits ``S_j`` with ``Q = sum_j S_j 2^(-w j) + E``, ``0 <= E <= eta`` (entrywise), or None."""
        cells = part.cells()
        maxcell = max(len(c) for c in cells)
        k = part.ncells
        w = digit_width(k * maxcell)
        nd = -(-bits // w) + 1                      # >= bits fractional bits
        S = w * (nd - 1)
        F = []
        with ctx.workprec(S + 64):
            for d in self._dvals:
                if d == math.inf:
                    F.append(0)
                    continue
                v = 1 / self.level.factor_arb(d)
                lo = (v * arb(2) ** S).lower()
                up = (v * arb(2) ** S).upper()
                f = int(lo.floor().unique_fmpz())
                if not (up < f + 2):
                    return None
                F.append(f)
        mask = (1 << w) - 1
        digits = np.array([[(f >> (w * (nd - 1 - j))) & mask for f in F] for j in range(nd)], dtype=np.float64)
        reps = part.representatives()
        order = np.concatenate(cells)
        starts = np.searchsorted(part.cell_of[order], np.arange(k))
        rows = self._codes.rows(reps)
        # the digits gathered in blocks of rows, the columns put in cell order block by block, into buffers
        # made once: no k x n array (1.6 GB per digit, 0.8 GB of permuted codes on the 200 x 200 grid, k = 5,050)
        # and no fresh block-sized temporaries (their page faults cost seconds of system time)
        n = len(order)
        step = max(1, 4_000_000 // max(n, 1))
        Sd = [np.empty((k, k)) for _ in range(nd)]
        pbuf = np.empty((min(step, k), n), dtype=rows.dtype)
        gbuf = np.empty((min(step, k), n))
        for lo in range(0, k, step):
            m = min(step, k - lo)
            np.take(rows[lo:lo + m], order, axis=1, out=pbuf[:m], mode="clip")  # indices valid: no buffering
            for j in range(nd):
                np.take(digits[j], pbuf[:m], out=gbuf[:m], mode="clip")
                np.add.reduceat(gbuf[:m], starts, axis=1, out=Sd[j][lo:lo + m])
        eta = fmpq(2 * maxcell, 2 ** S)
        return Sd, w, eta

    # -- solving ---------------------------------------------------------------------
    def _plan(self, rhs) -> Partition:
        """The partition the solve of ``Phi x = rhs`` runs on (refined by ``rhs`` when it must be)."""
        part = self.partition
        if part.ncells < self.n and not part.is_constant_on_cells(rhs):
            keys = {v: i for i, v in enumerate(dict.fromkeys(rhs))}
            part = refine_partition(self._codes, part, [keys[v] for v in rhs]) or part
        if part.ncells == self.n or not part.is_constant_on_cells(rhs):
            part = Partition(np.arange(self.n), "trivial partition (every point its own cell)")
        return part

    def route(self, rhs=None) -> Route:
        """The route of ``Phi x = rhs`` (``rhs`` all ones by default): check it with :meth:`Route.check`.

        The cells are those of the metric's equitable partition, refined by ``rhs`` when it is not constant
        on them; the route is the exact rational solve when ``Phi`` is rational at the level, else the verified
        float solve (:data:`MAX_EXACT_CELLS`, :data:`MAX_VERIFIED_CELLS` cells at most).

        Parameters
        ----------
        rhs : list, optional
            The right-hand side, exact rationals.

        Returns
        -------
        Route

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> S = PhiSystem(path(3), Level.from_alpha("1/2"))
        >>> S.route().cells, S.route([1, 0, 0]).cells        # {0, 2} and {1}; a rhs not constant on them
        (2, 3)
        """
        rhs = [fmpq(1)] * self.n if rhs is None else [fmpq(v) for v in rhs]
        return self._route(self._plan(rhs))

    def _route(self, part: Partition) -> Route:
        return Route("exact rational solve" if self.is_rational() else "verified float solve", int(part.ncells),
                     self.n, part.how)

    def solve(self, rhs, max_prec: int = 4096) -> Solution:
        """Solve ``Phi x = rhs`` (rhs exact rationals); raises ``InvalidInput`` if ``Phi`` is singular.

        When ``rhs`` is constant on the cells of the metric's equitable partition the solve runs on the
        quotient (see the module docstring) and the solution is constant on cells; otherwise the partition is
        first refined by the values of ``rhs`` (colour refinement, checked equitable; e.g. a product prior on
        a Hamming space falls into its coordinate-permutation classes).  A singular quotient raises
        ``InvalidInput`` like a singular ``Phi`` (``Q`` is ``Phi`` on an invariant subspace).  A quotient
        beyond its route's limits raises ``InputTooLarge`` (:meth:`Route.check`) before any work.

        Parameters
        ----------
        rhs : list
            The right-hand side, exact rationals.
        max_prec : int
            The highest Arb precision tried by the ball solve (transcendental regime).

        Returns
        -------
        Solution

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> PhiSystem(path(3), Level.from_alpha("1/2")).solve([0, 1, 0]).values     # column 2 of the KMS inverse
        [-2/3, 5/3, -2/3]
        """
        rhs = [fmpq(v) for v in rhs]
        part = self._plan(rhs)
        self._route(part).check()
        reps = part.representatives()
        qrhs = [rhs[int(r)] for r in reps]
        if self.is_rational():
            sol = self._solve_exact(part, qrhs)
        else:
            sol = self._solve_verified(part, qrhs)
            if sol is None:
                if part.ncells > MAX_BALL_CELLS:
                    raise Undecided(f"the verified float solve of the {part.ncells:,}-cell quotient did not certify "
                                    f"every sign, and its fallback, the Arb ball solve, is limited to "
                                    f"{MAX_BALL_CELLS:,} cells")
                sol = self._solve_balls(part, qrhs, max_prec)
        return _lift(sol, part, self.n)

    def solve_ones(self, **kw) -> Solution:
        """Solve ``Phi z = 1`` (ECP14 Prop. 3: a regular prior exists iff some solution is ``>= 0``).

        Parameters
        ----------
        **kw
            Passed to :meth:`solve` (``max_prec``).

        Returns
        -------
        Solution

        Examples
        --------
        >>> from exactdp.metrics import path
        >>> from exactdp.exact.level import Level
        >>> PhiSystem(path(3), Level.from_alpha("1/2")).solve_ones().values     # 2/3 + 1/6 + 1/6 = 1
        [2/3, 1/3, 2/3]
        """
        return self.solve([1] * self.n, **kw)

    def _solve_exact(self, part, qrhs):
        k = part.ncells
        facs = [self._exact_factor(d) for d in self._dvals]
        M = self.exact_matrix() if k == self.n else fmpq_mat(self._quotient(part, facs))
        try:
            x = M.solve(fmpq_mat(k, 1, qrhs))
        except ZeroDivisionError:
            raise InvalidInput("Phi is singular at this level: the solution is not unique") from None
        vals = [x[i, 0] for i in range(k)]
        how = "exact rational solve (FLINT fmpq_mat)" + (f" of the {k} x {k} quotient" if k < self.n else "")
        return Solution(vals, None, [(v > 0) - (v < 0) for v in vals], how, partition=part)

    def _solve_verified(self, part, qrhs):
        for bits in (64, 128):
            fq = self._fixed_point_quotient(part, bits)
            if fq is None:
                return None
            Sd, w, eta = fq
            res = verified_solve(Sd, w, eta, qrhs, x_bits=bits + 40)
            if res is None:
                return None
            if all(sg is not None for sg in res.signs):
                break
        else:
            return None
        with ctx.workprec(128):
            balls = [_display_ball(lo, hi) for lo, hi in res.enclosures]
        k = part.ncells
        how = (f"verified float solve{f' of the {k} x {k} quotient' if k < self.n else ''} (Rump's bound "
               "||I - R Q|| < 1 and an exact residual, decided in exact arithmetic); signs certified by rational "
               "enclosures")
        return Solution(None, balls, list(res.signs), how, partition=part, enclosures=res.enclosures,
                        beta=res.beta, center=list(res.center), inverse=res.inverse,
                        extra={"fixed_point_eta": str(eta)})

    def _solve_balls(self, part, rhs, max_prec):
        k = part.ncells
        signs: list[int | None] = [None] * k
        zero_checked = [False] * k
        prec = 64
        b = arb_mat(k, 1, [arb(v) for v in rhs])
        last = None
        while prec <= max_prec:
            with ctx.workprec(prec):
                facs = [arb(0) if d == math.inf else 1 / self.level.factor_arb(d) for d in self._dvals]
                try:
                    x = arb_mat(self._quotient(part, facs)).solve(b)
                except ZeroDivisionError:
                    x = None
                if x is not None:
                    last = [x[i, 0] for i in range(k)]
                    for i, v in enumerate(last):
                        if signs[i] is None:
                            if v > 0:
                                signs[i] = 1
                            elif v < 0:
                                signs[i] = -1
                    if all(s is not None for s in signs):
                        return Solution(None, last, signs, "Arb ball solve (arb_mat.solve"
                                        + (f", {k} x {k} quotient" if k < self.n else "") + f") at {prec} bits; "
                                        "signs certified by the enclosures", prec, partition=part)
            # components still containing 0: prove they are not identically zero
            pending = [i for i in range(k) if signs[i] is None and not zero_checked[i]]
            if pending:
                nz = self._nonzero_by_sample(part, pending, rhs)
                for i in pending:
                    zero_checked[i] = True
                    if not nz.get(i, False):
                        raise Undecided(f"component {i} of Phi^-1 b vanishes at the rational samples tried; it may be "
                                        "identically zero, which exactdp cannot yet certify for this instance",
                                        enclosure=str(last[i]) if last else None)
            prec *= 2
        raise Undecided(f"Phi x = b not separated from zero at {max_prec} bits (or Phi singular)",
                        enclosure=str(last) if last else None)

    def _sample_factors(self, samples: dict) -> list:
        facs = []
        exps = self._generator_exponents()
        assert exps is not None  # sampled only for a symbolic eps
        for ex in exps:
            if ex is None:
                facs.append(fmpq(0))
                continue
            v = fmpq(1)
            for a, kk in ex.items():
                v *= samples[a] ** kk
            facs.append(v)
        return facs

    def _nonzero_by_sample(self, part, idx, rhs):
        exps = self._generator_exponents()
        if exps is None:
            return {}
        atoms = sorted({a for ex in exps if ex for a in ex})
        out = {}
        k = part.ncells
        for trial in range(3):
            samples = {a: fmpq(1, 2 + j + trial) for j, a in enumerate(atoms)}
            try:
                x = fmpq_mat(self._quotient(part, self._sample_factors(samples))).solve(fmpq_mat(k, 1, rhs))
            except ZeroDivisionError:
                continue
            for i in idx:
                if x[i, 0] != 0:
                    out[i] = True
            if all(out.get(i) for i in idx):
                break
        return out


def _display_ball(lo: fmpq, hi: fmpq) -> arb:
    """A ball containing ``[lo, hi]`` on a fixed grid: centre rounded to 40 bits below the value's leading bit,
    radius one grid step, so that its printed digits do not depend on the float details of the verified solve
    (the exact enclosure stays in ``Solution.enclosures``)."""
    mid = (lo + hi) / 2
    if mid == 0:
        return arb(lo).union(arb(hi))
    e = math.frexp(float(abs(mid)))[1] - 40
    g = fmpq(2) ** e if e >= 0 else fmpq(1, 2 ** (-e))
    c = (mid / g + fmpq(1, 2)).floor() * g
    if c - g <= lo and hi <= c + g:
        return arb(c - g).union(arb(c + g))
    return arb(lo).union(arb(hi))


def _lift(sol: Solution, part: Partition, n: int) -> Solution:
    """The solution on points from the solution on cells (``x = P x_Q``)."""
    if part.ncells == n and np.array_equal(part.cell_of, np.arange(n)):
        return sol
    cell = part.cell_of.tolist()
    sol.extra["cell_signs"] = list(sol.signs)
    if sol.values is not None:
        sol.values = [sol.values[c] for c in cell]
    if sol.balls is not None:
        sol.balls = [sol.balls[c] for c in cell]
    sol.signs = [sol.signs[c] for c in cell]
    return sol


_STRUCT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def metric_structure(metric: FiniteMetric) -> tuple[DistanceCodes, Partition]:
    """``(codes, partition)``: the metric's distance codes and verified equitable partition, cached per metric.

    Parameters
    ----------
    metric : FiniteMetric
        The metric.

    Returns
    -------
    tuple
        Its :class:`~exactdp.metrics.symmetry.DistanceCodes` and its verified equitable
        :class:`~exactdp.metrics.symmetry.Partition`.

    Examples
    --------
    >>> from exactdp.metrics import cycle
    >>> codes, part = metric_structure(cycle(6))
    >>> part.ncells                  # the rotations make every point alike
    1
    """
    st = _structure(metric)
    if st.get("partition") is None:
        st["partition"] = equitable_partition(metric, st["codes"])
    return st["codes"], st["partition"]


def _structure(metric) -> dict:
    """Distance codes (and, once asked for, the equitable partition) of a metric, cached per metric object."""
    st = _STRUCT.get(metric)
    if st is None:
        st = {"codes": DistanceCodes(metric), "partition": None}
        _STRUCT[metric] = st
    return st
