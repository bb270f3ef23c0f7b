"""Certify an exact LP optimum with the whole LP, its primal and its dual in the evidence (kind ``lp``).

The LP core (:func:`exactdp.exact.solve_lp`, :func:`exactdp.exact.solve_lp_irrational`) returns optima
already verified with their duals; :func:`certify_lp_optimum` writes one down as a certificate the
independent re-check can redo from the JSON alone (docs/architecture.md#sec-certificates), optionally with a radical
parameter, a proof of uniqueness and the vertex property.  :func:`certify_lp_infeasible` writes the other
outcome, a system with no solution ``x >= 0``, with its Farkas vector (kind ``infeasible``).
"""

from __future__ import annotations

from math import gcd
from typing import Any

from flint import fmpq

from ..certificate import Certificate, Method, Verdict
from ..priors.evidence import LPData
from .evidence import InfeasibleEvidence, LPEvidence, LPParameter, LPUnique
from ..errors import InvalidInput
from ..exact import LinearProgram, LPInfeasible, exact_number, exact_str, solve_lp

__all__ = ["certify_lp_infeasible", "certify_lp_optimum"]


def _components(v, atom) -> tuple[Any, Any]:
    """``v = v0 + v1 t`` for ``t`` the radical ``atom``, or ``(v, 0)`` for a rational ``v``."""
    if isinstance(v, (int, fmpq)):
        return fmpq(v), fmpq(0)
    comp = v.components()
    if set(comp) - {(), atom}:
        raise InvalidInput(f"certify_lp_optimum: a cost or dual value {v} has radicals other than the parameter; "
                           "pass parameter= the one atom it uses")
    return comp.get((), fmpq(0)), comp.get(atom, fmpq(0))


def _split(values, atom):
    pairs = [_components(v, atom) for v in values]
    return [exact_str(a) for a, _ in pairs], [exact_str(b) for _, b in pairs]


def _rows(rows):
    return [{str(j): exact_str(a) for j, a in r.items()} for r in rows]


def _dot(row, x):
    return sum((a * x[j] for j, a in row.items()), fmpq(0))


def _face(sol, x):
    """Complementary-slackness face of ``sol``: (zero, tight, equality rows, right-hand sides)."""
    sgn = lambda v: (v > 0) - (v < 0) if isinstance(v, fmpq) else v.sign()  # noqa: E731
    zero = [j for j in range(sol.lp.n) if sgn(sol.reduced[j]) > 0]
    tight = [k for k in range(len(sol.lp.A_ub)) if sgn(sol.lam[k]) > 0]
    lp = sol.lp
    return zero, tight, lp.A_eq + [{j: 1} for j in zero] + [lp.A_ub[k] for k in tight], \
        lp.b_eq + [0] * len(zero) + [lp.b_ub[k] for k in tight]


def _uniqueness(sol, x):
    """An :class:`LPUnique` record, or ``None`` when some coordinate moves on the optimal face."""
    zero, tight, F_eq, F_b = _face(sol, x)
    lp, bounds = sol.lp, []
    for j in range(lp.n):
        if j in set(zero):
            continue
        duals = {}
        for key, s in (("lo", 1), ("hi", -1)):
            face = solve_lp(LinearProgram(c=[s if k == j else 0 for k in range(lp.n)], A_eq=F_eq, b_eq=F_b,
                                          A_ub=lp.A_ub, b_ub=lp.b_ub))
            if face.value != s * x[j]:
                return None
            duals[f"{key}_y"] = [exact_str(v) for v in face.y]
            duals[f"{key}_lam"] = [exact_str(v) for v in face.lam]
        bounds.append({"j": j, **duals})
    return LPUnique(zero=zero, tight=tight, bounds=bounds)


def _is_vertex(lp, x) -> bool:
    from flint import fmpq_mat

    rows = list(lp.A_eq) + [r for r, b in zip(lp.A_ub, lp.b_ub, strict=True) if _dot(r, x) == b] + \
        [{j: 1} for j in range(lp.n) if x[j] == 0]
    M = fmpq_mat(len(rows), lp.n)
    for i, r in enumerate(rows):
        for j, v in r.items():
            M[i, j] = v
    return M.rank() == lp.n


def _check_point(sol, cost, x, vertex) -> None:
    """Refuse an ``x`` that is not an optimum of ``sol.lp`` (or not a vertex when one is asserted)."""
    lp = sol.lp
    feasible = len(x) == lp.n and all(v >= 0 for v in x) \
        and all(_dot(r, x) == b for r, b in zip(lp.A_eq, lp.b_eq, strict=True)) \
        and all(_dot(r, x) <= b for r, b in zip(lp.A_ub, lp.b_ub, strict=True))
    if not feasible or sum((c * v for c, v in zip(cost, x, strict=True)), cost[0] * 0) != sol.value:
        raise InvalidInput("certify_lp_optimum: x is not an optimum of the LP (infeasible, or its cost differs "
                           f"from the optimal value {sol.value}); pass a point of the optimal face")
    if vertex and not _is_vertex(lp, x):
        raise InvalidInput("certify_lp_optimum: vertex=True but the constraints active at x have rank < n "
                           "(x is not a vertex); leave vertex=False for a point inside a face")


def _affine_nonneg(v0, v1, low, high) -> bool:
    """Is ``v0 + v1 t >= 0`` for every ``t`` in ``[low, high]`` (``None`` = unbounded on that side)?"""
    if (low is None and v1 > 0) or (high is None and v1 < 0):
        return False
    return all(v0 + v1 * e >= 0 for e in (low, high) if e is not None)


def _t_power(parameter):
    """``(t^q, q)`` for the radical ``t = prod p^(f_p)``, exactly (``q`` the common denominator)."""
    q: Any = 1  # an int, then flint integers
    for _, f in parameter:
        q = q * fmpq(f).q // gcd(q, int(fmpq(f).q))
    tq = fmpq(1)
    for p, f in parameter:
        tq *= fmpq(int(p)) ** int(fmpq(f) * q)
    return tq, q


def _check_interval(sol, parameter, interval) -> None:
    """Refuse an ``interval`` on which the dual is not feasible for every ``t``, or that misses ``t``."""
    low, high = (None if e is None else fmpq(e) for e in interval)
    if parameter is None:
        if low is not None or high is not None:
            raise InvalidInput("certify_lp_optimum: interval= needs parameter= (the radical atom it ranges over)")
        return
    if low is not None and high is not None and low > high:
        raise InvalidInput(f"certify_lp_optimum: interval ({low}, {high}) is empty; pass (low, high) with low <= high")
    tq, q = _t_power(parameter)      # t > 0
    if (low is not None and low > 0 and low ** q > tq) or (high is not None and (high <= 0 or tq > high ** q)):
        raise InvalidInput(f"certify_lp_optimum: the parameter's own value is outside interval ({low}, {high}); "
                           "the interval must contain it")
    for name, values in (("an inequality multiplier", sol.lam), ("a reduced cost", sol.reduced)):
        for v in values:
            if not _affine_nonneg(*_components(v, parameter), low, high):
                raise InvalidInput(f"certify_lp_optimum: {name} ({v}) turns negative inside interval ({low}, {high}): "
                                   "the dual is not feasible on all of it; pass a narrower interval")


def lp_claim(ev: LPEvidence) -> str:
    """The claim of an ``lp`` certificate, from its evidence (the re-check rebuilds the same sentence).

    Parameters
    ----------
    ev : LPEvidence
        The evidence: the caller's statement, the optimum, the parameter, uniqueness and the vertex flag.

    Returns
    -------
    str
        The statement with the certified optimum (issue 18: the claim is a function of the checked fields).

    Examples
    --------
    >>> from exactdp.exact import LinearProgram, solve_lp
    >>> c = certify_lp_optimum(solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])), "x0 + x1 = 1")
    >>> c.claim, lp_claim(c.evidence) == c.claim
    ('x0 + x1 = 1: the LP optimum is 1', True)
    """
    par = ev.parameter
    value = ev.lp.value if par is None else (f"{ev.lp.value} + ({par.value}) t with t = "
                                             + " * ".join(f"{p}^({f})" for p, f in par.atom)
                                             + f", for every t in [{par.low}, {par.high}]")
    return (f"{ev.statement}: the LP optimum is {value}" + (", attained only at x" if ev.unique is not None else "")
            + (", at a vertex" if ev.vertex else ""))


def certify_lp_optimum(sol: Any, statement: str, *, x: Any = None, parameter: Any = None,
                       interval: tuple[Any, Any] = (None, None), unique: bool = False,
                       vertex: bool = False) -> Certificate:
    """Write a verified LP optimum as a re-checkable certificate of kind ``lp``.

    Parameters
    ----------
    sol : LPSolution or IrrationalLPSolution
        An exact optimum with its dual, from :func:`~exactdp.exact.solve_lp` or
        :func:`~exactdp.exact.solve_lp_irrational`.
    statement : str
        What the optimum shows, in words (the certificate's claim).
    x : list of rationals, optional
        Another optimal point to certify with the same dual (complementary slackness makes every
        optimum pair with every optimal dual); checked exactly here.
    parameter : radical atom, optional
        With an irrational cost: the one :class:`~exactdp.exact.Rad` atom ``t`` the cost and the dual are
        affine in (a key of :meth:`Rad.components <exactdp.exact.Rad.components>`).
    interval : tuple, default (None, None)
        With ``parameter``: ``(low, high)``, rationals or ``None`` for unbounded, the range of ``t`` where
        the same dual stays feasible, asserted by the certificate for every ``t`` in it.  Checked exactly
        here (the multipliers and reduced costs are affine in ``t``, so both ends suffice, and ``t`` itself
        must lie in it); the independent re-check redoes the same check from the JSON.
    unique : bool
        Prove that the optimum is unique (two exact face LPs per coordinate); if it is not, the evidence's
        ``unique`` is ``None``.
    vertex : bool
        Assert (and check) that ``x`` is a vertex: the active constraints have rank ``n``.

    Returns
    -------
    Certificate
        Kind ``lp``, verdict holds, method exact LP with dual.

    Raises
    ------
    InvalidInput
        When ``x`` is not an optimum, when ``vertex`` is asked of a point that is not one, when the
        cost or the dual has radicals other than ``parameter``, or when ``interval`` is given without
        ``parameter``, is empty, misses ``t`` or reaches where the dual is infeasible.
    TypeError
        An entry of ``x`` or ``interval`` is not convertible to ``fmpq`` (a binary float, say).

    Examples
    --------
    >>> from exactdp.exact import LinearProgram, solve_lp
    >>> sol = solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1]))
    >>> c = certify_lp_optimum(sol, "the cheaper coordinate takes all", unique=True, vertex=True)
    >>> c.evidence.lp.value, c.evidence.lp.x, c.recheck().status
    ('1', ['1', '0'], 'confirmed')

    With the radical cost ``(t, 3/2)``, ``t = sqrt(2)``, the dual ``y = t`` stays feasible while
    ``t <= 3/2``; a wider interval is refused:

    >>> from flint import fmpq
    >>> from exactdp.exact import Rad, solve_lp_irrational
    >>> t = Rad.power(2, fmpq(1, 2))
    >>> sol = solve_lp_irrational(LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1]), [t, fmpq(3, 2)])
    >>> (atom,) = t.components()
    >>> c = certify_lp_optimum(sol, "x0 takes all while t <= 3/2", parameter=atom, interval=(0, fmpq(3, 2)))
    >>> c.evidence.parameter.value, c.evidence.parameter.high, c.recheck().status
    ('1', '3/2', 'confirmed')
    >>> certify_lp_optimum(sol, "too wide", parameter=atom, interval=(0, 2))  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: certify_lp_optimum: a reduced cost (3/2 - 2^(1/2)) turns negative inside interval (0,
    2): the dual is not feasible on all of it; pass a narrower interval

    References
    ----------
    Weak duality and complementary slackness; used for GRS12 Thm 6.3 and footnote 4.
    """
    lp = sol.lp
    x = list(sol.x) if x is None else [fmpq(v) for v in x]
    cost = getattr(sol, "cost", lp.c)
    _check_point(sol, cost, x, vertex)
    _check_interval(sol, parameter, interval)
    c0, c1 = _split(cost, parameter)
    y0, y1 = _split(sol.y, parameter)
    l0, l1 = _split(sol.lam, parameter)
    v0, v1 = _split([sol.value], parameter)
    par = None if parameter is None else LPParameter(
        atom=[[int(p), exact_str(fmpq(f))] for p, f in parameter],
        low=None if interval[0] is None else exact_str(fmpq(interval[0])),
        high=None if interval[1] is None else exact_str(fmpq(interval[1])), cost=c1, value=v1[0], y=y1, lam=l1)
    ev = LPEvidence(statement=statement, cost=c0, A_eq=_rows(lp.A_eq), b_eq=[exact_str(v) for v in lp.b_eq],
                    A_ub=_rows(lp.A_ub), b_ub=[exact_str(v) for v in lp.b_ub],
                    lp=LPData(value=v0[0], x=[exact_str(v) for v in x], y=y0, lam=l0), parameter=par,
                    vertex=vertex, unique=_uniqueness(sol, x) if unique else None)
    return Certificate("lp", Verdict.HOLDS, Method.EXACT_LP, lp_claim(ev), ev)


def _farkas_from_core(lp):
    """The Farkas vector of the exact LP core for the system of ``lp`` (its cost dropped), or refuse a feasible one."""
    try:
        sol = solve_lp(LinearProgram(c=[0] * lp.n, A_eq=lp.A_eq, b_eq=lp.b_eq, A_ub=lp.A_ub, b_ub=lp.b_ub))
    except LPInfeasible as e:           # the core's convention: A_ub^T lam - A_eq^T y >= 0, b_ub.lam - b_eq.y < 0
        return [-v for v in e.y], list(e.lam)
    shown = ", ".join(exact_str(v) for v in sol.x[:8]) + (", ..." if lp.n > 8 else "")
    raise InvalidInput(f"certify_lp_infeasible: expected an infeasible system, got a feasible one: x = ({shown}) "
                       "satisfies every constraint exactly; hint: certify_lp_optimum certifies an optimum")


def _rational(v) -> fmpq:
    """A multiplier given by the caller, through exactdp's own parser: rationals only."""
    q = exact_number(v)
    if not isinstance(q, fmpq):
        raise InvalidInput(f"certify_lp_infeasible: farkas= expected rational multipliers, got {v!r}; hint: the "
                           "Farkas vector of a rational system can always be taken rational")
    return q


def _farkas_check(lp, y, lam):
    """``(w, rhs)`` for a Farkas vector verified exactly here, or :class:`InvalidInput` saying what fails."""
    if len(y) != len(lp.A_eq) or len(lam) != len(lp.A_ub):
        raise InvalidInput(f"certify_lp_infeasible: farkas= expected {len(lp.A_eq)} equality and {len(lp.A_ub)} "
                           f"inequality multipliers, got {len(y)} and {len(lam)}")
    if any(v < 0 for v in lam):
        raise InvalidInput("certify_lp_infeasible: farkas= has a negative inequality multiplier; an inequality "
                           "may only be added with a weight >= 0")
    w = [fmpq(0)] * lp.n
    for rows, mult in ((lp.A_eq, y), (lp.A_ub, lam)):
        for r, m in zip(rows, mult, strict=True):
            for j, a in r.items():
                w[j] += a * m
    rhs = _dot(dict(enumerate(lp.b_eq)), y) + _dot(dict(enumerate(lp.b_ub)), lam)
    if any(v < 0 for v in w) or rhs >= 0:
        raise InvalidInput("certify_lp_infeasible: farkas= is not a Farkas vector: it needs A_eq^T y + A_ub^T lam "
                           f">= 0 and b_eq.y + b_ub.lam < 0, got {sum(v < 0 for v in w)} negative combination "
                           f"entries and right-hand side {rhs}")
    return w, rhs


def certify_lp_infeasible(lp: LinearProgram, statement: str, *, farkas: Any = None) -> Certificate:
    """Certify that ``A_eq x = b_eq, A_ub x <= b_ub, x >= 0`` has no solution, by a Farkas vector (kind ``infeasible``).

    Farkas' lemma: the system is infeasible exactly when there are multipliers ``y`` (any sign) of
    the equalities and ``lam >= 0`` of the inequalities with ``w = A_eq^T y + A_ub^T lam >= 0`` and
    ``b_eq.y + b_ub.lam < 0`` -- a solution ``x >= 0`` would give ``0 <= w.x <= b_eq.y + b_ub.lam < 0``.
    The vector is verified exactly here before the certificate is written; the independent re-check
    redoes the same products with :mod:`fractions`.

    Parameters
    ----------
    lp : LinearProgram
        The system (its constraints and ``x >= 0``; the cost is ignored).  Its ``names``, if any,
        name the variables in the proof.
    statement : str
        What the infeasibility shows, in words: the claim states the system, and this text only as its label
        (unless it is the system as the claim writes it).
    farkas : tuple (y, lam), optional
        A Farkas vector to certify instead of the exact LP core's (for instance a readable one):
        exact rationals (ints, ``fmpq``, ``Fraction`` or strings such as ``"-1/2"``), checked exactly here.

    Returns
    -------
    Certificate
        Kind ``infeasible``, verdict holds, method exact LP with dual.

    Raises
    ------
    InvalidInput
        When the system is feasible (the feasible point is named), or when ``farkas`` has an entry
        that is not an exact rational, the wrong lengths, a negative inequality multiplier, a negative
        combination entry or a right-hand side ``>= 0``.
    InvalidType
        An entry of ``farkas`` is a binary float (refused: not exact).

    Examples
    --------
    No ``x >= 0`` has ``x0 + x1 = 1`` and ``x0 + x1 <= 1/2``: the equality with weight ``-1`` plus the
    inequality with weight ``1`` give ``0 <= -1/2``.

    >>> from exactdp.exact import LinearProgram
    >>> lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}], b_ub=["1/2"])
    >>> c = certify_lp_infeasible(lp, "x0 + x1 cannot be 1 and at most 1/2")
    >>> c.evidence.y, c.evidence.lam, c.evidence.combination, c.evidence.rhs, c.recheck().status
    (['-1'], ['1'], ['0', '0'], '-1/2', 'confirmed')
    >>> feasible = LinearProgram(c=[0], A_eq=[{0: 1}], b_eq=[1])
    >>> certify_lp_infeasible(feasible, "feasible")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: certify_lp_infeasible: expected an infeasible system, got a feasible one: x = (1)
    satisfies every constraint exactly; hint: certify_lp_optimum certifies an optimum

    References
    ----------
    Farkas' lemma (the easy direction); used for GRS12 footnote 4 (the journal's vertex is no remap of
    the truncated geometric mechanism).
    """
    if farkas is None:
        y, lam = _farkas_from_core(lp)
    else:
        y, lam = ([_rational(v) for v in part] for part in farkas)
    w, rhs = _farkas_check(lp, y, lam)
    ev = InfeasibleEvidence(statement=statement, A_eq=_rows(lp.A_eq), b_eq=[exact_str(v) for v in lp.b_eq],
                            A_ub=_rows(lp.A_ub), b_ub=[exact_str(v) for v in lp.b_ub],
                            names=None if lp.names is None else [str(v) for v in lp.names],
                            y=[exact_str(v) for v in y], lam=[exact_str(v) for v in lam],
                            combination=[exact_str(v) for v in w], rhs=exact_str(rhs))
    # the claim states the system itself, the statement only as a label unless it is the system as written there
    # (issue 27); the wording is the re-check's own, so the claim reads one way
    from ..recheck.infeasible import claim_text
    return Certificate("infeasible", Verdict.HOLDS, Method.EXACT_LP, claim_text({"evidence": ev.to_json()}), ev)
