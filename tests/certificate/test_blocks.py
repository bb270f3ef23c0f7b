"""The document model's blocks and writers (exactdp/certificate/blocks.py): Markdown read into paragraphs, tables,
lists and displays; each writer writes every block, and the HTML is well nested."""

from _html_check import html_problems
from _latex_check import latex_problems

from exactdp.certificate.blocks import (Display, List, Paragraph, Table, blocks_html, blocks_latex, blocks_markdown,
                                        blocks_text, latex_document, parse_markdown)
from exactdp.certificate.render import md_html
from exactdp.certificate.sections import Steps


def test_the_nesting_check_finds_what_it_must():
    # the check itself, on cases decided by hand: it can fail
    assert html_problems("<p><strong>a</strong><br>b</p>") == []
    assert html_problems("<p><em>a</p></em>") == ["</p> closes <em>", "</em> closes nothing"]
    assert html_problems("<ul><li>a</ul>") == ["</ul> closes <li>"]
    assert html_problems("<div><p>a</p>") == ["<div> never closed"]


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

def test_markdown_is_read_into_typed_blocks_and_written_back():
    md = "Some *text*.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y\n\n$$ y = 1 $$"
    blocks = parse_markdown(md)
    assert [type(b) for b in blocks] == [Paragraph, Table, List, Display]
    assert blocks_markdown(blocks) == md
    assert blocks_text(blocks).splitlines()[0] == "Some text."
    assert latex_problems(latex_document("t", blocks_latex(blocks))) == []
    assert html_problems(blocks_html(blocks)) == []
