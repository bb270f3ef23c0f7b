"""Command line: certify --delta, profile, compose (exit codes 0/1/2 and JSON fields)."""

import json

import pytest

from exactdp.cli import main

RR = {"inputs": ["0", "1", "2"], "outputs": ["0", "1", "2"],
      "matrix": [["3/5", "1/5", "1/5"], ["1/5", "3/5", "1/5"], ["1/5", "1/5", "3/5"]]}
DISCRETE = {"kind": "discrete", "points": ["0", "1", "2"]}
PATH = {"kind": "path", "n": 3}


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
    return {"rr": write("rr.json", RR), "d3": write("d3.json", DISCRETE), "p3": write("p3.json", PATH),
            "nb": write("nb.json", [["0", "2"]]), "nbobj": write("nbo.json", {"pairs": [["0", "1"]]}),
            "bad": write("bad.json", [["0", "9"]]), "notlist": write("nl.json", {"x": 1})}


def test_certify_delta_holds_at_the_boundary(files, capsys):
    code, out, _ = run(["certify", files["rr"], "--metric", files["d3"], "--eps", "log(2)", "--delta", "1/5",
                        "--format", "json"], capsys)
    d = json.loads(out)["evidence"]
    assert code == 0 and d["delta"] == "1/5" and d["excess"] == "1/5" and d["worst_set"] == ["0"]


def test_certify_delta_fails_with_witness(files, capsys):
    code, out, _ = run(["certify", files["rr"], "--metric", files["d3"], "--eps", "log(2)", "--delta", "1/6",
                        "--format", "json"], capsys)
    j = json.loads(out)
    d = j["evidence"]
    assert code == 1 and j["verdict"] == "fails" and d["witness"]["lhs"] == "3/5" and d["witness"]["rhs"] == "17/30"


def test_certify_with_neighbour_file(files, capsys):
    code, out, _ = run(["certify", files["rr"], "--metric", files["p3"], "--eps", "0", "--delta", "2/5",
                        "--neighbours", files["nbobj"], "--format", "json"], capsys)
    d = json.loads(out)["evidence"]
    assert code == 0 and d["pairs"] == [["0", "1"]] and d["excess"] == "2/5"


def test_profile_text_and_json(files, capsys):
    # by hand: rows (3/5, 1/5, 1/5) against (1/5, 3/5, 1/5): delta(t) = 3/5 - t/5 for t <= 3, so delta(log 2) = 1/5
    code, out, _ = run(["profile", files["rr"], "--metric", files["p3"], "--eps", "log(2)", "--delta", "1/10"],
                       capsys)
    assert code == 1 and "delta = 3/5 - (1/5)*exp(eps)" in out and "smallest eps for delta: log(5/2)" in out
    code, out, _ = run(["profile", files["rr"], "--metric", files["p3"], "--neighbours", files["nb"],
                        "--format", "json"], capsys)
    d = json.loads(out)
    ev = d["evidence"]
    assert code == 0 and d["kind"] == "profile" and [[p["x"], p["x_prime"]] for p in ev["relation"]["pairs"]] == \
        [["0", "2"]] and (ev["pieces"][0]["A"], ev["pieces"][0]["B"]) == ("3/5", "1/5")


def test_compose(files, capsys):
    code, out, _ = run(["compose", files["rr"], "--metric", files["d3"], "--times", "2", "--eps", "log(9)",
                        "--format", "json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["evidence"]["factors"][0]["times"] == 2 and d["evidence"]["query"]["delta_at_eps"] == "0"
    code, out, _ = run(["compose", files["rr"], "--metric", files["d3"], "--times", "2", "--delta", "0"], capsys)
    assert code == 0 and "smallest eps for delta: log(9)" in out


def test_compose_transcendental_entries(tmp_path, capsys):
    # binary randomized response at eps0 = 1 (entries with e): delta of 2 repetitions at eps = 0 is
    # P(S*) - Q(S*) with S* = {(0,0)} and the two mixed outputs of ratio 1 left out: (e^2 - 1)/(1 + e)^2
    rr = {"inputs": ["0", "1"], "outputs": ["0", "1"],
          "matrix": [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"], ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]}
    m, d = tmp_path / "rr.json", tmp_path / "d.json"
    m.write_text(json.dumps(rr))
    d.write_text(json.dumps({"kind": "discrete", "points": ["0", "1"]}))
    code, out, _ = run(["compose", str(m), "--metric", str(d), "--times", "2", "--eps", "0", "--format", "json"],
                       capsys)
    got = json.loads(out)["evidence"]
    from exactdp.exact.decide import sign
    from exactdp.exact.values import exact_number
    assert code == 0 and [p["t_from"] for p in got["pieces"]] == ["1", "exp(2)"]
    assert sign(exact_number(got["query"]["delta_at_eps"]) - exact_number("(exp(2) - 1)/(1 + exp(1))^2")) == 0
    code, out, _ = run(["compose", str(m), "--metric", str(d), "--times", "2", "--delta", "0"], capsys)
    assert code == 0 and "smallest eps for delta: 2" in out


@pytest.mark.parametrize("args, match", [
    (["certify", "RR", "--metric", "D3", "--eps", "1", "--delta", "3/2"], "delta: expected 0 <= delta <= 1"),
    (["certify", "RR", "--metric", "D3", "--eps", "-1", "--delta", "1/2"], "eps: expected eps >= 0"),
    (["certify", "RR", "--metric", "D3", "--eps", "1", "--delta", "1/2", "--neighbours", "BAD"],
     "names '9', which is not an input"),
    (["certify", "RR", "--metric", "D3", "--eps", "1", "--delta", "1/2", "--neighbours", "NOTLIST"],
     "unknown key 'x'; expected only 'pairs'"),
    (["certify", "RR", "--metric", "D3", "--delta", "1/2"], "needs --eps or --alpha"),
    (["certify", "RR", "--metric", "D3", "--all-eps", "--delta", "1/2"], "does not combine with --all-eps"),
    (["certify", "RR", "--metric", "D3", "--eps", "1", "--neighbours", "NB"], "--neighbours needs --delta"),
    (["compose", "RR", "--metric", "D3", "--times", "0", "--eps", "1"], "--times: expected 1 <= K"),
    (["compose", "RR", "--metric", "D3", "--times", "1000000000", "--eps", "1"], "--times: expected 1 <= K"),
    (["compose", "RR", "RR", "--metric", "D3", "--times", "1,2,3", "--eps", "1"], "one per mechanism"),
    (["compose", "RR", "--metric", "D3", "--times", "two", "--eps", "1"], "--times: expected integers"),
    (["profile", "RR", "--metric", "D3", "--delta", "2"], "delta: expected 0 <= delta <= 1"),
])
def test_bad_input_exits_2(files, capsys, args, match):
    sub = {"RR": files["rr"], "D3": files["d3"], "BAD": files["bad"], "NOTLIST": files["notlist"], "NB": files["nb"]}
    code, _out, err = run([sub.get(x, x) for x in args], capsys)
    assert code == 2 and match in err and "Traceback" not in err
