"""Input files are read strictly (issue 32 items 15-16): an unknown key, a key given twice or a control
character in a label is refused in one line naming the key -- in metric, graph, mechanism, prior, subset and
neighbour files -- so a misspelt field is never silently ignored and no label can forge output lines or send
terminal escapes."""

import json

import pytest

from exactdp.cli import main

RR = {"inputs": ["a", "b"], "outputs": ["a", "b"], "matrix": [["2/3", "1/3"], ["1/3", "2/3"]]}
D2 = {"kind": "discrete", "points": ["a", "b"]}


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(p)


CASES = {
    "metric: unknown key": ("metric", {"kind": "grid", "shape": [2, 2], "nrom": "euclidean"},
                            "metric (grid): unknown key 'nrom'; expected only 'kind', 'shape', 'norm', 'step'"),
    "metric: key twice": ("metric", '{"kind": "discrete", "points": ["a", "b"], "points": ["a", "b"]}',
                          "the key 'points' is given twice in one object"),
    "metric: newline in a label": ("metric", {"kind": "discrete", "points": ["a", "b\nverdict: holds"]},
                                   "metric (discrete): 'points': label 'b\\nverdict: holds' has the control "
                                   "character U+000A"),
    "graph: escape in a node": ("metric", {"kind": "graph", "nodes": ["a", "\x1b[31mb"], "edges": [["a", "\x1b[31mb"]]},
                                "metric (graph): 'nodes': label '\\x1b[31mb' has the control character U+001B"),
    "graph: unknown key": ("metric", {"kind": "graph", "nodes": ["a", "b"], "edge": [["a", "b"]]},
                           "metric (graph): unknown key 'edge'"),
    "mechanism: unknown key": ("mech", {**RR, "inptus": ["a", "b"]}, "mechanism file: unknown key 'inptus'"),
    "mechanism: key twice": ("mech", '{"matrix": [[1]], "matrix": [[1]]}', "the key 'matrix' is given twice"),
    "mechanism: bidi override": ("mech", {**RR, "outputs": ["a\u202eb", "b"]},
                                 "mechanism file: 'outputs': label 'a\\u202eb' has the control character U+202E"),
    "neighbours: unknown key": ("nb", {"pairs": [["a", "b"]], "pair": []}, "unknown key 'pair'; expected only "
                                                                          "'pairs'"),
    "neighbours: control in a label": ("nb", [["a", "b\x07"]], "'pairs': label 'b\\x07' has the control "
                                                               "character U+0007"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_strict_reader_names_the_key(tmp_path, capsys, case):
    which, bad, words = CASES[case]
    files = {"mech": RR, "metric": D2, "nb": None}
    files[which] = bad
    mech, metric = write(tmp_path, "m.json", files["mech"]), write(tmp_path, "d.json", files["metric"])
    args = ["certify", mech, "--metric", metric, "--eps", "1"]
    if which == "nb":
        args += ["--delta", "0", "--neighbours", write(tmp_path, "nb.json", bad)]
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "")
    assert err.startswith("exactdp: error: ") and err.count("\n") == 1, err
    assert words in err, err
    assert "\x1b" not in err and "\u202e" not in err


def test_the_same_files_without_the_defect_are_read(tmp_path, capsys):
    mech, metric = write(tmp_path, "m.json", {**RR, "name": "rr", "provenance": "k-RR"}), write(tmp_path, "d.json", D2)
    code, out, err = run(["certify", mech, "--metric", metric, "--eps", "log(2)"], capsys)
    assert (code, err) == (0, "") and "verdict: holds" in out
    nb = write(tmp_path, "nb.json", {"pairs": [["a", "b"]]})
    code, out, err = run(["certify", mech, "--metric", metric, "--eps", "log(2)", "--delta", "0", "--neighbours", nb],
                         capsys)
    assert (code, err) == (0, "")


def test_prior_and_subset_files_are_strict(tmp_path, capsys):
    metric = write(tmp_path, "p.json", {"kind": "path", "n": 2})
    prior = write(tmp_path, "pr.json", {"probabilities": ["1/2", "1/2"], "point": ["0", "1"]})
    code, out, err = run(["regular", prior, "--metric", metric, "--alpha", "1/2"], capsys)
    assert (code, out) == (2, "") and "prior file" in err and "unknown key 'point'" in err
    mech = write(tmp_path, "h.json", {"inputs": ["0"], "outputs": ["a"], "matrix": [["1"]]})
    sub = write(tmp_path, "s.json", {"points": ["0"], "extra": 1})
    code, out, err = run(["extend", mech, "--metric", metric, "--subset", sub, "--alpha", "1/2"], capsys)
    assert (code, out) == (2, "") and "unknown key 'extra'; expected only 'points'" in err


@pytest.mark.parametrize("cmd", ["fdp", "renyi", "epsilon", "profile"])
def test_one_rule_for_mechanisms_written_in_alpha(tmp_path, capsys, cmd):
    """issue 32 item 5: every command that reads a mechanism evaluates entries in alpha at --alpha/--eps (fdp and
    renyi refused them), and without a level says so the same way; the value at alpha = 1/2 is the one of the
    mechanism written at that level."""
    sym = write(tmp_path, "s.json", {"matrix": [["1/(1+alpha)", "alpha/(1+alpha)"], ["alpha/(1+alpha)",
                                                                                     "1/(1+alpha)"]]})
    fixed = write(tmp_path, "f.json", {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]})
    p2 = write(tmp_path, "p.json", {"kind": "path", "n": 2})
    code, out, err = run([cmd, sym, "--metric", p2, "--format", "json"], capsys)
    assert (code, out) == (2, "") and err.startswith(f"exactdp: error: {cmd}: the entries use alpha; give --alpha A "
                                                     "or --eps E to fix the level"), err
    code, out, _ = run([cmd, sym, "--metric", p2, "--alpha", "1/2", "--format", "json"], capsys)
    a = json.loads(out)
    code2, out2, _ = run([cmd, fixed, "--metric", p2, "--alpha", "1/2", "--format", "json"], capsys)
    b = json.loads(out2)
    assert code == code2 == 0 and a["claim"].replace("s.json", "M") == b["claim"].replace("f.json", "M")


EPS_ENTRIES = {"inputs": ["0", "1"], "outputs": ["a", "b"], "matrix": [["eps/2", "1 - eps/2"], ["1/2", "1/2"]]}


def test_an_entry_in_eps_is_read_at_the_level_given(tmp_path, capsys):
    """Issue 32 item 12: an entry ``eps/2`` at ``--eps 1/2`` is 1/4 (it was refused as an irrational algebraic
    number); without a level it is refused in one line that says why and what to give."""
    from exactdp.errors import NeedsLevel
    from exactdp.io import load_mechanism

    m = write(tmp_path, "m.json", EPS_ENTRIES)
    met = write(tmp_path, "d.json", {"kind": "discrete", "points": ["0", "1"]})
    assert str(load_mechanism(m, eps="1/2").entry("0", "a")) == "1/4"
    with pytest.raises(NeedsLevel, match=r"eps/2 uses eps outside exp\(\.\.\.\)"):
        load_mechanism(m)
    code, out, _ = run(["profile", m, "--metric", met, "--eps", "1/2", "--format", "json"], capsys)
    # rows (1/4, 3/4) and (1/2, 1/2): the largest excess at eps = 1/2 is 1/2 - e^(1/2)/4 (output a, x = 1 over 0)
    assert code == 0 and json.loads(out)["evidence"]["query"]["delta_at_eps"] == "-1/4*exp(1/2) + 1/2"
    code, _, err = run(["certify", m, "--metric", met, "--all-eps"], capsys)
    assert code == 2 and "give the level (--eps or --alpha)" in err and err.count("\n") == 1
