"""The exponential mechanism ``K(x)(z) = exp(-beta d(x,z)) / sum_z' exp(-beta d(x,z'))``.

Normalised per row over a finite metric (outputs = the metric's points by
default).  In KL10's generality (Def. 2.6) the outputs live in a second metric
``(Y, sigma)``, the score is ``sigma(f(x), y)`` for a map ``f: X -> Y``, and a
base measure ``mu`` on ``Y`` weights the outputs.  With ``beta = eps/2`` it is ``eps d``-private (the normaliser ratio
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
from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Iterable

from flint import fmpq

from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import exact_str
from ..exact.expo import ExpFrac, _padd
from ..exact.lin import Lin
from ..exact.values import LogVal, Setting, exact_number
from ..mechanism import mechanism_from_values, rational_power_of

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["exponential"]


def exponential(metric: FiniteMetric, beta: Any = "eps/2", *, outputs: Iterable[Any] | None = None,
                name: str | None = None, output_metric: FiniteMetric | None = None,
                f: dict | Callable[[Any], Any] | None = None, mu: dict | list | None = None) -> Mechanism:
    """The (conventional) exponential mechanism, KL10 Def. 2.6.

    ``C_x(y) = mu(y) e^(-beta sigma(f(x), y)) / sum_y' mu(y') e^(-beta sigma(f(x), y'))``
    for inputs ``x`` of ``(X, rho)`` and outputs ``y`` of ``(Y, sigma)``.  With
    only ``metric`` and ``beta`` (today's call) ``Y = X``, ``sigma = rho``,
    ``f = id`` and ``mu`` is the counting measure.

    Parameters
    ----------
    metric : FiniteMetric
        The input space ``(X, rho)``.
    beta : exact number, ``c*log(q)`` or multiple of ``eps``
        Inverse temperature; default ``eps/2``.
    outputs : list of labels, optional
        Output points (a subset of ``Y``); default all points of ``Y``.
    output_metric : FiniteMetric, optional
        ``(Y, sigma)``; default ``metric``.
    f : dict or callable, optional
        ``f: X -> Y`` on labels; default the identity (then ``Y`` must contain
        ``X``'s labels).
    mu : dict or list, optional
        Base measure on ``Y``: exact weights ``>= 0`` (a dict by output label,
        or a list aligned with ``outputs``), not all zero.  **Reconstructed:**
        KL10 Def. 2.6 says "a measure mu on X"; the integrals run over ``Y``,
        so ``mu`` lives on ``Y``.  Default: weight 1 on every output.
    name : str, optional
        A name for messages and proofs.

    Returns
    -------
    Mechanism
        Inputs the points of ``X``, outputs the chosen points of ``Y``.

    Raises
    ------
    InvalidInput
        An output that is not a point of ``Y``, an ``f`` without an image for
        some input or with an image outside ``Y``, a bad ``mu`` (missing,
        negative or all-zero weights, wrong length), an infinite distance, or
        a ``beta`` outside the grammar (:class:`~exactdp.errors.ParseError`)
        or outside the exact regimes (:class:`~exactdp.errors.UnsupportedRegime`).
    InvalidType
        A ``beta`` given as a binary float.

    Examples
    --------
    >>> from exactdp.metrics import path, discrete
    >>> E = exponential(discrete(2), beta="log(2)", mu={"0": "3/4", "1": "1/4"})
    >>> [[str(v) for v in r] for r in E.rows()]
    [['6/7', '1/7'], ['3/5', '2/5']]
    >>> F = exponential(path(3), beta="log(2)", output_metric=path(5), f={"0": "0", "1": "2", "2": "4"})
    >>> [str(v) for v in F.rows()[1]]
    ['1/10', '1/5', '2/5', '1/5', '1/10']

    References
    ----------
    KL10 Def. 2.6 and Thm 2.7 (``2 C beta``-private, ``C`` the Lipschitz
    constant of ``f``); McSherry--Talwar (FOCS 2007).
    """
    b = exact_number(beta, Setting.symbolic(), what="beta")
    if isinstance(b, fmpq):
        b = Lin.rat(b)
    Y = metric if output_metric is None else output_metric
    pts = list(Y.points) if outputs is None else [str(o) for o in outputs]
    cols: list = [Y.index.get(z) for z in pts]  # ints once the None check below has passed
    if any(c is None for c in cols):
        raise InvalidInput(f"exponential outputs: {pts[cols.index(None)]!r} is not a point of the output metric")
    fx = map_f(f, metric, Y)
    weights = _base_measure(mu, pts)
    rows = []
    for i in range(len(metric)):
        terms = []
        for j, m in zip(cols, weights, strict=True):
            d = Y.d(fx[i], j)
            if d == math.inf:
                raise InvalidInput("exponential mechanism: infinite distance; the metric must be connected")
            t = _weight(b, d)
            terms.append(t * m if m != 1 else t)
        rows.append(_normalise(terms))
    return mechanism_from_values(metric.points, pts, rows,
                                 name=name or f"exponential(beta = {exact_str(b) if not isinstance(b, LogVal) else b})")


def _normalise(terms: list) -> list:
    Z = ExpFrac.const(0)
    num_sum: dict = {}
    rat_sum = fmpq(0)
    for t in terms:
        if isinstance(t, fmpq):
            rat_sum += t
        else:
            if not t.is_polynomial():
                raise InvalidInput("exponential mechanism: a weight is not an exponential polynomial")
            num_sum = _padd(num_sum, t.num)
    if num_sum:
        Z = ExpFrac(_padd(num_sum, {Lin(): rat_sum}) if rat_sum else num_sum)
        return [t / Z for t in terms]
    return [t / rat_sum for t in terms]


def map_f(f, X, Y):
    """Index in ``Y`` of ``f(x)`` for each point of ``X``."""
    out = []
    for x in X.points:
        if f is None:
            y = x
        elif callable(f):
            y = str(f(x))
        else:
            if x not in f and not any(str(k) == x for k in f):
                raise InvalidInput(f"f: no image for the input {x!r}; f must map every point of X to a point of Y")
            y = str(f[x]) if x in f else str(next(v for k, v in f.items() if str(k) == x))
        j = Y.index.get(y)
        if j is None:
            raise InvalidInput(f"f: f({x!r}) = {y!r} is not a point of the output metric"
                               + ("; hint: give output_metric and f when X and Y differ" if f is None else ""))
        out.append(j)
    return out


def _base_measure(mu, pts):
    if mu is None:
        return [1] * len(pts)
    if isinstance(mu, dict):
        mu = {str(k): v for k, v in mu.items()}
        missing = [p for p in pts if p not in mu]
        if missing:
            raise InvalidInput(f"mu: no weight for the output {missing[0]!r}; give a weight (possibly 0) for every "
                               "output")
        vals = [mu[p] for p in pts]
    else:
        vals = list(mu)
        if len(vals) != len(pts):
            raise InvalidInput(f"mu: {len(vals)} weights for {len(pts)} outputs")
    out = []
    for p, v in zip(pts, vals, strict=True):
        q = exact_number(v, what=f"mu[{p!r}]")
        if not isinstance(q, fmpq) or q < 0:
            raise InvalidInput(f"mu[{p!r}]: expected an exact rational weight >= 0, got {v!r}")
        out.append(q)
    if all(q == 0 for q in out):
        raise InvalidInput("mu: every weight is 0; the base measure must give some output positive weight")
    return out


def _weight(b, d):
    if isinstance(b, LogVal):
        # exp(-c log(q) d) = q^(-c d) must be rational
        e = b.coef * (d if isinstance(d, fmpq) else _not_rational(d))
        if e.q != 1:
            w = rational_power_of(fmpq(b.base), -e)     # 4^(1/2) = 2 is rational (issue 29)
            if w is None:
                raise UnsupportedRegime(f"{b.base}^({-e}) is irrational; use a rational or eps-multiple beta")
            return w
        return b.base ** int(-e.p)
    if not isinstance(b, Lin):
        raise InvalidInput(f"beta: expected a number, c*log(q) or a multiple of eps, got {b}")
    return ExpFrac.exp(-(b * Lin.coerce(d)))


def _not_rational(d):
    raise UnsupportedRegime(f"distance {d} is irrational; beta = c*log(q) needs rational distances")
