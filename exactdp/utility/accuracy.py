"""Expected error of a mechanism over a metric and the HLM15 lower bounds.

HLM15 (13): the maximal expected error ``E = max_d E[rho(Y_d, d)]`` of a
mechanism whose outputs are points of the metric.  Theorem 6:
``E >= (1 - delta) diam(D) / (2 (1 + e^eps))``; Theorem 7 (finite ``D``,
``|D| = m + 1``, ``kappa = min rho``): ``E >= (1 - delta) kappa m / (m + e^eps)``.

>>> from exactdp.mechanisms import randomized_response
>>> from exactdp.metrics import discrete
>>> R = randomized_response(3, p="1/4")
>>> max_expected_error(R, discrete(3))
1/2
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from flint import fmpq

from ..errors import InvalidInput
from ..exact.decide import simplify
from ..exact.expo import ExpFrac
from ..exact.lin import Lin

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["expected_error", "hlm15_theorem6_bound", "hlm15_theorem7_bound", "max_expected_error"]


def _rat_dist(d):
    if d == math.inf:
        raise InvalidInput("expected error: infinite distance between a secret and an output")
    if not isinstance(d, fmpq):
        raise InvalidInput(f"expected error: distance {d} is irrational; this needs rational distances")
    return d


def expected_error(mech: Mechanism, metric: FiniteMetric, x: str) -> Any:
    """Return ``E[rho(Y_x, x)] = sum_z K(x)(z) rho(z, x)`` exactly (outputs are metric points).

    The expected error of HLM15 (13) at one secret ``x``.

    Parameters
    ----------
    mech : Mechanism
        Outputs are points of ``metric`` (labels compared as strings).
    metric : FiniteMetric
        ``(D, rho)``, rational distances.
    x : str or object
        An input of ``mech`` that is a point of ``metric``.

    Returns
    -------
    fmpq or ExpFrac
        The exact expected distance between the output and ``x``.

    Raises
    ------
    InvalidInput
        An output that is not a point of the metric, or an irrational or
        infinite distance.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> expected_error(geometric(2, "1/2"), path(3), 0)     # 1/6 * 1 + 1/6 * 2
    1/2
    """
    i = mech.row_index[str(x)]
    total = fmpq(0)
    for j, z in enumerate(mech.outputs):
        if z not in metric.index:
            raise InvalidInput(f"expected error: output {z!r} is not a point of the metric")
        d = _rat_dist(metric.distance(x, z))
        if d != 0:
            total = total + mech[i, j] * d
    return simplify(total)


def max_expected_error(mech: Mechanism, metric: FiniteMetric) -> Any:
    """Return the maximal expected error ``max_x E[rho(Y_x, x)]`` of HLM15 (13), decided exactly.

    Parameters
    ----------
    mech : Mechanism
        Outputs are points of ``metric``.
    metric : FiniteMetric
        ``(D, rho)``, rational distances.

    Returns
    -------
    fmpq or ExpFrac
        The largest row's expected error (every row compared exactly).

    Raises
    ------
    InvalidInput
        An output that is not a point of the metric, or an irrational or
        infinite distance.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> max_expected_error(geometric(2, "1/2"), path(3))   # row 1: 1/3 + 1/3
    2/3
    """
    from ..exact.decide import sign

    best = None
    for x in mech.inputs:
        e = expected_error(mech, metric, x)
        if best is None or sign(e - best) > 0:
            best = e
    return best


def hlm15_theorem6_bound(metric: FiniteMetric, eps: Any, delta: Any = fmpq(0)) -> Any:
    """Return HLM15 Thm 6's lower bound ``(1 - delta) diam(D) / (2 (1 + e^eps))`` on the maximal expected error.

    Parameters
    ----------
    metric : FiniteMetric
        ``(D, rho)`` with a rational diameter.
    eps : str or fmpq or Lin or LogVal or ExpFrac
        ``eps`` as exact text, a rational, an algebraic number, ``c*log(q)``
        with integer ``c``, or ``e^eps`` itself as an ``ExpFrac``.
    delta : exact rational, default 0
        The ``delta`` of ``(eps, delta)``-privacy (HLM15 Def. 1).

    Returns
    -------
    fmpq or ExpFrac
        The exact bound.

    Raises
    ------
    InvalidInput
        An irrational or infinite diameter, or an ``eps`` whose ``e^eps`` is irrational algebraic (such
        as ``log(2)/2``) or outside the grammar
        (:class:`~exactdp.errors.ParseError`).

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> hlm15_theorem6_bound(path(3), "log(2)")            # 2 / (2 * 3)
    1/3
    >>> hlm15_theorem6_bound(path(3), "1", "1/2")
    ExpFrac('1/(2*exp(1) + 2)')
    """
    diam = _rat_dist(metric.diameter())
    return simplify((1 - fmpq(delta)) * diam / (2 * (1 + _exp(eps))))


def hlm15_theorem7_bound(metric: FiniteMetric, eps: Any, delta: Any = fmpq(0)) -> Any:
    """Return HLM15 Thm 7's lower bound ``(1 - delta) kappa m / (m + e^eps)`` on the maximal expected error.

    ``|D| = m + 1`` points and ``kappa = min rho``; randomized response with
    ``p = 1/(m + e^eps)`` attains it on the discrete metric (HLM15 Ex. 7).

    Parameters
    ----------
    metric : FiniteMetric
        ``(D, rho)`` with a rational smallest distance.
    eps : str or fmpq or Lin or LogVal or ExpFrac
        ``eps`` as exact text, a rational, an algebraic number, ``c*log(q)``
        with integer ``c``, or ``e^eps`` itself as an ``ExpFrac``.
    delta : exact rational, default 0
        The ``delta`` of ``(eps, delta)``-privacy (HLM15 Def. 1).

    Returns
    -------
    fmpq or ExpFrac
        The exact bound.

    Raises
    ------
    InvalidInput
        An irrational smallest distance, or a single point, or an ``eps`` whose ``e^eps`` is irrational algebraic (such
        as ``log(2)/2``) or outside the grammar
        (:class:`~exactdp.errors.ParseError`).

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> hlm15_theorem7_bound(discrete(3), "log(2)")        # 1 * 2 / (2 + 2)
    1/2
    >>> max_expected_error(randomized_response(3, p="1/4"), discrete(3))   # attains it
    1/2
    """
    m = len(metric) - 1
    kappa = _rat_dist(metric.min_distance())
    return simplify((1 - fmpq(delta)) * kappa * m / (m + _exp(eps)))


def _exp(eps):
    """``e^eps`` exactly for eps given as text, a rational, a Lin, ``c*log(q)``, or already as
    ``e^eps`` (an ExpFrac such as the symbolic ``1/alpha``)."""
    from ..exact.values import LogVal, exact_number

    if isinstance(eps, str):
        eps = exact_number(eps, what="eps")
    if isinstance(eps, ExpFrac):
        return eps
    if isinstance(eps, LogVal):
        if eps.coef.q != 1:
            raise InvalidInput(f"e^({eps}) is irrational algebraic; use a rational multiple of log with integer factor")
        return eps.base ** int(eps.coef.p)
    return ExpFrac.exp(Lin.coerce(eps))


