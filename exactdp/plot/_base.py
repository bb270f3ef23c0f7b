"""Shared plumbing of :mod:`exactdp.plot`: the optional matplotlib import and exact-to-float conversion for drawing."""

from __future__ import annotations

from typing import Any

from flint import arb, ctx, fmpq

from ..errors import ExactDPError, UnsupportedRegime
from ..exact.decide import arb_of

__all__ = ["MissingDependency", "to_float"]


class MissingDependency(ExactDPError, ImportError):
    """An optional dependency (here matplotlib) is not installed.

    Raised by every drawing function of :mod:`exactdp.plot` when matplotlib
    cannot be imported; the message names the extra that installs it
    (``pip install 'exactdp[plot]'``).  The data functions (``*_data``,
    :func:`corner_points`) do not need matplotlib.

    Examples
    --------
    >>> issubclass(MissingDependency, ImportError)
    True
    """


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise MissingDependency("exactdp.plot needs matplotlib, which is not installed; hint: "
                                "pip install 'exactdp[plot]'") from e
    return plt


def _axes(ax):
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots()
    return ax


def to_float(v: Any) -> float:
    """An exact value (rational or exact exponential expression) as a float, for drawing only.

    Parameters
    ----------
    v : fmpq, int or ExpFrac
        An exact value without the symbolic alpha.

    Returns
    -------
    float
        The midpoint of an 80-bit ball enclosure (a float never decides anything in exactdp).

    Raises
    ------
    UnsupportedRegime
        ``v`` depends on the symbolic alpha.

    Examples
    --------
    >>> to_float(fmpq(1, 4))
    0.25
    >>> from exactdp.exact.values import exact_number
    >>> to_float(exact_number("exp(-1)")) == 0.36787944117144233
    True
    """
    if isinstance(v, fmpq):
        return float(v)
    if isinstance(v, int):
        return float(v)
    if getattr(v, "has_eps", None) is not None and v.has_eps():
        raise UnsupportedRegime("plot: an entry depends on the symbolic alpha; hint: fix a level first, "
                                "e.g. mechanism.at(Level.from_eps('1/2'))")
    with ctx.workprec(80):
        return float(arb_of(v).mid())


# -- a mechanism ------------------------------------------------------------------------------------------------

def _log_float(q: fmpq) -> float:
    with ctx.workprec(80):
        return float(arb(q).log().mid())
