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

from flint import arb, fmpq, fmpz

from ..errors import InvalidInput, UnsupportedRegime
from .qspan import MAX_PREC, QSpan

__all__ = ["EPS_ATOM", "MAX_PREC", "Lin", "squarefree_split"]

#: atom index of the symbolic epsilon
EPS_ATOM = 0
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


class Lin(QSpan):
    """An exact Q-linear combination of ``sqrt(s)`` atoms and ``eps``.

    The exponents of the transcendental regime (docs/architecture.md#sec-kernel,
    regime 2): ``eps * d`` for a rational or quadratic-irrational ``eps`` and a
    rational or Euclidean distance ``d`` (ECP14 sec. 2.3 and 7.2,
    geo-indistinguishability is ``eps d_2``-privacy), and, with the atom
    ``eps``, the exponents of the symbolic regime.  Immutable and hashable;
    the canonical form is a sorted tuple of ``(atom, coefficient)`` pairs
    with non-zero coefficients.  Build values with :meth:`rat`,
    :meth:`sqrt` and :meth:`eps` and the operators ``+ - *``, ``/`` (by a
    single atom), exact ``==`` and exact order (``<`` through :meth:`sign`).

    Parameters
    ----------
    terms : iterable of (int, rational) pairs, default ()
        ``(atom, coefficient)`` with *distinct* atoms: ``EPS_ATOM`` (0) for
        ``eps``, 1 for the rational unit, a square-free ``s >= 2`` for
        ``sqrt(s)``.  Coefficients of equal atoms are added, zero ones
        dropped; the constructors above guarantee square-free atoms.

    See Also
    --------
    ExpFrac : exponentials of these numbers.
    Rad : radicals of any order, ``m^(p/q)``.

    References
    ----------
    Besicovitch (1940): square roots of distinct square-free integers are
    linearly independent over Q, so :meth:`is_zero` is exact.

    Examples
    --------
    >>> from flint import fmpq
    >>> Lin([(1, fmpq(1, 2)), (2, 3)])
    Lin('1/2 + 3*sqrt(2)')
    >>> Lin.sqrt(2) + Lin.sqrt(8) == Lin.sqrt(18)
    True
    >>> Lin.sqrt(2) < fmpq(3, 2)
    True
    """

    __slots__ = ()
    UNIT = 1
    NOT_SEPARATED = "sign of {x} not separated at {prec} bits"

    # -- constructors -------------------------------------------------
    @staticmethod
    def rat(q) -> Lin:
        """The rational number ``q`` as a Lin.

        Parameters
        ----------
        q : int, fmpq or str
            Any value :class:`flint.fmpq` accepts (``"3/4"`` included).

        Returns
        -------
        Lin
            ``q`` times the rational unit (the empty combination for 0).

        Raises
        ------
        TypeError
            ``q`` is not convertible to ``fmpq`` (a binary float, ``None``).

        Examples
        --------
        >>> from flint import fmpq
        >>> Lin.rat(fmpq(3, 4)), Lin.rat(0).is_zero()
        (Lin('3/4'), True)
        """
        q = fmpq(q)
        return Lin(((1, q),)) if q != 0 else Lin()

    @staticmethod
    def sqrt(q) -> Lin:
        """Return ``sqrt(q)`` for a rational ``q >= 0``, reduced to square-free form.

        ``sqrt(a/b) = sqrt(a b) / b`` and ``sqrt(k^2 s) = k sqrt(s)``: the
        result is a rational multiple of one atom ``sqrt(s)``, ``s``
        square-free (rational when ``q`` is a square).  A Euclidean distance
        ``d_2`` of ECP14 sec. 2.3 on integer points is such a number.

        Parameters
        ----------
        q : int, fmpq or str
            The radicand, ``q >= 0``.

        Returns
        -------
        Lin
            ``k/b * sqrt(s)``, or the rational ``k/b`` when ``s = 1``.

        Raises
        ------
        InvalidInput
            ``q < 0``.
        UnsupportedRegime
            The integer ``a b`` under the root is too large to split
            (beyond ``MAX_SQRT_BITS`` and not a square, or beyond
            ``MAX_FACTOR_BITS`` with a cofactor that cannot be factored
            cheaply).
        TypeError
            ``q`` is not convertible to ``fmpq``.

        Examples
        --------
        >>> from flint import fmpq
        >>> Lin.sqrt(12), Lin.sqrt(fmpq(1, 2)), Lin.sqrt(9)
        (Lin('2*sqrt(3)'), Lin('sqrt(2)/2'), Lin('3'))
        """
        q = fmpq(q)
        if q < 0:
            raise InvalidInput(f"sqrt: expected a non-negative number, got {q}")
        if q == 0:
            return Lin()
        # sqrt(p/q) = sqrt(p*q)/q
        k, s = squarefree_split(int(q.p * q.q))
        return Lin(((s, fmpq(k) / q.q),))

    @staticmethod
    def eps() -> Lin:
        """The symbolic epsilon (atom ``eps``) of the symbolic regime.

        docs/architecture.md#sec-kernel, regime 3: with ``alpha = e^(-eps)``, GRS12's
        parameter of the geometric mechanism, ``exp(-k eps)`` is ``alpha^k``.

        Returns
        -------
        Lin
            ``1 * eps``.

        Examples
        --------
        >>> Lin.eps() * 3 + 1
        Lin('3*eps + 1')
        """
        return Lin(((EPS_ATOM, fmpq(1)),))

    @staticmethod
    def coerce(x) -> Lin:
        """Return ``x`` as a Lin: a Lin unchanged, anything else through :meth:`rat`.

        Parameters
        ----------
        x : Lin, int, fmpq or str
            The value.

        Returns
        -------
        Lin
            ``x`` itself when it is a Lin, else ``Lin.rat(x)``.

        Raises
        ------
        TypeError
            ``x`` is neither a Lin nor convertible to ``fmpq``.

        Examples
        --------
        >>> from flint import fmpq
        >>> Lin.coerce(fmpq(2, 3)), Lin.coerce(Lin.sqrt(2))
        (Lin('2/3'), Lin('sqrt(2)'))
        """
        if isinstance(x, Lin):
            return x
        return Lin.rat(x)

    # -- queries --------------------------------------------------------
    def is_zero(self) -> bool:
        """Exact zero test: no term is left (Besicovitch, see the module docstring).

        Returns
        -------
        bool
            True iff every coefficient is zero.

        Examples
        --------
        >>> (Lin.sqrt(8) - Lin.sqrt(2) * 2).is_zero(), Lin.sqrt(2).is_zero()
        (True, False)
        """
        return not self.terms

    def is_rational(self) -> bool:
        """Whether the value is rational (only the rational unit occurs).

        Returns
        -------
        bool
            True for a rational number (0 included); False when a
            ``sqrt(s)`` or ``eps`` term occurs.

        Examples
        --------
        >>> (Lin.sqrt(2) * Lin.sqrt(2)).is_rational(), Lin.sqrt(2).is_rational()
        (True, False)
        """
        return all(a == 1 for a, _ in self.terms)

    def rational(self) -> fmpq:
        """The value as :class:`flint.fmpq`.

        Returns
        -------
        fmpq
            The rational value (``0`` for the empty combination).

        Raises
        ------
        UnsupportedRegime
            The value is irrational or contains ``eps``.

        Examples
        --------
        >>> (Lin.sqrt(8) * Lin.sqrt(2)).rational()
        4
        """
        if not self.is_rational():
            raise UnsupportedRegime(f"{self} is not rational")
        return self.terms[0][1] if self.terms else fmpq(0)

    def has_eps(self) -> bool:
        """Whether the symbolic ``eps`` occurs.

        Returns
        -------
        bool
            True iff the ``eps`` coefficient is non-zero.

        Examples
        --------
        >>> (Lin.eps() * 2 + 1).has_eps(), Lin.sqrt(2).has_eps()
        (True, False)
        """
        return any(a == EPS_ATOM for a, _ in self.terms)

    def eps_coefficient(self) -> fmpq:
        """The rational coefficient of ``eps``.

        Returns
        -------
        fmpq
            ``c`` in ``c eps + (the rest)``; ``0`` when ``eps`` does not occur.

        Examples
        --------
        >>> from flint import fmpq
        >>> (Lin.eps() * fmpq(2, 3) + 1).eps_coefficient(), Lin.sqrt(2).eps_coefficient()
        (2/3, 0)
        """
        for a, c in self.terms:
            if a == EPS_ATOM:
                return c
        return fmpq(0)

    def without_eps(self) -> Lin:
        """The number with its ``eps`` term removed.

        Returns
        -------
        Lin
            ``self - self.eps_coefficient() * eps``.

        Examples
        --------
        >>> (Lin.eps() * 2 + Lin.sqrt(3)).without_eps()
        Lin('sqrt(3)')
        """
        return Lin((a, c) for a, c in self.terms if a != EPS_ATOM)

    def single_atom(self) -> tuple[Any, fmpq] | None:
        """Return ``(atom, coefficient)`` if the number is ``c*atom``, else ``None``.

        Returns
        -------
        tuple of (int, fmpq) or None
            The one term (atom as in the class docstring); ``None`` for zero
            or for two or more terms.

        Examples
        --------
        >>> Lin.sqrt(8).single_atom(), (Lin.sqrt(2) + 1).single_atom()
        ((2, 2), None)
        """
        return self.terms[0] if len(self.terms) == 1 else None

    # -- arithmetic (the rest is QSpan's) ----------------------------------
    @classmethod
    def _comparable(cls, other) -> bool:
        return isinstance(other, (Lin, int, fmpq))

    def _atom_mul(self, a, b):
        if a == EPS_ATOM or b == EPS_ATOM:
            if a == EPS_ATOM and b == EPS_ATOM:
                raise UnsupportedRegime("eps*eps is not linear in eps")
            if (b if a == EPS_ATOM else a) != 1:
                raise UnsupportedRegime("eps times an irrational distance is outside the symbolic regime")
            return 1, EPS_ATOM
        g = int(fmpz(a).gcd(fmpz(b)))
        return g, (a // g) * (b // g)  # sqrt(a) sqrt(b) = g sqrt(a b / g^2)

    def _atom_arb(self, a, eps):
        if a == EPS_ATOM:
            if eps is None:
                raise UnsupportedRegime("symbolic eps has no numerical value")
            return eps
        return arb(a).sqrt()

    def _atom_text(self, a) -> str:
        return "eps" if a == EPS_ATOM else f"sqrt({a})"

    def __truediv__(self, other):
        other = Lin.coerce(other)
        sa = other.single_atom()
        if sa is None or sa[0] == EPS_ATOM:
            raise UnsupportedRegime(f"division by {other} is not supported in exact exponents")
        atom, c = sa
        # 1/(c sqrt(s)) = sqrt(s)/(c s)
        return self * Lin(((atom, 1 / (c * atom)),))

    # -- evaluation -----------------------------------------------------
    def arb(self, eps=None) -> arb:
        """Ball enclosure at the current working precision (``flint.ctx.prec``).

        Parameters
        ----------
        eps : arb, optional
            A ball substituted for the symbolic atom ``eps``; needed only
            when ``eps`` occurs.

        Returns
        -------
        arb
            A ball that contains the exact value.

        Raises
        ------
        UnsupportedRegime
            ``eps`` occurs and no ``eps`` ball is given.

        Examples
        --------
        >>> from flint import arb, fmpq
        >>> fmpq(141, 100) < Lin.sqrt(2).arb() < fmpq(142, 100)
        True
        >>> (Lin.eps() * 2 + 1).arb(arb(fmpq(1, 4))) == fmpq(3, 2)
        True
        """
        return super().arb(eps)

    def sign(self, max_prec: int = MAX_PREC) -> int:
        """Exact sign (-1, 0 or 1) of a Lin without ``eps``.

        Zero is decided exactly (linear independence of square roots,
        Besicovitch 1940); a non-zero sign by balls at 64, 128, ... bits,
        which terminates because the number is not zero (docs/architecture.md#sec-kernel,
        regime 2).

        Parameters
        ----------
        max_prec : int, default MAX_PREC
            Highest working precision (bits) tried.

        Returns
        -------
        int
            ``-1``, ``0`` or ``1``.

        Raises
        ------
        UnsupportedRegime
            ``eps`` occurs (the sign depends on it).
        Undecided
            No ball up to ``max_prec`` bits excludes 0 (precision ran out: the
            question is undecided, not a bad input).

        Examples
        --------
        >>> from flint import fmpq
        >>> (Lin.sqrt(2) + Lin.sqrt(3) - Lin.sqrt(5)).sign(), (Lin.sqrt(18) - 3 * Lin.sqrt(2)).sign()
        (1, 0)
        >>> x = Lin.sqrt(2) - fmpq(1414213562373095048801688724, 10**27)   # about 2.1e-28
        >>> x.sign()
        1
        >>> x.sign(max_prec=64)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        exactdp.errors.Undecided: sign of ... + sqrt(2) not separated at 64 bits
        """
        if self.has_eps():
            raise UnsupportedRegime("the sign of a symbolic-eps expression depends on eps")
        return self._sign(max_prec)

    # -- text (str and repr are QSpan's) ---------------------------------
    def latex(self) -> str:
        r"""LaTeX of the exact value (``\varepsilon`` for ``eps``).

        Returns
        -------
        str
            Terms in canonical order, ``\frac`` for non-integer coefficients.

        Examples
        --------
        >>> from flint import fmpq
        >>> print((Lin.eps() / 2 + 1 - Lin.sqrt(3) * fmpq(2, 3)).latex())
        \frac{\varepsilon}{2} + 1 - \frac{2\sqrt{3}}{3}
        """
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
