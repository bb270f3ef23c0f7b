"""The range-restricted geometric mechanism on ``{0..n}`` (GRS12 Ex. 2.1, Sec. 5).

GRS12 (formulas restored in ``shared/papers/README.md``): with
``alpha = e^(-eps)`` in (0, 1), the alpha-geometric mechanism outputs ``i + Z``
with ``Pr[Z = z] = (1-alpha)/(1+alpha) * alpha^|z|``; clamping outputs to
``{0..n}`` gives

    Pr[0 | i] = alpha^i / (1+alpha),    Pr[n | i] = alpha^(n-i) / (1+alpha),
    Pr[r | i] = (1-alpha)/(1+alpha) * alpha^|r-i|    (0 < r < n).

ECP14 sec. 6.1 calls it the truncated geometric mechanism.

>>> G = geometric(2, "1/2")
>>> [[str(v) for v in row] for row in G.rows()]
[['2/3', '1/6', '1/6'], ['1/3', '1/3', '1/3'], ['1/6', '1/6', '2/3']]
>>> geometric(1).entry(0, 1)
ExpFrac('alpha/(1 + alpha)')
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from flint import fmpq

from ..errors import InputTooLarge, InvalidInput, InvalidType
from ..exact.expo import ExpFrac
from ..exact.lin import Lin
from ..mechanism import MAX_CELLS, Mechanism

__all__ = ["geometric"]


def _level_or_symbolic(alpha=None, eps=None):
    from ..exact.level import level_of

    return level_of(eps, alpha, required=False)


def geometric(n: int, alpha: Any = None, *, eps: Any = None) -> Mechanism:
    """The range-restricted alpha-geometric mechanism on ``{0..n}`` (GRS12 Ex. 2.1).

    Parameters
    ----------
    n : int
        Largest count; inputs and outputs are ``0..n`` (``n >= 1``).
    alpha, eps : exact number, optional
        The level (``alpha = e^(-eps)``).  Without either, entries are exact
        rational functions of a symbolic ``alpha`` (all eps at once).

    Returns
    -------
    Mechanism
        ``(n + 1) x (n + 1)``: ``Pr[0 | i] = alpha^i/(1+alpha)``,
        ``Pr[n | i] = alpha^(n-i)/(1+alpha)``, ``Pr[r | i] =
        (1-alpha)/(1+alpha) alpha^|r-i|`` for ``0 < r < n``; exact rationals
        at a rational alpha, exponential expressions at a transcendental one.

    Raises
    ------
    InvalidType
        ``n`` is not an integer.
    InvalidInput
        ``n < 1``, both ``alpha`` and ``eps`` given, or a level outside
        ``(0, 1)`` for alpha / ``eps <= 0``
        (:class:`~exactdp.errors.ParseError` for text outside the grammar,
        :class:`~exactdp.errors.InputTooLarge` above ``MAX_CELLS`` cells).

    Examples
    --------
    >>> [str(v) for v in geometric(3, "1/3").rows()[1]]
    ['1/4', '1/2', '1/6', '1/12']
    >>> geometric(2, eps="1").entry(0, 2)
    ExpFrac('exp(-2)/(exp(-1) + 1)')

    Notes
    -----
    The rows sum to 1 as an identity in alpha (validated exactly).  The table
    of distinct values has ``2n + 1`` entries, so checks scale with ``n`` not
    ``n^2``.

    References
    ----------
    GRS12 Example 2.1 and Section 5 (range restriction); ECP14 Sec. 6.1.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise InvalidType(f"geometric n: expected an integer, got {type(n).__name__} {n!r}")
    n = int(n)
    if n < 1:
        raise InvalidInput(f"geometric n: expected n >= 1, got {n}")
    if (n + 1) ** 2 > MAX_CELLS:
        raise InputTooLarge(f"geometric n: {(n + 1) ** 2} cells exceed the limit {MAX_CELLS}")
    level = _level_or_symbolic(alpha, eps)
    alpha_q = level.alpha() if level is not None else None
    exponent = level.exponent() if level is not None else None
    if isinstance(alpha_q, fmpq):  # a rational alpha: the values ``at`` gives, directly, in the same order
        values, at = _rational_values(n, alpha_q), level
    elif exponent is not None:  # alpha = exp(-eps): the same, with each exponent -k eps built once
        values, at = _exponent_values(n, exponent), level
    else:  # the symbolic alpha (specialised below by ``at``, which refuses an irrational algebraic alpha)
        values, at = _symbolic_values(n), None
    provenance = "range-restricted geometric mechanism (GRS12 Ex. 2.1)"
    K = Mechanism(range(n + 1), range(n + 1), _codes(n), values, name=f"geometric(n={n})", validate=False,
                  provenance=provenance if at is None else f"{provenance} specialised at eps = {at.eps_str()}")
    # Stochastic by construction, for every alpha in (0, 1): every value is alpha^k (1 or 1 - alpha) / (1 + alpha)
    # >= 0, and row i sums to (alpha^i + alpha^(n-i) + (1 - alpha)(1 + 2 alpha + ...)) / (1 + alpha) = 1, since
    # (1 - alpha)(alpha + ... + alpha^k) = alpha - alpha^(k+1) telescopes.  Validating every cell exactly cost
    # O(n^2) exact operations (1.6 s at n = 3999); tests/mechanisms/test_geometric.py validates the builder's
    # output that way and compares it entry by entry with a cell-by-cell construction from the formulas.
    K.validated = True
    return K.at(level) if level is not None and at is None else K


def _codes(n: int) -> np.ndarray:
    """The code matrix: ``e_i`` in column 0, ``e_(n-i)`` in column ``n``, ``c_|r-i|`` in between.

    Codes ``0..n`` are ``e_k``, codes ``n+1..2n`` are ``c_k = c_(code - n - 1)``.
    """
    # a Toeplitz matrix: row i is a window of v, v[n + r - i] = n + 1 + |r - i| (one copy, no n^2 arithmetic)
    v = (n + 1) + np.abs(np.arange(-n, n + 1, dtype=np.int32))
    codes = np.ascontiguousarray(sliding_window_view(v, n + 1)[::-1])
    idx = np.arange(n + 1, dtype=np.int32)
    codes[:, 0] = idx  # e_i
    codes[:, n] = n - idx  # e_{n-i}
    return codes


def _symbolic_values(n: int) -> list:
    """``e_k = alpha^k/(1+alpha)`` (k = 0..n) then ``c_k = (1-alpha) alpha^k/(1+alpha)`` (k = 0..n-1)."""
    a = ExpFrac.exp(-Lin.eps())
    one_plus = {**(1 + a).num}
    values = []
    for k in range(n + 1):
        values.append(ExpFrac({Lin.eps() * (-k): fmpq(1)} if k else {Lin(): fmpq(1)}, one_plus))
    for k in range(n):
        values.append(ExpFrac(_one_minus_alpha_times_alpha_k(k), one_plus))
    return values


def _exponent_values(n: int, eps: Lin) -> list:
    """The same values at ``alpha = exp(-eps)`` for a real algebraic ``eps`` (exponential polynomials)."""
    x = [Lin()] + [eps * (-k) for k in range(1, n + 2)]  # x[k] = -k eps
    one, minus = fmpq(1), fmpq(-1)
    den = {x[0]: one, x[1]: one}
    return ([ExpFrac({x[k]: one}, den) for k in range(n + 1)]
            + [ExpFrac({x[k]: one, x[k + 1]: minus}, den) for k in range(n)])


def _rational_values(n: int, alpha: fmpq) -> list:
    """The same values at a rational ``alpha`` (exact ``fmpq``)."""
    e0 = 1 / (1 + alpha)
    c0 = (1 - alpha) * e0
    es, cs = [e0], [c0]
    for _ in range(n):
        es.append(es[-1] * alpha)
    for _ in range(n - 1):
        cs.append(cs[-1] * alpha)
    return es + cs


def _one_minus_alpha_times_alpha_k(k):
    e = Lin.eps()
    return {(e * (-k)) if k else Lin(): fmpq(1), e * (-(k + 1)): fmpq(-1)}
