"""Evidence and worked proofs for KL10 (kinds ``utility``, ``exponential_bound``, ``tradeoff``).

``utility``: Def. 2.2 at one (gamma, delta) with the ball type stated;
``exponential_bound``: Thm 2.7's ``2 C beta`` against the exact smallest eps;
``tradeoff``: Def. 2.3's ``eps*(gamma, delta)`` bracketed by exact LPs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .common import MechanismData, MetricData
from .ecp14 import DistanceData, LPData
from .privacy import EpsilonEvidence, tex
from .records import Evidence, evidence_kind
from .render import Proof, Step, label_text, renderer

__all__ = ["UtilityEvidence", "ExponentialBoundEvidence", "TradeoffEvidence"]

_GE = "\\ge"


@evidence_kind("utility")
@dataclass(frozen=True)
class UtilityEvidence(Evidence):
    """KL10 Def. 2.2: ``M_x(B(f(x), gamma)) >= 1 - delta`` for every x; ``sigma[i][j] = sigma(f(x_i), y_j)``.

    ``output`` is the output metric ``sigma`` in full (``None`` above the carried size), so the re-check reads
    ``sigma`` off it."""

    mechanism: MechanismData
    output: DistanceData | None
    f: dict
    sigma: list
    gamma: str
    delta: str
    ball: str                  # "open" (sigma < gamma) or "closed" (sigma <= gamma)
    masses: dict
    worst: str
    mass: str
    target: str
    ball_outputs: list

    _nested = {"mechanism": MechanismData, "output": DistanceData}


@renderer("utility")
def _utility_proof(cert) -> Proof:
    ev: UtilityEvidence = cert.evidence
    rel = "<" if ev.ball == "open" else r"\le"
    ok = cert.holds is True
    steps = [Step("Definition (KL10 Def. 2.2)",
                  f"$M$ achieves $(\\gamma, \\delta)$-utility iff $M_x(B_\\sigma(f(x), \\gamma)) \\ge 1 - \\delta$ for "
                  f"every $x$. KL10 leaves the ball's type open; here it is the {ev.ball} ball "
                  f"$\\sigma(f(x), y) {rel} \\gamma$, with $\\gamma = {tex(ev.gamma)}$, $\\delta = {tex(ev.delta)}$."),
             Step("The ball masses", f"Computed exactly for all {len(ev.masses)} inputs; the smallest is at "
                  f"$x = {ev.worst}$: $M_x(B) = {tex(ev.mass)}$ over the outputs {ev.ball_outputs}."),
             Step("Comparison", f"${tex(ev.mass)} {_GE if ok else '<'} 1 - \\delta = {tex(ev.target)}$ (exact).")]
    return Proof(r"\min_x M_x(B_\sigma(f(x), \gamma)) \ge 1 - \delta", steps,
                 f"(gamma, delta)-utility {'holds' if ok else 'fails'}; worst x = {ev.worst}.",
                 [("ball", ev.ball), ("worst x", ev.worst), ("mass", ev.mass), ("1 - delta", ev.target)])


@evidence_kind("exponential_bound")
@dataclass(frozen=True)
class ExponentialBoundEvidence(Evidence):
    """KL10 Thm 2.7: the exact smallest eps of the exponential mechanism against ``2 C beta``.

    ``lipschitz_pairs``: ``[x, z, rho(x, z), sigma(f(x), f(z))]`` over the generating pairs of ``rho``;
    ``output`` the output metric ``sigma`` in full and ``f`` the map of inputs to its points.
    """

    beta: str
    output: DistanceData | None
    f: dict
    lipschitz: str
    lipschitz_pair: list | None
    lipschitz_pairs: list
    bound: str
    bound_enclosure: list
    epsilon: str | None
    enclosure: list | None
    attained: bool | None
    smallest: EpsilonEvidence

    _nested = {"smallest": EpsilonEvidence, "output": DistanceData}


def _pair_text(pair: list | None) -> str:
    return "no pair (no generating pair)" if not pair else f"the pair $({', '.join(label_text(x) for x in pair)})$"


@renderer("exponential_bound")
def _bound_proof(cert) -> Proof:
    ev: ExponentialBoundEvidence = cert.evidence
    rel = "=" if ev.attained else ("<" if cert.holds is True else ">")
    steps = [Step("Lipschitz constant", f"$C = \\max \\sigma(f(x), f(z))/\\rho(x, z) = {tex(ev.lipschitz)}$ over the "
                  f"{len(ev.lipschitz_pairs)} generating pairs of $\\rho$ (attained at {_pair_text(ev.lipschitz_pair)})."),
             Step("Exact smallest eps", f"$\\varepsilon^* = {tex(ev.epsilon)}$ (the binding constraint and the check "
                  "of every other one are in the nested epsilon evidence)."),
             Step("Against KL10 Thm 2.7", f"$2 C \\beta = {tex(ev.bound)}$ with $\\beta = {tex(ev.beta)}$; the binding "
                  f"ratio compared exactly with $e^{{2 C \\beta d}}$: $\\varepsilon^* {rel} 2 C \\beta$.")]
    return Proof(r"\varepsilon^* \le 2 C \beta", steps, f"eps* = {ev.epsilon} {rel} 2 C beta = {ev.bound}.",
                 [("epsilon", str(ev.epsilon)), ("2 C beta", ev.bound), ("attained", str(ev.attained))])


@evidence_kind("tradeoff")
@dataclass(frozen=True)
class TradeoffEvidence(Evidence):
    """KL10 Def. 2.3 bracketed: ``s*(t) = max_{t-private M} min_x M_x(B(f(x), gamma))`` by exact LPs.

    LP at ``t``: variables ``M_x(y)`` at ``x*|Y| + y`` (x in ``inputs`` order, y in ``outputs`` order) and ``s``
    last; minimise ``-s``; row sums as equalities; for each pair of ``metric.pairs`` (in order), both directions,
    each output: ``M_a(y) - t^d M_b(y) <= 0``; then per x: ``s - sum_{y in B(f(x))} M_x(y) <= 0`` where the ball
    is read from ``sigma[x][y]`` against ``gamma``.
    """

    inputs: list
    outputs: list
    metric: MetricData
    output: DistanceData | None
    f: dict
    sigma: list
    gamma: str
    delta: str
    ball: str
    target: str
    epsilon: str | None            # exact when known ("0")
    epsilon_bracket: list
    t_lower: str | None
    s_lower: str | None
    lp_lower: LPData | None
    t_upper: str
    s_upper: str
    lp_upper: LPData
    mechanism: MechanismData

    _nested = {"metric": MetricData, "output": DistanceData, "lp_lower": LPData, "lp_upper": LPData,
               "mechanism": MechanismData}


@renderer("tradeoff")
def _tradeoff_proof(cert) -> Proof:
    ev: TradeoffEvidence = cert.evidence
    steps = [Step("The LP (KL10 Def. 2.3)", "For rational $t = e^\\varepsilon$: maximise $s$ over $t$-private "
                  "mechanisms with $s \\le M_x(B(f(x), \\gamma))$ for every $x$. Always feasible (constant rows) "
                  "and bounded; a $t$-private mechanism with $(\\gamma, \\delta)$-utility exists iff "
                  "$s^*(t) \\ge 1 - \\delta$, and $s^*$ is non-decreasing in $t$.")]
    if ev.t_lower is None:
        steps.append(Step("t = 1 suffices", f"At $t = 1$ the exact LP gives $s^*(1) = {tex(ev.s_upper)} \\ge "
                          f"{tex(ev.target)}$, so $\\varepsilon^*(\\gamma, \\delta) = 0$."))
        concl = "eps* = 0"
    else:
        steps += [Step("Lower end", f"At $t = {tex(ev.t_lower)}$ the exact LP optimum is $s^* = {tex(ev.s_lower)} < "
                       f"{tex(ev.target)}$, certified by its dual (weak duality bounds every $t$-private mechanism; "
                       "every smaller $t$ fails too)."),
                  Step("Upper end", f"At $t = {tex(ev.t_upper)}$ the LP's optimal mechanism is $t$-private with "
                       f"worst ball mass $s^* = {tex(ev.s_upper)} \\ge {tex(ev.target)}$ (both checked exactly).")]
        concl = f"log({ev.t_lower}) < eps* <= log({ev.t_upper})"
    return Proof(r"\varepsilon^*(\gamma, \delta) = \log \min\{t : s^*(t) \ge 1 - \delta\}", steps, concl,
                 [("gamma", ev.gamma), ("delta", ev.delta), ("ball", ev.ball),
                  ("epsilon bracket", f"[{ev.epsilon_bracket[0]}, {ev.epsilon_bracket[1]}]")])
