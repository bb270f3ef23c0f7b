"""Composition on the privacy-loss lattice: the ``k``-fold PLD as a polynomial power (issue 29).

When every finite loss ratio of an ordered pair is ``r_n = c b^n`` for one
step ``b > 1``, one offset ``c > 0`` and integers ``n >= 0`` (randomized
response, the geometric and discrete Laplace mechanisms at any eps, the
discrete Gaussian with ``b = e^(1/sigma^2)``), the PLD is the polynomial
``F(x) = sum_n m_n x^n`` (``m_n`` the P-mass at ratio ``r_n``) and ``k``
independent runs multiply ratios and masses: the ``k``-fold PLD is ``F(x)^k``
with ratio ``c^k b^n`` at ``x^n``, and the mass where ``Q = 0`` becomes
``1 - (1 - m_inf)^k`` (Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1).  The
smallest delta at ``t = e^eps`` is, by the worst-set lemma,

    delta_k(t) = m_inf,k + sum_{c^k b^n > t} m_n,k (1 - t / (c^k b^n)),

maximised over the ordered neighbouring pairs (as :func:`~exactdp.composition.composition.composed_profile`).

Two routes, chosen up front by a cost estimate (:func:`lattice_plan`):

* ``lattice-exact`` -- ``F^k`` by FLINT: ``fmpz_poly`` power for rational
  entries; for entries in ``Q(u)``, ``u = exp(a/L)`` transcendental
  (:mod:`exactdp.composition._expfield`), the masses are polynomials in ``u``
  and ``F`` is a bivariate ``fmpz_mpoly`` in ``(x, u)``.  The delta is exact
  (``A - t B`` with ``A, B`` exact); at a transcendental ``t`` its decimal
  enclosure is certified by Arb at rising precision.
* ``lattice-balls`` -- when the exact coefficients would be too large (the
  discrete Gaussian at ``k = 1000`` has ~10^5-degree polynomials in ``u`` at
  each loss), the masses are Arb balls and ``F^k`` is an ``arb_poly`` power:
  every operation is rigorous, so the answer is a certified enclosure whose
  width is stated, not an exact value.

Which ``n`` have ``c^k b^n > t`` is decided exactly (balls first, the kernel's
exact comparison :meth:`~exactdp.exact.level.Level.compare` where a ball cannot
separate); a loss equal to ``eps`` adds ``0`` either way.

>>> from exactdp.mechanisms import randomized_response
>>> r = composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 2, eps="log(3)")
>>> r.value, r.route
(3/8, 'lattice-exact')
>>> from exactdp.mechanisms import generalized_rr
>>> r = composed_delta(generalized_rr(2, eps="1"), [("0", "1")], 1000, eps="500")
>>> r.route, r.enclosure()
('lattice-exact', ('0.080375869020814557', '0.080375869020814558'))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from flint import arb, arb_poly, ctx, fmpq, fmpq_poly, fmpz, fmpz_mpoly_ctx, fmpz_poly

from ..privacy.approximate import approx_level, neighbour_relation
from ..errors import InputTooLarge, InvalidInput, InvalidType, Undecided
from ..exact.decide import _round_str, arb_of, exact_str, sign, simplify
from ..exact.radical import Rad
from ._expfield import LP, RF, FlintDomain
from .composition import PLD, ExpPLD, _check_k, _checked, _pair_pld
from fractions import Fraction
from ..certificate import Certificate, Method
from ..certificate.common import level_data, mechanism_data
from .evidence import LatticeCompositionEvidence, LatticeStep, lattice_claim
from .evidence import NeighbourPair, RunFactor
from ..privacy.approximate import parse_delta
from .composition import _relation

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism

__all__ = [
    "MAX_BALL_WORK",
    "MAX_EXACT_BITS",
    "MAX_EXACT_TERMS",
    "ComposedDelta",
    "LatticePLD",
    "certify_lattice_composition",
    "composed_delta",
    "composed_deltas",
    "lattice_certificate",
    "lattice_of",
    "lattice_plan",
]

#: most bits the exact route may hold in ``F^k`` (estimated terms x bits per coefficient) before it hands over to
#: balls.  Measured on the 2-core development machine: randomized response at eps0 = 1, k = 10,000 (10^4 terms of
#: ~10^4 bits = 10^8 bits) takes ~1 s
MAX_EXACT_BITS = 300_000_000
#: most terms ``(loss, power of u)`` the exact route in ``Q(u)`` may hold (each is read once in Python): the
#: discrete Gaussian at k = 20 (~2 x 10^5 terms) took 3 s, randomized response at k = 10,000 (10^4 terms) 0.6 s
MAX_EXACT_TERMS = 60_000
#: most ball work ``(degree of the composed PLD) x precision`` the ball route accepts.  Measured on the 2-core
#: development machine: the discrete Gaussian at k = 1000 (degree 19,000 at 128 bits, 2.4e6) took 1.9-4.8 s, so the
#: limit (degree 62,500) keeps a run to roughly 15 s; above it the composition is refused before any work
MAX_BALL_WORK = 8_000_000
#: largest numerator or denominator (bits) factored to find a rational lattice
MAX_FACTOR_BITS = 128
#: precision (bits) of the ball route; doubled once when the answer is wider than 2^-40 relatively
BALL_PREC = 128
#: highest precision tried for an enclosure or a threshold decision by balls
MAX_ENCLOSURE_PREC = 1 << 16


@dataclass
class LatticePLD:
    """One ordered pair's PLD on a lattice: ratio ``c b^n`` carries the P-mass of the n-th coefficient.

    Parameters
    ----------
    kind : str
        ``"rational"`` (``b, c`` and masses rational) or ``"field"`` (in ``Q(u)``, :class:`FlintDomain`).
    b, c : fmpq or RF
        The step ``b > 1`` and the offset ``c`` (the smallest finite ratio).
    terms : dict
        ``n -> mass``: an ``fmpq`` (rational) or a Laurent-polynomial numerator ``LP`` over ``den`` (field).
    inf : fmpq or LP
        The P-mass where ``Q = 0`` (a numerator over ``den`` in the field case).
    den : LP or None
        The common denominator of the field case.
    dom : FlintDomain or None
        The field.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.composition.composition import privacy_loss_distribution
    >>> L = lattice_of(privacy_loss_distribution(randomized_response(2, p="1/4"), "0", "1"))
    >>> L.b, L.c, sorted(L.terms.items())
    (9, 1/3, [(0, 1/4), (1, 3/4)])
    """

    kind: str
    b: Any
    c: Any
    terms: dict
    inf: Any
    den: Any = None
    dom: Any = None
    span: int = field(init=False)

    def __post_init__(self):
        self.span = max(self.terms) if self.terms else 0


# -- finding the lattice ---------------------------------------------------------------------------------------


def _vec(q: fmpq) -> dict | None:
    """The prime exponent vector of a positive rational (``None`` when too large to factor here)."""
    if max(int(q.p).bit_length(), int(q.q).bit_length()) > MAX_FACTOR_BITS:
        return None
    v: dict = {}
    for p, e in _factor(int(q.p)):
        v[p] = v.get(p, 0) + e
    for p, e in _factor(int(q.q)):
        v[p] = v.get(p, 0) - e
    return v


def _factor(n: int) -> list:
    return [] if n == 1 else [(int(p), int(e)) for p, e in fmpz(n).factor()]


def _rational_lattice(pld: PLD) -> LatticePLD | None:
    if not pld.masses:
        return LatticePLD("rational", fmpq(2), fmpq(1), {}, pld.inf)
    c = min(pld.masses)
    vecs = {}
    for r in pld.masses:
        v = _vec(r / c)
        if v is None:
            return None
        vecs[r] = v
    nz = [v for v in vecs.values() if v]
    if not nz:                      # a single finite ratio
        return LatticePLD("rational", fmpq(2), c, {0: pld.masses[c]}, pld.inf)
    # every exponent vector must be a rational multiple lam_r of one of them (rank one); the lattice step is
    # then gcd(lam_r) times it, an integer vector since the group the vectors generate lies in Z^primes
    piv = nz[0]
    p0 = next(iter(piv))
    lams = {}
    for r, v in vecs.items():
        lam = fmpq(v.get(p0, 0), piv[p0])
        if set(v) - set(piv) or any(lam * e != v.get(p, 0) for p, e in piv.items()):
            return None             # ratios on two independent directions: no one-step lattice
        lams[r] = lam
    D = 1
    for lam in lams.values():
        D = D * int(lam.q) // math.gcd(D, int(lam.q))
    G = 0
    for lam in lams.values():
        G = math.gcd(G, int(lam * D))
    ns = {r: int(lam * D) // G for r, lam in lams.items()}
    b = fmpq(1)
    for p, e in piv.items():
        w = fmpq(e * G, D)          # an integer
        b *= fmpq(p) ** int(w) if w >= 0 else fmpq(1, p ** int(-w))
    if b < 1:
        b, ns = 1 / b, {r: -n for r, n in ns.items()}
    if any(n < 0 for n in ns.values()):     # pragma: no cover - c is the smallest ratio, so every n >= 0
        return None
    return LatticePLD("rational", b, c, {ns[r]: m for r, m in pld.masses.items()}, pld.inf)


def _field_lattice(pld: ExpPLD) -> LatticePLD | None:
    dom = pld.dom
    if not isinstance(dom, FlintDomain):
        return None
    items = list(pld.masses.values())
    if not items:
        return LatticePLD("field", RF(1, fmpq_poly([1]), fmpq_poly([1])), RF(0, fmpq_poly([1]), fmpq_poly([1])), {},
                          pld.inf, pld.den_p, dom)
    # relative to the first ratio every quotient must be the monomial u^s (coefficient 1): then r = r0 u^s
    r0 = items[0][0]
    inv0 = RF(-r0.s, r0.d, r0.n)
    ss = []
    for r, _, _ in items:
        q = r * inv0
        if q.n.degree() != 0 or q.d.degree() != 0 or q.n != q.d:
            return None
        ss.append(q.s)
    g = 0
    for s in ss:
        g = math.gcd(g, s)
    g = g or 1
    lo = min(ss)
    # u = exp(a/L) with a > 0 or a < 0: the step b = u^g must exceed 1, decided by its exponent's sign
    up = sign(dom.to_exp(RF(1, fmpq_poly([1]), fmpq_poly([1]))) - 1) > 0
    if not up:
        g, lo = -g, max(ss)
    b = RF(g, fmpq_poly([1]), fmpq_poly([1]))
    c = r0 * RF(lo, fmpq_poly([1]), fmpq_poly([1]))
    terms: dict = {}
    for (_, p, _), s in zip(items, ss, strict=True):
        n = (s - lo) // g
        terms[n] = terms[n] + p if n in terms else p
    return LatticePLD("field", b, c, terms, pld.inf, pld.den_p, dom)


def lattice_of(pld: PLD | ExpPLD) -> LatticePLD | None:
    """Return the pair's PLD on a one-step lattice, or ``None`` when its ratios are not ``c b^n``.

    Parameters
    ----------
    pld : PLD or ExpPLD
        As :func:`~exactdp.composition.composition.privacy_loss_distribution` returns it.

    Returns
    -------
    LatticePLD or None
        ``None`` also for ratios too large to factor (:data:`MAX_FACTOR_BITS`) and for entries on several
        independent exponent lines; those keep the general convolution.

    Examples
    --------
    Ratios ``2, 3, 4`` are on no common lattice (``log(3/2) / log 2`` is irrational):

    >>> from flint import fmpq
    >>> print(lattice_of(PLD({fmpq(2): fmpq(1, 4), fmpq(3): fmpq(1, 4), fmpq(4): fmpq(1, 2)}, fmpq(0))))
    None
    >>> L = lattice_of(PLD({fmpq(4): fmpq(1, 2), fmpq(1, 2): fmpq(1, 2)}, fmpq(0)))   # 4 = 1/2 * 8
    >>> L.c, L.b, L.terms
    (1/2, 8, {1: 1/2, 0: 1/2})
    """
    return _rational_lattice(pld) if isinstance(pld, PLD) else _field_lattice(pld)


# -- the cost estimate -------------------------------------------------------------------------------------------


def _exact_cost(L: LatticePLD, k: int) -> tuple[int, int]:
    """``(terms, bits)`` of ``F^k``, estimated from above (bits: terms times the bits of the largest coefficient)."""
    if not L.terms:
        return 0, 0
    if L.kind == "rational":
        den = 1
        for m in L.terms.values():
            den = den * int(m.q) // math.gcd(den, int(m.q))
        norm = sum(abs(int(m * den)) for m in L.terms.values())
        return 0, (k * L.span + 1) * (k * max(norm.bit_length(), 1) + 1)
    pts: set = set()
    norm = 0
    for n, p in L.terms.items():
        cs = p.p.coeffs()
        dq = 1
        for co in cs:
            dq = dq * int(co.q) // math.gcd(dq, int(co.q))
        norm += sum(abs(int(co * dq)) for co in cs) * dq
        pts.update((n, p.s + i) for i, co in enumerate(cs) if co != 0)
    bits = k * max(int(norm).bit_length(), 1) + 1
    ns = [q[0] for q in pts]
    es = [q[1] for q in pts]
    if _collinear(list(pts)):
        terms = k * max(max(ns) - min(ns), max(es) - min(es)) + 1
    else:
        grid = (k * (max(ns) - min(ns)) + 1) * (k * (max(es) - min(es)) + 1)
        terms = min(grid, math.comb(k + len(pts) - 1, len(pts) - 1))
    return terms, terms * bits


def _collinear(pts: list) -> bool:
    if len(pts) <= 2:
        return True
    (x0, y0), (x1, y1) = pts[0], pts[1]
    return all((x1 - x0) * (y - y0) == (y1 - y0) * (x - x0) for x, y in pts[2:])


def lattice_plan(L: LatticePLD, k: int) -> str:
    """Choose the route for ``k`` runs of a lattice PLD up front, or refuse it before any work.

    Parameters
    ----------
    L : LatticePLD
        The pair's PLD.
    k : int
        The number of runs.

    Returns
    -------
    str
        ``"lattice-exact"`` when the exact ``F^k`` is estimated under :data:`MAX_EXACT_BITS` (and
        :data:`MAX_EXACT_TERMS` in ``Q(u)``), else
        ``"lattice-balls"``.

    Raises
    ------
    InputTooLarge
        When the ball route too would exceed :data:`MAX_BALL_WORK`.

    Examples
    --------
    >>> from flint import fmpq
    >>> L = lattice_of(PLD({fmpq(3): fmpq(3, 4), fmpq(1, 3): fmpq(1, 4)}, fmpq(0)))
    >>> lattice_plan(L, 1000)
    'lattice-exact'
    >>> lattice_plan(L, 10**6)
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: composition: the composed lattice PLD has degree 1,000,000; balls at 128 bits
    would do 128,000,000 units of work, over the limit 8,000,000 (refused before any work)
    """
    return _plan_parts([(L, k)])


# -- the k-fold power and the delta of one pair -------------------------------------------------------------------


class _Field:
    """Exact values ``u^s N(u) / D(u)`` of ``Q(u)`` kept as (numerator LP, denominator LP)."""

    def __init__(self, dom: FlintDomain):
        self.dom = dom

    def exp(self, num: LP, den: LP) -> Any:
        return simplify(self.dom.quotient(num, den)) if not num.is_zero() else fmpq(0)

    def at(self, x: LP, u: arb) -> arb:
        cs = x.p.coeffs()
        if not cs:
            return arb(0)
        v = arb_poly([arb(c) for c in cs])(u)
        return v * u ** x.s if x.s >= 0 else v / u ** (-x.s)

    def arb_rf(self, r: RF, u: arb) -> arb:
        return self.at(LP(r.n, r.s), u) / self.at(LP(r.d, 0), u)


@dataclass
class _PairValue:
    """``delta = inf + A - t B`` of one ordered pair at the queried t, exact parts or balls."""

    pair: tuple | None
    exact_fn: Any = None       # a callable returning the exact value (fmpq / ExpFrac), built only when asked
    has_exact: bool = False
    ball: Any = None           # a callable prec -> arb enclosure, or a fixed arb (ball route)
    size: str = ""
    cheap: bool = False        # the exact value is a rational, built at once
    _cache: list = field(default_factory=list)

    @property
    def exact(self) -> Any:
        if not self.has_exact:
            return None
        if not self._cache:
            self._cache.append(self.exact_fn())
        return self._cache[0]


def _threshold(lvl: Level, kmax: int, ck_b, ratio_exact) -> int:
    """The least ``n >= 0`` with ``C b^n > t`` (``kmax + 1`` if none), decided exactly.

    ``ck_b()`` returns balls ``(log C, log b)`` at the working precision; ``C b^n > t`` iff
    ``n > x = (eps - log C)/log b``.  A ball of ``x`` holding no integer decides; one holding a single integer
    ``m`` leaves only ``n = m`` open, and the exact comparison of ``ratio_exact(m) = C b^m`` with ``e^eps``
    (:meth:`~exactdp.exact.level.Level.compare`) decides it."""
    prec = 64
    while True:
        with ctx.workprec(prec):
            lc, lb = ck_b()
            x = (lvl.eps_arb() - lc) / lb
            if x.rad() < 0.25:
                lo = int(arb(x.lower()).floor().unique_fmpz())  # type: ignore[arg-type]  # exact: an integer
                hi = int(arb(x.upper()).floor().unique_fmpz())  # type: ignore[arg-type]
                inside = [m for m in {lo, hi} if x.contains(m)]
                if not inside:
                    return min(max(lo + 1, 0), kmax + 1)
                if len(inside) == 1 and (prec >= 256 or x.rad() == 0):
                    m = inside[0]
                    if m < 0 or m > kmax:
                        return min(max(m + 1, 0), kmax + 1)
                    return m + 1 if lvl.compare(ratio_exact(m), fmpq(1), fmpq(1)) <= 0 else m
        prec *= 2
        if prec > MAX_ENCLOSURE_PREC:       # pragma: no cover - a ball of width 2^-65536 around an integer
            raise Undecided("composition: the loss threshold was not separated from an integer")


def _rf_pow(c: RF, k: int) -> RF:
    """``c^k`` in ``Q(u)``, canonical (numerator and denominator powers stay coprime)."""
    return RF(c.s * k, c.n ** k, c.d ** k)


def _rf_one() -> RF:
    return RF(0, fmpq_poly([1]), fmpq_poly([1]))


def _lp_pow(x: LP, k: int) -> LP:
    return LP(x.p ** k, x.s * k)


def _rat_pair(parts: list, pair) -> Any:
    """Exact, rational entries: ``F = prod F_i^(k_i)`` by ``fmpz_poly`` powers (every ``L_i`` on one step ``b``)."""
    b = parts[0][0].b
    F = fmpz_poly([1])
    D = fmpz(1)
    one_minus_inf = fmpq(1)
    C = fmpq(1)
    kmax = 0
    for L, k in parts:
        den = 1
        for m in L.terms.values():
            den = den * int(m.q) // math.gcd(den, int(m.q))
        Fi = fmpz_poly([int(L.terms.get(n, 0) * den) for n in range(L.span + 1)])
        F = F * Fi ** k if L.terms else fmpz_poly([])
        D *= fmpz(den) ** k
        one_minus_inf *= (1 - fmpq(L.inf)) ** k
        C *= L.c ** k
        kmax += k * L.span
    inf_k = 1 - one_minus_inf

    def ckb():
        return sum((k * arb(L.c).log() for L, k in parts), arb(0)), arb(b).log()

    def at(lvl: Level) -> _PairValue:
        n0 = _threshold(lvl, kmax, ckb, lambda m: C * b ** m)
        cs = F.coeffs()
        A = fmpq(sum((int(cs[n]) for n in range(n0, len(cs))), 0), int(D))
        # B = sum_n m_n / (C b^n) = sum_n C_n (bq/bp)^n / (D C), over the one common denominator bp^top
        bp, bq = int(b.p), int(b.q)
        top = len(cs) - 1
        num = 0
        pw_q = bq ** n0
        pw_p = bp ** (top - n0) if top >= n0 else 1
        for n in range(n0, top + 1):
            num += int(cs[n]) * pw_q * pw_p
            pw_q *= bq
            if n < top:
                pw_p //= bp
        B = fmpq(num, int(D) * bp ** top) / C if top >= n0 else fmpq(0)
        A = A + inf_k
        E = lvl.factor(fmpq(1))
        if E is None and isinstance(lvl.R, fmpq) and isinstance(lvl.D, fmpq):
            E = Rad.power(lvl.R, 1 / lvl.D)     # e^eps = R^(1/D), D > 1: A - B E is exact (a real radical)
        size = f"{len(cs)} loss values, coefficients up to {max((int(c).bit_length() for c in cs), default=0):,} bits"

        def ball(prec):
            return arb(A) - lvl.factor_arb(fmpq(1)) * arb(B)

        return _PairValue(pair, lambda: simplify(A - E * B), E is not None, ball, size, cheap=True)

    return at


def _field_product(parts: list) -> tuple:
    """``prod F_i^(k_i)`` in ``Q(u)[x]`` as an integer ``fmpz_mpoly`` in ``(x, u)``, with what turns it back into
    masses: the u-shift, the denominator, the mass at infinity (numerator, denominator) and ``C = prod c_i^k_i``."""
    R = fmpz_mpoly_ctx.get(("x", "u"), "lex")
    G = R.from_dict({(0, 0): 1})
    S_tot = 0
    qk = fmpq(1)
    den_k = LP(fmpq_poly([1]))
    rest = LP(fmpq_poly([1]))
    ck = _rf_one()
    kmax = 0
    for L, k in parts:
        # F_i(x, u) with integer coefficients: mass_n = u^(s_n) p_n(u) / den; scaled by the lcm q of the
        # coefficients' denominators, every u-exponent shifted by the least one S
        S = min(p.s for p in L.terms.values()) if L.terms else 0
        q = 1
        for p in L.terms.values():
            for co in p.p.coeffs():
                q = q * int(co.q) // math.gcd(q, int(co.q))
        entries: dict = {}
        for n, p in L.terms.items():
            for i, co in enumerate(p.p.coeffs()):
                if co != 0:
                    key = (n, p.s - S + i)
                    entries[key] = entries.get(key, 0) + int(co * q)
        G = G * R.from_dict(entries) ** k if entries else R.from_dict({})
        S_tot += k * S
        qk *= fmpq(q) ** k
        den_k = den_k * _lp_pow(L.den, k)
        rest = rest * _lp_pow(L.den - L.inf, k)
        ck = ck * _rf_pow(L.c, k)
        kmax += k * L.span
    # the mass where some factor's Q is 0: 1 - prod (1 - inf_i/den_i)^(k_i)
    return G, S_tot, LP(den_k.p * qk, den_k.s), (den_k - rest, den_k), ck, kmax


def _field_pair(parts: list, pair) -> Any:
    """Exact, entries in ``Q(u)``: ``F(x, u) = prod F_i^(k_i)`` by bivariate ``fmpz_mpoly`` powers."""
    dom = parts[0][0].dom
    b = parts[0][0].b
    fld = _Field(dom)
    G, S_tot, den_k, (inf_num, inf_den), ck, kmax = _field_product(parts)
    terms = G.to_dict()
    ua = lambda: arb_of(dom.to_exp(LP(fmpq_poly([0, 1]), 0)))   # noqa: E731

    def ckb():
        uu = ua()
        return fld.arb_rf(ck, uu).log(), fld.arb_rf(b, uu).log()

    def ratio_exact(m):
        return simplify(dom.to_exp(ck * RF(b.s * m, fmpq_poly([1]), fmpq_poly([1]))))

    def at(lvl: Level) -> _PairValue:
        n0 = _threshold(lvl, kmax, ckb, ratio_exact)
        # A = u^S sum_{n >= n0} C_n(u) / den_k; B = sum m_n / (C u^(g n)) with b = u^g
        g = b.s
        a_co: dict = {}
        b_co: dict = {}
        for (n, e), co in terms.items():
            if n >= n0:
                a_co[e] = a_co.get(e, 0) + int(co)
                b_co[e - g * n] = b_co.get(e - g * n, 0) + int(co)
        A = _lp_of(a_co, S_tot)
        Bn = _lp_of(b_co, S_tot)
        E = lvl.factor(fmpq(1))

        def exact():
            exA = fld.exp(A, den_k) + fld.exp(inf_num, inf_den) if not inf_num.is_zero() else fld.exp(A, den_k)
            exB = fld.exp(Bn * LP(ck.d, 0), den_k * LP(ck.n, ck.s)) if not Bn.is_zero() else fmpq(0)
            return simplify(exA - E * exB)

        nterms = len(A.p.coeffs())
        size = (f"{len(terms):,} (loss, power of u) terms; delta's numerator has {nterms:,} coefficients up to "
                f"{max((int(c.p).bit_length() for c in A.p.coeffs()), default=0):,} bits")

        def ball(prec):
            uu = ua()
            a = fld.at(A, uu) / fld.at(den_k, uu)
            if not inf_num.is_zero():
                a += fld.at(inf_num, uu) / fld.at(inf_den, uu)
            bb = fld.at(Bn, uu) / fld.at(den_k, uu) / fld.arb_rf(ck, uu) if not Bn.is_zero() else arb(0)
            return a - lvl.factor_arb(fmpq(1)) * bb

        return _PairValue(pair, exact, E is not None, ball, size)

    return at


def _lp_of(co: dict, shift: int) -> LP:
    if not co:
        return LP(fmpq_poly([]))
    lo = min(co)
    cs = [0] * (max(co) - lo + 1)
    for e, c in co.items():
        cs[e - lo] += c
    return LP(fmpq_poly(cs), lo + shift)


def _ball_product(parts: list, prec: int) -> tuple:
    """``prod F_i^(k_i)`` as an ``arb_poly`` at ``prec`` bits; the mass at infinity, ``log C``, ``log b``, degree."""
    L0 = parts[0][0]
    with ctx.workprec(prec):
        Fk = arb_poly([1])
        one_minus_inf = arb(1)
        lc = arb(0)
        kmax = 0
        fld = _Field(L0.dom)
        uu = arb_of(L0.dom.to_exp(LP(fmpq_poly([0, 1]), 0))) if L0.kind != "rational" else arb(0)
        lb = arb(L0.b).log() if L0.kind == "rational" else fld.arb_rf(L0.b, uu).log()
        for L, k in parts:
            if L.kind == "rational":
                ms = [arb(L.terms.get(n, 0)) for n in range(L.span + 1)]
                inf = arb(L.inf)
                lci = arb(L.c).log()
            else:
                dd = fld.at(L.den, uu)
                ms = [fld.at(L.terms[n], uu) / dd if n in L.terms else arb(0) for n in range(L.span + 1)]
                inf = fld.at(L.inf, uu) / dd if not L.inf.is_zero() else arb(0)
                lci = fld.arb_rf(L.c, uu).log()
            Fk = Fk * arb_poly(ms) ** k
            one_minus_inf *= (1 - inf) ** k
            lc += k * lci
            kmax += k * L.span
        return Fk, 1 - one_minus_inf, lc, lb, kmax


def _ball_pair(parts: list, pair, prec: int) -> Any:
    """The ball route: masses as Arb balls, ``prod F_i^(k_i)`` by ``arb_poly`` powers, every step rigorous."""
    L0 = parts[0][0]
    Fk, inf_k, lc, lb, kmax = _ball_product(parts, prec)

    def ckb():
        return lc, lb

    def ratio_exact(m):
        if L0.kind == "rational":
            C = fmpq(1)
            for L, k in parts:
                C *= L.c ** k
            return C * L0.b ** m
        ck = _rf_one()
        for L, k in parts:
            ck = ck * _rf_pow(L.c, k)
        return simplify(L0.dom.to_exp(ck * RF(L0.b.s * m, fmpq_poly([1]), fmpq_poly([1]))))

    def at(lvl: Level) -> _PairValue:
        n0 = _threshold(lvl, kmax, ckb, ratio_exact)
        with ctx.workprec(prec):
            t = lvl.factor_arb(fmpq(1))
            tot = inf_k
            cs = Fk.coeffs()
            # 1 - t/(C b^n) = 1 - exp(log t - log C - n log b), with the exponent exact up to the balls
            lt = t.log() - lc
            for n in range(n0, len(cs)):
                tot += cs[n] * (1 - (lt - n * lb).exp())
        return _PairValue(pair, None, False, tot, f"a degree-{len(cs) - 1:,} power of ball coefficients at {prec} bits")

    return at


def _common_step(lats: list) -> list | None:
    """The factors' lattices on one step: ``b_i = beta^(m_i)``, each ``L_i`` restretched (``n -> m_i n``);
    ``None`` when two steps are incommensurable (their losses lie on no common lattice)."""
    # a factor with one finite ratio (span 0) has no step of its own and takes the others'
    moving = [L for L in lats if L.span > 0]
    if not moving:
        return lats
    if len(moving) < len(lats):
        common = _common_step(moving)
        if common is None:
            return None
        it = iter(common)
        return [next(it) if L.span > 0 else LatticePLD(L.kind, common[0].b, L.c, L.terms, L.inf, L.den, L.dom)
                for L in lats]
    L0 = lats[0]
    found: tuple | None = None
    if all(L.kind == "rational" for L in lats):
        found = _rational_step(lats)
    elif all(L.kind == "field" and L.dom is L0.dom for L in lats):
        g = 0
        for L in lats:
            g = math.gcd(g, L.b.s)
        sgn = 1 if L0.b.s > 0 else -1
        found = RF(sgn * g, fmpq_poly([1]), fmpq_poly([1])), [L.b.s // (sgn * g) for L in lats]
    if found is None:
        return None
    beta, ms = found
    if any(m <= 0 for m in ms):     # pragma: no cover - every step exceeds 1
        return None
    return [LatticePLD(L.kind, beta, L.c, {n * m: v for n, v in L.terms.items()}, L.inf, L.den, L.dom)
            for L, m in zip(lats, ms, strict=True)]


def _rational_step(lats: list) -> tuple | None:
    """``(beta, [m_i])`` with ``b_i = beta^(m_i)`` for rational steps (rank one exponent vectors), or ``None``."""
    got = [_vec(L.b) for L in lats]
    vecs: list[dict] = [v for v in got if v is not None]
    if len(vecs) != len(got):
        return None
    piv = next((v for v in vecs if v), None)
    if piv is None:
        return None
    p0 = next(iter(piv))
    lams = []
    for v in vecs:
        lam = fmpq(v.get(p0, 0), piv[p0])
        if set(v) - set(piv) or any(lam * e != v.get(p, 0) for p, e in piv.items()):
            return None
        lams.append(lam)
    D = 1
    for lam in lams:
        D = D * int(lam.q) // math.gcd(D, int(lam.q))
    G = 0
    for lam in lams:
        G = math.gcd(G, int(lam * D))
    beta = fmpq(1)
    for p, e in piv.items():
        w = fmpq(e * G, D)
        beta *= fmpq(p) ** int(w) if w >= 0 else fmpq(1, p ** int(-w))
    ms = [int(lam * D) // G for lam in lams]
    if beta < 1:
        beta, ms = 1 / beta, [-m for m in ms]
    return beta, ms


def _plan_parts(parts: list) -> str:
    """The route for a product of powers, chosen up front; refused (InputTooLarge) when too large for balls."""
    kmax = sum(k * L.span for L, k in parts)
    terms, bits = 1, 0
    for L, k in parts:
        t, b = _exact_cost(L, k)
        if L.kind == "rational":
            t = kmax + 1
            b = b // max(k * L.span + 1, 1)
        else:
            b = b // max(t, 1)
        terms = terms * max(t, 1) if L.kind == "field" else max(terms, t)
        bits += b
    if terms <= (MAX_EXACT_TERMS if parts[0][0].kind == "field" else 10**12) and terms * bits <= MAX_EXACT_BITS:
        return "lattice-exact"
    work = kmax * BALL_PREC
    if work > MAX_BALL_WORK:
        raise InputTooLarge(f"composition: the composed lattice PLD has degree {kmax:,}; balls at {BALL_PREC} bits "
                            f"would do {work:,} units of work, over the limit {MAX_BALL_WORK:,} (refused before "
                            "any work)")
    return "lattice-balls"


# -- the front door ------------------------------------------------------------------------------------------------


@dataclass
class ComposedDelta:
    """The smallest delta of ``k`` runs at one eps, with the route that computed it.

    Parameters
    ----------
    lo, hi : str
        A certified decimal enclosure ``lo <= delta <= hi`` (equal for a terminating decimal value).
    route : str
        ``"lattice-exact"`` or ``"lattice-balls"``.
    width : str
        The width of the certified ball the enclosure was read from (rounded up; ``lo, hi`` are that ball
        rounded outward to 17 digits).
    pair : tuple of str or None
        The ordered pair attaining the maximum (the first one when several tie; on the ball route the pair
        with the highest upper end).
    k : int
        The number of runs.
    eps : str
        The level, as exact text.
    size : str
        How large the exact (or ball) power was.
    source : object, optional
        The exact pair value behind :attr:`value` (``None`` on the ball route).

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 3, eps="0").to_json()["delta"]
    '11/16'
    """

    lo: str
    hi: str
    route: str
    width: str
    pair: tuple | None
    k: int
    eps: str
    size: str
    source: Any = None

    @property
    def value(self) -> Any:
        """The exact delta (built on first use: at large k it is a long expression), or ``None``.

        Returns
        -------
        exact number or None
            ``None`` on the ball route or when ``e^eps`` is not in the entries' field.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 2, eps="log(2)").value   # 9/16 (1 - 2/9)
        7/16
        """
        return None if self.source is None else self.source.exact

    def enclosure(self) -> tuple[str, str]:
        """Return the certified decimal enclosure ``(lo, hi)``.

        Returns
        -------
        tuple of str
            ``lo <= delta <= hi``.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 2, eps="log(3)").enclosure()
        ('0.375', '0.375')
        """
        return self.lo, self.hi

    def to_json(self) -> dict:
        """Return the answer as JSON-ready text: the exact value (when there is one) and its enclosure.

        Returns
        -------
        dict
            ``k``, ``eps``, ``route``, ``delta`` (exact text or ``None``), ``enclosure``, ``width``, ``pair``,
            ``size``.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> sorted(composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 2, eps="0").to_json())
        ['delta', 'enclosure', 'eps', 'k', 'pair', 'route', 'size', 'width']
        """
        return {"k": self.k, "eps": self.eps, "route": self.route,
                "delta": None if self.value is None else exact_str(self.value),
                "enclosure": [self.lo, self.hi], "width": self.width,
                "pair": None if self.pair is None else list(self.pair), "size": self.size}

    def text(self) -> str:
        """Return the answer for a reader: the enclosure, the route, and the exact value or its size.

        Returns
        -------
        str
            One paragraph.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> print(composed_delta(randomized_response(2, p="1/4"), [("0", "1")], 2, eps="0").text())
        delta(eps = 0) of 2 runs = 1/2 exactly [route lattice-exact; pair ('0', '1')]
        """
        head = f"delta(eps = {self.eps}) of {self.k} runs"
        tail = f"[route {self.route}; pair {self.pair}]"
        if self.value is not None and isinstance(self.value, fmpq) and self.lo == self.hi:
            return f"{head} = {exact_str(self.value)} exactly {tail}"
        if self.source is not None and self.source.has_exact and not self.source.cheap:
            # in Q(u) the exact expression is built only for JSON: here its size, from the polynomials
            return f"{head} in [{self.lo}, {self.hi}] (certified); exact value: {self.size} {tail}"
        if self.value is not None:
            s = exact_str(self.value)
            shown = s if len(s) <= 200 else f"an exact expression of {len(s):,} characters ({self.size})"
            return f"{head} in [{self.lo}, {self.hi}] (certified); exact value: {shown} {tail}"
        return f"{head} in [{self.lo}, {self.hi}] (certified enclosure, width {self.width}; {self.size}) {tail}"


def _enclose(v: _PairValue, digits: int = 17) -> tuple[arb, int]:
    """A ball of the pair's value at rising precision, relatively accurate to ``digits`` digits when possible."""
    if isinstance(v.ball, arb):
        return v.ball, 0
    prec = 128
    while True:
        with ctx.workprec(prec):
            b = v.ball(prec)
            if b.rad() == 0 or b.rel_accuracy_bits() > digits * 3.33 + 8 or prec >= MAX_ENCLOSURE_PREC:
                return b, prec
            if b.contains(0) and prec >= 1024 and v.has_exact and sign(v.exact) == 0:
                return arb(0), prec
        prec *= 2


def _eq(a: _PairValue, b: _PairValue) -> bool:
    """Exact equality of two pairs' values when both are exact (else ``False``: balls decide)."""
    if not (a.has_exact and b.has_exact):
        return False
    return sign(simplify(a.exact - b.exact)) == 0


def composed_delta(mech: Mechanism, neighbours: Any, k: int, *, eps: Any = None, alpha: Any = None,
                   level: Level | None = None) -> ComposedDelta:
    """The smallest delta of the ``k``-fold composition at one eps, on the privacy-loss lattice.

    The same number as ``composed_profile(mech, neighbours, k).delta(eps)``
    (tested equal), without building the profile: every ordered pair's PLD is
    put on its lattice (:func:`lattice_of`) and raised to the ``k``-th power
    by FLINT (route chosen and refused up front by :func:`lattice_plan`).

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (fix a symbolic alpha first).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        As in :func:`~exactdp.composition.profile.privacy_profile`.
    k : int
        The number of runs, ``1 <= k <= MAX_K``.
    eps, alpha, level :
        The level (``eps = 0``: total variation).

    Returns
    -------
    ComposedDelta
        The exact delta (route ``lattice-exact``) or a certified enclosure (``lattice-balls``), each with a
        certified decimal enclosure.

    Raises
    ------
    InvalidInput
        A pair whose losses are on no common lattice (use
        :func:`~exactdp.composition.composition.composed_profile`), or bad ``k`` / level / neighbours.
    InputTooLarge
        Refused by the cost estimate, before any power is computed.

    Examples
    --------
    The geometric mechanism on ``{0..4}`` at ``alpha = 1/2``, 1000 runs, at ``eps = 100 log 2``:

    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> r = composed_delta(geometric(4, "1/2"), path(5), 1000, eps="100*log(2)")
    >>> r.route, r.enclosure()
    ('lattice-exact', ('0.99999999999998367', '0.99999999999998368'))

    References
    ----------
    Sommer, Meiser, Mohammadi, "Privacy loss classes: the central limit theorem in differential privacy",
    PoPETs 2019, Thm. 1 (composition multiplies PLDs); HLM15 Def. 1 (the profile); Koskela, Jälkö, Honkela,
    "Computing tight differential privacy guarantees using FFT", AISTATS 2020 (the lattice as a grid, there
    rounded; here exact).
    """
    return composed_deltas(mech, neighbours, k, [approx_level(eps, alpha, level)])[0]


def composed_deltas(mech: Mechanism, neighbours: Any, k: int, levels: list) -> list[ComposedDelta]:
    """:func:`composed_delta` at several levels, raising each pair's PLD to the ``k``-th power once.

    Parameters
    ----------
    mech, neighbours, k :
        As in :func:`composed_delta`.
    levels : list
        Each an eps (exact text or number) or a :class:`~exactdp.exact.level.Level`.

    Returns
    -------
    list of ComposedDelta
        One per level, in order.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> [r.value for r in composed_deltas(randomized_response(2, p="1/4"), [("0", "1")], 2, ["0", "log(3)"])]
    [1/2, 3/8]
    """
    return composed_plan_deltas([(mech, k)], neighbours, levels)


def composed_plan_deltas(factors: list, neighbours: Any, levels: list) -> list[ComposedDelta]:
    """The smallest delta of independent runs of several mechanisms on the same input, on a common lattice.

    Each factor's pair PLD is put on its lattice; the steps must be commensurable (``b_i = beta^(m_i)``), then
    the composed PLD is ``prod_i F_i(x^(m_i))^(k_i)`` (Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1).

    Parameters
    ----------
    factors : list of (Mechanism, int)
        Each mechanism with its number of runs; the mechanisms share their inputs.
    neighbours : FiniteMetric, networkx graph or list of label pairs
        Over the first mechanism's inputs.
    levels : list
        Each an eps (exact text or number) or a :class:`~exactdp.exact.level.Level`.

    Returns
    -------
    list of ComposedDelta
        One per level; ``k`` is the total number of runs.

    Raises
    ------
    InvalidInput
        Losses on no common lattice, mechanisms with other inputs, a symbolic alpha, bad ``k``.
    InputTooLarge
        Refused by the cost estimate before any power is computed.

    Examples
    --------
    Randomized response with ratio 3 and with ratio 9 (steps 9 and 81, both powers of 3), once each; at
    eps = 0 the total variation of the product rows:

    >>> from exactdp.mechanisms import randomized_response
    >>> A, B = randomized_response(2, p="1/4"), randomized_response(2, p="1/10")
    >>> composed_plan_deltas([(A, 1), (B, 1)], [("0", "1")], ["0"])[0].value
    4/5
    """
    from ..exact.level import Level as _Level

    facs = _plan_factors(factors)
    lvls = [lv if isinstance(lv, _Level) else approx_level(lv, None, None) for lv in levels]
    plans = _pair_plans(facs, neighbours)
    routes = [_plan_parts(parts) for parts, _ in plans]     # every pair planned (and refused) before any work
    route = "lattice-balls" if "lattice-balls" in routes else "lattice-exact"
    ats = []
    for parts, pair in plans:
        if route == "lattice-balls":
            ats.append(_ball_pair(parts, pair, BALL_PREC))
        elif parts[0][0].kind == "rational":
            ats.append(_rat_pair(parts, pair))
        else:
            ats.append(_field_pair(parts, pair))
    total = sum(k for _, k in facs)
    out = []
    for lvl in lvls:
        vals = [at(lvl) for at in ats]
        out.append(_ball_answer(vals, total, lvl) if route == "lattice-balls" else _exact_answer(vals, total, lvl))
    return out


def _plan_factors(factors: Any) -> list:
    """The validated ``(mechanism, times)`` pairs, on the same inputs."""
    if not isinstance(factors, (list, tuple)) or not factors:
        raise InvalidType("composition: expected a non-empty list of (mechanism, times) pairs")
    facs = []
    for f in factors:
        if not isinstance(f, (list, tuple)) or len(f) != 2:
            raise InvalidType(f"composition: factor {f!r} is not a pair (mechanism, times)")
        _check_k(f[1])
        facs.append((_checked(f[0])[0], f[1]))
    ref = facs[0][0]
    labels = set(map(str, ref.inputs))
    for m, _ in facs[1:]:
        if set(map(str, m.inputs)) != labels:
            raise InvalidInput(f"composition: {m.name} has other inputs than {ref.name}; the mechanisms of a "
                               "composition run on the same input")
    return facs


def _pair_plans(facs: list, neighbours: Any) -> list:
    """Per distinct ordered neighbouring pair: the factors' lattices on one step, with their run counts."""
    from ._expfield import domain_of

    ref = facs[0][0]
    # one field for the transcendental factors (their steps must share it); rational factors stay in Q, and a
    # rational step against a step e^r is incommensurable (log q / r is irrational, Lindemann), refused below
    trans = [v for m, _ in facs if m.regime != "rational" for v in m.values]
    dom = domain_of(trans) if trans else None
    pairs, _ = neighbour_relation(ref, neighbours)
    plans = []
    seen: set = set()
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            x, xp = str(ref.inputs[a]), str(ref.inputs[b])
            key = []
            lats = []
            for m, _k in facs:
                ia, ib = m.row_index[x], m.row_index[xp]
                key.append(tuple(sorted(zip(m.codes[ia].tolist(), m.codes[ib].tolist(), strict=True))))
                L = lattice_of(_pair_pld(m, ia, ib, None if m.regime == "rational" else dom))
                if L is None:
                    raise InvalidInput(f"composition: the losses of ({x}, {xp}) in {m.name} lie on no common "
                                       "lattice c*b^n; use composed_profile (the general convolution)")
                lats.append(L)
            if tuple(key) in seen:          # identical column multisets give identical PLDs
                continue
            seen.add(tuple(key))
            common = _common_step(lats)
            if common is None:
                raise InvalidInput(f"composition: the factors' losses of ({x}, {xp}) lie on no common lattice (their "
                                   "steps are incommensurable); use certify_composition")
            plans.append((list(zip(common, [k for _, k in facs], strict=True)), (x, xp)))
    return plans


def _exact_answer(vals: list, k: int, lvl: Level) -> ComposedDelta:
    if not vals:
        zero = _PairValue(None, lambda: fmpq(0), True, None, "no pairs", cheap=True)
        return ComposedDelta("0", "0", "lattice-exact", "0", None, k, lvl.eps_str(), "no pairs", zero)
    balls = [_enclose(v) for v in vals]
    best = 0
    for i in range(1, len(vals)):
        bi, bb = balls[i][0], balls[best][0]
        if bi > bb:
            best = i
        elif bi < bb or _eq(vals[i], vals[best]):
            continue
        else:
            d = sign(vals[i].exact - vals[best].exact) if vals[i].has_exact and vals[best].has_exact else None
            if d is None:
                raise Undecided("composition: two pairs' deltas were not separated and are not exact")
            if d > 0:
                best = i
    v = vals[best]
    b, prec = balls[best]
    with ctx.workprec(max(prec, 64) * 2):
        lo, hi = _round_str(b.lower(), 17, -1), _round_str(b.upper(), 17, 1)
        if v.cheap and v.has_exact and _decimal(v.exact) is not None:
            lo = hi = _decimal(v.exact) or lo    # a terminating decimal is shown as it is
        width = "0" if lo == hi else _width(b.lower(), b.upper())
    return ComposedDelta(lo, hi, "lattice-exact", width, v.pair, k, lvl.eps_str(), v.size, v)


def _width(lo: arb, hi: arb) -> str:
    """``hi - lo`` of two exact binary end points, rounded up to 3 digits (subtracted exactly, not at 53 bits)."""
    with ctx.workprec(ctx.prec + 4096):
        return _round_str((hi - lo).upper(), 3, 1)


def _decimal(q: Any) -> str | None:
    """The exact decimal text of a rational whose denominator divides a power of ten (short ones only)."""
    if not isinstance(q, fmpq):
        return None
    d = int(q.q)
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d != 1 or int(q.q).bit_length() > 64:
        return None
    m = 0
    while (10 ** m) % int(q.q):
        m += 1
    n = int(q.p) * (10 ** m // int(q.q))
    sgn, n = ("-", -n) if n < 0 else ("", n)
    txt = str(n).rjust(m + 1, "0")
    return sgn + (txt if m == 0 else txt[:-m] + "." + txt[-m:])


def _ball_answer(vals: list, k: int, lvl: Level) -> ComposedDelta:
    # the max of balls encloses the max of the values without deciding which pair attains it; end points read
    # at a precision above the balls' own (arb rounds lower() / upper() to the working precision)
    with ctx.workprec(4 * BALL_PREC):
        lo_b = max(v.ball.lower() for v in vals)
        hi_b = max(v.ball.upper() for v in vals)
        lead = max(vals, key=lambda v: v.ball.upper())
        lo = _round_str(lo_b, 17, -1) if lo_b > 0 else "0"
        hi = _round_str(hi_b, 17, 1)
        width = _width(lo_b, hi_b)
    return ComposedDelta(lo, hi, "lattice-balls", width, lead.pair, k, lvl.eps_str(), lead.size, None)



# ----------------------------------------------------------------------------------------------------
# The lattice composition as a certificate (kind ``lattice_composition``, issue 29).
#
# :func:`~exactdp.composition.lattice.composed_plan_deltas` computes the delta; this module wraps the answer with what
# the re-check kernel (:mod:`exactdp.recheck.lattice`) needs to redo it independently: the mechanisms, the
# relation, one lattice step per ordered pair and the level -- not the composed PLD, which the kernel raises to
# the ``k``-th power itself (Kronecker substitution in Python integers).
if TYPE_CHECKING:
    from ..exact.level import Level



def _step_text(L: Any) -> str:
    if L.kind == "rational":
        return str(L.b)
    return exact_str(simplify(L.dom.to_exp(L.b)))


def _steps(facs: list, neighbours: Any) -> list[LatticeStep]:
    """The common lattice step of every ordered neighbouring pair (both orders; no pair skipped)."""
    from ._expfield import domain_of

    ref = facs[0][0]
    trans = [v for m, _ in facs if m.regime != "rational" for v in m.values]
    dom = domain_of(trans) if trans else None
    pairs, _ = neighbour_relation(ref, neighbours)
    out = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            x, xp = str(ref.inputs[a]), str(ref.inputs[b])
            lats = []
            for m, _k in facs:
                L = lattice_of(_pair_pld(m, m.row_index[x], m.row_index[xp], None if m.regime == "rational" else dom))
                if L is None:
                    raise InvalidInput(f"composition: the losses of ({x}, {xp}) in {m.name} lie on no common lattice")
                lats.append(L)
            common = _common_step(lats)
            if common is None:
                raise InvalidInput(f"composition: the factors' losses of ({x}, {xp}) lie on no common lattice")
            moving = [L for L in common if L.span > 0]
            # a pair whose every factor has one finite ratio has no step of its own: any b > 1 fits (n = 0)
            out.append(LatticeStep(x=x, x_prime=xp, step=_step_text(moving[0]) if moving else "2"))
    return out


def certify_lattice_composition(factors: list, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                                level: Level | None = None, delta: Any = None
                                ) -> Certificate[LatticeCompositionEvidence]:
    """The smallest delta at one eps of independent runs on one privacy-loss lattice, as a certificate.

    Parameters
    ----------
    factors : list of (Mechanism, int)
        Each mechanism with its number of runs (same inputs; losses on one lattice per ordered pair).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        The neighbour relation.
    eps, alpha, level :
        The level (one of them is required).
    delta : optional
        Exact delta in ``[0, 1]``: the verdict is whether the composition is (eps, delta)-DP (undecided on the
        ball route when ``delta`` lies inside the enclosure).

    Returns
    -------
    Certificate
        Kind ``lattice_composition``; without ``delta`` the verdict holds and states the value.

    Raises
    ------
    InvalidInput
        No level, losses on no common lattice, bad factors.
    InputTooLarge
        Refused by the cost estimate of :func:`~exactdp.composition.lattice.lattice_plan`.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_lattice_composition([(randomized_response(2, p="1/4"), 3)], [("0", "1")], eps="0", delta="1/2")
    >>> c.holds, c.evidence.delta_at_eps, c.evidence.route
    (False, '11/16', 'lattice-exact')
    >>> c.recheck().status
    'confirmed'

    References
    ----------
    Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1 (composition multiplies PLDs); HLM15 Def. 1.
    """
    return lattice_certificate(factors, neighbours, eps=eps, alpha=alpha, level=level, delta=delta)[0]


def lattice_certificate(factors: list, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                        level: Level | None = None, delta: Any = None
                        ) -> tuple[Certificate[LatticeCompositionEvidence], ComposedDelta]:
    """:func:`certify_lattice_composition` and the :class:`~exactdp.composition.lattice.ComposedDelta` behind it.

    The command line prints the answer's text (its enclosure, route and size) and emits the certificate.

    Parameters
    ----------
    factors, neighbours, eps, alpha, level, delta :
        As in :func:`certify_lattice_composition`.

    Returns
    -------
    tuple
        ``(certificate, answer)``.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c, r = lattice_certificate([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)")
    >>> c.evidence.delta_at_eps, r.route
    ('3/8', 'lattice-exact')
    """
    if eps is None and alpha is None and level is None:
        raise InvalidInput("lattice composition: give eps, alpha or level (the delta at that level)")
    lvl = approx_level(eps, alpha, level)
    facs = _plan_factors(factors)
    r = composed_plan_deltas(facs, neighbours, [lvl])[0]
    ref = facs[0][0]
    _, rel = _relation(ref, neighbours)
    steps = _steps(facs, neighbours)
    dlt = parse_delta(delta) if delta is not None else None
    exact = r.value
    ev = LatticeCompositionEvidence(
        factors=[RunFactor(mechanism=mechanism_data(m), times=t) for m, t in facs], relation=rel, steps=steps,
        level=level_data(lvl), route=r.route, delta_at_eps=None if exact is None else exact_str(simplify(exact)),
        enclosure=[r.lo, r.hi], pair=None if r.pair is None or exact is None else NeighbourPair(*r.pair),
        delta=None if dlt is None else exact_str(dlt))
    claim = lattice_claim(ev)
    verdict: bool | None = True
    if dlt is not None:
        if exact is not None:
            verdict = sign(simplify(dlt - exact)) >= 0
        else:
            dq = Fraction(int(dlt.p), int(dlt.q))
            verdict = True if dq >= Fraction(r.hi) else (False if dq < Fraction(r.lo) else None)
    if verdict is None:
        from ..certificate.core import UNDECIDED
        return Certificate("lattice_composition", UNDECIDED, Method.NONE, claim, ev,
                           reason="delta lies inside the certified enclosure of the ball route"), r
    # the one method rule; the ball route (no exact delta) decided in certified balls
    method = Method.of(lvl, *(m for m, _ in facs), exact_route=exact is not None)
    return Certificate("lattice_composition", verdict, method, claim, ev), r
