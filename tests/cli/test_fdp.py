"""``exactdp fdp`` and ``exactdp plot fdp`` (issue 22 item 3): exact vertices in text and JSON (checked by hand),
the certified mu bracket, ``--mu`` exit 0 / 1 on both sides of the bracket, and exit 2 on every bad input."""

import json
from fractions import Fraction as Fr

import pytest

from exactdp.cli import main


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


@pytest.fixture
def files(tmp_path):
    rr = {"inputs": ["0", "1"], "outputs": ["0", "1"], "matrix": [["3/4", "1/4"], ["1/4", "3/4"]]}
    return {"rr": write(tmp_path, "rr.json", rr),
            "sym": write(tmp_path, "sym.json", {"matrix": [["1/(1+alpha)", "alpha/(1+alpha)"],
                                                           ["alpha/(1+alpha)", "1/(1+alpha)"]]}),
            "metric": write(tmp_path, "d.json", {"kind": "discrete", "points": ["0", "1"]})}


def test_text(files, capsys):
    code, out, err = run(["fdp", files["rr"], "--metric", files["metric"]], capsys)
    assert code == 0 and err == ""
    assert "has vertices (0, 1), (1/4, 1/4), (1, 0)" in out and "mu* in [" in out


def test_json_two_fold(files, capsys):
    # P^2 = (9, 3, 3, 1)/16 against Q^2 = (1, 3, 3, 9)/16: vertices (1/16, 7/16), (7/16, 1/16)
    code, out, err = run(["fdp", files["rr"], "--metric", files["metric"], "--times", "2", "--format", "json"], capsys)
    obj = json.loads(out)
    assert code == 0 and err == "" and obj["kind"] == "fdp" and obj["verdict"] == "holds"
    ev = obj["evidence"]
    assert [[v["a"], v["b"]] for v in ev["vertices"]] == [["0", "1"], ["1/16", "7/16"], ["7/16", "1/16"], ["1", "0"]]
    assert ev["times"] == 2
    lo, hi = Fr(ev["mu"]["lo"]), Fr(ev["mu"]["hi"])
    assert 0 < hi - lo <= Fr(1, 1000)


@pytest.mark.parametrize("mu,code", [("27/20", 0), ("67/50", 1), ("100", 0), ("0", 1)])
def test_mu_check(files, capsys, mu, code):
    # one vertex (1/4, 1/4): mu* = 2 Phi^-1(3/4) = 1.3489795...
    c, out, err = run(["fdp", files["rr"], "--metric", files["metric"], "--mu", mu, "--format", "json"], capsys)
    obj = json.loads(out)
    assert c == code and obj["verdict"] == ("holds" if code == 0 else "fails") and err == ""
    assert obj["evidence"]["mu_query"] == mu


@pytest.mark.parametrize("fmt,marker", [("markdown", "**Claim.**"), ("latex", "\\begin")])
def test_other_formats(files, capsys, fmt, marker):
    code, out, err = run(["fdp", files["rr"], "--metric", files["metric"], "--format", fmt], capsys)
    assert code == 0 and err == "" and marker in out


@pytest.mark.parametrize("extra,match", [
    (["--times", "0"], "--times"),
    (["--mu-width", "0"], "width"),
    (["--mu", "-1"], "mu"),
    (["--mu", "abc"], "mu"),
])
def test_bad_options(files, capsys, extra, match):
    code, out, err = run(["fdp", files["rr"], "--metric", files["metric"], *extra], capsys)
    assert code == 2 and out == "" and match in err and len(err.splitlines()) == 1


def test_bad_files(files, capsys, tmp_path):
    code, out, err = run(["fdp", files["sym"], "--metric", files["metric"]], capsys)
    assert code == 2 and out == "" and "alpha" in err
    code, out, err = run(["fdp", str(tmp_path / "missing.json"), "--metric", files["metric"]], capsys)
    assert code == 2 and out == ""
    bad = write(tmp_path, "bad.json", {"matrix": [["1/2", "1/4"], ["1/4", "3/4"]]})
    code, out, err = run(["fdp", bad, "--metric", files["metric"]], capsys)
    assert code == 2 and out == ""
    code, out, err = run(["fdp", files["rr"], "--metric", write(tmp_path, "m.json", {"kind": "path", "n": 3})], capsys)
    assert code == 2 and out == ""


def test_plot_fdp(files, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    png = str(tmp_path / "f.png")
    code, out, err = run(["plot", "fdp", files["rr"], "--metric", files["metric"], "--times", "3", "-o", png], capsys)
    assert code == 0 and out == f"wrote {png}\n" and (tmp_path / "f.png").stat().st_size > 1000
    code, out, err = run(["plot", "fdp", files["rr"], "-o", png], capsys)
    assert code == 2 and "--metric" in err


def test_undecided_is_exit_3(files, capsys, monkeypatch):
    # no precision left: the bracket cannot be certified, which is said plainly (never a guess)
    import exactdp.divergences.fdp as fdp

    monkeypatch.setattr(fdp, "MAX_PREC", 32)
    code, out, err = run(["fdp", files["rr"], "--metric", files["metric"]], capsys)
    assert code == 3 and out == "" and err.startswith("exactdp: undecided: gaussian_mu")
    code, out, err = run(["fdp", files["rr"], "--metric", files["metric"], "--mu", "1"], capsys)
    assert code == 3 and out == ""
