"""GRS12 Theorem 6.3 (journal App. C): with priors over databases no mechanism is optimal for two users at once.

Databases are the subsets of the rows {1, 2, 3} whose value is 1 (``{0,1}^3``), the
query counts the 1s, and privacy is the Hamming adjacency (differing in one row).
The users are the journal version's (restored in ``shared/papers/README.md``): loss
``|j - i|^(1 - delta)``, user 1's prior ``{1}: 1/4, {2}: 1/4, {1,3}: e, {2,3}: 1/2 - e``,
user 2 with rows 1 and 2 interchanged.
"""

from __future__ import annotations

import itertools

from flint import fmpq

from ..exact import LinearProgram, Rad, exact_str, optimal_face_constraints, solve_lp, solve_lp_irrational
from ..certify import certify_lp_optimum
from .registry import Blocks, ClaimResult, Ledger, md_table, register

# The claims are reached through the registry (exactdp.papers: claims, get_claim, run_claim), not by name;
# this module has no public names of its own, and its helpers are internal (tests reach some of them).
__all__: list[str] = []

DBS = [frozenset(s) for k in range(4) for s in itertools.combinations((1, 2, 3), k)]
IDX = {D: i for i, D in enumerate(DBS)}
ALPHA = fmpq(1, 2)
#: the fractions that survived in Figure 4 (user 1's optimal mechanism; outputs 1 and 2)
FIGURE_4 = {frozenset({1}): (fmpq(11, 12), fmpq(1, 12)), frozenset({2}): (fmpq(2, 3), fmpq(1, 3)),
            frozenset({1, 3}): (fmpq(5, 6), fmpq(1, 6)), frozenset({2, 3}): (fmpq(1, 3), fmpq(2, 3))}


def label(D) -> str:
    return "{" + ",".join(str(v) for v in sorted(D)) + "}"


def _edges():
    return [(D, E) for D in DBS for E in DBS if len(D ^ E) == 1]


def _swap12(D):
    return frozenset({2 if v == 1 else 1 if v == 2 else v for v in D})


def user_prior(weights, delta):
    """User 1: weights on {1}, {2}, {1,3}, {2,3} and ``delta`` on each other database, normalised."""
    named = dict(zip([frozenset({1}), frozenset({2}), frozenset({1, 3}), frozenset({2, 3})], weights, strict=True))
    raw = {D: fmpq(named.get(D, delta)) for D in DBS}
    tot = sum(raw.values(), fmpq(0))
    return {D: v / tot for D, v in raw.items()}


def binary(i, r):
    return fmpq(int(i != r))


def database_lp(prior, loss=binary, outputs=4):
    """The non-oblivious user-specific LP over databases (objective (10)): variable ``x[D][r]``."""
    v = lambda d, r: d * outputs + r  # noqa: E731
    c = [prior[D] * loss(len(D), r) for D in DBS for r in range(outputs)]
    A_eq = [{v(d, r): 1 for r in range(outputs)} for d in range(len(DBS))]
    A_ub = [{v(IDX[D], r): ALPHA, v(IDX[E], r): -1} for D, E in _edges() for r in range(outputs)]
    return LinearProgram(c=c, A_eq=A_eq, b_eq=[1] * len(DBS), A_ub=A_ub, b_ub=[0] * len(A_ub))


def reproduces_figure_4(weights, delta=fmpq(1, 10)) -> bool:
    """True if user 1 with these weights has an exact LP optimum matching every surviving Figure 4 fraction."""
    from ..errors import Undecided

    try:
        x = solve_lp(database_lp(user_prior(weights, delta))).x
    except Undecided:
        return False
    return all((x[IDX[D] * 4 + 1], x[IDX[D] * 4 + 2]) == f for D, f in FIGURE_4.items())


def find_user_weights(top=6, delta=fmpq(1, 10)):
    """The first integer weights (lexicographic, each in 1..top) that reproduce Figure 4 (the reconstruction)."""
    for w in itertools.product(range(1, top + 1), repeat=4):
        if reproduces_figure_4(w, delta):
            return w
    return None


def published_prior(e):
    """User 1's prior over databases (journal App. C): {1} 1/4, {2} 1/4, {1,3} e, {2,3} 1/2 - e, others 0."""
    e = fmpq(e)
    named = {frozenset({1}): fmpq(1, 4), frozenset({2}): fmpq(1, 4), frozenset({1, 3}): e,
             frozenset({2, 3}): fmpq(1, 2) - e}
    return {D: named.get(D, fmpq(0)) for D in DBS}


def power_cost(prior, delta):
    """The objective (10) with the loss |j - i|^(1 - delta): one exact :class:`Rad` per variable ``x[D][j]``."""
    return [prior[D] * Rad.power(abs(j - len(D)), 1 - fmpq(delta)) if j != len(D) and prior[D] != 0 else Rad()
            for D in DBS for j in range(4)]


def solve_user(prior, delta):
    """The exact optimum of the database LP for the loss |j - i|^(1 - delta) (rational vertex, radical dual)."""
    return solve_lp_irrational(database_lp(prior), power_cost(prior, delta))


def affine_in_t(v: Rad, atom) -> tuple:
    """``v = v0 + v1 * t`` with ``t`` the radical ``atom``: returns ``(v0, v1)`` (exact; other atoms are an error)."""
    comp = v.components()
    extra = set(comp) - {(), atom}
    if extra:
        raise ValueError(f"{v} has atoms other than the unit and {atom}")
    return comp.get((), fmpq(0)), comp.get(atom, fmpq(0))


def t_interval(sol, atom):
    """The exact interval of ``t`` on which the solution's basis stays optimal when ``atom`` is replaced by ``t``.

    The dual is linear in the cost's components, so with the same basis the multipliers and reduced costs are
    ``v0 + v1 t``; the vertex (rational) does not depend on ``t``.  Returns ``(lo, hi)`` (``None`` = unbounded).
    """
    lo, hi = None, None
    for v in list(sol.reduced) + list(sol.lam):
        v0, v1 = affine_in_t(v, atom)
        if v1 > 0:
            b = -v0 / v1
            lo = b if lo is None or b > lo else lo
        elif v1 < 0:
            b = -v0 / v1
            hi = b if hi is None or b < hi else hi
        elif v0 < 0:
            return None
    return lo, hi


def face_lp(sol, objective):
    """Optimise a rational ``objective`` (dict) over the optimal face of ``sol`` (rational constraints)."""
    zero, tight = optimal_face_constraints(sol)
    lp = sol.lp
    A_eq = lp.A_eq + [{j: 1} for j in zero] + [lp.A_ub[k] for k in tight]
    b_eq = lp.b_eq + [0] * len(zero) + [lp.b_ub[k] for k in tight]
    c = [objective.get(j, 0) for j in range(lp.n)]
    return LinearProgram(c=c, A_eq=A_eq, b_eq=b_eq, A_ub=lp.A_ub, b_ub=lp.b_ub)


def entry_ranges(sol):
    """Min and max of every entry ``x[D][j]`` over the optimal face: ``{(D, j): (min, max)}``, by exact LPs.

    Where every min equals its max the optimum is unique (a certificate independent of the rank test).
    """
    out = {}
    for D in DBS:
        for j in range(4):
            k = IDX[D] * 4 + j
            lo = solve_lp(face_lp(sol, {k: 1})).value
            hi = -solve_lp(face_lp(sol, {k: -1})).value
            out[(D, j)] = (lo, hi)
    return out


def common_t_interval(sols, atom):
    """The intersection of :func:`t_interval` over several solutions: ``(lo, hi)`` (``None`` = unbounded), or
    ``None`` if it is empty."""
    lo, hi = None, None
    for s in sols:
        iv = t_interval(s, atom)
        if iv is None:
            return None
        a, b = iv
        lo = a if lo is None else (lo if a is None else max(lo, a))
        hi = b if hi is None else (hi if b is None else min(hi, b))
    if lo is not None and hi is not None and lo > hi:
        return None
    return lo, hi


def _rows4(x):
    return {D: (x[IDX[D] * 4 + 1], x[IDX[D] * 4 + 2]) for D in FIGURE_4}


def face_simultaneous_lp(sol1, sol2):
    """One mechanism M with outputs (a, b) whose two induced mechanisms lie on the two optimal faces, relaxed by
    a slack ``t`` (minimised): ``t* > 0`` proves that no mechanism is optimal for both users.

    Induced mechanism for user 1: ``x1[D][a] = sum_b M[D][(a, b)]`` (user 2: sum over ``a``); it must vanish where
    the user's reduced cost is positive and make tight every privacy row with a positive multiplier
    (complementary slackness: exactly the optimal face).  Any mechanism with remaps inducing optimal mechanisms
    for both users gives ``t = 0`` (split outputs by the two remaps' readings; Lemma 6.4, randomised remaps
    included).
    """
    pairs = [(a, b) for a in range(4) for b in range(4)]
    K = len(pairs)
    nv = len(DBS) * K
    t = nv
    v = lambda d, k: d * K + k  # noqa: E731
    A_eq = [{v(d, k): 1 for k in range(K)} for d in range(len(DBS))]
    A_ub: list[dict] = [{v(IDX[D], k): ALPHA, v(IDX[E], k): -1} for D, E in _edges() for k in range(K)]
    b_ub = [fmpq(0)] * len(A_ub)
    for sol, side in ((sol1, 0), (sol2, 1)):
        zero, tight = optimal_face_constraints(sol)

        def induced(var, side=side):  # x[D][a] of the LP over databases -> the sum of M's columns with that reading
            d, a = divmod(var, 4)
            return {v(d, k): 1 for k, ab in enumerate(pairs) if ab[side] == a}
        for j in zero:
            A_ub.append({**induced(j), t: -1})
            b_ub.append(fmpq(0))
        for k in tight:  # b_k - A_k x <= t
            row = {t: -1}
            for var, coef in sol.lp.A_ub[k].items():
                for w, one in induced(var).items():
                    row[w] = row.get(w, 0) - coef * one
            A_ub.append(row)
            b_ub.append(-sol.lp.b_ub[k])
    return LinearProgram(c=[0] * nv + [1], A_eq=A_eq, b_eq=[1] * len(DBS), A_ub=A_ub, b_ub=b_ub)


def proof_bound_solutions():
    """The proof's arithmetic (journal App. C): with Figure 4's rows for user 1 and their mirror for user 2, a
    mechanism on the outputs l = (1,1), m = (1,2), n = (2,1), o = (2,2) has mass >= 7/12 on l at {1} and <= 1/6
    on l at {1,3} (from the constraints between databases two or more rows apart, factor alpha^d; the
    neighbouring pairs {1} ~ {1,3} and {2} ~ {2,3} are left out, as they are what the bounds contradict).  Returns
    the two exact LP optima: min of the mass on l at {1}, and min of minus the mass on l at {1,3}."""
    Ds = [frozenset({1}), frozenset({2}), frozenset({1, 3}), frozenset({2, 3})]
    K1 = dict(FIGURE_4)
    K2 = {D: FIGURE_4[_swap12(D)] for D in Ds}
    labels = [(1, 1), (1, 2), (2, 1), (2, 2)]
    v = lambda d, k: d * 4 + k  # noqa: E731
    A_eq: list[dict] = []
    b_eq: list[int | fmpq] = []
    for d, D in enumerate(Ds):
        A_eq.append({v(d, k): 1 for k in range(4)})
        b_eq.append(1)
        A_eq.append({v(d, k): 1 for k, ab in enumerate(labels) if ab[0] == 1})
        b_eq.append(K1[D][0])
        A_eq.append({v(d, k): 1 for k, ab in enumerate(labels) if ab[1] == 1})
        b_eq.append(K2[D][0])
    A_ub = []
    for d, D in enumerate(Ds):
        for e, E in enumerate(Ds):
            if len(D ^ E) >= 2:  # the proof uses only the pairs two or more rows apart
                f = ALPHA ** len(D ^ E)
                A_ub += [{v(d, k): f, v(e, k): -1} for k in range(4)]
    lp = lambda c: LinearProgram(c=c, A_eq=A_eq, b_eq=b_eq, A_ub=A_ub, b_ub=[0] * len(A_ub))  # noqa: E731
    return (solve_lp(lp([1 if j == v(0, 0) else 0 for j in range(16)])),
            solve_lp(lp([-1 if j == v(2, 0) else 0 for j in range(16)])))


def proof_bounds():
    """The proof's two numbers (journal App. C): the exact (min mass on l at {1}, max mass on l at {1,3}) over
    mechanisms with Figure 4's rows and their mirror (see :func:`proof_bound_solutions`)."""
    lo, hi = proof_bound_solutions()
    return lo.value, -hi.value


@register("GRS12-thm6.3", "GRS12", "Theorem 6.3 (journal App. C, Fig. 6(a))",
          "There exist a database size, a privacy level and two users with monotone losses and distinct priors over "
          "databases such that no mechanism is simultaneously optimal for both. Journal setting: D = {0, 1}, n = 3 "
          "rows, alpha = 1/2, the count of rows equal to 1, loss |j - i|^(1 - delta) for a small delta > 0; user 1's "
          "prior {1} 1/4, {2} 1/4, {1,3} e, {2,3} 1/2 - e; user 2 interchanges rows 1 and 2.",
          "Figure 4 rows {1}: 11/12, 1/12; {2}: 2/3, 1/3; {1,3}: 5/6, 1/6; {2,3}: 1/3, 2/3 (user 1's unique "
          "optimum); masses 7/12 and 1/6 on one output for neighbouring databases, ratio 3.5 > 1/alpha = 2")
def thm63() -> ClaimResult:
    delta, e = fmpq(1, 10), fmpq(1, 20)
    f = _thm63_facts(delta, e)
    t_lo, t_hi = f["t"]
    led = Ledger()
    got = _rows4(f["s1"].x)
    led.compare("Figure 4 (user 1's optimum)", _fig4_text(FIGURE_4), _fig4_text(got), agrees=f["match"])
    led.check(f["mirror"], "user 2's optimum is not the mirror image of user 1's")
    led.compare("uniqueness of user 1's optimum", "unique", "unique (certified)" if f["unique"] else "not certified",
                agrees=True if f["unique"] else None)
    led.compare("a mechanism optimal for both users", "none exists",
                f"least violation t* = {exact_str(f['sim'].value)}",
                agrees=f["impossible"])
    lo, hi = f["lo"], f["hi"]
    led.compare("the proof's masses on l and their ratio", "7/12, 1/6, 3.5 > 1/alpha = 2",
                f"{exact_str(lo)}, {exact_str(hi)}, {exact_str(lo / hi)}", agrees=f["proof_ok"])
    led.compare("the instance for a small delta > 0 (t = 2^(1 - delta) just below 2)", "works",
                f"the optimal bases hold for t in ({exact_str(t_lo)}, {'oo' if t_hi is None else exact_str(t_hi)})",
                agrees=f["t_ok"])
    return led.result(f"published users (delta = {delta}, e = {e}): user 1's exact LP optimum "
                      f"{'(unique)' if f['unique'] else '(uniqueness not certified)'} on outputs 1, 2 is "
                      f"{_fig4_text(got)}; least violation of simultaneous optimality t* = "
                      f"{exact_str(f['sim'].value)}; the proof's masses {exact_str(lo)}, {exact_str(hi)}, ratio "
                      f"{exact_str(lo / hi)}; the optimal bases hold for t = 2^(1 - delta) in ({exact_str(t_lo)}, "
                      f"{'oo' if t_hi is None else exact_str(t_hi)})",
                      [("Two users over databases", _thm63_body(delta, e, f))], f["certs"])


def _fig4_text(rows) -> str:
    """Figure 4's rows as ``{1}: 11/12, 1/12; ...`` (database labels as sets, exact fractions)."""
    return "; ".join(f"{label(D)}: {exact_str(rows[D][0])}, {exact_str(rows[D][1])}" for D in sorted(rows, key=sorted))


def _thm63_facts(delta, e) -> dict:
    """Every exact fact Theorem 6.3's verdict rests on, with the certificates that back them."""
    p1 = published_prior(e)
    p2 = {D: p1[_swap12(D)] for D in DBS}
    s1, s2 = solve_user(p1, delta), solve_user(p2, delta)
    atom = Rad.power(2, 1 - delta).terms[0][0]
    # every small delta: the same basis, with 2^(1 - delta) replaced by t, stays optimal for t in [t_lo, t_hi]
    iv = common_t_interval([s1, s2], atom)
    t_lo, t_hi = iv if iv is not None else (None, fmpq(0))
    sim = solve_lp(face_simultaneous_lp(s1, s2))
    lo_sol, hi_sol = proof_bound_solutions()
    lo, hi = lo_sol.value, -hi_sol.value
    certs = _thm63_certificates(s1, s2, atom, sim, lo_sol, hi_sol)
    return {"p1": p1, "s1": s1, "s2": s2, "sim": sim, "lo": lo, "hi": hi, "t": (t_lo, t_hi), "certs": certs,
            "match": _rows4(s1.x) == FIGURE_4,
            "mirror": all((s2.x[IDX[_swap12(D)] * 4 + 1], s2.x[IDX[_swap12(D)] * 4 + 2]) == _rows4(s1.x)[D]
                          for D in FIGURE_4),       # user 2's optimum against user 1's (not against the print)
            "unique": certs[0].evidence.unique is not None, "impossible": sim.value > 0,
            "proof_ok": lo == fmpq(7, 12) and hi == fmpq(1, 6) and lo / hi == fmpq(7, 2) and lo / hi > 1 / ALPHA,
            "t_ok": iv is not None and (t_lo is None or t_lo < 2) and (t_hi is None or t_hi > 2),
            "es": [(e2, _rows4(solve_user(published_prior(e2), delta).x) == FIGURE_4)
                   for e2 in (fmpq(1, 100), fmpq(1, 10), fmpq(1, 5))]}


def _thm63_certificates(s1, s2, atom, sim, lo_sol, hi_sol) -> list:
    """The LP optima of the argument as re-checkable ``lp`` certificates (primal + dual, affine in t)."""
    i1, i2 = t_interval(s1, atom), t_interval(s2, atom)
    return [certify_lp_optimum(s1, "GRS12 Thm 6.3: user 1's optimal mechanism over databases (Figure 4), unique, "
                               "for every t = 2^(1 - delta) in the stated interval", parameter=atom, interval=i1,
                               unique=True),
            certify_lp_optimum(s2, "GRS12 Thm 6.3: user 2's optimal mechanism (rows 1 and 2 interchanged)",
                               parameter=atom, interval=i2),
            certify_lp_optimum(sim, "GRS12 Thm 6.3: the least violation t* of one mechanism whose two induced "
                               "mechanisms lie on both users' optimal faces (t* > 0: none is optimal for both)"),
            certify_lp_optimum(lo_sol, "GRS12 Thm 6.3 proof: the least mass on l = (1,1) at {1} (7/12)"),
            certify_lp_optimum(hi_sol, "GRS12 Thm 6.3 proof: minus the largest mass on l at {1,3} (-1/6)")]


def _thm63_body(delta, e, f) -> Blocks:
    p1, s1, s2, sim, (t_lo, t_hi) = f["p1"], f["s1"], f["s2"], f["sim"], f["t"]
    x = s1.x
    tab = md_table(["database", "prior (user 1)"] + [f"output {j}" for j in range(4)],
                   [[label(D), exact_str(p1[D])] + [exact_str(x[IDX[D] * 4 + j]) for j in range(4)] for D in DBS])
    return ("**Setting (journal version, App. C and Fig. 6(a); the arXiv text lost the priors and the loss).** "
            f"D = {{0, 1}}, n = 3 rows, alpha = 1/2, loss |j - i|^(1 - delta) with delta = {delta}, user 1's prior "
            f"{{1}} 1/4, {{2}} 1/4, {{1,3}} e, {{2,3}} 1/2 - e with e = {e}; user 2 interchanges rows 1 and 2. Only "
            "the distances 1 and 2 occur with positive prior, so the cost is c0 + c1 t with the single radical "
            f"t = 2^(1 - delta) = 2^(9/10).\n\n**User 1's optimum** ({s1.method}); value `{s1.value}`:\n\n" + tab +
            f"\n\nFigure 4 prints {_fig4_text(FIGURE_4)}; the exact optimum gives {_fig4_text(_rows4(x))} on "
            f"outputs 1 and 2. User 2's optimum is the mirror image (value `{s2.value}`). Over the whole optimal "
            "face (complementary slackness with "
            "the verified dual: rational constraints), every free entry has min = max (two exact LPs each, their "
            "duals in the certificate)" + (", so user 1's optimal mechanism is unique, as the paper says "
            if f["unique"] else "is NOT certified, so uniqueness stays open ")
            + "(the rank test alone does not certify it: the optimum is degenerate).\n\n"
            "**No simultaneously optimal mechanism (exact LP).** A mechanism with remaps inducing an optimal "
            "mechanism for each user can be taken with 16 outputs (a, b) (Lemma 6.4, randomised remaps by splitting "
            "outputs); its two induced mechanisms must lie on the two optimal faces. Minimising the violation t "
            f"gives the exact optimum t* = {exact_str(sim.value)} > 0 ({sim.method}).\n\n"
            "**The proof's numbers.** With Figure 4's rows and their mirror image, on the outputs l = (1,1), "
            "m = (1,2), n = (2,1), o = (2,2): min over mechanisms of the mass on l at {1} is "
            f"{exact_str(f['lo'])}, and the max at {{1,3}} (using only the constraints between databases two or "
            f"more rows apart, factor alpha^d) is {exact_str(f['hi'])}; ratio >= {exact_str(f['lo'] / f['hi'])} > "
            f"1/alpha = 2 although {{1}} and {{1,3}} are neighbours. The proof prints 7/12, 1/6 and 3.5.\n\n"
            "**Every small delta, and beyond.** The dual is linear in the cost's components, so with the same "
            "basis the reduced costs and multipliers are exact affine functions v0 + v1 t of t = 2^(1 - delta), and "
            "the (rational) vertex does not depend on t. Both users' bases stay optimal exactly for t in "
            f"[{exact_str(t_lo)}, {'oo' if t_hi is None else exact_str(t_hi)}) (the two user certificates assert "
            "it, affine in t). On the open interval no reduced cost or multiplier changes sign (an affine function "
            ">= 0 on an interval that vanishes inside it is 0), so the optimal faces, the uniqueness of the optimum "
            "and t* > 0 above hold for every t in it at once"
            + (": t = 2^(1 - delta) > 1 for every delta < 1, so the theorem's instance works for every delta in "
               "(0, 1), in the limit delta -> 0 (t = 2, the absolute loss |j - i|, which lies inside the interval), "
               "and even for convex losses (delta < 0). The journal's small delta > 0 is not needed for this instance; "
               "at t = 1 (delta = 1, the binary loss) the interval ends."
               if t_lo == 1 and t_hi is None else ".") + "\n\n"
            "**The prior's e.** Figure 4's rows are reproduced for e = "
            + ", ".join(exact_str(a) for a, b in f["es"] if b) + " and not for e = "
            + ", ".join(exact_str(a) for a, b in f["es"] if not b) + " (e must be small).\n\n"
            "**Certificates.** Five `lp` certificates, each re-checked from its JSON alone: both users' optima "
            "(affine in t on their intervals; user 1's with the uniqueness duals), the simultaneous-optimality LP "
            "and the proof's two bounds.\n\n"
            "**The earlier reconstruction (binary loss, weights (3, 1, 1, 1) and 1/10 on the other databases, found "
            "by search) is dropped from the claim**; `find_user_weights` remains for the record.\n")
