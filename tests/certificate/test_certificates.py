"""The certificate contract: typed evidence, exact JSON round trip, the schema, and the independent re-check
confirming every kind and refuting tampered copies (docs/architecture.md#sec-certificates)."""

import copy
import json
from fractions import Fraction

import jsonschema
import networkx as nx
import pytest

from exactdp import (Certificate, Level, Method, Verdict, certify_all_eps,
                     certify_privacy, cycle, discrete, from_graph, geometric, path, randomized_response, recheck,
                     smallest_epsilon)
from exactdp.certificate import Evidence
from exactdp.certificate.schema import json_schema
from exactdp.certify import certify_relation
from exactdp.priors.leakage import leakage
from exactdp.optimality.universal import certify_universal_optimality
from exactdp.priors.regular import regular_prior, tight_constraints
from exactdp.priors.theorem4 import tight_remap
from exactdp.priors.threshold import threshold
from exactdp.optimality.users import User

HALF = Level.from_alpha("1/2")


def _set(path):
    """A tampering: set the evidence field at ``path`` (keys and indices) with ``fn(old) -> new``."""
    def apply(fn):
        def tamper(j):
            d = j["evidence"]
            for k in path[:-1]:
                d = d[k]
            d[path[-1]] = fn(d[path[-1]])
        return tamper
    return apply


# (name, certificate factory, verdict, tamperings that must be refuted)
CASES = [
    ("privacy holds", lambda: certify_privacy(geometric(4, "1/2"), path(5), alpha="1/2"), "holds",
     [_set(["tight_count"])(lambda v: v - 1), _set(["mechanism", "values", 0])(lambda v: "1/3")]),
    ("privacy fails", lambda: certify_privacy(geometric(4, "1/2"), path(5), eps="1/2"), "fails",
     [_set(["violation", "K_x"])(lambda v: "1/100"), _set(["violated_count"])(lambda v: v + 1),
      _set(["metric", "pairs"])(lambda v: v[:1])]),
    ("epsilon", lambda: smallest_epsilon(randomized_response(3, p="1/4"), discrete(3)), "holds",
     [_set(["binding", "K_x_prime"])(lambda v: "1/5"), _set(["level", "R"])(lambda v: "3")]),
    ("epsilon inf", lambda: smallest_epsilon(geometric(2, "1/2").remap({"0": "0", "1": "1", "2": "1"}), path(3)),
     "holds", [_set(["binding", "K_x_prime"])(lambda v: "1/2")]),
    ("all_eps holds", lambda: certify_all_eps(geometric(5), path(6)), "holds",
     [_set(["distinct"])(lambda v: v + 1), _set(["metric", "pairs", 0, 2])(lambda v: "2")]),
    ("all_eps fails", lambda: certify_all_eps(randomized_response(3, p="1/4"), discrete(3)), "fails",
     [_set(["sample_alpha"])(lambda v: "1/4"), _set(["witness", "lhs"])(lambda v: "1")]),
    ("optimality", lambda: certify_universal_optimality(3, User.uniform(3, "absolute"), alpha="1/2"), "holds",
     [_set(["lp", "y", 0])(lambda v: str(Fraction(v) + 1)), _set(["lp", "value"])(lambda v: "1/1000"),
      _set(["geometric_loss"])(lambda v: "0")]),
    ("tight holds", lambda: tight_constraints(path(4), HALF), "holds",
     [_set(["z", 0])(lambda v: "1/2"), _set(["mechanism", "values", 0])(lambda v: "1/7")]),
    ("tight fails", lambda: tight_constraints(from_graph(nx.star_graph(3)), Level.from_alpha("3/4")), "fails",
     [_set(["negative"])(lambda v: []), _set(["z", 1])(lambda v: "2")]),
    ("regular", lambda: regular_prior(["1/3", "1/3", "1/3"], path(3), HALF), "holds",
     [_set(["mu", 1])(lambda v: "1/8"), _set(["prior", 0])(lambda v: "1/2")]),
    ("regular support", lambda: regular_prior(["1/2", "0", "1/2"], path(3), HALF), "fails",
     [_set(["prior"])(lambda v: ["1/3", "1/3", "1/3"])]),
    ("leakage", lambda: leakage(randomized_response(3, p="1/4"), ["1/3"] * 3), "holds",
     [_set(["max_utility"])(lambda v: "1/3"), _set(["enclosure"])(lambda v: ["0", "0.1"])]),
    ("theorem4", lambda: tight_remap(geometric(3, "1/2"), path(4), HALF), "holds",
     [_set(["remap", "0"])(lambda v: {"3": "1"})]),
    ("threshold symmetric", lambda: threshold(cycle(5)), "holds",
     [_set(["distances", "codes", 0, 1])(lambda v: 0)]),
    ("relation identity", lambda: certify_relation("2*alpha/(1 + alpha)", "1 - (1 - alpha)/(1 + alpha)",
                                                   for_all_alpha=True), "holds",
     [_set(["rhs"])(lambda v: "1 - (1 - alpha)/(2 + alpha)")]),
    ("relation bound", lambda: certify_relation("alpha^2", "alpha", "<=", for_all_alpha=True), "holds",
     [_set(["lhs"])(lambda v: "alpha/2 + 1/4")]),
    ("relation fails", lambda: certify_relation("alpha", "1/2", "<=", for_all_alpha=True), "fails",
     [_set(["sample_alpha"])(lambda v: "1/3")]),
    ("relation numbers", lambda: certify_relation("exp(1/2)", "1648/1000", ">"), "holds",
     [_set(["rhs"])(lambda v: "1649/1000")]),
]


@pytest.fixture(scope="module")
def schema():
    return json_schema()


@pytest.mark.parametrize("name, make, verdict, tamperings", CASES, ids=[c[0] for c in CASES])
def test_round_trip_schema_recheck_and_tampering(name, make, verdict, tamperings, schema):
    c = make()
    assert c.verdict is Verdict(verdict) and isinstance(c.method, Method)
    assert isinstance(c.evidence, Evidence) and c.evidence.kind == c.kind
    j = c.to_json()
    jsonschema.validate(j, schema)
    text = json.dumps(j)
    assert Certificate.from_json(text) == c                       # exact round trip
    assert Certificate.from_json(text).to_json() == j
    got = recheck(text)
    assert got.status == "confirmed", got.detail
    for tamper in tamperings:
        bad = copy.deepcopy(j)
        tamper(bad)
        r = recheck(bad)
        assert r.status == "refuted", (name, r.detail)
    # every rendering is built from the evidence alone
    value_only = c.proof().value_only          # a computed value (leakage) shows no verdict line
    assert (f"**Verdict.** {verdict}" in c.to_markdown()) is not value_only
    assert r"\begin{proof}" in c.to_latex()
    assert (f"verdict: {verdict}" in c.to_text()) is not value_only and "$" not in c.to_text()
    assert value_only is (c.kind == "leakage")


def _without_verified(c):
    j = c.to_json()
    j["evidence"]["verified"] = None
    if "cells" in j["evidence"]:
        j["evidence"]["cells"] = None      # the cell count is that of the carried partition (issue 18)
    return j


def test_transcendental_solves_re_solved_in_intervals_or_say_why():
    c = tight_constraints(path(4), Level.from_eps("1/2"))
    r = c.recheck()
    assert r.status == "confirmed" and "quotient" in r.detail
    r = recheck(_without_verified(c))                  # no approximate inverse: the interval re-solve
    assert r.status == "confirmed" and "interval" in r.detail
    for bad in (c.to_json(), _without_verified(c)):
        bad["evidence"]["negative"] = ["1"]
        bad["verdict"] = "fails"
        assert recheck(bad).status == "refuted"
    from exactdp import from_graph
    import networkx as nx
    r = recheck(_without_verified(tight_constraints(from_graph(nx.star_graph(3)), Level.from_eps("1/5"))))
    assert r.status == "confirmed"                                                         # z_center < 0
    c = tight_constraints(path(70), Level.from_eps("1/2"))
    assert c.recheck().status == "confirmed"
    r = recheck(_without_verified(c))
    assert r.status == "not checkable" and "transcendental" in r.detail and "70" in r.detail


@pytest.mark.parametrize("bad, msg", [
    ({"schema": "other"}, "not an exactdp certificate"),
    ({"schema": "exactdp-certificate", "version": 99}, "version 99"),
    ("not json {", "Expecting value|No such file"),
])
def test_recheck_refuses_what_is_not_a_certificate(bad, msg):
    with pytest.raises((ValueError, OSError), match=msg):
        recheck(bad)


def test_malformed_evidence_is_refuted_not_crashed():
    j = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2").to_json()
    del j["evidence"]["mechanism"]
    with pytest.raises(ValueError, match=r"not a certificate: evidence: fields do not match; missing .'mechanism'."):
        recheck(j)                                         # refused before any work (schema 2: strict parsing)


def test_recheck_requires_a_mechanism_and_valid_codes():
    c = certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2").to_json()
    assert recheck(c).status == "confirmed"

    def tampered(f):
        j = copy.deepcopy(c)
        f(j["evidence"]["mechanism"])
        return recheck(j)
    r = tampered(lambda m: m["codes"][0].__setitem__(0, -1))           # would index values[-1]
    assert r.status == "refuted" and "not an integer in [0," in r.detail
    with pytest.raises(ValueError, match=r"not a certificate: evidence.mechanism.codes.0..0.: expected int, got bool"):
        tampered(lambda m: m["codes"][0].__setitem__(0, True))      # a bool is not a code: refused when read
    r = tampered(lambda m: m["codes"][1].__setitem__(0, m["codes"][1][2]))  # row 1 no longer sums to 1
    assert r.status == "refuted" and "row 1 does not sum to exactly 1" in r.detail
    # transcendental entries: the row sums are decided by the exact zero test
    t = certify_privacy(geometric(3, eps="1"), path(4), eps="1").to_json()
    assert recheck(t).status == "confirmed"
    t["evidence"]["mechanism"]["values"][0] = "exp(-1)"
    assert "does not sum to exactly 1" in recheck(t).detail
