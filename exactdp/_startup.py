"""Ctrl-C while the ``exactdp`` command is still importing: one line and exit 130, never a traceback (issue 32).

``exactdp/__init__`` imports this module first.  When the process is the command line (the ``exactdp`` console
script or ``python -m exactdp``), and only then, SIGINT is answered by :func:`interrupted_at_start` until
:func:`exactdp.cli.main` starts and restores Python's ``KeyboardInterrupt`` (which ``main`` answers the same way).
A program that imports exactdp as a library keeps Python's handler.
"""

from __future__ import annotations

import os
import signal
import sys

__all__ = ["interrupted_at_start", "is_the_command_line"]


def interrupted_at_start(signum, frame):  # pragma: no cover - exercised in a subprocess
    """Say ``exactdp: interrupted`` and end the process with exit 130 (128 + SIGINT, the shell's convention).

    Parameters
    ----------
    signum : int
        The signal (SIGINT).
    frame : frame or None
        Where it arrived (unused).
    """
    if sys.stderr is not None:
        sys.stderr.write("exactdp: interrupted\n")
        sys.stderr.flush()
    os._exit(130)


def is_the_command_line() -> bool:
    """Whether this process is the ``exactdp`` command (console script or ``python -m exactdp[.cli]``).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_the_command_line()          # a test run imports exactdp as a library
    False
    """
    argv, orig = sys.argv, getattr(sys, "orig_argv", [])
    if argv and os.path.basename(argv[0]) in ("exactdp", "exactdp.exe"):
        return True
    return bool(argv) and argv[0] == "-m" and "-m" in orig and orig[orig.index("-m") + 1:][:1] in (
        ["exactdp"], ["exactdp.cli"])


if is_the_command_line() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, interrupted_at_start)
