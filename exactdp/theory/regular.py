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
>>> c.holds, c.data["z"]
(True, ['2/3', '1/3', '2/3'])
>>> c.evidence["mechanism"].rows()[0]
[2/3, 1/6, 1/6]
"""

from __future__ import annotations

import math

import numpy as np
from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Step
from ..errors import InvalidInput, Undecided
from ..exact.decide import exact_str, simplify
from ..exact.lp import LinearProgram, solve_lp
from ..exact.values import to_rational
from ..mechanism import mechanism_from_values
from .phi import PhiSystem

__all__ = ["corner_priors", "check_prior", "regular_prior", "tight_constraints", "ball_size_symmetric",
           "prop9_mechanism", "prior_from"]


def prior_from(prior, metric) -> list:
    """A prior as exact rationals in the metric's point order (list, or dict label -> value)."""
    if isinstance(prior, dict):
        missing = [p for p in metric.points if p not in {str(k) for k in prior}]
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


def corner_priors(metric, level) -> list:
    """ECP14 Def. 5: the corner prior of each point, exactly (rationals, or exact exponential expressions)."""
    S = PhiSystem(metric, level)
    out = []
    for y in range(S.n):
        row = [S.entry(y, j) for j in range(S.n)]
        s = fmpq(0)
        for v in row:
            s = s + v
        out.append([simplify(v / s) for v in row])
    return out


def check_prior(pi, metric, level):
    """ECP14 Props. 1 and 2 for a prior: ``None`` if they hold, else the first violation (text).

    Prop. 1: ``pi_y <= e^(d(y,y')) pi_y'``; Prop. 2: ``1/sum_y' e^(d(y,y')) <= pi_y <= 1/sum_y' e^(-d(y,y'))``
    (checked exactly when the factors are rational).  Work is grouped by distance codes and distinct prior
    values: each distinct triple ``(pi_y, pi_y', d)`` is decided once, exactly.
    """
    from .phi import metric_structure

    n = len(metric)
    dc, _ = metric_structure(metric)
    codes, dvals = dc.full(), dc.values
    facs = [None if d == math.inf else level.factor(d) for d in dvals]
    if all(f is None or isinstance(f, fmpq) for f in facs):
        for y in range(n):
            cnt = np.bincount(codes[y], minlength=len(dvals)).tolist()
            up = sum((m / f for m, f in zip(cnt, facs) if m and f is not None), fmpq(0))
            down = sum((m * f for m, f in zip(cnt, facs) if m and f is not None), fmpq(0))
            if not (1 / down <= pi[y] <= 1 / up):
                return (f"Prop. 2 fails at {metric.points[y]!r}: pi = {pi[y]} is outside "
                        f"[{1 / down}, {1 / up}]")
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


def regular_prior(prior, metric, level) -> Certificate:
    """ECP14 Def. 4 / Prop. 3: is ``prior`` ``d``-regular?  Certificate with ``mu`` and ``gamma``.

    Invertible ``Phi``: the unique ``mu`` (exact, or certified balls); a negative coordinate certifies
    non-regularity.  Singular ``Phi`` (rational regime): an exact LP finds ``mu >= 0`` or proves none exists.
    """
    pi = prior_from(prior, metric)
    S = PhiSystem(metric, level)
    claim = f"the prior is regular for eps*d with eps = {level.eps_str()} on the {metric.description}"
    claim_latex = r"\exists \mu \ge 0:\ \mu \Phi = \pi"
    zero = [metric.points[i] for i, v in enumerate(pi) if v == 0]
    steps = [Step("Definition", "ECP14 Def. 4: $\\pi$ is regular iff $\\pi = \\mu\\Phi$ for some $\\mu \\ge 0$, "
                  "where $\\phi_{yy'} = e^{-\\varepsilon d(y,y')}$ (Def. 3); equivalently (Prop. 3) $\\pi$ is a convex "
                  "combination of the corner priors with coefficients $\\gamma_y = \\mu_y \\sum_{y'} \\phi_{yy'}$.")]
    data = {"regime": "rational" if S.is_rational() else "transcendental"}
    if zero:
        steps.append(Step("Full support", f"A regular prior has full support (Prop. 2), but the prior gives "
                          f"probability 0 to {zero[:5]}."))
        return Certificate("regular", claim, claim_latex, False, {"zero_at": zero}, "exact", steps,
                           {**data, "holds": False, "mu": None, "gamma": None, "reason": f"zero probability at {zero}"},
                           conclusion="Not regular: regular priors have full support.")
    try:
        sol = S.solve(pi)  # Phi symmetric: mu^T = Phi^-1 pi^T
    except InvalidInput:
        return _regular_by_lp(pi, S, claim, claim_latex, steps, data)
    except Undecided as e:
        steps.append(Step("Undecided", e.reason))
        return Certificate("regular", claim, claim_latex, UNDECIDED, {"reason": e.reason}, "undecided", steps,
                           {**data, "holds": "undecided", "mu": None, "gamma": None})
    neg = sol.negative()
    mu = sol.strings()
    row_sums = _row_sums(S)
    if sol.values is not None:
        gamma = [str(m * r) for m, r in zip(sol.values, row_sums)]
    else:
        gamma = [(b * r).str(15) for b, r in zip(sol.balls, row_sums)]
    steps.append(Step("Solving $\\mu\\Phi = \\pi$", f"$\\Phi$ is invertible; {sol.method}. $\\mu$ = ({', '.join(mu[:8])}"
                      + (", ..." if len(mu) > 8 else "") + ")."))
    holds = not neg
    w = {"negative": [metric.points[i] for i in neg]}
    if neg:
        i = neg[0]
        steps.append(Step("A negative coordinate", f"$\\mu_{{{metric.points[i]}}} = {mu[i]} < 0$ (certified), and "
                          "$\\mu$ is unique, so no $\\mu \\ge 0$ exists."))
        viol = check_prior(pi, metric, level) if S.is_rational() else None
        if viol:
            w["prop_violation"] = viol
    else:
        steps.append(Step("All coordinates non-negative", "Every $\\mu_y \\ge 0$ (certified), so $\\pi$ is regular; "
                          "the convex coefficients are $\\gamma$."))
        if S.is_rational():
            viol = check_prior(pi, metric, level)
            if viol is not None:  # Props. 1-2 are theorems: a violation here is a bug, never a verdict
                raise RuntimeError(f"internal error: a regular prior violates {viol}")
            steps.append(Step("Props. 1 and 2", "Checked exactly: $\\pi_y \\le e^{\\varepsilon d(y,y')} \\pi_{y'}$ for "
                              "every pair."))
    return Certificate("regular", claim, claim_latex, holds, w, sol.method, steps,
                       {**data, "holds": holds, "mu": mu, "gamma": gamma},
                       conclusion="Regular." if holds else "Not regular.")


def _row_sums(S):
    if S.is_rational():
        M = S.exact_matrix()
        return [sum((M[i, j] for j in range(S.n)), fmpq(0)) for i in range(S.n)]
    from flint import ctx
    with ctx.workprec(128):
        A = S.arb_matrix()
        return [sum((A[i, j] for j in range(S.n)), 0) for i in range(S.n)]


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


def _regular_by_lp(pi, S, claim, claim_latex, steps, data):
    """Singular Phi: min sum(s+ + s-) s.t. mu Phi + s+ - s- = pi, mu, s >= 0 (exact LP)."""
    if not S.is_rational():
        reason = "Phi is singular in the transcendental regime; the exact LP needs a rational alpha"
        return Certificate("regular", claim, claim_latex, UNDECIDED, {"reason": reason}, "undecided", steps,
                           {**data, "holds": "undecided", "mu": None, "gamma": None})
    n = S.n
    M = S.exact_matrix()
    sol = _phi_violation_lp(M, pi)  # Phi symmetric: mu Phi = pi is Phi mu^T = pi^T
    holds = sol.value == 0
    mu = [str(v) for v in sol.x[:n]]
    steps.append(Step("Singular $\\Phi$: an exact LP", f"minimise the total violation of $\\mu\\Phi = \\pi$ over "
                      f"$\\mu \\ge 0$: optimum {exact_str(sol.value)} ({sol.method})."))
    return Certificate("regular", claim, claim_latex, holds, {"lp_value": str(sol.value)}, sol.method, steps,
                       {**data, "holds": holds, "mu": mu if holds else None,
                        "gamma": None if not holds else [str(sol.x[i] * sum((M[i, j] for j in range(n)), fmpq(0)))
                                                         for i in range(n)]},
                       conclusion="Regular." if holds else "Not regular (the LP optimum is positive).")


def tight_constraints(metric, level) -> Certificate:
    """ECP14 Def. 6, Props. 7-8: the tight-constraints mechanism from ``Phi z = 1``, when ``z >= 0``.

    The certificate's ``data`` has ``exists`` (True/False/"undecided"), ``z`` (exact strings or certified
    enclosures), ``negative`` (indices certified negative); ``evidence["mechanism"]`` is the exact mechanism
    ``h_yy' = phi_yy' z_y'`` in the rational regime (its privacy is Prop. 6, re-checkable with
    :func:`exactdp.certify_privacy`).
    """
    S = PhiSystem(metric, level)
    claim = f"a tight-constraints mechanism exists for eps*d with eps = {level.eps_str()} on the {metric.description}"
    claim_latex = r"\exists z \ge 0:\ \Phi z = \mathbf{1}"
    steps = [Step("Characterisation", "ECP14 Prop. 7: a private $H$ is tight-constraints iff $\\Phi\\,\\mathrm{diag}(H) "
                  "= \\mathbf 1$; so a tight-constraints mechanism exists iff $\\Phi z = \\mathbf 1$ has a solution "
                  "$z \\ge 0$, and then $h_{yy'} = \\phi_{yy'} z_{y'}$ (Def. 6).")]
    try:
        sol = S.solve_ones()
    except InvalidInput:
        return _tight_singular(S, claim, claim_latex, steps)
    except Undecided as e:
        steps.append(Step("Undecided", e.reason))
        return Certificate("tight", claim, claim_latex, UNDECIDED, {"reason": e.reason}, "undecided", steps,
                           {"exists": "undecided", "z": None, "negative": [], "mechanism": None})
    neg = sol.negative()
    exists = not neg
    z = sol.strings()
    steps.append(Step("Solving $\\Phi z = \\mathbf 1$", f"$\\Phi$ is invertible ({sol.method}); z = ("
                      + ", ".join(z[:8]) + (", ..." if len(z) > 8 else "") + ")."))
    data = {"exists": exists, "z": z, "negative": neg, "mechanism": None, "method": sol.method}
    if sol.enclosures is not None:  # exact evidence of a verified float solve (per cell of the partition)
        data["verified"] = {"z_enclosures": [[str(lo), str(hi)] for lo, hi in sol.enclosures],
                            "partition": {"how": sol.partition.how, "cell_of": sol.partition.cell_of.tolist()},
                            "beta": str(sol.beta), **sol.extra}
    ev = {"metric": metric, "level": level, "z": z}
    if exists and sol.values is not None:
        M = S.exact_matrix()
        rows = [[M[y, y2] * sol.values[y2] for y2 in range(S.n)] for y in range(S.n)]
        mech = mechanism_from_values(metric.points, metric.points, rows, name="tight-constraints mechanism")
        ev["mechanism"] = mech
        data["mechanism"] = mech.to_json()
        steps.append(Step("The mechanism", "$h_{yy'} = \\phi_{yy'} z_{y'}$; its rows sum to 1 exactly (checked) and "
                          "it is private by Prop. 6."))
    elif neg and sol.partition is not None and sol.partition.ncells < S.n:
        steps.append(Step("A negative coordinate", f"$z_{{{metric.points[neg[0]]}}} = {z[neg[0]]} < 0$ (certified) "
                          f"in the solution of the {sol.partition.ncells} x {sol.partition.ncells} quotient "
                          f"$Q$ of an equitable partition ({sol.partition.how}), $Q$ nonsingular. As $\\Phi$ is "
                          "symmetric it commutes with averaging over cells, so the cell average of any solution "
                          "$z \\ge 0$ of $\\Phi z = \\mathbf 1$ would solve $Q x = \\mathbf 1$ with $x \\ge 0$: "
                          "none exists (equivalently the uniform prior is not regular, Prop. 8)."))
    elif neg:
        steps.append(Step("A negative coordinate", f"$z_{{{metric.points[neg[0]]}}} = {z[neg[0]]} < 0$ (certified); "
                          "$z$ is unique, so no tight-constraints mechanism exists (equivalently the uniform prior is "
                          "not regular, Prop. 8)."))
    return Certificate("tight", claim, claim_latex, exists, {"negative": [metric.points[i] for i in neg]},
                       sol.method, steps, data, evidence=ev,
                       conclusion="A tight-constraints mechanism exists." if exists else "None exists.")


def _tight_singular(S, claim, claim_latex, steps):
    if not S.is_rational():
        reason = "Phi is singular in the transcendental regime"
        return Certificate("tight", claim, claim_latex, UNDECIDED, {"reason": reason}, "undecided", steps,
                           {"exists": "undecided", "z": None, "negative": [], "mechanism": None})
    n = S.n
    M = S.exact_matrix()
    sol = _phi_violation_lp(M, [1] * n)
    exists = sol.value == 0
    z = [str(v) for v in sol.x[:n]]
    rank = M.rank()
    steps.append(Step("Singular $\\Phi$", f"rank {rank} < {n}: the solutions of $\\Phi z = \\mathbf 1$ form an affine "
                      f"space of dimension {n - rank} (or none). An exact LP for $z \\ge 0$: optimum violation "
                      f"{exact_str(sol.value)} ({sol.method})."))
    return Certificate("tight", claim, claim_latex, exists, {}, sol.method, steps,
                       {"exists": exists, "z": z if exists else None, "negative": [], "mechanism": None,
                        "rank": rank}, conclusion="A non-negative solution exists." if exists else "None exists.")


def ball_size_symmetric(metric) -> bool:
    """ECP14 Def. 7: every point sees the same multiset of distances.

    Points in one cell of an equitable partition see the same multiset, so one representative per cell is
    compared (exactly, on distance codes).
    """
    from .phi import metric_structure

    codes, part = metric_structure(metric)
    rows = np.sort(codes.rows(part.representatives()), axis=1)
    return bool((rows == rows[0]).all())


def prop9_mechanism(metric, level):
    """ECP14 Prop. 9: ``h_yy' = e^(-d(y,y')) / sum_r n_r e^(-r)`` on a ball-size symmetric metric (exact rows)."""
    if not ball_size_symmetric(metric):
        raise InvalidInput("Prop. 9 needs a ball-size symmetric metric (Def. 7); this one is not")
    S = PhiSystem(metric, level)
    M = S.exact_matrix()
    norm = sum((M[0, j] for j in range(S.n)), fmpq(0))
    rows = [[M[y, y2] / norm for y2 in range(S.n)] for y in range(S.n)]
    return mechanism_from_values(metric.points, metric.points, rows, name="Prop. 9 mechanism")

