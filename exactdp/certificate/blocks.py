"""Blocks of the document model (paragraphs, lists, displays, tables), Markdown read into them, and the four writers.

:func:`blocks_text`, :func:`blocks_markdown`, :func:`blocks_latex` and :func:`blocks_html` turn any list of blocks
into one format; :func:`parse_markdown` reads a renderer's Markdown into blocks.  Part of the one document model
(:mod:`exactdp.certificate.sections`, docs/architecture.md#sec-document).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .render import plain, plain_math
from .cells import Text, cell
from .inline import inline_html, inline_latex, tex_escape

__all__ = [
    "PREAMBLE",
    "Blocks",
    "Display",
    "List",
    "Paragraph",
    "Table",
    "as_blocks",
    "blocks_html",
    "blocks_latex",
    "blocks_markdown",
    "blocks_text",
    "latex_document",
    "parse_markdown",
]


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
