"""Issue 19 item 1: privacy profiles and compositions as certificates (kinds ``profile`` and ``composition``).

Values against independent references (brute force over every output set of the explicitly built product
mechanism, with Fractions; the Kairouz-Oh-Viswanath closed form written out here), both verdicts and the boundary,
two different mechanisms composed, the command line, and the attacks: every non-hint leaf mutated alone, forgeries
whose claim is rebuilt, and hostile sizes answered quickly.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import time
from fractions import Fraction
from math import comb

import pytest

from exactdp import Mechanism, discrete, geometric, path, recheck
from exactdp.certificate.records import evidence_kinds
from exactdp.cli import main
from exactdp.mechanisms import randomized_response
from exactdp.recheck import KINDS
from exactdp.composition.composition import certify_composition, certify_profile

F = Fraction
RR4 = randomized_response(2, p="1/4")          # rows (3/4, 1/4), (1/4, 3/4): e^eps0 = 3
RR3 = randomized_response(3, p="1/5")          # rows 3/5 on the diagonal, 1/5 elsewhere
G2 = geometric(2, "1/2")                       # inputs 0, 1, 2 on the path


# --------------------------------------------------------------------------------------- brute force ----
def _rows(m: Mechanism) -> dict:
    js = m.to_json()
    return {x: [F(v) for v in r] for x, r in zip(js["inputs"], js["matrix"], strict=True)}


def _product(factors) -> dict:
    """The explicit product mechanism: input x -> the distribution of the tuple of outputs (independent runs)."""
    rows = [(_rows(m), k) for m, k in factors]
    out = {}
    for x in rows[0][0]:
        dist = [F(1)]
        for r, k in rows:
            for _ in range(k):
                dist = [a * b for a in dist for b in r[x]]
        out[x] = dist
    return out


def _brute_delta(prod: dict, pairs, t: Fraction) -> Fraction:
    """max over ordered pairs and over EVERY output set S of P(S) - t Q(S) (HLM15 Def. 1, no lemma used) when the
    product has at most 12 outputs; above, sum_y (P(y) - t Q(y))_+ over the explicit product rows."""
    best = F(0)
    for a, b in pairs:
        for x, xp in ((a, b), (b, a)):
            P, Q = prod[x], prod[xp]
            n = len(P)
            if n > 12:
                best = max(best, sum((max(F(0), p - t * q) for p, q in zip(P, Q, strict=True)), F(0)))
                continue
            for mask in range(1 << n):
                s = sum((P[y] - t * Q[y] for y in range(n) if mask >> y & 1), F(0))
                best = max(best, s)
    return best


def _kov(r: Fraction, k: int, i: int) -> Fraction:
    """Kairouz-Oh-Viswanath (ICML 2015, Thm. 3.4) for k-fold binary randomized response with P(stay) = r/(1+r):
    delta at eps = (k - 2i) eps0 is sum_{l < i} C(k, l) (r^(k-l) - r^(k-2i+l)) / (1 + r)^k."""
    return sum((comb(k, j) * (r ** (k - j) - r ** (k - 2 * i + j)) for j in range(i)), F(0)) / (1 + r) ** k


@pytest.mark.parametrize("factors, pairs", [
    ([(RR4, 3)], [("0", "1")]),
    ([(RR3, 1), (G2, 1)], [("0", "1"), ("1", "2")]),
    ([(G2, 2), (RR3, 2)], [("0", "1"), ("1", "2")]),
])
@pytest.mark.parametrize("t", [F(1), F(3, 2), F(2), F(3), F(5), F(9), F(30)])
def test_delta_against_brute_force(factors, pairs, t):
    eps = "0" if t == 1 else f"log({t})"
    c = certify_composition(factors, pairs, eps=eps)
    assert F(c.evidence.query.delta_at_eps) == _brute_delta(_product(factors), pairs, t)
    assert recheck(c.to_json()).status == "confirmed"


@pytest.mark.parametrize("k", [1, 2, 5, 8])
def test_kairouz_oh_viswanath(k):
    for i in range(0, k // 2 + 1):
        t = F(3) ** (k - 2 * i)
        c = certify_composition([(RR4, k)], [("0", "1")], eps=f"log({t})")
        assert F(c.evidence.query.delta_at_eps) == _kov(F(3), k, i), (k, i)
    c = certify_composition([(RR4, k)], [("0", "1")], delta="0")
    assert c.evidence.query.t_for_delta == str(3 ** k)              # delta = 0 needs e^eps = 3^k


def test_pieces_are_the_profile_by_hand():
    # RR3 on the discrete metric: delta(t) = 3/5 - t/5 for 1 <= t <= 3, then 0 (ratios 3, 1, 1/3)
    c = certify_profile(RR3, discrete(3))
    assert [(p.t_from, p.A, p.B) for p in c.evidence.pieces] == [("1", "3/5", "1/5"), ("3", "0", "0")]
    assert c.claim.endswith("has 2 pieces") and c.holds is True


def test_both_verdicts_and_the_boundary():
    pairs = [("0", "1")]
    d = F(_kov(F(3), 4, 1))                                            # delta(eps = log 9) of 4 runs
    at = certify_composition([(RR4, 4)], pairs, eps="log(9)", delta=str(d))
    assert at.holds is True and F(at.evidence.query.delta_at_eps) == d
    below = certify_composition([(RR4, 4)], pairs, eps="log(9)", delta=str(d - F(1, 10**9)))
    assert below.holds is False
    for c in (at, below):
        assert recheck(c.to_json()).status == "confirmed"
    # eps = 0: total variation (issue 19 item 3), exactly
    tv = certify_composition([(RR4, 1)], pairs, eps="0", delta="1/2")
    assert tv.holds is True and tv.evidence.query.delta_at_eps == "1/2"


def test_worked_proof_renders_without_code():
    c = certify_composition([(G2, 2), (RR3, 1)], path(3), eps="log(3)", delta="1/3")
    md, tex = c.to_markdown(), c.to_latex()
    assert "Privacy loss" in md and "convolution" in md and "(once)" in c.claim and "(2 times)" in c.claim
    for text in (md, tex, c.to_text()):
        assert "['" not in text and "True" not in text and "False" not in text and "None" not in text


def test_two_different_mechanisms_on_a_metric():
    c = certify_composition([(G2, 2), (RR3, 3)], path(3), eps="log(4)", delta="1/2")
    assert F(c.evidence.query.delta_at_eps) == _brute_delta(_product([(G2, 2), (RR3, 3)]), [("0", "1"), ("1", "2")],
                                                            F(4))
    assert c.evidence.relation.description.startswith("pairs at distance 1 of the path")
    assert recheck(c.to_json()).status == "confirmed"
    with pytest.raises(Exception, match="other inputs"):
        certify_composition([(G2, 1), (RR4, 1)], [("0", "1")])


def test_transcendental_entries_and_levels():
    e_rr = Mechanism.from_rows(["0", "1"], ["0", "1"], [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"],
                                                         ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]])
    c = certify_composition([(e_rr, 2)], [("0", "1")], eps="1", delta="1/2")
    assert [p.t_from for p in c.evidence.pieces] == ["1", "exp(2)"]
    assert recheck(c.to_json()).status == "confirmed"
    # e^eps = 2^(1/3): every number is a + b 2^(1/3), decided in fractions on both sides (issue 31's method rule)
    c = certify_profile(RR4, [("0", "1")], eps="log(2)/3", delta="1/2")
    assert c.method.name == "RATIONAL" and recheck(c.to_json()).status == "confirmed"
    # a transcendental profile at an algebraic power of e^eps is outside the library's exact regimes: undecided
    c = certify_profile(e_rr, [("0", "1")], eps="log(2)/3", delta="1/2")
    assert c.verdict.value == "undecided"


# -------------------------------------------------------------------------------------------- the CLI ----
@pytest.fixture
def files(tmp_path):
    def write(name, obj):
        p = tmp_path / name
        p.write_text(json.dumps(obj))
        return str(p)
    return {"rr": write("rr.json", RR3.to_json()), "g": write("g.json", G2.to_json()),
            "p3": write("p3.json", {"kind": "path", "n": 3}),
            "e": write("e.json", {"inputs": ["0", "1", "2"], "outputs": ["a", "b"],
                                  "matrix": [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"],
                                             ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"],
                                             ["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"]]})}


def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_compose_certificate(files, capsys):
    base = ["compose", files["g"], files["rr"], "--metric", files["p3"], "--times", "2,3"]
    code, out, _ = _run([*base, "--eps", "log(4)", "--delta", "1/2", "--format", "json"], capsys)
    j = json.loads(out)
    brute = _brute_delta(_product([(G2, 2), (RR3, 3)]), [("0", "1"), ("1", "2")], F(4))
    assert code == (0 if brute <= F(1, 2) else 1) and j["kind"] == "composition"
    assert F(j["evidence"]["query"]["delta_at_eps"]) == brute and recheck(j).status == "confirmed"
    code, out, _ = _run([*base, "--eps", "log(4)", "--delta", str(brute - F(1, 1000))], capsys)
    assert code == 1 and "verdict: fails" in out
    code, out, _ = _run(["profile", files["rr"], "--metric", files["p3"], "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["kind"] == "profile"
    code, out, _ = _run(["profile", files["e"], "--metric", files["p3"], "--eps", "log(2)/3", "--delta", "0"], capsys)
    assert code == 3 and "undecided" in out
    code, out, err = _run(["compose", files["g"], files["rr"], "--metric", files["p3"], "--times", "1,2,3"], capsys)
    assert code == 2 and out == "" and "one per mechanism" in err


# ---------------------------------------------------------------------------------------- the attacks ----
GENUINE = [
    ("profile holds", lambda: certify_profile(RR3, discrete(3), eps="log(2)", delta="1/5")),
    ("profile fails", lambda: certify_profile(RR3, path(3), eps="log(2)", delta="1/6")),
    ("profile at eps", lambda: certify_profile(G2, path(3), eps="0")),
    ("profile for delta", lambda: certify_profile(RR4, [("0", "1")], delta="1/8")),
    ("profile only", lambda: certify_profile(G2, [("0", "2")])),
    ("composition two", lambda: certify_composition([(G2, 2), (RR3, 1)], path(3), eps="log(3)", delta="1/3")),
    ("composition rr", lambda: certify_composition([(RR4, 3)], [("0", "1")], eps="log(3)", delta="1/4")),
    ("composition e", lambda: certify_composition([(Mechanism.from_rows(
        ["0", "1"], ["0", "1"], [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"], ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]),
        2)], [("0", "1")], eps="1", delta="1/2")),
]


def _other(v: str):
    try:
        q = F(v)
    except (ValueError, ZeroDivisionError):
        return None
    return str(q + F(1, 7)) if q != 0 else "1/3"


def _leaf(v):
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1] + ([v - 1] if v > 0 else [])
    if isinstance(v, str):
        n = _other(v)
        if n is not None:
            return [n]
        if v in ("holds", "fails"):
            return ["fails" if v == "holds" else "holds"]
        return [f"({v})+1" if "(" in v else v + "x"]
    return []


def mutants(cert: dict):
    """``(trail, op, mutant)`` for every leaf of the evidence and the verdict: set, drop a list item, swap two."""
    def walk(node, trail):
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, [*trail, k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, [*trail, i])
            for i in range(len(node)):
                yield trail, ("drop", i)
            if len(node) >= 2 and node[0] != node[1]:
                yield trail, ("swap", 0)
        elif node is not None:
            for w in _leaf(node):
                yield trail, ("set", w)

    for trail, op in walk({"evidence": cert["evidence"], "verdict": cert["verdict"]}, []):
        m = copy.deepcopy(cert)
        d = m
        for k in trail[:-1] if op[0] == "set" else trail:
            d = d[k]
        if op[0] == "set":
            d[trail[-1]] = op[1]
        elif op[0] == "drop":
            del d[op[1]]
        else:
            d[0], d[1] = d[1], d[0]
        yield trail, op, m


def caught(m: dict) -> bool:
    try:
        return recheck(m).status != "confirmed"
    except ValueError:
        return True


def _preserving(trail, op, m, g) -> str | None:
    """Why an unrefuted mutant still states a true fact, or None."""
    if "reduction" in trail:
        return "the metric record's reduction text (trustA's metric serialisation)"
    if op[0] in ("set", "swap") and "outputs" in trail:
        return "a relabelling of output labels nothing refers to"
    if "metric" in trail and op[0] == "swap" and (trail[-1] in ("pairs", "labels", "edges")
                                                  or trail[-2] in ("pairs", "edges")):
        return "order or orientation of the metric's generating pairs, or of the discrete metric's points"
    if op[0] in ("swap", "set") and "mechanism" in trail and _true_statement(m):
        return "rows or labels permuted and the statement is still true (recomputed from the mutant)"
    if (op[0] == "set" and trail[-1] in ("codes", "values")) or (len(trail) >= 2 and trail[-2] == "codes"):
        dm = [[r["values"][k] for k in row] for r in _mechs(m) for row in r["codes"]]
        if dm == [[r["values"][k] for k in row] for r in _mechs(g) for row in r["codes"]]:
            return "equal rewriting of a mechanism"
    return None


def _true_statement(m: dict) -> bool:
    """Does the library, run afresh on the mutant's own mechanisms and pairs, state exactly the mutant's PLDs,
    pieces and answers?  (Then the mutant is a true certificate, e.g. two rows of a symmetric mechanism swapped.)"""
    ev = m["evidence"]
    try:
        mechs = [Mechanism.from_rows(d["inputs"], d["outputs"], [[d["values"][k] for k in row] for row in d["codes"]])
                 for d in _mechs(m)]
        times = [1] if "mechanism" in ev else [f["times"] for f in ev["factors"]]
        q = ev["query"]
        lvl = q["level"]
        c = certify_composition(list(zip(mechs, times, strict=True)),
                                [(p["x"], p["x_prime"]) for p in ev["relation"]["pairs"]],
                                eps=None if lvl is None else lvl["text"], delta=q["delta"]).to_json()["evidence"]
    except Exception:
        return False
    def plds(e):
        return sorted(json.dumps(p, sort_keys=True) for p in e["plds"])

    def pieces(e):
        return [(p["t_from"], p["A"], p["B"]) for p in e["pieces"]]
    return c["query"] == ev["query"] and pieces(c) == pieces(ev) and plds(c) == plds(ev)


def _mechs(c):
    ev = c["evidence"]
    return [ev["mechanism"]] if "mechanism" in ev else [f["mechanism"] for f in ev["factors"]]


@pytest.fixture(scope="module", params=GENUINE, ids=[g[0] for g in GENUINE])
def genuine(request):
    return request.param[0], json.loads(json.dumps(request.param[1]().to_json()))


def test_genuine_confirmed_and_claim_rebuilt(genuine):
    import jsonschema

    from exactdp.certificate import Certificate
    from exactdp.certificate.schema import json_schema

    name, j = genuine
    jsonschema.validate(j, json_schema())
    assert Certificate.from_json(j).to_json() == j
    assert recheck(j).status == "confirmed", name
    assert j["claim"] == importlib.import_module(f"exactdp.recheck.{KINDS[j['kind']]}").claim_text(j)


def test_every_leaf_mutation_refuted(genuine):
    name, j = genuine
    hints = {f.name for f in dataclasses.fields(evidence_kinds()[j["kind"]]) if f.metadata.get("role") == "hint"}
    total = refuted = 0
    missed, kept = [], 0
    for trail, op, m in mutants(j):
        if len(trail) >= 2 and trail[1] in hints:
            continue
        total += 1
        if caught(m):
            refuted += 1
        elif _preserving(trail, op, m, j) is None:
            missed.append((trail, op))
        else:
            kept += 1
    assert not missed, (name, missed)
    assert refuted + kept == total and refuted >= 0.85 * total, (name, refuted, total)
    print(f"{name}: {refuted}/{total} refuted, {kept} state a true fact")


def _claimed(j: dict) -> dict:
    j["claim"] = importlib.import_module(f"exactdp.recheck.{KINDS[j['kind']]}").claim_text(j)
    return j


def _genuine(name: str) -> dict:
    return json.loads(json.dumps(dict(GENUINE)[name]().to_json()))


def test_forged_profile_lowered_consistently():
    """A failing certificate turned into a holding one: pieces scaled down so they still meet, the delta at eps and
    the verdict consistent with them, the claim rebuilt -- the kernel's own lines exceed them."""
    j = _genuine("profile fails")
    ev = j["evidence"]
    for p in ev["pieces"]:
        p["A"], p["B"] = str(F(p["A"]) / 2), str(F(p["B"]) / 2)
    ev["query"]["delta_at_eps"] = str(F(ev["query"]["delta_at_eps"]) / 2)
    ev["query"]["t_for_delta"] = None
    ev["query"]["delta"] = ev["query"]["delta_at_eps"]
    j["verdict"] = "holds"
    r = recheck(_claimed(j))
    assert r.status == "refuted" and ("worst set" in r.detail or "not P(S)" in r.detail), r.detail


def test_forged_mechanism_with_matching_plds():
    """The mechanism and its stated PLDs changed together (a more private mechanism): the pieces are no longer its
    profile."""
    j = _genuine("profile holds")
    m = j["evidence"]["mechanism"]
    m["values"] = ["1/3"]
    m["codes"] = [[0, 0, 0]] * 3
    for p in j["evidence"]["plds"]:
        p["losses"] = [{"ratio": "1", "mass": "1"}]
    r = recheck(_claimed(j))
    assert r.status == "refuted", r.detail


def test_forged_times_and_relation():
    j = _genuine("composition rr")
    j["evidence"]["factors"][0]["times"] = 2
    r = recheck(_claimed(j))
    assert r.status == "refuted", r.detail
    j = _genuine("composition two")
    j["evidence"]["relation"]["pairs"] = j["evidence"]["relation"]["pairs"][:1]    # drop an edge of the path
    j["evidence"]["plds"] = j["evidence"]["plds"][:4]
    r = recheck(_claimed(j))
    assert r.status == "refuted" and "distance 1" in r.detail, r.detail


def test_hostile_sizes_are_refused_quickly():
    t0 = time.process_time()
    for K in (10**12, 5000):
        j = _genuine("composition rr")
        j["evidence"]["factors"][0]["times"] = K
        r = recheck(_claimed(j))
        assert r.status == "not checkable" and "too large" in r.detail, (K, r.detail)
    # 12 distinct loss values run 12 times: C(23, 12) > 10^6 support values, counted before any product
    n = 12
    vals = [F(k + 1, sum(range(1, n + 1))) for k in range(n)]
    M = Mechanism.from_rows(["0", "1"], [str(k) for k in range(n)], [[str(v) for v in vals],
                                                                     [str(v) for v in vals[::-1]]])
    j = json.loads(json.dumps(certify_composition([(M, 1)], [("0", "1")], eps="0").to_json()))
    j["evidence"]["factors"][0]["times"] = 12
    r = recheck(_claimed(j))
    assert r.status == "not checkable" and "too large" in r.detail, r.detail
    # transcendental entries are not merged by this kernel: binary randomized response at eps0 = 1 run 5 times
    j = _genuine("composition e")
    j["evidence"]["factors"][0]["times"] = 5
    r = recheck(_claimed(j))
    assert r.status == "not checkable" and "too large" in r.detail, r.detail
    # a discrete metric of 5000 points in the record: refuted by counting, before 12.5 million pairs are listed
    j = _genuine("profile holds")
    j["evidence"]["relation"]["metric"]["labels"] = [str(k) for k in range(5000)]
    j["evidence"]["relation"]["metric"]["points"] = 5000
    assert recheck(j).status == "refuted"
    assert time.process_time() - t0 < 5


def test_a_large_genuine_composition_is_confirmed_within_limits():
    c = certify_composition([(RR4, 300)], [("0", "1")], eps="log(9)", delta="1/2")
    t0 = time.process_time()
    r = recheck(c.to_json())
    assert r.status == "confirmed" and time.process_time() - t0 < 10
    assert F(c.evidence.query.delta_at_eps) == _kov(F(3), 300, 149)          # eps = (300 - 2*149) log 3
