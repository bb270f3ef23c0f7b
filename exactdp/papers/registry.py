"""The registry of paper claims (docs/architecture.md#sec-papers).

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
from ..certificate.sections import (Blocks, CertificateProof, CertRef, Field, Label, LabelSet, List, Paragraph,
                                    Table, as_blocks, blocks_latex, cell, blocks_markdown, inline_latex, latex_document)
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
    """One table cell as text for a reader, never a Python repr.

    A bool is yes/no, None is -, a list or tuple of labels is a set (:func:`set_text`).

    Parameters
    ----------
    v : Any
        The cell's value.

    Returns
    -------
    str
        Its Markdown text.

    Examples
    --------
    >>> cell_text(True), cell_text(None), cell_text(["1,1,1,1,4"]), cell_text("1/2")
    ('yes', '-', '{(1,1,1,1,4)}', '1/2')
    """
    return cell(v).markdown()


def plural(n: int, word: str, words: str | None = None) -> str:
    """A count with its noun (``"1 pair"``, ``"2 pairs"``), never ``pair(s)``.

    Parameters
    ----------
    n : int
        The count.
    word : str
        The noun in the singular.
    words : str, optional
        The plural when it is not ``word + "s"``.

    Returns
    -------
    str
        ``"<n> <noun>"``.

    Examples
    --------
    >>> plural(1, "point"), plural(2, "point"), plural(3, "matrix", "matrices")
    ('1 point', '2 points', '3 matrices')
    """
    return f"{n} {word if n == 1 else (words or word + 's')}"


def md_table(header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> Blocks:
    """A typed table as a fragment that joins the claim's prose with ``+``.

    The table is a :class:`~exactdp.certificate.sections.Table`, each cell through
    :func:`~exactdp.certificate.sections.cell`; it renders as Markdown (``str``) and as LaTeX.

    Parameters
    ----------
    header : sequence
        The column headings.
    rows : iterable of sequence
        The rows, one value a cell.

    Returns
    -------
    Blocks
        The one-table fragment.

    Examples
    --------
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

    Examples
    --------
    >>> from exactdp.errors import ExactDPError
    >>> issubclass(InternalInconsistency, RuntimeError), issubclass(InternalInconsistency, ExactDPError)
    (True, False)
    """


@dataclass(frozen=True)
class Finding:
    """One printed statement of a paper set against the certified computation.

    Parameters
    ----------
    what : str
        The statement compared.
    printed : str
        What the paper prints.
    exact : str
        What the certified computation gives.
    agrees : bool or None
        True (the certified value is the printed one), False (a certified computation contradicts it) or None
        (undecided: the computation could not settle it).

    Examples
    --------
    >>> Finding("threshold", "0.8", "4/5", True).agrees
    True
    """

    what: str
    printed: str
    exact: str
    agrees: bool | None

    def sentence(self) -> str:
        """The finding as ``"what: printed P, exact E"``, both numbers, as the reader must see them when they differ.

        Returns
        -------
        str
            The sentence.

        Examples
        --------
        >>> Finding("bound at eps = 1/2", "1.2", "1.23", False).sentence()
        'bound at eps = 1/2: printed 1.2, exact 1.23'
        """
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

        Parameters
        ----------
        what : str
            The statement compared.
        printed : Any
            What the paper prints (recorded as text).
        exact : Any
            What the certified computation gives (recorded as text).
        agrees : bool, None or Verdict, optional
            True, False, None or a certificate's ``holds`` (its ``UNDECIDED`` counts as None, i.e. the
            comparison is open); by default the two texts are compared.

        Returns
        -------
        bool
            Whether they agree (False when they differ or the comparison is open).

        Raises
        ------
        TypeError
            If ``agrees`` is none of these.

        Examples
        --------
        >>> led = Ledger()
        >>> led.compare("n", 3, "3"), led.compare("n", "3", "4"), led.compare("x", "1", "?", agrees=None)
        (True, False, False)
        >>> [f.agrees for f in led.findings]
        [True, False, None]
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
        """Record a printed statement the computation could not settle (with the reason).

        Parameters
        ----------
        what : str
            The statement.
        printed : Any
            What the paper prints.
        reason : str
            Why the computation could not settle it.

        Examples
        --------
        >>> led = Ledger()
        >>> led.undecided("threshold", "0.8", "precision exhausted")
        >>> led.findings[0].exact, led.status()
        ('undecided (precision exhausted)', 'undecided')
        """
        self.findings.append(Finding(what, str(printed), f"undecided ({reason})", None))

    def check(self, condition: Any, what: str) -> None:
        """Run an internal consistency check: raise :class:`InternalInconsistency` when it fails.

        Parameters
        ----------
        condition : Any
            What must be true.
        what : str
            What the check states, for the message.

        Raises
        ------
        InternalInconsistency
            If ``condition`` is false.

        Examples
        --------
        >>> Ledger().check(2 + 2 == 4, "arithmetic")
        >>> Ledger().check([], "a non-empty list")
        Traceback (most recent call last):
        ...
        exactdp.papers.registry.InternalInconsistency: internal inconsistency: a non-empty list
        """
        if not condition:
            raise InternalInconsistency(f"internal inconsistency: {what}")

    def status(self, agreed: str = "reproduced") -> str:
        """Derive the status: ``differs`` if any finding disagrees, else ``undecided`` if any is open, else ``agreed``.

        Parameters
        ----------
        agreed : str, optional
            The status when every finding agrees (``reproduced`` or ``reconstructed``).

        Returns
        -------
        str
            One of :data:`STATUSES`.

        Examples
        --------
        >>> led = Ledger()
        >>> led.compare("a", "1", "1"), led.status(), led.status("reconstructed")
        (True, 'reproduced', 'reconstructed')
        >>> led.compare("b", "1", "?", agrees=None), led.status()
        (False, 'undecided')
        >>> led.compare("c", "1", "2"), led.status()
        (False, 'differs')
        """
        if any(f.agrees is False for f in self.findings):
            return "differs"
        if any(f.agrees is None for f in self.findings):
            return "undecided"
        return agreed

    def sentence(self, facts: str) -> str:
        """Write the "exact" sentence: the computed facts, then what agrees and what differs (both numbers).

        Parameters
        ----------
        facts : str
            The computed facts, first in the sentence (may be empty).

        Returns
        -------
        str
            The sentence.

        Raises
        ------
        InternalInconsistency
            If nothing was compared with the paper.

        Examples
        --------
        >>> led = Ledger()
        >>> led.compare("a", "1", "1"), led.compare("b", "2", "2")
        (True, True)
        >>> led.sentence("n = 5")
        'n = 5; all 2 comparisons with the paper agree'
        """
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
        """Build the :class:`ClaimResult` with the derived status and sentence.

        Parameters
        ----------
        facts : str
            The computed facts (see :meth:`sentence`).
        sections : list, optional
            The proof's sections, ``(heading, body)`` pairs.
        certificates : list, optional
            The certificates behind the claim.
        agreed : str, optional
            The status when every finding agrees: ``reproduced`` or ``reconstructed``.

        Returns
        -------
        ClaimResult
            Status, sentence, sections, certificates and findings.

        Examples
        --------
        >>> led = Ledger()
        >>> led.compare("a", "1", "1")
        True
        >>> r = led.result("x = 1", agreed="reconstructed")
        >>> r.status, r.exact, len(r.findings)
        ('reconstructed', 'x = 1; agrees with the paper', 1)
        """
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


@dataclass
class ClaimResult:
    """What running a claim gives: its status, the exact sentence, the proof's sections and the certificates.

    Write one through :meth:`Ledger.result`, which derives ``status`` and ``exact`` from the findings.

    Parameters
    ----------
    status : str
        One of :data:`STATUSES`.
    exact : str
        The exact result, one sentence.
    sections : list, optional
        ``(heading, body)`` pairs: body is Markdown prose, a block of :mod:`exactdp.certificate.sections` or a
        list of both.
    certificates : list, optional
        The certificates behind the claim.
    findings : list, optional
        The :class:`Finding` records (see :class:`Ledger`).

    Raises
    ------
    ValueError
        If ``status`` is not one of :data:`STATUSES`.

    Examples
    --------
    >>> ClaimResult("reproduced", "x = 1").recheck_summary()
    'no certificate'
    >>> ClaimResult("agrees", "x = 1")
    Traceback (most recent call last):
    ...
    ValueError: status 'agrees' not in ('reproduced', 'differs', 'reconstructed', 'undecided')
    """

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
        """Re-check every certificate independently (computed once; see :mod:`exactdp.recheck`).

        Returns
        -------
        list
            One re-check report per certificate, in order.

        Examples
        --------
        >>> from exactdp import certify_privacy, geometric
        >>> from exactdp.metrics import path
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> r = ClaimResult("reproduced", "holds", certificates=[c])
        >>> [x.status for x in r.rechecks()], r.rechecks() is r.rechecks()
        (['confirmed'], True)
        """
        if self._rechecks is None:
            self._rechecks = [c.recheck() for c in self.certificates]
        return self._rechecks

    def recheck_summary(self) -> str:
        """Count the re-checks by status: ``"3 confirmed"``, ``"2 confirmed, 1 not checkable"``, ...

        Returns
        -------
        str
            The counts, or ``"no certificate"``.

        Examples
        --------
        >>> from exactdp import certify_privacy, geometric
        >>> from exactdp.metrics import path
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> ClaimResult("reproduced", "holds", certificates=[c, c]).recheck_summary()
        '2 confirmed'
        """
        if not self.certificates:
            return "no certificate"
        counts: dict[str, int] = {}
        for r in self.rechecks():
            counts[r.status] = counts.get(r.status, 0) + 1
        return ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))


@dataclass
class Claim:
    """One claim of a paper, with the function that rebuilds it exactly (see :func:`register`).

    Parameters
    ----------
    id : str
        ``PAPER-item``, e.g. ``GRS12-ex2.1``.
    paper : str
        The paper's short name.
    where : str
        Where in the paper (``Example 2.1``).
    statement : str
        The paper's statement.
    paper_says : str
        What the paper prints.
    run : callable
        Rebuilds the instance and returns a :class:`ClaimResult`.

    Examples
    --------
    >>> c = get_claim("GRS12-ex2.1")
    >>> c.paper, c.where
    ('GRS12', 'Example 2.1')
    """

    id: str
    paper: str
    where: str
    statement: str
    paper_says: str
    run: Callable[[], ClaimResult]

    def title(self) -> str:
        """Give the claim's title, ``"GRS12-ex2.1: GRS12 Example 2.1"``.

        Returns
        -------
        str
            Id, paper and place.

        Examples
        --------
        >>> get_claim("KL10-def2.2").title()
        'KL10-def2.2: KL10 Definition 2.2 (utility)'
        """
        return f"{self.id}: {self.paper} {self.where}"

    def proof_parts(self, result: ClaimResult) -> tuple[list, list]:
        """Give the worked proof as data: the head and the sections, the comparisons with the paper first.

        Parameters
        ----------
        result : ClaimResult
            The claim's result (:func:`run_claim`).

        Returns
        -------
        tuple of list
            The head, ``(label, inline text)`` pairs, and the sections, ``(heading, blocks)`` pairs.

        Examples
        --------
        >>> c = get_claim("KL10-def2.2")
        >>> head, sections = c.proof_parts(run_claim(c.id))
        >>> [label for label, _ in head]
        ["Paper's statement", 'The paper says', 'Exact result', 'Status']
        >>> sections[0][0]
        'The paper against the exact result'
        """
        head = [("Paper's statement", self.statement), ("The paper says", self.paper_says),
                ("Exact result", result.exact), ("Status", result.status)]
        sections = [("The paper against the exact result", findings_blocks(result.findings))] if result.findings else []
        sections += [(heading, as_blocks(body)) for heading, body in result.sections]
        return head, sections

    def proof_markdown(self, result: ClaimResult) -> str:
        """Write the worked proof in Markdown (``proofs/<id>.md``).

        Parameters
        ----------
        result : ClaimResult
            The claim's result (:func:`run_claim`).

        Returns
        -------
        str
            The Markdown document.

        Examples
        --------
        >>> c = get_claim("KL10-def2.2")
        >>> c.proof_markdown(run_claim(c.id)).splitlines()[0]
        '# KL10-def2.2: KL10 Definition 2.2 (utility)'
        """
        head, sections = self.proof_parts(result)
        lines = [f"# {self.title()}", "",
                 "<!-- generated by `exactdp proofs`; do not edit (a test fails when this file is stale) -->", ""]
        lines += [blocks_markdown([Field(label, text) for label, text in head]), ""] if head else []
        for heading, blocks in sections:
            lines += [f"## {heading}", "", blocks_markdown(blocks), ""]
        return "\n".join(lines).rstrip() + "\n"

    def proof_latex(self, result: ClaimResult) -> str:
        """Write the worked proof as a standalone LaTeX document (``proofs/<id>.tex``).

        It is rendered from the same data as :meth:`proof_markdown` (:meth:`proof_parts`).

        Parameters
        ----------
        result : ClaimResult
            The claim's result (:func:`run_claim`).

        Returns
        -------
        str
            The LaTeX document.

        Examples
        --------
        >>> c = get_claim("KL10-def2.2")
        >>> tex = c.proof_latex(run_claim(c.id))
        >>> tex.count("begin{document}"), tex.rstrip().endswith("end{document}")
        (1, True)
        """
        head, sections = self.proof_parts(result)
        lines = ["% generated by `exactdp proofs`; do not edit (a test fails when this file is stale)", ""]
        lines += [blocks_latex([Field(label, text) for label, text in head]).rstrip("\n"), ""] if head else []
        for heading, blocks in sections:
            lines += [r"\subsection*{" + inline_latex(heading) + "}", "", blocks_latex(blocks)]
        return latex_document(self.title(), "\n".join(lines))


_REGISTRY: dict[str, Claim] = {}


def register(id: str, paper: str, where: str, statement: str,
             paper_says: str) -> Callable[[Callable[[], ClaimResult]], Callable[[], ClaimResult]]:
    """Add a claim function to the registry (a decorator).

    Parameters
    ----------
    id : str
        ``PAPER-item``; unique.
    paper : str
        The paper's short name.
    where : str
        Where in the paper.
    statement : str
        The paper's statement.
    paper_says : str
        What the paper prints.

    Returns
    -------
    callable
        The decorator; it registers a :class:`Claim` and returns the function unchanged.

    Raises
    ------
    ValueError
        If a claim with this id is registered already.

    Examples
    --------
    >>> ids = [c.id for c in claims()]
    >>> register("GRS12-ex2.1", "GRS12", "Example 2.1", "a second copy", "-")(lambda: None)
    Traceback (most recent call last):
    ...
    ValueError: claim GRS12-ex2.1 registered twice
    """
    def deco(fn: Callable[[], ClaimResult]) -> Callable[[], ClaimResult]:
        if id in _REGISTRY:
            raise ValueError(f"claim {id} registered twice")
        _REGISTRY[id] = Claim(id, paper, where, statement, paper_says, fn)
        return fn
    return deco


def claims() -> list[Claim]:
    """List every registered claim (the paper modules register theirs on import).

    Returns
    -------
    list of Claim
        Sorted by id.

    Examples
    --------
    >>> ids = [c.id for c in claims()]
    >>> ids == sorted(ids), "GRS12-ex2.1" in ids, len({i.split("-")[0] for i in ids})
    (True, True, 5)
    """
    from . import (bcsz18, ecp14, grs12, grs12_databases, grs12_discussion, grs12_optimality, hlm15,  # noqa: F401
                   hlm15_accuracy, hlm15_approx, kl10)

    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def get_claim(id: str) -> Claim:
    """Look a claim up by its id.

    Parameters
    ----------
    id : str
        ``PAPER-item``, as :func:`claims` lists them.

    Returns
    -------
    Claim
        The claim.

    Raises
    ------
    InvalidInput
        If no claim has this id (the message lists the known ones).

    Examples
    --------
    >>> get_claim("HLM15-ex6").paper
    'HLM15'
    >>> get_claim("HLM15-ex99")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: claim: unknown id 'HLM15-ex99'; known: BCSZ18-factor2, ...
    """
    known = {c.id: c for c in claims()}
    if id not in known:
        raise InvalidInput(f"claim: unknown id {id!r}; known: {', '.join(sorted(known))}")
    return known[id]


_RESULTS: dict[str, ClaimResult] = {}


def run_claim(id: str) -> ClaimResult:
    """Run a claim (memoised: claims are deterministic, and some take tens of seconds).

    Parameters
    ----------
    id : str
        The claim's id.

    Returns
    -------
    ClaimResult
        The same object on every call with this id.

    Raises
    ------
    InvalidInput
        If no claim has this id.

    Examples
    --------
    >>> r = run_claim("KL10-def2.2")
    >>> r is run_claim("KL10-def2.2"), r.status in STATUSES
    (True, True)
    """
    if id not in _RESULTS:
        _RESULTS[id] = get_claim(id).run()
    return _RESULTS[id]
