"""Citations that cannot drift (issue 31, item 5): no module cites the design guide, a file the repository does
not hold, and every ``docs/<page>.md#<anchor>`` a docstring, comment or page cites names a MyST target that page
defines.
"""

import re
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]

# Spelled in two pieces so that this file does not cite it.
GUIDE = "DESIGN" + ".md"

#: ``docs/architecture.md#sec-kernel`` and the like; the page is a path under docs/, the anchor a MyST label.
CITATION = re.compile(r"docs/([\w./-]+?\.md)#([\w-]+)")
TARGET = re.compile(r"^\(([\w-]+)\)=\s*$", re.MULTILINE)
HEADING = re.compile(r"^#{1,3} (.+)$", re.MULTILINE)


def _scanned() -> list[Path]:
    """The files whose text a reader takes for the project's own: code, tests, benchmarks, pages, settings."""
    files = [p for top in ("exactdp", "tests", "benchmarks", "examples") for p in (ROOT / top).rglob("*.py")]
    files += [p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts]
    files += [ROOT / name for name in ("README.md", "CONTRIBUTING.md", "pyproject.toml")]
    return sorted(p for p in files if p.is_file())


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def citations(text: str) -> list[tuple[str, str]]:
    """The ``(page, anchor)`` pairs a text cites as ``docs/<page>#<anchor>``."""
    return CITATION.findall(text)


def slug(heading: str) -> str:
    """The anchor MyST derives from a heading (``myst_heading_anchors`` in docs/conf.py; GitHub's rule)."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return kept.replace(" ", "-")


def targets(text: str) -> set[str]:
    """The anchors a Markdown page defines: its MyST labels ``(name)=``, and its headings' slugs (levels 1-3)."""
    return set(TARGET.findall(text)) | {slug(h) for h in HEADING.findall(text)}


def test_the_helpers_find_citations_and_targets():
    text = "see docs/architecture.md#sec-kernel, regime 2, and docs/sweeps.md#sec-dask.\nnot docs/x.md alone"
    assert citations(text) == [("architecture.md", "sec-kernel"), ("sweeps.md", "sec-dask")]
    assert targets("(sec-a)=\n## A b\n\ntext (sec-b)= inline\n(sec-c)=\n#### deep\n") == {"sec-a", "a-b", "sec-c"}
    assert slug("`--format`, command by command") == "--format-command-by-command"
    assert slug("Certificates and the independent re-check") == "certificates-and-the-independent-re-check"


def test_no_module_cites_the_design_guide():
    offenders = [
        f"{_rel(p)}:{n}"
        for p in _scanned()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if GUIDE in line
    ]
    assert offenders == [], "cite the docs/architecture.md section instead (its anchors: sec-kernel, ...)"


def test_every_cited_anchor_exists():
    pages: dict[str, set[str]] = {}
    cited = 0
    missing = []
    for p in _scanned():
        for page, anchor in citations(p.read_text(encoding="utf-8")):
            cited += 1
            target = ROOT / "docs" / page
            if page not in pages:
                pages[page] = targets(target.read_text(encoding="utf-8")) if target.is_file() else set()
            if anchor not in pages[page]:
                missing.append(f"{_rel(p)}: docs/{page}#{anchor}")
    assert missing == []
    assert cited >= 45  # the replaced design-guide citations, so a broken pattern cannot pass by finding none
