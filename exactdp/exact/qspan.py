"""The shared base of :class:`~exactdp.exact.lin.Lin` and :class:`~exactdp.exact.radical.Rad`: exact Q-spans of
atoms that are linearly independent over Q.

Both classes are finite sums ``sum_a c_a * a`` with rational ``c_a`` over *atoms* ``a`` that a theorem makes
linearly independent over Q (square roots of distinct square-free integers, Besicovitch 1940; real radicals
with no rational ratio, Mordell 1953 and Siegel 1972).  Everything that follows from that alone lives here
once: the canonical sorted tuple of terms, hashing, ``+``, ``-``, multiplication term by term (the subclass
multiplies two atoms), exact ``==``, the exact zero test (no term left), ball evaluation term by term, the sign
(exact zero first, then balls at rising precision, :class:`~exactdp.errors.Undecided` when the precision runs
out) and the order built on it, and the text form.  A subclass says what its atoms are: the unit atom, how to
coerce an operand, the product and ball of atoms, an atom's text.

Examples
--------
>>> from flint import fmpq
>>> from exactdp.exact.lin import Lin
>>> from exactdp.exact.radical import Rad
>>> isinstance(Lin.sqrt(2), QSpan) and isinstance(Rad.power(2, fmpq(1, 3)), QSpan)
True
>>> format_linear([(None, fmpq(1, 2)), ("sqrt(2)", fmpq(-3, 4))])
'1/2 - 3*sqrt(2)/4'
"""

from __future__ import annotations

from typing import Any, ClassVar

from flint import arb, ctx, fmpq

from ..errors import Undecided

__all__ = ["MAX_PREC", "QSpan", "ball_sign", "format_linear"]

#: highest working precision (bits) tried before a sign is declared undecided
MAX_PREC = 1 << 14


def ball_sign(arb_at, max_prec: int):
    """Find the sign of a number known to be non-zero from its Arb balls at rising precision.

    Parameters
    ----------
    arb_at : callable
        ``arb_at()`` gives a ball of the number at the current working precision; it is called at 64, 128,
        ... bits.
    max_prec : int
        The highest precision tried (bits).

    Returns
    -------
    int or None
        1 or -1, or ``None`` when no ball excludes 0 (the caller says why that is undecided).

    Examples
    --------
    >>> from flint import arb
    >>> ball_sign(lambda: arb(2).sqrt() - 1, 64), ball_sign(lambda: arb(0), 128)
    (1, None)
    """
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
    """Write the exact text of ``sum c * atom``.

    Parameters
    ----------
    terms : iterable of tuple
        ``(atom text, or None for the rational term; fmpq coefficient)`` pairs, non-zero coefficients, the
        rational term first.

    Returns
    -------
    str
        The sum, with ``-`` for negative coefficients.

    Examples
    --------
    >>> format_linear([(None, fmpq(2)), ("eps", fmpq(-1)), ("sqrt(3)", fmpq(1, 5))])
    '2 - eps + sqrt(3)/5'
    """
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


class QSpan:
    """An immutable exact Q-linear combination of independent atoms (the base of ``Lin`` and ``Rad``).

    ``terms`` is the canonical form: a sorted tuple of ``(atom, fmpq coefficient)`` with distinct atoms and
    non-zero coefficients (coefficients of equal atoms given to the constructor are added).  Subclasses set
    :attr:`UNIT` (the atom of the rational unit) and :attr:`NOT_SEPARATED` (the :class:`Undecided` message),
    and implement :meth:`coerce`, :meth:`_comparable`, :meth:`_atom_mul`, :meth:`_atom_arb` and
    :meth:`_atom_text`; their public ``sign`` calls :meth:`_sign`.

    Parameters
    ----------
    terms : iterable of tuple, optional
        ``(atom, coefficient)`` pairs; 0 by default.

    Examples
    --------
    >>> from exactdp.exact.lin import Lin
    >>> x = Lin.sqrt(2) + 1
    >>> (x - 1).terms, hash(x) == hash(1 + Lin.sqrt(2)), x == Lin.sqrt(2) + 1
    (((2, 1),), True, True)
    """

    __slots__ = ("_hash", "terms")
    terms: tuple[tuple[Any, fmpq], ...]
    _hash: int
    #: the atom of the rational unit (``1`` for Lin, ``()`` for Rad)
    UNIT: ClassVar[Any] = None
    #: the message of :class:`Undecided` when balls do not separate a non-zero value from 0
    NOT_SEPARATED: ClassVar[str] = "sign of {x} not separated at {prec} bits"

    def __init__(self, terms=()) -> None:
        d: dict = {}
        for a, c in terms:
            d[a] = d[a] + fmpq(c) if a in d else fmpq(c)
        t = tuple(sorted((a, c) for a, c in d.items() if c != 0))
        object.__setattr__(self, "terms", t)
        object.__setattr__(self, "_hash", hash(t))

    def __setattr__(self, name, value):  # pragma: no cover - immutability guard
        raise AttributeError(f"{type(self).__name__} is immutable")

    # -- what a subclass provides ------------------------------------------
    @classmethod
    def coerce(cls, x) -> Any:  # pragma: no cover - every subclass overrides it
        """Convert an operand to an instance of the class (each subclass says which operands it accepts).

        Parameters
        ----------
        x : Any
            The operand.

        Returns
        -------
        QSpan
            ``x`` as an instance of the subclass.

        Examples
        --------
        >>> from exactdp.exact.lin import Lin
        >>> Lin.coerce(fmpq(1, 2)), Lin.coerce(Lin.sqrt(2)) == Lin.sqrt(2)
        (Lin('1/2'), True)
        """
        raise NotImplementedError

    def _atom_mul(self, a, b) -> tuple[fmpq | int, Any]:  # pragma: no cover - every subclass overrides it
        """``a * b = k * atom``: the rational ``k`` and the atom."""
        raise NotImplementedError

    def _atom_arb(self, a, eps) -> arb:  # pragma: no cover - every subclass overrides it
        """A ball of the atom ``a`` (not the unit) at the current precision."""
        raise NotImplementedError

    def _atom_text(self, a) -> str:  # pragma: no cover - every subclass overrides it
        """The text of the atom ``a`` (not the unit)."""
        raise NotImplementedError

    @classmethod
    def _comparable(cls, other) -> bool:  # pragma: no cover - every subclass overrides it
        """Whether ``==`` compares ``other`` (through :meth:`coerce`) rather than answering ``NotImplemented``."""
        raise NotImplementedError

    def is_rational(self) -> bool:
        """Tell whether only the unit atom occurs (0 included).

        Returns
        -------
        bool
            True for a rational number.

        Examples
        --------
        >>> from exactdp.exact.lin import Lin
        >>> Lin.coerce(fmpq(1, 2)).is_rational(), (Lin.sqrt(2) - Lin.sqrt(2)).is_rational(), Lin.sqrt(2).is_rational()
        (True, True, False)
        """
        return all(a == self.UNIT for a, _ in self.terms)

    # -- arithmetic ------------------------------------------------------------
    @classmethod
    def _of(cls, items):
        """An instance from ``(atom, fmpq)`` pairs with distinct atoms (no conversion, no merging)."""
        out = object.__new__(cls)
        t = tuple(sorted((a, c) for a, c in items if c != 0))
        object.__setattr__(out, "terms", t)
        object.__setattr__(out, "_hash", hash(t))
        return out

    def __add__(self, other):
        d = dict(self.terms)
        for a, c in self.coerce(other).terms:
            d[a] = d[a] + c if a in d else c
        return self._of(d.items())

    __radd__ = __add__

    def __neg__(self):
        return self._of((a, -c) for a, c in self.terms)

    def __sub__(self, other):
        return self + (-self.coerce(other))

    def __rsub__(self, other):
        return self.coerce(other) - self

    def __mul__(self, other):
        other = self.coerce(other)
        d: dict = {}
        for a, c in self.terms:
            for b, e in other.terms:
                k, ab = self._atom_mul(a, b)
                d[ab] = d[ab] + c * e * k if ab in d else c * e * k
        return self._of(d.items())

    __rmul__ = __mul__

    def __eq__(self, other):
        if self._comparable(other):
            return self.terms == self.coerce(other).terms
        return NotImplemented

    def __hash__(self):
        return self._hash

    # -- evaluation and order -----------------------------------------------------
    def arb(self, eps=None) -> arb:
        """Enclose the number in a ball at the current working precision (``flint.ctx.prec``), term by term.

        Parameters
        ----------
        eps : arb, optional
            A ball of the symbol ``eps``, for atoms that involve it (``Lin``); unused by atoms without it.

        Returns
        -------
        flint.arb
            A ball containing the number.

        Examples
        --------
        >>> from exactdp.exact.lin import Lin
        >>> b = (Lin.sqrt(2) + 1).arb()
        >>> b.contains(arb(2).sqrt() + 1), bool(b > 2.414), bool(b < 2.415)
        (True, True, True)
        """
        total = arb(0)
        for a, c in self.terms:
            total += arb(c) if a == self.UNIT else arb(c) * self._atom_arb(a, eps)
        return total

    def _sign(self, max_prec: int) -> int:
        """Exact sign: 0 exactly (no term), a rational by its coefficient, the rest by balls at rising precision
        (it terminates: the value is not zero); :class:`Undecided` when ``max_prec`` bits do not separate it."""
        if not self.terms:
            return 0
        if self.is_rational():
            return 1 if self.terms[0][1] > 0 else -1
        s = ball_sign(self.arb, max_prec)
        if s is None:
            raise Undecided(self.NOT_SEPARATED.format(x=self, prec=max_prec))
        return s

    def __lt__(self, other):
        return (self - other).sign() < 0

    def __le__(self, other):
        return (self - other).sign() <= 0

    def __gt__(self, other):
        return (self - other).sign() > 0

    def __ge__(self, other):
        return (self - other).sign() >= 0

    # -- text -----------------------------------------------------------------------
    def __str__(self):
        if not self.terms:
            return "0"
        return format_linear([(None if a == self.UNIT else self._atom_text(a), c) for a, c in self.terms])

    def __repr__(self):
        return f"{type(self).__name__}('{self}')"
