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
pairs (:mod:`exactdp.theory.profile`).  This is what PLD accountants compute
after rounding the losses onto a grid; here nothing is rounded.

>>> from exactdp.mechanisms import randomized_response
>>> pr = composed_profile(randomized_response(2, p="1/4"), [("0", "1")], 2)
>>> pr.delta(eps="log(3)"), pr.delta(eps="0"), pr.epsilon("0")
(3/8, 1/2, 'log(9)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import arb, ctx, fmpq

from ..certify.approximate import neighbour_relation
from ..errors import InputTooLarge, InvalidInput, InvalidType, UnsupportedRegime
from .profile import Profile, envelope, pair_function

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = ["PLD", "privacy_loss_distribution", "composed_profile", "kov_delta", "basic_composition",
           "advanced_composition", "MAX_K", "MAX_SUPPORT"]

#: largest number of compositions accepted
MAX_K = 100_000
#: largest number of distinct loss values kept in a PLD
MAX_SUPPORT = 2_000_000

ONE = fmpq(1)


class PLD:
    """Exact privacy-loss distribution: ``masses`` maps ratio ``r > 0`` to its P-mass; ``inf`` the mass at r = inf."""

    __slots__ = ("masses", "inf")

    def __init__(self, masses: dict, inf):
        self.masses = masses
        self.inf = inf

    def key(self) -> tuple:
        return (tuple(sorted(self.masses.items())), self.inf)

    def __mul__(self, other: "PLD") -> "PLD":
        out: dict = {}
        for r1, m1 in self.masses.items():
            for r2, m2 in other.masses.items():
                r = r1 * r2
                out[r] = out.get(r, 0) + m1 * m2
        if len(out) > MAX_SUPPORT:
            raise InputTooLarge(f"composition: {len(out)} distinct loss values exceed {MAX_SUPPORT}")
        finite = (1 - self.inf) * (1 - other.inf)
        return PLD(out, 1 - finite)

    def power(self, k: int) -> "PLD":
        """The ``k``-fold composition, by repeated squaring."""
        result, base = None, self
        while k:
            if k & 1:
                result = base if result is None else result * base
            k >>= 1
            if k:
                base = base * base
        return result  # type: ignore[return-value]  # None only for k = 0, which the callers refuse

    def delta(self, t: Any) -> fmpq:
        """``delta(t) = m_inf + sum_{r > t} m_r (1 - t/r)`` for an exact rational ``t >= 1``."""
        t = fmpq(t)
        return self.inf + sum((m * (1 - t / r) for r, m in self.masses.items() if r > t), fmpq(0))

    def columns(self) -> list[tuple[Any, Any]]:
        """``(P-mass, Q-mass)`` per loss value, for :func:`~exactdp.theory.profile.pair_function`."""
        cols = [(m, m / r) for r, m in self.masses.items()]
        if self.inf:
            cols.append((self.inf, fmpq(0)))
        return cols


def privacy_loss_distribution(mech: Mechanism, x: str, x_prime: str) -> PLD:
    """The exact PLD of the ordered pair ``(x, x')`` (rational entries).

    >>> from exactdp.mechanisms import randomized_response
    >>> L = privacy_loss_distribution(randomized_response(2, p="1/4"), "0", "1")
    >>> sorted(L.masses.items()), L.inf
    ([(1/3, 1/4), (3, 3/4)], 0)
    """
    mech = _rational(mech)
    i, j = mech.row_index.get(str(x)), mech.row_index.get(str(x_prime))
    if i is None or j is None:
        raise InvalidInput(f"privacy_loss_distribution: {x!r} or {x_prime!r} is not an input of the mechanism")
    return _pld_rows(mech, i, j)


def _pld_rows(mech, i, j) -> PLD:
    vals = mech.values
    masses: dict = {}
    inf = fmpq(0)
    for a, b in zip(mech.codes[i].tolist(), mech.codes[j].tolist()):
        p, q = vals[a], vals[b]
        if p == 0:
            continue
        if q == 0:
            inf += p
            continue
        r = p / q
        masses[r] = masses.get(r, 0) + p
    return PLD(masses, inf)


def _rational(mech):
    if mech.regime != "rational":
        raise UnsupportedRegime(f"composition: the mechanism has {mech.regime} entries; the exact PLD is built for "
                                "rational entries (fix alpha rational, e.g. alpha = 1/2)")
    return mech.validate()


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
    mech : Mechanism with rational entries.
    neighbours : as in :func:`~exactdp.certify.approximate.certify_approx`.
    k : int, ``1 <= k <= MAX_K``.

    Returns
    -------
    Profile
        Equal to :func:`~exactdp.theory.profile.privacy_profile` of the
        exact ``k``-fold product (tested against it), without building it.

    References
    ----------
    HLM15 Section 4 (repeated queries); Kairouz, Oh, Viswanath, "The
    composition theorem for differential privacy" (ICML 2015) for the
    optimal composition of randomized response, checked in :func:`kov_delta`.
    """
    _check_k(k)
    mech = _rational(mech)
    pairs, rel = neighbour_relation(mech, neighbours)
    seen: dict = {}
    fs = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            L = _pld_rows(mech, a, b)
            key = L.key()
            if key in seen:
                continue
            seen[key] = True
            fs.append(pair_function(L.power(k).columns(), (a, b)))
    return Profile(envelope(fs), mech.inputs, rel + f", composed {k} times",
                   [(mech.inputs[i], mech.inputs[j]) for i, j in pairs])


def kov_delta(r: Any, k: int, i: int) -> Any:
    """Kairouz-Oh-Viswanath: the exact delta of ``k`` compositions of randomized response at ``eps = (k - 2i) eps0``.

    With ``r = e^eps0`` (rational) and the binary mechanism ``P(stay) = r/(1+r)``,

        delta_i = sum_{l=0}^{i-1} C(k, l) (r^(k-l) - r^(k-2i+l)) / (1 + r)^k .

    >>> kov_delta(3, 2, 1)
    1/2
    """
    r = fmpq(r)
    tot = fmpq(0)
    c = 1
    for l in range(i):
        tot += c * (r ** (k - l) - r ** (k - 2 * i + l))
        c = c * (k - l) // (l + 1)
    return tot / (1 + r) ** k


def basic_composition(k: int, eps_str: str, delta: Any) -> tuple[str, fmpq]:
    """Basic composition (Dwork et al.): ``k`` uses of ``(eps, delta)`` are ``(k eps, k delta)``-DP.

    Returns the bound's ``(eps, delta)`` as exact text and value.
    """
    return (f"{k}*({eps_str})", k * fmpq(delta))


def advanced_composition(k: int, eps: Any, delta: Any, delta_prime: Any) -> tuple[Any, Any, Any]:
    """Advanced composition (Dwork-Rothblum-Vadhan 2010): ``k`` uses of ``(eps, delta)`` are
    ``(eps', k delta + delta')``-DP with ``eps' = sqrt(2 k log(1/delta')) eps + k eps (e^eps - 1)``.

    ``eps`` is given as an arb-valued function of the precision (it is a
    logarithm); returns rational ``(t_lo, t_hi)`` bracketing ``e^(eps')`` and
    the exact ``k delta + delta'``.
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
