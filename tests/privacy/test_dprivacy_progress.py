"""Progress of long certify / epsilon runs (issue 11): a callback in the engine, a stderr line in the CLI only
on a terminal and never with --quiet; the library itself prints nothing."""

import os
import subprocess
import sys

import pytest

from exactdp import certify_privacy, smallest_epsilon
from exactdp.privacy import triples as C  # the modes' limits live with the triples
from exactdp.privacy.constraints import Constraints
from exactdp.exact.level import Level
from exactdp.mechanisms import geometric
from exactdp.metrics import path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _recorder():
    calls = []
    return calls, lambda stage, done, total: calls.append((stage, done, total))


def test_certify_reports_its_stages_and_prints_nothing(capsys):
    calls, cb = _recorder()
    c = certify_privacy(geometric(12, "1/2"), path(13), alpha="1/2", progress=cb)
    quiet = certify_privacy(geometric(12, "1/2"), path(13), alpha="1/2")
    assert c.to_json() == quiet.to_json()  # the callback changes nothing in the certificate
    stages = [s for s, _, _ in calls]
    assert "certificate data" in stages
    # a step without a count says so with None, as the tight/regular/threshold engines do
    assert all(d is None and t is None for s, d, t in calls if s == "certificate data" or s.startswith("smallest"))
    assert all(isinstance(d, int) and isinstance(t, int) for s, d, t in calls if s == "distinct constraints")
    assert any(s.startswith("smallest eps, round 1: candidate log(2)") for s in stages)
    assert capsys.readouterr() == ("", "")


def test_epsilon_reports_rounds():
    calls, cb = _recorder()
    e = smallest_epsilon(geometric(6, "1/3"), path(7), progress=cb)
    assert e.evidence.epsilon == "log(3)"
    rounds = [s for s, _, _ in calls if s.startswith("smallest eps, round")]
    # the number of rounds is a statistic of the search, in the note (not a claim of the evidence)
    assert len(rounds) == 1 and "rounds" not in e.note          # one candidate sufficed: nothing to report


@pytest.mark.parametrize("max_bitmap", [1 << 27, 0])
def test_streamed_deduplication_reports_pairs_done(monkeypatch, max_bitmap):
    monkeypatch.setattr(C, "MAX_BITMAP", max_bitmap)
    cons = Constraints(geometric(30, "1/2"), path(31), chunk=200)
    calls, cb = _recorder()
    cons.decide(Level.from_alpha("1/2"), cb)
    done = [d for s, d, t in calls if s == "distinct constraints"]
    assert len(done) > 1 and done == sorted(done) and done[-1] == cons.n_pairs
    assert all(t == cons.n_pairs for s, _, t in calls if s == "distinct constraints")


def _cli_stderr(args, tty):
    """stderr of ``exactdp ARGS`` run in a child, on a pseudo-terminal when ``tty``."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    cmd = [sys.executable, "-m", "exactdp", *args]
    if not tty:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        return r.returncode, r.stderr
    master, slave = os.openpty()
    try:
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=slave, env=env, timeout=120)
        os.close(slave)
        chunks = []
        while True:
            try:
                b = os.read(master, 4096)
            except OSError:  # EIO: the child's end is closed and everything was read
                break
            if not b:
                break
            chunks.append(b)
        return r.returncode, b"".join(chunks).decode()
    finally:
        os.close(master)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("args", [["certify", "--example", "geometric"],
                                  ["epsilon", os.path.join(ROOT, "examples", "data", "rr3.json"),
                                   "--metric", os.path.join(ROOT, "examples", "data", "discrete3.json")],
                                  # issue 32 item 13: profile and compose said nothing on a terminal
                                  ["profile", os.path.join(ROOT, "examples", "data", "rr3.json"),
                                   "--metric", os.path.join(ROOT, "examples", "data", "discrete3.json")],
                                  ["compose", os.path.join(ROOT, "examples", "data", "rr3.json"), "--times", "3",
                                   "--eps", "1", "--metric", os.path.join(ROOT, "examples", "data", "discrete3.json")]])
def test_cli_progress_only_on_a_terminal_and_not_with_quiet(args):
    code, err = _cli_stderr(args, tty=True)
    assert code == 0 and f"exactdp {args[0]}: " in err and err.endswith("\r\033[K")  # drawn, then cleared
    assert _cli_stderr([*args, "--quiet"], tty=True) == (0, "")
    assert _cli_stderr(args, tty=False) == (0, "")


def test_proofs_report_each_claim_to_a_progress_callback(tmp_path):
    """Issue 32 item 13: ``exactdp proofs --check`` runs every claim for minutes; the command line draws one line per
    claim from this callback (terminal only)."""
    from exactdp.papers.proofs import write_proofs

    seen = []
    write_proofs(str(tmp_path), ids=["KL10-def2.2", "GRS12-ex2.2"], progress=lambda *a: seen.append(a))
    assert seen == [("KL10-def2.2", 0, 2), ("GRS12-ex2.2", 1, 2)]
