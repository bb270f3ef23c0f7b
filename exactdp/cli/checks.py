"""Checks the command line makes before any work: output paths and the routes' sizes.

A failed check raises :class:`UsageError`, which the command line reports as one line on stderr with exit 2
(the limit and the numbers named), so nothing long runs first only to be refused.
"""

from __future__ import annotations

import os

__all__ = [
    "MAX_DPI",
    "PLOT_FORMATS",
    "UsageError",
    "check_phi_route",
    "check_plot_output",
    "check_writable_dir",
]


class UsageError(Exception):
    """A mistake in the command line's input or a size beyond the route's reach: exit 2, one line.

    Examples
    --------
    >>> from argparse import Namespace
    >>> check_plot_output(Namespace(output="fig.png", dpi=0))
    Traceback (most recent call last):
    ...
    exactdp.cli.checks.UsageError: --dpi: expected 1 <= dpi <= 1,200, got 0
    """


#: image formats ``plot -o`` writes (by the file's extension); others are refused before any work
PLOT_FORMATS = ("png", "pdf", "svg")
#: largest ``--dpi`` (a 10-inch figure at 1,200 dpi is 12,000 pixels wide)
MAX_DPI = 1_200


def check_plot_output(a) -> str:
    """The image format of ``plot -o``, after checking ``--dpi`` and that the path can be written.

    Parameters
    ----------
    a : argparse.Namespace
        With ``output`` (the ``-o`` path) and ``dpi``.

    Returns
    -------
    str
        ``"png"``, ``"pdf"`` or ``"svg"`` (from the extension, never guessed).

    Raises
    ------
    UsageError
        A directory, an unknown or missing extension, a missing parent directory, ``dpi`` outside 1..1,200.

    Examples
    --------
    >>> from argparse import Namespace
    >>> check_plot_output(Namespace(output="fig.PDF", dpi=120))
    'pdf'
    >>> check_plot_output(Namespace(output="/dev/full", dpi=120))
    Traceback (most recent call last):
    ...
    exactdp.cli.checks.UsageError: -o '/dev/full': no image extension; expected one of .png, .pdf, .svg
    """
    out = a.output
    if not 1 <= a.dpi <= MAX_DPI:
        raise UsageError(f"--dpi: expected 1 <= dpi <= {MAX_DPI:,}, got {a.dpi}")
    if os.path.isdir(out):
        raise UsageError(f"-o {out!r} is a directory; give an image file such as {os.path.join(out, 'fig.png')!r}")
    ext = os.path.splitext(out)[1].lower().lstrip(".")
    if ext not in PLOT_FORMATS:
        raise UsageError(f"-o {out!r}: " + (f"unknown image extension '.{ext}'" if ext else "no image extension")
                         + f"; expected one of {', '.join('.' + f for f in PLOT_FORMATS)}")
    parent = os.path.dirname(out) or "."
    if not os.path.isdir(parent):
        raise UsageError(f"-o {out!r}: the directory {parent!r} does not exist")
    return ext


def check_writable_dir(path: str, what: str) -> None:
    """Create ``path`` if needed and write (and delete) a scratch file in it, before any long work.

    Its parent must exist, as for ``plot -o``: only the last level is created.  A real write, not
    ``os.access``, which says yes to root on a read-only directory.

    Parameters
    ----------
    path : str
        The directory.
    what : str
        How the command line names it (the start of the message).

    Raises
    ------
    UsageError
        The parent directory does not exist, or the directory cannot be created or written; the message starts
        with ``what``.

    Examples
    --------
    >>> check_writable_dir("/dev/null/proofs", "proofs --dir")
    Traceback (most recent call last):
    ...
    exactdp.cli.checks.UsageError: proofs --dir '/dev/null/proofs': cannot write there: Not a directory
    >>> check_writable_dir("/nonexistent/x", "proofs --dir")
    Traceback (most recent call last):
    ...
    exactdp.cli.checks.UsageError: proofs --dir '/nonexistent/x': the directory '/nonexistent' does not exist
    """
    import tempfile

    parent = os.path.dirname(os.path.normpath(path)) or "."
    if not os.path.isdir(path) and not os.path.exists(parent):
        raise UsageError(f"{what} {path!r}: the directory {parent!r} does not exist")
    try:
        if not os.path.isdir(path):
            os.mkdir(path)                      # one level only: a missing parent is refused above
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        raise UsageError(f"{what} {path!r}: cannot write there: {e.strerror or e}") from None


def check_phi_route(metric, cmd: str, rhs=None, progress=None, level=None) -> int:
    """Refuse only what the route of ``tight`` / ``regular`` cannot do, naming the route and its cost.

    The route solves ``Phi z = rhs`` on the quotient of the metric's verified equitable partition (refined
    by ``rhs``, e.g. a prior), ``k`` cells: exactly over Q when ``Phi`` is rational at the level, else by the
    verified float solve; the limits are the library's own (:meth:`exactdp.priors.phi.Route.refusal`).  The
    partition is computed here once; it is cached per metric, so the engine does not redo it.

    Parameters
    ----------
    metric : FiniteMetric
    cmd : str
        The command, for the message.
    rhs : list, optional
        The right-hand side when it is not constant (``regular``'s prior).
    progress : callable, optional
        ``progress(stage, None, None)`` before the partition is computed.
    level : Level, optional
        The level (its regime chooses the route); eps = 1 (the verified float route) by default.

    Returns
    -------
    int
        The number of cells ``k`` the solve will have.

    Raises
    ------
    UsageError
        A route beyond its limits; the message names the route, its cells and its cost.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import grid, path
    >>> check_phi_route(grid((10, 10), norm="euclidean"), "tight")     # the square's 8 symmetries: 5 * 6 / 2 cells
    15
    >>> check_phi_route(path(5000), "tight", level=Level.from_alpha("1/2"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.cli.checks.UsageError: tight: the route solves Phi z = b by the exact rational solve of the quotient ...,
    here 2,500 cells for 5,000 points (...): about k^3 = 1.6e+10 exact rational operations; the limit is 1,500 ...
    """
    from ..errors import InputTooLarge
    from ..exact.level import Level
    from ..metrics.symmetry import orbit_cells
    from ..priors.phi import PhiSystem, Route

    # a large path or grid: its cells are known in closed form, so a size beyond even the most permissive route
    # (the verified float solve) is refused before the O(n) distance codes and orbits (seconds to minutes at
    # 10^6 points; issue 32); a right-hand side only adds cells
    cells = orbit_cells(metric)
    if cells is not None:
        why = Route("verified float solve", cells, len(metric), "orbits of the metric's symmetries, counted in "
                    "closed form").refusal()
        if why is not None and cells > Route("verified float solve", 0, 0, "").limit:
            raise UsageError(f"{cmd}: {why}")
    if progress is not None:
        progress(f"distances and symmetries of {len(metric):,} points", None, None)
    try:
        route = PhiSystem(metric, level if level is not None else Level.from_eps("1")).route(rhs)
    except InputTooLarge as e:
        raise UsageError(f"{cmd}: {e}") from None
    why = route.refusal()
    if why is not None:
        raise UsageError(f"{cmd}: {why}")
    return route.cells
