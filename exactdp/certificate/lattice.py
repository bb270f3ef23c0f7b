"""Evidence and worked proof of a composition on the privacy-loss lattice (kind ``lattice_composition``, issue 29).

When every finite loss ratio ``P(y)/Q(y)`` of an ordered pair is ``c b^n`` (one step ``b > 1``, one offset
``c``, integers ``n >= 0``), the PLD of the pair is the polynomial ``F(x) = sum_n m_n x^n`` and the ``k``-fold
PLD is ``F(x)^k`` (Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1); several mechanisms on one step multiply
their powers.  The smallest delta at ``t = e^eps`` is, by the worst-set lemma (HLM15 Def. 1),

    delta(eps) = max over ordered pairs of  m_inf + sum_{c b^n > t} M_n (1 - t / (c b^n)).

The evidence is small on purpose: the factor mechanisms (exact matrices) and their run counts, the neighbour
relation, one lattice step per ordered pair, the level, and the answer (the exact delta on the route
``lattice-exact``, a certified decimal enclosure always).  It does not carry the composed PLD (10^3 - 10^4
coefficients of hundreds of digits): the kernel (:mod:`exactdp.recheck.lattice`) re-derives every ratio from
the matrices, checks it lies on the stated lattice, and raises the polynomial to the ``k``-th power itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .common import LevelData
from .privacy import tex
from .profile import NeighbourPair, Relation, RunFactor
from .records import Evidence, Record, evidence_kind
from .render import Proof, Step, renderer

__all__ = ["LatticeCompositionEvidence", "LatticeStep", "lattice_claim"]


@dataclass(frozen=True)
class LatticeStep(Record):
    """The lattice step ``b`` of one ordered pair: every finite ratio ``P(y)/Q(y)`` of every factor is ``c_i b^n``.

    Parameters
    ----------
    x, x_prime : str
        The ordered pair.
    step : str
        ``b > 1``, exact text.

    Examples
    --------
    >>> LatticeStep(x="0", x_prime="1", step="9").to_json()
    {'x': '0', 'x_prime': '1', 'step': '9'}
    """

    x: str
    x_prime: str
    step: str


@evidence_kind("lattice_composition")
@dataclass(frozen=True)
class LatticeCompositionEvidence(Evidence):
    """The smallest delta at one eps of independent runs of mechanisms whose losses lie on one lattice.

    Parameters
    ----------
    factors : list of RunFactor
        The mechanisms and how many times each runs.
    relation : Relation
        The neighbour relation.
    steps : list of LatticeStep
        The lattice step of each ordered neighbouring pair.
    level : LevelData
        The eps asked about.
    route : str
        ``"lattice-exact"`` (``delta_at_eps`` is the exact value) or ``"lattice-balls"`` (only the enclosure).
    delta_at_eps : str or None
        The exact smallest delta at the level (``None`` on the ball route).
    enclosure : list of str
        ``[lo, hi]``: decimals with ``lo <= delta_at_eps <= hi``.
    pair : NeighbourPair or None
        The ordered pair attaining the maximum (``None`` on the ball route or without pairs).
    delta : str or None
        The delta of the question "(eps, delta)-DP?", if asked.

    Examples
    --------
    >>> from exactdp.theory.lattice_cert import certify_lattice_composition
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_lattice_composition([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)")
    >>> c.evidence.delta_at_eps, c.evidence.enclosure, [s.step for s in c.evidence.steps]
    ('3/8', ['0.375', '0.375'], ['9', '9'])
    """

    factors: list[RunFactor]
    relation: Relation
    steps: list[LatticeStep]
    level: LevelData
    route: str
    delta_at_eps: str | None
    enclosure: list[str]
    pair: NeighbourPair | None
    delta: str | None

    _nested: ClassVar[dict[str, type]] = {"factors": RunFactor, "relation": Relation, "steps": LatticeStep,
                                          "level": LevelData, "pair": NeighbourPair}


def _who(ev) -> str:
    return "the composition of " + ", ".join(
        f"{f.mechanism.name} ({'once' if f.times == 1 else str(f.times) + ' times'})" for f in ev.factors)


def lattice_claim(ev: LatticeCompositionEvidence) -> str:
    """The claim sentence of a ``lattice_composition`` certificate, built from its evidence.

    (:func:`exactdp.recheck.lattice.claim_text` rebuilds it independently from the JSON.)  The exact delta can
    have thousands of digits, so the sentence names its enclosure and the route.

    Parameters
    ----------
    ev : LatticeCompositionEvidence
        The evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.theory.lattice_cert import certify_lattice_composition
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_lattice_composition([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="0", delta="1/2")
    >>> lattice_claim(c.evidence) == c.claim, c.claim.endswith("(eps, delta)-DP with eps = 0, delta = 1/2 over the "
    ...                                                     "given list of 1 neighbouring pairs")
    (True, True)
    """
    who, rel = _who(ev), ev.relation.description
    if ev.delta is not None:
        return f"{who} is (eps, delta)-DP with eps = {ev.level.text}, delta = {ev.delta} over the {rel}"
    what = "the stated exact value" if ev.route == "lattice-exact" else "a number"
    return (f"the smallest delta of {who} at eps = {ev.level.text} over the {rel} is {what} in "
            f"[{ev.enclosure[0]}, {ev.enclosure[1]}]")


@renderer("lattice_composition")
def _proof(cert) -> Proof:
    ev: LatticeCompositionEvidence = cert.evidence
    runs = ", ".join(f"{f.mechanism.name} {'once' if f.times == 1 else str(f.times) + ' times'}" for f in ev.factors)
    steps_txt = "; ".join(f"$({s.x}, {s.x_prime})$: $b = {tex(s.step)}$" for s in ev.steps[:8])
    more = f" ({len(ev.steps) - 8} more in the evidence)" if len(ev.steps) > 8 else ""
    steps = [Step("Definition", "HLM15 Def. 1: the smallest $\\delta$ at $\\varepsilon$ is the largest "
                  "$P_x(S) - e^{\\varepsilon} P_{x'}(S)$ over ordered neighbours and output sets; the worst set is "
                  "where the privacy loss exceeds $\\varepsilon$."),
             Step("The neighbour relation", f"The {ev.relation.description}: {len(ev.relation.pairs)} unordered "
                  "pairs."),
             Step("The lattice", "Every finite ratio $P(y)/Q(y)$ of every factor is $c_i b^n$ with an integer "
                  f"$n \\ge 0$, so each factor's PLD is a polynomial $F_i(x)$ in $x \\leftrightarrow b$: {steps_txt}"
                  f"{more}."),
             Step("Composition", f"Independent runs ({runs}) multiply ratios and masses (Sommer, Meiser, Mohammadi "
                  "2019, Thm. 1): the composed PLD is $\\prod_i F_i(x)^{k_i}$ with ratio $\\prod_i c_i^{k_i} b^n$ at "
                  "$x^n$, and the mass where $Q = 0$ is $1 - \\prod_i (1 - m_{\\infty,i})^{k_i}$."),
             Step("The route", f"{ev.route}: " + ("the power is computed exactly, so the delta below is exact."
                  if ev.route == "lattice-exact" else "the power is carried in rigorous balls: only an enclosure "
                  "is stated."))]
    at = ev.delta_at_eps if ev.delta_at_eps is not None else f"[{ev.enclosure[0]}, {ev.enclosure[1]}]"
    shown = at if len(at) <= 200 else f"an exact value of {len(at):,} characters"
    steps.append(Step("At the requested eps", f"$\\delta({tex(ev.level.text)}) = $ {shown}, in "
                      f"$[{ev.enclosure[0]}, {ev.enclosure[1]}]$"
                      + (f", attained by $({ev.pair.x}, {ev.pair.x_prime})$." if ev.pair is not None else ".")))
    summary: list[tuple[str, str | None]] = [("relation", ev.relation.description), ("route", ev.route),
                                             ("delta at eps", shown),
                                             ("enclosure", f"[{ev.enclosure[0]}, {ev.enclosure[1]}]")]
    if cert.reason is not None:
        concl = "Undecided: " + cert.reason
    elif ev.delta is not None:
        concl = (f"{'Holds' if cert.holds is True else 'Fails'}: the smallest delta at eps = {ev.level.text} is "
                 f"{'at most' if cert.holds is True else 'above'} {ev.delta}.")
    else:
        concl = cert.claim + "."
    return Proof("\\delta(\\varepsilon) = \\max_{x \\sim x'} \\sum_n M_n (1 - e^{\\varepsilon} / (c b^n))_+",
                 steps, concl, summary)
