"""HLM15 privacy profiles: the exact delta(eps) of a mechanism and of its k-fold composition."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from flint import arb, ctx

from ..errors import InvalidInput
from ..exact.decide import arb_of
from ..exact.values import to_rational
from ._base import _axes, _log_float, to_float

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from matplotlib.axes import Axes

__all__ = ["plot_profile", "profile_data"]


def profile_data(mech: Mechanism, neighbours: Any, *, times: int = 1) -> list[tuple]:
    """The exact privacy profile drawn by :func:`plot_profile`: pieces ``delta = A - e^eps B``.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (a symbolic alpha must be fixed first).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        The neighbour relation (HLM15 Def. 1; a metric contributes its pairs at distance 1).
    times : int
        ``k >= 1``: the profile of the ``k``-fold composition
        (:func:`~exactdp.composition.composition.composed_profile`); ``1`` is the mechanism itself.

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
    from ..composition.composition import composed_profile
    from ..composition.profile import privacy_profile

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
    basic = [(k * e, k * d) for e, d in zip(xs, ys, strict=True) if k * d <= 1 and k * e <= eps_max]
    adv = []
    for e, d in zip(xs, ys, strict=True):
        ep = (2 * k * lg) ** 0.5 * e + k * e * (math.expm1(e) if e < 700 else math.inf)
        if k * d + dp <= 1 and ep <= eps_max:
            adv.append((ep, k * d + dp))
    return basic, adv


def plot_profile(mech: Mechanism, neighbours: Any, *, times: int | None = None, bounds: bool = False,
                 delta_prime: Any = "1/1000000", eps_max: float | None = None, ax: Axes | None = None,
                 logy: bool = False, delta_min: float = 1e-12) -> tuple[Axes, dict]:
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
        ``times < 1``, ``bounds`` without ``times``, ``delta_prime`` outside (0, 1), or as
        :func:`profile_data`.
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
    dp = to_rational(delta_prime, what="plot_profile: delta_prime")
    if not 0 < dp < 1:
        raise InvalidInput(f"plot_profile: delta_prime (the advanced bound's slack) must be in (0, 1), got {dp}")
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
        assert times is not None  # refused above: bounds need times
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
