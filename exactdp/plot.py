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
* :func:`plot_geo_utility` -- ECP14 Fig. 7: the same for the tight-constraints and the discretised planar
  Laplace mechanisms on a Euclidean grid (the paper's 100 x 100), certified enclosures;
* :func:`plot_geometric_vs_laplace` -- GRS12 sec. 6.1: the optimal expected loss
  of the geometric and the Laplace mechanisms for one count and two results;
* :func:`plot_profile` -- HLM15 Def. 1: the exact privacy profile ``delta(eps)``
  with its breakpoints, optionally the exact ``k``-fold composition and the basic
  and advanced composition bounds;
* :func:`plot_extension` -- BCSZ18 Prop. 2.1: the extension of a private mechanism
  from ``H`` to ``M``, its worst privacy loss per pair against ``eps d`` and ``2 eps d``.

matplotlib is imported only when a function is called, so ``import exactdp``
never imports it; without matplotlib the functions raise :class:`MissingDependency`.

>>> from exactdp.plot import corner_points
>>> from exactdp import path, Level
>>> corner_points(path(3), Level.from_alpha("1/2"))[0]
[4/7, 2/7, 1/7]
"""

from __future__ import annotations

import math

from flint import arb, ctx, fmpq

from .errors import ExactDPError, InvalidInput, UnsupportedRegime
from .exact.decide import arb_of, sign, simplify
from .exact.level import Level
from .exact.values import to_rational
from .mechanisms import geometric
from .theory.leakage import max_utility
from .theory.regular import corner_priors, prior_from, regular_prior, tight_constraints
from .theory.remaps import bayes_remap
from .theory.threshold import threshold
from .theory.users import User, expected_loss

__all__ = ["MissingDependency", "plot_mechanism", "plot_regular_region", "plot_utility",
           "plot_geometric_vs_laplace", "corner_points", "utility_data", "loss_data", "to_float",
           "geo_utility_data", "plot_geo_utility", "profile_data", "plot_profile", "extension_pairs",
           "plot_extension"]


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


def to_float(v) -> float:
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
def plot_mechanism(mech, *, ax=None, cmap="viridis", annotate=None):
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
def corner_points(metric, level) -> list:
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


def plot_regular_region(metric, level, *, ax=None, priors=None):
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
def utility_data(metric, bases, *, sensitivity=1):
    """Exact uniform-prior utilities (optimal remaps) of the tight-constraints and geometric mechanisms.

    For each rational base ``b`` the geometric mechanism on ``{0..N-1}`` is
    ``geometric(N-1, b)`` (GRS12) and the metric's level is ``alpha = b^sensitivity``
    (eps = sensitivity * log(1/b)).  The tight-constraints mechanism's utility is
    ``sum(z)/N`` (ECP14 Thm. 2, attained by Prop. 7); ``None`` where none exists.

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
        tight = sum((to_rational(z, what="z") for z in c.evidence.z), fmpq(0)) / n if c.holds is True else None
        out.append((b, alpha, tight, max_utility(geometric(n - 1, str(b)), prior)))
    return out


def _log_float(q: fmpq) -> float:
    with ctx.workprec(80):
        return float(arb(q).log().mid())


def plot_utility(metric, bases, *, sensitivity=1, ax=None, mark_threshold=True):
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
        hi = float(th.evidence.hi)
        ax.axvline(hi, color="gray", linestyle="--",
                   label=f"certified threshold eps in [{th.evidence.lo}, {th.evidence.hi}]")
    ax.set_xlabel("eps")
    ax.set_ylabel("utility (uniform prior, optimal remap)")
    ax.set_title(f"utility against eps, {metric.description}")
    ax.legend(fontsize=8)
    return ax, data, th


# -- ECP14 sec. 7.2, Fig. 7: tight-constraints against planar Laplace on a Euclidean grid -------------------------
def geo_utility_data(side, eps_values):
    """Certified uniform-prior utilities (optimal remaps) on the ``side x side`` Euclidean grid (ECP14 Fig. 7).

    For each rational eps: the tight-constraints mechanism's utility ``sum(z)/n`` (ECP14 Thm. 2, Prop. 7;
    ``None`` where none exists, certified) and the discretised planar Laplace mechanism's
    (:func:`~exactdp.theory.utility_grid.planar_laplace_utility`), each as an exact rational enclosure.

    Returns
    -------
    list of (eps, (lo, hi) or None, (lo, hi)), exact rationals.

    Examples
    --------
    >>> [(e, t is None, lap[0] <= lap[1]) for e, t, lap in geo_utility_data(2, ["1"])]
    [(1, False, True)]
    """
    from .metrics import grid
    from .theory.utility_grid import planar_laplace_utility, tight_utility

    m = grid((side, side), "euclidean")
    out = []
    for e in eps_values:
        e = to_rational(e, what="plot_geo_utility: eps")
        if e <= 0:
            raise InvalidInput(f"plot_geo_utility: eps must be a rational > 0, got {e}")
        lap = planar_laplace_utility(side, e)
        c = tight_constraints(m, Level.from_eps(str(e)))
        out.append((e, tight_utility(c)[:2] if c.holds is True else None, lap.enclosure))
    return out


def plot_geo_utility(side, eps_values, *, ax=None, mark_threshold=True):
    """ECP14 Fig. 7: utility of the tight-constraints and planar Laplace mechanisms against eps.

    The values are certified enclosures (:func:`geo_utility_data`, drawn at their midpoints; their widths are
    far below a pixel); the certified threshold of ECP14 sec. 7 is marked by a vertical line.

    Parameters
    ----------
    side : int
        The grid is ``side x side`` with unit steps and the Euclidean distance (ECP14 uses 100).
    eps_values : list of rationals
    ax : matplotlib Axes, optional
    mark_threshold : bool
        Compute and mark the certified threshold (default).

    Returns
    -------
    (Axes, list, Certificate or None)
        The axes (``ax.lines[0]`` tight, ``ax.lines[1]`` planar Laplace, ``ax.lines[2]`` the threshold), the
        exact data of :func:`geo_utility_data`, and the threshold certificate.
    """
    from .metrics import grid

    data = geo_utility_data(side, eps_values)
    th = threshold(grid((side, side), "euclidean")) if mark_threshold else None
    ax = _axes(ax)
    xs = [float(e) for e, _, _ in data]
    ax.plot(xs, [float((t[0] + t[1]) / 2) if t is not None else float("nan") for _, t, _ in data], "o-",
            label="tight-constraints (ECP14)")
    ax.plot(xs, [float((lp[0] + lp[1]) / 2) for *_, lp in data], "s-", label="planar Laplace, beta = eps/2")
    if th is not None and th.holds is True:
        ax.axvline(float(th.evidence.hi), color="gray", linestyle="--",
                   label=f"certified threshold eps in [{th.evidence.lo}, {th.evidence.hi}]")
    ax.set_xlabel("eps")
    ax.set_ylabel("utility (uniform prior, optimal remap)")
    ax.set_title(f"utility against eps, {side} x {side} Euclidean grid (ECP14 Fig. 7)")
    ax.legend(fontsize=8)
    return ax, data, th


# -- GRS12 sec. 6.1: geometric against Laplace -------------------------------------------------------------------
def loss_data(roots):
    """Exact optimal expected losses at ``alpha = s^2`` for rational ``s`` in (0, 1) (GRS12 sec. 6.1).

    One count, results {0, 1}, prior 1/2 each, binary loss.  Geometric: the Bayes-remapped
    ``geometric(1, alpha)`` (GRS12 Thm. 3.1), computed exactly.  Laplace (density
    ``(eps/2) e^(-eps |x|)``, optimal remap: threshold at 1/2): ``P(noise > 1/2) = e^(-eps/2)/2 =
    sqrt(alpha)/2`` -- rational at ``alpha = s^2`` (the formula of
    :mod:`exactdp.papers.grs12_discussion`, derived there by exact integration).

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


def plot_geometric_vs_laplace(roots=None, *, ax=None):
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
def profile_data(mech, neighbours, *, times=1):
    """The exact privacy profile drawn by :func:`plot_profile`: pieces ``delta = A - e^eps B``.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (a symbolic alpha must be fixed first).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        The neighbour relation (HLM15 Def. 1; a metric contributes its pairs at distance 1).
    times : int
        ``k >= 1``: the profile of the ``k``-fold composition
        (:func:`~exactdp.theory.composition.composed_profile`); ``1`` is the mechanism itself.

    Returns
    -------
    list of (t_from, t_to, A, B)
        Exact values: on ``t_from <= e^eps < t_to`` (``t_to = None``: infinity) the profile is
        ``A - e^eps B``.  The breakpoints ``t_from > 1`` are the loss ratios where a piece starts.

    Raises
    ------
    InvalidInput
        A symbolic alpha, a neighbour naming an unknown input, or ``times < 1``.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> profile_data(randomized_response(2, p="1/4"), [("0", "1")])
    [(1, 3, 3/4, 1/4), (3, None, 0, 0)]
    >>> profile_data(randomized_response(2, p="1/4"), [("0", "1")], times=2)
    [(1, 9, 9/16, 1/16), (9, None, 0, 0)]
    """
    from .theory.composition import composed_profile
    from .theory.profile import privacy_profile

    pr = privacy_profile(mech, neighbours) if times == 1 else composed_profile(mech, neighbours, times)
    pcs = pr.pieces
    return [(pc.t_from, pcs[k + 1].t_from if k + 1 < len(pcs) else None, pc.A, pc.B) for k, pc in enumerate(pcs)]


def _curve(pieces, eps_max: float, samples: int = 60):
    """Float samples of ``A - e^eps B`` on each exact piece, evaluated with 200-bit balls (for drawing only)."""
    xs, ys, marks = [], [], []
    with ctx.workprec(200):
        for t_from, t_to, A, B in pieces:
            lo = float(arb_of(t_from).log().mid())
            hi = eps_max if t_to is None else min(eps_max, float(arb_of(t_to).log().mid()))
            if lo > eps_max:
                break
            a, b = arb_of(A), arb_of(B)
            if lo > 0:
                marks.append((lo, float((a - arb_of(t_from) * b).mid())))
            for s in range(samples + 1):
                e = lo + (hi - lo) * s / samples
                xs.append(e)
                ys.append(max(float((a - arb(e).exp() * b).mid()), 0.0))
    return xs, ys, marks


def _bound_curves(single, k: int, eps_max: float, delta_prime):
    """Basic and advanced composition bounds (Dwork-Rothblum-Vadhan 2010) from the single profile, as floats.

    Each is a curve parametrised by the single level ``eps0``: basic ``(k eps0, k delta(eps0))``, advanced
    ``(sqrt(2 k log(1/delta')) eps0 + k eps0 (e^eps0 - 1), k delta(eps0) + delta')``; ``delta`` above 1 is dropped.
    """
    xs, ys, _ = _curve(single, eps_max, samples=120)
    dp = to_float(to_rational(delta_prime, what="delta_prime"))
    lg = _log_float(1 / to_rational(delta_prime, what="delta_prime"))
    basic = [(k * e, k * d) for e, d in zip(xs, ys) if k * d <= 1 and k * e <= eps_max]
    adv = []
    for e, d in zip(xs, ys):
        ep = (2 * k * lg) ** 0.5 * e + k * e * (math.expm1(e) if e < 700 else math.inf)
        if k * d + dp <= 1 and ep <= eps_max:
            adv.append((ep, k * d + dp))
    return basic, adv


def plot_profile(mech, neighbours, *, times=None, bounds=False, delta_prime="1/1000000", eps_max=None, ax=None,
                 logy=False, delta_min=1e-12):
    """Draw the exact privacy profile ``delta(eps)`` (HLM15 Def. 1), optionally with its ``k``-fold composition.

    Every piece ``A - e^eps B`` is exact (:func:`profile_data`); the breakpoints, where the worst set
    changes, are marked.  With ``times = k`` the profile of ``k`` independent repetitions is drawn too,
    and with ``bounds=True`` the basic and advanced composition bounds computed from the single profile
    (the only curves not drawn from exact pieces: they are the theorems' formulas, evaluated in floats).

    Parameters
    ----------
    mech : Mechanism
    neighbours : FiniteMetric, networkx graph or list of label pairs
    times : int, optional
        ``k >= 2``: also draw the exact profile of the ``k``-fold composition.
    bounds : bool
        With ``times``: draw the basic (``k eps0, k delta0``) and advanced composition bounds.
    delta_prime : exact number
        The slack ``delta'`` of the advanced bound (default ``1/1000000``).
    eps_max : float, optional
        Right end of the eps axis (default: a little past the last breakpoint).
    ax : matplotlib Axes, optional
    logy : bool
        Logarithmic delta axis (useful for compositions, where delta falls steeply).
    delta_min : float
        With ``logy``: the bottom of the delta axis (delta reaches 0 at the last breakpoint).

    Returns
    -------
    (Axes, dict)
        The axes (``ax.lines[0]`` the single profile, its breakpoints ``ax.lines[1]``; then the
        composition and its breakpoints, then the bounds) and the exact data: ``{"single": ...,
        "composed": ... or None}`` as returned by :func:`profile_data`.

    Raises
    ------
    InvalidInput
        ``times < 1``, ``bounds`` without ``times``, or as :func:`profile_data`.
    MissingDependency
        matplotlib is not installed.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from exactdp.mechanisms import randomized_response
    >>> ax, data = plot_profile(randomized_response(2, p="1/4"), [("0", "1")], times=2)
    >>> data["composed"][0], ax.get_xlabel()
    ((1, 9, 9/16, 1/16), 'eps')
    >>> import matplotlib.pyplot as plt; plt.close("all")

    References
    ----------
    HLM15 Def. 1 (5) and Sec. 4 (repeated queries); Dwork, Rothblum, Vadhan (FOCS 2010) for the
    advanced composition bound.
    """
    if bounds and times is None:
        raise InvalidInput("plot_profile: bounds=True needs times=k (the bounds are for the k-fold composition); "
                           "hint: times=50")
    single = profile_data(mech, neighbours)
    composed = profile_data(mech, neighbours, times=times) if times is not None else None
    last = composed if composed is not None else single
    if eps_max is None:
        with ctx.workprec(80):
            top = max((float(arb_of(t).log().mid()) for t, *_ in last), default=0.0)
        eps_max = 1.25 * top if top > 0 else 1.0
    ax = _axes(ax)
    for name, data, style in (("mechanism", single, "-"), (f"{times}-fold composition (exact)", composed, "-")):
        if data is None:
            continue
        xs, ys, marks = _curve(data, eps_max)
        line, = ax.plot(xs, ys, style, label=name)
        ax.plot([m[0] for m in marks], [m[1] for m in marks], "o", color=line.get_color(), markersize=4,
                label=f"breakpoints ({len(marks)})")
    if bounds:
        basic, adv = _bound_curves(single, times, eps_max, delta_prime)
        ax.plot([p[0] for p in basic], [p[1] for p in basic], "--", label=f"basic composition bound (k = {times})")
        ax.plot([p[0] for p in adv], [p[1] for p in adv], ":",
                label=f"advanced composition bound (delta' = {delta_prime})")
    if logy:
        ax.set_yscale("log")
        ax.set_ylim(delta_min, 2.0)
    ax.set_xlabel("eps")
    ax.set_ylabel("smallest delta")
    ax.set_title(f"exact privacy profile of {mech.name}", fontsize=9)
    ax.legend(fontsize=7)
    return ax, {"single": single, "composed": composed}


# -- BCSZ18: the extension from H and its 2 eps level ------------------------------------------------------------
def extension_pairs(mech_on_H, metric, H=None, *, eps=None, alpha=None, level=None):
    """Per pair of points, the exact largest privacy-loss ratio of the BCSZ18 extension.

    For every unordered pair ``{D1, D2}`` of points of ``M`` with ``0 < d(D1, D2) < inf``, the worst
    ratio ``R = max_w max(A(D1)(w)/A(D2)(w), A(D2)(w)/A(D1)(w))`` of the extension ``A``
    (:func:`~exactdp.theory.extension.extension_data`), and whether ``R <= e^(eps d)`` and
    ``R <= e^(2 eps d)`` (BCSZ18 Prop. 2.1: the second always holds, the first holds on ``H x H``).

    Parameters
    ----------
    mech_on_H, metric, H, eps, alpha, level
        As in :func:`~exactdp.theory.extension.extend`.

    Returns
    -------
    (ExtensionData, list)
        The extension and one tuple ``(D1, D2, d, R, within_eps, within_2eps, both_in_H)`` per pair; ``R``
        is exact, ``None`` when some output has probability 0 under one row only (never, for a private
        ``Â``).

    Raises
    ------
    InvalidInput
        As :func:`~exactdp.theory.extension.extend`, or a metric with more than 200 points.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Rh = Mechanism.from_rows(["0", "2"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
    >>> _, pairs = extension_pairs(Rh, path(3), ["0", "2"], alpha="1/2")
    >>> [(a, b, str(d), str(R), w1, w2) for a, b, d, R, w1, w2, _ in pairs]
    [('0', '1', '1', '3/2', True, True), ('0', '2', '2', '2', True, True), ('1', '2', '1', '3/2', True, True)]
    """
    from .theory.extension import extension_data

    if len(metric) > 200:
        raise InvalidInput(f"extension_pairs: the metric has {len(metric)} points; the pair plot is limited to 200 "
                           "points (n(n-1)/2 pairs); hint: use exactdp.theory.extension.extend directly")
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
    for c1, c2 in zip(row1, row2):
        p, q = vals[c1], vals[c2]
        for a, b in ((p, q), (q, p)):
            if sign(a) == 0:
                continue
            if sign(b) == 0:
                return None
            if best is None or sign(a * best[1] - best[0] * b) > 0:
                best = (a, b)
    return best if best is not None else (fmpq(1), fmpq(1))


def plot_extension(mech_on_H, metric, H=None, *, eps=None, alpha=None, level=None, ax=None):
    """BCSZ18 Prop. 2.1 in one picture: the extension's privacy loss against distance, with ``eps`` and ``2 eps``.

    For every pair of points the exact worst loss ``log R`` of the extension (:func:`extension_pairs`) is
    drawn against ``d(D1, D2)``: pairs inside ``H`` lie under the line ``eps d`` (there ``A = Â``),
    every pair under ``2 eps d`` -- the factor 2 the extension costs.

    Parameters
    ----------
    mech_on_H, metric, H, eps, alpha, level
        As in :func:`~exactdp.theory.extension.extend`.
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
