"""Exact privacy profiles against the checker and brute force over all output sets."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.privacy.approximate import certify_approx
from exactdp.errors import InvalidInput
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import geometric, randomized_response
from exactdp.metrics import discrete, path
from exactdp.composition.profile import privacy_profile, smallest_delta

from _approx_brute import _mech, brute_excess, mechanisms


def _F(x):
    return Fraction(str(x))


def _pairs(n, kind):
    if kind == "all":
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    return [(i, i + 1) for i in range(n - 1)]


@settings(max_examples=60, deadline=None)
@given(mechanisms(), st.sampled_from(["all", "path"]),
       st.lists(st.fractions(min_value=1, max_value=6, max_denominator=7), min_size=1, max_size=4),
       st.fractions(min_value=0, max_value=1, max_denominator=9))
def test_profile_matches_brute_force(rows, kind, ts, delta):
    M = _mech(rows)
    pairs = _pairs(len(rows), kind)
    labels = [(M.inputs[i], M.inputs[j]) for i, j in pairs]
    pr = privacy_profile(M, labels)
    for t in ts:
        eps = "0" if t == 1 else f"log({t})"
        assert _F(pr.delta(eps=eps)) == brute_excess(rows, pairs, t)
        assert _F(pr.delta(eps=eps)) == Fraction(certify_approx(M, labels, eps=eps, delta="1").evidence.excess)
    # every breakpoint: the envelope equals the brute force there too
    for pc in pr.pieces:
        t = _F(pc.t_from)
        assert _F(pc.A) - t * _F(pc.B) == brute_excess(rows, pairs, t)
    # the smallest eps for delta
    ts_ = pr.epsilon_t(str(delta))
    if ts_ is None:
        assert brute_excess(rows, pairs, Fraction(10**9)) > delta
    else:
        t = _F(ts_)
        assert brute_excess(rows, pairs, t) <= delta
        if t > 1:
            below = t - min(t - 1, Fraction(1, 10**6))
            assert brute_excess(rows, pairs, below) > delta
            assert pr.epsilon(str(delta)) == f"log({t})"
        else:
            assert pr.epsilon(str(delta)) == "0"


def test_randomized_response_profile_pieces():
    pr = privacy_profile(randomized_response(3, p="1/5"), discrete(3))
    js = pr.to_json()
    assert js["pairs"] == [["0", "1"], ["0", "2"], ["1", "2"]] and js["ordered_pairs"] == 6
    assert [(p["eps_from"], p["eps_to"], p["delta"]) for p in js["pieces"]] == [
        ("0", "log(3)", "3/5 - 1/5*exp(eps)"), ("log(3)", "inf", "0")]


def test_envelope_with_a_crossing():
    # pair (a, b) has a high-ratio small-mass output; pair (b, c) a low-ratio large-mass one: they cross
    M = Mechanism.from_rows(["a", "b", "c"], ["0", "1", "2"],
                            [["1/10", "9/10", "0"], ["1/100", "99/100", "0"], ["0", "1/2", "1/2"]])
    pr = privacy_profile(M, [("a", "b"), ("b", "c")])
    rows = [[_F(v) for v in r] for r in M.rows()]
    pairs = [(0, 1), (1, 2)]
    for pc in pr.pieces:
        assert _F(pc.A) - _F(pc.t_from) * _F(pc.B) == brute_excess(rows, pairs, _F(pc.t_from))
    assert pr.epsilon("0") == "inf"            # c puts 1/2 on output 2, where b puts 0
    assert _F(pr.delta(eps="log(1000)")) == Fraction(1, 2)


def test_transcendental_eps_on_a_rational_profile():
    pr = privacy_profile(randomized_response(2, p="1/4"), [("0", "1")])
    assert str(pr.delta(eps="1/2")) == "-1/4*exp(1/2) + 3/4"
    assert str(smallest_delta(randomized_response(2, p="1/4"), [("0", "1")], eps="2")) == "0"   # e^2 > 3
    # e^eps = 2^(1/3), a real radical: delta = 3/4 - 2^(1/3)/4 on the first piece (2^(1/3) < 3)
    d = pr.delta(eps="log(2)/3")
    assert str(d) == "3/4 - 2^(1/3)/4"
    t = 3 - 4 * d                                    # recover e^eps from delta and cube it exactly
    assert t * t * t == 2 and pr.delta(eps="log(3)/2").sign() == 1


def test_transcendental_entries():
    G = geometric(2, eps="1/2")            # entries in exp(-1/2)
    pr = privacy_profile(G, path(3))
    assert str(pr.delta(eps="1/2")) == "0"
    assert pr.epsilon("0") == "1/2"                  # e^eps = exp(1/2): eps = 1/2 exactly


def test_symbolic_refused():
    with pytest.raises(InvalidInput, match="symbolic alpha"):
        privacy_profile(geometric(2), path(3))


def test_binding_pair():
    pr = privacy_profile(randomized_response(3, p="1/5"), discrete(3))
    assert pr.binding_pair(eps="0") in {("0", "1"), ("1", "0")}
