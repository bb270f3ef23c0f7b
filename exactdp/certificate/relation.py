"""Evidence and worked proof of an exact relation between two exact values (kind ``relation``).

Paper claims often come down to "this number equals the printed one" or "this
bound holds": ``lhs R rhs`` for ``R`` in ``=, <=, <, >=, >``, between exact
numbers, or for every ``alpha`` in (0, 1) between rational functions of
``alpha``.  The evidence holds both sides as exact text; the re-check
re-derives the relation with its own kernel.
"""

from __future__ import annotations

import json

from dataclasses import dataclass

from .privacy import tex
from .records import Evidence, evidence_kind
from .render import Proof, Step, renderer

__all__ = ["RELATIONS", "RelationEvidence"]

#: relation -> its LaTeX
RELATIONS = {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}


@evidence_kind("relation")
@dataclass(frozen=True)
class RelationEvidence(Evidence):
    """``lhs relation rhs``, exactly; ``variable`` is ``"alpha"`` when it must hold for every alpha in (0, 1).

    Parameters
    ----------
    statement : str
        The statement in words.
    lhs, rhs : str
        The two sides, exact.
    relation : str
        ``=``, ``<=``, ``<``, ``>=`` or ``>``.
    variable : str or None
        ``"alpha"`` for a statement for every alpha in (0, 1).
    difference : str
        ``lhs - rhs``, simplified.
    failure_set : str or None
        Where it fails (alpha), when it fails.
    sample_alpha : str or None
        A rational alpha in the failure set.

    Examples
    --------
    >>> from exactdp.certify import certify_relation
    >>> ev = certify_relation("exp(1)", "2718/1000", ">").evidence
    >>> ev.relation, ev.variable
    ('>', None)
    """

    statement: str
    lhs: str
    rhs: str
    relation: str
    variable: str | None
    difference: str                  # lhs - rhs, simplified
    failure_set: str | None          # where it fails (alpha), when it fails
    sample_alpha: str | None         # a rational alpha in the failure set


@renderer("relation")
def _relation_proof(cert) -> Proof:
    ev: RelationEvidence = cert.evidence
    rel = RELATIONS[ev.relation]
    formula = f"{tex(ev.lhs)} {rel} {tex(ev.rhs)}"
    if ev.variable:
        formula = r"\forall \alpha \in (0, 1):\ " + formula
    steps = [Step("The values", f"Left: ${tex(ev.lhs)}$; right: ${tex(ev.rhs)}$; their difference simplifies "
                  f"exactly to ${tex(ev.difference)}$.")]
    if ev.variable:
        steps.append(Step("Its sign on (0, 1)", "The difference is a rational function of $\\alpha$; its sign on "
                          "$(0, 1)$ is decided by exact real-root isolation of numerator and denominator"
                          + (f"; the relation fails exactly for $\\alpha \\in {ev.failure_set}$ (e.g. "
                             f"$\\alpha = {tex(ev.sample_alpha)}$)." if ev.failure_set else ".")))
    else:
        steps.append(Step("Its sign", "Decided exactly: a zero test by exact arithmetic (or Lindemann-Weierstrass), "
                          "and a non-zero sign by certified ball arithmetic."))
    formula_text = f"{ev.lhs} {ev.relation} {ev.rhs}"
    said = formula_text if ev.statement == formula_text else \
        f"{formula_text} (labelled {json.dumps(ev.statement, ensure_ascii=False)})"
    concl = f"{said}: " + {"holds": "holds", "fails": "fails",
                                   "undecided": "undecided"}[cert.verdict.value] + "."
    return Proof(formula, steps, concl, [("relation", f"{ev.lhs} {ev.relation} {ev.rhs}"),
                                         ("difference", ev.difference)])
