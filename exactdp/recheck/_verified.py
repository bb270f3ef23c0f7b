"""Re-check a solve of ``Phi x = b`` at a transcendental level on the quotient of an equitable partition.

ECP14 Def. 3: ``phi_yy' = e^(-eps d(y, y'))``.  The certificate carries the full distance matrix, a partition
``cell_of`` of the points, an approximate solution ``y~`` of the quotient system (exact dyadics) and an
approximate inverse ``R`` of the quotient (exact dyadics).  Nothing of it is trusted:

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
   With ``Qf`` the double nearest to the midpoint of each entry, ``C = fl(R Qf)`` is computed in IEEE double
   (each entry a dot product of correctly rounded products, summed by Python's ``sum`` -- recursive
   summation up to CPython 3.11 -- or :func:`math.fsum` from 3.12 on, where ``sum`` changed its algorithm).
   Either way ``|c_ij - (R Qf)_ij| <= 2u|c_ij| + gamma_k sum_l |R_il| |Qf_lj| + 2k eta`` with
   ``u = 2^-53``, ``gamma_k = k u / (1 - k u)``, ``eta = 2^-1074`` (underflow of a product; Higham's model
   ``fl(xy) = xy(1 + d) + e``).  ``|1 - c_ii|`` is exact when ``1/2 <= c_ii <= 2`` (Sterbenz; required).
   With ``|Q - Qf| <= dQ`` entrywise (the enclosure's half-width plus the rounding of the midpoint),
   the row sums of ``|I - R Q|`` are bounded by
   ``g_i = sum_j |d_ij - c_ij| + 2u sum_j |c_ij| + gamma_k |R_i| (|Qf| 1) + |R_i| (dQ 1) + 2k^2 eta``.
   Every such sum of non-negative doubles is bounded above in exact rationals (``math.fsum`` is correctly
   rounded: ``S <= fsum (1 + 2^-51)``; a sum of products: ``S <= fsum (1 + 2^-50) + 2k eta``).
   If ``beta = max g_i < 1``, ``Q`` is nonsingular and, for the exact solution ``y``,
   ``|y - y~| <= |R r| + g delta`` componentwise with ``delta = ||R r||_inf / (1 - beta)``, where the residual
   ``r = b - Q y~`` is enclosed in exact integer arithmetic from ``[Qlo, Qhi]`` and ``R r`` is bounded exactly.
   A sign is certified when ``|y~_i|`` exceeds that bound; otherwise the coordinate is not decided here.

Imports only the standard library, mpmath and this package's kernel.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from fractions import Fraction
from operator import mul

import mpmath
from mpmath import libmp
from mpmath.ctx_iv import MPIntervalContext

from ._kernel import NotHere, _div, _iv, level_factor
from ._kernel import check_codes as kernel_check_codes

__all__ = ["quotient", "enclose_quotient", "Inverse", "certified_signs", "enclosed_solution", "Refuted", "short"]

_U = Fraction(1, 2**53)
_ETA = Fraction(1, 2**1074)
#: the float dot product whose error is bounded above (see the module docstring)
_DOT = sum if sys.version_info < (3, 12) else math.fsum
#: bits of the fixed-point enclosure of Q
_S = 110


class Refuted(ValueError):
    """The evidence contradicts itself (a partition that is not equitable, a malformed vector, ...)."""


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
    if any(list(col) != row for col, row in zip(zip(*codes), codes)):
        raise Refuted("the distance matrix is not symmetric")
    counts: list = [None] * k
    rhs_q: list = [None] * k
    for i, row in enumerate(codes):
        a = cell_of[i]
        sig = Counter(zip(cell_of, row))
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
    on a quotient enclosed by ``[Qlo, Qhi] 2^-S``."""

    def __init__(self, data: dict, k: int):
        e, M = _dyadics(data, k)
        if any(len(r) != k or not all(isinstance(v, int) and abs(v) < 2**53 for v in r) for r in M):
            raise Refuted("the approximate inverse is not a k x k matrix of integers below 2^53")
        if e < -1000 + 53 or e > 900:
            raise NotHere("the approximate inverse's scale is outside the double range")
        self.M, self.exp, self.k = M, e, k
        self.Rf = [[math.ldexp(v, e) for v in row] for row in M]
        self.absR = [[abs(v) for v in row] for row in self.Rf]

    def verify(self, Qlo, Qhi) -> list:
        """Exact upper bounds of the row sums of ``|I - R Q|`` (a k^3 float product, bounded)."""
        return _defect_rows(self, Qlo, Qhi)

    def verify_near(self, g_ref: list, ref: tuple, Qlo, Qhi) -> list:
        """The same bounds for a nearby ``Q`` from those of a reference ``Q_ref`` (enclosed by ``ref``):
        ``|I - R Q| <= |I - R Q_ref| + |R| |Q - Q_ref|`` entrywise -- k^2 work instead of k^3."""
        rlo, rhi = ref
        w = [_up_float(Fraction(sum(max(h - l2, h2 - l) for l, h, l2, h2 in zip(a, b, c, d)), 2**_S))
             for a, b, c, d in zip(Qlo, Qhi, rlo, rhi)]
        return [g + _up_dot(ar, w) for g, ar in zip(g_ref, self.absR)]


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
    for i, (yi, err) in enumerate(zip(ys, errs)):
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
    Rr = _residual_bound(Qlo, Qhi, Y, ye, R.M, R.exp, rhs_q)
    delta = max(Rr) / (1 - beta)
    scale = Fraction(2) ** ye
    return [Fraction(v) * scale for v in Y], [Rr[i] + g[i] * delta for i in range(k)], beta


def short(x: Fraction) -> str:
    """Three significant digits of an exact rational for a message (no float conversion: it may overflow)."""
    return mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 3)


def _defect_rows(R: Inverse, Qlo, Qhi) -> list:
    """Exact upper bounds ``g_i`` of the row sums of ``|I - R Q|`` (module docstring, step 3)."""
    k, Rf, absR = R.k, R.Rf, R.absR
    two = 2 ** (_S + 1)
    Qf = [[(lo + hi) / two for lo, hi in zip(rl, rh)] for rl, rh in zip(Qlo, Qhi)]
    QT = list(zip(*Qf))
    # dQ 1: half-widths of the enclosure plus the rounding of each midpoint to a double (Qf >= 0)
    q1 = [_up_fsum(r) for r in Qf]
    dq1 = [Fraction(sum(hi - lo for lo, hi in zip(rl, rh)), two) + 2 * _U * q + 2 * k * _ETA
           for rl, rh, q in zip(Qlo, Qhi, q1)]
    q1f = [_up_float(v) for v in q1]
    dq1f = [_up_float(v) for v in dq1]
    gamma = Fraction(k, 2**53 - k)
    g = []
    for i in range(k):
        Ri = Rf[i]
        c = [_DOT(map(mul, Ri, col)) for col in QT]
        cii = c[i]
        if not 0.5 <= cii <= 2.0:
            raise NotHere("the approximate inverse is too far from Q^-1 (a diagonal of R Q outside [1/2, 2])")
        c[i] = 1.0 - cii                      # exact (Sterbenz)
        t = _up_fsum(abs(v) for v in c)
        c[i] = cii
        t += 2 * _U * _up_fsum(abs(v) for v in c)
        t += gamma * _up_dot(absR[i], q1f) + _up_dot(absR[i], dq1f) + 2 * k * k * _ETA
        g.append(t)
    return g


def _residual_bound(Qlo, Qhi, Y, ye, M, re, rhs_q) -> list:
    """Exact upper bounds of ``|R (b - Q y~)|_i`` for every ``Q`` in the enclosure."""
    k = len(Y)
    # Q y~ in [mid2 -/+ rad2] 2^(ye - S - 1), exactly
    absY = [abs(v) for v in Y]
    mid2 = [sum(map(mul, [lo + hi for lo, hi in zip(rl, rh)], Y)) for rl, rh in zip(Qlo, Qhi)]
    rad2 = [sum(map(mul, [hi - lo for lo, hi in zip(rl, rh)], absY)) for rl, rh in zip(Qlo, Qhi)]
    b = [Fraction(v) for v in rhs_q]
    den = math.lcm(*(v.denominator for v in b))
    sh = _S + 1 - ye                            # scale: everything times 2^sh * den
    if sh < 0:
        raise NotHere("an approximate solution coarser than the enclosure of Q")
    N = [v.numerator * (den // v.denominator) * 2**sh - m * den for v, m in zip(b, mid2)]
    Rad = [r * den for r in rad2]
    scale = Fraction(2) ** re / (den * 2**sh)
    out = []
    for row in M:
        s = abs(sum(map(mul, row, N))) + sum(map(mul, map(abs, row), Rad))
        out.append(s * scale)
    return out
