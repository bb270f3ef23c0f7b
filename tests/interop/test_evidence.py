"""The records and renderers of the audit kind (a float accountant's answer checked exactly), declared in
exactdp/interop/evidence.py: each kind's genuine example round-trips through JSON exactly and renders in every
format from its evidence alone (tests/_support/_evidence_contract.py), and no rendering shows a hint as a fact."""

import pytest
from _evidence_contract import check_renders, check_round_trip, check_hints, hint_fields, kinds_of

HERE = kinds_of("exactdp.interop.evidence")


def test_the_kinds_declared_here_and_their_hints():
    assert HERE == ["audit"]
    assert {k: hint_fields(k) for k in HERE if hint_fields(k)} == {"audit": ["AuditEvidence.accountant"]}


@pytest.mark.parametrize("kind", HERE)
def test_the_example_round_trips_through_json_exactly(kind):
    check_round_trip(kind)


@pytest.mark.parametrize("kind", HERE)
def test_the_example_renders_in_every_format_from_its_evidence(kind):
    check_renders(kind)


def test_the_accountants_answer_is_a_hint_not_a_fact():
    # the float accountant's answer, set to a sentinel, shows only on a line that calls it a hint
    assert check_hints("audit") == 1
