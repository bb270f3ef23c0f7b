"""The records and renderers of the KL10/ECP14 utility kinds (Thm 2.7's bound, the tradeoff, (gamma, delta)-utility,
utility comparison), declared in exactdp/utility/evidence.py: each kind's genuine example round-trips through JSON
exactly and renders in every format from its evidence alone (tests/_support/_evidence_contract.py), and no rendering
shows a hint as a fact."""

import pytest
from _evidence_contract import check_renders, check_round_trip, check_hints, hint_fields, kinds_of

HERE = kinds_of("exactdp.utility.evidence")


def test_the_kinds_declared_here_and_their_hints():
    assert HERE == ["exponential_bound", "tradeoff", "utility", "utility_comparison"]
    assert {k: hint_fields(k) for k in HERE if hint_fields(k)} == {
        "tradeoff": ["TradeoffEvidence.reason"], "utility_comparison": ["UtilityComparisonEvidence.tight"]}


@pytest.mark.parametrize("kind", HERE)
def test_the_example_round_trips_through_json_exactly(kind):
    check_round_trip(kind)


@pytest.mark.parametrize("kind", HERE)
def test_the_example_renders_in_every_format_from_its_evidence(kind):
    check_renders(kind)


@pytest.mark.parametrize("kind, changed", [("tradeoff", 1), ("utility_comparison", 1)])
def test_the_examples_hints_are_not_shown_as_facts(kind, changed):
    # tradeoff: why only a bracket is given (None in the example: set to a sentinel); utility_comparison: the
    # verified tight solve (dropped)
    assert check_hints(kind) == changed
