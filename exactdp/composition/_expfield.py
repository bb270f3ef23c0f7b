"""Exact arithmetic for privacy-loss distributions with transcendental entries.

When every exponent that occurs in two rows of a mechanism is a rational
multiple of one algebraic number ``b`` (e.g. the geometric mechanism at
``eps = 1``: entries in ``Q(e^-1)``), all entries lie in the field ``Q(u)``
with ``u = exp(b/L)`` for a common denominator ``L``.  By Lindemann--Weierstrass
``u`` is transcendental, so ``Q(u)`` is isomorphic to the field of rational
functions in one variable: an entry is exactly a pair of polynomials with
rational coefficients, sums and products are FLINT polynomial arithmetic, and
``u^s n(u)/d(u)`` with ``n(0) d(0) != 0``, ``d`` monic and ``gcd(n, d) = 1``
is a *canonical* form -- equal ratios get equal keys, which is what merging
loss values in a convolution needs.  Signs are not decided here: the values go
back to :class:`~exactdp.exact.expo.ExpFrac` and the kernel's transcendence +
ball method (:func:`exactdp.exact.decide.sign`).

Exponents on several independent lines (``1`` and ``sqrt(2)`` together) use
:class:`ExpFrac` arithmetic itself (:class:`ExpDomain`): slower, still exact.

>>> from flint import fmpq
>>> from exactdp.exact.expo import ExpFrac
>>> from exactdp.exact.lin import Lin
>>> dom = domain_of([ExpFrac.exp(Lin.rat(-1)) / (1 + ExpFrac.exp(Lin.rat(-1)))])
>>> r = dom.ratio(ExpFrac.exp(Lin.rat(-1)), fmpq(1))
>>> dom.key(r * r) == dom.key(dom.ratio(ExpFrac.exp(Lin.rat(-2)), fmpq(1)))
True
>>> str(dom.to_exp(r * r))
'exp(-2)'
"""

from __future__ import annotations

from flint import fmpq, fmpq_poly

from ..exact.expo import ExpFrac
from ..exact.lin import EPS_ATOM, Lin

__all__ = ["ExpDomain", "FlintDomain", "domain_of"]


def _shift(p: fmpq_poly, k: int) -> fmpq_poly:
    return p.left_shift(k) if k > 0 else p


class LP:
    """Laurent polynomial ``u^s p(u)`` with rational coefficients (a mass numerator)."""

    __slots__ = ("p", "s")

    def __init__(self, p: fmpq_poly, s: int = 0):
        self.p, self.s = p, s

    def __add__(self, o: LP) -> LP:
        if self.p.is_zero():
            return o
        if o.p.is_zero():
            return self
        s = min(self.s, o.s)
        return LP(_shift(self.p, self.s - s) + _shift(o.p, o.s - s), s)

    def __sub__(self, o: LP) -> LP:
        return self + LP(-o.p, o.s)

    def __mul__(self, o: LP) -> LP:
        return LP(self.p * o.p, self.s + o.s)

    def is_zero(self) -> bool:
        return self.p.is_zero()


class RF:
    """Canonical element ``u^s n(u)/d(u)`` of ``Q(u)`` (``n(0) d(0) != 0``, ``d`` monic, coprime)."""

    __slots__ = ("d", "n", "s")

    def __init__(self, s: int, n: fmpq_poly, d: fmpq_poly):
        if n.is_zero():
            raise ZeroDivisionError("a loss ratio is never zero")
        vn, vd = _valuation(n), _valuation(d)
        n, d = n.right_shift(vn), d.right_shift(vd)
        g = n.gcd(d)
        if g.degree() > 0:
            n, d = n // g, d // g
        c = d.leading_coefficient()
        self.s, self.n, self.d = s + vn - vd, n / c, d / c

    def __mul__(self, o: RF) -> RF:
        return RF(self.s + o.s, self.n * o.n, self.d * o.d)

    def key(self):
        return (self.s, tuple(self.n.coeffs()), tuple(self.d.coeffs()))


def _valuation(p: fmpq_poly) -> int:
    for i, c in enumerate(p.coeffs()):
        if c != 0:
            return i
    return 0


class FlintDomain:
    """``Q(u)``, ``u = exp(atom/L)``: entries as FLINT polynomials (see the module docstring)."""

    def __init__(self, atom: int, L: int):
        self.atom, self.L = atom, L

    def _exp_index(self, k: Lin) -> int:
        if k.is_zero():
            return 0
        _, c = k.single_atom()  # type: ignore[misc]  # a non-zero exponent here is one atom, never None
        return int(c * self.L)

    def _lp(self, pdict: dict) -> LP:
        es = {k: self._exp_index(k) for k in pdict}
        lo = min(es.values())
        coeffs = [fmpq(0)] * (max(es.values()) - lo + 1)
        for k, c in pdict.items():
            coeffs[es[k] - lo] += c
        return LP(fmpq_poly(coeffs), lo)

    def split(self, v):
        """An entry as ``(numerator, denominator)`` Laurent polynomials."""
        if not isinstance(v, ExpFrac):
            q = fmpq(v)
            return LP(fmpq_poly([q.p])), LP(fmpq_poly([q.q]))
        return self._lp(v.num) if v.num else LP(fmpq_poly([])), self._lp(v.den)

    def row(self, values):
        """Numerators over one common denominator: ``([N_y], D)`` with ``entry_y = N_y / D``."""
        parts = [self.split(v) for v in values]
        D = fmpq_poly([1])
        for _, d in parts:
            D = D * d.p // D.gcd(d.p)
        s = min(d.s for _, d in parts)
        return [LP(n.p * (D // d.p), n.s - d.s + s) for n, d in parts], LP(D, s)

    def ratio(self, p, q) -> RF:
        (np_, dp), (nq, dq) = self.split(p), self.split(q)
        return RF(np_.s + dq.s - dp.s - nq.s, np_.p * dq.p, dp.p * nq.p)

    def key(self, r: RF):
        return r.key()

    def _dict(self, p: fmpq_poly, s: int) -> dict:
        out = {}
        for i, c in enumerate(p.coeffs()):
            if c != 0:
                e = fmpq(i + s, self.L)
                out[Lin(((self.atom, e),)) if e != 0 else Lin()] = c
        return out

    def to_exp(self, x):
        """An :class:`LP` or :class:`RF` back as an exact kernel value."""
        if isinstance(x, LP):
            return ExpFrac(self._dict(x.p, x.s))
        return ExpFrac(self._dict(x.n, x.s), self._dict(x.d, 0))

    def quotient(self, m: LP, D: LP):
        """``m / D`` as one :class:`ExpFrac` (the denominator dictionary is shared by equal ``D``)."""
        return ExpFrac(self._dict(m.p, m.s - D.s), self._dict(D.p, 0)) if not m.is_zero() else fmpq(0)

    @staticmethod
    def zero() -> LP:
        return LP(fmpq_poly([]))


class ExpDomain:
    """The general case: :class:`ExpFrac` arithmetic, keys structural (equal ratios are merged exactly later)."""

    @staticmethod
    def row(values):
        return [ExpFrac.coerce(v) for v in values], ExpFrac.const(1)

    @staticmethod
    def ratio(p, q):
        r = ExpFrac.coerce(p) / ExpFrac.coerce(q)
        return r.reduced()

    @staticmethod
    def key(r):
        return r.key()

    @staticmethod
    def to_exp(x):
        return x

    @staticmethod
    def quotient(m, D):
        return m / D if not m.is_zero() else fmpq(0)

    @staticmethod
    def zero():
        return ExpFrac.const(0)


def domain_of(values):
    """The field the values live in: :class:`FlintDomain` when all exponents share one atom, else :class:`ExpDomain`."""
    atom, L = None, 1
    for v in values:
        if not isinstance(v, ExpFrac):
            continue
        for k in v.exponents():
            if not k.terms:
                continue
            sa = k.single_atom()
            if sa is None or sa[0] == EPS_ATOM or (atom is not None and sa[0] != atom):
                return ExpDomain()
            atom = sa[0]
            L = L * int(sa[1].q) // _gcd(L, int(sa[1].q))
    return FlintDomain(atom if atom is not None else 1, L)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
