"""Consistent forgeries of ``lp`` (issue 27, item 4): the statement is a label the detail flags.

The LP is identified by its rows, not by the caller's words: another LP under the same statement is a true
certificate of that LP, and the detail and the worked proof now say the statement is a label."""

from __future__ import annotations

from exactdp.certify import certify_lp_optimum
from exactdp.exact import LinearProgram, solve_lp
from exactdp.recheck import recheck
from exactdp.recheck.lp import claim_text


def _lp(cost, statement="the best remap"):
    return certify_lp_optimum(solve_lp(LinearProgram(c=cost, A_eq=[{0: 1, 1: 1}], b_eq=[1])), statement)


def test_the_statement_is_flagged_as_a_label():
    lp = _lp([1, 2])
    r = recheck(lp.to_json())
    assert r.status == "confirmed" and r.detail.endswith("; the statement 'the best remap' is a label, not re-derived")
    assert '(labelled "the best remap")' in lp.to_text() and "statement (a label)" in lp.to_text()


def test_another_lp_under_the_same_statement_states_its_own_optimum():
    """The forger re-solves another LP (costs swapped) under the genuine statement: its claim states the other
    optimum, so the genuine claim with the forged LP is refuted and the forged one is flagged as a label."""
    genuine, other = _lp([1, 2]).to_json(), _lp([3, 2]).to_json()
    forged = {**genuine, "evidence": other["evidence"]}
    assert claim_text(forged) != genuine["claim"]
    assert recheck(forged).status == "refuted"
    forged["claim"] = claim_text(forged)
    r = recheck(forged)
    assert r.status == "confirmed" and "is a label, not re-derived" in r.detail
