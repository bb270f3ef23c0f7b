"""Exact Q-linear combinations of real radicals ``m^(p/q)`` (GRS12's irrational losses).

GRS12 (journal version, Fig. 3(a) and App. C) uses the losses ``|i - j|^(3/2)``
(values ``2 sqrt 2``, ``3 sqrt 3``, ``5 sqrt 5``) and ``|j - i|^(1 - delta)``
for a small rational ``delta`` (values ``2^(1 - delta)``, ``3^(1 - delta)``, ...,
k-th roots).  The optimality certificates of their LPs are linear forms in
such numbers, so their signs must be decided exactly.

A :class:`Rad` is ``sum_a c_a * a`` with rational ``c_a`` and *atoms*
``a = prod_p p^(f_p)`` over distinct primes ``p`` with rational exponents
``0 < f_p < 1`` (the empty product is the rational unit).  Every positive real
``m^(p/q)`` (``m`` a positive rational) is a rational multiple of exactly one
atom, and two distinct atoms never have a rational ratio.

Exactness rests on the theorem on linear independence of real radicals
(Besicovitch 1940 for square roots; Mordell 1953 and Siegel 1972 in general):
positive real numbers ``x_1..x_s`` with ``x_i^(n_i)`` rational and no ratio
``x_i / x_j`` (``i != j``) rational are linearly independent over Q.  So a
:class:`Rad` is zero iff all its coefficients are zero, and the sign of a
non-zero one is found by ball arithmetic at rising precision (it terminates
because the number is not zero; a cap turns it into
:class:`~exactdp.errors.Undecided` with the reason).

Examples
--------
>>> from flint import fmpq
>>> Rad.power(8, fmpq(3, 2))          # 8^(3/2) = 16 sqrt 2
Rad('16*2^(1/2)')
>>> (Rad.power(2, fmpq(3, 2)) - Rad.power(2, fmpq(1, 2)) * 2).is_zero()
True
>>> t = Rad.power(2, fmpq(9, 10))     # 2^(1 - 1/10)
>>> (t - fmpq(187, 100)).sign(), (t - fmpq(186, 100)).sign()
(-1, 1)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flint import arb, ctx, fmpq, fmpz

from ..errors import InvalidInput, InvalidType
from .lin import Lin
from .qspan import MAX_PREC, QSpan

__all__ = ["Rad", "to_rad"]


@lru_cache(maxsize=4096)
def _factor(m: int) -> tuple:
    return tuple((int(p), int(e)) for p, e in fmpz(m).factor())


def _atom_power(base: fmpq, e: fmpq):
    """``base^e`` (``base > 0``) as ``(rational coefficient, atom)``."""
    coef = fmpq(1)
    expo: dict = {}
    for sgn, part in ((1, int(base.p)), (-1, int(base.q))):
        for p, k in _factor(part):
            expo[p] = expo.get(p, fmpq(0)) + sgn * k * e
    atom = []
    for p in sorted(expo):
        f = expo[p]
        whole = f.floor()
        frac = f - whole
        coef *= fmpq(p) ** int(whole)
        if frac != 0:
            atom.append((p, frac))
    return coef, tuple(atom)


def _atom_mul(a, b) -> tuple[Any, tuple]:
    expo: dict = dict(a)
    for p, f in b:
        expo[p] = expo.get(p, fmpq(0)) + f
    coef = fmpq(1)
    atom = []
    for p in sorted(expo):
        f = expo[p]
        if f >= 1:
            coef *= p
            f -= 1
        if f != 0:
            atom.append((p, f))
    return coef, tuple(atom)


def _atom_arb(atom) -> arb:
    v = arb(1)
    for p, f in atom:
        v *= arb(p) ** arb(f)
    return v


def _atom_str(atom) -> str:
    return "*".join(f"{p}^({f})" for p, f in atom)


class Rad(QSpan):
    """An exact Q-linear combination of real radical atoms (see the module docstring).

    The numbers of GRS12's irrational losses: ``|i - j|^(3/2)`` of Fig. 2's
    user (journal Fig. 3(a)) and ``|j - i|^(1 - delta)`` of Thm 6.3 / Fig. 4
    (journal App. C), and the optimality certificates of their LPs
    (:func:`~exactdp.exact.solve_lp_irrational`).  Immutable and hashable.
    Supports ``+``, ``-``, ``*`` (with rationals and other :class:`Rad`),
    division by a rational, exact ``==``, and exact ordering through
    :meth:`sign`.

    Parameters
    ----------
    terms : iterable of (tuple, rational) pairs, default ()
        ``(atom, coefficient)``; an atom is a tuple of ``(prime, f)`` pairs
        with increasing primes and rational ``0 < f < 1`` (the product of
        ``prime^f``), ``()`` for the rational unit.  Coefficients of equal
        atoms are added, zero ones dropped.  Build values with :meth:`rat`
        and :meth:`power` rather than by hand.

    See Also
    --------
    Lin : square roots and the symbolic ``eps``.

    References
    ----------
    Linear independence of real radicals: Besicovitch (1940) for square
    roots, Mordell (1953) and Siegel (1972) in general; it makes
    :meth:`is_zero` exact.

    Examples
    --------
    >>> from flint import fmpq
    >>> Rad([((), 2), (((2, fmpq(1, 2)),), 3)])
    Rad('2 + 3*2^(1/2)')
    >>> loss = [Rad.power(d, fmpq(3, 2)) for d in range(4)]    # GRS12 Fig. 2: |i - j|^(3/2)
    >>> loss
    [Rad('0'), Rad('1'), Rad('2*2^(1/2)'), Rad('3*3^(1/2)')]
    >>> loss[2] < 3 < loss[3]
    True
    """

    __slots__ = ()
    UNIT = ()
    NOT_SEPARATED = ("sign of {x}: non-zero (linear independence of radicals) but not separated from 0 at {prec} "
                     "bits")

    # -- constructors -------------------------------------------------
    @staticmethod
    def rat(q) -> Rad:
        """The rational ``q`` as a Rad.

        Parameters
        ----------
        q : int, fmpq or str
            Any value :class:`flint.fmpq` accepts.

        Returns
        -------
        Rad
            ``q`` times the rational unit ``()`` (no term for 0).

        Raises
        ------
        TypeError
            ``q`` is not convertible to ``fmpq`` (a binary float, ``None``).

        Examples
        --------
        >>> from flint import fmpq
        >>> Rad.rat(fmpq(3, 4)), Rad.rat(0).is_zero()
        (Rad('3/4'), True)
        """
        return Rad((((), fmpq(q)),))

    @staticmethod
    def power(m, e) -> Rad:
        """Return ``m^e`` for a rational ``m >= 0`` and a rational exponent ``e`` (``0^e = 0`` for ``e > 0``).

        The value is written as a rational times one atom: the prime
        factorisation of ``m`` splits each ``p^(k e)`` into an integer power
        and a fractional one (GRS12's losses ``|i - j|^(3/2)`` and
        ``|j - i|^(1 - delta)``).

        Parameters
        ----------
        m : int, fmpq or str
            The base, ``m >= 0``.
        e : int, fmpq or str
            The exponent; ``e > 0`` when ``m = 0``.

        Returns
        -------
        Rad
            ``c * atom`` with ``c`` rational (``0`` for ``m = 0``).

        Raises
        ------
        InvalidInput
            ``m < 0`` (no real radicals of negative numbers), or ``m = 0``
            with ``e <= 0``.
        TypeError
            ``m`` or ``e`` is not convertible to ``fmpq``.

        Examples
        --------
        >>> from flint import fmpq
        >>> Rad.power(3, fmpq(3, 2)), Rad.power(4, fmpq(3, 2))
        (Rad('3*3^(1/2)'), Rad('8'))
        >>> Rad.power(12, fmpq(1, 3)), Rad.power(fmpq(1, 2), fmpq(1, 2))
        (Rad('2^(2/3)*3^(1/3)'), Rad('2^(1/2)/2'))
        >>> Rad.power(0, 0)
        Traceback (most recent call last):
        ...
        exactdp.errors.InvalidInput: power: 0^0 is not a positive real; expected an exponent > 0
        """
        m, e = fmpq(m), fmpq(e)
        if m < 0:
            raise InvalidInput(f"power: expected a base m >= 0, got {m}; hint: real radicals of negative "
                               "numbers are not supported")
        if m == 0:
            if e <= 0:
                raise InvalidInput(f"power: 0^{e} is not a positive real; expected an exponent > 0")
            return Rad()
        coef, atom = _atom_power(m, e)
        return Rad(((atom, coef),))

    # -- queries --------------------------------------------------------
    def is_zero(self) -> bool:
        """Exact zero test (linear independence of real radicals).

        Distinct atoms are linearly independent over Q (class References),
        so the value is zero iff no term is left.

        Returns
        -------
        bool
            True iff the value is exactly 0.

        Examples
        --------
        >>> from flint import fmpq
        >>> (Rad.power(2, fmpq(3, 2)) - Rad.power(2, fmpq(1, 2)) * 2).is_zero()
        True
        >>> (Rad.power(8, fmpq(1, 3)) - 2).is_zero(), (Rad.power(2, fmpq(1, 3)) - 1).is_zero()
        (True, False)
        """
        return not self.terms

    def is_rational(self) -> bool:
        """Whether the value is rational (only the unit atom ``()`` occurs).

        Returns
        -------
        bool
            True for a rational number (0 included).

        Examples
        --------
        >>> from flint import fmpq
        >>> r = Rad.power(2, fmpq(1, 2))
        >>> (r * r).is_rational(), r.is_rational()
        (True, False)
        """
        return all(a == () for a, _ in self.terms)

    def rational(self) -> fmpq:
        """The value as ``fmpq``.

        Returns
        -------
        fmpq
            The rational value (``0`` for no term).

        Raises
        ------
        InvalidInput
            The value is irrational.

        Examples
        --------
        >>> from flint import fmpq
        >>> (Rad.power(2, fmpq(1, 2)) * Rad.power(8, fmpq(1, 2))).rational()
        4
        >>> Rad.power(2, fmpq(1, 2)).rational()
        Traceback (most recent call last):
        ...
        exactdp.errors.InvalidInput: 2^(1/2) is not rational
        """
        if not self.is_rational():
            raise InvalidInput(f"{self} is not rational")
        return self.terms[0][1] if self.terms else fmpq(0)

    def components(self) -> dict:
        """Return the coordinates ``atom -> rational coefficient`` (the atom ``()`` is the rational unit).

        The exact LP solvers split a cost or a dual into these coordinates,
        one rational solve per atom.

        Returns
        -------
        dict
            ``{atom: fmpq}`` with the non-zero coefficients only.

        Examples
        --------
        >>> from flint import fmpq
        >>> (Rad.power(3, fmpq(3, 2)) + 1).components()
        {(): 1, ((3, 1/2),): 3}
        """
        return dict(self.terms)

    # -- arithmetic (the rest is QSpan's) ----------------------------------
    @staticmethod
    def coerce(x) -> Rad:
        """Return ``x`` as a Rad (see :func:`to_rad`): the operand coercion of ``+ - * ==``.

        Parameters
        ----------
        x : Rad, Lin, int or fmpq
            The value (a :class:`Lin` without ``eps``).

        Returns
        -------
        Rad
            ``x`` itself when it is a Rad, else its exact value as a Rad.

        Examples
        --------
        >>> Rad.coerce(Lin.sqrt(8))
        Rad('2*2^(1/2)')
        """
        return to_rad(x)

    @classmethod
    def _comparable(cls, other) -> bool:
        return isinstance(other, (Rad, Lin, int, fmpq))

    def _atom_mul(self, a, b):
        return _atom_mul(a, b)

    def _atom_arb(self, a, eps):
        return _atom_arb(a)

    def _atom_text(self, a) -> str:
        return _atom_str(a)

    def __truediv__(self, other):
        if isinstance(other, Rad):
            other = other.rational()
        q = fmpq(other)
        if q == 0:
            raise InvalidInput("Rad: division by zero")
        return Rad((a, c / q) for a, c in self.terms)

    # -- evaluation -----------------------------------------------------
    def arb(self, eps=None) -> arb:
        """Ball enclosure at the current working precision (``flint.ctx.prec``).

        Parameters
        ----------
        eps : object, optional
            Ignored: a Rad has no symbolic ``eps``; the argument keeps the
            signature of :meth:`Lin.arb <exactdp.exact.lin.Lin.arb>`.

        Returns
        -------
        arb
            A ball that contains the exact value.

        Examples
        --------
        >>> from flint import fmpq
        >>> fmpq(186, 100) < Rad.power(2, fmpq(9, 10)).arb() < fmpq(187, 100)
        True
        """
        return super().arb(eps)

    def sign(self, eps=None, max_prec: int = MAX_PREC) -> int:
        """Exact sign: zero exactly, otherwise by balls at rising precision.

        Zero is the exact test :meth:`is_zero`; a non-zero value is separated
        from 0 by balls at 64, 128, ... bits, which terminates because the
        number is not zero (docs/architecture.md#sec-kernel: floats guide,
        the exact zero test decides).

        Parameters
        ----------
        eps : object, optional
            Ignored (no symbolic ``eps`` in a Rad); kept for the signature of
            :meth:`ExpFrac.sign <exactdp.exact.expo.ExpFrac.sign>`.
        max_prec : int, default MAX_PREC
            Highest working precision (bits) tried.

        Returns
        -------
        int
            ``-1``, ``0`` or ``1``.

        Raises
        ------
        Undecided
            The balls do not separate the number from 0 at ``max_prec``
            bits (never at the default for the sizes exactdp builds; the
            number is known to be non-zero).

        Examples
        --------
        >>> from flint import fmpq
        >>> (Rad.power(2, fmpq(3, 2)) + Rad.power(3, fmpq(3, 2)) - Rad.power(5, fmpq(3, 2))).sign()
        -1
        >>> x = Rad.power(2, fmpq(1, 2)) - fmpq(1414213562373095048801688724, 10**27)   # about 2.1e-28
        >>> x.sign()
        1
        >>> x.sign(max_prec=64)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        exactdp.errors.Undecided: sign of ... but not separated from 0 at 64 bits
        """
        return self._sign(max_prec)

    def __float__(self):
        with ctx.workprec(80):
            return float(self.arb().mid())

    # -- text (str and repr are QSpan's) ---------------------------------
    def latex(self) -> str:
        r"""LaTeX of the exact value: the text form with ``\cdot`` for ``*``.

        Returns
        -------
        str
            For example ``5 \cdot 5^(1/2)`` for ``5 sqrt 5``.

        Examples
        --------
        >>> from flint import fmpq
        >>> print(Rad.power(5, fmpq(3, 2)).latex())
        5 \cdot 5^(1/2)
        """
        return str(self).replace("*", r" \cdot ")


def to_rad(x: Any) -> Rad:
    """Coerce ``int``, ``fmpq``, :class:`Lin` (without ``eps``) or :class:`Rad` to :class:`Rad`.

    Parameters
    ----------
    x : int, fmpq, Lin or Rad
        The value.

    Returns
    -------
    Rad
        The same number.

    Raises
    ------
    InvalidInput
        For a :class:`Lin` with the symbolic eps.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact import exact_number
    >>> to_rad(3), to_rad(fmpq(1, 2)), to_rad(exact_number("2^(1/2)"))
    (Rad('3'), Rad('1/2'), Rad('2^(1/2)'))
    """
    if isinstance(x, Rad):
        return x
    if isinstance(x, (int, fmpz)) and not isinstance(x, bool):
        return Rad.rat(fmpq(int(x)))
    if isinstance(x, fmpq):
        return Rad.rat(x)
    if isinstance(x, Lin):
        if x.has_eps():
            raise InvalidInput(f"to_rad: {x} has the symbolic eps; expected a number")
        out = Rad()
        for s, c in x.terms:
            out = out + Rad.power(s, fmpq(1, 2)) * c
        return out
    raise InvalidType(f"to_rad: expected an exact number (int, fmpq, Lin or Rad), got {type(x).__name__}; hint: "
                      "binary floats are not exact")
