"""f-differential privacy, exactly: trade-off functions of finite mechanisms and a certified Gaussian-DP ``mu``.

DRS22 Sec. 2.1 (trade-off functions): for distributions ``P, Q`` and a rejection rule ``phi``
(a randomized test of ``H0: P`` against ``H1: Q``) with type I error
``alpha_phi = E_P[phi]`` and type II error ``beta_phi = 1 - E_Q[phi]``, the
trade-off function is ``T(P, Q)(a) = inf {beta_phi : alpha_phi <= a}``.  A
mechanism is *f-DP* when ``T(M(S), M(S')) >= f`` for every pair of
neighbouring data sets (DRS22 Def. 2.3).

Finite ``P, Q``: by the Neyman--Pearson lemma the optimal tests reject the
outputs with the largest likelihood ratio ``Q(y)/P(y)`` first, randomising on
one ratio class.  So ``T(P, Q)`` is the piecewise linear function through the
points ``(P(S_k), 1 - Q(S_k))`` where ``S_0 = {y : P(y) = 0}`` and ``S_k``
adds the ratio classes in decreasing ``Q/P`` (increasing ``P/Q``, the order of
the privacy-loss distribution, :mod:`exactdp.composition.composition`).  Its slopes
``-Q/P`` increase, so it is convex; the points are exact (rational for
rational entries, kernel values at a transcendental level) and every
comparison is an exact sign (:func:`exactdp.exact.decide.sign`).

Over a symmetric neighbour relation both ``T(P, Q)`` and ``T(Q, P) = T(P, Q)^-1``
occur (DRS22 Prop. 2.4, their symmetrisation:
a mechanism that is f-DP is ``f^-1``-DP too); the tightest trade-off function
``f`` with ``M`` f-DP is the greatest convex minorant of ``min`` over ordered
neighbouring pairs of ``T(M(x), M(x'))`` (a trade-off function is convex,
DRS22 Sec. 2.1; ``f <= T`` for all pairs iff ``f <= min``; the greatest
convex function below a minimum of convex piecewise linear functions is the
lower convex hull of all their vertices).  :func:`fdp_curve` computes it, and
for the ``k``-fold composition ``M^k`` it uses the exact ``k``-fold
privacy-loss distribution of every ordered pair: ``T(P^k, Q^k)`` exactly,
which can be strictly above the tensor power bound ``f^(x)k`` of DRS22
Sec. 3 (composition) computed from ``M``'s envelope.

Gaussian DP (DRS22 Sec. 2.2): ``G_mu(a) = Phi(Phi^-1(1 - a) - mu)``.
:func:`gaussian_mu` brackets the smallest ``mu`` with ``f >= G_mu`` between
rational end points; :func:`gdp_holds` decides ``f >= G_mu`` at a rational
``mu``.  Why the breakpoints suffice: on a segment ``[a_i, a_{i+1}]`` between
two vertices, ``f`` is the chord through ``(a_i, f(a_i))`` and ``(a_{i+1},
f(a_{i+1}))``, and ``G_mu`` is convex, so ``G_mu`` lies *below* its own chord
there.  If ``f(a_i) >= G_mu(a_i)`` at both ends, then for ``a = (1-l) a_i + l
a_{i+1}``: ``f(a) = (1-l) f(a_i) + l f(a_{i+1}) >= (1-l) G_mu(a_i) + l
G_mu(a_{i+1}) >= G_mu(a)`` (the last step is convexity).  So ``f >= G_mu`` on
``[0, 1]`` iff it holds at the vertices.  At ``a = 0``, ``G_mu(0) = 1``: a
finite ``mu`` needs ``f(0) = 1`` (decided exactly); at ``a = 1``, ``G_mu(1) = 0
<= f(1)``.  At an interior vertex with ``0 < f(a_i)``, since ``Phi`` is
increasing, ``f(a_i) >= G_mu(a_i)`` iff ``mu >= mu_i = Phi^-1(1 - a_i) -
Phi^-1(f(a_i))``, and ``f(a_i) = 0`` with ``a_i < 1`` allows no finite ``mu``.
Hence the smallest ``mu`` is ``max_i mu_i`` -- a transcendental number in
general, enclosed with Arb balls (``Phi^-1(p) = -sqrt(2) erfcinv(2p)``,
rigorous error bounds) and rounded outward to rational end points; a float
never decides.

>>> from exactdp.mechanisms import randomized_response
>>> f = fdp_curve(randomized_response(2, p="1/4"), [("0", "1")])
>>> [(str(a), str(b)) for a, b in f.points]
[('0', '1'), ('1/4', '1/4'), ('1', '0')]
>>> f(0), f("1/8"), f("1/2")
(1, 5/8, 1/6)
>>> b = gaussian_mu(f, width="1/1000")
>>> b.lo <= b.hi, b.hi - b.lo <= fmpq(1, 1000), b.enclosure(3)
(True, True, ('1.34', '1.35'))

References
----------
DRS22: J. Dong, A. Roth, W. J. Su, "Gaussian differential privacy",
   J. R. Stat. Soc. B 84(1), 2022 (arXiv:1905.02383, 2019): Sec. 2.1 (trade-off functions,
   f-DP: Def. 2.3), the symmetrisation (Prop. 2.4), Sec. 2.2 (Gaussian DP), Sec. 3 (composition).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from flint import arb, ctx, fmpq

from ..privacy.approximate import neighbour_relation
from ..errors import InvalidInput, Undecided
from ..exact.decide import arb_of, exact_str, sign, simplify
from ..exact.values import to_rational
from ..composition.composition import _check_k, _checked, _pair_pld
from .renyi import _distribution

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "MAX_PREC",
    "GDPBracket",
    "TradeOff",
    "certify_fdp",
    "fdp_curve",
    "gaussian_mu",
    "gdp_holds",
    "lower_hull",
    "tradeoff",
]

ONE = fmpq(1)
ZERO = fmpq(0)
#: the largest Arb precision (bits) tried before a Gaussian-DP comparison is called undecided
MAX_PREC = 4096


@dataclass(frozen=True)
class TradeOff:
    """A piecewise linear trade-off function on ``[0, 1]`` given by its vertices.

    ``points`` are exact ``(a, f(a))`` with increasing ``a`` from ``0`` to ``1``
    (kernel values: ``fmpq`` or an exponential-polynomial quotient);
    ``pairs`` names, per vertex, an ordered pair of inputs whose trade-off
    function passes through it (``None`` for a bare :func:`tradeoff`).

    Parameters
    ----------
    points : tuple
        The vertices ``(a, f(a))``, increasing ``a`` from 0 to 1.
    pairs : tuple, optional
        Per vertex, an ordered pair of input labels through it (or ``None``).
    relation : str, optional
        The neighbour relation, in words.

    Examples
    --------
    >>> f = tradeoff(["1/2", "1/2"], ["1/4", "3/4"])
    >>> [(str(a), str(b)) for a, b in f.points]
    [('0', '1'), ('1/2', '1/4'), ('1', '0')]
    >>> f.inverse()("1/4")
    1/2
    """

    points: tuple
    pairs: tuple = ()
    relation: str = ""

    def __call__(self, a: Any) -> Any:
        """The exact value ``f(a)`` at ``0 <= a <= 1`` (linear between vertices)."""
        a = _unit(a, "a")
        pts = self.points
        for k in range(len(pts) - 1):
            (a0, b0), (a1, b1) = pts[k], pts[k + 1]
            if sign(a1 - a) >= 0:
                if sign(a1 - a0) == 0:
                    return b1
                return simplify(b0 + (b1 - b0) * (a - a0) / (a1 - a0))
        return pts[-1][1]

    def inverse(self) -> TradeOff:
        """Return ``f^-1(b) = inf {a : f(a) <= b}``, the trade-off function of the swapped pair (DRS22 Sec. 2).

        Returns
        -------
        TradeOff
            The reflection of the graph in the diagonal (vertices ``(f(a), a)``),
            with a vertical part at ``b = 0`` closed off at ``(0, 1)``.

        Examples
        --------
        >>> f = tradeoff(["1/2", "1/2"], ["1/4", "3/4"])
        >>> [(str(a), str(b)) for a, b in f.inverse().points]
        [('0', '1'), ('1/4', '1/2'), ('1', '0')]
        """
        pts = [(b, a) for a, b in self.points][::-1]
        return TradeOff(tuple(lower_hull([(ZERO, ONE), *pts, (ONE, ZERO)])))

    def symmetric(self) -> bool:
        """Return whether ``f = f^-1`` (vertex lists compared exactly).

        Returns
        -------
        bool
            True iff the graph is symmetric in the diagonal.

        Examples
        --------
        Randomized response is symmetric; the pair above is not.

        >>> tradeoff(["3/4", "1/4"], ["1/4", "3/4"]).symmetric(), tradeoff(["1/2", "1/2"], ["1/4", "3/4"]).symmetric()
        (True, False)
        """
        g = self.inverse().points
        f = lower_hull(list(self.points))
        return len(f) == len(g) and all(sign(u[0] - v[0]) == 0 and sign(u[1] - v[1]) == 0
                                        for u, v in zip(f, g, strict=True))

    def to_json(self) -> dict:
        """Return the exact text of every vertex (and the pair through it, and the relation, when known).

        Returns
        -------
        dict
            ``{"points": [[a, f(a)], ...]}``, with ``pairs`` and ``relation`` when set.

        Examples
        --------
        >>> tradeoff(["3/4", "1/4"], ["1/4", "3/4"]).to_json()
        {'points': [['0', '1'], ['1/4', '1/4'], ['1', '0']]}
        """
        out: dict = {"points": [[exact_str(a), exact_str(b)] for a, b in self.points]}
        if self.pairs:
            out["pairs"] = [list(p) if p is not None else None for p in self.pairs]
        if self.relation:
            out["relation"] = self.relation
        return out


@dataclass(frozen=True)
class GDPBracket:
    """The smallest Gaussian-DP ``mu`` with ``f >= G_mu``: ``lo <= mu* <= hi`` (rationals; ``hi = None``: no finite mu).

    ``exact`` says ``lo = hi = mu*`` (only ``mu* = 0``, i.e. ``f(a) = 1 - a``);
    ``vertex`` is the vertex ``(a_i, f(a_i))`` whose ``mu_i`` has the largest
    certified lower end (the witness of ``lo``), or the one showing that no
    finite ``mu`` exists (with the reason).

    Parameters
    ----------
    lo : fmpq
        A lower bound on ``mu*``.
    hi : fmpq or None
        An upper bound, ``None`` when no finite ``mu`` works.
    exact : bool
        ``lo = hi = mu*``.
    vertex : tuple or None
        The witness of ``lo`` (or of no finite ``mu``).
    reason : str, optional
        Why no finite ``mu`` exists.

    Examples
    --------
    Randomized response keeping its input with probability ``3/4`` has its vertex at ``(1/4, 1/4)``, where
    ``G_mu(1/4) = 1/4`` gives ``mu* = 2 Phi^-1(3/4) = 1.3489...``:

    >>> from statistics import NormalDist
    >>> b = gaussian_mu(tradeoff(["3/4", "1/4"], ["1/4", "3/4"]))
    >>> float(b.lo) < 2 * NormalDist().inv_cdf(0.75) < float(b.hi), b.hi - b.lo <= fmpq(1, 1000), b.exact
    (True, True, False)
    """

    lo: fmpq
    hi: fmpq | None
    exact: bool
    vertex: tuple | None
    reason: str = ""

    def enclosure(self, digits: int = 6) -> tuple[str, str]:
        """Return decimal strings ``lo' <= lo <= hi <= hi'`` rounded outward.

        Parameters
        ----------
        digits : int, optional
            Significant digits.

        Returns
        -------
        tuple of str
            ``(lo', hi')``; ``("inf", "inf")`` when no finite ``mu`` exists.

        Examples
        --------
        >>> gaussian_mu(tradeoff(["3/4", "1/4"], ["1/4", "3/4"])).enclosure(3)
        ('1.34', '1.35')
        >>> gaussian_mu(tradeoff(["1", "0"], ["0", "1"])).enclosure()
        ('inf', 'inf')
        """
        from ..exact.decide import decimal_enclosure

        if self.hi is None:
            return ("inf", "inf")
        lo = decimal_enclosure(self.lo, digits)[0]
        hi = decimal_enclosure(self.hi, digits)[1]
        return (lo, hi)

    def to_json(self) -> dict:
        """Return the exact text of the bracket.

        Returns
        -------
        dict
            ``mu_lo``, ``mu_hi``, ``exact``, ``vertex`` (and ``reason`` when set).

        Examples
        --------
        Identical rows are perfectly private: ``f(a) = 1 - a`` and ``mu* = 0`` exactly.

        >>> gaussian_mu(tradeoff(["1/2", "1/2"], ["1/2", "1/2"])).to_json()
        {'mu_lo': '0', 'mu_hi': '0', 'exact': True, 'vertex': None}
        """
        return {"mu_lo": str(self.lo), "mu_hi": None if self.hi is None else str(self.hi), "exact": self.exact,
                "vertex": None if self.vertex is None else [exact_str(v) for v in self.vertex],
                **({"reason": self.reason} if self.reason else {})}


def _unit(a, what):
    if not isinstance(a, fmpq):
        a = to_rational(a, what=what)
    if not (0 <= a <= 1):
        raise InvalidInput(f"{what}: expected a rational in [0, 1], got {a}")
    return a


def _cross(o, p, q) -> int:
    """Sign of the cross product ``(p - o) x (q - o)``: > 0 a left (counter-clockwise) turn."""
    return sign((p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0]))


def lower_hull(points: list) -> list:
    """The vertices of the lower convex hull of exact points, by increasing first coordinate.

    Equal first coordinates keep the lowest point; collinear middle points are dropped
    (Andrew's monotone chain with exact orientation signs).

    Parameters
    ----------
    points : list of (a, b)
        Exact kernel values.

    Returns
    -------
    list of (a, b)

    Examples
    --------
    >>> from flint import fmpq as q
    >>> lower_hull([(q(0), q(1)), (q(1, 2), q(1, 2)), (q(1, 4), q(1, 4)), (q(1), q(0))])
    [(0, 1), (1/4, 1/4), (1, 0)]
    """
    pts = sorted(points, key=cmp_to_key(lambda u, v: sign(u[0] - v[0]) or sign(u[1] - v[1])))  # type: ignore[index]
    uniq: list = []
    for p in pts:
        if uniq and sign(uniq[-1][0] - p[0]) == 0:
            continue           # same a: the first (lowest) one is kept
        uniq.append(p)
    hull: list = []
    for p in uniq:
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], p) <= 0:
            hull.pop()
        hull.append(p)
    return [(simplify(a), simplify(b)) for a, b in hull]


def _points_of_columns(columns, q_missing) -> list:
    """Vertices of ``T(P, Q)`` from ``(P(y), Q(y)[, P/Q])`` columns with ``P(y) > 0``; ``q_missing = Q({P = 0})``.

    Ratio classes in increasing ``P/Q`` (``Q = 0`` last) move the point by ``(+P, -Q)``.
    """
    finite: list = []
    p_inf: Any = ZERO
    for col in columns:
        p, q = col[0], col[1]
        if sign(p) == 0:
            continue
        if sign(q) == 0:
            p_inf = p_inf + p
            continue
        finite.append((simplify(col[2] if len(col) > 2 else p / q), p, q))
    finite.sort(key=cmp_to_key(lambda u, v: sign(u[0] - v[0])))  # type: ignore[index]
    a: Any = ZERO
    b: Any = simplify(ONE - q_missing)
    pts = [(a, b)]
    k = 0
    while k < len(finite):
        r, dp, dq = finite[k]
        k += 1
        while k < len(finite) and sign(finite[k][0] - r) == 0:
            dp, dq = dp + finite[k][1], dq + finite[k][2]
            k += 1
        a, b = simplify(a + dp), simplify(b - dq)
        pts.append((a, b))
    if sign(p_inf) != 0:
        pts.append((simplify(a + p_inf), b))
    return pts


def tradeoff(P: Iterable[Any], Q: Iterable[Any]) -> TradeOff:
    """The exact trade-off function ``T(P, Q)`` of two distributions on one finite set (DRS22 Sec. 2.1).

    Parameters
    ----------
    P, Q : sequences of exact numbers
        The null and the alternative (ints, Fractions, kernel values or
        text such as ``"1/3"``); each sums to exactly 1.

    Returns
    -------
    TradeOff
        Its vertices ``(P(S_k), 1 - Q(S_k))`` (likelihood-ratio order), convex hull taken.

    Raises
    ------
    InvalidInput
        Lengths differ, an entry is negative or inexact, or a list does not sum to 1.

    Examples
    --------
    >>> f = tradeoff(["1/2", "1/2", "0"], ["0", "1/2", "1/2"])
    >>> [(str(a), str(b)) for a, b in f.points]
    [('0', '1/2'), ('1/2', '0'), ('1', '0')]
    >>> f("1/4")
    1/4
    """
    P, Q = list(P), list(Q)
    if len(P) != len(Q):
        raise InvalidInput(f"tradeoff: P has {len(P)} entries and Q {len(Q)}; they must be on one set")
    P, Q = _distribution(P, "P"), _distribution(Q, "Q")
    q0 = sum((q for p, q in zip(P, Q, strict=True) if sign(p) == 0), ZERO)
    return TradeOff(tuple(lower_hull(_points_of_columns(zip(P, Q, strict=True), q0))))


def fdp_curve(mech: Mechanism, neighbours: Any, times: int = 1) -> TradeOff:
    """The tightest ``f`` with ``mech`` (composed ``times`` times) f-DP over a neighbour relation, exactly.

    The greatest convex minorant of ``min T(M^k(x), M^k(x'))`` over ordered
    neighbouring pairs (both orders of each pair: the symmetrisation of
    DRS22 Prop. 2.4), i.e. the lower convex hull of the vertices of every
    pair's trade-off function; for ``times = k > 1`` each pair's function is
    that of the exact ``k``-fold privacy-loss distribution.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (fix a symbolic alpha first).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        As in :func:`~exactdp.composition.profile.privacy_profile`.
    times : int, default 1
        ``k``, the number of independent repetitions.

    Returns
    -------
    TradeOff
        Vertices with the ordered pair attaining each.

    Raises
    ------
    InvalidInput
        A symbolic mechanism, no neighbouring pair, or a bad ``times``.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> f = fdp_curve(geometric(2, "1/2"), path(3))
    >>> [(str(a), str(b)) for a, b in f.points]
    [('0', '1'), ('1/3', '1/3'), ('1', '0')]
    >>> [(str(a), str(b)) for a, b in fdp_curve(geometric(2, "1/2"), path(3), times=2).points]
    [('0', '1'), ('1/9', '5/9'), ('5/9', '1/9'), ('1', '0')]
    """
    _check_k(times)
    mech, dom = _checked(mech)
    pairs, rel = neighbour_relation(mech, neighbours)
    if not pairs:
        raise InvalidInput("fdp_curve: no neighbouring pair (no two inputs at distance 1)")
    return _envelope_of_plds(((a, b), _pair_pld(mech, a, b, dom).power(times))
                             for i, j in pairs for a, b in ((i, j), (j, i))
                             ).labelled(mech.inputs, rel + ("" if times == 1 else f", composed {times} times"))


class _Hull:
    """Vertices with the ordered pair (indices) that contributes each."""

    def __init__(self, tagged):
        self.tagged = tagged

    def labelled(self, labels, relation) -> TradeOff:
        hull = lower_hull([pt for pt, _ in self.tagged])
        # hull vertices are vertices of some pair's (simplified) function: their exact text identifies them
        where: dict = {}
        for (u, v), t in self.tagged:
            where.setdefault((exact_str(u), exact_str(v)), t)
        tags: list = []
        for a, b in hull:
            tag = where.get((exact_str(a), exact_str(b)))
            tags.append(None if tag is None else (labels[tag[0]], labels[tag[1]]))
        return TradeOff(tuple(hull), tuple(tags), relation)


def _envelope_of_plds(tagged_plds) -> _Hull:
    """The lower hull of the trade-off vertices of PLDs (ordered pairs; ``tag`` names each)."""
    tagged: list = []
    seen: set = set()
    for tag, L in tagged_plds:
        cols = L.columns()
        q_missing = simplify(ONE - sum((c[1] for c in cols), ZERO))
        pts = lower_hull(_points_of_columns(cols, q_missing))
        key = tuple((exact_str(a), exact_str(b)) for a, b in pts)
        if key in seen:
            continue
        seen.add(key)
        tagged.extend((pt, tag) for pt in pts)
    return _Hull(tagged)


# ---- Gaussian DP (DRS22 Sec. 2.2) ----
def _phi_inv(p: arb) -> arb:
    """``Phi^-1(p) = -sqrt(2) erfcinv(2p)`` for a ball ``p`` inside ``(0, 1)`` (Arb: rigorous)."""
    return -(arb(2).sqrt()) * (2 * p).erfcinv()


def _mu_balls(f: TradeOff, prec: int):
    """Balls ``mu_i`` at the interior vertices, with the vertex; ``None`` when no finite mu exists (with why)."""
    out = []
    with ctx.workprec(prec):
        for a, b in f.points:
            if sign(a) == 0 or sign(a - 1) == 0:
                continue
            if sign(b) == 0:
                return None, (a, b)
            if sign(b - (1 - a)) == 0:      # f(a) = 1 - a: mu_i = 0 exactly
                out.append((arb(0), (a, b)))
                continue
            ab, bb = arb_of(a), arb_of(b)
            out.append((_phi_inv(1 - ab) - _phi_inv(bb), (a, b)))
    return out, None


def _no_finite_mu(f: TradeOff):
    a0, b0 = f.points[0]
    if sign(b0 - 1) != 0:
        return (a0, b0), f"f(0) = {exact_str(b0)} < 1 = G_mu(0) for every finite mu (an output one input " \
                         "can produce and its neighbour cannot)"
    return None, ""


def gaussian_mu(f: TradeOff, width: Any = "1/1000") -> GDPBracket:
    """A certified bracket for the smallest ``mu`` with ``f >= G_mu`` (DRS22 Sec. 2.2).

    ``mu* = max_i (Phi^-1(1 - a_i) - Phi^-1(f(a_i)))`` over the interior
    vertices (the module docstring proves that the vertices suffice); each
    term is enclosed in an Arb ball and the maximum rounded outward to
    dyadic rationals, raising the precision until ``hi - lo <= width``.

    Parameters
    ----------
    f : TradeOff
        From :func:`fdp_curve` or :func:`tradeoff`.
    width : exact rational, default 1/1000
        The largest accepted ``hi - lo`` (> 0).

    Returns
    -------
    GDPBracket
        ``lo <= mu* <= hi`` (rationals); ``hi = None`` when no finite ``mu``
        exists (``f(0) < 1``, or ``f(a) = 0`` at some ``a < 1``), with the reason.

    Raises
    ------
    InvalidInput
        ``width`` not a positive rational.
    Undecided
        The width was not reached by ``MAX_PREC`` bits.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> f = fdp_curve(randomized_response(2, p="1/2"), [("0", "1")])      # P = Q: G_0
    >>> b = gaussian_mu(f); (b.lo, b.hi, b.exact)
    (0, 0, True)
    >>> gaussian_mu(tradeoff(["1", "0"], ["1/2", "1/2"])).hi is None
    True
    """
    w = to_rational(width, what="width")
    if w <= 0:
        raise InvalidInput(f"width: expected a rational > 0, got {w}")
    vertex, reason = _no_finite_mu(f)
    if vertex is not None:
        return GDPBracket(ZERO, None, False, vertex, reason)
    prec = 64
    while prec <= MAX_PREC:
        balls, zero_at = _mu_balls(f, prec)
        if balls is None:
            return GDPBracket(ZERO, None, False, zero_at, f"f({exact_str(zero_at[0])}) = 0 < G_mu for every "
                              "finite mu (an output set one input never produces)")
        if not balls or all(b.is_exact() and b == 0 for b, _ in balls):
            return GDPBracket(ZERO, ZERO, True, None if not balls else balls[0][1])
        if not all(b.is_finite() for b, _ in balls):
            prec *= 2
            continue
        lo_end, vert = max(((_ends(b)[0], v) for b, v in balls), key=lambda t: t[0])   # the lower end's witness
        hi_end = max(_ends(b)[1] for b, _ in balls)
        m = 1
        while fmpq(1, 2 ** m) > w / 4:
            m += 1
        lo = max(ZERO, fmpq(int((lo_end * 2 ** m).floor()), 2 ** m))
        hi = fmpq(int((hi_end * 2 ** m).ceil()), 2 ** m)
        if hi - lo <= w:
            return GDPBracket(lo, hi, False, vert)
        prec *= 2
    raise Undecided(f"gaussian_mu: the bracket did not narrow to {w} by {MAX_PREC} bits")


def _ends(b: arb) -> tuple[fmpq, fmpq]:
    """The exact rational end points ``mid - rad <= x <= mid + rad`` of a finite ball."""
    m, r = _dyadic(b.mid()), _dyadic(b.rad())
    return m - r, m + r


def _dyadic(x: arb) -> fmpq:
    """The exact dyadic value of an exact, finite arb (a ball's midpoint or radius)."""
    m, e = x.man_exp()
    return fmpq(int(m)) * fmpq(2) ** int(e) if e >= 0 else fmpq(int(m), 2 ** int(-e))


def gdp_holds(f: TradeOff, mu: Any) -> bool:
    """Decide ``f >= G_mu`` on ``[0, 1]`` for a rational ``mu >= 0``, exactly (never by a float).

    At each interior vertex, ``f(a_i) >= G_mu(a_i)`` iff ``mu >= mu_i``; the
    sign of ``mu - mu_i`` is read from Arb balls at rising precision (an exact
    test first when ``mu_i = 0``).

    Parameters
    ----------
    f : TradeOff
    mu : exact rational
        ``mu >= 0``.

    Returns
    -------
    bool

    Raises
    ------
    InvalidInput
        ``mu`` negative or not rational.
    Undecided
        ``mu = mu_i`` to ``MAX_PREC`` bits at some vertex.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> f = fdp_curve(randomized_response(2, p="1/4"), [("0", "1")])
    >>> gdp_holds(f, "27/20"), gdp_holds(f, "134/100")
    (True, False)
    """
    m = to_rational(mu, what="mu")
    if m < 0:
        raise InvalidInput(f"mu: expected a rational >= 0, got {m}")
    if _no_finite_mu(f)[0] is not None:
        return False
    prec = 64
    while prec <= MAX_PREC:
        balls, _zero_at = _mu_balls(f, prec)
        if balls is None:
            return False
        undecided = not all(b.is_finite() for b, _ in balls)
        for b, _ in balls:
            if b.is_exact() and b == 0:      # mu_i = 0 exactly (f(a_i) = 1 - a_i) and mu >= 0
                continue
            if arb(m) < b:
                return False
            if not arb(m) >= b:
                undecided = True
        if not undecided:
            return True
        prec *= 2
    raise Undecided(f"gdp_holds: mu = {m} equals some mu_i to {MAX_PREC} bits")


def certify_fdp(mech: Mechanism, neighbours: Any, times: int = 1, *, width: Any = "1/1000",
                mu: Any = None) -> Any:
    """The tightest trade-off function and the Gaussian-DP ``mu`` bracket as a certificate (kind ``fdp``).

    A thin layer over :func:`fdp_curve`, :func:`gaussian_mu` and (with ``mu``) :func:`gdp_holds`; the evidence
    (:mod:`exactdp.divergences.evidence`) carries the mechanism, the relation, ``times``, the vertices with a pair
    through each, and the bracket.  :mod:`exactdp.recheck.fdp` re-derives every vertex and re-decides the bracket
    ends with its own interval enclosures of ``Phi``.

    Parameters
    ----------
    mech : Mechanism
        Exact entries at a fixed level.
    neighbours : FiniteMetric, networkx graph or list of label pairs
    times : int, default 1
        The ``k``-fold composition.
    width : exact rational, default 1/1000
        The largest width of the ``mu`` bracket.
    mu : exact rational, optional
        Decide ``f >= G_mu`` (the verdict); without it the verdict is holds (a statement of computed values).

    Returns
    -------
    Certificate
        Kind ``fdp``, method ``TRANSCENDENCE_BALLS`` (``Phi`` is transcendental).

    Raises
    ------
    InvalidInput
        As :func:`fdp_curve` and :func:`gaussian_mu`.
    Undecided
        A bracket end or ``mu`` not separated by ``MAX_PREC`` bits.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_fdp(randomized_response(2, p="1/4"), [("0", "1")], mu="27/20")
    >>> [(v.a, v.b) for v in c.evidence.vertices], c.holds, c.recheck().status
    ([('0', '1'), ('1/4', '1/4'), ('1', '0')], True, 'confirmed')

    References
    ----------
    DRS22 Sec. 2.1-2.2, Def. 2.3, Prop. 2.4.
    """
    from ..certificate import Certificate, Method
    from ..certificate.common import mechanism_data
    from .evidence import FdpEvidence, MuBracket, TradeOffVertex, fdp_claim
    from ..composition.composition import _relation

    f = fdp_curve(mech, neighbours, times)
    b = gaussian_mu(f, width)
    holds = True if mu is None else gdp_holds(f, mu)
    mech = mech.validate()
    _, rel = _relation(mech, neighbours)
    verts = [TradeOffVertex(a=exact_str(a), b=exact_str(v), x=str(p[0]) if p else "", x_prime=str(p[1]) if p else "")
             for (a, v), p in zip(f.points, f.pairs, strict=True)]
    mb = MuBracket(lo=str(b.lo), hi=None if b.hi is None else str(b.hi), exact=b.exact,
                   a=None if b.vertex is None else exact_str(b.vertex[0]),
                   b=None if b.vertex is None else exact_str(b.vertex[1]))
    ev = FdpEvidence(mechanism=mechanism_data(mech), relation=rel, times=times, vertices=verts, mu=mb,
                     mu_query=None if mu is None else str(to_rational(mu, what="mu")))
    return Certificate("fdp", holds, Method.TRANSCENDENCE_BALLS, fdp_claim(ev), ev)
