"""Regression tests for issue 8 (hardening), command-line side, and a fuzz test of every command.

Each input below is the one the issue reports.  The fuzz test runs the CLI in a
child process under an address-space limit (``resource.setrlimit``) and checks
that random bytes, random JSON and random expressions always end in exit code
0, 1, 2 or 3 -- never a traceback, never an internal error.
"""

import argparse
import importlib
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import exactdp.cli._app
import exactdp.cli.privacy
from exactdp.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples", "data")
RR2 = {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]}
GEO2 = {"matrix": [["1/(1+alpha)", "alpha/(1+alpha)"], ["alpha/(1+alpha)", "1/(1+alpha)"]]}
PATH2 = {"kind": "path", "n": 2}
COMMANDS = ("certify", "epsilon", "optimal", "remap", "tight", "regular", "leakage", "reproduce", "proofs", "explain")


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    if isinstance(obj, bytes):
        p.write_bytes(obj)
    else:
        p.write_text(obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return str(p)


def one_error_line(err, pattern):
    assert err.startswith("exactdp: error:") and err.count("\n") == 1, err
    assert re.search(pattern, err), err


# ------------------------------------------------------------- exit code 4 ----
@pytest.mark.parametrize("exc", [RuntimeError("boom"), ValueError("a plain ValueError"), KeyError("k"),
                                 AttributeError("'fmpq' object has no attribute 'num'")])
def test_internal_error_exits_4_in_one_line(monkeypatch, capsys, exc):
    def broken(a):
        raise exc
    monkeypatch.setattr(exactdp.cli.privacy, "_cmd_epsilon", broken)
    code, out, err = run(["epsilon", "m.json", "--metric", "p.json"], capsys)
    assert code == 4 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"exactdp: internal error: {type(exc).__name__}")
    assert "this is a bug, please report it" in err and "--debug" in err


def test_debug_shows_the_traceback(monkeypatch):
    def broken(a):
        raise RuntimeError("boom")
    monkeypatch.setattr(exactdp.cli.privacy, "_cmd_epsilon", broken)
    with pytest.raises(RuntimeError, match="boom"):
        main(["epsilon", "m.json", "--metric", "p.json", "--debug"])
    with pytest.raises(RuntimeError, match="boom"):
        main(["--debug", "epsilon", "m.json", "--metric", "p.json"])


def test_every_command_documents_its_exit_codes(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    for code in range(5):
        assert re.search(rf"^  {code}  ", out, re.M), out
    assert "reproduce: a claim" in out and "internal error" in out
    for cmd in COMMANDS:
        with pytest.raises(SystemExit):
            main([cmd, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "exit codes: 0 " in out and "--debug" in out, cmd
        assert ("4 bug" in out) and ("2 bad input" in out or "2 unknown id" in out), cmd
    assert "1 some claim differs from the paper" in " ".join(exactdp.cli._app._CMD_EXITS["reproduce"].split())


def test_the_help_lists_every_command_once_in_its_order_and_the_exit_codes_name_each():
    # the order of `exactdp --help` as it was before the command line became a package (issue 21)
    listed = ["certify", "profile", "compose", "epsilon", "optimal", "remap", "tight", "regular", "leakage",
              "reproduce", "plot", "recheck", "proofs", "extend", "tradeoff", "mechanism", "batch", "fdp", "audit",
              "explain", "renyi", "opendp", "program", "sampler"]
    sub = next(x for x in exactdp.cli._app.build_parser()._actions if isinstance(x, argparse._SubParsersAction))
    assert list(sub.choices) == listed
    modules = [importlib.import_module(f"exactdp.cli.{m}") for m in
               ("privacy", "users", "tools", "extension", "mechanisms", "batch", "programs", "samplers")]
    assert sorted(n for m in modules for n in m.COMMANDS) == sorted(listed)  # each command in exactly one module
    assert set(exactdp.cli._app._CMD_EXITS) == set(listed)
    text = exactdp.cli._app._EXIT_CODES
    assert [c for c in listed if not re.search(rf"(?<![-\w]){c}\b", text)] == []


# ------------------------------------------------------------- bad inputs ----
def test_directory_as_file(tmp_path, capsys):
    p = write(tmp_path, "p.json", PATH2)
    code, _, err = run(["certify", str(tmp_path), "--metric", p, "--eps", "1"], capsys)
    assert code == 2
    one_error_line(err, "is a directory")


@pytest.mark.parametrize("content, pattern", [
    (b"\xff\xfe", r"not UTF-8 text \(byte 0xff at offset 0\)"),
    ("[" * 100_000 + "]" * 100_000, "nested deeper than the decoder allows"),
    ('{"matrix": [["1"]], "matrix": [["1/2", "1/2"], ["1/2", "1/2"]]}', "the key 'matrix' is given twice"),
    ({"matrix": [["1" * 5001]]}, "5001 digits; the limit is 2000"),
    ('{"matrix": [[' + "1" * 5001 + "]]}", "an integer with 5001 digits exceeds the limit 2000"),
    ({"matrix": [["2^2^2^2^2^2"]]}, r"exponent 20035299304068464649\.\.\.9156736 \(19729 digits\)"),
    ({"matrix": [["(2^100000)^100000"]]}, "beyond the limit 1000000 bits"),
    ({"matrix": [["٢/٣", "١/٣"], ["١/٣", "٢/٣"]]}, r"non-ASCII digit '٢' \(U\+0662\)"),
    ({"matrix": [["１/２", "１/２"], ["１/２", "１/２"]]}, r"non-ASCII digit '１' \(U\+FF11\)"),
    ({"matrix": [["2^65536", "1"], ["1/2", "1/2"]]}, r"sums to 20035299304068464649\.\.\.9156737 \(19729 digits\)"),
])
def test_bad_mechanism_files(tmp_path, capsys, content, pattern):
    m = write(tmp_path, "m.json", content)
    p = write(tmp_path, "p.json", PATH2)
    code, out, err = run(["certify", m, "--metric", p, "--eps", "1"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, pattern)
    assert len(err) < 400


def test_malformed_csv(tmp_path, capsys):
    m = write(tmp_path, "m.csv", "1" * 200_000 + ",1\n1,1\n")
    code, _, err = run(["epsilon", m, "--metric", write(tmp_path, "p.json", PATH2)], capsys)
    assert code == 2
    one_error_line(err, r"malformed CSV: field larger than field limit")


def test_prior_points_must_match(tmp_path, capsys):
    m = write(tmp_path, "m.json", RR2)
    pr = write(tmp_path, "prior.json", {"points": ["a", "b"], "probabilities": ["1/2", "1/2"]})
    code, _, err = run(["leakage", m, "--prior", pr], capsys)
    assert code == 2
    one_error_line(err, r"no probability for \['0', '1'\]; not among those points: \['a', 'b'\]")
    pr = write(tmp_path, "prior2.json", {"points": ["0", "0"], "probabilities": ["1/2", "1/2"]})
    code, _, err = run(["leakage", m, "--prior", pr], capsys)
    assert code == 2
    one_error_line(err, "point '0' is listed twice")


def test_plus_zero_chain_is_evaluated(tmp_path, capsys):
    m = write(tmp_path, "m.json", {"matrix": [["1/2" + "+0" * 1000, "1/2"], ["1/2", "1/2"]]})
    code, out, _ = run(["certify", m, "--metric", write(tmp_path, "p.json", PATH2), "--eps", "1"], capsys)
    assert code == 0 and "verdict: holds" in out


def test_unbounded_file_is_read_with_a_bound(monkeypatch, capsys):
    # /dev/zero reports size 0 and never ends: the reader stops at the limit
    monkeypatch.setattr(exactdp.io, "MAX_FILE_BYTES", 3 * 2**20 + 5)
    code, _, err = run(["certify", "/dev/zero", "--metric", "/dev/zero", "--eps", "1"], capsys)
    assert code == 2
    one_error_line(err, r"more than 3145733 bytes exceed the limit 3145733")


def test_piped_stdin_is_read_with_a_bound(tmp_path):
    p = write(tmp_path, "p.json", PATH2)
    r = subprocess.run([sys.executable, "-c", "import sys, exactdp.io as io; io.MAX_FILE_BYTES = 1000; "
                        "from exactdp.cli import main; sys.exit(main(sys.argv[1:]))",
                        "certify", "/dev/stdin", "--metric", p, "--eps", "1"],
                       input=b" " * 5000, capture_output=True, env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 2 and b"exceed the limit 1000" in r.stderr and b"Traceback" not in r.stderr


def test_negative_entry_at_alpha(tmp_path, capsys):
    m = write(tmp_path, "m.json", {"matrix": [["2*alpha", "1-2*alpha"], ["1/2", "1/2"]]})
    code, _, err = run(["certify", m, "--metric", write(tmp_path, "p.json", PATH2), "--alpha", "3/4"], capsys)
    assert code == 2
    one_error_line(err, r"entry \('0', '1'\) = -1/2 is negative")


@pytest.mark.parametrize("dist, code", [("10^400", 0), ("1/10^400", 1)])
def test_huge_and_tiny_distances(tmp_path, capsys, dist, code):
    p = write(tmp_path, "p.json", {"kind": "matrix", "points": ["0", "1"], "distances": [[0, dist], [dist, 0]]})
    got, _out, err = run(["certify", write(tmp_path, "m.json", RR2), "--metric", p, "--eps", "1"], capsys)
    assert got == code and err == ""


@pytest.mark.parametrize("level", [["--eps", "499999999999/1000000000000"], ["--eps", "49999999/100000000"],
                                   ["--eps", "log(3^600)/2"]])
def test_geometric_2x2_at_hard_levels(tmp_path, capsys, level):
    m, d = write(tmp_path, "m.json", GEO2), write(tmp_path, "p.json", PATH2)
    code, out, err = run(["certify", m, "--metric", d, *level], capsys)
    assert code == 0 and "verdict: holds" in out and err == ""


def test_distance_1_over_1000003_at_alpha_half(tmp_path, capsys):
    p = write(tmp_path, "p.json", {"kind": "matrix", "points": ["0", "1"],
                                   "distances": [[0, "1/1000003"], ["1/1000003", 0]]})
    code, out, _ = run(["certify", write(tmp_path, "m.json", GEO2), "--metric", p, "--alpha", "1/2"], capsys)
    assert code == 1 and "K(x)(z) = 2/3 >" in out


def test_parallel_edges_and_duplicate_nodes(tmp_path, capsys):
    m = write(tmp_path, "m.json", RR2)
    p = write(tmp_path, "p.json", {"kind": "graph", "nodes": ["0", "1"], "edges": [["0", "1", 1], ["0", "1", 5]]})
    code, out, _ = run(["epsilon", m, "--metric", p, "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["evidence"]["epsilon"] == "log(2)"
    p = write(tmp_path, "d.json", {"kind": "graph", "nodes": ["0", "1", "0"], "edges": [["0", "1"]]})
    code, _, err = run(["epsilon", m, "--metric", p], capsys)
    assert code == 2
    one_error_line(err, "node '0' is listed twice")


def test_identity_mechanism_epsilon_fails(tmp_path, capsys):
    m = write(tmp_path, "m.json", {"matrix": [[1, 0], [0, 1]]})
    code, out, _ = run(["epsilon", m, "--metric", write(tmp_path, "p.json", PATH2)], capsys)
    assert code == 1 and "verdict: fails" in out and "epsilon: inf" in out
    concl = next(ln for ln in out.splitlines() if ln.startswith("conclusion:"))
    assert "$" not in concl and "\\" not in concl and "not eps d-private for any finite eps" in concl


def test_messages_for_loss_and_decimal_n(tmp_path, capsys):
    pr = write(tmp_path, "prior.json", {"probabilities": ["1/2", "1/2"]})
    code, _, err = run(["optimal", "--prior", pr, "--loss", "hinge", "--n", "1", "--eps", "1"], capsys)
    assert code == 2
    one_error_line(err, "unknown loss 'hinge'; give absolute, squared, binary or a loss file")
    # audit 2026-11-24 defect 10: a name that is a path is a missing file, not an unknown loss
    for missing in ("missing.json", str(tmp_path / "none")):
        code, _, err = run(["optimal", "--prior", pr, "--loss", missing, "--n", "1", "--eps", "1"], capsys)
        assert code == 2
        one_error_line(err, re.escape(f"loss file {missing!r} does not exist (the built-in losses are absolute, "
                                      "squared, binary)"))
    p = write(tmp_path, "p.json", '{"kind": "path", "n": 3.0}')
    code, _, err = run(["epsilon", write(tmp_path, "m.json", RR2), "--metric", p], capsys)
    assert code == 2
    one_error_line(err, "got the decimal number 3.0; write it without a decimal point")


def test_oversized_exact_work_refused_up_front(tmp_path, capsys):
    pr = write(tmp_path, "prior.json", {"probabilities": ["1/2", "1/2"]})
    code, _, err = run(["optimal", "--prior", pr, "--loss", "absolute", "--n", "100000", "--alpha", "1/2"], capsys)
    assert code == 2
    one_error_line(err, r"\(n\+1\)\^2 = 10,000,200,001 variables .* so n <= 300")
    # a path of 5,000 points has 2,500 cells (its reversal): beyond the quotient route's 1,500
    p = write(tmp_path, "p.json", {"kind": "path", "n": 5000})
    code, _, err = run(["tight", p, "--alpha", "1/2"], capsys)
    assert code == 2
    one_error_line(err, "here 2,500 cells for 5,000 points.*the limit is 1,500 cells")
    pr = write(tmp_path, "prior5000.json", {"probabilities": ["1/5000"] * 5000})
    code, _, err = run(["regular", pr, "--metric", p, "--alpha", "1/2"], capsys)
    assert code == 2 and "the limit is 1,500 cells" in err


# ------------------------------------------------------------------- fuzz ----
_FUZZ = textwrap.dedent('''
    import contextlib, io, json, os, resource, sys, tempfile
    resource.setrlimit(resource.RLIMIT_AS, (@MEM@, @MEM@))
    from hypothesis import HealthCheck, given, settings, strategies as st
    import exactdp.cli as cli, exactdp.io, exactdp.metrics.graphs as graphs, exactdp.metrics.databases as dbs
    # the limits are the feature under test elsewhere; smaller ones keep each example fast
    exactdp.io.MAX_FILE_BYTES = 1 << 20
    import exactdp.priors.phi as phi
    phi.MAX_POINTS = phi.MAX_EXACT_CELLS = phi.MAX_VERIFIED_CELLS = phi.MAX_BALL_CELLS = 40
    graphs.MAX_POINTS = dbs.MAX_POINTS = 2000
    D = tempfile.mkdtemp()
    SET = settings(max_examples=@N@, deadline=None, derandomize=True, database=None,
                   suppress_health_check=list(HealthCheck))

    def put(name, data):
        path = os.path.join(D, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes)
                    else json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        return path

    def call(argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as e:
                code = e.code
        e = err.getvalue()
        assert code in (0, 1, 2, 3), (argv, code, e[-600:])
        assert "Traceback" not in e and "internal error" not in e, (argv, e[-600:])

    def commands(f):
        ok = put("ok_m.json", {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]})
        okp = put("ok_p.json", {"kind": "path", "n": 2})
        pr = put("ok_pr.json", {"probabilities": ["1/2", "1/2"]})
        return [["certify", f, "--metric", okp, "--eps", "1"], ["certify", ok, "--metric", f, "--alpha", "1/2"],
                ["certify", f, "--metric", okp, "--all-eps"], ["epsilon", f, "--metric", okp],
                ["epsilon", ok, "--metric", f], ["optimal", "--prior", f, "--loss", "absolute", "--n", "1",
                                                 "--alpha", "1/2"],
                ["optimal", "--prior", pr, "--loss", f, "--n", "1", "--alpha", "1/2"],
                ["remap", f, "--prior", pr, "--loss", "absolute"], ["tight", f, "--alpha", "1/2"],
                ["regular", f, "--metric", okp, "--alpha", "1/2"], ["regular", pr, "--metric", f, "--eps", "1"],
                ["leakage", f, "--prior", pr], ["leakage", ok, "--prior", f]]

    KEYS = st.sampled_from(["kind", "matrix", "n", "points", "nodes", "edges", "distances", "probabilities",
                            "inputs", "outputs", "shape", "norm", "values", "individuals", "ground", "step"])
    KINDS = st.sampled_from(["graph", "matrix", "path", "cycle", "grid", "hamming", "discrete", "subsets"])
    TOK = st.sampled_from(["0", "1", "2", "3", "10", "1/2", ".5", "1e3", "9", "alpha", "eps", "exp(", "log(",
                           "sqrt(", "(", ")", "+", "-", "*", "/", "^", "**", " ", "inf", "nan", "x", "٣", "9^9^9"])
    EXPR = st.one_of(st.lists(TOK, max_size=14).map("".join), st.text(max_size=20))
    LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(),
                     st.floats(allow_nan=False, allow_infinity=False), EXPR, KINDS)
    JSON = st.recursive(LEAF, lambda c: st.one_of(st.lists(c, max_size=4),
                                                  st.dictionaries(st.one_of(KEYS, st.text(max_size=5)), c,
                                                                  max_size=5)), max_leaves=24)
    SPEC = st.fixed_dictionaries({"kind": KINDS}, optional={k: JSON for k in
                                 ["n", "points", "nodes", "edges", "distances", "shape", "norm", "values",
                                  "individuals", "ground", "step"]})

    @SET
    @given(st.binary(max_size=300))
    def fuzz_bytes(b):
        for argv in commands(put("b.json", b)):
            call(argv)
        call(["epsilon", put("b.csv", b), "--metric", put("p2.json", {"kind": "path", "n": 2})])

    @SET
    @given(st.one_of(JSON, SPEC))
    def fuzz_json(obj):
        for argv in commands(put("j.json", obj)):
            call(argv)

    @SET
    @given(EXPR, EXPR)
    def fuzz_expressions(e1, e2):
        m = put("e.json", {"matrix": [[e1, e2], ["1/2", "1/2"]]})
        okp = put("p.json", {"kind": "matrix", "points": ["0", "1"], "distances": [[0, e2], [e2, 0]]})
        for argv in (["certify", m, "--metric", okp, "--eps", "1"], ["epsilon", m, "--metric", okp],
                     ["certify", put("rr.json", {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]}), "--metric", okp,
                      "--eps", e1], ["tight", put("pp.json", {"kind": "path", "n": 3}), "--alpha", e1],
                     ["reproduce", e1]):
            call(argv)

    NUM = st.one_of(st.integers(-2, 4), st.sampled_from(["1/2", "2/3", "0", "sqrt(2)", "exp(-1)", "alpha",
                                                          "alpha/(1+alpha)", "1/(1+alpha)", "inf", "10^400",
                                                          "1/10^400", "-1", "log(2)", "eps", "0.5"]))
    LBL = st.sampled_from(["0", "1", "2", "a", 0, 1])
    SPECS = st.one_of(
        st.fixed_dictionaries({"kind": st.just("graph"), "nodes": st.lists(LBL, max_size=3),
                               "edges": st.lists(st.lists(st.one_of(LBL, NUM), min_size=2, max_size=3), max_size=4)}),
        st.fixed_dictionaries({"kind": st.just("matrix"), "points": st.lists(LBL, min_size=1, max_size=3),
                               "distances": st.lists(st.lists(NUM, max_size=3), max_size=3)}),
        st.fixed_dictionaries({"kind": st.sampled_from(["path", "cycle", "discrete"]),
                               "n": st.one_of(st.integers(-1, 4), NUM), "points": st.lists(LBL, max_size=3)}),
        st.fixed_dictionaries({"kind": st.just("grid"), "shape": st.lists(st.integers(0, 2), max_size=3),
                               "norm": st.sampled_from(["manhattan", "euclidean", "x"]), "step": NUM}))
    MECHS = st.fixed_dictionaries({"matrix": st.lists(st.lists(NUM, min_size=1, max_size=3), min_size=1, max_size=3)},
                                  optional={"inputs": st.lists(LBL, max_size=3), "outputs": st.lists(LBL, max_size=3)})
    PRIORS = st.fixed_dictionaries({"probabilities": st.lists(NUM, max_size=3)},
                                   optional={"points": st.lists(LBL, max_size=3)})
    LEVELS = st.sampled_from([["--eps", "1"], ["--alpha", "1/2"], ["--eps", "log(2)/2"], ["--eps", "sqrt(2)"]])

    @SET
    @given(MECHS, SPECS, PRIORS, LEVELS)
    def fuzz_structured(m, s, pr, lv):
        M, S, P = put("sm.json", m), put("ss.json", s), put("sp.json", pr)
        for argv in (["certify", M, "--metric", S] + lv, ["certify", M, "--metric", S, "--all-eps"],
                     ["epsilon", M, "--metric", S] + lv, ["tight", S] + lv, ["regular", P, "--metric", S] + lv,
                     ["leakage", M, "--prior", P] + lv, ["remap", M, "--prior", P, "--loss", "absolute"] + lv,
                     ["optimal", "--prior", P, "--loss", put("sl.json", m), "--n", "1"] + lv):
            call(argv)

    fuzz_bytes()
    fuzz_json()
    fuzz_expressions()
    fuzz_structured()
    print("fuzz ok")
''')


@pytest.mark.slow
def test_fuzz_every_command_under_a_memory_limit(tmp_path):
    script = tmp_path / "fuzz.py"
    script.write_text(_FUZZ.replace("@MEM@", str(2 << 30)).replace("@N@", "20"))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "PYTHONPATH": ROOT})
    assert r.returncode == 0 and "fuzz ok" in r.stdout, (r.stdout[-2000:], r.stderr[-4000:])


# ------------------------------------------------------------- Ctrl-C (audit 2026-11-24, defect 4) ----
def _interrupted(code: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``code`` (which prints 'ready' once the interruptible part starts) with ``args``, send SIGINT."""
    import signal
    p = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert p.stdout is not None
    assert p.stdout.readline() == b"ready\n"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


_SLOW = ("import sys, time, exactdp.cli.{mod} as m\n"
         "def slow(a):\n    print('ready', flush=True)\n    {body}\n"
         "m.{fn} = slow\n"
         "from exactdp.cli import main\nsys.exit(main(sys.argv[1:]))\n")


@pytest.mark.parametrize("debug", [[], ["--debug"]])
def test_ctrl_c_is_one_quiet_line_and_exit_130(tmp_path, debug):
    # the command's own work is interrupted: a sleep in place of the solve, so SIGINT lands inside it
    code = _SLOW.format(mod="privacy", fn="_cmd_epsilon", body="time.sleep(60)")
    p = write(tmp_path, "p.json", PATH2)
    r = _interrupted(code, *debug, "epsilon", p, "--metric", p)
    assert (r.returncode, r.stdout, r.stderr) == (130, b"", b"exactdp: interrupted\n")


def test_ctrl_c_inside_exact_work_is_one_quiet_line(tmp_path):
    # a real run (an optimal-mechanism LP on 301 points, many seconds) interrupted once the child says it is
    # inside the exact work (issue 32: a timer made this depend on the machine being idle -- on a busy machine
    # the signal landed during the imports)
    code = ("import sys, exactdp.optimality.universal as o\n"
            "real = o.certify_universal_optimality\n"
            "def inside(*a, **k):\n    print('ready', flush=True)\n    return real(*a, **k)\n"
            "o.certify_universal_optimality = inside\n"
            "from exactdp.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    prior = tmp_path / "u.json"
    prior.write_text(json.dumps({"probabilities": ["1/301"] * 301}))
    r = _interrupted(code, "optimal", "--prior", str(prior), "--loss", "absolute", "--n", "300", "--alpha", "1/2")
    assert (r.returncode, r.stdout, r.stderr) == (130, b"", b"exactdp: interrupted\n")


_AT_START = ("import sys, time\n"
             "class Hold:  # holds the import of exactdp.certificate (inside exactdp/__init__) until the signal\n"
             "    def find_spec(self, name, path=None, target=None):\n"
             "        if name == 'exactdp.certificate':\n"
             "            print('ready', flush=True)\n            time.sleep(60)\n"
             "sys.meta_path.insert(0, Hold())\n")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["console script", "python -m exactdp"])
def test_ctrl_c_during_start_up_is_one_quiet_line(tmp_path, how):
    """issue 32: Ctrl-C while the command line is still importing is one line and exit 130 (was a traceback)."""
    import signal

    (tmp_path / "sitecustomize.py").write_text(_AT_START)  # runs at start-up, before the command's imports
    p = write(tmp_path, "p.json", PATH2)
    args = ([sys.executable, "-c", "import sys; sys.argv[0] = '/usr/bin/exactdp'\nfrom exactdp.cli import main\n"
             "sys.exit(main())"] if how == "console script" else [sys.executable, "-m", "exactdp"])
    proc = subprocess.Popen([*args, "epsilon", p, "--metric", p], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"})
    assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, out, err) == (130, b"", b"exactdp: interrupted\n")


@pytest.mark.slow
def test_a_library_import_keeps_the_ordinary_ctrl_c():
    """The start-up handler is the command line's only: importing exactdp leaves SIGINT as Python's."""
    import signal

    r = subprocess.run([sys.executable, "-c", "import signal, exactdp\n"
                        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT}, timeout=120)
    assert r.stdout == "True\n" and signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.slow
def test_ctrl_c_in_batch_ends_the_batch(tmp_path):
    """issue 32: Ctrl-C in a batch job was that job's exit 130 and the batch went on; now it ends the batch."""
    code = ("import sys, time, exactdp.cli.privacy as m\n"
            "def slow(a):\n    print('ready', file=sys.__stdout__, flush=True)\n    time.sleep(60)\n"
            "m._cmd_epsilon = slow\n"
            "from exactdp.cli import main\nsys.exit(main(sys.argv[1:]))\n")
    p = write(tmp_path, "p.json", PATH2)
    jobs = write(tmp_path, "jobs.jsonl", "\n".join(json.dumps(["epsilon", p, "--metric", p]) for _ in range(3)))
    r = _interrupted(code, "batch", jobs)
    assert (r.returncode, r.stdout, r.stderr) == (130, b"", b"exactdp: interrupted\n")


def test_an_empty_value_is_named_as_empty(tmp_path, capsys):
    # audit 2026-11-24 defect 10: --eps '' was given (and is empty); it is not a missing flag
    m, p = write(tmp_path, "m.json", RR2), write(tmp_path, "p.json", PATH2)
    for args, name in ((["certify", m, "--metric", p, "--eps", ""], "--eps"),
                       (["certify", m, "--metric", p, "--alpha", "  "], "--alpha"),
                       (["certify", "", "--metric", p, "--eps", "1"], "MECHANISM")):
        with pytest.raises(SystemExit) as e:
            main(args)
        err = capsys.readouterr().err
        assert e.value.code == 2 and err.count("\n") == 1, err
        assert f"argument {name}: the value given is empty" in err


def test_proofs_dir_needs_an_existing_parent_like_plot(tmp_path, capsys):
    # audit 2026-11-24 defect 12: proofs --dir created /nonexistent/x (and its parents); plot -o refuses
    target = tmp_path / "none" / "x"
    code, out, err = run(["proofs", "--dir", str(target)], capsys)
    assert (code, out) == (2, "") and not (tmp_path / "none").exists()
    one_error_line(err, re.escape(f"proofs --dir {str(target)!r}: the directory {str(tmp_path / 'none')!r} "
                                  "does not exist"))


def test_a_reader_that_stops_early_gives_exit_141(tmp_path):
    # audit 2026-11-24 defect 6: 400 KB of output, the reader takes 10 bytes and closes: the short write was
    # dropped silently (exit 0); now the rest of the write meets the closed pipe (exit 141, nothing on stderr)
    m, p = write(tmp_path, "m.json", RR2), write(tmp_path, "p.json", PATH2)
    # (--format json: the text format now cuts a long value to its ends, issue 32; the JSON keeps it whole)
    proc = subprocess.Popen([sys.executable, "-m", "exactdp", "certify", m, "--metric", p, "--eps", "10^100000",
                             "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                            env={**os.environ, "PYTHONPATH": ROOT})
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10) == b'{\n  "schem'
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert (proc.wait(timeout=120), err) == (141, b"")


# ------------------------------------------------- issue 32: the environment's errors are not bugs ----
@pytest.mark.slow
def test_stdout_to_dev_full_or_closed_is_one_line_exit_2():
    cmd = [sys.executable, "-m", "exactdp", "certify", "--example", "geometric", "--format", "json"]
    env = {**os.environ, "PYTHONPATH": ROOT}
    with open("/dev/full", "w") as full:
        r = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    assert (r.returncode, r.stderr) == (2, "exactdp: error: cannot write the output (standard output): No space "
                                           "left on device\n")
    r = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *cmd], stderr=subprocess.PIPE, text=True, env=env,
                       timeout=120)
    assert r.returncode == 2 and r.stderr.startswith("exactdp: error: standard output is closed") \
        and r.stderr.count("\n") == 1


@pytest.mark.parametrize("scale,pattern", [("10^400", r"--scale: '10\^400' is above the range of the floats"),
                                           ("10^-400", r"--scale: '10\^-400' is below the range"),
                                           ("0", r"--scale: expected a rational > 0")])
def test_an_opendp_scale_beyond_the_floats_is_bad_input(capsys, scale, pattern):
    code, out, err = run(["opendp", "laplace", "--scale", scale], capsys)
    assert (code, out) == (2, "")
    one_error_line(err, pattern)


def test_a_scheduler_address_dask_cannot_read_is_bad_input(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    jobs = write(tmp_path, "jobs.jsonl", json.dumps(["certify", "--example", "geometric", "--eps", "1/2"]))
    code, out, err = run(["batch", jobs, "--scheduler", "notanaddress"], capsys)
    assert (code, out) == (2, "")
    one_error_line(err, r"batch: cannot reach the Dask scheduler 'notanaddress': .*port")


def test_json_on_stdout_also_when_undecided(tmp_path, capsys):
    """issue 32: --format json printed nothing on exit 3 for optimal and tradeoff."""
    half = write(tmp_path, "half.json", {"kind": "matrix", "points": ["a", "b", "c"],
                                         "distances": [[0, "1/2", 1], ["1/2", 0, "1/2"], [1, "1/2", 0]]})
    u3 = write(tmp_path, "u3.json", {"probabilities": ["1/3"] * 3})
    for args in (["tradeoff", "--metric", half, "--gamma", "1", "--delta", "1/2"],
                 ["optimal", "--prior", u3, "--loss", "absolute", "--n", "2", "--eps", "sqrt(2)"]):
        code, out, err = run([*args, "--format", "json"], capsys)
        d = json.loads(out)
        assert code == 3 and d["command"] == args[0] and d["verdict"] == "undecided"
        assert err == f"exactdp: undecided: {d['reason']}\n" and d["reason"]
        code, out, err = run(args, capsys)            # text: stdout stays empty, the reason on stderr
        assert (code, out) == (3, "") and err.startswith("exactdp: undecided: ")


@pytest.mark.parametrize("cmd", ["recheck", "explain"])
def test_an_unknown_certificate_kind_is_not_a_certificate(tmp_path, capsys, cmd):
    """docs/explain.md: an unknown kind is 'not a certificate', exit 2 (it was 'not checkable', exit 3)."""
    code, out, _ = run(["certify", "--example", "geometric", "--format", "json"], capsys)
    cert = json.loads(out)
    assert run([cmd, write(tmp_path, "ok.json", cert)], capsys)[0] == 0
    cert["kind"] = "no_such_kind"
    code, out, err = run([cmd, write(tmp_path, "bad.json", cert)], capsys)
    assert (code, out) == (2, "")
    one_error_line(err, r"not a certificate: unknown kind 'no_such_kind'; known: all_eps, ")
