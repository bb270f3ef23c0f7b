"""Every claim returns the certificates its verdict rests on (issue 7 item 5), and the certificate kinds
added for them: ``lp`` (an exact LP optimum stated in full), ``infeasible`` (a Farkas vector) and
``decomposition`` (HLM15 Lemmas 1-2); the ``lp`` and ``infeasible`` checkers themselves are tested in
tests/lp/test_optimum.py."""

import copy
import importlib
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
from exactdp.certify import certify_lp_infeasible
from exactdp.mechanisms import geometric
from exactdp.papers.grs12_optimality import FOOTNOTE_VERTEX, _figure2_mechanism, _remap_lp
from exactdp.papers.registry import run_claim
from exactdp.recheck.decomposition import claim_text as decomposition_claim_text

#: the claims that returned no certificate before, and the two whose certificates were "not checkable"
CERTIFIED = {"GRS12-fig1": 13, "GRS12-fig3": 1, "GRS12-fn-vertex": 3, "GRS12-thm6.3": 5, "HLM15-ex5": 7,
             "HLM15-lem1-2": 2}
RECHECKED = ("BCSZ18-prop2.1", "KL10-thm2.7")


@pytest.mark.parametrize("cid", sorted(CERTIFIED) + list(RECHECKED))
def test_claim_certificates_all_confirmed(cid):
    r = run_claim(cid)
    if cid in CERTIFIED:
        assert len(r.certificates) == CERTIFIED[cid]
    assert r.certificates and all(g.status == "confirmed" for g in r.rechecks()), \
        [(c.claim, g.detail) for c, g in zip(r.certificates, r.rechecks(), strict=True) if g.status != "confirmed"]


def test_footnote_remap_both_routes_and_a_real_remap():
    G = geometric(3, "1/2").rows()
    V = [[fmpq(v) for v in r] for r in FOOTNOTE_VERTEX]
    lp = _remap_lp(G, V)
    core = certify_lp_infeasible(lp, "the LP core's own Farkas vector")      # the general route
    assert recheck(core.to_json()).status == "confirmed"
    paper = run_claim("GRS12-fn-vertex").certificates[-1]                    # the readable route, from G^-1
    assert paper.kind == "infeasible" and recheck(paper.to_json()).status == "confirmed"
    assert [v for v in paper.evidence.combination if v != "0"] == ["1"] and paper.evidence.rhs == "-1/2"
    # independently: G^-1 row 1 is (-2, 5, -2, 0) (G G^-1 = I by hand), and it sends column 1 of V to -1/2
    Gf = [[Fraction(str(v)) for v in r] for r in G]
    row = [Fraction(-2), Fraction(5), Fraction(-2), Fraction(0)]
    assert [sum(row[i] * Gf[i][z] for i in range(4)) for z in range(4)] == [0, 1, 0, 0]
    assert sum(row[i] * Fraction(FOOTNOTE_VERTEX[i][1]) for i in range(4)) == Fraction(-1, 2)
    # a mechanism that IS a remap of a geometric mechanism (GRS12 Fig. 2: output 1 sent to 2): feasible, refused
    F = _figure2_mechanism().rows()
    with pytest.raises(InvalidInput, match="got a feasible one"):
        certify_lp_infeasible(_remap_lp(geometric(5, "1/2").rows(), F), "Figure 2 is no remap")


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
    big["claim"] = big["evidence"]["statement"] = decomposition_claim_text(big)   # only the size is hostile
    r = recheck(big)
    assert r.status == "not checkable" and "larger than" in r.detail
    many = _tamper(j, ["max_rects"], 10**9)
    many["claim"] = many["evidence"]["statement"] = decomposition_claim_text(many)
    assert recheck(many).status == "not checkable"
    with pytest.raises(ValueError, match="not a certificate"):     # a mistyped field is refused before any work
        recheck(_tamper(j, ["max_rects"], "3"))


def _mechanisms_in(ev, path=()):
    """Paths to every carried mechanism ({"values", "codes", ...}) inside a certificate's evidence."""
    if isinstance(ev, dict):
        if "values" in ev and "codes" in ev and "inputs" in ev:
            yield path
        for k, v in ev.items():
            yield from _mechanisms_in(v, (*path, k))
    elif isinstance(ev, list):
        for i, v in enumerate(ev):
            yield from _mechanisms_in(v, (*path, i))


@pytest.mark.parametrize("cid", ["KL10-def2.3", "BCSZ18-lem4.1", "BCSZ18-sec3", "GRS12-ex2.1", "HLM15-ex6"])
def test_a_negative_code_in_any_carried_mechanism_is_refuted(cid):
    seen = 0
    for c in run_claim(cid).certificates:
        j = c.to_json()
        for path in _mechanisms_in(j["evidence"]):
            bad = copy.deepcopy(j)
            m = bad["evidence"]
            for k in path:
                m = m[k]
            if not m["codes"] or not m["codes"][0]:
                continue
            m["codes"][0][0] = -1                      # would silently read values[-1]
            r = recheck(bad)
            assert r.status in ("refuted", "not checkable") and r.status != "confirmed", (cid, c.kind, r.detail)
            seen += r.status == "refuted"
    assert seen, cid
