"""Local hashing (BLH, OLH) with an explicit finite hash family, and Hadamard response.

**Local hashing** ([WBLJ17] sec. 4.4).  The user draws ``h`` uniformly from a
finite family ``H`` of maps ``[k] -> [g]``, hashes ``x = h(v)`` and reports
``(h, y)`` with ``y`` from g-ary randomized response on ``x``:
``Pr[(h, y) | v] = (1/|H|) e^eps/(e^eps + g - 1)`` if ``y = h(v)``, else
``(1/|H|) 1/(e^eps + g - 1)``.  ``Support(h, y) = {v : h(v) = y}``.  The
protocol is pure with ``p* = e^eps/(e^eps+g-1)`` and ``q* = 1/g`` exactly when
every two inputs collide with probability exactly ``1/g`` over ``H``; the two
families here are explicit and have that property:

* ``family="linear"`` (the default, any ``g >= 2``): let ``p`` be the smallest
  prime factor of ``g``; write ``v`` in base ``p`` with ``m`` digits
  (``p^m >= k``); ``h_a(v) = sum_i a_i v_i mod g`` for every ``a in Z_g^m``.
  For ``u != v`` the digit difference ``d = v - u`` has a coordinate
  ``0 < |d_i| < p``, coprime to ``g``, so ``a_i d_i`` is uniform on ``Z_g``
  whatever the other ``a_j``: ``h_a(v) = h_a(u)`` with probability exactly
  ``1/g``.  ``|H| = g^m`` (for a prime ``g`` this is the usual inner-product
  family over ``GF(g)``).
* ``family="all"``: every map ``[k] -> [g]``; ``|H| = g^k``.

A report is labelled ``"TABLE:y"`` where ``TABLE`` lists ``h(0), h(1), ...``
(digits run together when ``g <= 10``, else joined by ``.``).

**Hadamard response** ([ASZ19], the high-privacy scheme).  With ``K`` the
smallest power of two above ``k`` and ``H_K[i][j] = (-1)^popcount(i & j)``,
input ``v`` owns ``C_v = {j : H_K[v+1][j] = +1}`` (``K/2`` reports) and
reports ``j`` with probability ``2e^eps/(K(1+e^eps))`` on ``C_v``, ``2/(K(1+e^eps))``
off it.  Two sets ``C_v, C_u`` meet in ``K/4`` points, so ``p* = e^eps/(1+e^eps)``,
``q* = 1/2``.

>>> L = binary_local_hashing(3, eps="log(3)")
>>> L.shape, L.outputs[:3], L.entry(1, "010:1")
((3, 8), ('000:0', '000:1', '001:0'), 3/16)
>>> hadamard_response(3, alpha="1/3").entry(0, "1")
1/8

References
----------
- [WBLJ17] T. Wang, J. Blocki, N. Li, S. Jha, USENIX Security 2017, sec. 4.4
  (BLH: ``g = 2``; OLH: ``g = e^eps + 1``).
- [ASZ19] J. Acharya, Z. Sun, H. Zhang, "Hadamard Response: Estimating
  Distributions Privately, Efficiently, and with Little Communication",
  AISTATS 2019, sec. 4 (the scheme for ``e^eps < 2``, used here for every eps).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from flint import fmpq

from ..errors import InputTooLarge, InvalidInput
from ..mechanism import Mechanism
from ._levels import exp_eps, floor_of, int_arg, level_arg
from .ldp import MAX_REPORTS, Oracle, _oracle

__all__ = [
    "MAX_HASH_REPORTS",
    "binary_local_hashing",
    "hadamard_response",
    "local_hashing",
    "olh_g",
    "optimal_local_hashing",
]

_FAMILIES = ("linear", "all")


#: most reports (``|H| g`` columns) of local hashing
MAX_HASH_REPORTS = 1 << 16


def _family(k: int, g: int, family: str) -> list:
    """The hash functions as value tables ``(h(0), ..., h(k-1))``."""
    if family == "linear":
        p = next(d for d in range(2, g + 1) if g % d == 0)      # the smallest prime factor of g
        m = 1
        while p**m < k:
            m += 1
        if g ** (m + 1) > MAX_HASH_REPORTS:
            raise InputTooLarge(f"local hashing: {g}^{m} functions x {g} values exceed {MAX_HASH_REPORTS} reports")
        digits = [[(v // p**i) % p for i in range(m)] for v in range(k)]
        return [tuple(sum(a * d for a, d in zip(av, dv, strict=True)) % g for dv in digits)
                for av in itertools.product(range(g), repeat=m)]
    if family == "all":
        if g ** (k + 1) > MAX_HASH_REPORTS:
            raise InputTooLarge(f"local hashing: family 'all' has {g}^{k} functions x {g} values, more than "
                                f"{MAX_HASH_REPORTS} reports; hint: family='linear'")
        return list(itertools.product(range(g), repeat=k))
    raise InvalidInput(f"local hashing family: expected one of {', '.join(_FAMILIES)}, got {family!r}")


def _lh(k, level, g, family=None) -> Oracle:
    k = int_arg(k, "k", 2, MAX_REPORTS)
    g = int_arg(g, "g", 2, MAX_REPORTS)
    family = family if family is not None else "linear"
    H = _family(k, g, family)
    e = exp_eps(level, 1)
    p, q = e / (e + g - 1) / len(H), 1 / (e + g - 1) / len(H)
    sep = "" if g <= 10 else "."
    labels = [f"{sep.join(map(str, h))}:{y}" for h in H for y in range(g)]
    tab = np.array(H, dtype=np.int64)                                  # |H| x k
    codes = (tab.T[:, :, None] != np.arange(g)[None, None, :]).reshape(k, -1).astype(np.int32)  # 0: p, 1: q
    supports = [np.nonzero(tab[i] == y)[0].tolist() for i in range(len(H)) for y in range(g)]
    return _oracle(k, labels, codes, supports, f"local hashing (k = {k}, g = {g}, {family} family)",
                   f"local hashing, g = {g}, explicit {family} hash family (WBLJ17 sec. 4.4)", values=[p, q])


def local_hashing(k: int, g: int, *, family: str | None = None, eps: Any = None, alpha: Any = None,
                  level: Any = None) -> Mechanism:
    """Local hashing with ``g`` hash values and an explicit finite family ([WBLJ17] sec. 4.4).

    ``Pr[(h, y) | v] = e^eps/((e^eps + g - 1)|H|)`` if ``h(v) = y``, else
    ``1/((e^eps + g - 1)|H|)`` (module docstring).  Exactly eps-LDP: every two
    inputs are separated by some ``h`` of either family.

    Parameters
    ----------
    k : int
        Inputs ``0..k-1``, ``k >= 2``.
    g : int
        Hash range ``{0..g-1}``, ``g >= 2``.
    family : {"linear", "all"}, default "linear"
        ``"linear"`` (``g^m`` functions, ``p^m >= k`` for ``p`` the smallest
        prime factor of ``g``) or ``"all"`` (``g^k`` functions).
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``k x (|H| g)``; reports labelled ``"TABLE:y"``.

    Raises
    ------
    InvalidInput
        ``k < 2``, ``g < 2``, an unknown family, more than ``MAX_HASH_REPORTS`` reports
        (:class:`~exactdp.errors.InputTooLarge`), or a bad level.
    InvalidType
        A non-integer ``k`` or ``g``.

    Examples
    --------
    >>> L = local_hashing(2, 3, eps="log(2)")
    >>> L.shape, L.entry(1, "01:1"), L.entry(1, "01:2")
    ((2, 9), 1/6, 1/12)

    References
    ----------
    [WBLJ17] sec. 4.4.
    """
    return _lh(k, level_arg(eps, alpha, level, required=False), g, family).mechanism


def binary_local_hashing(k: int, *, eps: Any = None, alpha: Any = None, level: Any = None) -> Mechanism:
    """Binary local hashing (BLH): :func:`local_hashing` with ``g = 2`` and the linear family ([WBLJ17] sec. 4.4).

    ``h_a(v) = <a, bits(v)> mod 2`` over all ``a in {0,1}^m``, ``2^m >= k``.

    Parameters
    ----------
    k : int
        Inputs ``0..k-1``, ``k >= 2``.
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``k x 2^(m+1)``.

    Raises
    ------
    InvalidInput
        As :func:`local_hashing`.
    InvalidType
        A non-integer ``k``.

    Examples
    --------
    >>> B = binary_local_hashing(4, alpha="1/3")
    >>> B.entry(3, "0110:0"), B.entry(3, "0110:1")
    (3/16, 1/16)

    References
    ----------
    [WBLJ17] sec. 4.4 (BLH).
    """
    return _lh(k, level_arg(eps, alpha, level, required=False), 2, "linear").mechanism


def olh_g(level) -> int:
    """OLH's hash range ``g = round(e^eps) + 1`` with ``round(t) = floor(t + 1/2)``, decided exactly.

    [WBLJ17] sec. 4.4 gives the real optimum ``g = e^eps + 1``; an integer is
    needed.  For a rational ``e^eps`` the rounding is exact (halves round up);
    otherwise ``e^eps`` is irrational, never a half-integer, and certified
    balls at rising precision decide it.

    Parameters
    ----------
    level : Level
        The privacy level.

    Returns
    -------
    int
        ``g >= 2``.

    Examples
    --------
    >>> from exactdp.exact.level import level_of
    >>> olh_g(level_of(eps="log(3)")), olh_g(level_of(eps="1")), olh_g(level_of(eps="log(5/2)"))
    (4, 4, 4)
    """
    e = level.factor(fmpq(1))
    if isinstance(e, fmpq):
        return floor_of(e + fmpq(1, 2)) + 1
    return max(floor_of(e, lambda prec: level.factor_arb(fmpq(1)) + fmpq(1, 2)) + 1, 2)


def optimal_local_hashing(k: int, *, family: str | None = None, eps: Any = None, alpha: Any = None,
                          level: Any = None) -> Mechanism:
    """Optimal local hashing (OLH): :func:`local_hashing` with ``g = olh_g(eps)`` ([WBLJ17] sec. 4.4).

    Parameters
    ----------
    k : int
        Inputs ``0..k-1``, ``k >= 2``.
    family : {"linear", "all"}, default "linear"
        The hash family (see :func:`local_hashing`).
    eps, alpha, level : exact number or Level
        The level (required: ``g`` depends on it).

    Returns
    -------
    Mechanism
        ``k x (|H| g)``.

    Raises
    ------
    InvalidInput
        As :func:`local_hashing`, or no level.
    InvalidType
        A non-integer ``k``.

    Examples
    --------
    >>> optimal_local_hashing(3, eps="log(2)").shape       # g = 3, linear family, m = 1
    (3, 9)

    References
    ----------
    [WBLJ17] sec. 4.4 (OLH).
    """
    lv = level_arg(eps, alpha, level)
    return _lh(k, lv, olh_g(lv), family).mechanism


def _hr(k, level) -> Oracle:
    k = int_arg(k, "k", 2, MAX_REPORTS - 1)
    K = 1
    while k >= K:
        K *= 2
    e = exp_eps(level, 1)
    hi, lo = 2 * e / (K * (1 + e)), 2 / (K * (1 + e))
    C = [{j for j in range(K) if bin((v + 1) & j).count("1") % 2 == 0} for v in range(k)]
    rows = [[hi if j in C[v] else lo for j in range(K)] for v in range(k)]
    supports = [{v for v in range(k) if j in C[v]} for j in range(K)]
    return _oracle(k, [str(j) for j in range(K)], rows, supports, f"Hadamard response (k = {k}, K = {K})",
                   "Hadamard response (ASZ19 sec. 4)")


def hadamard_response(k: int, *, eps: Any = None, alpha: Any = None, level: Any = None) -> Mechanism:
    """Hadamard response ([ASZ19]): report ``j`` in ``{0..K-1}``, ``e^eps`` times likelier on ``C_v``.

    ``K`` is the smallest power of two ``> k``; ``C_v`` is the set of ``+1``
    entries of row ``v + 1`` of the Sylvester--Hadamard matrix ``H_K``;
    ``Pr[j | v] = 2e^eps/(K(1 + e^eps))`` for ``j in C_v``, else
    ``2/(K(1 + e^eps))``.  Exactly eps-LDP (the two values' ratio).

    Parameters
    ----------
    k : int
        Inputs ``0..k-1``, ``k >= 2``.
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``k x K``.

    Raises
    ------
    InvalidInput
        ``k < 2``, too large, or a bad level.
    InvalidType
        A non-integer ``k``.

    Examples
    --------
    >>> H = hadamard_response(3, eps="log(3)")
    >>> [str(v) for v in H.rows()[0]]
    ['3/8', '1/8', '3/8', '1/8']

    References
    ----------
    [ASZ19] sec. 4 (Hadamard response).
    """
    return _hr(k, level_arg(eps, alpha, level, required=False)).mechanism
