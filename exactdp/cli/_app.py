"""The parser, ``main`` and the exit codes of the ``exactdp`` command line (see the package docstring).

Every command lives in the module of its group; :data:`_ORDER` fixes the order of ``exactdp --help``.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import stat
import sys
from collections.abc import Callable, Sequence

from ..errors import ExactDPError, Undecided
from ._common import EXIT_BUG
from .checks import UsageError

__all__ = ["build_parser", "main"]

#: exit code when the output pipe was closed early (128 + SIGPIPE, the shell's convention)
EXIT_PIPE = 141
#: exit code when the user interrupted the run (Ctrl-C: 128 + SIGINT, the shell's convention)
EXIT_INTERRUPT = 130


#: the global exit codes (the epilog of ``exactdp --help``): every command of :data:`_CMD_EXITS` is named
_EXIT_CODES = """exit codes:
  0  the property holds (certify, epsilon, optimal, tight, regular, extend,
     audit, program; fdp with --mu; sampler: the code's law matches its
     target; opendp: OpenDP's value is at least the exact one);
     the command did its job (remap, leakage, profile, compose, tradeoff, renyi,
     fdp, mechanism, plot, proofs); every claim reproduced or reconstructed
     (reproduce); recheck, explain: the certificate is confirmed by the
     independent kernel; batch: every job ran (each result has its own code)
  1  the property does not hold, the witness is printed (opendp: OpenDP's value
     is below the exact one); reproduce: a claim differs from the paper; proofs
     --check: a proof file is stale; recheck, explain: the certificate is
     refuted (a bug, please report it)
  2  bad input or usage, an input beyond what the route can do (the limit
     is named), or an output that cannot be written (a full disk, a closed
     stdout): one line on stderr, no traceback; with --format json an
     undecided (3) still prints JSON (command, verdict, reason)
  3  undecided: no exact regime decides it (the reason is printed); reproduce:
     a claim is undecided and none differs; recheck, explain: not checkable by
     the small kernel (the reason is printed)
  4  internal error: a bug in exactdp, please report it (traceback with --debug);
     reproduce --recheck: a certificate was refuted; batch: a job ended in one
  (sampler: 0 the code's law matches the target, 1 differs (witness), 3
     undecided: the enclosures are too wide at the depth given)
130  interrupted (Ctrl-C): stopped quietly, nothing decided
141  the output pipe was closed early (e.g. | head): stopped quietly"""


#: each command's exit codes, the epilog of its ``--help``
_CMD_EXITS = {
    "certify": "0 private at the level (or for every eps with --all-eps), 1 not private (witness), 2 bad input, "
               "3 undecided, 4 bug",
    "epsilon": "0 a finite smallest eps exists (printed exactly), 1 not private for any finite eps, 2 bad input, "
               "3 undecided, 4 bug",
    "optimal": "0 the remapped geometric mechanism attains the exact LP optimum, 1 it does not, 2 bad input, "
               "3 undecided, 4 bug",
    "remap": "0 the remap was computed, 2 bad input, 4 bug",
    "tight": "0 the tight-constraints mechanism exists (or the threshold was found), 1 it does not, 2 bad input, "
             "3 undecided, 4 bug",
    "regular": "0 the prior is d-regular, 1 it is not, 2 bad input, 3 undecided, 4 bug",
    "leakage": "0 the leakage was computed, 2 bad input, 3 undecided, 4 bug",
    "reproduce": "0 every claim reproduced or reconstructed (the paper's setting was lost in the text and is "
                 "rebuilt, then checked), 1 some claim differs from the paper, 2 unknown id, "
                 "3 some claim undecided (none differs), 4 bug (also: with --recheck, a refuted certificate)",
    "proofs": "0 written (or up to date with --check), 1 stale proof files with --check, 2 bad input, 4 bug",
    "profile": "0 (eps, delta)-DP with --eps and --delta (otherwise: the profile was certified), 1 not (eps, "
               "delta)-DP, 2 bad input, 3 undecided, 4 bug",
    "compose": "0 the composition is (eps, delta)-DP with --eps and --delta (otherwise: its profile was certified), "
               "1 it is not, 2 bad input, 3 undecided, 4 bug",
    "extend": "0 the extension agrees with the mechanism on H and is 2 eps-private (BCSZ18), 1 not (the failing part "
              "is printed), 2 bad input, 3 undecided, 4 bug",
    "tradeoff": "0 the certified smallest eps (or bracket) was found, 2 bad input or beyond the LP route's reach "
                "(the numbers are printed), 3 undecided (e.g. an irrational distance), 4 bug",
    "plot": "0 the figure was written, 2 bad input (or matplotlib missing: pip install 'exactdp[plot]'), 4 bug",
    "recheck": "0 the certificate is confirmed by the independent kernel, 1 refuted (a bug), 2 not a certificate, "
               "3 not checkable (the reason is printed), 4 bug",
    "mechanism": "0 the mechanism was built (or listed), 2 bad input, 3 undecided, 4 bug",
    "fdp": "0 the exact trade-off function was computed (with --mu: f >= G_mu holds), 1 with --mu: it does not, "
           "2 bad input, 3 undecided, 4 bug",
    "renyi": "0 the RDP curve was certified, 2 bad input, 3 undecided, 4 bug",
    "opendp": "0 OpenDP's reported eps (rho) is at least the exact one, 1 it is below, 2 bad input (or OpenDP "
              "missing: pip install 'exactdp[interop]'), 4 bug; profile: 0 the exact profile (with --eps --delta: "
              "holds), 1 fails, 2 a measurement not read (named), 3 undecided",
    "audit": "0 the claimed (eps, delta) holds for the plan, 1 it is violated (the exact excess is printed), "
             "2 bad input, 3 undecided, 4 bug",
    "explain": "0 the re-check confirmed the certificate (its proof is printed), 1 refuted (the refutation is "
               "printed, never the proof), 2 bad input (not a certificate), 3 not checkable (the proof is printed "
               "marked unverified), 4 bug",
    "program": "0 the program is private (at the level, or for every eps with --all-eps; with --cost: a finite "
               "exact cost), 1 not (the witness pair and output are printed), 2 bad program (line:col) or input, "
               "3 undecided, 4 bug",
    "sampler": "0 the code's law matches the target (every target value inside its exact enclosure), 1 differs "
               "(the witness value, both numbers exact), 2 bad input (a module that does not import, another "
               "source of randomness, a draw from an empty range), 3 undecided (too wide at the depth), 4 bug",
    "batch": "0 every job ran (each result line carries the job's own exit code), 2 bad input (a bad JOBS line, or "
             "Dask missing for --workers/--scheduler), 4 bug (also: a job ended in an internal error)",
}


#: the commands in the order of ``exactdp --help``
_ORDER = ("certify", "profile", "compose", "epsilon", "optimal", "remap", "tight", "regular", "leakage", "reproduce",
          "plot", "recheck", "proofs", "extend", "tradeoff", "mechanism", "batch", "fdp", "audit", "explain", "renyi",
          "opendp", "program", "sampler")


def _registrars() -> dict[str, Callable]:
    """Command name -> the function that adds it to the parser, from every command module."""
    from . import batch, extension, mechanisms, privacy, samplers, tools, users
    from . import programs as programs_cli

    return {name: fn for mod in (privacy, users, tools, extension, mechanisms, batch, programs_cli, samplers)
            for name, fn in mod.COMMANDS.items()}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, exit 2
        sys.stderr.write(f"exactdp: error: {message} (see 'exactdp --help')\n")
        raise SystemExit(2)


class _Sub:
    """``add_parser`` with the shared ``--debug`` flag and the command's exit codes as epilog."""

    def __init__(self, sub):
        self.sub = sub
        self.common = argparse.ArgumentParser(add_help=False)
        self.common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                                 help="show the traceback of an internal error (exit 4)")

    def add_parser(self, name, **kw):
        p = self.sub.add_parser(name, parents=[self.common], epilog=f"exit codes: {_CMD_EXITS[name]}", **kw)
        p.set_defaults(_parser=p)
        return p


def _refuse_empty(a) -> None:
    """An option or argument given as an empty string (``--eps ''``) is named as such: it was given, and is empty."""
    p = getattr(a, "_parser", None)
    if p is None:
        return
    for act in p._actions:
        v = getattr(a, act.dest, None)
        values = v if isinstance(v, list) else [v]
        if any(isinstance(x, str) and not x.strip() for x in values):
            name = act.option_strings[-1] if act.option_strings else act.dest.upper()
            p.error(f"argument {name}: the value given is empty")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("exactdp")
    except PackageNotFoundError:  # running from a source tree that was not installed
        from exactdp import __version__

        return __version__


def build_parser():
    """Build the ``exactdp`` argument parser: the global options, then the commands in the order of ``--help``.

    Returns
    -------
    argparse.ArgumentParser
        The parser; each command's namespace has ``fn``, the function that runs it.

    Examples
    --------
    >>> a = build_parser().parse_args(["certify", "--example", "geometric", "--eps", "1/2"])
    >>> a.cmd, a.fn.__module__
    ('certify', 'exactdp.cli.privacy')
    """
    p = _Parser(prog="exactdp", description="Exact verification of differential privacy over finite metrics.",
                epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--debug", action="store_true", help="show the traceback of an internal error (exit 4)")
    p.add_argument("--version", action="version", version=f"exactdp {_version()}")
    sub = _Sub(p.add_subparsers(dest="cmd", required=True, parser_class=_Parser))

    for name in _ORDER:
        _registrars()[name](sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after ``exactdp`` (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0 holds, 1 fails, 2 bad input, 3 undecided, 4 internal error, 130 interrupted (Ctrl-C),
        141 closed pipe.

    Examples
    --------
    >>> main(["reproduce", "--list", "GRS12-ex2.1"])  # doctest: +ELLIPSIS
    GRS12-ex2.1 ... Example 2.1: ...
    0
    """
    _ordinary_interrupts()
    if sys.stdout is None:  # started with stdout closed (``exactdp ... >&-``): nowhere to write the result
        if sys.stderr is not None:
            sys.stderr.write("exactdp: error: standard output is closed; give the command somewhere to write "
                             "(a file, a pipe or the terminal)\n")
        return 2
    try:
        return _main(argv)
    except KeyboardInterrupt:
        # Ctrl-C, anywhere (parsing, a long solve, a sweep's wait): one quiet line, never a traceback or a verdict;
        # output still buffered is dropped (the interrupt may have landed inside a write that already happened)
        _discard_stdout()
        sys.stderr.write("exactdp: interrupted\n")
        return EXIT_INTERRUPT


def _discard_stdout() -> None:
    """Drop what standard output still buffers (after Ctrl-C or a failed write)."""
    raw = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
    if isinstance(raw, _WholeWrites):
        raw.discard = True


def _ordinary_interrupts() -> None:
    """From here on Ctrl-C is a ``KeyboardInterrupt`` (answered in :func:`main`): replace the start-up handler
    that ``exactdp/__init__`` installs for the command line's imports."""
    import signal
    import threading

    from .._startup import interrupted_at_start

    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGINT) is interrupted_at_start:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class _OutputError(OSError):
    """Standard output could not be written (a full disk, ``/dev/full``, a closed descriptor): the
    environment's error, not exactdp's; :func:`_main` says so in one line (exit 2)."""


class _WholeWrites(io.RawIOBase):
    """A file descriptor written whole or not at all.

    When the reader of a pipe goes away in the middle of a large write, ``os.write`` returns a short count;
    ``io.BufferedWriter`` passes the short count on and ``TextIOWrapper`` drops it, so the rest of the output is
    lost silently and the run ends with exit 0.  Writing the rest turns the loss into the ``EPIPE``
    (``BrokenPipeError``) that :func:`main` answers with exit 141.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.discard = False                    # after Ctrl-C: what is still buffered is dropped, not written


    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def write(self, b) -> int:  # type: ignore[override]
        view = memoryview(b).cast("B")
        if self.discard:
            return len(view)
        done = 0
        try:
            while done < len(view):
                done += os.write(self.fd, view[done:])
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _OutputError(e.errno, e.strerror) from None
        return done


def _whole_stdout() -> None:
    """Write the process's standard output through :class:`_WholeWrites` when it is a pipe, a file or a device
    other than a terminal (a full disk or ``/dev/full`` then raises :class:`_OutputError`)."""
    out = sys.stdout
    if out is None or out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return                                  # replaced already, or captured (tests): leave it
    try:
        fd = out.fileno()
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISCHR(mode)) or os.isatty(fd):
            return
    except OSError:
        # fd 1 is not open (``>&-`` after start-up): every write fails, said in one line
        raise _OutputError(errno.EBADF, os.strerror(errno.EBADF)) from None
    except (ValueError, AttributeError):
        return
    out.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_WholeWrites(fd)), encoding=out.encoding, errors=out.errors,
                                  line_buffering=out.line_buffering)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    _refuse_empty(a)
    try:
        _whole_stdout()
        code = _run(a)
        sys.stdout.flush()                      # a closed pipe shows here, not after main (exit 141, not 120)
        return code
    except BrokenPipeError:
        # the reader closed the pipe (``exactdp reproduce --list | head``): stop quietly, as Unix tools do
        # when SIGPIPE ends them (128 + 13); never a verdict, never a bug report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except _OutputError as e:
        # stdout to /dev/full or a closed descriptor: one line (exit 2); what could not be written is dropped,
        # so the interpreter's exit does not try again
        _discard_stdout()
        sys.stderr.write(f"exactdp: error: cannot write the output (standard output): {e.strerror or e}\n")
        return 2
    except Exception as e:  # the one place that turns a bug into exit 4 (never a verdict); --debug re-raises
        if getattr(a, "debug", False):
            raise
        sys.stderr.write(f"exactdp: internal error: {type(e).__name__}: {_one_line(e)}; this is a bug, please "
                         "report it (rerun with --debug for the traceback)\n")
        return EXIT_BUG


def _one_line(e, limit=300):
    msg = str(e).splitlines()[0] if str(e) else type(e).__name__
    return msg if len(msg) <= limit else msg[:limit] + "..."


def _run(a) -> int:
    try:
        return a.fn(a)
    except UsageError as e:
        sys.stderr.write(f"exactdp: error: {e}\n")
        return 2
    except Undecided as e:
        if getattr(a, "format", None) == "json":
            # --format json promises JSON on stdout whatever the verdict (issue 32): the command, the verdict
            # and the reason, as a certificate's JSON names them
            import json

            sys.stdout.write(json.dumps({"command": a.cmd, "verdict": "undecided", "reason": e.reason},
                                        indent=2) + "\n")
        sys.stderr.write(f"exactdp: undecided: {e.reason}\n")
        return 3
    except ExactDPError as e:
        sys.stderr.write(f"exactdp: error: {_one_line(e, 2000)}\n")
        return 2
    except RecursionError:
        if getattr(a, "debug", False):
            raise
        sys.stderr.write("exactdp: error: input nested too deeply to process; simplify the expression or file\n")
        return 2
    except MemoryError:
        if getattr(a, "debug", False):
            raise
        sys.stderr.write("exactdp: error: out of memory; the input is too large for exact computation on this "
                         "machine (see the limits in the README)\n")
        return 2
