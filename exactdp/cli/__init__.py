"""The ``exactdp`` command line.

Exit codes (docs/architecture.md#sec-layers): 0 the property holds, 1 it does not (witness
printed), 2 bad input (one line on stderr, no traceback), 3 undecided, 4
internal error -- a bug, reported in one line (the traceback only with
``--debug``).  A crash never looks like a verdict.

The parser and :func:`main` are in ``_app``; each command is in the module of its group (``privacy``, ``users``,
``extension``, ``mechanisms``, ``tools``, ``batch``), which adds it to the parser through its ``COMMANDS`` table;
``_common`` holds what they share and ``checks`` the checks made before any work.
"""

from ._app import build_parser, main

__all__ = ["build_parser", "main"]
