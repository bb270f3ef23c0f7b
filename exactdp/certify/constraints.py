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

import numpy as np
from flint import ctx

from ..errors import LabelMismatch, Undecided
from ..exact.decide import arb_of, float_bounds, is_zero

__all__ = ["Constraints", "Triple", "Summary", "align"]

SLACK, TIGHT, VIOLATED, UNDECIDED_STATUS = -1, 0, 1, 2
#: inequalities per chunk (both directions); bounds memory to a few hundred MiB
CHUNK = 3_000_000
MAX_LISTED = 10


def align(mech, metric):
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
        pairs = metric.generating_pairs()
        self.n_pairs = len(pairs)
        self.n_outputs = len(mech.outputs)
        dcodes: dict = {}
        dvals: list = []
        I = np.empty(len(pairs), dtype=np.int64)
        J = np.empty(len(pairs), dtype=np.int64)
        DC = np.empty(len(pairs), dtype=np.int64)
        for k, (i, j, d) in enumerate(pairs):
            I[k], J[k] = perm[i], perm[j]
            c = dcodes.get(d)
            if c is None:
                c = len(dvals)
                dvals.append(d)
                dcodes[d] = c
            DC[k] = c
        self.dvals = dvals
        self.I, self.J, self.DC = I, J, DC
        self.pair_points = pairs
        self.total = 2 * len(pairs) * self.n_outputs
        self.pairs_per_chunk = max(1, chunk // max(2 * self.n_outputs, 1))
        self._cached = None

    # -- chunks --------------------------------------------------------------------
    def chunks(self):
        """Distinct triples per chunk of pairs (the only chunk is cached)."""
        if self._cached is not None:
            yield from self._cached
            return
        out = []
        single = self.n_pairs <= self.pairs_per_chunk
        V = max(len(self.mech.values), 1)
        ND = max(len(self.dvals), 1)
        P, m = self.n_pairs, self.n_outputs
        for p0 in range(0, self.n_pairs, self.pairs_per_chunk):
            p1 = min(self.n_pairs, p0 + self.pairs_per_chunk)
            ca = self.mech.codes[self.I[p0:p1]].astype(np.int64)
            cb = self.mech.codes[self.J[p0:p1]].astype(np.int64)
            dc = self.DC[p0:p1, None]
            keys = np.concatenate([((ca * V + cb) * ND + dc).ravel(), ((cb * V + ca) * ND + dc).ravel()])
            del ca, cb
            uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
            del keys
            half = (p1 - p0) * m
            direction = first >= half
            local = np.where(direction, first - half, first)
            flat = direction * (P * m) + p0 * m + local
            ch = _Chunk(A=(uniq // ND) // V, B=(uniq // ND) % V, DC=uniq % ND, first=flat,
                        counts=counts.astype(np.int64))
            if single:
                out.append(ch)
            yield ch
        if single:
            self._cached = out

    def distinct(self) -> int:
        """Number of distinct triples (exact when there is one chunk; an upper bound otherwise)."""
        return sum(len(c.A) for c in self.chunks())

    def locate(self, t: Triple):
        """``(x, x', z, d)`` for a triple's recorded occurrence."""
        P, m = self.n_pairs, self.n_outputs
        direction, rest = divmod(int(t.flat), P * m)
        p, z = divmod(rest, m)
        i, j, d = self.pair_points[p]
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
