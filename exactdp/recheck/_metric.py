"""A metric re-derived from what it rests on: weighted edges, a distance matrix, or one distance for all pairs.

A schema-2 metric record carries its labels and exactly one definition:

``edges``
    ``[x, x', w]``: the metric is the shortest-path metric of this weighted graph (ECP14 sec. 3.2).  The kernel
    checks the edges (known labels, no loop, no repeated pair, ``w > 0``), recomputes shortest paths exactly
    (Dijkstra on fractions; Bellman-Ford with exact comparisons for algebraic lengths) and derives the
    generating pairs: the edges whose length is the distance of their ends.  Every distance is the length of a
    chain of them (a shortest path), which is the reduction.
``distances``
    ``{"values": [...], "codes": [[...]]}``: an explicit matrix.  The kernel checks a zero diagonal, positive
    (or ``inf``) distances elsewhere, symmetry and every triangle inequality, and derives the generating pairs:
    the finite pairs with no point strictly between them (``d(x, w) + d(w, y) = d(x, y)``).  Any other finite
    pair has such a point, both parts strictly shorter, so by induction it is a chain of generating pairs.
``all_pairs_at``
    ``d``: every pair of distinct points at distance ``d > 0`` (the discrete metric scaled by ``d``); every
    pair generates.

The listed ``pairs`` must be the derived ones, and the ``description`` (and the reduction sentence) is
rebuilt where the record names a family the kernel knows (path, cycle, discrete, Manhattan, Chebyshev and
Euclidean grids of any step, subsets with the symmetric-difference distance, Hamming spaces, a rational
multiple ``c * (...)`` of a known family, a graph given by its edges, an explicit matrix).  The description is
read after :func:`normalise` (NFKC, look-alike dashes, white space) and case-folded: written in a known family's
form (:func:`canonical`), at any size and for every record type, it must rebuild the record exactly, else
``ValueError`` (refuted); any other text is only a name, and every kind's detail says so with
:func:`name_note`.
"""

from __future__ import annotations

import heapq
import json
import re
import unicodedata
from fractions import Fraction
from math import gcd

import numpy as np

from ._kernel import (NotHere, _add, _mul, _neg, distinct_labels, fraction, refute_unless, within_limit, sign, TooLarge,
                      value)

__all__ = ["MAX_MATRIX_POINTS", "MAX_POINTS", "canonical", "derive", "describe_table", "label_list", "metric_note",
           "name_note", "normalise", "query_text"]

#: points of a metric re-derived here; points of an explicit matrix (O(n^3) triangle inequalities)
MAX_POINTS = 20_000
MAX_MATRIX_POINTS = 150
#: edge relaxations of a shortest-path computation
MAX_RELAXATIONS = 5_000_000

_GRAPH_SUFFIX = " ({c} components; points in different components are at distance inf)"
#: the reductions, as the worked proof states them (each is what :func:`derive` proves for its definition)
GRAPH_REDUCTION = ("on a graph metric it suffices to check the edges: every distance d(x, x') is the length of a "
                   "shortest path x = y_0, ..., y_k = x', and multiplying the edge inequalities "
                   "K(y_i)(z) <= e^(eps w(y_i, y_(i+1))) K(y_(i+1))(z) along it gives "
                   "K(x)(z) <= e^(eps d(x, x')) K(x')(z)")
MATRIX_REDUCTION = ("the generating pairs are the pairs (x, y) with no point w strictly between them "
                    "(d(x,w) + d(w,y) = d(x,y)), found exactly; every other pair is the sum of a chain of them")


def _lt(a, b) -> bool:
    """``a < b`` exactly: in fractions when both are, else by the kernel's sign of ``a - b``."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a < b
    return sign(_add(a, _neg(b))) < 0


def _labels(metric: dict) -> dict:
    """Label -> index of a carried metric, after refusing more than ``MAX_POINTS`` points, a repeated label (two
    points read as one) and a stated ``points`` count that is not the number of labels."""
    labels = metric["labels"]
    within_limit(len(labels) <= MAX_POINTS, f"a metric of {len(labels)} > {MAX_POINTS} points")
    idx = {x: i for i, x in enumerate(labels)}
    if len(idx) != len(labels):
        raise ValueError("a label appears twice in the metric")
    if metric["points"] != len(labels):
        raise ValueError(f"the metric says {metric['points']} points but has {len(labels)} labels")
    return idx


def _positive(text: str):
    """The kernel value of a stated edge length, refused (ValueError) unless it is > 0: a metric's distinct points
    are at positive distance, and a zero or negative edge would break the shortest-path rebuild."""
    v = value(text)
    if sign(v) <= 0:
        raise ValueError(f"a distance {text!r} that is not > 0")
    return v


def _edges(metric: dict, idx: dict):
    """Checked edges as ``(i, j, w_text, w)`` with ``i < j``, and the generating pairs among them."""
    n = len(idx)
    edges, seen = [], set()
    for e in metric["edges"]:
        x, y, w = e
        i, j = idx[x], idx[y]
        if i == j:
            raise ValueError(f"an edge from {x!r} to itself")
        i, j = min(i, j), max(i, j)
        if (i, j) in seen:
            raise ValueError(f"the edge {x!r} - {y!r} is listed twice")
        seen.add((i, j))
        edges.append((i, j, w, _positive(w)))
    adj: list = [[] for _ in range(n)]
    for i, j, _, w in edges:
        adj[i].append((j, w))
        adj[j].append((i, w))
    if len({w for _, _, w, _ in edges}) <= 1:
        shortest = edges          # equal lengths: any path between distinct ends is at least one edge long
    else:
        within_limit(len(edges) * len({i for i, _, _, _ in edges}) <= MAX_RELAXATIONS,
                     f"shortest paths over {len(edges)} edges of unequal lengths")
        shortest = []
        by_src: dict = {}
        for e in edges:
            by_src.setdefault(e[0], []).append(e)
        for s, es in by_src.items():
            dist = _shortest_from(adj, s, n)
            # an edge generates (is a distance) unless some path between its ends is strictly shorter
            shortest += [e for e in es if not _lt(dist[e[1]], e[3])]
    return edges, sorted(shortest)


def _shortest_from(adj, s, n):
    """Exact distances from ``s`` (Dijkstra on fractions, else Bellman-Ford with exact comparisons)."""
    dist: list = [None] * n
    dist[s] = Fraction(0)
    if all(isinstance(w, Fraction) for a in adj for _, w in a):
        # Dijkstra is exact here: lengths are positive fractions, compared exactly
        heap = [(Fraction(0), s)]
        done = [False] * n
        while heap:
            d, u = heapq.heappop(heap)
            if done[u]:
                continue
            done[u] = True
            for v, w in adj[u]:
                nd = d + w
                if dist[v] is None or nd < dist[v]:
                    dist[v] = nd
                    heapq.heappush(heap, (nd, v))
        return dist
    changed = True
    rounds = 0
    while changed:
        changed = False
        rounds += 1
        # Bellman-Ford settles within n rounds for positive lengths (checked > 0): the limit is only a guard
        within_limit(rounds <= n + 1, "a shortest-path computation that does not settle")
        for u in range(n):
            if dist[u] is None:
                continue
            for v, w in adj[u]:
                nd = _add(dist[u], w)
                if dist[v] is None or _lt(nd, dist[v]):
                    dist[v], changed = nd, True
    return dist


def _components(n: int, pairs) -> int:
    """The number of connected components of the graph on ``0..n-1`` with edges ``pairs`` (union-find).

    Used to tell whether generating pairs reach every point (a finite distance between every two points)."""
    parent = list(range(n))

    def find(a):
        """The root of ``a``'s component, halving the path on the way (union-find)."""
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a
    for i, j in pairs:
        parent[find(i)] = find(j)
    return len({find(a) for a in range(n)})


def _matrix(metric: dict, idx: dict):
    """Checked explicit matrix; the generating pairs ``(i, j, d_text, d)``."""
    n = len(idx)
    within_limit(n <= MAX_MATRIX_POINTS, f"an explicit distance matrix of {n} > {MAX_MATRIX_POINTS} points")
    tab = metric["distances"]
    vals, codes = tab["values"], tab["codes"]
    if len(codes) != n or any(len(r) != n for r in codes):
        raise ValueError("the distance matrix does not match the labels")
    if any(type(c) is not int or not 0 <= c < len(vals) for r in codes for c in r):
        raise ValueError("a distance code is not an integer index of the values")
    num = [None if v == "inf" else value(v) for v in vals]
    for i in range(n):
        for j in range(n):
            c = codes[i][j]
            if codes[j][i] != c:
                raise ValueError(f"the distances are not symmetric at ({i}, {j})")
            if i == j and (num[c] is None or sign(num[c]) != 0):
                raise ValueError(f"d(x, x) is not 0 at point {i}")
            if i != j and num[c] is not None and sign(num[c]) <= 0:
                raise ValueError(f"a distance that is not > 0 between points {i} and {j}")
    fast = _generating_integers(codes, num, vals, n)
    if fast is not None:
        return fast
    sums: dict = {}

    def cmp(a, b, c):   # sign of d_a + d_b - d_c on codes, finite
        """Sign of ``d_a + d_b - d_c`` for finite distance codes, computed once per distinct triple of codes."""
        key = (min(a, b), max(a, b), c)
        if key not in sums:
            sums[key] = sign(_add(_add(num[a], num[b]), _neg(num[c])))
        return sums[key]
    gen = []
    for i in range(n):
        for j in range(i + 1, n):
            cij = codes[i][j]
            between = False
            for k in range(n):
                a, b = codes[i][k], codes[k][j]
                if num[a] is None or num[b] is None or k in (i, j):
                    continue
                if num[cij] is None:
                    raise ValueError(f"the triangle inequality fails: points {i} and {j} at distance inf")
                s = cmp(a, b, cij)
                if s < 0:
                    raise ValueError(f"the triangle inequality fails for points {i}, {k}, {j}")
                between = between or s == 0
            if num[cij] is not None and not between:
                gen.append((i, j, vals[cij], num[cij]))
    return gen


def _generating_integers(codes: list, num: list, vals: list, n: int):
    """:func:`_matrix`'s triangle inequalities and generating pairs in exact 64-bit integers, when every finite
    distance is rational and, over the common denominator, below ``2^61`` (sums of two stay exact in int64):
    ``n`` vectorised ``n x n`` comparisons instead of ``n^3`` in Python (issue 27: cost, not terms).  ``None``
    when the values do not fit, or when a triangle inequality fails or an infinite distance has a point between
    (the loop above then finds the first failure and words it)."""
    if n < 3 or not all(v is None or isinstance(v, Fraction) for v in num):
        return None
    den = 1
    for v in num:
        if v is not None:
            den = den * v.denominator // gcd(den, v.denominator)
            if den.bit_length() > 61:
                return None
    ints = [0 if v is None else v.numerator * (den // v.denominator) for v in num]
    if max(ints, default=0).bit_length() > 60:
        return None
    C = np.array(codes, dtype=np.int64).reshape(n, n)
    D = np.array(ints, dtype=np.int64)[C]
    fin = np.array([v is not None for v in num], dtype=bool)[C]
    eye = np.eye(n, dtype=bool)
    gen = []
    for i in range(n):
        # S[k, j] = d(i, k) + d(k, j) over the points k other than i and j with both distances finite
        ok = fin[i][:, None] & fin
        ok[i, :] = False
        ok &= ~eye
        S = D[i][:, None] + D
        row = D[i][None, :]
        if (ok & (row > S))[:, i + 1:].any() or (ok[:, i + 1:].any(axis=0) & ~fin[i][i + 1:]).any():
            return None
        between = (ok & (row == S)).any(axis=0)
        for j in range(i + 1, n):
            if fin[i][j] and not between[j]:
                c = codes[i][j]
                gen.append((i, j, vals[c], num[c]))
    return gen


def derive(metric: dict):
    """``(pairs, described)``: the generating pairs ``[x, x', d]`` re-derived from the record's definition, and
    whether its description was rebuilt (False: the description is a name only).  ``ValueError`` when the
    record contradicts itself, or its description is written as a known family's that the record is not."""
    idx = _labels(metric)
    labels, n = metric["labels"], len(idx)
    defs = [k for k in ("all_pairs_at", "edges", "distances") if metric.get(k) is not None]
    if len(defs) != 1:
        raise ValueError(f"a metric record needs exactly one definition (all_pairs_at, edges or distances), "
                         f"has {defs}")
    if defs == ["all_pairs_at"]:
        d = metric["all_pairs_at"]
        dv = _positive(d)
        within_limit(n * (n - 1) // 2 <= MAX_POINTS * 50, f"{n} points, every pair generating")
        if metric["pairs"] != []:
            raise ValueError("a metric with all_pairs_at lists no pairs")
        described = _described(metric, lambda: [(i, j, d, dv) for i in range(n) for j in range(i + 1, n)])
        return [[x, y, d] for i, x in enumerate(labels) for y in labels[i + 1:]], described
    if defs == ["edges"]:
        edges, gen = _edges(metric, idx)
        described = _described(metric, lambda: edges)
    else:
        gen = _matrix(metric, idx)
        described = _described(metric, lambda: gen)
    pairs = [[labels[i], labels[j], w] for i, j, w, _ in gen]
    listed = sorted((min(idx[x], idx[y]), max(idx[x], idx[y]), d) for x, y, d in metric["pairs"])
    if listed != [(i, j, w) for i, j, w, _ in gen]:
        raise ValueError("the listed generating pairs are not the ones the metric's definition gives")
    return pairs, described


def _reduction_is(metric: dict, want: str) -> bool:
    """The record's reduction sentence is ``want`` (a bare distance table, :func:`describe_table`, carries none)."""
    return metric["reduction"] is None or metric["reduction"] == want


def describe_table(description: str, labels: list, values: list, codes: list) -> bool:
    """Rebuild the description of a full distance table (``tight``, ``regular``, ``threshold``; convention 3):
    ``True`` when the description names a family the kernel knows and the table is that family's (the table's
    generating pairs -- no point strictly between -- are the family's edges: path, cycle, discrete metric, grids,
    subsets, Hamming spaces, ``c * (...)``, a graph's edge count; any table for an explicit matrix of its size);
    ``False`` when the description is a name (not written in a known family's form, or a weighted graph whose
    longer edges a table cannot show); ``ValueError`` when it is written in a known family's form (any size, after
    :func:`normalise`) and the table is not that family's.  Above ``MAX_MATRIX_POINTS`` points the table is compared
    entry by entry with a path, cycle, discrete metric or grid (:func:`_table_is_family`); another family there is
    not checkable (:class:`TooLarge`).

    >>> describe_table("path on 3 points (d(i, j) = |i - j|)", ["0", "1", "2"], ["0", "1", "2"],
    ...                [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    True
    >>> describe_table("cycle on 3 points", ["0", "1", "2"], ["0", "1", "2"], [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    Traceback (most recent call last):
    ...
    ValueError: the edges are not those of the cycle the description names
    >>> describe_table("discrete metric on 2 points", ["0", "1", "2"], ["0", "1", "2"],
    ...                [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    Traceback (most recent call last):
    ...
    ValueError: the description names 2 points, the metric has 3
    >>> describe_table("three friends", ["0", "1", "2"], ["0", "1", "2"], [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    False
    """
    n = len(labels)
    metric = {"description": description, "points": n, "labels": labels, "pairs": [], "reduction": None,
              "all_pairs_at": None, "edges": None, "distances": {"values": values, "codes": codes}}
    _labels(metric)                      # distinct labels, within the size limit
    if n > MAX_MATRIX_POINTS:
        canon = canonical(description)
        return canon is not None and _table_is_family(canon, labels, values, codes)
    return _described(metric, lambda: _table_pairs(values, codes))


# ------------------------------------------------------------------------------- descriptions ----
#: look-alike dashes read as "-" (NFKC keeps them: a minus sign U+2212 must not make "|i - j|" a free name)
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2796\ufe58\ufe63\uff0d"), "-")


def normalise(text: str) -> str:
    """A description as the kernel reads it: Unicode NFKC (full-width letters and digits, a non-breaking space),
    look-alike dashes as ``-``, invisible format characters dropped, every run of white space one space.

    >>> normalise("path\u00a0on 4 points (d(i, j) = |i \u2212 j|)  ")
    'path on 4 points (d(i, j) = |i - j|)'
    """
    t = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return " ".join("".join(ch for ch in t if unicodedata.category(ch) != "Cf").split())


#: descriptions in the form of a family the kernel knows (case-folded, after :func:`normalise`, an article
#: dropped): a description that starts so is a claim about that family, whatever its numbers or spelling
_FAMILY_FORM = re.compile(r"^(?:(?:path|cycle)(?: graph)? (?:on|of|with|over) |discrete (?:metric|distance|space)"
                          r"|explicit (?:distance )?matrix|\S+ ?[x\u00d7] ?\S+ grid|subsets of "
                          r"|hamming (?:distance|metric)|graph with |\S+ ?\* ?\()")
#: the canonical spelling of each family (case-folded text -> the producer's words), tried in order
_CANON = [
    (re.compile(r"path on ([0-9]+) points?(?: \(d\(i, ?j\) ?= ?\|i ?- ?j\|\))?"),
     lambda m: f"path on {int(m[1])} points (d(i, j) = |i - j|)"),
    (re.compile(r"cycle on ([0-9]+) points?"), lambda m: f"cycle on {int(m[1])} points"),
    (re.compile(r"discrete metric on ([0-9]+) points?"), lambda m: f"discrete metric on {int(m[1])} points"),
    (re.compile(r"explicit distance matrix on ([0-9]+) points?"),
     lambda m: f"explicit distance matrix on {int(m[1])} points"),
    (re.compile(r"([0-9]+) ?x ?([0-9]+) grid, (manhattan|chebyshev|euclidean) distance"
                r"(?:, step ([0-9]+(?:/[0-9]+)?))?"),
     lambda m: f"{int(m[1])} x {int(m[2])} grid, {m[3]} distance" + (f", step {m[4]}" if m[4] else "")),
    (re.compile(r"subsets of a ([0-9]+)-element set, symmetric-difference distance"),
     lambda m: f"subsets of a {int(m[1])}-element set, symmetric-difference distance"),
    (re.compile(r"hamming distance on v\^u with \|v\| ?= ?([0-9]+), ?u ?= ?([0-9]+)"),
     lambda m: f"Hamming distance on V^u with |V| = {int(m[1])}, u = {int(m[2])}"),
    (re.compile(r"graph with ([0-9]+) nodes and ([0-9]+) edges(?: \(([0-9]+) components; points in different "
                r"components are at distance inf\))?"),
     lambda m: f"graph with {int(m[1])} nodes and {int(m[2])} edges" + (_GRAPH_SUFFIX.format(c=int(m[3]))
                                                                         if m[3] else "")),
]


def canonical(description: str) -> str | None:
    """The family a description names, in the producer's spelling; ``None`` when it is a name (not written in a
    known family's form); ``ValueError`` when it is written in a family's form but is not that family's
    description (a look-alike, another wording, a word for a number: "path on four points").

    The text is read after :func:`normalise`, case-folded, without a leading article.  ``c * (...)`` is a family
    when its inner description is one; a query's induced graph ``"...: graph with ..."`` keeps its name part.

    >>> canonical("Path on 3 points")
    'path on 3 points (d(i, j) = |i - j|)'
    >>> canonical("2 * (discrete metric on 3 points)"), canonical("three friends")
    ('2 * (discrete metric on 3 points)', None)
    >>> canonical("path on four points")
    Traceback (most recent call last):
    ...
    ValueError: the description 'path on four points' is written as a known family's but is not one the kernel reads
    """
    t = normalise(description)
    low = re.sub(r"^(?:the|a|an) ", "", t.casefold())
    sc = re.fullmatch(r"([0-9]+(?:/[0-9]+)?) ?\* ?\((.*)\)", low)
    if sc is not None:
        inner = re.sub(r"^[0-9/]+ ?\* ?\(", "", t)[:-1]
        got = canonical(inner)
        return None if got is None else f"{sc[1]} * ({got})"
    if ": graph with " in low and not low.startswith("graph with "):
        head, tail = t.split(": ", 1) if ": " in t else (t, "")
        got = canonical(tail) if tail.casefold().startswith("graph with ") else None
        if got is not None:
            return f"{head}: {got}"
    for pat, canon in _CANON:
        m = pat.fullmatch(low)
        if m is not None:
            return canon(m)
    if _FAMILY_FORM.match(low) or ": graph with " in low:
        raise ValueError(f"the description {description!r} is written as a known family's but is not one the "
                         "kernel reads")
    return None


def name_note(description: str, described: bool, what: str = "the metric is the one its carried definition "
              "gives") -> str:
    """The one note every kind appends to its detail when the metric's description is a name: ``""`` when it
    was rebuilt (``described``).

    >>> name_note("three friends", False)
    "; the metric's description 'three friends' is a name, not re-derived (the metric is the one its carried \
definition gives)"
    >>> name_note("path on 3 points (d(i, j) = |i - j|)", True)
    ''
    """
    return "" if described else f"; the metric's description {description!r} is a name, not re-derived ({what})"


def metric_note(metric: dict) -> str:
    """:func:`name_note` of a metric record (its description rebuilt by :func:`derive`): what the kinds that read a
    neighbour relation off a metric (approx, profile, audit, renyi, fdp, extension, utility) append to their detail.

    >>> metric_note({"description": "three friends", "points": 2, "labels": ["a", "b"], "pairs": [],
    ...              "reduction": "", "all_pairs_at": "1", "edges": None, "distances": None})[:52]
    "; the metric's description 'three friends' is a name"
    """
    return name_note(metric["description"], derive(metric)[1])


def _described(metric: dict, edges) -> bool:
    """The description of a metric record or table rebuilt from its edges (``edges()``: the defining edges, all
    pairs of ``all_pairs_at``, or a table's generating pairs): True, False for a name, ``ValueError`` when it is
    written in a known family's form (any size) that the record is not."""
    canon = canonical(metric["description"])
    if canon is None:
        return False
    return _graph_described({**metric, "description": canon}, edges())


#: the edges of a generated family, by its canonical description's first word
def _family_edges(desc: str, n: int):
    """``(edges, how)`` of a path, cycle or discrete metric named by ``desc`` (unit edges; the discrete metric's
    graph is complete), or None when ``desc`` names no such family. Refuses a description whose point count is not
    the metric's ``n``: the description would state a different metric."""
    m = re.fullmatch(r"(path|cycle|discrete metric) on ([0-9]+) points.*", desc)
    if m is None:
        return None
    if int(m[2]) != n:
        raise ValueError(f"the description names {int(m[2])} points, the metric has {n}")
    if m[1] == "discrete metric":
        return {(i, j, "1") for i in range(n) for j in range(i + 1, n)}, GRAPH_REDUCTION + " (here the graph is " \
            "complete)"
    out = {(i, i + 1, "1") for i in range(n - 1)} | ({(0, n - 1, "1")} if m[1] == "cycle" and n > 1 else set())
    return out, GRAPH_REDUCTION


def _table_is_family(canon: str, labels: list, values: list, codes: list) -> bool:
    """A table above ``MAX_MATRIX_POINTS`` compared entry by entry (O(n^2), exact) with a path, cycle, discrete metric
    or grid's distance (any scale ``c * (...)``); ``ValueError`` when an entry differs, :class:`TooLarge` for
    another family."""
    n, c = len(labels), Fraction(1)
    sc = re.fullmatch(r"([0-9]+(?:/[0-9]+)?) \* \((.*)\)", canon)
    if sc is not None:
        c, canon = fraction(sc[1]), sc[2]
    fam = re.fullmatch(r"(path|cycle|discrete metric) on ([0-9]+) points.*", canon)
    grid = _GRID.match(canon)
    if fam is None and grid is None:
        return _big_table_other(canon, labels, values, codes)
    if fam is not None:
        _family_edges(canon, n)
        kind = fam[1]
        if kind != "discrete metric" and labels != [str(i) for i in range(n)]:
            raise ValueError("the points are not those of the family the description names")
        def dist(i, j):
            """The distance of points ``i``, ``j`` in the named family, as ``(integer, None)`` (unscaled)."""
            k = abs(i - j)
            return (min(k, n - k) if kind == "cycle" else 1 if kind == "discrete metric" and k else k), None
    elif grid is not None:
        R, C, norm, h = int(grid[1]), int(grid[2]), grid[3], fraction(grid[4] or "1")
        if (_side(labels, 0), _side(labels, 1)) != (R, C) or h <= 0:
            raise ValueError("the points are not those of the grid the description names")
        c *= h
        def dist(i, j):
            """The distance of grid points ``i``, ``j`` (row-major, ``C`` columns) in the named norm, as ``(integer,
            None)`` or, for the euclidean norm, ``(None, squared integer)``, whose square root is taken by the
            caller."""
            dr, dc = abs(i // C - j // C), abs(i % C - j % C)
            return {"manhattan": (dr + dc, None), "chebyshev": (max(dr, dc), None),
                    "euclidean": (None, dr * dr + dc * dc)}[norm]
    _entries_are(canon, values, codes, c, dist)
    return True


def _big_table_other(canon: str, labels: list, values: list, codes: list) -> bool:
    """A table above ``MAX_MATRIX_POINTS`` described as a Hamming space or a set of subsets (compared entry by entry:
    the number of positions, resp. elements, in which two points differ), or a graph (its node count and components
    re-derived, its edge count in the range a table allows -- from ``n - components`` to the finite pairs -- and
    then a name: the generating pairs of so large a table are not re-derived)."""
    n = len(labels)
    if canon.startswith("Hamming distance on V^u"):
        k, u = _hamming_shape(labels)
        if canon != f"Hamming distance on V^u with |V| = {k}, u = {u}":
            raise ValueError("the points are not those of the Hamming space the description names")
        words = [x.split(",") for x in labels]
        _entries_are(canon, values, codes, Fraction(1),
                     lambda i, j: (sum(a != b for a, b in zip(words[i], words[j], strict=True)), None))
        return True
    if (sub := _SUBSETS.match(canon)) is not None:
        sets = [frozenset(x[1:-1].split(",")) - {""} for x in labels]
        if not _subset_edges(labels, int(sub.group(1))):
            raise ValueError("the points are not those of the subsets the description names")
        _entries_are(canon, values, codes, Fraction(1), lambda i, j: (len(sets[i] ^ sets[j]), None))
        return True
    tail = canon[canon.index("graph with "):] if "graph with " in canon else ""
    m = re.fullmatch(r"graph with ([0-9]+) nodes and ([0-9]+) edges(?: \(([0-9]+) components; .*\))?", tail)
    if m is None:
        raise TooLarge(f"the description {canon!r} of a table of {n} > {MAX_MATRIX_POINTS} points is not re-derived "
                       "(a family the kernel compares entry by entry: path, cycle, discrete metric, grid, Hamming "
                       "space, subsets, graph)")
    finite = [(i, j) for i in range(n) for j in range(i + 1, n) if values[codes[i][j]] != "inf"]
    comps = _components(n, finite)
    if int(m[1]) != n or int(m[3] or 1) != comps or not n - comps <= int(m[2]) <= len(finite):
        raise ValueError(f"the description {canon!r} is not a graph the table can come from ({n} nodes, {comps} "
                         f"components, at most {len(finite)} edges)")
    return False


def _entries_are(canon: str, values: list, codes: list, c: Fraction, dist) -> None:
    """Every off-diagonal entry of the table is ``c`` times the family's distance ``dist(i, j)`` (an integer ``(k,
    None)``, or ``(None, s)`` for ``sqrt(s)``), decided exactly once per distinct (code, distance)."""
    n = len(codes)
    seen: dict = {}
    for i in range(n):
        for j in range(i + 1, n):        # the zero diagonal and symmetry are checked with the table
            key = (codes[i][j], dist(i, j))
            if key not in seen:
                v, s = key[1]
                want = value(f"({c})*sqrt({s})") if s is not None else c * v
                seen[key] = values[key[0]] != "inf" and sign(_add(value(values[key[0]]), _neg(want))) == 0
            if not seen[key]:
                raise ValueError(f"the distance of points {i} and {j} is not the one of the {canon}")


def _table_pairs(values: list, codes: list) -> list:
    """The generating pairs ``(i, j, d_text, d)`` of a checked table (finite, no point strictly between: ``d(i, k)
    + d(k, j) > d(i, j)`` for every other ``k``).  A certified float filter settles the clear cases (every distance
    enclosed at 120 bits, rounded to a double: a float sum is within ``2^-49`` times the largest term of the true
    one, so a gap above ``2^-40`` of it is positive); near ties are decided exactly, each distinct code triple once."""
    from mpmath.ctx_iv import MPIntervalContext

    from ._kernel import _iv

    num = [None if v == "inf" else value(v) for v in values]
    iv = MPIntervalContext()             # a private context (issue 21): mpmath's global precision is never set
    iv.prec = 120
    inf = float("inf")
    fl = [inf if v is None else float(_iv(v, iv).mid) for v in num]
    n = len(codes)
    F = [[fl[c] for c in row] for row in codes]
    gen = []
    for i in range(n):
        Fi = F[i]
        for j in range(i + 1, n):
            c = codes[i][j]
            if num[c] is None:
                continue
            Fj, d = F[j], fl[c]
            tol = 2.0 ** -40 * max(d, 1.0)
            # k strictly between needs d_ik + d_kj = d_ij: both parts < d_ij, so the float gap is within tol of 0
            near = [k for k in range(n) if k != i and k != j and Fi[k] + Fj[k] - d <= tol * 4]
            if not any(num[codes[i][k]] is not None and num[codes[k][j]] is not None and sign(_add(_add(
                    num[codes[i][k]], num[codes[k][j]]), _neg(num[c]))) == 0 for k in near):
                gen.append((i, j, values[c], num[c]))
    return gen


def _graph_described(metric: dict, edges: list) -> bool:
    """Rebuild the description (and reduction) of a graph metric of a known family from its edges; False
    for a family the kernel does not know (the description is then a name)."""
    labels, desc = metric["labels"], metric["description"]
    n = len(labels)
    es = {(i, j, w) for i, j, w, _ in edges}
    fam = _family_edges(desc, n)
    if fam is not None:
        want, reduction = fam
        what = desc.split(" on ")[0]
        if (what != "discrete metric" and labels != [str(i) for i in range(n)]) or es != want:
            raise ValueError(f"the edges are not those of the {what} the description names")
        if not _reduction_is(metric, reduction):
            raise ValueError(f"the reduction is not the one of a {what}")
        return True
    if (m := re.fullmatch(r"explicit distance matrix on ([0-9]+) points", desc)) is not None:
        if int(m[1]) != n or metric["distances"] is None:
            raise ValueError(f"the metric is not an explicit distance matrix on {m[1]} points")
        if not _reduction_is(metric, MATRIX_REDUCTION):
            raise ValueError("the reduction is not the one of an explicit matrix")
        return True
    if _GRID.match(desc):
        return _grid_described(metric, edges, _GRID.match(desc))
    elif _SCALED.match(desc):
        return _scaled_described(metric, edges, _SCALED.match(desc))
    elif (sub := _SUBSETS.match(desc)) is not None:
        if es != _subset_edges(labels, int(sub.group(1))):
            raise ValueError("the points or edges are not those of the subsets the description names")
        if not _reduction_is(metric, GRAPH_REDUCTION + " (the hypercube: subsets differing in one element)"):
            raise ValueError("the reduction is not the one of the subset hypercube")
        return True
    elif desc.startswith("Hamming distance on V^u"):
        k, u = _hamming_shape(labels)
        if desc != f"Hamming distance on V^u with |V| = {k}, u = {u}" or es != _hamming_edges(labels):
            raise ValueError("the points or edges are not those of the Hamming space the description names")
        if not _reduction_is(metric, GRAPH_REDUCTION + " (the adjacency graph: databases differing in one "
                                              "individual)"):
            raise ValueError("the reduction is not the one of a Hamming space")
        return True
    elif desc.startswith("graph with ") or ": graph with " in desc:
        if not _plain_graph_described(metric, edges, desc):
            return False
    else:
        return False
    if not _reduction_is(metric, GRAPH_REDUCTION):
        raise ValueError("the reduction is not the one of a graph metric")
    return True


def _plain_graph_described(metric: dict, edges: list, desc: str) -> bool:
    """``graph with N nodes and M edges`` (after a query's name, ``...: graph with ...``): the nodes, the edges and
    the components of the carried graph.  False when the count is a name (a distance table shows the generating
    edges only) or the graph comes from a query (its name part); ``ValueError`` when it is not the carried graph."""
    n = len(metric["labels"])
    c = _components(n, [(i, j) for i, j, _, _ in edges])
    want = f"graph with {n} nodes and {len(edges)} edges" + (_GRAPH_SUFFIX.format(c=c) if c > 1 else "")
    tail = desc if desc.startswith("graph with ") else desc[desc.index(": graph with ") + 2:]
    if tail != want:
        # a distance table shows the generating edges only: a weighted graph may have up to every pair as an
        # edge (a longer one is no shortest path); a count in that range is a name, any other is refuted
        m = re.fullmatch(rf"graph with {n} nodes and ([0-9]+) edges" + re.escape(
            _GRAPH_SUFFIX.format(c=c) if c > 1 else ""), tail)
        if metric["reduction"] is None and m is not None and len(edges) <= int(m.group(1)) <= n * (n - 1) // 2:
            return False
        raise ValueError(f"the description {desc!r} is not the carried graph's ({want!r})")
    return tail == desc                       # the graph is checked; where it comes from (a query) is a name


_GRID = re.compile(r"^([0-9]+) x ([0-9]+) grid, (manhattan|chebyshev|euclidean) distance"
                   r"(?:, step ([0-9]+(?:/[0-9]+)?))?$")
_SCALED = re.compile(r"^([0-9]+(?:/[0-9]+)?) \* \((.*)\)$")
_SUBSETS = re.compile(r"^subsets of a ([0-9]+)-element set, symmetric-difference distance$")
EUCLIDEAN_REDUCTION = ("on the Euclidean grid d(x,w) + d(w,y) = d(x,y) holds exactly when w lies on the segment "
                       "[x, y]; the pairs whose segment holds no other grid point (gcd(|dr|, |dc|) = 1) generate "
                       "every other pair by chains along the segment, so it suffices to check them")


def _grid_described(metric: dict, edges: list, g) -> bool:
    """An ``R x C`` grid (Manhattan, Chebyshev or Euclidean, step ``h``): labels ``"r,c"`` in row-major order,
    the unit moves (resp. every pair with ``gcd(|dr|, |dc|) = 1``) as edges of length ``h`` (resp.
    ``h sqrt(dr^2 + dc^2)``, compared exactly: the kernel's sums of square roots are in a canonical form)."""
    labels = metric["labels"]
    R, C, norm, h = int(g.group(1)), int(g.group(2)), g.group(3), fraction(g.group(4) or "1")
    if (_side(labels, 0), _side(labels, 1)) != (R, C) or h <= 0 or g.group(4) == "1":
        raise ValueError("the points are not those of the grid the description names")
    if norm == "euclidean":
        want = {(i, j) for i in range(R * C) for j in range(i + 1, R * C)
                if gcd(abs(i // C - j // C), abs(i % C - j % C)) == 1}
        have = {(i, j): w for i, j, _, w in edges}
        if set(have) != want or any(
                sign(_add(w, _neg(value(f"({h})*sqrt({(i // C - j // C) ** 2 + (i % C - j % C) ** 2})")))) != 0
                for (i, j), w in have.items()):
            raise ValueError("the edges are not those of the grid the description names")
        reduction = EUCLIDEAN_REDUCTION
    else:
        king = norm == "chebyshev"
        if {(i, j, w) for i, j, w, _ in edges} != _grid_edges(labels, king, str(h)):
            raise ValueError("the edges are not those of the grid the description names")
        reduction = GRAPH_REDUCTION + f" (the grid graph with {8 if king else 4} neighbours)"
    if not _reduction_is(metric, reduction):
        raise ValueError("the reduction is not the one of that grid")
    return True


def _scaled_described(metric: dict, edges: list, g) -> bool:
    """``c * (description)`` for a rational ``c > 0``: the edges divided by ``c`` are those of the inner
    description (which is rebuilt in turn, or is a name)."""
    c = fraction(g.group(1))
    if c <= 0:
        raise ValueError("a scale that is not > 0")
    inner = [(i, j, _mul(w, 1 / c)) for i, j, _, w in edges]
    return _graph_described({**metric, "description": g.group(2)},
                            [(i, j, str(w) if isinstance(w, Fraction) else "", w) for i, j, w in inner])


def _subset_edges(labels: list, k: int) -> set:
    """The pairs of subsets ``{a,b}`` differing in one element, at distance 1, when the labels are all ``2^k``
    subsets of one ``k``-element set (each listed once); otherwise an empty set."""
    if not all(isinstance(x, str) and x[:1] == "{" and x[-1:] == "}" for x in labels):
        return set()
    sets = [frozenset(x[1:-1].split(",")) - {""} for x in labels]
    ground = frozenset().union(*sets) if sets else frozenset()
    if len(ground) != k or len(set(sets)) != len(sets) or len(sets) != 2 ** k:
        return set()
    idx = {t: i for i, t in enumerate(sets)}
    return {(min(i, idx[t ^ {e}]), max(i, idx[t ^ {e}]), "1") for t, i in idx.items() for e in ground}


def _side(labels: list, axis: int) -> int:
    """Rows (axis 0) or columns (axis 1) of grid labels ``"r,c"`` in row-major order (0 if they are not)."""
    try:
        cells = [tuple(int(t) for t in x.split(",")) for x in labels]
    except ValueError:
        return 0
    if not cells or any(len(c) != 2 for c in cells):
        return 0
    R, C = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    if cells != [(r, c) for r in range(R) for c in range(C)]:
        return 0
    return (R, C)[axis]


def _grid_edges(labels: list, king: bool, h: str = "1") -> set:
    """The edges (of length ``h``) of the row-major ``R x C`` grid: 4 neighbours, or 8 (``king``: Chebyshev)."""
    R, C = _side(labels, 0), _side(labels, 1)
    moves = [(0, 1), (1, 0)] + ([(1, 1), (1, -1)] if king else [])
    out = set()
    for r in range(R):
        for c in range(C):
            for dr, dc in moves:
                if 0 <= r + dr < R and 0 <= c + dc < C:
                    i, j = r * C + c, (r + dr) * C + c + dc
                    out.add((min(i, j), max(i, j), h))
    return out


def _hamming_shape(labels: list) -> tuple:
    """``(|V|, u)`` when the labels are every word of ``V^u`` (comma-separated, in product order)."""
    words = [x.split(",") for x in labels]
    u = len(words[0]) if words else 0
    V = list(dict.fromkeys(w[-1] for w in words))
    if any(len(w) != u for w in words) or len(labels) != len(V) ** u:
        raise ValueError("the labels are not the words of a Hamming space")
    from itertools import product
    if [list(p) for p in product(V, repeat=u)] != words:
        raise ValueError("the labels are not the words of a Hamming space in order")
    return len(V), u


def _hamming_edges(labels: list) -> set:
    """The pairs of words differing in exactly one position, at distance 1 (``n u |V|`` look-ups)."""
    idx = {x: i for i, x in enumerate(labels)}
    V = list(dict.fromkeys(x.split(",")[-1] for x in labels))
    out = set()
    for x, i in idx.items():
        w = x.split(",")
        for pos in range(len(w)):
            for v in V:
                if v != w[pos]:
                    j = idx[",".join([*w[:pos], v, *w[pos + 1:]])]
                    out.add((min(i, j), max(i, j), "1"))
    return out


def pairs_at_one(metric: dict) -> set:
    """The unordered pairs ``(x, x')`` at distance exactly 1 (a neighbour relation given by a metric).

    When every generating distance is at least 1, they are the generating pairs at distance 1 (any other
    pair is a chain of two or more generating pairs, longer than 1); otherwise every distance is computed
    from the generating pairs (shortest paths, exact)."""
    pairs, _ = derive(metric)
    labels = metric["labels"]
    vals = {d: value(d) for _, _, d in pairs}
    one = Fraction(1)
    if all(not _lt(v, one) for v in vals.values()):
        return {frozenset((x, y)) for x, y, d in pairs if sign(_add(vals[d], _neg(one))) == 0}
    n = len(labels)
    within_limit(n <= MAX_MATRIX_POINTS, f"distances below 1 on {n} > {MAX_MATRIX_POINTS} points")
    idx = {x: i for i, x in enumerate(labels)}
    adj: list = [[] for _ in range(n)]
    for x, y, d in pairs:
        adj[idx[x]].append((idx[y], vals[d]))
        adj[idx[y]].append((idx[x], vals[d]))
    out = set()
    for s in range(n):
        dist = _shortest_from(adj, s, n)
        out |= {frozenset((labels[s], labels[t])) for t in range(n)
                if t != s and dist[t] is not None and sign(_add(dist[t], _neg(one))) == 0}
    return out


# ------------------------------------------------------------------------ a query into an output metric ----
#: families whose description pins every distance of a table over its labels (a graph's edge count or "explicit
#: matrix" does not: such a table is written out in full)
_PINNING = ("path on ", "cycle on ", "discrete metric on ", "subsets of ", "Hamming distance on ")


def label_list(labels) -> str:
    """Labels as one unambiguous list: each JSON-quoted (a comma or a quote inside a label stays inside it).

    >>> print(label_list(["a", "b, c"]))
    ["a", "b, c"]
    """
    return "[" + ", ".join(json.dumps(x, ensure_ascii=False) for x in labels) + "]"


def query_text(f: dict, inputs: list, output: dict | None, description: str) -> str:
    """KL10's query ``f: X -> Y`` and output metric ``(Y, sigma)`` as a claim states them, rebuilt: ``f = id`` or
    the map written out; ``sigma`` by its family's description when the table is that family's (a description
    that pins every distance, checked by :func:`describe_table`), otherwise as the table itself.  A utility or a
    tradeoff is relative to both, so the claim names them (issue 27: neither may be a free input).

    >>> out = {"points": ["0", "1", "2"], "values": ["0", "1", "2"], "codes": [[0, 1, 2], [1, 0, 1], [2, 1, 0]]}
    >>> print(query_text({"0": "0", "1": "1", "2": "2"}, ["0", "1", "2"], out, "path on 3 points (d(i, j) = |i - j|)"))
    f = id into the path on 3 points (d(i, j) = |i - j|)
    >>> print(query_text({"a": "0", "b": "2"}, ["a", "b"], out, "three friends"))
    f = {"a" -> "0", "b" -> "2"} into sigma on ["0", "1", "2"] = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    """
    if output is None:
        raise TooLarge("the output metric is too large for the certificate to carry its distance table")
    if not (isinstance(f, dict) and sorted(f) == sorted(inputs)):
        raise ValueError("f is not a map of the inputs")        # refuted (malformed), never "too large"
    ftext = "f = id" if all(f[x] == x for x in inputs) else \
        "f = {" + ", ".join(f"{json.dumps(x, ensure_ascii=False)} -> {json.dumps(f[x], ensure_ascii=False)}"
                            for x in inputs) + "}"
    labels, values, codes = output["points"], output["values"], output["codes"]
    canon = canonical(description)
    if canon is not None and canon.startswith(_PINNING) and describe_table(description, labels, values, codes):
        return f"{ftext} into the {canon}"
    if not (isinstance(codes, list) and all(isinstance(r, list) and all(type(c) is int and 0 <= c < len(values)
                                                                         for c in r) for r in codes)):
        raise ValueError("the output metric's codes are not indices of its values")
    rows = ", ".join("[" + ", ".join(values[c] for c in r) + "]" for r in codes)
    return f"{ftext} into sigma on {label_list(labels)} = [{rows}]"


# -------------------------------------------------------------- full distance tables and closures ----
#: largest table whose triangle inequality is checked on every triple (n^3 comparisons)
MAX_TRIANGLE = 100


#: largest point set whose distances are rebuilt from generating pairs (Floyd-Warshall, n^3)
MAX_CLOSURE = 40


# ----------------------------------------------------------------------------------------- distances ----
def _d(text):
    """A stated distance: None for ``inf`` (points not connected), else its exact value."""
    return None if text == "inf" else value(text)


def _le(a, b) -> bool:
    """``a <= b`` for distances (``None`` = infinity)."""
    if b is None:
        return True
    if a is None:
        return False
    return sign(_add(a, _neg(b))) <= 0


def check_table(points: list, values: list, codes: list) -> list:
    """A full distance table ``d(points[i], points[j]) = values[codes[i][j]]`` is a metric's (convention 3):
    square, symmetric, zero diagonal, positive off the diagonal (or ``"inf"`` between components) and -- up to
    :data:`MAX_TRIANGLE` points -- the triangle inequality on every triple.  Returns the parsed matrix."""
    n = len(points)
    distinct_labels(points, "points of the distance table")
    refute_unless(isinstance(codes, list) and len(codes) == n and all(isinstance(r, list)
                                                                      and len(r) == n for r in codes),
                  "the distance table is not square over its points")
    refute_unless(all(type(c) is int and 0 <= c < len(values) for r in codes for c in r),
                  f"a distance code is not an integer in [0, {len(values)})")
    vals = [_d(v) for v in values]
    refute_unless(len(set(values)) == len(values), "a distance value is listed twice")
    signs = [None if v is None else sign(v) for v in vals]
    refute_unless(all(s is None or s >= 0 for s in signs), "a negative distance")
    refute_unless(all(signs[codes[i][i]] == 0 for i in range(n)), "a point at a non-zero distance from itself")
    refute_unless(all(codes[i][j] == codes[j][i] for i in range(n) for j in range(i)),
                  "the distance table is not symmetric")
    refute_unless(all(signs[codes[i][j]] != 0 for i in range(n) for j in range(n) if i != j),
                  "two distinct points at distance 0")
    if n <= MAX_TRIANGLE:
        _triangle(points, vals, codes)
    return [[vals[c] for c in r] for r in codes]


def _triangle(points: list, vals: list, codes: list) -> None:
    """``d(i, j) <= d(i, k) + d(k, j)`` on every triple, each distinct triple of codes decided once.

    A certified float filter settles the clear cases: every distance is enclosed at 120 bits and rounded to the
    nearest double (relative error <= 2^-52), so a float sum ``d(i,k) + d(k,j) - d(i,j)`` is within ``2^-49``
    times the largest of the three of the true value; a margin of ``2^-40`` of it decides.  Near ties are decided
    exactly."""
    from mpmath.ctx_iv import MPIntervalContext

    from ._kernel import _iv
    iv = MPIntervalContext()             # a private context (issue 21): mpmath's global precision is never set
    iv.prec = 120
    fl = [None if v is None else float(_iv(v, iv).mid) for v in vals]
    seen: dict = {}
    n = len(codes)
    for i in range(n):
        ci = codes[i]
        for k in range(n):
            cik, ck = ci[k], codes[k]
            for j in range(n):
                key = (ci[j], cik, ck[j])
                ok = seen.get(key)
                if ok is None:
                    ok = seen[key] = _tri_ok(vals, fl, *key)
                if not ok:
                    refute_unless(False, f"the triangle inequality fails at {points[i]}, {points[k]}, {points[j]}")


def _tri_ok(vals, fl, a, b, c) -> bool:
    """Is ``d_a <= d_b + d_c`` (codes into ``vals``; None is infinite)? Infinite sides are decided by their meaning.
    The float filter only confirms a clear margin: the floats are within ``2^-49`` of the largest side (see
    :func:`_triangle`), so a gap above ``2^-40`` of it is positive; everything else is decided exactly."""
    if vals[b] is None or vals[c] is None:
        return True
    if vals[a] is None:
        return False
    gap = fl[b] + fl[c] - fl[a]
    # float filter: each fl is within 2^-52 relative of its exact value, the sum within 2^-49 of the largest side, so a
    # gap above 2^-40 of it proves d_a < d_b + d_c; a float never refutes (the rest is decided exactly)
    if gap > 2.0 ** -40 * max(fl[a], fl[b], fl[c], 1.0):
        return True
    return _le(vals[a], _add(vals[b], vals[c]))


def closure(points: list, pairs: list) -> list:
    """Shortest-path distances generated by the pairs ``[x, x', d]`` (``None``: not connected), exactly.

    Rational distances: Dijkstra from every point (up to :data:`MAX_CLOSURE_RATIONAL` points); otherwise
    Floyd-Warshall in this kernel's arithmetic (up to :data:`MAX_CLOSURE` points)."""
    n = len(points)
    ix = {p: i for i, p in enumerate(points)}
    adj: list = [dict() for _ in range(n)]
    for x, xp, d in pairs:
        refute_unless(x in ix and xp in ix and x != xp, f"a generating pair ({x}, {xp}) is not a pair of two points")
        v = value(d)
        refute_unless(sign(v) > 0, f"a generating pair ({x}, {xp}) at a non-positive distance")
        i, j = ix[x], ix[xp]
        # a pair listed twice keeps its shorter length: only the shortest can be a distance
        if j not in adj[i] or not _le(adj[i][j], v):
            adj[i][j] = adj[j][i] = v
    if all(isinstance(v, Fraction) for row in adj for v in row.values()):
        work = n * (n + sum(len(r) for r in adj))
        if n > MAX_CLOSURE_RATIONAL or work > MAX_CLOSURE_WORK:
            raise NotHere(f"rebuilding {n} points' distances from {len(pairs)} generating pairs is above this "
                          f"kernel's limits ({MAX_CLOSURE_RATIONAL} points, {MAX_CLOSURE_WORK:,} steps)")
        edges = [list(a.items()) for a in adj]
        return [_shortest_from(edges, s, n) for s in range(n)]
    if n > MAX_CLOSURE:
        raise NotHere(f"rebuilding {n} > {MAX_CLOSURE} points' distances from irrational generating pairs")
    D: list = [[Fraction(0) if i == j else adj[i].get(j) for j in range(n)] for i in range(n)]
    for k in range(n):
        for i in range(n):
            if D[i][k] is None:
                continue
            for j in range(n):
                if D[k][j] is not None:
                    t = _add(D[i][k], D[k][j])
                    if not _le(D[i][j], t):
                        D[i][j] = t
    return D


#: largest point set whose rational distances are rebuilt from generating pairs (Dijkstra from every point)
MAX_CLOSURE_RATIONAL = 2000


#: largest number of Dijkstra steps (points times (points + pair ends)) spent rebuilding distances
MAX_CLOSURE_WORK = 4_000_000


def agree(a, b) -> bool:
    """Two distances (``None`` = infinity) are equal."""
    if a is None or b is None:
        return a is None and b is None
    return sign(_add(a, _neg(b))) == 0
