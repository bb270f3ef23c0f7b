"""The contract for the BCSZ18 and KL10 kinds: exact JSON round trip, the schema, the independent re-check
confirming each kind, and tampered copies refuted (one witness number changed, a constraint dropped, a dual
value altered)."""

import copy
import json
from fractions import Fraction

import jsonschema
import pytest

from exactdp import Certificate, Mechanism, discrete, exponential, path, recheck
from exactdp.certificate.schema import json_schema
from exactdp.extension.extension import certify_extension
from exactdp.extension.best import best_extension_bracket
from exactdp.utility.tradeoff import certify_tradeoff
from exactdp.utility.utility import certify_exponential_bound, certify_utility

AH = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
E = exponential(discrete(2), beta="log(2)", mu={"0": "9/10", "1": "1/10"})


def _set(path, fn):
    def tamper(j):
        d = j["evidence"]
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = fn(d[path[-1]])
    return tamper


def _bump(v):
    return str(Fraction(v) + Fraction(1, 7))


CASES = [
    ("extension holds", lambda: certify_extension(AH, path(4), ["0", "3"], alpha="1/2"), "holds",
     [_set(["mechanism", "values", 0], lambda v: "1/5"), _set(["distances", 1, 0], lambda v: "2"),
      _set(["normalisers_equal_1"], lambda v: v - 1), _set(["restricted", "pairs", 0, 2], lambda v: "1")]),
    ("extension fails (a)", lambda: certify_extension(AH, path(4), ["0", "3"], alpha="2/3"), "fails",
     [_set(["private_on_H"], lambda v: "holds"), _set(["mech_on_H", "values", 0], lambda v: "1/2")]),
    ("best_extension", lambda: best_extension_bracket(AH, path(4), ["0", "3"], alpha="1/2", rel_width="1/16"),
     "holds", [_set(["lp_upper", "lam", 0], _bump), _set(["lp_lower", "value"], lambda v: "0"),
               _set(["metric", "pairs"], lambda v: v[:1])]),
    ("utility holds", lambda: certify_utility(E, discrete(2), gamma="1", delta="9/10"), "holds",
     [_set(["mass"], lambda v: "1/2"), _set(["sigma", 1, 1], lambda v: "1")]),
    ("utility fails", lambda: certify_utility(E, discrete(2), gamma="1", delta="1/2"), "fails",
     [_set(["ball"], lambda v: "closed"), _set(["masses", "1"], _bump)]),
    ("exponential_bound", lambda: certify_exponential_bound(E, discrete(2), beta="log(2)"), "holds",
     [_set(["lipschitz"], lambda v: "2"), _set(["attained"], lambda v: True),
      _set(["smallest", "binding", "K_x"], lambda v: "1/2")]),
    ("tradeoff", lambda: certify_tradeoff(path(4), gamma="2", delta="1/5"), "holds",
     [_set(["lp_lower", "y", 0], _bump), _set(["s_upper"], lambda v: "1"), _set(["metric", "pairs"], lambda v: v[1:]),
      _set(["t_lower"], lambda v: "2")]),
    ("tradeoff zero", lambda: certify_tradeoff(discrete(3), gamma="1", delta="3/4"), "holds",
     [_set(["lp_upper", "x", 0], lambda v: "1")]),
]


#: built at collection, before any test registers a kind of its own (tests/certificate/test_certificates.py does)
SCHEMA = json_schema()


@pytest.fixture(scope="module")
def schema():
    return SCHEMA


@pytest.mark.parametrize("name, make, verdict, tamperings", CASES, ids=[c[0] for c in CASES])
def test_round_trip_schema_recheck_and_tampering(name, make, verdict, tamperings, schema):
    c = make()
    assert c.verdict.value == verdict
    j = c.to_json()
    jsonschema.validate(j, schema)
    text = json.dumps(j)
    assert Certificate.from_json(text) == c and Certificate.from_json(text).to_json() == j
    got = recheck(text)
    assert got.status == "confirmed", got.detail
    for tamper in tamperings:
        bad = copy.deepcopy(j)
        tamper(bad)
        r = recheck(bad)
        assert r.status == "refuted", (name, r.detail)
    assert f"**Verdict.** {verdict}" in c.to_markdown()
    assert r"\begin{proof}" in c.to_latex()
    assert f"verdict: {verdict}" in c.to_text() and "$" not in c.to_text()


def test_transcendental_extension_is_rechecked_and_tampering_refuted():
    # e^(eps d) = e^d is transcendental: the re-check compares exponential polynomials (exact zero test, intervals)
    c = certify_extension(AH, path(4), ["0", "3"], eps="1")
    j = c.to_json()
    assert c.holds is True and recheck(j).status == "confirmed", recheck(j).detail
    for path_, new_value in ((["normalisers", 1], "exp(1/2)"), (["private_2eps"], "fails"),
                             (["mechanism", "values", 0], "1/3")):
        bad = copy.deepcopy(j)
        d = bad["evidence"]
        for k in path_[:-1]:
            d = d[k]
        d[path_[-1]] = new_value
        assert recheck(bad).status == "refuted", path_

