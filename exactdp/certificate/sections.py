"""The one document model of worked proofs: typed blocks and four writers (docs/architecture.md#sec-document).

Every worked proof is a list of these blocks: a certificate's (:func:`certificate_blocks`, from its kind's
renderer) and a paper claim's (``exactdp.papers``).  One writer per format turns blocks into output --
:func:`blocks_text`, :func:`blocks_markdown`, :func:`blocks_latex`, :func:`blocks_html` -- so the views of a
proof never drift apart.  Table cells are typed: a number, a point label, a set of labels, a yes/no flag, a
missing value or a reference to one of the claim's certificates -- each typeset as a reader writes it, never
as a Python repr.  Inline text is the small Markdown subset the renderers write: ``$...$`` math,
``**bold**``, ``*emphasis*`` and ```code```.

Examples
--------
>>> t = Table(["eps", "regular", "negative at"], [["1/2", False, ["4,4"]], ["log(2)", True, None]])
>>> print(t.markdown())
| eps | regular | negative at |
|---|---|---|
| 1/2 | no | {(4,4)} |
| log(2) | yes | - |
>>> print(t.latex())
\\begin{center}\\small
\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%
\\begin{tabular}{lll}
\\hline
eps & regular & negative at \\\\
\\hline
1/2 & no & $\\{(4,4)\\}$ \\\\
log(2) & yes & -- \\\\
\\hline
\\end{tabular}}
\\end{center}
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .render import Proof, Step, plain
from .inline import inline_html, inline_latex, tex_escape
from .cells import CertRef, Flag, Label, LabelSet, Missing, Text, cell
from .blocks import (PREAMBLE, Blocks, Display, List, Paragraph, Table, as_blocks, blocks_html, blocks_latex,
                     blocks_markdown, blocks_text, latex_document, parse_markdown)

__all__ = [
    "NOTE_LABEL",
    "PREAMBLE",
    "Blocks",
    "CertRef",
    "CertificateProof",
    "Claim",
    "Display",
    "Field",
    "Flag",
    "Label",
    "LabelSet",
    "List",
    "Missing",
    "Paragraph",
    "Proof",
    "Step",
    "Steps",
    "Summary",
    "Table",
    "Text",
    "Verdict",
    "as_blocks",
    "blocks_html",
    "blocks_latex",
    "blocks_markdown",
    "blocks_text",
    "cell",
    "certificate_blocks",
    "inline_html",
    "inline_latex",
    "latex_document",
    "parse_markdown",
    "tex_escape",
]


def _key(name: str) -> str:
    """A text-view line's label, padded so that the values of ``claim``, ``verdict`` and ``method`` line up."""
    return (name + ":").ljust(8) + " "


@dataclass(frozen=True)
class Claim:
    """A certificate's claim: in words (inline Markdown) and as a display formula (LaTeX).

    The text view shows the words only (the formula says the same in symbols).

    Parameters
    ----------
    words : str
        The claim as the certificate states it.
    formula : str
        The claim as a LaTeX formula (without delimiters).

    Examples
    --------
    >>> c = Claim("K is private", r"K(x)(z) \\le 2 K(x')(z)")
    >>> c.plain_text()
    'claim:   K is private'
    >>> print(c.markdown())
    **Claim.** K is private
    <BLANKLINE>
    $$ K(x)(z) \\le 2 K(x')(z) $$
    """

    words: str
    formula: str

    def plain_text(self) -> str:
        """Return ``claim:`` and the words, as plain text.

        Returns
        -------
        str

        Examples
        --------
        >>> Claim("**K** holds", "x").plain_text()
        'claim:   K holds'
        """
        return _key("claim") + plain(self.words)

    def markdown(self) -> str:
        """Return the words after ``**Claim.**``, then the formula as display math.

        Returns
        -------
        str

        Examples
        --------
        >>> Claim("K", "x").markdown()
        '**Claim.** K\\n\\n$$ x $$'
        """
        return f"**Claim.** {self.words}\n\n{Display(self.formula).markdown()}"

    def latex(self) -> str:
        """Return the words as a ``\\paragraph``, then the formula between ``\\[`` and ``\\]``.

        Returns
        -------
        str

        Examples
        --------
        >>> print(Claim("K_1", "x").latex())
        \\paragraph{Claim.} K\\_1
        \\[ x \\]
        <BLANKLINE>
        """
        return r"\paragraph{Claim.} " + inline_latex(self.words) + "\n" + Display(self.formula).latex()

    def html(self) -> str:
        """Return the words and the formula as two ``<p>`` elements.

        Returns
        -------
        str

        Examples
        --------
        >>> print(Claim("a < b", "x").html())
        <p><strong>Claim.</strong> a &lt; b</p>
        <p>$$ x $$</p>
        """
        return f"<p><strong>Claim.</strong> {inline_html(self.words)}</p>\n{Display(self.formula).html()}"


#: the colour of each verdict in the HTML view
_VERDICT_COLOUR = {"holds": "#1a7f37", "fails": "#cf222e", "undecided": "#9a6700"}


@dataclass(frozen=True)
class Verdict:
    """A certificate's verdict: ``holds``, ``fails`` or ``undecided`` (coloured in HTML).

    Parameters
    ----------
    value : str
        The verdict's word.

    Examples
    --------
    >>> Verdict("holds").plain_text(), Verdict("fails").markdown(), Verdict("holds").latex()
    ('verdict: holds', '**Verdict.** fails', '\\\\paragraph{Verdict.} holds.')
    """

    value: str

    def plain_text(self) -> str:
        """Return ``verdict:`` and the word.

        Returns
        -------
        str

        Examples
        --------
        >>> Verdict("undecided").plain_text()
        'verdict: undecided'
        """
        return _key("verdict") + self.value

    def markdown(self) -> str:
        """Return the word after ``**Verdict.**``.

        Returns
        -------
        str

        Examples
        --------
        >>> Verdict("holds").markdown()
        '**Verdict.** holds'
        """
        return f"**Verdict.** {self.value}"

    def latex(self) -> str:
        """Return the word as a ``\\paragraph``.

        Returns
        -------
        str

        Examples
        --------
        >>> Verdict("fails").latex()
        '\\\\paragraph{Verdict.} fails.'
        """
        return r"\paragraph{Verdict.} " + tex_escape(self.value) + "."

    def html(self) -> str:
        """Return the word in its colour, in a ``<p>``.

        Returns
        -------
        str

        Examples
        --------
        >>> Verdict("holds").html()
        '<p><strong>Verdict.</strong> <span style="color: #1a7f37; font-weight: bold">holds</span></p>'
        """
        colour = _VERDICT_COLOUR.get(self.value, "inherit")
        return (f'<p><strong>Verdict.</strong> <span style="color: {colour}; font-weight: bold">'
                f"{html.escape(self.value)}</span></p>")


@dataclass(frozen=True)
class Field:
    """A titled paragraph of inline Markdown: ``**Method.** ...`` (``method:  ...`` in the text view).

    Parameters
    ----------
    title : str
        The title (``"Method"``, ``"Why undecided"``).
    text : str
        Inline Markdown.
    key : str, default ""
        The text view's label (default: the title in lower case).

    Examples
    --------
    >>> f = Field("Why undecided", "a root *near* 1/2", "reason")
    >>> f.plain_text(), f.markdown()
    ('reason:  a root near 1/2', '**Why undecided.** a root *near* 1/2')
    """

    title: str
    text: str
    key: str = ""

    def plain_text(self) -> str:
        """Return the key and the text as plain text.

        Returns
        -------
        str

        Examples
        --------
        >>> Field("Method", "`exact`").plain_text()
        'method:  exact'
        """
        return _key(self.key or self.title.lower()) + plain(self.text)

    def markdown(self) -> str:
        """Return the text after the bold title.

        Returns
        -------
        str

        Examples
        --------
        >>> Field("Method", "exact").markdown()
        '**Method.** exact'
        """
        return f"**{self.title}.** {self.text}"

    def latex(self) -> str:
        """Return the text as a ``\\paragraph`` with the title.

        Returns
        -------
        str

        Examples
        --------
        >>> Field("Method", "50% exact").latex()
        '\\\\paragraph{Method.} 50\\\\% exact'
        """
        return r"\paragraph{" + tex_escape(self.title) + ".} " + inline_latex(self.text)

    def html(self) -> str:
        """Return the text after the bold title, in a ``<p>``.

        Returns
        -------
        str

        Examples
        --------
        >>> Field("Method", "a < b").html()
        '<p><strong>Method.</strong> a &lt; b</p>'
        """
        return f"<p><strong>{html.escape(self.title)}.</strong> {inline_html(self.text)}</p>"


@dataclass(frozen=True)
class Summary:
    """The text view's abstract of a proof: ``label: value`` lines, plain words and exact numbers.

    Only the text view shows it; the other views show the worked steps it abstracts (so their writers give
    ``""``, and the block writers leave it out).

    Parameters
    ----------
    rows : tuple of tuple
        ``(label, value)`` pairs.

    Examples
    --------
    >>> s = Summary((("tight constraints", "3"), ("witness", "x = 1")))
    >>> print(s.plain_text())
    tight constraints: 3
    witness: x = 1
    >>> s.markdown(), s.latex(), s.html()
    ('', '', '')
    """

    rows: tuple

    def plain_text(self) -> str:
        """Return one ``label: value`` line a row.

        Returns
        -------
        str

        Examples
        --------
        >>> Summary((("n", "2"),)).plain_text()
        'n: 2'
        """
        return "\n".join(f"{k}: {v}" for k, v in self.rows)

    def markdown(self) -> str:
        """Return nothing: the Markdown view shows the steps.

        Returns
        -------
        str

        Examples
        --------
        >>> Summary((("n", "2"),)).markdown()
        ''
        """
        return ""

    def latex(self) -> str:
        """Return nothing: the LaTeX view shows the steps.

        Returns
        -------
        str

        Examples
        --------
        >>> Summary((("n", "2"),)).latex()
        ''
        """
        return ""

    def html(self) -> str:
        """Return nothing: the HTML view shows the steps.

        Returns
        -------
        str

        Examples
        --------
        >>> Summary((("n", "2"),)).html()
        ''
        """
        return ""


@dataclass(frozen=True)
class Steps:
    """A worked proof: numbered, titled steps whose bodies are blocks, then the conclusion.

    Each step's Markdown (``render.Step``) is read into blocks by :func:`parse_markdown`, so a step may hold
    paragraphs, lists, tables and display math, each written by its block's writer.

    Parameters
    ----------
    steps : tuple
        ``(title, body, latex)`` triples: the title (inline Markdown), the body's blocks, and a LaTeX version of
        the body that replaces the written one when not empty.
    conclusion : str, default ""
        The last sentence (inline Markdown).
    brief : bool, default False
        In the text view, only the conclusion (``Certificate.to_text``, a summary); the other views always show
        the steps.

    Examples
    --------
    >>> s = Steps((("Check", (Paragraph("every ratio is at most $2$"),), ""),), "Private.")
    >>> print(s.plain_text())
    proof:
      1. Check. every ratio is at most 2
    conclusion: Private.
    >>> print(s.markdown())
    **Proof.**
    <BLANKLINE>
    1. *Check.* every ratio is at most $2$
    <BLANKLINE>
    **Conclusion.** Private.
    """

    steps: tuple
    conclusion: str = ""
    brief: bool = False

    def plain_text(self) -> str:
        """Return ``proof:`` and the numbered steps (not when ``brief``), then ``conclusion:``.

        Returns
        -------
        str

        Examples
        --------
        >>> Steps((), "So $x \\\\le 1$.", brief=True).plain_text()
        'conclusion: So x <= 1.'
        """
        lines = []
        if self.steps and not self.brief:
            lines.append("proof:")
            for k, (title, body, _) in enumerate(self.steps, 1):
                text = blocks_text(body).replace("\n", "\n     ")       # continuation lines under the step
                lines.append(f"  {k}. {plain(title)}. {text}")
        if self.conclusion:
            lines.append(_key("conclusion").rstrip() + " " + plain(self.conclusion))
        return "\n".join(lines)

    def markdown(self) -> str:
        """Return ``**Proof.**``, the numbered steps and ``**Conclusion.**``.

        Returns
        -------
        str

        Examples
        --------
        >>> Steps((("A", (Paragraph("b"),), ""),)).markdown()
        '**Proof.**\\n\\n1. *A.* b'
        """
        parts = ["**Proof.**"] + [f"{k}. *{title}.* {blocks_markdown(body)}"
                                  for k, (title, body, _) in enumerate(self.steps, 1)]
        if self.conclusion:
            parts.append(f"**Conclusion.** {self.conclusion}")
        return "\n\n".join(parts)

    def latex(self) -> str:
        """Return an amsthm ``proof`` environment: an ``enumerate`` of the steps, then the conclusion.

        Returns
        -------
        str

        Examples
        --------
        >>> print(Steps((("A", (Paragraph("b_1"),), ""),), "So.").latex())
        \\begin{proof}
        \\begin{enumerate}
        \\item \\emph{A.} b\\_1
        \\end{enumerate}
        So.
        \\end{proof}
        <BLANKLINE>
        """
        lines = [r"\begin{proof}", r"\begin{enumerate}"]
        lines += [r"\item \emph{" + inline_latex(title) + ".} " + (tex or blocks_latex(body).rstrip())
                  for title, body, tex in self.steps]
        lines.append(r"\end{enumerate}")
        if self.conclusion:
            lines.append(inline_latex(self.conclusion))
        return "\n".join([*lines, r"\end{proof}"]) + "\n"

    def html(self) -> str:
        """Return a ``<details>`` element with an ``<ol>`` of the steps, then the conclusion.

        Returns
        -------
        str

        Examples
        --------
        >>> print(Steps((("A", (Paragraph("b"),), ""),)).html())
        <details><summary><strong>Proof</strong> (1 step)</summary><ol>
        <li><em>A.</em> <p>b</p></li>
        </ol></details>
        """
        n = len(self.steps)
        parts = [f"<details><summary><strong>Proof</strong> ({n} step{'s' if n != 1 else ''})</summary><ol>"]
        parts += [f"<li><em>{inline_html(title)}.</em> {blocks_html(body)}</li>" for title, body, _ in self.steps]
        parts.append("</ol></details>")
        if self.conclusion:
            parts.append(f"<p><strong>Conclusion.</strong> {inline_html(self.conclusion)}</p>")
        return "\n".join(parts)


#: how the note is introduced: it records how the checker ran (statistics), it is not a claim and is not re-checked
NOTE_LABEL = "how the checker ran (not a claim; not re-checked)"


def certificate_blocks(cert: Any, brief: bool = False) -> list:
    """A certificate's worked proof as blocks: the one document every view of a certificate is written from.

    The kind's renderer (``@renderer``, :func:`exactdp.certificate.render.proof_of`) reads the evidence into a
    ``Proof``; its parts become :class:`Claim`, :class:`Verdict` (not for a value), :class:`Field` (method,
    the reason of an undecided verdict), :class:`Summary` and :class:`Steps`, and :func:`blocks_text`,
    :func:`blocks_markdown`, :func:`blocks_latex` and :func:`blocks_html` write them.

    Parameters
    ----------
    cert : Certificate
        Any certificate whose kind has a renderer.
    brief : bool, default False
        The text view without the steps (``Certificate.to_text``).

    Returns
    -------
    list
        The blocks, in reading order.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
    >>> [type(b).__name__ for b in certificate_blocks(c)]
    ['Claim', 'Verdict', 'Field', 'Summary', 'Steps']
    """
    from .render import proof_of

    p = proof_of(cert)
    method = str(cert.method) + (f" at {cert.precision} bits" if cert.precision else "")
    method += f" [{NOTE_LABEL}: {cert.note}]" if cert.note else ""
    blocks: list = [Claim(cert.claim, p.claim_latex)]
    blocks += [] if p.value_only else [Verdict(cert.verdict.value)]
    blocks.append(Field("Method", method))
    blocks += [Field("Why undecided", cert.reason, "reason")] if cert.reason else []
    return [*blocks, *p.blocks(brief)]     # the renderer's Proof is itself a block of this model


@dataclass(frozen=True)
class CertificateProof:
    """A certificate's whole worked proof inside another document (a paper claim's proof).

    Its blocks are :func:`certificate_blocks`; each writer writes them as it writes any block.

    Parameters
    ----------
    certificate : Certificate
        The certificate whose proof is shown.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> p = CertificateProof(certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3"))
    >>> p.markdown() == p.certificate.to_markdown().rstrip()
    True
    """

    certificate: Any

    def plain_text(self) -> str:
        """Return the worked proof as plain text, steps included.

        Returns
        -------
        str

        Examples
        --------
        >>> from exactdp import certify_privacy, path, randomized_response
        >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
        >>> "proof:" in CertificateProof(c).plain_text()
        True
        """
        return blocks_text(certificate_blocks(self.certificate))

    def markdown(self) -> str:
        """Return the worked proof in Markdown (as ``Certificate.to_markdown``).

        Returns
        -------
        str

        Examples
        --------
        >>> from exactdp import certify_privacy, path, randomized_response
        >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
        >>> "**Proof.**" in CertificateProof(c).markdown()
        True
        """
        return blocks_markdown(certificate_blocks(self.certificate))

    def latex(self) -> str:
        """Return the worked proof in LaTeX (as ``Certificate.to_latex``).

        Returns
        -------
        str

        Examples
        --------
        >>> from exactdp import certify_privacy, path, randomized_response
        >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
        >>> CertificateProof(c).latex() == c.to_latex()
        True
        """
        return blocks_latex(certificate_blocks(self.certificate))

    def html(self) -> str:
        """Return the worked proof as HTML: ``Certificate.to_html``, one ``<div>`` around the blocks.

        Returns
        -------
        str

        Examples
        --------
        >>> from exactdp import certify_privacy, path, randomized_response
        >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
        >>> CertificateProof(c).html() == c.to_html()
        True
        """
        return '<div class="exactdp-certificate">\n' + blocks_html(certificate_blocks(self.certificate)) + "\n</div>\n"

