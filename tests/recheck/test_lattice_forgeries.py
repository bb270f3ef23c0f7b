"""lattice_composition certificates (issue 29): genuine ones confirmed by the kernel, consistent forgeries refuted.

A consistent forgery keeps every field in agreement with the others (the claim sentence rebuilt from the forged
evidence, the stated delta recomputed by the producer for what the forger wants to claim), so only the kernel's
own recomputation from the carried matrices can catch it.
"""

import copy
import itertools
import json
from fractions import Fraction

import pytest

from exactdp.cli import main
from exactdp.mechanisms import generalized_rr, geometric, randomized_response
from exactdp.metrics import path
from exactdp.recheck import recheck
from exactdp.recheck import lattice as kernel
from exactdp.recheck.lattice import claim_text
from exactdp.composition.lattice import certify_lattice_composition

RR3 = randomized_response(2, p="1/4")          # ratio 3: the lattice 3^(2n - k) at k runs
PAIR = [("0", "1")]


def _cert(facs, nb, **kw) -> dict:
    return json.loads(json.dumps(certify_lattice_composition(facs, nb, **kw).to_json()))


def _consistent(c: dict) -> dict:
    """The forger rebuilds the claim sentence and the method from the forged evidence."""
    c["claim"] = claim_text(c)
    c["method"] = kernel.method_of(c)
    return c


def _brute(rows_x, rows_xp, k, t):
    """delta at e^eps = t of k runs by enumerating every output sequence (Fractions; HLM15 Def. 1)."""
    tot = Fraction(0)
    for ys in itertools.product(range(len(rows_x)), repeat=k):
        p = q = Fraction(1)
        for y in ys:
            p, q = p * rows_x[y], q * rows_xp[y]
        tot += max(p - t * q, Fraction(0))
    return tot


# ---------------------------------------------------------------------------------------------- genuine ----
def test_small_composition_equals_the_brute_force_and_is_confirmed():
    c = _cert([(RR3, 4)], PAIR, eps="log(2)", delta="2/3")
    rows = [Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]
    want = max(_brute(rows[0], rows[1], 4, Fraction(2)), _brute(rows[1], rows[0], 4, Fraction(2)))
    # ratio 81: 81/256 - 2/256; ratio 9: 108/256 - 2 (12/256); the rest below e^eps = 2
    assert Fraction(c["evidence"]["delta_at_eps"]) == want == Fraction(163, 256)
    assert c["verdict"] == "holds" and c["method"] == "RATIONAL"
    r = recheck(c)
    assert r.status == "confirmed" and r.checked == 1


def test_verdict_fails_at_the_boundary_and_holds_on_it():
    exact = _cert([(RR3, 4)], PAIR, eps="log(2)")["evidence"]["delta_at_eps"]
    on = _cert([(RR3, 4)], PAIR, eps="log(2)", delta=exact)
    below = _cert([(RR3, 4)], PAIR, eps="log(2)", delta=str(Fraction(exact) - Fraction(1, 10**30)))
    assert on["verdict"] == "holds" and below["verdict"] == "fails"
    assert recheck(on).status == recheck(below).status == "confirmed"
    below["verdict"] = "holds"
    assert recheck(below).status == "refuted" and "says fails" in recheck(below).detail


@pytest.mark.slow
def test_randomized_response_1000_runs_from_the_command_line(tmp_path, capsys):
    mech = tmp_path / "rr.json"
    mech.write_text(json.dumps({"inputs": ["0", "1"], "outputs": ["0", "1"],
                                "matrix": [["3/4", "1/4"], ["1/4", "3/4"]]}))
    metric = tmp_path / "d2.json"
    metric.write_text(json.dumps({"kind": "discrete", "points": ["0", "1"]}))
    code = main(["compose", str(mech), "--metric", str(metric), "--times", "1000", "--eps", "50", "--lattice",
                 "--format", "json"])
    c = json.loads(capsys.readouterr().out)
    assert code == 0 and c["kind"] == "lattice_composition" and c["evidence"]["route"] == "lattice-exact"
    assert c["method"] == "TRANSCENDENCE_BALLS"           # eps = 50: e^50 is transcendental
    lo, hi = (Fraction(x) for x in c["evidence"]["enclosure"])
    assert lo <= 1 and hi >= Fraction(9999, 10000)          # 1000 runs of ratio 3: delta(50) is close to 1
    assert len(json.dumps(c)) < 10_000                      # the 1001 coefficients are not carried
    r = recheck(c)
    assert r.status == "confirmed" and r.checked == 1
    code = main(["recheck", _write(tmp_path, c)])
    assert code == 0


def _write(tmp_path, c) -> str:
    p = tmp_path / "cert.json"
    p.write_text(json.dumps(c))
    return str(p)


@pytest.mark.slow
def test_clamped_geometric_1000_runs():
    c = _cert([(geometric(4, "1/2"), 1000)], path(5), eps="100*log(2)")
    assert c["evidence"]["enclosure"] == ["0.99999999999998367", "0.99999999999998368"]
    # every pair's ratios are 2 and 1/2 (and 1 in the middle): c = 1/2, b = 4
    assert [s["step"] for s in c["evidence"]["steps"]] == ["4"] * 8
    assert recheck(c).status == "confirmed"


def test_two_mechanisms_on_one_lattice():
    # ratio 3 (step 9) and ratio 9 (step 81 = 9^2): one lattice; geometric at 1/3 on a path (ratios 3, 9)
    B = randomized_response(2, p="1/10")
    c = _cert([(RR3, 30), (B, 20)], PAIR, eps="log(7)*10", delta="1/2")
    assert c["evidence"]["steps"][0]["step"] == "9" and recheck(c).status == "confirmed"
    g = _cert([(geometric(2, "1/3"), 10), (randomized_response(3, p="1/5"), 10)], path(3), eps="5")
    assert recheck(g).status == "confirmed"


# ---------------------------------------------------------------------------------------------- forgeries ----
def test_forged_run_count_is_refuted():
    # (at eps = 20 log 3 the deltas of 199 and 200 runs are equal: the PLD of 2m runs has only even losses, so
    # that forgery would be a true statement; at eps = 3 they differ)
    c = _cert([(RR3, 200)], PAIR, eps="3")
    f = copy.deepcopy(c)
    f["evidence"]["factors"][0]["times"] = 199
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "not the re-derived delta" in r.detail


def test_forged_matrix_with_the_producers_delta_is_refuted():
    # the forger computes the delta of a milder mechanism (ratio 2, step 4) with the producer and states it
    # for randomized response with ratio 3 -- keeping the milder one's step, then with the true step
    mild = randomized_response(2, p="1/3")
    f = _cert([(mild, 100)], PAIR, eps="log(3)*10")
    true = _cert([(RR3, 100)], PAIR, eps="log(3)*10")
    f["evidence"]["factors"][0]["mechanism"] = true["evidence"]["factors"][0]["mechanism"]
    r = recheck(_consistent(copy.deepcopy(f)))
    assert r.status == "refuted" and "is not c*b^n" in r.detail
    f["evidence"]["steps"] = true["evidence"]["steps"]
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "not the re-derived delta" in r.detail


def test_forged_eps_is_refuted():
    c = _cert([(RR3, 100)], PAIR, eps="3")
    other = _cert([(RR3, 100)], PAIR, eps="4")
    c["evidence"]["level"] = other["evidence"]["level"]
    r = recheck(_consistent(c))
    assert r.status == "refuted" and ("not the re-derived delta" in r.detail or "does not contain" in r.detail)


def test_forged_pair_enclosure_route_and_step_are_refuted():
    c = _cert([(geometric(2, "1/3"), 5)], path(3), eps="log(2)")
    cases = [(("pair",), {"x": "1", "x_prime": "2"}, "first ordered pair"),
             (("enclosure",), ["0.5", "0.5"], "does not contain"),
             (("enclosure",), ["0", "1"], "wider than"),
             (("route",), "lattice-fast", "is not one of"),
             (("steps", 0, "step"), "5", "is not c*b^n"),
             (("steps", 0, "step"), "1", "not > 1")]
    for where, new, why in cases:
        f = copy.deepcopy(c)
        node = f["evidence"]
        for w in where[:-1]:
            node = node[w]
        node[where[-1]] = new
        r = recheck(_consistent(f))
        assert r.status == "refuted" and why in r.detail, (where, r.detail)
    # a finer lattice that still holds every ratio is another true statement of the same composition
    assert c["evidence"]["steps"][0]["step"] == "9"
    f = copy.deepcopy(c)
    f["evidence"]["steps"][0]["step"] = "3"
    assert recheck(f).status == "confirmed"


def test_refused_in_seconds_beyond_the_cost_bound():
    c = _cert([(RR3, 2)], PAIR, eps="1")
    c["evidence"]["factors"][0]["times"] = 100_000          # 10^5 slots of 3 x 10^5 bits: 3 x 10^10 bits
    r = recheck(_consistent(c))
    assert r.status == "not checkable" and "packed polynomial powers need more than" in r.detail
    c["evidence"]["factors"][0]["times"] = 100_001
    r = recheck(_consistent(c))
    assert r.status == "not checkable" and f"more than {kernel.MAX_TIMES:,} times" in r.detail


def test_transcendental_entries_are_rechecked_in_q_of_u():
    # randomized response at eps0 = 1: entries e/(1 + e), 1/(1 + e), ratios e^(+-1), step e^2
    rr = generalized_rr(2, eps="1")
    c = _cert([(rr, 3)], PAIR, eps="1", delta="1/2")
    assert c["evidence"]["steps"][0]["step"] == "exp(2)" and c["method"] == "TRANSCENDENCE_BALLS"
    r = recheck(c)
    assert r.status == "confirmed" and r.checked == 1
    # three runs at eps = 1: losses 3, 1 (and below); delta = P(L=3)(1 - e^-2) + P(L=1)(1 - 1) = e^3/(1+e)^3 (1 - e^-2)
    from exactdp.exact.decide import sign, simplify
    from exactdp.exact.values import exact_number

    want = exact_number("exp(3)/(1 + exp(1))^3*(1 - exp(-2))")
    assert sign(simplify(exact_number(c["evidence"]["delta_at_eps"]) - want)) == 0
    f = copy.deepcopy(c)
    f["evidence"]["factors"][0]["times"] = 4
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "not the re-derived delta" in r.detail
    f = copy.deepcopy(c)
    f["evidence"]["steps"][0]["step"] = "exp(3)"
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "is not c*b^n" in r.detail
    # the forger states eps0 = 1/2's delta for eps0 = 1 (same step family, consistent claim and method)
    f = _cert([(generalized_rr(2, eps="1/2"), 3)], PAIR, eps="1", delta="1/2")
    f["evidence"]["factors"] = c["evidence"]["factors"]
    f["evidence"]["steps"] = c["evidence"]["steps"]
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "not the re-derived delta" in r.detail


@pytest.mark.slow
def test_randomized_response_eps0_1_at_the_kernels_reach():
    c = _cert([(generalized_rr(2, eps="1"), 80)], PAIR, eps="30")
    r = recheck(c)
    assert r.status == "confirmed"
    big = _cert([(generalized_rr(2, eps="1"), 200)], PAIR, eps="100")
    r = recheck(big)
    assert r.status == "not checkable" and "packed polynomial powers need more than" in r.detail


@pytest.mark.slow
def test_a_long_stated_quotient_is_read_as_its_two_sides():
    # k = 90 at eps0 = 1: the stated delta N/D (about 90 terms each) is beyond the reader's term bound as one
    # quotient (90 x 91 > 4096); the kernel reads N and D apart (was: not checkable beyond k ~ 85)
    c = _cert([(generalized_rr(2, eps="1"), 90)], PAIR, eps="36")
    text = c["evidence"]["delta_at_eps"]
    r = recheck(c)
    assert r.status == "confirmed", r.detail
    num, den = text.split(")/(")
    f = copy.deepcopy(c)
    f["evidence"]["delta_at_eps"] = num.replace("89*exp(88)", "88*exp(88)", 1) + ")/(" + den
    assert f["evidence"]["delta_at_eps"] != text
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "not the re-derived delta" in r.detail
    f = copy.deepcopy(c)
    f["evidence"]["delta_at_eps"] = num + ")/((" + den + " - (" + den + ")"
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "divides by zero" in r.detail


def test_transcendental_geometric_on_a_path():
    c = _cert([(geometric(2, "exp(-1/2)"), 10)], path(3), eps="2")
    assert recheck(c).status == "confirmed"


def test_bad_inputs_to_the_producer():
    from exactdp.errors import InvalidInput

    with pytest.raises(InvalidInput, match="give eps, alpha or level"):
        certify_lattice_composition([(RR3, 2)], PAIR)
    with pytest.raises(InvalidInput, match="no common lattice"):
        certify_lattice_composition([(RR3, 1), (geometric(1, "1/2"), 1)], PAIR, eps="1")


def test_ball_route_is_recomputed_exactly_and_its_enclosure_checked(monkeypatch):
    from exactdp.composition import lattice

    monkeypatch.setattr(lattice, "MAX_EXACT_BITS", 0)       # the producer takes the Arb route
    c = _cert([(RR3, 30)], PAIR, eps="2", delta="1/2")
    ev = c["evidence"]
    assert ev["route"] == "lattice-balls" and ev["delta_at_eps"] is None and ev["pair"] is None
    assert c["method"] == "TRANSCENDENCE_BALLS" and recheck(c).status == "confirmed"
    f = copy.deepcopy(c)
    lo, hi = (Fraction(x) for x in ev["enclosure"])
    f["evidence"]["enclosure"] = [str(hi), str(hi + (hi - lo) + Fraction(1, 10**6))]
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "does not contain" in r.detail
    f = copy.deepcopy(c)
    f["evidence"]["delta_at_eps"] = "1/2"
    r = recheck(_consistent(f))
    assert r.status == "refuted" and "ball route states an exact value" in r.detail


def test_a_level_at_a_fractional_power_is_rational_and_confirmed():
    # issue 31: at e^eps = 2^(1/3) the delta is A - B 2^(1/3), compared in fractions (the one method rule)
    c = _cert([(RR3, 3)], PAIR, eps="log(2)/3")
    assert c["evidence"]["level"]["D"] == "3" and "2^(1/3)" in c["evidence"]["delta_at_eps"]
    assert c["method"] == "RATIONAL" and recheck(c).status == "confirmed"
    f = copy.deepcopy(c)
    f["evidence"]["delta_at_eps"] = c["evidence"]["delta_at_eps"].replace("2^(1/3)", "2^(2/3)")
    r = recheck(f)
    assert r.status != "confirmed" and "power" in r.detail
