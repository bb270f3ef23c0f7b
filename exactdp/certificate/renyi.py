"""Evidence and worked proof of an exact Rényi-DP curve (kind ``renyi``).

[Mir17] Def. 3: at an integer order ``alpha >= 2`` the Rényi divergence of two distributions on a finite set is
``D_alpha(P || Q) = log(S)/(alpha - 1)`` with ``S = sum_y P(y)^alpha Q(y)^(1 - alpha)`` -- an exact number of the
kernel (rational for rational entries, an exponential-polynomial quotient at a transcendental level), ``+inf``
when some ``Q(y) = 0 < P(y)``.  A mechanism is ``(alpha, rho)``-RDP over a neighbour relation with ``rho`` the
largest divergence over ordered neighbouring pairs ([Mir17] Def. 4).  [Mir17] Prop. 3 converts: the curve gives
``(eps, delta)``-DP with ``eps = min_alpha log(S_alpha/delta)/(alpha - 1)``.

The evidence carries the mechanism, the relation (the metric it comes from, or the given list), per order the
sum ``S``, the divergence written from it and the ordered pair attaining the maximum, and the conversion when a
``delta`` was given.  The re-check is :mod:`exactdp.recheck.renyi`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .common import MechanismData
from .privacy import tex
from .profile import Relation
from .records import Evidence, Record, evidence_kind
from .render import Proof, Step, renderer

__all__ = ["RDPConversionData", "RenyiEvidence", "RenyiOrder", "renyi_claim"]


@dataclass(frozen=True)
class RenyiOrder(Record):
    """``rho(alpha) = log(S)/(alpha - 1)`` (``"inf"``: some ``Q(y) = 0 < P(y)``), attained by ``(x, x_prime)``.

    Parameters
    ----------
    order : int
        The order ``alpha``.
    sum : str
        ``S = sum_y P(y)^alpha Q(y)^(1 - alpha)``, exact.
    value : str
        ``rho(alpha)``, exact.
    x : str
        The first input of the attaining pair.
    x_prime : str
        The second input of the attaining pair.

    Examples
    --------
    >>> RenyiOrder(order=2, sum="5/4", value="log(5/4)", x="0", x_prime="1").value
    'log(5/4)'
    """

    order: int
    sum: str
    value: str
    x: str
    x_prime: str


@dataclass(frozen=True)
class RDPConversionData(Record):
    """[Mir17] Prop. 3 at ``delta``: the smallest ``eps = log(S_alpha/delta)/(alpha - 1)`` over the orders.

    It is taken at the first order attaining it.

    Parameters
    ----------
    delta : str
        The ``delta`` of the conversion.
    order : int
        The first order attaining the smallest ``eps``.
    epsilon : str
        That ``eps``, exact.

    Examples
    --------
    >>> RDPConversionData(delta="1/2", order=2, epsilon="log(5/2)").order
    2
    """

    delta: str
    order: int
    epsilon: str


@evidence_kind("renyi")
@dataclass(frozen=True)
class RenyiEvidence(Evidence):
    """The exact RDP curve of one mechanism at integer orders over a neighbour relation ([Mir17] Defs. 3-4).

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    relation : Relation
        The neighbour relation.
    orders : list of RenyiOrder
        ``rho(alpha)`` per order.
    conversion : RDPConversionData or None
        The conversion to ``(eps, delta)``-DP, when a ``delta`` was given.

    Examples
    --------
    >>> from exactdp.theory.renyi import certify_renyi
    >>> from exactdp.mechanisms import generalized_rr
    >>> from exactdp.metrics import discrete
    >>> ev = certify_renyi(generalized_rr(3, eps="log(2)"), discrete(3), [2, 3]).evidence
    >>> [o.order for o in ev.orders], ev.conversion is None
    ([2, 3], True)
    """

    mechanism: MechanismData
    relation: Relation
    orders: list  # of RenyiOrder records (item type in _nested)
    conversion: RDPConversionData | None

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "relation": Relation, "orders": RenyiOrder,
                                          "conversion": RDPConversionData}


def renyi_claim(ev: RenyiEvidence) -> str:
    """The claim sentence of a ``renyi`` certificate, built from its evidence.

    (:func:`exactdp.recheck.renyi.claim_text` rebuilds it independently from the JSON.)

    Parameters
    ----------
    ev : RenyiEvidence
        The certificate's evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.theory.renyi import certify_renyi
    >>> from exactdp.mechanisms import generalized_rr
    >>> from exactdp.metrics import discrete
    >>> c = certify_renyi(generalized_rr(3, eps="log(2)"), discrete(3), [2, 3])
    >>> renyi_claim(c.evidence) == c.claim, c.claim.endswith("is rho(2) = log(11/8), rho(3) = log(37/16)/2")
    (True, True)
    """
    curve = ", ".join(f"rho({o.order}) = {o.value}" for o in ev.orders)
    out = f"the RDP curve of {ev.mechanism.name} over the {ev.relation.description} is {curve}"
    if ev.conversion is not None:
        cv = ev.conversion
        out += f"; by Mironov's conversion it is (eps, delta)-DP with eps = {cv.epsilon}, delta = {cv.delta}"
    return out


@renderer("renyi")
def _proof(cert) -> Proof:
    ev = cert.evidence
    rel = ev.relation
    steps = [Step("Definition", "Mir17 Def. 3: at an integer order $\\alpha \\ge 2$, $D_\\alpha(P \\| Q) = "
                  "\\frac{1}{\\alpha - 1} \\log S$ with $S = \\sum_y P(y)^\\alpha Q(y)^{1-\\alpha}$ ($+\\infty$ when "
                  "$Q(y) = 0 < P(y)$ for some $y$); Mir17 Def. 4: the mechanism is $(\\alpha, \\rho)$-RDP with "
                  "$\\rho(\\alpha) = \\max_{x \\sim x'} D_\\alpha(K(x) \\| K(x'))$ over ordered neighbouring pairs."),
             Step("The neighbour relation", f"The {rel.description}: {len(rel.pairs)} unordered pairs, so "
                  f"{2 * len(rel.pairs)} ordered pairs.")]
    lines = []
    summary: list[tuple[str, str | None]] = [("relation", rel.description)]
    for o in ev.orders:
        s = "+\\infty" if o.sum == "inf" else tex(o.sum)
        v = "+\\infty" if o.value == "inf" else tex(o.value)
        lines.append(f"$\\alpha = {o.order}$: the largest sum is $S = {s}$, attained by $({o.x}, {o.x_prime})$, so "
                     f"$\\rho({o.order}) = {v}$")
        summary.append((f"rho({o.order})", f"{o.value} (S = {o.sum}, pair ({o.x}, {o.x_prime}))"))
    steps.append(Step("The sums", "Each sum is computed exactly for every ordered pair and the largest kept "
                      "(exact comparisons): " + "; ".join(lines) + "."))
    if ev.conversion is not None:
        cv = ev.conversion
        eps_tex = "+\\infty" if cv.epsilon == "inf" else tex(cv.epsilon)
        steps.append(Step("Conversion to (eps, delta)", "Mir17 Prop. 3: $(\\alpha, \\rho)$-RDP implies "
                          "$(\\rho + \\frac{\\log(1/\\delta)}{\\alpha - 1}, \\delta)$-DP, i.e. $\\varepsilon_\\alpha = "
                          "\\frac{1}{\\alpha - 1}\\log(S_\\alpha / \\delta)$; the smallest over the orders (compared "
                          "exactly through $(S_a/\\delta)^{b-1}$ against $(S_b/\\delta)^{a-1}$) is at "
                          f"$\\alpha = {cv.order}$: $\\varepsilon = {eps_tex}$"
                          f" at $\\delta = {tex(cv.delta)}$. It is an upper bound on the exact smallest eps at this "
                          "delta (the exact profile gives that one)."))
        summary.append(("conversion", f"eps = {cv.epsilon} at delta = {cv.delta} (order {cv.order})"))
    return Proof("\\rho(\\alpha) = \\max_{x \\sim x'} \\frac{1}{\\alpha - 1} \\log \\sum_y K(x)(y)^\\alpha "
                 "K(x')(y)^{1 - \\alpha}", steps, cert.claim + ".", summary)
