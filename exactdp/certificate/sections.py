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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .render import label_text, plain, plain_math, set_text

__all__ = [
    "EXPLAIN_FORMATS",
    "NOTE_LABEL",
    "PREAMBLE",
    "Blocks",
    "CertRef",
    "CertificateProof",
    "Claim",
    "Display",
    "Explanation",
    "Field",
    "Flag",
    "Label",
    "LabelSet",
    "List",
    "Missing",
    "Paragraph",
    "PlainText",
    "Recheck",
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
    "explain",
    "inline_html",
    "inline_latex",
    "latex_document",
    "parse_markdown",
    "tex_escape",
]


# -- inline text ------------------------------------------------------------------------------------------------------
_ESC = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
        "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "$": r"\$"}
_SPECIAL = re.compile(r"[\\&%#_{}~^$]")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_EMPH = re.compile(r"(?:(?<=^)|(?<=[\s(]))\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")


def tex_escape(s: str) -> str:
    """Plain text as LaTeX text: every special character escaped (``_ % & # { } ~ ^ \\ $``).

    Parameters
    ----------
    s : str
        Plain text (no markup).

    Returns
    -------
    str
        LaTeX text that typesets ``s`` literally.

    Examples
    --------
    >>> print(tex_escape("d_h & 50% of {x}"))
    d\\_h \\& 50\\% of \\{x\\}
    """
    return _SPECIAL.sub(lambda m: _ESC[m.group(0)], s)


def _text_latex(part: str) -> str:
    """A piece of inline Markdown outside math and code: escaped, then bold and emphasis."""
    part = tex_escape(part)
    part = _BOLD.sub(r"\\textbf{\1}", part)
    return _EMPH.sub(r"\\emph{\1}", part)


#: stands for a finished code or math span while the text around it is escaped and marked up (a private-use
#: character, taken out of the input first, so no text can forge one)
_HOLD = "\ue000"
_HELD = re.compile(_HOLD + r"(\d+)" + _HOLD)


def _pairs(s: str, mark: str) -> list[str]:
    """``s`` split at ``mark``: odd pieces are the spans between a pair; an unmatched last mark is literal text."""
    parts = s.split(mark)
    if len(parts) % 2 == 0:
        parts[-2:] = [parts[-2] + mark + parts[-1]]
    return parts


def _inline(s: str, code: Any, math: Any, text: Any) -> str:
    """Inline Markdown in one pass shared by both converters: code spans, then math, then the text around them.

    ``code`` and ``math`` write a span's inside, ``text`` escapes and marks up what lies between the spans.  The
    order is Markdown's: a code span comes first (a ``$`` in it is text), then math; marks pair from the left and
    an unmatched last ``$`` or backtick is a literal character (:func:`_pairs`).
    """
    held: list[str] = []

    def hold(out: str) -> str:
        held.append(out)
        return f"{_HOLD}{len(held) - 1}{_HOLD}"

    t = "".join(hold(code(c)) if j % 2 else c for j, c in enumerate(_pairs(s.replace(_HOLD, ""), "`")))
    # an empty span ``$$`` is two dollar signs, not math: in LaTeX ``$$`` would open display math and not compile
    t = "".join((hold(math(m)) if m else "$$") if k % 2 else m for k, m in enumerate(_pairs(t, "$")))
    out = text(t)
    for _ in range(2):                          # a code span held inside a math span is itself held: two levels
        out = _HELD.sub(lambda m: held[int(m.group(1))], out)
    return out


def inline_latex(s: str) -> str:
    """Inline Markdown (``$math$``, ``**bold**``, ``*emphasis*``, ```code```) as LaTeX: the one converter.

    As in Markdown, a code span comes first (a ``$`` in it is text), then math: what lies between two ``$`` is
    kept as written (it is LaTeX already); everything else is escaped.  Marks pair from the left; with an odd
    number of ``$`` (or backticks) the last one is unmatched and is a literal character, written ``\\$`` (a
    backtick stays a backtick), and an empty span ``$$`` is two dollar signs, so the result always compiles.
    Bold and emphasis are applied after the spans are set aside, so they may enclose math and code.
    :func:`exactdp.certificate.render.tex_text` calls this; :func:`inline_html` is its HTML twin (the same pass).

    Parameters
    ----------
    s : str
        One line or paragraph of the renderers' Markdown.

    Returns
    -------
    str
        LaTeX text.

    Examples
    --------
    >>> print(inline_latex(r"pi is regular **iff** $a \\le 1/2$, see `d_h` and *Prop. 5*"))
    pi is regular \\textbf{iff} $a \\le 1/2$, see \\texttt{d\\_h} and \\emph{Prop. 5}
    >>> print(inline_latex("**$x$ with `c`** costs $5"))
    \\textbf{$x$ with \\texttt{c}} costs \\$5
    """
    return _inline(s, lambda c: r"\texttt{" + tex_escape(c) + "}", lambda m: "$" + m + "$", _text_latex)


#: emphasis in HTML: as :data:`_EMPH`, but never across a tag (``**x *y** z*`` must not cross ``</strong>``)
_EMPH_HTML = re.compile(r"(?:(?<=^)|(?<=[\s(]))\*(?=\S)([^*<]+?)(?<=\S)\*(?![\w*])")


def _text_html(part: str) -> str:
    """A piece of inline Markdown outside math and code as HTML: escaped, then bold and emphasis."""
    part = _BOLD.sub(r"<strong>\1</strong>", html.escape(part, quote=False))
    return _EMPH_HTML.sub(r"<em>\1</em>", part)


def inline_html(s: str) -> str:
    """Inline Markdown as HTML: the one converter, the twin of :func:`inline_latex`.

    Every character of the text is escaped; ``$...$`` math is kept (escaped) for MathJax, code spans are
    ``<code>``, ``**bold**`` is ``<strong>``, ``*emphasis*`` is ``<em>``.  Marks pair from the left as in
    :func:`inline_latex` (an unmatched ``$`` is a dollar sign), and every tag opened is closed in order.

    Parameters
    ----------
    s : str
        One line of the renderers' Markdown.

    Returns
    -------
    str
        HTML text (no block element).

    Examples
    --------
    >>> print(inline_html("**a** < b, *c* and `x<y` at $x < y$, costs $5"))
    <strong>a</strong> &lt; b, <em>c</em> and <code>x&lt;y</code> at $x &lt; y$, costs $5
    """
    return _inline(s, lambda c: "<code>" + html.escape(c, quote=False) + "</code>",
                   lambda m: "$" + html.escape(m, quote=False) + "$", _text_html)


# -- typed cells ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Text:
    """A cell of inline Markdown text (``$math$`` allowed).

    Parameters
    ----------
    text : str
        The cell's inline Markdown.

    Examples
    --------
    >>> Text("$x_1$ is **exact**").latex()
    '$x_1$ is \\\\textbf{exact}'
    """

    text: str

    def markdown(self) -> str:
        """Return the text as written (it is Markdown already).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("$x_1$ is **exact**").markdown()
        '$x_1$ is **exact**'
        """
        return self.text

    def latex(self) -> str:
        """Return the text as LaTeX (see :func:`inline_latex`).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("50% of $x_1$").latex()
        '50\\\\% of $x_1$'
        """
        return inline_latex(self.text)

    def plain_text(self) -> str:
        """Return the text as plain text (:func:`exactdp.certificate.render.plain`).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("$x_1$ is **exact**").plain_text()
        'x_1 is exact'
        """
        return plain(self.text)

    def html(self) -> str:
        """Return the text as HTML (see :func:`inline_html`).

        Returns
        -------
        str

        Examples
        --------
        >>> Text("$x$ < **y**").html()
        '$x$ &lt; <strong>y</strong>'
        """
        return inline_html(self.text)


@dataclass(frozen=True)
class Label:
    """A point label: a product label ``"1,1,4"`` is the tuple ``(1,1,4)``.

    Parameters
    ----------
    label : object
        The label as the metric names the point (a string, or an int).

    Examples
    --------
    >>> Label("1,1,4").markdown(), Label(3).markdown()
    ('(1,1,4)', '3')
    """

    label: Any

    def markdown(self) -> str:
        """Return the label as a reader writes it (a product label as a tuple).

        Returns
        -------
        str

        Examples
        --------
        >>> Label("0,2").markdown()
        '(0,2)'
        """
        return label_text(self.label)

    def latex(self) -> str:
        """Return the label as LaTeX math.

        Returns
        -------
        str

        Examples
        --------
        >>> Label("x_1").latex()
        '$x\\\\_1$'
        """
        return "$" + tex_escape(label_text(self.label)) + "$"

    def plain_text(self) -> str:
        """Return the label as a reader writes it (as :meth:`markdown`).

        Returns
        -------
        str

        Examples
        --------
        >>> Label("0,2").plain_text()
        '(0,2)'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the label as HTML text, escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> Label("<a>").html()
        '&lt;a&gt;'
        """
        return html.escape(label_text(self.label), quote=False)


@dataclass(frozen=True)
class LabelSet:
    """A set of point labels, typeset as a set: ``{(0,0), (1,0)}``; the empty set is ``{}``.

    Parameters
    ----------
    labels : tuple
        The labels, in the order they are written.

    Examples
    --------
    >>> LabelSet(("0,0", "1,0")).markdown(), LabelSet(()).latex()
    ('{(0,0), (1,0)}', '$\\\\emptyset$')
    """

    labels: tuple

    def markdown(self) -> str:
        """Return the set as a reader writes it, in braces.

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("a", "b")).markdown()
        '{a, b}'
        """
        return set_text(self.labels)

    def latex(self) -> str:
        """Return the set as LaTeX math (``\\emptyset`` when empty).

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("0,0", "1,0")).latex()
        '$\\\\{(0,0), (1,0)\\\\}$'
        """
        if not self.labels:
            return r"$\emptyset$"
        return r"$\{" + ", ".join(tex_escape(label_text(x)) for x in self.labels) + r"\}$"

    def plain_text(self) -> str:
        """Return the set as a reader writes it (as :meth:`markdown`).

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("a",)).plain_text()
        '{a}'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the set as HTML text, escaped.

        Returns
        -------
        str

        Examples
        --------
        >>> LabelSet(("0,0", "<b>")).html()
        '{(0,0), &lt;b&gt;}'
        """
        return html.escape(set_text(self.labels), quote=False)


@dataclass(frozen=True)
class Flag:
    """A yes/no answer (never ``True``/``False``).

    Parameters
    ----------
    value : bool
        The answer.

    Examples
    --------
    >>> Flag(True).markdown(), Flag(False).latex()
    ('yes', 'no')
    """

    value: bool

    def markdown(self) -> str:
        """Return ``yes`` or ``no``.

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(False).markdown()
        'no'
        """
        return "yes" if self.value else "no"

    def latex(self) -> str:
        """Return ``yes`` or ``no`` (the same words in LaTeX).

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(True).latex()
        'yes'
        """
        return self.markdown()

    def plain_text(self) -> str:
        """Return the same words as :meth:`markdown`.

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(True).plain_text()
        'yes'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the same words as :meth:`markdown` (nothing to escape).

        Returns
        -------
        str

        Examples
        --------
        >>> Flag(True).html()
        'yes'
        """
        return self.markdown()


@dataclass(frozen=True)
class Missing:
    """No value in this cell (``-``).

    Examples
    --------
    >>> Missing().markdown(), Missing().latex()
    ('-', '--')
    """

    def markdown(self) -> str:
        """Return a hyphen, Markdown's mark of an empty cell.

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().markdown()
        '-'
        """
        return "-"

    def latex(self) -> str:
        """Return an en dash (``--`` in LaTeX).

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().latex()
        '--'
        """
        return "--"

    def plain_text(self) -> str:
        """Return the same words as :meth:`markdown`.

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().plain_text()
        '-'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the same words as :meth:`markdown` (nothing to escape).

        Returns
        -------
        str

        Examples
        --------
        >>> Missing().html()
        '-'
        """
        return self.markdown()


@dataclass(frozen=True)
class CertRef:
    """A reference to one of the claim's certificates, by number.

    The number is 1-based, in the order the claim lists its certificates (``exactdp reproduce --recheck``
    re-checks each one).

    Parameters
    ----------
    number : int
        The certificate's position in the claim's list, from 1.

    Examples
    --------
    >>> CertRef(2).markdown()
    'certificate 2'
    """

    number: int

    def markdown(self) -> str:
        """Return ``certificate <number>``.

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(1).markdown()
        'certificate 1'
        """
        return f"certificate {self.number}"

    def latex(self) -> str:
        """Return ``certificate <number>`` (the same words in LaTeX).

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(3).latex()
        'certificate 3'
        """
        return self.markdown()

    def plain_text(self) -> str:
        """Return the same words as :meth:`markdown`.

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(2).plain_text()
        'certificate 2'
        """
        return self.markdown()

    def html(self) -> str:
        """Return the same words as :meth:`markdown` (nothing to escape).

        Returns
        -------
        str

        Examples
        --------
        >>> CertRef(2).html()
        'certificate 2'
        """
        return self.markdown()


def cell(value: Any) -> Text | Label | LabelSet | Flag | Missing | CertRef:
    """One table cell, typed.

    A bool is a :class:`Flag`, None is :class:`Missing`, a list, tuple or set of labels is a :class:`LabelSet`,
    a typed cell stays itself, anything else is :class:`Text` (``str``).

    Parameters
    ----------
    value : object
        The raw cell.

    Returns
    -------
    Text, Label, LabelSet, Flag, Missing or CertRef

    Examples
    --------
    >>> cell(True), cell(None), cell(["1,4"]), cell("1/2")
    (Flag(value=True), Missing(), LabelSet(labels=('1,4',)), Text(text='1/2'))
    """
    if isinstance(value, (Text, Label, LabelSet, Flag, Missing, CertRef)):
        return value
    if isinstance(value, bool):
        return Flag(value)
    if value is None:
        return Missing()
    if isinstance(value, (set, frozenset)):
        return LabelSet(tuple(sorted(value)))
    if isinstance(value, (list, tuple)):
        return LabelSet(tuple(value))
    return Text(str(value))


# -- blocks -----------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Paragraph:
    """A paragraph of inline Markdown; its lines are kept (a line break in Markdown, ``\\\\`` in LaTeX).

    Parameters
    ----------
    text : str
        The paragraph's inline Markdown; a newline is a line break.

    Examples
    --------
    >>> print(Paragraph("First line,\\nsecond *line*.").latex())
    First line, \\\\
    second \\emph{line}.
    <BLANKLINE>
    """

    text: str

    def markdown(self) -> str:
        """Return the paragraph as written (it is Markdown already).

        Returns
        -------
        str

        Examples
        --------
        >>> Paragraph("A $x$.").markdown()
        'A $x$.'
        """
        return self.text

    def latex(self) -> str:
        """Return the paragraph as LaTeX, lines joined by ``\\\\``, ending in a newline.

        Returns
        -------
        str

        Examples
        --------
        >>> Paragraph("A & B").latex()
        'A \\\\& B\\n'
        """
        return " \\\\\n".join(inline_latex(ln) for ln in self.text.split("\n")) + "\n"

    def plain_text(self) -> str:
        """Return the paragraph as plain text, line by line.

        Returns
        -------
        str

        Examples
        --------
        >>> Paragraph("A **b** $x_1$.").plain_text()
        'A b x_1.'
        """
        return "\n".join(plain(ln) for ln in self.text.split("\n"))

    def html(self) -> str:
        """Return the paragraph as a ``<p>`` element, lines joined by ``<br>``.

        Returns
        -------
        str

        Examples
        --------
        >>> Paragraph("a < b\\nc").html()
        '<p>a &lt; b<br>\\nc</p>'
        """
        return "<p>" + "<br>\n".join(inline_html(ln) for ln in self.text.split("\n")) + "</p>"


@dataclass(frozen=True)
class List:
    """A bulleted (or, with ``numbered``, numbered) list of inline Markdown items.

    Parameters
    ----------
    items : tuple of str
        The items, inline Markdown each.
    numbered : bool, default False
        Number the items (``1.``, ``2.``, ...) instead of bullets.

    Examples
    --------
    >>> print(List(("one", "two"), numbered=True).markdown())
    1. one
    2. two
    """

    items: tuple
    numbered: bool = False

    def markdown(self) -> str:
        """Return the list as Markdown: ``- item`` lines, or ``1. item`` when numbered.

        Returns
        -------
        str

        Examples
        --------
        >>> print(List(("a", "b")).markdown())
        - a
        - b
        """
        return "\n".join((f"{k}. " if self.numbered else "- ") + it for k, it in enumerate(self.items, 1))

    def latex(self) -> str:
        """Return the list as a LaTeX ``itemize`` (or, when numbered, ``enumerate``) environment.

        Returns
        -------
        str

        Examples
        --------
        >>> print(List(("a_1", "b"), numbered=True).latex())
        \\begin{enumerate}
        \\item a\\_1
        \\item b
        \\end{enumerate}
        <BLANKLINE>
        """
        env = "enumerate" if self.numbered else "itemize"
        return "\n".join([rf"\begin{{{env}}}"] + [r"\item " + inline_latex(it) for it in self.items]
                         + [rf"\end{{{env}}}"]) + "\n"

    def plain_text(self) -> str:
        """Return the list as plain text: ``- item`` lines, or ``1. item`` when numbered.

        Returns
        -------
        str

        Examples
        --------
        >>> List(("*a*", "b")).plain_text()
        '- a\\n- b'
        """
        return "\n".join((f"{k}. " if self.numbered else "- ") + plain(it) for k, it in enumerate(self.items, 1))

    def html(self) -> str:
        """Return the list as a ``<ul>`` (or, when numbered, ``<ol>``) element.

        Returns
        -------
        str

        Examples
        --------
        >>> List(("a", "**b**")).html()
        '<ul><li>a</li><li><strong>b</strong></li></ul>'
        """
        tag = "ol" if self.numbered else "ul"
        return f"<{tag}>" + "".join(f"<li>{inline_html(it)}</li>" for it in self.items) + f"</{tag}>"


@dataclass(frozen=True)
class Display:
    """Display math (LaTeX), ``$$ ... $$`` in Markdown, ``\\[ ... \\]`` in LaTeX.

    Parameters
    ----------
    latex_math : str
        The formula, in LaTeX (without delimiters).

    Examples
    --------
    >>> Display("e^{\\\\varepsilon}").markdown()
    '$$ e^{\\\\varepsilon} $$'
    """

    latex_math: str

    def markdown(self) -> str:
        """Return the formula between ``$$`` delimiters.

        Returns
        -------
        str

        Examples
        --------
        >>> Display("x^2").markdown()
        '$$ x^2 $$'
        """
        return f"$$ {self.latex_math} $$"

    def latex(self) -> str:
        """Return the formula between ``\\[`` and ``\\]``, ending in a newline.

        Returns
        -------
        str

        Examples
        --------
        >>> print(Display("x^2").latex())
        \\[ x^2 \\]
        <BLANKLINE>
        """
        return rf"\[ {self.latex_math} \]" + "\n"

    def plain_text(self) -> str:
        """Return the formula as plain text (:func:`exactdp.certificate.render.plain_math`), indented.

        Returns
        -------
        str

        Examples
        --------
        >>> Display("\\\\frac{1}{2} \\\\le x").plain_text()
        '    1/2 <= x'
        """
        return "    " + plain_math(self.latex_math)

    def html(self) -> str:
        """Return the formula between ``$$`` delimiters (for MathJax), escaped, in a ``<p>``.

        Returns
        -------
        str

        Examples
        --------
        >>> Display("x < y").html()
        '<p>$$ x &lt; y $$</p>'
        """
        return f"<p>$$ {html.escape(self.latex_math, quote=False)} $$</p>"


@dataclass(frozen=True)
class Table:
    """A table with a header and rows of typed cells (raw values go through :func:`cell`).

    Parameters
    ----------
    header : sequence
        Column titles (inline Markdown).
    rows : iterable of sequences
        The rows; each as long as the header.

    Raises
    ------
    ValueError
        A row with another number of cells than the header.

    Examples
    --------
    >>> Table(["a"], [[1, 2]])
    Traceback (most recent call last):
    ...
    ValueError: table row 1 has 2 cells, the header 1
    """

    header: tuple
    rows: tuple = field(default_factory=tuple)

    def __init__(self, header: Sequence[Any], rows: Iterable[Sequence[Any]] = ()) -> None:
        head = tuple(cell(h) if not isinstance(h, str) else Text(h) for h in header)
        body = tuple(tuple(cell(c) for c in r) for r in rows)
        for k, r in enumerate(body, 1):
            if len(r) != len(head):
                raise ValueError(f"table row {k} has {len(r)} cells, the header {len(head)}")
        object.__setattr__(self, "header", head)
        object.__setattr__(self, "rows", body)

    def markdown(self) -> str:
        """Return the table as a Markdown pipe table (a ``|`` inside a cell is escaped).

        Returns
        -------
        str

        Examples
        --------
        >>> print(Table(["|V|", "ok"], [[3, True]]).markdown())
        | \\|V\\| | ok |
        |---|---|
        | 3 | yes |
        """
        esc = lambda t: t.replace("|", "\\|")  # noqa: E731 -- a bar inside a cell (|V|, |i - j|) is text, not a border
        lines = ["| " + " | ".join(esc(h.markdown()) for h in self.header) + " |", "|" + "---|" * len(self.header)]
        lines += ["| " + " | ".join(esc(c.markdown()) for c in r) + " |" for r in self.rows]
        return "\n".join(lines)

    def latex(self) -> str:
        """Return the table as a centred LaTeX ``tabular``, scaled down to the line width when wider.

        Returns
        -------
        str

        Examples
        --------
        >>> Table(["n", "ok"], [[1, False]]).latex().splitlines()[2:5]
        ['\\\\begin{tabular}{ll}', '\\\\hline', 'n & ok \\\\\\\\']
        """
        row = lambda cs: " & ".join(c.latex() for c in cs) + r" \\"  # noqa: E731
        # a table wider than the line is scaled down to it (graphicx's \resizebox), a narrower one kept as it is
        lines = [r"\begin{center}\small", r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
                 r"\begin{tabular}{" + "l" * len(self.header) + "}", r"\hline", row(self.header), r"\hline"]
        lines += [row(r) for r in self.rows] + [r"\hline", r"\end{tabular}}", r"\end{center}"]
        return "\n".join(lines) + "\n"

    def plain_text(self) -> str:
        """Return the table as plain text: the header, then one line a row, cells parted by ``|``.

        Returns
        -------
        str

        Examples
        --------
        >>> Table(["n", "ok"], [[1, True]]).plain_text()
        'n | ok\\n1 | yes'
        """
        return "\n".join(" | ".join(c.plain_text() for c in r) for r in (self.header, *self.rows))

    def html(self) -> str:
        """Return the table as a ``<table>`` element with a ``<thead>`` and a ``<tbody>``.

        Returns
        -------
        str

        Examples
        --------
        >>> Table(["n"], [["$x$"]]).html()
        '<table><thead><tr><th>n</th></tr></thead><tbody><tr><td>$x$</td></tr></tbody></table>'
        """
        head = "".join(f"<th>{h.html()}</th>" for h in self.header)
        rows = "".join("<tr>" + "".join(f"<td>{c.html()}</td>" for c in r) + "</tr>" for r in self.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


# -- the blocks of a certificate's worked proof (certificate_blocks) -------------------------------------------------
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
    blocks += [Summary(tuple(tuple(r) for r in p.summary))] if p.summary else []
    steps = tuple((s.title, tuple(parse_markdown(s.markdown)), s.latex) for s in p.steps)
    return [*blocks, Steps(steps, p.conclusion, brief)]


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


# -- the Markdown subset the claims wrote by hand, read into blocks -------------------------------------------------
def _split_row(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` inside a cell is a bar, not a border)."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def parse_markdown(text: str) -> list:
    """Read the Markdown subset of the claims' prose into blocks.

    The subset: paragraphs, ``- `` and ``1. `` lists, ``|`` tables and ``$$ ... $$`` display math (blank lines
    separate blocks).

    Parameters
    ----------
    text : str
        Markdown prose.

    Returns
    -------
    list
        :class:`Paragraph`, :class:`List`, :class:`Table` and :class:`Display` blocks.

    Examples
    --------
    >>> blocks = parse_markdown("Some $x$.\\n\\n| a | b |\\n|---|---|\\n| \\\\|V\\\\| | 2 |\\n\\n- one\\n- two")
    >>> [type(b).__name__ for b in blocks]
    ['Paragraph', 'Table', 'List']
    >>> blocks[1].rows, blocks[2].items
    (((Text(text='|V|'), Text(text='2')),), ('one', 'two'))
    """
    blocks: list = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines = [ln.rstrip() for ln in para.split("\n") if ln.strip()]
        if not lines:
            continue
        if all(ln.lstrip().startswith("|") for ln in lines) and len(lines) >= 2 and \
                re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", lines[1].strip()):
            blocks.append(Table(_split_row(lines[0]), [_split_row(ln) for ln in lines[2:]]))
        elif all(ln.startswith("- ") for ln in lines):
            blocks.append(List(tuple(ln[2:] for ln in lines)))
        elif all(re.match(r"\d+\. ", ln) for ln in lines):
            blocks.append(List(tuple(ln.split(". ", 1)[1] for ln in lines), numbered=True))
        elif len(lines) == 1 and lines[0].startswith("$$") and lines[0].endswith("$$") and len(lines[0]) > 4:
            blocks.append(Display(lines[0][2:-2].strip()))
        else:
            blocks.append(Paragraph("\n".join(lines)))
    return blocks


class Blocks(list):
    """A document fragment: blocks and Markdown prose, in order.

    ``+`` with prose or other blocks builds a longer fragment, and prose next to prose stays one string (so
    ``"Two rows:\\n\\n" + Blocks([table]) + "\\n\\nThe first " + "is exact."`` is prose, a table and one
    paragraph).  This is how a claim writes a typed :class:`Table` into the middle of its prose; ``str`` of a
    fragment is its Markdown.

    Parameters
    ----------
    iterable : iterable, optional
        The first blocks and prose strings (as for ``list``).

    Examples
    --------
    >>> f = "Rows:\\n\\n" + Blocks([Table(["n"], [[1]])]) + "\\n\\nThe first " + "is exact."
    >>> [type(b).__name__ for b in as_blocks(f)]
    ['Paragraph', 'Table', 'Paragraph']
    >>> print(f)
    Rows:
    <BLANKLINE>
    | n |
    |---|
    | 1 |
    <BLANKLINE>
    The first is exact.
    """

    def __add__(self, other: Any) -> Blocks:        # type: ignore[override]
        out = Blocks(self)
        out += other
        return out

    def __radd__(self, other: Any) -> Blocks:
        return Blocks(_parts(other)) + self

    def __iadd__(self, other: Any) -> Blocks:        # type: ignore[override,misc]
        for part in _parts(other):
            if isinstance(part, str) and self and isinstance(self[-1], str):
                self[-1] = self[-1] + part
            else:
                self.append(part)
        return self

    def __str__(self) -> str:
        return blocks_markdown(self)


def _parts(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def as_blocks(body: Any) -> list:
    """A section body as blocks.

    Markdown text is read by :func:`parse_markdown`, a block stays a block, a list is flattened.

    Parameters
    ----------
    body : str, block or list
        Markdown prose, one block, or a (nested) list of both.

    Returns
    -------
    list
        The blocks, in order.

    Examples
    --------
    >>> as_blocks(["Two rows:", Table(["n"], [[1], [2]])])[0]
    Paragraph(text='Two rows:')
    """
    if isinstance(body, str):
        return parse_markdown(body)
    if isinstance(body, (list, tuple)):
        return [b for part in body for b in as_blocks(part)]
    return [body]


def blocks_markdown(blocks: Iterable[Any]) -> str:
    """Blocks as Markdown, separated by blank lines.

    Parameters
    ----------
    blocks : iterable
        Blocks and Markdown prose (read by :func:`as_blocks`).

    Returns
    -------
    str
        The Markdown text.

    Examples
    --------
    >>> print(blocks_markdown([Paragraph("A $x$."), List(("a", "b"))]))
    A $x$.
    <BLANKLINE>
    - a
    - b
    """
    return "\n\n".join(t for t in (b.markdown().rstrip() for b in as_blocks(list(blocks))) if t)


def blocks_latex(blocks: Iterable[Any]) -> str:
    """Blocks as LaTeX, separated by blank lines (paragraph breaks).

    Parameters
    ----------
    blocks : iterable
        Blocks and Markdown prose (read by :func:`as_blocks`).

    Returns
    -------
    str
        The LaTeX text.

    Examples
    --------
    >>> print(blocks_latex([Paragraph("A **b** & $x_1$.")]))
    A \\textbf{b} \\& $x_1$.
    <BLANKLINE>
    """
    return "\n".join(t + "\n" for t in (b.latex().rstrip() for b in as_blocks(list(blocks))) if t)


def blocks_text(blocks: Iterable[Any]) -> str:
    """Blocks as plain text: no markup, math as words (:func:`exactdp.certificate.render.plain_math`).

    Blocks are separated by a line break (the text view is read line by line, as ``name: value``); a block
    that ends in a line break is followed by a blank line.

    Parameters
    ----------
    blocks : iterable
        Blocks and Markdown prose (read by :func:`as_blocks`).

    Returns
    -------
    str
        The text, without a final newline.

    Examples
    --------
    >>> print(blocks_text([Paragraph("A **b** and $\\\\alpha^{2}$."), List(("a", "b"))]))
    A b and alpha^2.
    - a
    - b
    """
    return "\n".join(t for t in (b.plain_text().rstrip(" ") for b in as_blocks(list(blocks))) if t)


def blocks_html(blocks: Iterable[Any]) -> str:
    """Blocks as HTML elements, one a line; every character of the text escaped, ``$`` math kept for MathJax.

    Parameters
    ----------
    blocks : iterable
        Blocks and Markdown prose (read by :func:`as_blocks`).

    Returns
    -------
    str
        The HTML.

    Examples
    --------
    >>> print(blocks_html([Paragraph("a < **b**"), List(("$x$",), numbered=True)]))
    <p>a &lt; <strong>b</strong></p>
    <ol><li>$x$</li></ol>
    """
    return "\n".join(t for t in (b.html().rstrip() for b in as_blocks(list(blocks))) if t)


#: the preamble of every generated LaTeX file (pdflatex or lualatex; only packages of every TeX installation)
PREAMBLE = "\n".join([
    r"\documentclass[11pt]{article}",
    r"\usepackage[T1]{fontenc}",
    r"\usepackage[utf8]{inputenc}",
    r"\usepackage{amsmath,amssymb,amsthm,graphicx}",
    r"\usepackage[margin=2cm]{geometry}",
    r"\setlength{\parindent}{0pt}\setlength{\parskip}{0.5em}",
])


def latex_document(title: str, body: str) -> str:
    """A standalone LaTeX document: :data:`PREAMBLE`, the title as a section and ``body``.

    Parameters
    ----------
    title : str
        Plain text (escaped here).
    body : str
        LaTeX.

    Returns
    -------
    str
        A file that ``pdflatex`` compiles on its own.

    Examples
    --------
    >>> doc = latex_document("GRS12-ex2.1: GRS12 Example 2.1", "Text.")
    >>> doc.splitlines()[-1], r"\\section*{GRS12-ex2.1: GRS12 Example 2.1}" in doc
    ('\\\\end{document}', True)
    """
    return "\n".join([PREAMBLE, r"\begin{document}", r"\section*{" + tex_escape(title) + "}", "", body.rstrip(),
                      r"\end{document}"]) + "\n"


# -- explaining a certificate file to a reader (``exactdp explain``) -------------------------------------------------
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
