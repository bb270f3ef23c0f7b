"""The registry of paper claims (DESIGN.md section 6).

Each :class:`Claim` has an id ``PAPER-item`` (e.g. ``GRS12-ex2.1``), the
paper's statement, what the paper prints, and a function that rebuilds the
instance from the public API and returns a :class:`ClaimResult`: a status
(``reproduced``, ``differs`` with both values, ``reconstructed`` where the
paper's own setting was lost and is stated, or ``undecided``), the exact
result, the certificates, and a worked proof built from typed blocks
(:mod:`exactdp.certificate.sections`) that ``exactdp proofs`` writes to
``proofs/<id>.md`` (Markdown) and ``proofs/<id>.tex`` (a standalone LaTeX document).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from ..certificate.render import label_text, set_text
from ..certificate.sections import (Blocks, CertificateProof, CertRef, Label, LabelSet, List, Paragraph, Table,
                                    as_blocks, blocks_latex, cell, blocks_markdown, inline_latex, latex_document)
from ..errors import InvalidInput
from ..verdict import Verdict

__all__ = [
    "STATUSES",
    "Blocks",
    "CertRef",
    "CertificateProof",
    "Claim",
    "ClaimResult",
    "Finding",
    "InternalInconsistency",
    "Label",
    "LabelSet",
    "Ledger",
    "List",
    "Paragraph",
    "Table",
    "cell_text",
    "claims",
    "get_claim",
    "label_text",
    "md_table",
    "plural",
    "register",
    "run_claim",
    "set_text",
]


def cell_text(v: Any) -> str:
    """One table cell as text for a reader, never a Python repr: a bool is yes/no, None is -, a list or
    tuple of labels is a set (:func:`set_text`).

    >>> cell_text(True), cell_text(None), cell_text(["1,1,1,1,4"]), cell_text("1/2")
    ('yes', '-', '{(1,1,1,1,4)}', '1/2')
    """
    return cell(v).markdown()


def plural(n: int, word: str, words: str | None = None) -> str:
    """``"1 pair"``, ``"2 pairs"``: a count with its noun, never ``pair(s)``.

    >>> plural(1, "point"), plural(2, "point"), plural(3, "matrix", "matrices")
    ('1 point', '2 points', '3 matrices')
    """
    return f"{n} {word if n == 1 else (words or word + 's')}"


def md_table(header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> Blocks:
    """A typed table (:class:`~exactdp.certificate.sections.Table`, each cell through
    :func:`~exactdp.certificate.sections.cell`) as a fragment that joins the claim's prose with ``+``; it
    renders as Markdown (``str``) and as LaTeX.

    >>> t = md_table(["set", "size"], [["|V| = 2", 3]])
    >>> print(t)
    | set | size |
    |---|---|
    | \\|V\\| = 2 | 3 |
    >>> print(blocks_latex(t).splitlines()[6])
    |V| = 2 & 3 \\\\
    """
    return Blocks([Table(header, rows)])


STATUSES = ("reproduced", "differs", "reconstructed", "undecided")


class InternalInconsistency(RuntimeError):
    """A claim's own computations disagree with each other: a bug in exactdp, never a verdict on the paper.

    Deliberately not an :class:`~exactdp.errors.ExactDPError`: the command line reports it as an internal
    error (exit 4), not as bad input.
    """


@dataclass(frozen=True)
class Finding:
    """One printed statement of a paper set against the certified computation.

    ``agrees`` is True (the certified value is the printed one), False (a certified computation contradicts
    it) or None (undecided: the computation could not settle it).
    """

    what: str
    printed: str
    exact: str
    agrees: bool | None

    def sentence(self) -> str:
        """``"what: printed P, exact E"`` -- both numbers, as the reader must see them when they differ."""
        return f"{self.what}: printed {self.printed}, exact {self.exact}"


class Ledger:
    """The one home of a claim's status: printed values against certified ones, and internal checks.

    A claim records each printed number or statement with :meth:`compare` and each consistency check of
    exactdp's own computations with :meth:`check`.  :meth:`result` then derives the status -- ``differs``
    only when a certified computation contradicts a printed statement, ``undecided`` when one could not be
    settled -- and writes the "exact" sentence from the computed facts and the findings, so no sentence can
    state an agreement the computation did not find.  A failed :meth:`check` raises
    :class:`InternalInconsistency` (a bug, exit 4 on the command line), never ``differs``.

    Examples
    --------
    >>> led = Ledger()
    >>> led.compare("threshold", "0.8", "0.80", agrees=True)
    True
    >>> led.result("threshold 4/5 certified").exact
    'threshold 4/5 certified; agrees with the paper'
    >>> led.compare("bound at eps = 1/2", "1.2", "1.23", agrees=False)
    False
    >>> r = led.result("threshold 4/5 certified")
    >>> r.status
    'differs'
    >>> print(r.exact)  # doctest: +NORMALIZE_WHITESPACE
    threshold 4/5 certified; differs -- bound at eps = 1/2: printed 1.2, exact 1.23; 1 other comparison with the
    paper agrees
    >>> from exactdp.certificate import UNDECIDED
    >>> Ledger().compare("x", "holds", "undecided", agrees=UNDECIDED)   # an undecided certificate: open, not differs
    False
    >>> led.check(1 + 1 == 3, "arithmetic")
    Traceback (most recent call last):
    ...
    exactdp.papers.registry.InternalInconsistency: internal inconsistency: arithmetic
    """

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def compare(self, what: str, printed: Any, exact: Any, agrees: Any = "texts") -> bool:
        """Record one printed value against the certified one.

        ``agrees``: True, False, None or a certificate's ``holds`` (its ``UNDECIDED`` counts as None, i.e. the
        comparison is open); by default the two texts are compared.  Returns whether they agree.
        """
        if isinstance(agrees, str) and agrees == "texts":
            agrees = str(printed) == str(exact)
        elif not isinstance(agrees, bool):
            if agrees is not None and not isinstance(agrees, Verdict):
                raise TypeError(f"agrees: expected a bool, None or a Verdict, got {type(agrees).__name__}")
            agrees = None                       # an undecided verdict leaves the printed statement open
        self.findings.append(Finding(what, str(printed), str(exact), agrees))
        return agrees is True

    def undecided(self, what: str, printed: Any, reason: str) -> None:
        """Record a printed statement the computation could not settle (with the reason)."""
        self.findings.append(Finding(what, str(printed), f"undecided ({reason})", None))

    def check(self, condition: Any, what: str) -> None:
        """An internal consistency check: raise :class:`InternalInconsistency` when it fails."""
        if not condition:
            raise InternalInconsistency(f"internal inconsistency: {what}")

    def status(self, agreed: str = "reproduced") -> str:
        """``differs`` if any finding disagrees, else ``undecided`` if any is open, else ``agreed``."""
        if any(f.agrees is False for f in self.findings):
            return "differs"
        if any(f.agrees is None for f in self.findings):
            return "undecided"
        return agreed

    def sentence(self, facts: str) -> str:
        """The "exact" sentence: the computed facts, then what agrees and what differs (both numbers)."""
        if not self.findings:
            raise InternalInconsistency("internal inconsistency: a claim compared nothing with the paper")
        bad = [f for f in self.findings if f.agrees is False]
        open_ = [f for f in self.findings if f.agrees is None]
        n = len(self.findings) - len(bad) - len(open_)
        parts = [facts] if facts else []
        if bad:
            parts.append("differs -- " + "; ".join(f.sentence() for f in bad[:4])
                         + (f"; and {len(bad) - 4} more" if len(bad) > 4 else ""))
        if open_:
            parts.append("undecided -- " + "; ".join(f"{f.what}: {f.exact}" for f in open_[:4]))
        if n and not bad and not open_:
            parts.append("agrees with the paper" if n == 1 else f"all {n} comparisons with the paper agree")
        elif n:
            parts.append(f"{n} other comparison{'' if n == 1 else 's'} with the paper agree{'s' if n == 1 else ''}")
        return "; ".join(parts)

    def result(self, facts: str, sections: list | None = None, certificates: list | None = None, *,
               agreed: str = "reproduced") -> ClaimResult:
        """The :class:`ClaimResult` with the derived status and sentence (``agreed``: ``reproduced`` or
        ``reconstructed`` when every finding agrees)."""
        return ClaimResult(self.status(agreed), self.sentence(facts), list(sections or []),
                           list(certificates or []), findings=list(self.findings))


#: most comparisons listed in a proof's table (the ones that differ or are open always are)
MAX_FINDINGS_SHOWN = 12


def findings_blocks(findings: Sequence[Finding]) -> list:
    """The comparisons of a claim as blocks: a table (what, printed, exact, verdict) -- those that differ or
    are open first, then agreeing ones up to :data:`MAX_FINDINGS_SHOWN` rows -- and a count of the rest.

    >>> print(blocks_markdown(findings_blocks([Finding("threshold", "0.8", "in [0.96, 0.97]", False)])))
    | statement | the paper | exact | agrees |
    |---|---|---|---|
    | threshold | 0.8 | in [0.96, 0.97] | no (differs) |
    """
    word = {True: "yes", False: "no (differs)", None: "open (undecided)"}
    first = [f for f in findings if f.agrees is not True]
    rest = [f for f in findings if f.agrees is True]
    shown = first + rest[:max(0, MAX_FINDINGS_SHOWN - len(first))]
    out: list = [Table(["statement", "the paper", "exact", "agrees"],
                       [[f.what, f.printed, f.exact, word[f.agrees]] for f in shown])]
    if len(shown) < len(findings):
        out.append(Paragraph(f"... and {plural(len(findings) - len(shown), 'more comparison')} that agree."))
    return out


def findings_table(findings: Sequence[Finding]) -> str:
    """:func:`findings_blocks` as Markdown.

    >>> print(findings_table([Finding("threshold", "0.8", "0.80", True)]).splitlines()[-1])
    | threshold | 0.8 | 0.80 | yes |
    """
    return blocks_markdown(findings_blocks(findings))


@dataclass
class ClaimResult:
    status: str
    exact: str
    #: (heading, body): body is Markdown prose, a block of :mod:`exactdp.certificate.sections` or a list of both
    sections: list = field(default_factory=list)
    certificates: list = field(default_factory=list)
    findings: list = field(default_factory=list)     # Finding records (see Ledger)
    _rechecks: list | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status {self.status!r} not in {STATUSES}")

    def rechecks(self) -> list:
        """The independent re-check of every certificate (computed once; see :mod:`exactdp.recheck`)."""
        if self._rechecks is None:
            self._rechecks = [c.recheck() for c in self.certificates]
        return self._rechecks

    def recheck_summary(self) -> str:
        """``"3 confirmed"``, ``"2 confirmed, 1 not checkable"``, ... or ``"no certificate"``."""
        if not self.certificates:
            return "no certificate"
        counts: dict[str, int] = {}
        for r in self.rechecks():
            counts[r.status] = counts.get(r.status, 0) + 1
        return ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))


@dataclass
class Claim:
    id: str
    paper: str
    where: str
    statement: str
    paper_says: str
    run: Callable[[], ClaimResult]

    def title(self) -> str:
        """``"GRS12-ex2.1: GRS12 Example 2.1"``."""
        return f"{self.id}: {self.paper} {self.where}"

    def proof_parts(self, result: ClaimResult) -> tuple[list, list]:
        """The worked proof as data: the head (label, inline text) pairs and the sections (heading, blocks),
        the comparisons with the paper first."""
        head = [("Paper's statement", self.statement), ("The paper says", self.paper_says),
                ("Exact result", result.exact), ("Status", result.status)]
        sections = [("The paper against the exact result", findings_blocks(result.findings))] if result.findings else []
        sections += [(heading, as_blocks(body)) for heading, body in result.sections]
        return head, sections

    def proof_markdown(self, result: ClaimResult) -> str:
        """The worked proof in Markdown (``proofs/<id>.md``)."""
        head, sections = self.proof_parts(result)
        lines = [f"# {self.title()}", "",
                 "<!-- generated by `exactdp proofs`; do not edit (a test fails when this file is stale) -->", ""]
        lines += [x for label, text in head for x in (f"**{label}.** {text}", "")]
        for heading, blocks in sections:
            lines += [f"## {heading}", "", blocks_markdown(blocks), ""]
        return "\n".join(lines).rstrip() + "\n"

    def proof_latex(self, result: ClaimResult) -> str:
        """The worked proof as a standalone LaTeX document (``proofs/<id>.tex``), from the same data as
        :meth:`proof_markdown`."""
        head, sections = self.proof_parts(result)
        lines = ["% generated by `exactdp proofs`; do not edit (a test fails when this file is stale)", ""]
        lines += [x for label, text in head for x in (r"\paragraph{" + label + ".} " + inline_latex(text), "")]
        for heading, blocks in sections:
            lines += [r"\subsection*{" + inline_latex(heading) + "}", "", blocks_latex(blocks)]
        return latex_document(self.title(), "\n".join(lines))


_REGISTRY: dict[str, Claim] = {}


def register(id: str, paper: str, where: str, statement: str,
             paper_says: str) -> Callable[[Callable[[], ClaimResult]], Callable[[], ClaimResult]]:
    """Decorator adding a claim function to the registry."""
    def deco(fn: Callable[[], ClaimResult]) -> Callable[[], ClaimResult]:
        if id in _REGISTRY:
            raise ValueError(f"claim {id} registered twice")
        _REGISTRY[id] = Claim(id, paper, where, statement, paper_says, fn)
        return fn
    return deco


def claims() -> list[Claim]:
    from . import (bcsz18, ecp14, grs12, grs12_databases, grs12_discussion, grs12_optimality, hlm15,  # noqa: F401
                   hlm15_accuracy, hlm15_approx, kl10)

    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_claim(id: str) -> Claim:
    known = {c.id: c for c in claims()}
    if id not in known:
        raise InvalidInput(f"claim: unknown id {id!r}; known: {', '.join(sorted(known))}")
    return known[id]


_RESULTS: dict[str, ClaimResult] = {}


def run_claim(id: str) -> ClaimResult:
    """Run a claim (memoised: claims are deterministic, and some take tens of seconds)."""
    if id not in _RESULTS:
        _RESULTS[id] = get_claim(id).run()
    return _RESULTS[id]
