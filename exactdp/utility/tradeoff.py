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
compactness).  :func:`certify_tradeoff` finds ``t*`` exactly: the LP's optimal
basis near ``t*`` makes ``s*(t)`` a rational function of ``t``
(:mod:`exactdp.priors.parametric`), and ``t*`` is the root of a
polynomial, proved by the basis' feasibility up to ``t*`` and rational ends
``a < t* < b`` with exact LPs; a bracket (with the reason) only when no basis
is proved.

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
from ..priors.evidence import LPData, distance_data
from .evidence import ParametricData, TradeoffEvidence
from ..errors import InputTooLarge, InvalidInput, Undecided
from ..exact.decide import exact_str
from ..exact.lp import MAX_LP_SIZE, LinearProgram
from ..mechanism import mechanism_from_values
from ..priors.parametric import SymbolicLP, _simple_between
from .utility import _check_ball, _f_index, _gamma_delta, _in_ball

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = [
    "MAX_PARAMETRIC_COLUMNS",
    "MAX_RANGE_BITS",
    "UtilityLP",
    "certify_tradeoff",
    "discrete_tradeoff",
    "tradeoff_route",
    "utility_lp",
]

#: the float guide's reach: the optimal mechanism's entries span ``t^D`` (``D`` the diameter), and HiGHS's
#: basis is rebuilt exactly only while that range fits a double's mantissa.  Measured on paths (gamma = 1,
#: delta = 1/5): ``t^D`` = 2^49 (path 50, t = 2) and 2^54 (path 19, t = 8) solve in under a second; 2^57
#: (path 20, t = 8), 2^58 (path 30, t = 4) and 2^59 (path 60, t = 2) ran past 40 s in exact pivots from a
#: wrong basis.  Beyond it the route stops with the bracket it has, instead of running unbounded.
MAX_RANGE_BITS = 56

#: largest number of basic structural columns made parametric (fraction-free elimination over Z[t] is cubic in
#: it; a discrete metric of 10 points, 101 columns, takes about a second)
MAX_PARAMETRIC_COLUMNS = 400


def _integer_distance(d):
    if not isinstance(d, fmpq) or d.q != 1:
        raise Undecided(f"tradeoff: distance {exact_str(d)} is not an integer; the route (exact LPs at rational "
                        "t = e^eps) needs t^d rational for every generating distance d, so it supports integer "
                        "distances only (not supported, not bad input: the metric is valid)")
    return int(d.p)


def tradeoff_route(metric: FiniteMetric, output_metric: FiniteMetric | None = None) -> dict:
    """The cost of :func:`certify_tradeoff`'s route, estimated before anything is built; refuses what it cannot do.

    Parameters
    ----------
    metric : FiniteMetric
        ``(X, rho)``, the input metric.
    output_metric : FiniteMetric, optional
        ``(Y, sigma)``; default ``metric``.

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
    exactdp.errors.InputTooLarge: tradeoff: each exact LP would have 90,001 variables and up to 54,000,300 nonzeros
    (300 inputs x 300 outputs, 44,850 generating pairs); the exact LP solver's limit is 400,000 variables plus
    nonzeros
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
    """``s*(t)`` with its exactly verified LP solution and the optimal mechanism.

    Built by :func:`utility_lp`.

    Parameters
    ----------
    t : fmpq
        ``t = e^eps``.
    value : fmpq
        ``s*(t)``, the LP's optimum.
    mechanism : Mechanism
        An optimal ``t``-private mechanism.
    solution : object
        The exactly verified LP solution, with its dual.

    Examples
    --------
    >>> from exactdp.metrics import discrete
    >>> u = utility_lp(discrete(3), 1, gamma="1/2")      # at t = 1 every row is the same: 1/3 is the best minimum
    >>> u.t, u.value
    (1, 1/3)
    """

    def __init__(self, t, value, mechanism, solution):
        self.t, self.value, self.mechanism, self.solution = t, value, mechanism, solution
        self.basis, self.sym = None, None


def _symbolic(metric, Y, fx, g, ball) -> SymbolicLP:
    """The utility LP with entries ``c t^d`` as ``(c, d)`` (the layout of :class:`TradeoffEvidence`)."""
    nX, nY = len(metric), len(Y)
    N = nX * nY
    c = [0] * N + [-1]
    A_eq = [{x * nY + y: (1, 0) for y in range(nY)} for x in range(nX)]
    A_ub, b_ub = [], []
    for i, j, d in metric.generating_pairs():
        k = _integer_distance(d)
        for a, b in ((i, j), (j, i)):
            for y in range(nY):
                A_ub.append({a * nY + y: (1, 0), b * nY + y: (-1, k)})
                b_ub.append(0)
    for x in range(nX):
        row = {N: (1, 0)}
        for y in range(nY):
            if _in_ball(Y.d(fx[x], y), g, ball):
                row[x * nY + y] = (-1, 0)
        A_ub.append(row)
        b_ub.append(0)
    return SymbolicLP(c, A_eq, [1] * nX, A_ub, b_ub)


def _build(metric, Y, fx, t, g, ball, sym=None):
    sym = sym if sym is not None else _symbolic(metric, Y, fx, g, ball)
    nX, nY = len(metric), len(Y)
    A_eq, A_ub = sym.at(t)
    # float-solve guide only: optimal entries decay like t^-sigma(f(x), y), so scale the columns that way
    tf = float(t)
    scale = [max(tf ** -min(float(Y.d(fx[x], y)), 600.0), 1e-250) for x in range(nX) for y in range(nY)] + [1.0]
    return LinearProgram(c=[fmpq(v) for v in sym.c], A_eq=A_eq, b_eq=[fmpq(v) for v in sym.b_eq], A_ub=A_ub,
                         b_ub=[fmpq(v) for v in sym.b_ub], scale=scale)


def _solve_with_basis(lp):
    """:func:`~exactdp.exact.lp.solve_lp`'s route (HiGHS basis, exact simplex, verified), keeping the final basis."""
    from ..exact.lp import _check_size, _finish, _method
    from ..exact.lp_float import float_basis
    from ..exact.lp_simplex import ExactSimplex, Optimal, StandardForm

    _check_size(lp)
    basis, _statuses = float_basis(lp)
    sf = StandardForm(lp)
    C, rows_b = basis if basis is not None else (set(), set(range(sf.m)))
    sim = ExactSimplex(sf, C, rows_b)
    res = sim.run(lp.c)
    sol = _finish(lp, res.x, res.y, res.lam, _method(res.pivots, basis is not None)) \
        if isinstance(res, Optimal) else None
    if sol is None:
        raise Undecided("internal error: the exact simplex produced a certificate that failed its exact check")
    return sol, set(sim.basic)


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

    Examples
    --------
    >>> from exactdp.metrics import discrete
    >>> utility_lp(discrete(3), 2, gamma="1/2").value     # diagonal t/(t + 2): a = 2b, a + 2b = 1
    1/2
    """
    _check_ball(ball)
    t = fmpq(t) if not isinstance(t, fmpq) else t
    if t < 1:
        raise InvalidInput(f"t: expected t = e^eps >= 1, got {t}")
    g, _ = _gamma_delta(gamma, delta if delta is not None else "1/2")
    Y = metric if output_metric is None else output_metric
    fx = _f_index(f, metric, Y)
    sym = _symbolic(metric, Y, fx, g, ball)
    sol, basis = _solve_with_basis(_build(metric, Y, fx, t, g, ball, sym))
    u = _utility(metric, Y, t, sol)
    u.basis, u.sym = basis, sym
    return u


def _utility(metric, Y, t, sol):
    nY = len(Y)
    rows = [[sol.x[x * nY + y] for y in range(nY)] for x in range(len(metric))]
    M = mechanism_from_values(metric.points, Y.points, rows, name=f"optimal mechanism at t = {exact_str(t)}")
    return UtilityLP(t, -sol.value, M, sol)


def discrete_tradeoff(n: int, delta: Any) -> fmpq:
    """``t* = (1 - delta)(n - 1)/delta`` on the discrete metric with singleton balls (1 if that is below 1).

    Parameters
    ----------
    n : int
        The number of points.
    delta : exact number
        The target is utility ``1 - delta``.

    Returns
    -------
    fmpq
        ``t*``.

    Examples
    --------
    >>> discrete_tradeoff(3, "1/4"), discrete_tradeoff(2, "3/4")      # 6; (1/4)(1)/(3/4) = 1/3 < 1
    (6, 1)
    """
    d = fmpq(delta) if not isinstance(delta, fmpq) else delta
    t = (1 - d) * (n - 1) / d
    return t if t > 1 else fmpq(1)


def _basis_too_wide(cur, width) -> str | None:
    """Why the parametric solve is not tried at this basis (too many basic columns), or None."""
    k = len([v for v in cur.basis if v[0] == "x"])
    if k <= MAX_PARAMETRIC_COLUMNS:
        return None
    return (f"the optimal basis has {k:,} basic columns; the parametric solve (fraction-free elimination over "
            f"Z[t]) is limited to {MAX_PARAMETRIC_COLUMNS:,}: a bracket of relative width {exact_str(width)}")


def certify_tradeoff(metric: FiniteMetric, *, gamma: Any, delta: Any, output_metric: FiniteMetric | None = None,
                     f: Any = None, ball: str = "open", rel_width: Any = "1/64",
                     max_steps: int = 40, progress: Any = None) -> Certificate[TradeoffEvidence]:
    """KL10 Def. 2.3: ``eps*(gamma, delta) = log t*`` exactly, from the utility LP's optimal basis at ``t*``.

    Exact LPs at rational ``t`` (``1``, then doubling) bound ``t*``; after each LP its optimal basis is made
    parametric (:mod:`exactdp.priors.parametric`): where it stays optimal, ``s*(t)`` is a rational
    function and ``t*`` a root of ``X_s(t) - (1 - delta) D(t)``.  When that root is proved (the basis primal and
    dual feasible on ``[a, t*]``, the root the only one in ``(a, b)``), ``epsilon`` is ``log`` of it: a rational
    or ``root of P in (a, b)``.  Otherwise the next LP is placed at a rational next to the basis' root (or
    halves the bracket); after ``max_steps`` LPs without a proof the answer is the bracket with its ``reason``.
    When the basis is too large for the parametric solve (more than :data:`MAX_PARAMETRIC_COLUMNS` basic
    columns) the LPs only bisect, until the bracket's relative width is below ``rel_width``.
    ``progress(stage, done, total)``, when given, is called before each LP.

    Parameters
    ----------
    metric : FiniteMetric
        ``(X, rho)`` with integer generating distances.
    gamma : exact number > 0
        The radius of the utility balls.
    delta : exact number in (0, 1)
        The target is ``s*(t) >= 1 - delta``.
    output_metric : FiniteMetric, optional
        ``(Y, sigma)``; default ``metric``.
    f : callable or dict, optional
        ``f: X -> Y``; default the identity.
    ball : {"open", "closed"}
        The utility balls.
    rel_width : exact number
        The relative width at which a bisecting search stops.
    max_steps : int
        The most LPs solved.
    progress : callable, optional
        ``progress(stage, done, total)``.

    Returns
    -------
    Certificate
        ``kind = "tradeoff"``; evidence: ``epsilon`` (``"0"``, ``"log(q)"``, ``"log(root of P in (a, b))"`` or
        None for a bracket), ``polynomial`` (``P``) and ``parametric`` (the basis' solution and duals as
        polynomials over common denominators), ``t_lower``/``t_upper`` (``a``, ``b``: ``s*(a) < 1 - delta <=
        s*(b)`` with both LPs and the optimal ``mechanism`` at ``b``), ``epsilon_bracket``.

    Raises
    ------
    InputTooLarge
        Beyond the route's reach (see :func:`tradeoff_route`), up front, or when the doubling search reaches a
        ``t`` with ``t^D > 2^MAX_RANGE_BITS`` (the message gives the certified lower end found so far).
    Undecided
        A distance that is not an integer.

    Examples
    --------
    >>> from exactdp.metrics import discrete, path
    >>> certify_tradeoff(discrete(3), gamma="1/2", delta="1/4").evidence.epsilon     # log((k-1)(1-delta)/delta)
    'log(6)'
    >>> certify_tradeoff(path(4), gamma="1", delta="1/2").evidence.epsilon       # t* = 1 + sqrt(2)
    'log(root of t^2 - 2*t - 1 in (7/3, 5/2))'

    References
    ----------
    KL10 Def. 2.2 and 2.3.
    """
    g, d = _gamma_delta(gamma, delta)
    target = 1 - d
    D = tradeoff_route(metric, output_metric)["diameter"]
    solved = [0]
    lo = hi = None

    def s(t):
        if D and D * math.log2(float(t)) > MAX_RANGE_BITS:
            assert lo is not None       # the first LP, at t = 1, spans 2^0: lo is set before any t can overflow
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
        return _tradeoff_cert(metric, g, d, ball, None, lo, solved[0], output_metric, f)
    seen = {lo.t}
    cur, t = lo, fmpq(2)
    reason = None
    width = fmpq(rel_width) if not isinstance(rel_width, fmpq) else rel_width
    while True:
        ex, guess = None, None
        if reason is None:
            reason = _basis_too_wide(cur, width)
            if reason is None:
                ex, guess, reason = _try_exact(cur, target, lo.t, hi.t if hi is not None else None, width)
                if ex is not None:
                    return _exact_cert(metric, g, d, ball, ex, cur, solved, s, output_metric, f)
        elif hi is not None and hi.t - lo.t <= width * lo.t:
            break
        if solved[0] >= max_steps:
            if hi is None:
                raise InvalidInput(f"tradeoff: no private mechanism with this utility was found up to t = "
                                   f"{exact_str(lo.t)} ({max_steps} exact LPs)")
            reason = reason or f"no optimal basis was proved valid at t* within {max_steps} exact LPs"
            break
        t = _next_t(lo.t, hi.t if hi is not None else None, guess, seen)
        cur = s(t)
        seen.add(t)
        if cur.value >= target:
            hi = cur
        else:
            lo = cur
    return _tradeoff_cert(metric, g, d, ball, lo, hi, solved[0], output_metric, f, reason=reason)


def _try_exact(u, target, lo_t, hi_t, width):
    """``(ExactRoot or None, guess, reason)``: ``reason`` (then no more tries) when the basis' polynomials are
    beyond what a certificate carries."""
    from ..priors.parametric import MAX_CERT_DEGREE, exact_root, parametric_solution

    if u.basis is None:
        return None, None, None
    par = parametric_solution(u.sym, u.basis, u.t)
    if par is None:
        return None, None, None
    deg = max(p.degree() for p in par.X + par.Y + par.L + [par.D, par.E])
    if deg > MAX_CERT_DEGREE:
        return None, None, (f"the optimal basis' polynomials in t have degree {deg:,}, beyond the {MAX_CERT_DEGREE} "
                            f"the re-check kernel takes: a bracket of relative width {exact_str(width)}")
    ex, guess = exact_root(u.sym, par, target, lo_t, hi_t)
    return ex, guess, None


def _next_t(lo_t, hi_t, guess, seen):
    """The next LP's ``t``: a simple rational next to the basis' root inside the bracket, else doubling or the
    simplest rational in the middle half of the bracket."""
    if guess is not None and guess > lo_t and (hi_t is None or guess < hi_t):
        lo_w = max(lo_t, guess * fmpq(999, 1000))
        hi_w = guess * fmpq(1001, 1000) if hi_t is None else min(hi_t, guess * fmpq(1001, 1000))
        t = _simple_between(lo_w, hi_w)
        if t not in seen:
            return t
    if hi_t is None:
        return lo_t * 2
    q = (hi_t - lo_t) / 4
    return _simple_between(lo_t + q, hi_t - q)


class _Evaluated:
    """The parametric optimum evaluated at a rational ``t`` where its basis is valid (an exact LP optimum)."""

    method = "the parametric optimal basis evaluated at this t (primal and dual feasible, zero gap)"

    def __init__(self, par, t):
        D, E = par.D(t), par.E(t)
        self.x = [p(t) / D for p in par.X]
        self.y = [p(t) / E for p in par.Y]
        self.lam = [p(t) / E for p in par.L]
        self.value = -self.x[-1]


def _exact_cert(metric, g, d, ball, ex, cur, solved, s, output_metric, f):
    from ..priors.parametric import valid_at

    Y = metric if output_metric is None else output_metric
    lo = _utility(metric, Y, ex.a, _Evaluated(ex.par, ex.a))
    hi = _utility(metric, Y, ex.b, _Evaluated(ex.par, ex.b)) if valid_at(cur.sym, ex.par, ex.b) else s(ex.b)
    return _tradeoff_cert(metric, g, d, ball, lo, hi, solved[0], output_metric, f, exact=ex)


def _lp_data(u):
    sol = u.solution
    return LPData(value=exact_str(sol.value), x=[exact_str(v) for v in sol.x], y=[exact_str(v) for v in sol.y],
                  lam=[exact_str(v) for v in sol.lam])


def _claim(g, d, desc, ball, epsilon, bracket, query) -> str:
    """The claim sentence (rebuilt independently by ``recheck.utility.claim_text``)."""
    where = f"on the {desc} ({ball} balls) for {query}"
    if epsilon is not None:
        return f"eps*(gamma = {g}, delta = {d}) = {epsilon} {where}"
    return f"{bracket[0]} < eps*(gamma = {g}, delta = {d}) <= {bracket[1]} {where}"


def _tradeoff_cert(metric, g, d, ball, lo, hi, solved, output_metric=None, f=None, exact=None, reason=None):
    from ..priors.parametric import poly_text
    from .utility import query_claim

    target = 1 - d
    Y = metric if output_metric is None else output_metric
    fx = _f_index(f, metric, Y)
    sigma = [[exact_str(Y.d(fx[x], y)) for y in range(len(Y))] for x in range(len(metric))]
    common = dict(inputs=list(metric.points), outputs=list(Y.points), metric=metric_data(metric),
                  output=distance_data(Y), output_description=Y.description,
                  f={str(metric.points[x]): str(Y.points[fx[x]]) for x in range(len(metric))},
                  sigma=sigma,
                  gamma=exact_str(g), delta=exact_str(d), ball=ball, target=exact_str(target),
                  t_upper=exact_str(hi.t), s_upper=exact_str(hi.value), lp_upper=_lp_data(hi),
                  mechanism=mechanism_data(hi.mechanism))
    if lo is None:
        ev = TradeoffEvidence(**common, epsilon="0", epsilon_bracket=["0", "0"], t_lower=None, s_lower=None,
                              lp_lower=None, polynomial=None, parametric=None)
    else:
        bracket = [f"log({exact_str(lo.t)})", f"log({exact_str(hi.t)})"]
        par = None
        if exact is not None:
            r = exact.rational()
            eps = f"log({exact_str(r)})" if r is not None else \
                f"log(root of {poly_text(exact.poly)} in ({exact_str(exact.a)}, {exact_str(exact.b)}))"
            p = exact.par
            par = ParametricData(denominator=poly_text(p.D), x=[poly_text(v) for v in p.X],
                                 dual_denominator=poly_text(p.E), y=[poly_text(v) for v in p.Y],
                                 lam=[poly_text(v) for v in p.L])
        else:
            eps = None
        ev = TradeoffEvidence(**common, epsilon=eps, epsilon_bracket=bracket, t_lower=exact_str(lo.t),
                              s_lower=exact_str(lo.value), lp_lower=_lp_data(lo),
                              polynomial=None if exact is None else poly_text(exact.poly), parametric=par,
                              reason=reason)
    claim = _claim(exact_str(g), exact_str(d), metric.description, ball, ev.epsilon, ev.epsilon_bracket,
                   query_claim(ev.f, ev.inputs, ev.output, ev.output_description))
    how = "exact root of the optimal basis' polynomial" if exact is not None else (
        "t* = 1" if lo is None else "bracket only")
    return Certificate("tradeoff", True, Method.EXACT_LP, claim, ev,
                       note=f"{solved} exact LPs; {how}; {hi.solution.method}")
