"""Consistent forgeries of ``decomposition`` (issue 27, item 4): comma-joined labels that render as another
universe.  Before the fix, ``X = ["a, b", "c"]`` (two points) and ``X = ["a", "b", "c"]`` (three) had the same
claim, ``X = {a, b, c}``: a certificate about a two-point universe read as one about three.  Labels that are not
bare are now JSON-quoted in the claim, so the claim names the universe it is about."""

from __future__ import annotations

from exactdp.recheck import recheck
from exactdp.recheck.decomposition import claim_text
from exactdp.decomposition.lemmas import certify_decomposition


def test_a_comma_in_a_label_does_not_make_another_universe():
    two = certify_decomposition(["a, b", "c"], ["u", "v"], max_rects=2).to_json()
    three = certify_decomposition(["a", "b", "c"], ["u", "v"], max_rects=2).to_json()
    assert recheck(two).status == "confirmed" and recheck(three).status == "confirmed"
    assert 'X = {"a, b", "c"}' in two["claim"] and "X = {a, b, c}" in three["claim"]
    assert two["claim"] != three["claim"]
    forged = {**two, "claim": three["claim"], "evidence": {**two["evidence"], "statement": three["claim"]}}
    r = recheck(forged)
    assert r.status == "refuted" and "claim" in r.detail


def test_bare_labels_read_as_before():
    j = certify_decomposition(["0", "1"], ["0"], max_rects=1).to_json()
    assert j["claim"].endswith("X = {0, 1}, Y = {0}") and claim_text(j) == j["claim"]
