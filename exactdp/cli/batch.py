"""``batch``: many independent jobs, serially or through Dask (issue 20, item 5)."""

from __future__ import annotations

import argparse
import json
import sys
import threading

from ._common import EXIT_BUG, progress_line, sweep_args, usage

__all__ = ["COMMANDS"]


def _register_batch(sub):
    b = sub.add_parser("batch", help="run many jobs (one JSON array of a command's arguments per line), serially "
                                     "or on a Dask cluster; one JSON result per line, in input order")
    b.add_argument("jobs", help="JOBS.jsonl: one job per line, e.g. [\"certify\", \"M.json\", \"--metric\", "
                                "\"D.json\", \"--eps\", \"1/2\"]; a job without --format gets --format json")
    sweep_args(b)
    b.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    b.set_defaults(fn=_cmd_batch)


def _read_jobs(path: str) -> list:
    """The jobs of a JOBS.jsonl file: a list of argument lists (strings), blank lines skipped."""
    from ..io import _read

    jobs = []
    for k, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            args = json.loads(line)
        except json.JSONDecodeError as e:
            raise usage(f"{path}, line {k}: not JSON ({e.msg}); each line is a JSON array of arguments") from None
        if not isinstance(args, list) or not args or not all(isinstance(x, str) for x in args):
            raise usage(f"{path}, line {k}: expected a non-empty JSON array of strings such as "
                         "[\"certify\", \"M.json\", \"--metric\", \"D.json\", \"--eps\", \"1/2\"]")
        if args[0] == "batch":
            raise usage(f"{path}, line {k}: a job cannot be a batch")
        jobs.append((k, args))
    return jobs


def _with_json_format(args: list) -> list:
    """``args`` plus ``--format json`` when its command takes ``--format json`` and none was given."""
    if any(x == "--format" or x.startswith("--format=") for x in args):
        return args
    from ._app import build_parser  # the parser imports this module

    sub = next(x for x in build_parser()._actions if isinstance(x, argparse._SubParsersAction))
    cmd = sub.choices.get(args[0])
    fmt = None if cmd is None else cmd._option_string_actions.get("--format")
    return [*args, "--format", "json"] if fmt is not None and "json" in (fmt.choices or ()) else args


_BATCH_LOCK = threading.Lock()


def _batch_job(job) -> dict:
    """Run one job in this process; its stdout (JSON when it is JSON), stderr and exit code as one record.

    The command line writes to ``sys.stdout``, which is one per process: jobs in one process take turns (a
    lock), so a Dask worker with several threads stays correct; parallelism comes from worker processes.
    """
    import io

    from ._app import EXIT_INTERRUPT, main  # the parser imports this module

    line, args = job
    with _BATCH_LOCK:
        out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            try:
                code = main(_with_json_format(list(args)))
            except SystemExit as e:  # --help, usage errors
                code = e.code if isinstance(e.code, int) else 2
            out.flush()
            text = out.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
        finally:
            sys.stdout, sys.stderr = saved
    if code == EXIT_INTERRUPT:
        # Ctrl-C inside a job ends the batch (the job's main answered it with 130): the outer main says
        # "exactdp: interrupted" once and exits 130; the remaining jobs never start
        raise KeyboardInterrupt
    try:
        output = json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        output = text
    return {"line": line, "args": list(args), "exit": code, "output": output, "stderr": err.getvalue()}


def _batch_results(a, jobs):
    """The results of ``jobs`` in input order: serially here, or on Dask (:func:`exactdp.sweep.sweep`)."""
    from ..sweep import sweep

    return sweep(_batch_job, jobs, workers=a.workers, scheduler=a.scheduler, what="batch")


def _cmd_batch(a):
    jobs = _read_jobs(a.jobs)
    bug = False
    for done, r in enumerate(_batch_results(a, jobs), 1):
        progress_line(a, f"exactdp batch: {done}/{len(jobs)} jobs")
        sys.stdout.write(json.dumps(r) + "\n")
        sys.stdout.flush()
        bug = bug or r["exit"] == EXIT_BUG
    progress_line(a, "")
    return EXIT_BUG if bug else 0


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {"batch": _register_batch}
