"""Evidence and worked proof of an accountant's audit (kind ``audit``): a claimed ``(eps, delta)`` for a plan.

A plan runs mechanisms on the same input, each a number of independent times.  The exact profile of the whole
release is the upper envelope over ordered neighbouring pairs of ``delta_{x,x'}(eps) = sum_y (P(y) - e^eps
Q(y))_+`` of the composed rows (HLM15 Def. 1), computed from the product of the factors' privacy-loss
distributions (Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1) -- the same evidence as a ``composition``
certificate (:mod:`exactdp.composition.evidence`).  The audit adds the accountant's claim, the exact
``delta(eps)``, the exact slack ``delta - delta(eps)`` (negative: the claim is violated by that much), the
ordered pair attaining ``delta(eps)`` and the exact smallest ``e^eps`` at the claimed ``delta``.  The re-check
is :mod:`exactdp.recheck.audit`.
"""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import ClassVar

from ..certificate.common import LevelData
from ..privacy.evidence import tex
from ..composition.evidence import PairPLD, ProfilePiece, Relation, RunFactor, _pieces_text, eps_of_t
from ..certificate.records import Evidence, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["AuditEvidence", "audit_claim"]


@evidence_kind("audit", checker="exactdp.interop.audit:certify_audit")
@dataclass(frozen=True)
class AuditEvidence(Evidence):
    """A claimed ``(eps, delta)`` for a plan, against the plan's exact profile (HLM15 Def. 1).

    Parameters
    ----------
    factors : list of RunFactor
        The plan: mechanisms and how many times each runs.
    relation : Relation
        The neighbour relation.
    plds : list of PairPLD
        The privacy-loss distributions.
    pieces : list of ProfilePiece
        The plan's exact profile, piece by piece.
    level : LevelData
        The claimed ``eps``.
    delta : str
        The claimed ``delta``.
    delta_exact : str
        The exact ``delta(eps)``.
    slack : str
        ``delta - delta(eps)``.
    x, x_prime : str
        The ordered pair attaining ``delta(eps)``.
    t_for_delta : str
        The smallest ``e^eps`` with ``delta(eps) <= delta``.
    accountant : str
        A float accountant's answer for comparison (a hint).

    Examples
    --------
    >>> from exactdp.interop.audit import certify_audit
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/3")
    >>> c.evidence.delta_exact, c.evidence.slack                # 1/3 - 3/8
    ('3/8', '-1/24')
    """

    factors: list  # of RunFactor records (item type in _nested)
    relation: Relation
    plds: list  # of PairPLD records (item type in _nested)
    pieces: list  # of ProfilePiece records (item type in _nested)
    level: LevelData
    delta: str
    delta_exact: str
    slack: str
    x: str
    x_prime: str
    t_for_delta: str
    accountant: str = field(default="", metadata={"role": "hint"})

    _nested: ClassVar[dict[str, type]] = {"factors": RunFactor, "relation": Relation, "plds": PairPLD,
                                          "pieces": ProfilePiece, "level": LevelData}

    @classmethod
    def example(cls):
        """A small genuine ``audit`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> AuditEvidence.example().kind
        'audit'
        """
        from exactdp.interop.audit import certify_audit
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        return certify_audit([(geometric(2, "1/3"), 2)], path(3), eps="log(2)", delta="1/10")


def _who(ev) -> str:
    return "the plan " + " + ".join(f"{f.mechanism.name} x {f.times}" for f in ev.factors)


def audit_claim(ev: AuditEvidence) -> str:
    """The claim sentence of an ``audit`` certificate, built from its evidence.

    (:func:`exactdp.recheck.audit.claim_text` rebuilds it independently from the JSON.)

    Parameters
    ----------
    ev : AuditEvidence
        The certificate's evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.interop.audit import certify_audit
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/3")
    >>> audit_claim(c.evidence) == c.claim, c.claim.endswith("(exact delta(eps) = 3/8, slack -1/24)")
    (True, True)
    """
    return (f"{_who(ev)} is (eps, delta)-DP with eps = {ev.level.text}, delta = {ev.delta} over the "
            f"{ev.relation.description} (exact delta(eps) = {ev.delta_exact}, slack {ev.slack})")


@renderer("audit")
def _proof(cert) -> Proof:
    ev = cert.evidence
    steps = [Step("Definition", "HLM15 Def. 1: a release is $(\\varepsilon, \\delta)$-DP iff $P_x(S) \\le "
                  "e^{\\varepsilon} P_{x'}(S) + \\delta$ for every ordered pair of neighbours and every output set; "
                  "the smallest such $\\delta$ is $\\delta(\\varepsilon) = \\max_{x \\sim x'} \\sum_y (P_x(y) - "
                  "e^{\\varepsilon} P_{x'}(y))_+$."),
             Step("The plan", "Independent runs on the same input: " + ", ".join(
                 f"{f.mechanism.name} {f.times} times" for f in ev.factors) + f"; neighbours: the "
                 f"{ev.relation.description} ({len(ev.relation.pairs)} unordered pairs)."),
             Step("Composition", "The privacy-loss distribution of the release for an ordered pair is the product of "
                  "the factors' distributions, each to its number of runs (Sommer, Meiser, Mohammadi 2019, Thm. 1), "
                  f"computed exactly from the {len(ev.plds)} factor PLDs in the evidence."),
             Step("The exact profile", "In $t = e^{\\varepsilon}$, piece by piece: " + _pieces_text(ev)),
             Step("At the claimed eps", f"$\\delta({tex(ev.level.text)}) = {tex(ev.delta_exact)}$, attained by "
                  f"$({ev.x}, {ev.x_prime})$; the slack is $\\delta - \\delta(\\varepsilon) = {tex(ev.slack)}$."),
             Step("At the claimed delta", f"The smallest $\\varepsilon$ with $\\delta(\\varepsilon) \\le "
                  f"{tex(ev.delta)}$ is ${tex(eps_of_t(ev.t_for_delta))}$.")]
    summary: list[tuple[str, str | None]] = [
        ("claim", f"({ev.level.text}, {ev.delta})"),
        *([("accountant's answer (a hint, not checked)", json.dumps(ev.accountant, ensure_ascii=False))]
          if ev.accountant else []),
        ("exact delta at eps", ev.delta_exact), ("slack", ev.slack), ("attained by", f"({ev.x}, {ev.x_prime})"),
        ("smallest eps at delta", eps_of_t(ev.t_for_delta))]
    if cert.holds is True:
        concl = f"Holds: the exact delta at eps = {ev.level.text} is {ev.delta_exact} <= {ev.delta} (slack {ev.slack})."
    else:
        concl = (f"Violated: the exact delta at eps = {ev.level.text} is {ev.delta_exact} > {ev.delta} (excess "
                 f"{ev.slack.removeprefix('-')}).")
    return Proof("\\delta(\\varepsilon) \\le \\delta \\;?", steps, concl, summary)
