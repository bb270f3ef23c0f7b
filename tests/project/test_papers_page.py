"""Docs that cannot drift (issue 31, item 5): docs/papers.md is generated from the claim registry, and the counts
of claims and papers that README.md and the guide write in words are held to the registry.

The statuses come from the committed proofs (``proof_outcomes``), which tests/papers/test_claims.py holds to what
running the claims gives; so this page is held to the code through them without running a claim here.
"""

import importlib.util
import re
from pathlib import Path

import pytest

from exactdp.errors import InvalidInput
from exactdp.papers import claims
from exactdp.papers.proofs import papers_page, proof_outcomes

ROOT = Path(__file__).resolve().parents[2]
WORDS = {w: n for n, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                      "ten", "eleven", "twelve"])}
COUNT = r"(\d+|" + "|".join(WORDS) + ")"  # a count as the docs write it: digits, or a word up to twelve


def _script():
    spec = importlib.util.spec_from_file_location("make_papers", ROOT / "docs" / "make_papers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def outcomes():
    return proof_outcomes(str(ROOT / "proofs"))


def _number(word: str) -> int:
    return int(word) if word.isdigit() else WORDS[word.lower()]


def test_the_committed_page_is_the_generated_one():
    script = _script()
    assert (ROOT / "docs" / "papers.md").read_text(encoding="utf-8") == script.render(), \
        "docs/papers.md is stale: run `python docs/make_papers.py`"
    assert script.main(["--check"]) == 0


def test_the_page_has_one_row_per_registered_claim(outcomes):
    page = (ROOT / "docs" / "papers.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[([\w.-]+)\]\(proofs/\1\.md\) \| .* \| (\w+) \|$", page, re.MULTILINE)
    assert [i for i, _ in rows] == [c.id for c in claims()]           # sorted by id, so by paper
    assert rows and all(status == outcomes[i][0] for i, status in rows)
    assert set(outcomes) == {c.id for c in claims()}      # a proof for every claim, none for a removed one


def test_the_page_counts_and_lists_what_differs():
    out = {c.id: ("reproduced", "same") for c in claims()}
    out["ECP14-ex3"] = ("differs", "printed 0.48, exact log 2")
    out["KL10-def2.2"] = ("reconstructed", "closed balls")
    page = papers_page(out)
    n = len(out)
    assert f"{n} claims of 5 papers: {n - 2} reproduced, 1 differs, 1 reconstructed.\n" in page
    assert "## Where the paper differs\n\n1 claim, each with its exact result:\n\n" \
           "- [ECP14-ex3](proofs/ECP14-ex3.md): printed 0.48, exact log 2\n" in page
    assert "- [KL10-def2.2](proofs/KL10-def2.2.md): closed balls\n" in page
    assert "## Undecided" not in page
    out["ECP14-ex1"] = ("differs", "x")
    assert f"{n - 3} reproduced, 2 differ, 1 reconstructed." in papers_page(out)


def test_the_page_refuses_missing_and_unknown_claims():
    out = {c.id: ("reproduced", "same") for c in claims()}
    with pytest.raises(InvalidInput, match=r"^an outcome for ZZ99-x, which is no registered claim$"):
        papers_page({**out, "ZZ99-x": ("reproduced", "")})
    del out["GRS12-fig2"]
    with pytest.raises(InvalidInput, match=r"^no outcome for GRS12-fig2, \.\.\. \(1 claims\)$"):
        papers_page(out)


def test_proof_outcomes_refuses_a_proof_without_its_status(tmp_path):
    (tmp_path / "README.md").write_text("# index, skipped\n")
    (tmp_path / "A-1.md").write_text("**Exact result.** x = 1\n\n**Status.** reproduced\n")
    assert proof_outcomes(str(tmp_path)) == {"A-1": ("reproduced", "x = 1")}
    (tmp_path / "A-2.md").write_text("**Exact result.** x = 1\n\n**Status.** agrees\n")
    with pytest.raises(InvalidInput, match=r"^A-2\.md: no status and exact result of a generated proof$"):
        proof_outcomes(str(tmp_path))


def test_the_readme_and_guide_count_claims_and_papers_as_the_registry_does(outcomes):
    ids = [c.id for c in claims()]
    papers = {c.paper for c in claims()}
    differs = sum(s == "differs" for s, _ in outcomes.values())
    text = {name: (ROOT / name).read_text(encoding="utf-8") for name in ("README.md", "docs/guide.md")}
    claims_said = re.compile(r"\b(?:the|all) " + COUNT + r" claims\b", re.IGNORECASE)
    said = [(name, m) for name, t in text.items() for m in claims_said.findall(t)]
    assert len(said) >= 2 and all(_number(m) == len(ids) for _, m in said), said
    of = re.findall(r"\b" + COUNT + " of the " + COUNT + r" differ\b", text["README.md"], re.IGNORECASE)
    assert len(of) == 1 and (_number(of[0][0]), _number(of[0][1])) == (differs, len(ids)), of
    five = re.findall(r"\b(?:the|all) " + COUNT + r" papers\b", text["README.md"], re.IGNORECASE)
    assert five and all(_number(w) == len(papers) for w in five), five
