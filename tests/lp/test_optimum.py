"""The exact LP certificates (exactdp.lp.optimum; issue 7 item 5): ``lp`` (an optimum stated in full, with its
parameter interval) and ``infeasible`` (a Farkas vector) -- schema, JSON round trip, tampering refuted, bad
vectors refused, and infeasibility exactly when no basic solution is non-negative (an independent enumeration)."""

import copy
import json
from fractions import Fraction

import jsonschema
import pytest
from _tamper import _tamper
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Certificate, InvalidInput, recheck
from exactdp.certificate.schema import json_schema
from exactdp.certify import certify_lp_infeasible, certify_lp_optimum
from exactdp.exact import LinearProgram, Rad, solve_lp, solve_lp_irrational
from exactdp.recheck.infeasible import claim_text as infeasible_claim
from exactdp.recheck.lp import claim_text as lp_claim_text


def _simplex2():
    """min x0 + 2 x1 with x0 + x1 = 1 and x0 <= 3/4."""
    return LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1}], b_ub=["3/4"])


def test_lp_certificate_round_trip_schema_and_tampering():
    sol = solve_lp(_simplex2())
    # by hand: x0 = 3/4 (its bound), x1 = 1/4, value 3/4 + 1/2 = 5/4
    assert [str(v) for v in sol.x] == ["3/4", "1/4"] and sol.value == fmpq(5, 4)
    c = certify_lp_optimum(sol, "a two-variable LP", unique=True, vertex=True)
    j = c.to_json()
    jsonschema.validate(j, json_schema())
    assert Certificate.from_json(json.dumps(j)) == c
    assert recheck(j).status == "confirmed", recheck(j).detail
    assert c.evidence.unique is not None and c.evidence.vertex is True
    for path, value in ((["lp", "x", 0], "1"), (["lp", "y", 0], lambda v: str(fmpq(v) + 1)),
                        (["lp", "value"], "1"), (["lp", "lam", 0], lambda v: str(fmpq(v) + 1)), (["b_ub", 0], "1"),
                        (["unique", "bounds", 0, "lo_y", 0], lambda v: str(fmpq(v) + 1)),
                        (["unique", "bounds"], lambda v: v[:-1])):
        assert recheck(_tamper(j, path, value)).status == "refuted", path
    assert "**Verdict.** holds" in c.to_markdown() and r"\begin{proof}" in c.to_latex()


def test_lp_certificate_not_unique_and_not_a_vertex():
    lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    sol = solve_lp(lp)
    c = certify_lp_optimum(sol, "a flat objective", unique=True)
    assert c.evidence.unique is None and recheck(c.to_json()).status == "confirmed"
    with pytest.raises(InvalidInput, match="vertex=True but the constraints active at x have rank"):
        certify_lp_optimum(sol, "midpoint", x=["1/2", "1/2"], vertex=True)
    mid = certify_lp_optimum(sol, "midpoint", x=["1/2", "1/2"])      # another optimum, same dual
    assert mid.evidence.lp.x == ["1/2", "1/2"] and recheck(mid.to_json()).status == "confirmed"
    # a vertex claim the re-check must refute
    assert recheck(_tamper(mid.to_json(), ["vertex"], True)).status == "refuted"
    with pytest.raises(InvalidInput, match="x is not an optimum"):
        certify_lp_optimum(solve_lp(_simplex2()), "worse point", x=["0", "1"])


def test_lp_certificate_with_a_radical_parameter():
    t = Rad.power(2, fmpq(9, 10))              # 2^(9/10) ~ 1.866: cheaper than 2
    lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    sol = solve_lp_irrational(lp, [t, Rad.rat(2)])
    assert [str(v) for v in sol.x] == ["1", "0"]
    atom = t.terms[0][0]
    c = certify_lp_optimum(sol, "t against 2", parameter=atom, interval=(0, 2), unique=True)
    j = c.to_json()
    assert j["evidence"]["parameter"]["cost"] == ["1", "0"] and j["evidence"]["cost"] == ["0", "2"]
    assert recheck(j).status == "confirmed", recheck(j).detail
    # the basis is optimal exactly for t <= 2: an interval beyond it, or one without this t, is refuted
    for high in ("3", "9/5"):
        assert recheck(_tamper(j, ["parameter", "high"], high)).status == "refuted", high
    sqrt2 = _tamper(j, ["parameter", "atom", 0, 1], "1/2")
    assert recheck(sqrt2).status == "refuted"              # the claim names t = 2^(9/10) (issue 18)
    sqrt2["claim"] = sqrt2["claim"].replace("2^(9/10)", "2^(1/2)")
    assert recheck(sqrt2).status == "confirmed"            # sqrt 2 < 2 too
    assert recheck(_tamper(j, ["parameter", "value"], "2")).status == "refuted"
    # t must be a real radical of moderate order: a negative base (t = sqrt(-4)) is refuted, a huge root
    # order is beyond the re-check (and answered at once, not after computing 2^(10^8))
    assert recheck(_tamper(j, ["parameter", "atom"], [[-4, "1/2"]])).status == "refuted"
    huge = _tamper(j, ["parameter", "atom"], [[2, "1/100000001"]])
    huge["claim"] = lp_claim_text(huge)                     # a consistent claim: only the root order is hostile
    assert recheck(huge).status == "not checkable"
    with pytest.raises(InvalidInput, match="radicals other than the parameter"):
        certify_lp_optimum(sol, "no parameter given")
    # the checker refuses the same intervals itself: it never writes a certificate it cannot back
    with pytest.raises(InvalidInput, match=r"reduced cost .* turns negative inside interval"):
        certify_lp_optimum(sol, "too wide", parameter=atom, interval=(0, 3))
    with pytest.raises(InvalidInput, match="outside interval"):
        certify_lp_optimum(sol, "misses t", parameter=atom, interval=(0, fmpq(9, 5)))
    with pytest.raises(InvalidInput, match="outside interval"):
        certify_lp_optimum(sol, "misses t", parameter=atom, interval=(fmpq(19, 10), 2))
    with pytest.raises(InvalidInput, match="is empty"):
        certify_lp_optimum(sol, "empty", parameter=atom, interval=(2, 1))
    with pytest.raises(InvalidInput, match="turns negative inside interval"):
        certify_lp_optimum(sol, "unbounded above", parameter=atom, interval=(0, None))
    boundary = certify_lp_optimum(sol, "up to the tie t = 2", parameter=atom, interval=(fmpq(9, 5), 2))
    assert recheck(boundary.to_json()).status == "confirmed"


def test_lp_certificate_interval_needs_a_parameter():
    sol = solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1]))
    with pytest.raises(InvalidInput, match="interval= needs parameter="):
        certify_lp_optimum(sol, "no parameter", interval=(0, 1))


def _both():
    """x0 + x1 = 1 and x0 + x1 <= 1/2 (x >= 0): by hand, -1 times the equality plus the inequality is 0 <= -1/2."""
    return LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}], b_ub=["1/2"],
                         names=["x0", "x1"])


def test_infeasible_certificate_round_trip_schema_and_tampering():
    c = certify_lp_infeasible(_both(), "x0 + x1 cannot be 1 and at most 1/2")
    assert (c.kind, c.verdict.value, c.method.name) == ("infeasible", "holds", "EXACT_LP")
    ev = c.evidence
    assert (ev.y, ev.lam, ev.combination, ev.rhs, ev.names) == (["-1"], ["1"], ["0", "0"], "-1/2", ["x0", "x1"])
    j = c.to_json()
    jsonschema.validate(j, json_schema())
    assert Certificate.from_json(json.dumps(j)) == c
    assert recheck(j).status == "confirmed", recheck(j).detail
    for path, value in ((["y", 0], "-2"), (["lam", 0], "2"), (["b_eq", 0], "1/4"), (["b_ub", 0], "2"),
                        (["A_eq", 0, "1"], "2"), (["combination", 1], "1"), (["rhs"], "-1"), (["lam"], []),
                        (["names"], ["x0"]), (["A_ub", 0], {"0": "1", "5": "1"})):
        assert recheck(_tamper(j, path, value)).status == "refuted", path
    bad = copy.deepcopy(j)
    bad["verdict"] = "fails"
    assert recheck(bad).status == "refuted"
    md, tex = c.to_markdown(), c.to_latex()
    assert "**Verdict.** holds" in md and r"\begin{proof}" in tex and "Farkas' lemma" in md
    assert r"$\lambda_{0} = 1$" in md and r"= -\frac{1}{2} < 0$" in md and r"\mathtt{x0}" in md


def test_infeasible_certificate_refuses_feasible_systems_and_bad_farkas_vectors():
    feasible = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: -1}], b_ub=[1])
    with pytest.raises(InvalidInput, match=r"expected an infeasible system, got a feasible one: x = \("):
        certify_lp_infeasible(feasible, "not so")
    # lam = -1 on -x0 <= 1 would give w = (1, 0) >= 0 and rhs -1 < 0: only a negative multiplier makes it "work"
    with pytest.raises(InvalidInput, match="negative inequality multiplier"):
        certify_lp_infeasible(feasible, "bogus", farkas=([0], [-1]))
    with pytest.raises(InvalidInput, match="expected 1 equality and 1 inequality multipliers, got 2 and 1"):
        certify_lp_infeasible(_both(), "wrong length", farkas=([-1, 0], [1]))
    with pytest.raises(InvalidInput, match=r"not a Farkas vector: .* 0 negative combination entries and right-hand "
                                           "side 0"):
        certify_lp_infeasible(_both(), "rhs zero", farkas=(["-1/2"], [1]))
    with pytest.raises(InvalidInput, match="2 negative combination entries"):
        certify_lp_infeasible(_both(), "w < 0", farkas=([-1], [0]))
    with pytest.raises(TypeError, match="float"):
        certify_lp_infeasible(_both(), "float", farkas=([-1.0], [1]))
    with pytest.raises(InvalidInput, match="expected rational multipliers, got 'sqrt\\(2\\)'"):
        certify_lp_infeasible(_both(), "irrational", farkas=(["sqrt(2)"], [1]))
    exact = certify_lp_infeasible(_both(), "exact inputs", farkas=([Fraction(-2)], ["2"]))
    assert (exact.evidence.y, exact.evidence.lam, exact.evidence.rhs) == (["-2"], ["2"], "-1")
    # the re-check refutes the bogus vector written by hand (as a checker bug would write it)
    j = certify_lp_infeasible(_both(), "template").to_json()
    ev = j["evidence"]
    ev.update(A_eq=[{"0": "1", "1": "1"}], b_eq=["1"], A_ub=[{"0": "-1"}], b_ub=["1"], y=["0"], lam=["-1"],
              combination=["1", "0"], rhs="-1")
    j["claim"] = infeasible_claim(j)                  # the claim of the new system (issue 27: it states it)
    assert recheck(j).status == "refuted" and "negative inequality multiplier" in recheck(j).detail
    # a boundary: with x0 + x1 <= 1 the system is feasible (x0 + x1 = 1 exactly), so nothing is certified
    with pytest.raises(InvalidInput, match="got a feasible one"):
        certify_lp_infeasible(LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}],
                                            b_ub=[1]), "tie")


def _feasible_by_bases(A, b) -> bool:
    """Independent: ``A x = b, x >= 0`` (2 rows, 3 columns) is feasible iff some basic solution is non-negative."""
    cols = [[Fraction(A[i][j]) for i in range(2)] for j in range(3)]
    b = [Fraction(v) for v in b]
    if b == [0, 0]:
        return True
    for a in cols:                                   # one column: a t = b, t >= 0
        k = next((i for i in range(2) if a[i] != 0), None)
        if k is not None and b[k] / a[k] >= 0 and all(a[i] * (b[k] / a[k]) == b[i] for i in range(2)):
            return True
    for p, q in ((0, 1), (0, 2), (1, 2)):            # two independent columns: Cramer's rule
        a, c = cols[p], cols[q]
        det = a[0] * c[1] - a[1] * c[0]
        if det != 0 and (b[0] * c[1] - b[1] * c[0]) / det >= 0 and (a[0] * b[1] - a[1] * b[0]) / det >= 0:
            return True
    return False


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-2, 2), min_size=6, max_size=6), st.lists(st.integers(-2, 2), min_size=2, max_size=2))
def test_infeasible_certificate_exactly_when_no_basic_solution_is_non_negative(a, b):
    A = [a[:3], a[3:]]
    lp = LinearProgram(c=[0, 0, 0], A_eq=[dict(enumerate(r)) for r in A], b_eq=b)
    if _feasible_by_bases(A, b):
        with pytest.raises(InvalidInput, match="got a feasible one"):
            certify_lp_infeasible(lp, "feasible")
    else:
        c = certify_lp_infeasible(lp, "infeasible")
        assert recheck(c.to_json()).status == "confirmed"
        assert recheck(_tamper(c.to_json(), ["rhs"], "0")).status == "refuted"
