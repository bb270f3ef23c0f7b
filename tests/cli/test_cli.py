import json
import os
import subprocess
import sys

import pytest

from exactdp.cli import main

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples", "data")


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(p)


def test_example_holds(capsys):
    code, out, err = run(["certify", "--example", "geometric"], capsys)
    assert code == 0 and "verdict: holds" in out and "log(2)" in out and err == ""


def test_example_all_eps_json(capsys):
    code, out, _ = run(["certify", "--example", "geometric", "--all-eps", "--format", "json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["verdict"] == "holds" and d["evidence"]["failure_set"] == []


def test_json_fields_on_failure(capsys):
    code, out, _ = run(["certify", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json", "--eps", "1/2",
                        "--format", "json"], capsys)
    d = json.loads(out)
    assert code == 1 and d["verdict"] == "fails" and d["schema"] == "exactdp-certificate"
    ev = d["evidence"]
    assert ev["epsilon"] == "log(2)" and ev["enclosure"][0].startswith("0.6931471805599453094")
    w = ev["violation"]
    assert {"x", "x_prime", "output", "lhs", "rhs"} <= set(w) and w["lhs"] == "1/2"
    assert "method" in d


def test_symbolic_file_and_formats(capsys):
    for fmt, marker in (("markdown", "**Verdict.** holds"), ("latex", r"\begin{proof}"), ("text", "verdict: holds")):
        code, out, _ = run(["certify", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json", "--alpha", "1/3",
                            "--format", fmt], capsys)
        assert code == 0 and marker in out
    code, out, _ = run(["certify", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json", "--all-eps"], capsys)
    assert code == 0


def test_epsilon_command(capsys):
    code, out, _ = run(["epsilon", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["evidence"]["epsilon"] == "log(2)"
    code, out, _ = run(["epsilon", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json", "--eps", "1/2",
                        "--format", "json"], capsys)
    assert json.loads(out)["evidence"]["epsilon"] == "1/2"
    code, _, err = run(["epsilon", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json"], capsys)
    assert code == 2 and "the entries use alpha; give --alpha A or --eps E" in err


def test_undecided_exit_3(tmp_path, capsys):
    # alpha = 2^(-1/2) is irrational, so the entries in alpha have no exact value at eps = log(2)/2, and the
    # all-eps proof fails only for some alpha ...
    m = write(tmp_path, "m.json", {"matrix": [["1/2+alpha/4", "1/2-alpha/4"], ["1/2-alpha/4", "1/2+alpha/4"]]})
    quarter = write(tmp_path, "q.json", {"kind": "matrix", "points": ["0", "1"],
                                         "distances": [[0, "1/4"], ["1/4", 0]]})
    code, out, _ = run(["certify", m, "--metric", quarter, "--eps", "log(2)/2", "--format", "json"], capsys)
    assert code == 3 and json.loads(out)["verdict"] == "undecided"
    # ... but where the proof for every eps holds, it settles this eps too
    code, out, _ = run(["certify", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json", "--eps", "log(2)/2",
                        "--format", "json"], capsys)
    d = json.loads(out)
    assert code == 0 and d["verdict"] == "holds" and d["kind"] == "all_eps" and "log(2)/2" in d["claim"]


def test_csv_mechanism(tmp_path, capsys):
    m = write(tmp_path, "m.csv", "2/3,1/3\n1/3,2/3\n")
    p = write(tmp_path, "p.json", {"kind": "path", "n": 2})
    code, out, _ = run(["epsilon", m, "--metric", p], capsys)
    assert code == 0 and "epsilon: log(2)" in out


@pytest.mark.parametrize("mech, metric, extra, msg", [
    ({"matrix": [["1/2", "1/3"], ["1/2", "1/2"]]}, {"kind": "path", "n": 2}, ["--eps", "1"], "row '0' sums to 5/6"),
    ({"matrix": [["3/2", "-1/2"], ["1/2", "1/2"]]}, {"kind": "path", "n": 2}, ["--eps", "1"], "negative"),
    ({"matrix": [["__import__('os')", "1/2"], ["1/2", "1/2"]]}, {"kind": "path", "n": 2}, ["--eps", "1"],
     "unknown name '__import__'"),
    ('{"matrix": [[NaN, 1], [1, 0]]}', {"kind": "path", "n": 2}, ["--eps", "1"], "NaN is not an exact number"),
    ('{"matrix": [[0.5, 0.5], [0.5, 0.5]', {"kind": "path", "n": 2}, ["--eps", "1"], "malformed JSON"),
    ({"matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}, {"kind": "path", "n": 3}, ["--eps", "1"], "differ"),
    ({"matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}, {"kind": "path", "n": 2}, ["--eps", "0"], "eps > 0"),
    ({"matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}, {"kind": "path", "n": 2}, ["--eps", "-1"], "eps > 0"),
    ({"matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}, {"kind": "path", "n": 2}, ["--alpha", "3/2"], "0 < alpha < 1"),
    ({"matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}, {"kind": "matrix", "points": ["0", "1", "2"],
                                                     "distances": [[0, 1, 5], [1, 0, 1], [5, 1, 0]]},
     ["--eps", "1"], "triangle inequality fails for \\('0', '1', '2'\\)"),
    ({"matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}, {"kind": "torus"}, ["--eps", "1"], "unknown kind"),
    ({"matrix": [["1/2", "1/2"], ["1/2"]]}, {"kind": "path", "n": 2}, ["--eps", "1"], "expected 2"),
])
def test_bad_input_exit_2(tmp_path, capsys, mech, metric, extra, msg):
    m = write(tmp_path, "m.json", mech)
    p = write(tmp_path, "p.json", metric)
    code, out, err = run(["certify", m, "--metric", p, *extra], capsys)
    assert code == 2 and out == ""
    assert err.startswith("exactdp: error:") and err.count("\n") == 1
    import re
    assert re.search(msg, err), err


def test_too_large_file(tmp_path, capsys, monkeypatch):
    import exactdp.io
    monkeypatch.setattr(exactdp.io, "MAX_FILE_BYTES", 10)
    m = write(tmp_path, "m.json", {"matrix": [["1"]]})
    code, _, err = run(["certify", m, "--metric", m, "--eps", "1"], capsys)
    assert code == 2 and "exceed the limit 10" in err


def test_missing_file_and_usage(capsys):
    code, _, err = run(["certify", "/nonexistent.json", "--metric", "/nonexistent.json", "--eps", "1"], capsys)
    assert code == 2 and "No such file" in err
    with pytest.raises(SystemExit) as e:
        main(["certify", "--example", "geometric", "--eps", "1", "--alpha", "1/2"])
    assert e.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
    code, _, err = run(["certify", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json"], capsys)
    assert code == 2 and "--eps, --alpha or --all-eps" in err


def test_reproduce_json(capsys):
    code, out, _ = run(["reproduce", "GRS12-ex2.1", "HLM15-ex6", "HLM15-ex7", "--format", "json"], capsys)
    rows = json.loads(out)
    ids = {r["id"] for r in rows}
    assert code == 0 and {"GRS12-ex2.1", "HLM15-ex6", "HLM15-ex7"} == ids
    assert all(r["status"] == "reproduced" and r["statement"] and r["exact"] for r in rows)
    code, out, _ = run(["reproduce", "ECP14-ex3", "--format", "json"], capsys)
    assert code == 1 and json.loads(out)[0]["status"] == "differs"  # a paper number that exact computation refutes
    code, _, err = run(["reproduce", "NOPE-1"], capsys)
    assert code == 2 and "unknown id" in err


@pytest.mark.parametrize("listing", [[], ["--list"]])
def test_reproduce_markdown_and_latex_are_tables(capsys, listing):
    # audit 2026-11-24 defect 9: --format latex printed a Markdown table, --list ignored markdown and latex
    from _latex_check import latex_problems

    code, md, _ = run(["reproduce", "GRS12-ex2.1", *listing, "--format", "markdown"], capsys)
    lines = md.splitlines()
    assert code == 0 and len(lines) == 3 and lines[1].startswith("|---|") and lines[2].startswith("| GRS12-ex2.1 | ")
    assert all(ln.count(" | ") == lines[0].count(" | ") for ln in (lines[0], lines[2]))     # | inside a cell escaped
    code, tex, _ = run(["reproduce", "GRS12-ex2.1", *listing, "--format", "latex"], capsys)
    lines = tex.splitlines()
    assert code == 0 and lines[0].startswith(r"\begin{tabular}{") and lines[-1] == r"\end{tabular}"
    assert lines[2].startswith("GRS12-ex2.1 & ") and "|---|" not in tex and latex_problems(tex) == []


def test_console_script_runs_without_traceback():
    r = subprocess.run([sys.executable, "-m", "exactdp.cli", "certify", "--example", "geometric", "--eps", "1/2"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "verdict: fails" in r.stdout and r.stderr == ""


def test_recheck_command(tmp_path, capsys):
    code, out, _ = run(["certify", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json", "--eps", "1/2",
                        "--format", "json"], capsys)
    cert = json.loads(out)
    good = write(tmp_path, "good.json", cert)
    code, out, _ = run(["recheck", good], capsys)
    assert code == 0 and "re-check: confirmed" in out
    cert["evidence"]["violated_count"] += 1          # tampered: one count changed
    bad = write(tmp_path, "bad.json", cert)
    code, out, _ = run(["recheck", bad, "--format", "json"], capsys)
    assert code == 1 and json.loads(out)["status"] == "refuted"
    code, _, err = run(["recheck", write(tmp_path, "x.json", {"a": 1})], capsys)
    assert code == 2 and "not an exactdp certificate" in err
    code, _, err = run(["recheck", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "missing.json" in err


def test_reproduce_list_paper_filter_version_and_module(capsys):
    code, out, _ = run(["reproduce", "--list", "HLM15", "--format", "json"], capsys)
    rows = json.loads(out)
    assert code == 0 and rows and {r["paper"] for r in rows} == {"HLM15"} and all(r["statement"] for r in rows)
    code, out, _ = run(["reproduce", "--list"], capsys)
    assert code == 0 and "GRS12-ex2.1" in out and "ECP14-ex1" in out
    code, _, err = run(["reproduce", "--list", "NOPE"], capsys)
    assert code == 2 and "unknown id" in err
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("exactdp ")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "exactdp", "certify", "--example", "geometric"], capture_output=True,
                         text=True)
    assert out.returncode == 0 and "verdict: holds" in out.stdout


def test_closed_pipe_is_not_a_bug():
    import subprocess
    import sys
    with subprocess.Popen([sys.executable, "-m", "exactdp", "reproduce", "--list"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as p:
        p.stdout.close()  # closed before the child (still importing) writes a byte: its first write breaks the pipe
        err = p.stderr.read().decode()
        assert p.wait() == 141 and "internal error" not in err


def test_plot_command_writes_figures(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    m = write(tmp_path, "m.json", {"kind": "path", "n": 3})
    for args in (["region", m, "--alpha", "1/2"], ["losses"],
                 ["mechanism", f"{EX}/geometric3.json", "--alpha", "1/3"]):
        out = tmp_path / f"{args[0]}.png"
        code, _text, _ = run(["plot", *args, "-o", str(out)], capsys)
        assert code == 0 and out.stat().st_size > 1000 and out.read_bytes()[:4] == b"\x89PNG", args
    code, _, err = run(["plot", "region", m, "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "plot region needs a level: --alpha A or --eps E" in err  # as docs/formats.md says
    code, _, err = run(["plot", "mechanism", "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "needs MECH.json" in err


def test_remap_honours_every_format(tmp_path, capsys):
    mech = write(tmp_path, "m.json", {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]})
    prior = write(tmp_path, "p.json", {"probabilities": ["1/2", "1/2"]})
    outs = {}
    for fmt in ("text", "markdown", "latex", "json"):
        code, outs[fmt], _ = run(["remap", mech, "--prior", prior, "--loss", "binary", "--format", fmt], capsys)
        assert code == 0
    assert "| output | remapped to |" in outs["markdown"] and r"\frac{1}{3}" in outs["markdown"]
    assert r"\begin{tabular}" in outs["latex"] and "{'" not in outs["text"] and "0 -> 0, 1 -> 1" in outs["text"]
    assert json.loads(outs["json"])["expected_loss"] == "1/3"


def test_proofs_check_without_a_proofs_directory(tmp_path, capsys):
    code, _, err = run(["proofs", "--check", "--dir", str(tmp_path / "nowhere")], capsys)
    assert code == 2 and "there is no directory" in err


# ---------------------------------------------- docs/formats.md against the parser (audit 2026-11-24, defect 8) ----
def _format_choices() -> dict:
    """Each command's --format choices, read from the real parser (None: no --format)."""
    import argparse

    from exactdp.cli._app import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    out = {}
    for name, p in sub.choices.items():
        fmt = [a for a in p._actions if "--format" in a.option_strings]
        out[name] = tuple(fmt[0].choices) if fmt else None
    return out


def test_formats_md_says_what_each_command_format_accepts():
    import re

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "formats.md"), encoding="utf-8") as f:
        doc = f.read()
    real = _format_choices()
    section = doc[doc.index("### `--format`, command by command"):doc.index("## Exit codes")]
    table = dict(re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", section, flags=re.M))
    assert set(table) == set(real)
    for cmd, cell in table.items():
        assert (None if cell == "no `--format`" else tuple(re.findall(r"`([a-z]+)`", cell))) == real[cmd], cmd
    block = doc[doc.index("## Commands"):doc.index("### `--format`")]
    lines = re.findall(r"^exactdp ([a-z-]+) (.*)$", block, flags=re.M)
    assert {c for c, _ in lines} == set(real)                    # every command has its synopsis
    for cmd, rest in lines:
        said = re.findall(r"--format (\S+?)\]", rest)
        for s in said:
            want = ("text", "json", "markdown", "latex") if s == "F" else tuple(s.split("|"))
            assert want == real[cmd], (cmd, s)
        assert said or real[cmd] is None or "--example" in rest or cmd in ("plot", "proofs"), cmd
