"""Regression tests for issue 17 (a fresh install, tried as a new user would) and issue 20 item 3.

Every case below is one the issue reports, with its exact input.  Where the original input is huge, the
test checks the up-front refusal (exit 2, one line naming the limit and the numbers), which must be cheap:
the refusals run in process, before the work they refuse.  ``--format json`` is checked in a child process
(``sys.executable -m exactdp``) because what broke it was output on the C-level standard output (the HiGHS
banner), which only a real process's stdout shows.
"""

import json
import math
import os
import subprocess
import sys

import pytest

from exactdp.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples", "data")


def run(args, capsys):
    try:
        code = main(args)
    except SystemExit as e:  # argparse's own errors
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return str(p)


def one_error_line(err, *needles):
    """Exactly one line on stderr, no traceback, containing every needle."""
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


def child(args, cwd):
    return subprocess.run([sys.executable, "-m", "exactdp", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")},
                          timeout=300)


# ------------------------------------------------------------------------ every --format json parses ----
#: one small input per subcommand; plot and proofs write files and have no --format (checked below)
def _json_cases(d):
    subset = write(d, "H.json", ["0", "3"])
    mech_h = write(d, "mh.json", {"inputs": ["0", "3"], "outputs": ["a", "b"],
                                  "matrix": [["8/9", "1/9"], ["1/9", "8/9"]]})
    prior3 = write(d, "p3.json", {"probabilities": ["1/3", "1/3", "1/3"]})
    E = EX
    return {
        "certify": (["certify", "--example", "geometric", "--format", "json"], 0, "evidence"),
        "profile": (["profile", f"{E}/rr3.json", "--metric", f"{E}/discrete3.json", "--format", "json"], 0,
                    "evidence"),
        "compose": (["compose", f"{E}/rr3.json", "--metric", f"{E}/discrete3.json", "--times", "3", "--eps", "1",
                     "--format", "json"], 0, "evidence"),
        "epsilon": (["epsilon", f"{E}/rr3.json", "--metric", f"{E}/discrete3.json", "--format", "json"], 0,
                    "evidence"),
        "optimal": (["optimal", "--prior", f"{E}/uniform4.json", "--loss", "absolute", "--n", "3", "--alpha", "1/2",
                     "--format", "json"], 0, "evidence"),
        "remap": (["remap", f"{E}/geometric3.json", "--prior", f"{E}/uniform4.json", "--loss", "absolute",
                   "--alpha", "1/2", "--format", "json"], 0, "remap"),
        "tight": (["tight", f"{E}/path4.json", "--alpha", "1/2", "--format", "json"], 0, "evidence"),
        "regular": (["regular", f"{E}/uniform4.json", "--metric", f"{E}/path4.json", "--alpha", "1/2", "--format",
                     "json"], 0, "evidence"),
        "leakage": (["leakage", f"{E}/rr3.json", "--prior", prior3, "--format", "json"], 0, "evidence"),
        "reproduce": (["reproduce", "GRS12-ex2.2", "--format", "json"], 0, None),
        "extend": (["extend", mech_h, "--metric", f"{E}/path4.json", "--subset", subset, "--alpha", "1/2",
                    "--format", "json"], 0, "evidence"),
        "tradeoff": (["tradeoff", "--metric", f"{E}/discrete3.json", "--gamma", "1", "--delta", "1/5", "--format",
                      "json"], 0, "evidence"),
        "fdp": (["fdp", f"{E}/rr3.json", "--metric", f"{E}/discrete3.json", "--format", "json"], 0, "evidence"),
        "renyi": (["renyi", f"{E}/rr3.json", "--metric", f"{E}/discrete3.json", "--format", "json"], 0, "evidence"),
        "opendp": (["opendp", "laplace", "--scale", "2", "--format", "json"], 0, "holds"),
        "sampler": (["sampler", write(d, "s.py", "from exactdp.samplers.cks20 import bernoulli\n") + ":bernoulli",
                     "--args", "1/3", "--target", write(d, "t.json", {"values": {"0": "2/3", "1": "1/3"}}),
                     "--support=0..1", "--format", "json"], 0, None),
        "program": (["program", os.path.join(ROOT, "examples", "programs", "nm_index_lap.prog"), "--n", "2",
                     "--all-eps", "--format", "json"], 0, "evidence"),
        "audit": (["audit", write(d, "plan.json", [{"mechanism": f"{E}/rr3.json", "times": 2}]), "--metric",
                   f"{E}/discrete3.json", "--eps", "1", "--delta", "1", "--format", "json"], 0, None),
        # a mechanism file is JSON whatever the options (it has no --format)
        "mechanism": (["mechanism", "grr", "--k", "3", "--eps", "1"], 0, "matrix"),
    }


@pytest.mark.slow
def test_batch_prints_one_json_object_per_line(tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps(["certify", "--example", "geometric"]) + "\n"
                    + json.dumps(["epsilon", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json"]) + "\n")
    r = child(["batch", str(jobs)], str(tmp_path))
    assert r.returncode == 0, r.stderr[-500:]
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        json.loads(line)


@pytest.mark.slow
def test_every_command_with_format_json_prints_only_json(tmp_path):
    from exactdp.cli import build_parser

    cases = _json_cases(tmp_path)
    sub = next(a for a in build_parser()._actions if getattr(a, "choices", None) and "certify" in a.choices)
    # every subcommand is covered: the JSON ones here, plot/proofs (no --format) and recheck just below; explain
    # renders a certificate for reading and refuses --format json (tests/test_explain.py)
    assert set(sub.choices) == set(cases) | {"plot", "proofs", "recheck", "batch", "explain"}
    for name, (args, code, key) in cases.items():
        r = child(args, str(tmp_path))
        assert r.returncode == code, (name, r.returncode, r.stderr[-500:])
        obj = json.loads(r.stdout)  # nothing but the JSON on stdout (the HiGHS banner broke this)
        assert key is None or key in obj, (name, list(obj)[:10])
        if name == "optimal":
            (tmp_path / "opt.json").write_text(r.stdout)
    # the pipeline: optimal ... --format json > c.json && exactdp recheck c.json
    r = child(["recheck", "opt.json", "--format", "json"], str(tmp_path))
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "confirmed", r.stdout + r.stderr
    for args in (["plot", "losses", "-o", "f.png"], ["proofs", "--dir", "p"]):  # they write files: no --format
        r = child([*args, "--format", "json"], str(tmp_path))
        assert r.returncode == 2 and "unrecognized arguments: --format json" in r.stderr and r.stdout == ""


# ---------------------------------------------------------------------------------------- tradeoff ----
def test_tradeoff_300_point_discrete_metric_refused_by_the_lp_size(tmp_path, capsys):
    m = write(tmp_path, "d300.json", {"kind": "discrete", "points": [str(i) for i in range(300)]})
    code, out, err = run(["tradeoff", "--metric", m, "--gamma", "1", "--delta", "1/5"], capsys)
    # 300 x 300 + 1 variables; 44,850 pairs x 2 directions x 300 outputs x 2 nonzeros + 90,000 + 300 x 301
    assert code == 2 and out == ""
    one_error_line(err, "90,001 variables", f"{4 * 44_850 * 300 + 90_000 + 300 * 301:,} nonzeros",
                   "44,850 generating pairs", "limit is 400,000")


def test_tradeoff_100_point_path_refused_by_the_float_range(tmp_path, capsys):
    m = write(tmp_path, "p100.json", {"kind": "path", "n": 100})
    code, out, err = run(["tradeoff", "--metric", m, "--gamma", "1", "--delta", "1/5"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, "diameter is 99", "span 2^99", "up to 2^56")


def test_tradeoff_stops_with_its_certified_lower_end_when_the_range_grows_past_the_reach(tmp_path, capsys):
    # path of 20 points: s*(4) < 4/5 (the doubling goes on), and the LP at t = 8 spans 8^19 = 2^57
    m = write(tmp_path, "p20.json", {"kind": "path", "n": 20})
    code, out, err = run(["tradeoff", "--metric", m, "--gamma", "1", "--delta", "1/5"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, "eps* > log(4)", "at t = 8", "t^19 = 2^57")
    from exactdp.metrics import path
    from exactdp.utility.tradeoff import utility_lp

    assert utility_lp(path(20), 4, gamma="1").value < fmpq_(4, 5)  # the lower end it names is certified


def fmpq_(p, q):
    from flint import fmpq

    return fmpq(p, q)


def test_tradeoff_on_a_euclidean_grid_is_unsupported_not_bad_input(tmp_path, capsys):
    m = write(tmp_path, "g3.json", {"kind": "grid", "shape": [3, 3], "norm": "euclidean"})
    code, out, err = run(["tradeoff", "--metric", m, "--gamma", "1", "--delta", "1/5"], capsys)
    assert code == 3 and out == ""  # undecided: a valid metric the route does not support
    line = one_error_line(err, "undecided", "distance sqrt(2) is not an integer", "integer distances only")
    assert "error" not in line


# ------------------------------------------------------------------------------------------ extend ----
def _ends(tmp_path, n):
    last = str(n - 1)
    m = write(tmp_path, f"m{n}.json", {"inputs": ["0", last], "outputs": ["a", "b"],
                                        "matrix": [["2/3", "1/3"], ["1/3", "2/3"]]})
    return m, write(tmp_path, f"p{n}.json", {"kind": "path", "n": n}), write(tmp_path, f"h{n}.json", ["0", last])


@pytest.mark.parametrize("n", [10**6, 10**5])
def test_extend_from_the_ends_of_a_huge_path_refused_up_front(tmp_path, capsys, n):
    # 10^6 points aborted in GMP (exit 134); 10^5 took 44 s and 4.1 GiB
    m, p, h = _ends(tmp_path, n)
    code, out, err = run(["extend", m, "--metric", p, "--subset", h, "--alpha", "1/2"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, f"the metric has {n:,} points", "limit is 50,000 points")


def test_extend_refused_by_the_bits_of_its_exact_entries(tmp_path, capsys):
    # 30,000 points (within the points limit) at alpha = 1/2: e^(eps d(D, H)) = 2^d(D, H), so
    # the entries carry 2 outputs x sum_D d(D, {0, 29999}) = 2 x 2 x (0 + 1 + ... + 14999) bits
    m, p, h = _ends(tmp_path, 30_000)
    code, out, err = run(["extend", m, "--metric", p, "--subset", h, "--alpha", "1/2"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, f"about {4 * (14_999 * 15_000 // 2):,} bits", "limit is 400,000,000 bits")


def test_extend_help_shows_the_level_as_required(capsys):
    code, out, _ = run(["extend", "--help"], capsys)
    assert code == 0
    usage = " ".join(out.split("\n\n")[0].split())
    assert "(--eps EPS | --alpha ALPHA)" in usage and "[--eps" not in usage
    code, _, err = run(["extend", "m.json", "--metric", "p.json", "--subset", "h.json"], capsys)
    assert code == 2 and "one of the arguments --eps --alpha is required" in err


# ----------------------------------------------------------------------------------------- optimal ----
def test_optimal_lp_size_is_the_solvers_measure():
    from exactdp.exact.lp import MAX_LP_SIZE_GUIDED
    from exactdp.optimality.universal import check_lp_size, max_lp_n, user_lp, user_lp_size
    from exactdp.optimality.users import User

    for n in (1, 2, 5):  # counted on the LP actually built
        lp = user_lp(n, fmpq_(1, 2), User.uniform(n, "absolute"))
        assert user_lp_size(n) == lp.n + sum(map(len, lp.A_eq)) + sum(map(len, lp.A_ub))
    n = max_lp_n()
    assert user_lp_size(n) <= MAX_LP_SIZE_GUIDED < user_lp_size(n + 1) and n == 300
    check_lp_size(300)
    with pytest.raises(Exception, match="n <= 300"):
        check_lp_size(301)


def test_optimal_n_1000_refused_before_reading_the_loss(tmp_path, capsys):
    prior = write(tmp_path, "u1000.json", {"probabilities": [f"1/{1001}"] * 1001})
    # the loss file does not exist: the size is refused first, before any input is read
    code, out, err = run(["optimal", "--prior", prior, "--loss", str(tmp_path / "missing.json"), "--n", "1000",
                          "--alpha", "1/2"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, "(n+1)^2 = 1,002,001 variables", "so n <= 300")


# ----------------------------------------------------------------------------------- profile, compose ----
def test_profile_of_a_1500_by_1500_mechanism_refused_up_front(tmp_path, capsys):
    n = 1500
    off = f"1/{2 * (n - 1)}"
    rows = [[("1/2" if i == j else off) for j in range(n)] for i in range(n)]
    mech = write(tmp_path, "rr1500.json", {"inputs": list(range(n)), "outputs": list(range(n)), "matrix": rows})
    metric = write(tmp_path, "d1500.json", {"kind": "discrete", "points": [str(i) for i in range(n)]})
    code, out, err = run(["profile", mech, "--metric", metric], capsys)
    assert code == 2 and out == ""
    one_error_line(err, f"{n * (n - 1):,} ordered neighbour pairs x 1,500 outputs", f"{n * (n - 1) * n:,} cells",
                   "limit is 20,000,000")


def test_compose_at_the_old_documented_maximum_refused_up_front(tmp_path, capsys):
    mech = write(tmp_path, "rr2.json", {"matrix": [["3/4", "1/4"], ["1/4", "3/4"]]})
    metric = write(tmp_path, "d2.json", {"kind": "discrete", "points": ["0", "1"]})
    code, out, err = run(["compose", mech, "--metric", metric, "--times", "100000", "--eps", "1"], capsys)
    assert code == 2 and out == ""
    one_error_line(err, "34,465 x 65,537", "limit is 300,000", "--lattice")


def test_compose_cost_boundary():
    """The up-front refusal is exact for the repeated-squaring schedule (issue 32 item 5): refused iff one of its
    products is over the limit even at the fewest loss values the supports can have."""
    from exactdp.composition.composition import MAX_PRODUCTS, check_composition_cost

    check_composition_cost(2, 1315)           # squaring 513 x 513, last step 292 x 1,025 = 299,300
    assert 292 * 1025 <= MAX_PRODUCTS < 293 * 1025
    with pytest.raises(Exception, match="293 x 1,025"):
        check_composition_cost(2, 1316)
    with pytest.raises(Exception, match="977 x 1,025"):   # three loss values: (m - 1) j + 1 of them after j runs
        check_composition_cost(3, 1000)
    check_composition_cost(3, 500)            # last step 489 x 513 = 250,857
    check_composition_cost(1, 10**5)          # one loss value: the support never grows


def test_the_up_front_refusal_comes_before_any_squaring(monkeypatch):
    """The refused case does no product at all (it was refused after 6 s of squaring before)."""
    from exactdp import discrete, randomized_response
    from exactdp.composition import composition
    from exactdp.composition.composition import certify_composition

    calls = []
    monkeypatch.setattr(composition, "_check_products", lambda a, b: calls.append((a, b)))
    with pytest.raises(Exception, match="exact products in the repeated squaring"):
        certify_composition([(randomized_response(3, "1/4"), 1000)], discrete(3), eps="1")
    assert calls == []


def test_profile_and_compose_take_alpha_for_a_mechanism_written_in_alpha(capsys):
    geo, p4 = f"{EX}/geometric3.json", f"{EX}/path4.json"
    code, _, err = run(["profile", geo, "--metric", p4], capsys)
    assert code == 2
    one_error_line(err, "give --alpha")
    code, out, _ = run(["profile", geo, "--metric", p4, "--alpha", "1/2", "--format", "json"], capsys)
    # the geometric mechanism at alpha = 1/2 is pure log(2)-DP and no better: delta = 0 exactly from e^eps = 2 on,
    # and the level is also the query: delta at eps = log 2 is 0
    ev = json.loads(out)["evidence"]
    assert code == 0 and ev["pieces"][-1]["t_from"] == "2" and ev["pieces"][-1]["A"] == "0"
    assert ev["pieces"][-1]["B"] == "0" and ev["query"]["delta_at_eps"] == "0"
    # two runs are log(4)-DP and not (log 2, 0)-DP: the smallest e^eps at delta = 0 is 4
    code, out, _ = run(["compose", geo, "--metric", p4, "--alpha", "1/2", "--times", "2", "--delta", "0",
                        "--format", "json"], capsys)
    got = json.loads(out)
    assert code == 1 and got["verdict"] == "fails" and got["evidence"]["query"]["t_for_delta"] == "4"
    # a mechanism with exact entries takes the level as the query only
    code, out, _ = run(["profile", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json", "--alpha", "1/2",
                        "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["evidence"]["query"]["delta_at_eps"] is not None
    code, _, err = run(["compose", geo, "--metric", p4, "--times", "2"], capsys)
    assert code == 2
    one_error_line(err, "give --alpha")


# ---------------------------------------------------------------------------------- user mistakes ----
@pytest.mark.parametrize("out_name,needle", [
    ("missing/fig.png", "does not exist"),
    ("fig.xyz", "unknown image extension '.xyz'"),
    ("/dev/full", "no image extension"),
])
def test_plot_output_mistakes_are_exit_2(tmp_path, capsys, out_name, needle):
    out_path = out_name if out_name.startswith("/") else str(tmp_path / out_name)
    code, out, err = run(["plot", "losses", "-o", out_path], capsys)
    assert code == 2 and out == ""
    one_error_line(err, needle)
    assert not os.path.exists("/dev/full.png")


def test_plot_into_an_existing_directory_or_bad_dpi(tmp_path, capsys):
    before = sorted(os.listdir(tmp_path.parent)), sorted(os.listdir(tmp_path))
    code, _, err = run(["plot", "losses", "-o", str(tmp_path)], capsys)
    assert code == 2
    one_error_line(err, "is a directory")
    # nothing written next to it or into it
    assert (sorted(os.listdir(tmp_path.parent)), sorted(os.listdir(tmp_path))) == before
    assert not os.path.exists(str(tmp_path) + ".png")
    code, _, err = run(["plot", "losses", "-o", str(tmp_path / "f.png"), "--dpi", "-5"], capsys)
    assert code == 2
    one_error_line(err, "--dpi: expected 1 <= dpi <= 1,200, got -5")
    assert not os.path.exists(tmp_path / "f.png")


def test_proofs_into_an_unwritable_directory_refused_before_the_work(tmp_path, capsys):
    f = tmp_path / "afile"
    f.write_text("x")
    code, out, err = run(["proofs", "--dir", str(f / "proofs")], capsys)  # under a regular file: not creatable
    assert code == 2 and out == ""
    one_error_line(err, "proofs --dir", "cannot write there")


def test_remap_of_a_mechanism_not_on_0_to_n(capsys):
    code, out, err = run(["remap", f"{EX}/rr3.json", "--prior", f"{EX}/uniform4.json", "--loss", "absolute"],
                         capsys)
    assert code == 2 and out == ""  # was exit 4, KeyError: '0'
    one_error_line(err, "inputs must be the user's results 0..2", "'a'")


# ------------------------------------------------------------------------------------ help and docs ----
def test_top_level_help_states_recheck_and_reconstructed(capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    text = " ".join(out.split())
    for needle in ("recheck, explain: the certificate is confirmed", "recheck, explain: the certificate is refuted",
                   "recheck, explain: not checkable", "reproduced or reconstructed"):
        assert needle in text, needle
    code, out, _ = run(["reproduce", "--help"], capsys)
    assert "reconstructed" in out


def test_reproduce_exits_0_on_a_reconstructed_claim(capsys):
    code, out, _ = run(["reproduce", "KL10-def2.2", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)[0]["status"] == "reconstructed"


def test_the_tutorials_failing_certificate_from_the_command_line(capsys):
    # the tutorial's G = geometric(4, "1/2") on path(5) at eps = 2/3: not private, witness K(2)(0) = 1/6 against
    # K(3)(0) = 1/12 (1/6 > e^(2/3)/12 since e^(2/3) < 2)
    code, out, _ = run(["certify", f"{EX}/geometric4_half.json", "--metric", f"{EX}/path5.json", "--eps", "2/3",
                        "--format", "json"], capsys)
    v = json.loads(out)["evidence"]["violation"]
    assert code == 1 and (v["lhs"], v["rhs"]) == ("1/6", "1/12*exp(2/3)")
    assert math.exp(2 / 3) < 2  # sanity of the hand computation
    # geometric3.json is written in alpha: at --eps 2/3 it is the geometric mechanism at its own level
    code, _, _ = run(["certify", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json", "--eps", "2/3"], capsys)
    assert code == 0


def test_latex_has_no_markdown_emphasis_and_text_fractions_are_plain(capsys):
    code, out, _ = run(["certify", f"{EX}/rr3.json", "--metric", f"{EX}/discrete3.json", "--eps", "1", "--format",
                        "latex"], capsys)
    assert code == 0 and r"\emph{rr3.json}" in out and "*rr3.json*" not in out
    code, out, _ = run(["epsilon", f"{EX}/geometric3.json", "--metric", f"{EX}/path4.json", "--eps", "1/3"], capsys)
    assert code == 0 and "eps^* = 1/3 in" in out and "(1)/(3)" not in out


def test_comparison_counts_agree_in_number():
    from exactdp.privacy.dprivacy import _note
    from exactdp.exact.filter import FilterStats

    assert _note(FilterStats(compared=2, filtered=1, exact=1)).startswith(
        "of 2 distinct comparisons, 1 was settled")
    assert _note(FilterStats(compared=1, exact=1)).startswith(
        "of 1 distinct comparison, 0 were settled")


# ------------------------------------------------------------------------------------ issue 20 item 3 ----
@pytest.mark.slow
def test_tight_on_the_paper_100_by_100_grid_takes_the_quotient_route(tmp_path, capsys):
    grid = write(tmp_path, "GRID100.json", {"kind": "grid", "shape": [100, 100], "norm": "euclidean"})
    code, out, err = run(["tight", grid, "--eps", "1", "--format", "json"], capsys)
    assert code == 0, err
    ev = json.loads(out)["evidence"]
    # the orbits of the square's 8 symmetries on a 100 x 100 grid: the 50 x 50 quarter, cut by its diagonal:
    # 50 * 51 / 2 = 1,275 cells
    assert ev["cells"] == 50 * 51 // 2
    from exactdp.cli.checks import check_phi_route
    from exactdp.io import load_metric

    assert check_phi_route(load_metric(grid), "regular", rhs=[1] * 10_000) == 1_275  # the uniform prior keeps them


def test_tight_refuses_by_the_cells_of_its_route(tmp_path, capsys):
    # a path has only its reversal: 5,000 points are 2,500 cells, beyond the route's 1,500
    p = write(tmp_path, "p.json", {"kind": "path", "n": 5000})
    code, _, err = run(["tight", p, "--alpha", "1/2"], capsys)
    assert code == 2
    one_error_line(err, "quotient of the metric's equitable partition", "2,500 cells for 5,000 points",
                   "limit is 1,500 cells")
