"""Exact LP judgements shared by the kinds that carry an LP optimum: optimality from a primal and a dual.

:func:`check_lp` verifies ``min c.x`` subject to ``A_eq x = b_eq``, ``A_ub x <= b_ub``, ``x >= 0`` from a stated
primal and dual (feasibility of both and a zero gap, every sign decided exactly); :func:`rank` is the exact rank
used by the uniqueness arguments.  Used by the ``lp``, ``optimality``, ``priors``, ``extension`` and ``utility``
kinds, none of which imports another.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import _add, _mul, _neg, fraction, reduced_costs, sign, value

# ----------------------------------------------------------------------------------------- the shape ----
#: an exact LP solution: value, primal x, duals y (equalities) and lam (inequalities), exact numbers as text
LP_SOLUTION = {"value": "str", "x": ["str"], "y": ["str"], "lam": ["str"]}


def rank(rows, n) -> int:
    """The rank of the matrix whose rows are ``{column: Fraction}`` maps over ``n`` columns, by Gaussian elimination
    in exact fractions (a float rank would decide uniqueness of an optimum by rounding)."""
    M = [[r.get(j, Fraction(0)) for j in range(n)] for r in rows]
    rank, col = 0, 0
    while rank < len(M) and col < n:
        # any non-zero pivot will do: in exact fractions there is no rounding for a pivoting strategy to control
        piv = next((i for i in range(rank, len(M)) if M[i][col] != 0), None)
        if piv is None:
            col += 1
            continue
        M[rank], M[piv] = M[piv], M[rank]
        for i in range(rank + 1, len(M)):
            if M[i][col] != 0:
                f = M[i][col] / M[rank][col]
                M[i] = [a - f * b for a, b in zip(M[i], M[rank], strict=True)]
        rank, col = rank + 1, col + 1
    return rank


def _dot(pairs):
    """The exact sum of products ``a * b`` over ``pairs``, in the kernel's arithmetic (fractions or exact values)."""
    out = Fraction(0)
    for a, b in pairs:
        out = _add(out, _mul(a, b))
    return out


def _num(v: str):
    """An exact number of this kernel: a Fraction when the text is rational, else a sum of square roots."""
    try:
        return fraction(v)
    except ValueError:
        return value(v)


def check_lp(c, A_eq, b_eq, A_ub, b_ub, lp: dict):
    """Verify an LP optimum ``min c.x, A_eq x = b_eq, A_ub x <= b_ub, x >= 0`` from its primal and dual.

    The checks: a rational primal that is feasible, ``lam >= 0``, reduced costs
    ``c - A_eq^T y + A_ub^T lam >= 0`` and zero gap ``c.x = b_eq.y - b_ub.lam = value``.  Costs and duals may be
    sums of square roots (radical losses such as ``|i - j|^(3/2)``): every sign is then decided by this kernel's
    exact zero test and intervals.

    Parameters
    ----------
    c : list
        The costs (fractions or exact values of this kernel).
    A_eq, A_ub : list of dict
        The constraint rows, column index -> fraction.
    b_eq, b_ub : list
        The right-hand sides (fractions).
    lp : dict
        The stated solution: ``x``, ``y``, ``lam`` and ``value`` (texts).

    Returns
    -------
    tuple
        ``(ok, detail)``.

    Examples
    --------
    ``min x0`` subject to ``x0 = 1``: the dual ``y = 1`` closes the gap.

    >>> one = Fraction(1)
    >>> lp = {"x": ["1"], "y": ["1"], "lam": [], "value": "1"}
    >>> check_lp([one], [{0: one}], [one], [], [], lp)
    (True, 'primal feasible, dual feasible, zero gap at 1')
    >>> check_lp([one], [{0: one}], [one], [], [], {**lp, "y": ["2"]})
    (False, 'a negative reduced cost: the dual is infeasible')
    """
    x = [_num(v) for v in lp["x"]]
    y = [_num(v) for v in lp["y"]]
    lam = [_num(v) for v in lp["lam"]]
    if not all(isinstance(v, Fraction) for v in x):
        return False, "the primal vertex is not rational"
    if len(x) != len(c) or len(y) != len(A_eq) or len(lam) != len(A_ub):
        return False, "the primal or dual has the wrong length"
    if any(v < 0 for v in x) or any(sign(v) < 0 for v in lam):
        return False, "a negative primal value or inequality dual"
    for row, b in zip(A_eq, b_eq, strict=True):
        if sum(a * x[j] for j, a in row.items()) != b:
            return False, "an equality constraint is violated by the primal"
    for row, b in zip(A_ub, b_ub, strict=True):
        if sum(a * x[j] for j, a in row.items()) > b:
            return False, "an inequality constraint is violated by the primal"
    # dual feasible (reduced costs >= 0, lam >= 0): by weak duality every feasible x has c.x >= b_eq.y - b_ub.lam
    red = reduced_costs(c, A_eq, y, A_ub, lam)
    if any(sign(r) < 0 for r in red):
        return False, "a negative reduced cost: the dual is infeasible"
    # zero gap: the feasible x attains that lower bound, so it is optimal and the stated value is the optimum
    primal = _dot(zip(c, x, strict=True))
    dual = _add(_dot(zip(b_eq, y, strict=True)), _neg(_dot(zip(b_ub, lam, strict=True))))
    if sign(_add(primal, _neg(dual))) != 0 or sign(_add(primal, _neg(_num(lp["value"])))) != 0:
        return False, f"duality gap: the primal value, the dual value and the stated {lp['value']} differ"
    return True, f"primal feasible, dual feasible, zero gap at {lp['value']}"
