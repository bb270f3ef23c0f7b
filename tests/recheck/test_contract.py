"""The re-check's contract (issue 18): every stated fact is re-derived, every hostile certificate answered fast.

One harness for every certificate kind (``docs/recheck.md`` states the contract it tests):

1. **Genuine certificates.**  :data:`GENUINE` holds small fresh certificates of every kind in
   :data:`exactdp.recheck.KINDS` (holds, fails, transcendental levels, symbolic alpha, each route where the
   re-check differs); each must be ``confirmed`` and its claim must be the one the kind's ``claim_text``
   rebuilds.  A test fails for any kind without one, except the kinds of :data:`COVERED_ELSEWHERE`.
2. **One mutator.**  Every non-hint leaf is changed alone -- a number moved (by 1 and by 1/7), a text edited, a
   code or count moved, a flag flipped, a verdict or method swapped, a null filled with a value the same field
   has in another genuine certificate (a field the producer leaves null must not take anything) -- and every list
   loses each item in turn and has its first two (different) items swapped.  Each mutant must be ``refuted`` or
   refused (``not a certificate``).  Hints (``x-exactdp-role: hint`` in the schema) are skipped; ``note``,
   ``precision`` and ``reason`` are not claims (how the checker ran; a reason is checked by the shape),
   ``schema`` / ``version`` / ``kind`` select the reader.
3. **One list of claim-preserving exemptions** (:data:`EXEMPTIONS`): a mutant that is not refuted counts
   only when one of them says, with its justification, why the mutant still states a true fact (the issue:
   an equal rewriting does not count against the check); their number stays small per kind.  Two more
   explicit lists: :data:`NOT_CHECKABLE` (a ``not checkable`` answer for a reason the contract states, never
   ``confirmed``) and :data:`KNOWN_GAPS` (what the re-check does not refute yet, kept visible).
4. **Strict evidence.**  For every kind whose module states its evidence shape (``EVIDENCE``), an unknown
   field, a missing field and a wrongly typed field are refused before any work; the stated shape is the
   generated JSON Schema's.
5. **Forgeries** of each class in the issue, by kind, and **hostile numbers and sizes**, each answered within
   20 s (the contract says 10 s; the margin absorbs a loaded test machine) and 2 GiB of address space.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import networkx as nx
import pytest

from exactdp import Level, Mechanism, certify_privacy, cycle, exponential, geometric, grid, path, smallest_epsilon
from exactdp.certificate.kinds import KINDS as KINDS_TABLE
from exactdp.certificate.records import evidence_kinds
from exactdp.certify import certify_lp_infeasible, certify_lp_optimum, certify_relation
from exactdp.privacy.all_eps import certify_all_eps
from exactdp.privacy.approximate import certify_approx
from exactdp.exact import LinearProgram, Rad, solve_lp, solve_lp_irrational
from exactdp.mechanisms import randomized_response
from exactdp.metrics import discrete, from_graph, from_matrix
from exactdp.decomposition.lemmas import certify_decomposition
from exactdp.recheck import KINDS, recheck
from exactdp.extension.extension import certify_extension
from exactdp.extension.best import best_extension_bracket
from exactdp.priors.leakage import leakage
from exactdp.optimality.universal import certify_universal_optimality
from exactdp.composition.composition import certify_composition, certify_profile
from exactdp.composition.lattice import certify_lattice_composition
from exactdp.priors.regular import regular_prior, tight_constraints
from exactdp.priors.theorem4 import tight_remap
from exactdp.priors.threshold import threshold
from exactdp.utility.tradeoff import certify_tradeoff
from exactdp.optimality.users import User, power_loss
from exactdp.interop.audit import certify_audit  # kinds22: kinds renyi, fdp, audit (issue 22)
from exactdp.divergences.fdp import certify_fdp
from exactdp.divergences.renyi import certify_renyi
from exactdp.utility.utility import certify_exponential_bound, certify_utility
from exactdp.utility.grid import compare_utilities

# ---------------------------------------------------------------------------------- genuine certificates ----
HALF = Level.from_alpha("1/2")
AH = Mechanism.from_rows(["0", "2"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
#: an asymmetric mechanism: permuting a row or the prior changes its leakage
ASYM = Mechanism.from_rows(["0", "1", "2"], ["a", "b", "c"], [["1/2", "1/3", "1/6"], ["1/4", "1/2", "1/4"],
                                                             ["1/10", "3/10", "3/5"]])
E = exponential(discrete(2), beta="log(2)", mu={"0": "9/10", "1": "1/10"})
RR = randomized_response(3, p="1/5")
#: an asymmetric two-input mechanism (kinds22: swapping its rows or outputs changes every claim made of it)
K22 = Mechanism.from_rows(["0", "1"], ["a", "b", "c"], [["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]])
RR4 = randomized_response(2, p="1/4")


_SUM = "s = q[1] + q[2]\nz = dlap(1)\noutput clamp(s + z, 0, 2)\n"   # a noisy sum: eps-DP for one-differ only


def _program(text, relation, **level):  # kind program (issue 28 item 5): the kernel re-derives the matrix from the text
    from pathlib import Path

    from exactdp.programs import parse_program
    from exactdp.programs.check import program_certificate
    name = "sum" if text == _SUM else text
    if text != _SUM:
        text = (Path(__file__).resolve().parents[2] / "examples" / "programs" / f"{text}.prog").read_text()
    # the matrix form unless asked: a one-field mutant of its matrix or relation must be refuted; in the linear form a
    # pair changed into another pair whose claim is still true is rightly confirmed (no matrix ties it to inputs)
    form = level.pop("form", "matrix")
    return program_certificate(parse_program(text, name), n=2, domain=(0, 1), relation=relation, form=form, **level)


def _sampler(scale, **question):  # kind sampler_privacy (issue 30 item 4): the intervals of CKS20's discrete Laplace
    from exactdp.samplers import cks20, law
    from exactdp.samplers.privacy import certify_sampler_privacy
    L = law(cks20.dlaplace, [Fraction(scale)], summarise=cks20.SUMMARISE, depth=30, tol=Fraction(1, 10**9), bits=64)
    return certify_sampler_privacy(L, (-3, 3), name=f"cks20.dlaplace({scale})", **question)


def _graph():
    G = nx.Graph()
    G.add_edge("0", "1", weight=1)
    G.add_edge("1", "2", weight=2)
    G.add_edge("0", "2", weight=5)          # longer than the path through 1: an edge but not a generating pair
    return from_graph(G, weight="weight")


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


#: name -> factory of a tiny genuine certificate (every kind; each route where the re-check differs)
GENUINE = {
    "certify holds": lambda: certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2"),
    "certify fails": lambda: certify_privacy(geometric(3, "1/2"), path(4), eps="1/2"),
    "transcendental level": lambda: certify_privacy(geometric(2, "exp(-1/2)"), path(3), eps="1/2"),
    "matrix metric": lambda: certify_privacy(geometric(2, "1/2"), from_matrix(["0", "1", "2"],
                                             [[0, 1, 2], [1, 0, 1], [2, 1, 0]]), alpha="1/2"),
    "weighted graph": lambda: certify_privacy(geometric(2, "1/2"), _graph(), alpha="1/2"),
    "epsilon": lambda: smallest_epsilon(geometric(3, "1/2"), path(4)),
    "epsilon inf": lambda: smallest_epsilon(randomized_response(3, p="0"), discrete(3)),
    "all_eps holds": lambda: certify_all_eps(geometric(2), path(3)),
    "all_eps fails": lambda: certify_all_eps(randomized_response(3, p="1/4"), discrete(3)),
    "all_eps at one level": lambda: certify_privacy(geometric(2), path(3), eps="log(2)/2"),
    "approx holds": lambda: certify_approx(RR, discrete(3), eps="log(2)", delta="1/5"),
    "approx fails": lambda: certify_approx(RR, discrete(3), eps="1/2", delta="0"),
    "approx pair list": lambda: certify_approx(RR, [["0", "1"], ["1", "2"]], eps="log(2)", delta="1/5"),
    "extension holds": lambda: certify_extension(AH, path(3), ["0", "2"], alpha="1/2"),
    "extension fails (a)": lambda: certify_extension(AH, path(3), ["0", "2"], alpha="3/4"),
    "extension transcendental": lambda: certify_extension(AH, path(3), ["0", "2"], eps="1"),
    "extension undefined": lambda: certify_extension(Mechanism.from_rows(["0", "2"], ["a", "b"], [["1", "0"],
                                                                                   ["0", "1"]]),
                                                     path(3), ["0", "2"], alpha="1/2"),
    "best_extension": lambda: best_extension_bracket(AH, path(3), ["0", "2"], alpha="1/2", rel_width="1/4"),
    "optimality": lambda: certify_universal_optimality(2, User.uniform(2, "absolute"), alpha="1/2"),
    "optimality radical loss": lambda: certify_universal_optimality(
        2, User(["1/2", "0", "1/2"], power_loss(2, "3/2")), alpha="1/2"),
    "lp": _lp,
    "lp parametric": _lp_parametric,
    "infeasible": _infeasible,
    "tight holds": lambda: tight_constraints(path(3), HALF),
    "tight fails": lambda: tight_constraints(from_graph(nx.star_graph(3)), Level.from_alpha("3/4")),
    "tight transcendental": lambda: tight_constraints(path(3), Level.from_eps("1/2")),
    "regular": lambda: regular_prior(["1/3", "1/3", "1/3"], path(3), HALF),
    "regular transcendental": lambda: regular_prior(["1/3", "1/3", "1/3"], path(3), Level.from_eps("1/2")),
    "regular support": lambda: regular_prior(["1/2", "0", "1/2"], path(3), HALF),
    "threshold bracket": lambda: threshold(from_graph(nx.star_graph(3))),
    "threshold symmetric": lambda: threshold(cycle(4)),
    "threshold path": lambda: threshold(path(3)),
    "leakage": lambda: leakage(ASYM, ["1/2", "1/3", "1/6"]),
    "theorem4": lambda: tight_remap(geometric(2, "1/2"), path(3), HALF),
    "utility holds": lambda: certify_utility(E, discrete(2), gamma="1", delta="9/10"),
    "utility fails": lambda: certify_utility(E, discrete(2), gamma="1", delta="1/2"),
    "exponential_bound": lambda: certify_exponential_bound(E, discrete(2), beta="log(2)"),
    "tradeoff zero": lambda: certify_tradeoff(path(3), gamma="2", delta="1/5", rel_width="1/4"),
    "tradeoff bracket": lambda: certify_tradeoff(path(3), gamma="1", delta="1/2", rel_width="1/4"),
    "relation identity": lambda: certify_relation("2*alpha/(1 + alpha)", "1 - (1 - alpha)/(1 + alpha)",
                                                  for_all_alpha=True),
    "relation bound": lambda: certify_relation("alpha^2", "alpha", "<=", for_all_alpha=True),
    "relation fails": lambda: certify_relation("alpha", "1/2", "<=", for_all_alpha=True),
    "relation numbers": lambda: certify_relation("exp(1/2)", "1648/1000", ">"),
    "utility_comparison": lambda: compare_utilities("2", tight_constraints(grid((3, 3), "euclidean"),
                                                                          Level.from_eps("2")),
                                                    "planar-laplace", {"side": 3}),
    "decomposition": lambda: certify_decomposition(["0", "1"], ["a", "b"], 2, lemma=1),
    "renyi": lambda: certify_renyi(geometric(2, "1/3"), path(3), [2, 3], delta="1/100"),
    "renyi pair list": lambda: certify_renyi(K22, [["0", "1"]], [2]),
    "renyi transcendental": lambda: certify_renyi(geometric(2, "exp(-1/2)"), path(3), [2]),
    "fdp": lambda: certify_fdp(geometric(2, "1/3"), path(3), mu="3/2"),
    "fdp fails": lambda: certify_fdp(K22, [("0", "1")], mu="1/2"),
    "fdp composed": lambda: certify_fdp(K22, [("0", "1")], times=2),
    "fdp no finite mu": lambda: certify_fdp(Mechanism.from_rows(["0", "1"], ["a", "b", "c"], [["1/2", "1/2", "0"],
                                                                ["1/4", "1/4", "1/2"]]), [("0", "1")]),
    "audit holds": lambda: certify_audit([(K22, 2)], [("0", "1")], eps="log(2)", delta="1/2"),
    "audit fails": lambda: certify_audit([(geometric(2, "1/3"), 2)], path(3), eps="log(2)", delta="1/10"),
    "profile holds": lambda: certify_profile(RR, discrete(3), eps="log(2)", delta="1/5"),
    "profile fails": lambda: certify_profile(RR, path(3), eps="log(2)", delta="1/6"),
    "profile for delta": lambda: certify_profile(RR4, [("0", "1")], delta="1/8"),
    "composition two": lambda: certify_composition([(geometric(2, "1/2"), 2), (RR, 1)], path(3), eps="log(3)",
                                                   delta="1/3"),
    "composition transcendental": lambda: certify_composition([(Mechanism.from_rows(
        ["0", "1"], ["0", "1"], [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"], ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]),
        2)], [("0", "1")], eps="1", delta="1/2"),
    "lattice_composition holds": lambda: certify_lattice_composition([(geometric(2, "1/3"), 1), (RR, 2)], path(3),
                                                                     eps="log(3)", delta="1/2"),
    "lattice_composition value": lambda: certify_lattice_composition([(RR, 3)], discrete(3), eps="1"),
    "lattice_composition transcendental": lambda: certify_lattice_composition([(Mechanism.from_rows(
        ["0", "1"], ["0", "1"], [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"], ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]),
        2)], [("0", "1")], eps="1", delta="1/2"),
    "program holds": lambda: _program(_SUM, "one-differ"),
    "program fails": lambda: _program(_SUM, "all-differ"),
    "program never": lambda: _program("svt5", "all-differ"),
    "program pairs": lambda: _program(_SUM, [[[0, 1], [1, 0]]]),
    "program linear": lambda: _program("prefix_sum", "one-differ", form="linear"),
    "program at level holds": lambda: _program(_SUM, "one-differ", eps="1"),
    "program at level fails": lambda: _program(_SUM, "all-differ", eps="1/2"),
    "program cost": lambda: _program(_SUM, "all-differ", eps="1", cost=True),
    "program cost inf": lambda: _program("svt5", "all-differ", eps="1", cost=True),
    "sampler_privacy value": lambda: _sampler(1),
    "sampler_privacy holds": lambda: _sampler("3/2", sensitivity=2, inputs=(0, 5), eps="log(4)", delta="1/2"),
}

#: and every kind's declared example (exactdp.certificate.kinds.KINDS): a new kind joins the harness by itself
GENUINE.update({f"{name} example": kind.example for name, kind in KINDS_TABLE.items()})

#: kinds whose genuine certificates and mutation tests live with the branch that adds the kind (they join
#: GENUINE at the merge); any other kind of KINDS without a certificate here fails the harness
COVERED_ELSEWHERE: set = set()

#: kinds whose module states a shape not yet held to the generated schema and to the mistyped-field test (none:
#: every record is typed, hints included, so the schema describes every field)
SHAPE_PENDING: set = set()

_CACHE: dict = {}


def genuine_json(name: str) -> dict:
    """The genuine certificate ``name`` as JSON (built once per test session; callers get a fresh copy)."""
    if name not in _CACHE:
        _CACHE[name] = json.dumps(GENUINE[name]().to_json())
    return json.loads(_CACHE[name])


def _j(c):
    return json.loads(json.dumps(c.to_json()))


# ------------------------------------------------------------------------------------------- the mutator ----
#: top-level fields that are not claims (how the checker ran, a reason checked by the shape) or select the reader
NOT_CLAIMS = {"note", "schema", "version", "kind", "reason", "precision"}


def _hint_names() -> set:
    """Field names declared hints in the evidence records (``field(metadata={"role": "hint"})``, convention 1)."""
    out, seen = set(), set()

    def visit(cls):
        if cls in seen:
            return
        seen.add(cls)
        for f in dataclasses.fields(cls):
            if f.metadata.get("role") == "hint":
                out.add(f.name)
        for sub in cls._nested.values():
            visit(sub)
    for cls in evidence_kinds().values():
        visit(cls)
    return out


HINTS = _hint_names()


def _variants(v) -> list:
    """Values different from the leaf ``v``, of the same JSON type (a null is filled by :func:`_fills`)."""
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1] + ([v - 1] if v > 0 else [])
    if not isinstance(v, str):
        return []
    if v in ("holds", "fails", "undecided", "undefined"):
        return [w for w in ("holds", "fails") if w != v]
    if v in ("RATIONAL", "TRANSCENDENCE_BALLS"):
        return [{"RATIONAL": "TRANSCENDENCE_BALLS", "TRANSCENDENCE_BALLS": "RATIONAL"}[v]]
    try:
        q = Fraction(v)
    except (ValueError, ZeroDivisionError):
        q = None
    if q is not None:                            # a plain number moved by 1 and by 1/7 (or to 1/3 from 0)
        return [str(q + 1), str(q + Fraction(1, 7)) if q != 0 else "1/3"]
    out = [v + "x"]
    if v and ("(" in v or "alpha" in v or (any(c.isdigit() for c in v) and "," not in v)):
        out.append(f"({v})+1")                   # an expression changed in value, not only in spelling
    return out


def _ops(node, where=()):
    """``(where, op)`` for every one-field change: ``("set", new)``, ``("drop", i)``, ``("swap", 0)``."""
    if isinstance(node, dict):
        for k, v in node.items():
            if (not where and k in NOT_CLAIMS) or k in HINTS:
                continue
            yield from _ops(v, (*where, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _ops(v, (*where, i))
        for i in range(len(node)):
            yield where, ("drop", i)
        if len(node) >= 2 and node[0] != node[1]:
            yield where, ("swap", 0)
    elif node is not None:
        for new in _variants(node):
            yield where, ("set", new)
    elif where and isinstance(where[-1], str):
        for new in _fills(where[-1]):            # a null filled with a value the same field has elsewhere
            yield where, ("set", new)


_FILLS: dict = {}


def _fills(field: str) -> list:
    """Plausible values for a null field (the audit's "null fills"): up to two different non-null values the same
    field name has in the genuine certificates (a mechanism, a level, a list, a number ...), so that a field the
    producer leaves null is caught when the kernel would accept anything there."""
    if not _FILLS:
        def walk(node):
            if isinstance(node, dict):
                for k, v in node.items():
                    if v is not None and k not in NOT_CLAIMS and k not in HINTS:
                        got = _FILLS.setdefault(k, [])
                        if len(got) < 2 and v not in got:
                            got.append(copy.deepcopy(v))
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        for name in sorted(GENUINE):
            walk(genuine_json(name)["evidence"])
        _FILLS.setdefault("", [])
    return [copy.deepcopy(v) for v in _FILLS.get(field, [])]


def _apply(cert: dict, where: tuple, op: tuple) -> dict:
    m = copy.deepcopy(cert)
    node = m
    for k in where[:-1] if op[0] == "set" else where:
        node = node[k]
    if op[0] == "set":
        node[where[-1]] = op[1]
    elif op[0] == "drop":
        del node[op[1]]
    else:
        node[0], node[1] = node[1], node[0]
    return m


def mutants(cert: dict):
    """Every one-field change of ``cert``: ``(where, op, mutant)``."""
    for where, op in list(_ops(cert)):
        yield where, op, _apply(cert, where, op)


def outcome(cert: dict) -> str:
    """``confirmed`` / ``refuted`` / ``not checkable``, or ``refused`` (not a certificate)."""
    try:
        return recheck(json.dumps(cert)).status
    except ValueError as e:
        assert str(e).startswith(("not a certificate", "not an exactdp", "certificate schema")), e
        return "refused"


# --------------------------------------------------------------------- claim-preserving exemptions ----
def _witness_still_valid(name, kind, where, op, mutant, genuine) -> bool:
    """A privacy / epsilon witness, binding or tightest constraint moved to another point or output where it
    is violated (resp. an equality) all the same, judged by exactdp's own exact arithmetic (not the kernel)."""
    from exactdp.exact.level import level_of
    from exactdp.exact.values import exact_number

    if op[0] != "set" or len(where) < 3 or where[-1] not in ("x", "x_prime", "output") \
            or where[-2] not in ("violation", "binding", "tightest") or kind not in ("privacy", "epsilon"):
        return False
    node, ev = mutant, mutant["evidence"]
    for k in where[:-1]:
        node = node[k]
    if where[-2] == "binding" and len(where) > 3:
        ev = ev[where[1]]
    a, b = exact_number(node["K_x"]), exact_number(node["K_x_prime"])
    if not ev.get("level"):                          # eps* = inf: an output seen on one side only
        return a > 0 and b == 0
    s = level_of(eps=ev["level"]["text"]).compare(a, b, exact_number(node["distance"]))
    return s == (1 if where[-2] == "violation" else 0)


def _decoded(ev: dict) -> list:
    """Every carried mechanism and distance table, decoded (values[codes])."""
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


def _leakage_ratio(c: dict):
    """``sum_z max_y pi_y h_yz / max_y pi_y`` by brute force from the decoded mechanism (None if malformed)."""
    try:
        m, pi = c["evidence"]["mechanism"], [Fraction(v) for v in c["evidence"]["prior"]]
        rows = [[Fraction(m["values"][k]) for k in row] for row in m["codes"]]
        return sum(max(p * r[z] for p, r in zip(pi, rows, strict=True)) for z in range(len(rows[0]))) / max(pi)
    except (IndexError, ValueError, TypeError, ZeroDivisionError):
        return None


def _product_rows(c: dict) -> dict | None:
    """input -> the output distribution of the explicit product mechanism of a profile / composition certificate
    (every factor run its number of times, independently), in Fractions; None when an entry is not rational."""
    ev = c["evidence"]
    facs = [(ev["mechanism"], 1)] if "mechanism" in ev else [(f["mechanism"], f["times"]) for f in ev["factors"]]
    try:
        rows = [({x: [Fraction(m["values"][k]) for k in r] for x, r in zip(m["inputs"], m["codes"], strict=True)},
                 t) for m, t in facs]
    except (ValueError, ZeroDivisionError):
        return None
    out = {}
    for x in rows[0][0]:
        dist = [Fraction(1)]
        for r, t in rows:
            for _ in range(t):
                dist = [a * b for a in dist for b in r[x]]
        out[x] = dist
    return out


def _brute_delta(prod: dict, pairs: list, t: Fraction) -> Fraction:
    """max over ordered pairs of sup_S P(S) - t Q(S): over EVERY output set S (HLM15 Def. 1, no lemma used) up to
    12 outputs of the explicit product, above as sum_y (P(y) - t Q(y))_+ over its rows (the worst-set lemma on the
    explicit product, not the PLD convolution the kernel uses)."""
    best = Fraction(0)
    for a, b in pairs:
        for P, Q in ((prod[a], prod[b]), (prod[b], prod[a])):
            if len(P) > 12:
                best = max(best, sum((max(p - t * q, Fraction(0)) for p, q in zip(P, Q, strict=True)), Fraction(0)))
                continue
            for mask in range(1 << len(P)):
                S = [i for i in range(len(P)) if mask >> i & 1]
                best = max(best, sum((P[i] for i in S), Fraction(0)) - t * sum((Q[i] for i in S), Fraction(0)))
    return best


def _outputs_permuted(m: dict, g: dict) -> bool:
    """Is every factor of the mutant the genuine one with its outputs permuted (the same permutation on every row):
    a relabelling of outputs, so the same mechanism (compared as text, no arithmetic)?"""
    import itertools

    def mechs(c):
        ev = c["evidence"]
        return [ev["mechanism"]] if "mechanism" in ev else [f["mechanism"] for f in ev["factors"]]
    for a, b in zip(mechs(m), mechs(g), strict=True):
        ra = [[a["values"][k] for k in r] for r in a["codes"]]
        rb = [[b["values"][k] for k in r] for r in b["codes"]]
        if len(rb[0]) > 6 or not any(ra == [[r[i] for i in perm] for r in rb]
                                     for perm in itertools.permutations(range(len(rb[0])))):
            return False
    return True


def _same_profile(m: dict, g: dict) -> bool:
    """Do the mutant's and the genuine certificate's explicit product mechanisms have the same delta(t) at every
    stated breakpoint, between them and beyond (exact rational brute force), or are the mutant's mechanisms the
    genuine ones with their outputs relabelled?  False when this cannot tell."""
    if _outputs_permuted(m, g):
        return True
    pm, pg = _product_rows(m), _product_rows(g)
    if pm is None or pg is None or set(pm) != set(pg) or any(len(v) > 100 for v in pm.values()):
        return False
    pairs = [(p["x"], p["x_prime"]) for p in g["evidence"]["relation"]["pairs"]]
    # every breakpoint of either function is a ratio P(y)/Q(y) of an ordered pair's product rows: two convex
    # piecewise linear functions equal there, at t = 1 and beyond the last one are equal
    ts = {Fraction(1)}
    for a, b in pairs:
        for prod in (pm, pg):
            for P, Q in ((prod[a], prod[b]), (prod[b], prod[a])):
                ts |= {p / q for p, q in zip(P, Q, strict=True) if q > 0 and p / q >= 1}
    ts |= {max(ts) + 1}
    return all(_brute_delta(pm, pairs, t) == _brute_delta(pg, pairs, t) for t in ts)


def _piece_attained(m: dict, i: int) -> bool:
    """Is piece ``i``'s line ``(A, B)`` the worst-set line ``(P(S), Q(S))`` of its (mutated) ordered pair for some
    output set ``S``, and the one attained at its breakpoint (brute force over every S)?"""
    prod = _product_rows(m)
    pc = m["evidence"]["pieces"][i]
    if prod is None or pc["x"] not in prod or pc["x_prime"] not in prod:
        return False
    P, Q = prod[pc["x"]], prod[pc["x_prime"]]
    A, B, t = Fraction(pc["A"]), Fraction(pc["B"]), Fraction(pc["t_from"])
    best = max(sum((P[j] - t * Q[j] for j in range(len(P)) if mask >> j & 1), Fraction(0))
               for mask in range(1 << len(P)))
    return any(sum((P[j] for j in range(len(P)) if mask >> j & 1), Fraction(0)) == A
               and sum((Q[j] for j in range(len(P)) if mask >> j & 1), Fraction(0)) == B
               for mask in range(1 << len(P))) and A - t * B == best


#: label lists: renaming a label nothing else refers to, or reordering such a set, restates the same fact
_LABELS = {"points", "inputs", "outputs", "H", "names", "labels"}
_DUALS = ("y", "lam", "lo_y", "hi_y", "lo_lam", "hi_lam")

#: (justification, predicate(name, kind, where, op, mutant, genuine)): the ONE list of mutations that may
#: leave a certificate confirmed, each because the mutant still states a true fact
EXEMPTIONS = [
    ("renaming or reordering a mechanism's outputs (with their columns' labels only): privacy does not depend on "
     "output names (a listed constraint naming a renamed output is refuted)",
     lambda n, k, w, o, m, g: k in ("privacy", "epsilon", "all_eps", "approx")
     and w[:3] == ("evidence", "mechanism", "outputs")),
    ("the order of a discrete metric's labels (every pair at one distance: the same metric)",
     lambda n, k, w, o, m, g: o[0] == "swap" and w[-1] == "labels" and w[-2] == "metric"
     and m["evidence"]["metric"]["all_pairs_at"] is not None),
    ("the order of the factors e^(eps d) shown (a set of pairs (d, factor), each re-derived)",
     lambda n, k, w, o, m, g: o[0] == "swap" and w == ("evidence", "factors")),
    ("a witness / binding / tightest constraint moved to another instance violated (an equality) all the same: "
     "the checker's choice among them is not unique (independent exact check)", _witness_still_valid),
    ("on the discrete metric with K(1)(0) = K(2)(0) (all_eps) and for randomized response (approx, the same "
     "excess on every ordered pair) the witness (0, 1) moved to (0, 2) is an equally valid witness",
     lambda n, k, w, o, m, g: n in ("all_eps fails", "approx holds", "approx fails", "approx example")
     and w == ("evidence", "witness", "x_prime") and o == ("set", "2")),
    ("an equal rewriting: the decoded mechanism / distance table is unchanged",
     lambda n, k, w, o, m, g: (w[-1] in ("codes", "values") or (len(w) >= 2 and w[-2] == "codes"))
     and _decoded(m["evidence"]) == _decoded(g["evidence"])),
    ("leakage: another mechanism or prior with the same leakage (brute force)",
     lambda n, k, w, o, m, g: k == "leakage" and _leakage_ratio(m) == _leakage_ratio(g)),
    ("optimality: a loss row of a result the prior never gives enters no expected loss",
     lambda n, k, w, o, m, g: k == "optimality" and w[:2] == ("evidence", "loss") and len(w) > 2
     and Fraction(g["evidence"]["prior"][w[2]]) == 0),
    ("lp: a different LP that the stated point still solves (the LP is named only by the caller's statement; "
     "the contract says so)",
     lambda n, k, w, o, m, g: k == "lp" and any(t in ("cost", "A_eq", "A_ub", "b_eq", "b_ub") for t in w)),
    ("another valid dual (a proof witness, re-verified in full)",
     lambda n, k, w, o, m, g: k in ("lp", "optimality", "best_extension", "tradeoff", "regular", "tight")
     and o[0] == "set" and len(w) >= 2 and w[-2] in _DUALS),
    ("order or orientation of generating pairs or of the metric's defining edges (the same weighted graph), "
     "or of the face duals", lambda n, k, w, o, m, g: o[0] == "swap" and ("pairs" in w or "edges" in w
                                                                          or w[-1:] == ("bounds",))),
    ("a relabelling of labels no other field refers to",
     lambda n, k, w, o, m, g: k not in ("privacy", "epsilon", "all_eps", "approx") and o[0] in ("set", "swap")
     and any(t in _LABELS for t in w if isinstance(t, str))),
    ("another rational sample inside the stated failure set", lambda n, k, w, o, m, g: w[-1:] == ("sample_alpha",)),
    ("threshold: another ball-size symmetric table, so threshold 0 still holds",
     lambda n, k, w, o, m, g: k == "threshold" and "distances" in w),
    ("profile / composition: rows or values of a carried mechanism swapped, and the profile is unchanged (brute "
     "force over every output set of the explicit product mechanism, every ordered pair, at every breakpoint and "
     "the query)", lambda n, k, w, o, m, g: k in ("profile", "composition", "lattice_composition") and o[0] == "swap"
     and "mechanism" in w and _same_profile(m, g)),
    ("profile: a piece attributed to another ordered pair that attains the same worst-set line (brute force over "
     "every output set)", lambda n, k, w, o, m, g: k == "profile" and w[:2] == ("evidence", "pieces")
     and w[-1] in ("x", "x_prime") and _piece_attained(m, w[2])),
]


#: (reason, predicate(name, kind, where, op, detail)): a mutant answered ``not checkable`` (never confirmed) for a
#: reason the contract states
NOT_CHECKABLE = [
    ("a value moved outside the kernel's grammar (e.g. arithmetic on log(...)): exactdp never writes it there, "
     "and the kernel says it cannot read it", lambda n, k, w, o, d: "unsupported syntax" in d),
    ("a distance that is not a multiple of D makes Phi irrational at a rational level (docs/recheck.md: the "
     "regime is re-derived from the table)", lambda n, k, w, o, d: "phi is irrational" in d),
]

#: (what is not yet re-derived, predicate(name, kind, where, op, detail)): mutants the re-check does not refute
#: today, listed so that they stay visible (each is in the report of issue 18 and in docs/recheck.md)
KNOWN_GAPS: list = []


def exemption(name: str, where: tuple, op: tuple, mutant: dict, genuine: dict) -> str | None:
    """The justification of the first exemption that applies to an unrefuted mutant, or None."""
    for why, applies in EXEMPTIONS:
        try:
            if applies(name, genuine["kind"], where, op, mutant, genuine):
                return why
        except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError):
            continue
    return None


def accepted(name: str, where: tuple, op: tuple, mutant: dict, genuine: dict, status: str) -> str | None:
    """Why an unrefuted, unrefused mutant is accepted -- a true fact, a stated not-checkable reason or a listed
    known gap -- or None (a failure of the harness)."""
    why = exemption(name, where, op, mutant, genuine)
    if why is not None:
        return why
    detail = recheck(mutant).detail
    lists = ([] if status == "confirmed" else NOT_CHECKABLE) + KNOWN_GAPS
    return next((w for w, applies in lists if applies(name, genuine["kind"], where, op, detail)), None)


def _outcome(name: str):
    """``(total, caught, exempt {why: n}, missed [(where, op)])`` over every mutant of ``GENUINE[name]``."""
    j = genuine_json(name)
    total = caught = 0
    exempt: dict = {}
    missed = []
    for where, op, m in mutants(j):
        total += 1
        status = outcome(m)
        if status in ("refuted", "refused"):
            caught += 1
            continue
        why = accepted(name, where, op, m, j, status)
        if why is None:
            missed.append((where, op))
        else:
            exempt[why] = exempt.get(why, 0) + 1
    return total, caught, exempt, missed


# ------------------------------------------------------------------------------------------ the harness ----
def test_every_kind_has_a_genuine_certificate():
    kinds = {genuine_json(name)["kind"] for name in GENUINE}
    assert kinds <= set(KINDS)
    assert set(KINDS) - COVERED_ELSEWHERE <= kinds, sorted(set(KINDS) - COVERED_ELSEWHERE - kinds)


@pytest.mark.parametrize("name", sorted(GENUINE))
def test_genuine_confirmed(name):
    j = genuine_json(name)
    r = recheck(j)
    assert r.status == "confirmed", (name, r.detail)
    assert j["claim"] == importlib.import_module(f"exactdp.recheck.{KINDS[j['kind']]}").claim_text(j)


@pytest.mark.parametrize("name", sorted(GENUINE))
def test_every_one_field_mutant_is_refuted_or_refused(name):
    """Every non-hint leaf changed alone: refuted or refused, unless an exemption says why it is still true."""
    total, caught, exempt, missed = _outcome(name)
    assert total > 10 and not missed, f"{name}: {len(missed)} of {total} mutants not refuted: {missed[:10]}"
    assert caught >= 0.8 * total, (name, caught, total, exempt)          # the exemptions stay rare


# ------------------------------------------------------------------------------------- strict evidence ----
def _spec_of(kind: str):
    spec = getattr(importlib.import_module(f"exactdp.recheck.{KINDS[kind]}"), "EVIDENCE", None)
    return spec.get(kind) if isinstance(spec, dict) else None


def test_every_kind_states_its_evidence_shape():
    # every kind states one (the SHAPE_PENDING ones not yet held to the schema; see there)
    stated = {k for k in KINDS if _spec_of(k) is not None}
    assert stated == set(KINDS) - COVERED_ELSEWHERE, sorted(stated ^ (set(KINDS) - COVERED_ELSEWHERE))


def _from_schema(t: dict, defs: dict):
    """The generated JSON Schema of a field in this test's own terms (``"list"`` / ``"object"`` where the
    record's annotation is a bare ``list`` / ``dict``)."""
    if "$ref" in t:
        return _from_schema(defs[t["$ref"].split("/")[-1]], defs)
    if "anyOf" in t:
        opts = [o for o in t["anyOf"] if o.get("type") != "null"]
        assert len(opts) == 1, t
        inner = _from_schema(opts[0], defs)
        return ("?", inner) if len(opts) < len(t["anyOf"]) else inner
    if t["type"] == "object":
        if "additionalProperties" in t and "properties" not in t:
            return ("map", _from_schema(t["additionalProperties"], defs))
        return {k: _from_schema(v, defs) for k, v in t["properties"].items()} if "properties" in t else "object"
    if t["type"] == "array":
        return [_from_schema(t["items"], defs)] if "items" in t else "list"
    return {"string": "str", "integer": "int", "boolean": "bool"}[t["type"]]


def _agrees(spec, sch) -> bool:
    """Is the hand-written shape ``spec`` the schema's ``sch`` (or a typed refinement of a bare list / dict)?"""
    if isinstance(spec, str) and spec.startswith("?"):
        spec = ("?", spec[1:])
    if isinstance(spec, tuple) and spec[0] == "?":
        return isinstance(sch, tuple) and sch[0] == "?" and _agrees(spec[1], sch[1])
    if isinstance(sch, tuple) and sch[0] == "map":                 # a map, or a record refining it (fixed keys)
        if isinstance(spec, dict):
            return all(_agrees(v, sch[1]) for v in spec.values())
        return isinstance(spec, tuple) and spec[0] == "map" and _agrees(spec[1], sch[1])
    if sch == "list":
        return isinstance(spec, list) or (isinstance(spec, tuple) and spec[0] == "tuple")
    if sch == "object":
        return isinstance(spec, dict) or (isinstance(spec, tuple) and spec[0] == "map")
    if isinstance(spec, list):
        return isinstance(sch, list) and _agrees(spec[0], sch[0])
    if isinstance(spec, dict):
        return isinstance(sch, dict) and set(spec) == set(sch) and all(_agrees(spec[k], sch[k]) for k in spec)
    return spec == sch


@pytest.mark.parametrize("kind", sorted(set(KINDS) - SHAPE_PENDING - COVERED_ELSEWHERE))
def test_evidence_shape_is_the_schemas(kind):
    from exactdp.certificate.schema import json_schema

    s = json_schema()
    ref = next(b["then"]["properties"]["evidence"] for b in s["allOf"]
               if b["if"]["properties"]["kind"]["const"] == kind)
    assert _agrees(_spec_of(kind), _from_schema(ref, s["$defs"])), kind


def _wrong(v, spec=None):
    """A value of another JSON type (than ``v``, and than the field's ``spec`` allows: a null ``?int`` gets text)."""
    if v is None and spec in ("?int", ("?", "int")):
        return "1"
    return 1 if isinstance(v, (str, type(None))) else "1" if isinstance(v, (int, bool)) else "x" if isinstance(
        v, list) else ["x"]


@pytest.mark.parametrize("kind", sorted(set(KINDS) - SHAPE_PENDING - COVERED_ELSEWHERE))
def test_unknown_missing_and_mistyped_evidence_is_refused(kind):
    name = next(n for n in GENUINE if genuine_json(n)["kind"] == kind)
    c = genuine_json(name)
    for field in c["evidence"]:
        for mutate, why in ((lambda e: e.update(extra_field=1), "unknown"),
                            (lambda e, field=field: e.pop(field), "missing"),
                            (lambda e, field=field: e.update({field: _wrong(e[field], _spec_of(kind)[field])}),
                             "expected")):
            f = copy.deepcopy(c)
            mutate(f["evidence"])
            with pytest.raises(ValueError, match=f"not a certificate: evidence.*{why}"):
                recheck(f)
    # and one level down: a nested record's field, or a list item, of the wrong type
    deep = [(k, v) for k, v in c["evidence"].items() if isinstance(v, (list, dict)) and v]
    for k, _v in deep:
        f = copy.deepcopy(c)
        inner = f["evidence"][k]
        key = next(iter(inner)) if isinstance(inner, dict) else 0
        inner[key] = _wrong(inner[key])
        with pytest.raises(ValueError, match="not a certificate: evidence"):
            recheck(f)


def test_recheck_kinds_are_the_registered_evidence_kinds():
    assert set(KINDS) == set(evidence_kinds())


def test_every_kind_rebuilds_its_claim_sentence():
    # the dispatcher compares every certificate's claim with the sentence its kind's module rebuilds from the
    # checked fields; a kind without claim_text would leave the reader's sentence unchecked
    import importlib

    for kind, module in KINDS.items():
        mod = importlib.import_module(f"exactdp.recheck.{module}")
        assert callable(getattr(mod, "claim_text", None)), kind
        assert callable(getattr(mod, "check", None)), kind


def test_recheck_methods_are_the_methods():
    from exactdp.certificate import Method
    from exactdp.recheck._schema import METHODS

    assert tuple(m.name for m in Method) == METHODS


def test_the_method_and_precision_are_checked():
    c = _j(certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2"))
    assert c["method"] == "RATIONAL" and recheck(c).status == "confirmed"
    for field, v in (("method", "TRANSCENDENCE_BALLS"), ("method", "EXACT_LP"), ("precision", 64)):
        f = copy.deepcopy(c)
        f[field] = v
        assert recheck(f).status == "refuted", (field, v)
    f = copy.deepcopy(c)
    f["method"] = "GUESSWORK"
    with pytest.raises(ValueError, match="not one of"):
        recheck(f)



# --------------------------------------------------------------------------------------------- forgeries ----
def test_forged_level_text_eps_and_claim_are_refuted():
    # the issue: epsilon, level.text and claim say log(3/2) while level.R says 2
    c = _j(certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2"))
    f = copy.deepcopy(c)
    f["evidence"]["level"]["text"] = "log(3/2)"
    f["claim"] = f["claim"].replace("eps = log(2)", "eps = log(3/2)")
    r = recheck(f)
    assert r.status == "refuted" and "level's text" in r.detail
    for field, v in (("epsilon", "log(3/2)"), ("enclosure", ["0.40546510810816438197", "0.40546510810816438198"])):
        f = copy.deepcopy(c)
        f["evidence"][field] = v
        f["evidence"]["smallest"][field] = v
        assert recheck(f).status == "refuted", field
    # the epsilon kind: level R changed to 3/2 with a matching text, so the binding is no longer an equality
    e = _j(smallest_epsilon(geometric(3, "1/2"), path(4)))
    e["evidence"]["level"].update(R="3/2", text="log(3/2)")
    e["evidence"]["epsilon"] = "log(3/2)"
    assert recheck(e).status == "refuted"


@pytest.mark.parametrize("name", sorted(GENUINE))
def test_a_level_states_eps_or_r_and_d_never_both(name):
    # a value in the level field the kernel does not read (R beside eps, or eps beside R and D) is refused: the
    # kernel decides from one of them, so the other would be a number a reader sees that nobody checked
    found = []

    def levels(v):
        if isinstance(v, dict):
            if set(v) == {"text", "eps", "R", "D"}:
                found.append(v)
            for w in v.values():
                levels(w)
        elif isinstance(v, list):
            for w in v:
                levels(w)

    j = genuine_json(name)
    levels(j["evidence"])
    for i in range(len(found)):
        for forged in ({"R": "3"}, {"D": "2"}, {"eps": "1", "R": "2", "D": "1"}, {"eps": None, "R": None, "D": None}):
            f = genuine_json(name)
            found.clear()
            levels(f["evidence"])
            lv = found[i]
            if all(lv[k] == v for k, v in forged.items()):
                continue
            lv.update(forged)
            if (lv["eps"] is None) == (lv["R"] is not None and lv["D"] is not None) and lv["eps"] is None:
                continue  # still exactly one of the two forms: a changed value, which the other tests refute
            with pytest.raises(ValueError, match="a level states either eps, or R and D"):
                recheck(f)


def test_forged_approx_epsilon_is_refuted():
    # HLM15 sec. 4: randomized response with p = 286/1000 answered twice is not (1/10, 2/5)-DP.  The forgery of
    # the issue: a genuine certificate at eps = 1 (where it holds) with epsilon_given and the claim moved to 1/10
    # while e_eps stays e
    from exactdp.mechanisms.product import repeated
    PAIR = [("0", "1")]
    K = repeated(randomized_response(2, p="286/1000"), 2)
    c = certify_approx(K, PAIR, eps="1/10", delta="2/5")
    assert c.holds is False and recheck(_j(c)).status == "confirmed"
    g = certify_approx(K, PAIR, eps="1", delta="2/5")
    assert g.holds is True
    f = _j(g)
    f["evidence"]["epsilon_given"] = "1/10"
    f["claim"] = c.claim
    r = recheck(f)
    assert r.status == "refuted" and "e_eps" in r.detail, r.detail
    f = _j(c)
    f["evidence"]["e_eps"] = "exp(1)"
    assert recheck(f).status == "refuted"


def test_forged_metric_data_is_refuted():
    c = _j(certify_privacy(geometric(3, "1/2"), path(4), eps="1/2"))
    # an edge of the path dropped (from the edges and the pairs)
    f = copy.deepcopy(c)
    for ev in (f["evidence"], f["evidence"]["smallest"]):
        ev["metric"]["edges"].pop(1)
        ev["metric"]["pairs"].pop(1)
    assert recheck(f).status == "refuted"
    # the pair list emptied; the labels cut down
    for mutate in (lambda m: m["pairs"].clear(), lambda m: (m["labels"].pop(), m.update(points=3))):
        f = copy.deepcopy(c)
        mutate(f["evidence"]["metric"])
        assert recheck(f).status == "refuted"
    # a discrete metric's all_pairs_at 1 -> 2
    d = _j(certify_privacy(RR, discrete(3), eps="log(3)"))
    f = copy.deepcopy(d)
    f["evidence"]["metric"]["all_pairs_at"] = "2"
    assert recheck(f).status == "refuted"
    # relabel a genuine certificate of another metric (a cycle's certificate said to be on the path)
    from exactdp.metrics import cycle
    g = _j(certify_privacy(geometric(3, "1/2"), cycle(4), alpha="1/2"))
    g["evidence"]["metric"]["description"] = "path on 4 points (d(i, j) = |i - j|)"
    g["claim"] = g["claim"].replace("cycle on 4 points", "path on 4 points (d(i, j) = |i - j|)")
    assert recheck(g).status == "refuted"


def test_forged_all_eps_mechanism_is_refuted():
    # an all-eps "mechanism" whose rows sum to 2 (symbolic entries used to skip the row-sum check)
    c = _j(certify_all_eps(geometric(2), path(3)))
    m = c["evidence"]["mechanism"]
    m["values"] = [f"2*({v})" for v in m["values"]]
    r = recheck(c)
    assert r.status == "refuted" and "sum to 1" in r.detail


def test_forged_witness_numbers_are_refuted():
    c = _j(certify_privacy(geometric(3, "1/2"), path(4), eps="1/2"))
    for field, v in (("lhs", "1/7"), ("rhs", "1/3"), ("output", "3"), ("K_x", "1/3")):
        f = copy.deepcopy(c)
        f["evidence"]["violation"][field] = v
        assert recheck(f).status == "refuted", field
    h = _j(certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2"))
    f = copy.deepcopy(h)
    f["evidence"]["tight"][0]["output"] = "3"
    assert recheck(f).status == "refuted"


@pytest.mark.parametrize("text, why", [
    ('{"schema": "exactdp-certificate", "verdict": "holds", "verdict": "holds"}', "appears twice"),
])
def test_duplicate_keys_are_refused(text, why):
    with pytest.raises(ValueError, match=why):
        recheck(text)


def test_strict_top_level():
    c = _j(certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2"))
    for mutate, why in ((lambda j: j.update(verdict="HOLDS!"), "not one of"), (lambda j: j.update(extra=1), "unknown"),
                        (lambda j: j.pop("claim"), "missing"), (lambda j: j.update(precision="3"), "expected int"),
                        (lambda j: j["evidence"].update(extra=1), "unknown"),
                        (lambda j: j["evidence"]["counts"].update(pairs=2.0), "expected int"),
                        (lambda j: j.update(reason="why"), "reason")):
        f = copy.deepcopy(c)
        mutate(f)
        with pytest.raises(ValueError, match=why):
            recheck(f)
    # the duplicate verdict of the issue, in a real certificate's text
    text = json.dumps(c).replace('"verdict": "holds"', '"verdict": "fails", "verdict": "holds"')
    with pytest.raises(ValueError, match="appears twice"):
        recheck(text)


def test_schema_1_is_read_but_not_confirmed_on_trust():
    c = _j(certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2"))
    c["version"] = 1
    r = recheck(c)
    assert r.status == "not checkable" and "schema-1" in r.detail


# ------------------------------------------------------------------------------------------ hostile ----
_RUN = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
    from exactdp.recheck import recheck
    try:
        r = recheck(sys.stdin.read())
        print(json.dumps([r.status, r.detail]))
    except ValueError as e:
        print(json.dumps(["refused", str(e)]))
""")


def _cpu_of_children() -> float:
    import resource

    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def _hostile_run(cert: dict):
    """The re-check's answer in a fresh process under a 2 GiB limit, and the CPU seconds that process used: CPU time,
    not wall time, so that a loaded machine cannot fail the test (issue 32 item 10); the wall-clock timeout only
    stops a hang."""
    t = _cpu_of_children()
    p = subprocess.run([sys.executable, "-c", _RUN], input=json.dumps(cert), capture_output=True, text=True,
                       timeout=600, env={**os.environ})
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout), _cpu_of_children() - t


def _privacy_with(place: str, text: str) -> dict:
    G = nx.Graph()
    G.add_edge("0", "1", weight=1)
    G.add_edge("1", "2", weight=1)
    c = _j(certify_privacy(geometric(2, "1/2"), from_graph(G, weight="weight"), alpha="1/2", with_epsilon=False))
    ev = c["evidence"]
    if place == "distance":
        for e in ev["metric"]["edges"] + ev["metric"]["pairs"]:
            e[2] = text
        ev["factors"][0]["distance"] = text
    elif place == "value":
        ev["mechanism"]["values"][0] = text
    elif place == "level eps":
        ev["level"].update(eps=text, R=None, D=None, text=text)
        c["method"] = "TRANSCENDENCE_BALLS"
        c["claim"] = c["claim"].replace("eps = log(2)", f"eps = {text}")
    elif place == "level R":
        ev["level"].update(R=text, text=f"log({text})")
        c["claim"] = c["claim"].replace("eps = log(2)", f"eps = log({text})")
    return c


HOSTILE = [("distance", "10^10"), ("value", "9^9^9"), ("value", "sqrt(10^129 + 7)"), ("level eps", "sqrt(10^68 + 3)"),
           ("value", "(exp(1) + exp(sqrt(2)) + exp(sqrt(3)))^300"), ("level R", "(2^100000)^100000"),
           ("value", "2^(10^11)"), ("value", "2/3 + 1/2^(10^9) - 1/2^(10^9)")]


@pytest.mark.parametrize("place, text", HOSTILE)
def test_hostile_numbers_are_answered_fast(place, text):
    (status, detail), seconds = _hostile_run(_privacy_with(place, text))
    assert status != "confirmed" and seconds < 20, (status, detail, seconds)
    assert status == "not checkable" and detail.startswith("too large"), (status, detail)


def test_cli_refuses_a_repeated_key_with_exit_2(tmp_path):
    c = _j(certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2"))
    text = json.dumps(c).replace('"verdict": "holds"', '"verdict": "fails", "verdict": "holds"')
    f = tmp_path / "dup.json"
    f.write_text(text)
    p = subprocess.run([sys.executable, "-m", "exactdp", "recheck", str(f)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "appears twice" in p.stderr


def test_the_kernel_leaves_mpmath_precision_alone():
    import mpmath

    c = certify_privacy(geometric(2, "exp(-1/2)"), path(3), eps="1/2")
    saved = (mpmath.mp.prec, mpmath.iv.prec)
    try:
        mpmath.iv.prec = mpmath.mp.prec = 10                    # a caller's low precision changes nothing
        assert c.recheck().status == "confirmed"
        assert (mpmath.mp.prec, mpmath.iv.prec) == (10, 10)
    finally:
        mpmath.mp.prec, mpmath.iv.prec = saved


def test_forged_distance_table_is_refuted():
    c = _j(certify_privacy(geometric(2, "1/2"), from_matrix(["0", "1", "2"], [[0, 1, 2], [1, 0, 1], [2, 1, 0]]),
                           alpha="1/2"))
    t = c["evidence"]["metric"]["distances"]
    assert t["values"] == ["0", "1", "2"]
    for mutate, why in ((lambda t: t["values"].__setitem__(2, "3"), "triangle inequality"),
                        (lambda t: t["codes"][0].__setitem__(1, 2), "not symmetric"),
                        (lambda t: t["codes"][1].__setitem__(1, 1), "d(x, x) is not 0")):
        f = copy.deepcopy(c)
        mutate(f["evidence"]["metric"]["distances"])
        r = recheck(f)
        assert r.status == "refuted" and why in r.detail, r.detail


def test_a_non_shortest_edge_is_not_a_generating_pair():
    c = _j(certify_privacy(geometric(2, "1/2"), _graph(), alpha="1/2"))
    m = c["evidence"]["metric"]
    assert ["0", "2", "5"] in m["edges"] and all(p[:2] != ["0", "2"] for p in m["pairs"])
    f = copy.deepcopy(c)
    f["evidence"]["metric"]["pairs"].append(["0", "2", "5"])    # listed as generating: it is not (1 + 2 < 5)
    assert recheck(f).status == "refuted"


def test_hints_are_not_claims_and_not_rendered():
    from exactdp.certificate import Certificate
    from exactdp.certificate.schema import json_schema

    assert json_schema()["$defs"]["Piece"]["properties"]["lo_approx"]["x-exactdp-role"] == "hint"
    c = certify_all_eps(randomized_response(3, p="1/4"), discrete(3))
    j = _j(c)
    j["evidence"]["failure_set"][0]["lo_approx"] = "0.7"          # a wrong hint: the claim does not rest on it
    assert recheck(j).status == "confirmed"
    assert "0.7" not in Certificate.from_json(j).to_markdown()


def test_grid_and_hamming_descriptions_are_rebuilt():
    from exactdp.certificate import Certificate
    from exactdp.metrics import grid, hamming
    from exactdp.metrics.databases import symmetric_difference
    from exactdp.metrics.graph_space import node_distance_space

    for g in (grid((2, 3)), grid((3, 3), "chebyshev"), hamming([0, 1], 2), grid((2, 3), "euclidean"),
              grid((2, 2), "manhattan", step="1/2"), grid((2, 3), "euclidean", step="1/3"), path(3).scaled("2/3"),
              grid((3, 3), "euclidean").scaled(2), symmetric_difference("abc")):
        c = _j(certify_privacy(exponential(g, beta="1/2"), g, eps="1", with_epsilon=False))
        r = recheck(c)
        assert r.status == "confirmed" and "is a name" not in r.detail, (g.description, r.detail)
        assert f"The metric is the {g.description}." in Certificate.from_json(c).to_markdown()
        f = copy.deepcopy(c)                                      # an edge dropped: no longer that family
        f["evidence"]["metric"]["edges"].pop()
        f["evidence"]["metric"]["pairs"].pop()
        assert recheck(f).status == "refuted", g.description
    # an edge of the Euclidean grid of the wrong length (sqrt(2) -> sqrt(3)), with the pairs that would follow
    e = _j(certify_privacy(exponential(grid((2, 2), "euclidean"), beta="1/2"), grid((2, 2), "euclidean"), eps="1",
                           with_epsilon=False))
    for lst in (e["evidence"]["metric"]["edges"], e["evidence"]["metric"]["pairs"]):
        for x in lst:
            x[2] = x[2].replace("sqrt(2)", "sqrt(3)")
    assert recheck(e).status == "refuted"
    # a family the kernel does not rebuild: the detail says so, and the worked proof marks the name as a label
    g = node_distance_space(3)
    c = _j(certify_privacy(exponential(g, beta="1/2"), g, eps="1", with_epsilon=False))
    r = recheck(c)
    assert r.status == "confirmed" and "is a name" in r.detail
    md = Certificate.from_json(c).to_markdown()
    assert f"labelled {g.description!r} (a label the re-check does not verify)" in md
    assert f"The metric is the {g.description}" not in md


@pytest.mark.parametrize("lo, hi", [("1/3", "1"), ("3/5", "1"), ("1/2", "9/10")])
def test_forged_failure_set_is_refuted(lo, hi):
    c = _j(certify_all_eps(randomized_response(3, p="1/4"), discrete(3)))
    piece = c["evidence"]["failure_set"][0]
    assert (piece["lo"], piece["hi"]) == ("1/2", "1")                # K(x)(z) = 1/2 > (1/4)/alpha iff alpha > 1/2
    piece.update(lo=lo, hi=hi)
    c["evidence"]["failure_set_text"] = f"({lo}, {hi})"
    c["evidence"]["sample_alpha"] = ("3/4" if Fraction(lo) < Fraction(3, 4) < Fraction(hi)
                                     else c["evidence"]["sample_alpha"])
    assert recheck(c).status == "refuted"


def _other_kinds_with(kind: str, text: str) -> dict:
    if kind == "all_eps":
        c = _j(certify_all_eps(geometric(2), path(3)))
        m = c["evidence"]["metric"]
        for e in m["edges"] + m["pairs"]:
            e[2] = text                                             # a distance used as a power of alpha
        m["description"] = "graph with 3 nodes and 2 edges"
        c["claim"] = c["claim"].replace("path on 3 points (d(i, j) = |i - j|)", m["description"])
        return c
    c = _j(certify_approx(RR, [["0", "1"]], eps="log(2)", delta="1/5"))
    c["evidence"]["mechanism"]["matrix"][0][0] = text
    return c


@pytest.mark.parametrize("kind, text", [("all_eps", "10^10"), ("approx", "2^(10^11)"),
                                         ("approx", "(exp(1) + exp(sqrt(2)) + exp(sqrt(3)))^300")])
def test_hostile_numbers_in_other_kinds(kind, text):
    (status, detail), seconds = _hostile_run(_other_kinds_with(kind, text))
    assert status == "not checkable" and detail.startswith("too large") and seconds < 20, (status, detail)


# ----------------------------------------------------------- self-consistent forgeries of the other kinds ----
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
    return genuine_json(name)


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
    assert ev["existence"] == [{"lo": "0", "hi": "1/2", "lo_closed": False, "hi_closed": True}]
    ev["exact"], ev["existence"][0]["hi"] = "log(2001/1000)", "1000/2001"   # no zero of z there
    ev["lo"], ev["hi"] = ev["lo_rational"], ev["hi_rational"] = "0.6936", "0.6937"
    _refuted(j, "not the re-derived end")


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


# ------------------------------------------------------------------------------ bounded work of these checks ----
def test_hostile_sizes_are_answered_quickly():
    """The table and closure checks count their work first: a huge metric is not checkable at once, a 100-point
    table of distinct irrational distances is decided within the issue's 10 s."""
    import time

    from exactdp.recheck._kernel import Refuted
    from exactdp.recheck._metric import check_table, closure
    from exactdp.recheck._kernel import NotHere

    t = time.process_time()
    with pytest.raises(NotHere, match="above this kernel's limits"):
        closure([str(i) for i in range(3000)], [[str(i), str(i + 1), "1"] for i in range(2999)])
    with pytest.raises(NotHere, match="irrational generating pairs"):
        closure([str(i) for i in range(41)], [[str(i), str(i + 1), "sqrt(2)"] for i in range(40)])
    assert time.process_time() - t < 1
    n = 100
    codes = [[0] * n for _ in range(n)]
    vals = ["0"]
    for i in range(n):
        for j in range(i + 1, n):
            vals.append(f"{2 * n}+sqrt({len(vals) + 1})/1000")          # all distinct, all near 2n: a metric
            codes[i][j] = codes[j][i] = len(vals) - 1
    t = time.process_time()
    check_table([str(i) for i in range(n)], vals, codes)
    assert time.process_time() - t < 10
    vals[2] = f"{5 * n}"                                              # d(0, 2) = 500 > d(0, 1) + d(1, 2) ~ 400
    with pytest.raises(Refuted, match="triangle inequality fails at 0, 1, 2"):
        check_table([str(i) for i in range(n)], vals, codes)


@pytest.mark.parametrize("name, method", [("lp", "ENUMERATION"), ("infeasible", "RATIONAL"),
                                          ("decomposition", "EXACT_LP"), ("optimality", "RATIONAL"),
                                          ("best_extension", "RATIONAL"),
                                          ("extension holds", "TRANSCENDENCE_BALLS"),
                                          ("extension transcendental", "RATIONAL"),
                                          ("relation numbers", "RATIONAL"), ("relation bound", "TRANSCENDENCE_BALLS"),
                                          ("utility holds", "TRANSCENDENCE_BALLS"),
                                          ("exponential_bound", "TRANSCENDENCE_BALLS"),
                                          ("tight holds", "EXACT_LP"), ("tight fails", "VERIFIED_FLOAT"),
                                          ("tight transcendental", "EXACT_SOLVE"), ("regular", "BALL_SOLVE"),
                                          ("regular support", "TRANSCENDENCE_BALLS"),
                                          ("regular transcendental", "BALL_SOLVE"),
                                          ("threshold path", "SYMBOLIC_ROOTS"), ("threshold symmetric", "RATIONAL"),
                                          ("threshold bracket", "EXACT_SOLVE"), ("leakage", "TRANSCENDENCE_BALLS"),
                                          ("theorem4", "RATIONAL"), ("tradeoff zero", "RATIONAL"),
                                          ("tradeoff bracket", "CLOSED_FORM"),
                                          ("profile holds", "TRANSCENDENCE_BALLS"),
                                          ("composition transcendental", "RATIONAL")])
def test_forged_method_is_refuted(name, method):
    """The method a verdict rests on is the one its numbers call for (a reader trusts a proof by its method)."""
    j = genuine_json(name)
    assert j["method"] != method
    j["method"] = method
    r = recheck(j)
    assert r.status == "refuted" and "the one the checked numbers call for" in r.detail, r.detail
    j = genuine_json(name)
    j["precision"] = 64                                           # no kind of these states a working precision
    assert recheck(j).status == "refuted"


def test_forged_extension_note_is_refuted():
    """Forger pass: the free-text note of an extension is rendered in the worked proof; it is the checker's
    sentence about the first zero normaliser, or absent when the extension is defined."""
    j = genuine_json("extension undefined")
    assert j["verdict"] == "fails" and "(Z_D = 0)" in j["evidence"]["extension_note"]
    j["evidence"]["extension_note"] = "A is the unique optimal extension"
    assert recheck(j).status == "refuted"
    j = genuine_json("extension holds")
    j["evidence"]["extension_note"] = "A is the unique optimal extension"
    assert recheck(j).status == "refuted"


@pytest.mark.parametrize("user, why", [("uniform prior, squared loss", "not that table"),
                                       ("binary loss", "not that table")])
def test_forged_user_name_is_refuted(user, why):
    """Forger pass: the user shown in an optimality claim ("optimal for the user (uniform prior, absolute loss)")
    is a statement about the carried prior and loss when it is worded as the checker words it."""
    j = genuine_json("optimality")
    assert j["evidence"]["user"] == "uniform prior, absolute loss"
    j["evidence"]["user"] = user
    _refuted(j, why)
    j = _j(certify_universal_optimality(2, User(["1/2", "1/4", "1/4"], "absolute"), alpha="1/2"))
    j["evidence"]["user"] = "uniform prior, absolute loss"                  # the prior is not uniform
    _refuted(j, "prior is not uniform")


@pytest.mark.parametrize("name, field", [("tight transcendental", "z"), ("regular transcendental", "mu")])
def test_changed_distance_at_a_transcendental_level_is_refuted(name, field):
    """A changed distance at a transcendental level.  Exactly, without transcendental arithmetic: the table is no
    longer the path the claim names (its generating pairs are not the path's edges).  With the description a name:
    the certificate's approximate inverse no longer verifies the stated balls tightly, so the kernel re-solves in
    intervals at 400 bits; the stated balls (those of d(0, 1) = 1) are disjoint from the solution at
    d(0, 1) = 8/7, so the answer is refuted, not "not checkable"."""
    j = genuine_json(name)
    assert j["evidence"]["distances"]["values"] == ["0", "1", "2"]
    j["evidence"]["distances"]["values"][1] = "8/7"
    r = recheck(j)
    assert r.status == "refuted" and "is not the carried table's" in r.detail, r.detail
    j["evidence"]["description"] = "a table of my own"
    r = recheck(_claimed(j))
    assert r.status == "refuted" and "does not contain the value re-derived here" in r.detail, r.detail
    assert len(j["evidence"][field]) == 3


@pytest.mark.parametrize("name", ["threshold bracket", "threshold symmetric", "threshold path"])
def test_unknown_threshold_route_is_refuted(name):
    j = genuine_json(name)
    j["evidence"]["route"] = "closed-form"
    r = recheck(j)
    assert r.status == "refuted" and "unknown threshold route" in r.detail, r.detail


def test_exponential_bound_claim_names_the_metric():
    """The input metric's description is in the claim (as for the privacy kinds): changed alone it is refuted; a
    family the kernel does not rebuild is a name, said so by the detail."""
    j = genuine_json("exponential_bound")
    assert j["claim"].endswith("on the discrete metric on 2 points")
    j["evidence"]["smallest"]["metric"]["description"] = "2 * (discrete metric on 2 points)"
    assert recheck(j).status == "refuted"
    assert recheck(_claimed(j)).status == "refuted"          # the rebuilt family: all_pairs_at 1 is not 2 * (...)


def test_the_profile_exemptions_can_fail():
    """The brute-force exemptions of the profile kinds say no to a mutant whose profile differs."""
    g = genuine_json("profile for delta")                         # randomized response, rows (3/4, 1/4), (1/4, 3/4)
    m = copy.deepcopy(g)
    m["evidence"]["mechanism"]["values"] = ["2/3", "1/3"]           # e^eps0 = 2, not 3: another profile
    assert not _same_profile(m, g) and _same_profile(g, g)
    m = copy.deepcopy(g)
    m["evidence"]["pieces"][0]["A"] = "1/2"
    assert not _piece_attained(m, 0) and _piece_attained(g, 0)


@pytest.mark.parametrize("name, forged", [("tight holds", "cycle on 3 points"),
                                          ("regular", "3 x 1 grid, manhattan distance"),
                                          ("threshold bracket", "graph with 4 nodes and 2 edges"),
                                          ("threshold symmetric", "path on 4 points (d(i, j) = |i - j|)"),
                                          ("tight transcendental", "discrete metric on 3 points")])
def test_ecp14_description_is_the_tables(name, forged):
    """The metric named in the claim of tight / regular / threshold is rebuilt from the carried table: a
    self-consistent forgery naming another known family (claim rebuilt) is refuted; a name the kernel does not know
    is confirmed as a name, and the detail says so."""
    j = genuine_json(name)
    j["evidence"]["description"] = forged
    r = recheck(_claimed(j))
    assert r.status == "refuted" and "is not the carried table's" in r.detail, r.detail
    j["evidence"]["description"] = "my metric"
    r = recheck(_claimed(j))
    assert r.status == "confirmed" and "'my metric' is a name" in r.detail, r.detail


def test_a_weighted_graphs_edge_count_is_a_name_when_a_table_allows_it():
    """A table shows a weighted graph's generating edges only (3 for the star): 4 to 6 edges is a graph the table
    may come from (a longer edge is no shortest path), so the count is a name; 2 or 7 are refuted."""
    for m, ok in ((3, "described"), (4, "name"), (6, "name"), (2, "refuted"), (7, "refuted")):
        j = genuine_json("threshold bracket")
        j["evidence"]["description"] = f"graph with 4 nodes and {m} edges"
        r = recheck(_claimed(j))
        assert r.status == ("refuted" if ok == "refuted" else "confirmed"), (m, r.detail)
        assert ("is a name" in r.detail) == (ok == "name"), (m, r.detail)
