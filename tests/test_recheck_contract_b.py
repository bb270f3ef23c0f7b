"""Issue 18, trustB's half: every non-hint leaf of a genuine certificate of each of trustB's kinds, changed one at a
time, makes the independent re-check answer ``refuted`` (or refuse the file); plus self-consistent forgeries.

The mutator is a small local copy (the lead unifies it with tests/test_recheck_contract.py): a number is moved to
another value, a text is edited, a boolean flipped, a list item dropped, two different list items swapped.  A
mutant counts as caught when :func:`exactdp.recheck` does not answer ``confirmed`` with the mutant's claim rebuilt by
the kind's ``claim_text`` (the merged dispatcher refutes a claim that differs; until the merge each trustB kind
module checks it itself).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
from fractions import Fraction

import networkx as nx
import pytest

from exactdp import Level, Mechanism, cycle, discrete, exponential, from_graph, geometric, grid, path
from exactdp import recheck
from exactdp.certificate.records import evidence_kinds
from exactdp.recheck import KINDS
from exactdp.certify import certify_lp_infeasible, certify_lp_optimum, certify_relation
from exactdp.exact import LinearProgram, Rad, solve_lp, solve_lp_irrational
from exactdp.papers.hlm15_approx import _decomposition_certificate
from exactdp.theory.extension_cert import certify_extension
from exactdp.theory.extension_lp import best_extension_bracket
from exactdp.theory.leakage import leakage
from exactdp.theory.optimality import certify_universal_optimality
from exactdp.theory.regular import regular_prior, tight_constraints
from exactdp.theory.theorem4 import tight_remap
from exactdp.theory.threshold import threshold
from exactdp.theory.tradeoff import certify_tradeoff
from exactdp.theory.users import User, power_loss
from exactdp.theory.utility import certify_exponential_bound, certify_utility
from exactdp.theory.utility_grid import compare_utilities

HALF = Level.from_alpha("1/2")
AH = Mechanism.from_rows(["0", "2"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
#: an asymmetric mechanism: permuting a row or the prior changes its leakage
ASYM = Mechanism.from_rows(["0", "1", "2"], ["a", "b", "c"], [["1/2", "1/3", "1/6"], ["1/4", "1/2", "1/4"],
                                                             ["1/10", "3/10", "3/5"]])
E = exponential(discrete(2), beta="log(2)", mu={"0": "9/10", "1": "1/10"})


def _lp():
    return certify_lp_optimum(solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1}],
                                                     b_ub=["3/4"])), "a two-variable LP", unique=True, vertex=True)


def _lp_parametric():
    t = Rad.power(2, "9/10")
    sol = solve_lp_irrational(LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1]), [t, Rad.rat(2)])
    return certify_lp_optimum(sol, "t against 2", parameter=t.terms[0][0], interval=(0, 2), unique=True)


def _infeasible():
    return certify_lp_infeasible(LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}],
                                               b_ub=["1/2"], names=["x0", "x1"]), "x0 + x1 = 1 and x0 + x1 <= 1/2")


#: (name, factory): tiny genuine certificates of every trustB kind (and of each route where it differs)
GENUINE = [
    ("extension holds", lambda: certify_extension(AH, path(3), ["0", "2"], alpha="1/2")),
    ("extension fails (a)", lambda: certify_extension(AH, path(3), ["0", "2"], alpha="3/4")),
    ("extension transcendental", lambda: certify_extension(AH, path(3), ["0", "2"], eps="1")),
    ("best_extension", lambda: best_extension_bracket(AH, path(3), ["0", "2"], alpha="1/2", rel_width="1/4")),
    ("optimality", lambda: certify_universal_optimality(2, User.uniform(2, "absolute"), alpha="1/2")),
    ("optimality radical loss", lambda: certify_universal_optimality(
        2, User(["1/2", "0", "1/2"], power_loss(2, "3/2")), alpha="1/2")),
    ("lp", _lp),
    ("lp parametric", _lp_parametric),
    ("infeasible", _infeasible),
    ("tight holds", lambda: tight_constraints(path(3), HALF)),
    ("tight fails", lambda: tight_constraints(from_graph(nx.star_graph(3)), Level.from_alpha("3/4"))),
    ("regular", lambda: regular_prior(["1/3", "1/3", "1/3"], path(3), HALF)),
    ("regular transcendental", lambda: regular_prior(["1/3", "1/3", "1/3"], path(3), Level.from_eps("1/2"))),
    ("regular support", lambda: regular_prior(["1/2", "0", "1/2"], path(3), HALF)),
    ("tight transcendental", lambda: tight_constraints(path(3), Level.from_eps("1/2"))),
    ("threshold bracket", lambda: threshold(from_graph(nx.star_graph(3)))),
    ("threshold symmetric", lambda: threshold(cycle(4))),
    ("threshold path", lambda: threshold(path(3))),
    ("leakage", lambda: leakage(ASYM, ["1/2", "1/3", "1/6"])),
    ("theorem4", lambda: tight_remap(geometric(2, "1/2"), path(3), HALF)),
    ("utility holds", lambda: certify_utility(E, discrete(2), gamma="1", delta="9/10")),
    ("utility fails", lambda: certify_utility(E, discrete(2), gamma="1", delta="1/2")),
    ("exponential_bound", lambda: certify_exponential_bound(E, discrete(2), beta="log(2)")),
    ("tradeoff zero", lambda: certify_tradeoff(path(3), gamma="2", delta="1/5", rel_width="1/4")),
    ("tradeoff bracket", lambda: certify_tradeoff(path(3), gamma="1", delta="1/2", rel_width="1/4")),
    ("relation identity", lambda: certify_relation("2*alpha/(1 + alpha)", "1 - (1 - alpha)/(1 + alpha)",
                                                   for_all_alpha=True)),
    ("relation bound", lambda: certify_relation("alpha^2", "alpha", "<=", for_all_alpha=True)),
    ("relation fails", lambda: certify_relation("alpha", "1/2", "<=", for_all_alpha=True)),
    ("relation numbers", lambda: certify_relation("exp(1/2)", "1648/1000", ">")),
    ("utility_comparison", lambda: compare_utilities("2", tight_constraints(grid((3, 3), "euclidean"),
                                                                           Level.from_eps("2")),
                                                     "planar-laplace", {"side": 3})),
    ("decomposition", lambda: _decomposition_certificate(1, ["0", "1"], ["a", "b"], [[1, 9, 9], [2, 81, 81]])),
]


# ------------------------------------------------------------------------------------------- the mutator ----
def _other_number(v: str) -> str | None:
    try:
        q = Fraction(v)
    except (ValueError, ZeroDivisionError):
        return None
    return str(q + Fraction(1, 7)) if q != 0 else "1/3"


def _leaf_mutants(v):
    """Values that differ from the leaf ``v`` (same type where possible)."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1] + ([v - 1] if v > 0 else [])
    if isinstance(v, str):
        n = _other_number(v)
        if n is not None:
            return [n]
        if v in ("holds", "fails", "undecided", "undefined"):
            return [w for w in ("holds", "fails") if w != v]
        return [f"({v})+1" if v and ("(" in v or "alpha" in v) else v + "x"]
    return []


def mutants(cert: dict):
    """``(where, mutant)`` for every leaf of the evidence (and the verdict), one change at a time."""
    def walk(node, trail):
        if isinstance(node, dict):
            for k, v in node.items():
                yield from walk(v, trail + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                yield from walk(v, trail + [i])
            for i in range(len(node)):
                yield trail, ("drop", i)
            if len(node) >= 2 and node[0] != node[1]:
                yield trail, ("swap", 0)
        elif node is not None:
            for w in _leaf_mutants(node):
                yield trail, ("set", w)

    def apply(trail, op):
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
        return m

    for trail, op in walk({"evidence": cert["evidence"], "verdict": cert["verdict"]}, []):
        yield trail, op, apply(trail, op)


def caught(m: dict) -> bool:
    try:
        return recheck(m).status != "confirmed"
    except ValueError:        # refused: not a certificate
        return True


def hint_fields(kind: str) -> set:
    """Evidence fields declared hints (``field(metadata={"role": "hint"})``, convention 1): never mutated."""
    cls = evidence_kinds()[kind]
    return {f.name for f in dataclasses.fields(cls) if f.metadata.get("role") == "hint"}


def _decoded(ev: dict) -> list:
    """Every carried mechanism and distance table, decoded (values[codes]): equal rewritings leave it unchanged."""
    out = []

    def walk(node):
        if isinstance(node, dict):
            if "values" in node and "codes" in node:
                try:
                    out.append([[node["values"][k] for k in row] for row in node["codes"]])
                except (IndexError, TypeError):
                    out.append(None)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(ev)
    return out


#: label lists: renaming a label nothing else refers to, or reordering a set, restates the same fact
_LABELS = {"points", "inputs", "outputs", "H", "names", "labels"}


def _leakage_ratio(c: dict):
    """``sum_z max_y pi_y h_yz / max_y pi_y`` by brute force from the decoded mechanism (None if malformed)."""
    try:
        m, pi = c["evidence"]["mechanism"], [Fraction(v) for v in c["evidence"]["prior"]]
        rows = [[Fraction(m["values"][k]) for k in row] for row in m["codes"]]
        return sum(max(p * r[z] for p, r in zip(pi, rows)) for z in range(len(rows[0]))) / max(pi)
    except (IndexError, ValueError, TypeError, ZeroDivisionError):
        return None


def claim_preserving(kind: str, trail: list, op: tuple, mutant: dict, genuine: dict) -> str | None:
    """Why an unrefuted mutant still states a true fact (the issue: such mutants do not count), or ``None``."""
    if _decoded(mutant["evidence"]) == _decoded(genuine["evidence"]) and trail[-1] in ("codes", "values") \
            or (len(trail) >= 2 and trail[-2] == "codes"):
        if _decoded(mutant["evidence"]) == _decoded(genuine["evidence"]):
            return "equal rewriting (the decoded matrix is unchanged)"
    if kind == "leakage" and _leakage_ratio(mutant) == _leakage_ratio(genuine):
        return "a different mechanism or prior with the same leakage (brute force)"
    if kind == "optimality" and trail[:3] == ["evidence", "loss", trail[2]] and \
            Fraction(genuine["evidence"]["prior"][trail[2]]) == 0:
        return "a loss row of a result the prior never gives (it enters no expected loss)"
    if kind == "lp" and any(t in ("cost", "A_eq", "A_ub", "b_eq", "b_ub") for t in trail):
        return "a different LP that the stated point still solves (the LP is named only by the caller's statement)"
    if kind in ("lp", "optimality", "best_extension", "tradeoff", "regular", "tight") and op[0] == "set" and \
            isinstance(trail[-2], str) and trail[-2] in ("y", "lam", "lo_y", "hi_y", "lo_lam", "hi_lam"):
        return "another valid dual (a proof witness, re-verified in full)"
    if "pairs" in trail and op[0] == "swap":
        return "order or orientation of generating pairs"
    if "edges" in trail and op[0] == "swap":
        return "order or orientation of the metric's defining edges (the same weighted graph)"
    if op[0] == "swap" and trail[-1] == "bounds":
        return "order of the face duals"
    if "reduction" in trail:
        return "the metric record's reduction text (trustA's metric serialisation, convention 3)"
    if kind == "exponential_bound" and "smallest" in trail:
        return "the nested epsilon evidence (re-checked by trustA's epsilon kind)"
    if op[0] in ("set", "swap") and any(t in _LABELS for t in trail if isinstance(t, str)):
        return "a relabelling of labels no other field refers to"
    if trail[-1] == "sample_alpha":
        return "another rational sample inside the stated failure set"
    if kind == "threshold" and "distances" in trail:
        return "another ball-size symmetric table: threshold 0 still holds (the description-table tie is trustA's)"
    return None


def _outcome(name: str, j: dict):
    hints = hint_fields(j["kind"])
    total = refuted = 0
    preserved, missed = {}, []
    for trail, op, m in mutants(j):
        if len(trail) >= 2 and trail[0] == "evidence" and trail[1] in hints:
            continue
        total += 1
        if caught(m):
            refuted += 1
            continue
        why = claim_preserving(j["kind"], trail, op, m, j)
        if why is None:
            missed.append((trail, op))
        else:
            preserved[why] = preserved.get(why, 0) + 1
    return total, refuted, preserved, missed


@pytest.fixture(scope="module", params=GENUINE, ids=[g[0] for g in GENUINE])
def genuine(request):
    name, make = request.param
    return name, json.loads(json.dumps(make().to_json()))


def test_genuine_confirmed(genuine):
    name, j = genuine
    r = recheck(j)
    assert r.status == "confirmed", (name, r.detail)
    assert j["claim"] == importlib.import_module(f"exactdp.recheck.{KINDS[j['kind']]}").claim_text(j)


def test_every_leaf_mutation_caught(genuine):
    """Every non-hint leaf changed alone: refuted or refused, unless the mutant states a true fact (counted)."""
    name, j = genuine
    total, refuted, preserved, missed = _outcome(name, j)
    assert not missed, (name, missed)
    delegated = sum(n for why, n in preserved.items() if "trustA" in why)
    assert refuted >= 0.8 * (total - delegated), (name, refuted, total, preserved)   # the exemptions stay rare


# ------------------------------------------------------------------------------ self-consistent forgeries ----
def _claimed(j: dict) -> dict:
    """The forged certificate with its claim rebuilt from the forged evidence: only the kernel's re-derivation can
    catch it (the claim check alone would not)."""
    j["claim"] = importlib.import_module(f"exactdp.recheck.{KINDS[j['kind']]}").claim_text(j)
    return j


def _refuted(j: dict, why: str) -> None:
    r = recheck(_claimed(j))
    assert r.status == "refuted", r.detail
    assert why in r.detail, r.detail


def _genuine(name: str) -> dict:
    return json.loads(json.dumps(dict(GENUINE)[name]().to_json()))


def test_forged_extension_epsilon():
    """The rendered "(d) epsilon of A": a smaller eps with an enclosure that contains it."""
    j = _genuine("extension holds")
    assert j["evidence"]["epsilon"] == "log(2)"     # by hand: A(1) = (1/2, 1/2), A(2) = (1/4, 3/4): ratio 2 at d = 1
    j["evidence"]["epsilon"] = "log(3)/2"
    j["evidence"]["enclosure"] = ["0.54930614433405484569", "0.5493061443340548457"]
    _refuted(j, "smallest eps of A")


def test_forged_extension_distance_table():
    """An extension's distance table contradicting the metric's own pairs (the issue's confirmed forgery)."""
    j = _genuine("extension holds")
    j["evidence"]["metric"]["pairs"] = [["0", "1", "1"], ["1", "2", "2"]]      # d(1, 2) = 2, d(0, 2) = 3
    _refuted(j, "the metric's definition gives")       # the kernel derives the pairs from the metric's edges
    # the same table contradiction with the metric's definition changed to agree with it: the extension's own
    # distances (rebuilt from the carried ones) no longer match
    j = _genuine("extension holds")
    edges = j["evidence"]["metric"]["edges"]
    edges[-1][-1] = "2"
    r = recheck(_claimed(j))
    assert r.status == "refuted", r.detail


def test_forged_optimum_is_a_worse_mechanism():
    j = _genuine("optimality")
    opt = j["evidence"]["optimum"]
    opt["values"], opt["codes"] = ["1/3"], [[0, 0, 0]] * 3        # private, but a worse mechanism
    _refuted(j, "not the LP's verified optimal point")


def test_forged_uniqueness():
    c = certify_universal_optimality(1, User(["1/2", "1/2"], [[0, 0], [0, 0]]), alpha="1/2")
    j = json.loads(json.dumps(c.to_json()))
    assert j["evidence"]["unique"] is None                        # a zero loss: every private mechanism is optimal
    j["evidence"]["unique"] = True
    _refuted(j, "rank of the optimal face")
    j = _genuine("optimality")
    j["evidence"]["unique"] = None                                # the rank argument proves it: not "undecided"
    _refuted(j, "rank of the optimal face")


def test_forged_exact_threshold():
    j = _genuine("threshold bracket")
    ev = j["evidence"]
    assert ev["exact"] == "log(2)"                                # star with 3 leaves: z = 0 at alpha = 1/2
    ev["exact"], ev["exact_failure_set"] = "log(2001/1000)", "(1000/2001, 1)"   # no zero of z there
    _refuted(j, "not the threshold")


def test_forged_leakage_bits():
    j = _genuine("leakage")
    ev = j["evidence"]
    ev["leakage_bits"], ev["enclosure"] = "log2(2)", ["1", "1"]
    _refuted(j, "the leakage is")


def test_forged_exponential_bound():
    j = _genuine("exponential_bound")
    ev = j["evidence"]
    assert ev["bound"] == "log(4)"
    ev["bound"], ev["bound_enclosure"] = "log(8)", ["2.0794415416798359282", "2.0794415416798359283"]
    _refuted(j, "2 C beta is not")


def test_forged_relation_statement_and_relation():
    j = _genuine("relation numbers")
    j["evidence"]["statement"] = "exp(1/2) < 1.648"               # the statement alone: the claim shows the checked
    r = recheck(j)                                                # relation next to it, so the old claim is refuted
    assert r.status == "refuted"
    j["evidence"]["relation"] = "<"
    j["evidence"]["statement"] = "exp(1/2) < 206/125"
    r = recheck(_claimed(j))
    assert r.status == "refuted", r.detail                        # exp(1/2) = 1.6487... > 1.648


def test_forged_relation_failure_set():
    j = _genuine("relation fails")
    assert j["evidence"]["failure_set"] == "(1/2, 1)"
    j["evidence"]["failure_set"] = "(2/3, 1)"
    _refuted(j, "failure set")


def test_forged_tight_negative_list_and_distances():
    j = _genuine("tight fails")
    j["evidence"]["negative"] = []
    j["verdict"] = "holds"
    assert recheck(_claimed(j)).status == "refuted"
    j = _genuine("tight holds")
    d = j["evidence"]["distances"]
    d["values"].append("3")                                       # d(0, 2) = 3 breaks the triangle inequality
    d["codes"][0][2] = d["codes"][2][0] = 3
    _refuted(j, "triangle inequality")


def test_forged_gamma_cells_and_rank():
    j = _genuine("regular")
    j["evidence"]["gamma"][1] = "1/3"
    _refuted(j, "gamma")
    j = _genuine("tight transcendental")
    j["evidence"]["cells"] = 3
    _refuted(j, "cells")


def test_forged_utility_sigma():
    """sigma is read off the carried output metric: a ball drawn larger than the metric's is refuted."""
    j = _genuine("utility fails")
    j["evidence"]["sigma"][0][1] = "1/2"
    _refuted(j, "not the output metric's distance")


def test_mutation_counts_per_kind():
    """The figures of the report: every kind, mutated/refuted (and how many mutants still state a true fact)."""
    per: dict = {}
    for name, make in GENUINE:
        j = json.loads(json.dumps(make().to_json()))
        total, refuted, preserved, missed = _outcome(name, j)
        assert not missed, (name, missed)
        t, r, p = per.get(j["kind"], (0, 0, 0))
        per[j["kind"]] = (t + total, r + refuted, p + sum(preserved.values()))
    assert set(per) == {"extension", "best_extension", "optimality", "lp", "infeasible", "tight", "regular",
                        "threshold", "leakage", "theorem4", "utility", "exponential_bound", "tradeoff", "relation",
                        "decomposition", "utility_comparison"}
    assert all(t == r + p for t, r, p in per.values())


# ------------------------------------------------------------------------------ bounded work of these checks ----
def test_hostile_sizes_are_answered_quickly():
    """The table and closure checks count their work first: a huge metric is not checkable at once, a 100-point
    table of distinct irrational distances is decided within the issue's 10 s."""
    import time

    from exactdp.recheck._b_util import Refuted, check_table, closure
    from exactdp.recheck._kernel import NotHere

    t = time.perf_counter()
    with pytest.raises(NotHere, match="above this kernel's limits"):
        closure([str(i) for i in range(3000)], [[str(i), str(i + 1), "1"] for i in range(2999)])
    with pytest.raises(NotHere, match="irrational generating pairs"):
        closure([str(i) for i in range(41)], [[str(i), str(i + 1), "sqrt(2)"] for i in range(40)])
    assert time.perf_counter() - t < 1
    n = 100
    codes = [[0] * n for _ in range(n)]
    vals = ["0"]
    for i in range(n):
        for j in range(i + 1, n):
            vals.append(f"{2 * n}+sqrt({len(vals) + 1})/1000")          # all distinct, all near 2n: a metric
            codes[i][j] = codes[j][i] = len(vals) - 1
    t = time.perf_counter()
    check_table([str(i) for i in range(n)], vals, codes)
    assert time.perf_counter() - t < 10
    vals[2] = f"{5 * n}"                                              # d(0, 2) = 500 > d(0, 1) + d(1, 2) ~ 400
    with pytest.raises(Refuted, match="triangle inequality fails at 0, 1, 2"):
        check_table([str(i) for i in range(n)], vals, codes)
