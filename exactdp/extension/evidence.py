"""Evidence and worked proofs of the BCSZ18 extension (kinds ``extension`` and ``best_extension``).

``extension``: (a) ``Â`` eps-private on ``H`` for the restricted metric, (b) the
inf-construction ``A`` agrees with ``Â`` on ``H`` (every ``Z_D = 1``), (c) ``A`` is
``2 eps``-private on ``M``, (d) ``A``'s exact smallest eps, and BCSZ18's chain
of inequalities (proof of Thm 2.1) at the binding pair.  ``best_extension``:
a bracket of the smallest eps' for which *some* extension is eps'-private,
with exact slack-LP certificates at both ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..certificate.common import Constraint, LevelData, MechanismData, MetricData
from ..priors.evidence import LPData
from ..privacy.evidence import metric_phrase, tex
from ..certificate.records import Evidence, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["BestExtensionEvidence", "ExtensionEvidence"]


@evidence_kind("extension", checker="exactdp.extension.extension:certify_extension")
@dataclass(frozen=True)
class ExtensionEvidence(Evidence):
    """BCSZ18 Prop. 2.1 on one instance: parts (a)-(d) and the chain at the binding pair.

    ``distances[i][k]`` is ``d(D_i, H_k)`` for the i-th input of ``mechanism`` (the metric's points, in order)
    and the k-th point of ``H``; ``normalisers[i]`` is ``Z_{D_i}``.

    Parameters
    ----------
    mech_on_H : MechanismData
        The mechanism on ``H``.
    H : list of str
        The points of ``H``.
    metric : MetricData
        The metric on all points.
    restricted : MetricData
        The metric restricted to ``H``.
    points : list of str
        All points, in order.
    distances : list of list of str
        ``d(D_i, H_k)``.
    level : LevelData
        The level ``eps``.
    level_2eps : LevelData
        The level ``2 eps``.
    private_on_H : str
        Part (a): ``holds``, ``fails`` or ``undecided``.
    epsilon_of_A_hat : str or None
        The mechanism on H's exact smallest eps.
    violation : Constraint or None
        Part (a)'s violated inequality.
    mechanism : MechanismData or None
        The extension ``A`` on all points (None when undefined or undecided).
    normalisers : list of str or None
        ``Z_{D_i}``.
    agrees_on_H : bool or None
        Part (b): ``A`` agrees with the mechanism on ``H``.
    normalisers_equal_1 : int
        How many normalisers are 1.
    disagreement : dict or None
        Where ``A`` differs on ``H``, if it does.
    private_2eps : str
        Part (c): ``holds``, ``fails``, ``undecided`` or ``undefined``.
    violation_2eps : Constraint or None
        Part (c)'s violated inequality.
    epsilon : str or None
        ``A``'s exact smallest eps (part (d)).
    enclosure : list of str or None
        Decimals around it.
    binding : dict or None
        The binding pair of the chain.
    witness : dict or None
        ``{"part": the first failing part, or "all"}``.
    extension_note : str or None
        Why ``A`` is undefined or outside the exact regimes.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> from exactdp.extension.extension import certify_extension
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
    >>> ev = certify_extension(Ah, path(4), ["0", "3"], alpha="1/2").evidence
    >>> ev.H, ev.points
    (['0', '3'], ['0', '1', '2', '3'])
    """

    mech_on_H: MechanismData
    H: list[str]
    metric: MetricData
    restricted: MetricData
    points: list[str]
    distances: list[list[str]]
    level: LevelData
    level_2eps: LevelData
    private_on_H: str                  # holds / fails / undecided
    epsilon_of_A_hat: str | None
    violation: Constraint | None       # part (a)'s violated inequality
    mechanism: MechanismData | None    # A on all of M (None when undefined or undecided)
    normalisers: list[str] | None
    agrees_on_H: bool | None
    normalisers_equal_1: int
    disagreement: dict[str, str] | None
    private_2eps: str                  # holds / fails / undecided / undefined
    violation_2eps: Constraint | None
    epsilon: str | None                # A's exact smallest eps
    enclosure: list[str] | None
    binding: dict[str, str] | None
    witness: dict[str, str] | None               # {"part": the first failing part, or "all"}
    extension_note: str | None         # why A is undefined or outside the exact regimes

    _nested: ClassVar[dict[str, type]] = {"mech_on_H": MechanismData, "metric": MetricData, "restricted": MetricData,
                                          "level": LevelData, "level_2eps": LevelData, "violation": Constraint,
                                          "mechanism": MechanismData, "violation_2eps": Constraint}

    @classmethod
    def example(cls):
        """A small genuine ``extension`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> ExtensionEvidence.example().kind
        'extension'
        """
        from exactdp.extension.extension import certify_extension
        from exactdp.mechanism import Mechanism
        from exactdp.metrics import path
        K = Mechanism.from_rows(["0", "2"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
        return certify_extension(K, path(3), ["0", "2"], alpha="1/2")


def _violation_text(c: Constraint, what: str) -> str:
    """One line for a violated inequality: the instance and both sides (issue 32: the text format said "the
    witness is above" and printed none)."""
    return (f"{what}({c.x})({c.output}) = {c.lhs or c.K_x} > {c.rhs} = e^(eps d) {what}({c.x_prime})({c.output}), "
            f"d({c.x}, {c.x_prime}) = {c.distance}")


def _witness_line(ev) -> tuple[str, str] | None:
    """The summary line of the first failing part's witness, or None."""
    part = (ev.witness or {}).get("part")
    if part == "a" and ev.violation is not None:
        return ("witness (a)", _violation_text(ev.violation, "Â"))
    if part == "b" and ev.disagreement:
        return ("witness (b)", ", ".join(f"{k} = {v}" for k, v in ev.disagreement.items()))
    if part == "c" and ev.violation_2eps is not None:
        return ("witness (c)", _violation_text(ev.violation_2eps, "A") + " (at 2 eps)")
    return None


def _agree_text(agrees: bool | None) -> str:
    return {True: "equal (compared exactly)", False: "not equal (compared exactly)",
            None: "not compared (A is not defined)"}[agrees]


def _chain_step(b: dict) -> Step:
    return Step(
        "BCSZ18's chain at the binding instance",
        f"$D_1 = {b['D1']}$, $D_2 = {b['D2']}$, $w = {b['output']}$, $d(D_1, D_2) = {b['distance']}$, "
        f"$e^{{\\varepsilon d}} = {tex(b['factor'])}$. The minimum for $D_1$ is attained at $D' = {b['argmin_D1']}$ "
        f"(distance {b['d_D1_argmin']}, $\\hat A = {tex(b['A_hat_argmin_D1'])}$): $m_{{D_1}}(w) = {tex(b['m1'])}$; "
        f"for $D_2$ at $D' = {b['argmin_D2']}$: $m_{{D_2}}(w) = {tex(b['m2'])}$. Triangle inequality: "
        f"$m_{{D_1}}(w) = {tex(b['m1'])} \\le e^{{\\varepsilon d}} m_{{D_2}}(w) = {tex(b['factor_m2'])}$. The same "
        f"with $D_1, D_2$ exchanged, summed over $w$: $Z_{{D_2}} = {tex(b['Z2'])} \\le e^{{\\varepsilon d}} "
        f"Z_{{D_1}} = {tex(b['factor_Z1'])}$ ($Z_{{D_1}} = {tex(b['Z1'])}$), so $1/Z_{{D_1}} \\le "
        f"e^{{\\varepsilon d}}/Z_{{D_2}}$. Hence $A(D_1)(w) = {tex(b['A1'])}$, $A(D_2)(w) = {tex(b['A2'])}$, ratio "
        f"${tex(b['ratio'])} \\le e^{{2\\varepsilon d}} = {tex(b['factor2'])}$.")


@renderer("extension")
def _extension_proof(cert) -> Proof:
    ev: ExtensionEvidence = cert.evidence
    eps = ev.level.text
    nH, nM = len(ev.H), len(ev.points)
    steps = [Step("Construction (BCSZ18, proof of Thm 2.1)",
                  f"For every $D$ in $M$ ({nM} points) and output $w$: $m_D(w) = \\min_{{D' \\in H}} "
                  f"e^{{\\varepsilon d(D,D')}} \\hat A(D')(w)$ over all {nH} points of $H$, $Z_D = \\sum_w m_D(w)$ and "
                  f"$A(D)(w) = m_D(w)/Z_D$, with $\\varepsilon = {tex(eps)}$. The printed normaliser lost its "
                  "$\\exp$; it is reconstructed as the integral of the density it normalises."),
             Step("(a) Â is eps-private on H (Lemma 4.1: pointwise = setwise)",
                  f"Checked exactly on the {ev.restricted.description} ({len(ev.restricted.pairs)} generating "
                  f"pairs): {ev.private_on_H}; the smallest eps of Â there is ${tex(ev.epsilon_of_A_hat)}$."
                  + (f" Violated: $\\hat A({ev.violation.x})({ev.violation.output}) = {tex(ev.violation.K_x)} > "
                     f"{tex(ev.violation.rhs)}$." if ev.violation is not None else ""))]
    summary = [("level", f"eps = {eps}"), ("(a) private on H", ev.private_on_H)]
    witness = _witness_line(ev)
    if ev.mechanism is None:
        summary += [witness] if witness else []
        steps.append(Step("The extension", ev.extension_note or "not computed"))
        concl = ("Part (a) fails; " if ev.private_on_H == "fails" else "") + (ev.extension_note or "")
        return Proof(r"A|_H = \hat A,\ A\ 2\varepsilon\text{-private}", steps, concl, summary)
    steps.append(Step("(b) A agrees with Â on H",
                      f"$Z_D = 1$ exactly for {ev.normalisers_equal_1} of the {nH} points of $H$, and the rows of "
                      f"$A$ and $\\hat A$ on $H$ are {_agree_text(ev.agrees_on_H)}. "
                      "(By (a), the minimum defining $m_D$ is attained at $D' = D$.)"))
    steps.append(Step("(c) A is 2 eps-private on M",
                      f"Checked exactly at level $2\\varepsilon = {tex(ev.level_2eps.text)}$ on "
                      f"{metric_phrase(ev.metric)}: {ev.private_2eps}; the exact smallest eps of A is "
                      f"${tex(ev.epsilon)}$."))
    if ev.binding:
        steps.append(_chain_step(ev.binding))
    summary += [("(b) agrees on H", {True: "yes", False: "no", None: "not compared"}[ev.agrees_on_H]),
                ("(c) 2 eps-private", ev.private_2eps), ("(d) epsilon of A", str(ev.epsilon))]
    summary += [witness] if witness else []
    if cert.holds is True:
        concl = "All three parts hold: the extension agrees with Â on H and is 2 eps-private on M."
    elif cert.holds is False:
        assert ev.witness is not None  # a failing extension certificate carries its witness
        concl = f"Part ({ev.witness.get('part')}) fails; the witness is above."
    else:
        concl = "Some comparison is outside every exact regime: undecided."
    return Proof(r"A(D)(w) = \frac{\min_{D' \in H} e^{\varepsilon d(D,D')} \hat A(D')(w)}{Z_D},\ A|_H = \hat A,\ "
                 r"A\ 2\varepsilon\text{-private}", steps, concl, summary)


@evidence_kind("best_extension", checker="exactdp.extension.best:best_extension_bracket")
@dataclass(frozen=True)
class BestExtensionEvidence(Evidence):
    """The smallest eps' of any extension, bracketed by exact slack LPs (an exactdp study).

    Slack LP at ``t``: variables ``A(D)(w)`` for ``D`` not in ``H`` (index ``k*|W| + w`` for the k-th point of
    ``free``) and ``sigma`` last; row sums as equalities; for every generating pair in ``metric.pairs`` order,
    both directions, every output: ``A(a)(w) - t^d A(b)(w) - sigma <= -const`` with the fixed rows of ``H``
    moved to the right-hand side.  ``sigma* = 0`` iff some extension is ``log t``-private.

    Parameters
    ----------
    mech_on_H : MechanismData
        The mechanism on ``H``.
    H : list of str
        The points of ``H``.
    points : list of str
        All points, in order.
    free : list of str
        The points outside ``H`` (the LP's rows).
    metric : MetricData
        The metric on all points.
    level : LevelData
        The level ``eps``.
    t_lower : str or None
        A ``t`` whose slack LP has ``sigma* > 0``.
    lp_lower : LPData or None
        That LP's solution.
    t_upper : str
        A ``t`` whose slack LP has ``sigma* = 0``.
    lp_upper : LPData
        That LP's solution.
    factor_lower, factor_upper : list of str
        Decimals around ``eps'/eps`` at both ends.
    mechanism : MechanismData
        An extension at ``t_upper``.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> from exactdp.extension.best import best_extension_bracket
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
    >>> best_extension_bracket(Ah, path(4), ["0", "3"], alpha="1/2").evidence.free
    ['1', '2']
    """

    mech_on_H: MechanismData
    H: list[str]
    points: list[str]
    free: list[str]
    metric: MetricData
    level: LevelData
    t_lower: str | None
    lp_lower: LPData | None
    t_upper: str
    lp_upper: LPData
    factor_lower: list[str]
    factor_upper: list[str]
    mechanism: MechanismData

    _nested: ClassVar[dict[str, type]] = {"mech_on_H": MechanismData, "metric": MetricData, "level": LevelData,
                                          "lp_lower": LPData, "lp_upper": LPData, "mechanism": MechanismData}

    @classmethod
    def example(cls):
        """A small genuine ``best_extension`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> BestExtensionEvidence.example().kind
        'best_extension'
        """
        from exactdp.extension.best import best_extension_bracket
        from exactdp.mechanism import Mechanism
        from exactdp.metrics import path
        K = Mechanism.from_rows(["0", "2"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
        return best_extension_bracket(K, path(3), ["0", "2"], alpha="1/2", rel_width="1/4")


@renderer("best_extension")
def _best_proof(cert) -> Proof:
    ev: BestExtensionEvidence = cert.evidence
    if ev.t_lower is None:
        text = "$t = 1$ already admits an extension (constant on every component)."
    else:
        assert ev.lp_lower is not None  # a lower end above 1 is certified by its LP
        text = (f"At $t = {tex(ev.t_lower)}$ the slack LP has $\\sigma^* = {tex(ev.lp_lower.value)} > 0$ "
                "(dual-certified): no extension is $\\log t$-private. At "
                f"$t = {tex(ev.t_upper)}$, $\\sigma^* = 0$ and the optimal extension is the witness.")
    steps = [Step("The slack LP", "Minimise $\\sigma \\ge 0$ over extensions $A$ (rows of $H$ fixed) subject to "
                  "$A(D)(w) - t^{d} A(D')(w) \\le \\sigma$ on the generating pairs, both directions: always "
                  "feasible, and $\\sigma^* = 0$ iff some extension is $\\log t$-private; $\\sigma^*$ is "
                  "non-increasing in $t$."),
             Step("Bracket of the best extension's level", text),
             Step("Against BCSZ18's factor 2",
                  f"$\\varepsilon'/\\varepsilon \\in [{ev.factor_lower[0]}, {ev.factor_upper[1]}]$ with "
                  f"$\\varepsilon = {tex(ev.level.text)}$; BCSZ18 guarantees 2.")]
    return Proof(r"\min\{\varepsilon' : \exists A \supseteq \hat A,\ A\ \varepsilon'\text{-private}\}", steps,
                 f"eps'/eps in [{ev.factor_lower[0]}, {ev.factor_upper[1]}]",
                 [("t lower", str(ev.t_lower)), ("t upper", ev.t_upper),
                  ("eps'/eps", f"[{ev.factor_lower[0]}, {ev.factor_upper[1]}]")])
