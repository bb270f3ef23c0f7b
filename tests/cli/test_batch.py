"""``exactdp batch JOBS.jsonl`` (issue 20, item 5): one JSON result per job, in input order, serially or on Dask.

Each result is checked against the same job run on its own through the command line (``--format json`` added
as the batch adds it); the run on a Dask ``LocalCluster`` with two workers must give the very same lines as the
serial run.
"""

import json
import logging
import os

import pytest

from exactdp.cli import main

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples", "data")
RR, DISC = os.path.join(EX, "rr3.json"), os.path.join(EX, "discrete3.json")
GEO, PATH = os.path.join(EX, "geometric3.json"), os.path.join(EX, "path4.json")

JOBS = [
    ["certify", RR, "--metric", DISC, "--eps", "log(2)"],              # holds: 1/2 <= 2 * 1/4, a tie
    ["certify", RR, "--metric", DISC, "--eps", "1/2"],                 # fails: 1/2 > e^(1/2) / 4
    ["epsilon", RR, "--metric", DISC],
    ["certify", RR, "--metric", DISC, "--eps", "log(2)", "--format", "text"],
    ["certify", os.path.join(EX, "missing.json"), "--metric", DISC, "--eps", "1"],   # bad input: exit 2
    ["certify", "--example", "geometric", "--all-eps"],
]


def _write_jobs(tmp_path, jobs, extra=""):
    f = tmp_path / "jobs.jsonl"
    f.write_text("\n".join(json.dumps(j) for j in jobs) + "\n" + extra)
    return str(f)


def _alone(args, capsys):
    """One job run on its own, as the batch runs it (``--format json`` unless the job names a format)."""
    if "--format" not in args:
        args = [*args, "--format", "json"]
    code = main(args)
    out = capsys.readouterr()
    try:
        output = json.loads(out.out) if out.out.strip() else None
    except json.JSONDecodeError:
        output = out.out
    return code, output, out.err


def _batch(args, capsys):
    code = main(["batch", *args])
    out = capsys.readouterr()
    return code, [json.loads(x) for x in out.out.splitlines()], out.err


def test_serial_batch_is_each_job_alone_in_order(tmp_path, capsys):
    f = _write_jobs(tmp_path, JOBS, extra="\n   \n")  # blank lines are skipped
    code, results, err = _batch([f], capsys)
    assert code == 0 and err == "" and len(results) == len(JOBS)
    for k, (job, r) in enumerate(zip(JOBS, results, strict=True), 1):
        assert r["line"] == k and r["args"] == job
        assert (r["exit"], r["output"], r["stderr"]) == _alone(job, capsys), job
    assert [r["exit"] for r in results] == [0, 1, 0, 0, 2, 0]
    assert results[0]["output"]["verdict"] == "holds" and results[1]["output"]["verdict"] == "fails"
    assert isinstance(results[3]["output"], str) and "verdict: holds" in results[3]["output"]
    assert results[4]["output"] is None and "missing.json" in results[4]["stderr"]


@pytest.mark.slow
def test_dask_local_cluster_two_workers_gives_the_serial_results(tmp_path, capsys):
    distributed = pytest.importorskip("dask.distributed")
    f = _write_jobs(tmp_path, JOBS)
    serial = _batch([f], capsys)
    # two worker processes (processes=True): each runs its jobs in a process of its own, as --workers N does
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster:
        on_cluster = _batch([f, "--scheduler", cluster.scheduler_address], capsys)
    assert on_cluster == serial


@pytest.mark.slow
def test_workers_option_runs_a_local_cluster(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    f = _write_jobs(tmp_path, JOBS[:2])
    assert _batch([f, "--workers", "2"], capsys) == _batch([f], capsys)


@pytest.mark.parametrize("line, pattern", [
    ("not json", r"line 1: not JSON"),
    ('{"certify": 1}', r"line 1: expected a non-empty JSON array of strings"),
    ("[]", r"line 1: expected a non-empty JSON array"),
    ('["certify", 3]', r"line 1: expected a non-empty JSON array of strings"),
    ('["batch", "x.jsonl"]', r"line 1: a job cannot be a batch"),
])
def test_bad_jobs_file_refused_in_one_line(tmp_path, capsys, line, pattern):
    import re

    f = tmp_path / "jobs.jsonl"
    f.write_text(line + "\n")
    code = main(["batch", str(f)])
    out = capsys.readouterr()
    assert code == 2 and out.out == "" and len(out.err.strip().splitlines()) == 1 and re.search(pattern, out.err)


def test_bad_workers_and_missing_dask(tmp_path, capsys, monkeypatch):
    import sys

    f = _write_jobs(tmp_path, JOBS[:1])
    assert main(["batch", f, "--workers", "0"]) == 2 and "--workers: expected N >= 1" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if the dask extra were not installed
    assert main(["batch", f, "--workers", "2"]) == 2
    assert "pip install 'exactdp[dask]'" in capsys.readouterr().err


def test_a_job_with_an_internal_error_makes_the_batch_exit_4(tmp_path, capsys, monkeypatch):
    import exactdp.cli.privacy

    def broken(a):
        raise RuntimeError("boom")
    f = _write_jobs(tmp_path, [["certify", "--example", "geometric"], ["epsilon", RR, "--metric", DISC]])
    monkeypatch.setattr(exactdp.cli.privacy, "_cmd_epsilon", broken)
    code, results, _ = _batch([f], capsys)
    assert code == 4 and [r["exit"] for r in results] == [0, 4] and "internal error" in results[1]["stderr"]
