"""The threshold eps: the smallest level at which a tight-constraints mechanism exists (ECP14 sec. 6, 7).

By Prop. 8 it is also the smallest eps at which the uniform prior is regular.

* **exact** (small metrics with integer distances): ``z(alpha) = Phi(alpha)^-1 1`` by
  Cramer's rule as exact polynomials in alpha; the first alpha in (0, 1) at
  which some ``z_i`` turns negative is an algebraic number, isolated exactly,
  and ``eps* = -log(alpha*)``;
* **certified bracket** (any size): floats *guide* a bisection on eps; then two
  rational levels ``lo < hi`` with ``hi - lo <= width`` are certified with Arb:
  at ``hi`` every ``z_i`` is certified positive (a tight-constraints mechanism
  exists), at ``lo`` some ``z_i`` is certified negative (none exists).

The certificate states exactly what was certified: existence at ``hi`` and
non-existence at ``lo`` (and, for the exact form, the sign of every ``z_i`` on
all of (0, 1)).
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from flint import fmpq, fmpq_poly

from ..certificate import UNDECIDED, Certificate, Method
from ..certificate.ecp14 import ThresholdEvidence, distance_data
from ..errors import ExactDPError, Undecided
from ..exact.decide import float_bounds
from ..exact.level import Level
from ..exact.symbolic import AlphaSet, sign_pieces_poly
from .regular import ball_size_symmetric, tight_constraints

__all__ = ["threshold", "exact_threshold"]


def _float_distances(metric):
    n = len(metric)
    D = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            d = metric.d(i, j)
            D[i, j] = np.inf if d == math.inf else sum(float_bounds(d)) / 2
    return D


def _zmin(D, eps):
    Phi = np.exp(-eps * D)
    try:
        return float(np.linalg.solve(Phi, np.ones(len(D))).min())
    except np.linalg.LinAlgError:
        return float("nan")


def _float_threshold(D, rel=1e-13):
    hi = 1.0
    while _zmin(D, hi) <= 0:
        hi *= 2
        if hi > 1e6:
            raise Undecided("no level up to 1e6 gives z >= 0 in floating point")
    lo = hi / 2
    while _zmin(D, lo) > 0:
        hi, lo = lo, lo / 2
        if lo < 1e-9:
            return 0.0
    while hi - lo > rel * hi:
        mid = (lo + hi) / 2
        if _zmin(D, mid) > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def exact_threshold(metric, max_points: int = 9):
    """``(alpha_star, eps_text, failure_set)`` for a small metric with integer distances, or None."""
    n = len(metric)
    if n > max_points:
        return None
    a = sp.Symbol("a")
    rows = []
    for i in range(n):
        row = []
        for j in range(n):
            d = metric.d(i, j)
            if d == math.inf:
                row.append(sp.Integer(0))
                continue
            if not isinstance(d, fmpq) or d.q != 1:
                return None
            row.append(a ** int(d.p))
        rows.append(row)
    M = sp.Matrix(rows)
    det = sp.Poly(M.det(method="berkowitz"), a)
    if det.is_zero:
        return None
    pieces = []
    for i in range(n):
        Mi = M.copy()
        Mi[:, i] = sp.ones(n, 1)
        num = sp.Poly(Mi.det(method="berkowitz"), a)
        prod = (num * det).all_coeffs()[::-1]
        p = fmpq_poly([fmpq(int(sp.Rational(c).p), int(sp.Rational(c).q)) for c in prod])
        pieces += [pc for pc in sign_pieces_poly(p) if pc.sign < 0]
    fails = AlphaSet(pieces)
    if fails.is_empty():
        return None, "0", fails
    first = fails.pieces[0].lo
    return first, ("log(" + str(1 / sp.Rational(first.a)) + ")" if first.is_rational()
                   else f"-log({first})"), fails


def threshold(metric, width=fmpq(1, 10**9)) -> Certificate:
    """The smallest eps at which a tight-constraints mechanism exists (see the module docstring).

    Parameters
    ----------
    metric : FiniteMetric
    width : rational
        Width of the certified bracket.

    Returns
    -------
    Certificate
        Kind ``threshold``: ``evidence.lo``, ``evidence.hi`` (decimal text of the certified rational levels)
        and ``evidence.exact`` (the exact value when Cramer's rule applies, else ``None``); ``route`` is
        ``"symmetric"`` when Prop. 9 gives threshold 0.

    References
    ----------
    ECP14 Props. 8-9, sec. 7.
    """
    width = fmpq(width)
    claim = f"the threshold eps for a tight-constraints mechanism on the {metric.description}"
    none = dict(lo=None, hi=None, lo_rational=None, hi_rational=None, exact=None, exact_failure_set=None,
                negative_at_lo=None, z_at_lo=None, solver="")
    if ball_size_symmetric(metric):
        ev = ThresholdEvidence(description=metric.description, route="symmetric", distances=distance_data(metric),
                               **{**none, "lo": "0", "hi": "0", "exact": "0"})
        return Certificate("threshold", True, Method.CLOSED_FORM, claim, ev, note="ECP14 Prop. 9")
    ex = None
    try:
        ex = exact_threshold(metric)
    except (ExactDPError, ValueError, ZeroDivisionError, sp.PolynomialError):
        ex = None  # the exact route is optional; the certified bracket below does not depend on it
    base = dict(description=metric.description, route="bracket", distances=None)
    D = _float_distances(metric)
    e0 = _float_threshold(D)
    if e0 == 0.0:
        return Certificate("threshold", UNDECIDED, Method.NONE, claim, ThresholdEvidence(**base, **none),
                           reason="z stays positive down to eps = 1e-9 in floating point")
    scale = 10 ** (int(-math.log10(float(width))) + 2)
    for attempt in range(6):
        spread = float(width) * (2 ** attempt) / 4
        hi = fmpq(math.ceil((e0 + spread) * scale), scale)
        lo = hi - width * (2 ** attempt) if attempt else hi - width
        c_hi = tight_constraints(metric, Level.from_eps(str(hi)))
        c_lo = tight_constraints(metric, Level.from_eps(str(lo)))
        if c_hi.holds is True and c_lo.holds is False:
            break
    else:
        return Certificate("threshold", UNDECIDED, Method.NONE, claim,
                           ThresholdEvidence(**base, **{**none, "exact": ex[1] if ex and ex[0] is not None else None}),
                           reason="the float guide could not be certified at its bracket")
    e_lo = c_lo.evidence
    neg = e_lo.negative[0]
    exact = ex is not None and ex[0] is not None
    ev = ThresholdEvidence(**base, lo=_dec(lo), hi=_dec(hi), lo_rational=str(lo), hi_rational=str(hi),
                           exact=ex[1] if exact else None, exact_failure_set=str(ex[2]) if exact else None,
                           negative_at_lo=neg, z_at_lo=e_lo.z[[str(p) for p in metric.points].index(neg)],
                           solver=c_hi.evidence.solver)
    return Certificate("threshold", True, c_hi.method, claim, ev, precision=c_hi.precision)


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
