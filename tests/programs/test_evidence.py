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


@pytest.mark.parametrize("text,relation,form", [
    ("for i:\n  z = dlap(1)\n  output clamp(q + z, -1, 1)\nend\n", "one-differ", "product"),
    ("s = 0\nfor i:\n  z = dlap(1)\n  s = s + q + z\n  output clamp(s, -1, 1)\nend\n", "one-differ", "linear"),
])
def test_the_product_and_linear_forms_render_in_every_format(text, relation, form):
    """Both forms carry no (full) matrix: their proofs name the lemma, and every format renders from JSON alone."""
    from _evidence_contract import html_problems, renderings

    from exactdp.certificate import Certificate
    from exactdp.programs import parse_program
    from exactdp.programs.check import program_certificate

    c = program_certificate(parse_program(text, "p"), n=3, domain=(0, 2), relation=relation)
    assert c.evidence.form == form
    out = renderings(c)
    assert renderings(Certificate.from_json(c.to_json_str())) == out
    assert ("Independent iterations" if form == "product" else "Noisy linear queries") in out["markdown"]
    assert not html_problems(out["html"])
