"""f-DP figures: the exact trade-off function of a mechanism (and of its k-fold composition) against Gaussian DP."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import arb, ctx

from ._base import _axes, to_float

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ..mechanism import Mechanism

__all__ = ["fdp_data", "plot_fdp"]


def fdp_data(mech: Mechanism, neighbours: Any, *, times: int | None = None) -> dict:
    """The exact data drawn by :func:`plot_fdp`: trade-off functions and their Gaussian-DP brackets.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (fix a symbolic alpha first).
    neighbours : FiniteMetric, networkx graph or list of label pairs
    times : int, optional
        ``k >= 1``: also the trade-off function of the ``k``-fold composition.

    Returns
    -------
    dict
        ``{"single": TradeOff, "single_mu": GDPBracket, "composed": TradeOff or None,
        "composed_mu": GDPBracket or None}`` (:mod:`exactdp.divergences.fdp`).

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> d = fdp_data(randomized_response(2, p="1/4"), [("0", "1")], times=2)
    >>> [str(a) for a, _ in d["composed"].points]
    ['0', '1/16', '7/16', '1']
    """
    from ..divergences.fdp import fdp_curve, gaussian_mu

    single = fdp_curve(mech, neighbours)
    composed = fdp_curve(mech, neighbours, times) if times is not None else None
    return {"single": single, "single_mu": gaussian_mu(single, "1/100"), "composed": composed,
            "composed_mu": gaussian_mu(composed, "1/100") if composed is not None else None}


def _gaussian(mu: float, n: int = 200):
    """Float samples of ``G_mu(a) = Phi(Phi^-1(1 - a) - mu)`` (drawing only)."""
    xs, ys = [], []
    with ctx.workprec(60):
        two = arb(2).sqrt()
        for s in range(1, n):
            a = s / n
            z = -two * arb(2 * (1 - a)).erfcinv()
            xs.append(a)
            ys.append(float(((-(z - mu) / two).erfc() / 2).mid()))
    return [0.0, *xs, 1.0], [1.0, *ys, 0.0]


def plot_fdp(mech: Mechanism, neighbours: Any, *, times: int | None = None,
             ax: Axes | None = None) -> tuple[Axes, dict]:
    """Draw the exact trade-off function ``f`` of a mechanism (DRS22 Def. 2.3), and ``G_mu`` at the certified mu.

    The vertices of ``f`` are exact (:func:`fdp_data`); ``f`` is drawn through them.  The Gaussian curve
    ``G_mu`` at the upper end of the certified bracket is the only curve evaluated in floats (Arb balls at
    60 bits, midpoints drawn): ``f >= G_mu`` there is certified by :func:`~exactdp.divergences.fdp.gaussian_mu`.

    Parameters
    ----------
    mech : Mechanism
    neighbours : FiniteMetric, networkx graph or list of label pairs
    times : int, optional
        Also draw the exact trade-off function of the ``k``-fold composition.
    ax : matplotlib Axes, optional

    Returns
    -------
    (Axes, dict)
        The axes (``ax.lines[0]`` the diagonal ``1 - a``, then per curve ``f`` and ``G_mu``) and the
        exact data of :func:`fdp_data`.

    Raises
    ------
    InvalidInput
        As :func:`fdp_data`.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from exactdp.mechanisms import randomized_response
    >>> ax, data = plot_fdp(randomized_response(2, p="1/4"), [("0", "1")], times=2)
    >>> len(ax.lines), ax.get_xlabel()
    (5, 'type I error')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    data = fdp_data(mech, neighbours, times=times)
    ax = _axes(ax)
    ax.plot([0, 1], [1, 0], color="0.8", lw=0.8, label="1 - a (perfect privacy)")
    for name, f, mu in (("mechanism", data["single"], data["single_mu"]),
                        (f"{times}-fold composition (exact)", data["composed"], data["composed_mu"])):
        if f is None:
            continue
        line, = ax.plot([to_float(a) for a, _ in f.points], [to_float(b) for _, b in f.points], "o-",
                        markersize=3, label=f"{name}: f")
        if mu.hi is not None:
            xs, ys = _gaussian(float(mu.hi))
            lo, hi = mu.enclosure(3)
            ax.plot(xs, ys, ":", color=line.get_color(), label=f"G_mu, mu in [{lo}, {hi}]")
    ax.set_xlabel("type I error")
    ax.set_ylabel("type II error")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_title(f"exact trade-off function of {mech.name}", fontsize=9)
    ax.legend(fontsize=7)
    return ax, data
