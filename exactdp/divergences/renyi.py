"""Rényi differential privacy, exactly: ``D_alpha(P || Q)`` at integer orders and a mechanism's RDP curve.

[Mir17] Def. 3: for distributions ``P, Q`` on a finite set and an order
``alpha > 1``,

.. math:: D_\\alpha(P \\| Q) = \\frac{1}{\\alpha - 1} \\log \\sum_y P(y)^\\alpha Q(y)^{1-\\alpha}.

At an integer order the sum ``S = sum_y P(y)^alpha / Q(y)^(alpha-1)`` is a
field element of the kernel: rational for rational entries, an exponential
polynomial quotient at a transcendental level.  So the divergence is the exact
number ``log(S)/(alpha - 1)`` (:class:`LogValue`), infinite when some ``y`` has
``Q(y) = 0 < P(y)``.  A mechanism is ``(alpha, rho)``-RDP over a neighbour
relation with ``rho`` the largest divergence over ordered neighbouring pairs
([Mir17] Def. 4); :func:`renyi_curve` finds that maximum by exact comparisons
of the sums.  [Mir17] Prop. 3 converts: ``(alpha, rho)``-RDP implies
``(rho + log(1/delta)/(alpha - 1), delta)``-DP, i.e. the exact
``eps = log(S/delta)/(alpha - 1)`` (:func:`rdp_to_dp`).

:func:`certify_renyi` writes the curve as a certificate (kind ``renyi``,
:mod:`exactdp.divergences.evidence`), re-checked by :mod:`exactdp.recheck.renyi`.

>>> from exactdp.mechanisms import generalized_rr
>>> from exactdp.metrics import discrete
>>> curve = renyi_curve(generalized_rr(3, eps="log(2)"), discrete(3), [2, 3])
>>> [(p.order, str(p.value)) for p in curve]
[(2, 'log(11/8)'), (3, 'log(37/16)/2')]
>>> c = rdp_to_dp(curve, "1/100")       # order 3: log((37/16)/(1/100))/2
>>> c.order, str(c.epsilon)
(3, 'log(925/4)/2')

References
----------
- [Mir17] I. Mironov, "Rényi Differential Privacy", IEEE CSF 2017,
  Definitions 3--4 and Proposition 3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from flint import ctx, fmpq, fmpq_poly

from ..privacy.approximate import neighbour_relation
from ..errors import InputTooLarge, InvalidInput, InvalidType
from ..exact.decide import arb_of, decimal_enclosure, exact_str, sign
from ..exact.expo import ExpFrac
from ..exact.lin import Lin
from ..exact.values import exact_number

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "MAX_DENSE_SUM_DEGREE",
    "MAX_ORDER",
    "LogValue",
    "RDPConversion",
    "RenyiPoint",
    "rdp_to_dp",
    "renyi_curve",
    "renyi_divergence",
]

#: largest integer order accepted (the exact sums hold alpha-th powers)
MAX_ORDER = 256
#: largest degree (in ``u = exp(atom/L)``) of an exact Renyi sum expanded as a polynomial: the 20-point discrete
#: Gaussian at sigma^2 = 4 reaches about 92,000 at order 256
MAX_DENSE_SUM_DEGREE = 160_000


@dataclass(frozen=True)
class LogValue:
    """The exact real number ``log(arg)/den`` (``arg > 0`` exact, ``den`` a positive integer); ``arg=None`` is +inf.

    Parameters
    ----------
    arg : fmpq or ExpFrac or None
        The exact argument of the logarithm (``None`` for infinity).
    den : int
        The divisor ``alpha - 1``.

    Examples
    --------
    >>> from flint import fmpq
    >>> v = LogValue(fmpq(9, 4), 2)
    >>> str(v), v.enclosure(6)
    ('log(9/4)/2', ('0.405465', '0.405466'))
    """

    arg: Any
    den: int

    @property
    def infinite(self) -> bool:
        """Whether the value is ``+inf``.

        Returns
        -------
        bool
            ``arg is None``.

        Examples
        --------
        >>> LogValue(None, 1).infinite
        True
        """
        return self.arg is None

    def __str__(self) -> str:
        if self.arg is None:
            return "inf"
        a = exact_str(self.arg)
        return f"log({a})" if self.den == 1 else f"log({a})/{self.den}"

    def enclosure(self, digits: int = 20) -> tuple[str, str]:
        """Return decimal strings ``lo <= value <= hi``, rounded outward (never a float).

        Parameters
        ----------
        digits : int, default 20
            Significant digits.

        Returns
        -------
        tuple of str
            ``(lo, hi)``; ``("inf", "inf")`` for infinity.

        Examples
        --------
        >>> from flint import fmpq
        >>> LogValue(fmpq(2), 1).enclosure(5)
        ('0.69314', '0.69315')
        """
        if self.arg is None:
            return ("inf", "inf")
        return decimal_enclosure(lambda: arb_of(self.arg).log() / self.den, digits)


@dataclass(frozen=True)
class RenyiPoint:
    """One point ``(alpha, rho)`` of an RDP curve, with the exact sum and the ordered pair attaining it.

    Parameters
    ----------
    order : int
        ``alpha``.
    value : LogValue
        ``rho(alpha)``, exactly.
    pair : tuple
        An ordered pair of input labels attaining it.

    Examples
    --------
    Randomized response keeping its input with probability ``3/4``:
    ``D_2 = log((3/4)^2/(1/4) + (1/4)^2/(3/4)) = log(7/3)``.

    >>> from exactdp.mechanisms import randomized_response
    >>> [p] = renyi_curve(randomized_response(2, p="1/4"), [("0", "1")], [2])
    >>> p.order, str(p.value)
    (2, 'log(7/3)')
    """

    order: int
    value: LogValue
    pair: tuple


@dataclass(frozen=True)
class RDPConversion:
    """[Mir17] Prop. 3 at one delta: the best ``eps`` over the curve's orders and the order attaining it.

    Parameters
    ----------
    delta : fmpq
        The delta of the guarantee.
    epsilon : LogValue
        The best ``eps``, exactly.
    order : int
        The order attaining it.

    Examples
    --------
    At order 2 alone, ``eps = log(S_2 / delta) = log((7/3) / (1/10)) = log(70/3)``:

    >>> from exactdp.mechanisms import randomized_response
    >>> curve = renyi_curve(randomized_response(2, p="1/4"), [("0", "1")], [2])
    >>> r = rdp_to_dp(curve, "1/10")
    >>> r.delta, str(r.epsilon), r.order
    (1/10, 'log(70/3)', 2)
    """

    delta: fmpq
    epsilon: LogValue
    order: int


def _order(order) -> int:
    if isinstance(order, bool) or not isinstance(order, int):
        raise InvalidType(f"order: expected an integer alpha >= 2, got {type(order).__name__} {order!r}")
    if order < 2:
        raise InvalidInput(f"order: expected an integer alpha >= 2, got {order}; hint: alpha = 1 is the KL "
                           "divergence, not computed here")
    if order > MAX_ORDER:
        raise InvalidInput(f"order: {order} exceeds the limit {MAX_ORDER}")
    return order


def _distribution(P, what):
    vals = [v if isinstance(v, (fmpq, ExpFrac)) else exact_number(v, what=f"{what}[{i}]") for i, v in enumerate(P)]
    if not vals:
        raise InvalidInput(f"{what}: expected a non-empty list of probabilities")
    for i, v in enumerate(vals):
        if not isinstance(v, (fmpq, ExpFrac)) or (isinstance(v, ExpFrac) and v.has_eps()):
            raise InvalidInput(f"{what}[{i}]: expected an exact probability, got {exact_str(v)}")
        if sign(v) < 0:
            raise InvalidInput(f"{what}[{i}] = {exact_str(v)} is negative")
    total = sum(vals[1:], vals[0])
    if sign(total - 1) != 0:
        raise InvalidInput(f"{what}: sums to {exact_str(total)}, expected exactly 1")
    return vals


def _sum(P, Q, order):
    """``sum_y P^alpha / Q^(alpha-1)``, or None when some ``Q(y) = 0 < P(y)``."""
    if any(isinstance(v, ExpFrac) for v in (*P, *Q)):
        shared = _sum_shared(P, Q, order)
        if shared is not NotImplemented:
            return shared
    s: Any = fmpq(0)
    for p, q in zip(P, Q, strict=True):
        if sign(p) == 0:
            continue
        if sign(q) == 0:
            return None
        s = s + p**order / q ** (order - 1)
    r = s.rational() if isinstance(s, ExpFrac) else None
    return r if r is not None else s


def _sum_shared(P, Q, order):
    """The same sum when each row's nonzero entries share one denominator, ``P(y) = n_y / d`` and
    ``Q(y) = m_y / e``, and every ``m_y`` is one exponential term (a row normalised by its sum, as the discrete
    Gaussian and the exponential mechanism are):

    .. math:: S = \\frac{e^{\\alpha - 1}}{d^\\alpha} \\sum_y n_y^\\alpha m_y^{1 - \\alpha},

    an exponential polynomial times one quotient, instead of a sum of quotients whose denominators multiply
    term by term.  ``NotImplemented`` when the rows do not have that shape; ``None`` when some
    ``Q(y) = 0 < P(y)``."""
    Ps, Qs = [ExpFrac.coerce(v) for v in P], [ExpFrac.coerce(v) for v in Q]
    live = [(p, q) for p, q in zip(Ps, Qs, strict=True) if not p.is_zero()]
    if any(q.is_zero() for _, q in live):
        return None
    if not live or len({ExpFrac(p.den).key() for p, _ in live}) != 1 \
            or len({ExpFrac(q.den).key() for _, q in live}) != 1 or any(len(q.num) != 1 for _, q in live):
        return NotImplemented
    fast = _sum_shared_dense(live, order)
    if fast is not NotImplemented:
        return fast
    acc = ExpFrac.const(0)
    for p, q in live:
        (b, c), = q.num.items()  # m_y = c exp(b): its power is one term, and dividing by it shifts exponents
        acc = acc + ExpFrac(p.num) ** order * ExpFrac.exp(b * (1 - order), c ** (1 - order))
    p0, q0 = live[0]
    s = acc * (ExpFrac(q0.den) ** (order - 1) / ExpFrac(p0.den) ** order)
    r = s.rational()
    return r if r is not None else s


def _one_atom(dicts) -> tuple[Any, int] | None:
    """``(atom, L)`` when every exponent of the dicts is a rational multiple ``e`` of one atom with ``L e`` an
    integer (the Laurent polynomials in ``u = exp(atom/L)``), else None."""
    atom, L = None, 1
    for p in dicts:
        for k in p:
            if not k.terms:
                continue
            sa = k.single_atom()
            if sa is None or (atom is not None and sa[0] != atom):
                return None
            atom = sa[0]
            L = L * int(sa[1].q) // math.gcd(L, int(sa[1].q))
    return (atom, L) if atom is not None else None


def _laurent(p: dict, L: int) -> tuple[Any, int]:
    """``(poly, lo)``: the exponential polynomial ``p`` as ``u^lo poly(u)``, ``u = exp(atom/L)``."""
    es = {k: int(k.terms[0][1] * L) if k.terms else 0 for k in p}
    lo = min(es.values())
    coeffs = [fmpq(0)] * (max(es.values()) - lo + 1)
    for k, c in p.items():
        coeffs[es[k] - lo] += c
    return fmpq_poly(coeffs), lo


def _shift(poly, k: int):
    return poly * fmpq_poly([0] * k + [1]) if k else poly


def _dict_of(poly, lo: int, atom, L: int) -> dict:
    out = {}
    for i, c in enumerate(poly.coeffs()):
        if c != 0:
            e = fmpq(i + lo, L)
            out[Lin(((atom, e),)) if e != 0 else Lin()] = c
    return out


def _sum_shared_dense(live, order):
    """:func:`_sum_shared`'s sum by FLINT polynomial arithmetic when every exponent is a multiple of one atom.

    The same exact value with the same collected terms (so the same text), computed as Laurent polynomials in
    ``u = exp(atom/L)``: ``alpha``-th powers by FLINT instead of term-by-term products of dictionaries, which
    made the discrete Gaussian on 10 points take minutes at order 16 (issue 32).  ``NotImplemented`` when the
    exponents involve two atoms; :class:`~exactdp.errors.InputTooLarge` beyond :data:`MAX_DENSE_SUM_DEGREE`.
    """
    one = _one_atom([d for p, q in live for d in (p.num, p.den, q.num, q.den)])
    if one is None:
        return NotImplemented
    atom, L = one
    parts = [(_laurent(p.num, L), next(iter(q.num.items()))) for p, q in live]
    pd, qd = _laurent(live[0][0].den, L), _laurent(live[0][1].den, L)
    width = max(poly.degree() for (poly, _), _ in parts) + max(pd[0].degree(), qd[0].degree())
    if width * order > MAX_DENSE_SUM_DEGREE:
        # the term-by-term route would be slower still: refuse by the degree, naming the limit
        raise InputTooLarge(f"Renyi sum at order {order}: degree {width:,} x {order} = {width * order:,} in "
                            f"exp(1/{L}) exceeds the limit {MAX_DENSE_SUM_DEGREE:,}; give lower --orders")
    terms = []
    for (poly, lo), (b, c) in parts:
        # n_y^alpha m_y^(1 - alpha) with m_y = c exp(b): a power and a shift of the exponents
        eb = int((b.terms[0][1] if b.terms else fmpq(0)) * L) * (1 - order)
        terms.append((poly ** order * fmpq(c) ** (1 - order), lo * order + eb))
    base = min(lo for _, lo in terms)
    acc = fmpq_poly([0])
    for poly, lo in terms:
        acc += _shift(poly, lo - base)
    num, den = acc * qd[0] ** (order - 1), pd[0] ** order
    s = ExpFrac(_dict_of(num, base + qd[1] * (order - 1), atom, L), _dict_of(den, pd[1] * order, atom, L))
    r = s.rational()
    return r if r is not None else s


def renyi_divergence(P: Iterable[Any], Q: Iterable[Any], order: int) -> LogValue:
    """The exact Rényi divergence ``D_alpha(P || Q)`` at an integer order ``alpha >= 2`` ([Mir17] Def. 3).

    Parameters
    ----------
    P, Q : sequences of exact numbers
        Two distributions on the same finite set (kernel values, ints,
        Fractions or text such as ``"1/3"`` / ``"exp(-1)/(1 + exp(-1))"``);
        each must sum to exactly 1.
    order : int
        ``alpha``, ``2 <= alpha <= MAX_ORDER``.

    Returns
    -------
    LogValue
        ``log(sum_y P(y)^alpha Q(y)^(1-alpha))/(alpha - 1)``; infinite when
        ``Q(y) = 0 < P(y)`` for some ``y``.

    Raises
    ------
    InvalidInput
        Lengths differ, an entry is negative or not exact, a list does not
        sum to 1, or a bad order.
    InvalidType
        A non-integer order.

    Examples
    --------
    >>> str(renyi_divergence(["1/2", "1/2"], ["1/4", "3/4"], 2))
    'log(4/3)'
    >>> renyi_divergence(["1", "0"], ["0", "1"], 3).infinite
    True
    """
    order = _order(order)
    P, Q = list(P), list(Q)
    if len(P) != len(Q):
        raise InvalidInput(f"renyi_divergence: P has {len(P)} entries and Q {len(Q)}; they must be on one set")
    s = _sum(_distribution(P, "P"), _distribution(Q, "Q"), order)
    return LogValue(s, order - 1)


def _larger(a, b) -> bool:
    """Exact ``a > b`` for sums (``None`` = infinity).

    Transcendental sums are compared cheaply first, and exactly only when that cannot settle it: the same
    exponential polynomials above and below (mirror-image pairs give the same sum) are equal; Arb balls at
    128 bits that do not overlap order the two (a rigorous enclosure, never a float); otherwise the exact
    sign of the difference, whose numerator needs the two denominators multiplied out."""
    if a is None:
        return b is not None
    if b is None:
        return False
    if isinstance(a, ExpFrac) or isinstance(b, ExpFrac):
        if ExpFrac.coerce(a).key() == ExpFrac.coerce(b).key():
            return False
        with ctx.workprec(128):
            ba, bb = arb_of(a), arb_of(b)
            if ba > bb or ba < bb:
                return bool(ba > bb)
    return sign(a - b) > 0


def renyi_curve(mech: Mechanism, neighbours: Any, orders: Iterable[int], progress=None) -> list:
    """The exact RDP curve: ``rho(alpha) = max D_alpha(K(x) || K(x'))`` over ordered neighbouring pairs.

    Parameters
    ----------
    mech : Mechanism
        Exact entries at a fixed level (not a symbolic alpha).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        A metric gives its pairs at distance 1 (both orders are used).
    orders : iterable of int
        Integer orders ``alpha >= 2``.
    progress : callable, optional
        ``progress(stage, done, total)`` after each ordered pair (a command's progress line).

    Returns
    -------
    list of RenyiPoint
        One per order, in the order given: the exact ``rho`` and a pair attaining it.

    Raises
    ------
    InvalidInput
        A symbolic mechanism, no neighbouring pair, no order, or a bad order or relation.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> [str(p.value) for p in renyi_curve(geometric(2, "1/2"), path(3), [2])]
    ['log(3/2)']

    References
    ----------
    [Mir17] Definition 4.
    """
    if mech.regime == "symbolic":
        raise InvalidInput("renyi_curve: the mechanism depends on a symbolic alpha; fix a level first")
    mech = mech.validate()
    pairs, _ = neighbour_relation(mech, neighbours)
    if not pairs:
        raise InvalidInput("renyi_curve: no neighbouring pair (no two inputs at distance 1)")
    orders = [_order(a) for a in orders]
    if not orders:
        raise InvalidInput("renyi_curve: give at least one order")
    rows = mech.rows()
    out = []
    done, total = 0, 2 * len(pairs) * len(orders)
    for a in orders:
        best, arg = fmpq(0), (mech.inputs[pairs[0][0]], mech.inputs[pairs[0][1]])
        for i, j in pairs:
            for u, v in ((i, j), (j, i)):
                if progress is not None:
                    progress(f"order {a}, ordered pairs", done, total)
                done += 1
                s = _sum(rows[u], rows[v], a)
                if _larger(s, best):
                    best, arg = s, (mech.inputs[u], mech.inputs[v])
                if s is None:
                    break
            if best is None:
                break
        out.append(RenyiPoint(a, LogValue(best, a - 1), arg))
    return out


def _conv_le(s1, a1, s2, a2, delta) -> bool:
    """Exact ``log(s1/delta)/(a1-1) <= log(s2/delta)/(a2-1)`` (``s`` None is infinity).

    Arb balls of the two sides at 128 bits settle it when they do not overlap (a rigorous enclosure); only
    otherwise are the powers ``(s2/delta)^(a1-1)`` and ``(s1/delta)^(a2-1)`` compared exactly (at a
    transcendental level they are exponential-polynomial quotients of high degree)."""
    if s1 is None:
        return s2 is None
    if s2 is None:
        return True
    with ctx.workprec(128):
        e1 = (arb_of(s1) / arb_of(delta)).log() / (a1 - 1)
        e2 = (arb_of(s2) / arb_of(delta)).log() / (a2 - 1)
        if e1 < e2 or e1 > e2:
            return bool(e1 < e2)
    return sign((s2 / delta) ** (a1 - 1) - (s1 / delta) ** (a2 - 1)) >= 0


def rdp_to_dp(curve: list, delta: Any) -> RDPConversion:
    """[Mir17] Prop. 3: the best ``(eps, delta)``-DP guarantee the RDP curve gives, exactly.

    Each order gives ``eps_alpha = rho(alpha) + log(1/delta)/(alpha - 1) = log(S_alpha/delta)/(alpha - 1)``;
    the smallest over the curve's orders is found by exact comparison
    (``(S_a/delta)^(b-1)`` against ``(S_b/delta)^(a-1)``).  It is an upper bound
    on the mechanism's exact smallest eps at this delta
    (:func:`~exactdp.composition.profile.smallest_delta` gives the exact profile),
    so the two side by side show what the conversion loses.

    Parameters
    ----------
    curve : list of RenyiPoint
        From :func:`renyi_curve`.
    delta : exact rational
        ``0 < delta < 1``.

    Returns
    -------
    RDPConversion
        ``delta``, the exact ``eps`` (:class:`LogValue`) and the order attaining it.

    Raises
    ------
    InvalidInput
        An empty curve, or ``delta`` not a rational in (0, 1).

    Examples
    --------
    >>> from exactdp.mechanisms import generalized_rr
    >>> from exactdp.metrics import discrete
    >>> c = rdp_to_dp(renyi_curve(generalized_rr(2, eps="log(3)"), discrete(2), [2, 4, 8]), "1/1000")
    >>> c.order, c.epsilon.enclosure(4)
    (8, ('2.044', '2.045'))

    References
    ----------
    [Mir17] Proposition 3.
    """
    from ..exact.values import to_rational

    if not curve:
        raise InvalidInput("rdp_to_dp: the curve has no point")
    d = to_rational(delta, what="delta")
    if not (0 < d < 1):
        raise InvalidInput(f"delta: expected a rational 0 < delta < 1, got {d}")
    best = curve[0]
    for p in curve[1:]:
        if not _conv_le(best.value.arg, best.order, p.value.arg, p.order, d):
            best = p
    s = best.value.arg
    return RDPConversion(d, LogValue(None if s is None else s / d, best.order - 1), best.order)


def certify_renyi(mech: Mechanism, neighbours: Any, orders: Iterable[int], delta: Any = None, progress=None) -> Any:
    """The exact RDP curve of ``mech`` at integer orders as a certificate (kind ``renyi``, [Mir17] Defs. 3-4).

    A thin layer over :func:`renyi_curve` (and :func:`rdp_to_dp` when ``delta`` is given): the evidence
    (:mod:`exactdp.divergences.evidence`) carries the mechanism, the relation, per order the exact sum ``S``
    and the pair attaining it; :mod:`exactdp.recheck.renyi` re-derives every sum for every ordered pair.

    Parameters
    ----------
    mech : Mechanism
        Exact entries at a fixed level.
    neighbours : FiniteMetric, networkx graph or list of label pairs
        A metric gives its pairs at distance 1.
    orders : iterable of int
        Integer orders ``2 <= alpha <= MAX_ORDER``.
    delta : exact rational, optional
        ``0 < delta < 1``: the certificate also states [Mir17] Prop. 3's ``eps`` at ``delta``.
    progress : callable, optional
        Passed to :func:`renyi_curve`.

    Returns
    -------
    Certificate
        Kind ``renyi``, verdict holds (a statement of computed values); method ``RATIONAL`` for rational
        entries, else ``TRANSCENDENCE_BALLS``.

    Raises
    ------
    InvalidInput
        As :func:`renyi_curve` and :func:`rdp_to_dp`.

    Examples
    --------
    >>> from exactdp.mechanisms import generalized_rr
    >>> from exactdp.metrics import discrete
    >>> c = certify_renyi(generalized_rr(3, eps="log(2)"), discrete(3), [2, 3], delta="1/100")
    >>> [(o.order, o.sum, o.value) for o in c.evidence.orders]
    [(2, '11/8', 'log(11/8)'), (3, '37/16', 'log(37/16)/2')]
    >>> c.evidence.conversion.epsilon, c.recheck().status
    ('log(925/4)/2', 'confirmed')

    References
    ----------
    [Mir17] Definitions 3-4, Proposition 3.
    """
    from ..certificate import Certificate, Method
    from ..certificate.common import mechanism_data
    from .evidence import RDPConversionData, RenyiEvidence, RenyiOrder, renyi_claim
    from ..composition.composition import _relation

    orders = [_order(a) for a in orders]
    curve = renyi_curve(mech, neighbours, orders, progress=progress)
    mech = mech.validate()
    _, rel = _relation(mech, neighbours)
    pts = [RenyiOrder(order=p.order, sum="inf" if p.value.infinite else exact_str(p.value.arg), value=str(p.value),
                      x=str(p.pair[0]), x_prime=str(p.pair[1])) for p in curve]
    conv = None
    if delta is not None:
        c = rdp_to_dp(curve, delta)
        conv = RDPConversionData(delta=str(c.delta), order=c.order, epsilon=str(c.epsilon))
    ev = RenyiEvidence(mechanism=mechanism_data(mech), relation=rel, orders=pts, conversion=conv)
    method = Method.of(None, mech)               # the one method rule (no level)
    return Certificate("renyi", True, method, renyi_claim(ev), ev)
