"""Exact real algebraic numbers of the form ``c_0 + sum_s c_s sqrt(s) [+ c_e eps]``.

A :class:`Lin` is a Q-linear combination of *atoms*: ``sqrt(s)`` for
square-free integers ``s >= 1`` (``s = 1`` is the rational unit) and, for the
symbolic regime, the symbol ``eps``.  These are exactly the exponents that
occur when a rational or quadratic-irrational epsilon is multiplied by a
rational, Manhattan, Chebyshev or Euclidean distance.

Exactness rests on a classical fact (Besicovitch 1940): square roots of
distinct square-free positive integers are linearly independent over Q.  So a
:class:`Lin` without the ``eps`` atom is zero iff all its coefficients are
zero, and its sign is found by ball evaluation at rising precision, which
terminates because the number is not zero.

Examples
--------
>>> from exactdp.exact.lin import Lin
>>> a = Lin.sqrt(8)
>>> a
Lin('2*sqrt(2)')
>>> (a * a).rational()
8
>>> (Lin.sqrt(2) + Lin.sqrt(3) - Lin.sqrt(5)).sign()
1
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flint import arb, ctx, fmpq, fmpz

from ..errors import InvalidInput, UnsupportedRegime

__all__ = ["Lin", "EPS_ATOM", "squarefree_split", "MAX_PREC"]

#: atom index of the symbolic epsilon
EPS_ATOM = 0
#: highest working precision (bits) tried before a sign is declared undecided
MAX_PREC = 1 << 14
#: integers up to this size are factored completely under a square root (larger ones only partly)
MAX_FACTOR_BITS = 128
#: largest integer (bits) under a square root unless it is a perfect square
MAX_SQRT_BITS = 2048


@lru_cache(maxsize=4096)
def squarefree_split(n: int) -> tuple[int, int]:
    """Return ``(k, s)`` with ``n = k**2 * s`` and ``s`` square-free.

    >>> squarefree_split(72)
    (6, 2)
    """
    if n <= 0:
        raise InvalidInput(f"square root argument: expected a positive integer, got {n}")
    f = fmpz(n)
    if n.bit_length() > MAX_SQRT_BITS:
        r, rem = f.sqrtrem()
        if rem == 0:
            return int(r), 1
        raise UnsupportedRegime(f"sqrt: the integer {str(f)[:20]}... has {len(str(f))} digits; square roots of "
                                f"integers beyond {MAX_SQRT_BITS} bits are taken only of perfect squares")
    factors: list[tuple[Any, int]]
    p: Any  # an fmpz factor, then its int value
    if n.bit_length() <= MAX_FACTOR_BITS:
        factors = f.factor()
    else:  # full factoring may take hours: split off primes below 2^32, accept a prime or square cofactor
        factors = []
        for p, e in f.factor_smooth(32):
            if p.bit_length() > 32 and not p.is_probable_prime():
                r, rem = p.sqrtrem()
                if rem != 0 or not r.is_probable_prime():
                    raise UnsupportedRegime(
                        f"sqrt: the integer {str(f)[:20]}... ({len(str(f))} digits) has a factor of "
                        f"{len(str(p))} digits that cannot be factored cheaply; square roots of integers beyond "
                        f"{MAX_FACTOR_BITS} bits need a prime or square cofactor after removing factors below 2^32")
                p, e = r, 2 * e
            factors.append((p, e))
    k, s = 1, 1
    for p, e in factors:
        p = int(p)
        k *= p ** (e // 2)
        if e % 2:
            s *= p
    return k, s


def ball_sign(arb_at, max_prec: int):
    """Sign of a number known to be non-zero, from its Arb balls ``arb_at()`` at 64, 128, ... ``max_prec`` bits;
    ``None`` when no ball excludes 0 (the caller says why that is undecided)."""
    prec = 64
    while prec <= max_prec:
        with ctx.workprec(prec):
            v = arb_at()
            if v > 0:
                return 1
            if v < 0:
                return -1
        prec *= 2
    return None


def format_linear(terms) -> str:
    """Exact text of ``sum c * atom`` from ``(atom text or None for a rational, fmpq coefficient)`` pairs."""
    parts = []
    for atom, c in terms:
        if atom is None:
            parts.append(str(c))
            continue
        sg, m = ("-" if c < 0 else ""), abs(c)
        if m == 1:
            body = atom
        elif m.q == 1:
            body = f"{m}*{atom}"
        else:
            body = f"{m.p}*{atom}/{m.q}" if m.p != 1 else f"{atom}/{m.q}"
        parts.append(sg + body)
    out = parts[0]
    for p in parts[1:]:
        out += " - " + p[1:] if p.startswith("-") else " + " + p
    return out


class Lin:
    """An exact Q-linear combination of ``sqrt(s)`` atoms and ``eps``.

    Immutable and hashable; the canonical form is a sorted tuple of
    ``(atom, coefficient)`` pairs with non-zero coefficients.
    """

    __slots__ = ("terms", "_hash")
    terms: tuple[tuple[Any, fmpq], ...]
    _hash: int

    def __init__(self, terms=()):
        t = tuple(sorted((a, fmpq(c)) for a, c in terms if c != 0))
        object.__setattr__(self, "terms", t)
        object.__setattr__(self, "_hash", hash(t))

    def __setattr__(self, name, value):  # pragma: no cover - immutability guard
        raise AttributeError("Lin is immutable")

    # -- constructors -------------------------------------------------
    @staticmethod
    def rat(q) -> "Lin":
        """The rational number ``q`` as a Lin."""
        q = fmpq(q)
        return Lin(((1, q),)) if q != 0 else Lin()

    @staticmethod
    def sqrt(q) -> "Lin":
        """``sqrt(q)`` for a rational ``q >= 0``, reduced to square-free form."""
        q = fmpq(q)
        if q < 0:
            raise InvalidInput(f"sqrt: expected a non-negative number, got {q}")
        if q == 0:
            return Lin()
        # sqrt(p/q) = sqrt(p*q)/q
        k, s = squarefree_split(int(q.p * q.q))
        return Lin(((s, fmpq(k) / q.q),))

    @staticmethod
    def eps() -> "Lin":
        """The symbolic epsilon (atom ``eps``)."""
        return Lin(((EPS_ATOM, fmpq(1)),))

    @staticmethod
    def coerce(x) -> "Lin":
        if isinstance(x, Lin):
            return x
        return Lin.rat(x)

    # -- queries --------------------------------------------------------
    def is_zero(self) -> bool:
        return not self.terms

    def is_rational(self) -> bool:
        return all(a == 1 for a, _ in self.terms)

    def rational(self) -> fmpq:
        """The value as :class:`flint.fmpq`; raises if irrational."""
        if not self.is_rational():
            raise UnsupportedRegime(f"{self} is not rational")
        return self.terms[0][1] if self.terms else fmpq(0)

    def has_eps(self) -> bool:
        return any(a == EPS_ATOM for a, _ in self.terms)

    def eps_coefficient(self) -> fmpq:
        for a, c in self.terms:
            if a == EPS_ATOM:
                return c
        return fmpq(0)

    def without_eps(self) -> "Lin":
        return Lin((a, c) for a, c in self.terms if a != EPS_ATOM)

    def single_atom(self) -> tuple[Any, fmpq] | None:
        """``(atom, coefficient)`` if the number is ``c*atom``, else ``None``."""
        return self.terms[0] if len(self.terms) == 1 else None

    # -- arithmetic -----------------------------------------------------
    def __add__(self, other):
        other = Lin.coerce(other)
        d = dict(self.terms)
        for a, c in other.terms:
            d[a] = d.get(a, 0) + c
        return Lin(d.items())

    __radd__ = __add__

    def __neg__(self):
        return Lin((a, -c) for a, c in self.terms)

    def __sub__(self, other):
        return self + (-Lin.coerce(other))

    def __rsub__(self, other):
        return Lin.coerce(other) - self

    def __mul__(self, other) -> Lin:
        other = Lin.coerce(other)
        d: dict = {}
        for a, c in self.terms:
            for b, e in other.terms:
                if a == EPS_ATOM or b == EPS_ATOM:
                    if a == EPS_ATOM and b == EPS_ATOM:
                        raise UnsupportedRegime("eps*eps is not linear in eps")
                    other_atom = b if a == EPS_ATOM else a
                    if other_atom != 1:
                        raise UnsupportedRegime(
                            "eps times an irrational distance is outside the symbolic regime"
                        )
                    d[EPS_ATOM] = d.get(EPS_ATOM, 0) + c * e
                    continue
                g: fmpz | int = fmpz(a).gcd(fmpz(b))
                g = int(g)
                s = (a // g) * (b // g)
                d[s] = d.get(s, 0) + c * e * g
        return Lin(d.items())

    __rmul__ = __mul__

    def __truediv__(self, other):
        other = Lin.coerce(other)
        sa = other.single_atom()
        if sa is None or sa[0] == EPS_ATOM:
            raise UnsupportedRegime(f"division by {other} is not supported in exact exponents")
        atom, c = sa
        # 1/(c sqrt(s)) = sqrt(s)/(c s)
        return self * Lin(((atom, 1 / (c * atom)),))

    def __eq__(self, other):
        if isinstance(other, Lin):
            return self.terms == other.terms
        if isinstance(other, (int, fmpq)):
            return self.terms == Lin.rat(other).terms
        return NotImplemented

    def __hash__(self):
        return self._hash

    # -- evaluation -----------------------------------------------------
    def arb(self, eps=None) -> arb:
        """Ball enclosure at the current working precision.

        ``eps`` (an :class:`arb`) is substituted for the symbolic atom.
        """
        total = arb(0)
        for a, c in self.terms:
            if a == EPS_ATOM:
                if eps is None:
                    raise UnsupportedRegime("symbolic eps has no numerical value")
                total += arb(c) * eps
            elif a == 1:
                total += arb(c)
            else:
                total += arb(c) * arb(a).sqrt()
        return total

    def sign(self, max_prec: int = MAX_PREC) -> int:
        """Exact sign (-1, 0 or 1) of a Lin without ``eps``.

        Zero is decided exactly (linear independence of square roots); a
        non-zero sign by balls at rising precision.
        """
        if self.has_eps():
            raise UnsupportedRegime("the sign of a symbolic-eps expression depends on eps")
        if not self.terms:
            return 0
        if self.is_rational():
            return 1 if self.terms[0][1] > 0 else -1
        s = ball_sign(self.arb, max_prec)
        if s is None:  # pragma: no cover
            raise UnsupportedRegime(f"sign of {self} not separated at {max_prec} bits")
        return s

    def __lt__(self, other):
        return (self - other).sign() < 0

    def __le__(self, other):
        return (self - other).sign() <= 0

    def __gt__(self, other):
        return (self - other).sign() > 0

    def __ge__(self, other):
        return (self - other).sign() >= 0

    # -- text -----------------------------------------------------------
    def __str__(self):
        if not self.terms:
            return "0"
        return format_linear([(None if a == 1 else ("eps" if a == EPS_ATOM else f"sqrt({a})"), c)
                              for a, c in self.terms])

    def __repr__(self):
        return f"Lin('{self}')"

    def latex(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for a, c in self.terms:
            sgn = "-" if c < 0 else "+"
            c = abs(c)
            if a == 1:
                body = str(c) if c.q == 1 else rf"\frac{{{c.p}}}{{{c.q}}}"
            else:
                atom = r"\varepsilon" if a == EPS_ATOM else rf"\sqrt{{{a}}}"
                if c == 1:
                    body = atom
                elif c.q == 1:
                    body = f"{c.p}{atom}"
                else:
                    body = rf"\frac{{{'' if c.p == 1 else c.p}{atom}}}{{{c.q}}}"
            parts.append((sgn, body))
        out = ("-" if parts[0][0] == "-" else "") + parts[0][1]
        for sgn, body in parts[1:]:
            out += f" {sgn} {body}"
        return out
