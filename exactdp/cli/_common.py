"""What the command modules share: output, the level arguments, progress lines and the shared readers."""

from __future__ import annotations

import contextlib
import sys
import time

from .checks import UsageError

__all__ = ["EXIT_BUG", "FORMATS", "emit", "engine_progress", "fix_level", "level_args", "load_subset",
           "neighbours_arg", "progress_line", "sweep_args", "usage"]

#: the output formats of a certificate (``--format``)
FORMATS = ("text", "json", "markdown", "latex")
#: exit code of an internal error (a bug in exactdp, never a verdict)
EXIT_BUG = 4


def emit(cert, fmt) -> int:
    """Write ``cert`` in the format ``fmt`` on stdout; its verdict's exit code."""
    if fmt == "json":  # the same bytes as cert.render("json"), written fast (a large mechanism's codes: 100 MB)
        from ..io import json_text

        data = json_text(cert.to_json())
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(data.decode("ascii"))
        else:
            sys.stdout.flush()
            out.write(data)
            out.flush()
        return cert.verdict.exit_code
    from ..certificate.display import DECIMAL_KINDS, for_reader, terminal_safe

    text = cert.render(fmt)
    # text is for a reader on a terminal: escaped, long lists cut, decimals beside exact values (issue 32)
    sys.stdout.write(for_reader(text, decimals=cert.kind in DECIMAL_KINDS) if fmt == "text" else terminal_safe(text))
    return cert.verdict.exit_code


def level_args(p, required=False):
    """Add ``--eps`` / ``--alpha`` (one of them) to the parser ``p``; the group, for further levels."""
    g = p.add_mutually_exclusive_group(required=required)
    g.add_argument("--eps", help="exact privacy level, e.g. 1/2, log(2), sqrt(2)")
    g.add_argument("--alpha", help="alpha = e^(-eps) in (0,1), e.g. 1/2 or exp(-1/2)")
    return g


def usage(msg: str) -> UsageError:
    """The error to raise for a usage mistake (exit 2, ``msg`` on one line)."""
    return UsageError(msg)


def progress_line(a, text: str) -> None:
    """A progress line on stderr: only on a terminal, never with --quiet."""
    if not getattr(a, "quiet", False) and sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K{text}" if text else "\r\033[K")
        sys.stderr.flush()


@contextlib.contextmanager
def running_note(a, text: str):
    """One progress line saying what runs, for work without a step counter (terminal only, never with --quiet),
    cleared when it ends, also on an error or Ctrl-C."""
    progress_line(a, text)
    try:
        yield
    finally:
        progress_line(a, "")


@contextlib.contextmanager
def engine_progress(a, command: str):
    """A ``progress(stage, done, total)`` callback for the certify engine that redraws one stderr line at most
    five times a second (None, so the engine skips the calls, off a terminal or with --quiet); the line is
    cleared at the end."""
    if getattr(a, "quiet", False) or not sys.stderr.isatty():
        yield None
        return
    last = [0.0]

    def progress(stage, done, total):
        now = time.monotonic()
        if now - last[0] >= 0.2:
            last[0] = now
            progress_line(a, f"exactdp {command}: {stage}" + (f" {done}/{total}" if total else " ..."))
    try:
        yield progress
    finally:
        progress_line(a, "")


def neighbours_arg(a, metric):
    """The neighbour relation: --neighbours FILE (JSON list of label pairs, or {"pairs": [...]}) or the metric."""
    if not a.neighbours:
        return metric
    from ..io import load_json

    from ..metrics.spec import check_keys, check_labels

    obj = load_json(a.neighbours)
    if isinstance(obj, dict):
        check_keys(obj, ("pairs",), f"--neighbours {a.neighbours!r}")
    pairs = obj.get("pairs") if isinstance(obj, dict) else obj
    if not isinstance(pairs, list):
        raise usage(f"--neighbours {a.neighbours!r}: expected a JSON list of label pairs or {{\"pairs\": [...]}}")
    check_labels([x for p in pairs if isinstance(p, list) for x in p], f"--neighbours {a.neighbours!r}: 'pairs'")
    return pairs


def load_at_level(path, a):
    """Load ``--mechanism`` for every level at once, or, when an entry such as ``eps/2`` is exact only at a fixed
    level, at the level --eps/--alpha gives (one rule for every command; issue 32 item 12)."""
    from ..errors import NeedsLevel
    from ..io import load_mechanism

    try:
        return load_mechanism(path)
    except NeedsLevel:
        if getattr(a, "eps", None) is None and getattr(a, "alpha", None) is None:
            raise
        return load_mechanism(path, eps=getattr(a, "eps", None), alpha=getattr(a, "alpha", None))


def fix_level(mech, a):
    """Evaluate a mechanism written in alpha at the level given by --alpha/--eps (required then)."""
    if mech.regime != "symbolic":
        return mech.validate()
    from ..exact.level import level_of as resolve_level

    if not (getattr(a, "eps", None) or getattr(a, "alpha", None)):
        raise usage(f"{a.cmd}: the entries use alpha; give --alpha A or --eps E to fix the level at which they are "
                    "evaluated (e.g. --alpha 1/2 or --eps 'log(2)')")
    return mech.at(resolve_level(a.eps, a.alpha))


def load_subset(path):
    """The subset H of ``--subset FILE``: a JSON list of point labels or ``{"points": [...]}``."""
    from ..io import load_json

    from ..metrics.spec import check_keys, check_labels

    obj = load_json(path)
    if isinstance(obj, dict):
        check_keys(obj, ("points",), f"--subset {path!r}")
        obj = obj.get("points")
    if isinstance(obj, list):
        check_labels(obj, f"--subset {path!r}")
    if not isinstance(obj, list):
        raise usage(f"--subset {path}: expected a JSON list of point labels or {{\"points\": [...]}}")
    return [str(h) for h in obj]


def sweep_args(p):
    """``--workers N`` / ``--scheduler ADDRESS``: where a sweep's independent jobs run (:mod:`exactdp.sweep`)."""
    w = p.add_mutually_exclusive_group()
    w.add_argument("--workers", type=int, help="run the jobs on a local Dask cluster of N worker processes (needs "
                                               "the dask extra: pip install 'exactdp[dask]')")
    w.add_argument("--scheduler", help="run the jobs on an existing Dask cluster: its scheduler address "
                                       "(tcp://host:port); its workers read the jobs' files, so give paths they "
                                       "can open")
