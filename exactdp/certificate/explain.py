"""``exactdp explain``: re-check a certificate first, then write its worked proof for a reader in one format.

The document is blocks of the one document model (:mod:`exactdp.certificate.sections`): the kernel's answer
(:class:`Recheck`), the certificate's blocks (:class:`~exactdp.certificate.sections.CertificateProof`), written by
the writers of :mod:`exactdp.certificate.blocks`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from .blocks import blocks_html, blocks_latex, blocks_markdown, blocks_text, latex_document
from .inline import tex_escape
from .sections import CertificateProof

__all__ = [
    "EXPLAIN_FORMATS",
    "Explanation",
    "PlainText",
    "Recheck",
    "explain",
]


#: the formats ``exactdp explain`` writes (JSON is the certificate itself: explain is for reading)
EXPLAIN_FORMATS = ("text", "markdown", "latex", "html")

_VERDICT_WORDS = {
    "confirmed": "confirmed -- the independent kernel re-derived the verdict from the file; the proof below is checked",
    "refuted": "REFUTED -- the independent kernel shows that this file does not prove its claim; it is not a proof "
               "and its steps are not shown",
    "not checkable": "not checkable -- UNVERIFIED: the independent kernel could not re-derive the verdict, so the "
                     "proof below is the checker's account, not a checked proof",
}


@dataclass(frozen=True)
class Explanation:
    """What ``exactdp explain`` prints: the re-check's answer, then (unless refuted) the worked proof.

    Built by :func:`explain`.

    Parameters
    ----------
    status : str
        The independent re-check's status: ``confirmed``, ``refuted`` or ``not checkable``.
    detail : str
        The re-check's one-line reason.
    document : str
        The whole text printed: the re-check's answer, then the worked proof unless refuted.
    exit_code : int
        The re-check's exit code: 0 confirmed, 1 refuted, 3 not checkable.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> e = explain(certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3").to_json_str())
    >>> e.status, e.exit_code
    ('confirmed', 0)
    """

    status: str
    detail: str
    document: str
    exit_code: int


def explain(text: str, fmt: str = "text") -> Explanation:
    """Re-check a certificate's JSON with the independent kernel, then render its worked proof for a reader.

    The re-check comes first and its answer heads the document.  A refuted certificate is never presented as
    a proof: the document states the refutation and no steps.  A certificate the kernel cannot check (an
    undecided verdict, a size beyond the kernel's limits, a regime it does not cover) is rendered with the
    proof marked unverified.

    Parameters
    ----------
    text : str
        The certificate file's text (JSON; read strictly, as ``exactdp recheck`` does).
    fmt : {"text", "markdown", "latex", "html"}
        The output format; ``latex`` is a standalone document (:data:`PREAMBLE`).

    Returns
    -------
    Explanation
        The status, the kernel's detail, the document and the exit code.

    Raises
    ------
    ValueError
        Not a certificate (not a JSON object, a repeated key, a missing or unknown field, another schema
        version) or an unknown format.  A kind the kernel does not know is its answer, ``not checkable`` (exit
        code 3), with no proof: the re-check decides, as ``exactdp recheck`` does.

    Examples
    --------
    >>> from exactdp import geometric, path, certify_privacy
    >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
    >>> e = explain(c.to_json_str(), "markdown")
    >>> e.status, e.exit_code
    ('confirmed', 0)
    >>> e.document.splitlines()[0][:61]
    '**Independent re-check: confirmed** -- the independent kernel'
    >>> "**Proof.**" in e.document
    True
    >>> explain("[1, 2]")
    Traceback (most recent call last):
    ...
    ValueError: not a certificate: expected a JSON object
    """
    from ..recheck import recheck
    from .core import Certificate

    if fmt not in EXPLAIN_FORMATS:
        raise ValueError(f"format: expected one of {', '.join(EXPLAIN_FORMATS)}, got {fmt!r}")
    if not text.lstrip().startswith("{"):
        raise ValueError("not a certificate: expected a JSON object")
    res = recheck(text)                         # strict parsing first; ValueError for anything not a certificate
    try:
        cert = Certificate.from_json(text)
    except (KeyError, ValueError) as e:         # a kind or method this exactdp does not render: the re-check's
        cert, missing = None, str(e).strip("'")  # answer (and exit code) stands, without a proof
    word, *rest = _VERDICT_WORDS[res.status].split(" -- ", 1)
    why = rest[0] if rest else ""
    detail = " ".join(res.detail.split())
    body: Any
    if res.status == "refuted":
        body = ""
    elif cert is None:
        body = f"No proof follows: this exactdp cannot render the certificate ({missing})."
    else:
        body = cert
    return Explanation(res.status, detail, _document(fmt, word, why, detail, body), res.exit_code)


@dataclass(frozen=True)
class Recheck:
    """The independent re-check's answer, heading an explained certificate: the word, why, the kernel's detail.

    ``why`` and ``detail`` are plain text (the kernel's words), escaped in every format, never read as Markdown.

    Parameters
    ----------
    word : str
        ``confirmed``, ``REFUTED`` or ``not checkable``.
    why : str
        What the word means for the proof below.
    detail : str
        The kernel's one-line reason.

    Examples
    --------
    >>> r = Recheck("confirmed", "the proof below is checked", "3 inequalities, 1 tight")
    >>> print(r.plain_text())
    re-check: confirmed -- the proof below is checked
    kernel:   3 inequalities, 1 tight
    <BLANKLINE>
    >>> print(r.markdown())
    **Independent re-check: confirmed** -- the proof below is checked.
    <BLANKLINE>
    *What the kernel says:* 3 inequalities, 1 tight
    """

    word: str
    why: str
    detail: str

    def plain_text(self) -> str:
        """Return the ``re-check:`` and ``kernel:`` lines, then a blank line (the proof follows).

        Returns
        -------
        str

        Examples
        --------
        >>> Recheck("confirmed", "checked", "ok").plain_text()
        're-check: confirmed -- checked\\nkernel:   ok\\n'
        """
        return f"re-check: {self.word} -- {self.why}\nkernel:   {self.detail}\n"

    def markdown(self) -> str:
        """Return the answer in bold and the kernel's words, Markdown's marks in them escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> Recheck("confirmed", "checked", "x_1 *").markdown().splitlines()[-1]
        '*What the kernel says:* x\\\\_1 \\\\*'
        """
        return (f"**Independent re-check: {self.word}** -- {self.why}.\n\n"
                f"*What the kernel says:* {_md_escape(self.detail)}")

    def latex(self) -> str:
        """Return the answer as a ``\\paragraph`` and the kernel's words, escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> Recheck("confirmed", "checked", "50%").latex().splitlines()[-1]
        '\\\\emph{What the kernel says:} 50\\\\%'
        """
        return (r"\paragraph{Independent re-check: " + tex_escape(self.word) + ".} " + tex_escape(self.why) + ".\n\n"
                r"\emph{What the kernel says:} " + tex_escape(self.detail))

    def html(self) -> str:
        """Return the answer and the kernel's words as two ``<p>`` elements, escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> Recheck("confirmed", "checked", "a < b").html().splitlines()[-1]
        '<p><em>What the kernel says:</em> a &lt; b</p>'
        """
        return (f"<p><strong>Independent re-check: {html.escape(self.word)}</strong> -- {html.escape(self.why)}.</p>\n"
                f"<p><em>What the kernel says:</em> {html.escape(self.detail)}</p>")


@dataclass(frozen=True)
class PlainText:
    """A paragraph of plain text (not Markdown): every mark in it is shown as it is, in every format.

    Parameters
    ----------
    text : str
        The text.

    Examples
    --------
    >>> PlainText("a_1 *b*").markdown(), PlainText("a_1 *b*").latex(), PlainText("a < b").html()
    ('a\\\\_1 \\\\*b\\\\*', 'a\\\\_1 *b*', '<p>a &lt; b</p>')
    """

    text: str

    def plain_text(self) -> str:
        """Return the text.

        Returns
        -------
        str

        Examples
        --------
        >>> PlainText("a_1").plain_text()
        'a_1'
        """
        return self.text

    def markdown(self) -> str:
        """Return the text with Markdown's marks escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> PlainText("$5").markdown()
        '\\\\$5'
        """
        return _md_escape(self.text)

    def latex(self) -> str:
        """Return the text with LaTeX's special characters escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> PlainText("$5").latex()
        '\\\\$5'
        """
        return tex_escape(self.text)

    def html(self) -> str:
        """Return the text, escaped, in a ``<p>``.

        Returns
        -------
        str

        Examples
        --------
        >>> PlainText("<b>").html()
        '<p>&lt;b&gt;</p>'
        """
        return f"<p>{html.escape(self.text)}</p>"


#: the writer of each format (``exactdp explain``)
_WRITERS = {"text": blocks_text, "markdown": blocks_markdown, "latex": blocks_latex, "html": blocks_html}


def _document(fmt: str, word: str, why: str, detail: str, body: Any) -> str:
    """The explanation in ``fmt``: the re-check's answer, then ``body`` (a certificate's proof, a sentence, or '').

    One list of blocks, written by the format's writer; LaTeX is a standalone document.
    """
    blocks: list = [Recheck(word, why, detail)]
    if not isinstance(body, str):
        blocks.append(CertificateProof(body))
    elif body:                                  # a sentence instead of a proof ('' for none)
        blocks.append(PlainText(body))
    doc = _WRITERS[fmt](blocks).rstrip("\n") + "\n"
    return latex_document("A certificate, explained", doc) if fmt == "latex" else doc


def _md_escape(s: str) -> str:
    """Kernel text inside Markdown: ``*``, ``_``, `````, ``$`` and ``|`` shown literally."""
    return re.sub(r"([*_`$|\\])", r"\\\1", s)
