"""The README stays a front page (issue 21): it fits on a few screens, lists every command, and every link in it
and in the pages its content moved to resolves.  Its Python examples run as doctests (``--doctest-glob=*.md``,
README.md and docs/guide.md are in ``testpaths``).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: the pages that took the README's details (their links are checked like the README's)
MOVED_TO = ["docs/guide.md", "docs/formats.md", "docs/papers.md"]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def _text(path):
    return (ROOT / path).read_text(encoding="utf-8")


def _anchors(markdown):
    """The heading anchors of a Markdown page, as GitHub and MyST (``myst_heading_anchors``) make them."""
    out = set()
    for line in markdown.splitlines():
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(slug)
    return out


def test_readme_fits_on_a_few_screens():
    assert len(_text("README.md").splitlines()) <= 250


def test_readme_lists_every_command():
    from exactdp.cli import build_parser

    readme = _text("README.md")
    sub = next(a for a in build_parser()._actions if getattr(a, "choices", None) and "certify" in a.choices)
    block = readme[readme.index("## Command line"):readme.index("### Exit codes")]
    for name in sub.choices:
        assert f"exactdp {name} " in block, name


def test_ci_runs_the_readme_test_command():
    # .ci/run's last command is the README's "Set up and pass the tests" command, character for character
    readme = _text("README.md")
    command = re.search(r"Set up and pass the tests[^\n]*:\n\n```\n(.*)\n```", readme).group(1)
    assert "slow or not slow" in command  # the README's command runs everything, the slow tests too
    ci = [line for line in _text(".ci/run").splitlines() if line.strip() and not line.startswith("#")]
    assert ci[-1] == command


@pytest.mark.parametrize("page", ["README.md", *MOVED_TO])
def test_every_relative_link_resolves(page):
    base = (ROOT / page).parent
    targets = [t for t in LINK.findall(_text(page)) if not re.match(r"[a-z]+:", t)]
    assert targets or page != "README.md"  # the pattern finds the README's links at all
    for target in targets:
        path, _, anchor = target.partition("#")
        file = (base / path).resolve() if path else ROOT / page
        if page.startswith("docs/") and path.startswith("proofs/"):
            file = ROOT / path   # docs/conf.py copies proofs/ into docs/proofs/ when the site is built
        assert file.exists(), f"{page}: {target}"
        if anchor:
            assert file.suffix == ".md" and anchor in _anchors(file.read_text(encoding="utf-8")), f"{page}: {target}"


def test_moved_pages_are_in_the_documentation():
    index = _text("docs/index.md")
    toctree = index[index.index("```{toctree}"):]
    for page in MOVED_TO:
        assert Path(page).stem in toctree.split(), page


def test_the_anchor_rule_on_known_headings():
    assert _anchors("## What \"exact\" means here\n### Exit codes") == {"what-exact-means-here", "exit-codes"}
    assert "f-dp-audits-of-accountants-dp_accounting-and-opendp" in _anchors(
        "## f-DP, audits of accountants, dp_accounting and OpenDP")
