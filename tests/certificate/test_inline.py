"""The document model's inline text (exactdp/certificate/inline.py): one converter per target, LaTeX and HTML, from
the Markdown subset the renderers write; an odd dollar sign stays a compilable literal."""

import pytest
from _html_check import html_problems
from _latex_check import latex_problems

from exactdp.certificate.blocks import latex_document
from exactdp.certificate.inline import inline_html, inline_latex, tex_escape
from exactdp.certificate.render import tex_text


# -- the two inline converters -------------------------------------------------------------------------------------
@pytest.mark.parametrize("md, tex, html", [
    # an unmatched $ is a dollar sign: \$ in LaTeX (it compiles), bold and code marks kept around it
    ("**costs** $5 in `d_h`", r"\textbf{costs} \$5 in \texttt{d\_h}", "<strong>costs</strong> $5 in <code>d_h</code>"),
    ("$x$ and $y$ and $", r"$x$ and $y$ and \$", "$x$ and $y$ and $"),
    ("$a < b$ **iff** *c*", r"$a < b$ \textbf{iff} \emph{c}", "$a &lt; b$ <strong>iff</strong> <em>c</em>"),
    ("`$` is a dollar, `x", r"\texttt{\$} is a dollar, `x", "<code>$</code> is a dollar, `x"),
    ("**$x$ with `c`**", r"\textbf{$x$ with \texttt{c}}", "<strong>$x$ with <code>c</code></strong>"),
    ("a < b & c", r"a < b \& c", "a &lt; b &amp; c"),
    # emphasis never crosses the bold's closing tag
    ("**x *y** z*", r"\textbf{x \emph{y} z}", "<strong>x *y</strong> z*"),
])
def test_one_inline_converter_per_target(md, tex, html):
    assert inline_latex(md) == tex_text(md) == tex
    assert inline_html(md) == html
    assert html_problems(f"<p>{inline_html(md)}</p>") == []


@pytest.mark.parametrize("md", ["$x$$", "costs $5", "$$", "$a$ $b", "**$** `$` $x"])
def test_an_odd_dollar_gives_compilable_latex(md):
    doc = latex_document("odd", inline_latex(md))
    assert latex_problems(doc) == []
    assert "$$" not in inline_latex(md)              # never an empty math span or a display delimiter



def test_tex_escape_escapes_every_special_character():
    assert tex_escape("a_b & 50% #1 {x} ~ ^ $ \\") == (
        r"a\_b \& 50\% \#1 \{x\} \textasciitilde{} \textasciicircum{} \$ \textbackslash{}")
