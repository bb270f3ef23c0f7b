"""Re-check ``profile`` and ``composition`` certificates: the privacy profile re-derived from the mechanisms and K.

Only the standard library and this package's kernel.  From the JSON alone it

1. checks every carried mechanism is one (entries ``>= 0``, rows summing to exactly 1) and that the factors share
   their inputs;
2. re-derives the neighbour relation: the pairs at distance exactly 1 of the carried metric (its generating pairs
   when none is shorter than 1, else the shortest-path closure), or the given list;
3. re-derives each factor's privacy-loss distribution (PLD) per ordered pair and compares it with the stated one;
4. convolves them (ratios and masses multiply; Sommer-Meiser-Mohammadi 2019, Thm. 1) after counting the support
   the convolution can reach -- beyond :data:`MAX_SUPPORT` values or :data:`MAX_WORK` products it answers
   ``not checkable: too large`` before building anything;
5. checks the stated pieces ``A_k - t B_k`` (``t = e^eps``) are the profile: they start at ``t = 1``, their
   breakpoints increase, they join continuously, their slopes ``-B_k`` increase strictly (a convex function),
   each piece's line is ``P(S) - t Q(S)`` of a set of its stated pair (so it is ``<= delta``), and no line of a
   worst set of any ordered pair rises above them (``>= delta``) -- one comparison per line, at the breakpoint
   where the convex difference is smallest;
6. re-evaluates the answers at the requested ``(eps, delta)``, the verdict and the claim sentence.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key
from math import comb, gcd, lcm

from ._kernel import Refuted, refute_unless
from ._metric import closure
from ._kernel import distinct_labels, same
from ._levels import check_level, method_of  # noqa: F401 (profile, composition)
from ._kernel import _add, _div, _mul, _neg, check_codes, level_value, NotHere, sign, value
from ._metric import metric_note
from ._dprivacy import LEVEL, MECH, METRIC, pairs_of

CONFIRMED, REFUTED = "confirmed", "refuted"

#: most loss values of one ordered pair's composed PLD
MAX_SUPPORT = 200_000
#: most products (mass times mass) over all convolutions of a certificate
MAX_WORK = 5_000_000
#: most (loss values x squared bits) of the composed PLDs of a certificate (:func:`_squared_bits`): about 7 s here
MAX_SQUARED_BITS = 10**11
#: most runs of one factor
MAX_TIMES = 100_000
#: most terms of a composed PLD with transcendental entries (no canonical keys here: terms are not merged, and the
#: quotients of exponential polynomials grow with every product)
MAX_TERMS = 50
#: most (terms^2 x runs) over all transcendental convolutions of a certificate (measured: 2,187 take ~1.5 s,
#: 5,120 -- binary randomized response at eps0 = 1 run 5 times -- took 7 s and is refused)
MAX_TERM_WORK = 2_500
#: most (ordered pair, factor) PLDs re-derived
MAX_PLDS = 100_000
INF = "inf"

# ----------------------------------------------------------------------------------------- the shape ----
_PLD = {"factor": "int", "x": "str", "x_prime": "str", "losses": [{"ratio": "str", "mass": "str"}]}
RELATION = {"description": "str", "metric": ("?", METRIC), "pairs": [{"x": "str", "x_prime": "str"}]}
_PIECE = {"t_from": "str", "A": "str", "B": "str", "x": "str", "x_prime": "str"}
_QUERY = {"level": ("?", LEVEL), "delta": "?str", "delta_at_eps": "?str", "t_for_delta": "?str"}
#: the evidence of each kind, read strictly by the dispatcher before any work (:mod:`._schema`)
EVIDENCE = {"profile": {"mechanism": MECH, "relation": RELATION, "plds": [_PLD], "pieces": [_PIECE],
                        "query": _QUERY},
            "composition": {"factors": [{"mechanism": MECH, "times": "int"}], "relation": RELATION,
                            "plds": [_PLD], "pieces": [_PIECE], "query": _QUERY}}


# -------------------------------------------------------------------------------------------- claim ----
def _eps_of_t(t: str) -> str:
    """The eps of a stated ``t = e^eps``, as text: ``0`` for ``1``, ``inf`` for ``inf``, the argument of a whole-text
    ``exp(...)``, else ``log(t)``. Used only to word messages; nothing is decided from it."""
    if t in ("1", INF):
        return "0" if t == "1" else INF
    if t.startswith("exp(") and t.endswith(")"):
        inner, depth = t[4:-1], 0
        for ch in inner:
            depth += (ch == "(") - (ch == ")")
            if depth < 0:
                break
        else:
            if depth == 0:
                return inner
    return f"log({t})"


def claim_text(c: dict) -> str:
    """The claim of a ``profile`` / ``composition`` certificate, rebuilt from its evidence.

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
    >>> ev = {"mechanism": {"name": "RR"}, "relation": {"description": "pair (0, 1)"},
    ...       "query": {"level": {"text": "0"}, "delta": "1/2"}}
    >>> claim_text({"kind": "profile", "evidence": ev})
    'RR is (eps, delta)-DP with eps = 0, delta = 1/2 over the pair (0, 1)'
    """
    ev = c["evidence"]
    if c["kind"] == "profile":
        who = ev["mechanism"]["name"]
    else:
        who = "the composition of " + ", ".join(
            f"{f['mechanism']['name']} ({'once' if f['times'] == 1 else str(f['times']) + ' times'})"
            for f in ev["factors"])
    rel, q = ev["relation"]["description"], ev["query"]
    if q["level"] is not None and q["delta"] is not None:
        return f"{who} is (eps, delta)-DP with eps = {q['level']['text']}, delta = {q['delta']} over the {rel}"
    if q["level"] is not None:
        return f"the smallest delta of {who} at eps = {q['level']['text']} over the {rel} is {q['delta_at_eps']}"
    if q["delta"] is not None:
        return (f"the smallest eps with delta(eps) <= {q['delta']} for {who} over the {rel} is "
                f"{_eps_of_t(q['t_for_delta'] or INF)}")
    return f"the privacy profile of {who} over the {rel} has {len(ev['pieces'])} pieces"


# ---------------------------------------------------------------------------------------- mechanisms ----
def _rows(m: dict) -> dict:
    """label -> list of kernel values; refuted unless a mechanism (shape, entries >= 0, rows summing to 1)."""
    distinct_labels(m["inputs"], "inputs")
    distinct_labels(m["outputs"], "outputs")
    codes, vals = m["codes"], m["values"]
    refute_unless(isinstance(vals, list), "the mechanism's values are not a list")
    check_codes(codes, len(vals))
    refute_unless(len(codes) == len(m["inputs"]) and all(len(r) == len(m["outputs"]) for r in codes),
                  "the code matrix does not match the labels")
    parsed = [value(v) for v in vals]
    refute_unless(all(sign(v) >= 0 for v in parsed), "a negative entry: not a mechanism")
    rows = {}
    for x, r in zip(m["inputs"], codes, strict=True):
        row = [parsed[k] for k in r]
        tot = Fraction(0)
        for v in row:
            tot = _add(tot, v)
        refute_unless(sign(_add(tot, Fraction(-1))) == 0, f"row {x} does not sum to exactly 1: not a mechanism")
        rows[x] = row
    return rows


def relation_note(rel: dict) -> str:
    """Return the detail's note when the relation's metric description is a name.

    The one note of :func:`._metric.name_note` (via :func:`._metric.metric_note`), shared by profile,
    composition, audit, renyi and fdp.

    Parameters
    ----------
    rel : dict
        A relation record (``description``, ``metric`` or None, ``pairs``).

    Returns
    -------
    str
        ``""`` for a given list of pairs or a description the kernel rebuilt, else "; the metric's description
        '...' is a name, not re-derived (...)".

    Examples
    --------
    >>> relation_note({"description": "given list of 1 neighbouring pairs", "metric": None, "pairs": []})
    ''
    >>> m = {"description": "two friends", "points": 2, "labels": ["a", "b"], "pairs": [], "reduction": "",
    ...      "all_pairs_at": "1", "edges": None, "distances": None}
    >>> relation_note({"description": "pairs at distance 1 of the two friends", "metric": m, "pairs": []})[:50]
    "; the metric's description 'two friends' is a name"
    """
    return "" if rel["metric"] is None else metric_note(rel["metric"])


def _relation(rel: dict, inputs: list) -> list:
    """The unordered neighbouring pairs re-derived (from the metric) or read (the given list), in stated order."""
    stated = [(p["x"], p["x_prime"]) for p in rel["pairs"]]
    refute_unless(all(x in inputs and xp in inputs and x != xp for x, xp in stated),
                  "a neighbouring pair is not two inputs")
    keys = [frozenset(p) for p in stated]
    refute_unless(len(set(keys)) == len(keys), "a neighbouring pair is listed twice")
    metric = rel["metric"]
    if metric is None:
        refute_unless(rel["description"] == f"given list of {len(stated)} neighbouring pairs",
                      "the relation's description is not the given list's")
        return stated
    refute_unless(rel["description"] == f"pairs at distance 1 of the {metric['description']}",
                  "the relation's description is not the metric's")
    refute_unless(metric["points"] == len(inputs), "the metric's points are not the mechanism's inputs")
    gen = pairs_of(metric)
    refute_unless(all(x in inputs and xp in inputs for x, xp, _ in gen),
                  "a metric pair names a point that is not an input")
    if all(sign(_add(value(d), Fraction(-1))) >= 0 for _, _, d in gen):
        # a non-generating pair is a path of >= 2 generating pairs, each >= 1: at distance >= 2
        derived = {frozenset((x, xp)) for x, xp, d in gen if sign(_add(value(d), Fraction(-1))) == 0}
    else:
        D = closure(list(inputs), gen)
        derived = {frozenset((inputs[i], inputs[j])) for i in range(len(inputs)) for j in range(i + 1, len(inputs))
                   if D[i][j] is not None and sign(_add(D[i][j], Fraction(-1))) == 0}
    refute_unless(set(keys) == derived, "the neighbouring pairs are not the metric's pairs at distance 1")
    return stated


# ------------------------------------------------------------------------------------------------ PLDs ----
def _pld(P: list, Q: list):
    """``(inf_mass, [(ratio, mass), ...])`` with equal ratios merged, decreasing ratios; outputs with P = 0
    dropped."""
    inf = Fraction(0)
    atoms: list = []
    exact: dict = {}            # rational ratio -> index in atoms (merged by hashing)
    for p, q in zip(P, Q, strict=True):
        # P(y) = 0: no loss at y, and y is in no worst set (it adds 0 to P(S) - t Q(S) at best)
        if sign(p) == 0:
            continue
        # Q(y) = 0 < P(y): an infinite loss, whose mass is in every worst set at every eps
        if sign(q) == 0:
            inf = _add(inf, p)
            continue
        r = _div(p, q)
        if isinstance(r, Fraction):
            k = exact.get(r)
            if k is None:
                exact[r] = len(atoms)
                atoms.append((r, p))
            else:
                atoms[k] = (r, _add(atoms[k][1], p))
            continue
        for k, (s, m) in enumerate(atoms):
            if not isinstance(s, Fraction) and sign(_add(s, _neg(r))) == 0:
                atoms[k] = (s, _add(m, p))
                break
        else:
            atoms.append((r, p))
    atoms.sort(key=cmp_to_key(_desc))
    return inf, atoms


def _desc(u, v) -> int:
    """Order of two PLD atoms ``(ratio, mass)`` by decreasing ratio (fractions compared directly, else by the
    kernel's exact sign), so that a stated PLD and a re-derived one are compared atom by atom."""
    if isinstance(u[0], Fraction) and isinstance(v[0], Fraction):
        return (v[0] > u[0]) - (v[0] < u[0])
    return sign(_add(v[0], _neg(u[0])))


def _stated_pld(p: dict, inf, atoms) -> None:
    """Refute unless the stated PLD of a pair (``p["losses"]``) is exactly the re-derived one: the infinite-loss mass
    first (when non-zero), then the atoms in decreasing ratio, each ratio and mass equal as exact values."""
    want = ([(INF, inf)] if sign(inf) != 0 else []) + atoms
    got = p["losses"]
    refute_unless(isinstance(got, list) and len(got) == len(want) and all(
                  (a["ratio"] == INF) == (r == INF) and (r == INF or same(a["ratio"], r)) and same(a["mass"], m)
                  for a, (r, m) in zip(got, want, strict=True)),
                  f"the PLD of ({p['x']}, {p['x_prime']}) for factor {p['factor']} is not the mechanism's")


def _bound(sizes: list) -> int:
    """The cost of convolving factors with ``s`` distinct ratios (of at most ``b`` bits) ``K`` times each:
    products times the size of the numbers they multiply (``MAX_WORK + 1`` as soon as that is exceeded).  A K-fold
    PLD with s ratios has at most C(K + s - 1, K) values (multisets of its losses)."""
    work, prev, bits = 0, 1, 0
    for s, K, b in sizes:
        cur = prev
        for j in range(1, K + 1):
            bits += b
            work += cur * s * (1 + bits // 256)
            if work > MAX_WORK:
                return MAX_WORK + 1
            cur = prev * comb(j + s - 1, j)
            if cur > MAX_SUPPORT:
                return MAX_WORK + 1
        prev = cur
    return work


def _squared_bits(sizes: list) -> int:
    """The composed PLD's loss values times the square of its numbers' bits (``K b`` per factor run ``K`` times
    with ``b``-bit atoms): the cost of the exact work on it, whose gcds and comparisons are quadratic in the bits
    (measured: 21 values of 41,000 bits, 3.5e10, took 2.3 s; 71 values of 143,000 bits took minutes)."""
    support, bits = 1, 0
    for s, K, b in sizes:
        support *= comb(K + s - 1, K)
        bits += K * b
    return support * bits * bits


def _bits(atoms: list) -> int:
    """The largest numerator or denominator bit length among PLD atoms, for the cost estimate of
    :func:`_squared_bits`. An atom that is not a fraction counts a nominal 64 bits (the general route of
    :func:`_convolve` is bounded by ``MAX_TERMS`` instead)."""
    return max((max(v.numerator.bit_length(), v.denominator.bit_length()) if isinstance(v, Fraction) else 64
                for a in atoms for v in a), default=1)


def _convolve(base: list):
    """The composed PLD ``(inf_mass, [(ratio, mass), ...])`` (decreasing ratios) of ``[(pld, K), ...]``."""
    rational = all(isinstance(r, Fraction) and isinstance(m, Fraction) for (inf, at), _ in base for r, m in at) \
        and all(isinstance(inf, Fraction) for (inf, _), _ in base)
    inf_tot: object = Fraction(0)
    for (inf, _), K in base:
        for _ in range(K):
            inf_tot = _add(_add(inf_tot, inf), _neg(_mul(inf_tot, inf)))     # 1 - (1 - a)(1 - b)
    if rational:
        return inf_tot, _convolve_int(base)
    cur: list | None = None
    for (_inf, atoms), K in base:
        for _ in range(K):
            cur = list(atoms) if cur is None else [(_mul(r1, r2), _mul(m1, m2)) for r1, m1 in cur for r2, m2 in atoms]
            if len(cur) > MAX_TERMS:
                raise NotHere(f"too large: a composed PLD with transcendental entries has more than {MAX_TERMS} terms")
    return inf_tot, sorted(cur or [], key=cmp_to_key(_desc))


def _convolve_int(base: list) -> list:
    """Rational convolution in integers: ratios as reduced ``(num, den)`` keys, masses as numerators over the
    product of the factors' common denominators (no fraction is normalised inside the loop)."""
    cur: dict = {(1, 1): 1}
    den = 1
    for (_, atoms), K in base:
        d = lcm(*(m.denominator for _, m in atoms)) if atoms else 1
        step = [(r.numerator, r.denominator, m.numerator * (d // m.denominator)) for r, m in atoms]
        for _ in range(K):
            out: dict = {}
            for (n1, d1), m1 in cur.items():
                for n2, d2, m2 in step:
                    # both ratios are in lowest terms, so the product's common factors are gcd(n1, d2) and
                    # gcd(n2, d1): gcds with one small operand, not one of the product's size (quadratic in bits)
                    g1, g2 = gcd(n1, d2), gcd(n2, d1)
                    key = ((n1 // g1) * (n2 // g2), (d1 // g2) * (d2 // g1))
                    out[key] = out.get(key, 0) + m1 * m2
            cur = out
            den *= d
    items = [(Fraction(n, dd), Fraction(m, den)) for (n, dd), m in cur.items() if m]
    items.sort(key=lambda u: u[0], reverse=True)
    return items


def _lines(inf, items) -> list:
    """``(A, B) = (P(S), Q(S))`` of the empty set and of every prefix ``{ratio >= r}``, ``r > 1`` (Q = P / r)."""
    out = [(Fraction(0), Fraction(0))]
    A, B = inf, Fraction(0)
    if sign(inf) != 0:
        out.append((A, B))
    for r, m in items:
        if (r <= 1) if isinstance(r, Fraction) else sign(_add(r, Fraction(-1))) <= 0:
            break
        A, B = _add(A, m), _add(B, _div(m, r))
        out.append((A, B))
    return out


# ---------------------------------------------------------------------------------------------- pieces ----
def _diff(a, b) -> int:
    """The sign of ``a - b`` (fractions compared directly, else by the kernel's exact sign)."""
    if type(a) is Fraction and type(b) is Fraction:
        return (a > b) - (a < b)
    return sign(_add(a, _neg(b)))


def _at(A, B, t):
    """``A - t B``: a piece's or a line's value at ``t = e^eps`` (``delta = P(S) - e^eps Q(S)`` of a set ``S``)."""
    if type(A) is Fraction and type(B) is Fraction and type(t) is Fraction:
        return A - t * B
    return _add(A, _neg(_mul(t, B)))


def _check_pieces(pieces: list, lines_of: dict) -> list:
    """Refuted unless the stated pieces are exactly the upper envelope of every pair's lines on ``t >= 1``."""
    refute_unless(isinstance(pieces, list) and len(pieces) >= 1, "no pieces")
    P = [(value(p["t_from"]), value(p["A"]), value(p["B"])) for p in pieces]
    refute_unless(_diff(P[0][0], Fraction(1)) == 0, "the first piece does not start at eps = 0")
    for k in range(1, len(P)):
        t, A, B = P[k]
        refute_unless(_diff(t, P[k - 1][0]) > 0, f"the breakpoints do not increase at piece {k}")
        # strictly increasing slopes -B and pieces that meet: the convex, continuous function an upper envelope of lines
        # is; together with the two checks below (every piece a line, no line above) it is that envelope
        refute_unless(_diff(B, P[k - 1][2]) < 0,
                      f"the slopes of pieces {k - 1} and {k} do not increase (not the convex "
                      "profile)")
        refute_unless(_diff(_at(*P[k - 1][1:], t), _at(A, B, t)) == 0,
                      f"pieces {k - 1} and {k} do not meet at their breakpoint")
    if not lines_of:
        refute_unless(len(P) == 1 and sign(P[0][1]) == 0 and sign(P[0][2]) == 0
                      and pieces[0]["x"] == pieces[0]["x_prime"]
                      == "", "an empty relation has the profile 0 and no attaining pair")
        return P
    for k, (p, (_t, A, B)) in enumerate(zip(pieces, P, strict=True)):
        lines = lines_of.get((p["x"], p["x_prime"]))
        refute_unless(lines is not None, f"piece {k}: ({p['x']}, {p['x_prime']}) is not an ordered neighbouring pair")
        refute_unless(any(_diff(A, a) == 0 and _diff(B, b) == 0 for a, b in lines),   # type: ignore[union-attr]
                      f"piece {k}: {p['A']} - ({p['B']}) e^eps is not P(S) - e^eps Q(S) of a set S for "
                      f"({p['x']}, {p['x_prime']})")
    Bs = [B for _, _, B in P]
    for (x, xp), lines in lines_of.items():
        for a, b in lines:
            lo, hi = 0, len(P)                   # the first piece with B_k <= b: there f - line is smallest
            while lo < hi:
                mid = (lo + hi) // 2
                if _diff(Bs[mid], b) <= 0:
                    hi = mid
                else:
                    lo = mid + 1
            refute_unless(lo < len(P), f"a worst set of ({x}, {xp}) exceeds the stated profile as eps grows")
            t, A, B = P[lo]
            refute_unless(_diff(_at(A, B, t), _at(a, b, t)) >= 0,
                          f"a worst set of ({x}, {xp}) exceeds the stated profile at e^eps = {pieces[lo]['t_from']}")
    return P


def _profile_at(P: list, t):
    """The profile ``P`` (pieces ``(t_from, A, B)``, already checked by :func:`_check_pieces`) at ``t``: the last
    piece starting at or before ``t``, evaluated there."""
    k = 0
    for j, (tj, _, _) in enumerate(P):
        if _diff(tj, t) <= 0:
            k = j
    return _at(P[k][1], P[k][2], t)


def _t_for(P: list, d):
    """The smallest ``t = e^eps >= 1`` with ``delta(eps) <= d`` on the checked profile ``P``, or None (never).

    The pieces are walked in order (they join continuously, :func:`_check_pieces`); the first piece whose value at
    its start, or else at its end, is ``<= d`` gives the answer: its start, or the root ``(A - d) / B`` of its line.
    The last piece is unbounded: its root, or None when its slope is 0.  This is the smallest such ``t`` because a
    profile does not increase in eps (each line's slope ``-Q(S)`` is ``<= 0``)."""
    for k, (t, A, B) in enumerate(P):
        if _diff(_at(A, B, t), d) <= 0:
            return t
        end = P[k + 1][0] if k + 1 < len(P) else None
        if end is None:
            return None if sign(B) == 0 else _div(_add(A, _neg(d)), B)
        if _diff(_at(A, B, end), d) <= 0:
            return _div(_add(A, _neg(d)), B)
    return None


def _check_query(q: dict, P: list, verdict: str) -> None:
    """Refute unless the stated answers of the query are the profile's: the smallest eps for a stated delta
    (:func:`_t_for`), and delta at a stated level (a non-negative eps; ``R = 1`` only as ``D = 1``). Without a
    level, only ``holds`` may be stated (the certificate is a statement of the profile)."""
    lv, d = q["level"], q["delta"]
    if d is not None:
        dv = value(d)
        refute_unless(sign(dv) >= 0 and _diff(dv, Fraction(1)) <= 0, "delta is not in [0, 1]")
        t = _t_for(P, dv)
        stated = q["t_for_delta"]
        refute_unless((stated == INF) if t is None else (stated != INF and same(stated, t)),
                      f"the smallest eps for delta = {d} is not "
                      f"{_eps_of_t(stated) if isinstance(stated, str) else stated}")
    else:
        refute_unless(q["t_for_delta"] is None, "a smallest eps without a delta")
    if lv is None:
        refute_unless(q["delta_at_eps"] is None, "a delta at eps without a level")
        refute_unless(verdict == "holds", "a statement of the profile with a verdict other than holds")
        return
    check_level(lv)
    if lv["eps"] is None:
        refute_unless(sign(_add(value(lv["R"]), Fraction(-1))) >= 0 and sign(value(lv["D"])) > 0, "a negative eps")
        refute_unless(value(lv["R"]) != 1 or lv["D"] == "1", "eps = 0 is written R = 1, D = 1")
    else:
        refute_unless(sign(value(lv["eps"])) >= 0, "a negative eps")
    # at e^eps = R^(1/D), D > 1, delta(eps) = A - B R^(1/D) is a _P of the kernel, compared in fractions
    t = level_value(lv, "1") if not (lv["eps"] is None and value(lv["R"]) == 1) else Fraction(1)
    at = _profile_at(P, t)
    refute_unless(same(q["delta_at_eps"], at), f"delta at eps = {lv['text']} is not {q['delta_at_eps']}")
    holds = d is None or _diff(value(d), at) >= 0
    refute_unless((verdict == "holds") == holds and verdict in ("holds", "fails"),
                  f"the verdict {verdict!r} is not what delta(eps) = {q['delta_at_eps']} gives")


# ----------------------------------------------------------------------------------------------- check ----
def _factors(c: dict) -> list:
    """``[(mechanism, K), ...]``: the one mechanism of a ``profile``, or the factors of a ``composition`` with their
    run counts ``K`` (positive integers, at most ``MAX_TIMES``, refused before any convolution)."""
    ev = c["evidence"]
    if c["kind"] == "profile":
        return [(ev["mechanism"], 1)]
    fs = ev["factors"]
    refute_unless(isinstance(fs, list) and len(fs) >= 1, "no factors")
    out = []
    for f in fs:
        K = f["times"]
        refute_unless(type(K) is int and K >= 1, f"times = {K!r} is not a positive integer")
        if K > MAX_TIMES:
            raise NotHere(f"too large: {K} runs of one mechanism (this kernel convolves up to {MAX_TIMES})")
        out.append((f["mechanism"], K))
    return out


def _count_plds(ev: dict, inputs: list, nfac: int) -> list:
    """The stated PLD list, counted before the relation's pairs are listed (a discrete metric names n(n-1) pairs)."""
    plds = ev["plds"]
    refute_unless(isinstance(plds, list), "the PLDs are not a list")
    metric = ev["relation"]["metric"]
    if metric is not None and metric.get("all_pairs_at") is not None:
        n_in = len(inputs)       # every pair of the discrete metric: n(n-1) ordered pairs, each with its PLDs
        refute_unless(len(plds) == n_in * (n_in - 1) * nfac, "the PLD list is not one per ordered pair and factor")
    if len(plds) > MAX_PLDS:
        raise NotHere(f"too large: {len(plds):,} pair PLDs (this kernel re-derives up to {MAX_PLDS:,})")
    return plds


def _base(plds: list, ordered: list, rows: list, facs: list) -> tuple[dict, dict]:
    """Each ordered pair's factor PLDs re-derived and compared with the stated ones; keyed by the stated texts
    (checked equal in value: equal keys, equal PLDs)."""
    refute_unless(len(plds) == len(ordered) * len(facs), "the PLD list is not one per ordered pair and factor")
    base: dict = {}
    keys: dict = {}
    n = 0
    for x, xp in ordered:
        per, texts = [], []
        for k, (r, (_, K)) in enumerate(zip(rows, facs, strict=True)):
            p = plds[n]
            n += 1
            refute_unless(p["factor"] == k and p["x"] == x and p["x_prime"] == xp,
                          f"PLD {n - 1} is not of ({x}, {xp}), "
                          f"factor {k}")
            inf, atoms = _pld(r[x], r[xp])
            _stated_pld(p, inf, atoms)
            per.append(((inf, atoms), K))
            texts.append((K, [(a["ratio"], a["mass"]) for a in p["losses"]]))
        base[(x, xp)] = per
        keys[(x, xp)] = repr(texts)
    return base, keys


def _precount(base: dict, keys: dict) -> None:
    """The convolutions' work, once per distinct list of PLDs, counted before any of it is done."""
    work = term_work = squared = 0
    for key in set(keys.values()):
        per = next(base[o] for o, k in keys.items() if k == key)
        if not all(isinstance(v, Fraction) for (inf, at), _ in per for a in at for v in a):
            terms, runs = 1, sum(K for _, K in per)
            for (_, atoms), K in per:
                for _ in range(K):
                    terms *= max(1, len(atoms))
                    if terms > MAX_TERMS:
                        raise NotHere(f"too large: a composed PLD with transcendental entries has more than "
                                      f"{MAX_TERMS} terms")
            term_work += terms * terms * runs
            if term_work > MAX_TERM_WORK:
                raise NotHere(f"too large: the transcendental convolutions exceed {MAX_TERM_WORK:,} (terms^2 x runs)")
            continue
        sizes = [(len(atoms), K, _bits(atoms)) for (_, atoms), K in per]
        work += _bound(sizes)
        if work > MAX_WORK:
            raise NotHere(f"too large: the convolutions need more than {MAX_WORK:,} products or a PLD with more than "
                          f"{MAX_SUPPORT:,} loss values")
        squared += _squared_bits(sizes)
        if squared > MAX_SQUARED_BITS:
            raise NotHere(f"too large: the composed PLD's {squared:.2e} (loss values x squared bits) > "
                          f"{MAX_SQUARED_BITS:.0e} (its gcds and comparisons grow with the square of the bits)")


def _run(c: dict) -> int:
    """Re-check a profile or composition certificate (the steps of this module's docstring, in that order: the claim,
    the mechanisms, the relation, the PLDs, the convolution after its cost is counted, the pieces, the query);
    returns the number of lines compared, a measure of the work."""
    ev = c["evidence"]
    refute_unless(c["claim"] == claim_text(c), "the claim is not the one its evidence states")
    facs = _factors(c)
    rows = [_rows(m) for m, _ in facs]
    inputs = facs[0][0]["inputs"]
    refute_unless(all(set(m["inputs"]) == set(inputs) for m, _ in facs), "the mechanisms do not share their inputs")
    plds = _count_plds(ev, inputs, len(facs))
    pairs = _relation(ev["relation"], inputs)
    ordered = [o for x, xp in pairs for o in ((x, xp), (xp, x))]
    base, keys = _base(plds, ordered, rows, facs)
    # every convolution's cost counted before any is done (not checkable beyond the limits)
    _precount(base, keys)
    lines_of: dict = {}
    memo: dict = {}
    for o, per in base.items():
        # ordered pairs with the same list of PLDs share one convolution
        if keys[o] not in memo:
            memo[keys[o]] = _lines(*_convolve(per))
        lines_of[o] = memo[keys[o]]
    P = _check_pieces(ev["pieces"], lines_of)
    _check_query(ev["query"], P, c["verdict"])
    return sum(len(v) for v in lines_of.values())


def check(c: dict):
    """``(status, checked, detail)`` for a ``profile`` or ``composition`` certificate.

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
    >>> ev = {"mechanism": {"name": "RR"}, "relation": {"description": "pair (0, 1)"},
    ...       "query": {"level": {"text": "0"}, "delta": "1/2"}}
    >>> check({"kind": "profile", "claim": "RR is private", "evidence": ev})
    ('refuted', 0, 'the claim is not the one its evidence states')
    """
    try:
        n = _run(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return CONFIRMED, n, (f"{len(c['evidence']['pieces'])} pieces of the profile re-derived against {n} worst-set "
                          "lines of the convolved PLDs; the answers at the query and the verdict re-evaluated"
                          + relation_note(c["evidence"]["relation"]))
