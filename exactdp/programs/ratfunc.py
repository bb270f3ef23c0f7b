"""Rational functions of one base ``t`` with rational coefficients (exact, reduced): the compiler's numbers.

A :class:`RatFunc` is ``num / den`` with ``num, den`` :class:`flint.fmpq_poly`, ``den`` monic and
``gcd(num, den) = 1``, so equal functions have equal parts.  ``t^k`` for a negative ``k`` is ``1 / t^-k``.

>>> t = RatFunc.mono(1)
>>> (1 - t) / (1 + t) * (1 + t)
RatFunc('-t + 1')
>>> RatFunc.mono(-2) * RatFunc.mono(3) == t
True
>>> ((1 - t) / (1 + t)).at(Fraction(1, 3))
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq, fmpq_poly

__all__ = ["RatFunc"]


def _q(c) -> fmpq:
    """An exact rational as ``fmpq`` (``int``, ``fmpq`` or ``fractions.Fraction``)."""
    if isinstance(c, Fraction):
        return fmpq(c.numerator, c.denominator)
    return fmpq(c)


class RatFunc:
    """``num(t) / den(t)``, reduced with a monic denominator (see the module docstring).

    Parameters
    ----------
    num : fmpq_poly, int, fmpq or Fraction
        The numerator (a constant is a constant polynomial).
    den : fmpq_poly, optional
        The denominator (default 1); not zero.
    reduced : bool, default False
        The caller asserts ``gcd(num, den) = 1`` (skips the gcd).

    Raises
    ------
    ZeroDivisionError
        A zero denominator.

    Examples
    --------
    >>> from flint import fmpq_poly
    >>> RatFunc(fmpq_poly([1, -1]), fmpq_poly([-1, 1]))
    RatFunc('-1')
    """

    __slots__ = ("den", "num")

    def __init__(self, num, den=None, *, reduced: bool = False):
        num = num if isinstance(num, fmpq_poly) else fmpq_poly([_q(num)] if not isinstance(num, list) else num)
        if den is None:     # a polynomial: already reduced, monic denominator 1 (the compiler's common case)
            self.num, self.den = num, _ONE
            return
        if den == 0:
            raise ZeroDivisionError("RatFunc: zero denominator")
        if not reduced and den.degree() > 0:
            g = num.gcd(den)
            if g.degree() > 0:
                num, den = num // g, den // g
        lead = den[den.degree()]
        if lead != 1:
            num, den = num / lead, den / lead
        if num == 0 or den.degree() == 0:   # monic of degree 0 is 1: share the one denominator
            den = _ONE
        self.num, self.den = num, den

    @classmethod
    def _raw(cls, num: fmpq_poly, den: fmpq_poly) -> RatFunc:
        """``num / den`` as given: the caller guarantees reduced parts and a monic ``den`` (no gcd, no checks)."""
        r = object.__new__(cls)
        r.num, r.den = num, den
        return r

    @staticmethod
    def mono(k: int, c=1) -> RatFunc:
        """``c t^k`` for any integer ``k``.

        Parameters
        ----------
        k : int
            The power (negative: ``c / t^-k``).
        c : int, fmpq or Fraction, default 1
            The coefficient.

        Returns
        -------
        RatFunc
            The monomial.

        Examples
        --------
        >>> RatFunc.mono(-2, 3)
        RatFunc('(3)/(t^2)')
        """
        if c == 1:      # the compiler asks for the same few powers of t hundreds of thousands of times
            m = _MONO.get(k)
            if m is None:
                m = _MONO[k] = RatFunc._mono(k, 1)
            return m
        return RatFunc._mono(k, c)

    @staticmethod
    def _mono(k: int, c) -> RatFunc:
        if k >= 0:
            return RatFunc._raw(fmpq_poly([0] * k + [_q(c)]), _ONE)
        if c == 0:
            return RatFunc._raw(fmpq_poly([0]), _ONE)
        return RatFunc._raw(fmpq_poly([_q(c)]), fmpq_poly([0] * (-k) + [1]))

    @staticmethod
    def coerce(x) -> RatFunc:
        """``x`` as a :class:`RatFunc` (itself, or a constant).

        Parameters
        ----------
        x : RatFunc, int, fmpq or Fraction
            The value.

        Returns
        -------
        RatFunc
            The same value.

        Examples
        --------
        >>> RatFunc.coerce(Fraction(1, 2))
        RatFunc('1/2')
        """
        if isinstance(x, RatFunc):
            return x
        return RatFunc(x)

    def __add__(self, o):
        o = RatFunc.coerce(o)
        if self.den is _ONE and o.den is _ONE:   # polynomials: the sum is a polynomial, nothing to reduce
            return RatFunc._raw(self.num + o.num, _ONE)
        if self.den == o.den:
            return RatFunc(self.num + o.num, self.den)
        return RatFunc(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self):
        return RatFunc(-self.num, self.den, reduced=True)

    def __sub__(self, o):
        return self + (-RatFunc.coerce(o))

    def __rsub__(self, o):
        return RatFunc.coerce(o) - self

    def __mul__(self, o):
        o = RatFunc.coerce(o)
        if self.num == 0 or o.num == 0:
            return RatFunc(0)
        if self.den is _ONE and o.den is _ONE:
            return RatFunc._raw(self.num * o.num, _ONE)
        return RatFunc(self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = RatFunc.coerce(o)
        if o.num == 0:
            raise ZeroDivisionError("RatFunc: division by zero")
        return RatFunc(self.num * o.den, self.den * o.num)

    def __rtruediv__(self, o):
        return RatFunc.coerce(o) / self

    def __eq__(self, o):
        o = RatFunc.coerce(o)
        return self.num == o.num and self.den == o.den

    def __hash__(self):
        return hash((tuple(self.num.numer().coeffs()), self.num.denom(), tuple(self.den.numer().coeffs()),
                     self.den.denom()))

    def is_zero(self) -> bool:
        """Whether this is the zero function.

        Returns
        -------
        bool
            ``True`` for ``0``.

        Examples
        --------
        >>> (RatFunc.mono(1) - RatFunc.mono(1)).is_zero()
        True
        """
        return self.num == 0

    def at(self, t: Fraction) -> Fraction:
        """The exact value at a rational ``t``.

        Parameters
        ----------
        t : Fraction
            The point.

        Returns
        -------
        Fraction
            ``num(t) / den(t)``.

        Raises
        ------
        ZeroDivisionError
            The denominator vanishes at ``t``.

        Examples
        --------
        >>> (1 / (1 + RatFunc.mono(1))).at(Fraction(1, 2))
        Fraction(2, 3)
        """
        tq = fmpq(t.numerator, t.denominator)
        n, d = self.num(tq), self.den(tq)
        if d == 0:
            raise ZeroDivisionError(f"RatFunc: the denominator vanishes at t = {t}")
        v = n / d
        return Fraction(int(v.p), int(v.q))

    def degree(self) -> int:
        """The larger of the degrees of numerator and denominator.

        Returns
        -------
        int
            ``max(deg num, deg den, 0)``.

        Examples
        --------
        >>> (RatFunc.mono(3) / (1 + RatFunc.mono(1))).degree()
        3
        """
        return max(self.num.degree(), self.den.degree(), 0)

    def __repr__(self):
        return f"RatFunc({str(self)!r})"

    def __str__(self):
        if self.den == 1:
            return _pstr(self.num)
        return f"({_pstr(self.num)})/({_pstr(self.den)})"


#: the denominator of every polynomial (shared, never mutated: fmpq_poly arithmetic returns new objects)
_ONE = fmpq_poly([1])
#: cache of the monomials ``t^k`` (immutable values)
_MONO: dict = {}


def _pstr(p: fmpq_poly) -> str:
    """``p`` in ``t``, highest power first (``t^2 - 3/2 t + 1``)."""
    parts = []
    for k in range(p.degree(), -1, -1):
        c = p[k]
        if c == 0:
            continue
        mono = "" if k == 0 else "t" if k == 1 else f"t^{k}"
        mag = abs(c)
        cs = str(mag) if (mag != 1 or not mono) else ""
        term = f"{cs} {mono}".strip() if cs and mono else (cs or mono)
        parts.append(("-" if c < 0 else "+", term))
    if not parts:
        return "0"
    out = ("-" if parts[0][0] == "-" else "") + parts[0][1]
    for sg, term in parts[1:]:
        out += f" {sg} {term}"
    return out
