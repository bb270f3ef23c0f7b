"""A mechanism as a heat map of its exact entries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UnsupportedRegime
from ._base import _axes, to_float

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from matplotlib.axes import Axes

__all__ = ["plot_mechanism"]


def plot_mechanism(mech: Mechanism, *, ax: Axes | None = None, cmap: str = "viridis",
                   annotate: bool | None = None) -> Axes:
    """Draw a mechanism as a heat map: rows are secrets ``x``, columns outputs ``z``.

    Parameters
    ----------
    mech : Mechanism
        At a fixed level (rational or transcendental entries); a symbolic mechanism is
        refused, specialise it with ``mech.at(level)`` first.
    ax : matplotlib Axes, optional
    cmap : str
    annotate : bool, optional
        Write the exact entries in the cells (default: when the matrix has at most 8 x 8 cells).

    Returns
    -------
    matplotlib Axes
        The image is ``ax.images[0]``; its array is the exact entries converted to floats.

    Raises
    ------
    UnsupportedRegime
        A mechanism whose entries depend on the symbolic alpha.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from exactdp.mechanisms import geometric
    >>> ax = plot_mechanism(geometric(2, "1/2"))
    >>> ax.images[0].get_array().tolist()[0], ax.texts[0].get_text()
    ([0.6666666666666666, 0.16666666666666666, 0.16666666666666666], '2/3')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    from ..exact.decide import exact_str

    if mech.regime == "symbolic":
        raise UnsupportedRegime(f"plot_mechanism: {mech.name!r} has entries in the symbolic alpha; hint: fix a "
                                "level first, e.g. mech.at(Level.from_eps('1/2'))")
    floats = [to_float(v) for v in mech.values]
    data = [[floats[c] for c in row] for row in mech.codes.tolist()]
    ax = _axes(ax)
    im = ax.imshow(data, cmap=cmap, vmin=0, aspect="auto", interpolation="nearest")
    n, m = mech.shape
    if m <= 30:
        ax.set_xticks(range(m), mech.outputs)
    if n <= 30:
        ax.set_yticks(range(n), mech.inputs)
    if annotate if annotate is not None else (n <= 8 and m <= 8):
        texts = [exact_str(v) for v in mech.values]
        for i, row in enumerate(mech.codes.tolist()):
            for j, c in enumerate(row):
                ax.text(j, i, texts[c], ha="center", va="center", fontsize=8,
                        color="white" if floats[c] < 0.5 * max(floats) else "black")
    ax.set_xlabel("output z")
    ax.set_ylabel("secret x")
    ax.set_title(mech.name)
    ax.figure.colorbar(im, ax=ax, label="K(x)(z)")
    return ax


# -- ECP14: regular priors on the simplex of three secrets -----------------------------------------------------
