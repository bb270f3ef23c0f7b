"""Consistent forgeries of ``infeasible`` (issue 27, item 3): the statement changed against its system.

Before the fix the claim was ``"<statement>: no x >= 0 solves the system"`` with the statement never compared with
the system: a true Farkas vector for ``x0 + x1 = 1, x0 + x1 <= 1/2`` confirmed "x0 + x1 = 1 and x0 + x1 <= 1: no
x >= 0 solves the system" (a false statement: x = (1, 0) solves it).  Now the claim states the system, re-derived
from its rows; a statement that is not that system is printed only as a label."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactdp.certify import certify_lp_infeasible
from exactdp.exact import LinearProgram
from exactdp.recheck import recheck
from exactdp.recheck.infeasible import MAX_WRITTEN_TERMS, claim_text, system_text


def _genuine(statement="x0 + x1 = 1 and x0 + x1 <= 1/2"):
    return certify_lp_infeasible(LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}],
                                               b_ub=["1/2"], names=["x0", "x1"]), statement).to_json()


def test_the_claim_states_the_system():
    j = _genuine()
    assert j["claim"] == 'no x >= 0 solves x0 + x1 = 1, x0 + x1 <= 1/2 (labelled "x0 + x1 = 1 and x0 + x1 <= 1/2")'
    r = recheck(j)
    assert r.status == "confirmed" and "is a label, not re-derived" in r.detail
    exact = _genuine("x0 + x1 = 1, x0 + x1 <= 1/2")
    assert exact["claim"] == "no x >= 0 solves x0 + x1 = 1, x0 + x1 <= 1/2"
    r = recheck(exact)
    assert r.status == "confirmed" and "label" not in r.detail


@pytest.mark.parametrize("claim", [
    "x0 + x1 = 1 and x0 + x1 <= 1: no x >= 0 solves the system",          # the old form, a false statement
    "no x >= 0 solves x0 + x1 = 1, x0 + x1 <= 1",                          # the false statement as the system
    'no x >= 0 solves x0 + x1 = 1, x0 + x1 <= 1 (labelled "x0 + x1 = 1 and x0 + x1 <= 1")'])
def test_a_statement_against_another_system_is_refuted(claim):
    j = _genuine()
    j["evidence"]["statement"] = "x0 + x1 = 1 and x0 + x1 <= 1"
    j["claim"] = claim
    r = recheck(j)
    assert r.status == "refuted" and "claim" in r.detail


def test_a_forged_system_has_no_farkas_vector():
    """The forger changes the system to the false statement's (x0 + x1 <= 1) and keeps the multipliers: the
    combination's right-hand side is recomputed -- not negative -- so no Farkas vector."""
    j = _genuine()
    ev = j["evidence"]
    ev["b_ub"] = ["1"]
    ev["rhs"] = str(sum(Fraction(b) * Fraction(y) for b, y in zip(ev["b_eq"] + ev["b_ub"], ev["y"] + ev["lam"],
                                                                   strict=True)))
    ev["statement"] = "x0 + x1 = 1, x0 + x1 <= 1"
    j["claim"] = claim_text(j)
    r = recheck(j)
    assert r.status == "refuted" and "not negative" in r.detail


def test_a_large_system_is_named_by_its_size_and_the_names_are_not_read_when_not_identifiers():
    n = MAX_WRITTEN_TERMS + 1
    ev = {"A_eq": [{str(j): "1" for j in range(n)}], "b_eq": ["-1"], "A_ub": [], "b_ub": [], "names": None,
          "combination": ["1"] * n}
    assert system_text(ev) == f"the system of 1 equalities and 0 inequalities in {n} variables (written out in " \
                              "the evidence)"
    small = {"A_eq": [{"0": "1"}], "b_eq": ["-1"], "A_ub": [], "b_ub": [], "combination": ["1"]}
    assert system_text({**small, "names": ["a, b <= 0"]}) == "x0 = -1"
    assert system_text({**small, "names": ["R[1][1]"]}) == "R[1][1] = -1"
