"""Figures of expected loss (GRS12 Sec. 6.1): the geometric mechanism against the (discretised) Laplace mechanism."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from flint import fmpq

from ..errors import InvalidInput
from ..exact.values import to_rational
from ..mechanisms import geometric
from ..optimality.remaps import bayes_remap
from ..optimality.users import User, expected_loss
from ._base import _axes, to_float

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["loss_data", "plot_geometric_vs_laplace"]


def loss_data(roots: Iterable[Any]) -> list[tuple]:
    """Exact optimal expected losses at ``alpha = s^2`` for rational ``s`` in (0, 1) (GRS12 sec. 6.1).

    One count, results {0, 1}, prior 1/2 each, binary loss.  Geometric: the Bayes-remapped
    ``geometric(1, alpha)`` (GRS12 Thm. 3.1), computed exactly.  Laplace (density
    ``(eps/2) e^(-eps |x|)``, optimal remap: threshold at 1/2): ``P(noise > 1/2) = e^(-eps/2)/2 =
    sqrt(alpha)/2`` -- rational at ``alpha = s^2`` (the formula of
    :mod:`exactdp.papers.grs12_discussion`, derived there by exact integration).

    Parameters
    ----------
    roots : iterable of rationals
        The square roots ``s`` of the levels ``alpha = s^2``, each a rational in (0, 1).

    Returns
    -------
    list of (alpha, geometric loss, Laplace loss), exact rationals.

    Raises
    ------
    InvalidInput
        A root that is not a rational in (0, 1).

    Examples
    --------
    >>> loss_data(["1/2"])
    [(1/4, 1/5, 1/4)]
    """
    user = User.uniform(1, "binary")
    out = []
    for s in roots:
        s = to_rational(s, what="plot_geometric_vs_laplace: root")
        if not 0 < s < 1:
            raise InvalidInput(f"plot_geometric_vs_laplace: a root s must be a rational in (0, 1), got {s}")
        alpha = s * s
        _, remapped = bayes_remap(geometric(1, str(alpha)), user)
        out.append((alpha, expected_loss(remapped, user), s / 2))
    return out


def plot_geometric_vs_laplace(roots: Iterable[Any] | None = None, *,
                              ax: Axes | None = None) -> tuple[Axes, list[tuple]]:
    """GRS12 sec. 6.1: optimal expected loss of the geometric and Laplace mechanisms against alpha.

    Parameters
    ----------
    roots : list of rationals, optional
        The plot uses ``alpha = s^2`` so that both losses are rational; default ``s = 1/20 .. 19/20``.
    ax : matplotlib Axes, optional

    Returns
    -------
    (Axes, list)
        The axes (``ax.lines[0]`` geometric, ``ax.lines[1]`` Laplace) and the exact data of :func:`loss_data`.

    Raises
    ------
    InvalidInput
        As :func:`loss_data`.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> ax, data = plot_geometric_vs_laplace(["1/2", "1/3"])
    >>> data[1], ax.lines[0].get_ydata().tolist()
    ((1/9, 1/10, 1/6), [0.2, 0.1])
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    roots = [fmpq(k, 20) for k in range(1, 20)] if roots is None else roots
    data = loss_data(roots)
    ax = _axes(ax)
    a = [to_float(al) for al, _, _ in data]
    ax.plot(a, [to_float(g) for _, g, _ in data], "o-", label="geometric: alpha/(1+alpha)")
    ax.plot(a, [to_float(lp) for _, _, lp in data], "s-", label="Laplace: sqrt(alpha)/2")
    ax.set_xlabel("alpha = exp(-eps)")
    ax.set_ylabel("optimal expected loss")
    ax.set_title("GRS12 sec. 6.1: one count, uniform prior, binary loss")
    ax.legend(fontsize=8)
    return ax, data


# -- HLM15: the exact privacy profile delta(eps), and its k-fold composition -------------------------------------
