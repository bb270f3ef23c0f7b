"""One certificate for the BCSZ18 extension: (a) Â private on H, (b) A = Â on H, (c) A 2eps-private, (d) eps*(A).

:func:`certify_extension` decides each part exactly (``decide``), builds an
evidence record of exact strings, and renders the worked proof from that
record (``render``), following BCSZ18's chain of inequalities (proof of
Thm 2.1, Sec. 4) with the exact numbers of the binding instance: the pair
``(D_1, D_2)`` and output ``w`` where ``A``'s privacy ratio is largest.

>>> from exactdp import Mechanism
>>> from exactdp.metrics import path
>>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
>>> c = certify_extension(Ah, path(4), ["0", "3"], alpha="1/2")
>>> c.holds, c.data["private_on_H"], c.data["agrees_on_H"], c.data["private_2eps"], c.data["epsilon"]
(True, 'holds', True, 'holds', 'log(2)')
"""

from __future__ import annotations

from fractions import Fraction

from ..certificate import UNDECIDED, Certificate, Step, verdict_str
from ..certify.privacy import certify_privacy, resolve_level
from ..errors import Undecided
from ..exact.decide import exact_str, sign, simplify
from .extension import ZeroNormaliser, _check_subset, double_level, extension_data, restrict_metric

__all__ = ["certify_extension"]


def _agreement(X, mech_on_H):
    """(b): ``Z_D = 1`` and ``A(D) = Â(D)`` exactly for every ``D`` in H; first disagreement or None."""
    A = X.mechanism
    ones = 0
    for h in X.H:
        i = A.row_index[h]
        z = X.Z[i]
        if sign(z - 1) == 0:
            ones += 1
        for w in A.outputs:
            a, b = A.entry(h, w), mech_on_H.entry(h, w)
            if sign(a - b) != 0:
                return ones, {"D": h, "output": w, "A": exact_str(a), "A_hat": exact_str(b), "Z_D": exact_str(z)}
    return ones, None


def _binding(X, metric, mech_on_H, wit):
    """Exact numbers of BCSZ18's chain at the binding pair ``(D_1, D_2, w)`` of A's smallest eps."""
    A, L = X.mechanism, X.level
    D1, D2, w = wit["x"], wit["x_prime"], wit["output"]
    i1, i2, j = A.row_index[D1], A.row_index[D2], A.col_index[w]
    d12 = metric.distance(D1, D2)
    p1, p2 = X.H[int(X.argmin[i1, j])], X.H[int(X.argmin[i2, j])]
    m1, m2, Z1, Z2 = X.minima[i1][j], X.minima[i2][j], X.Z[i1], X.Z[i2]
    E = L.factor(d12)
    return {"D1": D1, "D2": D2, "output": w, "distance": exact_str(d12),
            "argmin_D1": p1, "argmin_D2": p2, "d_D1_argmin": exact_str(metric.distance(D1, p1)),
            "d_D2_argmin": exact_str(metric.distance(D2, p2)),
            "A_hat_argmin_D1": exact_str(mech_on_H.entry(p1, w)), "A_hat_argmin_D2": exact_str(mech_on_H.entry(p2, w)),
            "m1": exact_str(m1), "m2": exact_str(m2), "factor": exact_str(E), "factor_m2": exact_str(simplify(E * m2)),
            "Z1": exact_str(Z1), "Z2": exact_str(Z2), "factor_Z1": exact_str(simplify(E * Z1)),
            "A1": exact_str(A.entry(D1, w)), "A2": exact_str(A.entry(D2, w)),
            "ratio": exact_str(simplify(A.entry(D1, w) / A.entry(D2, w))) if sign(A.entry(D2, w)) else "inf",
            "factor2": exact_str(simplify(E * E))}


def certify_extension(mech_on_H, metric, H=None, *, eps=None, alpha=None, level=None) -> Certificate:
    """Certify BCSZ18 Prop. 2.1 on an instance: the extension exists, agrees on H and is 2 eps-private.

    Parameters
    ----------
    mech_on_H : Mechanism
        ``Â`` with rows exactly ``H``.
    metric : FiniteMetric
        ``(M, d)``.
    H : list of labels, optional
        Default: the mechanism's inputs.
    eps, alpha, level :
        Exactly one: the level ``eps`` claimed for ``Â`` on ``H``.

    Returns
    -------
    Certificate
        ``kind = "extension"``.  ``holds`` is True when (a) ``Â`` is
        eps-private on ``H`` for the restricted metric, (b) ``A = Â`` on ``H``
        (every normaliser ``Z_D = 1``) and (c) ``A`` is ``2 eps``-private on
        ``M``; False with the failing part's witness (for (a): the violated
        constraint of ``Â``); UNDECIDED outside the exact regimes.  ``data``:
        ``private_on_H``, ``agrees_on_H``, ``private_2eps``, ``epsilon`` (the
        exact smallest eps of ``A``), ``epsilon_of_A_hat``, ``mechanism`` (``A``
        in the file format), ``binding`` (BCSZ18's chain at the binding pair).

    References
    ----------
    BCSZ18 Prop. 2.1 (Thm 2.1), Lemma 4.1, proof in Sec. 4.
    """
    level = resolve_level(eps, alpha, level)
    H = _check_subset(mech_on_H, metric, H)
    claim = (f"the BCSZ18 extension of {mech_on_H.name} from |H| = {len(H)} points to the {metric.description} "
             f"agrees on H and is 2 eps-private, eps = {level.eps_str()}")
    claim_latex = (r"A(D)(w) = \frac{\min_{D' \in H} e^{\varepsilon d(D,D')} \hat A(D')(w)}{Z_D},\ "
                   r"A|_H = \hat A,\ A \text{ is } 2\varepsilon\text{-private}")
    R = restrict_metric(metric, H)
    ca = certify_privacy(mech_on_H, R, level=level)
    data = {"epsilon_given": level.eps_str(), "private_on_H": verdict_str(ca.holds),
            "epsilon_of_A_hat": ca.data.get("epsilon")}
    try:
        X = extension_data(mech_on_H, metric, H, level=level)
    except ZeroNormaliser as e:
        data.update({"agrees_on_H": False, "private_2eps": "undefined", "epsilon": None, "reason": str(e)})
        return Certificate(kind="extension", claim=claim, claim_latex=claim_latex, holds=False,
                           witness={"part": "a", **ca.witness}, method="exact privacy check of the mechanism on H",
                           data=data, steps=_render(data, len(H), len(metric), R), evidence={"parts": [ca]},
                           conclusion="Part (a) fails and the extension is undefined: " + str(e))
    except Undecided as e:
        data.update({"agrees_on_H": None, "private_2eps": "undecided", "epsilon": "undecided", "reason": e.reason})
        if ca.holds is False:  # part (a) already fails exactly: that decides the verdict
            return Certificate(kind="extension", claim=claim, claim_latex=claim_latex, holds=False,
                               witness={"part": "a", **ca.witness}, method="exact privacy check of the mechanism on H",
                               data=data, steps=_render(data, len(H), len(metric), R) + [Step("Extension", e.reason)],
                               evidence={"parts": [ca]}, conclusion="Part (a) fails; the extension itself is "
                               "outside the exact regimes: " + e.reason)
        return Certificate(kind="extension", claim=claim, claim_latex=claim_latex, holds=UNDECIDED,
                           witness={"reason": e.reason}, method="none of the exact regimes applies", data=data,
                           steps=[Step("Undecided", e.reason)], evidence={"parts": [ca]},
                           conclusion="Undecided: " + e.reason)
    ones, disagree = _agreement(X, mech_on_H.at(level) if mech_on_H.regime == "symbolic" else mech_on_H)
    cc = certify_privacy(X.mechanism, metric, level=double_level(level))
    ec = cc.evidence.get("epsilon_certificate")
    data.update({"agrees_on_H": disagree is None, "normalisers_equal_1": ones, "private_2eps": verdict_str(cc.holds),
                 "epsilon": cc.data.get("epsilon"), "epsilon_enclosure": cc.data.get("epsilon_enclosure"),
                 "comparisons": X.comparisons, "mechanism": X.mechanism.to_json()})
    binding = None
    if ec is not None and ec.holds is True and "x" in ec.witness and cc.holds is True:
        binding = _binding(X, metric, mech_on_H, ec.witness)
        data["binding"] = binding
    verdicts = [ca.holds, True if disagree is None else False, cc.holds]
    if any(v is False for v in verdicts):
        holds = False
    elif any(v is UNDECIDED for v in verdicts):
        holds = UNDECIDED
    else:
        holds = True
    if ca.holds is False:
        witness = {"part": "a", **ca.witness}
    elif disagree is not None:
        witness = {"part": "b", **disagree}
    elif cc.holds is not True:
        witness = {"part": "c", **cc.witness}
    else:
        witness = {"part": "all", **(binding or {})}
    ev = {"parts": [ca, cc], "data": data, "H": H, "recheck": _rechecker(X, mech_on_H, metric, level)}
    steps = _render(data, len(H), len(metric), R)
    if holds is True:
        concl = "All three parts hold: the extension agrees with Â on H and is 2 eps-private on M."
    elif holds is False:
        concl = f"Part ({witness['part']}) fails; the witness is above."
    else:
        concl = "Some comparison is outside every exact regime: undecided."
    return Certificate(kind="extension", claim=claim, claim_latex=claim_latex, holds=holds, witness=witness,
                       method="exact extension (float-filtered minima decided exactly) and exact privacy checks",
                       steps=steps, data=data, evidence=ev, conclusion=concl)


def _render(data, nH, nM, R):
    """The worked proof, from the exact data only (BCSZ18 Sec. 4)."""
    eps = data["epsilon_given"]
    steps = [Step("Construction (BCSZ18, proof of Thm 2.1)",
                  f"For every $D$ in $M$ ({nM} points) and output $w$: $m_D(w) = \\min_{{D' \\in H}} "
                  f"e^{{\\varepsilon d(D,D')}} \\hat A(D')(w)$ over all {nH} points of $H$, $Z_D = \\sum_w m_D(w)$ and "
                  f"$A(D)(w) = m_D(w)/Z_D$, with $\\varepsilon = {eps}$. The printed normaliser lost its "
                  "$\\exp$; it is reconstructed as the integral of the density it normalises."),
             Step("(a) Â is eps-private on H (Lemma 4.1: pointwise = setwise)",
                  f"Checked exactly on the {R.description} ({len(R.generating_pairs())} generating pairs): "
                  f"{data['private_on_H']}; the smallest eps of Â there is {data['epsilon_of_A_hat']}.")]
    if data.get("agrees_on_H") is None or data.get("epsilon") is None:
        return steps
    steps.append(Step("(b) A agrees with Â on H",
                      f"For each of the {nH} points $D$ of $H$, $Z_D = 1$ exactly for {data['normalisers_equal_1']} of "
                      f"them and the rows are equal exactly: {data['agrees_on_H']}. (By (a), the minimum defining "
                      "$m_D$ is attained at $D' = D$.)"))
    steps.append(Step("(c) A is 2 eps-private on M",
                      f"Checked exactly at level $2\\varepsilon$: {data['private_2eps']}; the exact smallest eps of A "
                      f"is {data['epsilon']} (against $2\\varepsilon = 2 \\cdot {eps}$)."))
    b = data.get("binding")
    if b:
        steps.append(Step(
            "BCSZ18's chain at the binding instance",
            f"$D_1 = {b['D1']}$, $D_2 = {b['D2']}$, $w = {b['output']}$, $d(D_1, D_2) = {b['distance']}$, "
            f"$e^{{\\varepsilon d}} = {b['factor']}$. The minimum for $D_1$ is attained at $D' = {b['argmin_D1']}$ "
            f"(distance {b['d_D1_argmin']}, $\\hat A = {b['A_hat_argmin_D1']}$): $m_{{D_1}}(w) = {b['m1']}$; for $D_2$ "
            f"at $D' = {b['argmin_D2']}$: $m_{{D_2}}(w) = {b['m2']}$. Triangle inequality: $m_{{D_1}}(w) = {b['m1']} "
            f"\\le e^{{\\varepsilon d}} m_{{D_2}}(w) = {b['factor_m2']}$. The same with $D_1, D_2$ exchanged, summed "
            f"over $w$: $Z_{{D_2}} = {b['Z2']} \\le e^{{\\varepsilon d}} Z_{{D_1}} = {b['factor_Z1']}$ "
            f"($Z_{{D_1}} = {b['Z1']}$), so $1/Z_{{D_1}} \\le e^{{\\varepsilon d}}/Z_{{D_2}}$. "
            f"Hence $A(D_1)(w) = {b['A1']}$, $A(D_2)(w) = {b['A2']}$, ratio ${b['ratio']} \\le "
            f"e^{{2\\varepsilon d}} = {b['factor2']}$."))
    return steps


def _rechecker(X, mech_on_H, metric, level):
    """An independent recheck in the rational regime: recompute every minimum with ``fractions``."""
    if level.regime != "rational" or str(level.D) != "1" or mech_on_H.regime != "rational":
        return None
    R = Fraction(str(level.R))
    H = list(X.H)
    Ah = [[Fraction(str(mech_on_H.entry(h, w))) for w in mech_on_H.outputs] for h in H]
    A = [[Fraction(s) for s in row] for row in X.mechanism.to_json()["matrix"]]
    dist = [[str(metric.d(i, metric.index[h])) for h in H] for i in range(len(metric))]

    def check():
        from ..recheck import RecheckResult

        for i, drow in enumerate(dist):
            cands = [(R ** int(Fraction(d)), k) for k, d in enumerate(drow) if d != "inf"]
            if any(Fraction(d).denominator != 1 for d in drow if d != "inf"):
                return RecheckResult(None, i, "non-integer distance")
            m = [min(f * Ah[k][w] for f, k in cands) for w in range(len(Ah[0]))]
            Z = sum(m)
            if [v / Z for v in m] != A[i]:
                return RecheckResult(False, i, f"row {metric.points[i]!r} differs from the recomputed extension")
        return RecheckResult(True, len(dist), "every row recomputed with fractions.Fraction and equal")

    return check
