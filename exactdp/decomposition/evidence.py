"""Evidence and worked proof of HLM15 Lemmas 1-2 checked exhaustively (kind ``decomposition``).

HLM15 Lemma 1: a finite union of rectangles ``A_i x B_i`` (``i = 1..p``) equals the union over
``I`` of ``(union_{i in I} A_i) x (intersection_{i in I} B_i minus union_{i not in I} B_i)``, and
these second factors are pairwise disjoint; Lemma 2 is the same with the factors swapped.  The
evidence names the universes and the largest ``p``; the re-check enumerates every ordered
collection of rectangles of non-empty sets again, with its own code, and compares the counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..certificate.records import Evidence, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["DecompositionEvidence"]


@evidence_kind("decomposition", checker="exactdp.decomposition.lemmas:certify_decomposition")
@dataclass(frozen=True)
class DecompositionEvidence(Evidence):
    """Lemma ``lemma`` (1: disjoint second factors; 2: disjoint first factors) on universes X, Y, p <= max_rects.

    Parameters
    ----------
    statement : str
        The claim.
    lemma : int
        1 or 2.
    X, Y : list of str
        The universes.
    max_rects : int
        The largest number ``p`` of rectangles.
    counts : list of list of int
        ``[p, collections, exact and disjoint]`` for ``p = 1..max_rects``.

    Examples
    --------
    >>> ev = DecompositionEvidence(statement="Lemma 1", lemma=1, X=["a"], Y=["u"], max_rects=1, counts=[[1, 1, 1]])
    >>> all(n == good for _, n, good in ev.counts)          # every collection decomposes
    True
    """

    statement: str
    lemma: int
    X: list[str]
    Y: list[str]
    max_rects: int
    counts: list[list[int]]                     # [[p, collections, exact and disjoint], ...] for p = 1..max_rects

    @classmethod
    def example(cls):
        """A small genuine ``decomposition`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> DecompositionEvidence.example().kind
        'decomposition'
        """
        from exactdp.decomposition.lemmas import certify_decomposition
        return certify_decomposition(["0", "1"], ["a", "b"], 2, lemma=1)


@renderer("decomposition")
def _decomposition_proof(cert) -> Proof:
    ev: DecompositionEvidence = cert.evidence
    first, second = ("A", "B") if ev.lemma == 1 else ("B", "A")
    rows = "; ".join(f"p = {p}: {good} of {n}" for p, n, good in ev.counts)
    steps = [Step("The universes", f"$X = \\{{{', '.join(ev.X)}\\}}$, $Y = \\{{{', '.join(ev.Y)}\\}}$; the rectangles "
                  "are $A \\times B$ with non-empty $A \\subseteq X$, $B \\subseteq Y$."),
             Step("The decomposition", f"For each ordered collection of $p \\le {ev.max_rects}$ rectangles and each "
                  f"$I \\subseteq \\{{1..p\\}}$: $\\tilde {first}_I = \\bigcup_{{i \\in I}} {first}_i$, "
                  f"$\\tilde {second}_I = \\bigcap_{{i \\in I}} {second}_i \\setminus \\bigcup_{{i \\notin I}} "
                  f"{second}_i$; checked: the union of the $\\tilde A_I \\times \\tilde B_I$ is the union of the "
                  f"rectangles, and the $\\tilde {second}_I$ are pairwise disjoint."),
             Step("Exhaustive count", f"Collections where both hold: {rows}.")]
    concl = f"HLM15 Lemma {ev.lemma} " + ("holds on every collection." if cert.verdict.value == "holds"
                                          else "FAILS on some collection.")
    return Proof(f"\\text{{HLM15 Lemma {ev.lemma} on }} |X| = {len(ev.X)},\\ |Y| = {len(ev.Y)},\\ p \\le "
                 f"{ev.max_rects}", steps, concl, [("statement", ev.statement), ("counts", rows)])
