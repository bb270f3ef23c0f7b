"""The ``program`` kind's product form (``product: true``): the kernel re-checks the text's independence itself.

Genuine product certificates are confirmed; a forger who sets ``product`` on a program whose iterations are tied,
on a relation whose pairs differ in several coordinates, with a matrix that is not the single iteration's, or with
a witness whose padding is impossible, is refuted -- each rewriting every field that depends on the change.
"""

import copy
import json

import pytest

from exactdp.programs import parse_program
from exactdp.programs.check import program_certificate
from exactdp.recheck import recheck
from exactdp.recheck import program as K

HIST = "for i:\n  z = dlap(1)\n  output clamp(q + z, -2, 2)\nend\n"
HALF = "for i:\n  z = dlap(1/2)\n  output clamp(q + z, -2, 3)\nend\n"
ONE_SIDED = "for i:\n  z = geo(1)\n  output clamp(q + z, 0, 4)\nend\n"
_CACHE: dict = {}


def cert(text, n=3, relation="one-differ", form="auto", **level):
    key = (text, n, json.dumps(relation), form, json.dumps(level))
    if key not in _CACHE:
        c = program_certificate(parse_program(text, "p"), n=n, domain=(0, 2), relation=relation, form=form, **level)
        _CACHE[key] = json.loads(json.dumps(c.to_json()))
    return copy.deepcopy(_CACHE[key])


def reclaim(c):
    c["claim"] = K.claim_text(c)
    return c


def status(c):
    return recheck(c).status


@pytest.mark.parametrize("text,level", [(HIST, {}), (HALF, {}), (ONE_SIDED, {}), (HIST, {"eps": "1", "cost": True}),
                                        (HALF, {"eps": "1"}), (HALF, {"eps": "1", "cost": True})])
def test_genuine_product_certificates_are_confirmed(text, level):
    c = cert(text, **level)
    assert c["evidence"]["form"] == "product"
    r = recheck(c)
    assert r.status == "confirmed" and "independent iterations (product form)" in r.detail


def test_the_product_flag_on_a_matrix_certificate_is_refuted():
    c = cert(HIST, relation="all-differ", form="matrix")           # the general route: 27 rows
    assert c["evidence"]["form"] == "matrix"
    c["evidence"]["form"] = "product"
    assert status(c) == "refuted"


def test_tied_iterations_are_refuted_with_the_single_iterations_matrix():
    """A running sum's text with the matrix of its first iteration: the kernel's own reading finds the state."""
    tied = "s = 0\nfor i:\n  z = dlap(1)\n  s = s + q\n  output clamp(s + z, -2, 2)\nend\n"
    c = cert(HIST)
    c["evidence"]["text"] = tied
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "independent iterations" in r.detail


@pytest.mark.parametrize("body,why", [
    ("  z = dlap(1)\n  output clamp(q + i + z, -2, 2)\n", "'i'"),
    ("  z = dlap(1)\n  output clamp(q[1] + z, -2, 2)\n", "q[k]"),
    ("  z = dlap(1)\n  output clamp(q + z, -2, 2)\n  stop\n", "stop"),
    ("  if q >= 1:\n    w = 1\n  end\n  z = dlap(1)\n  output clamp(q + z + w, -2, 2)\n", "'w'"),
])
def test_what_ties_iterations_is_found_by_the_kernel(body, why):
    c = cert(HIST)
    c["evidence"]["text"] = "for i:\n" + body + "end\n"
    r = recheck(reclaim(c))
    assert r.status == "refuted" and why in r.detail


def test_two_items_per_iteration_are_refuted():
    c = cert(HIST)
    c["evidence"]["text"] = "for i:\n  z = dlap(1)\n  output \"a\"\n  output clamp(q + z, -2, 2)\nend\n"
    assert status(reclaim(c)) == "refuted"


@pytest.mark.parametrize("relation", ["all-differ", "increasing"])
def test_a_relation_of_several_coordinates_is_refuted(relation):
    c = cert(HIST)
    c["evidence"]["relation"] = relation
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "several coordinates" in r.detail


def test_explicit_pairs_of_several_coordinates_are_refuted():
    c = cert(HIST, relation=[[[0, 0, 0], [0, 0, 1]]])
    assert status(c) == "confirmed"
    c["evidence"]["pairs"] = [[[0, 0, 0], [1, 1, 0]]]
    assert status(reclaim(c)) == "refuted"


def test_holds_turned_on_a_failing_product_is_refuted():
    c = cert(HALF)
    c["verdict"] = "holds"
    c["evidence"].update(witness=None, failure_set=None, failure_set_text=None)
    assert status(reclaim(c)) == "refuted"


def test_a_matrix_that_is_not_the_single_iterations_is_refuted():
    c = cert(HIST)
    ev = c["evidence"]
    ev["codes"][0][0], ev["codes"][0][1] = ev["codes"][0][1], ev["codes"][0][0]
    assert status(c) == "refuted"
    c = cert(HIST)
    c["evidence"]["inputs"] = ["0,0,0", "1,0,0", "2,0,0"]
    assert status(c) == "refuted"


def test_forged_witnesses_are_refuted():
    good = cert(HALF)
    assert status(good) == "confirmed"
    w = good["evidence"]["witness"]
    forged = []
    for change in ({"x": "+" + w["x"]}, {"x": "0" + w["x"]},                         # another spelling of an input
                   {"x_prime": w["x"]},                                             # not a pair
                   {"x": w["x"] + ",0", "x_prime": w["x_prime"] + ",0", "output": w["output"] + ",0"},  # n + 1 items
                   {"output": w["output"].split(",")[0]},                            # one item only
                   {"x": "0,1,0", "x_prime": "1,0,0"}):                              # two coordinates differ
        c = copy.deepcopy(good)
        c["evidence"]["witness"].update(change)
        forged.append(reclaim(c))
    assert [status(c) for c in forged] == ["refuted"] * len(forged)


def test_a_padding_output_impossible_on_its_input_is_refuted():
    """ONE_SIDED: output 0 is impossible on q = 1, so padding coordinate 2 (value 1) with 0 is refuted."""
    c = cert(ONE_SIDED)
    w = c["evidence"]["witness"]
    x, y, z = w["x"].split(","), w["x_prime"].split(","), w["output"].split(",")
    j = next(k for k in range(3) if x[k] != y[k])
    k = (j + 1) % 3
    x[k] = y[k] = "1"
    z[k] = "0"
    w.update(x=",".join(x), x_prime=",".join(y), output=",".join(z))
    r = recheck(reclaim(c))
    assert r.status == "refuted" and "not positive on (0, 1)" in r.detail


def test_a_product_at_n_1_is_malformed_and_a_huge_n_too_large():
    c = cert(HIST)
    c["evidence"]["n"] = 1
    assert status(reclaim(c)) in ("refuted", "malformed")
    c = cert(HIST)
    c["evidence"]["n"] = 10**6
    c["evidence"]["witness"] = None
    assert status(reclaim(c)) == "not checkable"
