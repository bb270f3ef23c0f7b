"""Audit of an accountant (issue 22 item 4): the exact delta(eps) of a plan against Kairouz-Oh-Viswanath's formula
(evaluated here independently with Fractions) and against a Fraction brute force over the product rows of a
heterogeneous plan; both verdicts and the exactly tight boundary; the command line (exit 0 / 1 / 2, JSON that parses)
and every bad plan file."""

import itertools
import json
import math
from fractions import Fraction as Fr
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, Mechanism
from exactdp.cli import main
from exactdp.errors import InvalidType
from exactdp.exact.decide import sign
from exactdp.exact.values import exact_number
from exactdp.mechanisms import generalized_rr, geometric, randomized_response
from exactdp.metrics import path
from exactdp.interop.audit import audit, plan_profile
from exactdp.composition.composition import composed_profile


def kov(r, k, i):
    """KOV15 Thm. 3.4 for randomized response with e^eps0 = r, at eps = (k - 2i) eps0, with Fractions."""
    return sum((comb(k, j) * (Fr(r) ** (k - j) - Fr(r) ** (k - 2 * i + j)) for j in range(i)), Fr(0)) / (1 + Fr(r)) ** k


@pytest.mark.parametrize("k", [1, 2, 5, 10])
def test_tight_boundary_is_exactly_kov(k):
    rr = randomized_response(2, p="1/4")           # stays w.p. 3/4: e^eps0 = 3
    for i in range(0, k // 2 + 1):
        d = kov(3, k, i)
        eps = f"log({3 ** (k - 2 * i)})"
        r = audit([(rr, k)], [("0", "1")], eps=eps, delta=str(d))
        assert r.holds and r.slack == 0 and Fr(str(r.delta_exact)) == d
        below = audit([(rr, k)], [("0", "1")], eps=eps, delta=str(d - Fr(1, 10**9))) if d > 0 else None
        if below is not None:
            assert not below.holds and Fr(str(below.slack)) == -Fr(1, 10**9)
        above = audit([(rr, k)], [("0", "1")], eps=eps, delta=str(min(Fr(1), d + Fr(1, 10**9))))
        assert above.holds


def product_rows(rows_list):
    """Rows of the product of several mechanisms over the same inputs (each a list of Fraction rows)."""
    n = len(rows_list[0])
    return [[math.prod(c, start=Fr(1)) for c in itertools.product(*(rows[x] for rows in rows_list))]
            for x in range(n)]


def brute_delta(rows, pairs, t):
    return max(sum((max(Fr(0), p - t * q) for p, q in zip(rows[a], rows[b], strict=True)), Fr(0))
               for i, j in pairs for a, b in ((i, j), (j, i)))


def fr_rows(m):
    return [[Fr(str(v)) for v in r] for r in m.rows()]


@pytest.mark.parametrize("t", [Fr(1), Fr(3, 2), Fr(2), Fr(5), Fr(40)])
def test_heterogeneous_plan_against_product_rows(t):
    A = geometric(2, "1/2")
    B = Mechanism.from_rows(["0", "1", "2"], ["a", "b"], [["2/3", "1/3"], ["1/2", "1/2"], ["1/5", "4/5"]])
    plan = [(A, 2), (B, 1)]
    R = product_rows([fr_rows(A), fr_rows(A), fr_rows(B)])
    want = brute_delta(R, [(0, 1), (1, 2)], t)
    r = audit(plan, path(3), eps=f"log({t})" if t != 1 else "0", delta="1/10")
    assert Fr(str(r.delta_exact)) == want
    assert r.holds == (want <= Fr(1, 10))
    assert Fr(str(r.slack)) == Fr(1, 10) - want


def test_one_entry_plan_is_the_composed_profile_transcendental():
    g = geometric(2, eps="1")
    pr = plan_profile([(g, 1), (g, 2)], path(3))
    ref = composed_profile(g, path(3), 3)
    for eps in ("0", "1", "2", "5/2"):
        assert sign(pr.delta(eps=eps) - ref.delta(eps=eps)) == 0


def test_mixed_regimes_in_one_plan():
    # a rational and a transcendental mechanism, e^eps0 = 3 and e: loss ratios 3e, 3/e, e/3, 1/(3e).
    # At eps = 1 only 3e > e counts: delta = (3/4)(e/(1+e))(1 - e/(3e)) = e/(2(1+e)); at eps = 3, e^3 > 3e: 0
    plan = [(generalized_rr(2, eps="log(3)"), 1), (generalized_rr(2, eps="1"), 1)]
    r = audit(plan, [("0", "1")], eps="1", delta="0")
    assert not r.holds and sign(r.delta_exact - exact_number("exp(1)/(2*(1 + exp(1)))")) == 0
    assert sign(r.slack + r.delta_exact) == 0
    r3 = audit(plan, [("0", "1")], eps="3", delta="0")
    assert r3.holds and r3.slack == 0
    assert not audit(plan, [("0", "1")], eps="2", delta="0").holds


@pytest.mark.parametrize("plan,exc,match", [
    ([], InvalidInput, "at least one"),
    ("grr", InvalidType, "list"),
    ([(randomized_response(2, p="1/4"),)], InvalidType, "pair"),
    ([(randomized_response(2, p="1/4"), 0)], InvalidInput, "k >= 1"),
    ([(randomized_response(2, p="1/4"), True)], InvalidType, "integer"),
    ([(randomized_response(2, p="1/4"), 1), (randomized_response(3, p="1/4"), 1)], InvalidInput, "same data set"),
    ([(geometric(1), 1)], InvalidInput, "symbolic"),
])
def test_bad_plans(plan, exc, match):
    with pytest.raises(exc, match=match):
        audit(plan, [("0", "1")], eps="1", delta="1/2")


@pytest.mark.parametrize("eps,delta,match", [("-1", "1/2", "eps"), ("1", "2", "delta"), ("1", "-1/2", "delta")])
def test_bad_claims(eps, delta, match):
    with pytest.raises(InvalidInput, match=match):
        audit([(randomized_response(2, p="1/4"), 1)], [("0", "1")], eps=eps, delta=delta)


# ---- the command line ----
def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


@pytest.fixture
def files(tmp_path):
    rr = {"inputs": ["0", "1"], "outputs": ["0", "1"], "matrix": [["3/4", "1/4"], ["1/4", "3/4"]]}
    return {"rr": write(tmp_path, "rr.json", rr),
            "metric": write(tmp_path, "d.json", {"kind": "discrete", "points": ["0", "1"]}),
            "dir": tmp_path}


def test_cli_audit_both_verdicts_and_the_boundary(files, capsys, tmp_path):
    plan = write(tmp_path, "plan.json", [{"mechanism": "rr.json", "times": 10}])
    d = kov(3, 10, 4)
    code, out, err = run(["audit", plan, "--metric", files["metric"], "--eps", "log(9)", "--delta", str(d)], capsys)
    assert code == 0 and err == "" and "verdict: holds" in out and "slack: 0" in out
    code, out, err = run(["audit", plan, "--metric", files["metric"], "--eps", "log(9)",
                          "--delta", str(d - Fr(1, 10**12)), "--format", "json"], capsys)
    obj = json.loads(out)
    assert code == 1 and err == "" and obj["verdict"] == "fails" and Fr(obj["evidence"]["slack"]) == -Fr(1, 10**12)
    assert Fr(obj["evidence"]["delta_exact"]) == d


def test_cli_audit_builder_entries(files, capsys, tmp_path):
    plan = write(tmp_path, "plan.json", [{"builder": "grr", "k": 2, "eps": "log(3)", "times": 6},
                                         {"mechanism": "rr.json", "times": 4}])
    code, out, _ = run(["audit", plan, "--metric", files["metric"], "--eps", "log(9)", "--delta", str(kov(3, 10, 4)),
                        "--format", "json"], capsys)
    assert code == 0 and Fr(json.loads(out)["evidence"]["slack"]) == 0


@pytest.mark.parametrize("plan,match", [
    ({"a": 1}, "non-empty JSON list"),
    ([], "non-empty JSON list"),
    ([3], "expected an object"),
    ([{"mechanism": "rr.json", "builder": "grr"}], "exactly one"),
    ([{"times": 2}], "exactly one"),
    ([{"mechanism": "rr.json", "times": 0}], "times"),
    ([{"mechanism": "rr.json", "times": "2"}], "times"),
    ([{"mechanism": "rr.json", "k": 2}], "unknown key"),
    ([{"mechanism": 3}], "file name"),
    ([{"mechanism": "missing.json"}], "missing.json"),
    ([{"builder": "nope", "k": 2}], "unknown builder"),
    ([{"builder": "grr", "k": "2", "eps": "1"}], "integer"),
    ([{"builder": "grr", "k": 2}], "symbolic"),
    ([{"builder": "grr", "k": 2, "eps": "1", "g": 3}], "does not take"),
])
def test_cli_audit_bad_plan_files(files, capsys, tmp_path, plan, match):
    p = write(tmp_path, "plan.json", plan)
    code, out, err = run(["audit", p, "--metric", files["metric"], "--eps", "1", "--delta", "1/2"], capsys)
    assert code == 2 and out == "" and match in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("extra,match", [
    (["--eps", "-1", "--delta", "1/2"], "eps"),
    (["--eps", "1", "--delta", "3/2"], "delta"),
    (["--eps", "1", "--delta", "0.5.5"], "delta"),
])
def test_cli_audit_bad_claims(files, capsys, tmp_path, extra, match):
    p = write(tmp_path, "plan.json", [{"mechanism": "rr.json"}])
    code, out, err = run(["audit", p, "--metric", files["metric"], *extra], capsys)
    assert code == 2 and out == "" and match in err


def test_cli_audit_missing_arguments(files, capsys, tmp_path):
    p = write(tmp_path, "plan.json", [{"mechanism": "rr.json"}])
    with pytest.raises(SystemExit) as e:
        main(["audit", p, "--metric", files["metric"], "--eps", "1"])
    assert e.value.code == 2
    capsys.readouterr()


@st.composite
def small_mechanism(draw, n_in, n_out):
    rows = []
    for _ in range(n_in):
        w = draw(st.lists(st.integers(0, 5), min_size=n_out, max_size=n_out).filter(lambda x: sum(x) > 0))
        rows.append([Fr(x, sum(w)) for x in w])
    return rows


@settings(max_examples=25, deadline=None)
@given(small_mechanism(3, 2), small_mechanism(3, 3), st.integers(1, 2), st.integers(1, 2),
       st.sampled_from([Fr(1), Fr(3, 2), Fr(4)]), st.fractions(0, 1, max_denominator=20))
def test_random_plans_against_product_rows(A, B, ka, kb, t, delta):
    mA = Mechanism.from_rows(["0", "1", "2"], ["a", "b"], [[str(x) for x in r] for r in A])
    mB = Mechanism.from_rows(["0", "1", "2"], ["a", "b", "c"], [[str(x) for x in r] for r in B])
    R = product_rows([A] * ka + [B] * kb)
    want = brute_delta(R, [(0, 1), (1, 2)], t)
    r = audit([(mA, ka), (mB, kb)], path(3), eps=f"log({t})" if t != 1 else "0", delta=str(delta))
    assert Fr(str(r.delta_exact)) == want and r.holds == (want <= delta) and Fr(str(r.slack)) == delta - want
