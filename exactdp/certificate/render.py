"""Rendering a certificate from its evidence alone: text, Markdown, LaTeX, HTML (docs/architecture.md#sec-certificates).

Each certificate kind has one renderer, registered with :func:`renderer`,
that turns the typed evidence into a :class:`Proof`: the claim as a formula,
the worked steps (definitions, the reduction used, each step with exact
numbers), the conclusion, and a short plain-text summary.  The renderer never
recomputes anything: what the proof says is what the evidence holds.

There is one document model (docs/architecture.md#sec-document): the ``Proof`` becomes the typed blocks of
:mod:`exactdp.certificate.sections` (:func:`~exactdp.certificate.sections.certificate_blocks`), and the four
views below are thin calls of that module's four writers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterable
from .records import load_kinds

if TYPE_CHECKING:
    from .core import Certificate

__all__ = [
    "Proof",
    "Step",
    "as_html",
    "as_latex",
    "as_markdown",
    "as_text",
    "md_html",
    "plain",
    "plain_math",
    "proof_of",
    "renderer",
    "renderers",
    "tex_text",
]


@dataclass
class Step:
    """One step of a worked proof: a title and Markdown text (``$...$`` for math), optional LaTeX.

    Parameters
    ----------
    title : str
        Short title (``"Definition"``, ``"Reduction"``, ...).
    markdown : str
        The step's text; math between ``$...$``.
    latex : str, default ""
        A LaTeX version when the Markdown does not translate (else derived).

    Examples
    --------
    >>> Step("Definition", "$K$ is private.").title
    'Definition'
    """

    title: str
    markdown: str
    latex: str = ""


@dataclass
class Proof:
    """A worked proof: the claim as a formula, the steps, the conclusion and a plain-text summary.

    Parameters
    ----------
    claim_latex : str
        The claim as a LaTeX formula.
    steps : list of Step
        The worked steps, in order.
    conclusion : str
        The last sentence.
    summary : list of tuple
        ``(label, value)`` lines for the text view.
    value_only : bool, default False
        The certificate computes a value rather than deciding a property.

    Examples
    --------
    >>> p = Proof(r"K(x)(z) \\le 2 K(x')(z)", [Step("Check", "every ratio is at most $2$")], "Private.")
    >>> len(p.steps), p.conclusion
    (1, 'Private.')
    """

    claim_latex: str
    steps: list = field(default_factory=list)
    conclusion: str = ""
    #: (label, value) lines for the text view: plain words and exact numbers, no LaTeX
    summary: list = field(default_factory=list)
    #: the certificate computes a value (e.g. a leakage) rather than deciding a property: no verdict line
    value_only: bool = False

    # -- a block of the one document model (docs/architecture.md#sec-document): what a renderer returns is
    # written by the model's four writers, through the Summary and Steps blocks it stands for
    def blocks(self, brief: bool = False) -> list:
        """The document model's blocks of this proof: its Summary (when it has one) and its Steps.

        Its :class:`~exactdp.certificate.sections.Summary` and :class:`~exactdp.certificate.sections.Steps` (the
        text view's ``brief`` leaves the steps out).

        Parameters
        ----------
        brief : bool, default False
            The steps left out (the text view of ``Certificate.to_text``).

        Returns
        -------
        list
            The blocks, in reading order.

        Examples
        --------
        >>> p = Proof("x", [Step("Check", "every ratio is at most $2$")], "Private.", [("ratio", "2")])
        >>> [type(b).__name__ for b in p.blocks()]
        ['Summary', 'Steps']
        """
        from .blocks import parse_markdown
        from .sections import Steps, Summary

        head = [Summary(tuple(tuple(r) for r in self.summary))] if self.summary else []
        steps = tuple((s.title, tuple(parse_markdown(s.markdown)), s.latex) for s in self.steps)
        return [*head, Steps(steps, self.conclusion, brief)]

    def plain_text(self) -> str:
        """The proof as plain text, by the model's text writer.

        Returns
        -------
        str
            The proof in plain text.

        Examples
        --------
        >>> print(Proof("x", [Step("Check", "at most $2$")], "Private.").plain_text())
        proof:
          1. Check. at most 2
        conclusion: Private.
        """
        from .blocks import blocks_text

        return blocks_text(self.blocks())

    def markdown(self) -> str:
        """The proof as Markdown, by the model's Markdown writer.

        Returns
        -------
        str
            The proof in Markdown.

        Examples
        --------
        >>> Proof("x", [Step("Check", "at most $2$")], "Private.").markdown().splitlines()[0]
        '**Proof.**'
        """
        from .blocks import blocks_markdown

        return blocks_markdown(self.blocks())

    def latex(self) -> str:
        r"""The proof as LaTeX, by the model's LaTeX writer.

        Returns
        -------
        str
            The proof in LaTeX.

        Examples
        --------
        >>> r"\begin{proof}" in Proof("x", [Step("Check", "at most $2$")], "Private.").latex()
        True
        """
        from .blocks import blocks_latex

        return blocks_latex(self.blocks())

    def html(self) -> str:
        """The proof as HTML, by the model's HTML writer.

        Returns
        -------
        str
            The proof in HTML.

        Examples
        --------
        >>> "<li>" in Proof("x", [Step("Check", "at most $2$")], "Private.").html()
        True
        """
        from .blocks import blocks_html

        return blocks_html(self.blocks())


_RENDERERS: dict = {}


def label_text(label: Any) -> str:
    """A point's label as a reader writes it: a product label ``"0,0"`` is the tuple ``(0,0)``.

    Parameters
    ----------
    label : object
        A point label (printed with ``str``).

    Returns
    -------
    str
        The label, in parentheses when it is a product label.

    Examples
    --------
    >>> label_text("4"), label_text("1,1,1,1,4")
    ('4', '(1,1,1,1,4)')
    """
    t = str(label)
    return f"({t})" if "," in t else t


def set_text(labels: Iterable[Any]) -> str:
    """A set of labels typeset as a set: ``{(0,0)}``, ``{a, b}``, and the empty set as ``{}``.

    Parameters
    ----------
    labels : iterable
        Point labels.

    Returns
    -------
    str
        The set, each label as :func:`label_text` writes it.

    Examples
    --------
    >>> set_text(["0,0"]), set_text(["a", "b"]), set_text([])
    ('{(0,0)}', '{a, b}', '{}')
    """
    return "{" + ", ".join(label_text(x) for x in labels) + "}"


def renderer(kind: str) -> Callable[[Callable[[Any], Proof]], Callable[[Any], Proof]]:
    """Return a decorator registering ``fn(certificate) -> Proof`` as the renderer of ``kind``.

    One renderer per kind builds the worked proof from the evidence alone
    (docs/architecture.md#sec-certificates: decide, render, re-check).

    Parameters
    ----------
    kind : str
        The certificate kind.

    Returns
    -------
    callable
        The decorator; it returns ``fn`` unchanged.

    Raises
    ------
    ValueError
        (from the decorator) Another function is already registered for ``kind``.

    Examples
    --------
    >>> @renderer("privacy")
    ... def other(cert):
    ...     return Proof("")
    Traceback (most recent call last):
    ...
    ValueError: renderer for 'privacy' registered twice
    """
    def deco(fn: Callable[[Any], Proof]) -> Callable[[Any], Proof]:
        if kind in _RENDERERS and _RENDERERS[kind] is not fn:
            raise ValueError(f"renderer for {kind!r} registered twice")
        _RENDERERS[kind] = fn
        return fn
    return deco


def renderers() -> dict:
    """Return the registered renderers: certificate kind -> ``fn(certificate) -> Proof``.

    Returns
    -------
    dict
        A copy of the registry, with every package's ``evidence`` module loaded (where renderers are declared).

    Examples
    --------
    >>> renderers()["profile"] is renderers()["composition"]
    True
    """
    load_kinds()
    return dict(_RENDERERS)


def proof_of(cert: Certificate) -> Proof:
    """The worked proof of a certificate, built by the renderer registered for its kind.

    Parameters
    ----------
    cert : Certificate
        Any certificate whose kind has a renderer (``@renderer``).

    Returns
    -------
    Proof
        The claim in LaTeX, the numbered steps, the summary rows and the conclusion.

    Raises
    ------
    LookupError
        No renderer is registered for the certificate's kind.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> p = proof_of(certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3"))
    >>> len(p.steps) > 0, p.value_only
    (True, False)
    """
    fn = _RENDERERS.get(cert.kind)
    if fn is None:
        raise LookupError(f"no renderer registered for certificate kind {cert.kind!r}")
    return fn(cert)


#: LaTeX commands whose plain text is not their own name; every other command reads as its name (``\pi`` -> ``pi``,
#: ``\sum`` -> ``sum``, ``\Phi`` -> ``Phi``): no command is ever dropped
_PLAIN_WORDS = {"varepsilon": "eps", "epsilon": "eps", "le": "<=", "leq": "<=", "ge": ">=", "geq": ">=", "ne": "!=",
                "neq": "!=", "infty": "inf", "cdot": "*", "times": "x", "notin": "not in", "setminus": "minus",
                "subseteq": "subset of", "subset": "subset of", "cup": "union", "bigcup": "union", "cap": "intersect",
                "bigcap": "intersection",
                "sim": "~", "equiv": "==", "dots": "...", "ldots": "...", "cdots": "...", "to": "->",
                "mapsto": "->", "Rightarrow": "=>", "iff": "<=>", "pm": "+-", "approx": "~=", "lt": "<", "gt": ">",
                "left": "", "right": "", "big": "", "Big": "", "bigl": "", "bigr": "", "quad": " ", "qquad": " "}
#: one-character commands: spacing and escaped delimiters
_PLAIN_SYMBOLS = {",": " ", ";": " ", ":": " ", "!": "", " ": " ", "|": "||", "\\": " "}
#: commands whose one argument is shown as it is (fonts, text)
_PLAIN_FONTS = {"mathbb", "mathbf", "mathrm", "mathtt", "mathcal", "mathit", "mathsf", "text", "textrm", "textbf",
                "textit", "texttt", "operatorname", "boldsymbol", "emph"}
_CMD = re.compile(r"\\([a-zA-Z]+)")


def _atom(s: str) -> str:
    """``s`` as an operand of ``/``, ``^`` or ``_``: bare when it is a number, a name, a call ``log(2)`` or ``*``, else
    in parentheses (``D_1`` too: ``m_(D_1)``)."""
    s = s.strip()
    return s if re.fullmatch(r"[A-Za-z0-9.']+(\([^()]*\))?|\*", s) else f"({s})"


def _math_arg(s: str, i: int) -> tuple[str, int]:
    """One argument of a command, ``^`` or ``_`` at ``s[i]``: a group, a command or a character (text, next index)."""
    while i < len(s) and s[i] == " ":
        i += 1
    if i >= len(s):
        return "", i
    if s[i] == "{":
        return _math_seq(s, i + 1, closing=True)
    if s[i] == "\\":
        return _math_command(s, i)
    return s[i], i + 1


def _math_command(s: str, i: int) -> tuple[str, int]:
    """The command at ``s[i] == '\\'`` with its arguments, as plain text, and the index after it."""
    m = _CMD.match(s, i)
    if m is None:
        c = s[i + 1:i + 2]
        return _PLAIN_SYMBOLS.get(c, c), i + 2
    name, i = m.group(1), m.end()
    if name in ("frac", "dfrac", "tfrac"):
        a, i = _math_arg(s, i)
        b, i = _math_arg(s, i)
        return f"{_atom(a)}/{_atom(b)}", i
    if name == "sqrt" and s.startswith("[", i) and "]" in s[i:]:
        j = s.index("]", i)
        n = s[i + 1:j]
        x, i = _math_arg(s, j + 1)
        return f"{_atom(x)}^(1/{n})", i
    if name in ("sqrt", "hat", "tilde", "bar", "overline", "widehat", "widetilde", "vec"):
        x, i = _math_arg(s, i)
        return f"{name}({x.strip()})", i
    if name in _PLAIN_FONTS:
        return _math_arg(s, i)
    return _PLAIN_WORDS.get(name, name), i


def _math_seq(s: str, i: int, closing: bool = False) -> tuple[str, int]:
    """Math from ``s[i]`` to the ``}`` that closes the group (``closing``) or to the end: plain text, next index."""
    out, prev_cmd = "", False
    while i < len(s):
        ch = s[i]
        if ch == "}":
            if closing:
                return out, i + 1
            piece, i = "", i + 1                  # an unmatched brace is markup, not content
        elif ch == "{":
            piece, i = _math_seq(s, i + 1, closing=True)
        elif ch in "^_":
            arg, i = _math_arg(s, i + 1)
            piece = ch + _atom(arg) if arg.strip() else ch
        elif ch == "\\":
            piece, i = _math_command(s, i)
        else:
            piece, i = ch, i + 1
        if (prev_cmd or ch == "\\") and out[-1:].isalnum() and piece[:1].isalnum():
            out += " "                            # \\mu\\Phi is "mu Phi", 2\\alpha is "2 alpha"
        out, prev_cmd = out + piece, ch == "\\"
    return out, i


def plain_math(s: str) -> str:
    """LaTeX math as readable plain text: commands as words or ASCII symbols, never dropped.

    Parameters
    ----------
    s : str
        Inline LaTeX math (the inside of ``$...$``).

    Returns
    -------
    str
        Plain text: ``\\pi`` is ``pi``, ``\\le`` is ``<=``, ``\\frac{a}{b}`` is ``a/b``, ``e^{-x}`` is ``e^(-x)``.

    Examples
    --------
    >>> plain_math(r"\\pi = \\mu\\Phi, \\ \\phi_{yy'} = e^{-\\varepsilon d(y,y')}")
    "pi = mu Phi, phi_yy' = e^(-eps d(y,y'))"
    >>> plain_math(r"\\sum_{y'} \\frac{1}{1 + \\alpha^{2}} \\le \\mathbb{R}")
    "sum_y' 1/(1 + alpha^2) <= R"
    """
    return " ".join(_math_seq(s, 0)[0].split())


_BOLD = re.compile(r"(?<![\w*])\*\*(?=\S)(.+?)(?<=\S)\*\*(?![\w*])")
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")


def _plain_text(s: str) -> str:
    """Markdown text outside math without its markup: ``**b**``, ``*i*``, backticks, backslash escapes.

    A star inside a word is text (``2*alpha**2 - 1`` keeps its product and its power).
    """
    s = _ITALIC.sub(r"\1", _BOLD.sub(r"\1", s)).replace("`", "")
    return re.sub(r"\\([\\`*_$|{}\[\]()#+.!-])", r"\1", s)


def plain(s: str) -> str:
    """Markdown-with-math to plain text: math (``$...$``) by :func:`plain_math`, the rest without its markup.

    Parameters
    ----------
    s : str
        Inline Markdown with ``$...$`` LaTeX math.

    Returns
    -------
    str
        The text without markup; no symbol is dropped.

    Examples
    --------
    >>> plain(r"**so** $\\frac{1}{2} \\le x$")
    'so 1/2 <= x'
    >>> plain(r"*K* is private iff $\\pi = \\mu \\Phi$ at 2*alpha**2 - 1")
    'K is private iff pi = mu Phi at 2*alpha**2 - 1'
    """
    parts = s.replace("$$", "$").split("$")
    if len(parts) % 2 == 0:                     # an unmatched $ is a literal dollar sign
        parts[-2:] = [parts[-2] + "$" + parts[-1]]
    return "".join(plain_math(p) if k % 2 else _plain_text(p) for k, p in enumerate(parts))


def as_text(cert: Certificate) -> str:
    """The certificate as plain text: claim, verdict, method, reason, summary rows and conclusion, one a line.

    The brief text view of :func:`exactdp.certificate.sections.certificate_blocks`, written by
    :func:`exactdp.certificate.sections.blocks_text` (``exactdp explain`` adds the steps).

    Parameters
    ----------
    cert : Certificate
        The certificate.

    Returns
    -------
    str
        Lines ``name: value``, ending in a newline.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
    >>> as_text(c).splitlines()[:2] == ["claim:   " + c.claim, "verdict: holds"]
    True
    """
    from .sections import blocks_text, certificate_blocks

    return blocks_text(certificate_blocks(cert, brief=True)) + "\n"


def as_markdown(cert: Certificate) -> str:
    """The certificate's worked proof in Markdown: claim, verdict, method, the numbered steps, the conclusion.

    :func:`exactdp.certificate.sections.certificate_blocks` written by
    :func:`exactdp.certificate.sections.blocks_markdown`.

    Parameters
    ----------
    cert : Certificate
        The certificate.

    Returns
    -------
    str
        Markdown with ``$...$`` math, ending in a newline.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> c = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3")
    >>> md = as_markdown(c)
    >>> md.startswith("**Claim.** " + c.claim), "**Verdict.** holds" in md, "**Proof.**" in md
    (True, True, True)
    """
    from .sections import blocks_markdown, certificate_blocks

    return blocks_markdown(certificate_blocks(cert)) + "\n"


def as_latex(cert: Certificate) -> str:
    """The certificate's worked proof in LaTeX (a ``proof`` environment with an ``enumerate`` of the steps).

    :func:`exactdp.certificate.sections.certificate_blocks` written by
    :func:`exactdp.certificate.sections.blocks_latex`.

    Parameters
    ----------
    cert : Certificate
        The certificate.

    Returns
    -------
    str
        LaTeX text (amsthm's ``proof``), for a document such as :func:`exactdp.certificate.sections.latex_document`.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> tex = as_latex(certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3"))
    >>> tex.startswith("\\\\paragraph{Claim.} "), "\\\\begin{proof}" in tex, "\\\\paragraph{Verdict.} holds." in tex
    (True, True, True)
    """
    from .sections import blocks_latex, certificate_blocks

    return blocks_latex(certificate_blocks(cert))


def tex_text(s: str) -> str:
    """Inline Markdown to LaTeX text: :func:`exactdp.certificate.sections.inline_latex`, the one converter.

    Parameters
    ----------
    s : str
        Inline Markdown: ``$...$`` math (kept), ``**bold**``, ``*emphasis*``, ```code```; an unmatched ``$`` is a
        literal dollar sign.

    Returns
    -------
    str
        LaTeX text.

    Examples
    --------
    >>> print(tex_text("50% of *d_h* is $x_1$, **not** `y` or $5"))
    50\\% of \\emph{d\\_h} is $x_1$, \\textbf{not} \\texttt{y} or \\$5
    """
    # Imported here: sections imports this module (label_text, plain), and the converter lives there, in the
    # document model; one converter, so the two LaTeX paths cannot disagree again (issue 31, item 3).
    from .sections import inline_latex

    return inline_latex(s)


def md_html(text: str) -> str:
    """The small Markdown subset the renderers write as HTML, every character of the text escaped.

    The subset (:func:`exactdp.certificate.sections.parse_markdown`): paragraphs, ``- `` and ``1. `` lists,
    ``|`` tables, ``$$`` display math, inline bold/italics/code and ``$`` math; written by
    :func:`exactdp.certificate.sections.blocks_html`.

    Parameters
    ----------
    text : str
        Markdown in that subset.

    Returns
    -------
    str
        HTML (``<p>``, ``<ul>``, ``<ol>``, ``<table>`` elements).

    Examples
    --------
    >>> md_html("**a** < b and $x < y$")
    '<p><strong>a</strong> &lt; b and $x &lt; y$</p>'
    """
    from .sections import blocks_html, parse_markdown

    return blocks_html(parse_markdown(text))


def as_html(cert: Certificate) -> str:
    """The worked proof as an HTML fragment (the notebook view), rendered from the evidence alone.

    :func:`exactdp.certificate.sections.certificate_blocks` written by
    :func:`exactdp.certificate.sections.blocks_html`, in one ``<div>``.

    Parameters
    ----------
    cert : Certificate
        The certificate.

    Returns
    -------
    str
        One ``<div class="exactdp-certificate">`` element.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> h = as_html(certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3"))
    >>> h.startswith('<div class="exactdp-certificate">'), h.rstrip().endswith("</div>")
    (True, True)
    """
    from .sections import CertificateProof, blocks_html

    return blocks_html([CertificateProof(cert)]) + "\n"
