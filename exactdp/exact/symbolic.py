"""Regime 3: statements for every eps > 0 at once, by exact real-root isolation.

With ``alpha = e^(-eps)`` a symbol in (0, 1), a value in the symbolic field is a
quotient of polynomials in ``u = alpha^(1/L)`` (``L`` clears the denominators of
the exponents).  The sign of a polynomial ``p`` on the open interval (0, 1) is
decomposed exactly:

1. the factor ``u^k`` is removed (it is positive on (0, 1));
2. Descartes' rule on ``(1+v)^n p(1/(1+v))`` -- no sign variation means no root
   in (0, 1) and one constant sign;
3. otherwise ``p`` is split into square-free factors, the real roots of each in
   (0, 1) are isolated exactly (sympy ``CRootOf``), sorted, and the sign is
   carried across each root by the parity of its multiplicity, starting from
   the sign of the lowest coefficient (the sign of ``p`` near 0+).

The open interval is used on purpose: ``alpha = 1`` (eps = 0) is often a root.

>>> from exactdp.exact.values import probability, Setting
>>> x = probability("1 - 2*alpha", setting=Setting.symbolic())
>>> [str(p) for p in sign_pieces(x)]
['(0, 1/2): +', '{1/2}: 0', '(1/2, 1): -']
"""

from __future__ import annotations

from functools import cache
from math import lcm
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from flint import fmpq, fmpq_poly

from ..errors import InputTooLarge, UnsupportedRegime
from .expo import ExpFrac
from .lin import EPS_ATOM

if TYPE_CHECKING:
    import sympy as sp

__all__ = ["Algebraic", "AlphaSet", "Piece", "denominator_lcm", "sign_pieces", "sign_pieces_poly", "to_upoly"]


# sympy is imported by the functions that use it (root isolation, printing of algebraic roots): a fixed
# level never needs it, and importing it costs about half a second at start-up.


@cache
def _u() -> sp.Symbol:
    """The sympy symbol ``alpha`` used for ``u = alpha^(1/L)`` in printed roots (made on first use)."""
    import sympy as sp

    return sp.Symbol("alpha", positive=True)


def __getattr__(name: str) -> Any:
    # ``U``, the sympy symbol used for u = alpha^(1/L) in printed roots, is made on first access (PEP 562)
    if name == "U":
        return _u()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _exps(p: dict):
    out = []
    for k in p:
        if k.is_zero():
            out.append(fmpq(0))
            continue
        sa = k.single_atom()
        if sa is None or sa[0] != EPS_ATOM:
            raise UnsupportedRegime(
                f"exp({k}) is not a power of alpha; the all-eps regime needs entries that are "
                "rational functions of alpha (rational powers allowed)")
        out.append(-sa[1])  # exp(c eps) = alpha^(-c)
    return out


def denominator_lcm(values: Iterable[Any]) -> int:
    """Return the smallest ``L`` such that every exponent of alpha in ``values`` is a multiple of ``1/L``.

    Parameters
    ----------
    values : iterable
        Symbolic values (:class:`~exactdp.exact.expo.ExpFrac` in alpha) and rationals.

    Returns
    -------
    int
        ``L >= 1``.

    Raises
    ------
    UnsupportedRegime
        If an exponential is not a power of alpha.

    Examples
    --------
    >>> from exactdp.exact.values import probability, Setting
    >>> S = Setting.symbolic()
    >>> denominator_lcm([probability("alpha^(1/2)", setting=S), probability("alpha^(1/3)", setting=S)])
    6
    """
    L = 1
    for v in values:
        if isinstance(v, ExpFrac):
            for e in _exps(v.num) + _exps(v.den):
                L = lcm(L, int(e.q))
    return L


#: largest degree in ``u = alpha^(1/L)`` of an entry's numerator or denominator taken to exact root isolation
MAX_SYMBOLIC_DEGREE = 1_000


def _poly(p: dict, L: int):
    es = _exps(p)
    ints = [int(e * L) for e in es]
    shift = min(ints) if ints else 0
    if ints and max(ints) - shift > MAX_SYMBOLIC_DEGREE:
        raise InputTooLarge(f"symbolic alpha: a polynomial of degree {max(ints) - shift} in u = alpha^(1/{L}) is "
                            f"beyond the limit {MAX_SYMBOLIC_DEGREE} for exact root isolation; fix a level "
                            "(--eps/--alpha) instead of proving it for every eps")
    coeffs: dict = {}
    for (_k, c), e in zip(p.items(), ints, strict=True):
        coeffs[e - shift] = coeffs.get(e - shift, 0) + c
    deg = max(coeffs) if coeffs else 0
    return fmpq_poly([coeffs.get(i, 0) for i in range(deg + 1)]), shift


def to_upoly(x: Any, L: int = 1) -> tuple[fmpq_poly, fmpq_poly, int]:
    """Write ``x = u^s * N(u) / D(u)`` with ``u = alpha^(1/L)``.

    Parameters
    ----------
    x : fmpq or ExpFrac
        A symbolic value.
    L : int, optional
        The root of alpha (:func:`denominator_lcm`).

    Returns
    -------
    N, D : fmpq_poly
        Numerator and denominator in ``u``, without a factor ``u``.
    s : int
        The power of ``u`` taken out.

    Raises
    ------
    InputTooLarge
        Above :data:`MAX_SYMBOLIC_DEGREE`.

    Examples
    --------
    >>> from exactdp.exact.values import probability, Setting
    >>> S = Setting.symbolic()
    >>> to_upoly(probability("1 - 2*alpha", setting=S))
    ((-2)*x + 1, 1, 0)
    >>> to_upoly(probability("alpha^(1/2)", setting=S), 2)       # u^1 * 1/1
    (1, 1, 1)
    """
    if isinstance(x, fmpq):
        return fmpq_poly([x]), fmpq_poly([1]), 0
    n, sn = _poly(x.num, L)
    d, sd = _poly(x.den, L)
    return n, d, sn - sd


class Algebraic:
    """A real algebraic number: the unique root of the square-free ``poly`` in ``[a, b]``.

    ``a == b`` means the rational root ``a``.  Comparison is exact: disjoint
    intervals order two numbers; overlapping ones are equal iff the gcd of the
    polynomials has a root in the overlap; otherwise the intervals are refined
    by bisection until they separate (which terminates for distinct numbers).

    Parameters
    ----------
    poly : sympy.Poly
        Square-free, in the symbol :data:`U`.
    a, b : rational
        An isolating interval: ``poly`` has exactly one root in ``[a, b]``.

    Examples
    --------
    >>> import sympy as sp
    >>> from exactdp.exact.symbolic import U
    >>> r = Algebraic(sp.Poly(U**2 - 2, U), 1, 2)
    >>> print(r)
    root of alpha**2 - 2 in [1, 2] (~1.41421356237)
    >>> r < Algebraic.rational("3/2"), r.power(2) == Algebraic.rational(2)
    (True, True)
    """

    __slots__ = ("a", "b", "poly")

    def __init__(self, poly, a, b):
        import sympy as sp

        self.poly, self.a, self.b = poly, sp.Rational(a), sp.Rational(b)

    @staticmethod
    def rational(q: Any) -> Algebraic:
        """Return the rational ``q`` as an algebraic number (the root of ``U - q``).

        Parameters
        ----------
        q : rational
            Anything ``sympy.Rational`` reads.

        Returns
        -------
        Algebraic
            With ``a == b == q``.

        Examples
        --------
        >>> str(Algebraic.rational("1/3")), Algebraic.rational("1/3").is_rational()
        ('1/3', True)
        """
        import sympy as sp

        q = sp.Rational(q)
        return Algebraic(sp.Poly(_u() - q, _u()), q, q)

    def is_rational(self) -> bool:
        """Return whether the number is known rational (its interval is one point).

        Returns
        -------
        bool
            True iff ``a == b``.

        Examples
        --------
        >>> import sympy as sp
        >>> from exactdp.exact.symbolic import U
        >>> Algebraic.rational(2).is_rational(), Algebraic(sp.Poly(U**2 - 2, U), 1, 2).is_rational()
        (True, False)
        """
        return self.a == self.b

    def _bisect(self):
        if self.a == self.b:
            return
        m = (self.a + self.b) / 2
        fm = self.poly(m)
        if fm == 0:
            self.a = self.b = m
        elif (self.poly(self.a) > 0) != (fm > 0):
            self.b = m
        else:
            self.a = m

    def cmp(self, other: Algebraic) -> int:
        """Compare exactly with another algebraic number (refining both intervals as needed).

        Parameters
        ----------
        other : Algebraic
            The other number.

        Returns
        -------
        int
            -1, 0 or 1 as ``self`` is below, equal to or above ``other``.

        Examples
        --------
        >>> import sympy as sp
        >>> from exactdp.exact.symbolic import U
        >>> r = Algebraic(sp.Poly(U**2 - 2, U), 1, 2)
        >>> r.cmp(Algebraic.rational("3/2")), r.cmp(Algebraic.rational("7/5")), r.cmp(r)
        (-1, 1, 0)
        """
        import sympy as sp

        while True:
            if (self.b < other.a or (self.b == other.a and not (self.is_rational() and other.is_rational()))) \
                    and (self.b < other.a or self.a < self.b or other.a < other.b):
                return -1
            if other.b < self.a or (other.b == self.a and (self.a < self.b or other.a < other.b)):
                return 1
            if self.is_rational() and other.is_rational():
                return int(bool(self.a > other.a)) - int(bool(self.a < other.a))
            lo, hi = max(self.a, other.a), min(self.b, other.b)
            g = sp.gcd(self.poly, other.poly)
            # both numbers are then the unique root of g in the overlap
            if g.degree() >= 1 and lo <= hi and g.count_roots(lo, hi) > 0 \
                    and self.a <= lo and hi <= self.b and other.a <= lo and hi <= other.b:
                return 0
            self._bisect()
            other._bisect()

    def __lt__(self, other):
        return self.cmp(other) < 0

    def __eq__(self, other):
        return isinstance(other, Algebraic) and self.cmp(other) == 0

    __hash__ = None  # type: ignore[assignment]  # exact value equality, not structural: unhashable

    def power(self, L: int) -> Algebraic:
        """Return ``self^L`` for a positive number (used for ``alpha = u^L``), exactly, via a resultant.

        Parameters
        ----------
        L : int
            The power, ``L >= 1``.

        Returns
        -------
        Algebraic
            ``self^L`` with an isolating interval.

        Examples
        --------
        >>> import sympy as sp
        >>> from exactdp.exact.symbolic import U
        >>> r = Algebraic(sp.Poly(U**3 - 2, U), 1, 2)     # the cube root of 2
        >>> r.power(3).cmp(Algebraic.rational(2)), r.power(1) is r
        (0, True)
        """
        import sympy as sp

        if L == 1:
            return self
        if self.is_rational():
            return Algebraic.rational(self.a**L)
        A = sp.Symbol("_a")
        res = sp.Poly(sp.resultant(self.poly.as_expr().subs(_u(), A), _u() - A**L, A), _u())
        sqf = sp.Poly(sp.sqf_part(res.as_expr()), _u())
        target = Algebraic(sqf, self.a**L, self.b**L)
        while sqf.count_roots(target.a, target.b) > 1:
            self._bisect()
            target = Algebraic(sqf, self.a**L, self.b**L)
        return target

    def decimal(self, digits=15) -> str:
        """Return a decimal approximation (for display only; never used to decide).

        Parameters
        ----------
        digits : int, optional
            Significant digits.

        Returns
        -------
        str
            The midpoint of an interval narrower than ``10^-(digits + 2)``, rounded.

        Examples
        --------
        >>> import sympy as sp
        >>> from exactdp.exact.symbolic import U
        >>> Algebraic(sp.Poly(U**2 - 2, U), 1, 2).decimal(5)
        '1.4142'
        """
        import sympy as sp

        x = Algebraic(self.poly, self.a, self.b)
        tol = sp.Rational(1, 10**(digits + 2))
        while x.b - x.a > tol:
            x._bisect()
        return str(sp.N((x.a + x.b) / 2, digits))

    def __str__(self):
        import sympy as sp

        if self.is_rational():
            return str(self.a)
        return f"root of {sp.sstr(self.poly.as_expr())} in [{self.a}, {self.b}] (~{self.decimal(12)})"

    def latex(self) -> str:
        """Return the number in LaTeX (a fraction, or the root of its polynomial in its interval).

        Returns
        -------
        str
            LaTeX source.

        Examples
        --------
        >>> print(Algebraic.rational("1/3").latex())
        \\frac{1}{3}
        """
        import sympy as sp

        if self.is_rational():
            return sp.latex(self.a)
        return (rf"\text{{root of }} {sp.latex(self.poly.as_expr())} \text{{ in }} "
                rf"[{sp.latex(self.a)}, {sp.latex(self.b)}] \approx {self.decimal(10)}")


class Piece:
    """A piece of (0, 1) in ``alpha``: an interval (open unless marked closed) or a point, with a sign.

    Parameters
    ----------
    lo, hi : Algebraic
        The ends; the same object for a point (which is then closed).
    sign : int
        -1, 0 or 1 on the piece.

    Examples
    --------
    >>> half = Algebraic.rational("1/2")
    >>> str(Piece(Algebraic.rational(0), half, 1)), str(Piece(half, half, 0))
    ('(0, 1/2): +', '{1/2}: 0')
    """

    __slots__ = ("hi", "hi_closed", "lo", "lo_closed", "sign")

    def __init__(self, lo: Algebraic, hi: Algebraic, sign: int):
        self.lo, self.hi, self.sign = lo, hi, sign
        self.lo_closed = self.hi_closed = lo is hi

    @property
    def is_point(self) -> bool:
        """Whether the piece is one point.

        Examples
        --------
        >>> half = Algebraic.rational("1/2")
        >>> Piece(half, half, 0).is_point, Piece(Algebraic.rational(0), half, 1).is_point
        (True, False)
        """
        return self.lo is self.hi

    def __str__(self):
        s = {1: "+", 0: "0", -1: "-"}[self.sign]
        if self.is_point:
            return f"{{{self.lo}}}: {s}"
        return f"({self.lo}, {self.hi}): {s}"


@cache
def _zero() -> Algebraic:
    return Algebraic.rational(0)


@cache
def _one() -> Algebraic:
    return Algebraic.rational(1)


def _descartes_no_root_01(p: fmpq_poly) -> bool:
    """True if Descartes' rule proves ``p`` has no root in (0, 1)."""
    n = p.degree()
    if n <= 0:
        return True
    q = fmpq_poly([0])
    one_v = fmpq_poly([1, 1])
    for i, c in enumerate(p.coeffs()):
        if c != 0:
            q += c * one_v ** (n - i)
    signs = [c > 0 for c in q.coeffs() if c != 0]
    return all(s == signs[0] for s in signs)


def sign_pieces(x: Any, L: int | None = None) -> list[Piece]:
    """Return the exact sign of ``x`` (a symbolic value) on (0, 1) in ``alpha``, as pieces.

    Roots of the numerator give sign 0.

    Parameters
    ----------
    x : fmpq or ExpFrac
        A symbolic value.
    L : int, optional
        The root of alpha (default :func:`denominator_lcm` of ``x``).

    Returns
    -------
    list of Piece
        Open intervals and points covering (0, 1), in order.

    Raises
    ------
    UnsupportedRegime
        If the denominator of ``x`` vanishes in (0, 1) (where ``x`` is undefined).

    Examples
    --------
    >>> from exactdp.exact.values import probability, Setting
    >>> x = probability("alpha - alpha^2", setting=Setting.symbolic())
    >>> [str(p) for p in sign_pieces(x)]
    ['(0, 1): +']
    """
    if L is None:
        L = denominator_lcm([x])
    n, d, _ = to_upoly(x, L)
    if n.is_zero():
        return [Piece(_zero(), _one(), 0)]
    if _roots_01(d):
        raise UnsupportedRegime(f"the denominator of {x} vanishes for some alpha in (0, 1)")
    return sign_pieces_poly(n * d, L)


def sign_pieces_poly(p: fmpq_poly, L: int = 1) -> list[Piece]:
    """Return the exact sign of the polynomial ``p(u)``, ``u = alpha^(1/L)``, on (0, 1), as pieces in ``alpha``.

    Parameters
    ----------
    p : fmpq_poly
        The polynomial in ``u``.
    L : int, optional
        ``u = alpha^(1/L)``.

    Returns
    -------
    list of Piece
        Open intervals and points covering (0, 1), in order; the points are the roots.

    Examples
    --------
    ``1 - 2 sqrt(alpha)`` is positive exactly below ``alpha = 1/4``:

    >>> from flint import fmpq_poly
    >>> [str(p) for p in sign_pieces_poly(fmpq_poly([1, -2]), 2)]
    ['(0, 1/4): +', '{1/4}: 0', '(1/4, 1): -']
    """
    if p.is_zero():
        return [Piece(_zero(), _one(), 0)]
    roots = _roots_01(p)
    low = next(c for c in p.coeffs() if c != 0)
    s = 1 if low > 0 else -1
    pieces = []
    prev = _zero()
    for r, mult in roots:
        ra = r.power(L)
        pieces.append(Piece(prev, ra, s))
        pieces.append(Piece(ra, ra, 0))
        if mult % 2:
            s = -s
        prev = ra
    pieces.append(Piece(prev, _one(), s))
    return pieces


def _sympy_poly(f: fmpq_poly):
    import sympy as sp

    return sp.Poly([sp.Rational(int(c.p), int(c.q)) for c in reversed(f.coeffs())], _u())


def _roots_01(p: fmpq_poly):
    """Distinct real roots of ``p`` in the open interval (0, 1), sorted, with multiplicity."""
    import sympy as sp

    if p.degree() <= 0:
        return []
    coeffs = p.coeffs()
    k = next(i for i, c in enumerate(coeffs) if c != 0)
    p = fmpq_poly(coeffs[k:])
    if _descartes_no_root_01(p):
        return []
    out = []
    _, factors = p.factor()  # irreducible over Q: pairwise coprime, square-free
    for f, mult in factors:
        if f.degree() == 1:
            c0, c1 = f.coeffs()
            r: Any = -c0 / c1  # an fmpq here, an Algebraic below
            if 0 < r < 1:
                out.append((Algebraic.rational(sp.Rational(int(r.p), int(r.q))), mult))
            continue
        if _descartes_no_root_01(f):
            continue
        sf = _sympy_poly(f)
        for (a, b), _m in sf.intervals(inf=0, sup=1):
            a, b = sp.Rational(a), sp.Rational(b)
            if a == b:
                if 0 < a < 1:
                    out.append((Algebraic.rational(a), mult))
                continue
            r = Algebraic(sf, a, b)
            # sympy's isolating intervals may touch a rational root at 0 or 1: shrink off the ends
            while sf(r.a) == 0 or sf(r.b) == 0 or (sf(r.a) > 0) == (sf(r.b) > 0):
                a2, b2 = sf.refine_root(r.a, r.b, eps=(r.b - r.a) / 4)
                r = Algebraic(sf, a2, b2)
                if r.a == r.b:
                    break
            if r.b <= 0 or r.a >= 1:
                continue
            out.append((r, mult))
    out.sort(key=lambda rm: _Key(rm[0]))
    return out


class _Key:
    __slots__ = ("x",)

    def __init__(self, x):
        self.x = x

    def __lt__(self, other):
        return self.x.cmp(other.x) < 0


class AlphaSet:
    """A subset of (0, 1) in ``alpha`` given as exact disjoint pieces (overlapping ones are merged).

    Parameters
    ----------
    pieces : list of Piece
        Intervals and points; their signs are ignored.

    Examples
    --------
    >>> from exactdp.exact.values import probability, Setting
    >>> pcs = sign_pieces(probability("1 - 2*alpha", setting=Setting.symbolic()))
    >>> print(AlphaSet([p for p in pcs if p.sign >= 0]))        # 1 - 2 alpha >= 0
    (0, 1/2]
    >>> AlphaSet([]).is_empty()
    True
    """

    def __init__(self, pieces: list[Piece]):
        self.pieces = _merge(pieces)

    def is_empty(self) -> bool:
        """Return whether the set is empty.

        Returns
        -------
        bool
            True iff there is no piece.

        Examples
        --------
        >>> AlphaSet([]).is_empty()
        True
        """
        return not self.pieces

    def is_everything(self) -> bool:
        """Return whether the set is all of (0, 1).

        Returns
        -------
        bool
            True iff it is the one open interval (0, 1).

        Examples
        --------
        >>> zero, one = Algebraic.rational(0), Algebraic.rational(1)
        >>> AlphaSet([Piece(zero, one, 1)]).is_everything(), AlphaSet([]).is_everything()
        (True, False)
        """
        return (len(self.pieces) == 1 and not self.pieces[0].is_point
                and self.pieces[0].lo.cmp(_zero()) == 0 and self.pieces[0].hi.cmp(_one()) == 0)

    def __str__(self):
        if not self.pieces:
            return "{}"
        return " U ".join(f"{{{p.lo}}}" if p.is_point else
                          f"{'[' if p.lo_closed else '('}{p.lo}, {p.hi}{']' if p.hi_closed else ')'}"
                          for p in self.pieces)

    def latex(self) -> str:
        """Return the set in LaTeX (a union of intervals and points).

        Returns
        -------
        str
            LaTeX source; ``\\emptyset`` for the empty set.

        Examples
        --------
        >>> zero, half = Algebraic.rational(0), Algebraic.rational("1/2")
        >>> print(AlphaSet([Piece(zero, half, 1), Piece(half, half, 0)]).latex())
        \\left(0, \\frac{1}{2}\\right]
        """
        if not self.pieces:
            return r"\emptyset"
        return r" \cup ".join(
            rf"\{{{p.lo.latex()}\}}" if p.is_point else
            (r"\left[" if p.lo_closed else r"\left(") + f"{p.lo.latex()}, {p.hi.latex()}"
            + (r"\right]" if p.hi_closed else r"\right)") for p in self.pieces)

    def to_json(self) -> list[dict]:
        """Return the pieces as JSON-ready exact text, with decimal approximations for display.

        Returns
        -------
        list of dict
            ``lo``, ``hi`` (exact), ``point``, ``lo_closed``, ``hi_closed``, ``lo_approx``, ``hi_approx``.

        Examples
        --------
        >>> zero, half = Algebraic.rational(0), Algebraic.rational("1/2")
        >>> AlphaSet([Piece(zero, half, 1)]).to_json()    # doctest: +NORMALIZE_WHITESPACE
        [{'lo': '0', 'hi': '1/2', 'point': False, 'lo_closed': False, 'hi_closed': False, 'lo_approx': '0',
          'hi_approx': '0.500000000000000'}]
        """
        return [{"lo": str(p.lo), "hi": str(p.hi), "point": p.is_point,
                 "lo_closed": p.lo_closed, "hi_closed": p.hi_closed,
                 "lo_approx": p.lo.decimal(15), "hi_approx": p.hi.decimal(15)} for p in self.pieces]


def _merge(pieces: list) -> list:
    """Union of pieces as disjoint pieces with open/closed ends (exact comparisons)."""
    items = [[p.lo, p.hi, p.is_point, p.is_point, p.sign] for p in pieces]  # lo, hi, lo_closed, hi_closed
    items.sort(key=lambda t: (_Key(t[0]), 0 if t[2] else 1))
    out: list = []
    for t in items:
        if out:
            q = out[-1]
            c = t[0].cmp(q[1])
            if c < 0 or (c == 0 and (q[3] or t[2])):
                ch = t[1].cmp(q[1])
                if ch > 0:
                    q[1], q[3] = t[1], t[3]
                elif ch == 0:
                    q[3] = q[3] or t[3]
                continue
        out.append(list(t))
    res = []
    for lo, hi, lc, hc, sg in out:
        pc = Piece(lo, hi if lo.cmp(hi) != 0 else lo, sg)
        pc.lo_closed, pc.hi_closed = lc, hc
        res.append(pc)
    return res
