"""Re-check a solve of ``Phi x = b`` at a transcendental level on the quotient of an equitable partition.

ECP14 Def. 3: ``phi_yy' = e^(-eps d(y, y'))``.  The certificate carries the full distance matrix, a partition
``cell_of`` of the points, an approximate solution ``y~`` of the quotient system (exact dyadics) and an
approximate inverse ``R`` of the quotient (exact dyadics).  Nothing of it is trusted.  A certificate too large
to carry them (ECP14 sec. 7.2: 10,000 points, a 1,275-cell quotient) describes a unit grid instead; then the
distances and the partition (the orbits of the grid's symmetries) are derived in :mod:`._grid`, and ``R`` and
``y~`` are computed here by floating point (:meth:`Inverse.of`, :func:`approximate_solution`: guesses -- any
will do, step 3 measures them; :func:`solve_grid`):

1. **The partition** (:func:`quotient`).  The codes must be symmetric (so ``Phi`` is), ``b`` constant on cells,
   and the partition *equitable*: for every cell pair ``(A, B)`` each point of ``A`` sees the same multiset of
   distances into ``B`` (checked on every point).  Then ``Phi P = P Q`` with ``Q[A, B] = sum_{b in B} phi_ab``
   (any ``a`` in ``A``), ``P`` the 0/1 cell-indicator matrix.  If ``Q y = b_Q`` then ``z = P y`` solves
   ``Phi z = b``; and as ``Phi`` is symmetric it commutes with the orthogonal projection onto cell-constant
   vectors, so the cell average of any solution ``z >= 0`` solves ``Q x = b_Q`` with ``x >= 0``.  Hence, with
   ``Q`` nonsingular, ``Phi z = b`` has a solution ``z >= 0`` iff ``Q^-1 b_Q >= 0`` (the sign claims of the
   tight-constraints and regular-prior certificates, ECP14 Props. 7-8 and Def. 4).
2. **Q enclosed exactly.**  Each ``e^(-eps d)`` is enclosed by this kernel's mpmath intervals (precision
   ``S + 40`` bits) and rounded outward to integers at scale ``2^S``; ``Q`` then lies entrywise in
   ``[Qlo, Qhi] 2^-S``, summed in exact integers.
3. **Rump's verification** (S. M. Rump, "Verification methods", Acta Numerica 19 (2010), Thm. 10.5; see also
   N. J. Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., 2002, Thm. 3.1 and sec. 2.1).
   With ``Qf`` a double near the midpoint of each entry (``|mid - Qf| <= 3u |Qf|``), ``C = fl(R Qf)`` is
   computed by numpy (BLAS, one thread) in IEEE double.  Whatever order the dot products are summed in, with
   or without fused multiply-adds, ``|c_ij - (R Qf)_ij| <= gamma_k sum_l |R_il| |Qf_lj| + 2k eta`` with
   ``u = 2^-53``, ``gamma_k = k u / (1 - k u)``, ``eta = 2^-1074`` (underflow of a product; Higham's model
   ``fl(xy) = xy(1 + d) + e``, Thm. 3.1 / eq. (3.5) "for any order of evaluation", sec. 2.6 for the FMA).
   ``|1 - c_ii|`` is exact when ``1/2 <= c_ii <= 2`` (Sterbenz; required).
   With ``|Q - Qf| <= dQ`` entrywise (the enclosure's half-width plus the rounding of the midpoint),
   the row sums of ``|I - R Q|`` are bounded by
   ``g_i = sum_j |d_ij - c_ij| + gamma_k |R_i| (|Qf| 1) + |R_i| (dQ 1) + 2k^2 eta``.
   Every such float sum (or dot product) of ``k`` non-negative doubles ``S`` is bounded above in exact
   rationals by ``fl(S) / (1 - gamma_k)`` (plus ``k eta`` for products), again for any order of summation.
   If ``beta = max g_i < 1``, ``Q`` is nonsingular and, for the exact solution ``y``,
   ``|y - y~| <= |R r| + g delta`` componentwise with ``delta = ||R r||_inf / (1 - beta)``, where the residual
   ``r = b - Q y~`` is enclosed in exact integer arithmetic from ``[Qlo, Qhi]`` and ``R r`` is bounded exactly.
   A sign is certified when ``|y~_i|`` exceeds that bound; otherwise the coordinate is not decided here.

Imports only the standard library, mpmath, numpy (float products bounded as above, and float guesses),
threadpoolctl and this package's kernel.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from operator import mul

import mpmath
import numpy as np
from mpmath import libmp
from mpmath.ctx_iv import MPIntervalContext
from threadpoolctl import threadpool_limits

from ._kernel import Refuted
from ._kernel import NotHere, _div, _iv, level_factor, value
from ._kernel import check_codes as kernel_check_codes

__all__ = [
    "Inverse",
    "Refuted",
    "approximate_solution",
    "certified_signs",
    "enclose_quotient",
    "enclosed_solution",
    "quotient",
    "short",
]

_U = Fraction(1, 2**53)
_ETA = Fraction(1, 2**1074)
#: bits of the fixed-point enclosure of Q
_S = 110


def check_codes(codes: list, nvalues: int) -> None:
    """Every distance code is an ``int`` in ``[0, nvalues)`` (a negative one would silently index from the end)."""
    try:
        kernel_check_codes(codes, nvalues, "distance code")
    except ValueError as e:
        raise Refuted(str(e)) from None


def quotient(codes: list, cell_of: list, rhs: list, nvalues: int):
    """Verify the partition (see the module docstring, step 1); return ``(k, counts, rhs_q)``.

    ``counts[A]`` maps ``(B, code)`` to the number of points of cell ``B`` at distance code ``code`` from every
    point of cell ``A``; ``rhs_q[A]`` the right-hand side on cell ``A``.  Raises :class:`Refuted`.
    """
    n = len(codes)
    if len(cell_of) != n or len(rhs) != n or any(len(r) != n for r in codes):
        raise Refuted("the partition, the right-hand side and the distance matrix have different sizes")
    check_codes(codes, nvalues)
    if not all(isinstance(a, int) and a >= 0 for a in cell_of):
        raise Refuted("a cell index is not a non-negative integer")
    k = max(cell_of) + 1
    if len(set(cell_of)) != k:
        raise Refuted("an empty cell")
    if any(list(col) != row for col, row in zip(zip(*codes, strict=True), codes, strict=True)):
        raise Refuted("the distance matrix is not symmetric")
    counts: list = [None] * k
    rhs_q: list = [None] * k
    for i, row in enumerate(codes):
        a = cell_of[i]
        sig = Counter(zip(cell_of, row, strict=True))
        if counts[a] is None:
            counts[a], rhs_q[a] = sig, rhs[i]
        elif sig != counts[a]:
            raise Refuted(f"the partition is not equitable: point {i} sees other distances into the cells than "
                          "the first point of its cell")
        elif rhs[i] != rhs_q[a]:
            raise Refuted(f"the right-hand side is not constant on the cell of point {i}")
    return k, counts, rhs_q


def _fixed_factors(level: dict, values: list) -> list:
    """``(lo, hi)`` integers with ``lo 2^-S <= e^(-eps d) <= hi 2^-S`` for each distance value."""
    ctx = MPIntervalContext()          # a private context at an explicit precision (never mpmath's global one)
    ctx.prec = _S + 40
    out = []
    for d in values:
        if d == "inf":
            out.append((0, 0))
            continue
        f = level_factor(level, d)
        if isinstance(f, tuple):
            raise NotHere("a fractional power of a rational alpha")
        v = _iv(_div(Fraction(1), f), ctx)
        a, b = v._mpi_
        out.append((libmp.to_int(libmp.mpf_shift(a, _S), "f"), libmp.to_int(libmp.mpf_shift(b, _S), "c")))
    return out


def _grid_factors(level: dict, g) -> list:
    """:func:`_fixed_factors` for a grid's distances: ``e^(-eps sqrt(s))`` (Euclidean) or ``e^(-eps s)`` straight
    from the integer key ``s`` in the kernel's private interval context (a level written ``log(R)/D`` takes the
    general route)."""
    if level.get("eps") is None:
        return _fixed_factors(level, g.values)
    ctx = MPIntervalContext()
    ctx.prec = _S + 40
    eps = _iv(value(level["eps"]), ctx)
    out = []
    for s in g.keys:
        d = ctx.sqrt(ctx.mpf(s)) if g.norm == "euclidean" else ctx.mpf(s)
        a, b = ctx.exp(-(eps * d))._mpi_
        out.append((libmp.to_int(libmp.mpf_shift(a, _S), "f"), libmp.to_int(libmp.mpf_shift(b, _S), "c")))
    return out


def _dyadics(data: dict, shape: int) -> tuple:
    """``(mantissas, exp)`` of ``{"exp": e, "mantissas": [...]}`` (value ``m 2^e``), checked."""
    e, m = data["exp"], data["mantissas"]
    if not isinstance(e, int) or abs(e) > 10_000 or len(m) != shape:
        raise Refuted("a dyadic vector with a bad exponent or length")
    return e, m


def _up_fsum(xs) -> Fraction:
    """An upper bound of the exact sum of non-negative doubles (fsum is correctly rounded)."""
    return Fraction(math.fsum(xs)) * (1 + Fraction(1, 2**51))


def _up_dot(a: list, b: list) -> Fraction:
    """An upper bound of ``sum a_l b_l`` for non-negative doubles (correctly rounded products and fsum)."""
    return Fraction(math.fsum(map(mul, a, b))) * (1 + Fraction(1, 2**50)) + 2 * len(a) * _ETA


def _up_float(x: Fraction) -> float:
    """A double ``>= x >= 0``."""
    f = float(x)
    return f if Fraction(f) >= x else math.nextafter(f, math.inf)


class Inverse:
    """An approximate inverse ``R = M 2^exp`` (exact doubles) and the defect bounds ``g`` it was verified with
    on a quotient enclosed by ``[Qlo, Qhi] 2^-S``.  Any ``R`` will do: its quality is measured, never assumed.

    Examples
    --------
    >>> R = Inverse({"exp": -1, "mantissas": [[1, 0], [0, 2]]}, 2)
    >>> R.array().tolist()
    [[0.5, 0.0], [0.0, 1.0]]
    """

    def __init__(self, data: dict, k: int):
        """Read the approximate inverse ``R = M 2^exp``: a ``k x k`` matrix of integers below ``2^53`` (each a double
        exactly) and a scale inside the double range. ``R`` needs no checking beyond that: the verification bounds
        ``||I - R Q||`` itself (Rump), so a poor ``R`` makes it answer not checkable, never confirm."""
        e, M = _dyadics(data, k)
        if any(not isinstance(r, list) or len(r) != k or not all(type(v) is int and abs(v) < 2**53 for v in r)
               for r in M):
            raise Refuted("the approximate inverse is not a k x k matrix of integers below 2^53")
        if e < -1000 + 53 or e > 900:
            raise NotHere("the approximate inverse's scale is outside the double range")
        self.M, self.exp, self.k = M, e, k
        self._Rf = None

    @classmethod
    def of(cls, Qlo, Qhi=None) -> Inverse:
        """An approximate inverse computed here (LAPACK, a guess that :meth:`verify` measures) of the midpoint
        of ``[Qlo, Qhi] 2^-S``; :class:`NotHere` when that midpoint is singular in floating point.

        Examples
        --------
        >>> R = Inverse.of([[2 * 2**_S, 0], [0, 4 * 2**_S]], [[2 * 2**_S, 0], [0, 4 * 2**_S]])
        >>> R.array().tolist()
        [[0.5, 0.0], [0.0, 0.25]]
        """
        Q = _enc(Qlo, Qhi)
        Qf = Q.midpoints()
        with threadpool_limits(limits=1, user_api="blas"):
            try:
                Rf = np.linalg.inv(Qf)
            except np.linalg.LinAlgError:
                raise NotHere("the quotient is singular in floating point") from None
        top = float(np.abs(Rf).max()) if Rf.size else 1.0
        if not math.isfinite(top) or top == 0:
            raise NotHere("the quotient is singular in floating point")
        e = math.frexp(top)[1] - 52
        M = np.rint(np.ldexp(Rf, -e)).astype(np.int64)
        out = cls.__new__(cls)                  # built here: integers below 2^53 by construction
        out.M, out.exp, out.k, out._Rf = M.tolist(), e, Q.k, None
        return out

    def array(self):
        """``R`` as a float64 array (exact: every entry is an integer below ``2^53`` times ``2^exp``)."""
        if self._Rf is None:
            self._Rf = np.ldexp(np.array(self.M, dtype=np.float64).reshape(self.k, self.k), self.exp)
        return self._Rf

    def verify(self, Qlo, Qhi=None) -> list:
        """Exact upper bounds of the row sums of ``|I - R Q|`` (a k^3 float product, bounded); ``Qlo`` may be an
        enclosure object (:class:`ListQ`, :class:`._grid.LimbQ`) with ``Qhi`` omitted."""
        return _defect_rows(self, _enc(Qlo, Qhi))

    def verify_near(self, g_ref: list, ref, Qlo, Qhi=None) -> list:
        """The same bounds for a nearby ``Q`` from those of a reference ``Q_ref`` (enclosed by ``ref``, a pair
        of lists or an enclosure object): ``|I - R Q| <= |I - R Q_ref| + |R| |Q - Q_ref|`` entrywise -- k^2 work
        instead of k^3."""
        refQ = ref if isinstance(ref, _ENCLOSURES) else ListQ(*ref)
        w = [_up_float(Fraction(v, 2**_S)) for v in _enc(Qlo, Qhi).near(refQ)]
        absR = np.abs(self.array()).tolist()
        return [g + _up_dot(ar, w) for g, ar in zip(g_ref, absR, strict=True)]


def approximate_solution(Qlo, Qhi, R: Inverse, rhs_q: list, steps: int = 2) -> dict:
    """An approximate solution ``y~`` of ``Q y = rhs_q`` (``Q`` the midpoint of ``[Qlo, Qhi] 2^-S``) as exact
    dyadics ``{"exp": e, "mantissas": [...]}``, computed here: ``R rhs`` refined by ``steps`` rounds of
    ``y~ += R (rhs - Q y~)`` with the residual exact.  A guess: :func:`enclosed_solution` bounds its error.

    Examples
    --------
    >>> one = 2**_S
    >>> R = Inverse({"exp": -1, "mantissas": [[1, 0], [0, 1]]}, 2)
    >>> c = approximate_solution([[2 * one, 0], [0, 2 * one]], [[2 * one, 0], [0, 2 * one]], R, [Fraction(1), 3])
    >>> [Fraction(int(m), 2**-c["exp"]) for m in c["mantissas"]]
    [Fraction(1, 2), Fraction(3, 2)]
    """
    b = [Fraction(v) for v in rhs_q]
    if len(b) != R.k:
        raise Refuted("the right-hand side and the quotient differ in size")
    den = math.lcm(*(v.denominator for v in b))
    ye = -(_S + 1)                              # y~ = Y 2^ye
    Rf = R.array()
    bf = np.array([float(v) for v in b])
    with threadpool_limits(limits=1, user_api="blas"):
        y0 = Rf @ bf
    if not np.isfinite(y0).all():
        raise NotHere("the approximate solution overflows")
    Y = [int(v) for v in np.rint(np.ldexp(y0, -ye)).astype(object)]
    two = 2 ** (_S + 1)
    Q = _enc(Qlo, Qhi)
    for _ in range(steps):
        # r 2^(ye - S - 1) den = b den 2^(S + 1 - ye) ... exactly: residual of the midpoint system, scaled
        N = [v.numerator * (den // v.denominator) * two * 2**-ye - m * den
             for v, m in zip(b, Q.mid_dot(Y), strict=True)]
        r = np.array([_to_float(v, ye - _S - 1, den) for v in N])     # the residual, rounded to doubles
        with threadpool_limits(limits=1, user_api="blas"):
            d = Rf @ r
        Y = [y + int(v) for y, v in zip(Y, np.rint(np.ldexp(d, -ye)).astype(object), strict=True)]
    return {"exp": ye, "mantissas": [str(v) for v in Y]}


def _to_float(v: int, e: int, den: int) -> float:
    """The double nearest ``v 2^e / den`` (0.0 below the double range)."""
    q = Fraction(v, den * 2**-e) if e < 0 else Fraction(v * 2**e, den)
    try:
        return float(q)
    except OverflowError:
        raise NotHere("a residual beyond the double range") from None


def enclose_quotient(level: dict, values: list, k: int, counts: list) -> tuple:
    """``(Qlo, Qhi)``: integers with ``Qlo 2^-S <= Q <= Qhi 2^-S`` entrywise (module docstring, step 2)."""
    F = _fixed_factors(level, values)
    Qlo = [[0] * k for _ in range(k)]
    Qhi = [[0] * k for _ in range(k)]
    for a, cnt in enumerate(counts):
        for (b, c), m in cnt.items():
            Qlo[a][b] += m * F[c][0]
            Qhi[a][b] += m * F[c][1]
    return Qlo, Qhi


def certified_signs(Qlo, Qhi, R: Inverse, g: list, center: dict, rhs_q: list) -> tuple:
    """``(signs, beta)``: certified signs (+1/-1) of ``Q^-1 rhs_q`` per cell from ``y~`` (module docstring,
    step 3).  Raises :class:`NotHere` when ``beta >= 1`` or a coordinate is not separated from 0."""
    ys, errs, beta = enclosed_solution(Qlo, Qhi, R, g, center, rhs_q)
    signs = []
    for i, (yi, err) in enumerate(zip(ys, errs, strict=True)):
        if yi - err > 0:
            signs.append(1)
        elif yi + err < 0:
            signs.append(-1)
        else:
            raise NotHere(f"coordinate {i} of the quotient solution is not separated from 0 by the verified bound "
                          f"({short(yi)} +/- {short(err)})")
    return signs, beta


def enclosed_solution(Qlo, Qhi, R: Inverse, g: list, center: dict, rhs_q: list) -> tuple:
    """``(ys, errs, beta)``: exact rationals with ``|y_i - ys_i| <= errs_i`` for the exact solution ``y`` of
    ``Q y = rhs_q`` and every ``Q`` in the enclosure (module docstring, step 3: ``errs_i = |R r|_i + g_i delta``).
    Raises :class:`NotHere` when ``beta = max g >= 1``, :class:`Refuted` on a malformed ``y~``."""
    k = R.k
    ye, Y = _dyadics(center, k)
    if not all(isinstance(v, str) and len(v) < 2000 for v in Y):
        raise Refuted("the approximate solution's mantissas are not short integer text")
    Y = [int(v) for v in Y]
    beta = max(g)
    if beta >= 1:
        raise NotHere(f"the approximate inverse does not verify: ||I - R Q||_inf <= {short(beta)} is not < 1")
    Rr = _residual_bound(_enc(Qlo, Qhi), Y, ye, R.M, R.exp, rhs_q)
    delta = max(Rr) / (1 - beta)
    scale = Fraction(2) ** ye
    return [Fraction(v) * scale for v in Y], [Rr[i] + g[i] * delta for i in range(k)], beta


def short(x: Fraction) -> str:
    """Three significant digits of an exact rational for a message (no float conversion: it may overflow)."""
    return mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 3)


def _midpoints(Qlo, Qhi):
    """The doubles nearest the midpoints ``(lo + hi) 2^-(S+1)`` (correctly rounded integer division)."""
    two = 2 ** (_S + 1)
    return np.array([[(lo + hi) / two for lo, hi in zip(rl, rh, strict=True)]
                     for rl, rh in zip(Qlo, Qhi, strict=True)], dtype=np.float64)


def _defect_rows(R: Inverse, Q) -> list:
    """Exact upper bounds ``g_i`` of the row sums of ``|I - R Q|`` (module docstring, step 3).

    The one ``k^3`` step, ``C = fl(R Qf)``, is numpy's (BLAS, single-threaded); its error is bounded for any
    order of summation and with or without fused multiply-adds (Higham, Thm. 3.1 and sec. 2.6)."""
    k = R.k
    two = 2 ** (_S + 1)
    Qf = Q.midpoints()
    # dQ 1: half-widths of the enclosure plus the rounding of each midpoint to a double (Qf >= 0)
    q1 = [_up_fsum(r) for r in Qf.tolist()]
    # (a midpoint correctly rounded, or summed from three exact limbs: |mid - Qf| <= 3u |Qf|; never underflowing
    # below 2^-111, and 2k eta covers it anyway)
    dq1 = [Fraction(w, two) + 3 * _U * q + 2 * k * _ETA for w, q in zip(Q.widths(), q1, strict=True)]
    q1f = np.array([_up_float(v) for v in q1])
    dq1f = np.array([_up_float(v) for v in dq1])
    Rf = R.array()
    with threadpool_limits(limits=1, user_api="blas"):
        C = Rf @ Qf
        absR = np.abs(Rf)
        a1 = absR @ q1f                            # |R_i| . (|Qf| 1), each bounded below
        a2 = absR @ dq1f                           # |R_i| . (dQ 1)
    diag = np.diagonal(C).copy()
    if not ((diag >= 0.5) & (diag <= 2.0)).all():
        raise NotHere("the approximate inverse is too far from Q^-1 (a diagonal of R Q outside [1/2, 2])")
    D = np.abs(C)
    np.fill_diagonal(D, 1.0 - diag)               # exact (Sterbenz)
    D = np.abs(D)
    s = D.sum(axis=1)
    # a float sum (or dot product) of k non-negative terms, in any order: exact <= fl / (1 - gamma_k) + k eta
    gamma = Fraction(k, 2**53 - k)
    up = 1 / (1 - gamma)
    g = []
    for si, ai, bi in zip(s.tolist(), a1.tolist(), a2.tolist(), strict=True):
        t = Fraction(si) * up                                       # sum_j |delta_ij - c_ij|
        t += gamma * (Fraction(ai) * up + k * _ETA)                 # |c - R Qf| <= gamma_k |R| |Qf| ...
        t += 2 * k * k * _ETA                                       # ... + 2k eta (underflow), per entry
        t += Fraction(bi) * up + k * _ETA                           # |R| |Q - Qf|
        g.append(t)
    return g


class ListQ:
    """``[Qlo, Qhi] 2^-S`` as lists of Python integers, with what the verification needs of it (exactly)."""

    def __init__(self, Qlo, Qhi):
        """Hold ``[Qlo, Qhi]`` (rows of Python integers, two ends of one size); sums and floats are computed on
        demand."""
        if len(Qlo) != len(Qhi):
            raise Refuted("the enclosure's two ends differ in size")
        self.lo, self.hi, self.k = Qlo, Qhi, len(Qlo)
        self._sums = None
        self._Qf = None

    def sums(self) -> list:
        """``lo + hi`` entrywise (``2^(S+1)`` times the midpoints, exactly)."""
        if self._sums is None:
            self._sums = [[lo + hi for lo, hi in zip(rl, rh, strict=True)]
                          for rl, rh in zip(self.lo, self.hi, strict=True)]
        return self._sums

    def midpoints(self):
        """The doubles nearest the midpoints (correctly rounded integer division)."""
        if self._Qf is None:
            self._Qf = _midpoints(self.lo, self.hi)
        return self._Qf

    def widths(self) -> list:
        """``sum_B (hi - lo)[A][B]`` per row."""
        return [sum(rh) - sum(rl) for rl, rh in zip(self.lo, self.hi, strict=True)]

    def mid_dot(self, Y: list) -> list:
        """``sum_B (lo + hi)[A][B] Y_B`` per row."""
        return [sum(map(mul, row, Y)) for row in self.sums()]

    def near(self, other: ListQ) -> list:
        """``sum_B max(hi - lo', hi' - lo)`` per row."""
        return [sum(max(h1 - l2, h2 - l1) for l1, h1, l2, h2 in zip(a, b, c, d, strict=True))
                for a, b, c, d in zip(self.lo, self.hi, other.lo, other.hi, strict=True)]


def _enclosures() -> tuple:
    """The enclosure types a verified solve accepts as they are (:class:`ListQ`, :class:`._grid.LimbQ`); any other
    pair of ends is wrapped in a :class:`ListQ`.  Read once, into ``_ENCLOSURES``, when this module loads."""
    from ._grid import LimbQ
    return (ListQ, LimbQ)


def _enc(Qlo, Qhi):
    """The enclosure object of ``(Qlo, Qhi)`` lists, or ``Qlo`` itself when it is one (``Qhi`` None)."""
    if Qhi is None:
        if not isinstance(Qlo, _ENCLOSURES):
            raise TypeError("an enclosure object or two integer matrices")
        return Qlo
    return ListQ(Qlo, Qhi)


def _residual_bound(Q, Y, ye, M, re, rhs_q) -> list:
    """Exact upper bounds of ``|R (b - Q y~)|_i`` for every ``Q`` in the enclosure."""
    # Q y~ in [mid2 -/+ rad2] 2^(ye - S - 1), exactly
    ymax = max(map(abs, Y), default=0)
    mid2 = Q.mid_dot(Y)
    # sum_B (hi - lo) |Y_B| <= max |Y| sum_B (hi - lo): k^2 small-integer additions instead of products
    rad2 = [w * ymax for w in Q.widths()]
    b = [Fraction(v) for v in rhs_q]
    den = math.lcm(*(v.denominator for v in b))
    sh = _S + 1 - ye                            # scale: everything times 2^sh * den
    if sh < 0:
        raise NotHere("an approximate solution coarser than the enclosure of Q")
    N = [v.numerator * (den // v.denominator) * 2**sh - m * den for v, m in zip(b, mid2, strict=True)]
    rmax = max(rad2, default=0) * den
    scale = Fraction(2) ** re / (den * 2**sh)
    out = []
    for row in M:
        s = abs(sum(map(mul, row, N))) + sum(map(abs, row)) * rmax      # sum_j |R_ij| Rad_j <= |R_i| max Rad
        out.append(s * scale)
    return out


def solve_grid(spec: dict, level: dict, rhs_q: tuple, lo_level: dict | None = None) -> dict:
    """The verified solve of ``Q y = rhs_q`` on the orbit quotient of a described unit grid (:mod:`._grid`),
    everything computed here: ``Q`` enclosed from the grid's definition, ``R`` and ``y~`` by floating point (a
    guess), then Rump's bound (module docstring, step 3).  With ``lo_level`` the same ``R`` is verified at a
    second level by the perturbation bound (both ends of a threshold bracket).

    Returns ``{"grid", "k", "ys", "errs", "beta"}`` (and ``"lo": (ys, errs, beta)`` with ``lo_level``); the
    last few results are kept (a tight certificate and the utility comparison at its level solve one system).

    Examples
    --------
    >>> out = solve_grid({"kind": "grid", "shape": [2, 2], "norm": "manhattan"}, {"eps": "1"}, (Fraction(1),))
    >>> y, err = out["ys"][0], out["errs"][0]         # z = 1 / (1 + 2/e + 1/e^2) = 0.5344...
    >>> round(float(y), 10), err < Fraction(1, 10**25)
    (0.5344466454, True)
    """
    from ._grid import Grid

    key = (repr(spec), repr(sorted(level.items())), tuple(rhs_q), repr(sorted(lo_level.items())) if lo_level else None)
    hit = _SOLVES.get(key)
    if hit is not None:
        return hit
    g = Grid(spec)
    if len(rhs_q) != g.k:
        raise Refuted("the right-hand side is not one value per orbit")
    Q = g.enclosure(_grid_factors(level, g))
    R = Inverse.of(Q)
    gv = R.verify(Q)
    b = list(rhs_q)
    ys, errs, beta = enclosed_solution(Q, None, R, gv, approximate_solution(Q, None, R, b), b)
    out = {"grid": g, "k": g.k, "ys": ys, "errs": errs, "beta": beta}
    if lo_level is not None:
        L = g.enclosure(_grid_factors(lo_level, g))
        gl = R.verify_near(gv, Q, L)
        out["lo"] = enclosed_solution(L, None, R, gl, approximate_solution(L, None, R, b), b)
    if len(_SOLVES) >= 8:
        _SOLVES.pop(next(iter(_SOLVES)))
    _SOLVES[key] = out
    return out


_ENCLOSURES: tuple = ()

#: the last verified grid solves (inputs -> results derived here; never anything read from a certificate)
_SOLVES: dict = {}

_ENCLOSURES = _enclosures()
