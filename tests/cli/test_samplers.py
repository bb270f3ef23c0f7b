"""``exactdp sampler`` (issue 30): every exit code it documents and every bad input in one line."""

import json
import textwrap

import pytest

from exactdp.cli import main

CKS = ("from exactdp.samplers.cks20 import (bernoulli, bernoulli_exp01, bernoulli_exp, geometric_exp_slow,\n"
       "    _fast_round, geometric_exp_fast, _dlaplace_round, dlaplace)\n")
S = "bernoulli_exp01,bernoulli_exp,geometric_exp_slow,_fast_round,geometric_exp_fast,_dlaplace_round"
FAST = ["--depth", "50", "--tol", "1e-10", "--bits", "64", "--width", "1e-6"]


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return str(p)


def test_matches_exits_0(tmp_path, capsys):
    f = write(tmp_path, "s.py", CKS)
    code, out, err = run(["sampler", f + ":dlaplace", "--args", "3/2", "--target", "dlaplace:3/2",
                          "--support=-2..2", "--summarise", S, *FAST], capsys)
    assert code == 0 and "matches" in out and err == ""
    assert out.count("inside") == 5 and "privacy: the additive mechanism" in out


def test_the_division_slip_differs_exits_1_with_the_exact_witness(tmp_path, capsys):
    f = write(tmp_path, "s.py", "from exactdp.samplers import cks20\n"
                                "globals().update({k: v for k, v in vars(cks20.variant('division')).items() "
                                "if not k.startswith('__')})\n")
    code, out, err = run(["sampler", f + ":dlaplace", "--args", "3/2", "--target", "dlaplace(3/2)",
                          "--support=-2..2", "--summarise", S, "--format", "json", *FAST], capsys)
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "differs" and err == ""
    w = data["witness"]
    assert w["status"] in ("below", "above") and "/" in w["lo"] and "/" in w["hi"]


def test_an_integer_argument_is_passed_as_a_fraction(tmp_path, capsys):
    f = write(tmp_path, "s.py", "def f(rng, s):\n    return type(s).__name__ == 'Fraction' and 1 / s == s\n")
    code, out, _ = run(["sampler", f + ":f", "--args", "1", "--target", "bernoulli_exp:0", "--support", "0..1",
                        "--width", "0"], capsys)
    assert code == 0 and "matches" in out


def test_too_shallow_is_undecided_exits_3(tmp_path, capsys):
    f = write(tmp_path, "s.py", CKS)
    code, out, _ = run(["sampler", f + ":bernoulli_exp", "--args", "1/2", "--target", "bernoulli_exp:1/2",
                        "--support", "0..1", "--depth", "3", "--format", "summary"], capsys)
    assert code == 3 and "undecided" in out and "by a factor" in out


@pytest.mark.parametrize("body,extra,pattern", [
    ("def f(rng:\n", [], "does not import: SyntaxError"),
    ("raise RuntimeError('boom')\n", [], "does not import: RuntimeError: boom"),
    ("import random\ndef f(rng):\n    return random.random() < 0.5\n", [], "calls random.random"),
    ("def f(rng):\n    return rng.random() < 0.5\n", [], "calls rng.random"),
    ("def f(rng):\n    return rng.randrange(0)\n", [], r"empty range \(m = 0 < 1\)"),
    ("def g(rng):\n    return 0\n", [], "has no function 'f'"),
    ("def f(rng):\n    return 0\n", ["--support", "3..1"], "LO <= HI"),
    ("def f(rng):\n    return 0\n", ["--support", "a..b"], "LO..HI"),
    ("def f(rng):\n    return 0\n", ["--target", "laplace:1"], "unknown target"),
    ("def f(rng):\n    return 0\n", ["--args", "x"], "not an exact number"),
    ("def f(rng):\n    return 0\n", ["--summarise", "nope"], "'nope' is not a function"),
    ("def f(rng):\n    return 0\n", ["--depth", "-1"], "depth"),
])
def test_bad_input_exits_2_in_one_line(tmp_path, capsys, body, extra, pattern):
    import re

    f = write(tmp_path, "bad.py", body)
    args = ["sampler", f + ":f", "--target", "bernoulli_exp:1", "--support", "0..1"]
    # later options override earlier ones of the same name
    code, out, err = run(args + extra, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and re.search(pattern, err), err


def test_a_missing_file_and_a_bad_spec(tmp_path, capsys):
    code, _, err = run(["sampler", str(tmp_path / "no.py") + ":f", "--target", "dlaplace:1", "--support", "0..1"],
                       capsys)
    assert code == 2 and "no file" in err
    code, _, err = run(["sampler", "nofunction", "--target", "dlaplace:1", "--support", "0..1"], capsys)
    assert code == 2 and "FILE.py:FUNCTION" in err


@pytest.mark.parametrize("extra,pattern", [(["--eps", "x", "--delta", "0"], "eps must be"),
                                           (["--eps", "1", "--delta", "3/2"], "delta must be"),
                                           (["--delta", "0"], "--eps and --delta"),
                                           (["--sensitivity", "0"], "--sensitivity must be")])
def test_a_bad_privacy_question_exits_2_in_one_line(tmp_path, capsys, extra, pattern):
    f = write(tmp_path, "s.py", "def tri(rng):\n    return rng.randrange(3) - rng.randrange(3)\n")
    code, out, err = run(["sampler", f + ":tri", "--target", "dlaplace:1", "--support=-2..2", *extra], capsys)
    assert code == 2 and out == "" and pattern in err and err.count("\n") == 1


def test_a_support_over_the_limit_is_refused_before_the_sampler_runs(tmp_path, capsys):
    # a fresh user's audit: without --summarise the sampler was explored for minutes before the support was
    # checked; a sampler that would never finish shows the refusal comes first
    f = write(tmp_path, "s.py", "def f(rng):\n    while True:\n        rng.randrange(2)\n")
    code, out, err = run(["sampler", f + ":f", "--target", "dlaplace:1", "--support=-99999999999..99999999999"],
                         capsys)
    assert code == 2 and out == "" and "at most 100001 values are compared" in err and len(err.splitlines()) == 1
