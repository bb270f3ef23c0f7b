import os
import runpy

import pytest

from exactdp.papers import claims, render_proofs, run_claim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("cid", ["GRS12-ex2.1", "HLM15-ex6", "HLM15-ex7"])
def test_claim_reproduced(cid):
    r = run_claim(cid)
    assert r.status == "reproduced"
    for c in r.certificates:
        assert c.recheck().ok is True, (cid, c.claim)


def test_proofs_are_current():
    files = render_proofs()
    stale = []
    for name, text in files.items():
        path = os.path.join(ROOT, "proofs", name)
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                stale.append(name)
    assert not stale, f"stale proofs (run `exactdp proofs`): {stale}"
    on_disk = {n for n in os.listdir(os.path.join(ROOT, "proofs")) if n.endswith(".md")}
    assert on_disk == set(files)


def test_registry_ids_are_well_formed():
    for c in claims():
        paper, _, item = c.id.partition("-")
        assert paper == c.paper and item and c.statement and c.paper_says


@pytest.mark.parametrize("script", sorted(f for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".py")))
def test_examples_run(script):
    runpy.run_path(os.path.join(ROOT, "examples", script), run_name="__main__")
