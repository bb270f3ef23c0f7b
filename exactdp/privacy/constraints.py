"""The privacy constraints of a mechanism over a metric, decided.

The distinct triples ``(a, b, d)`` of the constraints ``K(x)(z) <= e^(eps d) K(x')(z)`` are found by
:class:`~exactdp.privacy.triples.Triples` (the base class here); each is decided once.  Deciding a triple: an exact
zero on either side is settled exactly; the rest first meet a certified floating-point filter in the style of
CGAL's filtered predicates -- outward-rounded IEEE-754 enclosures of ``a``, ``b`` and ``e^(eps d)`` settle the
comparisons that are far from a tie -- and every comparison the filter cannot settle (in particular every exact
tie) is decided exactly by :meth:`exactdp.exact.level.Level.compare`.  In the byte-map mode the first decision
decides each new triple as it is found and keeps its status in the byte, so the same lookup counts the tight and
violated inequalities; a decision at another level counts them in one more pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from flint import arb, ctx, fmpq

from ..errors import Undecided
from ..exact.decide import arb_of, float_bounds, is_zero
from ..exact.filter import NEG, POS, UNKNOWN, ZERO, FilterStats, add, compare, enclose, mul_nonneg, resolve
from .triples import CHUNK, Triple, Triples, _Chunk, align

__all__ = ["Constraints", "Summary", "Triple", "align"]

#: the status of ``sign(a - e^(eps d) b)``: the filter's sign codes (:mod:`exactdp.exact.filter`)
SLACK, TIGHT, VIOLATED, UNDECIDED_STATUS = NEG, ZERO, POS, UNKNOWN
#: tight triples listed in a summary
MAX_LISTED = 10


@dataclass
class Summary:
    """What deciding every constraint at one level found (:meth:`Constraints.decide`).

    Parameters
    ----------
    violated : int
        Violated inequalities, counted with multiplicity.
    worst : Triple or None
        A violated triple with the largest float guide, if any.
    worst_guide : float
        Its guide ``log(a/b)/d`` (a guide only).
    tight : int
        Tight inequalities, counted with multiplicity.
    tight_distinct : int
        Distinct tight triples.
    tight_listed : list
        Up to ``MAX_LISTED`` tight triples.
    undecided : list
        ``(Triple, Undecided)`` pairs the exact path could not decide.
    stats : FilterStats
        What the float filter and the exact path did.

    Examples
    --------
    >>> Summary().violated, Summary().worst
    (0, None)
    """

    violated: int = 0
    worst: Triple | None = None
    worst_guide: float = -math.inf
    tight: int = 0
    tight_distinct: int = 0
    tight_listed: list = field(default_factory=list)
    undecided: list = field(default_factory=list)  # (Triple, Undecided)
    stats: FilterStats = field(default_factory=FilterStats)


class Constraints(Triples):
    """The constraint triples of ``mech`` over ``metric`` (streamed in chunks), decided.

    A triple ``(a, b, d)`` stands for every inequality ``P(x, z) <= e^(eps d) P(x', z)`` with ``x, x'`` a
    generating pair of the metric at distance ``d`` (both directions) whose entries have the value codes
    ``a, b``; each distinct triple is decided once.

    Parameters
    ----------
    mech : Mechanism
        The mechanism.
    metric : FiniteMetric
        A metric on its inputs.
    chunk : int, optional
        Inequalities per chunk (bounds the memory of one pass).

    Examples
    --------
    The GRS12 geometric mechanism at ``alpha = 1/2`` on ``{0, 1, 2}``: its 12 inequalities have 4 distinct value
    pairs, ``(2/3, 1/3)`` and ``(1/3, 2/3)`` twice each, ``(1/3, 1/6)`` and ``(1/6, 1/3)`` four times each; at
    ``e^eps = 2`` the 6 with ratio 2 are tight, at ``e^eps = 3/2`` violated:

    >>> from exactdp import Mechanism
    >>> from exactdp.exact import Level
    >>> from exactdp.metrics import path
    >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
    >>> C = Constraints(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
    >>> C.distinct()
    4
    >>> S = C.decide(Level.from_alpha("1/2"))
    >>> S.violated, S.tight, S.tight_distinct
    (0, 6, 2)
    >>> C.decide(Level.from_alpha("2/3")).violated
    6
    """

    def __init__(self, mech, metric, chunk: int = CHUNK):
        super().__init__(mech, metric, chunk)
        self._decided: tuple | None = None  # (level key, Summary) of the last decision
        self._factors: dict
        self._factors, self._factors_level = {}, None  # e^(eps d) per distance code, at one level

    # -- deciding as the triples are found -------------------------------------------
    def _decider(self, V, ND, level, tables, cache):
        """Decide fresh forward keys ``u`` and their reverses: the code ``(s + 1) + 4 (s' + 1)`` of each (its
        status ``s`` and its reverse's ``s'``).  A reverse already seen as a forward key holds both statuses in
        its byte; the others are decided once each (exact decisions shared through ``cache``)."""
        def decide(u, seen):
            a, rest = np.divmod(u, V * ND)
            b, d = np.divmod(rest, ND)
            r = (b * V + a) * ND + d
            prev = np.take(seen, r).astype(np.int64) - 1  # code of the reverse when seen: it has both statuses
            own, rev = (prev >> 2) - 1, (prev & 3) - 1
            new = prev < 0
            if new.any():
                T = np.unique(np.concatenate([u[new], r[new]]))
                A, rest = np.divmod(T, V * ND)
                ch = _Chunk(A=A, B=rest // ND, DC=rest % ND, first=np.zeros(len(T), dtype=np.int64), counts=None)
                status = self._statuses(ch, level, tables, cache, Summary(), None)
                own[new] = status[np.searchsorted(T, u[new])]
                rev[new] = status[np.searchsorted(T, r[new])]
            return ((own + 1) + 4 * (rev + 1)).astype(np.uint8)
        return decide

    def _multiplicities(self, ch, status):
        """``(violated, tight)`` inequality counts of a chunk without multiplicities: one pass over the
        forward keys, each looked up in a byte map holding the status of the triple and of its reverse."""
        f, r = status[ch.fwd_at], status[ch.rev_at]
        nt = (f == TIGHT).astype(np.uint8) + (r == TIGHT)  # per forward key: tight ones among it and its reverse
        nv = (f == VIOLATED).astype(np.uint8) + (r == VIOLATED)
        has_t, has_v = bool(nt.any()), bool(nv.any())
        both = has_t and has_v
        V = max(len(self.mech.values), 1)
        ND = max(len(self.dvals), 1)
        smap = np.zeros(V * V * ND, dtype=np.uint8)
        smap[ch.fwd] = nt + 4 * nv if both else (nt if has_t else nv)  # both: bits 0-1 tight, 2-3 violated
        tight = violated = 0
        keys = self._keys if self._keys is not None else (self._forward_keys(p0, p1, V, ND) for p0, p1 in self._spans())
        for k in keys:
            g = np.take(smap, k)
            if both:
                tight += int(np.sum(g & 3, dtype=np.int64))
                violated += int(np.sum(g >> 2, dtype=np.int64))
            elif has_t:
                tight += int(np.sum(g, dtype=np.int64))
            else:
                violated += int(np.sum(g, dtype=np.int64))
        return violated, tight

    # -- numeric guides ------------------------------------------------------------
    def value_tables(self):
        """Tabulate exact zero flags, outward float bounds and float log guides per distinct value.

        Returns
        -------
        tuple of numpy.ndarray
            ``(zero, lo, hi, log_guide, distance_guide)``: per value code, whether it is exactly 0, floats
            ``lo <= v <= hi``, a float estimate of ``log v``; per distance code a float estimate of ``d``.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.exact import Level
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> C = Constraints(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> zero, lo, hi, lg, dl = C.value_tables()
        >>> zero.tolist(), [bool(a < v < b) for a, v, b in zip(lo, [2 / 3, 1 / 6, 1 / 3], hi)]
        ([False, False, False], [True, True, True])
        """
        if not hasattr(self, "_vt"):
            vals = self.mech.values
            n = len(vals)
            zero = np.zeros(n, dtype=bool)
            lg = np.full(n, -np.inf)
            vb: list[tuple[float, float]] = []  # the ends of a 64-bit Arb ball of each value, moved outward below
            logb = [(math.nan, math.nan)] * n  # the same of log v, for the positive rationals (found on the way)
            with ctx.workprec(64):
                for c, v in enumerate(vals):
                    if type(v) is fmpq:  # one Arb ball serves both filters and the guide
                        if not v:
                            zero[c] = True
                            vb.append((0.0, 0.0))
                            continue
                        ball = arb(v)
                        vb.append((float(ball.lower()), float(ball.upper())))
                        if v.p > 0:
                            L = ball.log()
                            logb[c] = (float(L.lower()), float(L.upper()))
                            # the guide as before (it picks the reported violation among equal ratios)
                            lg[c] = math.log(int(v.p)) - math.log(int(v.q))
                        continue
                    zero[c] = is_zero(v)
                    lo_c, hi_c = float_bounds(v)  # already outward: moving it once more only widens it
                    vb.append((lo_c, hi_c))
                    if not zero[c]:
                        lg[c] = _log_guide(v)
            lo, hi = enclose(vb, _ends)
            dl = np.array([_float_mid(d) for d in self.dvals]) if self.dvals else np.zeros(0)
            self._vt = (zero, lo, hi, lg, dl)
            self._rational_logs = logb
        return self._vt

    def log_tables(self):
        """Bound ``log v`` outward in floats per distinct nonzero value (NaN for 0).

        The filter in log space, which values far below the float range (e.g. 2^-4000) cannot underflow.

        Returns
        -------
        tuple of numpy.ndarray
            ``(lo, hi)`` per value code.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.exact import Level
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> C = Constraints(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> lo, hi = C.log_tables()
        >>> bool(lo[0] <= math.log(2 / 3) <= hi[0]), bool(hi[1] < lo[2])      # log(1/6) < log(1/3)
        (True, True)
        """
        if not hasattr(self, "_lt"):
            zero = self.value_tables()[0]
            rational_logs = self._rational_logs

            def bounds(c):
                v = self.mech.values[c]
                if zero[c] or type(v) is fmpq:  # the rationals' were found with their values
                    return rational_logs[c]
                b = arb_of(v)
                if not b > 0:
                    return math.nan, math.nan
                lb = b.log()
                return float(lb.lower()), float(lb.upper())

            with ctx.workprec(64):
                llo, lhi = enclose(range(len(zero)), bounds)
            self._lt = (llo, lhi)
        return self._lt

    def _eps_d_bounds(self, level):
        """Outward float bounds of ``eps d`` per distance (the log-space filter's right-hand side), per level."""
        if getattr(self, "_edb", (None,))[0] is not level:
            def bounds(d):
                e = level.eps_arb() * arb_of(d)
                return float(e.lower()), float(e.upper())

            with ctx.workprec(80):
                self._edb = (level, *enclose(self.dvals, bounds))
        return self._edb[1:]

    def _guide(self, ch, idx=None) -> np.ndarray:
        """Float estimates of ``log(a/b)/d`` (of the triples ``idx`` only, when given): a guide, never a proof."""
        A, B, DC = (ch.A, ch.B, ch.DC) if idx is None else (ch.A[idx], ch.B[idx], ch.DC[idx])
        zero, _, _, lg, dl = self.value_tables()
        with np.errstate(invalid="ignore", divide="ignore"):
            g = (lg[A] - lg[B]) / dl[DC]
        g[zero[A]] = -np.inf
        g[zero[B] & ~zero[A]] = np.inf
        return g

    def best_guess(self):
        """Find the triple with the largest float estimate of ``log(a/b)/d`` (a guide only).

        Returns
        -------
        tuple
            The triple (``None`` without constraints) and its float estimate.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.exact import Level
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> C = Constraints(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> t, guide = C.best_guess()
        >>> C.locate(t), bool(abs(guide - math.log(2)) < 1e-12)
        (('0', '1', '0', 1), True)
        """
        best, bg = None, -math.inf
        for ch in self.chunks():
            if not len(ch.A):
                continue
            g = self._guide(ch)
            k = int(np.argmax(g))
            if best is None or g[k] > bg:
                best, bg = Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k])), g[k]
        return best, bg

    def one_sided_zero(self):
        """Find a triple with ``a > 0 = b`` (an infinite ratio: private for no eps).

        Returns
        -------
        Triple or None
            One such triple, or ``None``.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.metrics import path
        >>> M = Mechanism.from_rows(["0", "1"], ["a", "b"], [["1", "0"], ["1/2", "1/2"]])
        >>> C = Constraints(M, path(2))
        >>> C.locate(C.one_sided_zero())
        ('1', '0', 'b', 1)
        """
        zero = self.value_tables()[0]
        for ch in self.chunks():
            idx = np.nonzero(~zero[ch.A] & zero[ch.B])[0]
            if len(idx):
                k = int(idx[0])
                return Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k]))
        return None

    # -- deciding ----------------------------------------------------------------
    def _factor_bounds(self, level):
        """Outward float bounds of ``e^(eps d)`` per distance (``[0, inf]`` when beyond the float range)."""
        def bounds(d):
            e = level.factor_arb(d)
            return (float(e.lower()), float(e.upper())) if e.is_finite() else (0.0, math.inf)

        with ctx.workprec(80):
            return enclose(self.dvals, bounds)

    def decide(self, level, progress=None) -> Summary:
        """Decide every constraint at ``level``.

        The last decision is kept: deciding the same rational level again (e.g. the smallest-eps search landing
        on the level just certified) returns it.

        Parameters
        ----------
        level : Level
            The level ``eps``.
        progress : callable, optional
            Called as ``progress(stage, done, total)`` while the work goes on (the library itself prints
            nothing).

        Returns
        -------
        Summary
            Violated and tight counts, the worst violation, the undecided triples and the filter's counts.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.exact import Level
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> C = Constraints(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> S = C.decide(Level.from_alpha("1/2"))
        >>> S.violated, S.tight, S.stats.compared, C.decide(Level.from_alpha("1/2")) is S
        (0, 6, 4, True)
        """
        key = _level_key(level)
        if key is not None and self._decided is not None and self._decided[0] == key:
            return self._decided[1]
        tables = self.value_tables()[:3] + self._factor_bounds(level)
        S = Summary()
        cache: dict = {}  # exact decisions shared across chunks, for this level only
        chunks, counted = self._first_decision(level, tables, cache, progress)
        n_chunks = 0
        for ch in chunks if chunks is not None else self.chunks(progress):
            n_chunks += 1
            status = self._statuses(ch, level, tables, cache, S, progress)
            self._tally(ch, status, S, counted)
        if n_chunks == 1:  # a streamed pass counts distinct triples per chunk: not kept
            self._decided = (key, S)
        return S

    def _first_decision(self, level, tables, cache, progress):
        """``([chunk], (violated, tight))`` when the byte-map pass can decide while it deduplicates (the
        triples not found yet, bitmap mode), else ``(None, None)``; the statuses of the chunk's triples are
        then in ``cache`` or settled again by the (cheap, vectorised) filters."""
        if self._cached is not None or self._complete or not self._bitmap_mode():
            return None, None
        V, ND = max(len(self.mech.values), 1), max(len(self.dvals), 1)
        ch, counted = self._bitmap_chunk(V, ND, progress, self._decider(V, ND, level, tables, cache), _counted)
        self._cached = [ch]
        return [ch], counted

    def _statuses(self, ch, level, tables, cache, S, progress):
        """The status of each triple of ``ch``: exact zeros first, then the certified float filter
        (:mod:`exactdp.exact.filter`: ``a`` against ``e^(eps d) b``, then ``log a`` against ``log b + eps d``,
        which values far below the float range cannot underflow), then :meth:`_compare` for the rest.
        Undecided ones are recorded in ``S.undecided``; the counts go to ``S.stats``."""
        zero, lo, hi, elo, ehi = tables
        status = np.full(len(ch.A), UNDECIDED_STATUS, dtype=np.int8)
        za, zb = zero[ch.A], zero[ch.B]
        status[za] = SLACK  # 0 <= anything (0 = 0 when both vanish)
        status[~za & zb] = VIOLATED  # a positive value against zero
        n_zero = int((za | zb).sum())
        S.stats.compared += n_zero
        S.stats.zero += n_zero
        rest = np.nonzero(~za & ~zb)[0]
        a, b, dc = ch.A[rest], ch.B[rest], ch.DC[rest]
        st = compare(lo[a], hi[a], *mul_nonneg(elo[dc], ehi[dc], lo[b], hi[b]))
        left = np.nonzero(st == UNKNOWN)[0]
        if len(left):
            llo, lhi = self.log_tables()
            plo, phi = self._eps_d_bounds(level)
            al, bl, dl = a[left], b[left], dc[left]
            st[left] = compare(llo[al], lhi[al], *add(llo[bl], lhi[bl], plo[dl], phi[dl]))
        status[rest] = resolve(st, lambda idx: self._decide_exact(ch, rest[idx], level, cache, S, progress),
                               S.stats)
        return status

    def _decide_exact(self, ch, todo, level, cache, S, progress):
        """Exact statuses (:meth:`Level.compare`) of the triples ``todo`` of ``ch``; undecided ones are
        recorded in ``S.undecided``.  Keys are plain ints (few GC-tracked objects: a collection would walk
        whatever large structures the caller holds)."""
        V, ND = max(len(self.mech.values), 1), max(len(self.dvals), 1)
        out = []
        for i, (a, b, dc) in enumerate(zip(ch.A[todo].tolist(), ch.B[todo].tolist(), ch.DC[todo].tolist(),
                                           strict=True)):
            key = (a * V + b) * ND + dc
            s = cache.get(key)
            if s is None:
                s = cache[key] = self._compare(a, b, dc, level)
            if isinstance(s, Undecided):
                S.undecided.append((Triple(int(ch.first[todo[i]]), a, b, dc), s))
                s = UNDECIDED_STATUS
            out.append(s)
            if progress is not None and i % 4096 == 4095:
                progress("exact comparisons", i + 1, len(todo))
        return out

    def _compare(self, a, b, dc, level):
        """The status of triple ``(a, b, dc)`` decided exactly (an :class:`Undecided` when no regime applies);
        ``e^(eps d)`` is looked up once per distance, and when it and both values are rational the comparison
        is one exact comparison of integer products (no gcd)."""
        va, vb = self.mech.values[a], self.mech.values[b]
        E = self._factors.get(dc, False) if self._factors_level is level else False
        if E is False:
            if self._factors_level is not level:
                self._factors, self._factors_level = {}, level
            E = self._factors[dc] = level.factor(self.dvals[dc])
        try:
            if type(E) is fmpq and type(va) is fmpq and type(vb) is fmpq:
                # sign(va - E vb) times the positive denominators: integer products, no gcd
                lhs, rhs = va.p * vb.q * E.q, E.p * vb.p * va.q
                c = (lhs > rhs) - (lhs < rhs)
            else:
                c = level.compare(va, vb, self.dvals[dc])
        except Undecided as e:
            return e
        return VIOLATED if c > 0 else (TIGHT if c == 0 else SLACK)

    def _tally(self, ch, status, S, counted=None):
        """Add a chunk's violated and tight inequalities (with multiplicity, ``counted`` when known) and its
        witnesses to ``S``."""
        vi = np.nonzero(status == VIOLATED)[0]
        ti = np.nonzero(status == TIGHT)[0]
        if counted is not None:
            n_viol, n_tight = counted
        elif ch.counts is not None:
            n_viol, n_tight = int(ch.counts[vi].sum()), int(ch.counts[ti].sum())
        elif len(vi) or len(ti):
            n_viol, n_tight = self._multiplicities(ch, status)
        else:
            n_viol = n_tight = 0
        S.violated += n_viol
        S.tight += n_tight
        if len(vi):
            g = self._guide(ch, vi)
            j = int(np.argmax(g))
            if S.worst is None or g[j] > S.worst_guide:
                k = int(vi[j])
                S.worst = Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k]))
                S.worst_guide = g[j]
        S.tight_distinct += len(ti)
        if len(S.tight_listed) < MAX_LISTED:
            # one per distinct triple (chunks of the sorted mode may repeat a triple): the re-check derives the
            # listed count as min(MAX_LISTED, distinct tight triples)
            have = {(t.a, t.b, t.dc) for t in S.tight_listed}
            for k in ti.tolist():
                t = Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k]))
                if (t.a, t.b, t.dc) not in have:
                    have.add((t.a, t.b, t.dc))
                    S.tight_listed.append(t)
                    if len(S.tight_listed) == MAX_LISTED:
                        break


def _counted(c):
    """``(violated, tight)`` among a forward key and its reverse, from the decider's code ``c``."""
    s, s_rev = (c & 3) - 1, (c >> 2) - 1
    return (s == VIOLATED) + (s_rev == VIOLATED), (s == TIGHT) + (s_rev == TIGHT)


def _level_key(level):
    """An exact key of a rational level ``log(R)/D`` (None for the others: they are not reused)."""
    if isinstance(level.R, fmpq) and isinstance(level.D, fmpq):
        return (int(level.R.p), int(level.R.q), int(level.D.p), int(level.D.q))
    return None


def _ends(pair):
    """The pair itself: :func:`~exactdp.exact.filter.enclose` moves each end one float outward."""
    return pair


def _log_guide(v) -> float:
    if isinstance(v, fmpq):
        return math.log(int(v.p)) - math.log(int(v.q))
    with ctx.workprec(64):
        b = arb_of(v)
        return float(b.log().mid()) if b > 0 else -math.inf


def _float_mid(d) -> float:
    lo, hi = float_bounds(d)
    return (lo + hi) / 2
