"""KL10's utility notion and the privacy bound of the exponential mechanism, decided exactly.

* :func:`lipschitz_constant` -- ``C = max sigma(f(x), f(z)) / rho(x, z)``, exact
  (over the generating pairs of ``rho``, which suffice by the triangle
  inequality).
* :func:`certify_utility` -- KL10 Def. 2.2: ``M_x(B_sigma(f(x), gamma)) >= 1 - delta``
  for every ``x``, with the worst ``x`` as witness.  KL10 does not say whether
  the ball is open or closed; ``ball="open"`` (``sigma < gamma``, the default)
  and ``ball="closed"`` (``sigma <= gamma``) are both supported and the
  certificate says which.
* :func:`certify_exponential_bound` -- KL10 Thm 2.7 / Lemma A.1: the exponential
  mechanism is ``2 C beta``-private; the exact smallest eps is compared with
  ``2 C beta``.  On a finite space with ``C > 0`` the bound is never attained:
  equality in the numerator step of Lemma A.1 needs ``f(x)`` between ``f(z)``
  and ``y``, equality in the normaliser step needs ``f(z)`` between ``f(x)``
  and every ``y'`` of positive weight, and both at the same ``y`` (which must
  have positive weight for ``M_x(y) > 0``) force ``sigma(f(x), f(z)) = 0``.
  It is approached: two points with ``mu = (1 - t, t)`` give ``eps* -> 2 beta``
  as ``t -> 0``.

Lemma A.1 as printed has two slips, reconstructed here: its second line should
read ``e^(beta sigma(f(x), f(z))) int_T e^(-beta sigma(f(z), y)) dmu`` (it
repeats ``f(x)``), and likewise the fifth.

>>> from exactdp.metrics import discrete
>>> from exactdp.mechanisms import exponential
>>> E = exponential(discrete(2), beta="log(2)", mu={"0": "3/4", "1": "1/4"})
>>> c = certify_utility(E, discrete(2), gamma="1", delta="3/5")   # open ball: B(x, 1) = {x}
>>> c.holds, c.evidence.worst, c.evidence.mass, c.evidence.target
(True, '1', '2/5', '2/5')
>>> certify_utility(E, discrete(2), gamma="1", delta="1/2").holds
False
>>> certify_utility(E, discrete(2), gamma="1", delta="1/2", ball="closed").holds   # closed: all of Y
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Method, Verdict, mechanism_data
from ..priors.evidence import distance_data
from .evidence import ExponentialBoundEvidence, UtilityEvidence
from ..privacy.dprivacy import smallest_epsilon
from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import exact_str, sign, simplify
from ..exact.level import Level
from ..exact.lin import Lin
from ..exact.values import LogVal, Setting, exact_number
from ..mechanisms.exponential import map_f
from ..metrics.space import dist_sub

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["ball_mass", "certify_exponential_bound", "certify_utility", "lipschitz_constant"]


def _f_index(f, X, Y):
    """Index in ``Y`` of ``f(x)`` for each point of ``X`` (KL10 Def. 2.6's map; the exponential mechanism's)."""
    return map_f(f, X, Y)


def lipschitz_constant(metric: FiniteMetric, output_metric: FiniteMetric | None = None,
                       f: Any = None) -> tuple[Any, Any]:
    """Return the exact Lipschitz constant ``C`` of ``f: (X, rho) -> (Y, sigma)`` and a pair attaining it.

    Parameters
    ----------
    metric : FiniteMetric
        ``(X, rho)``.
    output_metric : FiniteMetric, optional
        ``(Y, sigma)`` (default ``X``).
    f : dict or callable, optional
        ``f: X -> Y`` (default the identity).

    Returns
    -------
    C : fmpq
        ``max sigma(f(x), f(z)) / rho(x, z)`` over the generating pairs (which suffices by the chain argument).
    pair : tuple of str
        A pair ``(x, z)`` attaining it.

    Raises
    ------
    UnsupportedRegime
        For irrational distances.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> lipschitz_constant(path(3), path(5), {"0": "0", "1": "2", "2": "4"})
    (2, ('0', '1'))
    """
    Y = metric if output_metric is None else output_metric
    fx = _f_index(f, metric, Y)
    best, arg = fmpq(0), None
    for i, j, d in metric.generating_pairs():
        s = Y.d(fx[i], fx[j])
        if not isinstance(d, fmpq) or not isinstance(s, fmpq):
            raise UnsupportedRegime("lipschitz_constant: rational distances only")
        r = s / d
        if arg is None or r > best:
            best, arg = r, (metric.points[i], metric.points[j])
    return best, arg


def _in_ball(s, gamma, ball):
    if s == math.inf:  # unconnected points: infinitely far, outside every ball of finite radius gamma
        return False
    c = sign(dist_sub(s, gamma))
    return c < 0 or (ball == "closed" and c == 0)


def ball_mass(mech: Mechanism, output_metric: FiniteMetric, f: Any, x: str, gamma: Any,
              ball: str = "open") -> tuple[Any, list]:
    """Return the mass ``M_x(B(f(x), gamma))`` exactly, and the outputs in the ball.

    Parameters
    ----------
    mech : Mechanism
        ``M``; its outputs are points of ``output_metric``.
    output_metric : FiniteMetric
        ``(Y, sigma)``.
    f : dict, callable or None
        ``f: X -> Y`` (``None``: the identity).
    x : str
        An input.
    gamma : exact number
        The radius.
    ball : {"open", "closed"}, optional
        ``sigma < gamma`` or ``sigma <= gamma``.

    Returns
    -------
    mass : exact number
        The probability of the ball under row ``x``.
    inside : list of str
        The outputs in the ball.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> R = randomized_response(2, p="1/4")
    >>> ball_mass(R, discrete(2), None, "0", 1), ball_mass(R, discrete(2), None, "0", 1, "closed")
    ((3/4, ['0']), (1, ['0', '1']))
    """
    Y = output_metric
    fx = Y.index[str(f[x]) if isinstance(f, dict) else (x if f is None else str(f(x)))]
    i = mech.row_index[x]
    inside = [z for z in mech.outputs if _in_ball(Y.d(fx, Y.index[z]), gamma, ball)]
    total = fmpq(0)
    for z in inside:
        total = total + mech.values[mech.codes[i, mech.col_index[z]]]
    return simplify(total), inside


def _check_ball(ball):
    if ball not in ("open", "closed"):
        raise InvalidInput(f"ball: expected 'open' (sigma < gamma) or 'closed' (sigma <= gamma), got {ball!r}")


def _gamma_delta(gamma, delta):
    g = exact_number(gamma, what="gamma")
    d = exact_number(delta, what="delta")
    if isinstance(g, fmpq):
        g = g if g > 0 else None
    elif not isinstance(g, Lin) or g.sign() <= 0:
        g = None
    if g is None:
        raise InvalidInput(f"gamma: expected an exact number > 0, got {gamma!r}")
    if not isinstance(d, fmpq) or not (0 < d < 1):
        raise InvalidInput(f"delta: expected a rational 0 < delta < 1, got {delta!r}")
    return g, d


def certify_utility(mech: Mechanism, output_metric: FiniteMetric, f: Any = None, *, gamma: Any, delta: Any,
                    ball: str = "open") -> Certificate[UtilityEvidence]:
    """KL10 Def. 2.2: ``mech`` achieves ``(gamma, delta)``-utility for ``f``, decided exactly.

    Parameters
    ----------
    mech : Mechanism
        Inputs the points of ``X``, outputs points of ``(Y, sigma)``.
    output_metric : FiniteMetric
        ``(Y, sigma)``.
    f : dict or callable, optional
        ``f: X -> Y``; default the identity.
    gamma, delta :
        Exact ``gamma > 0`` and rational ``0 < delta < 1``.
    ball : {"open", "closed"}
        ``B(f(x), gamma)`` as ``sigma < gamma`` or ``sigma <= gamma``.

    Returns
    -------
    Certificate
        ``kind = "utility"``; witness: the worst ``x`` (smallest ball mass),
        its exact mass and ``1 - delta``.

    Examples
    --------
    Randomized response keeps the answer with probability ``3/4``: the open ball of radius 1 is the answer
    itself, so ``(1, delta)``-utility holds exactly when ``3/4 >= 1 - delta``.

    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> R = randomized_response(2, p="1/4")
    >>> certify_utility(R, discrete(2), gamma=1, delta="1/4").holds, certify_utility(R, discrete(2), gamma=1,
    ...                                                                                  delta="1/5").holds
    (True, False)

    References
    ----------
    KL10 Def. 2.2, eq. (2).
    """
    _check_ball(ball)
    g, d = _gamma_delta(gamma, delta)
    if mech.regime == "symbolic":
        raise InvalidInput("certify_utility: the mechanism depends on a symbolic alpha; fix a level first")
    worst: Any
    wmass: Any
    winside: Any
    worst, wmass, winside = None, None, None
    masses = {}
    for x in mech.inputs:
        m, inside = ball_mass(mech, output_metric, f, x, g, ball)
        masses[x] = m
        if worst is None or sign(m - wmass) < 0:
            worst, wmass, winside = x, m, inside
    target = 1 - d
    holds = sign(wmass - target) >= 0
    Y = output_metric
    fmap = {x: Y.points[j] for x, j in zip(mech.inputs, _f_index(f, _Points(mech.inputs), Y), strict=True)}
    sig = [[exact_str(Y.d(Y.index[fmap[x]], Y.index[z])) for z in mech.outputs] for x in mech.inputs]
    ev = UtilityEvidence(mechanism=mechanism_data(mech), output=distance_data(Y), output_description=Y.description,
                         f={x: str(y) for x, y in fmap.items()}, sigma=sig, gamma=exact_str(g), delta=exact_str(d),
                         ball=ball, masses={x: exact_str(v) for x, v in masses.items()}, worst=worst,
                         mass=exact_str(wmass), target=exact_str(target), ball_outputs=list(winside))
    method = Method.of(None, mech)               # the one method rule (no level)
    return Certificate("utility", holds, method, f"{mech.name} achieves ({exact_str(g)}, {exact_str(d)})-utility "
                       f"({ball} balls) for {query_claim(ev.f, mech.inputs, ev.output, ev.output_description)}", ev)


def query_claim(f, inputs, output, description) -> str:
    """``f`` and the output metric as the claim names them (issue 27: a utility is relative to both); the
    wording is the re-check's own (:func:`exactdp.recheck._metric.query_text`), so a claim reads one way."""
    from ..recheck._metric import query_text
    return query_text(f, list(inputs), None if output is None else output.to_json(), description)


class _Points:
    """The labels of a mechanism's inputs, shaped like a metric for :func:`_f_index`."""

    def __init__(self, labels):
        self.points = tuple(labels)


def _bound_level(C, beta):
    """The level ``2 C beta`` (beta rational/algebraic or ``c*log(q)``)."""
    b = exact_number(beta, Setting(), what="beta")
    if isinstance(b, LogVal):
        c = 2 * C * b.coef
        lev = Level.from_eps(f"{c}*log({b.base})") if c != 0 else None
        return lev, lev.eps_str() if lev is not None else "0"
    if isinstance(b, fmpq):
        b = Lin.rat(b)
    if not isinstance(b, Lin):
        raise InvalidInput(f"beta: expected a number or c*log(q), got {beta!r}")
    e = b * (2 * C)
    return (Level.from_eps(str(e)) if not e.is_zero() else None), str(e)


def certify_exponential_bound(mech: Mechanism, metric: FiniteMetric, output_metric: FiniteMetric | None = None,
                              f: Any = None, *, beta: Any) -> Certificate[ExponentialBoundEvidence]:
    """KL10 Thm 2.7: the exponential mechanism's exact smallest eps against ``2 C beta``.

    ``holds`` is True when ``eps* <= 2 C beta``; ``data["attained"]`` says whether
    equality holds (it never does on a finite space with ``C > 0``, see the
    module docstring).

    Parameters
    ----------
    mech : Mechanism
        The exponential mechanism.
    metric : FiniteMetric
        ``(X, rho)``, whose neighbours the privacy is measured on.
    output_metric : FiniteMetric, optional
        ``(Y, sigma)`` (default ``X``).
    f : dict or callable, optional
        ``f: X -> Y`` (default the identity).
    beta : exact number
        The mechanism's ``beta``.

    Returns
    -------
    Certificate
        Kind ``exponential_bound``: the exact ``eps*``, the bound ``2 C beta``, and whether it is attained.

    Examples
    --------
    >>> from exactdp.metrics import discrete
    >>> from exactdp.mechanisms import exponential
    >>> E = exponential(discrete(2), beta="log(2)", mu={"0": "9/10", "1": "1/10"})
    >>> c = certify_exponential_bound(E, discrete(2), beta="log(2)")
    >>> c.holds, c.evidence.epsilon, c.evidence.bound, c.evidence.attained
    (True, 'log(38/11)', 'log(4)', False)
    """
    C, pair = lipschitz_constant(metric, output_metric, f)
    ec = smallest_epsilon(mech, metric)
    lev, btxt = _bound_level(C, beta)
    eps = ec.evidence.epsilon or "undecided"
    data = {"bound_enclosure": list(lev.eps_enclosure()) if lev is not None else ["0", "0"]}
    b = ec.evidence.binding
    fx = _f_index(f, metric, metric if output_metric is None else output_metric)
    holds: Verdict | bool
    if eps == "undecided":
        holds, attained = UNDECIDED, None
    elif eps == "inf":
        holds, attained = False, False
    elif eps == "0" or b is None:
        holds, attained = True, lev is None
    else:
        r = simplify(mech.entry(b.x, b.output) / mech.entry(b.x_prime, b.output))
        dd = metric.distance(b.x, b.x_prime)
        c = 1 if lev is None else lev.compare(r, fmpq(1), dd)  # sign(r - e^(2 C beta d))
        holds, attained = c <= 0, c == 0
    pts = metric.points
    lp_pairs = [[pts[i], pts[j], exact_str(dd), exact_str((metric if output_metric is None else output_metric).d(
        fx[i], fx[j]))] for i, j, dd in metric.generating_pairs()]
    Y = metric if output_metric is None else output_metric
    ev = ExponentialBoundEvidence(beta=str(beta), output=distance_data(Y),
                                  f={str(metric.points[i]): str(Y.points[fx[i]]) for i in range(len(metric))},
                                  lipschitz=exact_str(C), lipschitz_pair=list(pair) if pair else None,
                                  lipschitz_pairs=lp_pairs, bound=btxt, bound_enclosure=data["bound_enclosure"],
                                  epsilon=None if eps == "undecided" else eps, enclosure=ec.evidence.enclosure,
                                  attained=attained, smallest=ec.evidence)
    claim = f"{mech.name} is 2*C*beta-private (KL10 Thm 2.7), beta = {beta}, on the {metric.description}"
    if holds is UNDECIDED:
        return Certificate("exponential_bound", UNDECIDED, ec.method, claim, ev, reason=ec.reason)
    return Certificate("exponential_bound", holds, ec.method, claim, ev, note=ec.note)
