"""Nothing but the output on stdout (CONTRIBUTING.md, Habits): third-party banners are silenced before their
first call, in the library as in the command line (issue 17: highspy 1.16 prints its banner on stdout when
the first solver object of a process is built)."""

import json
import subprocess
import sys

import pytest


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_building_a_solver_prints_nothing():
    r = _run("from exactdp.exact.lp_float import quiet_highs; quiet_highs(); quiet_highs()")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""


def test_an_exact_lp_through_the_library_prints_nothing():
    # the GRS12 user LP: HiGHS guides it; the library's stdout stays empty
    code = (
        "from exactdp.exact.lp import LinearProgram, solve_lp\n"
        "sol = solve_lp(LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2]))\n"
        "assert sol.value == 8, sol.value\n")
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize("loss", ["absolute", "squared"])
def test_optimal_json_parses(tmp_path, loss):
    prior = tmp_path / "prior.json"
    prior.write_text(json.dumps({"probabilities": ["1/4", "1/4", "1/4", "1/4"]}))
    r = subprocess.run([sys.executable, "-m", "exactdp", "optimal", "--prior", str(prior), "--loss", loss,
                        "--n", "3", "--alpha", "1/2", "--format", "json"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode in (0, 1), r.stderr
    data = json.loads(r.stdout)
    assert data["schema"] == "exactdp-certificate" and data["verdict"] in ("holds", "fails")
