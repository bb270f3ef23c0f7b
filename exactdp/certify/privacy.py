"""d-privacy and eps-DP of a mechanism over a finite metric, certified exactly.

ECP14 Def. 1 (d_X-privacy): ``K(x)(z) <= e^(eps d(x,x')) K(x')(z)`` for all
secrets ``x, x'`` and outputs ``z``.  eps-differential privacy is the case of
the Hamming metric or of the induced graph of a query (ECP14 sec. 3.2,
Corollary 1).

:func:`certify_privacy` decides the inequality at an exact level and returns
the witness (a violated inequality with both sides exact) or the tight
constraints.  :func:`smallest_epsilon` finds the exact smallest level

    eps* = max over constraints of log(K(x)(z) / K(x')(z)) / d(x, x'),

as a closed form ``log(r)/d`` (or an exact exponent such as ``1/2`` when the
ratio is ``e^(1/2)``) with a certified decimal enclosure, and ``inf`` when some
output has probability zero on one side of a constraint only.
"""

from __future__ import annotations

from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Step
from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import exact_latex, exact_str, sign, simplify
from ..exact.level import Level
from ..metrics import as_metric
from .constraints import Constraints, Triple

__all__ = ["certify_privacy", "smallest_epsilon", "resolve_level"]


def resolve_level(eps=None, alpha=None, level=None) -> Level:
    """A :class:`Level` from exactly one of ``eps``, ``alpha`` or ``level``."""
    given = [v is not None for v in (eps, alpha, level)]
    if sum(given) != 1:
        raise InvalidInput("level: give exactly one of eps, alpha (or a Level); hint: --eps 1/2 or --alpha 1/2")
    if level is not None:
        return level
    return Level.from_eps(eps) if eps is not None else Level.from_alpha(alpha)


def _concrete(mech, level):
    if mech.regime == "symbolic":
        return mech.at(level)
    return mech.validate()


def _view(cons, t: Triple, level=None) -> dict:
    """Exact description of one constraint occurrence."""
    x, xp, z, d = cons.locate(t)
    a, b = cons.mech.values[t.a], cons.mech.values[t.b]
    out = {"x": x, "x_prime": xp, "output": z, "distance": exact_str(d),
           "K_x": exact_str(a), "K_x_prime": exact_str(b)}
    if level is not None:
        E = level.factor(d)
        out["factor"] = level.factor_str(d)
        out["lhs"] = exact_str(a)
        if E is not None:
            rhs = simplify(E * b)
            out["rhs"] = exact_str(rhs)
            out["excess"] = exact_str(simplify(a - rhs))
        else:
            out["rhs"] = f"{out['factor']} * ({exact_str(b)})"
    return out


def _brief(cons, t: Triple) -> dict:
    x, xp, z, d = cons.locate(t)
    return {"x": x, "x_prime": xp, "output": z, "distance": exact_str(d)}


def _counts(cons) -> dict:
    return {"pairs": cons.n_pairs, "outputs": cons.n_outputs, "inequalities": cons.total}


def _mechanism_step(mech):
    return Step(
        "The mechanism",
        f"$K$ is the {len(mech.inputs)} x {len(mech.outputs)} exact matrix *{mech.name}* "
        f"({mech.regime} entries, {len(mech.values)} distinct values). Every entry was checked to be "
        f">= 0 and every row to sum to exactly 1 when it was built"
        + (f" ({mech.provenance})." if mech.provenance else "."),
    )


def _definition_step(level=None):
    lvl = f" with $\\varepsilon = {level.eps_latex()}$" if level is not None else ""
    return Step(
        "Definition",
        "A mechanism $K$ is $\\varepsilon d$-private (ECP14 Def. 1) iff "
        "$K(x)(z) \\le e^{\\varepsilon d(x,x')} K(x')(z)$ for all secrets $x, x'$ and outputs $z$"
        f"{lvl}; for the Hamming metric, or the induced graph of a query, this is "
        "$\\varepsilon$-differential privacy (ECP14 sec. 3.2).",
    )


def _reduction_step(metric, cons):
    return Step(
        "Reduction to generating pairs",
        f"The metric is the {metric.description}. {metric.reduction[0].upper()}{metric.reduction[1:]}. "
        f"So it suffices to check {cons.n_pairs} pair(s), in both directions, for each of the "
        f"{cons.n_outputs} outputs: {cons.total} inequalities. Identical triples "
        "(K(x)(z), K(x')(z), d(x, x')) are decided once.",
    )


def _method(level, stats, mech):
    if level.regime == "rational" and mech.regime == "rational":
        base = "exact rational arithmetic (regime 1)"
    else:
        base = ("exact zero test by the Lindemann-Weierstrass theorem and ball arithmetic at rising precision "
                "(regime 2)")
    return (f"{base}; of {stats['comparisons']} distinct comparisons, {stats['filtered']} were settled by a "
            f"certified outward-rounded floating-point filter, {stats['exact']} decided exactly, {stats['zero']} by "
            "exact zeros")


def smallest_epsilon(mech, metric, *, _cons=None):
    """The exact smallest eps for which ``mech`` is ``eps d``-private.

    Returns a :class:`~exactdp.certificate.Certificate` whose ``data`` holds
    ``epsilon`` (exact text, ``"inf"`` or ``"0"``), ``epsilon_enclosure`` and
    ``epsilon_latex``; the witness is the binding constraint.  ``holds`` is
    False exactly when ``epsilon`` is ``"inf"`` (no finite eps works).

    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> c = smallest_epsilon(geometric(4, "1/2"), path(5))
    >>> c.data["epsilon"], c.data["epsilon_enclosure"]
    ('log(2)', ['0.69314718055994530941', '0.69314718055994530942'])

    Notes
    -----
    Floats only choose the candidate: the largest float estimate of
    ``log(K(x)(z)/K(x')(z))/d``.  Its exact level ``log(r)/d`` is then checked
    against every constraint exactly; a violated constraint has a strictly
    larger exact ratio and becomes the next candidate, so the loop ends at the
    exact maximum.
    """
    metric = as_metric(metric)
    if mech.regime == "symbolic":
        raise InvalidInput("smallest_epsilon: the mechanism's entries depend on a symbolic alpha; fix a level "
                           "(mech.at(Level...)) or use certify_all_eps")
    mech = mech.validate()
    cons = _cons if _cons is not None else Constraints(mech, metric)
    steps = [Step("Goal", "The smallest $\\varepsilon$ with $K(x)(z) \\le e^{\\varepsilon d(x,x')} K(x')(z)$ "
                  "everywhere is $\\varepsilon^* = \\max \\log(K(x)(z)/K(x')(z)) / d(x,x')$ over the constraints "
                  "(with $\\infty$ when $K(x)(z) > 0 = K(x')(z)$)."),
             _mechanism_step(mech), _reduction_step(metric, cons)]
    claim = f"the smallest eps for which {mech.name} is eps*d-private on the {metric.description}"
    vals = mech.values
    if cons.n_pairs == 0:
        steps.append(Step("No constraint", "Every pair of points is at infinite distance."))
        return _eps_certificate(claim, Level.from_ratio(fmpq(1), fmpq(1)), {}, None, steps, cons,
                                "no constraint: every pair is at infinite distance")
    t = cons.one_sided_zero()
    if t is not None:
        w = _view(cons, t)
        steps.append(Step("An output seen on one side only",
                          f"$K({w['x']})({w['output']}) = {exact_latex(vals[t.a])} > 0$ but "
                          f"$K({w['x_prime']})({w['output']}) = 0$ while $d = {w['distance']}$ is finite, so no "
                          "finite $\\varepsilon$ satisfies the constraint."))
        return _eps_certificate(claim, None, w, None, steps, cons, "exact zero test")
    t, _ = cons.best_guess()
    rounds = 0
    while True:
        rounds += 1
        a, b, d = vals[t.a], vals[t.b], cons.dvals[t.dc]
        r = simplify(a / b)
        level = Level.from_ratio(fmpq(1), fmpq(1)) if sign(r - 1) <= 0 else Level.from_ratio(r, d)
        S = cons.decide(level)
        if S.violated:
            t = S.worst
            continue
        if S.undecided:
            tu, exc = S.undecided[0]
            steps.append(Step("Undecided", f"At the candidate level {level.eps_str()} the comparison for "
                              f"{_view(cons, tu)} could not be decided: {exc.reason}"))
            return _eps_certificate(claim, None, None, exc, steps, cons, _method(level, S.stats, mech), lower=level)
        break
    w = _view(cons, t, level)
    w["tight"] = [_brief(cons, x) for x in S.tight_listed]
    w["tight_count"], w["tight_distinct"] = S.tight, S.tight_distinct
    if level.is_zero():
        steps.append(Step("All ratios at most 1", "Every constraint has $K(x)(z) \\le K(x')(z)$, checked exactly, "
                          "so the mechanism is $\\varepsilon d$-private for every $\\varepsilon \\ge 0$."))
    else:
        steps.append(Step(
            "The binding constraint",
            f"For $x = {w['x']}$, $x' = {w['x_prime']}$, $z = {w['output']}$ (distance ${exact_latex(d)}$): "
            f"$K(x)(z) / K(x')(z) = {exact_latex(r)}$, so $\\varepsilon^* \\ge {level.eps_latex()}$."))
        steps.append(Step(
            "Every other constraint holds at that level",
            f"At $\\varepsilon = {level.eps_latex()}$ all {S.stats['comparisons']} distinct comparisons were decided: "
            f"none is violated and {S.tight} inequalities are tight (equalities). Hence "
            f"$\\varepsilon^* = {level.eps_latex()}$"
            + (f" (found in {rounds} rounds of a float-guided search, each round decided exactly)." if rounds > 1
               else ".")))
    return _eps_certificate(claim, level, w, None, steps, cons, _method(level, S.stats, mech))


def _eps_certificate(claim, level, witness, undecided, steps, cons, method, lower=None):
    if undecided is not None:
        data = {"epsilon": "undecided", "epsilon_enclosure": None,
                "epsilon_lower_bound": lower.eps_str() if lower is not None else None,
                "reason": undecided.reason}
        holds = UNDECIDED
        concl = "The exact smallest epsilon could not be decided: " + undecided.reason
    elif level is None:
        data = {"epsilon": "inf", "epsilon_enclosure": ["inf", "inf"], "epsilon_latex": r"\infty"}
        holds = False  # no finite eps works: the claim "private for some eps" fails (exit 1 on the CLI)
        concl = ("eps* = inf: the mechanism is not eps*d-private for any finite eps (an output has probability "
                 "zero on one side of a pair at finite distance only).")
    else:
        enc = list(level.eps_enclosure())
        data = {"epsilon": level.eps_str(), "epsilon_enclosure": enc, "epsilon_latex": level.eps_latex()}
        holds = True
        concl = f"$\\varepsilon^* = {level.eps_latex()} \\in [{enc[0]}, {enc[1]}]$."
    data["constraints"] = _counts(cons)
    ev = {"mechanism": cons.mech, "metric": cons.metric, "level": level, "witness": witness}
    return Certificate(kind="epsilon", claim=claim,
                       claim_latex=r"\varepsilon^* = " + (data.get("epsilon_latex") or r"\text{undecided}"),
                       holds=holds, witness=witness or {}, method=method, steps=steps, data=data, evidence=ev,
                       conclusion=concl)


def _settled_for_every_eps(mech, metric, level):
    """The all-eps certificate (regime 3) when it settles the level, else ``None``.

    Used when the entries in alpha cannot be evaluated exactly at the level
    (e.g. eps = log(2)/2, alpha = 2^(-1/2)): a proof for every eps covers it,
    and so does a failure for every alpha in (0, 1).
    """
    from .all_eps import certify_all_eps

    cert = certify_all_eps(mech, metric)
    fs = cert.data.get("failure_set") or []
    everywhere = (cert.holds is False and len(fs) == 1 and not fs[0]["point"] and fs[0]["lo"] == "0"
                  and fs[0]["hi"] == "1")
    if cert.holds is not True and not everywhere:
        return None
    cert.data["epsilon_given"] = level.eps_str()
    cert.conclusion += (f" In particular it is{' not' if everywhere else ''} eps*d-private at eps = "
                        f"{level.eps_str()}, where its entries are not exact rationals or exponentials (the proof "
                        "for every eps settles it).")
    return cert


def certify_privacy(mech, metric, *, eps=None, alpha=None, level=None, with_epsilon=True) -> Certificate:
    """Certify that ``mech`` is ``eps d``-private on ``metric`` (ECP14 Def. 1).

    Parameters
    ----------
    mech : Mechanism
        Entries rational, transcendental, or in a symbolic alpha (then
        evaluated exactly at the level).
    metric : FiniteMetric or networkx.Graph
        Its points must be the mechanism's inputs (labels compared as strings);
        a networkx graph stands for its shortest-path metric (``as_metric``).
    eps, alpha, level :
        Exactly one: ``eps`` (e.g. ``"1/2"``, ``"log(2)"``, ``"sqrt(2)"``) or
        ``alpha = e^(-eps)`` (e.g. ``"1/2"``, ``"exp(-1/2)"``).
    with_epsilon : bool
        Also compute the exact smallest eps (``data["epsilon"]``).

    Returns
    -------
    Certificate
        ``holds`` True (witness: the tightest constraint and the tight ones),
        False (witness: x, x', output, both sides exactly and the excess) or
        UNDECIDED (witness: the reason).

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> c = certify_privacy(geometric(3, "1/2"), path(4), eps="log(2)")
    >>> c.holds, c.data["epsilon"], c.witness["tight_count"]
    (True, 'log(2)', 12)
    >>> c = certify_privacy(geometric(3, "1/2"), path(4), eps="1/2")
    >>> c.holds, c.witness["lhs"], c.witness["rhs"]
    (False, '1/6', '1/12*exp(1/2)')

    References
    ----------
    ECP14 Def. 1 and sec. 3.2; GRS12 Ex. 2.1; HLM15 (11).
    """
    metric = as_metric(metric)
    level = resolve_level(eps, alpha, level)
    claim = f"{mech.name} is eps*d-private with eps = {level.eps_str()} on the {metric.description}"
    claim_latex = r"\forall x, x', z:\ K(x)(z) \le e^{" + level.eps_latex() + r"\, d(x,x')} K(x')(z)"
    try:
        mech = _concrete(mech, level)
    except UnsupportedRegime as e:
        reason = str(e)
        if mech.regime == "symbolic":
            settled = _settled_for_every_eps(mech, metric, level)
            if settled is not None:
                return settled
        return Certificate(
            kind="privacy", claim=claim, claim_latex=claim_latex, holds=UNDECIDED, witness={"reason": reason},
            method="none of the exact regimes applies", data={"epsilon_given": level.eps_str(), "reason": reason,
                                                               "epsilon": "undecided", "epsilon_enclosure": None},
            steps=[_definition_step(level), Step("Undecided", reason)], conclusion="Undecided: " + reason)
    cons = Constraints(mech, metric)
    S = cons.decide(level)
    steps = [_definition_step(level), _mechanism_step(mech), _reduction_step(metric, cons)]
    E_lines = ", ".join(f"$e^{{\\varepsilon \\cdot {exact_latex(d)}}} = {_factor_latex(level, d)}$"
                        for d in cons.dvals[:4])
    steps.append(Step("The level", f"$\\varepsilon = {level.eps_latex()}$ ({level.regime} regime); for the "
                      f"generating distances: {E_lines}" + (" ..." if len(cons.dvals) > 4 else "") + "."))
    method = _method(level, S.stats, mech)
    vals = mech.values
    if S.violated:
        t = S.worst
        w = {"kind": "violation", **_view(cons, t, level), "violated_count": S.violated}
        holds = False
        d = cons.dvals[t.dc]
        if sign(vals[t.b]) == 0:
            txt = (f"$K({w['x']})({w['output']}) = {exact_latex(vals[t.a])} > 0 = "
                   f"K({w['x_prime']})({w['output']})$: no level can satisfy this constraint.")
        else:
            rhs = _rhs_value(level, vals[t.b], d)
            txt = (f"$x = {w['x']}$, $x' = {w['x_prime']}$, $z = {w['output']}$, $d(x,x') = {exact_latex(d)}$: "
                   f"$K(x)(z) = {exact_latex(vals[t.a])}$ but $e^{{\\varepsilon d}} K(x')(z) = "
                   f"{_factor_latex(level, d)} \\cdot {exact_latex(vals[t.b])}$"
                   + (f" $= {exact_latex(rhs)}$" if rhs is not None else "")
                   + ", and the left side is larger (decided exactly).")
        steps.append(Step("A violated constraint", txt))
        conclusion = (f"The mechanism is not eps*d-private at eps = {level.eps_str()}: "
                      f"{S.violated} inequalities fail; the witness above is one.")
    elif S.undecided:
        holds = UNDECIDED
        tu, exc = S.undecided[0]
        w = {**_view(cons, tu, level), "reason": exc.reason, "enclosure": exc.enclosure}
        steps.append(Step("Undecided comparison", f"{_brief(cons, tu)}: {exc.reason}"))
        conclusion = "No violation was found, but some comparisons are outside every exact regime: undecided."
    else:
        holds = True
        w = {"tight": [_brief(cons, t) for t in S.tight_listed], "tight_count": S.tight,
             "tight_distinct": S.tight_distinct, "violated_count": 0}
        ex = ""
        if S.tight_listed:
            v = _view(cons, S.tight_listed[0], level)
            ex = (f" For example $K({v['x']})({v['output']}) = {exact_latex(vals[S.tight_listed[0].a])} = "
                  f"e^{{\\varepsilon \\cdot {v['distance']}}} K({v['x_prime']})({v['output']})$ exactly.")
        steps.append(Step("Every constraint holds",
                          f"All {S.stats['comparisons']} distinct comparisons satisfy the inequality; "
                          f"{S.tight} inequalities hold with equality (tight constraints).{ex}"))
        conclusion = f"The mechanism is eps*d-private at eps = {level.eps_str()}."
    data = {"epsilon_given": level.eps_str(), "regime": level.regime, "constraints": _counts(cons),
            "filter": S.stats}
    cert = Certificate(kind="privacy", claim=claim, claim_latex=claim_latex, holds=holds, witness=w,
                       method=method, steps=steps, data=data,
                       evidence={"mechanism": mech, "metric": metric, "level": level, "witness": w},
                       conclusion=conclusion)
    if with_epsilon:
        ec = smallest_epsilon(mech, metric, _cons=cons)
        cert.data["epsilon"] = ec.data["epsilon"]
        cert.data["epsilon_enclosure"] = ec.data["epsilon_enclosure"]
        cert.data["epsilon_latex"] = ec.data.get("epsilon_latex")
        cert.evidence["epsilon_certificate"] = ec
        if holds is True and "x" in ec.witness:
            # the tightest constraint (binding at eps*), evaluated at the given level
            bw = ec.witness
            a, b = mech.entry(bw["x"], bw["output"]), mech.entry(bw["x_prime"], bw["output"])
            d = metric.distance(bw["x"], bw["x_prime"])
            rhs = _rhs_value(level, b, d)
            w.update({"kind": "tightest", "x": bw["x"], "x_prime": bw["x_prime"], "output": bw["output"],
                      "distance": exact_str(d), "lhs": exact_str(a), "factor": level.factor_str(d),
                      "rhs": exact_str(rhs) if rhs is not None else f"{level.factor_str(d)} * ({exact_str(b)})"})
        enc = ec.data.get("epsilon_enclosure")
        cert.steps.append(Step("The smallest level",
                               f"Separately (see the epsilon certificate), $\\varepsilon^* = "
                               f"{ec.data.get('epsilon_latex') or ec.data['epsilon']}$"
                               + (f" $\\in [{enc[0]}, {enc[1]}]$" if enc else "") + "."))
    return cert


def _rhs_value(level, b, d):
    E = level.factor(d)
    return None if E is None else simplify(E * b)


def _factor_latex(level, d):
    E = level.factor(d)
    if E is not None:
        return exact_latex(E)
    return rf"{exact_latex(level.R)}^{{{exact_latex(d)}/{exact_latex(level.D)}}}"
