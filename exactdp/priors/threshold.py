"""The threshold eps: the smallest level at which a tight-constraints mechanism exists (ECP14 sec. 6, 7).

By Prop. 8 it is also the smallest eps at which the uniform prior is regular.

* **exact** (rational distances, bounded by cost, not by a point count): on the quotient ``Q(u)`` of the
  metric's equitable partition (``u = alpha^(1/L)``), ``z(alpha) = Q^-1 1`` by fraction-free
  elimination as exact polynomials; the first alpha in (0, 1) at which some ``z_A`` turns negative is an
  algebraic number, isolated exactly, and ``eps* = -log(alpha*)``.  When no ``z_A`` is negative anywhere
  on (0, 1) this *proves* that a tight-constraints mechanism exists for every eps: the threshold is 0;
* **certified bracket** (any size): floats *guide* a bisection on eps (on the quotient); then two
  rational levels ``lo < hi`` with ``hi - lo <= width`` are certified (verified solves, Arb as fallback):
  at ``hi`` every ``z_i`` is certified positive (a tight-constraints mechanism
  exists), at ``lo`` some ``z_i`` is certified negative (none exists).

The certificate states exactly what was certified: existence at ``hi`` and
non-existence at ``lo`` (and, for the exact form, the sign of every ``z_i`` on
all of (0, 1)).
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import numpy as np
from flint import arb, ctx, fmpq, fmpq_poly, fmpz_poly

from ..certificate import UNDECIDED, Certificate, Method
from .evidence import (BracketEnds, ExistencePiece, ThresholdEvidence, VerifiedSolve, distance_data,
                                  metric_spec)
from ..errors import ExactDPError, InputTooLarge, Undecided
from ..exact.decide import float_bounds
from ..exact.level import Level
from ..exact.verified_solve import blas_single_thread
from ..exact.symbolic import AlphaSet, sign_pieces_poly
from ..metrics.symmetry import quotient_counts
from .phi import PhiSystem
from .regular import _say, ball_size_symmetric, tight_constraints
from .parametric import poly_text   # the one writer of integer polynomials in t (the kernel parses it)

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = ["MAX_EXACT_COST", "ExistenceSet", "exact_threshold", "existence_set", "poly_text", "threshold"]


class _FloatGuide:
    """``min z(eps)`` in floating point on the quotient of the metric's equitable partition (a guide only)."""

    def __init__(self, metric):
        S = PhiSystem(metric, Level.from_eps("1"))
        part = S.partition
        cells = part.cells()
        order = np.concatenate(cells)
        self.starts = np.searchsorted(part.cell_of[order], np.arange(part.ncells))
        self.dv = np.array([np.inf if d == math.inf else sum(float_bounds(d)) / 2 for d in S._dvals])
        self.rows, self.order = S._codes.rows(part.representatives()), order   # the rows are cached per metric

    def zmin(self, eps):
        f = np.exp(-eps * self.dv)
        k, n = self.rows.shape
        Q = np.empty((k, len(self.starts)))
        # a block x n array at a time, columns put in cell order block by block, buffers made once
        step = max(1, 4_000_000 // max(n, 1))
        pbuf = np.empty((min(step, k), n), dtype=self.rows.dtype)
        gbuf = np.empty((min(step, k), n))
        for lo in range(0, k, step):
            m = min(step, k - lo)
            np.take(self.rows[lo:lo + m], self.order, axis=1, out=pbuf[:m], mode="clip")
            np.take(f, pbuf[:m], out=gbuf[:m], mode="clip")
            np.add.reduceat(gbuf[:m], self.starts, axis=1, out=Q[lo:lo + m])
        try:
            return float(np.linalg.solve(Q, np.ones(len(Q))).min())
        except np.linalg.LinAlgError:
            return float("nan")


def _float_threshold(guide, rel=1e-13):
    with blas_single_thread():
        return _bisect(guide, rel)


def _bisect(guide, rel):
    hi = 1.0
    while not guide.zmin(hi) > 0:
        hi *= 2
        if hi > 1e6:
            raise Undecided("no level up to 1e6 gives z >= 0 in floating point")
    lo = hi / 2
    while guide.zmin(lo) > 0:
        hi, lo = lo, lo / 2
        if lo < 1e-9:
            return 0.0
    return _illinois(guide.zmin, lo, hi, rel)


def _illinois(f, lo, hi, rel):
    """A root of ``f`` in ``[lo, hi]`` (``f(lo) <= 0 < f(hi)``) by the Illinois variant of regula falsi,
    keeping the bracket; bisection steps when it stalls.  Float guide only."""
    flo, fhi = f(lo), f(hi)
    side, last = 0, None
    for _ in range(200):
        if hi - lo <= rel * hi:
            break
        mid = (lo + hi) / 2
        if math.isfinite(flo) and math.isfinite(fhi) and fhi != flo:
            sec = hi - fhi * (hi - lo) / (fhi - flo)
            if lo < sec < hi:
                mid = sec
        fm = f(mid)
        if fm > 0:
            hi, fhi = mid, fm
            if side == 1:
                flo /= 2
            side = 1
        else:
            lo, flo = mid, fm
            if side == -1:
                fhi /= 2
            side = -1
        if last is not None and abs(mid - last) < 100 * rel * hi:
            # converging on one side: probe just across the root estimate to close the bracket
            probe = mid - rel * hi / 2 if side == 1 else mid + rel * hi / 2
            if lo < probe < hi:
                fp = f(probe)
                if fp > 0:
                    hi, fhi = probe, fp
                else:
                    lo, flo = probe, fp
        last = mid
    return (lo + hi) / 2


#: largest estimated cost (k^3 (degree + 1)^2, k the number of cells) of the exact polynomial route
MAX_EXACT_COST = 5 * 10**7


def _poly_quotient(metric):
    """``(Q, L)``: the quotient ``Q(u)`` as integer polynomials in ``u = alpha^(1/L)``, or None."""
    S = PhiSystem(metric, Level.from_eps("1"))
    part = S.partition
    L = 1
    for d in S._dvals:
        if d != math.inf:
            if not isinstance(d, fmpq):
                return None
            L = math.lcm(L, int(d.q))
    expo = [None if d == math.inf else int(d * L) for d in S._dvals]
    k = part.ncells
    ex_arr = np.array([-1 if e is None else e for e in expo], dtype=object if max(
        (e for e in expo if e is not None), default=0) >= 2 ** 62 else np.int64)
    deg = int(sum(ex_arr[S._codes.rows(part.representatives())].max(axis=1).tolist()))
    if k ** 3 * (deg + 1) ** 2 > MAX_EXACT_COST:
        return None
    A, B, code, cnt = quotient_counts(S._codes, part)
    Q = [[fmpz_poly() for _ in range(k)] for _ in range(k)]
    for a, b, c, m in zip(A.tolist(), B.tolist(), code.tolist(), cnt.tolist(), strict=True):
        if expo[c] is not None:
            Q[a][b] += fmpz_poly([0] * expo[c] + [m])
    return Q, L, part


def _fraction_free_solve(Q):
    """``(det, nums)`` with ``Q(u) x = 1`` solved as ``x_i = nums[i] / det`` (fraction-free Gauss--Jordan,
    Bareiss 1968; every division exact), or None if ``det`` is the zero polynomial."""
    k = len(Q)
    M = [[*row[:], fmpz_poly([1])] for row in Q]
    prev = fmpz_poly([1])
    for c in range(k):
        p = next((r for r in range(c, k) if not M[r][c].is_zero()), None)
        if p is None:
            return None
        M[c], M[p] = M[p], M[c]
        piv = M[c][c]
        for i in range(k):
            if i == c:
                continue
            mic = M[i][c]
            for j in range(k + 1):
                if j == c:
                    continue
                q, r = divmod(piv * M[i][j] - mic * M[c][j], prev)
                if not r.is_zero():
                    raise RuntimeError("internal error: inexact division in fraction-free elimination")
                M[i][j] = q
            M[i][c] = fmpz_poly()
        prev = piv
    # every M[i][i] equals the last pivot (the determinant up to the sign of the row swaps)
    return M[k - 1][k - 1], [M[i][k] for i in range(k)]


def exact_threshold(metric: FiniteMetric) -> tuple | None:
    """``(alpha_star, eps_text, failure_set)`` by exact polynomials, or None when the route does not apply.

    On the quotient ``Q(u)`` of the metric's equitable partition (``u = alpha^(1/L)``; rational distances),
    ``z_A(alpha) = num_A / det`` by fraction-free elimination; the set of alpha in (0, 1) where some
    ``z_A < 0`` is isolated exactly.  ``det`` must not vanish on (0, 1) (else None).  ``alpha_star`` is
    ``None`` (and ``eps_text`` ``"0"``) when no ``z_A`` is negative anywhere: a tight-constraints mechanism
    exists for every eps > 0.  The route runs only when its estimated cost ``k^3 (deg + 1)^2`` is at most
    ``MAX_EXACT_COST``.

    Parameters
    ----------
    metric : FiniteMetric
        Rational distances.

    Returns
    -------
    tuple or None
        ``(alpha_star, eps_text, failure_set)`` (``failure_set`` an
        :class:`~exactdp.exact.symbolic.AlphaSet`), or ``None`` when the route does not apply.

    Examples
    --------
    On the path ``0 - 1 - 2``, ``Phi z = 1`` gives ``z = (1, 1 - alpha, 1)/(1 + alpha) > 0`` for every alpha:

    >>> from exactdp.metrics import path
    >>> alpha_star, eps_text, fails = exact_threshold(path(3))
    >>> alpha_star, eps_text, fails.is_empty()
    (None, '0', True)
    """
    pq = _poly_quotient(metric)
    if pq is None:
        return None
    Q, L, _part = pq
    sol = _fraction_free_solve(Q)
    if sol is None:
        return None
    det, nums = sol
    det_q = fmpq_poly(det)
    if any(pc.sign == 0 for pc in sign_pieces_poly(det_q, L)):
        return None  # Q singular somewhere in (0, 1): the route does not decide there
    pieces = []
    for num in nums:
        pieces += [pc for pc in sign_pieces_poly(fmpq_poly(num * det), L) if pc.sign < 0]
    fails = AlphaSet(pieces)
    if fails.is_empty():
        return None, "0", fails
    first = fails.pieces[0].lo
    import sympy as sp  # only here: a level route never needs sympy

    return first, ("log(" + str(1 / sp.Rational(first.a)) + ")" if first.is_rational()
                   else f"-log({first})"), fails


# ------------------------------------------------------------------------------- the existence set ----
class _Root:
    """A root in (0, 1) of the irreducible integer polynomial ``f``: the rational ``a`` (``a == b``), or the only
    root of ``f`` in the open interval ``(a, b)`` (``f`` irreducible of degree >= 2: its roots are irrational, so
    ``f(a)``, ``f(b)`` are non-zero and of opposite signs)."""

    __slots__ = ("a", "b", "f", "fq")

    def __init__(self, f, a, b):
        self.f, self.fq, self.a, self.b = f, fmpq_poly(f), fmpq(a), fmpq(b)

    def bisect(self) -> None:
        if self.a == self.b:
            return
        m = (self.a + self.b) / 2
        if (self.fq(self.a) > 0) != (self.fq(m) > 0):
            self.b = m
        else:
            self.a = m

    def text(self) -> str:
        return str(self.a) if self.a == self.b else f"root of {poly_text(self.f)} in ({self.a}, {self.b})"

    def sign_of(self, h) -> int:
        """The exact sign of the polynomial ``h`` at this root: 0 iff ``f`` divides ``h`` (``f`` irreducible),
        otherwise decided by Arb on enclosures of the root, narrowed until they exclude 0."""
        if self.a == self.b:
            v = h(self.a)
            return (v > 0) - (v < 0)
        h = h % self.fq
        if h.is_zero():
            return 0
        while True:
            with ctx.workprec(256):
                x = arb(self.a).union(arb(self.b))
                v = arb(0)
                for c in reversed(h.coeffs()):
                    v = v * x + arb(c)
            if v > 0:
                return 1
            if v < 0:
                return -1
            self.bisect()


def _cmp_roots(r: _Root, s: _Root) -> int:
    """Order two roots of distinct irreducible polynomials (or distinct roots of one) exactly, refining them."""
    while True:
        if r.b < s.a or (r.b == s.a and not (r.a == r.b == s.a == s.b)):
            return -1
        if s.b < r.a or (s.b == r.a and not (r.a == r.b == s.a == s.b)):
            return 1
        if r.a == r.b == s.a == s.b:
            return 0
        r.bisect()
        s.bisect()


def _roots_01_of(f) -> list[_Root]:
    """The roots in (0, 1) of the irreducible integer polynomial ``f``, isolated exactly (sympy's Sturm-based
    ``intervals``)."""
    if f.degree() == 1:
        c0, c1 = f.coeffs()
        r = fmpq(-int(c0), int(c1))
        return [_Root(f, r, r)] if 0 < r < 1 else []
    import sympy as sp

    t = sp.Symbol("t")
    sf = sp.Poly([int(c) for c in reversed(f.coeffs())], t)
    out = []
    for (a, b), _m in sf.intervals(inf=0, sup=1):
        a, b = sp.Rational(a), sp.Rational(b)
        out.append(_Root(f, fmpq(int(a.p), int(a.q)), fmpq(int(b.p), int(b.q))))
    return out


def _multiplicity(g, f) -> int:
    m = 0
    fq = fmpq_poly(f)
    while not g.is_zero():
        q, r = divmod(g, fq)
        if not r.is_zero():
            break
        g, m = q, m + 1
    return m


def _exists_singular(Q, root: _Root) -> bool | None:
    """Whether ``Q(t) x = 1`` has a solution ``x >= 0`` at a root ``t`` of ``det Q`` (so ``Q(t)`` is singular).

    Gauss--Jordan over the field ``Q[t]/(f)`` (every zero test exact: reduction modulo the irreducible ``f``),
    then, with one free unknown ``s``, the solutions are ``x_free = s``, ``x_pivot = b - R s``: ``x >= 0`` is an
    interval of ``s`` whose ends are compared by exact signs.  ``None`` (not decided) with two free unknowns or
    more."""
    F = fmpq_poly(root.f)
    k = len(Q)
    red = (lambda h: h % F) if root.a != root.b else (lambda h: fmpq_poly([h(root.a)]))
    M = [[red(fmpq_poly(Q[i][j])) for j in range(k)] + [fmpq_poly([1])] for i in range(k)]

    def inv(h):
        if root.a == root.b:
            return fmpq_poly([1 / h[0]])
        g, s, _ = h.xgcd(F)
        return red(s * fmpq_poly([1 / g[0]]))

    pivots, row = [], 0
    for c in range(k):
        p = next((i for i in range(row, k) if not M[i][c].is_zero()), None)
        if p is None:
            continue
        M[row], M[p] = M[p], M[row]
        iv = inv(M[row][c])
        M[row] = [red(h * iv) for h in M[row]]
        for i in range(k):
            if i != row and not M[i][c].is_zero():
                f_ = M[i][c]
                M[i] = [red(x - f_ * y) for x, y in zip(M[i], M[row], strict=True)]
        pivots.append(c)
        row += 1
    if any(not M[i][k].is_zero() for i in range(row, k)):
        return False                      # 1 is not in the column space of Q(t): no solution at all
    free = [c for c in range(k) if c not in pivots]
    if not free:
        return all(root.sign_of(M[i][k]) >= 0 for i in range(row))
    if len(free) > 1:
        return None
    j = free[0]
    lo, hi = [fmpq_poly([0])], []         # s >= every lo, s <= every hi: x_pivot = b_i - R_i s >= 0
    for i in range(row):
        b, R = M[i][k], M[i][j]
        sr = root.sign_of(R)
        if sr == 0:
            if root.sign_of(b) < 0:
                return False
        elif sr > 0:
            hi.append(red(b * inv(R)))
        else:
            lo.append(red(b * inv(R)))
    return all(root.sign_of(h - low) >= 0 for h in hi for low in lo)


class ExistenceSet:
    """The exact set of ``alpha = e^(-eps)`` in (0, 1) where a tight-constraints mechanism exists.

    Built by :func:`existence_set`.

    Parameters
    ----------
    L : int
        The ends are values of ``t = alpha^(1/L)``.
    pieces : list of tuple
        ``(lo, hi, lo_closed, hi_closed)``, the ends roots (exact, isolated) or the integers 0 and 1.
    singular : list
        The roots of ``det Q`` in (0, 1), each decided exactly.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> existence_set(path(3)).pieces
    [(0, 1, False, False)]
    """

    def __init__(self, L, pieces, singular):
        self.L, self.pieces, self.singular = L, pieces, singular

    def is_everything(self) -> bool:
        """Return whether the set is all of (0, 1) (one exists at every level: threshold 0).

        Returns
        -------
        bool

        Examples
        --------
        >>> ExistenceSet(1, [(0, 1, False, False)], []).is_everything()
        True
        """
        return len(self.pieces) == 1 and self.pieces[0][0] == 0 and self.pieces[0][1] == 1

    def end_text(self, e) -> str:
        """Return an end as the certificate states it (``"0"``, a rational, or ``root of P in (a, b)``).

        Parameters
        ----------
        e : int or root
            An end of a piece.

        Returns
        -------
        str

        Examples
        --------
        >>> ExistenceSet(1, [], []).end_text(0)
        '0'
        """
        return str(e) if isinstance(e, int) else e.text()

    def records(self) -> list:
        """Return the pieces as the certificate's records.

        Returns
        -------
        list of ExistencePiece

        Examples
        --------
        >>> ExistenceSet(1, [(0, 1, False, False)], []).records()[0].hi
        '1'
        """
        return [ExistencePiece(lo=self.end_text(lo), hi=self.end_text(hi), lo_closed=lc, hi_closed=hc)
                for lo, hi, lc, hc in self.pieces]


def existence_set(metric: FiniteMetric) -> ExistenceSet | None:
    """The exact set of alpha in (0, 1) where a tight-constraints mechanism exists, or None (route not applicable).

    On the quotient ``Q(t)`` of the metric's equitable partition (``t = alpha^(1/L)``), ``z_A = num_A / det`` by
    fraction-free elimination (:func:`_fraction_free_solve`).  Every real root in (0, 1) of ``det`` and of every
    ``g_A = num_A det`` is isolated exactly (the distinct irreducible factors); between two consecutive roots no
    sign changes, so a tight-constraints mechanism exists on the open gap iff every ``g_A >= 0`` there (the sign
    near 0 is that of the lowest coefficient, carried across each root by the parity of its multiplicity).  At a
    root where ``det`` does not vanish it exists iff every ``g_A >= 0`` there; at a root of ``det`` (``Q``
    singular) ``Q x = 1, x >= 0`` is decided over ``Q[t]/(f)`` (:func:`_exists_singular`).  Existence needs only
    ``z >= 0`` (ECP14 Props. 7-8), not an invertible ``Phi``; by the cell-averaging argument (:mod:`.phi`) it
    holds iff the quotient system has a solution ``x >= 0``.

    Parameters
    ----------
    metric : FiniteMetric
        Rational distances.

    Returns
    -------
    ExistenceSet or None
        None when the route does not apply: irrational distances, cost beyond :data:`MAX_EXACT_COST`, or a
        singular point with two free unknowns or more.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> existence_set(path(3)).is_everything()
    True
    """
    pq = _poly_quotient(metric)
    if pq is None:
        return None
    Q, L, _part = pq
    sol = _fraction_free_solve(Q)
    if sol is None:
        return None
    det, nums = sol
    gs = [fmpq_poly(n * det) for n in nums if not n.is_zero()]
    roots = _sorted_roots_01(det, nums)
    decided = _atoms(Q, fmpq_poly(det), gs, roots)
    if decided is None:
        return None
    atoms, singular = decided
    pieces = _pieces_of_atoms(atoms, [0, *roots, 1])
    for r in roots:
        while r.b - r.a > _END_WIDTH:
            r.bisect()
    return ExistenceSet(L, pieces, singular)


def _sorted_roots_01(det, nums) -> list[_Root]:
    """Every real root in (0, 1) of ``det`` and of every ``num_A det``, isolated once per distinct irreducible
    factor (its leading coefficient made positive, so ``f`` and ``-f`` are one factor), in increasing order."""
    irreducible: dict[str, Any] = {}
    for p in [det, *(n * det for n in nums if not n.is_zero())]:
        for f, _m in p.factor()[1]:
            if f.degree() >= 1:
                f = f if f.coeffs()[-1] > 0 else -f
                irreducible[str(f)] = f
    roots: list[_Root] = []
    for f in irreducible.values():
        roots += _roots_01_of(f)
    roots.sort(key=functools.cmp_to_key(_cmp_roots))
    return roots


def _atoms(Q, detq, gs: list, roots: list[_Root]) -> tuple[list[bool], list[_Root]] | None:
    """``(atoms, singular)``: whether a tight-constraints mechanism exists on each atom (gap 0, root 1, gap 1, ...,
    root m, gap m) and the roots where ``Q`` is singular; None when a singular point is beyond
    :func:`_exists_singular`.  The sign of every ``g_A`` starts as its lowest coefficient's (near 0) and flips at
    a root of odd multiplicity."""
    signs = [1 if next(c for c in g.coeffs() if c != 0) > 0 else -1 for g in gs]
    atoms: list[bool] = [all(s >= 0 for s in signs)]
    singular = []
    for r in roots:
        mult = [_multiplicity(g, r.f) for g in gs]
        if _multiplicity(detq, r.f) > 0:
            singular.append(r)
            ok = _exists_singular(Q, r)
            if ok is None:
                return None
        else:
            ok = all(m > 0 or s >= 0 for m, s in zip(mult, signs, strict=True))
        atoms.append(ok)
        signs = [-s if m % 2 else s for m, s in zip(mult, signs, strict=True)]
        atoms.append(all(s >= 0 for s in signs))
    return atoms, singular


def _pieces_of_atoms(atoms: list[bool], ends: list) -> list:
    """The maximal runs of atoms where a mechanism exists, as pieces ``(lo, hi, lo_closed, hi_closed)``."""
    pieces = []
    i = 0
    while i < len(atoms):
        if not atoms[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(atoms) and atoms[j + 1]:
            j += 1
        # atom 2q is the gap (ends[q], ends[q+1]); atom 2q+1 is the root ends[q+1]
        lo, lc = (ends[i // 2], False) if i % 2 == 0 else (ends[(i + 1) // 2], True)
        hi, hc = (ends[j // 2 + 1], False) if j % 2 == 0 else (ends[(j + 1) // 2], True)
        pieces.append((lo, hi, lc, hc))
        i = j + 1
    return pieces


#: width of the isolating intervals of the ends stated in a certificate
_END_WIDTH = fmpq(1, 2**48)


def _eps_bracket(alpha_end: _Root, L: int) -> tuple[fmpq, fmpq]:
    """A rational bracket (12 decimals) of ``eps* = -L log t*`` from the isolating interval of ``t*`` (Arb)."""
    scale = 10**12
    with ctx.workprec(256):
        lo = -L * arb(alpha_end.b).log() * scale
        hi = -L * arb(alpha_end.a).log() * scale
        lo_z, hi_z = lo.lower().floor().unique_fmpz(), hi.upper().ceil().unique_fmpz()
        assert lo_z is not None and hi_z is not None  # floor and ceiling of exact ends are integers
        return fmpq(int(lo_z), scale), fmpq(int(hi_z), scale)


def threshold(metric: FiniteMetric, width: Any = fmpq(1, 10**9), *,
              progress: Callable[..., object] | None = None) -> Certificate[ThresholdEvidence]:
    """The smallest eps at which a tight-constraints mechanism exists (see the module docstring).

    Parameters
    ----------
    metric : FiniteMetric
        The metric ``(X, d)`` of the tight-constraints system ``Phi z = 1``
        (ECP14 Def. 6).
    width : rational, default 1/10^9
        Width of the certified bracket.
    progress : callable, optional
        ``progress(stage, None, None)`` is called before each step that can take long on a large metric (the exact
        polynomial route, the float-guided bisection, each certified end of the bracket); the library itself
        prints nothing.

    Returns
    -------
    Certificate
        Kind ``threshold``.  ``evidence.route`` says how it was found: ``"symmetric"`` (Prop. 9),
        ``"path"`` or ``"manhattan"`` (closed forms: threshold 0), ``"exact-polynomial"`` (z(alpha) >= 0 on all
        of (0, 1), proved on the quotient: threshold 0) or ``"bracket"``: ``evidence.lo``, ``evidence.hi``
        (decimal text of the certified rational levels) and ``evidence.exact`` (the exact value when the
        exact route applies, else ``None``).  Undecided (with the reason) when
        no bracket can be certified.

    Raises
    ------
    InputTooLarge
        The bracket's verified solves are beyond their route's limits (the quotient's cells, the memory of
        its distance codes: :meth:`exactdp.priors.phi.Route.refusal`), before any work.

    Examples
    --------
    >>> from exactdp.metrics import cycle, path
    >>> c = threshold(path(5))
    >>> c.verdict, c.evidence.route, c.evidence.exact
    (<Verdict.HOLDS: 'holds'>, 'path', '0')
    >>> threshold(cycle(6)).evidence.route
    'symmetric'

    References
    ----------
    ECP14 Props. 8-9, sec. 7.
    """
    width = fmpq(width)
    claim = f"the threshold eps for a tight-constraints mechanism on the {metric.description}"
    none: dict[str, Any] = dict(lo=None, hi=None, lo_rational=None, hi_rational=None, exact=None,
                                exact_failure_set=None, negative_at_lo=None)
    zero = {**none, "lo": "0", "hi": "0", "exact": "0"}
    if ball_size_symmetric(metric):
        ev = ThresholdEvidence(description=metric.description, route="symmetric", distances=distance_data(metric),
                               **zero)
        return Certificate("threshold", True, Method.CLOSED_FORM, claim, ev, note="ECP14 Prop. 9")
    form = _closed_form_zero(metric)
    if form is not None:
        ev = ThresholdEvidence(description=metric.description, route=form, distances=distance_data(metric), **zero)
        return Certificate("threshold", True, Method.CLOSED_FORM, claim, ev)
    why = PhiSystem(metric, Level.from_eps("1")).route().refusal()
    if why is not None:  # the bracket's two certified ends are verified solves on the quotient
        raise InputTooLarge(f"threshold: the certified bracket solves Phi z = 1 at its two ends; {why}")
    _say(progress, "exact polynomial route on the quotient")
    import sympy as sp  # the exact route isolates roots with sympy

    try:
        ex = existence_set(metric)
    except (ExactDPError, ZeroDivisionError, sp.PolynomialError):
        ex = None  # the exact route is optional; the certified bracket below does not depend on it
    if ex is not None:
        return _exact_certificate(metric, ex, claim, none)
    base: dict[str, Any] = dict(description=metric.description, distances=None)
    return _bracket(metric, width, claim, base, none, None, None, progress)


def _exact_certificate(metric, ex: ExistenceSet, claim: str, none: dict) -> Certificate:
    """The ``exact-polynomial`` certificate: the existence set, and ``eps*`` from its first piece ``(0, alpha*]``."""
    how = PhiSystem(metric, Level.from_eps("1")).partition.how
    base = dict(description=metric.description, route="exact-polynomial", distances=distance_data(metric),
                root_of_alpha=ex.L, existence=ex.records())
    first = ex.pieces[0]
    if first[0] != 0 or first[2]:
        raise RuntimeError("internal error: no tight-constraints mechanism near alpha = 0, where Q = I")
    note = f"equitable partition: {how}"
    if ex.is_everything():
        ev = ThresholdEvidence(**base, **{**none, "lo": "0", "hi": "0", "exact": "0"}, attained=True)
        return Certificate("threshold", True, Method.SYMBOLIC_ROOTS, claim, ev, note=note)
    end: _Root = first[1]
    if end.a == end.b:
        exact = f"log({1 / end.a ** ex.L})"
        lo, hi = _eps_bracket(end, ex.L)
    else:
        exact = "-log(alpha*)"
        lo, hi = _eps_bracket(end, ex.L)
    ev = ThresholdEvidence(**base, **{**none, "lo": _dec(lo), "hi": _dec(hi), "lo_rational": str(lo),
                                      "hi_rational": str(hi), "exact": exact}, attained=first[3])
    return Certificate("threshold", True, Method.SYMBOLIC_ROOTS, claim, ev, note=note)


def _bracket(metric, width, claim, base, none, ex, exact_text, progress=None) -> Certificate:
    """Certify a rational bracket ``[lo, hi]`` of the threshold around a float guide (``undecided`` if it cannot)."""
    def undecided(reason):
        return Certificate("threshold", UNDECIDED, Method.NONE, claim,
                           ThresholdEvidence(**base, route="bracket", **{**none, "exact": exact_text}), reason=reason)
    _say(progress, "float-guided bisection")
    try:
        e0 = _float_threshold(_FloatGuide(metric), rel=max(1e-13, float(width) / 1000))
    except Undecided as e:
        return undecided(e.reason)
    if e0 == 0.0:
        return undecided("z stays positive down to eps = 1e-9 in floating point, and the exact route did not apply "
                         "(too costly, irrational distances, or a singular quotient)")
    scale = 10 ** (int(-math.log10(float(width))) + 2)
    for attempt in range(6):
        spread = float(width) * (2 ** attempt) / 4
        hi = fmpq(math.ceil((e0 + spread) * scale), scale)
        lo = hi - width * (2 ** attempt) if attempt else hi - width
        if lo <= 0:
            return undecided(f"the float guide puts the threshold near {e0:.3g}, too close to 0 for a certified "
                             "bracket of this width")
        _say(progress, f"certifying existence at eps = {float(hi):.12g}")
        c_hi = tight_constraints(metric, Level.from_eps(str(hi)))
        _say(progress, f"certifying non-existence at eps = {float(lo):.12g}")
        c_lo = tight_constraints(metric, Level.from_eps(str(lo)))
        if c_hi.holds is True and c_lo.holds is False:
            break
    else:
        return undecided("the float guide could not be certified at its bracket")
    e_lo = c_lo.evidence
    assert e_lo.z is not None  # the bracket's lower end was solved (a negative coordinate found)
    neg = e_lo.negative[0]
    ends = _ends(c_lo.evidence.verified, c_hi.evidence.verified)
    if ends is not None:
        base["distances"] = distance_data(metric)
    base["metric"] = metric_spec(metric, base["distances"])    # the re-check re-derives a large unit grid
    ev = ThresholdEvidence(**base, route="bracket", ends=ends, lo=_dec(lo), hi=_dec(hi), lo_rational=str(lo),
                           hi_rational=str(hi), exact=exact_text,
                           exact_failure_set=str(ex[2]) if ex is not None and exact_text is not None else None,
                           negative_at_lo=neg)
    z_lo = e_lo.z[[str(p) for p in metric.points].index(neg)]
    return Certificate("threshold", True, c_hi.method, claim, ev, precision=c_hi.precision,
                       note=f"{c_hi.note}; z_{neg} at lo: {z_lo}")


def _ends(v_lo, v_hi):
    """What a re-check needs of the verified solves at both ends of a bracket (partition, ``y~``, ``R``), or
    ``None`` when an end was not a verified float solve (an Arb fallback)."""
    if v_lo is None or v_hi is None or any(getattr(v, k) is None for v in (v_lo, v_hi)
                                           for k in ("cell_of", "center", "inverse", "beta")):
        return None
    if v_lo.cell_of != v_hi.cell_of:
        return None
    # one approximate inverse (of Q at hi) serves both ends: the re-check verifies it at lo by perturbation
    return BracketEnds(lo=VerifiedSolve(cell_of=v_lo.cell_of, center=v_lo.center, inverse=None, beta=v_lo.beta),
                       hi=VerifiedSolve(cell_of=v_hi.cell_of, center=v_hi.center, inverse=v_hi.inverse, beta=v_hi.beta))


def _closed_form_zero(metric):
    """``"path"`` or ``"manhattan"`` when a closed form proves the threshold is 0, else None."""
    kind = metric.params.get("kind")
    if kind == "path":
        return "path"
    if kind == "grid":
        R, C = metric.params["shape"]
        if min(R, C) == 1:
            return "path"
        if metric.params.get("norm") == "manhattan":
            return "manhattan"
    return None


def _dec(q: fmpq) -> str:
    """Exact decimal text of a rational whose denominator is a power of 10."""
    k = 0
    while (q * fmpq(10) ** k).q != 1:
        k += 1
        if k > 60:
            raise ValueError(f"{q} is not a finite decimal")
    sgn, p = ("-" if q < 0 else ""), abs(int((q * fmpq(10) ** k).p))
    s = str(p).rjust(k + 1, "0")
    return sgn + (s[:-k] + "." + s[-k:] if k else s)
