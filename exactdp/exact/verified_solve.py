"""Verified solution of ``A x = b`` from a floating-point solve (Rump's a-posteriori method), decided exactly.

Floats *guide*: numpy computes an approximate inverse ``R`` and an approximate solution ``x~`` (refined once).
Every quantity that *decides* is exact: Rump's theorem (S. M. Rump, "Verification methods: rigorous results
using floating-point arithmetic", Acta Numerica 19 (2010), Thm. 10.5; Krawczyk's operator) says

    if  ||I - R A||_inf <= beta < 1,  then  A  is nonsingular and, with  r = b - A x~,
    |A^-1 b - x~|  <=  |R r| + |I - R A| 1 * delta,    delta = ||R r||_inf / (1 - beta)   (componentwise).

The matrix is given in **fixed point**: ``A = sum_j S_j 2^(-w j) + E`` with integer matrices ``S_j`` and an
entrywise bound ``0 <= E_ij <= eta`` (``eta`` exact) -- how a matrix of transcendental entries
``e^(-eps d)`` reaches this module (each entry enclosed in a fixed-point interval).  ``R`` is rounded to
fixed point too, so every product ``R_i S_j`` of integer digits below ``2^w`` is a sum of integers below
``2^53``: computed by a float matrix product it is **exact** whatever the summation order (IEEE 754: every
partial result is a representable integer).  ``I - R A`` is assembled from those exact products by
integer Horner steps (so its cancellation is exact), the residual ``b - A x~`` in exact integers, and the
bounds in exact rationals.  The result: exact rational enclosures of every ``x_i`` and their signs.

>>> import numpy as np
>>> from flint import fmpq
>>> r = verified_solve([np.array([[2.0, 1.0], [1.0, 3.0]])], 20, fmpq(0), [fmpq(1), fmpq(1)])
>>> r.signs
[1, 1]
>>> [lo <= v <= hi for v, (lo, hi) in zip([fmpq(2, 5), fmpq(1, 5)], r.enclosures)]
[True, True]
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import numpy as np
from flint import fmpq

from ..errors import InvalidInput

__all__ = ["VerifiedSolve", "blas_single_thread", "digit_width", "verified_solve"]


def blas_single_thread() -> AbstractContextManager[Any]:
    """Context manager limiting BLAS/LAPACK to one thread (threadpoolctl).

    The float guides solve many small systems; on a shared, loaded machine a multi-threaded LAPACK call on a
    376 x 376 system was measured 35x slower than a single-threaded one.

    Returns
    -------
    contextlib.AbstractContextManager
        Enter it around the float work.

    Examples
    --------
    >>> import numpy as np
    >>> with blas_single_thread():
    ...     x = np.linalg.solve(np.array([[2.0]]), np.array([4.0]))
    >>> x.tolist()
    [2.0]
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl is a declared dependency
        import contextlib
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")

_EXACT = 2 ** 53


@dataclass
class VerifiedSolve:
    """Result of :func:`verified_solve`.

    ``enclosures[i] = (lo, hi)`` exact rationals with ``lo <= x_i <= hi``; ``signs[i]`` the certified sign
    of ``x_i`` (``None`` where ``lo <= 0 <= hi``); ``beta`` an exact bound ``||I - R A||_inf <= beta < 1``
    (so ``A`` is nonsingular); ``center`` the approximate solution ``x~`` (exact dyadics); ``inverse`` the
    float approximate inverse ``R`` it was verified with (a guide a certificate may carry, so that a re-check
    can redo the verification without inverting the matrix).

    Parameters
    ----------
    enclosures : list of tuple
        ``(lo, hi)`` per unknown, exact rationals.
    signs : list
        1, -1 or ``None`` per unknown.
    beta : fmpq
        The exact bound on ``||I - R A||_inf``.
    center : list
        ``x~``, exact dyadics.
    inverse : numpy.ndarray, optional
        The float ``R``.

    Examples
    --------
    ``2 x0 + x1 = 1``, ``x0 + 3 x1 = 1`` has the solution ``(2/5, 1/5)``:

    >>> import numpy as np
    >>> r = verified_solve([np.array([[2.0, 1.0], [1.0, 3.0]])], 20, fmpq(0), [fmpq(1), fmpq(1)])
    >>> r.signs, r.beta < 1, [lo <= v <= hi for v, (lo, hi) in zip([fmpq(2, 5), fmpq(1, 5)], r.enclosures)]
    ([1, 1], True, [True, True])
    """

    enclosures: list
    signs: list
    beta: fmpq
    center: list
    inverse: np.ndarray | None = None


def digit_width(n: int) -> int:
    """Return the bits per digit so that a length-``n`` dot product of digits stays below ``2^52`` (exact in float).

    Parameters
    ----------
    n : int
        The length of the dot products.

    Returns
    -------
    int
        ``w >= 4`` with ``n 2^(2w) <= 2^52``.

    Examples
    --------
    A length-1000 product of 21-bit digits sums 1000 terms below ``2^42``, under ``2^52``:

    >>> digit_width(1000), digit_width(2)
    (21, 25)
    """
    return max(4, (52 - max(1, math.ceil(math.log2(max(n, 2))))) // 2)


def _split(v: np.ndarray, w: int, nd: int) -> list:
    """Signed base-``2^w`` digits (most significant first) of an int64 array with ``|v| < 2^(w nd)``."""
    s, a = np.sign(v), np.abs(v)
    mask = (1 << w) - 1
    return [(s * ((a >> (w * (nd - 1 - t))) & mask)).astype(np.float64) for t in range(nd)]


def _split_ints(vals: list, w: int):
    """Signed base-``2^w`` digits of Python ints (any size): ``(digits, nd)``, most significant first."""
    nd = max(1, max((abs(v).bit_length() for v in vals), default=0) // w + 1)
    mask = (1 << w) - 1
    digs = []
    for t in range(nd):
        sh = w * (nd - 1 - t)
        digs.append(np.array([(1 if v >= 0 else -1) * ((abs(v) >> sh) & mask) for v in vals], dtype=np.float64))
    return digs, nd


def _exact_matvec(S: list, w: int, vec_ints: list) -> list:
    """``sum_j S_j 2^(-w j) @ v`` times ``2^(w (len(S)-1))`` as exact Python ints, for integer vector ``v``
    (``S`` the float digit matrices of an integer matrix, most significant first: its exact product with ``v``)."""
    digs, nd = _split_ints(vec_ints, w)
    k = S[0].shape[0]
    acc = [0] * k
    nS = len(S)
    for j, Sj in enumerate(S):
        for t, d in enumerate(digs):
            p = Sj @ d
            sh = w * (nS - 1 - j) + w * (nd - 1 - t)
            for i, v in enumerate(p.tolist()):
                if v:
                    acc[i] += int(v) << sh
    return acc


def verified_solve(S: list, w: int, eta: Any, rhs: Any, *, r_digits: int = 2, levels: int = 3,
                   x_bits: int = 110) -> VerifiedSolve | None:
    """Enclose ``A^-1 b`` for ``A = sum_j S[j] 2^(-w j) + E``, ``0 <= E_ij <= eta`` (see the module docstring).

    Parameters
    ----------
    S : list of numpy float64 arrays (k x k) holding integers
        The digits; ``S[0]`` carries the units.  Every row and column sum of ``|S[j]|`` times ``2^w`` must
        stay below ``2^53`` (checked), so that the float products are exact.
    w : int
        Bits per digit (see :func:`digit_width`).
    eta : fmpq
        Entrywise bound on the remainder ``E >= 0``.
    rhs : list of fmpq
        The right-hand side ``b``.
    r_digits : int, optional
        Base-``2^w`` digits kept of the approximate inverse ``R`` in fixed point.
    levels : int, optional
        Digit levels ``i + j < levels`` of ``R_i S_j`` computed exactly in ``I - R A``; the rest is bounded
        by norms.
    x_bits : int, optional
        Bits of the refined center ``x~`` below its largest entry.

    Returns
    -------
    VerifiedSolve or None
        ``None`` when the float inverse could not be verified (``beta >= 1``): ill-conditioned or singular.

    Raises
    ------
    InvalidInput
        If the digits are not integers or too large for exact float products, or ``levels < 1`` (the identity
        of ``I - R A`` is in level 0).

    Examples
    --------
    A singular matrix is not verified:

    >>> import numpy as np
    >>> verified_solve([np.array([[1.0, 1.0], [1.0, 1.0]])], 20, fmpq(0), [fmpq(1), fmpq(1)]) is None
    True
    """
    if not isinstance(levels, int) or isinstance(levels, bool) or levels < 1:
        raise InvalidInput(f"levels must be an integer >= 1, not {levels!r}")
    with blas_single_thread():
        return _verified_solve(S, w, eta, rhs, r_digits, levels, x_bits)


def _verified_solve(S, w, eta, rhs, r_digits, levels, x_bits):
    k = S[0].shape[0]
    eta = fmpq(eta)
    # products R_i S_j sum down columns, matrix-vector products S_j x along rows: bound both
    colmax = max(max(float(np.abs(Sj).sum(axis=0).max()), float(np.abs(Sj).sum(axis=1).max())) for Sj in S)
    if colmax * 2 ** w >= _EXACT or any(not np.array_equal(Sj, np.round(Sj)) for Sj in S):
        raise InvalidInput("verified_solve: digits too large for exact float products (or not integers); hint: use "
                           "digit_width(k) bits per digit")
    Mf = sum(Sj * 2.0 ** (-w * j) for j, Sj in enumerate(S))
    try:
        Rf = np.linalg.inv(Mf)
    except np.linalg.LinAlgError:
        return None
    if not np.isfinite(Rf).all():
        return None
    # R' = 2^a sum_i R_i 2^(-w (i+1)), signed digits |R_i| < 2^w
    a = math.frexp(float(np.abs(Rf).max()))[1] + 1
    if a > w:
        return None
    R_int = np.round(np.ldexp(Rf, w * r_digits - a)).astype(np.int64)
    Rd = _split(R_int, w, r_digits)
    absR1 = [fmpq(int(v)) * fmpq(2) ** (a - w * r_digits) for v in np.abs(R_int).sum(axis=1).tolist()]
    g = _g_bounds(S, w, Rd, a, levels, k, eta, absR1)
    if g is None or not all(v < 1 for v in g):
        return None
    beta = max(g)
    xt = _refined_center(S, w, Rf, rhs, x_bits)
    X, s = xt
    AX = _exact_matvec(S, w, X)  # = (M X) 2^(w (len(S)-1)), M x~ = AX 2^(-w (len(S)-1) - s)
    den = fmpq(2) ** (w * (len(S) - 1) + s)
    r = [fmpq(b) - fmpq(v) / den for b, v in zip(rhs, AX, strict=True)]
    x_center = [fmpq(v) / fmpq(2) ** s for v in X]
    x1n = sum((abs(v) for v in x_center), fmpq(0))
    head = _head_bounds(Rd, w, a, r, absR1, eta, x1n)
    delta = max(head) / (1 - beta)
    enc, signs = [], []
    for i in range(k):
        e = head[i] + g[i] * delta
        lo, hi = x_center[i] - e, x_center[i] + e
        enc.append((lo, hi))
        signs.append(1 if lo > 0 else (-1 if hi < 0 else None))
    return VerifiedSolve(enc, signs, beta, x_center, inverse=Rf)


def _g_bounds(S, w, Rd, a, levels, k, eta, absR1):
    """Exact upper bounds of the row sums of ``|I - R' A|``."""
    nR, nS = len(Rd), len(S)
    H: np.ndarray | None = None
    for lev in range(levels):
        T = None
        for i in range(nR):
            j = lev - i
            if 0 <= j < nS:
                P = Rd[i] @ S[j]
                T = P if T is None else T + P
        T = np.zeros((k, k)) if T is None else T
        Ti = T.astype(np.int64)
        if lev == 0:
            H = -Ti
            H[np.diag_indices(k)] += 1 << (w - a)
        else:
            assert H is not None  # set at level 0
            if np.abs(H).max() >= 2 ** (62 - w):
                return None
            H = (H << w) - Ti
    assert H is not None, "levels >= 1"  # levels = 0 would leave out the identity of I - R A
    if int(np.abs(H).max()) >= 2 ** 62 // max(k, 1):
        return None  # the row sums below would not fit in 64 bits (and beta would not be small)
    scale = fmpq(2) ** (a + w - w * (levels + 1))
    rows = [fmpq(int(v)) * scale for v in np.abs(H).sum(axis=1).tolist()]
    # digits products not included (i + j >= levels): bounded by ||R_i||_inf ||S_j||_inf
    tail = fmpq(0)
    for i in range(nR):
        ri = int(np.abs(Rd[i]).sum(axis=1).max())
        for j in range(nS):
            if i + j >= levels:
                sj = int(np.abs(S[j]).sum(axis=1).max())
                tail += fmpq(ri * sj) * fmpq(2) ** (a + w - w * (i + j + 2))
    return [v + tail + ar * k * eta for v, ar in zip(rows, absR1, strict=True)]


def _refined_center(S, w, Rf, rhs, x_bits):
    """``x~`` as integers ``X`` with ``x~ = X 2^-s``: a float solve refined once with an exact residual."""
    bf = np.array([float(v) for v in rhs])
    x1 = Rf @ bf
    s1 = min(900, x_bits - math.frexp(float(np.abs(x1).max()) or 1.0)[1])
    X1 = [round(v * 2.0 ** s1) for v in x1.tolist()]
    AX = _exact_matvec(S, w, X1)
    den = fmpq(2) ** (w * (len(S) - 1) + s1)
    r = np.array([float(fmpq(b) - fmpq(v) / den) for b, v in zip(rhs, AX, strict=True)])
    x2 = Rf @ r
    X = [x + round(v * 2.0 ** s1) for x, v in zip(X1, x2.tolist(), strict=True)]
    return X, s1


def _head_bounds(Rd, w, a, r, absR1, eta, x1n):
    """Exact upper bounds of ``|R' (b - A x~)|_i`` (including the remainder ``E``)."""
    rmax = max((abs(v) for v in r), default=fmpq(0))
    # r' = fixed point of r with 60 bits below its largest entry; |r - r'| <= 2^-t
    t = 60 - (math.frexp(float(rmax))[1] if rmax != 0 else 0)
    rr = [int((v * fmpq(2) ** t).floor()) for v in r]
    acc = _exact_matvec(Rd, w, rr)
    scale = fmpq(2) ** (a - w * len(Rd) - t)
    err = fmpq(1) / fmpq(2) ** t
    return [abs(fmpq(v)) * scale + ar * err + ar * eta * x1n for v, ar in zip(acc, absR1, strict=True)]
