"""Evidence and worked proof of GRS12 Theorem 3.1 for one user (kind ``optimality``).

The evidence carries the user (prior and loss table), the level, the exact LP
optimum with its dual, and the Bayes remap of the geometric mechanism; the
re-check rebuilds the user-specific LP GRS12 (2)-(6) and the geometric
mechanism itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..certificate.common import MechanismData
from ..priors.evidence import LPData
from ..privacy.evidence import tex
from ..certificate.records import Evidence, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["OptimalityEvidence"]


@evidence_kind("optimality", checker="exactdp.optimality.universal:certify_universal_optimality")
@dataclass(frozen=True)
class OptimalityEvidence(Evidence):
    """GRS12 Thm 3.1: the Bayes-remapped geometric mechanism attains the user-specific LP optimum.

    The LP has variable ``x_ir`` at index ``i*(n+1) + r``, the row sums as equalities ``y_i`` and, for
    ``i = 0..n-1`` and ``r = 0..n`` in that order, the inequalities ``alpha x_(i+1)r <= x_ir`` and
    ``alpha x_ir <= x_(i+1)r`` with duals ``lam``.

    Parameters
    ----------
    n : int
        The largest query answer (answers ``0..n``).
    alpha : str
        The geometric mechanism's ``alpha``.
    user : str
        The user in words.
    prior : list of str
        The user's prior over ``0..n``.
    loss : list of list of str
        The user's loss ``l(i, r)``.
    lp : LPData
        The user's LP optimum and its dual.
    unique : bool or None
        Whether the optimum is unique.
    optimum : MechanismData
        The Bayes-remapped geometric mechanism.
    remap : dict
        Geometric output -> result.
    geometric_loss : str
        Its expected loss, exact.
    attains : bool
        Whether it attains the LP optimum.

    Examples
    --------
    >>> from exactdp.optimality.users import User
    >>> from exactdp.optimality.universal import certify_universal_optimality
    >>> ev = certify_universal_optimality(4, User.uniform(4, "squared"), alpha="1/3").evidence
    >>> ev.n, ev.alpha, ev.attains
    (4, '1/3', True)
    """

    n: int
    alpha: str
    user: str
    prior: list[str]
    loss: list[list[str]]
    lp: LPData
    unique: bool | None
    optimum: MechanismData
    remap: dict[str, str]                      # geometric output -> result
    geometric_loss: str
    attains: bool

    _nested: ClassVar[dict[str, type]] = {"lp": LPData, "optimum": MechanismData}

    @classmethod
    def example(cls):
        """A small genuine ``optimality`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> OptimalityEvidence.example().kind
        'optimality'
        """
        from exactdp.optimality.universal import certify_universal_optimality
        from exactdp.optimality.users import User
        return certify_universal_optimality(2, User.uniform(2, "absolute"), alpha="1/2")


def _mapping_str(mapping: dict) -> str:
    groups: dict = {}
    for z, r in mapping.items():
        groups.setdefault(r, []).append(z)
    return "; ".join(f"{{{', '.join(zs)}}} -> {r}" for r, zs in groups.items())


@renderer("optimality")
def _optimality_proof(cert) -> Proof:
    ev: OptimalityEvidence = cert.evidence
    N = ev.n + 1
    rel = "=" if ev.attains else r"\ne"
    steps = [
        Step("The user-specific LP (GRS12 (2)-(6))",
             f"minimise $\\sum_i p_i \\sum_r x_{{ir}} l(i,r)$ over $x_{{ir}} \\ge 0$ with $\\sum_r x_{{ir}} = 1$ and "
             f"$\\alpha x_{{(i+1)r}} \\le x_{{ir}}$, $\\alpha x_{{ir}} \\le x_{{(i+1)r}}$: {N * N} variables, "
             f"{N} equalities, {2 * ev.n * N} privacy inequalities, $\\alpha = {tex(ev.alpha)}$."),
        Step("Its exact optimum", f"Optimal value ${tex(ev.lp.value)}$; the dual solution (y for the row sums: "
             f"{', '.join(ev.lp.y)}) satisfies $\\lambda \\ge 0$ and all reduced costs $\\ge 0$ with equality on the "
             "support, and the duality gap is exactly 0"
             + ("; every zero variable has a strictly positive reduced cost or the optimal face has full rank, so "
                "the optimum is unique." if ev.unique else ".")),
        Step("The remapped geometric mechanism",
             f"The Bayes remap (ties to the smallest result) sends outputs {_mapping_str(ev.remap)}; the induced "
             f"mechanism has expected loss ${tex(ev.geometric_loss)}$."),
        Step("Comparison", f"${tex(ev.geometric_loss)} {rel} {tex(ev.lp.value)}$, exactly."),
    ]
    concl = ("The geometric mechanism, remapped, is optimal for this user." if ev.attains
             else "The remapped geometric mechanism does NOT attain the optimum.")
    return Proof(r"\mathcal{L}(G_\alpha \circ y^*) = \min_{x \text{ private}} \mathcal{L}(x)", steps, concl,
                 [("optimal value", ev.lp.value), ("geometric loss", ev.geometric_loss),
                  ("unique", {True: "yes", False: "no", None: "not decided"}[ev.unique])])
