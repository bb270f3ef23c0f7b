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

import math
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import numpy as np
from flint import fmpq, fmpq_poly, fmpz_poly

from ..certificate import UNDECIDED, Certificate, Method
from ..certificate.priors import BracketEnds, ThresholdEvidence, VerifiedSolve, distance_data, metric_spec
from ..errors import ExactDPError, InputTooLarge, Undecided
from ..exact.decide import float_bounds
from ..exact.level import Level
from ..exact.verified_solve import blas_single_thread
from ..exact.symbolic import AlphaSet, sign_pieces_poly
from ..metrics.symmetry import quotient_counts
from .phi import PhiSystem
from .regular import _say, ball_size_symmetric, tight_constraints

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = ["MAX_EXACT_COST", "exact_threshold", "threshold"]


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
        its distance codes: :meth:`exactdp.theory.phi.Route.refusal`), before any work.

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
        ex = exact_threshold(metric)
    except (ExactDPError, ZeroDivisionError, sp.PolynomialError):
        ex = None  # the exact route is optional; the certified bracket below does not depend on it
    base: dict[str, Any] = dict(description=metric.description, distances=None)
    if ex is not None and ex[0] is None:
        how = PhiSystem(metric, Level.from_eps("1")).partition.how
        ev = ThresholdEvidence(**base, route="exact-polynomial", **zero)
        return Certificate("threshold", True, Method.SYMBOLIC_ROOTS, claim, ev, note=f"equitable partition: {how}")
    exact_text = ex[1] if ex is not None and ex[0] is not None else None
    return _bracket(metric, width, claim, base, none, ex, exact_text, progress)


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
