"""Figures of priors and utility (ECP14): the region of regular priors; utility against eps, threshold marked."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterable

from flint import fmpq

from ..errors import InvalidInput
from ..exact.level import Level
from ..exact.values import to_rational
from ..mechanisms import geometric
from ..priors.leakage import max_utility
from ..priors.regular import corner_priors, prior_from, regular_prior, tight_constraints
from ..priors.threshold import threshold
from ._base import _axes, _log_float, _pyplot, to_float

if TYPE_CHECKING:
    from ..certificate import Certificate
    from ..priors.evidence import ThresholdEvidence
    from ..metrics.space import FiniteMetric
    from matplotlib.axes import Axes

__all__ = ["corner_points", "geo_utility_data", "plot_geo_utility", "plot_regular_region", "plot_utility",
           "utility_data"]


def corner_points(metric: FiniteMetric, level: Level) -> list:
    """The corner priors ``c^y`` of a three-point metric (ECP14 Def. 5), exactly: three priors of three entries.

    ``c^y_y' = phi_yy' / sum_y'' phi_yy''`` with ``phi_yy' = e^(-eps d(y, y'))``.

    Parameters
    ----------
    metric : FiniteMetric
        Three points.
    level : Level

    Returns
    -------
    list of list
        ``corners[y]`` is the exact prior ``c^y``.

    Raises
    ------
    InvalidInput
        The metric does not have exactly three points.

    Examples
    --------
    >>> from exactdp import cycle, Level
    >>> corner_points(cycle(3), Level.from_alpha("1/2"))[1]
    [1/4, 1/2, 1/4]
    """
    if len(metric) != 3:
        raise InvalidInput(f"plot_regular_region: expected a metric on 3 points, got {len(metric)} points; "
                           "hint: the simplex of priors is drawn for three secrets")
    return corner_priors(metric, level)


def _simplex_xy(p):
    """Barycentric (p0, p1, p2) -> the plane, vertices (0, 0), (1, 0), (1/2, sqrt(3)/2)."""
    x = p[1] + p[2] / 2
    y = p[2] * (3 ** 0.5) / 2
    return x, y


def plot_regular_region(metric: FiniteMetric, level: Level | str, *, ax: Axes | None = None,
                        priors: Iterable[Any] | None = None) -> tuple[Axes, list]:
    """ECP14 Fig. 2/3: the ``d``-regular priors of a three-point metric on the simplex of priors.

    By ECP14 Prop. 3 a prior is regular iff it is a convex combination of the corner
    priors ``c^y_y' = phi_yy' / sum_y'' phi_yy''`` (Def. 5), so the region is the
    triangle spanned by the three exact corner priors.  ``priors`` (exact) are marked,
    filled when :func:`~exactdp.priors.regular.regular_prior` certifies them regular.

    Parameters
    ----------
    metric : FiniteMetric
        Three points, e.g. ``path(3)`` or ``cycle(3)``.
    level : Level or str
        The level (an eps text such as ``"log(2)"``, or a :class:`~exactdp.Level`).
    ax : matplotlib Axes, optional
    priors : list of list, optional
        Priors to mark (exact entries); default the uniform prior.

    Returns
    -------
    (Axes, list)
        The axes (the region is ``ax.patches[1]``, the simplex ``ax.patches[0]``) and the
        exact corner priors.

    Raises
    ------
    InvalidInput
        The metric does not have three points, or a prior is not a distribution on them.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from exactdp import path
    >>> ax, corners = plot_regular_region(path(3), "log(2)")
    >>> corners[0], len(ax.patches)
    ([4/7, 2/7, 1/7], 2)
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    level = level if isinstance(level, Level) else Level.from_eps(level)
    corners = corner_points(metric, level)
    priors = [[fmpq(1, 3)] * 3] if priors is None else priors
    plt = _pyplot()
    ax = _axes(ax)
    tri = [_simplex_xy((1.0, 0.0, 0.0)), _simplex_xy((0.0, 1.0, 0.0)), _simplex_xy((0.0, 0.0, 1.0))]
    ax.add_patch(plt.Polygon(tri, closed=True, fill=False, edgecolor="black", label="all priors"))
    pts = [_simplex_xy([to_float(v) for v in c]) for c in corners]
    ax.add_patch(plt.Polygon(pts, closed=True, alpha=0.35, facecolor="tab:blue", edgecolor="tab:blue",
                             label="regular priors (hull of the corner priors)"))
    for y, (x0, y0) in enumerate(pts):
        ax.annotate(f"c^{metric.points[y]}", (x0, y0), textcoords="offset points", xytext=(4, 4), fontsize=8)
    for (x, yv), name in zip(tri, metric.points, strict=True):
        ax.annotate(f"pi({name}) = 1", (x, yv), textcoords="offset points", xytext=(-10, -12 if yv == 0 else 6),
                    fontsize=8)
    for p in priors:
        reg = regular_prior(p, metric, level).holds
        x, yv = _simplex_xy([to_float(v) for v in prior_from(p, metric)])
        ax.plot([x], [yv], "o", color="tab:red", fillstyle="full" if reg is True else "none",
                label="prior (filled: regular)")
    ax.set_xlim(-0.1, 1.1)
    ax.set_ylim(-0.1, 1.0)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(f"regular priors at eps = {level.eps_str()}\n{metric.description}", fontsize=9)
    return ax, corners


# -- ECP14: utility against eps ---------------------------------------------------------------------------------


def utility_data(metric: FiniteMetric, bases: Iterable[Any], *, sensitivity: int = 1) -> list[tuple]:
    """Exact uniform-prior utilities (optimal remaps) of the tight-constraints and geometric mechanisms.

    For each rational base ``b`` the geometric mechanism on ``{0..N-1}`` is
    ``geometric(N-1, b)`` (GRS12) and the metric's level is ``alpha = b^sensitivity``
    (eps = sensitivity * log(1/b)).  The tight-constraints mechanism's utility is
    ``sum(z)/N`` (ECP14 Thm. 2, attained by Prop. 7); ``None`` where none exists.

    Parameters
    ----------
    metric : FiniteMetric
        A metric on the points ``0..N-1`` in order (the geometric mechanism's range), e.g. ``path(N)``.
    bases : iterable of rationals
        The bases ``b`` in (0, 1), as text or exact numbers.
    sensitivity : int, default 1
        The query's sensitivity: the metric's level is ``alpha = b^sensitivity``.

    Returns
    -------
    list of (b, alpha, tight utility or None, geometric utility), all exact rationals.

    Raises
    ------
    InvalidInput
        The metric's points are not ``0..N-1`` in order, or a base is not a rational in (0, 1).

    Examples
    --------
    >>> from exactdp import path
    >>> utility_data(path(3), ["1/2"])
    [(1/2, 1/2, 5/9, 5/9)]
    """
    n = len(metric)
    if list(metric.points) != [str(i) for i in range(n)]:
        raise InvalidInput(f"plot_utility: expected a metric on the points 0..{n - 1} in order (the geometric "
                           f"mechanism's range), got points {list(metric.points)[:5]}...")
    prior = [fmpq(1, n)] * n
    out = []
    for b in bases:
        b = to_rational(b, what="plot_utility: base")
        if not 0 < b < 1:
            raise InvalidInput(f"plot_utility: a base must be a rational in (0, 1), got {b}")
        alpha = b ** sensitivity
        c = tight_constraints(metric, Level.from_alpha(str(alpha)))
        tight = (sum((to_rational(z, what="z") for z in c.evidence.z), fmpq(0)) / n  # type: ignore[union-attr]
                 if c.holds is True else None)  # a holding certificate carries its solution z
        out.append((b, alpha, tight, max_utility(geometric(n - 1, str(b)), prior)))
    return out


def plot_utility(metric: FiniteMetric, bases: Iterable[Any], *, sensitivity: int = 1, ax: Axes | None = None,
                 mark_threshold: bool = True) -> tuple[Axes, list[tuple], Certificate[ThresholdEvidence] | None]:
    """ECP14 Fig. 6: utility of the tight-constraints and geometric mechanisms against eps.

    The utilities are exact (:func:`utility_data`); the certified threshold of ECP14 sec. 7
    (:func:`~exactdp.priors.threshold.threshold`, a bracket ``[lo, hi]`` of width ``1e-9``) is
    marked by a vertical line: below it no tight-constraints mechanism exists.

    Parameters
    ----------
    metric : FiniteMetric
        Points ``0..N-1`` (e.g. a small sum-query graph: adjacent iff ``|i - j| <= v``).
    bases : list of rationals
        Geometric bases ``b`` in (0, 1); eps = ``sensitivity * log(1/b)``.
    sensitivity : int
        The metric distance of one geometric step (5 for ECP14's sum query).
    ax : matplotlib Axes, optional
    mark_threshold : bool
        Compute and mark the certified threshold (default); ``False`` skips it.

    Returns
    -------
    (Axes, list, Certificate or None)
        The axes (lines ``ax.lines[0]`` tight, ``ax.lines[1]`` geometric, ``ax.lines[2]`` the
        threshold), the exact data of :func:`utility_data`, and the threshold certificate.

    Raises
    ------
    InvalidInput
        As :func:`utility_data`.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from exactdp import path
    >>> ax, data, th = plot_utility(path(3), ["1/2", "1/4"], mark_threshold=False)
    >>> data[0], len(ax.lines), th is None
    ((1/2, 1/2, 5/9, 5/9), 2, True)
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    data = utility_data(metric, bases, sensitivity=sensitivity)
    th = threshold(metric) if mark_threshold else None
    ax = _axes(ax)
    eps = [sensitivity * _log_float(1 / b) for b, _, _, _ in data]
    ax.plot(eps, [to_float(t) if t is not None else float("nan") for _, _, t, _ in data], "o-",
            label="tight-constraints (ECP14)")
    ax.plot(eps, [to_float(g) for *_, g in data], "s-", label="geometric (GRS12)")
    if th is not None and th.holds is True:
        assert th.evidence.hi is not None  # a found threshold has its bracket
        hi = float(th.evidence.hi)
        ax.axvline(hi, color="gray", linestyle="--",
                   label=(f"z changes sign in [{th.evidence.lo}, {th.evidence.hi}]" if th.evidence.route == "bracket"
                          else f"threshold eps* in [{th.evidence.lo}, {th.evidence.hi}]"))
    ax.set_xlabel("eps")
    ax.set_ylabel("utility (uniform prior, optimal remap)")
    ax.set_title(f"utility against eps, {metric.description}")
    ax.legend(fontsize=8)
    return ax, data, th


# -- ECP14 sec. 7.2, Fig. 7: tight-constraints against planar Laplace on a Euclidean grid -------------------------


def geo_utility_data(side: int, eps_values: Iterable[Any], *,
                     mapper: Callable[..., Iterable[tuple]] = map) -> list[tuple]:
    """Certified uniform-prior utilities (optimal remaps) on the ``side x side`` Euclidean grid (ECP14 Fig. 7).

    For each rational eps: the tight-constraints mechanism's utility ``sum(z)/n`` (ECP14 Thm. 2, Prop. 7;
    ``None`` where none exists, certified) and the discretised planar Laplace mechanism's
    (:func:`~exactdp.utility.grid.planar_laplace_utility`), each as an exact rational enclosure.

    Parameters
    ----------
    side : int
        The grid is ``side x side`` with unit steps and the Euclidean distance (ECP14 uses 100).
    eps_values : iterable of rationals
        The levels, each a rational ``> 0`` (text or exact number).
    mapper : callable, default ``map``
        ``mapper(fn, jobs)`` runs the independent levels and gives their results in order: the built-in
        ``map`` here, or :func:`exactdp.sweep.sweep` with ``workers`` / ``scheduler`` for a Dask cluster (each
        job is ``(side, eps text)``; the results are the same).

    Returns
    -------
    list of (eps, (lo, hi) or None, (lo, hi)), exact rationals.

    Raises
    ------
    InvalidInput
        A level that is not a rational ``> 0``.

    Examples
    --------
    >>> [(e, t is None, lap[0] <= lap[1]) for e, t, lap in geo_utility_data(2, ["1"])]
    [(1, False, True)]
    """
    jobs = []
    for e in eps_values:
        e = to_rational(e, what="plot_geo_utility: eps")
        if e <= 0:
            raise InvalidInput(f"plot_geo_utility: eps must be a rational > 0, got {e}")
        jobs.append((side, str(e)))
    return list(mapper(_geo_level, jobs))


@lru_cache(maxsize=2)
def _euclidean_grid(side: int) -> FiniteMetric:
    """The ``side x side`` Euclidean grid, one object per process: its partition and distance codes are
    cached on it, so the levels of a sweep share them."""
    from ..metrics import grid

    return grid((side, side), "euclidean")


def _geo_level(job: tuple[int, str]) -> tuple:
    """One level of :func:`geo_utility_data`: ``(eps, tight (lo, hi) or None, planar Laplace (lo, hi))``."""
    from ..utility.grid import planar_laplace_utility, tight_utility

    side, text = job
    e = to_rational(text, what="plot_geo_utility: eps")
    lap = planar_laplace_utility(side, e)
    c = tight_constraints(_euclidean_grid(side), Level.from_eps(text))
    return (e, tight_utility(c)[:2] if c.holds is True else None, lap.enclosure)


def plot_geo_utility(side: int, eps_values: Iterable[Any], *, ax: Axes | None = None, mark_threshold: bool = True,
                     mapper: Callable[..., Iterable[tuple]] = map,
                     ) -> tuple[Axes, list[tuple], Certificate[ThresholdEvidence] | None]:
    """ECP14 Fig. 7: utility of the tight-constraints and planar Laplace mechanisms against eps.

    The values are certified enclosures (:func:`geo_utility_data`, drawn at their midpoints; their widths are
    far below a pixel); the certified threshold of ECP14 sec. 7 is marked by a vertical line.

    Parameters
    ----------
    side : int
        The grid is ``side x side`` with unit steps and the Euclidean distance (ECP14 uses 100).
    eps_values : list of rationals
        The levels drawn (see :func:`geo_utility_data`).
    ax : matplotlib Axes, optional
        Where to draw (a new figure by default).
    mark_threshold : bool
        Compute and mark the certified threshold (default).
    mapper : callable, default ``map``
        How the levels run (:func:`geo_utility_data`): ``map`` here, or :func:`exactdp.sweep.sweep` on Dask.

    Returns
    -------
    (Axes, list, Certificate or None)
        The axes (``ax.lines[0]`` tight, ``ax.lines[1]`` planar Laplace, ``ax.lines[2]`` the threshold), the
        exact data of :func:`geo_utility_data`, and the threshold certificate.

    Raises
    ------
    MissingDependency
        matplotlib is not installed.
    InvalidInput
        A level that is not a rational ``> 0``.

    Examples
    --------
    >>> ax, data, th = plot_geo_utility(2, ["1"], mark_threshold=False)
    >>> len(ax.lines), th is None, data[0][0]
    (2, True, 1)
    """
    data = geo_utility_data(side, eps_values, mapper=mapper)
    th = threshold(_euclidean_grid(side)) if mark_threshold else None
    ax = _axes(ax)
    xs = [float(e) for e, _, _ in data]
    ax.plot(xs, [float((t[0] + t[1]) / 2) if t is not None else float("nan") for _, t, _ in data], "o-",
            label="tight-constraints (ECP14)")
    ax.plot(xs, [float((lp[0] + lp[1]) / 2) for *_, lp in data], "s-", label="planar Laplace, beta = eps/2")
    if th is not None and th.holds is True:
        assert th.evidence.hi is not None  # a found threshold has its bracket
        ax.axvline(float(th.evidence.hi), color="gray", linestyle="--",
                   label=(f"z changes sign in [{th.evidence.lo}, {th.evidence.hi}]" if th.evidence.route == "bracket"
                          else f"threshold eps* in [{th.evidence.lo}, {th.evidence.hi}]"))
    ax.set_xlabel("eps")
    ax.set_ylabel("utility (uniform prior, optimal remap)")
    ax.set_title(f"utility against eps, {side} x {side} Euclidean grid (ECP14 Fig. 7)")
    ax.legend(fontsize=8)
    return ax, data, th


# -- GRS12 sec. 6.1: geometric against Laplace -------------------------------------------------------------------
