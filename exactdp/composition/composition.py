"""Exact composition through the privacy-loss distribution (PLD).

For an ordered pair ``(x, x')`` with rows ``P, Q``, the privacy loss of an
output ``y ~ P`` is ``log(P(y)/Q(y))``.  Keep the ratios themselves: the PLD
is the finite map ``r -> P({y : P(y)/Q(y) = r})`` (equal ratios merged), plus
the mass ``P({y : Q(y) = 0})`` at ``r = infinity``.  Answering the same query
``k`` times with independent noise multiplies the ratios and the masses, so
the ``k``-fold PLD is the ``k``-fold *multiplicative convolution* -- exact,
with rational keys when the entries are rational.  With ``t = e^eps``,

    delta_k(t) = m_inf + sum_{r > t} m_r (1 - t/r),

the worst-set lemma applied to the product rows; over a neighbour relation the
profile of the ``k``-fold composition is the upper envelope over ordered
pairs (:mod:`exactdp.composition.profile`).  This is what PLD accountants compute
after rounding the losses onto a grid; here nothing is rounded.

Transcendental entries (a geometric mechanism at ``eps = 1``: entries in
``Q(e^-1)``) are composed exactly too.  The loss values are then logs of
exponential polynomials; when every exponent is a rational multiple of one
algebraic number ``b`` the entries live in ``Q(u)``, ``u = exp(b/L)``,
transcendental by Lindemann--Weierstrass, so ratios have canonical keys and
masses are multiplied as FLINT polynomials (:mod:`exactdp.composition._expfield`);
otherwise :class:`~exactdp.exact.expo.ExpFrac` arithmetic is used.  Every
comparison in the profile (ordering the loss values, the envelope, locating
``e^eps``) is an exact sign found by the kernel's transcendence + ball method
(:func:`exactdp.exact.decide.sign`, docs/architecture.md#sec-kernel, regime 2).

>>> from exactdp.mechanisms import geometric, randomized_response
>>> pr = composed_profile(randomized_response(2, p="1/4"), [("0", "1")], 2)
>>> pr.delta(eps="log(3)"), pr.delta(eps="0"), pr.epsilon("0")
(3/8, 1/2, 'log(9)')
>>> from exactdp.metrics import path
>>> pg = composed_profile(geometric(2, eps="1"), path(3), 2)
>>> [q["eps_from"] for q in pg.to_json()["pieces"]], pg.epsilon("0")
(['0', '2'], '2')
>>> print(pg.delta(eps="1"))
(exp(2) - exp(1))/(exp(2) + 2*exp(1) + 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import arb, ctx, fmpq

from ..privacy.approximate import neighbour_relation
from ..errors import InputTooLarge, InvalidInput, InvalidType
from ..exact.decide import sign, simplify
from ..exact.domain import Domain
from ..exact.expo import ExpFrac
from ._expfield import domain_of
from .profile import Profile, envelope, pair_function
from functools import cmp_to_key
from ..certificate import Certificate, Method
from ..certificate.common import level_data, mechanism_data, metric_data
from ..certificate.core import UNDECIDED
from .evidence import (CompositionEvidence, RunFactor, LossAtom, NeighbourPair, PairPLD, ProfileEvidence,
                                   ProfilePiece, ProfileQuery, Relation, profile_claim)
from ..privacy.approximate import approx_level, parse_delta
from ..errors import Undecided, UnsupportedRegime
from ..exact.decide import exact_str
from ..metrics.space import FiniteMetric
from .profile import _precheck_metric_size, check_profile_size

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "MAX_K",
    "MAX_PRODUCTS",
    "MAX_SUPPORT",
    "PLD",
    "advanced_composition",
    "basic_composition",
    "certify_composition",
    "certify_profile",
    "check_composition_cost",
    "composed_profile",
    "kov_delta",
    "privacy_loss_distribution",
]

#: largest number of compositions accepted
MAX_K = 100_000
#: largest number of distinct loss values kept in a PLD
MAX_SUPPORT = 2_000_000
#: most exact products in one multiplication of two PLDs (``|support| x |support'|``): the route's real cost.
#: Measured: randomized response on two outputs, K = 1,000 (last squaring 501 x 501 = 251,001 products of
#: ~1,000-bit rationals) took 13 s on a loaded 2-core machine; K = 10,000 ran past 120 s
MAX_PRODUCTS = 300_000

ONE = fmpq(1)


class _Power:
    __slots__ = ()

    def power(self, k: int) -> Any:
        """The ``k``-fold composition, by repeated squaring."""
        result: Any = None
        base: Any = self
        while k:
            if k & 1:
                result = base if result is None else result * base
            k >>= 1
            if k:
                base = base * base
        return result


class PLD(_Power):
    """Exact privacy-loss distribution of an ordered pair with rational entries.

    Parameters
    ----------
    masses : dict
        Each ratio ``r = P(y)/Q(y) > 0`` (an ``fmpq``) -> its P-mass ``P({y : P(y)/Q(y) = r})``.
    inf : fmpq
        The P-mass where ``Q(y) = 0`` (ratio infinity).

    Examples
    --------
    Randomized response keeping the input with probability ``3/4``, and its twofold composition:

    >>> from flint import fmpq
    >>> L = PLD({fmpq(3): fmpq(3, 4), fmpq(1, 3): fmpq(1, 4)}, fmpq(0))
    >>> L2 = L.power(2)
    >>> sorted(L2.masses.items()), L2.inf
    ([(1/9, 1/16), (1, 3/8), (9, 9/16)], 0)
    """

    __slots__ = ("inf", "masses")

    def __init__(self, masses: dict, inf):
        self.masses = masses
        self.inf = inf

    def key(self) -> tuple:
        """Return a hashable key: equal keys mean equal distributions.

        Returns
        -------
        tuple
            The sorted ``(ratio, mass)`` items and the mass at infinity.

        Examples
        --------
        >>> from flint import fmpq
        >>> PLD({fmpq(3): fmpq(1)}, fmpq(0)).key()
        (((3, 1),), 0)
        """
        return (tuple(sorted(self.masses.items())), self.inf)

    def __mul__(self, other: PLD) -> PLD:
        _check_products(len(self.masses), len(other.masses))
        out: dict = {}
        for r1, m1 in self.masses.items():
            for r2, m2 in other.masses.items():
                r = r1 * r2
                out[r] = out.get(r, 0) + m1 * m2
        _check_support(out)
        finite = (1 - self.inf) * (1 - other.inf)
        return PLD(out, 1 - finite)

    def delta(self, t):
        """Return ``delta(t) = m_inf + sum_{r > t} m_r (1 - t/r)`` for an exact rational ``t = e^eps >= 1``.

        Parameters
        ----------
        t : rational
            ``e^eps``.

        Returns
        -------
        fmpq
            The smallest ``delta`` for which the pair is ``(eps, delta)``-indistinguishable in this order.

        Examples
        --------
        >>> from flint import fmpq
        >>> L = PLD({fmpq(3): fmpq(3, 4), fmpq(1, 3): fmpq(1, 4)}, fmpq(0))
        >>> L.delta(1), L.delta(2), L.delta(3)      # 3/4 (1 - 1/3), 3/4 (1 - 2/3), 0
        (1/2, 1/4, 0)
        """
        t = fmpq(t)
        return self.inf + sum((m * (1 - t / r) for r, m in self.masses.items() if r > t), fmpq(0))

    def columns(self) -> list[tuple[Any, Any]]:
        """Return the ``(P-mass, Q-mass)`` per loss value, for :func:`~exactdp.composition.profile.pair_function`.

        Returns
        -------
        list of tuple
            ``(m, m / r)`` per ratio ``r``, and ``(m_inf, 0)`` if there is mass at infinity.

        Examples
        --------
        >>> from flint import fmpq
        >>> PLD({fmpq(3): fmpq(3, 4)}, fmpq(1, 4)).columns()
        [(3/4, 1/4), (1/4, 0)]
        """
        cols = [(m, m / r) for r, m in self.masses.items()]
        if self.inf:
            cols.append((self.inf, fmpq(0)))
        return cols


class ExpPLD(_Power):
    """The PLD of a pair with transcendental entries (docs/architecture.md#sec-kernel, regime 2).

    The entries of ``P`` and ``Q`` are exponential polynomials; in the field
    ``dom`` (:mod:`exactdp.composition._expfield`) each loss ratio has a canonical
    key, and the masses are kept as numerators over one denominator per row
    (``den_p``, ``den_q``), so a product of two PLDs multiplies numerators and
    never divides.  ``masses`` maps a ratio key to ``(r, P-numerator,
    Q-numerator)``; ``inf`` is the P-numerator of the outputs with ``Q = 0``.
    """

    __slots__ = ("den_p", "den_q", "dom", "inf", "masses")

    def __init__(self, dom, masses: dict, inf, den_p, den_q):
        self.dom, self.masses, self.inf, self.den_p, self.den_q = dom, masses, inf, den_p, den_q

    def __mul__(self, other: ExpPLD) -> ExpPLD:
        _check_products(len(self.masses), len(other.masses))
        out: dict = {}
        for r1, p1, q1 in self.masses.values():
            for r2, p2, q2 in other.masses.values():
                r = r1 * r2
                key = self.dom.key(r)
                cur = out.get(key)
                out[key] = (r, p1 * p2, q1 * q2) if cur is None else (cur[0], cur[1] + p1 * p2, cur[2] + q1 * q2)
        _check_support(out)
        dp = self.den_p * other.den_p
        inf = dp - (self.den_p - self.inf) * (other.den_p - other.inf)
        return ExpPLD(self.dom, out, inf, dp, self.den_q * other.den_q)

    def columns(self) -> list[tuple]:
        """``(P-mass, Q-mass, ratio)`` per loss value, as exact kernel values (the infinite one without a ratio)."""
        dom = self.dom
        cols: list[tuple] = [(dom.quotient(p, self.den_p), dom.quotient(q, self.den_q), dom.to_exp(r))
                for r, p, q in self.masses.values()]
        if not self.inf.is_zero():
            cols.append((dom.quotient(self.inf, self.den_p), fmpq(0)))
        return cols


def _check_products(a: int, b: int) -> None:
    if a * b > MAX_PRODUCTS:
        raise InputTooLarge(f"composition: the next product of privacy-loss distributions would take {a:,} x {b:,} = "
                            f"{a * b:,} exact multiplications; the limit is {MAX_PRODUCTS:,} per product (fewer "
                            "repetitions, or a mechanism with fewer distinct loss values)")


def _fewest_losses(m: int, j: int) -> int:
    """Fewest distinct loss values of a ``j``-fold composition of a pair with ``m`` distinct finite ones.

    With the logs sorted, ``l_1 < ... < l_m``, the sums that move one unit at a time up the chain (``j l_1``,
    ``(j-1) l_1 + l_2``, ..., ``j l_m``) are ``(m - 1) j + 1`` strictly increasing values, each of positive mass
    (masses are products of positive masses): a lower bound on the support whatever the losses are."""
    return (m - 1) * j + 1


def _largest_step(m: int, k: int) -> tuple[int, int]:
    """The two sizes of the largest product that :meth:`_Power.power` must take for ``k``, at least.

    Repeated squaring with ``2^p <= k < 2^(p+1)`` squares the ``2^(p-1)``-fold PLD, and unless ``k = 2^p`` ends
    with the ``(k - 2^p)``-fold times the ``2^p``-fold one; every other product is no larger than the last
    squaring.  The sizes are the lower bounds of :func:`_fewest_losses`, so the product costs at least this."""
    p = k.bit_length() - 1
    steps = []
    if p >= 1:
        steps.append((_fewest_losses(m, 2 ** (p - 1)),) * 2)
    if k != 2 ** p:
        steps.append((_fewest_losses(m, k - 2 ** p), _fewest_losses(m, 2 ** p)))
    return max(steps, key=lambda ab: ab[0] * ab[1], default=(1, 1))


def check_composition_cost(support: int, k: int) -> None:
    """Refuse up front a ``k``-fold composition whose repeated squaring needs a product over :data:`MAX_PRODUCTS`.

    A pair with ``m >= 2`` distinct loss values has at least ``(m - 1) j + 1`` of them after ``j`` repetitions,
    and repeated squaring must multiply the PLDs of known sizes (:func:`_largest_step`); when that product alone
    exceeds :data:`MAX_PRODUCTS` the run is refused before any work.  Below it each product is still checked as it
    comes (the supports can be larger than these bounds).

    Parameters
    ----------
    support : int
        The number of distinct loss values of the pair's PLD.
    k : int
        The number of repetitions.

    Raises
    ------
    InputTooLarge
        If a product of the repeated squaring needs more than :data:`MAX_PRODUCTS` exact products.

    Examples
    --------
    >>> check_composition_cost(2, 1000)
    >>> check_composition_cost(3, 1000)
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: composition: K = 1,000 repetitions of a pair with 3 distinct loss values need a
    product of at least 977 x 1,025 = 1,001,425 exact products in the repeated squaring; the limit is 300,000 (exactdp
    compose --lattice computes one delta on the privacy-loss lattice instead)
    """
    if support < 2:
        return
    a, b = _largest_step(support, k)
    if a * b > MAX_PRODUCTS:
        raise InputTooLarge(f"composition: K = {k:,} repetitions of a pair with {support:,} distinct loss values need "
                            f"a product of at least {a:,} x {b:,} = {a * b:,} exact products in the repeated squaring; "
                            f"the limit is {MAX_PRODUCTS:,} (exactdp compose --lattice computes one delta on the "
                            "privacy-loss lattice instead)")


def _check_support(out: dict) -> None:
    if len(out) > MAX_SUPPORT:
        raise InputTooLarge(f"composition: {len(out)} distinct loss values exceed {MAX_SUPPORT}")


def privacy_loss_distribution(mech: Mechanism, x: str, x_prime: str) -> PLD:
    """Return the exact privacy-loss distribution of the ordered pair ``(x, x')``.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (a symbolic alpha must be fixed first).
    x, x_prime : str
        Two inputs of the mechanism; the loss is that of outputs drawn from row ``x``.

    Returns
    -------
    PLD or ExpPLD
        A :class:`PLD` (ratio -> mass) for rational entries; an :class:`ExpPLD`
        (canonical ratio keys, masses over one denominator per row) for transcendental ones.

    Raises
    ------
    InvalidInput
        If ``x`` or ``x_prime`` is not an input, or the mechanism is symbolic.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> L = privacy_loss_distribution(randomized_response(2, p="1/4"), "0", "1")
    >>> sorted(L.masses.items()), L.inf
    ([(1/3, 1/4), (3, 3/4)], 0)
    """
    mech, dom = _checked(mech)
    i, j = mech.row_index.get(str(x)), mech.row_index.get(str(x_prime))
    if i is None or j is None:
        raise InvalidInput(f"privacy_loss_distribution: {x!r} or {x_prime!r} is not an input of the mechanism")
    return _pair_pld(mech, i, j, dom)


def _pld_rows(mech, i, j) -> PLD:
    vals = mech.values
    masses: dict = {}
    inf = fmpq(0)
    for a, b in zip(mech.codes[i].tolist(), mech.codes[j].tolist(), strict=True):
        p, q = vals[a], vals[b]
        if p == 0:
            continue
        if q == 0:
            inf += p
            continue
        r = p / q
        masses[r] = masses.get(r, 0) + p
    return PLD(masses, inf)


def _exp_pld(mech, i, j, dom) -> ExpPLD:
    vals = mech.values
    ci, cj = mech.codes[i].tolist(), mech.codes[j].tolist()
    nums_p, den_p = dom.row([vals[a] for a in ci])
    nums_q, den_q = dom.row([vals[b] for b in cj])
    masses: dict = {}
    inf = dom.zero()
    for a, b, n_p, n_q in zip(ci, cj, nums_p, nums_q, strict=True):
        p, q = vals[a], vals[b]
        if sign(p) == 0:
            continue
        if sign(q) == 0:
            inf = inf + n_p
            continue
        r = dom.ratio(p, q)
        key = dom.key(r)
        cur = masses.get(key)
        masses[key] = (r, n_p, n_q) if cur is None else (cur[0], cur[1] + n_p, cur[2] + n_q)
    return ExpPLD(dom, masses, inf, den_p, den_q)


def _pair_pld(mech, i, j, dom):
    """The PLD of the ordered pair of rows ``(i, j)`` in the mechanism's regime."""
    return _pld_rows(mech, i, j) if dom is None else _exp_pld(mech, i, j, dom)


def _checked(mech):
    """The validated mechanism and its field (``None``: rational entries)."""
    if mech.regime == "symbolic":
        raise InvalidInput("composition: the mechanism's entries depend on a symbolic alpha; fix a level "
                                "first (mech.at(Level.from_eps(...)), e.g. eps = 1 or alpha = 1/2)")
    mech = mech.validate()
    return mech, (None if Domain.of(None, mech).rational_entries else domain_of(mech.values))


def _check_k(k):
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidType(f"k: expected an integer number of compositions, got {k!r}")
    if k < 1:
        raise InvalidInput(f"k: expected k >= 1 compositions, got {k}")
    if k > MAX_K:
        raise InputTooLarge(f"k: {k} compositions exceed the limit {MAX_K}")


def composed_profile(mech: Mechanism, neighbours: Any, k: int) -> Profile:
    """The exact privacy profile of the ``k``-fold composition of ``mech`` with itself.

    Parameters
    ----------
    mech : Mechanism with rational or transcendental entries (a symbolic
        alpha must be fixed first with ``mech.at(level)``).
    neighbours : as in :func:`~exactdp.privacy.approximate.certify_approx`.
    k : int, ``1 <= k <= MAX_K``.

    Returns
    -------
    Profile
        Equal to :func:`~exactdp.composition.profile.privacy_profile` of the
        exact ``k``-fold product (tested against it), without building it.

    Raises
    ------
    InvalidInput
        ``k < 1``, a symbolic alpha, or a neighbour naming an unknown input.
    InvalidType
        ``k`` is not an integer.
    InputTooLarge
        ``k > MAX_K`` or more than ``MAX_SUPPORT`` distinct loss values.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> composed_profile(randomized_response(2, p="1/4"), [("0", "1")], 3).epsilon("0")
    'log(27)'
    >>> from exactdp.mechanism import Mechanism
    >>> rr = Mechanism.from_rows(["0", "1"], ["0", "1"], [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"],
    ...                                                   ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]])
    >>> print(composed_profile(rr, [("0", "1")], 3).delta(eps="1"))  # (e^3 - e)/(1 + e)^3, reduced
    (exp(2) - exp(1))/(exp(2) + 2*exp(1) + 1)

    References
    ----------
    HLM15 Section 4 (repeated queries); Kairouz, Oh, Viswanath, "The
    composition theorem for differential privacy" (ICML 2015) for the
    optimal composition of randomized response, checked in :func:`kov_delta`.
    """
    _check_k(k)
    mech, dom = _checked(mech)
    pairs, rel = neighbour_relation(mech, neighbours)
    seen: dict = {}
    plds = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            # identical column multisets give identical PLDs (as in privacy_profile)
            key = tuple(sorted(zip(mech.codes[a].tolist(), mech.codes[b].tolist(), strict=True)))
            if key in seen:
                continue
            seen[key] = True
            pld = _pair_pld(mech, a, b, dom)
            check_composition_cost(len(pld.masses), k)  # every pair before any composition
            plds.append((pld, a, b))
    fs = [pair_function(pld.power(k).columns(), (a, b)) for pld, a, b in plds]
    return Profile(envelope(fs), mech.inputs, rel + f", composed {k} times",
                   [(mech.inputs[i], mech.inputs[j]) for i, j in pairs])


def kov_delta(r: Any, k: int, i: int) -> Any:
    """Kairouz-Oh-Viswanath: the exact delta of ``k`` compositions of randomized response at ``eps = (k - 2i) eps0``.

    With ``r = e^eps0`` (rational) and the binary mechanism ``P(stay) = r/(1+r)``,

        delta_i = sum_{l=0}^{i-1} C(k, l) (r^(k-l) - r^(k-2i+l)) / (1 + r)^k .

    ``r`` may also be transcendental (``e^eps0`` for rational ``eps0``, an
    :class:`~exactdp.exact.expo.ExpFrac`); the sum is then exact in that field.

    Parameters
    ----------
    r : rational or ExpFrac
        ``e^eps0 >= 1``.
    k : int
        The number of compositions.
    i : int
        The index of the level ``eps = (k - 2i) eps0``, ``0 <= i <= k/2``.

    Returns
    -------
    fmpq or ExpFrac
        ``delta_i``, simplified.

    Examples
    --------
    Two uses of randomized response with ``r = 3`` at ``eps = 0``: the rows ``(9, 3, 3, 1)/16`` and
    ``(1, 3, 3, 9)/16`` are at total variation ``(9 - 1)/16 = 1/2``.

    >>> kov_delta(3, 2, 1), kov_delta(3, 2, 0)
    (1/2, 0)
    """
    r = r if isinstance(r, ExpFrac) else fmpq(r)
    tot = fmpq(0)
    c = 1
    for j in range(i):  # the paper's summation index l
        tot += c * (r ** (k - j) - r ** (k - 2 * i + j))
        c = c * (k - j) // (j + 1)
    return simplify(tot / (1 + r) ** k)


def basic_composition(k: int, eps_str: str, delta: Any) -> tuple[str, fmpq]:
    """Return the basic composition bound (Dwork et al.): ``k`` uses of ``(eps, delta)`` are ``(k eps, k delta)``-DP.

    Parameters
    ----------
    k : int
        The number of uses.
    eps_str : str
        ``eps`` as exact text.
    delta : rational
        The ``delta`` of one use.

    Returns
    -------
    eps : str
        ``k eps`` as exact text.
    delta : fmpq
        ``k delta``.

    Examples
    --------
    >>> basic_composition(3, "log(2)", "1/100")
    ('3*(log(2))', 3/100)
    """
    return (f"{k}*({eps_str})", k * fmpq(delta))


def advanced_composition(k: int, eps: Any, delta: Any, delta_prime: Any) -> tuple[Any, Any, Any]:
    """Return the advanced composition bound (Dwork-Rothblum-Vadhan 2010), ``e^(eps')`` bracketed.

    ``k`` uses of ``(eps, delta)`` are ``(eps', k delta + delta')``-DP with
    ``eps' = sqrt(2 k log(1/delta')) eps + k eps (e^eps - 1)``.

    Parameters
    ----------
    k : int
        The number of uses.
    eps : callable
        Returns ``eps`` as an arb (it is a logarithm), evaluated at 200 bits.
    delta : rational
        The ``delta`` of one use.
    delta_prime : rational
        The slack ``delta'`` of the bound, ``0 < delta' <= 1``.

    Returns
    -------
    t_lo, t_hi : fmpq
        Rationals on the grid ``10^-12`` with ``t_lo <= e^(eps') <= t_hi``.
    delta : fmpq
        ``k delta + delta'``, exactly.

    Examples
    --------
    With ``delta' = 1`` the square root vanishes: two uses of ``eps = log(2)`` give
    ``eps' = 2 log(2) (2 - 1)``, so ``e^(eps') = 4``.

    >>> from flint import arb, fmpq
    >>> lo, hi, d = advanced_composition(2, lambda: arb(2).log(), "1/100", 1)
    >>> lo <= 4 <= hi, hi - lo <= fmpq(2, 10**12), d
    (True, True, 51/50)
    """
    dp = fmpq(delta_prime)
    with ctx.workprec(200):
        e = eps()
        ep = (2 * k * (1 / arb(dp)).log()).sqrt() * e + k * e * (e.exp() - 1)
        t = ep.exp()
        lo, hi = _rat_floor(t.lower()), _rat_ceil(t.upper())
    return lo, hi, k * fmpq(delta) + dp


def _rat_floor(a: arb) -> fmpq:
    m, e = a.mid().man_exp()
    q = fmpq(int(m)) * fmpq(2) ** int(e) if e >= 0 else fmpq(int(m), 2 ** int(-e))
    return fmpq(int((q * 10**12).floor()), 10**12)


def _rat_ceil(a: arb) -> fmpq:
    m, e = a.mid().man_exp()
    q = fmpq(int(m)) * fmpq(2) ** int(e) if e >= 0 else fmpq(int(m), 2 ** int(-e))
    return fmpq(int((q * 10**12).ceil()), 10**12)



# ----------------------------------------------------------------------------------------------------
# Privacy profiles and compositions as certificates (kinds ``profile`` and ``composition``, issue 19).
#
# :func:`certify_profile` and :func:`certify_composition` compute the exact profile
# (:mod:`exactdp.composition.profile`, :mod:`exactdp.composition.composition`) and return a
# :class:`~exactdp.certificate.Certificate` whose evidence (:mod:`exactdp.composition.evidence`) carries the
# mechanisms, how often each runs, the neighbour relation, each factor's privacy-loss distribution per ordered
if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism



def _factors(factors) -> list:
    if not isinstance(factors, (list, tuple)) or not factors:
        raise InvalidType("composition: expected a non-empty list of (mechanism, times) pairs")
    out = []
    for k, f in enumerate(factors, 1):
        if not isinstance(f, (list, tuple)) or len(f) != 2:
            raise InvalidType(f"composition: factor {k} is {f!r}; expected a pair (mechanism, times)")
        mech, times = f
        _check_k(times)
        if mech.regime == "symbolic":
            raise InvalidInput(f"composition: mechanism {k} ({mech.name}) depends on a symbolic alpha; fix a level "
                               "first (mech.at(Level.from_eps(...)))")
        out.append((mech.validate(), times))
    ref = set(map(str, out[0][0].inputs))
    for mech, _ in out[1:]:
        if set(map(str, mech.inputs)) != ref:
            raise InvalidInput(f"composition: {mech.name} has other inputs than {out[0][0].name}; the mechanisms "
                               "of a composition run on the same input")
    return out


def _relation(mech, neighbours) -> tuple[list, Relation]:
    if hasattr(neighbours, "edges") and hasattr(neighbours, "nodes") and not isinstance(neighbours, FiniteMetric):
        neighbours = [(str(u), str(v)) for u, v in neighbours.edges()]
    pairs, _ = neighbour_relation(mech, neighbours)
    labels = [NeighbourPair(x=str(mech.inputs[i]), x_prime=str(mech.inputs[j])) for i, j in pairs]
    if isinstance(neighbours, FiniteMetric):
        md = metric_data(neighbours)
        return pairs, Relation(description=f"pairs at distance 1 of the {md.description}", metric=md, pairs=labels)
    return pairs, Relation(description=f"given list of {len(pairs)} neighbouring pairs", metric=None, pairs=labels)


def _atoms(pld, dom) -> list:
    """A factor's PLD as (ratio, mass) exact values, ``inf`` first, then decreasing ratios."""
    if dom is None:
        items = list(pld.masses.items())
        items.sort(key=lambda u: u[0], reverse=True)
        inf = pld.inf
    else:
        items = [(dom.to_exp(r), dom.quotient(p, pld.den_p)) for r, p, _ in pld.masses.values()]
        items.sort(key=cmp_to_key(_desc))
        inf = None if pld.inf.is_zero() else dom.quotient(pld.inf, pld.den_p)
    out = [LossAtom(ratio="inf", mass=exact_str(simplify(inf)))] if inf is not None and sign(inf) != 0 else []
    return out + [LossAtom(ratio=exact_str(simplify(r)), mass=exact_str(simplify(m))) for r, m in items]


def _desc(u: Any, v: Any) -> int:
    return sign(v[0] - u[0])


def _profile(facs, pairs, dom) -> tuple[Profile, list]:
    """The envelope over ordered pairs of the composed PLDs, and each factor's PLD per ordered pair."""
    ref = facs[0][0]
    plds, fs, seen = [], [], set()
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            x, xp = str(ref.inputs[a]), str(ref.inputs[b])
            total: Any = None
            key = []
            for k, (mech, times) in enumerate(facs):
                ia, ib = mech.row_index[x], mech.row_index[xp]
                base = _pair_pld(mech, ia, ib, dom)
                check_composition_cost(len(base.masses), times)   # refused before any squaring (issue 17)
                plds.append(PairPLD(factor=k, x=x, x_prime=xp, losses=_atoms(base, dom)))
                key.append(tuple(sorted(zip(mech.codes[ia].tolist(), mech.codes[ib].tolist(), strict=True))))
                p = base.power(times)
                total = p if total is None else total * p
            if tuple(key) in seen:          # identical column multisets give identical profiles
                continue
            seen.add(tuple(key))
            fs.append(pair_function(total.columns(), (a, b)))
    return Profile(envelope(fs), ref.inputs, "", []), plds


def _query(pr: Profile, lvl: Level | None, dlt) -> tuple[ProfileQuery, Any, str | None]:
    """The answers at the level and delta, the verdict, and the reason when a value is outside the exact regimes."""
    at, t_for, verdict, reason = None, None, True, None
    if dlt is not None:
        t = pr.epsilon_t(dlt)
        t_for = "inf" if t is None else exact_str(simplify(t))
    if lvl is not None:
        try:
            v = pr.delta(level=lvl)
            at = exact_str(v)
            if dlt is not None:
                verdict = sign(simplify(dlt - v)) >= 0
        except (Undecided, UnsupportedRegime, TypeError) as e:
            reason = f"delta at eps = {lvl.eps_str()}: {getattr(e, 'reason', None) or e}"
    q = ProfileQuery(level=level_data(lvl), delta=None if dlt is None else exact_str(dlt), delta_at_eps=at,
                     t_for_delta=t_for)
    return q, verdict, reason


def _certify(kind: str, facs: list, neighbours, eps, alpha, level, delta) -> Certificate:
    given_level = eps is not None or alpha is not None or level is not None
    lvl = approx_level(eps, alpha, level) if given_level else None
    dlt = parse_delta(delta) if delta is not None else None
    ref = facs[0][0]
    _precheck_metric_size(ref, neighbours)      # the sizes the route can do, refused up front (issue 17)
    pairs, rel = _relation(ref, neighbours)
    check_profile_size(2 * len(pairs), max(len(m.outputs) for m, _ in facs))
    domain = Domain.of(lvl, *(m for m, _ in facs))      # the arithmetic and the method, one rule
    dom = None if domain.rational_entries else domain_of([v for m, _ in facs for v in m.values])
    pr, plds = _profile(facs, pairs, dom)
    pieces = []
    for pc in pr.pieces:
        x, xp = (str(ref.inputs[pc.pair[0]]), str(ref.inputs[pc.pair[1]])) if pc.pair is not None else ("", "")
        pieces.append(ProfilePiece(t_from=exact_str(simplify(pc.t_from)), A=exact_str(simplify(pc.A)),
                                   B=exact_str(simplify(pc.B)), x=x, x_prime=xp))
    q, verdict, reason = _query(pr, lvl, dlt)
    if kind == "profile":
        ev: Any = ProfileEvidence(mechanism=mechanism_data(ref), relation=rel, plds=plds, pieces=pieces, query=q)
    else:
        ev = CompositionEvidence(factors=[RunFactor(mechanism=mechanism_data(m), times=t) for m, t in facs],
                                 relation=rel, plds=plds, pieces=pieces, query=q)
    claim = profile_claim(kind, ev)
    if reason is not None:
        return Certificate(kind, UNDECIDED, Method.NONE, claim, ev, reason=reason)
    return Certificate(kind, verdict, Method[domain.method], claim, ev)


def certify_profile(mech: Mechanism, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                    level: Level | None = None, delta: Any = None) -> Certificate:
    """The exact privacy profile of ``mech`` as a certificate (kind ``profile``), with the answer at a query.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (fix a symbolic alpha first with ``mech.at(level)``).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        A metric's pairs at distance 1, a graph's edges, or the pairs themselves.
    eps, alpha, level : optional
        The level of the query (``eps = 0`` allowed); with ``delta`` too, the verdict is whether the
        mechanism is (eps, delta)-DP.
    delta : optional
        Exact delta in ``[0, 1]``: the certificate also states the smallest eps with ``delta(eps) <= delta``.

    Returns
    -------
    Certificate
        Kind ``profile``: holds / fails at ``(eps, delta)``; with one of them (or none) it states the computed
        value (verdict holds); undecided when ``e^eps`` is outside the exact regimes.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> c = certify_profile(randomized_response(3, p="1/5"), discrete(3), eps="log(2)", delta="1/10")
    >>> c.holds, c.evidence.query.delta_at_eps, [p.t_from for p in c.evidence.pieces]
    (False, '1/5', ['1', '3'])
    >>> c.recheck().status
    'confirmed'

    References
    ----------
    HLM15 Def. 1; the PLD statement of Sommer, Meiser, Mohammadi (PoPETs 2019), Thm. 1.
    """
    return _certify("profile", _factors([(mech, 1)]), neighbours, eps, alpha, level, delta)


def certify_composition(factors: list, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                        level: Level | None = None, delta: Any = None) -> Certificate:
    """The exact profile of independent runs of several mechanisms on the same input (kind ``composition``).

    Parameters
    ----------
    factors : list of (Mechanism, int)
        Each mechanism with how many times it runs (``1 <= times <= MAX_K``); the mechanisms share their inputs
        (the outputs may differ).
    neighbours, eps, alpha, level, delta :
        As in :func:`certify_profile`.

    Returns
    -------
    Certificate
        Kind ``composition``.

    Raises
    ------
    InvalidInput
        Mechanisms with different inputs, a symbolic alpha, ``times < 1``.
    InvalidType
        ``factors`` is not a list of pairs, ``times`` not an integer.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> A, B = randomized_response(2, p="1/4"), randomized_response(2, p="1/3")
    >>> c = certify_composition([(A, 1), (B, 1)], [("0", "1")], eps="0")
    >>> c.evidence.query.delta_at_eps     # TV of the product rows: (1/2 - 1/12) + (1/4 - 1/6)
    '1/2'

    References
    ----------
    Sommer, Meiser, Mohammadi (PoPETs 2019), Thm. 1 (composition is the convolution of PLDs); HLM15 Def. 1.
    """
    return _certify("composition", _factors(factors), neighbours, eps, alpha, level, delta)
