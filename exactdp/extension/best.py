"""The best possible extension: is BCSZ18's factor 2 necessary?  (an exactdp study, not a paper claim)

For a mechanism ``Â`` on ``H`` and a rational ``t = e^(eps')``, the
extensions of ``Â`` that are ``eps'``-private on ``M`` form the polytope

    A(D)(w) >= 0,  sum_w A(D)(w) = 1,  A(D) = Â(D) on H,
    A(D)(w) <= t^d(D, D') A(D')(w)   on the generating pairs, both directions.

:func:`extension_slack_lp` solves ``sigma*(t) = min sigma`` over the same
constraints with ``sigma`` subtracted from every privacy row; it is always
feasible and ``sigma* >= 0``, so "some extension is ``eps'``-private" is the
exact statement ``sigma*(t) = 0`` (the optimal ``A`` is the witness) and "no
extension is" is ``sigma*(t) > 0``, certified by the LP dual (a Farkas-type
certificate: ``solve_lp`` has no infeasibility certificate of its own, so the
LP is posed to need none).  ``sigma*`` is non-increasing in ``t``, so the
smallest ``eps'`` is ``log t'`` with ``t' = min {t : sigma*(t) = 0}``;
:func:`best_extension_bracket` brackets ``t'`` by rational end points with
exact LP certificates at both, and reports ``eps'/eps`` against BCSZ18's 2.

>>> from exactdp import Mechanism
>>> from exactdp.metrics import path
>>> from flint import fmpq
>>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
>>> extension_slack_lp(Ah, path(4), ["0", "3"], fmpq(2)).value > 0     # eps' = eps = log 2: impossible
True
>>> extension_slack_lp(Ah, path(4), ["0", "3"], fmpq(4)).value         # eps' = 2 eps: possible
0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from flint import fmpq

from ..certificate import Certificate, Method, level_data, mechanism_data, metric_data
from ..priors.evidence import LPData
from .evidence import BestExtensionEvidence
from ..privacy.dprivacy import resolve_level
from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import decimal_enclosure, exact_str
from ..exact.lp import LinearProgram, solve_lp
from ..mechanism import mechanism_from_values
from .extension import _check_subset

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["SlackLP", "best_extension_bracket", "extension_slack_lp"]


class SlackLP:
    """The result of :func:`extension_slack_lp`: ``sigma*(t)``, its verified LP solution, and an extension.

    Parameters
    ----------
    t : fmpq
        ``e^eps'``.
    value : fmpq
        ``sigma*(t) >= 0``; 0 iff some extension is ``log t``-private.
    mechanism : Mechanism or None
        An optimal extension when ``value == 0``, else ``None``.
    solution : LPSolution
        The verified LP solution (its dual certifies ``value > 0``).

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
    >>> s = extension_slack_lp(Ah, path(4), ["0", "3"], 4)
    >>> s.t, s.value, s.mechanism.inputs
    (4, 0, ('0', '1', '2', '3'))
    """

    def __init__(self, t, value, mechanism, solution):
        self.t, self.value, self.mechanism, self.solution = t, value, mechanism, solution


def extension_slack_lp(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None, t: Any) -> SlackLP:
    """Return ``sigma*(t)``: 0 iff some extension of ``mech_on_H`` is ``log t``-private on ``metric`` (exact LP).

    Parameters
    ----------
    mech_on_H : Mechanism
        The mechanism on the subset ``H``, rational entries.
    metric : FiniteMetric
        The whole space, integer distances.
    H : sequence of str or None
        The subset (``None``: the mechanism's inputs).
    t : rational
        ``e^eps' >= 1``.

    Returns
    -------
    SlackLP
        ``sigma*(t)``, the verified solution, and the optimal extension when ``sigma* = 0``.

    Raises
    ------
    InvalidInput
        If ``t < 1`` or ``H`` is not a subset of the points.
    UnsupportedRegime
        If the mechanism is not rational or a distance is not an integer.

    Examples
    --------
    ``8/9, 1/9`` at distance 3 is tight for ``eps = log 2``; an ``eps``-private extension would have
    column ``a`` equal to ``8/9, 4/9, 2/9, 1/9``, whose row 1 sums to ``6/9``, so none exists:

    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
    >>> extension_slack_lp(Ah, path(4), ["0", "3"], 2).value > 0
    True
    """
    H = _check_subset(mech_on_H, metric, H)
    if mech_on_H.regime != "rational":
        raise UnsupportedRegime("extension LP: the mechanism on H must have rational entries")
    t = fmpq(t)
    if t < 1:
        raise InvalidInput(f"t: expected t = e^eps' >= 1, got {t}")
    W = len(mech_on_H.outputs)
    hset = set(H)
    free = [p for p in metric.points if p not in hset]
    col = {p: k for k, p in enumerate(free)}
    S = len(free) * W  # sigma's index
    c = [fmpq(0)] * S + [fmpq(1)]
    A_eq = [{col[p] * W + w: 1 for w in range(W)} for p in free]
    b_eq = [fmpq(1)] * len(free)
    A_ub, b_ub = [], []

    def term(p, w, coef, row):
        """Add coef * A(p)(w) to row; return the constant part when p is in H."""
        if p in hset:
            return coef * mech_on_H.entry(p, mech_on_H.outputs[w])
        row[col[p] * W + w] = row.get(col[p] * W + w, 0) + coef
        return fmpq(0)

    for i, j, d in metric.generating_pairs():
        if not isinstance(d, fmpq) or d.q != 1:
            raise UnsupportedRegime(f"extension LP: distance {exact_str(d)} is not an integer, so t^d is not rational")
        f = t ** int(d.p)
        for a, b in ((metric.points[i], metric.points[j]), (metric.points[j], metric.points[i])):
            for w in range(W):
                row = {S: fmpq(-1)}
                const = term(a, w, fmpq(1), row) + term(b, w, -f, row)
                A_ub.append(row)
                b_ub.append(-const)
    sol = solve_lp(LinearProgram(c=c, A_eq=A_eq, b_eq=b_eq, A_ub=A_ub, b_ub=b_ub))
    mech = None
    if sol.value == 0:
        rows = []
        for p in metric.points:
            if p in hset:
                rows.append([mech_on_H.entry(p, z) for z in mech_on_H.outputs])
            else:
                rows.append([sol.x[col[p] * W + w] for w in range(W)])
        mech = mechanism_from_values(metric.points, mech_on_H.outputs, rows, name=f"best extension at t = {t}")
    return SlackLP(t, sol.value, mech, sol)


def best_extension_bracket(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None = None, *,
                           eps: Any = None, alpha: Any = None, level: Level | None = None, rel_width: Any = "1/256",
                           max_steps: int = 40) -> Certificate[BestExtensionEvidence]:
    """Bracket the smallest ``eps'`` for which some extension is ``eps'``-private, against ``2 eps``.

    The level must be rational (``alpha`` rational): the search runs over
    rational ``t`` in ``[1, 1/alpha^2]``; ``t = 1/alpha^2`` (BCSZ18's ``2 eps``)
    always works when ``Â`` is eps-private on ``H``.

    Parameters
    ----------
    mech_on_H : Mechanism
        The mechanism on the subset ``H``, rational entries, eps-private there.
    metric : FiniteMetric
        The whole space, integer distances.
    H : sequence of str, optional
        The subset (default: the mechanism's inputs).
    eps : str or exact number, optional
        The level of ``mech_on_H``; or give ``alpha`` or ``level``.
    alpha : str or exact number, optional
        ``e^-eps``, rational.
    level : Level, optional
        The level itself.
    rel_width : str or rational, optional
        Stop when ``(t_upper - t_lower) <= rel_width * t_lower``.
    max_steps : int, optional
        The most exact LPs solved.

    Returns
    -------
    Certificate
        Kind ``best_extension``: ``t_lower`` (``sigma* > 0``, dual-certified) and ``t_upper`` (an
        extension), and ``eps'/eps`` enclosed at both ends.

    Raises
    ------
    UnsupportedRegime
        If ``alpha`` is not rational.
    InvalidInput
        If not even ``2 eps`` works (the mechanism is not eps-private on ``H``).

    Examples
    --------
    For the mechanism below the symmetric extension ``(x, 1 - x), (1 - x, x)`` exists iff
    ``t^2 + t - 9 >= 0``, so ``t' = (sqrt(37) - 1)/2`` and ``eps'/eps = log2(t') = 1.3459...``:

    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
    >>> c = best_extension_bracket(Ah, path(4), ["0", "3"], alpha="1/2")
    >>> from flint import fmpq
    >>> lo, hi = fmpq(c.evidence.t_lower), fmpq(c.evidence.t_upper)
    >>> lo * lo + lo - 9 < 0 < hi * hi + hi - 9, hi - lo <= lo / 256
    (True, True)
    """
    lev = resolve_level(eps, alpha, level)
    if lev.regime != "rational" or lev.D != 1:
        raise UnsupportedRegime("best extension: give a rational alpha (the LP needs t = e^eps' rational)")
    R = lev.R
    top = extension_slack_lp(mech_on_H, metric, H, R * R)
    if top.value != 0:
        raise InvalidInput("best extension: no extension is 2 eps-private, so the mechanism on H is not eps-private "
                           "for the restricted metric (BCSZ18 Prop. 2.1)")
    H = _check_subset(mech_on_H, metric, H)
    lo = extension_slack_lp(mech_on_H, metric, H, fmpq(1))
    if lo.value == 0:
        return _bracket_cert(lev, None, lo, 0, mech_on_H, metric, H)
    hi, steps = top, 2
    while (hi.t - lo.t) > fmpq(rel_width) * lo.t and steps < max_steps:
        mid = (lo.t + hi.t) / 2
        m = extension_slack_lp(mech_on_H, metric, H, mid)
        steps += 1
        if m.value == 0:
            hi = m
        else:
            lo = m
    return _bracket_cert(lev, lo, hi, steps, mech_on_H, metric, H)


def _ratio_enclosure(t, lev):
    def f():
        from flint import arb
        return arb(t).log() / lev.eps_arb()
    return list(decimal_enclosure(f, 12))


def _lp_data(u):
    sol = u.solution
    return LPData(value=exact_str(sol.value), x=[exact_str(v) for v in sol.x], y=[exact_str(v) for v in sol.y],
                  lam=[exact_str(v) for v in sol.lam])


def _bracket_cert(lev, lo, hi, steps, mech_on_H, metric, H):
    hset = set(H)
    ev = BestExtensionEvidence(
        mech_on_H=mechanism_data(mech_on_H), H=list(H), points=list(metric.points),
        free=[p for p in metric.points if p not in hset], metric=metric_data(metric), level=level_data(lev),
        t_lower=None if lo is None else exact_str(lo.t), lp_lower=None if lo is None else _lp_data(lo),
        t_upper=exact_str(hi.t), lp_upper=_lp_data(hi),
        factor_lower=["0", "0"] if lo is None else _ratio_enclosure(lo.t, lev),
        factor_upper=_ratio_enclosure(hi.t, lev), mechanism=mechanism_data(hi.mechanism))
    claim = (f"the smallest eps' of any extension of {mech_on_H.name} from |H| = {len(H)} points to the "
             f"{metric.description}, against 2 eps, eps = {lev.eps_str()}")
    return Certificate("best_extension", True, Method.EXACT_LP, claim, ev,
                       note=f"{steps} exact LPs; {hi.solution.method}")
