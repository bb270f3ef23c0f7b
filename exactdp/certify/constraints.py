"""The privacy constraints of a mechanism over a metric, deduplicated and decided.

For a mechanism ``K`` and a metric with generating pairs ``(x, x', d)``, the
constraints are ``K(x)(z) <= e^(eps d) K(x')(z)`` in both directions, for every
output ``z``.  They are reduced to *distinct triples* ``(a, b, d)`` of value
codes and distance, each decided once.

Deciding a triple: an exact zero on either side is settled exactly; the rest
first meet a certified floating-point filter in the style of CGAL's filtered
predicates -- outward-rounded IEEE-754 enclosures of ``a``, ``b`` and
``e^(eps d)`` settle the comparisons that are far from a tie -- and every
comparison the filter cannot settle (in particular every exact tie) is decided
exactly by :meth:`exactdp.exact.level.Level.compare`.
"""

from __future__ import annotations

import math

import numpy as np
from flint import ctx

from ..errors import LabelMismatch, Undecided
from ..exact.decide import arb_of, float_bounds, is_zero

__all__ = ["Constraints", "SLACK", "TIGHT", "VIOLATED", "UNDECIDED_STATUS"]

SLACK, TIGHT, VIOLATED, UNDECIDED_STATUS = -1, 0, 1, 2


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


class Constraints:
    """Distinct directed constraint triples of ``mech`` over ``metric``."""

    def __init__(self, mech, metric):
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
            key = d
            c = dcodes.get(key)
            if c is None:
                c = len(dvals)
                dvals.append(d)
                dcodes[key] = c
            DC[k] = c
        self.dvals = dvals
        self.pair_rows = (I, J)
        self.pair_points = pairs
        V = max(len(mech.values), 1)
        ND = max(len(dvals), 1)
        self.total = 2 * len(pairs) * self.n_outputs
        if len(pairs) == 0:
            self.A = self.B = self.DCu = self.first = self.counts = np.zeros(0, dtype=np.int64)
            return
        ca = mech.codes[I].astype(np.int64)  # (P, m)
        cb = mech.codes[J].astype(np.int64)
        dc = np.broadcast_to(DC[:, None], ca.shape)
        fwd = (ca * V + cb) * ND + dc
        bwd = (cb * V + ca) * ND + dc
        keys = np.concatenate([fwd.ravel(), bwd.ravel()])
        uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
        self.first = first
        self.counts = counts  # flat index into [fwd, bwd]
        self.DCu = uniq % ND
        ab = uniq // ND
        self.B = ab % V
        self.A = ab // V

    def __len__(self):
        return len(self.A)

    def locate(self, k: int):
        """``(x, x', z, d)`` labels and distance of one occurrence of distinct triple ``k``."""
        flat = int(self.first[k])
        P, m = self.n_pairs, self.n_outputs
        direction, rest = divmod(flat, P * m)
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
            self._vt = (zero, lo, hi, lg)
        return self._vt

    def guide(self):
        """Float estimate of ``log(a/b)/d`` per triple (guides the search only)."""
        zero, _, _, lg = self.value_tables()
        dl = np.array([_float_mid(d) for d in self.dvals]) if self.dvals else np.zeros(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            g = (lg[self.A] - lg[self.B]) / dl[self.DCu]
        g[zero[self.A]] = -np.inf
        g[zero[self.B] & ~zero[self.A]] = np.inf
        return g

    # -- deciding ----------------------------------------------------------------
    def decide(self, level):
        """Status per distinct triple (SLACK/TIGHT/VIOLATED/UNDECIDED_STATUS) and statistics."""
        zero, lo, hi, _ = self.value_tables()
        n = len(self)
        status = np.full(n, UNDECIDED_STATUS, dtype=np.int8)
        za, zb = zero[self.A], zero[self.B]
        status[za] = SLACK  # 0 <= anything (0 = 0 when both vanish)
        status[~za & zb] = VIOLATED  # positive against zero: infinite ratio
        elo = np.empty(len(self.dvals))
        ehi = np.empty(len(self.dvals))
        with ctx.workprec(80):
            for c, d in enumerate(self.dvals):
                e = level.factor_arb(d)
                if e.is_finite():
                    elo[c] = math.nextafter(float(e.lower()), -math.inf)
                    ehi[c] = math.nextafter(float(e.upper()), math.inf)
                else:  # pragma: no cover - huge exponents
                    elo[c], ehi[c] = 0.0, math.inf
        rest = ~za & ~zb
        with np.errstate(over="ignore", invalid="ignore"):
            prod_lo = np.nextafter(elo[self.DCu] * lo[self.B], -np.inf)
            prod_hi = np.nextafter(ehi[self.DCu] * hi[self.B], np.inf)
        slack = rest & (hi[self.A] < prod_lo)
        viol = rest & (lo[self.A] > prod_hi)
        status[slack] = SLACK
        status[viol] = VIOLATED
        todo = np.nonzero(rest & ~slack & ~viol)[0]
        reasons = {}
        vals = self.mech.values
        for k in todo.tolist():
            try:
                s = level.compare(vals[self.A[k]], vals[self.B[k]], self.dvals[self.DCu[k]])
                status[k] = VIOLATED if s > 0 else (TIGHT if s == 0 else SLACK)
            except Undecided as e:
                reasons[k] = e
        stats = {"distinct": n, "filtered": int(n - len(todo) - int((za | zb).sum())),
                 "exact": int(len(todo)), "zero": int((za | zb).sum())}
        return status, reasons, stats


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
