"""Progress of long single runs (issue 11): a generic callback in the engines, lines on stderr in the CLI
only on a terminal and never with --quiet."""

import json
import os
import pty
import subprocess
import sys

import pytest

from exactdp.exact.level import Level
from exactdp.metrics import grid, path
from exactdp.priors.regular import regular_prior, tight_constraints
from exactdp.priors.threshold import threshold

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_engines_report_steps_to_the_callback_and_print_nothing(capsys):
    seen = []

    def record(stage, done, total):
        assert done is None and total is None      # these steps have no count
        seen.append(stage)
    c = tight_constraints(path(4), Level.from_alpha("1/2"), progress=record)
    assert c.holds is True
    assert seen == ["distances and symmetries of 4 points", "solving Phi z = 1 (4 points)"]
    seen.clear()
    regular_prior(["1/4"] * 4, path(4), Level.from_alpha("1/2"), progress=record)
    assert seen == ["distances and symmetries of 4 points", "solving mu Phi = pi (4 points)",
                    "checking Props. 1 and 2"]
    seen.clear()
    t = threshold(grid((5, 5), "euclidean"), progress=record)
    assert t.evidence.route == "bracket"
    assert seen[:2] == ["exact polynomial route on the quotient", "float-guided bisection"]
    assert seen[2].startswith("certifying existence at eps = 0.") and seen[3].startswith("certifying non-existence")
    # without a callback the library is silent
    tight_constraints(path(4), Level.from_alpha("1/2"))
    assert capsys.readouterr() == ("", "")


def _metric_file(tmp_path, side):
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"kind": "grid", "shape": [side, side], "norm": "euclidean"}))
    return str(f)


def _run_with_tty_stderr(args):
    """Run the CLI with stderr on a pseudo-terminal; return (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": ROOT}
    p = subprocess.Popen([sys.executable, "-m", "exactdp", *args], stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            b = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not b:
            break
        chunks.append(b)
    out = p.stdout.read().decode()
    p.stdout.close()
    code = p.wait()
    os.close(master)
    return code, out, b"".join(chunks).decode(errors="replace")


@pytest.mark.skipif(not hasattr(pty, "openpty") or sys.platform == "win32", reason="needs a pseudo-terminal")
def test_cli_tight_shows_progress_on_a_real_terminal(tmp_path):
    m = _metric_file(tmp_path, 18)      # 324 points: above the reporting size
    code, out, err = _run_with_tty_stderr(["tight", m, "--eps", "1"])
    assert code == 0 and "exists" in out
    assert "exactdp tight: solving Phi z = 1 (324 points) ..." in err
    assert err.endswith("\r\x1b[K")         # the line is cleared before the result


def _main_on_a_terminal(args, capsys, monkeypatch):
    from exactdp.cli import main
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_progress_in_process(tmp_path, capsys, monkeypatch):
    from exactdp.cli import main
    m = _metric_file(tmp_path, 18)
    code, _out, err = _main_on_a_terminal(["tight", m, "--threshold"], capsys, monkeypatch)
    assert code == 0 and "exactdp tight: float-guided bisection ..." in err
    code, _out, err = _main_on_a_terminal(["tight", m, "--eps", "1", "--quiet"], capsys, monkeypatch)
    assert code == 0 and err == ""
    prior = tmp_path / "p.json"
    prior.write_text(json.dumps({"probabilities": [f"1/{18 * 18}"] * (18 * 18)}))
    code, _out, err = _main_on_a_terminal(["regular", str(prior), "--metric", m, "--eps", "1"], capsys, monkeypatch)
    assert code == 0 and "exactdp regular: solving mu Phi = pi (324 points) ..." in err
    # a small metric takes well under a second: no progress
    code, _out, err = _main_on_a_terminal(["tight", _metric_file(tmp_path, 3), "--eps", "1"], capsys, monkeypatch)
    assert code == 0 and err == ""
    # not a terminal: nothing on stderr
    monkeypatch.undo()
    assert main(["tight", m, "--eps", "1"]) == 0 and capsys.readouterr().err == ""
