"""The discrete staircase mechanism on ``{0..n}`` (Geng--Viswanath), clamped to the range, exact.

[GV16] sec. V (integer-valued queries of sensitivity ``Delta``): with
``b = e^(-eps)`` and an integer ``r = gamma Delta`` in ``1..Delta``, the noise
``Z`` on the integers is symmetric, ``P(-i) = P(i)``, and for ``i >= 0`` with
``i = k Delta + j`` (``0 <= j < Delta``)

.. math:: P(i) = a\\, b^k \\cdot \\begin{cases} 1 & j < r \\\\ b & j \\ge r \\end{cases},
          \\qquad a = \\frac{1 - b}{2r + 2b(\\Delta - r) - (1 - b)}.

``P`` is non-increasing in ``|i|`` and ``P(i + Delta) = b P(i)``, so
``P(z) <= e^eps P(z + d)`` whenever ``|d| <= Delta``: ``x + Z`` is eps-DP
for neighbours ``|x - x'| <= Delta`` ([GV16] sec. V).  The output is clamped to
``{0..n}`` (``Pr[0 | x] = Pr[Z <= -x]``, ``Pr[n | x] = Pr[Z >= n - x]``, the
tails summed in closed form), a post-processing, so the mechanism stays eps-DP
for the metric ``d(x, x') = ceil(|x - x'|/Delta)``; with ``n >= max(Delta + 1, 2)``
the ratio ``K(1)(1)/K(1+Delta)(1) = P(0)/P(Delta) = e^eps`` occurs inside the
range, so eps is its exact smallest level.  ``Delta = 1`` gives the geometric mechanism (GRS12 Ex. 2.1).

>>> S = staircase(4, delta=2, gamma="1/2", eps="log(2)")
>>> [str(v) for v in S.rows()[2]]
['3/10', '1/10', '1/5', '1/10', '3/10']

References
----------
- [GV16] Q. Geng, P. Viswanath, "The Optimal Noise-Adding Mechanism in
  Differential Privacy", IEEE Trans. Inf. Theory 62(2), 2016, sec. V
  (discrete setting); also Q. Geng, P. Kairouz, S. Oh, P. Viswanath, "The
  Staircase Mechanism in Differential Privacy", IEEE JSTSP 9(7), 2015.
"""

from __future__ import annotations

from typing import Any

from flint import fmpq

from ..errors import InvalidInput
from ..exact.values import to_rational
from ..mechanism import Mechanism, mechanism_from_values
from ._levels import exp_eps, int_arg, level_arg

__all__ = ["MAX_STAIRCASE_N", "staircase"]

#: largest n of the staircase builder
MAX_STAIRCASE_N = 400


class _Noise:
    """The staircase pmf ``P`` and its upper tails, exactly (module docstring)."""

    def __init__(self, b, delta: int, r: int):
        self.b, self.delta, self.r = b, delta, r
        self.a = (1 - b) / (2 * r + 2 * b * (delta - r) - (1 - b))
        self.block = self.a * (r + (delta - r) * b)          # mass of i in [0, Delta)

    def pmf(self, i: int):
        k, j = divmod(abs(i), self.delta)
        return self.a * self.b**k * (1 if j < self.r else self.b)

    def tail(self, m: int):
        """``Pr[Z >= m]`` for ``m >= 0``."""
        k, j = divmod(m, self.delta)
        part = self.a * (max(self.r - j, 0) + self.b * (self.delta - max(j, self.r)))
        return self.b**k * (part + self.b * self.block / (1 - self.b))


def _r_of(gamma, delta):
    g = to_rational(gamma, what="gamma")
    r = g * delta
    if not (0 < g <= 1) or r.q != 1:
        raise InvalidInput(f"gamma: expected 0 < gamma <= 1 with gamma*Delta an integer (r = gamma*Delta in "
                           f"1..{delta}), got {g}")
    return int(r.p)


def staircase(n: int, *, delta: int = 1, gamma: Any = 1, eps: Any = None, alpha: Any = None,
              level: Any = None) -> Mechanism:
    """The discrete staircase mechanism of [GV16] on ``{0..n}``, clamped, exactly eps-DP.

    ``K(x)(y) = P(y - x)`` inside the range, ``K(x)(0) = Pr[Z <= -x]``,
    ``K(x)(n) = Pr[Z >= n - x]`` (module docstring), eps-DP for
    ``d(x, x') = ceil(|x - x'|/Delta)``.

    Parameters
    ----------
    n : int
        Inputs and outputs ``0..n``, ``1 <= n <= MAX_STAIRCASE_N``.
    delta : int, default 1
        The query's sensitivity ``Delta >= 1``.
    gamma : exact rational, default 1
        [GV16]'s ``gamma`` in (0, 1]; the step ``r = gamma Delta`` must be an
        integer (``1 <= r <= Delta``).
    eps, alpha, level : exact number or Level, optional
        The level (``b = alpha = e^(-eps)``).  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``(n+1) x (n+1)``.

    Raises
    ------
    InvalidInput
        ``n``/``delta`` out of range, a ``gamma`` with ``gamma Delta`` not an
        integer in ``1..Delta``, or a bad level.
    InvalidType
        A non-integer ``n`` or ``delta``.

    Examples
    --------
    >>> [str(v) for v in staircase(2, eps="log(2)").rows()[1]]     # Delta = 1: the geometric mechanism
    ['1/3', '1/3', '1/3']
    >>> staircase(3, delta=2, gamma="1/3")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: gamma: expected 0 < gamma <= 1 with gamma*Delta an integer (r = gamma*Delta in
    1..2), got 1/3

    References
    ----------
    [GV16] sec. V (the discrete staircase), and the staircase-shaped pmf with ``r = gamma Delta``.
    """
    n = int_arg(n, "n", 1, MAX_STAIRCASE_N)
    delta = int_arg(delta, "delta", 1, MAX_STAIRCASE_N)
    r = _r_of(gamma, delta)
    lv = level_arg(eps, alpha, level, required=False)
    Z = _Noise(exp_eps(lv, -1), delta, r)
    rows = []
    for x in range(n + 1):
        rows.append([Z.tail(x)] + [Z.pmf(y - x) for y in range(1, n)] + [Z.tail(n - x)])
    m = mechanism_from_values(range(n + 1), range(n + 1), rows,
                              name=f"staircase (n = {n}, Delta = {delta}, gamma = {fmpq(r, delta)})")
    m.provenance = "discrete staircase mechanism, clamped (GV16 sec. V)"
    return m
