"""Command line: compose --lattice (issue 29): exact delta or certified enclosure, the route, exit codes 0/1/2/3."""

import json

import pytest

from exactdp.cli import main
from exactdp.exact.decide import sign, simplify
from exactdp.exact.values import exact_number
from exactdp.mechanisms import generalized_rr
from exactdp.metrics import discrete
from exactdp.composition.composition import composed_profile

RR_E = {"inputs": ["0", "1"], "outputs": ["0", "1"],
        "matrix": [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"], ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]}
RR_Q = {"inputs": ["0", "1"], "outputs": ["0", "1"], "matrix": [["3/4", "1/4"], ["1/4", "3/4"]]}
D2 = {"kind": "discrete", "points": ["0", "1"]}


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def files(tmp_path):
    def write(name, obj):
        p = tmp_path / name
        p.write_text(json.dumps(obj))
        return str(p)
    return {"e": write("e.json", RR_E), "q": write("q.json", RR_Q), "d2": write("d2.json", D2)}


def test_exact_at_a_transcendental_eps(files, capsys):
    code, out, _ = run(["compose", files["e"], "--metric", files["d2"], "--times", "20", "--eps", "3", "--lattice",
                        "--format", "json"], capsys)
    j = json.loads(out)["evidence"]
    ref = composed_profile(generalized_rr(2, eps="1"), discrete(2), 20).delta(eps="3")
    assert code == 0 and j["route"] == "lattice-exact" and j["factors"][0]["times"] == 20
    assert sign(simplify(exact_number(j["delta_at_eps"]) - ref)) == 0
    lo, hi = (exact_number(x) for x in j["enclosure"])
    assert sign(ref - lo) >= 0 and sign(hi - ref) >= 0
    code, out, _ = run(["compose", files["e"], "--metric", files["d2"], "--times", "20", "--eps", "3", "--lattice"],
                       capsys)
    assert code == 0 and f"in [{j['enclosure'][0]}, {j['enclosure'][1]}] (certified)" in out
    assert "coefficients up to" in out and "route lattice-exact" in out and "exp(" not in out


def test_verdict_both_ways_and_at_the_boundary(files, capsys):
    # RR with ratio 3, twice, at eps = log 3: delta = 9/16 (1 - 3/9) = 3/8
    base = ["compose", files["q"], "--metric", files["d2"], "--times", "2", "--eps", "log(3)", "--lattice"]
    code, out, _ = run([*base, "--delta", "3/8"], capsys)
    assert code == 0 and "= 3/8 exactly" in out and "holds" in out
    code, out, _ = run([*base, "--delta", "1/3", "--format", "json"], capsys)
    assert code == 1 and json.loads(out)["verdict"] == "fails" and json.loads(out)["evidence"]["delta_at_eps"] == "3/8"


def test_ball_route_undecided_inside_the_enclosure(files, capsys, monkeypatch):
    from exactdp.composition import lattice

    monkeypatch.setattr(lattice, "MAX_EXACT_BITS", 0)
    base = ["compose", files["e"], "--metric", files["d2"], "--times", "5", "--eps", "1", "--lattice"]
    code, out, _ = run([*base, "--format", "json"], capsys)
    j = json.loads(out)["evidence"]
    assert code == 0 and j["route"] == "lattice-balls" and j["delta_at_eps"] is None
    code, out, _ = run([*base, "--delta", j["enclosure"][1]], capsys)
    assert code == 0
    code, out, _ = run([*base, "--delta", "0"], capsys)
    assert code == 1
    inside = str((exact_number(j["enclosure"][0]) + exact_number(j["enclosure"][1])) / 2)
    assert j["enclosure"][0] != j["enclosure"][1]          # a ball route never prints a point
    code, out, _ = run([*base, "--delta", inside], capsys)
    assert code == 3 and "undecided" in out


@pytest.mark.parametrize("extra, match", [
    (["--times", "2"], "needs --eps or --alpha"),
    (["--times", "2", "--eps", "1", "--format", "latex"], "--format text or json"),
    (["--times", "0", "--eps", "1"], "1 <= K"),
])
def test_bad_input(files, capsys, extra, match):
    code, _, err = run(["compose", files["q"], "--metric", files["d2"], "--lattice", *extra], capsys)
    assert code == 2 and match in err and err.count("\n") == 1


def test_two_mechanisms(files, capsys):
    # ratio 3 and ratio e: no common lattice (log 3 is not a rational multiple of 1), refused as bad input
    code, _, err = run(["compose", files["q"], files["e"], "--metric", files["d2"], "--eps", "1", "--lattice"],
                       capsys)
    assert code == 2 and "no common lattice" in err
    code, out, _ = run(["compose", files["q"], files["q"], "--metric", files["d2"], "--times", "1,2", "--eps", "0",
                        "--lattice", "--format", "json"], capsys)
    ev = json.loads(out)["evidence"]
    assert code == 0 and ev["delta_at_eps"] == "11/16" and [f["times"] for f in ev["factors"]] == [1, 2]  # TV of 3


def test_certificate_route_prints_a_certified_enclosure(files, capsys):
    """compose / profile without --lattice: a delta in Q(e) gets a decimal enclosure beside its exact text."""
    code, out, _ = run(["compose", files["e"], "--metric", files["d2"], "--times", "4", "--eps", "1"], capsys)
    line = next(x for x in out.splitlines() if x.startswith("delta at eps, certified decimal enclosure: ["))
    lo, hi = line.split("[")[1].split("]")[0].split(", ")
    ref = composed_profile(generalized_rr(2, eps="1"), discrete(2), 4).delta(eps="1")
    assert code == 0 and sign(ref - exact_number(lo)) >= 0 and sign(exact_number(hi) - ref) >= 0
    code, out, _ = run(["compose", files["q"], "--metric", files["d2"], "--times", "2", "--eps", "log(3)"], capsys)
    assert code == 0 and "certified decimal enclosure" not in out          # a short rational needs none
