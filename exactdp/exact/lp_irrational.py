"""Exact LP with rational constraints and an irrational (radical) cost.

Problem form: minimise ``c.x`` subject to ``A_eq x = b_eq``, ``A_ub x <= b_ub``,
``x >= 0``, where the constraints are exact rationals (a
:class:`~exactdp.exact.lp.LinearProgram`, whose own ``c`` is ignored) and
``c_j`` are :class:`~exactdp.exact.radical.Rad` numbers
``c = c_0 + sum_k c_k r_k`` (``r_k`` real radical atoms, ``c_k`` rational
vectors).  GRS12 needs it for the losses ``|i - j|^(3/2)`` and
``|j - i|^(1 - delta)`` (journal version, Fig. 3(a) and App. C).

Method (docs/architecture.md#sec-kernel: floats guide, exact arithmetic decides):

1. HiGHS solves the LP with the float cost and returns a *basis* (which
   columns and which row activities are basic).
2. The primal vertex is rebuilt exactly from the basis: non-basic columns are
   0 and non-basic rows are at their bound, a square rational system.  The
   constraints are rational, so the vertex is rational.
3. The dual ``u`` solves ``B^T u = c_B``; as ``c`` is linear in the atoms, it
   is one rational solve per atom component, and ``u`` is a :class:`Rad` vector.
4. Reduced costs ``c - A^T u`` are exact linear forms in the atoms; their
   signs (and the signs of the inequality multipliers) are decided exactly by
   :meth:`Rad.sign <exactdp.exact.radical.Rad.sign>`; the duality gap
   ``c.x - b.u`` is checked to be exactly zero.

Nothing is returned unless all checks pass; otherwise
:class:`~exactdp.errors.Undecided` says which one failed.

>>> from flint import fmpq
>>> from exactdp.exact.lp import LinearProgram
>>> from exactdp.exact.radical import Rad
>>> lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
>>> sol = solve_lp_irrational(lp, [Rad.power(2, fmpq(1, 2)), fmpq(7, 5)])
>>> sol.x, sol.value
([0, 1], Rad('7/5'))
>>> sol.verify()
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from flint import fmpq, fmpq_mat

from ..errors import InvalidInput, Undecided
from .lp import LinearProgram
from .lp_check import RADICALS, face_is_point, optimal, reduced_costs
from .lp_float import quiet_highs
from .radical import Rad, to_rad

__all__ = ["IrrationalLPSolution", "optimal_face_constraints", "solve_lp_irrational"]


@dataclass
class IrrationalLPSolution:
    """An exactly verified optimum: rational vertex ``x``, :class:`Rad` duals and reduced costs.

    Built by :func:`solve_lp_irrational`; the dual ``(y, lam)`` proves
    optimality by weak duality, as for :class:`~exactdp.exact.LPSolution`
    but with costs, duals and value in the radicals of GRS12's losses
    ``|i - j|^(3/2)`` (Fig. 2, journal Fig. 3(a)) and ``|j - i|^(1 - delta)``
    (Thm 6.3, journal App. C).

    Parameters
    ----------
    lp : LinearProgram
        The constraints solved (its own ``c`` is not used).
    cost : list of Rad
        The cost, one entry per variable.
    value : Rad
        The optimum ``cost.x``.
    x : list of fmpq
        An optimal vertex.
    y : list of Rad
        Duals of the equalities (free).
    lam : list of Rad
        Duals of the inequalities (``>= 0``).
    reduced : list of Rad
        ``cost - A_eq^T y + A_ub^T lam`` (``>= 0``, zero on the support of
        ``x``).
    method : str
        How the optimum was found and verified.
    unique : bool or None, optional
        True when the optimal face is proved to be one point; None if not
        certified.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.lp import LinearProgram
    >>> from exactdp.exact.radical import Rad
    >>> lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    >>> sol = solve_lp_irrational(lp, [Rad.power(2, fmpq(1, 2)), fmpq(3, 2)])
    >>> sol.x, sol.value, sol.y, sol.reduced, sol.unique
    ([1, 0], Rad('2^(1/2)'), [Rad('2^(1/2)')], [Rad('0'), Rad('3/2 - 2^(1/2)')], True)
    """

    lp: LinearProgram
    cost: list       # Rad
    value: Rad
    x: list          # fmpq
    y: list          # Rad: duals of the equalities (free)
    lam: list        # Rad: duals of the inequalities (>= 0)
    reduced: list    # Rad: c - A_eq^T y + A_ub^T lam (>= 0, zero on the support of x)
    method: str
    unique: bool | None = None

    def atoms(self) -> list:
        """The radical atoms that occur in the cost (``()`` is the rational unit).

        The dual was found by one rational solve per atom.

        Returns
        -------
        list of tuple
            The atoms, sorted (see :class:`~exactdp.exact.Rad`).

        Examples
        --------
        >>> from flint import fmpq
        >>> from exactdp.exact.lp import LinearProgram
        >>> from exactdp.exact.radical import Rad
        >>> lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
        >>> solve_lp_irrational(lp, [Rad.power(2, fmpq(1, 2)), fmpq(3, 2)]).atoms()
        [(), ((2, 1/2),)]
        """
        return sorted({a for c in self.cost for a, _ in c.terms})

    def verify(self) -> bool:
        """Re-check primal feasibility, dual feasibility (exact signs) and zero gap exactly.

        The signs of the radical multipliers and reduced costs are decided by
        :meth:`Rad.sign <exactdp.exact.radical.Rad.sign>`.

        Returns
        -------
        bool
            True when ``x >= 0`` is feasible, ``lam >= 0``, the reduced costs
            are as stored, ``>= 0`` and zero on the support of ``x``, and
            ``cost.x = b_eq.y - b_ub.lam = value``.

        Examples
        --------
        >>> from flint import fmpq
        >>> from exactdp.exact.lp import LinearProgram
        >>> from exactdp.exact.radical import Rad
        >>> lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
        >>> sol = solve_lp_irrational(lp, [Rad.power(2, fmpq(1, 2)), fmpq(3, 2)])
        >>> sol.verify()
        True
        >>> sol.value = Rad.rat(fmpq(7, 5)); sol.verify()
        False
        """
        return optimal(self.lp, self.cost, self.x, self.y, self.lam, self.reduced, self.value, RADICALS)


def _reduced(lp, cost, y, lam):
    return reduced_costs(lp, cost, y, lam, RADICALS)


def _highs_basis(lp: LinearProgram, cost_f):
    """HiGHS on the float problem: ``(basic columns, basic rows)`` of its optimal basis."""
    import highspy

    h = quiet_highs()
    n = lp.n
    inf = highspy.kHighsInf
    h.addVars(n, np.zeros(n), np.full(n, inf))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(cost_f, dtype=float))
    rows = list(lp.A_eq) + list(lp.A_ub)
    lo = [float(b) for b in lp.b_eq] + [-inf] * len(lp.A_ub)
    hi = [float(b) for b in lp.b_eq] + [float(b) for b in lp.b_ub]
    for r, a, b in zip(rows, lo, hi, strict=True):
        idx = np.array(sorted(r), dtype=np.int32)
        h.addRow(a, b, len(idx), idx, np.array([float(r[j]) for j in idx], dtype=float))
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise Undecided(f"the float LP solver reported {h.modelStatusToString(status)}; infeasibility and "
                        "unboundedness are not certified exactly here")
    basis = h.getBasis()
    basic = highspy.HighsBasisStatus.kBasic
    cols = [j for j in range(n) if basis.col_status[j] == basic]
    brows = {i for i in range(len(rows)) if basis.row_status[i] == basic}
    return cols, brows


def _solve_square(rows, rhs_list, ncols):
    """Solve ``M z = rhs`` for each right-hand side (``M`` square, given by sparse rows); None if singular."""
    if ncols == 0:
        return [[] for _ in rhs_list]
    M = fmpq_mat(len(rows), ncols)
    for i, r in enumerate(rows):
        for j, v in r.items():
            M[i, j] = v
    if len(rows) != ncols or M.rank() != ncols:
        return None
    B = fmpq_mat(ncols, len(rhs_list))
    for k, rhs in enumerate(rhs_list):
        for i, v in enumerate(rhs):
            B[i, k] = v
    Z = M.solve(B)
    return [[Z[i, k] for i in range(ncols)] for k in range(len(rhs_list))]


def solve_lp_irrational(lp: LinearProgram, cost: list) -> IrrationalLPSolution:
    """Solve ``min cost.x`` over the rational polytope of ``lp`` and return an exactly verified optimum.

    Floats choose the basis, exact arithmetic decides (module docstring,
    docs/architecture.md#sec-kernel): the vertex is rebuilt in rationals, the dual as one
    rational solve per radical atom, and the signs of the reduced costs are
    decided exactly.  GRS12 needs it for the user-specific LP (2)-(6)
    (journal (3)-(7)) with the losses ``|i - j|^(3/2)`` (Fig. 2) and
    ``|j - i|^(1 - delta)`` (Thm 6.3).

    Parameters
    ----------
    lp : LinearProgram
        The constraints (its ``c`` is ignored).
    cost : sequence of exact numbers
        ``int``, ``fmpq``, :class:`~exactdp.exact.lin.Lin` or :class:`~exactdp.exact.radical.Rad`, one per variable.

    Returns
    -------
    IrrationalLPSolution
        An optimal vertex with its dual, checked by
        :meth:`IrrationalLPSolution.verify`; ``unique`` is True when a rank
        test on the optimal face proves it one point, else None.

    Raises
    ------
    InvalidInput
        ``cost`` does not have one entry per variable, or an entry is a
        :class:`~exactdp.exact.lin.Lin` with the symbolic ``eps``.
    InvalidType
        An entry is not an exact number (a binary float, say).
    Undecided
        The float solver reports the LP infeasible or unbounded (not
        certified here; use :func:`~exactdp.exact.solve_lp` on a rational
        cost), or its basis does not pass the exact checks (no answer is
        guessed).

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.lp import LinearProgram
    >>> from exactdp.exact.radical import Rad
    >>> lp = LinearProgram(c=[0, 0], A_ub=[{0: 1, 1: 1}, {0: 1}], b_ub=[1, fmpq(1, 2)])
    >>> sol = solve_lp_irrational(lp, [-Rad.power(2, fmpq(1, 2)), -1])     # max sqrt(2) x0 + x1
    >>> sol.x, sol.value, sol.lam
    ([1/2, 1/2], Rad('-1/2 - 2^(1/2)/2'), [Rad('1'), Rad('-1 + 2^(1/2)')])
    >>> solve_lp_irrational(lp, [Rad.power(2, fmpq(1, 2))])
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: cost: expected 2 entries (one per variable), got 1
    """
    cost = [to_rad(c) for c in cost]
    if len(cost) != lp.n:
        raise InvalidInput(f"cost: expected {lp.n} entries (one per variable), got {len(cost)}")
    cols, brows = _highs_basis(lp, [float(c) for c in cost])
    rows = list(lp.A_eq) + list(lp.A_ub)
    rhs = list(lp.b_eq) + list(lp.b_ub)
    m_eq = len(lp.A_eq)
    nb_rows = [i for i in range(len(rows)) if i not in brows]
    cidx = {j: k for k, j in enumerate(cols)}
    # primal: non-basic rows at their bound, non-basic columns at 0
    prim = _solve_square([{cidx[j]: a for j, a in rows[i].items() if j in cidx} for i in nb_rows],
                         [[rhs[i] for i in nb_rows]], len(cols))
    if prim is None:
        raise Undecided("the float basis is singular in exact arithmetic; no verified optimum")
    x = [fmpq(0)] * lp.n
    for j, v in zip(cols, prim[0], strict=True):
        x[j] = v
    # dual: B^T u = c_B, one rational solve per atom of the cost
    atoms = sorted({a for c in cost for a, _ in c.terms})
    ridx = {i: k for k, i in enumerate(nb_rows)}
    trows = [{ridx[i]: rows[i][j] for i in nb_rows if j in rows[i]} for j in cols]
    comps = [[cost[j].components().get(a, fmpq(0)) for j in cols] for a in atoms]
    duals = _solve_square(trows, comps, len(cols)) if atoms else [[]]
    if duals is None:
        raise Undecided("the float basis is singular in exact arithmetic (dual); no verified optimum")
    u = [Rad()] * len(rows)
    for a, sol in zip(atoms, duals, strict=True):
        for k, i in enumerate(nb_rows):
            if sol[k] != 0:
                u[i] = u[i] + Rad(((a, sol[k]),))
    y, lam = u[:m_eq], [-v for v in u[m_eq:]]
    red = _reduced(lp, cost, y, lam)
    value = sum((c * xi for c, xi in zip(cost, x, strict=True) if xi != 0), Rad())
    sol = IrrationalLPSolution(lp, cost, value, x, y, lam, red,
                               method="HiGHS basis (floating point) rebuilt exactly: rational vertex, dual as one "
                                      f"rational solve per radical component ({len(atoms)}), reduced costs as exact "
                                      "linear forms in the radicals whose signs are decided exactly, zero gap")
    if not sol.verify():
        raise Undecided("the float basis did not pass the exact checks (primal feasibility, exact signs of the "
                        "reduced costs and multipliers, zero gap); no verified optimum")
    sol.unique = _unique(lp, sol)
    return sol


def optimal_face_constraints(sol: IrrationalLPSolution) -> tuple[list[int], list[int]]:
    """The optimal face as rational constraints (complementary slackness with the verified dual).

    Together with the LP's own constraints, ``x_j = 0`` for ``j`` in ``zero``
    and equality in the rows ``tight`` describe exactly the set of optimal
    solutions: a feasible point is optimal iff it is complementary to the
    verified dual.  GRS12 Fig. 3 (journal Fig. 3(b)) draws such a pattern of
    tight and slack privacy constraints.

    Parameters
    ----------
    sol : IrrationalLPSolution
        A verified optimum from :func:`solve_lp_irrational`.

    Returns
    -------
    zero : list of int
        The variables with a positive reduced cost (0 on every optimum).
    tight : list of int
        The inequality rows with a positive multiplier (tight on every
        optimum).

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.lp import LinearProgram
    >>> from exactdp.exact.radical import Rad
    >>> r = Rad.power(2, fmpq(1, 2))
    >>> lp = LinearProgram(c=[0, 0, 0], A_eq=[{0: 1, 1: 1, 2: 1}], b_eq=[1])
    >>> sol = solve_lp_irrational(lp, [r, r, 2])      # x0 + x1 = 1 is the optimal face
    >>> optimal_face_constraints(sol), sol.unique
    (([2], []), None)
    """
    zero = [j for j in range(sol.lp.n) if sol.reduced[j].sign() > 0]
    tight = [k for k in range(len(sol.lp.A_ub)) if sol.lam[k].sign() > 0]
    return zero, tight


def _unique(lp, sol):
    """True if the optimal face is a single point (rank test on its equations); None if not certified."""
    zero, tight = optimal_face_constraints(sol)
    return face_is_point(lp, [j for j in range(lp.n) if j not in set(zero)], tight)
