"""Inline text of the document model: the Markdown subset the renderers write, to LaTeX and HTML.

``$...$`` math, ``**bold**``, ``*emphasis*`` and ```code``` -- one pass (:func:`inline_latex`, :func:`inline_html`)
so the two writers treat every mark alike; an unmatched dollar sign is a literal one.  Part of the one document model
(:mod:`exactdp.certificate.sections`, docs/architecture.md#sec-document).
"""

from __future__ import annotations

import html
import re
from typing import Any


__all__ = [
    "inline_html",
    "inline_latex",
    "tex_escape",
]


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
