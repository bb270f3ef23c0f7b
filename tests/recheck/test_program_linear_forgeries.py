"""The ``program`` kind's linear form (``form: linear``): the kernel re-derives the noisy linear queries' lemma.

Genuine certificates are confirmed; a forger who keeps the forms but changes the text, the relation or the claim,
or edits the forms so that some observed value or the bound no longer fits, is refuted.
"""

import copy
import json
from pathlib import Path

import pytest

from exactdp.programs import parse_program
from exactdp.programs.check import program_certificate
from exactdp.recheck import recheck
from exactdp.recheck import program as K

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"
_CACHE: dict = {}


def cert(name, n=4, relation="one-differ"):
    key = (name, n, relation)
    if key not in _CACHE:
        p = parse_program((SUITE / f"{name}.prog").read_text(), name)
        c = program_certificate(p, n=n, domain=(0, 2), relation=relation)
        _CACHE[key] = json.loads(json.dumps(c.to_json()))
    return copy.deepcopy(_CACHE[key])


def reclaim(c):
    c["claim"] = K.claim_text(c)
    return c


def status(c):
    return recheck(c).status


@pytest.mark.parametrize("name,n,relation", [("prefix_sum", 4, "one-differ"), ("smart_sum", 4, "one-differ"),
                                             ("prefix_sum", 9, "one-differ"), ("svt1", 4, "all-differ"),
                                             ("gap_svt", 3, "all-differ"), ("partial_sum", 5, "one-differ")])
def test_genuine_linear_certificates_are_confirmed(name, n, relation):
    c = cert(name, n, relation)
    assert c["evidence"]["form"] == "linear" and c["method"] == "RATIONAL"
    r = recheck(c)
    assert r.status == "confirmed" and "noisy linear queries" in r.detail


def test_the_bad_text_under_good_forms_is_refuted():
    c = cert("smart_sum")
    c["evidence"]["text"] = (SUITE / "smart_sum_bad.prog").read_text()      # a block's sum released without noise
    # its one noise assignment is eta2 (site 0), drawn at iterations 1 and 3: the forms a forger would state
    c["evidence"]["noise_forms"] = [[0, 1, 1, 0, 0, 0], [0, 3, 0, 0, 1, 0]]
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "not a combination" in r.detail


@pytest.mark.parametrize("relation,n", [("all-differ", 4), ("increasing", 4)])
def test_a_relation_where_the_bound_exceeds_1_is_refuted(relation, n):
    c = cert("prefix_sum")
    c["evidence"]["relation"] = relation
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "> 1" in r.detail


def test_svt_beyond_its_bound_is_refuted():
    c = cert("svt1", 4, "all-differ")
    c["evidence"]["n"] = 5
    c["evidence"]["noise_forms"] = [[1, i, *(int(j == i - 1) for j in range(5))] for i in range(1, 6)]
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "reaches 5/4" in r.detail


def test_edited_forms_are_refuted():
    good = cert("prefix_sum")
    forged = []
    c = copy.deepcopy(good)
    c["evidence"]["noise_forms"][0][2] = 2                     # a coefficient changed
    forged.append(c)
    c = copy.deepcopy(good)
    del c["evidence"]["noise_forms"][1]                          # a form dropped
    forged.append(c)
    c = copy.deepcopy(good)
    c["evidence"]["noise_forms"].append([5, 1, 0, 0, 0, 0])     # a noise the text does not draw
    forged.append(c)
    c = copy.deepcopy(good)
    c["evidence"]["noise_forms"].append(list(c["evidence"]["noise_forms"][0]))      # a noise twice
    forged.append(c)
    c = copy.deepcopy(good)
    c["evidence"]["noise_forms"][0] = c["evidence"]["noise_forms"][0][:-1]          # n - 1 coefficients
    forged.append(c)
    assert [status(f) for f in forged] == ["refuted"] * len(forged)


def test_the_linear_form_states_holds_only():
    c = cert("prefix_sum")
    c["verdict"] = "fails"
    c["evidence"]["witness"] = {"x": "0,0,0,0", "x_prime": "0,0,0,1", "output": "0,0,0,0", "u": "1/2"}
    assert status(reclaim(c)) == "refuted"
    c = cert("prefix_sum")
    c["evidence"]["form"] = "matrix"                              # forms carried on a matrix certificate
    assert status(reclaim(c)) == "refuted"
    c = cert("prefix_sum")
    c["evidence"]["form"] = "fast"
    assert status(reclaim(c)) == "refuted"


@pytest.mark.parametrize("text,answer", [
    ("output argmax(q + dlap(2))\n", "refuted"),                                      # argmax reads every query
    ("for i:\n  z = geo(1)\n  output clamp(q + z, 0, 4)\nend\n", "refuted"),           # a shifted one-sided noise
    ("for i:\n  z = dlap(1)\n  output clamp(q + z, 0, 4)\n  output clamp(q, 0, 2)\nend\n", "refuted"),   # raw q
    ("c = 3\nc = c * c\nc = c * c\nc = c * c\nc = c * c\nc = c * c\nc = c * c\nc = c * c\n"
     "for i:\n  z = dlap(1)\n  output clamp(q + z + c, 0, 4)\nend\n", "not checkable"),  # 3^128: too large
    ("for i:\n  z = dlap(1)\n  output clamp(q + z + w, 0, 4)\nend\n", "refuted"),      # reads w before setting it
])
def test_texts_the_lemma_does_not_cover(text, answer):
    c = cert("prefix_sum")
    c["evidence"]["text"] = text
    c["evidence"]["noise_forms"] = [[0, i, *(int(j == i - 1) for j in range(4))] for i in range(1, 5)]
    c["evidence"]["base_power"] = 2 if "dlap(2)" in text else 1
    assert status(reclaim(c)) == answer


def test_the_linear_forms_work_is_bounded_before_it_is_done():
    """An outside forger's text (helper, 28 Nov): 12 noisy branches before a running sum at n = 100 -- 4,096 paths
    of 100 iterations over values of 100 coefficients -- ran for minutes; it is now refused by its count."""
    branches = "".join(f"w{k} = dlap(4)\nif w{k} > 0:\n  output \"a\"\nend\n" for k in range(12))
    c = cert("prefix_sum")
    ev = c["evidence"]
    ev["text"] = branches + ("next = 0\nfor i:\n  eta = dlap(1)\n  next = next + q + eta\n"
                             "  output clamp(next, -6, 8)\nend\n")
    ev["n"], ev["base_power"] = 100, 4
    ev["noise_forms"] = [[12, i, *(int(j == i - 1) for j in range(100))] for i in range(1, 101)]
    r = recheck(reclaim(c))
    assert r.status == "not checkable" and "coefficient operations for the linear form" in r.detail


def test_a_smaller_noise_under_the_same_forms_is_refuted():
    """The definition changed: prefix_sum's noise at half its scale (DLap(1/(2 eps))), forms and claim rewritten --
    the bound doubles to 2."""
    c = cert("prefix_sum")
    c["evidence"]["text"] = c["evidence"]["text"].replace("dlap(1)", "dlap(1/2)")
    assert "dlap(1/2)" in c["evidence"]["text"]
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "reaches 2 > 1" in r.detail
