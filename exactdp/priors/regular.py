"""Regular priors and tight-constraints mechanisms (ECP14 Sections 4 and 6).

* corner priors ``c^y`` (Def. 5): ``c^y_y' = phi_yy' / sum_y'' phi_yy''``;
* ``d``-regular priors (Def. 4, Prop. 3): ``pi = mu Phi`` with ``mu >= 0``;
  the convex coefficients are ``gamma_y = mu_y sum_y' phi_yy'``;
* Props. 1 and 2: ratio and range bounds of regular priors;
* tight-constraints mechanisms (Def. 6, Props. 6-8): ``Phi z = 1`` with
  ``z >= 0`` gives ``h_yy' = phi_yy' z_y'``;
* ball-size symmetry (Def. 7) and the closed form of Prop. 9.

>>> from exactdp.metrics import path
>>> from exactdp.exact.level import Level
>>> c = tight_constraints(path(3), Level.from_alpha("1/2"))
>>> c.holds, c.evidence.z
(True, ['2/3', '1/3', '2/3'])
>>> c.evidence.mechanism.values[c.evidence.mechanism.codes[0][0]]
'2/3'
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

import numpy as np
from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Method, level_data, mechanism_data
from .evidence import (DyadicMatrix, DyadicVector, LPData, RegularEvidence, TightEvidence, VerifiedSolve,
                                distance_data, metric_spec)
from ..errors import InputTooLarge, InvalidInput, Undecided
from ..exact.decide import exact_str, simplify
from ..exact.lp import LinearProgram, solve_lp
from ..exact.values import to_rational
from ..mechanism import mechanism_from_values
from .phi import PhiSystem

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = [
    "ball_size_symmetric",
    "check_prior",
    "corner_priors",
    "prior_from",
    "prop9_mechanism",
    "regular_prior",
    "tight_constraints",
]


def prior_from(prior: Any, metric: FiniteMetric) -> list:
    """A prior as exact rationals in the metric's point order (list, or dict label -> value).

    Parameters
    ----------
    prior : list or dict
        Probabilities in the metric's point order, or by point label; exact numbers or their texts.
    metric : FiniteMetric
        The metric whose points the prior is over.

    Returns
    -------
    list of fmpq
        The probabilities, in the metric's point order.

    Raises
    ------
    InvalidInput
        A point without a probability, a wrong length, a negative probability, or a sum other than 1.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> prior_from({"1": "3/4", "0": "1/4"}, path(2))
    [1/4, 3/4]
    >>> prior_from(["1/2", "1/3"], path(2))
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: prior: the probabilities sum to 5/6, expected exactly 1
    """
    if isinstance(prior, dict):
        given = {str(k) for k in prior}
        missing = [p for p in metric.points if p not in given]
        if missing:
            raise InvalidInput(f"prior: no probability for point {missing[0]!r}")
        byname = {str(k): v for k, v in prior.items()}
        prior = [byname[p] for p in metric.points]
    if len(prior) != len(metric):
        raise InvalidInput(f"prior: {len(prior)} probabilities for {len(metric)} points")
    p = [to_rational(v, what=f"prior[{metric.points[i]!r}]") for i, v in enumerate(prior)]
    for i, v in enumerate(p):
        if v < 0:
            raise InvalidInput(f"prior: probability of {metric.points[i]!r} is {v}, negative")
    if sum(p, fmpq(0)) != 1:
        raise InvalidInput(f"prior: the probabilities sum to {sum(p, fmpq(0))}, expected exactly 1")
    return p


def corner_priors(metric: FiniteMetric, level: Level) -> list:
    """ECP14 Def. 5: the corner prior of each point, exactly (rationals, or exact exponential expressions).

    The corner prior of ``y`` is row ``y`` of ``Phi`` (``phi_yy' = e^(-eps d(y, y'))``) normalised to sum 1.

    Parameters
    ----------
    metric : FiniteMetric
        The metric.
    level : Level
        The privacy level ``eps``.

    Returns
    -------
    list of list
        ``corner_priors(metric, level)[y]`` is the corner prior of the ``y``-th point.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import path
    >>> corner_priors(path(3), Level.from_alpha("1/2"))[0]       # (1, 1/2, 1/4) / (7/4)
    [4/7, 2/7, 1/7]
    """
    S = PhiSystem(metric, level)
    out = []
    for y in range(S.n):
        row = [S.entry(y, j) for j in range(S.n)]
        s = fmpq(0)
        for v in row:
            s = s + v
        out.append([simplify(v / s) for v in row])
    return out


def check_prior(pi: list, metric: FiniteMetric, level: Level) -> str | None:
    """ECP14 Props. 1 and 2 for a prior: ``None`` if they hold, else the first violation (text).

    Prop. 1: ``pi_y <= e^(d(y,y')) pi_y'``; Prop. 2: ``1/sum_y' e^(d(y,y')) <= pi_y <= 1/sum_y' e^(-d(y,y'))``
    (a point at distance inf adds 0 to the upper bound's sum and makes the lower bound 0)
    (checked exactly when the factors are rational).  Work is grouped by distance codes and distinct prior
    values: each distinct triple ``(pi_y, pi_y', d)`` is decided once, exactly.

    Parameters
    ----------
    pi : list
        The prior, exact, in the metric's point order (see :func:`prior_from`).
    metric : FiniteMetric
        The metric.
    level : Level
        The privacy level ``eps`` (the distances above are scaled by it).

    Returns
    -------
    str or None
        ``None`` when both propositions hold, else the first violation found.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import path
    >>> lv = Level.from_alpha("1/2")                    # e^(eps d) = 2 at distance 1
    >>> check_prior([fmpq(1, 2), fmpq(1, 2)], path(2), lv) is None
    True
    >>> isinstance(check_prior([fmpq(1, 10), fmpq(9, 10)], path(2), lv), str)    # 9/10 > 2 * 1/10
    True
    """
    from .phi import metric_structure

    n = len(metric)
    dc, _ = metric_structure(metric)
    codes, dvals = dc.full(), dc.values
    facs = [None if d == math.inf else level.factor(d) for d in dvals]
    if all(f is None or isinstance(f, fmpq) for f in facs):
        for y in range(n):
            cnt = np.bincount(codes[y], minlength=len(dvals)).tolist()
            up = sum((m / f for m, f in zip(cnt, facs, strict=True) if m and f is not None), fmpq(0))
            # a point at distance inf has e^(eps d) = inf in the lower bound's sum: the bound is 0 there
            far = any(m and f is None for m, f in zip(cnt, facs, strict=True))
            down = sum((m * f for m, f in zip(cnt, facs, strict=True) if m and f is not None), fmpq(0))
            lo = fmpq(0) if far else 1 / down
            if not (lo <= pi[y] <= 1 / up):
                return f"Prop. 2 fails at {metric.points[y]!r}: pi = {pi[y]} is outside [{lo}, {1 / up}]"
    index: dict = {}
    pvals: list = []
    pc = np.empty(n, dtype=np.int64)
    for y, v in enumerate(pi):
        key = (int(v.p), int(v.q))
        if key not in index:
            index[key] = len(pvals)
            pvals.append(v)
        pc[y] = index[key]
    P, C = len(pvals), len(dvals)
    keys = (pc[:, None] * P + pc[None, :]) * C + codes
    live = np.ones((n, n), dtype=bool)
    np.fill_diagonal(live, False)
    for c, d in enumerate(dvals):
        if d == math.inf:
            live &= codes != c
    bad = [u for u in np.unique(keys[live]).tolist()
           if level.compare(pvals[u // C // P], pvals[u // C % P], dvals[u % C]) > 0]
    if not bad:
        return None
    y, y2 = divmod(int(np.flatnonzero(np.isin(keys, bad) & live)[0]), n)
    return (f"Prop. 1 fails for ({metric.points[y]!r}, {metric.points[y2]!r}): pi = {pi[y]} > "
            f"e^(eps*{exact_str(metric.d(y, y2))}) * {pi[y2]}")


def _solve_method(sol) -> Method:
    if sol.values is not None:
        return Method.EXACT_SOLVE
    return Method.VERIFIED_FLOAT if getattr(sol, "enclosures", None) is not None else Method.BALL_SOLVE


#: significant bits of the approximate inverse a certificate carries (enough for ||I - R Q|| << 1)
INVERSE_BITS = 32
#: largest quotient whose approximate inverse a certificate carries (k^2 numbers; the re-check does k^3 work)
MAX_CARRIED_INVERSE = 400


def verified_data(sol) -> VerifiedSolve | None:
    """The evidence of a verified float solve on a quotient (the ``verified`` field), or ``None``.

    Besides the checker's exact enclosures it carries what an independent re-check needs to redo Rump's
    verification without inverting anything: the partition ``cell_of``, the approximate solution ``y~`` per
    cell (``center``: exact dyadics ``m 2^exp``) and the approximate inverse ``R`` of the quotient
    (``inverse``: integers times ``2^exp``, rounded to :data:`INVERSE_BITS` bits -- any ``R`` will do, the
    re-check bounds ``||I - R Q||`` itself).  Above :data:`MAX_CARRIED_INVERSE` cells ``y~`` and ``R`` are left
    out (the certificate would grow as k^2 and its re-check as k^3) and the re-check says it cannot redo it.
    """
    if sol.enclosures is None:
        return None
    part = sol.partition
    unknown = set(sol.extra) - {"fixed_point_eta", "cell_signs"}
    if unknown:                      # a new statistic must get its own typed field (the schema describes each)
        raise RuntimeError(f"internal error: untyped solve statistics {sorted(unknown)}")
    center = inverse = None
    if sol.center is not None and sol.inverse is not None and part is not None \
            and part.ncells <= MAX_CARRIED_INVERSE:
        s = max(int(v.q).bit_length() - 1 for v in sol.center)      # dyadics: q = 2^s
        center = DyadicVector(exp=-s, mantissas=[str(int(v.p) * (2 ** s // int(v.q))) for v in sol.center])
        R = np.asarray(sol.inverse, dtype=np.float64)
        e = math.frexp(float(np.abs(R).max()))[1] - INVERSE_BITS
        inverse = DyadicMatrix(exp=e, mantissas=np.rint(np.ldexp(R, -e)).astype(np.int64).tolist())
    extra = {k: str(v) for k, v in sol.extra.items()}
    return VerifiedSolve(cell_of=part.cell_of.tolist() if part is not None else None, center=center, inverse=inverse,
                         z_enclosures=[[str(lo), str(hi)] for lo, hi in sol.enclosures], beta=str(sol.beta),
                         fixed_point_eta=extra.get("fixed_point_eta"), cell_signs=extra.get("cell_signs"))


def _lp_data(sol) -> LPData:
    return LPData(value=str(sol.value), x=[str(v) for v in sol.x], y=[str(v) for v in sol.y],
                  lam=[str(v) for v in sol.lam])


def _say(progress, stage: str) -> None:
    """Report a step to an optional ``progress(stage, done, total)`` callback (the library itself prints nothing).

    The same callback signature as :func:`~exactdp.certify.certify_privacy`'s; a step without a count passes
    ``done = total = None``.
    """
    if progress is not None:
        progress(stage, None, None)


def regular_prior(prior: Any, metric: FiniteMetric, level: Level, *,
                  progress: Callable[..., object] | None = None) -> Certificate[RegularEvidence]:
    """ECP14 Def. 4 / Prop. 3: whether ``prior`` is ``d``-regular.

    .. math:: \\pi = \\mu \\Phi,\\ \\mu \\ge 0, \\qquad \\phi_{yy'} = e^{-\\varepsilon d(y, y')}

    Invertible ``Phi``: the unique ``mu`` (exact, or certified balls); a negative coordinate certifies
    non-regularity.  Singular ``Phi`` (rational regime): an exact LP finds ``mu >= 0`` or proves none exists.

    Parameters
    ----------
    prior : list or dict
        Exact probabilities, in the metric's point order or by label.
    metric : FiniteMetric
    level : Level
    progress : callable, optional
        ``progress(stage, None, None)`` is called before each step that can take long on a large metric (distances and
        symmetries, the solve, the checks of Props. 1-2); the library itself prints nothing.

    Returns
    -------
    Certificate
        Kind ``regular``; ``evidence.mu`` and ``evidence.gamma`` (exact strings, or ball enclosures when
        ``evidence.exact`` is false), ``evidence.negative`` the points with ``mu_y < 0``.

    Raises
    ------
    InvalidInput
        A prior that is not a probability vector over the points.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> from exactdp.exact.level import Level
    >>> c = regular_prior(["1/3", "1/3", "1/3"], path(3), Level.from_alpha("1/2"))
    >>> c.holds, c.evidence.mu
    (True, ['2/9', '1/9', '2/9'])

    References
    ----------
    ECP14 Def. 4, Prop. 3.
    """
    pi = prior_from(prior, metric)
    _say(progress, f"distances and symmetries of {len(metric):,} points")
    S = PhiSystem(metric, level)
    claim = f"the prior is regular for eps*d with eps = {level.eps_str()} on the {metric.description}"
    base: dict[str, Any] = dict(description=metric.description, level=level_data(level),
                regime="rational" if S.is_rational() else "transcendental", prior=[str(v) for v in pi],
                distances=distance_data(metric))
    base["metric"] = metric_spec(metric, base["distances"])
    empty: dict[str, Any] = dict(zero_at=[], mu=None, exact=S.is_rational(), gamma=None, negative=[], lp=None)
    zero = [metric.points[i] for i, v in enumerate(pi) if v == 0]
    if zero:
        ev = RegularEvidence(**base, route="support", **{**empty, "zero_at": [str(z) for z in zero]})
        return Certificate("regular", False, Method.RATIONAL, claim, ev)
    _say(progress, f"solving mu Phi = pi ({len(metric):,} points)")
    try:
        sol = S.solve(pi)  # Phi symmetric: mu^T = Phi^-1 pi^T
    except InputTooLarge:
        raise  # beyond the route's limits: not a singular Phi
    except InvalidInput:
        return _regular_by_lp(pi, S, claim, base, empty)
    except Undecided as e:
        return Certificate("regular", UNDECIDED, Method.BALL_SOLVE, claim,
                           RegularEvidence(**base, route="solve", **empty), reason=e.reason)
    neg = sol.negative()
    row_sums = _row_sums(S)
    if sol.values is not None:
        gamma = [str(m * r) for m, r in zip(sol.values, row_sums, strict=True)]
    else:
        assert sol.balls is not None  # a solve gives exact values or balls
        gamma = [(b * r).str(15, radius=True) for b, r in zip(sol.balls, row_sums, strict=True)]
    if S.is_rational():
        _say(progress, "checking Props. 1 and 2")
    viol = check_prior(pi, metric, level) if S.is_rational() else None
    if viol is not None and not neg:  # Props. 1-2 are theorems: a violation here is a bug, never a verdict
        raise RuntimeError(f"internal error: a regular prior violates {viol}")
    ev = RegularEvidence(**base, route="solve", **{**empty, "mu": sol.strings(), "exact": sol.values is not None,
                                                   "gamma": gamma, "negative": [str(metric.points[i]) for i in neg]},
                           verified=verified_data(sol))
    note = sol.method + (f"; Props. 1 and 2 checked exactly: {viol}" if viol is not None else "")
    return Certificate("regular", not neg, _solve_method(sol), claim, ev, precision=sol.precision, note=note)


def _row_sums(S):
    """The row sums of ``Phi``, from the quotient of the metric's equitable partition: every point of a cell
    ``A`` has the same sum ``sum_B Q[A][B]`` (that is what equitable means), so no dense ``n x n`` matrix is
    formed (10^8 balls on a 100 x 100 grid)."""
    import math

    from flint import arb, ctx

    part = S.partition
    cells = part.cell_of.tolist()
    if S.is_rational():
        Q = S._quotient(part, [S._exact_factor(d) for d in S._dvals])
        sums = [sum(row, fmpq(0)) for row in Q]
        return [sums[c] for c in cells]
    with ctx.workprec(128):
        facs = [arb(0) if d == math.inf else 1 / S.level.factor_arb(d) for d in S._dvals]
        Q = S._quotient(part, facs)
        sums = [sum(row, arb(0)) for row in Q]
        return [sums[c] for c in cells]


def _phi_violation_lp(M, rhs):
    """Exact LP: min sum(s+ + s-) s.t. M x + s+ - s- = rhs, x, s >= 0 (0 iff M x = rhs has a solution x >= 0)."""
    n = M.nrows()
    A_eq = []
    for i in range(n):
        row = {j: M[i, j] for j in range(n) if M[i, j] != 0}
        row[n + i] = 1
        row[2 * n + i] = -1
        A_eq.append(row)
    return solve_lp(LinearProgram(c=[0] * n + [1] * (2 * n), A_eq=A_eq, b_eq=list(rhs)))


def _regular_by_lp(pi, S, claim, base, empty):
    """Singular Phi: min sum(s+ + s-) s.t. mu Phi + s+ - s- = pi, mu, s >= 0 (exact LP)."""
    if not S.is_rational():
        return Certificate("regular", UNDECIDED, Method.NONE, claim, RegularEvidence(**base, route="lp", **empty),
                           reason="Phi is singular in the transcendental regime; the exact LP needs a rational alpha")
    n = S.n
    M = S.exact_matrix()
    sol = _phi_violation_lp(M, pi)  # Phi symmetric: mu Phi = pi is Phi mu^T = pi^T
    holds = sol.value == 0
    mu = [str(v) for v in sol.x[:n]] if holds else None
    gamma = [str(sol.x[i] * sum((M[i, j] for j in range(n)), fmpq(0))) for i in range(n)] if holds else None
    ev = RegularEvidence(**base, route="lp", **{**empty, "mu": mu, "gamma": gamma, "lp": _lp_data(sol)})
    return Certificate("regular", holds, Method.EXACT_LP, claim, ev)


def tight_constraints(metric: FiniteMetric, level: Level, *,
                      progress: Callable[..., object] | None = None) -> Certificate[TightEvidence]:
    """ECP14 Def. 6, Props. 7-8: the tight-constraints mechanism from ``Phi z = 1``, when ``z >= 0``.

    .. math:: \\Phi z = \\mathbf 1,\\ z \\ge 0, \\qquad h_{yy'} = \\phi_{yy'} z_{y'}

    Parameters
    ----------
    metric : FiniteMetric
    level : Level
    progress : callable, optional
        ``progress(stage, None, None)`` is called before each step that can take long on a large metric (distances and
        symmetries, the solve); the library itself prints nothing.

    Returns
    -------
    Certificate
        Kind ``tight``: holds when a tight-constraints mechanism exists.  ``evidence.z`` (exact strings or
        certified enclosures), ``evidence.negative`` (points certified negative), ``evidence.mechanism`` the
        exact mechanism ``h_yy' = phi_yy' z_y'`` in the rational regime (private by Prop. 6).

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> from exactdp.exact.level import Level
    >>> tight_constraints(path(3), Level.from_alpha("1/2")).evidence.z
    ['2/3', '1/3', '2/3']

    References
    ----------
    ECP14 Def. 6, Props. 6-8.
    """
    _say(progress, f"distances and symmetries of {len(metric):,} points")
    S = PhiSystem(metric, level)
    claim = f"a tight-constraints mechanism exists for eps*d with eps = {level.eps_str()} on the {metric.description}"
    base: dict[str, Any] = dict(description=metric.description, level=level_data(level),
                regime="rational" if S.is_rational() else "transcendental", distances=distance_data(metric))
    base["metric"] = metric_spec(metric, base["distances"])
    _say(progress, f"solving Phi z = 1 ({len(metric):,} points)")
    try:
        sol = S.solve_ones()
    except InputTooLarge:
        raise  # beyond the route's limits: not a singular Phi
    except InvalidInput:
        return _tight_singular(S, claim, base)
    except Undecided as e:
        ev = TightEvidence(**base, route="solve", z=None, exact=False, negative=[], rank=None, lp=None,
                           mechanism=None)
        return Certificate("tight", UNDECIDED, Method.BALL_SOLVE, claim, ev, reason=e.reason)
    neg = sol.negative()
    mech = None
    if not neg and sol.values is not None:
        M = S.exact_matrix()
        rows = [[M[y, y2] * sol.values[y2] for y2 in range(S.n)] for y in range(S.n)]
        mech = mechanism_data(mechanism_from_values(metric.points, metric.points, rows,
                                                    name="tight-constraints mechanism"))
    part = sol.partition
    ver = verified_data(sol)
    ev = TightEvidence(**base, route="solve", z=sol.strings(), exact=sol.values is not None,
                       negative=[str(metric.points[i]) for i in neg], rank=None, lp=None, mechanism=mech,
                       cells=int(part.ncells) if part is not None and ver is not None and ver.cell_of is not None
                       else None,
                       verified=ver)
    note = sol.method + ("" if part is None else f"; {int(part.ncells)} cells: {part.how}")
    return Certificate("tight", not neg, _solve_method(sol), claim, ev, precision=sol.precision, note=note)


def _tight_singular(S, claim, base):
    if not S.is_rational():
        ev = TightEvidence(**base, route="lp", z=None, exact=False, negative=[], rank=None, lp=None, mechanism=None)
        return Certificate("tight", UNDECIDED, Method.NONE, claim, ev,
                           reason="Phi is singular in the transcendental regime")
    n = S.n
    M = S.exact_matrix()
    sol = _phi_violation_lp(M, [1] * n)
    exists = sol.value == 0
    ev = TightEvidence(**base, route="lp", z=[str(v) for v in sol.x[:n]] if exists else None, exact=True,
                       negative=[], rank=M.rank(), lp=_lp_data(sol), mechanism=None)
    return Certificate("tight", exists, Method.EXACT_LP, claim, ev, note=sol.method)


def ball_size_symmetric(metric: FiniteMetric) -> bool:
    """ECP14 Def. 7: every point sees the same multiset of distances.

    Points in one cell of an equitable partition see the same multiset, so one representative per cell is
    compared (exactly: the histogram of its row of distance codes), a few rows at a time, stopping at the
    first that differs (O(k n) at most, k cells, n points; sorting the k x n rows took a minute on the
    200 x 200 grid).

    Parameters
    ----------
    metric : FiniteMetric
        The metric.

    Returns
    -------
    bool
        Whether the metric is ball-size symmetric.

    Examples
    --------
    >>> from exactdp.metrics import cycle, path
    >>> ball_size_symmetric(cycle(4)), ball_size_symmetric(path(3))    # {0,1,1,2} at every point; {0,1,2} vs {0,1,1}
    (True, False)
    """
    from .phi import metric_structure

    codes, part = metric_structure(metric)
    reps = part.representatives()
    first = None
    for s in range(0, len(reps), 32):
        for row in codes.rows(reps[s:s + 32]):
            h = np.bincount(row, minlength=codes.ncodes)
            if first is None:
                first = h
            elif not np.array_equal(h, first):
                return False
    return True


def prop9_mechanism(metric: FiniteMetric, level: Level) -> Mechanism:
    """ECP14 Prop. 9: ``h_yy' = e^(-d(y,y')) / sum_r n_r e^(-r)`` on a ball-size symmetric metric (exact rows).

    Parameters
    ----------
    metric : FiniteMetric
        A ball-size symmetric metric (:func:`ball_size_symmetric`).
    level : Level
        The privacy level ``eps`` (the distances above are scaled by it).

    Returns
    -------
    Mechanism
        The mechanism, from the metric's points to themselves.

    Raises
    ------
    InvalidInput
        The metric is not ball-size symmetric.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import discrete
    >>> prop9_mechanism(discrete(2), Level.from_alpha("1/2")).rows()    # (1, 1/2) / (3/2)
    [[2/3, 1/3], [1/3, 2/3]]
    """
    if not ball_size_symmetric(metric):
        raise InvalidInput("Prop. 9 needs a ball-size symmetric metric (Def. 7); this one is not")
    S = PhiSystem(metric, level)
    M = S.exact_matrix()
    norm = sum((M[0, j] for j in range(S.n)), fmpq(0))
    rows = [[M[y, y2] / norm for y2 in range(S.n)] for y in range(S.n)]
    return mechanism_from_values(metric.points, metric.points, rows, name="Prop. 9 mechanism")

