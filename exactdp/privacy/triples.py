"""The distinct constraint triples of a mechanism over a metric.

For a mechanism ``K`` and a metric with generating pairs ``(x, x', d)``, the
constraints are ``K(x)(z) <= e^(eps d) K(x')(z)`` in both directions, for every
output ``z``.  They are grouped into *triples* ``(a, b, d)`` of value codes and
distance, so that identical triples are decided once
(:class:`~exactdp.privacy.constraints.Constraints` decides them).  The distinct
triples are found in one of three ways (the same triples and multiplicities from
each; the last two record the same occurrence of each triple, its smallest
``flat``, unless streamed over budget):

* every pair at one distance (e.g. the discrete metric): from per-column value
  counts, never from the ``n (n - 1) m`` inequalities;
* a bounded key space ``V^2 ND <= MAX_BITMAP``: the forward keys
  ``(a V + b) ND + d`` are marked in a byte map, chunk by chunk, with no sort
  of the inequalities (the reverse direction is the same set with ``a, b``
  swapped); a caller's *decider* may decide each new key as it is found and keep
  its status in the byte, so that the same lookup counts the tight and violated
  inequalities;
* otherwise: sorted chunk by chunk, and merged for later passes while at most
  ``MAX_KEPT`` distinct triples have been seen (beyond that each pass streams
  the chunks again, so memory stays bounded).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from flint import fmpq

from ..errors import LabelMismatch

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["Triple", "Triples", "align"]

#: inequalities (both directions) per chunk; bounds the memory of one pass to a few hundred MiB
CHUNK = 3_000_000
#: largest key space ``V^2 ND`` (values squared times distances) deduplicated with a byte per key, no sort
MAX_BITMAP = 1 << 27
#: inequalities checked against the bitmap at a time (only the unseen ones of a block are sorted), from
#: ``FIRST_BLOCK`` doubling up to ``BLOCK``
BLOCK = 1 << 16
FIRST_BLOCK = 1 << 12
#: forward keys kept (int32 when they fit, else int64) for the passes that count inequalities in the bitmap mode
MAX_KEY_CACHE = 1 << 25
#: distinct triples of the sorted mode kept across chunks for later passes; beyond this budget every pass
#: deduplicates chunk by chunk again, so memory stays bounded (a dense 300 x 300 mechanism has 22.5 million)
MAX_KEPT = 4_000_000


def align(mech: Mechanism, metric: FiniteMetric) -> np.ndarray:
    """Find the row index in ``mech`` of each metric point (labels compared as strings).

    Parameters
    ----------
    mech : Mechanism
        The mechanism.
    metric : FiniteMetric
        A metric on its inputs.

    Returns
    -------
    numpy.ndarray of int64
        ``mech``'s row of each point, in the metric's order.

    Raises
    ------
    LabelMismatch
        If the inputs and the points differ.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import from_matrix
    >>> M = Mechanism.from_rows(["a", "b"], ["y"], [["1"], ["1"]])
    >>> align(M, from_matrix(["b", "a"], [[0, 1], [1, 0]])).tolist()
    [1, 0]
    """
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
    """One constraint ``values[a] <= e^(eps d) values[b]``, up to its occurrences.

    Parameters
    ----------
    flat : int
        Locates one occurrence (see :meth:`Triples.locate`).
    a, b : int
        Codes of the two values (indices into ``mech.values``).
    dc : int
        Code of the distance (index into ``Triples.dvals``).

    Examples
    --------
    >>> t = Triple(flat=0, a=0, b=2, dc=0)
    >>> t.a, t.b, t == Triple(0, 0, 2, 0)
    (0, 2, True)
    """

    flat: int
    a: int
    b: int
    dc: int


@dataclass
class _Chunk:
    A: np.ndarray
    B: np.ndarray
    DC: np.ndarray
    first: np.ndarray
    counts: np.ndarray | None  # multiplicities; None when the decision counts them (byte-map mode)
    fwd: np.ndarray | None = None  # the distinct forward keys (bitmap mode) ...
    fwd_at: np.ndarray | None = None  # ... the index of each among the triples ...
    rev_at: np.ndarray | None = None  # ... and the index of its reverse


class Triples:
    """The constraint triples of ``mech`` over ``metric``, found once and streamed in chunks.

    A triple ``(a, b, d)`` stands for every inequality ``P(x, z) <= e^(eps d) P(x', z)`` with ``x, x'`` a
    generating pair of the metric at distance ``d`` (both directions) whose entries have the value codes
    ``a, b``.

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
    pairs, ``(2/3, 1/3)`` and ``(1/3, 2/3)`` twice each, ``(1/3, 1/6)`` and ``(1/6, 1/3)`` four times each:

    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
    >>> T = Triples(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
    >>> T.distinct(), T.total
    (4, 12)
    """

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
        else:
            pairs = metric.generating_pairs()
            dvals, dc_list = _distance_codes([p[2] for p in pairs])
            ij = np.array([p[:2] for p in pairs], dtype=np.int64).reshape(-1, 2)
            self._raw_i, self._raw_j = ij[:, 0], ij[:, 1]
            self.dvals, self.DC = dvals, np.array(dc_list, dtype=np.int64)
        self.n_pairs = len(self._raw_i)
        self.I, self.J = perm[self._raw_i], perm[self._raw_j]
        self.total = 2 * self.n_pairs * self.n_outputs
        self.pairs_per_chunk = max(1, chunk // max(2 * self.n_outputs, 1))
        self._cached: list[_Chunk] | None = None
        self._keys: list[np.ndarray] | None = None  # forward keys kept by the bitmap mode
        self._perm = perm
        self._complete = self._is_complete()

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

    def _spans(self):
        """``(p0, p1)`` ranges of pairs, one chunk each."""
        for p0 in range(0, self.n_pairs, self.pairs_per_chunk):
            yield p0, min(self.n_pairs, p0 + self.pairs_per_chunk)

    def _forward_keys(self, p0, p1, V, ND):
        """Keys ``(a V + b) ND + d`` of the inequalities ``x -> x'`` of pairs ``p0 .. p1 - 1``, output by output
        (position ``(p - p0) m + z``); the reverse direction ``x' -> x`` is the same set with ``a, b`` swapped.

        Built in place, from row slices instead of gathered copies when the rows of the pairs are consecutive,
        as ``int32`` when every key fits (``V^2 ND < 2^31``, always so in the bitmap mode), else ``int64``:
        the narrow keys halve the memory traffic of building them and of keeping them, and ``np.take`` reads
        them as fast as ``intp`` ones (measured on geometric(3999)'s 16 million keys: 19 ms against 22 ms)."""
        codes = self.mech.codes
        dt = np.int32 if V * V * ND < 1 << 31 else np.int64
        ca = np.multiply(_rows(codes, self.I, p0, p1), V, dtype=dt)
        np.add(ca, _rows(codes, self.J, p0, p1), out=ca)
        if ND > 1:
            ca *= ND
            ca += self.DC[p0:p1, None]
        return ca.ravel()

    def _chunk_keys(self, p0, p1, V, ND):
        """Keys of both directions: ``x -> x'`` at positions ``(p - p0) m + z``, then ``x' -> x``."""
        kf = self._forward_keys(p0, p1, V, ND).astype(np.int64, copy=False)
        a, rest = np.divmod(kf, V * ND)
        b, d = np.divmod(rest, ND)
        return np.concatenate([kf, (b * V + a) * ND + d])

    def _union(self, F, first, V, ND):
        """The distinct triples of both directions from the distinct forward keys ``F`` with their first
        occurrences: the reverse of ``(a, b, d)`` is ``(b, a, d)``, found at the same position in direction 1.
        Sorted by key; a triple met in both directions keeps its forward occurrence.  Multiplicities are left
        to :meth:`_multiplicities`, which needs where each forward key and its reverse landed."""
        P, m = self.n_pairs, self.n_outputs
        a, rest = np.divmod(F, V * ND)
        b, d = np.divmod(rest, ND)
        both = np.concatenate([F, (b * V + a) * ND + d])
        u, idx, inv = np.unique(both, return_index=True, return_inverse=True)
        inv = inv.ravel()
        flat = np.concatenate([first, first + P * m])[idx]
        A, rest = np.divmod(u, V * ND)
        B, DC = np.divmod(rest, ND)
        return _Chunk(A=A, B=B, DC=DC, first=flat, counts=None, fwd=F, fwd_at=inv[:len(F)], rev_at=inv[len(F):])

    def _bitmap_chunk(self, V, ND, progress, decider=None, counted=None):
        """All distinct triples at once, keyed by bounded integers (no sort of the inequalities): a byte per
        key ``(a V + b) ND + d < V^2 ND <= MAX_BITMAP`` marks the forward keys seen; only the unseen keys of
        each block are sorted, so a first occurrence is found once.  The reverse direction is the same set
        with ``a, b`` swapped.

        Without ``decider``, multiplicities are left to the caller.  With ``decider`` (a function of the fresh
        forward keys and the map, returning their codes) and ``counted`` (a code's ``(violated, tight)`` counts
        among a forward key and its reverse), each fresh key is decided as it is found and its byte holds
        ``1 +`` that code, so the same lookup that finds the unseen keys also counts the tight and violated
        inequalities: returns ``(chunk, (violated, tight))`` without a second pass."""
        K, m = V * V * ND, self.n_outputs
        seen = np.zeros(K, dtype=bool if decider is None else np.uint8)
        found: list[np.ndarray] = []
        firsts: list[np.ndarray] = []
        kept: list[np.ndarray] = []
        keep = self.n_pairs * m <= MAX_KEY_CACHE
        codes: set = set()  # the decider's codes written so far
        violated = tight = 0
        for p0, p1 in self._spans():
            k = self._forward_keys(p0, p1, V, ND)
            if found:
                g = np.take(seen, k)
                cand = np.flatnonzero(g == 0) if g.min() == 0 else None  # unseen before this chunk, in order
                if cand is not None:
                    for b0, b1 in _blocks(len(cand)):
                        self._mark_fresh(seen, k, cand[b0:b1], p0 * m, decider, (found, firsts, codes))
                    if decider is not None:
                        g[cand] = np.take(seen, k[cand])
            else:  # the first chunk: every key is a candidate (positions in order: slices, no gathers)
                for b0, b1 in _blocks(len(k)):
                    self._mark_fresh(seen, k, slice(b0, b1), p0 * m, decider, (found, firsts, codes))
                g = np.take(seen, k) if decider is not None else None
            if decider is not None:
                for c in codes:
                    nv, nt = counted(c)
                    if nv or nt:
                        n = int(np.count_nonzero(g == c + 1))
                        violated, tight = violated + n * nv, tight + n * nt
            if keep:
                kept.append(k)
            _report(progress, "distinct constraints", p1, self.n_pairs)
        del seen
        self._keys = kept if keep else None
        F = np.concatenate(found).astype(np.int64) if found else np.zeros(0, dtype=np.int64)
        first = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.int64)
        ch = self._union(F, first, V, ND)
        if decider is None:
            return ch
        return ch, (violated, tight)

    @staticmethod
    def _mark_fresh(seen, k, pos, base, decider, out):
        """Mark the keys ``k[pos]`` (``pos`` an index array or a slice) not seen yet (``True``, or ``1 +`` their
        decider code), recording each distinct one and its first position ``base + pos`` in
        ``out = (found, firsts, codes written)``."""
        found, firsts, codes = out
        kb = k[pos]
        if isinstance(pos, slice):
            pos = np.arange(pos.start, pos.stop)
        fresh = np.take(seen, kb) == 0  # not seen before this block
        pos, kb = pos[fresh], kb[fresh]
        if not len(kb):
            return
        u, fi = np.unique(kb, return_index=True)
        if decider is None:
            seen[u] = True
        else:
            c = decider(u, seen)
            codes.update(np.unique(c).tolist())
            seen[u] = c + 1
        found.append(u)
        firsts.append(base + pos[fi])

    def _sorted_chunks(self, V, ND, progress):
        """Distinct triples chunk by chunk (one sort each), merged and kept for the next pass while at most
        ``MAX_KEPT`` of them have been seen; beyond that budget each pass deduplicates again (bounded memory)."""
        kept: list[tuple] | None = []
        n_kept = 0
        P, m = self.n_pairs, self.n_outputs
        for p0, p1 in self._spans():
            keys = self._chunk_keys(p0, p1, V, ND)
            uniq, first, counts = _dedupe(keys)
            del keys
            half = (p1 - p0) * m
            direction = first >= half
            flat = direction * (P * m) + p0 * m + np.where(direction, first - half, first)
            if kept is not None:
                n_kept += len(uniq)
                kept = [*kept, (uniq, flat, counts)] if n_kept <= MAX_KEPT else None
            _report(progress, "distinct constraints", p1, P)
            yield _Chunk(A=(uniq // ND) // V, B=(uniq // ND) % V, DC=uniq % ND, first=flat, counts=counts)
        if kept is not None and len(kept) > 1:  # every chunk was seen: merged once, first occurrences kept
            # sorted by triple, then by occurrence: each triple keeps its smallest ``flat`` over all chunks (a
            # forward occurrence in a later chunk comes before a reverse one in an earlier chunk), as in the
            # other modes, so the witnesses named do not depend on the chunk size
            keys, flats = np.concatenate([x[0] for x in kept]), np.concatenate([x[1] for x in kept])
            order = np.lexsort((flats, keys))
            ks = keys[order]
            starts = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]]) if len(ks) else np.zeros(0, dtype=np.intp)
            u2, f2 = ks[starts], flats[order][starts]
            c2 = np.add.reduceat(np.concatenate([x[2] for x in kept])[order], starts)
            self._cached = [_Chunk(A=(u2 // ND) // V, B=(u2 // ND) % V, DC=u2 % ND, first=f2, counts=c2)]
        elif kept is not None:
            uniq, flat, counts = kept[0] if kept else (np.zeros(0, dtype=np.int64),) * 3
            self._cached = [_Chunk(A=(uniq // ND) // V, B=(uniq // ND) % V, DC=uniq % ND, first=flat, counts=counts)]

    def chunks(self, progress=None):
        """Yield the distinct triples, chunk by chunk (once computed, one cached chunk unless too many to keep).

        Parameters
        ----------
        progress : callable, optional
            Called as ``progress(stage, done, total)`` while the triples are found.

        Yields
        ------
        _Chunk
            Arrays ``A``, ``B``, ``DC`` (value and distance codes), ``first`` (one occurrence each) and
            ``counts`` (multiplicities, or None when counted later).

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> T = Triples(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> ch = next(T.chunks())
        >>> sorted(zip(ch.A.tolist(), ch.B.tolist(), ch.counts.tolist()))
        [(0, 2, 2), (1, 2, 4), (2, 0, 2), (2, 1, 4)]
        """
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
        if self._bitmap_mode():
            ch = self._bitmap_chunk(V, ND, progress)
            self._cached = [ch]
            yield ch
            return
        yield from self._sorted_chunks(V, ND, progress)

    def _bitmap_mode(self) -> bool:
        """The distinct triples are found with a byte map (bounded key space, more than one chunk)."""
        V = max(len(self.mech.values), 1)
        ND = max(len(self.dvals), 1)
        return self.n_pairs > self.pairs_per_chunk and V * V * ND <= MAX_BITMAP

    def distinct(self) -> int:
        """Count the distinct triples.

        Returns
        -------
        int
            Exact unless the chunks are streamed beyond ``MAX_KEPT``: then an upper bound, the sum over chunks.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> T = Triples(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> T.distinct()
        4
        """
        return sum(len(c.A) for c in self.chunks())

    def locate(self, t: Triple):
        """Locate a triple's recorded occurrence.

        Parameters
        ----------
        t : Triple
            A triple of these constraints.

        Returns
        -------
        tuple
            ``(x, x', z, d)``: the inputs, the output and the distance of the inequality
            ``P(x, z) <= e^(eps d) P(x', z)``.

        Examples
        --------
        >>> from exactdp import Mechanism
        >>> from exactdp.metrics import path
        >>> rows = [["2/3", "1/6", "1/6"], ["1/3", "1/3", "1/3"], ["1/6", "1/6", "2/3"]]
        >>> T = Triples(Mechanism.from_rows(["0", "1", "2"], ["0", "1", "2"], rows), path(3))
        >>> ch = next(T.chunks())
        >>> k = [(a, b) for a, b in zip(ch.A.tolist(), ch.B.tolist(), strict=True)].index((0, 2))    # 2/3 against 1/3
        >>> T.locate(Triple(int(ch.first[k]), 0, 2, 0))
        ('0', '1', '0', 1)
        """
        P, m = self.n_pairs, self.n_outputs
        direction, rest = divmod(int(t.flat), P * m)
        p, z = divmod(rest, m)
        i, j = int(self._raw_i[p]), int(self._raw_j[p])
        d = self.dvals[int(self.DC[p])]
        pts = self.metric.points
        x, xp = (pts[i], pts[j]) if direction == 0 else (pts[j], pts[i])
        return x, xp, self.mech.outputs[z], d


def _rows(codes, idx, p0, p1):
    """``codes[idx[p0:p1]]``: a view when those rows are consecutive (e.g. a path's pairs), else a gather."""
    if p1 - p0 > 1 and idx[p1 - 1] - idx[p0] == p1 - p0 - 1 and bool(np.all(np.diff(idx[p0:p1]) == 1)):
        return codes[idx[p0]:idx[p1 - 1] + 1]
    return codes[idx[p0:p1]]


def _blocks(n):
    """``(start, stop)`` of consecutive blocks covering ``range(n)``: ``FIRST_BLOCK`` long, then doubling up to
    ``BLOCK``.  Each block's keys are looked up in the byte map before its unseen ones are sorted, so small
    first blocks keep the sorts small when, as usual, later keys repeat earlier ones."""
    b0, size = 0, FIRST_BLOCK
    while b0 < n:
        b1 = min(n, b0 + size)
        yield b0, b1
        b0, size = b1, min(2 * size, BLOCK)


def _report(progress, stage, done, total):
    if progress is not None:
        progress(stage, done, total)


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
