"""(eps, delta) checker: exact agreement with brute force over ALL output sets."""

from fractions import Fraction

import mpmath
import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.certificate import UNDECIDED
from exactdp.privacy.approximate import certify_approx, neighbour_relation
from exactdp.errors import InvalidInput, InvalidType
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import geometric, randomized_response
from exactdp.metrics import discrete, from_matrix, hamming, path

from _approx_brute import _mech, _subsets, brute_excess, mechanisms


@settings(max_examples=60, deadline=None)
@given(mechanisms(), st.integers(1, 4), st.integers(1, 3), st.integers(0, 8))
def test_matches_brute_force_rational(rows, tp, tq, dnum):
    t = max(Fraction(tp, tq), Fraction(1))
    M = _mech(rows)
    pairs = [(i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    labels = [(M.inputs[i], M.inputs[j]) for i, j in pairs]
    exact = brute_excess(rows, pairs, t)
    eps = "0" if t == 1 else f"log({t})"
    delta = Fraction(dnum, 8)
    c = certify_approx(M, labels, eps=eps, delta=str(delta))
    assert Fraction(c.evidence.excess) == exact
    assert c.holds is (exact <= delta)
    # the witness set really attains the excess
    w = c.evidence.witness
    a, b = M.inputs.index(w["x"]), M.inputs.index(w["x_prime"])
    S = [M.outputs.index(o) for o in w["worst_set"]]
    assert sum((rows[a][y] for y in S), Fraction(0)) - t * sum((rows[b][y] for y in S), Fraction(0)) == exact
    # boundary: delta equal to the exact excess holds, anything smaller fails
    if exact > 0:
        assert certify_approx(M, labels, eps=eps, delta=str(exact)).holds is True
        assert certify_approx(M, labels, eps=eps, delta=str(exact * Fraction(999, 1000))).holds is False


@settings(max_examples=25, deadline=None)
@given(mechanisms(), st.sampled_from(["1/2", "1", "1/3"]))
def test_matches_brute_force_transcendental(rows, eps):
    M = _mech(rows)
    pairs = [(i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    labels = [(M.inputs[i], M.inputs[j]) for i, j in pairs]
    c = certify_approx(M, labels, eps=eps, delta="0")
    # independent: A - e^eps B at 60 digits over every subset; distinct rational (A, B) never tie (Lindemann)
    with mpmath.workdps(60):
        t = mpmath.exp(_mp(Fraction(eps)))
        best = max(_mp(A) - t * _mp(B) for A, B in _set_values(rows, pairs))
        assert c.holds is (best <= 0)
        wit = c.evidence.witness
        assert abs(_mp(Fraction(wit["lhs"])) - t * _mp(Fraction(wit["P_x'(S)"])) - best) < 1e-40


def _mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def _set_values(rows, pairs):
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            for S in _subsets(len(rows[0])):
                yield (sum((rows[a][y] for y in S), Fraction(0)), sum((rows[b][y] for y in S), Fraction(0)))


def test_randomized_response_both_verdicts_and_boundary():
    R = randomized_response(3, p="1/5")          # P(stay) = 3/5, P(move) = 1/5 each
    # worst set {d}: 3/5 - 2 * 1/5 = 1/5 at e^eps = 2
    c = certify_approx(R, discrete(3), eps="log(2)", delta="1/5")
    assert c.holds is True and c.evidence.excess == "1/5" and c.evidence.witness["kind"] == "binding"
    c = certify_approx(R, discrete(3), eps="log(2)", delta="199/1000")
    assert c.holds is False and c.evidence.witness["kind"] == "violation"
    assert c.evidence.witness["lhs"] == "3/5" and c.evidence.witness["rhs"] == "599/1000"
    assert c.evidence.witness["violating_pairs"] == 6
    # e^eps = 3 = (3/5)/(1/5): pure DP exactly
    assert certify_approx(R, discrete(3), eps="log(3)", delta="0").holds is True


def test_eps_zero_is_total_variation():
    R = randomized_response(2, p="1/4")
    c = certify_approx(R, [("0", "1")], eps="0", delta="1/2")
    assert c.holds is True and c.evidence.excess == "1/2"       # TV distance of (3/4, 1/4) and (1/4, 3/4)


def test_transcendental_level_exact_excess():
    R = randomized_response(2, p="1/4")
    c = certify_approx(R, [("0", "1")], eps="1/2", delta="0")
    assert c.holds is False and c.evidence.excess == "-1/4*exp(1/2) + 3/4"
    c = certify_approx(R, [("0", "1")], eps="1/2", delta="3/4 - 1/4*exp(1/2)")
    assert c.holds is True                                          # the boundary, by an exact zero test


def test_level_outside_the_field_still_decides():
    R = randomized_response(2, p="1/4")                 # ratio 3; e^eps = 2^(1/3) < 3
    c = certify_approx(R, [("0", "1")], eps="log(2)/3", delta="1/2")
    assert c.holds is True and c.evidence.excess == "3/4 - 2^((1)/(3))*(1/4)"


def test_symbolic_mechanism_evaluated_at_the_level():
    G = geometric(3)                                       # symbolic alpha
    c = certify_approx(G, path(4), eps="log(2)", delta="0")
    assert c.holds is True and c.evidence.excess == "0"


def test_group_privacy_needs_the_relation_not_distance():
    # randomized response on a path: pairs at distance 2 are not neighbours
    R = randomized_response(3, p="1/5")
    rel, desc = neighbour_relation(R, path(3))
    assert rel == [(0, 1), (1, 2)] and "distance 1" in desc
    c = certify_approx(R, path(3), eps="log(2)", delta="1/5")
    assert c.evidence.pairs == [["0", "1"], ["1", "2"]]


def test_hamming_neighbours_and_graph_edges():
    H = hamming(["0", "1"], 2)
    M = Mechanism.from_rows(H.points, ["a", "b"], [["1/2", "1/2"]] * 4)
    assert len(neighbour_relation(M, H)[0]) == 4
    G = nx.Graph([("0", "1")])
    R = randomized_response(2, p="1/4")
    assert neighbour_relation(R, G)[0] == [(0, 1)]


def test_metric_with_short_distances_scans_all_pairs():
    Mx = from_matrix(["a", "b", "c"], [[0, "1/2", 1], ["1/2", 0, "1/2"], [1, "1/2", 0]])
    R = randomized_response(["a", "b", "c"], p="1/5")
    assert neighbour_relation(R, Mx)[0] == [(0, 2)]


def test_empty_relation_holds_vacuously():
    R = randomized_response(2, p="1/4")
    c = certify_approx(R, [], eps="1", delta="0")
    assert c.holds is True and c.evidence.excess == "0"


def test_undecided_is_reported():
    # entries in alpha at eps = log(2)/3: alpha = 2^(-1/3) is irrational algebraic, outside the kernel
    c = certify_approx(geometric(2), path(3), eps="log(2)/3", delta="0")
    assert c.holds is UNDECIDED and "alpha" in c.reason


@pytest.mark.parametrize("kw, match", [
    ({"eps": "-1", "delta": "0"}, "eps: expected eps >= 0"),
    ({"eps": "1", "delta": "3/2"}, "delta: expected 0 <= delta <= 1"),
    ({"eps": "1", "delta": "-1/2"}, "delta: expected 0 <= delta <= 1"),
    ({"eps": "1", "delta": None}, "delta: expected an exact number"),
    ({"eps": "1", "alpha": "1/2", "delta": "0"}, "give exactly one"),
])
def test_bad_levels(kw, match):
    with pytest.raises(InvalidInput, match=match):
        certify_approx(randomized_response(2, p="1/4"), [("0", "1")], **kw)


@pytest.mark.parametrize("nb, match", [
    ([("0", "9")], "names '9', which is not an input"),
    ([("0", "0")], "not its own neighbour"),
    ([("0",)], "expected two input labels"),
])
def test_bad_neighbours(nb, match):
    with pytest.raises(InvalidInput, match=match):
        certify_approx(randomized_response(2, p="1/4"), nb, eps="1", delta="0")


def test_bad_neighbour_type():
    with pytest.raises(InvalidType, match="neighbours: expected a FiniteMetric"):
        certify_approx(randomized_response(2, p="1/4"), 3, eps="1", delta="0")


def test_metric_on_other_points():
    with pytest.raises(InvalidInput, match=r"2 inputs vs 3 points; only in the mechanism: \[\], only in the metric: "
                                           r"\['2'\]"):
        certify_approx(randomized_response(2, p="1/4"), path(3), eps="1", delta="0")


@pytest.mark.parametrize("eps, delta, holds", [("log(2)", "1/5", True), ("log(2)", "1/6", False),
                                               ("1/2", "0", False), ("1/2", "2/5", True)])
def test_recheck_confirms_and_refutes_tampering(eps, delta, holds):
    import copy
    import json

    from exactdp.recheck import recheck
    c = certify_approx(randomized_response(3, p="1/5"), discrete(3), eps=eps, delta=delta)
    assert c.holds is holds and c.recheck().ok is True
    j = json.loads(json.dumps(c.to_json()))            # pure JSON data
    assert recheck(j).status == "confirmed"
    bad = copy.deepcopy(j)
    bad["evidence"]["witness"]["P_x_S"] = "1/2"       # one witness number changed
    assert recheck(bad).status == "refuted"
    bad = copy.deepcopy(j)
    bad["verdict"] = "fails" if holds else "holds"     # the verdict flipped
    assert recheck(bad).status == "refuted"
    bad = copy.deepcopy(j)
    bad["evidence"]["mechanism"]["matrix"][0] = ["1", "0", "0"]    # a different mechanism
    assert recheck(bad).status == "refuted"
    for row, why in ((["1", "1", "0"], "does not sum to exactly 1"), (["2", "-1", "0"], "negative entry"),
                     (["1", "0"], "does not match its labels")):
        bad = copy.deepcopy(j)
        bad["evidence"]["mechanism"]["matrix"][0] = row             # not a mechanism at all
        r = recheck(bad)
        assert r.status == "refuted" and why in r.detail, r.detail
    bad = copy.deepcopy(j)
    bad["evidence"]["delta"] = "1/0"                                # malformed: refuted, not "not checkable"
    assert recheck(bad).status == "refuted"


def test_recheck_at_a_fractional_power_is_rational_and_confirmed():
    # issue 31: e^eps = 2^(1/3); the excess 3/4 - 2^(1/3)/4 is compared in fractions on both sides
    c = certify_approx(randomized_response(2, p="1/4"), [("0", "1")], eps="log(2)/3", delta="1/2")
    assert c.method.name == "RATIONAL" and c.holds is True and c.recheck().status == "confirmed"


@pytest.mark.parametrize("eps, delta", [("log(2)", "1/5"), ("1/2", "0"), ("log(2)/3", "1/2")])
def test_proof_is_rendered_from_the_json_evidence_alone(eps, delta):
    from exactdp.certificate import Certificate
    c = certify_approx(randomized_response(3, p="1/5"), discrete(3), eps=eps, delta=delta)
    again = Certificate.from_json(c.to_json_str())
    assert again == c and again.to_markdown() == c.to_markdown() and again.to_text() == c.to_text()


def test_labels_that_differ_are_shown():
    # audit 2026-11-24 defect 10: "the metric's points (2) are not the mechanism's inputs (2)" named no label
    M = Mechanism.from_rows(["a b", "ü"], ["yes", "no"], [["3/4", "1/4"], ["1/4", "3/4"]])
    with pytest.raises(InvalidInput, match=r"only in the mechanism: \['a b', 'ü'\], only in the metric: \['0', '1'\]"):
        certify_approx(M, discrete(2), eps="1", delta="1/10")
