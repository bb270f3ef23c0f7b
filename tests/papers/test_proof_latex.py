"""Worked proofs in LaTeX beside Markdown (issue 19, item 6): the typed blocks of
exactdp.certificate.sections, the generated proofs/<claim>.tex, and both formats from the same data."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import pytest
from _latex_check import latex_problems

from exactdp.certificate.render import tex_text
from exactdp.certificate.sections import (CertificateProof, CertRef, Display, Flag, Label, LabelSet, List, Missing,
                                          Paragraph, Table, Text, as_blocks, blocks_latex, blocks_markdown, cell,
                                          inline_latex, latex_document, parse_markdown, tex_escape)

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROOFS = ROOT / "proofs"


# ------------------------------------------------------------------------------------------- inline text ----
@pytest.mark.parametrize("raw, tex", [
    ("d_h", r"d\_h"), ("50%", r"50\%"), ("A & B", r"A \& B"), ("#1", r"\#1"), ("{x}", r"\{x\}"),
    ("a ~ b", r"a \textasciitilde{} b"), ("V^5", r"V\textasciicircum{}5"), ("C:\\", r"C:\textbackslash{}"),
    ("cost $5", r"cost \$5"),
])
def test_tex_escape_every_special_character(raw, tex):
    assert tex_escape(raw) == tex


@pytest.mark.parametrize("md, tex", [
    (r"$a_1 \le b$ and d_h", r"$a_1 \le b$ and d\_h"),                 # math kept, text escaped
    ("**iff** and *Prop. 5*", r"\textbf{iff} and \emph{Prop. 5}"),
    ("`x_y` code", r"\texttt{x\_y} code"),
    ("one $ sign", r"one \$ sign"),                                     # an unmatched $ is a dollar sign
    ("a `b", r"a `b"),                                                  # an unmatched backtick is text
    ("2 * 3 * 4", "2 * 3 * 4"),                                         # a product, not emphasis
])
def test_inline_latex(md, tex):
    assert inline_latex(md) == tex


# One converter (issue 31, item 3): render.tex_text, which wrote the kinds' proofs, dropped bold and code marks and
# wrote "$x$$" on an odd dollar sign; it now calls sections.inline_latex, so both give these exact strings.
ONE_CONVERTER = [
    ("**iff**", r"\textbf{iff}"),                                       # bold (tex_text dropped the marks)
    ("see `d_h`", r"see \texttt{d\_h}"),                                # code (tex_text dropped the backticks)
    (r"$x_1 \le e^{\varepsilon}$", r"$x_1 \le e^{\varepsilon}$"),       # math kept as written
    ("a $x$ and $", r"a $x$ and \$"),                                   # the odd dollar: was "a $x$ and $$"
    ("costs $5", r"costs \$5"),
    ("$a$ $b", r"$a$ \$b"),
    ("**$x$ with `c_1`**", r"\textbf{$x$ with \texttt{c\_1}}"),          # nested: bold around math and code
    ("**a *b* c**", r"\textbf{a \emph{b} c}"),                          # nested: emphasis inside bold
    ("*see `x`*", r"\emph{see \texttt{x}}"),                            # nested: code inside emphasis
    ("`$HOME` costs $1", r"\texttt{\$HOME} costs \$1"),                 # a $ in code is text, not math
    ("x^2 and 50% of $x^2$", r"x\textasciicircum{}2 and 50\% of $x^2$"),
    ("a \ue000 0\ue000 b", "a  0 b"),                                   # the converter's own marker is dropped
]


@pytest.mark.parametrize("md, tex", ONE_CONVERTER)
def test_one_converter_for_both_latex_paths(md, tex):
    assert inline_latex(md) == tex
    assert tex_text(md) == tex
    assert latex_problems(tex) == []                                    # balanced $, nothing unescaped


def test_an_odd_dollar_never_leaves_an_unbalanced_math_mode():
    # every string of up to 4 of these pieces: the output's unescaped $ are even in number (math closes)
    import itertools

    pieces = ["$", "x", " ", "`", "**", "5"]
    for n in range(1, 5):
        for combo in itertools.product(pieces, repeat=n):
            out = inline_latex("".join(combo))
            assert out.replace(r"\$", "").count("$") % 2 == 0, ("".join(combo), out)


# ---------------------------------------------------------------------------------------------- cells ----
def test_cells_are_typed_and_never_a_python_repr():
    assert cell(True) == Flag(True) and cell(False).markdown() == "no" and cell(True).latex() == "yes"
    assert cell(None) == Missing() and cell(None).markdown() == "-" and cell(None).latex() == "--"
    assert cell(["0,0", "1,0"]).markdown() == "{(0,0), (1,0)}"
    assert cell(["0,0", "1,0"]).latex() == r"$\{(0,0), (1,0)\}$"
    assert cell({"b", "a"}).markdown() == "{a, b}"                     # a set is sorted, not in hash order
    assert cell([]).markdown() == "{}" and cell([]).latex() == r"$\emptyset$"
    assert Label("1,1,4").markdown() == "(1,1,4)" and Label("x_1").latex() == r"$x\_1$"
    assert CertRef(3).markdown() == CertRef(3).latex() == "certificate 3"
    assert cell(Label("a")) == Label("a") and cell(7) == Text("7")


def test_table_rows_must_match_the_header():
    with pytest.raises(ValueError, match="table row 2 has 1 cells, the header 2"):
        Table(["a", "b"], [[1, 2], [3]])


def test_table_in_both_formats():
    t = Table(["|V|", "regular", "at"], [["4", True, LabelSet(("4,4",))], ["d_h", False, None]])
    assert t.markdown().splitlines() == ["| \\|V\\| | regular | at |", "|---|---|---|",
                                         "| 4 | yes | {(4,4)} |", "| d_h | no | - |"]
    tex = t.latex()
    assert r"\begin{tabular}{lll}" in tex and r"|V| & regular & at \\" in tex
    assert r"4 & yes & $\{(4,4)\}$ \\" in tex and r"d\_h & no & -- \\" in tex
    assert latex_problems(tex) == []


def test_parse_markdown_reads_every_block_kind():
    md = "A *b* $x$.\nsecond line\n\n| a | b |\n|---|---|\n| \\|V\\| | 2 |\n\n- one\n- two\n\n1. x\n2. y\n\n$$ z^2 $$"
    blocks = parse_markdown(md)
    assert [type(b) for b in blocks] == [Paragraph, Table, List, List, Display]
    assert blocks[1].rows == ((Text("|V|"), Text("2")),) and blocks[3].numbered and not blocks[2].numbered
    assert blocks_markdown(blocks) == md                               # a round trip: nothing lost
    tex = blocks_latex(blocks)
    assert r"A \emph{b} $x$. \\" in tex and r"\begin{itemize}" in tex and r"\begin{enumerate}" in tex
    assert r"\[ z^2 \]" in tex and latex_problems(tex) == []


def test_as_blocks_flattens_text_blocks_and_lists():
    blocks = as_blocks(["Two rows:", Table(["n"], [[1], [2]]), ["x", Paragraph("y")]])
    assert [type(b) for b in blocks] == [Paragraph, Table, Paragraph, Paragraph]


def test_a_certificate_block_is_the_certificate_renderers_own():
    from exactdp import certify_privacy, geometric, path

    c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
    b = CertificateProof(c)
    assert b.markdown() == c.to_markdown().rstrip() and b.latex() == c.to_latex()


def test_latex_document_is_standalone():
    doc = latex_document("A_1 & B", "Body.")
    assert doc.startswith(r"\documentclass") and doc.rstrip().endswith(r"\end{document}")
    assert r"\section*{A\_1 \& B}" in doc and latex_problems(doc) == []


# ------------------------------------------------------------------------------- the structural checker ----
@pytest.mark.parametrize("bad, what", [
    ("a_b", "_ outside math"), ("$x", "unbalanced $"), (r"\begin{a} \end{b}", r"\end{b} closes"),
    ("{x", "unclosed brace"), ("x}", "} without {"), ("a & b", "& outside a table"), ("50%", "unescaped %"),
    (r"\begin{center}", "unclosed environment"),
])
def test_the_latex_checker_finds_what_it_should(bad, what):
    assert any(what in p for p in latex_problems(bad)), latex_problems(bad)


# -------------------------------------------------------------------------------- the generated proofs ----
def _tex_files():
    return sorted(PROOFS.glob("*.tex"))


def test_every_markdown_proof_has_its_latex():
    md = {p.stem for p in PROOFS.glob("*.md")} - {"README"}
    assert md and md == {p.stem for p in _tex_files()}


@pytest.mark.parametrize("path", _tex_files(), ids=lambda p: p.name)
def test_generated_latex_is_well_formed(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\\documentclass") and text.rstrip().endswith("\\end{document}")
    assert latex_problems(text) == [], path.name


@pytest.mark.parametrize("path", _tex_files(), ids=lambda p: p.name)
def test_latex_and_markdown_carry_the_same_tables(path):
    """Both files come from one list of blocks: the same number of tables, with the same number of rows each."""
    md = (PROOFS / f"{path.stem}.md").read_text(encoding="utf-8")
    tex = path.read_text(encoding="utf-8")
    md_rows = [len(t.rows) for t in (b for b in parse_markdown(md) if isinstance(b, Table))]
    tex_rows = [len(re.findall(r"\\\\$", body, re.M)) - 1           # the header row ends with \\ too
                for body in re.findall(r"\\begin\{tabular\}\{l+\}\n(.*?)\\end\{tabular\}", tex, re.S)]
    assert md_rows == tex_rows


PDFLATEX = shutil.which("pdflatex") or shutil.which("lualatex")


def compile_latex(tmp_path, name: str, text: str) -> None:
    """Compile ``text`` with pdflatex (or lualatex), failing with the end of the log on an error."""
    (tmp_path / f"{name}.tex").write_text(text, encoding="utf-8")
    r = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and (tmp_path / f"{name}.pdf").exists(), r.stdout[-2000:]


@pytest.mark.skipif(not PDFLATEX, reason="no pdflatex or lualatex on this machine (the structural check runs above)")
@pytest.mark.parametrize("claim", ["ECP14-ex3", "GRS12-thm3.1", "HLM15-sec4"])
def test_generated_proofs_compile(tmp_path, claim):
    """A typed table with certificate references, the largest proof, sets of product labels."""
    compile_latex(tmp_path, claim, (PROOFS / f"{claim}.tex").read_text(encoding="utf-8"))


def test_ecp14_ex3_every_row_is_a_certificate():
    """ECP14 Ex. 3's table: every row names its certificate, of kind regular, whose verdict is the row's."""
    from exactdp.papers import run_claim

    r = run_claim("ECP14-ex3")
    body = as_blocks(dict(r.sections)["Example 3"])
    (table,) = [b for b in body if isinstance(b, Table)]
    assert len(table.rows) == len(r.certificates) == 8
    for row in table.rows:
        ref = row[-1]
        assert isinstance(ref, CertRef)
        c = r.certificates[ref.number - 1]
        assert c.kind == "regular" and row[2] == Text(c.verdict.value)
        # regular iff eps >= log 2 = 0.6931... (by hand: 69/100 < log 2 < 7/10, since e^(7/10) > 2 > e^(69/100))
        regular = {"log(2)": True, "69/100": False, "7/10": True, "1": True, "1/2": False, "12/25": False}
        assert row[2] == Text("holds" if regular[row[0].text] else "fails") and row[3] == Flag(regular[row[0].text])
        assert row[4] == (Missing() if regular[row[0].text] else
                          Label("1,1,1,1,4" if row[1].text.startswith("1024") else "4,4,4,4,4"))
    assert [x.status for x in r.rechecks()] == ["confirmed"] * 8
    eps = [row[0].text for row in table.rows]
    assert eps == ["log(2)", "69/100", "7/10", "1", "1/2", "12/25", "log(2)", "69/100"]


def test_a_claims_table_keeps_its_typed_cells_inside_prose():
    """md_table joins prose with + and stays a typed Table: a set of labels is math in LaTeX, not text."""
    from exactdp.certificate.sections import Blocks
    from exactdp.papers.registry import md_table

    frag = "The worst sets:\n\n" + md_table(["pair", "S*", "private"], [["0, 1", ["0,0"], False]]) + "\n\nSo " + "no."
    assert isinstance(frag, Blocks) and [type(b) for b in as_blocks(frag)] == [Paragraph, Table, Paragraph]
    assert as_blocks(frag)[1].rows == ((Text("0, 1"), LabelSet(("0,0",)), Flag(False)),)
    assert str(frag) == "The worst sets:\n\n| pair | S* | private |\n|---|---|---|\n| 0, 1 | {(0,0)} | no |\n\nSo no."
    assert r"0, 1 & $\{(0,0)\}$ & no \\" in blocks_latex(frag)
    body = md_table(["n"], [[1]])
    body += "\n\nafter"                                                 # += appends prose, never its characters
    assert len(body) == 2 and body[1] == "\n\nafter"


def test_proofs_check_covers_the_latex_files(tmp_path, monkeypatch):
    """``exactdp proofs --check``: a stale or missing .tex is stale, a .tex of no claim is reported."""
    from exactdp.papers import proofs

    files = {"X-1.md": "# md\n", "X-1.tex": "\\documentclass{article}\n", "README.md": "# index\n"}
    monkeypatch.setattr(proofs, "render_proofs", lambda ids=None, progress=None: dict(files))
    assert sorted(proofs.write_proofs(str(tmp_path))) == sorted(files)           # written
    assert proofs.write_proofs(str(tmp_path), check=True) == []                    # current
    (tmp_path / "X-1.tex").write_text("edited by hand\n", encoding="utf-8")
    (tmp_path / "Y-2.tex").write_text("old claim\n", encoding="utf-8")
    assert proofs.write_proofs(str(tmp_path), check=True) == ["X-1.tex", "Y-2.tex (no such claim)"]
    (tmp_path / "X-1.tex").unlink()
    assert proofs.write_proofs(str(tmp_path), check=True) == ["X-1.tex", "Y-2.tex (no such claim)"]


def test_section_blocks_pickle(tmp_path):
    """Claims may run in other processes (``reproduce`` through Dask): their typed sections survive pickling."""
    import pickle

    from exactdp import certify_privacy, geometric, path
    from exactdp.papers.registry import md_table

    frag = "x\n\n" + md_table(["a", "b"], [[CertRef(1), Label("1,2")]]) + [
        CertificateProof(certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2"))]
    back = pickle.loads(pickle.dumps(frag))
    assert type(back) is type(frag) and back == frag
    assert blocks_markdown(back) == blocks_markdown(frag) and blocks_latex(back) == blocks_latex(frag)
