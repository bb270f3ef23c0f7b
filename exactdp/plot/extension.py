"""BCSZ18 Prop. 2.1: the extension of a private mechanism from H to M, drawn pair by pair."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from flint import ctx, fmpq

from ..errors import InvalidInput
from ..exact.decide import arb_of, sign, simplify
from ._base import _axes, to_float

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric
    from matplotlib.axes import Axes

__all__ = ["extension_pairs", "plot_extension"]


def extension_pairs(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None = None, *,
                    eps: Any = None, alpha: Any = None, level: Level | None = None) -> tuple[Any, list]:
    """Per pair of points, the exact largest privacy-loss ratio of the BCSZ18 extension.

    For every unordered pair ``{D1, D2}`` of points of ``M`` with ``0 < d(D1, D2) < inf``, the worst
    ratio ``R = max_w max(A(D1)(w)/A(D2)(w), A(D2)(w)/A(D1)(w))`` of the extension ``A``
    (:func:`~exactdp.extension.extension.extension_data`), and whether ``R <= e^(eps d)`` and
    ``R <= e^(2 eps d)`` (BCSZ18 Prop. 2.1: the second always holds, the first holds on ``H x H``).

    Parameters
    ----------
    mech_on_H, metric, H, eps, alpha, level
        As in :func:`~exactdp.extension.extension.extend`.

    Returns
    -------
    (ExtensionData, list)
        The extension and one tuple ``(D1, D2, d, R, within_eps, within_2eps, both_in_H)`` per pair; ``R``
        is exact, ``None`` when some output has probability 0 under one row only (never, for a private
        ``Â``).

    Raises
    ------
    InvalidInput
        As :func:`~exactdp.extension.extension.extend`, or a metric with more than 200 points.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Rh = Mechanism.from_rows(["0", "2"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
    >>> _, pairs = extension_pairs(Rh, path(3), ["0", "2"], alpha="1/2")
    >>> [(a, b, str(d), str(R), w1, w2) for a, b, d, R, w1, w2, _ in pairs]
    [('0', '1', '1', '3/2', True, True), ('0', '2', '2', '2', True, True), ('1', '2', '1', '3/2', True, True)]
    """
    from ..extension.extension import extension_data

    if len(metric) > 200:
        raise InvalidInput(f"extension_pairs: the metric has {len(metric)} points; the pair plot is limited to 200 "
                           "points (n(n-1)/2 pairs); hint: use exactdp.extension.extension.extend directly")
    X = extension_data(mech_on_H, metric, H, eps=eps, alpha=alpha, level=level)
    A, lvl, Hs = X.mechanism, X.level, set(X.H)
    vals, codes = A.values, A.codes.tolist()
    out = []
    n = len(metric)
    for i in range(n):
        for j in range(i + 1, n):
            d = metric.d(i, j)
            if d == math.inf or sign(d) == 0:
                continue
            best = _worst_ratio(vals, codes[i], codes[j])
            if best is None:
                out.append((metric.points[i], metric.points[j], d, None, False, False, False))
                continue
            a, b = best
            R = simplify(a / b)
            w1 = lvl.compare(a, b, d) <= 0
            w2 = lvl.compare(a, b, 2 * d) <= 0
            both = metric.points[i] in Hs and metric.points[j] in Hs
            out.append((metric.points[i], metric.points[j], d, R, w1, w2, both))
    return X, out


def _worst_ratio(vals, row1, row2):
    """``(a, b)`` with ``a/b`` the largest ratio between the two rows in either order (exact), or ``None``."""
    best = None
    for c1, c2 in zip(row1, row2, strict=True):
        p, q = vals[c1], vals[c2]
        for a, b in ((p, q), (q, p)):
            if sign(a) == 0:
                continue
            if sign(b) == 0:
                return None
            if best is None or sign(a * best[1] - best[0] * b) > 0:
                best = (a, b)
    return best if best is not None else (fmpq(1), fmpq(1))


def plot_extension(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None = None, *,
                   eps: Any = None, alpha: Any = None, level: Level | None = None,
                   ax: Axes | None = None) -> tuple[Axes, list]:
    """BCSZ18 Prop. 2.1 in one picture: the extension's privacy loss against distance, with ``eps`` and ``2 eps``.

    For every pair of points the exact worst loss ``log R`` of the extension (:func:`extension_pairs`) is
    drawn against ``d(D1, D2)``: pairs inside ``H`` lie under the line ``eps d`` (there ``A = Â``),
    every pair under ``2 eps d`` -- the factor 2 the extension costs.

    Parameters
    ----------
    mech_on_H, metric, H, eps, alpha, level
        As in :func:`~exactdp.extension.extension.extend`.
    ax : matplotlib Axes, optional

    Returns
    -------
    (Axes, list)
        The axes (``ax.lines[0]`` the pairs in ``H x H``, ``ax.lines[1]`` the others, ``ax.lines[2]``
        and ``ax.lines[3]`` the lines ``eps d`` and ``2 eps d``) and the exact data of :func:`extension_pairs`.

    Raises
    ------
    InvalidInput
        As :func:`extension_pairs`.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Rh = Mechanism.from_rows(["0", "2"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
    >>> ax, pairs = plot_extension(Rh, path(3), ["0", "2"], alpha="1/2")
    >>> len(pairs), len(ax.lines)
    (3, 4)
    >>> import matplotlib.pyplot as plt; plt.close("all")

    References
    ----------
    BCSZ18 Prop. 2.1 and the proof of Thm. 2.1 (Sec. 4).
    """
    X, pairs = extension_pairs(mech_on_H, metric, H, eps=eps, alpha=alpha, level=level)
    ax = _axes(ax)
    with ctx.workprec(80):
        e = float(X.level.eps_arb().mid())
        pts = [(to_float(d), float(arb_of(R).log().mid()), both) for _, _, d, R, _, _, both in pairs if R is not None]
    inside = [(x, y) for x, y, b in pts if b]
    other = [(x, y) for x, y, b in pts if not b]
    ax.plot([p[0] for p in inside], [p[1] for p in inside], "o", label="pairs in H x H (A = Â there)")
    ax.plot([p[0] for p in other], [p[1] for p in other], "x", label="pairs with a point outside H")
    dmax = max((p[0] for p in pts), default=1.0)
    ax.plot([0, dmax], [0, e * dmax], "--", color="gray", label="eps d")
    ax.plot([0, dmax], [0, 2 * e * dmax], "-", color="black", label="2 eps d (BCSZ18 Prop. 2.1)")
    ax.set_xlabel("d(D1, D2)")
    ax.set_ylabel("worst privacy loss log max A(D1)(w)/A(D2)(w)")
    ax.set_title(f"BCSZ18 extension from |H| = {len(X.H)} to {len(metric)} points, eps = {X.level.eps_str()}",
                 fontsize=9)
    ax.legend(fontsize=7)
    return ax, pairs
