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

import pytest
from _html_check import html_problems
from _latex_check import latex_problems

from exactdp.certificate.render import as_html, as_latex, as_markdown, as_text, renderers
from exactdp.certificate.explain import explain
from exactdp.certificate.sections import (blocks_html, blocks_latex, blocks_markdown, blocks_text, certificate_blocks,
                                          latex_document)
from tests.cli.test_tools_explain import GENUINE as BY_KIND
from tests.recheck.test_contract import GENUINE

#: elements HTML never closes
def test_the_nesting_check_finds_what_it_must():
    # the check itself, on cases decided by hand: it can fail
    assert html_problems("<p><strong>a</strong><br>b</p>") == []
    assert html_problems("<p><em>a</p></em>") == ["</p> closes <em>", "</em> closes nothing"]
    assert html_problems("<ul><li>a</ul>") == ["</ul> closes <li>"]
    assert html_problems("<div><p>a</p>") == ["<div> never closed"]


@pytest.fixture(scope="module")
def certificates():
    """One genuine certificate of every kind (tests/cli/test_tools_explain.py names one route of the contract each)."""
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


def test_every_renderer_returns_a_block_of_the_model(certificates):
    # issue 31 item 3: what a kind's renderer returns is a block of the one document model, written by its writers
    from exactdp.certificate.sections import Proof

    for name, c in certificates.items():
        p = renderers()[c.kind](c)
        assert isinstance(p, Proof), name
        assert certificate_blocks(c)[-len(p.blocks()):] == p.blocks()
        assert p.markdown() in as_markdown(c) and p.html() in as_html(c), name
