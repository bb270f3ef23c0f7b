"""Every claim returns the certificates its verdict rests on (issue 7 item 5), and the two certificate kinds
added for them: ``lp`` (an exact LP optimum stated in full) and ``decomposition`` (HLM15 Lemmas 1-2)."""

import copy
import importlib
import json
import random

import jsonschema
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Certificate, InvalidInput, recheck
from exactdp.certificate.schema import json_schema
from exactdp.certify import certify_lp_optimum
from exactdp.exact import LinearProgram, Rad, solve_lp, solve_lp_irrational
from exactdp.papers.hlm15_approx import _lemma1
from exactdp.papers.registry import run_claim
from exactdp.recheck.decomposition import _ok as recheck_decomposition

#: the claims that returned no certificate before, and the two whose certificates were "not checkable"
CERTIFIED = {"GRS12-fig1": 13, "GRS12-fig3": 1, "GRS12-fn-vertex": 2, "GRS12-thm6.3": 5, "HLM15-ex5": 7,
             "HLM15-lem1-2": 2}
RECHECKED = ("BCSZ18-prop2.1", "KL10-thm2.7")


def _tamper(j, path, value):
    bad = copy.deepcopy(j)
    d = bad["evidence"]
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value(d[path[-1]]) if callable(value) else value
    return bad


@pytest.mark.parametrize("cid", sorted(CERTIFIED) + list(RECHECKED))
def test_claim_certificates_all_confirmed(cid):
    r = run_claim(cid)
    if cid in CERTIFIED:
        assert len(r.certificates) == CERTIFIED[cid]
    assert r.certificates and all(g.status == "confirmed" for g in r.rechecks()), \
        [(c.claim, g.detail) for c, g in zip(r.certificates, r.rechecks()) if g.status != "confirmed"]


# ------------------------------------------------------------------------------------------------ lp ----
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
    assert recheck(_tamper(j, ["parameter", "atom", 0, 1], "1/2")).status == "confirmed"   # sqrt 2 < 2 too
    assert recheck(_tamper(j, ["parameter", "value"], "2")).status == "refuted"
    with pytest.raises(InvalidInput, match="radicals other than the parameter"):
        certify_lp_optimum(sol, "no parameter given")
    # the checker refuses the same intervals itself: it never writes a certificate it cannot back
    with pytest.raises(InvalidInput, match="reduced cost .* turns negative inside interval"):
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


# ------------------------------------------------------------------------------------- decomposition ----
def test_decomposition_certificates_tampered_are_refuted():
    r = run_claim("HLM15-lem1-2")
    for c in r.certificates:
        j = c.to_json()
        jsonschema.validate(j, json_schema())
        assert Certificate.from_json(json.dumps(j)) == c
        bad_verdict = copy.deepcopy(j)
        bad_verdict["verdict"] = "fails"
        assert recheck(bad_verdict).status == "refuted"
        assert recheck(_tamper(j, ["counts", 2, 2], lambda v: v - 1)).status == "refuted"
        assert recheck(_tamper(j, ["Y"], ["a", "b"])).status == "refuted"
        assert "HLM15 Lemma" in c.to_text()


def _mask(S, universe):
    return sum(1 << universe.index(v) for v in S)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=4))
def test_decomposition_recheck_agrees_with_the_claims_enumeration(seed, p):
    rng = random.Random(seed)
    X, Y = ("0", "1", "2"), ("a", "b", "c")
    sub = lambda U: frozenset(v for v in U if rng.random() < 0.5) or frozenset(U[:1])  # noqa: E731
    rects = [(sub(X), sub(Y)) for _ in range(p)]
    eq, dis = _lemma1(rects, X, Y)
    assert recheck_decomposition([(_mask(A, X), _mask(B, Y)) for A, B in rects], len(X), len(Y)) == (eq and dis)



@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=2**4 - 1), st.integers(min_value=1, max_value=2**3 - 1))
def test_decomposition_grid_is_the_cartesian_product(A, B):
    from exactdp.recheck.decomposition import _grid

    nb = 3
    pairs = {(a, b) for a in range(4) if A >> a & 1 for b in range(nb) if B >> b & 1}
    assert _grid(A, B, nb) == sum(1 << (a * nb + b) for a, b in pairs)


def test_decomposition_recheck_detects_a_broken_enumeration(monkeypatch):
    # the lemma always holds, so break the re-check's own product of sets and watch it refute the claim
    D = importlib.import_module("exactdp.recheck.decomposition")

    j = run_claim("HLM15-lem1-2").certificates[0].to_json()
    assert recheck(j).status == "confirmed"
    good = D._grid
    # a product that loses the lowest row of any first factor with two or more elements: the union of the
    # rectangles and the union of the Lemma 1 pieces (whose first factors are unions) no longer agree
    monkeypatch.setattr(D, "_grid", lambda A, B, nb: good(A & (A - 1) or A, B, nb))
    assert recheck(j).status == "refuted"


def test_decomposition_recheck_refuses_hostile_sizes_quickly():
    j = run_claim("HLM15-lem1-2").certificates[0].to_json()
    big = _tamper(_tamper(j, ["X"], [str(i) for i in range(24)]), ["Y"], [f"y{i}" for i in range(24)])
    r = recheck(big)
    assert r.status == "not checkable" and "larger than" in r.detail
    assert recheck(_tamper(j, ["max_rects"], 10**9)).status == "not checkable"
    assert recheck(_tamper(j, ["max_rects"], "3")).status == "refuted"
