"""Consistent forgeries of ``relation`` (issue 27, item 4): a statement that is not the checked formula is
a label, flagged in the detail and rendered as one; the formula after it is what is re-derived."""

from __future__ import annotations

from exactdp.certify import certify_relation
from exactdp.recheck import recheck
from exactdp.recheck.relation import claim_text


def test_a_statement_is_flagged_unless_it_is_the_formula():
    rel = certify_relation("1/2", "2/3", "<", statement="the paper's bound")
    r = recheck(rel.to_json())
    assert r.status == "confirmed" and "the statement \"the paper's bound\" is a label" in r.detail
    assert '(labelled "the paper\'s bound")' in rel.to_text()
    plain = certify_relation("1/2", "2/3", "<")
    assert "label" not in recheck(plain.to_json()).detail


def test_a_false_statement_over_a_true_formula_is_shown_as_a_label():
    """The forger writes the false "2/3 < 1/2" as the statement of the true 1/2 < 2/3: the claim shows the
    checked formula after it and the detail flags the statement."""
    j = certify_relation("1/2", "2/3", "<").to_json()
    j["evidence"]["statement"] = "2/3 < 1/2"
    assert recheck(j).status == "refuted"                    # the claim still says "1/2 < 2/3" alone
    j["claim"] = claim_text(j)
    assert j["claim"] == "2/3 < 1/2: 1/2 < 2/3"
    r = recheck(j)
    assert r.status == "confirmed" and "the statement '2/3 < 1/2' is a label, not re-derived" in r.detail
