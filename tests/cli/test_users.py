"""The commands about users' knowledge (`tight`, `regular`, `leakage`; ECP14) through `main`: JSON
evidence, exit codes, one-line errors."""

import json

import pytest

from exactdp.cli import main


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


def test_cli_regular_on_a_disconnected_graph(tmp_path, capsys):
    (tmp_path / "g.json").write_text(json.dumps({"kind": "graph", "nodes": ["0", "1", "2", "3"],
                                                 "edges": [["0", "1"], ["2", "3"]]}))
    (tmp_path / "p.json").write_text(json.dumps({"probabilities": ["1/4"] * 4}))
    assert main(["regular", str(tmp_path / "p.json"), "--metric", str(tmp_path / "g.json"), "--alpha", "1/2"]) == 0
    assert "mu: (1/6, 1/6, 1/6, 1/6)" in capsys.readouterr().out


def test_cli_optimal_and_remap(tmp_path, capsys):
    prior = _w(tmp_path, "p.json", {"probabilities": ["1/4"] * 4})
    assert main(["optimal", "--prior", prior, "--loss", "squared", "--n", "3", "--alpha", "1/3",
                 "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    ev = d["evidence"]
    assert ev["attains"] is True and ev["lp"]["value"] == ev["geometric_loss"]
    assert {"lp", "optimum", "remap", "attains"} <= set(ev)
    mech = _w(tmp_path, "m.json", {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]})
    prior2 = _w(tmp_path, "p2.json", {"points": [0, 1], "probabilities": ["1/2", "1/2"]})
    assert main(["remap", mech, "--prior", prior2, "--loss", "binary", "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["remap"] == {"0": "0", "1": "1"} and d["expected_loss"] == "1/3"
    loss = _w(tmp_path, "l.json", {"matrix": [[0, 5], [1, 0]]})
    assert main(["remap", mech, "--prior", prior2, "--loss", loss, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["remap"] == {"0": "0", "1": "0"}


@pytest.mark.parametrize("prior, extra, msg", [
    ({"probabilities": ["1/2", "1/3", "1/6", "1/6"]}, [], "sum to 7/6"),
    ({"probabilities": ["1/2", "-1/2", "1/2", "1/2"]}, [], "negative"),
    ({"probabilities": ["1/4"] * 3}, [], "expected n \\+ 1 = 4"),
    ({"probabilities": ["1/4"] * 4}, ["--alpha", "1"], "0 < alpha < 1"),
    ({"points": [3, 2, 1, 0], "probabilities": ["1/4"] * 4}, [], "points must be 0..n"),
])
def test_cli_optimal_bad_input(tmp_path, capsys, prior, extra, msg):
    import re
    p = _w(tmp_path, "p.json", prior)
    args = ["optimal", "--prior", p, "--loss", "absolute", "--n", "3"] + (extra or ["--alpha", "1/2"])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert re.search(msg, err) and err.count("\n") == 1


def test_cli_bad_loss_file(tmp_path, capsys):
    p = _w(tmp_path, "p.json", {"probabilities": ["1/2", "1/2"]})
    loss = _w(tmp_path, "l.json", {"matrix": [[0, 1], [-1, 0]]})
    assert main(["optimal", "--prior", p, "--loss", loss, "--n", "1", "--alpha", "1/2"]) == 2
    assert "negative" in capsys.readouterr().err
    assert main(["optimal", "--prior", p, "--loss", "hinge", "--n", "1", "--alpha", "1/2"]) == 2
    assert main(["optimal", "--prior", p, "--loss", "absolute", "--n", "0", "--alpha", "1/2"]) == 2
