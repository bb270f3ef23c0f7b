"""Consistent forgeries of the KL10 kinds (issue 27, item 3): a definition changed -- the query ``f``, the output
metric ``sigma``, the mechanism -- and every dependent field recomputed as a forger would.  Each is refuted.

Before the fix ``f``, the output table and the output set appeared neither in the claim nor in the proof: a
"counterexample to KL10 Thm 2.7" (a mechanism stated against another ``f``'s Lipschitz constant) was confirmed,
and a utility claim held by shrinking ``sigma``.  Now ``utility`` and ``tradeoff`` claims name ``f`` and
``sigma`` (rebuilt from the carried table: a family's description only when the table is that family's), and
``exponential_bound`` requires the mechanism to be KL10 Def. 2.6's exponential mechanism of ``f``, ``sigma`` and
``beta`` (for some ``mu``).
"""

from __future__ import annotations

import copy
import json

import pytest

from exactdp.mechanisms import exponential, randomized_response
from exactdp.metrics import discrete, path
from exactdp.recheck import recheck
from exactdp.utility.tradeoff import certify_tradeoff
from exactdp.utility.utility import certify_exponential_bound, certify_utility

F2X = {"0": "0", "1": "2", "2": "4"}


def _status(j: dict) -> str:
    return recheck(j).status


def _utility_forged(sigma_half: bool, keep_claim: bool) -> dict:
    """RR(2, 1/4) fails (1, 1/5)-utility on the discrete metric; the forger shrinks sigma to 1/2 (every output in
    every ball), recomputes sigma, the masses, the worst x and the verdict."""
    j = certify_utility(randomized_response(2, "1/4"), discrete(2), gamma=1, delta="1/5").to_json()
    assert j["verdict"] == "fails" and _status(j) == "confirmed"
    ev = j["evidence"]
    ev["output"]["values"] = ["0", "1/2"] if sigma_half else ev["output"]["values"]
    ev["sigma"] = [["0", "1/2"], ["1/2", "0"]]
    ev["masses"] = {"0": "1", "1": "1"}
    ev["mass"], ev["worst"], ev["ball_outputs"] = "1", "0", ["0", "1"]
    j["verdict"] = "holds"
    if not keep_claim:
        ev["output_description"] = "my output metric"
        j["claim"] = j["claim"].replace("the discrete metric on 2 points", 'sigma on ["0", "1"] = [[0, 1/2], [1/2, 0]]')
    return j


def test_utility_sigma_forged_under_the_family_name_is_refuted():
    r = recheck(_utility_forged(True, keep_claim=True))
    assert r.status == "refuted" and "discrete" in r.detail


def test_utility_sigma_changed_shows_in_the_claim():
    """The consistent forgery states a true fact about the sigma it carries -- and the claim shows that sigma."""
    j = _utility_forged(True, keep_claim=False)
    assert j["claim"].endswith('for f = id into sigma on ["0", "1"] = [[0, 1/2], [1/2, 0]]')
    assert _status(j) == "confirmed"
    j["claim"] = j["claim"].replace("[[0, 1/2], [1/2, 0]]", "[[0, 1], [1, 0]]")      # the table hidden again
    assert _status(j) == "refuted"


def test_utility_f_forged_is_refuted():
    """RR(2, 1/4) on the discrete metric; f swapped: f is in the claim, a claim without it is not the one the
    fields state."""
    j = certify_utility(randomized_response(2, "1/4"), discrete(2), gamma=1, delta="1/4").to_json()
    ev = j["evidence"]
    ev["f"] = {"0": "1", "1": "0"}                      # every ball is now the other answer: mass 1/4
    ev["sigma"] = [["1", "0"], ["0", "1"]]
    ev["masses"], ev["mass"], ev["worst"], ev["ball_outputs"] = {"0": "1/4", "1": "1/4"}, "1/4", "0", ["1"]
    j["verdict"] = "fails"
    r = recheck(j)
    assert r.status == "refuted" and "claim" in r.detail
    j["claim"] = j["claim"].replace("f = id", 'f = {"0" -> "1", "1" -> "0"}')
    assert _status(j) == "confirmed"                    # a true statement about the f it names


def _bound_counterexample():
    """The exponential mechanism of f(x) = 2x into path(5) is 2 C beta-private with C = 2; the forger states
    f = id (C = 1, bound log 4 < eps* = log(160/19)) and a "fails" verdict: a counterexample to Thm 2.7."""
    E = exponential(path(3), beta="log(2)", output_metric=path(5), f=F2X, mu={str(i): str(i + 1) for i in range(5)})
    j = certify_exponential_bound(E, path(3), path(5), F2X, beta="log(2)").to_json()
    assert j["verdict"] == "holds" and _status(j) == "confirmed"
    ev = j["evidence"]
    ev["f"] = {"0": "0", "1": "1", "2": "2"}
    ev["lipschitz_pairs"] = [[a, b, d, "1"] for a, b, d, _ in ev["lipschitz_pairs"]]
    ev["lipschitz"], ev["lipschitz_pair"], ev["bound"] = "1", ["0", "1"], "log(4)"
    ev["bound_enclosure"] = ["1.3862943611198906188", "1.3862943611198906189"]
    ev["attained"] = False
    j["verdict"] = "fails"
    return j


def test_exponential_bound_counterexample_to_thm27_is_refuted():
    r = recheck(_bound_counterexample())
    assert r.status == "refuted" and "not the exponential mechanism of f, sigma and beta" in r.detail


def test_exponential_bound_with_another_beta_in_the_name_is_refuted():
    E = exponential(discrete(2), beta="log(2)", mu={"0": "9/10", "1": "1/10"})
    j = certify_exponential_bound(E, discrete(2), beta="log(2)").to_json()
    assert _status(j) == "confirmed"
    j["evidence"]["smallest"]["mechanism"]["name"] = "exponential(beta = log(3))"
    j["claim"] = j["claim"].replace("exponential(beta = log(2))", "exponential(beta = log(3))")
    r = recheck(j)
    assert r.status == "refuted" and "another beta" in r.detail


def test_exponential_bound_transcendental_genuine_and_forged():
    """beta = 1/2: the mu-free identity decided by the kernel's exact zero test; against another f (same output
    metric) the mechanism is no exponential mechanism."""
    E = exponential(path(3), beta="1/2")
    j = certify_exponential_bound(E, path(3), beta="1/2").to_json()
    assert _status(j) == "confirmed"
    bad = copy.deepcopy(j)
    bad["evidence"]["f"] = {"0": "0", "1": "2", "2": "1"}     # another f, same output metric
    r = recheck(bad)
    assert r.status == "refuted" and "not the exponential mechanism" in r.detail


def test_tradeoff_f_forged_is_refuted():
    """eps*(1/2, 1/4) on the discrete metric with f = id; the forger states another f and keeps the claim."""
    j = certify_tradeoff(discrete(3), gamma="1/2", delta="1/4").to_json()
    assert _status(j) == "confirmed" and "for f = id into the discrete metric on 3 points" in j["claim"]
    j["evidence"]["f"] = {"0": "0", "1": "0", "2": "0"}
    j["evidence"]["sigma"] = [["0", "1", "1"]] * 3
    r = recheck(j)
    assert r.status == "refuted" and "claim" in r.detail


def test_tradeoff_sigma_forged_under_the_family_name_is_refuted():
    j = certify_tradeoff(discrete(3), gamma="1/2", delta="1/4").to_json()
    j["evidence"]["output"]["values"] = ["0", "1/4"]          # every distance 1/4: inside every ball of radius 1/2
    j["evidence"]["sigma"] = [["1/4" if a != b else "0" for b in range(3)] for a in range(3)]
    assert _status(j) == "refuted"


@pytest.mark.parametrize("label", ["a, b", 'x"]', "z -> y"])
def test_query_labels_render_unambiguously(label):
    """A label with a comma, a quote or an arrow stays one label in the claim (JSON-quoted)."""
    from exactdp.recheck._metric import query_text
    out = {"points": [label, "q"], "values": ["0", "1"], "codes": [[0, 1], [1, 0]]}
    text = query_text({"p": label}, ["p"], out, "two points")
    assert json.dumps(label) in text and text.startswith('f = {"p" -> ')
