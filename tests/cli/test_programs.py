"""``exactdp program`` (issue 28): every exit code it documents and its bad inputs (one line on stderr, exit 2)."""

import json
from pathlib import Path

import pytest

from exactdp.cli import main

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"


def run(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_private_for_every_eps_exit_0(capsys):
    code, out, err = run(["program", str(SUITE / "svt1.prog"), "--n", "2", "--all-eps"], capsys)
    assert code == 0 and "verdict: holds" in out and err == ""


def test_not_private_for_any_eps_prints_the_pair_and_output(capsys):
    # svt5 at n = 2: output F,T is possible on (1, 0) (rho = 0) and impossible on (0, 1) (rho <= -1 and rho > 0)
    code, out, _ = run(["program", str(SUITE / "svt5.prog"), "--n", "2", "--all-eps"], capsys)
    assert code == 1
    assert "is not eps-DP for any eps > 0" in out
    assert "witness: x = 0,1, x' = 0,0, output F,T" in out
    code, out, _ = run(["program", str(SUITE / "svt5.prog"), "--n", "2", "--eps", "1", "--cost"], capsys)
    assert code == 1 and "epsilon: inf" in out and "probability 0 on 1,0" in out


def test_at_a_level_and_the_json_certificate(capsys):
    code, out, _ = run(["program", str(SUITE / "svt4.prog"), "--n", "2", "--eps", "1", "--format", "json"], capsys)
    assert code == 1
    cert = json.loads(out)
    assert cert["kind"] == "program" and cert["verdict"] == "fails" and cert["evidence"]["question"] == "at_level"
    code, out, _ = run(["program", str(SUITE / "svt4.prog"), "--n", "2", "--eps", "exp(0)", "--format", "json"],
                       capsys)
    assert json.loads(out)["kind"] == "privacy"     # a level not a positive rational: the matrix certificate
    code, out, _ = run(["program", str(SUITE / "partial_sum.prog"), "--n", "2", "--relation", "one-differ",
                        "--eps", "1", "--cost"], capsys)
    assert code == 0 and "epsilon: 1\n" in out


def test_explicit_pairs(tmp_path, capsys):
    f = tmp_path / "pairs.json"
    f.write_text(json.dumps({"pairs": [[[0, 2], [1, 1]]]}))
    code, out, _ = run(["program", str(SUITE / "partial_sum_bad.prog"), "--n", "2", "--relation", str(f),
                        "--all-eps"], capsys)
    assert code == 0 and "1 explicit pairs" in out   # the sums agree on this pair


def test_undecided_exit_3(capsys, monkeypatch):
    from exactdp.privacy import all_eps
    from exactdp.errors import UnsupportedRegime

    def refuse(*args):
        raise UnsupportedRegime("root power beyond the regime")
    monkeypatch.setattr(all_eps, "_root_power", refuse)
    code, out, _ = run(["program", str(SUITE / "svt1.prog"), "--n", "2", "--all-eps", "--form", "matrix"], capsys)
    assert code == 3 and "undecided" in out


@pytest.mark.parametrize("text,extra,msg", [
    ("x = dlap(1)\nif x >= :\n", [], "bad.prog: line 2, column 9: expected a number"),
    ("x = dlap(0)\n", [], "line 1, column 11: noise scale 0/1"),
    ("for i:\n  output y\nend\n", [], "line 2, column 10: undefined variable 'y'"),
    ("output \"a\"\n", ["--domain", "2..0"], "--domain: expected LO <= HI"),
    ("output \"a\"\n", ["--domain", "0-2"], "--domain: expected LO..HI"),
    ("output \"a\"\n", ["--relation", "neighbours"], "--relation: expected one of"),
    ("output \"a\"\n", ["--relation", "missing.json"], "pairs file missing.json"),
    ("output \"a\"\n", ["--n", "0"], "--n: expected an integer >= 1"),
    ("x = dlap(2)\noutput clamp(q[1] + x, 0, 1)\n", ["--alpha", "1/2", "--all-eps"], "not allowed with"),
    ("x = dlap(2)\noutput clamp(q[1] + x, 0, 1)\n", ["--alpha", "1/2"], "t = alpha^(1/2)"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, monkeypatch, capsys, text, extra, msg):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.prog").write_text(text)
    args = ["program", "bad.prog"] + (["--n", "2"] if "--n" not in extra else []) + extra
    if not any(a in extra for a in ("--eps", "--alpha", "--all-eps")):
        args.append("--all-eps")
    with pytest.raises(SystemExit) if "not allowed" in msg else _nothing():
        code, out, err = run(args, capsys)
        assert code == 2 and out == "" and msg in err and err.count("\n") == 1
    if "not allowed" in msg:
        assert msg in capsys.readouterr().err


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_missing_program_file(capsys):
    code, _out, err = run(["program", "/nonexistent/x.prog", "--n", "1", "--all-eps"], capsys)
    assert code == 2 and "program file /nonexistent/x.prog" in err


def test_hist_eps_at_levels_and_refused_for_every_eps(capsys):
    f = str(SUITE / "hist_eps.prog")
    common = ["--n", "1", "--relation", "one-differ"]
    code, out, _ = run(["program", f, *common, "--eps", "1/2"], capsys)
    assert code == 1 and "witness: x = " in out                  # cost 1/eps0 = 2 > 1/2
    code, out, _ = run(["program", f, *common, "--eps", "1"], capsys)
    assert code == 0 and "is eps0-DP" in out                     # cost 1 <= 1: the boundary holds
    code, out, _ = run(["program", f, *common, "--eps", "2", "--cost", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["evidence"]["epsilon"] == "1/2"
    code, out, err = run(["program", f, *common, "--all-eps"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "rational level only" in err


def test_a_partial_failure_set_is_printed(tmp_path, capsys):
    p = tmp_path / "partial.prog"
    p.write_text('z = geo(1)\nw = dlap(3)\nif q[1] + z >= 2:\n  output "T"\nelse:\n  if 2*q[1] + w >= 0:\n'
                 '    output "U"\n  else:\n    output "F"\n  end\nend\n')
    code, out, _ = run(["program", str(p), "--n", "1", "--domain", "0..1", "--all-eps"], capsys)
    assert code == 1 and "it fails exactly for u = e^(-eps/3) in (root of alpha**4 + alpha - 1 in [" in out


def test_running_sums_through_the_command_line(tmp_path, monkeypatch, capsys):
    # smart_sum_bad at n = 3 releases an exact block sum: exit 1 with the pair and output
    code, out, _ = run(["program", str(SUITE / "smart_sum_bad.prog"), "--n", "3", "--relation", "one-differ",
                        "--all-eps"], capsys)
    assert code == 1 and "is not eps-DP for any eps > 0" in out and "witness: x = 0,0,0, x' = 0,1,0" in out
    # a difference of two loop noises is no running sum: refused with the place (exit 2, one line)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "diff.prog").write_text("for i:\n  b = dlap(1)\n  c = dlap(1)\n  if b - c >= q:\n    stop\n"
                                        "  end\nend\n")
    code, out, err = run(["program", "diff.prog", "--n", "2", "--all-eps"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "diff.prog: line 4, column 12: this comparison involves two noises" in err and "mixed signs" in err


def test_new_user_mistakes_are_one_line_exit_2(tmp_path, capsys):
    # a fresh user's audit (issue 31 round): an empty file was certified; n = 10^6 crashed (exit 4: a 477,000-digit
    # count in the message) and n = 10^11 hung; a 9-digit domain was refused as "not integers"
    from exactdp.cli import main

    empty = tmp_path / "empty.prog"
    empty.write_text("", encoding="utf-8")
    svt1 = str(Path(__file__).resolve().parents[2] / "examples" / "programs" / "svt1.prog")
    cases = [([str(empty), "--n", "2", "--all-eps"], "the program is empty"),
             ([svt1, "--n", "1000000", "--all-eps"], "3^1000000 inputs exceed the limit"),
             ([svt1, "--n", "99999999999", "--all-eps"], "3^99999999999 inputs exceed the limit"),
             ([svt1, "--n", "2", "--domain", "0..100000000", "--all-eps"], "integers of at most 6 digits")]
    for args, msg in cases:
        assert main(["program", *args, "--quiet"]) == 2
        err = capsys.readouterr().err
        assert msg in err and len(err.splitlines()) == 1 and len(err) < 300, err


def test_the_matrix_at_a_level_feeds_profile_renyi_and_fdp(tmp_path, capsys):
    """--write-mechanism/--write-metric: the compiled matrix at the level and the relation's graph, read by the
    matrix commands; their answers are the API's on program_mechanism at the same level."""
    from fractions import Fraction

    from exactdp.composition.composition import certify_profile
    from exactdp.programs import neighbour_pairs, parse_program, relation_metric
    from exactdp.programs.check import level_mechanism

    m, d = tmp_path / "m.json", tmp_path / "d.json"
    code, _, err = run(["program", str(SUITE / "svt4.prog"), "--n", "2", "--alpha", "1/16", "--write-mechanism",
                        str(m), "--write-metric", str(d)], capsys)
    assert code == 1 and "wrote" in err and m.exists() and d.exists()
    code, out, _ = run(["profile", str(m), "--metric", str(d), "--delta", "1/100", "--format", "json"], capsys)
    assert code == 0
    p = parse_program((SUITE / "svt4.prog").read_text(), "svt4")
    inputs, pairs = neighbour_pairs("all-differ", 2, (0, 2))
    api = certify_profile(level_mechanism(p, inputs, alpha="1/16"), relation_metric(inputs, pairs),
                          delta=Fraction(1, 100))
    cli = json.loads(out)
    assert cli["evidence"]["query"] == json.loads(json.dumps(api.to_json()))["evidence"]["query"]
    assert cli["claim"].endswith("is log(44273/1220)") and api.claim.endswith("is log(44273/1220)")
    for cmd in (["renyi", str(m), "--metric", str(d), "--orders", "2"], ["fdp", str(m), "--metric", str(d)]):
        code, out, _ = run(cmd, capsys)
        assert code == 0 and "verdict: holds" in out


@pytest.mark.parametrize("extra,msg", [
    (["--all-eps", "--write-mechanism", "m.json"], "write the matrix at a level"),
    (["--eps", "1", "--write-metric", "/nonexistent/d.json"], "does not exist"),
    (["--eps", "1", "--write-mechanism", "."], "a directory"),
])
def test_write_flags_refused_before_the_work(extra, msg, capsys):
    code, out, err = run(["program", str(SUITE / "svt1.prog"), "--n", "2", *extra], capsys)
    assert code == 2 and msg in err and out == ""
