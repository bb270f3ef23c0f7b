"""The records and renderers of the program kind (a sampler program's exact privacy), declared in
exactdp/programs/evidence.py: each kind's genuine example round-trips through JSON exactly and renders in every
format from its evidence alone (tests/_support/_evidence_contract.py)."""

import pytest
from _evidence_contract import check_hints, check_renders, check_round_trip, hint_fields, kinds_of

HERE = kinds_of("exactdp.programs.evidence")


def test_the_kinds_declared_here_and_their_hints():
    assert HERE == ["program"]
    # the failure set's pieces (issue 28 item 4) carry the decimals of their ends as hints, as all_eps's do
    assert {k: hint_fields(k) for k in HERE if hint_fields(k)} == {"program": ["Piece.hi_approx", "Piece.lo_approx"]}


def test_the_decimals_of_the_failure_set_are_hints_not_facts():
    from exactdp.certificate.kinds import KINDS

    c = KINDS["program"].example()          # a noisy sum under all-differ: fails, with its exact failure set
    assert c.holds is False and len(c.evidence.failure_set) == 1
    assert check_hints("program", c) == 4   # one piece, its two end decimals each dropped and set to a sentinel


@pytest.mark.parametrize("kind", HERE)
def test_the_example_round_trips_through_json_exactly(kind):
    check_round_trip(kind)


@pytest.mark.parametrize("kind", HERE)
def test_the_example_renders_in_every_format_from_its_evidence(kind):
    check_renders(kind)
