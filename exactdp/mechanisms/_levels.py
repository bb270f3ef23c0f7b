"""Shared helpers of the builders in this package: ``e^(t eps)`` exactly, integer arguments, exact floors.

A builder takes its privacy level once (:func:`~exactdp.exact.level.level_of`:
``eps``, ``alpha = e^(-eps)`` or a :class:`~exactdp.exact.level.Level`, or none
of them for a symbolic alpha) and asks :func:`exp_eps` for the factors
``e^(t eps)`` its entries need, ``t`` rational.

>>> from exactdp.exact.level import level_of
>>> from flint import fmpq
>>> exp_eps(level_of(alpha="1/4"), fmpq(1, 2)), exp_eps(level_of(eps="1/2"), fmpq(2))
(2, ExpFrac('exp(1)'))
>>> exp_eps(None, fmpq(-1))
ExpFrac('alpha')
"""

from __future__ import annotations

from typing import Any

import numpy as np
from flint import ctx, fmpq, fmpz

from ..errors import InputTooLarge, InvalidInput, InvalidType, Undecided, UnsupportedRegime
from ..exact.decide import arb_of
from ..exact.expo import ExpFrac
from ..exact.level import level_of
from ..exact.lin import MAX_PREC, Lin

__all__: list = []


def level_arg(eps=None, alpha=None, level=None, *, required: bool = True):
    """The one level of a builder (``None``: a symbolic alpha, when allowed)."""
    return level_of(eps=eps, alpha=alpha, level=level, required=required)


def exp_eps(level, t) -> Any:
    """``e^(t eps)`` as an exact value: rational, an exponential, or a power of the symbolic alpha.

    Raises :class:`~exactdp.errors.UnsupportedRegime` when it is an irrational
    algebraic number (``eps = log(2)``, ``t = 1/2``): the field of the kernel
    has no such entries.
    """
    t = fmpq(t)
    if t == 0:
        return fmpq(1)
    if level is None:
        return ExpFrac.exp(Lin.eps() * t)
    v = level.factor(t)
    if v is not None:
        return v
    R, D = level.R, level.D
    if isinstance(R, fmpq) and isinstance(D, fmpq):
        e = t / D                       # e^(t eps) = R^e
        p, q = int(e.p), int(e.q)
        num, den = _root(int(R.p), q), _root(int(R.q), q)
        if num is not None and den is not None:
            if abs(p) * max(num.bit_length(), den.bit_length()) > 1 << 20:
                raise InputTooLarge(f"e^({t}*eps) at eps = {level.eps_str()}: the exact rational needs more than "
                                    "a million bits")
            return fmpq(num, den) ** p
    raise UnsupportedRegime(f"e^({t}*eps) at eps = {level.eps_str()} is an irrational algebraic number; "
                            "hint: choose a level where it is rational (eps = log(q) with q a suitable power) or "
                            "give eps as a rational number (exact transcendental entries)")


def _root(n: int, k: int):
    if n < 0:
        return None
    r = int(fmpz(n).root(k))
    return r if r**k == n else None


class _prec:
    def __init__(self, prec):
        self.prec = prec
        self.old: int = ctx.prec  # read again on entering

    def __enter__(self):
        self.old = ctx.prec
        ctx.prec = self.prec

    def __exit__(self, *exc):
        ctx.prec = self.old


def floor_of(value, ball_at=None) -> int:
    """``floor(value)`` exactly for a rational, else from balls at rising precision.

    ``ball_at(prec)`` encloses an irrational value (default: :func:`arb_of`);
    an irrational number is never an integer, so a fine enough ball decides.
    """
    if isinstance(value, fmpq):
        return int(value.p // value.q)
    r = value.rational() if isinstance(value, ExpFrac) else None
    if r is not None:
        return int(r.p // r.q)
    prec = 64
    while prec <= MAX_PREC:
        with _prec(prec):
            b = ball_at(prec) if ball_at is not None else arb_of(value)
            lo, hi = (b - b.rad()).floor(), (b + b.rad()).floor()
            z = lo.unique_fmpz() if lo == hi and lo.is_exact() else None
            if z is not None:
                return int(z)
        prec *= 2
    raise Undecided(f"floor of {value}: not decided at {MAX_PREC} bits")


def int_arg(v, what: str, lo: int, hi: int | None = None) -> int:
    """An integer argument in ``[lo, hi]`` (:class:`InvalidType` / :class:`InvalidInput` otherwise)."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise InvalidType(f"{what}: expected an integer, got {type(v).__name__} {v!r}")
    v = int(v)
    if v < lo:
        raise InvalidInput(f"{what}: expected an integer >= {lo}, got {v}")
    if hi is not None and v > hi:
        raise InputTooLarge(f"{what}: {v} exceeds the limit {hi} of this builder (the matrix must stay small)")
    return v
