"""Exact revised simplex that starts from a given basis (normally HiGHS's).

Internal form (:class:`StandardForm`)::

    minimise c.x   subject to   A x + s = b,   x >= 0,  s >= 0,

with the rows of ``A`` being ``A_ub``, then ``A_eq`` and ``-A_eq`` (an
equality is two inequalities, so every variable has the single bound
``>= 0``).  A basis is a set of basic structurals ``C`` and a set of rows
whose slack is basic; the remaining rows ``R`` with ``|R| = |C|`` carry the
basis matrix ``M = A[R, C]``, factorised exactly and sparsely
(:class:`exactdp.exact.lp_sparse.SparseLU`).  Basic slacks are then read off
their rows.

From the start basis:

* if the basic solution is exactly primal feasible, phase 2 (primal simplex)
  runs directly -- for an optimal float basis with zero pivots;
* otherwise phase 1 is the dual simplex on shifted costs: every non-basic
  variable with a negative reduced cost has its cost raised until that
  reduced cost is 0, which makes the start basis dual feasible; the dual
  simplex then restores primal feasibility (or finds a leaving row with no
  entering candidate: its row of ``B^-1`` is a Farkas certificate of
  infeasibility), and phase 2 runs with the true costs.  A float basis that
  is dual feasible but slightly primal infeasible (the usual failure after
  HiGHS's tolerances) needs no shift at all.

Pricing is Dantzig's rule; after a run of degenerate pivots it switches to
Bland's rule (smallest index enters and leaves), which cannot cycle, until
the objective moves again.  Each pivot refactorises from scratch: the
factorisation is cheap on these sparse bases and the engine is meant to
*repair* a nearly optimal basis in few pivots.
"""

from __future__ import annotations

from flint import fmpq

from ..errors import Undecided
from .lp_sparse import SparseLU

__all__ = ["ExactSimplex", "Infeasible", "Optimal", "StandardForm", "Unbounded"]

_ZERO = fmpq(0)
_DEGENERATE_RUN = 20


class StandardForm:
    """``min c.x``, ``A x + s = b``, ``x, s >= 0`` from a :class:`~exactdp.exact.lp.LinearProgram`.

    Parameters
    ----------
    lp : LinearProgram
        The LP; its rows become ``A_ub``, then ``A_eq``, then ``-A_eq``.

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1}], b_ub=[2])
    >>> sf = StandardForm(lp)
    >>> sf.m, sf.rows, sf.b
    (3, [{0: 1}, {0: 1, 1: 1}, {0: -1, 1: -1}], [2, 1, -1])
    """

    def __init__(self, lp):
        self.lp = lp
        self.n = lp.n
        self.m_ub, self.m_eq = len(lp.A_ub), len(lp.A_eq)
        self.rows = [dict(r) for r in lp.A_ub] + [dict(r) for r in lp.A_eq] + \
                    [{j: -v for j, v in r.items()} for r in lp.A_eq]
        self.b = list(lp.b_ub) + list(lp.b_eq) + [-v for v in lp.b_eq]
        self.m = len(self.rows)
        self.cols: list[dict] = [{} for _ in range(self.n)]
        for k, r in enumerate(self.rows):
            for j, v in r.items():
                self.cols[j][k] = v

    def duals_to_lp(self, u):
        """Return the LP's duals ``(y, lam)`` from row duals ``u`` of ``A x + s = b``.

        ``lam = -u`` on the ``A_ub`` rows; ``y`` is the difference of the duals of the ``A_eq`` and
        ``-A_eq`` rows.

        Parameters
        ----------
        u : dict
            Row position -> dual (missing = 0).

        Returns
        -------
        y : list
            One per equality.
        lam : list
            One per inequality.

        Examples
        --------
        >>> from exactdp.exact.lp import LinearProgram
        >>> lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1}], b_ub=[2])
        >>> StandardForm(lp).duals_to_lp({0: -2, 1: 5, 2: 1})      # y = 5 - 1, lam = 2
        ([4], [2])
        """
        lam = [-u.get(k, _ZERO) for k in range(self.m_ub)]
        y = [u.get(self.m_ub + i, _ZERO) - u.get(self.m_ub + self.m_eq + i, _ZERO) for i in range(self.m_eq)]
        return y, lam


class Optimal:
    """An optimal vertex with its duals, as :meth:`ExactSimplex.run` returns it.

    Parameters
    ----------
    x : list
        The vertex.
    y, lam : list
        The duals of the equalities and inequalities.
    pivots : int
        Exact pivots taken.

    Examples
    --------
    ``min 2 x0 + 3 x1`` with ``x0 + x1 >= 4``: all on the cheaper ``x0``, dual price 2.

    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}], b_ub=[-4])
    >>> res = ExactSimplex(StandardForm(lp), set(), {0}).run(lp.c)
    >>> type(res).__name__, res.x, res.lam
    ('Optimal', [4, 0], [2])
    """

    def __init__(self, x, y, lam, pivots):
        self.x, self.y, self.lam, self.pivots = x, y, lam, pivots


class Infeasible:
    """Farkas certificate: ``A_ub^T lam - A_eq^T y >= 0``, ``lam >= 0``, ``b_ub.lam - b_eq.y < 0``.

    Parameters
    ----------
    y, lam : list
        The multipliers of the equalities and inequalities.
    pivots : int
        Exact pivots taken.

    Examples
    --------
    ``x0 <= -1`` with ``x0 >= 0``: ``lam = 1`` gives ``1 >= 0`` and ``-1 < 0``.

    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[0], A_ub=[{0: 1}], b_ub=[-1])
    >>> res = ExactSimplex(StandardForm(lp), set(), {0}).run(lp.c)
    >>> type(res).__name__, res.y, res.lam
    ('Infeasible', [], [1])
    """

    def __init__(self, y, lam, pivots):
        self.y, self.lam, self.pivots = y, lam, pivots


class Unbounded:
    """A feasible ``x`` and a ray ``r >= 0`` with ``A_eq r = 0``, ``A_ub r <= 0``, ``c.r < 0``.

    Parameters
    ----------
    x : list
        A feasible point.
    ray : list
        The ray.
    pivots : int
        Exact pivots taken.

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[-1], A_ub=[{0: -1}], b_ub=[0])       # min -x0, x0 >= 0
    >>> res = ExactSimplex(StandardForm(lp), set(), {0}).run(lp.c)
    >>> type(res).__name__, res.x, res.ray
    ('Unbounded', [0], [1])
    """

    def __init__(self, x, ray, pivots):
        self.x, self.ray, self.pivots = x, ray, pivots


class _Factor:
    """The basis ``B0`` of one refactorisation: ``M = A[R, C]`` factorised; full ``B0`` solves from it.

    ``B0 z = a``: ``z_C = M^-1 a_R`` and a basic slack ``z_(s,k) = a_k - A[k, C] z_C``.
    ``B0^T u = g``: ``u_k = g_(s,k)`` on rows with a basic slack and ``u_R = M^-T (g_C - A[S, C]^T g_S)``.
    """

    def __init__(self, sf, C, basic_rows):
        self.sf = sf
        self.C = sorted(C)
        self.rows_b = set(basic_rows)
        self.R = [k for k in range(sf.m) if k not in self.rows_b]
        self.cpos = {j: p for p, j in enumerate(self.C)}
        mrows = [{self.cpos[j]: v for j, v in sf.rows[k].items() if j in self.cpos} for k in self.R]
        self.lu = SparseLU(mrows, len(self.C))
        self.ok = len(self.R) == len(self.C) and self.lu.is_square_nonsingular()
        self.neg: set = set()  # positions in R whose row is the negative of the factorised one

    def swap_rows(self, pairs):
        """Exchange basis rows for their negatives without refactorising: ``pairs`` of (row in ``R``, basic row
        whose constraint is its negative), as the two internal rows ``a.x + s+ = b`` and ``-a.x + s- = -b`` of
        an equality.  With ``D`` the diagonal of signs, ``(D M) z = a`` is ``M z = D a`` and ``(D M)^T u = g``
        is ``u = D M^-T g``."""
        pos = {k: i for i, k in enumerate(self.R)}
        for old, new in pairs:
            i = pos[old]
            self.R[i] = new
            self.neg ^= {i}
            self.rows_b.discard(new)
            self.rows_b.add(old)

    def solve(self, a):
        """``B0^-1 a`` (``a`` by row) as dict basic variable -> non-zero component."""
        sf = self.sf
        neg = self.neg
        z = self.lu.solve({i: (-a[k] if i in neg else a[k]) for i, k in enumerate(self.R) if k in a})
        zc = {self.C[p]: v for p, v in z.items() if v != 0}
        d = {("x", j): v for j, v in zc.items()}
        touched = set(a)
        for j in zc:
            touched.update(sf.cols[j])
        for k in touched & self.rows_b:
            v = a.get(k, _ZERO) - sum((w * zc[j] for j, w in sf.rows[k].items() if j in zc), _ZERO)
            if v != 0:
                d[("s", k)] = v
        return d

    def solve_transpose(self, g):
        """``u`` (dict by row) with ``B0^T u = g`` (``g`` by basic variable of ``B0``)."""
        sf = self.sf
        gs = {idx: v for (kind, idx), v in g.items() if kind == "s" and v != 0}
        rhs = {}
        for (kind, j), v in g.items():
            if kind == "x" and v != 0:
                rhs[self.cpos[j]] = v
        for k, v in gs.items():
            for j, a in sf.rows[k].items():
                if j in self.cpos:
                    rhs[self.cpos[j]] = rhs.get(self.cpos[j], _ZERO) - a * v
        neg = self.neg
        u = {self.R[i]: (-v if i in neg else v) for i, v in self.lu.solve_transpose(rhs).items()}
        u.update(gs)
        return u


class ExactSimplex:
    """Exact primal simplex over a :class:`StandardForm` from the basis ``(C, basic_rows)``.

    The basis after ``k`` pivots is ``B0 E_1 ... E_k`` (product form): each eta matrix ``E_i`` is the identity
    with the column of the leaving variable replaced by ``B_(i-1)^-1 a_entering``; the exact LU of ``B0`` is
    rebuilt every ``_REFACTOR`` pivots.  Basic values are updated exactly along each pivot.

    Parameters
    ----------
    sf : StandardForm
        The LP in standard form.
    C : set of int
        The basic structural variables.
    basic_rows : iterable of int
        The rows whose slack is basic.
    factor : optional
        A factorisation of exactly this basis, when the caller built one to choose it.

    Examples
    --------
    From the slack basis (no structural basic; both slacks basic), which is primal infeasible here:

    >>> from exactdp.exact.lp import LinearProgram
    >>> lp = LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2])
    >>> res = ExactSimplex(StandardForm(lp), set(), {0, 1}).run(lp.c)
    >>> type(res).__name__, res.x, res.lam, res.pivots
    ('Optimal', [4, 0], [2, 0], 1)
    """

    _REFACTOR = 40

    def __init__(self, sf, C, basic_rows, factor=None):
        self.sf = sf
        self.pivots = 0
        # a factorisation of exactly this basis may be handed over (the caller built it to choose the basis)
        self.factor = factor if factor is not None else _Factor(sf, C, basic_rows)
        if not self.factor.ok:
            self._repair_basis(C)
        self._reset()

    # -- basis bookkeeping -------------------------------------------------------------------------------
    def _repair_basis(self, C):
        """Keep a maximal independent set of the basic columns and complete with slacks (always valid)."""
        sf = self.sf
        C = sorted(C)
        cpos = {j: p for p, j in enumerate(C)}
        lu = SparseLU([{cpos[j]: v for j, v in r.items() if j in cpos} for r in sf.rows], len(C))
        keep = {C[c] for _r, c, _row, _ops in lu.steps}
        pivot_rows = {r for r, _c, _row, _ops in lu.steps}
        self.factor = _Factor(sf, keep, [k for k in range(sf.m) if k not in pivot_rows])
        if not self.factor.ok:
            raise Undecided("internal error (a bug, please report): a completed slack basis is singular")

    def _reset(self):
        """Start a fresh product form at the current basis and recompute the basic values."""
        f = self.factor
        self.etas = []
        self.basic = {("x", j) for j in f.C} | {("s", k) for k in f.rows_b}
        sf = self.sf
        b = {k: sf.b[k] for k in range(sf.m) if sf.b[k] != 0}
        self.val = {v: _ZERO for v in self.basic}
        self.val.update(f.solve(b))

    def _refactor(self):
        C = [j for kind, j in self.basic if kind == "x"]
        rows_b = [k for kind, k in self.basic if kind == "s"]
        self.factor = _Factor(self.sf, C, rows_b)
        if not self.factor.ok:
            raise Undecided("internal error (a bug, please report): a basis reached by exact pivots is singular")
        self._reset()

    def _column(self, var):
        kind, idx = var
        return dict(self.sf.cols[idx]) if kind == "x" else {idx: fmpq(1)}

    def _ftran(self, a):
        """``B^-1 a`` for the current basis (dict basic variable -> non-zero component)."""
        w = self.factor.solve(a)
        for p, q, d in self.etas:
            zq = w.pop(p, _ZERO) / d[p]
            if zq != 0:
                for i, di in d.items():
                    if i != p:
                        v = w.get(i, _ZERO) - di * zq
                        if v != 0:
                            w[i] = v
                        else:
                            w.pop(i, None)
                w[q] = zq
        return w

    def _btran(self, g):
        """``u`` with ``B^T u = g`` (``g`` by current basic variable)."""
        g = {v: x for v, x in g.items() if x != 0}
        for p, q, d in reversed(self.etas):
            cq = g.pop(q, _ZERO)
            s = cq - sum((di * g[i] for i, di in d.items() if i != p and i in g), _ZERO)
            if s != 0:
                g[p] = s / d[p]
        return self.factor.solve_transpose(g)

    def _duals(self, cost):
        return self._btran({v: cost.get(v[1] if v[0] == "x" else v, _ZERO) for v in self.basic})

    def _reduced(self, cost, u):
        """Reduced costs of the non-basic variables: dict ``('x', j)`` / ``('s', k)`` -> value."""
        sf = self.sf
        red = {}
        for j, col in enumerate(sf.cols):
            if ("x", j) not in self.basic:
                red[("x", j)] = cost.get(j, _ZERO) - sum((v * u[k] for k, v in col.items() if k in u), _ZERO)
        for k in range(sf.m):
            if ("s", k) not in self.basic:
                red[("s", k)] = cost.get(("s", k), _ZERO) - u.get(k, _ZERO)
        return red

    def _pivot(self, enter, leave, d, theta):
        """``enter`` replaces ``leave``; ``d = B^-1 a_enter``; values move by ``theta`` along ``-d``."""
        if theta != 0:
            for i, di in d.items():
                self.val[i] -= theta * di
        del self.val[leave]
        self.val[enter] = theta
        self.basic.discard(leave)
        self.basic.add(enter)
        self.etas.append((leave, enter, d))
        self.pivots += 1
        if len(self.etas) >= self._REFACTOR:
            self._refactor()

    @staticmethod
    def _key(var):
        return (0 if var[0] == "x" else 1, var[1])

    # -- the method -------------------------------------------------------------------------------------------
    def optimise(self, cost):
        """Run the primal simplex from a primal feasible basis.

        Reduced costs are updated along the pivot row (``red_j -= red_q / alpha_pq * alpha_pj``, exact, so
        they never drift) and recomputed from the duals at every refactorisation.

        Parameters
        ----------
        cost : dict
            Structural index -> cost (missing = 0).

        Returns
        -------
        tuple
            ``("optimal", basic values, row duals)`` or ``("unbounded", basic values, (entering, direction))``;
            basic values are keyed ``("x", j)`` or ``("s", k)``.

        Examples
        --------
        ``min -x0`` with ``x0 <= 3``, from the (feasible) slack basis:

        >>> from exactdp.exact.lp import LinearProgram
        >>> lp = LinearProgram(c=[-1], A_ub=[{0: 1}], b_ub=[3])
        >>> ExactSimplex(StandardForm(lp), set(), {0}).optimise({0: -1})
        ('optimal', {('x', 0): 3}, {0: -1})
        """
        degenerate = 0
        red = self._reduced(cost, self._duals(cost))
        while True:
            cand = [(v, r) for v, r in red.items() if r < 0]
            if not cand:
                return "optimal", self.val, self._duals(cost)
            bland = degenerate >= _DEGENERATE_RUN
            enter = min(cand, key=(lambda t: self._key(t[0])) if bland else (lambda t: (t[1], self._key(t[0]))))[0]
            d = self._ftran(self._column(enter))
            best = None
            for var, dv in d.items():
                if dv > 0:
                    ratio = self.val[var] / dv
                    if best is None or ratio < best[0] or (ratio == best[0] and self._key(var) < self._key(best[1])):
                        best = (ratio, var)
            if best is None:
                return "unbounded", self.val, (enter, d)
            leave = best[1]
            degenerate = degenerate + 1 if best[0] == 0 else 0
            alpha, _rho = self._row(leave)
            step = red.pop(enter) / d[leave]
            self._pivot(enter, leave, d, best[0])
            if not self.etas:  # refactorised: recompute from the duals
                red = self._reduced(cost, self._duals(cost))
                continue
            for v, a in alpha.items():
                if v != enter:
                    red[v] -= step * a
            red[leave] = -step

    def _row(self, p):
        """Row ``p`` of ``B^-1 [A I]`` on the non-basic variables, and ``rho = e_p^T B^-1`` (dict by row)."""
        sf = self.sf
        rho = self._btran({p: fmpq(1)})
        alpha = {}
        touched = set()
        for k in rho:
            touched.update(sf.rows[k])
        for j in touched:
            if ("x", j) not in self.basic:
                v = sum((a * rho[k] for k, a in sf.cols[j].items() if k in rho), _ZERO)
                if v != 0:
                    alpha[("x", j)] = v
        for k, v in rho.items():
            if ("s", k) not in self.basic:
                alpha[("s", k)] = v
        return alpha, rho

    def dual_simplex(self, cost):
        """Dual simplex from a dual feasible basis until it is primal feasible: None, or Farkas duals.

        The leaving variable is a basic one with negative value (the most negative; Bland's smallest index
        after a run of degenerate pivots); the entering one keeps every reduced cost non-negative.  If the
        leaving row ``x_p + sum alpha_j x_j = val_p < 0`` has no ``alpha_j < 0``, the LP is infeasible and
        ``rho = e_p^T B^-1`` is a Farkas certificate (``rho >= 0``, ``rho^T A >= 0``, ``rho^T b < 0``).

        Parameters
        ----------
        cost : dict
            Structural index -> cost (missing = 0), dual feasible at the current basis.

        Returns
        -------
        dict or None
            ``None`` once the basis is primal feasible; else the row duals ``u = -rho`` of infeasibility.

        Examples
        --------
        >>> from exactdp.exact.lp import LinearProgram
        >>> lp = LinearProgram(c=[0], A_ub=[{0: 1}], b_ub=[-1])         # x0 <= -1: infeasible
        >>> ExactSimplex(StandardForm(lp), set(), {0}).dual_simplex({})
        {0: -1}
        """
        degenerate = 0
        while True:
            neg = [(v, x) for v, x in self.val.items() if x < 0]
            if not neg:
                return None
            bland = degenerate >= _DEGENERATE_RUN
            p = min(neg, key=(lambda t: self._key(t[0])) if bland else (lambda t: (t[1], self._key(t[0]))))[0]
            alpha, rho = self._row(p)
            elig = [(v, a) for v, a in alpha.items() if a < 0]
            if not elig:
                return {k: -v for k, v in rho.items()}  # as row duals u = -rho (see run)
            red = self._reduced(cost, self._duals(cost))
            ratio = min(red[v] / -a for v, a in elig)
            q = min((v for v, a in elig if red[v] / -a == ratio), key=self._key)
            d = self._ftran(self._column(q))
            degenerate = degenerate + 1 if ratio == 0 else 0
            self._pivot(q, p, d, self.val[p] / d[p])

    def _phase_one(self, cost):
        """Primal feasibility by the dual simplex on shifted costs: a non-basic variable with a negative reduced
        cost gets its cost raised until that reduced cost is 0, so the start basis is dual feasible for the
        shifted costs (the shift changes no constraint, so feasibility and a Farkas certificate are unaffected).
        """
        if all(x >= 0 for x in self.val.values()):
            return None
        red = self._reduced(cost, self._duals(cost))
        shifted = dict(cost)
        for (kind, idx), r in red.items():
            if r < 0:
                key = idx if kind == "x" else (kind, idx)
                shifted[key] = cost.get(key, _ZERO) - r
        return self.dual_simplex(shifted)

    def run(self, cost):
        """Run phase 1 (dual simplex on shifted costs), then phase 2 (primal simplex) with ``cost``.

        Parameters
        ----------
        cost : sequence
            The cost of each structural variable.

        Returns
        -------
        Optimal or Infeasible or Unbounded
            The outcome with its certificate.

        Examples
        --------
        See :class:`Optimal`, :class:`Infeasible` and :class:`Unbounded`.

        >>> from exactdp.exact.lp import LinearProgram
        >>> lp = LinearProgram(c=[1], A_ub=[{0: -1}], b_ub=[-2])         # min x0, x0 >= 2
        >>> ExactSimplex(StandardForm(lp), set(), {0}).run(lp.c).x
        [2]
        """
        sf = self.sf
        costd = {j: v for j, v in enumerate(cost) if v != 0}
        far = self._phase_one(costd)
        if far is not None:
            y, lam = sf.duals_to_lp(far)  # the Farkas multipliers are w = -u; in LP terms that is this map
            return Infeasible(y, lam, self.pivots)
        status, val, extra = self.optimise(costd)
        x = [val.get(("x", j), _ZERO) for j in range(sf.n)]
        if status == "unbounded":
            enter, d = extra
            ray = [-d.get(("x", j), _ZERO) for j in range(sf.n)]
            if enter[0] == "x":
                ray[enter[1]] = fmpq(1)
            return Unbounded(x, ray, self.pivots)
        y, lam = sf.duals_to_lp(extra)
        return Optimal(x, y, lam, self.pivots)
