"""The `exactdp extend` and `exactdp tradeoff` commands: output, exit codes 0/1/2/3."""

import json

import pytest

from exactdp.cli import main


@pytest.fixture
def files(tmp_path):
    def write(name, obj):
        p = tmp_path / name
        p.write_text(json.dumps(obj))
        return str(p)
    return {
        "mech": write("ah.json", {"inputs": ["0", "3"], "outputs": ["a", "b"],
                                  "matrix": [["8/9", "1/9"], ["1/9", "8/9"]]}),
        "metric": write("m.json", {"kind": "path", "n": 4}),
        "H": write("h.json", ["0", "3"]),
        "H0": write("h0.json", []),
        "Hobj": write("hobj.json", {"points": ["0", "3"]}),
        "bad": write("bad.json", {"nope": 1}),
    }


def test_extend_json_holds(files, capsys):
    rc = main(["extend", files["mech"], "--metric", files["metric"], "--subset", files["H"], "--alpha", "1/2",
               "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    ev = out["evidence"]
    assert rc == 0 and out["verdict"] == "holds" and ev["agrees_on_H"] is True and ev["private_2eps"] == "holds"
    m = ev["mechanism"]
    assert ev["epsilon"] == "log(3)" and [m["values"][k] for k in m["codes"][1]] == ["2/3", "1/3"]
    assert ev["witness"]["part"] == "all"


def test_extend_fails_with_witness_exit_1(files, capsys):
    rc = main(["extend", files["mech"], "--metric", files["metric"], "--subset", files["Hobj"], "--eps", "1/3",
               "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    ev = out["evidence"]
    assert rc == 1 and ev["witness"]["part"] == "a" and ev["violation"]["x"] == "0"


def test_extend_undecided_exit_3(files, tmp_path, capsys):
    p = tmp_path / "ok.json"
    p.write_text(json.dumps({"inputs": ["0", "3"], "outputs": ["a", "b"], "matrix": [["5/9", "4/9"], ["4/9", "5/9"]]}))
    rc = main(["extend", str(p), "--metric", files["metric"], "--subset", files["H"], "--eps", "log(2)/3"])
    assert rc == 3 and "undecided" in capsys.readouterr().out


@pytest.mark.parametrize("args,msg", [
    (["--subset", "H0", "--alpha", "1/2"], "non-empty subset"),
    (["--subset", "bad", "--alpha", "1/2"], "unknown key 'nope'; expected only 'points'"),
    (["--subset", "H"], "one of the arguments --eps --alpha is required"),
])
def test_extend_bad_input_exit_2(files, capsys, args, msg):
    args = [files.get(a, a) for a in args]
    try:
        rc = main(["extend", files["mech"], "--metric", files["metric"], *args])
    except SystemExit as e:  # argparse refuses a missing required group itself (exit 2)
        rc = e.code
    assert rc == 2 and msg in capsys.readouterr().err


def test_tradeoff_json_and_bad_input(files, capsys):
    rc = main(["tradeoff", "--metric", files["metric"], "--gamma", "2", "--delta", "1/5", "--format", "json"])
    out = json.loads(capsys.readouterr().out)["evidence"]
    from fractions import Fraction as F
    assert rc == 0 and out["epsilon_bracket"] == [f"log({out['t_lower']})", f"log({out['t_upper']})"]
    assert F(out["s_lower"]) < F(4, 5) <= F(out["s_upper"]) and F(out["t_lower"]) < F(out["t_upper"])
    m = out["mechanism"]  # the upper end's mechanism: rows sum to 1, ball mass >= 4/5
    rows = [[m["values"][k] for k in r] for r in m["codes"]]
    assert all(sum(F(v) for v in r) == 1 for r in rows)
    assert min(sum(F(r[y]) for y in range(len(r)) if abs(x - y) < 2) for x, r in enumerate(rows)) >= F(4, 5)
    rc = main(["tradeoff", "--metric", files["metric"], "--gamma", "2", "--delta", "1"])
    assert rc == 2 and "delta: expected a rational 0 < delta < 1" in capsys.readouterr().err


def test_extend_text_prints_the_witness_it_claims(files, capsys):
    """issue 32 item 14: the text said "the witness is above" and printed none; the line carries the JSON's
    violated inequality, exactly."""
    args = ["extend", files["mech"], "--metric", files["metric"], "--subset", files["H"], "--eps", "1/3"]
    assert main([*args, "--format", "json"]) == 1
    v = json.loads(capsys.readouterr().out)["evidence"]["violation"]
    assert main(args) == 1
    out = capsys.readouterr().out
    line = f"witness (a): Â({v['x']})({v['output']}) = {v['lhs']} > {v['rhs']} = e^(eps d) Â({v['x_prime']})" \
           f"({v['output']}), d({v['x']}, {v['x_prime']}) = {v['distance']}\n"
    assert line in out and out.index(line) < out.index("the witness is above")
    assert (v["x"], v["x_prime"], v["lhs"], v["rhs"]) == ("0", "3", "8/9", "1/9*exp(1)")   # 8/9 > e/9
    assert main([*args[:-1], "1"]) == 0 and "witness" not in capsys.readouterr().out.replace("witness is", "")
