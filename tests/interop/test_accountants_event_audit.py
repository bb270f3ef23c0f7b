"""The audit's comparison on dp_accounting's own event tree (issue 29, item 3): the tree a plan means (or names),
dp_accounting's PLDAccountant answer for it next to exactdp's exact delta of the same tree, each with its route.

The exact side is checked against a brute force over the product distribution (Fractions); dp_accounting 0.6.0's
answers are asserted only as floats near the exact value, or as what it reports (its PLDAccountant composes a
RandomizedResponseDpEvent once whatever the SelfComposedDpEvent count: found here, pinned below)."""

from __future__ import annotations

import json
from fractions import Fraction as Fr
from itertools import product

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.mechanisms import geometric, generalized_rr, randomized_response

dp = pytest.importorskip("dp_accounting")
de = pytest.importorskip("dp_accounting.dp_event")

from exactdp.interop.accountants import (  # noqa: E402
    DPEventComparison,
    compare_dp_event,
    dp_event_of_json,
    dp_event_of_plan,
    plan_of_dp_event,
)


def brute_rr_delta(keep: Fr, K: int, k: int, t: Fr) -> Fr:
    """delta(t) of k runs of K-ary randomized response (keep with `keep`), inputs 0 and 1, from the definition."""
    move = (1 - keep) / (K - 1)
    P = [keep if y == 0 else move for y in range(K)]
    Q = [keep if y == 1 else move for y in range(K)]
    total = Fr(0)
    for ys in product(range(K), repeat=k):
        p = q = Fr(1)
        for y in ys:
            p, q = p * P[y], q * Q[y]
        total += max(p - t * q, Fr(0))
    return total


def test_json_plan_builds_the_tree_and_the_exact_plan():
    entries = [{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": "0.5", "num_buckets": 3, "times": 2},
               {"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.25, "num_buckets": 3}]
    ev, T = dp_event_of_json(entries)
    assert T is None and ev == de.ComposedDpEvent([de.SelfComposedDpEvent(de.RandomizedResponseDpEvent(0.5, 3), 2),
                                                   de.RandomizedResponseDpEvent(0.25, 3)])
    plan = plan_of_dp_event(ev)
    assert [k for _, k in plan] == [2, 1]
    assert [str(v) for v in plan[0][0].rows()[0]] == ["2/3", "1/6", "1/6"]    # 1 - p + p/K, p/K


@pytest.mark.parametrize("entries, match", [
    ([], "non-empty list"),
    ([{"builder": "grr"}], "expected an object with \"dp_event\""),
    ([{"dp_event": "NoSuchDpEvent"}], "dp_accounting has no event 'NoSuchDpEvent'"),
    ([{"dp_event": "PLDAccountant"}], "dp_accounting has no event"),
    ([{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 2, "times": 0}], "times"),
    ([{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 2, "truncation": 0}],
     "truncation"),
    ([{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 2, "truncation": 3},
      {"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5, "num_buckets": 2, "truncation": 4}],
     "one truncation"),
    ([{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5}], "RandomizedResponseDpEvent.*refused"),
])
def test_json_plan_refusals(entries, match):
    with pytest.raises(InvalidInput, match=match):
        dp_event_of_json(entries)


def test_unsupported_named_event_is_refused_by_name_on_the_exact_side():
    ev, _ = dp_event_of_json([{"dp_event": "GaussianDpEvent", "noise_multiplier": 1.0}])
    with pytest.raises(InvalidInput, match="GaussianDpEvent is not read exactly"):
        plan_of_dp_event(ev)
    c = compare_dp_event(ev, "1")
    assert c.exact is None and c.exact_route.startswith("refused by exactdp: dp_event: GaussianDpEvent")
    assert c.accountant is not None and 0 < c.accountant < 1 and c.below is None


def test_plan_to_event_tree():
    rr = randomized_response(3, p="1/4")                     # keeps with 1/2, each other value 1/4: p = 3/4
    ev, exact, why = dp_event_of_plan([(rr, 4)])
    (m, _), = plan_of_dp_event(ev)
    assert why is None and exact and ev.events[0].count == 4 and ev.events[0].event.noise_parameter == 0.75
    assert m.rows() == rr.rows()[:2]                          # the tree means the same mechanism (inputs 0, 1)
    ev, exact, why = dp_event_of_plan([(generalized_rr(2, eps="1"), 2)])
    assert ev is not None and not exact and why is None                    # p = 2/(e + 1): its nearest float
    ev, exact, why = dp_event_of_plan([(randomized_response(2, p="1/4"), 1), (geometric(2, eps="1"), 1)])
    assert ev is None and "entry 1 (" in why and "not randomized response" in why


def test_plan_to_event_tree_needs_equal_off_diagonal():
    from exactdp.mechanism import mechanism_from_values

    q = [[fmpq(1, 2), fmpq(1, 4), fmpq(1, 4)], [fmpq(1, 4), fmpq(1, 2), fmpq(1, 4)],
         [fmpq(1, 8), fmpq(3, 8), fmpq(1, 2)]]
    m = mechanism_from_values(["0", "1", "2"], ["0", "1", "2"], q)
    assert dp_event_of_plan([(m, 1)])[0] is None


@pytest.mark.parametrize("t", [Fr(1), Fr(2), Fr(5)])
def test_exact_side_is_the_brute_force_and_dp_accounting_drops_the_count(t):
    """Three runs of binary randomized response keeping with 3/4: exactdp equals the brute force (exactly at
    eps = 0; at log t the exact side is at the float's exact value, within 1e-14 of the brute force at t, delta
    being 1-Lipschitz in e^eps).  dp_accounting 0.6.0's PLDAccountant answers for the SelfComposedDpEvent as for
    one run (below the exact delta), and for the same three runs listed in a ComposedDpEvent near the exact one."""
    eps = "0" if t == 1 else f"log({t})"
    want, one = brute_rr_delta(Fr(3, 4), 2, 3, t), brute_rr_delta(Fr(3, 4), 2, 1, t)
    c = compare_dp_event(de.SelfComposedDpEvent(de.RandomizedResponseDpEvent(0.5, 2), 3), eps)
    lo, hi = (Fr(x) for x in c.exact.enclosure())
    assert c.exact_route == "lattice-exact" and abs(lo - want) < Fr(1, 10**14) and abs(hi - want) < Fr(1, 10**14)
    if t == 1:
        assert Fr(str(c.exact.value)) == want == Fr(11, 16)
    assert abs(Fr(c.accountant) - one) < Fr(1, 1000) and c.below is True
    listed = compare_dp_event(de.ComposedDpEvent([de.RandomizedResponseDpEvent(0.5, 2)] * 3), eps)
    assert abs(Fr(listed.accountant) - want) < Fr(1, 1000) and listed.below is (Fr(listed.accountant) < lo)
    assert "REPLACE_ONE" in c.accountant_route


def test_discrete_laplace_tree_and_a_mixed_tree():
    ev = de.SelfComposedDpEvent(de.DiscreteLaplaceDpEvent(1.0, 1), 4)
    c = compare_dp_event(ev, "2")
    # DLap(1) with sensitivity 1 is binary randomized response keeping with e/(1 + e): KOV at eps = 2
    lo, hi = (Fr(x) for x in c.exact.enclosure())
    assert c.exact_route == "lattice-exact" and "ADD_OR_REMOVE_ONE" in c.accountant_route
    assert abs(Fr(c.accountant) - lo) < Fr(1, 1000) and hi - lo < Fr(1, 10**15)
    mixed = compare_dp_event(de.ComposedDpEvent([de.RandomizedResponseDpEvent(0.5, 2), de.DiscreteLaplaceDpEvent(
        1.0, 1)]), "1")
    assert mixed.accountant is None and "refused by dp_accounting" in mixed.accountant_route
    assert mixed.exact is None and "incommensurable" in mixed.exact_route and mixed.below is None
    assert mixed.to_json()["delta_exact"] is None


def test_comparison_json():
    c = compare_dp_event(de.RandomizedResponseDpEvent(0.5, 2), "0")
    j = c.to_json()
    assert j["delta_exact"] == "1/2" and j["enclosure"] == ["0.5", "0.5"] and j["exact_route"] == "lattice-exact"
    assert isinstance(c, DPEventComparison) and c.eps_query == fmpq(0)


def test_cli_event_plan_and_mechanism_plan(tmp_path, capsys):
    from exactdp.cli import main

    (tmp_path / "e.json").write_text(json.dumps([{"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5,
                                                  "num_buckets": 2, "times": 3}]))
    code = main(["audit", str(tmp_path / "e.json"), "--eps", "0", "--delta", "11/16", "--dp-accounting"])
    out = capsys.readouterr().out
    assert code == 0 and "dp_accounting event tree (as the plan names it)" in out
    assert "exactdp on the same tree: 11/16 (in [0.6875, 0.6875]) [route lattice-exact]" in out
    assert "dp_accounting below exact: yes" in out and "route PLDAccountant(REPLACE_ONE" in out
    assert main(["audit", str(tmp_path / "e.json"), "--eps", "0", "--delta", "1/2"]) == 1     # 11/16 > 1/2
    capsys.readouterr()
    (tmp_path / "d.json").write_text(json.dumps({"kind": "discrete", "points": ["0", "1", "2"]}))
    (tmp_path / "p.json").write_text(json.dumps([{"builder": "grr", "k": 3, "eps": "log(2)", "times": 2},
                                                 {"builder": "geometric", "k": 3, "eps": "1"}]))
    code = main(["audit", str(tmp_path / "p.json"), "--metric", str(tmp_path / "d.json"), "--eps", "1", "--delta",
                 "1", "--dp-accounting"])
    out = capsys.readouterr().out
    assert code == 0 and "dp_accounting event tree: none: entry 1 (" in out and "only the per-pair route" in out
    (tmp_path / "r.json").write_text(json.dumps([{"builder": "grr", "k": 3, "eps": "log(2)", "times": 2}]))
    code = main(["audit", str(tmp_path / "r.json"), "--metric", str(tmp_path / "d.json"), "--eps", "0", "--delta",
                 "1", "--dp-accounting"])
    out = capsys.readouterr().out
    # keep 1/2, else 1/4 each: two runs at eps = 0, total variation by brute force
    assert code == 0 and "(built from the plan, parameters exact)" in out and "noise_parameter=0.75" in out
    P, Q = [Fr(1, 2), Fr(1, 4), Fr(1, 4)], [Fr(1, 4), Fr(1, 2), Fr(1, 4)]
    tv = sum(max(P[a] * P[b] - Q[a] * Q[b], 0) for a, b in product(range(3), repeat=2))
    assert f"exactdp on the same tree: {tv} (" in out and tv == Fr(5, 16)
    code = main(["audit", str(tmp_path / "p.json"), "--eps", "1", "--delta", "1"])
    assert code == 2 and "audit needs --metric" in capsys.readouterr().err
    (tmp_path / "g.json").write_text(json.dumps([{"dp_event": "LaplaceDpEvent", "noise_multiplier": 1.0}]))
    code = main(["audit", str(tmp_path / "g.json"), "--eps", "1", "--delta", "1"])
    assert code == 2 and "LaplaceDpEvent is not read exactly" in capsys.readouterr().err


def test_cli_refuses_a_plan_mixing_events_and_mechanisms(tmp_path, capsys):
    from exactdp.cli import main

    (tmp_path / "m.json").write_text(json.dumps([{"builder": "grr", "k": 2, "eps": "1"},
                                                 {"dp_event": "RandomizedResponseDpEvent", "noise_parameter": 0.5,
                                                  "num_buckets": 2}]))
    code = main(["audit", str(tmp_path / "m.json"), "--eps", "1", "--delta", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "entry 0 names no dp_event while entry 1 does" in err and len(err.strip().splitlines()) == 1


def test_the_issue_permute_and_flip_numbers_from_the_definition():
    """Issue 29 item 4, re-derived with Fractions: permute-and-flip (McKenna & Sheldon 2020) on two candidates at
    eps = log 4, sensitivity 1: the best is taken at once with 1/2, else the other is tried first and kept with
    exp(eps (0 - 1) / 2) = 1/2, so the rows are (3/4, 1/4) and (1/4, 3/4).  delta(log 2) = 1/4; the Laplace
    model's 1 - sqrt(1/2) is larger (sqrt(1/2) < 3/4 as 1/2 < 9/16) and equals the exact 1/2 at eps' = 0."""
    from exactdp.mechanisms import permute_and_flip
    from exactdp.interop.accountants import check_laplace_model

    keep = Fr(1, 2) + Fr(1, 2) * Fr(1, 2)
    P, Q = [keep, 1 - keep], [1 - keep, keep]
    pf = permute_and_flip([[1, 0], [0, 1]], eps="log(4)")
    assert [[Fr(str(v)) for v in r] for r in pf.rows()] == [P, Q]
    assert sum(max(p - 2 * q, Fr(0)) for p, q in zip(P, Q, strict=True)) == Fr(1, 4)
    assert Fr(1, 2) < Fr(3, 4) ** 2                           # 1 - sqrt(1/2) > 1/4
    assert sum(max(p - q, Fr(0)) for p, q in zip(P, Q, strict=True)) == 1 - Fr(1, 2)   # = 1 - sqrt(1/4) at t = 1
    c = check_laplace_model(pf, [("0", "1")], eps="log(4)")
    assert (c.relation, c.touch_t) == ("dominates", "1")
