"""The exact LP optimality check, written once over the two number types of a cost (issue 31, item 4).

An LP certificate (``minimise cost.x`` subject to ``A_eq x = b_eq``, ``A_ub x <= b_ub``, ``x >= 0``, rational
constraints) is checked the same way whether the cost is rational (:mod:`exactdp.exact.lp`) or a vector of real
radicals (:mod:`exactdp.exact.lp_irrational`, GRS12's ``|i - j|^(3/2)``): primal feasibility, ``lam >= 0``, the
reduced costs ``cost - A_eq^T y + A_ub^T lam`` as stated and ``>= 0``, zero on the support of ``x``, and a zero
gap (the LP duality theorem, e.g. Schrijver, *Theory of Linear and Integer Programming*, Cor. 7.1g). Only the
arithmetic differs -- which zero, which sign -- and :class:`Arith` names it (the number domain of
:mod:`exactdp.exact.domain`). The rank test that certifies a unique optimum is written once too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flint import fmpq

from .lp_sparse import SparseLU
from .radical import Rad

__all__ = ["RADICALS", "RATIONALS", "Arith", "dot", "face_is_point", "optimal", "reduced_costs"]


@dataclass(frozen=True)
class Arith:
    """The arithmetic of a cost: its zero and an exact sign.

    Parameters
    ----------
    zero : Any
        The additive zero (``fmpq(0)`` or ``Rad()``).
    sign : callable
        The exact sign of a value, ``-1``, ``0`` or ``1``.
    is_zero : callable
        The exact zero test (cheaper than a sign for radicals: linear independence, no balls).

    Examples
    --------
    >>> RATIONALS.sign(fmpq(-1, 2)), RADICALS.sign(Rad.power(2, fmpq(1, 3)) - 1)
    (-1, 1)
    """

    zero: Any
    sign: Callable[[Any], int]
    is_zero: Callable[[Any], bool]


#: rational costs (:mod:`exactdp.exact.lp`)
RATIONALS = Arith(fmpq(0), lambda v: (v > 0) - (v < 0), lambda v: v == 0)
#: real-radical costs, signs by :meth:`Rad.sign` (:mod:`exactdp.exact.lp_irrational`)
RADICALS = Arith(Rad(), lambda v: v.sign() if isinstance(v, Rad) else (v > 0) - (v < 0),
                 lambda v: v.is_zero() if isinstance(v, Rad) else v == 0)


def dot(row: dict, x: list, zero: Any = None) -> Any:
    """``sum_j row[j] x[j]`` for a sparse row, starting from ``zero`` (default the rational 0).

    Parameters
    ----------
    row : dict
        Column -> coefficient.
    x : list
        The vector.
    zero : optional
        The sum's start (the arithmetic's zero).

    Returns
    -------
    number
        The exact dot product.

    Examples
    --------
    >>> dot({0: fmpq(1, 2), 2: fmpq(3)}, [fmpq(2), fmpq(5), fmpq(1, 3)])
    2
    """
    return sum((a * x[j] for j, a in row.items()), fmpq(0) if zero is None else zero)


def reduced_costs(lp: Any, cost: list, y: list, lam: list, arith: Arith = RATIONALS) -> list:
    """``cost - A_eq^T y + A_ub^T lam``, exactly in the cost's arithmetic.

    Parameters
    ----------
    lp : LinearProgram
        The constraints.
    cost : list
        The cost vector.
    y, lam : list
        The multipliers of the equalities and of the inequalities.
    arith : Arith
        The arithmetic of ``cost``, ``y`` and ``lam``.

    Returns
    -------
    list
        The reduced costs.

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 2}], b_eq=[2])
    >>> reduced_costs(lp, lp.c, [fmpq(1, 2)], [])
    [1/2, 0]
    """
    red = list(cost)
    for rows, mult, s in ((lp.A_eq, y, -1), (lp.A_ub, lam, 1)):
        for r, m in zip(rows, mult, strict=True):
            if not arith.is_zero(m):
                for j, a in r.items():
                    red[j] = red[j] + m * a if s > 0 else red[j] - m * a
    return red


def optimal(lp: Any, cost: list, x: list, y: list, lam: list, reduced: list, value: Any,
            arith: Arith = RATIONALS) -> bool:
    """Whether ``x`` is an optimum of ``min cost.x`` with the dual ``(y, lam)`` as its certificate, exactly.

    Parameters
    ----------
    lp : LinearProgram
        The rational constraints.
    cost : list
        The cost (rational, or :class:`Rad` numbers).
    x : list
        The rational primal point.
    y, lam : list
        The dual multipliers.
    reduced : list
        The stated reduced costs.
    value : number
        The stated optimal value.
    arith : Arith
        The arithmetic of the cost.

    Returns
    -------
    bool
        True when ``x >= 0`` is feasible, ``lam >= 0``, ``reduced`` is re-derived, ``>= 0`` and zero on the
        support of ``x``, and ``cost.x = b_eq.y - b_ub.lam = value``.

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 2}], b_eq=[2])
    >>> one, half = fmpq(1), fmpq(1, 2)
    >>> optimal(lp, lp.c, [0, one], [half], [], [half, 0], one), optimal(lp, lp.c, [2, 0], [one], [], [0, -1], 2)
    (True, False)
    """
    z, sg = arith.zero, arith.sign
    if len(x) != lp.n or len(y) != len(lp.b_eq) or len(lam) != len(lp.b_ub):
        return False
    ok = all(v >= 0 for v in x)
    ok = ok and all(dot(r, x) == b for r, b in zip(lp.A_eq, lp.b_eq, strict=True))
    ok = ok and all(dot(r, x) <= b for r, b in zip(lp.A_ub, lp.b_ub, strict=True))
    ok = ok and all(sg(v) >= 0 for v in lam)
    if not ok:
        return False
    red = reduced_costs(lp, cost, y, lam, arith)
    if not (red == list(reduced) and all(sg(v) >= 0 for v in red)
            and all(arith.is_zero(red[j]) for j in range(lp.n) if x[j] != 0)):
        return False
    primal = sum((c * v for c, v in zip(cost, x, strict=True) if v != 0), z)
    dual = sum((m * b for m, b in zip(y, lp.b_eq, strict=True)), z) - sum(
        (m * b for m, b in zip(lam, lp.b_ub, strict=True)), z)
    return bool(primal == dual == value)


def face_is_point(lp: Any, free: list, tight: list) -> bool | None:
    """True if the optimal face is one point (full column rank of its equations on the free coordinates).

    The optimal face is ``{x >= 0 : A_eq x = b_eq, A_ub x <= b_ub, x_j = 0 off free, rows tight equal}``
    (complementary slackness with a verified dual); ``None`` when the rank test does not certify it.

    Parameters
    ----------
    lp : LinearProgram
        The constraints.
    free : list of int
        The variables with a zero reduced cost.
    tight : list of int
        The inequality rows with a positive multiplier.

    Returns
    -------
    bool or None
        True (one point) or None (not certified).

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    >>> face_is_point(lp, [0, 1], []), face_is_point(lp, [1], [])
    (None, True)
    """
    if not free:
        return True
    fidx = {j: k for k, j in enumerate(free)}
    rows = [{fidx[j]: a for j, a in r.items() if j in fidx} for r in lp.A_eq]
    rows += [{fidx[j]: a for j, a in lp.A_ub[k].items() if j in fidx} for k in tight]
    return True if SparseLU(rows, len(free)).rank == len(free) else None
