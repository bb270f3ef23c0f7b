"""The discrete Gaussian on a finite range, truncated and normalised per row (exact).

[CKS20] Def. 1: the discrete Gaussian ``N_Z(x, sigma^2)`` puts mass
proportional to ``exp(-(y - x)^2/(2 sigma^2))`` on each integer ``y``.
Restricted to the inputs and outputs ``{0..n}`` and normalised per row:

.. math:: K(x)(y) = \\frac{\\beta^{(y-x)^2}}{Z_x}, \\qquad Z_x = \\sum_{y'=0}^{n} \\beta^{(y'-x)^2},
          \\qquad \\beta = e^{-1/(2\\sigma^2)} \\in (0, 1).

``beta`` is exact in three ways: a rational (entries rational), ``exp(-c)`` or
a rational ``sigma^2`` (entries exponential polynomials, decided by
Lindemann--Weierstrass), or none -- the symbolic ``alpha`` of the kernel
stands for ``beta`` (all ``sigma`` at once).

**Smallest eps over the path** (derived here; the untruncated mechanism has no
finite pure eps, [CKS20] gives its concentrated DP): for neighbours
``x, x+1`` the ratio ``K(x)(y)/K(x+1)(y) = beta^(2(y-x)-1) Z_(x+1)/Z_x`` is
largest at ``y = 0``, and the reverse ratio at ``y = n`` is the mirror image
(``Z_x = Z_(n-x)``), so

.. math:: \\varepsilon^* = \\max_{0 \\le x < n} \\log\\Big(\\beta^{-(2x+1)} \\frac{Z_{x+1}}{Z_x}\\Big).

>>> G = discrete_gaussian(2, base="1/2")
>>> [str(v) for v in G.rows()[0]]
['16/25', '8/25', '1/25']

References
----------
- [CKS20] C. Canonne, G. Kamath, T. Steinke, "The Discrete Gaussian for
  Differential Privacy", NeurIPS 2020, Definition 1.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInput
from ..exact.level import Level
from ..exact.values import to_rational
from ..mechanism import Mechanism, mechanism_from_values
from ._levels import exp_eps, int_arg

__all__ = ["MAX_GAUSSIAN_N", "discrete_gaussian"]

#: largest n: entries are powers beta^(d^2), d <= n (degree n^2 in a symbolic beta)
MAX_GAUSSIAN_N = 60


def _base_level(base, sigma2):
    if base is not None and sigma2 is not None:
        raise InvalidInput("discrete Gaussian: give base or sigma2, not both")
    if sigma2 is not None:
        s = to_rational(sigma2, what="sigma2")
        if s <= 0:
            raise InvalidInput(f"sigma2: expected a rational sigma^2 > 0, got {s}")
        return Level.from_eps(str(1 / (2 * s)))
    if base is not None:
        try:
            return Level.from_alpha(base)
        except InvalidInput:                    # the level's own words would name alpha, not the base given
            raise InvalidInput(f"base: expected an exact number 0 < beta < 1 (beta = e^(-1/(2 sigma^2))), "
                               f"got {base!r}") from None
    return None


def discrete_gaussian(n: int, *, base: Any = None, sigma2: Any = None) -> Mechanism:
    """The discrete Gaussian on ``{0..n}``, truncated and normalised per row ([CKS20] Def. 1).

    ``K(x)(y) = beta^((y-x)^2) / sum_(y'=0..n) beta^((y'-x)^2)`` with
    ``beta = e^(-1/(2 sigma^2))`` (module docstring; the smallest eps over
    the path is stated there).

    Parameters
    ----------
    n : int
        Inputs and outputs ``0..n``, ``1 <= n <= MAX_GAUSSIAN_N``.
    base : exact number, optional
        ``beta`` in (0, 1): a rational (exact rational entries) or ``exp(-c)``.
    sigma2 : exact rational, optional
        ``sigma^2 > 0``; then ``beta = exp(-1/(2 sigma^2))`` is transcendental.
        Without ``base`` and ``sigma2`` the entries are functions of the
        symbolic ``alpha``, standing for ``beta``.

    Returns
    -------
    Mechanism
        ``(n+1) x (n+1)``.

    Raises
    ------
    InvalidInput
        ``n`` out of range (:class:`~exactdp.errors.InputTooLarge` above the
        limit), both ``base`` and ``sigma2``, ``beta`` outside (0, 1) or
        ``sigma^2 <= 0``.
    InvalidType
        A non-integer ``n``.

    Examples
    --------
    >>> discrete_gaussian(1, sigma2="1/2").entry(0, 1)
    ExpFrac('exp(-1)/(exp(-1) + 1)')
    >>> discrete_gaussian(1).entry(1, 1)
    ExpFrac('1/(1 + alpha)')

    References
    ----------
    [CKS20] Definition 1 (the distribution); the truncation to ``{0..n}`` is exactdp's.
    """
    n = int_arg(n, "n", 1, MAX_GAUSSIAN_N)
    lv = _base_level(base, sigma2)
    powers = [exp_eps(lv, -(d * d)) for d in range(n + 1)]   # beta^(d^2)
    rows = []
    for x in range(n + 1):
        w = [powers[abs(y - x)] for y in range(n + 1)]
        Z = sum(w[1:], w[0])
        rows.append([v / Z for v in w])
    what = f"sigma^2 = {to_rational(sigma2)}" if sigma2 is not None else (f"beta = {base}" if base is not None
                                                                          else "beta = alpha")
    m = mechanism_from_values(range(n + 1), range(n + 1), rows, name=f"discrete Gaussian (n = {n}, {what})")
    m.provenance = "truncated discrete Gaussian (CKS20 Def. 1)"
    return m

