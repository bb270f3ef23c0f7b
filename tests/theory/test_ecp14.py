import json

import networkx as nx
import pytest
from flint import fmpq

from exactdp import Mechanism, certify_privacy
from exactdp.cli import main
from exactdp.errors import InvalidInput
from exactdp.exact.level import Level
from exactdp.mechanisms import geometric, randomized_response
from exactdp.metrics import cycle, discrete, from_graph, hamming, path
from exactdp.priors.leakage import leakage, max_utility, optimal_remap, theorem3_bound, utility
from exactdp.priors.phi import PhiSystem
from exactdp.priors.regular import (ball_size_symmetric, check_prior, corner_priors, prop9_mechanism, regular_prior,
                                    tight_constraints)
from exactdp.priors.threshold import exact_threshold, threshold

HALF = Level.from_alpha("1/2")


def test_phi_and_corners():
    S = PhiSystem(path(3), HALF)
    assert S.exact_matrix().tolist()[0] == [1, fmpq(1, 2), fmpq(1, 4)]
    cs = corner_priors(path(3), HALF)
    assert cs[0] == [fmpq(4, 7), fmpq(2, 7), fmpq(1, 7)] and all(sum(c) == 1 for c in cs)
    # each corner prior is regular, with gamma the unit vector (Prop. 3)
    c = regular_prior(cs[1], path(3), HALF)
    assert c.holds is True and c.evidence.gamma == ["0", "1", "0"]


def test_regular_both_verdicts_and_boundary():
    assert regular_prior(["1/3"] * 3, path(3), HALF).holds is True
    c = regular_prior(["9/10", "1/20", "1/20"], path(3), HALF)
    # the reason moved out of the evidence into the note (issue 18)
    assert c.holds is False and c.evidence.negative == ["1"] and "Prop. 2 fails" in c.note
    # discrete metric on 4 points, a = 1/2: regular iff min pi >= a/(1+3a) = 1/5; the boundary itself is regular
    assert regular_prior(["1/5", "1/5", "1/5", "2/5"], discrete(4), HALF).holds is True
    assert regular_prior(["1/5", "1/5", "1/5", "2/5"], discrete(4), HALF).evidence.mu[0] == "0"
    assert regular_prior(["199/1000", "267/1000", "267/1000", "267/1000"], discrete(4), HALF).holds is False
    assert regular_prior(["1/2", "1/2", "0"], path(3), HALF).holds is False


def test_regular_transcendental():
    c = regular_prior(["1/3"] * 3, path(3), Level.from_eps("1/2"))
    assert c.holds is True and c.evidence.regime == "transcendental"
    c = regular_prior(["4/5", "1/10", "1/10"], path(3), Level.from_eps("1/2"))
    assert c.holds is False


def test_prop1_prop2_on_regular_priors():
    for c in corner_priors(cycle(5), HALF):
        assert check_prior(c, cycle(5), HALF) is None


def test_singular_route_by_exact_lp_agrees(monkeypatch):
    """The exact-LP route used when Phi is singular gives the same verdicts as the direct solve."""
    import exactdp.priors.regular as reg

    def singular(self, rhs, **kw):
        raise InvalidInput("Phi is singular at this level: the solution is not unique")
    monkeypatch.setattr(reg.PhiSystem, "solve", singular)
    c = regular_prior(["1/3"] * 3, path(3), HALF)
    assert c.holds is True and c.evidence.mu == ["2/9", "1/9", "2/9"]
    assert regular_prior(["9/10", "1/20", "1/20"], path(3), HALF).holds is False
    t = tight_constraints(path(3), HALF)
    assert t.holds is True and t.evidence.z == ["2/3", "1/3", "2/3"] and t.evidence.rank == 3
    star = from_graph(nx.star_graph(3))
    assert tight_constraints(star, Level.from_alpha("3/4")).holds is False


def test_tight_constraints_mechanism_is_private_prop6():
    for m in (path(5), from_graph(nx.star_graph(3)), hamming([0, 1], 2)):
        c = tight_constraints(m, Level.from_alpha("1/3"))
        assert c.holds is True
        md = c.evidence.mechanism
        mech = Mechanism.from_rows(md.inputs, md.outputs, md.rows())
        p = certify_privacy(mech, m, alpha="1/3")
        assert p.holds is True and p.recheck().ok is True


def test_tight_does_not_exist_below_threshold():
    star = from_graph(nx.star_graph(3))
    c = tight_constraints(star, Level.from_alpha("3/4"))
    assert c.holds is False and c.evidence.negative == ["0"]


def test_truncated_geometric_is_tight():
    for n, a in ((4, "1/2"), (6, "2/3")):
        c = tight_constraints(path(n + 1), Level.from_alpha(a))
        assert c.evidence.mechanism.rows() == [[str(v) for v in r] for r in geometric(n, a).rows()]


def test_ball_size_symmetry_and_prop9():
    assert ball_size_symmetric(cycle(6)) and ball_size_symmetric(from_graph(nx.petersen_graph()))
    assert not ball_size_symmetric(path(3))
    with pytest.raises(InvalidInput, match="ball-size symmetric"):
        prop9_mechanism(path(3), HALF)
    m = cycle(6)
    assert [[str(v) for v in r] for r in prop9_mechanism(m, HALF).rows()] == \
        tight_constraints(m, HALF).evidence.mechanism.rows()


def test_thresholds():
    star = from_graph(nx.star_graph(3))
    c = threshold(star)
    t = c.evidence
    assert t.exact == "log(2)"
    lo, hi = fmpq(t.lo_rational), fmpq(t.hi_rational)
    assert hi - lo <= fmpq(1, 10**9) and fmpq(69314718, 10**8) < hi and lo < fmpq(69314719, 10**8)
    assert threshold(cycle(5)).evidence.exact == "0"
    a, text, _fails = exact_threshold(star)
    assert a.is_rational() and text == "log(2)"


def test_utility_and_leakage():
    R = randomized_response(["a", "b", "c"], p="1/4")
    prior = ["1/2", "1/4", "1/4"]
    remap = optimal_remap(R, prior)
    assert remap == {"a": "a", "b": "a", "c": "a"} or remap["a"] == "a"
    assert max_utility(R, prior) == utility(R, prior, remap)
    L = leakage(R, ["1/3"] * 3)
    assert L.evidence.leakage_bits == "log2(3/2)"
    assert L.evidence.enclosure[0].startswith("0.5849625007211561")
    # Theorem 3: the leakage of an eps-DP mechanism on V^u is at most u log2(|V| e^eps/(|V| - 1 + e^eps))
    assert theorem3_bound(2, 1, fmpq(3)) == fmpq(3, 2)
    # a plain int or text is read exactly (it divided as a float before): 2 * 3 / (1 + 3) = 3/2, squared 9/4
    assert type(theorem3_bound(2, 1, 3)) is fmpq and theorem3_bound(2, 1, 3) == fmpq(3, 2)
    assert theorem3_bound(2, 2, "3") == fmpq(9, 4)
    with pytest.raises(InvalidInput, match="must be exact"):
        theorem3_bound(2, 1, 3.0)


def _w(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


def test_cli_tight_regular_leakage(tmp_path, capsys):
    m = _w(tmp_path, "m.json", {"kind": "path", "n": 3})
    assert main(["tight", m, "--alpha", "1/2", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    ev = d["evidence"]
    assert d["verdict"] == "holds" and ev["z"] == ["2/3", "1/3", "2/3"] and ev["negative"] == [] and ev["mechanism"]
    star = _w(tmp_path, "s.json", {"kind": "graph", "nodes": ["c", "a", "b", "d"],
                                   "edges": [["c", "a"], ["c", "b"], ["c", "d"]]})
    assert main(["tight", star, "--alpha", "3/4", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["evidence"]["negative"] == ["c"]
    assert main(["tight", star, "--threshold", "--format", "json"]) == 0
    t = json.loads(capsys.readouterr().out)["evidence"]
    assert {"lo", "hi", "exact"} <= set(t) and t["exact"] == "log(2)"
    prior = _w(tmp_path, "p.json", {"points": ["0", "1", "2"], "probabilities": ["1/3", "1/3", "1/3"]})
    assert main(["regular", prior, "--metric", m, "--alpha", "1/2", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    ev = d["evidence"]
    assert d["verdict"] == "holds" and ev["mu"] == ["2/9", "1/9", "2/9"] and ev["gamma"] == ["7/18", "2/9", "7/18"]
    mech = _w(tmp_path, "k.json", {"matrix": [["3/4", "1/4"], ["1/4", "3/4"]]})
    pr2 = _w(tmp_path, "p2.json", {"probabilities": ["1/2", "1/2"]})
    assert main(["leakage", mech, "--prior", pr2, "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["evidence"]["leakage_bits"] == "log2(3/2)" and len(d["evidence"]["enclosure"]) == 2


@pytest.mark.parametrize("prior, extra, msg", [
    ({"probabilities": ["1/2", "1/2", "1/2"]}, ["--alpha", "1/2"], "sum to 3/2"),
    ({"probabilities": ["1/2", "-1/2", "1"]}, ["--alpha", "1/2"], "negative"),
    ({"probabilities": ["1/2", "1/2"]}, ["--alpha", "1/2"], "2 probabilities for 3 points"),
    ({"points": ["0", "1", "9"], "probabilities": ["1/3", "1/3", "1/3"]}, ["--alpha", "1/2"], "no probability"),
    ({"probabilities": ["1/3", "1/3", "1/3"]}, ["--eps", "0"], "eps > 0"),
])
def test_cli_regular_bad_input(tmp_path, capsys, prior, extra, msg):
    import re
    m = _w(tmp_path, "m.json", {"kind": "path", "n": 3})
    p = _w(tmp_path, "p.json", prior)
    assert main(["regular", p, "--metric", m, *extra]) == 2
    err = capsys.readouterr().err
    assert re.search(msg, err) and err.count("\n") == 1


def test_cli_tight_bad_metric(tmp_path, capsys):
    bad = _w(tmp_path, "b.json", {"kind": "matrix", "points": ["a", "b"], "distances": [[0, 1], [2, 0]]})
    assert main(["tight", bad, "--alpha", "1/2"]) == 2
    assert "not symmetric" in capsys.readouterr().err


def test_uniform_sensitivity_and_composition():
    from exactdp.metrics import induced
    from exactdp.priors.sensitivity import compose_query, uniformly_sensitive
    X = hamming([0, 1], 2)
    f = {p: str(sum(int(c) for c in p.split(","))) for p in X.points}
    Y = induced([0, 1], 2, lambda x: sum(x))
    assert uniformly_sensitive(X, Y, f, 1) == (True, "both conditions hold")
    ok, why = uniformly_sensitive(X, path(3), f, fmpq(1, 2))
    assert not ok and "condition 1 fails" in why
    H = geometric(2, "1/2")
    HF = compose_query(H, f, X)
    assert HF.entry("1,1", "2") == H.entry("2", "2")
    with pytest.raises(InvalidInput, match="every point"):
        uniformly_sensitive(X, Y, {"0,0": "0"}, 1)


def test_prop2_violation_is_reported():
    # pi_0 = 9/10 exceeds the Prop. 2 upper bound 1/(1 + 1/2 + 1/4) = 4/7 on the path with alpha = 1/2
    assert "Prop." in check_prior([fmpq(9, 10), fmpq(1, 20), fmpq(1, 20)], path(3), HALF)
    assert check_prior([fmpq(1, 3)] * 3, path(3), HALF) is None


def test_theorem2_prop5_corollary2_bounds():
    from exactdp.priors.leakage import corollary2_bound, prop5_bound, theorem2_bound, tightness_holds
    assert theorem2_bound(["1/3"] * 3, path(3), HALF) == fmpq(5, 9)
    assert prop5_bound(["1/3"] * 3, path(3), HALF) == fmpq(5, 3)
    assert corollary2_bound(path(3), HALF) == fmpq(5, 3)
    # the truncated geometric mechanism attains the bound (tight); randomized response with p = 1/5 does not
    assert tightness_holds(geometric(2, "1/2"), path(3), HALF) is True
    assert tightness_holds(randomized_response(["0", "1", "2"], p="1/5"), path(3), HALF) is False
    # the maximal utility of the tight mechanism equals the Theorem 2 bound exactly
    assert max_utility(geometric(2, "1/2"), ["1/3"] * 3) == fmpq(5, 9)
    with pytest.raises(InvalidInput, match="regular prior"):
        theorem2_bound(["9/10", "1/20", "1/20"], path(3), HALF)


def test_theorem4_remaps():
    from exactdp.mechanism import mechanism_from_values
    from exactdp.priors.theorem4 import deterministic_tight_remaps, tight_remap
    G = geometric(3, "1/2")
    # split output 1 into two outputs carrying half of its mass each: the merge remap restores G
    rows = []
    for i in range(4):
        r = [G[i, j] for j in range(4)]
        rows.append([r[0], r[1] / 2, r[1] / 2, r[2], r[3]])
    H = mechanism_from_values(G.inputs, ["0", "1a", "1b", "2", "3"], rows)
    c = tight_remap(H, path(4), HALF)
    assert c.holds is True
    found = deterministic_tight_remaps(H, path(4), HALF)
    assert {"0": "0", "1a": "1", "1b": "1", "2": "2", "3": "3"} in found
    # a mechanism that no remap makes tight: randomized response far from the threshold
    assert tight_remap(randomized_response(["0", "1", "2", "3"], p="1/5"), path(4), HALF).holds is False


def test_tight_certificate_recheck():
    c = tight_constraints(path(4), HALF)
    assert c.recheck().ok is True
    star = from_graph(nx.star_graph(3))
    assert tight_constraints(star, Level.from_alpha("3/4")).recheck().ok is True
    assert tight_constraints(path(4), Level.from_eps("1/2")).recheck().ok is True     # interval re-solve


# ---------------------------------------------------- disconnected metrics (audit 2026-11-24, defect 3) ----
def _two_edges():
    return from_graph(nx.Graph([("0", "1"), ("2", "3")]))


def _brute_mu(pi, alpha):
    """``mu = pi Phi^-1`` by sympy on the 4 x 4 matrix written out by hand: ``phi = alpha^d``, 0 across components."""
    import sympy as sp
    a = sp.Rational(alpha)
    phi = sp.Matrix([[1, a, 0, 0], [a, 1, 0, 0], [0, 0, 1, a], [0, 0, a, 1]])
    return list(sp.Matrix([[sp.Rational(p) for p in pi]]) * phi.inv())


@pytest.mark.parametrize("pi", [["1/4"] * 4, ["1/20", "1/20", "9/20", "9/20"], ["1/2", "1/10", "1/5", "1/5"],
                                ["1/6", "1/3", "1/6", "1/3"], ["1/9", "2/9", "1/3", "1/3"]])
def test_regular_on_a_disconnected_graph_is_decided_per_component(pi):
    # before: Prop. 2's lower bound ignored the inf distances, and a regular prior raised RuntimeError (exit 4)
    mu = _brute_mu(pi, "1/2")
    c = regular_prior(pi, _two_edges(), HALF)
    assert c.holds is all(m >= 0 for m in mu)
    assert c.evidence.mu == [str(m) for m in mu]
    if c.holds:
        assert check_prior([fmpq(p) for p in pi], _two_edges(), HALF) is None
    assert recheck_status(c) == "confirmed"


def test_prop2_lower_bound_is_zero_next_to_an_infinite_distance():
    # 1/20 is below the connected bound 1/(1 + 2) = 1/3 but allowed: the other component is at distance inf
    assert check_prior([fmpq(1, 20), fmpq(1, 20), fmpq(9, 20), fmpq(9, 20)], _two_edges(), HALF) is None
    # the upper bound still binds within a component: 1/(1 + 1/2) = 2/3 < 7/10
    assert "Prop. 2 fails at '0'" in check_prior([fmpq(7, 10), fmpq(1, 10), fmpq(1, 10), fmpq(1, 10)],
                                                 _two_edges(), HALF)


def test_cli_regular_on_a_disconnected_graph(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps({"kind": "graph", "nodes": ["0", "1", "2", "3"],
                                                 "edges": [["0", "1"], ["2", "3"]]}))
    (tmp_path / "p.json").write_text(json.dumps({"probabilities": ["1/4"] * 4}))
    assert main(["regular", str(tmp_path / "p.json"), "--metric", str(tmp_path / "g.json"), "--alpha", "1/2"]) == 0
    assert "mu: (1/6, 1/6, 1/6, 1/6)" in capsys.readouterr().out


def recheck_status(c):
    from exactdp import recheck
    return recheck(c.to_json()).status
