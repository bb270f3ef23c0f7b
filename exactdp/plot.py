"""Figures drawn from exact data (optional extra: ``pip install 'exactdp[plot]'``).

Every function here first computes its data **exactly** with exactdp (rationals,
or exact exponential expressions), and only then converts the exact values to
floats for drawing -- floats never decide anything in a figure.  Each function
also returns that exact data, so a figure can be checked against it:

* :func:`plot_mechanism` -- a mechanism as a heat map of its exact entries;
* :func:`plot_regular_region` -- ECP14 Fig. 2/3: the region of ``d``-regular
  priors on the simplex of three secrets, the convex hull of the corner priors
  (ECP14 Def. 5, Prop. 3);
* :func:`plot_utility` -- ECP14 Fig. 6: uniform-prior utility with optimal remaps
  of the tight-constraints and geometric mechanisms against eps, with the
  certified threshold eps of ECP14 sec. 7 marked;
* :func:`plot_geometric_vs_laplace` -- GRS12 sec. 6.1: the optimal expected loss
  of the geometric and the Laplace mechanisms for one count and two results.

matplotlib is imported only when a function is called, so ``import exactdp``
never imports it; without matplotlib the functions raise :class:`MissingDependency`.

>>> from exactdp.plot import corner_points
>>> from exactdp import path, Level
>>> corner_points(path(3), Level.from_alpha("1/2"))[0]
[4/7, 2/7, 1/7]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from flint import arb, ctx, fmpq

from .errors import ExactDPError, InvalidInput, UnsupportedRegime
from .exact.decide import arb_of
from .exact.level import Level
from .exact.values import to_rational
from .mechanisms import geometric
from .theory.leakage import max_utility
from .theory.regular import corner_priors, prior_from, regular_prior, tight_constraints
from .theory.remaps import bayes_remap
from .theory.threshold import threshold
from .theory.users import User, expected_loss

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .certificate import Certificate
    from .certificate.ecp14 import ThresholdEvidence
    from .mechanism import Mechanism
    from .metrics.space import FiniteMetric

__all__ = ["MissingDependency", "plot_mechanism", "plot_regular_region", "plot_utility",
           "plot_geometric_vs_laplace", "corner_points", "utility_data", "loss_data", "to_float"]


class MissingDependency(ExactDPError, ImportError):
    """An optional dependency (here matplotlib) is not installed."""


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
    """An exact value (rational or exact exponential expression) as the nearest float, for drawing only.

    >>> to_float(fmpq(1, 4))
    0.25
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
    """
    from .exact.decide import exact_str

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
def corner_points(metric: FiniteMetric, level: Level) -> list:
    """The corner priors ``c^y`` of a three-point metric (ECP14 Def. 5), exactly: three priors of three entries."""
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
    filled when :func:`~exactdp.theory.regular.regular_prior` certifies them regular.

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
    for (x, yv), name in zip(tri, metric.points):
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

    Returns
    -------
    list of (b, alpha, tight utility or None, geometric utility), all exact rationals.

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


def _log_float(q: fmpq) -> float:
    with ctx.workprec(80):
        return float(arb(q).log().mid())


def plot_utility(metric: FiniteMetric, bases: Iterable[Any], *, sensitivity: int = 1, ax: Axes | None = None,
                 mark_threshold: bool = True) -> tuple[Axes, list[tuple], Certificate[ThresholdEvidence] | None]:
    """ECP14 Fig. 6: utility of the tight-constraints and geometric mechanisms against eps.

    The utilities are exact (:func:`utility_data`); the certified threshold of ECP14 sec. 7
    (:func:`~exactdp.theory.threshold.threshold`, a bracket ``[lo, hi]`` of width ``1e-9``) is
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
                   label=f"certified threshold eps in [{th.evidence.lo}, {th.evidence.hi}]")
    ax.set_xlabel("eps")
    ax.set_ylabel("utility (uniform prior, optimal remap)")
    ax.set_title(f"utility against eps, {metric.description}")
    ax.legend(fontsize=8)
    return ax, data, th


# -- GRS12 sec. 6.1: geometric against Laplace -------------------------------------------------------------------
def loss_data(roots: Iterable[Any]) -> list[tuple]:
    """Exact optimal expected losses at ``alpha = s^2`` for rational ``s`` in (0, 1) (GRS12 sec. 6.1).

    One count, results {0, 1}, prior 1/2 each, binary loss.  Geometric: the Bayes-remapped
    ``geometric(1, alpha)`` (GRS12 Thm. 3.1), computed exactly.  Laplace (density
    ``(eps/2) e^(-eps |x|)``, optimal remap: threshold at 1/2): ``P(noise > 1/2) = e^(-eps/2)/2 =
    sqrt(alpha)/2`` -- rational at ``alpha = s^2`` (the formula of
    :mod:`exactdp.papers.grs12_discussion`, derived there by exact integration).

    Returns
    -------
    list of (alpha, geometric loss, Laplace loss), exact rationals.

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
