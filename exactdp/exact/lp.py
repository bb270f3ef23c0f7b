"""Exact linear programming: a float basis, rebuilt and verified in rational arithmetic.

Problem form (all data exact rationals)::

    minimise c.x  subject to  A_eq x = b_eq,  A_ub x <= b_ub,  x >= 0.

:func:`solve_lp` follows DESIGN.md section 2: HiGHS (scipy) finds an optimal
basis in floating point; the basis solution is rebuilt *exactly* (FLINT
``fmpq_mat``) from the active set, and the answer is returned only after three
exact checks -- primal feasibility, dual feasibility (``lambda >= 0`` and
reduced costs ``>= 0``) and zero duality gap.  When the check fails (a wrong or
degenerate basis) the active set is re-derived with other tolerances, and
finally an exact simplex method with Bland's rule runs from scratch.  An
answer that cannot be verified is never returned.

The dual solution ``(y, lambda)`` is the optimality certificate:
``c - A_eq^T y + A_ub^T lambda >= 0`` with equality on the support of ``x``,
and ``b_eq.y - b_ub.lambda = c.x``.

>>> from flint import fmpq
>>> lp = LinearProgram(c=[1, 1], A_ub=[{0: -1, 1: -1}], b_ub=[-1])
>>> sol = solve_lp(lp)
>>> sol.value, sol.verify()
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from flint import fmpq, fmpq_mat

from ..errors import InvalidInput, Undecided

__all__ = ["LinearProgram", "LPSolution", "solve_lp"]


def _q(v) -> fmpq:
    return v if isinstance(v, fmpq) else fmpq(v)


@dataclass
class LinearProgram:
    """``min c.x`` s.t. ``A_eq x = b_eq``, ``A_ub x <= b_ub``, ``x >= 0``; rows are sparse dicts."""

    c: list
    A_eq: list = field(default_factory=list)
    b_eq: list = field(default_factory=list)
    A_ub: list = field(default_factory=list)
    b_ub: list = field(default_factory=list)
    names: list | None = None
    #: optional positive float column scales for the float solve only (x_j = scale_j * y_j), so that an
    #: optimum with entries of very different magnitudes (alpha^40 next to 1) has O(1) values in floats
    scale: list | None = None

    def __post_init__(self):
        self.c = [_q(v) for v in self.c]
        self.A_eq = [{int(j): _q(v) for j, v in r.items() if v != 0} for r in self.A_eq]
        self.A_ub = [{int(j): _q(v) for j, v in r.items() if v != 0} for r in self.A_ub]
        self.b_eq = [_q(v) for v in self.b_eq]
        self.b_ub = [_q(v) for v in self.b_ub]
        n = len(self.c)
        if len(self.A_eq) != len(self.b_eq) or len(self.A_ub) != len(self.b_ub):
            raise InvalidInput("linear program: constraint rows and right-hand sides differ in number")
        for r in self.A_eq + self.A_ub:
            if any(j < 0 or j >= n for j in r):
                raise InvalidInput("linear program: a constraint names a variable out of range")

    @property
    def n(self):
        return len(self.c)


@dataclass
class LPSolution:
    """An exactly verified optimum with its dual certificate."""

    lp: LinearProgram
    value: fmpq
    x: list
    y: list          # duals of the equalities (free)
    lam: list        # duals of the inequalities (>= 0)
    reduced: list    # c - A_eq^T y + A_ub^T lam  (>= 0, zero on the support of x)
    method: str
    unique: bool | None = None

    def verify(self) -> bool:
        """Re-check primal feasibility, dual feasibility and zero gap exactly."""
        lp = self.lp
        ok = all(v >= 0 for v in self.x)
        ok &= all(sum((a * self.x[j] for j, a in r.items()), fmpq(0)) == b for r, b in zip(lp.A_eq, lp.b_eq))
        ok &= all(sum((a * self.x[j] for j, a in r.items()), fmpq(0)) <= b for r, b in zip(lp.A_ub, lp.b_ub))
        ok &= all(v >= 0 for v in self.lam)
        red = _reduced(lp, self.y, self.lam)
        ok &= red == self.reduced and all(v >= 0 for v in red)
        primal = sum((ci * xi for ci, xi in zip(lp.c, self.x)), fmpq(0))
        dual = sum((b * y for b, y in zip(lp.b_eq, self.y)), fmpq(0)) - sum(
            (b * l for b, l in zip(lp.b_ub, self.lam)), fmpq(0))
        return bool(ok and primal == dual == self.value)


def _reduced(lp, y, lam):
    red = list(lp.c)
    for r, yi in zip(lp.A_eq, y):
        if yi != 0:
            for j, a in r.items():
                red[j] -= a * yi
    for r, li in zip(lp.A_ub, lam):
        if li != 0:
            for j, a in r.items():
                red[j] += a * li
    return red


def _float_solve(lp):
    """HiGHS on the column- and row-scaled problem; returns (y scaled x, equality duals, inequality duals).

    Columns are scaled by ``lp.scale`` and every row by its largest scaled coefficient, so that HiGHS's
    absolute tolerances are relative ones: a privacy constraint between entries near alpha^40 is then
    enforced as strictly as one between entries near 1.  Duals are mapped back to the unscaled rows.
    """
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix

    sc = np.array(lp.scale, dtype=float) if lp.scale is not None else np.ones(lp.n)

    def mat(rows, rhs):
        if not rows:
            return None, None, None
        data, ri, ci, rho = [], [], [], []
        for i, r in enumerate(rows):
            vals = {j: float(v) * sc[j] for j, v in r.items()}
            m = max((abs(v) for v in vals.values()), default=1.0) or 1.0
            rho.append(m)
            for j, v in vals.items():
                ri.append(i)
                ci.append(j)
                data.append(v / m)
        rho = np.array(rho)
        return csr_matrix((data, (ri, ci)), shape=(len(rows), lp.n)), np.array([float(b) for b in rhs]) / rho, rho
    Aub, bub, rho_ub = mat(lp.A_ub, lp.b_ub)
    Aeq, beq, rho_eq = mat(lp.A_eq, lp.b_eq)
    res = linprog(np.array([float(v) for v in lp.c]) * sc, A_ub=Aub, b_ub=bub, A_eq=Aeq, b_eq=beq,
                  bounds=(0, None), method="highs")
    if res.status != 0:
        raise Undecided(f"the float LP solver reported status {res.status} ({res.message}); "
                        "infeasibility and unboundedness are not certified exactly here")
    y = res.eqlin.marginals / rho_eq if lp.A_eq else np.zeros(0)
    lam = -res.ineqlin.marginals / rho_ub if lp.A_ub else np.zeros(0)
    return res.x, y, lam  # x in scaled units


def _solve_exact_system(rows, rhs, ncols):
    """Exact solution of ``rows x = rhs`` (unique, or with free variables set to 0); None if inconsistent."""
    if ncols == 0:
        return [] if all(v == 0 for v in rhs) else None
    M = fmpq_mat(len(rows), ncols + 1)
    for i, (r, b) in enumerate(zip(rows, rhs)):
        for j, v in r.items():
            M[i, j] = v
        M[i, ncols] = b
    R, rank = M.rref()
    x = [fmpq(0)] * ncols
    unique = True
    pivots = []
    for i in range(rank):
        lead = next(j for j in range(ncols + 1) if R[i, j] != 0)
        if lead == ncols:
            return None  # 0 = nonzero: inconsistent
        pivots.append((i, lead))
    if len(pivots) < ncols:
        unique = False
    for i, j in pivots:
        x[j] = R[i, ncols]
    return x, unique


def _from_active(lp, yf_scaled, yf, lamf, tol):
    """Rebuild primal and dual exactly from the active set of the (scaled) float solution."""
    n = lp.n
    sc = np.array(lp.scale, dtype=float) if lp.scale is not None else np.ones(n)
    B = [j for j in range(n) if yf_scaled[j] > tol]
    xf = yf_scaled * sc
    bidx = {j: k for k, j in enumerate(B)}
    T = []
    for k, (r, b) in enumerate(zip(lp.A_ub, lp.b_ub)):
        terms = [float(a) * xf[j] for j, a in r.items()]
        size = abs(float(b)) + sum(abs(t) for t in terms)
        if abs(float(b) - sum(terms)) <= tol * max(size, 1e-300):
            T.append(k)
    rows = [{bidx[j]: a for j, a in r.items() if j in bidx} for r in lp.A_eq] + \
           [{bidx[j]: a for j, a in lp.A_ub[k].items() if j in bidx} for k in T]
    rhs = list(lp.b_eq) + [lp.b_ub[k] for k in T]
    sol = _solve_exact_system(rows, rhs, len(B))
    if sol is None or not sol[1]:
        return None
    x = [fmpq(0)] * n
    for j, v in zip(B, sol[0]):
        x[j] = v
    # dual certificates to try: unknowns y (all equalities) and lam_k for tight k; equations: zero reduced cost
    # on the support B (complementary slackness), optionally also where the float reduced cost is ~ 0.
    # Free unknowns are set to 0; every candidate is verified exactly by the caller.
    Tl = [k for k in T if lamf[k] > tol] if len(lamf) else []
    m_eq = len(lp.A_eq)
    rf = np.array([float(v) for v in lp.c])
    for i, row in enumerate(lp.A_eq):
        for j, a in row.items():
            rf[j] -= float(a) * yf[i]
    for k in Tl:
        for j, a in lp.A_ub[k].items():
            rf[j] += float(a) * lamf[k]
    R0 = sorted(set(B) | {j for j in range(n) if abs(rf[j]) <= tol})
    duals = []
    for eqs, unk in ((R0, Tl), (B, Tl), (B, T)):
        drows = []
        for j in eqs:
            r = {i: row[j] for i, row in enumerate(lp.A_eq) if j in row}
            for t, k in enumerate(unk):
                if j in lp.A_ub[k]:
                    r[m_eq + t] = -lp.A_ub[k][j]
            drows.append(r)
        dsol = _solve_exact_system(drows, [lp.c[j] for j in eqs], m_eq + len(unk))
        if dsol is None:
            continue
        y = dsol[0][:m_eq]
        lam = [fmpq(0)] * len(lp.A_ub)
        for t, k in enumerate(unk):
            lam[k] = dsol[0][m_eq + t]
        duals.append((y, lam))
    return x, duals


def _exact_simplex(lp, max_size=400_000):
    """Bland's-rule simplex in exact rationals (two phases) for small problems."""
    n, m_eq, m_ub = lp.n, len(lp.A_eq), len(lp.A_ub)
    m = m_eq + m_ub
    N = n + m_ub + m  # structural, slacks, artificials
    if m * (N + 1) > max_size:
        raise Undecided("the float basis could not be verified and the problem is too large for the exact "
                        "simplex fallback")
    T = [[fmpq(0)] * (N + 1) for _ in range(m)]
    for i, (r, b) in enumerate(list(zip(lp.A_eq, lp.b_eq)) + list(zip(lp.A_ub, lp.b_ub))):
        for j, a in r.items():
            T[i][j] = a
        if i >= m_eq:
            T[i][n + i - m_eq] = fmpq(1)
        T[i][N] = b
        if b < 0:
            T[i] = [-v for v in T[i]]
        T[i][n + m_ub + i] = fmpq(1)
    basis = [n + m_ub + i for i in range(m)]

    def run(cost, allowed):
        while True:
            z = [fmpq(0)] * (N + 1)
            for i, bj in enumerate(basis):
                if cost[bj] != 0:
                    for j in range(N + 1):
                        z[j] += cost[bj] * T[i][j]
            enter = next((j for j in range(N) if allowed(j) and j not in basis and cost[j] - z[j] < 0), None)
            if enter is None:
                return
            best = None
            for i in range(m):
                if T[i][enter] > 0:
                    ratio = T[i][N] / T[i][enter]
                    if best is None or ratio < best[0] or (ratio == best[0] and basis[i] < basis[best[1]]):
                        best = (ratio, i)
            if best is None:
                raise Undecided("the linear program is unbounded")
            i = best[1]
            p = T[i][enter]
            T[i] = [v / p for v in T[i]]
            for k in range(m):
                if k != i and T[k][enter] != 0:
                    f = T[k][enter]
                    T[k] = [a - f * b for a, b in zip(T[k], T[i])]
            basis[i] = enter

    phase1 = [fmpq(0)] * (n + m_ub) + [fmpq(1)] * m
    run(phase1, lambda j: True)
    if any(T[i][N] != 0 for i, bj in enumerate(basis) if bj >= n + m_ub):
        raise Undecided("the linear program is infeasible (phase one ended with positive artificials)")
    cost = list(lp.c) + [fmpq(0)] * (m_ub + m)
    run(cost, lambda j: j < n + m_ub)
    x = [fmpq(0)] * N
    for i, bj in enumerate(basis):
        x[bj] = T[i][N]
    # duals u = c_B B^-1: the artificial columns hold B^-1 (times the sign used for rows with b < 0)
    u = []
    for i, (r, b) in enumerate(list(zip(lp.A_eq, lp.b_eq)) + list(zip(lp.A_ub, lp.b_ub))):
        col = n + m_ub + i
        v = sum((cost[bj] * T[k][col] for k, bj in enumerate(basis) if cost[bj] != 0), fmpq(0))
        u.append(-v if b < 0 else v)
    y = u[:m_eq]
    lam = [-v for v in u[m_eq:]]
    return x[:n], y, lam


def _finish(lp, x, y, lam, method):
    red = _reduced(lp, y, lam)
    value = sum((ci * xi for ci, xi in zip(lp.c, x)), fmpq(0))
    sol = LPSolution(lp, value, x, y, lam, red, method)
    if not sol.verify():
        return None
    sol.unique = _uniqueness(lp, sol)
    return sol


def _uniqueness(lp, sol):
    """True if the optimal face is a single point (certified by rank); None if not certified."""
    F = [j for j in range(lp.n) if sol.reduced[j] == 0]
    fidx = {j: k for k, j in enumerate(F)}
    rows = [{fidx[j]: a for j, a in r.items() if j in fidx} for r in lp.A_eq]
    rows += [{fidx[j]: a for j, a in lp.A_ub[k].items() if j in fidx} for k in range(len(lp.A_ub))
             if sol.lam[k] > 0]
    if not F:
        return True
    M = fmpq_mat(len(rows), len(F)) if rows else None
    if M is None:
        return None
    for i, r in enumerate(rows):
        for j, v in r.items():
            M[i, j] = v
    return True if M.rank() == len(F) else None


def solve_lp(lp: LinearProgram) -> LPSolution:
    """Solve ``lp`` and return an exactly verified optimum with its dual certificate.

    Raises :class:`~exactdp.errors.Undecided` when no verified answer can be
    produced (infeasible or unbounded problems are reported this way too).
    """
    xf, yf, lamf = _float_solve(lp)
    for tol in (1e-9, 1e-7, 1e-11, 1e-5):
        got = _from_active(lp, xf, yf, lamf, tol)
        if got is None:
            continue
        x, duals = got
        for y, lam in duals:
            sol = _finish(lp, x, y, lam, method="HiGHS basis (floating point) rebuilt in exact rationals and "
                                                "verified: primal feasibility, dual feasibility, zero duality gap")
            if sol is not None:
                return sol
    x, y, lam = _exact_simplex(lp)
    sol = _finish(lp, x, y, lam, method="exact simplex (Bland's rule, rational arithmetic), verified with its dual")
    if sol is not None:
        return sol
    raise Undecided("no exactly verified optimum could be produced")
