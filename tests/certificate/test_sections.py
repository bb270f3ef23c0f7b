"""One document model (issue 31, item 3): every certificate kind's proof is sections.py blocks, written by one
writer per format; one inline converter per target (LaTeX, HTML).

A genuine certificate of every kind (every route of the re-check contract in the slow run) is rendered in the
four formats:
the HTML is read by the stdlib's ``html.parser`` and must be well nested, the LaTeX must pass the structural
check (``_latex_check``) and, where ``pdflatex`` exists, compile.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
from _latex_check import latex_problems

from exactdp.certificate.render import as_html, as_latex, as_markdown, as_text, md_html, renderers, tex_text
from exactdp.certificate.sections import (Display, List, Paragraph, Steps, Table, blocks_html, blocks_latex,
                                          blocks_markdown, blocks_text, certificate_blocks, explain, inline_html,
                                          inline_latex, latex_document, parse_markdown)
from tests.cli.test_explain import GENUINE as BY_KIND
from tests.recheck.test_contract import GENUINE

#: elements HTML never closes
_VOID = {"br", "hr", "img", "input", "meta", "link", "wbr", "col", "area", "base", "source", "track", "embed"}


class _Nesting(HTMLParser):
    """Every opened tag closed, in order (the stdlib parser reports tags; it does not check them)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {'<' + self.open[-1] + '>' if self.open else 'nothing'}")
            if tag in self.open:
                del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]
        else:
            self.open.pop()


def html_problems(text: str) -> list[str]:
    p = _Nesting()
    p.feed(text)
    p.close()
    return p.problems + [f"<{t}> never closed" for t in p.open]


def test_the_nesting_check_finds_what_it_must():
    # the check itself, on cases decided by hand: it can fail
    assert html_problems("<p><strong>a</strong><br>b</p>") == []
    assert html_problems("<p><em>a</p></em>") == ["</p> closes <em>", "</em> closes nothing"]
    assert html_problems("<ul><li>a</ul>") == ["</ul> closes <li>"]
    assert html_problems("<div><p>a</p>") == ["<div> never closed"]


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


# -- the blocks and the four writers -------------------------------------------------------------------------------
def _step_with_everything() -> Steps:
    body = tuple(parse_markdown("First $x_1 < 2$.\n\n| n | ok |\n|---|---|\n| 1 | yes |\n\n- a\n- **b**\n\n"
                                "$$ \\frac{1}{2} $$"))
    return Steps((("Check", body, ""), ("Plain", (Paragraph("done"),), "")), "So $x \\le 1$.")


def test_a_step_holds_blocks_and_every_writer_writes_them():
    s = _step_with_everything()
    assert [type(b) for b in s.steps[0][1]] == [Paragraph, Table, List, Display]
    h = s.html()
    assert html_problems(h) == []
    assert "<table><thead><tr><th>n</th><th>ok</th></tr></thead>" in h and "<li><strong>b</strong></li>" in h
    assert "<p>$$ \\frac{1}{2} $$</p>" in h and "(2 steps)" in h
    tex = s.latex()
    assert latex_problems(latex_document("s", tex)) == []
    assert tex.count(r"\item") == 2 + 2 and r"\begin{tabular}{ll}" in tex and r"\[ \frac{1}{2} \]" in tex
    assert s.plain_text().splitlines() == [
        "proof:", "  1. Check. First x_1 < 2.", "     n | ok", "     1 | yes", "     - a", "     - b",
        "         1/2", "  2. Plain. done", "conclusion: So x <= 1."]
    assert s.markdown().startswith("**Proof.**\n\n1. *Check.* First $x_1 < 2$.\n\n| n | ok |")


def test_md_html_is_the_blocks_writer():
    md = "intro *it*\n\n1. one\n2. two\n\n$$ x < y $$"
    assert md_html(md) == blocks_html(parse_markdown(md)) == (
        "<p>intro <em>it</em></p>\n<ol><li>one</li><li>two</li></ol>\n<p>$$ x &lt; y $$</p>")


# -- every kind's genuine certificate, in every format ---------------------------------------------------------------
@pytest.fixture(scope="module")
def certificates():
    """One genuine certificate of every kind (tests/cli/test_explain.py names one route of the contract each)."""
    return {kind: make() for kind, make in BY_KIND.items()}


@pytest.fixture(scope="module")
def every_route():
    """Every genuine certificate of the re-check contract: every kind, every route (72 certificates, 2-3 s)."""
    return {name: make() for name, make in GENUINE.items()}


def test_every_kind_with_a_renderer_is_rendered_here(certificates):
    assert set(certificates) == {c.kind for c in certificates.values()} == set(renderers())


def test_every_view_is_one_writer_of_the_same_blocks(certificates):
    for name, c in certificates.items():
        blocks = certificate_blocks(c)
        assert as_markdown(c) == blocks_markdown(blocks) + "\n", name
        assert as_latex(c) == blocks_latex(blocks), name
        assert as_html(c) == '<div class="exactdp-certificate">\n' + blocks_html(blocks) + "\n</div>\n", name
        assert as_text(c) == blocks_text(certificate_blocks(c, brief=True)) + "\n", name
        assert as_text(c).splitlines()[0] == "claim:   " + c.claim.replace("`", "")  # the claim, in words


def _check_formats(name, c):
    h = as_html(c)
    assert html_problems(h) == [], (name, html_problems(h))
    assert h.count("<li>") >= len(c.proof().steps), name
    tex = latex_document(name, as_latex(c))
    assert latex_problems(tex) == [], (name, latex_problems(tex))
    assert tex.count(r"\begin{proof}") == 1 and tex.count(r"\item") >= len(c.proof().steps), name
    assert "**" not in as_text(c) and "$" not in as_text(c), name
    assert as_markdown(c).startswith("**Claim.** "), name


def test_every_kind_is_well_formed_html_and_latex(certificates):
    for name, c in certificates.items():
        _check_formats(name, c)


def test_every_explained_kind_is_well_formed_html(certificates):
    # exactdp explain: the re-check's answer and the proof are one list of blocks, written by the HTML writer
    for name, c in certificates.items():
        doc = explain(c.to_json_str(), "html").document
        assert html_problems(doc) == [], (name, html_problems(doc))
        assert doc.count('<div class="exactdp-certificate">') == 1 and doc.endswith("</div>\n"), name
    refuted = certificates["privacy"].to_json()
    assert refuted["verdict"] == "holds"
    refuted["verdict"] = "fails"
    doc = explain(json.dumps(refuted), "html").document
    assert "REFUTED" in doc and "<div" not in doc and html_problems(doc) == []


@pytest.mark.slow
def test_every_route_is_well_formed_html_and_latex(every_route):
    for name, c in every_route.items():
        _check_formats(name, c)


def _compile(tmp_path, name, c):
    (tmp_path / "c.tex").write_text(latex_document(name, as_latex(c)), encoding="utf-8")
    r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "c.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (name, r.stdout[-2000:])


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("pdflatex"), reason="pdflatex is not installed (the structural check runs above)")
def test_every_route_compiles(every_route, tmp_path):
    for name, c in every_route.items():
        _compile(tmp_path, name, c)
