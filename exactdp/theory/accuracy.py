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

__all__ = ["expected_error", "max_expected_error", "hlm15_theorem6_bound", "hlm15_theorem7_bound"]


def _rat_dist(d):
    if d == math.inf:
        raise InvalidInput("expected error: infinite distance between a secret and an output")
    if not isinstance(d, fmpq):
        raise InvalidInput(f"expected error: distance {d} is irrational; this needs rational distances")
    return d


def expected_error(mech: Mechanism, metric: FiniteMetric, x: str) -> Any:
    """``E[rho(Y_x, x)] = sum_z K(x)(z) rho(z, x)`` exactly (outputs are metric points)."""
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
    """HLM15 (13): ``max_x E[rho(Y_x, x)]``; decided exactly (all rows compared)."""
    from ..exact.decide import sign

    best = None
    for x in mech.inputs:
        e = expected_error(mech, metric, x)
        if best is None or sign(e - best) > 0:
            best = e
    return best


def hlm15_theorem6_bound(metric: FiniteMetric, eps: Any, delta: Any = fmpq(0)) -> Any:
    """``(1 - delta) diam / (2 (1 + e^eps))`` for an exact Lin/fmpq ``eps`` (HLM15 Thm 6)."""
    diam = _rat_dist(metric.diameter())
    return simplify((1 - fmpq(delta)) * diam / (2 * (1 + _exp(eps))))


def hlm15_theorem7_bound(metric: FiniteMetric, eps: Any, delta: Any = fmpq(0)) -> Any:
    """``(1 - delta) kappa m / (m + e^eps)`` with ``m + 1`` points (HLM15 Thm 7)."""
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


