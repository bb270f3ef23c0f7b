"""Re-check ``fdp`` certificates: the trade-off function re-derived, the Gaussian-DP bracket re-decided.

Only the standard library, mpmath (private contexts at explicit precisions) and this package's kernel.  From the
JSON alone it

1. checks the carried mechanism is one and re-derives the neighbour relation (:mod:`exactdp.recheck.profile`'s
   readers), and each ordered pair's privacy-loss distribution -- for ``times = k > 1`` the exact ``k``-fold
   convolution, counted first with that module's limits (``not checkable: too large`` beyond them);
2. builds every ordered pair's trade-off vertices ``(P(S), 1 - Q(S))`` in increasing ``P/Q`` (Neyman--Pearson,
   DRS22 Sec. 2.1), takes the lower convex hull of all of them (exact orientation signs) and checks the stated
   vertices are exactly its vertices, each with a stated ordered pair whose function passes through it;
3. re-decides the ``mu`` bracket (DRS22 Sec. 2.2): no finite ``mu`` exactly when ``f(0) < 1`` or ``f(a) = 0`` at an
   interior vertex (exact); ``mu* = 0`` exactly when every interior vertex has ``f(a) = 1 - a`` (exact); otherwise
   ``f(a_i) >= G_hi(a_i)`` at every interior vertex and, for ``lo > 0``, ``f(a) < G_lo(a)`` at the stated vertex,
   each with interval enclosures of ``Phi`` (its series with a rigorous tail bound) and of ``Phi^-1`` (a point
   guessed by mpmath's ``erfinv`` at an explicit precision, then verified with the enclosure of ``Phi``: a float
   only guides), at rising precision, refusing (``not checkable``) when the enclosures cannot decide;
4. with ``mu_query``: ``f >= G_mu`` re-decided the same way against the verdict; rebuilds the claim sentence.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key

from mpmath import libmp
from mpmath.ctx_iv import MPIntervalContext
from mpmath.ctx_mp import MPContext

from ._kernel import Refuted, refute_unless
from ._kernel import same
from ._kernel import _add, _div, _iv, _mul, _neg, fraction, MAX_CELLS, NotHere, sign, TooLarge, value
from ._dprivacy import MECH
from ._pld import MAX_TIMES, _convolve, _diff, _pld, _precount, _relation, _rows, relation_note
from ._pld import RELATION

CONFIRMED, REFUTED = "confirmed", "refuted"

#: most trade-off points (over all ordered pairs) put into the hull
MAX_POINTS = 200_000
#: most interior vertices whose Gaussian-DP comparison is re-decided
MAX_MU_VERTICES = 2_000
#: most work units of the enclosures of Phi of a certificate: a series term counts (fraction bits)/64 + 1, a guess
#: of Phi^-1 at d digits d^2/2 (measured: about 400,000 units a second, so at most about 5 s; binary randomized
#: response at p = 1/4 composed 50 times takes 0.4 s, 200 times is refused)
MAX_SERIES = 2_000_000
#: largest |x| at which Phi(x) is enclosed (Phi(-40) is about 4e-350)
MAX_ABS_X = 40
#: most distinct ordered pairs (by their columns) convolved for times > 1
MAX_DISTINCT = 2_000
#: the precisions (decimal digits) tried in turn
DPS = (30, 60, 120, 240, 480)

VERTEX = {"a": "str", "b": "str", "x": "str", "x_prime": "str"}
MU = {"lo": "str", "hi": "?str", "exact": "bool", "a": "?str", "b": "?str"}
FDP = {"mechanism": MECH, "relation": RELATION, "times": "int", "vertices": [VERTEX], "mu": MU, "mu_query": "?str"}
#: the evidence shape (read by the dispatcher before any work)
EVIDENCE = {"fdp": FDP}

ONE, ZERO = Fraction(1), Fraction(0)


def claim_text(c: dict) -> str:
    """The claim of an ``fdp`` certificate, rebuilt from its evidence.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> ev = {"mechanism": {"name": "RR"}, "times": 1, "relation": {"description": "pair (0, 1)"},
    ...       "vertices": [{"a": "0", "b": "1"}, {"a": "1", "b": "0"}], "mu": {"lo": "0", "hi": "0", "exact": True},
    ...       "mu_query": None}
    >>> print(claim_text({"evidence": ev}))
    the tightest f with RR f-DP over the pair (0, 1) has vertices (0, 1), (1, 0); the smallest Gaussian-DP mu is 0
    """
    ev = c["evidence"]
    who = ev["mechanism"]["name"] + ("" if ev["times"] == 1 else f" composed {ev['times']} times")
    verts = ", ".join(f"({v['a']}, {v['b']})" for v in ev["vertices"])
    mu = ev["mu"]
    if mu["hi"] is None:
        tail = "no finite Gaussian-DP mu exists"
    elif mu["exact"]:
        tail = f"the smallest Gaussian-DP mu is {mu['lo']}"
    else:
        tail = f"the smallest Gaussian-DP mu is in [{mu['lo']}, {mu['hi']}]"
    out = f"the tightest f with {who} f-DP over the {ev['relation']['description']} has vertices {verts}; {tail}"
    if ev["mu_query"] is not None:
        out += f"; f >= G_mu at mu = {ev['mu_query']}"
    return out


def method_of(c: dict) -> str:
    """Always ``TRANSCENDENCE_BALLS``: the bracket rests on enclosures of ``Phi``.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        ``"TRANSCENDENCE_BALLS"``.

    Examples
    --------
    >>> method_of({"evidence": {}})
    'TRANSCENDENCE_BALLS'
    """
    return "TRANSCENDENCE_BALLS"


# ------------------------------------------------------------------------------------- trade-off points ----
def _points(inf, items) -> list:
    """Vertices of ``T(P, Q)`` from a PLD ``(P(Q = 0), [(P/Q, P-mass), ...])`` (decreasing ratios)."""
    qs = [_div(m, r) for r, m in items]
    b = ZERO
    for q in qs:
        b = _add(b, q)                       # 1 - Q(P = 0) = Q(P > 0)
    a = ZERO
    pts = [(a, b)]
    for (_, m), q in zip(reversed(items), reversed(qs), strict=True):
        a, b = _add(a, m), _add(b, _neg(q))
        pts.append((a, b))
    if sign(inf) != 0:
        pts.append((_add(a, inf), b))
    return pts


def _cross(o, p, q) -> int:
    """The orientation of ``o, p, q``: the sign of the cross product ``(p - o) x (q - o)`` (positive: a left turn),
    exact; the lower hull keeps only turns that make it convex."""
    return sign(_add(_mul(_add(p[0], _neg(o[0])), _add(q[1], _neg(o[1]))),
                     _neg(_mul(_add(p[1], _neg(o[1])), _add(q[0], _neg(o[0]))))))


def _hull(points: list) -> list:
    """The lower convex hull, by increasing ``a`` (equal ``a``: the lowest kept; collinear points dropped)."""
    def order(u: tuple, v: tuple) -> int:
        """Lexicographic order of points ``(a, b)`` by exact signs (the hull is built over sorted points)."""
        return _diff(u[0], v[0]) or _diff(u[1], v[1])
    pts = sorted(points, key=cmp_to_key(order))
    uniq: list = []
    for p in pts:
        # of the points with one a, only the lowest (first in the order) can be on the lower hull
        if uniq and _diff(uniq[-1][0], p[0]) == 0:
            continue
        uniq.append(p)
    hull: list = []
    for p in uniq:
        # keep strict left turns only: the lower convex hull, collinear middle points dropped, so the stated vertices
        # must be its corners exactly
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], p) <= 0:
            hull.pop()
        hull.append(p)
    return hull


# ------------------------------------------------------------------------------------------- Phi ----
class _Phi:
    """Enclosures of ``Phi`` and of a point on either side of ``Phi^-1`` in private mpmath contexts."""

    def __init__(self):
        """Private interval and float contexts (mpmath's global precision is never read or set) and a work counter."""
        self.iv = MPIntervalContext()
        self.mp = MPContext()
        self.work = 0

    def set(self, dps: int) -> None:
        """Set both contexts' precision; the float one 10 digits above, as it only guesses points the intervals
        verify."""
        self.iv.dps = dps
        self.mp.dps = dps + 10

    def phi(self, x: Fraction):
        """An interval enclosing ``Phi(x) = (1 + erf(x/sqrt 2))/2`` for a rational ``x``.

        ``erf(x/sqrt 2) = x sqrt(2/pi) e^(-x^2/2) sum_n x^(2n)/(2n+1)!!`` (positive terms, ratio ``x^2/(2n+3)``):
        the sum is bracketed in integers (fixed point with ``prec + 40`` fraction bits, every term rounded down
        for the lower and up for the upper bound), its tail after ``N`` terms at most twice the next term once the
        ratio is at most 1/2; the three transcendental factors are enclosed in the interval context."""
        iv = self.iv
        if abs(x) > MAX_ABS_X:
            raise TooLarge(f"Phi at |x| > {MAX_ABS_X}")
        p2, q2 = x.numerator ** 2, x.denominator ** 2
        F = iv.prec + 40
        lo = hi = slo = shi = 1 << F
        n, n0, small = 0, -(-p2 // q2), 1 << 30
        while True:
            n += 1
            d = q2 * (2 * n + 1)
            lo, hi = lo * p2 // d, -(-hi * p2 // d)
            slo, shi = slo + lo, shi + hi
            if n >= n0 and hi < small:
                break
        shi += 2 * -(-hi * p2 // (q2 * (2 * n + 3)))
        self.work += n * (F // 64 + 1)
        if self.work > MAX_SERIES:
            raise TooLarge(f"the enclosures of Phi exceed {MAX_SERIES:,} work units")
        sigma = iv.mpf([iv.mpf(slo).a, iv.mpf(shi).b]) * iv.mpf(2) ** (-F)
        ax = iv.mpf(abs(x.numerator)) / x.denominator
        erf = ax * iv.sqrt(2 / iv.pi) * iv.exp(-(ax * ax) / 2) * sigma
        return (1 + erf) / 2 if x >= 0 else (1 - erf) / 2

    def _guide(self, mid):
        """A guess of ``Phi^-1(mid)`` (it only guides: :meth:`around_inverse` verifies): Newton's method on
        ``log Phi(y) = log t`` (``t = min(mid, 1 - mid)``, ``y <= 0``) from the tail's asymptote, at 30 digits, then
        two steps per doubling of the precision up to the context's."""
        mp = self.mp
        top = mp.dps
        t_hi = mid if mid < 0.5 else 1 - mid
        d, y = 30, None
        while True:
            with mp.workdps(d):
                t = +t_hi
                if y is None:
                    y = -mp.sqrt(-2 * mp.log(t)) if t < 0.1 else mp.sqrt(2) * mp.erfinv(2 * t - 1)
                for _ in range(60 if d == 30 else 2):
                    c = mp.ncdf(y)
                    if not c > 0:
                        return mp.inf
                    step = (mp.log(c) - mp.log(t)) * c / mp.npdf(y)
                    y -= step
                    if d == 30 and abs(step) < mp.mpf(10) ** -25:
                        break
            if d >= top:
                break
            d = min(2 * d, top)
        return y if mid < 0.5 else -y

    def around_inverse(self, p, T: int):
        """A guess ``x0`` of ``Phi^-1(p)`` and a step ``eta`` (``p`` an interval inside (0, 1), ``min(p, 1 - p)``
        about ``10^-T`` or more): :func:`_ge_gauss` verifies ``x0 + eta >= Phi^-1(p)`` (or ``x0 - eta <=``) with
        :meth:`phi` before using it; None when ``p`` is not inside (0, 1) at this precision."""
        mp = self.mp
        mid = mp.mpf(p.mid)
        if not 0 < mid < 1:
            return None
        self.work += self.iv.dps ** 2 // 2              # the guide's cost (measured)
        if self.work > MAX_SERIES:
            raise TooLarge(f"the enclosures of Phi exceed {MAX_SERIES:,} work units")
        g = self._guide(mid)
        if not mp.isfinite(g) or abs(g) > MAX_ABS_X:
            raise TooLarge(f"Phi^-1 beyond |x| = {MAX_ABS_X}")
        x0 = Fraction(*libmp.to_rational(g._mpf_))          # the guide's exact dyadic value
        # Phi' is about 10^-T near Phi^-1(p): moving x by eta moves Phi by 10^-T eta, which must clear the enclosures
        return x0, Fraction(1, 10 ** max(10, self.iv.dps - T - 15))


def _ge_gauss(P: _Phi, a, b, m: Fraction) -> bool:
    """Is ``b >= G_m(a) = Phi(Phi^-1(1 - a) - m)`` (``0 < a < 1``, ``b > 0``)?  Exact when ``m = 0`` or ``b = 1 - a``;
    else by enclosures at rising precision (:class:`NotHere` when they cannot decide): with ``up >= Phi^-1(1 - a)``
    verified, ``b >= Phi(up - m)`` proves it (``Phi`` increases); with ``dn <= Phi^-1(1 - a)``, ``b < Phi(dn - m)``
    disproves it."""
    gap = sign(_add(b, _add(a, Fraction(-1))))          # b - (1 - a)
    if m == 0 or gap == 0:
        return gap >= 0                                  # G_0(a) = 1 - a; G_m(a) < 1 - a for m > 0
    P.set(DPS[0])                                        # the digits the tails need: -log10 of the smallest value
    tiny = min(_iv(v, P.iv).a for v in (a, _add(ONE, _neg(a)), b))
    if not tiny > 0:
        raise NotHere("a vertex coordinate not separated from 0 by intervals")
    T = int(-P.mp.log10(P.mp.mpf(tiny))) if tiny < 1 else 0
    tried = [d for d in DPS if d >= T + 40]
    if not tried:
        raise TooLarge(f"a vertex coordinate below 10^-{DPS[-1] - 40}")
    for dps in tried:
        P.set(dps)
        pv = _iv(_add(ONE, _neg(a)), P.iv)
        bv = _iv(b, P.iv)
        guess = P.around_inverse(pv, T)
        if guess is None:
            continue
        x0, eta = guess
        up, dn = x0 + eta, x0 - eta
        if max(abs(up - m), abs(dn - m)) > MAX_ABS_X:
            raise TooLarge(f"Phi at |x| > {MAX_ABS_X}")
        # the float guess is verified, never trusted: Phi(up) >= 1 - a proves up >= Phi^-1(1 - a), so b >= Phi(up - m)
        # >= G_m(a); symmetrically below for dn
        if P.phi(up).a >= pv.b and bv.a >= P.phi(up - m).b:
            return True
        if P.phi(dn).b <= pv.a and bv.b < P.phi(dn - m).a:
            return False
    raise NotHere(f"f({_short(a)}) against G_{m}: the enclosures did not decide by {DPS[-1]} digits")


def _short(v) -> str:
    """A vertex coordinate for a message: the fraction, or the words for a transcendental one."""
    return str(v) if isinstance(v, Fraction) else "a transcendental vertex"


def _rational(text, what: str) -> Fraction:
    """A bracket end: an exact non-negative rational of at most 4096 bits (a larger one is refused, so the Gaussian
    comparisons stay bounded)."""
    try:
        q = fraction(text)
    except (ValueError, ZeroDivisionError, TypeError):
        raise Refuted(f"{what} = {text!r} is not a rational") from None
    refute_unless(q >= 0, f"{what} = {text} is negative")
    refute_unless(q.numerator.bit_length() <= 4096 and q.denominator.bit_length() <= 4096, f"{what}: beyond 4096 bits")
    return q


def _no_finite(hull: list):
    """The vertex showing no finite ``mu`` exists (``f(0) < 1``; or ``f(a) = 0`` at an interior vertex), or None."""
    if _diff(hull[0][1], ONE) != 0:
        return hull[0]
    for a, b in hull:
        if sign(a) > 0 and _diff(a, ONE) < 0 and sign(b) == 0:
            return (a, b)
    return None


def _interior(hull: list) -> list:
    """The hull's interior vertices, those with ``0 < a < 1``: where ``f`` is compared with ``G_mu``."""
    return [(a, b) for a, b in hull if sign(a) > 0 and _diff(a, ONE) < 0]


def _check_mu(mu: dict, hull: list, P: _Phi) -> None:
    """Refute unless the stated ``mu`` bracket is the one the hull gives (step 3 of this module's docstring): no
    finite mu (the vertex showing it), ``mu* = 0`` (every interior vertex on ``1 - a``), else ``f >= G_hi`` at
    every interior vertex and, with ``lo > 0``, ``f < G_lo`` at the stated vertex. Comparing only at vertices
    suffices: between two vertices ``f`` is linear and ``G_mu`` convex, so ``f >= G_mu`` at both ends holds in
    between."""
    bad = _no_finite(hull)
    vert = (mu["a"], mu["b"])
    if bad is not None:
        refute_unless(mu["hi"] is None and mu["lo"] == "0" and mu["exact"] is False,
                      "the bracket is not the one of no finite mu")
        refute_unless(vert[0] is not None and vert[1] is not None and same(vert[0], bad[0]) and same(vert[1], bad[1]),
                      "the stated vertex is not the one showing that no finite mu exists")
        return
    refute_unless(mu["hi"] is not None, "no finite mu is claimed but f(0) = 1 and f > 0 inside")
    inner = _interior(hull)
    if len(inner) > MAX_MU_VERTICES:
        raise TooLarge(f"{len(inner):,} interior vertices > {MAX_MU_VERTICES:,}")
    zero = all(sign(_add(b, _add(a, Fraction(-1)))) == 0 for a, b in inner)
    refute_unless(mu["exact"] is zero, "the bracket's exactness is not what the vertices give")
    if zero:
        refute_unless(mu["lo"] == "0" and mu["hi"] == "0", "mu* = 0 exactly here")
        want = inner[0] if inner else None
        refute_unless((vert == (None, None)) if want is None else (vert[0] is not None and vert[1] is not None
                      and same(vert[0], want[0]) and same(vert[1], want[1])),
                      "the stated vertex is not the first interior one")
        return
    lo, hi = _rational(mu["lo"], "lo"), _rational(mu["hi"], "hi")
    refute_unless(lo <= hi, "lo > hi")
    for a, b in inner:
        refute_unless(_ge_gauss(P, a, b, hi), f"f < G_{hi} at a vertex: the upper end is not an upper bound on mu*")
    refute_unless(vert[0] is not None and vert[1] is not None, "no vertex attains the bracket")
    va, vb = value(vert[0]), value(vert[1])
    refute_unless(any(_diff(va, a) == 0 and _diff(vb, b) == 0 for a, b in inner),
                  "the stated vertex is not an interior vertex")
    if lo > 0:
        refute_unless(not _ge_gauss(P, va, vb, lo),
                      f"f >= G_{lo} at the stated vertex: the lower end is not below mu* there")


def _gdp_holds(hull: list, m: Fraction, P: _Phi) -> bool:
    """Is ``f >= G_m``, i.e. is the mechanism ``m``-GDP? False when no finite mu exists; else compared at every
    interior vertex (enough, as in :func:`_check_mu`), refusing more than ``MAX_MU_VERTICES`` of them."""
    if _no_finite(hull) is not None:
        return False
    inner = _interior(hull)
    if len(inner) > MAX_MU_VERTICES:
        raise TooLarge(f"{len(inner):,} interior vertices > {MAX_MU_VERTICES:,}")
    return all(_ge_gauss(P, a, b, m) for a, b in inner)


# ---------------------------------------------------------------------------------------------- check ----
def _trade_off_points(m: dict, rows: dict, ordered: list, K: int) -> tuple[dict, list]:
    """Each ordered pair's trade-off points (pairs with the same columns share them) and all distinct lists'
    points; the convolutions for ``K > 1`` counted first."""
    idx = {x: i for i, x in enumerate(m["inputs"])}
    codes = m["codes"]
    keys = {o: tuple(sorted(zip(codes[idx[o[0]]], codes[idx[o[1]]], strict=True))) for o in ordered}
    first: dict = {}
    for o, k in keys.items():
        first.setdefault(k, o)
    if K > 1:
        if len(first) > MAX_DISTINCT:
            raise TooLarge(f"{len(first):,} distinct pairs to convolve > {MAX_DISTINCT:,}")
        _precount({k: [(_pld(rows[o[0]], rows[o[1]]), K)] for k, o in first.items()}, {k: k for k in first})
    memo: dict = {}
    total = 0
    for k, o in first.items():
        pld = _pld(rows[o[0]], rows[o[1]])
        memo[k] = _points(*(pld if K == 1 else _convolve([(pld, K)])))
        total += len(memo[k])
        if total > MAX_POINTS:
            raise TooLarge(f"more than {MAX_POINTS:,} trade-off points")
    pts_of = {o: memo[k] for o, k in keys.items()}
    return pts_of, [p for pts in memo.values() for p in pts]


def _check_vertices(verts, hull: list, pts_of: dict) -> None:
    """The stated vertices are the hull's, each on the trade-off function of its stated ordered pair."""
    refute_unless(isinstance(verts, list) and len(verts) == len(hull),
                  f"the trade-off function has {len(hull)} vertices, "
                  f"not {len(verts) if isinstance(verts, list) else verts}")
    for k, (v, (a, b)) in enumerate(zip(verts, hull, strict=True)):
        refute_unless(same(v["a"], a) and same(v["b"], b), f"vertex {k} is not ({v['a']}, {v['b']})")
        tag = (v["x"], v["x_prime"])
        refute_unless(tag in pts_of, f"vertex {k}: ({tag[0]}, {tag[1]}) is not an ordered neighbouring pair")
        refute_unless(any(_diff(a, pa) == 0 and _diff(b, pb) == 0 for pa, pb in pts_of[tag]),
                      f"vertex {k} is not on the trade-off function of ({tag[0]}, {tag[1]})")


def _run(c: dict) -> int:
    """Re-check an fdp certificate (steps 1-4 of this module's docstring), the work counted and refused first (runs,
    cells, trade-off points); returns the number of facts checked."""
    ev = c["evidence"]
    m = ev["mechanism"]
    K = ev["times"]
    refute_unless(type(K) is int and K >= 1, f"times = {K!r} is not a positive integer")
    if K > MAX_TIMES:
        raise TooLarge(f"{K} runs (this kernel convolves up to {MAX_TIMES})")
    metric = ev["relation"]["metric"]
    n_in = len(m["inputs"])
    if n_in * len(m["outputs"]) > MAX_CELLS:
        raise TooLarge(f"{n_in} x {len(m['outputs'])} cells > {MAX_CELLS:,}")
    npairs = n_in * (n_in - 1) // 2 if metric is not None and metric.get("all_pairs_at") is not None \
        else len(ev["relation"]["pairs"])
    if 2 * npairs * (len(m["outputs"]) + 2) > MAX_POINTS:
        raise TooLarge(f"about {2 * npairs * (len(m['outputs']) + 2):,} trade-off points > {MAX_POINTS:,}")
    rows = _rows(m)
    pairs = _relation(ev["relation"], m["inputs"])
    refute_unless(len(pairs) >= 1, "no neighbouring pair")
    ordered = [o for x, xp in pairs for o in ((x, xp), (xp, x))]
    pts_of, allpts = _trade_off_points(m, rows, ordered, K)
    hull = _hull(allpts)
    _check_vertices(ev["vertices"], hull, pts_of)
    P = _Phi()
    _check_mu(ev["mu"], hull, P)
    q = ev["mu_query"]
    if q is None:
        refute_unless(c["verdict"] == "holds", "a statement of the trade-off function with a verdict other than holds")
    else:
        holds = _gdp_holds(hull, _rational(q, "mu"), P)
        refute_unless(c["verdict"] == ("holds" if holds else "fails"),
                      f"the verdict {c['verdict']!r} is not whether f >= G_{q}")
    return len(allpts)


def check(c: dict):
    """``(status, checked, detail)`` for an ``fdp`` certificate: the trade-off vertices and mu re-derived.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the facts re-derived, and why.

    Examples
    --------
    >>> check({"kind": "fdp", "evidence": {"mechanism": {"name": "RR"}, "times": 0}})
    ('refuted', 0, 'times = 0 is not a positive integer')
    """
    try:
        n = _run(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return CONFIRMED, n, (f"{len(c['evidence']['vertices'])} vertices of the lower hull re-derived from {n} trade-off "
                          "points; the Gaussian-DP bracket re-decided with enclosures of Phi"
                          + relation_note(c["evidence"]["relation"]))
