"""The records and renderers of the privacy kinds (pure eps*d-DP at a level, the smallest eps, every eps, (eps,
delta)-DP, relations), declared in exactdp/privacy/evidence.py: each kind's genuine example round-trips through JSON
exactly and renders in every format from its evidence alone (tests/_support/_evidence_contract.py), and no rendering
shows a hint as a fact."""

import pytest
from _evidence_contract import check_renders, check_round_trip, check_hints, hint_fields, kinds_of
from exactdp import certify_all_eps, certify_privacy, discrete, randomized_response, recheck
from exactdp.mechanism import Mechanism

HERE = kinds_of("exactdp.privacy.evidence")


def test_the_kinds_declared_here_and_their_hints():
    assert HERE == ["all_eps", "approx", "epsilon", "privacy", "relation"]
    assert {k: hint_fields(k) for k in HERE if hint_fields(k)} == {"all_eps": ["Piece.hi_approx", "Piece.lo_approx"]}


@pytest.mark.parametrize("kind", HERE)
def test_the_example_round_trips_through_json_exactly(kind):
    check_round_trip(kind)


@pytest.mark.parametrize("kind", HERE)
def test_the_example_renders_in_every_format_from_its_evidence(kind):
    check_renders(kind)



def test_a_fractional_power_in_a_witness_reads_reduced():
    # audit 2026-11-24 defect 14: "3^((1)/(2)) * (1/4)"; e^(eps d) = 3^(1/2) at eps = log(3)/2, d = 1
    M = Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]])
    c = certify_privacy(M, discrete(2), eps="log(3)/2")
    assert c.holds is False and c.evidence.violation.rhs == "3^((1)/(2)) * (1/4)"     # the evidence: as stated
    assert "K(x)(z) = 3/4 > 3^(1/2) * (1/4) = e^(eps d) K(x')(z)" in c.to_text()
    assert recheck(c.to_json()).status == "confirmed"


def test_the_decimals_of_the_all_eps_pieces_are_hints_not_facts():
    # the failing all-eps certificate carries intervals of alpha with decimal ends for people (lo_approx, hi_approx)
    c = certify_all_eps(randomized_response(3, p="1/4"), discrete(3))
    assert c.holds is False and check_hints("all_eps", c) == 4   # two decimals dropped, two set to a sentinel
