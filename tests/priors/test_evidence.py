"""The records and renderers of the ECP14 kinds (leakage, regular priors, tight constraints, their threshold, Theorem 4
remaps), declared in exactdp/priors/evidence.py: each kind's genuine example round-trips through JSON exactly and
renders in every format from its evidence alone (tests/_support/_evidence_contract.py), and no rendering shows a
hint as a fact."""

import pytest
from _evidence_contract import check_renders, check_round_trip, check_hints, hint_fields, kinds_of
from flint import fmpq

from exactdp import recheck
from exactdp.exact.level import Level
from exactdp.mechanism import Mechanism
from exactdp.metrics import grid
from exactdp.priors.leakage import leakage
from exactdp.priors.regular import regular_prior, tight_constraints
from exactdp.priors.threshold import threshold

HERE = kinds_of("exactdp.priors.evidence")


def test_the_kinds_declared_here_and_their_hints():
    assert HERE == ["leakage", "regular", "theorem4", "threshold", "tight"]
    assert {k: hint_fields(k) for k in HERE if hint_fields(k)} == {
        "regular": ["RegularEvidence.verified"], "threshold": ["ThresholdEvidence.ends"],
        "tight": ["TightEvidence.verified"]}


@pytest.mark.parametrize("kind", HERE)
def test_the_example_round_trips_through_json_exactly(kind):
    check_round_trip(kind)


@pytest.mark.parametrize("kind", HERE)
def test_the_example_renders_in_every_format_from_its_evidence(kind):
    check_renders(kind)



@pytest.mark.parametrize("rows,prior,shown", [
    ([["1", "0"], ["0", "1"]], ["1/2", "1/2"], "1"),               # no noise: (1/2 + 1/2)/(1/2) = 2, one bit
    ([["1", "0", "0", "0"], ["0", "1", "0", "0"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]], ["1/4"] * 4, "2"),
    ([["1", "0"], ["0", "1"]], ["1/3", "2/3"], "log2(3/2)"),      # (1/3 + 2/3)/(2/3) = 3/2: irrational bits
    ([["1/2", "1/2"], ["1/2", "1/2"]], ["1/2", "1/2"], "0"),       # no information
])
def test_leakage_shows_a_rational_number_of_bits_as_a_number(rows, prior, shown):
    # audit 2026-11-24 defect 14: "leakage (bits): log2(2)"; the evidence keeps its log2 form for the re-check
    n = len(rows[0])
    c = leakage(Mechanism.from_rows([str(i) for i in range(len(rows))], [str(j) for j in range(n)], rows), prior)
    assert f"leakage (bits): {shown}\n" in c.to_text() and f"L = {shown} in" in c.to_text()
    assert recheck(c.to_json()).status == "confirmed"


GRID = grid((5, 5), "euclidean")          # 25 points: the tight and regular solves take the verified float route


@pytest.mark.parametrize("kind, make", [
    ("tight", lambda: tight_constraints(GRID, Level.from_eps("3/2"))),
    ("regular", lambda: regular_prior(["1/25"] * 25, GRID, Level.from_eps("3/2"))),
    ("threshold", lambda: threshold(GRID, width=fmpq(1, 10**6))),
])
def test_the_verified_float_solves_are_hints_not_facts(kind, make):
    c = make()
    assert c.kind == kind and check_hints(kind, c) == 1      # the verified solve (or both ends') dropped
