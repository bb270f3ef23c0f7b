"""The privacy constraints of a mechanism over a metric, deduplicated and decided.

For a mechanism ``K`` and a metric with generating pairs ``(x, x', d)``, the
constraints are ``K(x)(z) <= e^(eps d) K(x')(z)`` in both directions, for every
output ``z``.  They are grouped into *triples* ``(a, b, d)`` of value codes and
distance; identical triples are decided once.  Large problems are streamed in
chunks of pairs so memory stays bounded; exact decisions are cached across
chunks.

Deciding a triple: an exact zero on either side is settled exactly; the rest
first meet a certified floating-point filter in the style of CGAL's filtered
predicates -- outward-rounded IEEE-754 enclosures of ``a``, ``b`` and
``e^(eps d)`` settle the comparisons that are far from a tie -- and every
comparison the filter cannot settle (in particular every exact tie) is decided
exactly by :meth:`exactdp.exact.level.Level.compare`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from flint import ctx

from ..errors import LabelMismatch, Undecided
from ..exact.decide import arb_of, float_bounds, is_zero

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["Constraints", "Triple", "Summary", "align"]

SLACK, TIGHT, VIOLATED, UNDECIDED_STATUS = -1, 0, 1, 2
#: inequalities per chunk (both directions); bounds memory to a few hundred MiB
CHUNK = 3_000_000
MAX_LISTED = 10
#: largest key space ``V^2 ND`` (values squared times distances) merged across chunks without sorting
MAX_KEYS = 1 << 24


def align(mech: Mechanism, metric: FiniteMetric) -> np.ndarray:
    """Row index in ``mech`` of each metric point (labels compared as strings)."""
    pts, ins = set(metric.points), set(mech.inputs)
    if pts != ins:
        only_m = sorted(ins - pts)[:3]
        only_d = sorted(pts - ins)[:3]
        raise LabelMismatch(
            f"mechanism inputs and metric points differ: {len(mech.inputs)} inputs vs {len(metric.points)} points; "
            f"only in the mechanism: {only_m}, only in the metric: {only_d}; hint: labels are compared as strings")
    return np.array([mech.row_index[p] for p in metric.points], dtype=np.int64)


@dataclass(frozen=True)
class Triple:
    """One constraint ``values[a] <= e^(eps d) values[b]``; ``flat`` locates one occurrence."""

    flat: int
    a: int
    b: int
    dc: int


@dataclass
class Summary:
    """What deciding every constraint at one level found."""

    violated: int = 0
    worst: Triple | None = None
    worst_guide: float = -math.inf
    tight: int = 0
    tight_distinct: int = 0
    tight_listed: list = field(default_factory=list)
    undecided: list = field(default_factory=list)  # (Triple, Undecided)
    stats: dict = field(default_factory=lambda: {"comparisons": 0, "filtered": 0, "exact": 0, "zero": 0})


@dataclass
class _Chunk:
    A: np.ndarray
    B: np.ndarray
    DC: np.ndarray
    first: np.ndarray
    counts: np.ndarray


class Constraints:
    """The constraint triples of ``mech`` over ``metric`` (streamed in chunks)."""

    def __init__(self, mech, metric, chunk: int = CHUNK):
        self.mech, self.metric = mech, metric
        perm = align(mech, metric)
        self.n_outputs = len(mech.outputs)
        n = len(metric)
        if metric.params.get("kind") == "discrete" and n >= 2:
            # the discrete metric's generating pairs are all (i, j), i < j, in this order, at one distance:
            # built with numpy instead of n (n - 1) / 2 Python tuples
            self._raw_i, self._raw_j = (a.astype(np.int64) for a in np.triu_indices(n, 1))
            self.dvals = [metric.d(0, 1)]
            self.DC = np.zeros(len(self._raw_i), dtype=np.int64)
            self.pair_points = None
        else:
            pairs = metric.generating_pairs()
            dvals, dc_list = _distance_codes([p[2] for p in pairs])
            ij = np.array([p[:2] for p in pairs], dtype=np.int64).reshape(-1, 2)
            self._raw_i, self._raw_j = ij[:, 0], ij[:, 1]
            self.dvals, self.DC = dvals, np.array(dc_list, dtype=np.int64)
            self.pair_points = pairs
        self.n_pairs = len(self._raw_i)
        self.I, self.J = perm[self._raw_i], perm[self._raw_j]
        self.total = 2 * self.n_pairs * self.n_outputs
        self.pairs_per_chunk = max(1, chunk // max(2 * self.n_outputs, 1))
        self._cached = None
        self._perm = perm
        self._complete = self._is_complete()

    # -- chunks --------------------------------------------------------------------
    def _is_complete(self) -> bool:
        """Every pair of points is a generating pair, all at one distance, listed in lexicographic order."""
        n = len(self.metric)
        if len(self.dvals) != 1 or self.n_pairs != n * (n - 1) // 2 or n < 2:
            return False
        i, j = np.triu_indices(n, 1)
        return bool(np.array_equal(self._raw_i, i) and np.array_equal(self._raw_j, j))

    def _complete_chunk(self):
        """The distinct triples when every pair is at the same distance (e.g. the discrete metric).

        Each output column ``z`` contributes, for two value codes ``a, b`` occurring ``k_a, k_b`` times in it,
        the triple ``(a, b)`` with multiplicity ``k_a k_b`` (``k_a (k_a - 1)`` when ``a = b``): every ordered
        pair of distinct rows is constrained.  Computed from per-column value counts (keys bounded integers),
        never from the ``n (n - 1) m`` inequalities; returns None when the columns hold too many distinct
        values for this to be cheaper.
        """
        n, m = len(self.metric), self.n_outputs
        V = max(len(self.mech.values), 1)
        C = self.mech.codes[self._perm].astype(np.int64)          # row i = metric point i
        keys = (np.arange(m, dtype=np.int64)[None, :] * V + C).ravel(order="F")  # column-major: z, then row
        order = np.argsort(keys, kind="stable")
        sk = keys[order]
        starts = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
        cnt = np.diff(np.r_[starts, len(sk)])
        row1 = order[starts] % n
        row2 = np.where(cnt > 1, order[np.minimum(starts + 1, len(sk) - 1)] % n, -1)
        z = sk[starts] // V
        code = sk[starts] % V
        per_col = np.bincount(z, minlength=m)
        if int((per_col.astype(np.int64) ** 2).sum()) > 4 * CHUNK:
            return None
        col_start = np.r_[0, np.cumsum(per_col)[:-1]]
        # all (s, t) pairs of groups within each column
        rep = np.repeat(np.arange(len(z)), per_col[z])
        off = np.arange(len(rep)) - np.repeat(np.r_[0, np.cumsum(per_col[z])[:-1]], per_col[z])
        s_idx, t_idx = rep, col_start[z[rep]] + off
        same = s_idx == t_idx
        keep = ~same | (cnt[s_idx] > 1)
        s_idx, t_idx, same = s_idx[keep], t_idx[keep], same[keep]
        mult = np.where(same, cnt[s_idx] * (cnt[s_idx] - 1), cnt[s_idx] * cnt[t_idx])
        xi = row1[s_idx]
        xj = np.where(same, row2[s_idx], row1[t_idx])
        lo, hi = np.minimum(xi, xj), np.maximum(xi, xj)
        p = lo * (2 * n - lo - 1) // 2 + (hi - lo - 1)
        flat = (xi > xj) * (self.n_pairs * m) + p * m + z[s_idx]
        tk = code[s_idx] * V + code[t_idx]
        uniq, inv = np.unique(tk, return_inverse=True)
        counts = np.bincount(inv.ravel(), weights=None, minlength=len(uniq)).astype(np.int64) * 0
        np.add.at(counts, inv.ravel(), mult)
        first = np.zeros(len(uniq), dtype=np.int64)
        first[inv.ravel()[::-1]] = flat[::-1]
        return _Chunk(A=uniq // V, B=uniq % V, DC=np.zeros(len(uniq), dtype=np.int64), first=first,
                      counts=counts)

    def _chunk_keys(self, p0, p1, V, ND):
        ca = self.mech.codes[self.I[p0:p1]].astype(np.int64)
        cb = self.mech.codes[self.J[p0:p1]].astype(np.int64)
        dc = self.DC[p0:p1, None]
        return np.concatenate([((ca * V + cb) * ND + dc).ravel(), ((cb * V + ca) * ND + dc).ravel()])

    def _merged_chunk(self, V, ND):
        """All distinct triples at once, streamed over chunks of pairs and keyed by bounded integers (no sort):
        counts and one occurrence per key ``(a V + b) ND + d`` in arrays of ``V^2 ND <= MAX_KEYS`` entries."""
        K = V * V * ND
        counts = np.zeros(K, dtype=np.int64)
        first = np.zeros(K, dtype=np.int64)
        P, m = self.n_pairs, self.n_outputs
        for p0 in range(0, P, self.pairs_per_chunk):
            p1 = min(P, p0 + self.pairs_per_chunk)
            keys = self._chunk_keys(p0, p1, V, ND)
            counts += np.bincount(keys, minlength=K)
            half = (p1 - p0) * m
            pos = np.arange(len(keys), dtype=np.int64)
            direction = pos >= half
            # any occurrence of each key will do: fancy assignment keeps one of the writes
            first[keys] = direction * (P * m) + p0 * m + np.where(direction, pos - half, pos)
            del keys, pos, direction
        uniq = np.flatnonzero(counts)
        return _Chunk(A=(uniq // ND) // V, B=(uniq // ND) % V, DC=uniq % ND, first=first[uniq], counts=counts[uniq])

    def chunks(self):
        """Distinct triples per chunk of pairs (cached when they fit in one chunk, or were merged)."""
        if self._cached is not None:
            yield from self._cached
            return
        if self._complete:
            ch = self._complete_chunk()
            if ch is not None:
                self._cached = [ch]
                yield ch
                return
        V = max(len(self.mech.values), 1)
        ND = max(len(self.dvals), 1)
        if self.n_pairs > self.pairs_per_chunk and V * V * ND <= MAX_KEYS:
            ch = self._merged_chunk(V, ND)
            self._cached = [ch]
            yield ch
            return
        out = []
        P, m = self.n_pairs, self.n_outputs
        for p0 in range(0, self.n_pairs, self.pairs_per_chunk):
            p1 = min(self.n_pairs, p0 + self.pairs_per_chunk)
            keys = self._chunk_keys(p0, p1, V, ND)
            uniq, first, counts = _dedupe(keys)
            del keys
            half = (p1 - p0) * m
            direction = first >= half
            local = np.where(direction, first - half, first)
            flat = direction * (P * m) + p0 * m + local
            out.append((uniq, flat, counts))
            yield _Chunk(A=(uniq // ND) // V, B=(uniq // ND) % V, DC=uniq % ND, first=flat, counts=counts)
        # keep the distinct triples of all chunks, merged, for the next pass (no re-deduplication)
        if not out:
            self._cached = []
            return
        uniq = np.concatenate([u for u, _, _ in out])
        flat = np.concatenate([f for _, f, _ in out])
        counts = np.concatenate([c for _, _, c in out])
        u2, inv = np.unique(uniq, return_inverse=True)
        inv = inv.ravel()
        c2 = np.zeros(len(u2), dtype=np.int64)
        np.add.at(c2, inv, counts)
        f2 = np.zeros(len(u2), dtype=np.int64)
        f2[inv] = flat
        self._cached = [_Chunk(A=(u2 // ND) // V, B=(u2 // ND) % V, DC=u2 % ND, first=f2, counts=c2)]

    def distinct(self) -> int:
        """Number of distinct triples (exact when there is one chunk; an upper bound otherwise)."""
        return sum(len(c.A) for c in self.chunks())

    def locate(self, t: Triple):
        """``(x, x', z, d)`` for a triple's recorded occurrence."""
        P, m = self.n_pairs, self.n_outputs
        direction, rest = divmod(int(t.flat), P * m)
        p, z = divmod(rest, m)
        i, j = int(self._raw_i[p]), int(self._raw_j[p])
        d = self.dvals[int(self.DC[p])]
        pts = self.metric.points
        x, xp = (pts[i], pts[j]) if direction == 0 else (pts[j], pts[i])
        return x, xp, self.mech.outputs[z], d

    # -- numeric guides ------------------------------------------------------------
    def value_tables(self):
        """Exact zero flags, outward float bounds and float log guides per distinct value."""
        if not hasattr(self, "_vt"):
            vals = self.mech.values
            zero = np.array([is_zero(v) for v in vals], dtype=bool)
            lo = np.empty(len(vals))
            hi = np.empty(len(vals))
            lg = np.full(len(vals), -np.inf)
            for c, v in enumerate(vals):
                lo[c], hi[c] = float_bounds(v)
                if not zero[c]:
                    lg[c] = _log_guide(v)
            dl = np.array([_float_mid(d) for d in self.dvals]) if self.dvals else np.zeros(0)
            self._vt = (zero, lo, hi, lg, dl)
        return self._vt

    def log_tables(self):
        """Outward float bounds of ``log v`` per distinct nonzero value (NaN for 0): the filter in log space,
        which values far below the float range (e.g. 2^-4000) cannot underflow."""
        if not hasattr(self, "_lt"):
            zero = self.value_tables()[0]
            llo = np.full(len(zero), np.nan)
            lhi = np.full(len(zero), np.nan)
            with ctx.workprec(64):
                for c, v in enumerate(self.mech.values):
                    if not zero[c]:
                        b = arb_of(v)
                        if b > 0:
                            lb = b.log()
                            llo[c] = math.nextafter(float(lb.lower()), -math.inf)
                            lhi[c] = math.nextafter(float(lb.upper()), math.inf)
            self._lt = (llo, lhi)
        return self._lt

    def _log_filter(self, ch, idx, level):
        """``(slack, violated)`` masks over ``idx``, decided by outward-rounded bounds of
        ``log a - log b - eps d`` (each float operation rounded to nearest, then widened one ulp outward)."""
        llo, lhi = self.log_tables()
        elo = np.empty(len(self.dvals))
        ehi = np.empty(len(self.dvals))
        with ctx.workprec(80):
            for c, d in enumerate(self.dvals):
                e = level.eps_arb() * arb_of(d)
                elo[c] = math.nextafter(float(e.lower()), -math.inf)
                ehi[c] = math.nextafter(float(e.upper()), math.inf)
        a, b, dc = ch.A[idx], ch.B[idx], ch.DC[idx]
        with np.errstate(invalid="ignore"):
            up = np.nextafter(np.nextafter(lhi[a] - llo[b], np.inf) - elo[dc], np.inf)
            dn = np.nextafter(np.nextafter(llo[a] - lhi[b], -np.inf) - ehi[dc], -np.inf)
        return up < 0, dn > 0

    def _guide(self, ch) -> np.ndarray:
        zero, _, _, lg, dl = self.value_tables()
        with np.errstate(invalid="ignore", divide="ignore"):
            g = (lg[ch.A] - lg[ch.B]) / dl[ch.DC]
        g[zero[ch.A]] = -np.inf
        g[zero[ch.B] & ~zero[ch.A]] = np.inf
        return g

    def best_guess(self):
        """The triple with the largest float estimate of ``log(a/b)/d`` (a guide only)."""
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
        """A triple with ``a > 0 = b`` (infinite ratio), or ``None``."""
        zero = self.value_tables()[0]
        for ch in self.chunks():
            idx = np.nonzero(~zero[ch.A] & zero[ch.B])[0]
            if len(idx):
                k = int(idx[0])
                return Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k]))
        return None

    # -- deciding ----------------------------------------------------------------
    def _factor_bounds(self, level):
        elo = np.empty(len(self.dvals))
        ehi = np.empty(len(self.dvals))
        with ctx.workprec(80):
            for c, d in enumerate(self.dvals):
                e = level.factor_arb(d)
                if e.is_finite():
                    elo[c] = math.nextafter(float(e.lower()), -math.inf)
                    ehi[c] = math.nextafter(float(e.upper()), math.inf)
                else:  # pragma: no cover - astronomically large exponents
                    elo[c], ehi[c] = 0.0, math.inf
        return elo, ehi

    def decide(self, level) -> Summary:
        """Decide every constraint at ``level``; see :class:`Summary`."""
        zero, lo, hi, _, _ = self.value_tables()
        elo, ehi = self._factor_bounds(level)
        S = Summary()
        vals = self.mech.values
        cache: dict = {}  # exact decisions shared across chunks, for this level only
        for ch in self.chunks():
            n = len(ch.A)
            status = np.full(n, UNDECIDED_STATUS, dtype=np.int8)
            za, zb = zero[ch.A], zero[ch.B]
            status[za] = SLACK  # 0 <= anything (0 = 0 when both vanish)
            status[~za & zb] = VIOLATED  # a positive value against zero
            rest = ~za & ~zb
            with np.errstate(over="ignore", invalid="ignore"):
                prod_lo = np.nextafter(elo[ch.DC] * lo[ch.B], -np.inf)
                prod_hi = np.nextafter(ehi[ch.DC] * hi[ch.B], np.inf)
            slack = rest & (hi[ch.A] < prod_lo)
            viol = rest & (lo[ch.A] > prod_hi)
            status[slack] = SLACK
            status[viol] = VIOLATED
            todo = np.nonzero(rest & ~slack & ~viol)[0]
            if len(todo):
                ls, lv = self._log_filter(ch, todo, level)
                status[todo[ls]] = SLACK
                status[todo[lv]] = VIOLATED
                slack[todo[ls]] = True
                viol[todo[lv]] = True
                todo = todo[~ls & ~lv]
            for k in todo.tolist():
                key = (int(ch.A[k]), int(ch.B[k]), int(ch.DC[k]))
                s = cache.get(key)
                if s is None:
                    try:
                        c = level.compare(vals[key[0]], vals[key[1]], self.dvals[key[2]])
                        s = VIOLATED if c > 0 else (TIGHT if c == 0 else SLACK)
                    except Undecided as e:
                        s = e
                    cache[key] = s
                if isinstance(s, Undecided):
                    S.undecided.append((Triple(int(ch.first[k]), *key), s))
                    status[k] = UNDECIDED_STATUS
                else:
                    status[k] = s
            S.stats["comparisons"] += n
            S.stats["exact"] += len(todo)
            S.stats["zero"] += int((za | zb).sum())
            S.stats["filtered"] += int((slack | viol).sum())
            vi = np.nonzero(status == VIOLATED)[0]
            if len(vi):
                S.violated += int(ch.counts[vi].sum())
                g = self._guide(ch)
                k = int(vi[np.argmax(g[vi])])
                if S.worst is None or g[k] > S.worst_guide:
                    S.worst = Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k]))
                    S.worst_guide = g[k]
            ti = np.nonzero((status == TIGHT) & ~za)[0]
            S.tight += int(ch.counts[ti].sum())
            S.tight_distinct += len(ti)
            for k in ti[: max(0, MAX_LISTED - len(S.tight_listed))].tolist():
                S.tight_listed.append(Triple(int(ch.first[k]), int(ch.A[k]), int(ch.B[k]), int(ch.DC[k])))
        return S


def _dedupe(keys):
    """``(unique keys, position of one occurrence, counts)``; one ``np.sort`` of ``key * 2^s + position``
    (no argsort) when that fits in 63 bits, else ``np.unique``."""
    n = len(keys)
    if n == 0:
        return keys, keys.copy(), keys.copy()
    sh = max(1, int(n).bit_length())
    top = int(keys.max())
    if top.bit_length() + sh > 62:
        u, f, c = np.unique(keys, return_index=True, return_counts=True)
        return u, f, c.astype(np.int64)
    comb = (keys << sh) | np.arange(n, dtype=np.int64)
    comb.sort()
    k = comb >> sh
    starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    counts = np.diff(np.r_[starts, n]).astype(np.int64)
    return k[starts], comb[starts] & ((1 << sh) - 1), counts


def _distance_codes(ds: list) -> tuple[list, list[int]]:
    """``(distinct values, code of each)``: runs of equal distances are coded without hashing (fmpq hashes
    slowly), the rest through a dict keyed by ``(p, q)`` for rationals."""
    from flint import fmpq

    dvals: list = []
    index: dict = {}
    out = []
    last, lastc = None, -1
    for d in ds:
        if d is not last and not (type(d) is type(last) and d == last):
            key = (int(d.p), int(d.q)) if isinstance(d, fmpq) else d
            c = index.get(key)
            if c is None:
                c = index[key] = len(dvals)
                dvals.append(d)
            last, lastc = d, c
        out.append(lastc)
    return dvals, out


def _log_guide(v) -> float:
    from flint import fmpq

    if isinstance(v, fmpq):
        return math.log(int(v.p)) - math.log(int(v.q))
    with ctx.workprec(64):
        b = arb_of(v)
        return float(b.log().mid()) if b > 0 else -math.inf


def _float_mid(d) -> float:
    lo, hi = float_bounds(d)
    return (lo + hi) / 2
