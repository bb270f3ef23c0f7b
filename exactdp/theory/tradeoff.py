"""KL10's privacy--utility tradeoff ``eps*(gamma, delta)`` (Def. 2.3) by exact linear programming.

For ``t = e^eps`` rational, a mechanism ``M: X -> Delta(Y)`` that is
eps-private (KL10 Def. 2.2, eq. (1)) is a point of the polytope

    M_x(y) >= 0,   sum_y M_x(y) = 1,   M_x(y) <= t^rho(x, x') M_x'(y)

(generating pairs of ``rho`` in both directions suffice; integer distances make
``t^rho`` rational).  :func:`utility_lp` solves

    s*(t) = max s   subject to   s <= M_x(B(f(x), gamma)) for every x

exactly (:func:`exactdp.exact.lp.solve_lp`: primal, dual and zero gap checked
in rationals).  The LP is always feasible (constant rows are private) and
bounded (``s <= 1``), so it never needs an infeasibility answer: a
``t``-private mechanism with ``(gamma, delta)``-utility exists iff
``s*(t) >= 1 - delta``, and when it does not, the dual solution is the exact
certificate (weak duality: every ``t``-private mechanism has worst ball mass
``<= s*(t) < 1 - delta``).  ``solve_lp`` reports infeasibility only as
``Undecided`` and returns no Farkas ray -- this formulation avoids needing one.

``s*(t)`` is non-decreasing in ``t`` (the constraints relax), so
``eps*(gamma, delta) = log t*`` with ``t* = min {t >= 1 : s*(t) >= 1 - delta}``
(0 when constant mechanisms already suffice; the minimum is attained by
compactness).  :func:`certify_tradeoff` brackets ``t*`` between rational end
points, each with its exact LP certificate.

Closed form on the discrete metric (``X = Y``, ``f = id``, ``n`` points, a
ball containing only its centre): by symmetry (averaging an optimal mechanism
over the permutations of the points keeps it feasible and does not lower the
worst ball mass) the optimum is randomized response ``M_x(x) = p``,
``M_x(y) = (1 - p)/(n - 1)`` with ``p <= t (1 - p)/(n - 1)``, so
``s*(t) = t/(t + n - 1)`` and

    eps*(gamma, delta) = log((1 - delta)(n - 1)/delta)    (0 if that is <= 0).

>>> from exactdp.metrics import discrete
>>> from flint import fmpq
>>> utility_lp(discrete(3), fmpq(4), gamma="1", delta="1/5").value    # 4/(4 + 2)
2/3
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from flint import fmpq

from ..certificate import Certificate, Method, mechanism_data, metric_data
from ..certificate.ecp14 import LPData, distance_data
from ..certificate.kl10 import TradeoffEvidence
from ..errors import InputTooLarge, InvalidInput, Undecided
from ..exact.decide import exact_str
from ..exact.lp import MAX_LP_SIZE, LinearProgram, solve_lp
from ..mechanism import mechanism_from_values
from .utility import _check_ball, _f_index, _gamma_delta, _in_ball

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = ["utility_lp", "UtilityLP", "certify_tradeoff", "discrete_tradeoff", "tradeoff_route",
           "MAX_RANGE_BITS"]

#: the float guide's reach: the optimal mechanism's entries span ``t^D`` (``D`` the diameter), and HiGHS's
#: basis is rebuilt exactly only while that range fits a double's mantissa.  Measured on paths (gamma = 1,
#: delta = 1/5): ``t^D`` = 2^49 (path 50, t = 2) and 2^54 (path 19, t = 8) solve in under a second; 2^57
#: (path 20, t = 8), 2^58 (path 30, t = 4) and 2^59 (path 60, t = 2) ran past 40 s in exact pivots from a
#: wrong basis.  Beyond it the route stops with the bracket it has, instead of running unbounded.
MAX_RANGE_BITS = 56


def _integer_distance(d):
    if not isinstance(d, fmpq) or d.q != 1:
        raise Undecided(f"tradeoff: distance {exact_str(d)} is not an integer; the route (exact LPs at rational "
                        "t = e^eps) needs t^d rational for every generating distance d, so it supports integer "
                        "distances only (not supported, not bad input: the metric is valid)")
    return int(d.p)


def tradeoff_route(metric: FiniteMetric, output_metric: FiniteMetric | None = None) -> dict:
    """The cost of :func:`certify_tradeoff`'s route, estimated before anything is built; refuses what it cannot do.

    Returns
    -------
    dict
        ``variables`` and ``nonzeros`` of each LP (the exact solve's limit is
        :data:`~exactdp.exact.lp.MAX_LP_SIZE` on their sum), ``diameter`` (an
        integer ``D``: the LPs at ``t`` resolve entries spanning ``t^D``).

    Raises
    ------
    Undecided
        A generating distance that is not an integer (``t^d`` irrational for every rational ``t > 1``).
    InputTooLarge
        The LP exceeds the exact solver's size limit, or ``2^D`` (the range at the smallest ``t > 1`` the search
        tries) exceeds ``2^MAX_RANGE_BITS``; the message gives the numbers.

    Examples
    --------
    >>> from exactdp.metrics import discrete, path
    >>> tradeoff_route(discrete(3))
    {'variables': 10, 'nonzeros': 57, 'diameter': 1}
    >>> tradeoff_route(discrete(300))
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: tradeoff: each exact LP would have 90,001 variables and up to 54,000,300 nonzeros (300 inputs x 300 outputs, 44,850 generating pairs); the exact LP solver's limit is 400,000 variables plus nonzeros
    """
    Y = metric if output_metric is None else output_metric
    nX, nY = len(metric), len(Y)
    pairs = metric.generating_pairs()
    for _, _, d in pairs:
        _integer_distance(d)
    nvar = nX * nY + 1
    nnz = nX * nY + 4 * len(pairs) * nY + nX * (nY + 1)
    if nvar + nnz > MAX_LP_SIZE:
        raise InputTooLarge(f"tradeoff: each exact LP would have {nvar:,} variables and up to {nnz:,} nonzeros "
                            f"({nX:,} inputs x {nY:,} outputs, {len(pairs):,} generating pairs); the exact LP "
                            f"solver's limit is {MAX_LP_SIZE:,} variables plus nonzeros")
    D = max((_integer_distance(d) for d in _diameter_candidates(metric)), default=0)
    if D > MAX_RANGE_BITS:
        raise InputTooLarge(f"tradeoff: the metric's diameter is {D:,}, so already at t = 2 (the first step of the "
                            f"search) the optimal mechanism's entries span 2^{D:,}; the float-guided exact LP "
                            f"resolves ranges t^D up to 2^{MAX_RANGE_BITS} (diameter at most {MAX_RANGE_BITS} at "
                            "t = 2, less when eps* is larger)")
    return {"variables": nvar, "nonzeros": nnz, "diameter": D}


def _diameter_candidates(metric):
    """The metric's largest finite distance (a one-element list), [] for one point."""
    return [metric.diameter()] if len(metric) > 1 else []


class UtilityLP:
    """``s*(t)`` with its exactly verified LP solution and the optimal mechanism."""

    def __init__(self, t, value, mechanism, solution):
        self.t, self.value, self.mechanism, self.solution = t, value, mechanism, solution


def _build(metric, Y, fx, t, g, ball):
    nX, nY = len(metric), len(Y)
    N = nX * nY
    c = [fmpq(0)] * N + [fmpq(-1)]
    A_eq = [{x * nY + y: 1 for y in range(nY)} for x in range(nX)]
    b_eq = [fmpq(1)] * nX
    A_ub, b_ub = [], []
    for i, j, d in metric.generating_pairs():
        f = t ** _integer_distance(d)
        for a, b in ((i, j), (j, i)):
            for y in range(nY):
                A_ub.append({a * nY + y: 1, b * nY + y: -f})
                b_ub.append(fmpq(0))
    for x in range(nX):
        row = {N: 1}
        for y in range(nY):
            if _in_ball(Y.d(fx[x], y), g, ball):
                row[x * nY + y] = -1
        A_ub.append(row)
        b_ub.append(fmpq(0))
    # float-solve guide only: optimal entries decay like t^-sigma(f(x), y), so scale the columns that way
    tf = float(t)
    scale = [max(tf ** -min(float(Y.d(fx[x], y)), 600.0), 1e-250) for x in range(nX) for y in range(nY)] + [1.0]
    return LinearProgram(c=c, A_eq=A_eq, b_eq=b_eq, A_ub=A_ub, b_ub=b_ub, scale=scale)


def utility_lp(metric: FiniteMetric, t: Any, *, gamma: Any, delta: Any = None,
               output_metric: FiniteMetric | None = None, f: Any = None, ball: str = "open") -> UtilityLP:
    """``s*(t) = max over t-private M of min_x M_x(B(f(x), gamma))``, exactly.

    Parameters
    ----------
    metric : FiniteMetric
        ``(X, rho)`` with integer generating distances.
    t : rational > 0... ``t >= 1``
        ``t = e^eps``.
    gamma : exact number > 0
    delta : unused (accepted for symmetry with :func:`certify_tradeoff`)
    output_metric, f, ball :
        ``(Y, sigma)`` (default ``metric``), ``f: X -> Y`` (default identity),
        ``"open"`` or ``"closed"`` balls.

    Returns
    -------
    UtilityLP
        ``value`` (``fmpq``), the optimal ``mechanism`` and the verified
        ``solution`` (with its dual).
    """
    _check_ball(ball)
    t = fmpq(t) if not isinstance(t, fmpq) else t
    if t < 1:
        raise InvalidInput(f"t: expected t = e^eps >= 1, got {t}")
    g, _ = _gamma_delta(gamma, delta if delta is not None else "1/2")
    Y = metric if output_metric is None else output_metric
    fx = _f_index(f, metric, Y)
    lp = _build(metric, Y, fx, t, g, ball)
    sol = solve_lp(lp)
    nY = len(Y)
    rows = [[sol.x[x * nY + y] for y in range(nY)] for x in range(len(metric))]
    M = mechanism_from_values(metric.points, Y.points, rows, name=f"optimal mechanism at t = {t}")
    return UtilityLP(t, -sol.value, M, sol)


def discrete_tradeoff(n: int, delta: Any) -> fmpq:
    """``t* = (1 - delta)(n - 1)/delta`` on the discrete metric with singleton balls (1 if that is below 1)."""
    d = fmpq(delta) if not isinstance(delta, fmpq) else delta
    t = (1 - d) * (n - 1) / d
    return t if t > 1 else fmpq(1)


def certify_tradeoff(metric: FiniteMetric, *, gamma: Any, delta: Any, output_metric: FiniteMetric | None = None,
                     f: Any = None, ball: str = "open", rel_width: Any = "1/64",
                     max_steps: int = 40, progress: Any = None) -> Certificate[TradeoffEvidence]:
    """KL10 Def. 2.3: bracket ``eps*(gamma, delta) = log t*`` by exact LPs at rational ``t``.

    The route's cost is checked first (:func:`tradeoff_route`); ``progress(stage, done, total)``, when given, is
    called before each LP (``done`` LPs solved of at most ``total``).

    Returns
    -------
    Certificate
        ``kind = "tradeoff"``; evidence: ``t_lower`` (``s*(t_lower) < 1 - delta``,
        certified by the LP dual), ``t_upper`` (``s*(t_upper) >= 1 - delta``,
        certified by the optimal mechanism, included as ``mechanism``),
        ``epsilon`` (``"0"`` when constant mechanisms suffice, else None) and
        ``epsilon_bracket``; ``s_lower``, ``s_upper``; both LPs with their duals.

    Raises
    ------
    InputTooLarge
        Beyond the route's reach (see :func:`tradeoff_route`), up front, or when the doubling search reaches a
        ``t`` with ``t^D > 2^MAX_RANGE_BITS`` (the message gives the certified lower end found so far).
    Undecided
        A distance that is not an integer.

    References
    ----------
    KL10 Def. 2.2 and 2.3.
    """
    g, d = _gamma_delta(gamma, delta)
    target = 1 - d
    width = fmpq(rel_width) if not isinstance(rel_width, fmpq) else rel_width
    D = tradeoff_route(metric, output_metric)["diameter"]
    solved = [0]

    def s(t):
        if D and D * math.log2(float(t)) > MAX_RANGE_BITS:
            raise InputTooLarge(f"tradeoff: eps* > log({exact_str(lo.t)}) (certified by the exact LP at t = "
                                f"{exact_str(lo.t)}); the next LP, at t = {exact_str(t)}, would resolve entries "
                                f"spanning t^{D} = 2^{D * math.log2(float(t)):.0f}, beyond the float-guided exact "
                                f"LP's reach of 2^{MAX_RANGE_BITS}")
        if progress is not None:
            progress(f"exact LP at t = {exact_str(t)}", solved[0], max_steps + 1)
        u = utility_lp(metric, t, gamma=g, delta=d, output_metric=output_metric, f=f, ball=ball)
        solved[0] += 1
        return u

    lo = s(fmpq(1))
    if lo.value >= target:
        return _tradeoff_cert(metric, g, d, ball, None, lo, 0, output_metric, f)
    t_lo, hi = fmpq(1), s(fmpq(2))
    steps = 1
    while hi.value < target:
        t_lo, lo = hi.t, hi
        hi = s(hi.t * 2)
        steps += 1
        if steps > max_steps:
            raise InvalidInput("tradeoff: no private mechanism with this utility was found below t = 2^40")
    while (hi.t - lo.t) > width * lo.t and steps < max_steps:
        mid = _simple_between(lo.t, hi.t)
        m = s(mid)
        steps += 1
        if m.value >= target:
            hi = m
        else:
            lo = m
    return _tradeoff_cert(metric, g, d, ball, lo, hi, steps, output_metric, f)


def _simple_between(a: fmpq, b: fmpq) -> fmpq:
    """The rational with the smallest denominator strictly between ``a < b`` (Stern--Brocot)."""
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 0
    while True:
        mn, md = lo_n + hi_n, lo_d + hi_d
        m = fmpq(mn, md)
        if m <= a:
            lo_n, lo_d = mn, md
        elif m >= b:
            hi_n, hi_d = mn, md
        else:
            return m


def _lp_data(u):
    sol = u.solution
    return LPData(value=exact_str(sol.value), x=[exact_str(v) for v in sol.x], y=[exact_str(v) for v in sol.y],
                  lam=[exact_str(v) for v in sol.lam])


def _tradeoff_cert(metric, g, d, ball, lo, hi, steps_used, output_metric=None, f=None):
    target = 1 - d
    Y = metric if output_metric is None else output_metric
    fx = _f_index(f, metric, Y)
    sigma = [[exact_str(Y.d(fx[x], y)) for y in range(len(Y))] for x in range(len(metric))]
    common = dict(inputs=list(metric.points), outputs=list(Y.points), metric=metric_data(metric),
                  output=distance_data(Y), f={str(metric.points[x]): str(Y.points[fx[x]]) for x in range(len(metric))},
                  sigma=sigma,
                  gamma=exact_str(g), delta=exact_str(d), ball=ball, target=exact_str(target),
                  t_upper=exact_str(hi.t), s_upper=exact_str(hi.value), lp_upper=_lp_data(hi),
                  mechanism=mechanism_data(hi.mechanism))
    if lo is None:
        ev = TradeoffEvidence(**common, epsilon="0", epsilon_bracket=["0", "0"], t_lower=None, s_lower=None,
                              lp_lower=None)
    else:
        ev = TradeoffEvidence(**common, epsilon=None,
                              epsilon_bracket=[f"log({exact_str(lo.t)})", f"log({exact_str(hi.t)})"],
                              t_lower=exact_str(lo.t), s_lower=exact_str(lo.value), lp_lower=_lp_data(lo))
    return Certificate("tradeoff", True, Method.EXACT_LP, f"eps*(gamma = {exact_str(g)}, delta = {exact_str(d)}) on "
                       f"the {metric.description} ({ball} balls)", ev, note=f"{steps_used + 1} exact LPs; {hi.solution.method}")
