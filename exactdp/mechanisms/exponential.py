"""The exponential mechanism ``K(x)(z) = exp(-beta d(x,z)) / sum_z' exp(-beta d(x,z'))``.

Normalised per row over a finite metric (outputs = the metric's points by
default).  With ``beta = eps/2`` it is ``eps d``-private (the normaliser ratio
contributes at most ``e^(beta d(x,x'))``).  Entries are exact transcendental
numbers when ``beta`` is a number, or functions of the symbolic alpha when
``beta`` is a multiple of ``eps`` (integer or rational distances only).  ECP14
sec. 7.2 discretises the planar Laplace mechanism this way.

>>> from exactdp.metrics import path
>>> E = exponential(path(2), beta="log(2)")
>>> E.entry(0, 1)
1/3
>>> exponential(path(2)).entry(0, 0)
ExpFrac('1/(1 + alpha^(1/2))')
"""

from __future__ import annotations

import math

from flint import fmpq

from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import exact_str
from ..exact.expo import ExpFrac, _padd
from ..exact.lin import Lin
from ..exact.values import LogVal, Setting, exact_number
from ..mechanism import mechanism_from_values

__all__ = ["exponential"]


def exponential(metric, beta="eps/2", *, outputs=None, name=None):
    """The exponential mechanism over a finite metric.

    Parameters
    ----------
    metric : FiniteMetric
    beta : exact number, ``c*log(q)`` or multiple of ``eps``
        Inverse temperature; default ``eps/2``.
    outputs : list of labels, optional
        Output points (a subset of the metric's points); default all points.
    """
    b = exact_number(beta, Setting.symbolic(), what="beta")
    if isinstance(b, fmpq):
        b = Lin.rat(b)
    pts = list(metric.points) if outputs is None else [str(o) for o in outputs]
    cols = [metric.index.get(z) for z in pts]
    if any(c is None for c in cols):
        raise InvalidInput(f"exponential outputs: {pts[cols.index(None)]!r} is not a point of the metric")
    rows = []
    for i in range(len(metric)):
        terms = []
        for j in cols:
            d = metric.d(i, j)
            if d == math.inf:
                raise InvalidInput("exponential mechanism: infinite distance; the metric must be connected")
            terms.append(_weight(b, d))
        Z = ExpFrac.const(0)
        num_sum: dict = {}
        rat_sum = fmpq(0)
        for t in terms:
            if isinstance(t, fmpq):
                rat_sum += t
            else:
                num_sum = _padd(num_sum, t.num)
        if num_sum:
            Z = ExpFrac(_padd(num_sum, {Lin(): rat_sum}) if rat_sum else num_sum)
            row = [t / Z for t in terms]
        else:
            row = [t / rat_sum for t in terms]
        rows.append(row)
    return mechanism_from_values(metric.points, pts, rows,
                                 name=name or f"exponential(beta = {exact_str(b) if not isinstance(b, LogVal) else b})")


def _weight(b, d):
    if isinstance(b, LogVal):
        # exp(-c log(q) d) = q^(-c d) must be rational
        e = b.coef * (d if isinstance(d, fmpq) else _not_rational(d))
        if e.q != 1:
            raise UnsupportedRegime(f"{b.base}^({-e}) is irrational; use a rational or eps-multiple beta")
        return b.base ** int(-e.p)
    if not isinstance(b, Lin):
        raise InvalidInput(f"beta: expected a number, c*log(q) or a multiple of eps, got {b}")
    return ExpFrac.exp(-(b * Lin.coerce(d)))


def _not_rational(d):
    raise UnsupportedRegime(f"distance {d} is irrational; beta = c*log(q) needs rational distances")
