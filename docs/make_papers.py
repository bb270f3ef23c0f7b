"""Regenerate docs/papers.md, every paper claim and its status, from the claim registry and the committed proofs.

    PYTHONPATH=. python docs/make_papers.py            # write the page
    PYTHONPATH=. python docs/make_papers.py --check    # exit 1 when the committed page is stale

The statuses and exact results are read back from proofs/ (exactdp.papers.proofs.proof_outcomes), which
``exactdp proofs --check`` holds to the code; run ``exactdp proofs`` first when a claim changed.
tests/project/test_papers_page.py runs the check.
"""

import argparse
import sys
from pathlib import Path

from exactdp.papers.proofs import papers_page, proof_outcomes

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "papers.md"


def render() -> str:
    """The page as the registry and the committed proofs give it."""
    return papers_page(proof_outcomes(str(ROOT / "proofs")))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when docs/papers.md is stale")
    a = ap.parse_args(argv)
    text = render()
    if a.check:
        stale = PAGE.read_text(encoding="utf-8") != text
        if stale:
            print("docs/papers.md is stale: run `python docs/make_papers.py`", file=sys.stderr)
        return int(stale)
    PAGE.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
