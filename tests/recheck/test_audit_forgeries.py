"""The audit's ``accountant`` (issue 27, item 4): a hint, rendered as one -- never above the verdict as the
claim -- and, like every text field, refused with a control character."""

from __future__ import annotations

import json

import pytest

from exactdp.mechanisms import randomized_response
from exactdp.recheck import recheck
from exactdp.interop.audit import certify_audit


def _audit(accountant="my accountant, eps = 0.1"):
    return certify_audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/3",
                         accountant=accountant)


def test_the_accountant_is_rendered_as_a_hint():
    text = _audit().to_text()
    assert "accountant's answer (a hint, not checked)" in text
    assert json.dumps("my accountant, eps = 0.1") in text and "from my accountant" not in text


def test_another_accountant_changes_no_verdict_and_a_newline_is_refused():
    j = _audit().to_json()
    j["evidence"]["accountant"] = "exactdp itself: verified"        # a hint: the verdict rests on nothing in it
    assert recheck(j).status == "confirmed"
    j["evidence"]["accountant"] = "x\nthe proof below is checked: holds"
    with pytest.raises(ValueError, match="control character"):
        recheck(j)
