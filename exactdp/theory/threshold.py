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

from ..certificate import UNDECIDED, Certificate, Step
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

    ``data["threshold"]`` has ``lo``, ``hi`` (decimal strings of the certified rational levels) and ``exact``
    (the exact value when the exact method applies, else ``None``).
    """
    width = fmpq(width)
    claim = f"the threshold eps for a tight-constraints mechanism on the {metric.description}"
    steps = [Step("Definition", "ECP14 Prop. 8: a tight-constraints mechanism exists iff the uniform prior is "
                  "regular iff $\\Phi z = \\mathbf 1$ has a solution $z \\ge 0$; the threshold is the smallest such "
                  "$\\varepsilon$.")]
    if ball_size_symmetric(metric):
        steps.append(Step("Ball-size symmetry", "The metric is ball-size symmetric, so Prop. 9 gives a "
                          "tight-constraints mechanism for every $\\varepsilon > 0$: the threshold is 0."))
        return Certificate("threshold", claim, r"\varepsilon^* = 0", True, {}, "Prop. 9", steps,
                           {"threshold": {"lo": "0", "hi": "0", "exact": "0"}})
    ex = None
    try:
        ex = exact_threshold(metric)
    except (ExactDPError, ValueError, ZeroDivisionError, sp.PolynomialError):
        ex = None  # the exact route is optional; the certified bracket below does not depend on it
    D = _float_distances(metric)
    e0 = _float_threshold(D)
    if e0 == 0.0:
        return Certificate("threshold", claim, r"\varepsilon^* \approx 0", UNDECIDED,
                           {"reason": "z stays positive down to eps = 1e-9 in floating point"}, "float guide only",
                           steps, {"threshold": {"lo": None, "hi": None, "exact": None}})
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
        return Certificate("threshold", claim, r"\varepsilon^*", UNDECIDED,
                           {"reason": "the float guide could not be certified at its bracket"}, "undecided", steps,
                           {"threshold": {"lo": None, "hi": None, "exact": ex[1] if ex else None}})
    neg = c_lo.data["negative"][0]
    steps.append(Step("Certified bracket",
                      f"At $\\varepsilon = {hi}$ every $z_i$ is certified positive ({c_hi.data['method']}): a "
                      f"tight-constraints mechanism exists. At $\\varepsilon = {lo}$, $z_{{{metric.points[neg]}}} = "
                      f"{c_lo.data['z'][neg]} < 0$ (certified): none exists. Width {hi - lo}."))
    data = {"threshold": {"lo": _dec(lo), "hi": _dec(hi), "exact": None, "lo_rational": str(lo),
                          "hi_rational": str(hi), "negative_at_lo": metric.points[neg],
                          "z_at_lo": c_lo.data["z"][neg]}}
    if ex is not None and ex[0] is not None:
        data["threshold"]["exact"] = ex[1]
        steps.append(Step("Exact value", f"By Cramer's rule each $z_i(\\alpha)$ is a ratio of exact polynomials; the "
                          f"first $\\alpha$ in (0, 1) where one is negative is $\\alpha^* = {ex[0]}$, so "
                          f"$\\varepsilon^* = {ex[1]}$; the set of $\\alpha$ where some $z_i < 0$ is {ex[2]}."))
    return Certificate("threshold", claim, r"\varepsilon^* \in [\mathrm{lo}, \mathrm{hi}]", True, {},
                       "float-guided bisection; both ends certified by Arb ball solves", steps, data,
                       conclusion=f"threshold in [{_dec(lo)}, {_dec(hi)}]"
                       + (f", exactly {ex[1]}" if ex and ex[0] is not None else ""))


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
