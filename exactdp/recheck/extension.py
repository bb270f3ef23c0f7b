"""Re-check ``extension`` and ``best_extension`` certificates (BCSZ18) from their JSON alone.

``extension`` (every entry of the mechanism on H rational; ``e^(eps d)``
rational, or transcendental for a rational or algebraic ``eps d``, when the
comparisons use this kernel's exact zero test (Lindemann-Weierstrass on
collected exponents) and intervals at rising precision): part (a) is re-decided on every
pair of points of H (distances from the certificate's table); the extension is *recomputed* from the mechanism
on H and the stated distances -- every minimum, normaliser and entry -- and
compared with the stated one; (b) is re-derived; (c) is re-decided on the
generating pairs of M at ``2 eps``.  ``best_extension``: both slack LPs are
rebuilt from the instance and verified from primal and dual
(:func:`exactdp.recheck._lp.check_lp`); the lower end must have slack > 0 and
the upper end slack 0 with its stated extension.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import lcm

import mpmath
import numpy as np

from ._kernel import Refuted, refute_unless
from ._metric import agree, closure
from ._kernel import distinct_labels, same
from ._levels import check_double, check_level, method_for, enclosure_ok, eps_level, factor, iv_eps, smallest_eps_ok
from ._kernel import rational as _q
from ._kernel import NotHere, _P, _add, _div, _mul, _neg, check_codes, compare, level_factor, sign, value
from ._kernel import within_limit
from ._labels import mechanism_note
from ._metric import metric_note
from ._lp import check_lp
from ._dprivacy import pairs_of
from ._lp import LP_SOLUTION
from ._dprivacy import CONSTRAINT, LEVEL, MECH, METRIC

CONFIRMED, REFUTED = "confirmed", "refuted"

# ----------------------------------------------------------------------------------------- the shape ----
#: BCSZ18's chain at the binding instance (every number exact, as text)
_BINDING = {k: "str" for k in ("D1", "D2", "output", "distance", "argmin_D1", "argmin_D2", "d_D1_argmin",
                               "d_D2_argmin", "A_hat_argmin_D1", "A_hat_argmin_D2", "m1", "m2", "factor", "factor_m2",
                               "Z1", "Z2", "factor_Z1", "A1", "A2", "ratio", "factor2")}
#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {
    "extension": {"mech_on_H": MECH, "H": ["str"], "metric": METRIC, "restricted": METRIC, "points": ["str"],
                  "distances": [["str"]], "level": LEVEL, "level_2eps": LEVEL, "private_on_H": "str",
                  "epsilon_of_A_hat": "?str", "violation": ("?", CONSTRAINT), "mechanism": ("?", MECH),
                  "normalisers": ("?", ["str"]), "agrees_on_H": "?bool", "normalisers_equal_1": "int",
                  "disagreement": ("?", {"D": "str", "output": "str", "A": "str", "A_hat": "str", "Z_D": "str"}),
                  "private_2eps": "str", "violation_2eps": ("?", CONSTRAINT), "epsilon": "?str",
                  "enclosure": ("?", ["str"]), "binding": ("?", _BINDING), "witness": ("?", {"part": "str"}),
                  "extension_note": "?str"},
    "best_extension": {"mech_on_H": MECH, "H": ["str"], "points": ["str"], "free": ["str"], "metric": METRIC,
                       "level": LEVEL, "t_lower": "?str", "lp_lower": ("?", LP_SOLUTION), "t_upper": "str",
                       "lp_upper": LP_SOLUTION, "factor_lower": ["str"], "factor_upper": ["str"], "mechanism": MECH}}


def _rows(m: dict) -> list:
    """The exact rows of a carried mechanism (``values`` indexed by ``codes``, the codes checked to index them)."""
    check_codes(m["codes"], len(m["values"]))
    vals = [value(v) for v in m["values"]]
    return [[vals[c] for c in row] for row in m["codes"]]


def _factor(level: dict, d: str):
    """``e^(eps d)``: a fraction, or an exponential polynomial of this kernel (transcendental levels)."""
    return factor(level, d)


def _cmp(a, b) -> int:
    """Sign of ``a - b``: fractions directly; otherwise the kernel's exact zero test, then intervals."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return sign(_add(a, _neg(b)))


def _private(rows: dict, pairs: list, level: dict) -> bool:
    """Is every pair ``(x, x', d)`` eps*d-private: ``M[x][z] <= e^(eps d) M[x'][z]`` and the reverse, for every
    output ``z`` (exact comparisons)? Used for part (a) on H and part (c) on M's generating pairs at ``2 eps``."""
    for x, xp, d in pairs:
        E = _factor(level, d)
        for a, b in zip(rows[x], rows[xp], strict=True):
            if _cmp(a, _mul(E, b)) > 0 or _cmp(b, _mul(E, a)) > 0:
                return False
    return True


def _min(vals):
    """The least of ``vals`` under the kernel's exact comparison (the first one on a tie)."""
    best = vals[0]
    for v in vals[1:]:
        if _cmp(v, best) < 0:
            best = v
    return best


#: the work bound of the recomputed extension (issue 27: cost, not terms): candidate products ``|M| |H| |W|``
#: weighted by the bit size of the largest integer product, in 64-bit words, on the exact-integer route
MAX_EXTENSION_COST = 400_000_000
#: candidate products on the general route (exponential polynomials, each compared by the exact zero test)
MAX_EXTENSION_TERMS = 200_000


def _extension(ev, Ah):
    """The inf-construction recomputed: (rows, normalisers, minima), or the index of the first point whose
    normaliser is 0 (the extension is undefined there).  Rational entries and factors take the exact-integer
    route (:func:`_extension_integers`); anything else compares kernel values one by one, within
    :data:`MAX_EXTENSION_TERMS` candidate products."""
    factors: dict = {}

    def E(d):                               # e^(eps d), parsed once per distinct distance text
        """``e^(eps d)`` at the certificate's level, parsed once per distinct distance text."""
        if d not in factors:
            factors[d] = _factor(ev["level"], d)
        return factors[d]
    fast = _extension_integers(ev, Ah, E)
    if fast is not None:
        return fast
    terms = len(ev["distances"]) * len(Ah) * (len(Ah[0]) if Ah else 0)
    within_limit(terms <= MAX_EXTENSION_TERMS, f"the extension's {terms:,} candidate products of exponential "
                 f"polynomials exceed this kernel's {MAX_EXTENSION_TERMS:,}")
    out, Z, M = [], [], []
    for i, drow in enumerate(ev["distances"]):
        cands = [(E(d), k) for k, d in enumerate(drow) if d != "inf"]
        if not cands:
            return i
        # the inf-construction at point i: m_w = min over h in H at finite distance of e^(eps d(i, h)) A_h(w), then the
        # row m / sum(m); a zero sum leaves the extension undefined at i
        m = [_min([_mul(E, Ah[k][w]) for E, k in cands]) for w in range(len(Ah[0]))]
        z = Fraction(0)
        for v in m:
            z = _add(z, v)
        if _cmp(z, Fraction(0)) == 0:
            return i
        out.append([_div(v, z) for v in m])
        Z.append(z)
        M.append(m)
    return out, Z, M


def _extension_integers(ev, Ah, E):
    """The construction in integers when every entry of A-hat and every factor ``e^(eps d)`` is rational: A-hat
    over one common denominator ``den``, each point's factors over their common denominator ``L``, so every
    candidate ``E_k A-hat_k(w)`` is an integer over ``L den`` and each minimum is Python's ``min`` over ints.
    ``None`` when a value is not rational (the general route then decides).  Bounded by cost -- products times
    the bits of each -- counted point by point before its products are formed (:data:`MAX_EXTENSION_COST`)."""
    if not all(isinstance(v, Fraction) for r in Ah for v in r):
        return None
    dists = ev["distances"]
    texts = {d for row in dists for d in row if d != "inf"}
    for d in texts:
        if not isinstance(E(d), Fraction):
            return None
    W = len(Ah[0]) if Ah else 0
    dens = {v.denominator for r in Ah for v in r}
    top = sum(d.bit_length() for d in dens)            # the common denominator has at most this many bits
    within_limit(len(dens) * (1 + top // 64) <= MAX_EXTENSION_COST and len(Ah) * W * (1 + top // 64)
                 <= MAX_EXTENSION_COST, f"the mechanism on H's {len(dens):,} distinct denominators ({top:,} bits "
                 "together) are too large for its common denominator")
    den = lcm(*dens) if dens else 1
    N = [[v.numerator * (den // v.denominator) for v in r] for r in Ah]
    nbits = max((abs(x).bit_length() for r in N for x in r), default=1)
    # log2 of every entry, -inf for 0: the float filter below only narrows which candidates are multiplied out
    LN = np.array([[math.log2(x) if x else -math.inf for x in r] for r in N], dtype=float).reshape(len(N), W)
    spent = 0
    out, Z, M = [], [], []
    for i, drow in enumerate(dists):
        idx = [k for k, d in enumerate(drow) if d != "inf"]
        if not idx:
            return i
        es = [E(drow[k]) for k in idx]
        L = lcm(*(e.denominator for e in es))
        ints = [e.numerator * (L // e.denominator) for e in es]        # E_k L, integers
        words = 1 + (nbits + max(x.bit_length() for x in ints)) // 64
        mins = _row_minima(ints, idx, N, LN, W)
        # the cost of the exact products this point needed (issue 27: products times their size in words); the
        # float work is |H| W additions per point, bounded with the terms
        spent += (len(mins[1]) + len(idx)) * words + len(idx) * W // 64
        within_limit(spent <= MAX_EXTENSION_COST, f"the extension's exact candidate products (|M| = {len(dists)}, "
                     f"|H| = {len(Ah)}, {W} outputs, up to {64 * words} bits each) cost more than this kernel's "
                     f"{MAX_EXTENSION_COST:,} word operations")
        mins = mins[0]
        z = sum(mins)
        if z == 0:
            return i
        scale = L * den
        out.append([Fraction(v, z) for v in mins])
        Z.append(Fraction(z, scale))
        M.append([Fraction(v, scale) for v in mins])
    return out, Z, M


#: the float filter's margin, relative: far above the error of log2 of an int and of one addition of two
#: non-negative doubles (a few units in the last place, 2^-50 relative)
_FILTER_MARGIN = 2.0 ** -30


def _row_minima(ints: list, idx: list, N: list, LN, W: int) -> tuple:
    """``min_k ints[k] N[idx[k]][w]`` for every output ``w``, exactly, and the candidate pairs multiplied out.

    A certified float filter picks the candidates: ``f_k = log2(ints[k]) + log2(N[idx[k]][w])`` is within
    ``2^-48 (1 + f_k)`` of ``log2`` of the exact product (both terms are logs of positive integers, so
    ``f_k >= 0``), so the exact minimiser has ``f_k <= min f + 2^-47 (1 + min f)``; every candidate inside
    :data:`_FILTER_MARGIN` of the float minimum is multiplied out and the minimum taken exactly among them.
    A zero entry (``f = -inf``) makes the minimum 0 exactly."""
    le = np.array([math.log2(x) for x in ints], dtype=float)
    C = le[:, None] + LN[idx]
    best = C.min(axis=0)
    finite = np.isfinite(best)
    tol = np.where(finite, best + _FILTER_MARGIN * (1 + np.abs(np.where(finite, best, 0))), 0.0)
    js, ws = np.nonzero((tol[None, :] >= C) & finite[None, :])
    mins: list = [0] * W
    seen = [False] * W
    pairs = list(zip(ws.tolist(), js.tolist(), strict=True))
    for w, j in pairs:
        v = ints[j] * N[idx[j]][w]
        if not seen[w] or v < mins[w]:
            mins[w], seen[w] = v, True
    return mins, pairs


def zero_normaliser_note(point: str) -> str:
    """The note of an undefined extension (BCSZ18: ``Z_D = 0`` at ``point``), as the checker words it.

    Parameters
    ----------
    point : str
        The point of the metric where every output has minimum 0.

    Returns
    -------
    str
        The note.

    Examples
    --------
    >>> zero_normaliser_note("7").startswith("mech_on_H: at the point '7' every output has minimum 0 (Z_D = 0)")
    True
    """
    return (f"mech_on_H: at the point {point!r} every output has minimum 0 (Z_D = 0), so the extension is "
            "undefined there; this happens only when rows of the mechanism on H have different supports, i.e. it "
            "is not eps-private for any eps (BCSZ18 Lemma 4.1)")


def _same(xs, ys) -> bool:
    """Are ``xs`` and ``ys`` equal entry by entry (exact comparisons, same length)?"""
    return len(xs) == len(ys) and all(_cmp(a, b) == 0 for a, b in zip(xs, ys, strict=True))


def claim_text(c: dict) -> str:
    """The claim of an ``extension`` / ``best_extension`` certificate, rebuilt from its evidence.

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
    >>> ev = {"mech_on_H": {"name": "K"}, "H": ["0", "2"], "metric": {"description": "path on 3 points"},
    ...       "level": {"text": "log(2)"}}
    >>> print(claim_text({"kind": "extension", "evidence": ev}))
    the BCSZ18 extension of K from |H| = 2 points to the path on 3 points agrees on H and is 2 eps-private,
    eps = log(2)
    """
    ev = c["evidence"]
    if c["kind"] == "best_extension":
        return (f"the smallest eps' of any extension of {ev['mech_on_H']['name']} from |H| = {len(ev['H'])} points "
                f"to the {ev['metric']['description']}, against 2 eps, eps = {ev['level']['text']}")
    return (f"the BCSZ18 extension of {ev['mech_on_H']['name']} from |H| = {len(ev['H'])} points to the "
            f"{ev['metric']['description']} agrees on H and is 2 eps-private, eps = {ev['level']['text']}")


def _metric_tables(ev):
    """The metric's distances rebuilt from its generating pairs (convention 3), checked against the stated table
    ``d(D, h)`` and the restricted metric's pairs; returns ``(D, pairs, restricted pairs)``."""
    pts, H = ev["points"], ev["H"]
    distinct_labels(pts, "points")
    distinct_labels(H, "points of H")
    refute_unless(set(H) <= set(pts), "H is not a subset of the points")
    met, res = ev["metric"], ev["restricted"]
    refute_unless(met["points"] == len(pts) and res["points"] == len(H), "a metric's point count is not its points'")
    refute_unless(met.get("labels") in (None, pts), "the metric's labels are not its points")
    refute_unless(res.get("labels") in (None, H), "the restricted metric's labels are not H")
    refute_unless(res["description"]
                  == f"restriction of the {met['description']} to {len(H)} point{'' if len(H) == 1 else 's'} of H"
                  and res["reduction"] == _RESTRICTED,
                  "the restricted metric is not described as the restriction of the metric")
    pairs = pairs_of(met)
    D = closure(pts, pairs)
    ix = {p: i for i, p in enumerate(pts)}
    tab = ev["distances"]
    refute_unless(isinstance(tab, list) and len(tab) == len(pts) and all(isinstance(r, list)
                                                                         and len(r) == len(H) for r in tab),
                  "the distance table d(D, h) does not have |M| x |H| entries")
    for i, row in enumerate(tab):
        for k, d in enumerate(row):
            refute_unless(agree(None if d == "inf" else value(d), D[i][ix[H[k]]]),
                          f"the table's d({pts[i]}, {H[k]}) = {d} is not the metric's (rebuilt from its "
                          f"generating pairs)")
    rpairs = pairs_of(res)
    DH = closure(H, rpairs)
    for a, h in enumerate(H):
        for b, h2 in enumerate(H):
            refute_unless(agree(DH[a][b], D[ix[h]][ix[h2]]),
                          f"the restricted metric's pairs do not generate d({h}, {h2}) of the metric")
    return D, pairs, rpairs


_RESTRICTED = "the generating pairs are the pairs of H with no point of H strictly between them, found exactly"


def _violation(w, rows: dict, outputs: list, pairs: list, level: dict, what: str) -> None:
    """A stated violated inequality is a real one: entries, distance, both sides and the excess re-derived."""
    refute_unless(isinstance(w, dict) and w.get("output") in outputs, f"{what}: the violation names no output")
    x, xp, z = w["x"], w["x_prime"], outputs.index(w["output"])
    refute_unless(any({x, xp} == {a, b} and d == w["distance"] for a, b, d in pairs),
                  f"{what}: the violation is not on a generating pair at its distance")
    a, b = rows[x][z], rows[xp][z]
    E = _factor(level, w["distance"])
    rhs = _mul(E, b)
    # at a power R^(p/q) the producer states no excess (as privacy does, recheck/_dprivacy.py)
    excess = w["excess"] is None if isinstance(E, _P) else same(w["excess"], _add(a, _neg(rhs)))
    refute_unless(same(w["K_x"], a) and same(w["K_x_prime"], b) and same(w["lhs"], a) and same(w["rhs"], rhs)
                  and excess and _cmp(a, rhs) > 0,
                  f"{what}: the stated violated inequality is not re-derived")


def _check_binding(b, ev, A, Ah, Z, M, pairs, D, ix) -> None:
    """BCSZ18's chain at the binding instance: every number re-derived, and the pair is tight at A's eps."""
    outs, H = ev["mechanism"]["outputs"], ev["H"]
    refute_unless(isinstance(b, dict) and b.get("output") in outs, "the binding instance names no output")
    D1, D2, w = b["D1"], b["D2"], outs.index(b["output"])
    refute_unless(any({D1, D2} == {x, y} and d == b["distance"] for x, y, d in pairs),
                  "the binding instance is not a generating pair at its distance")
    i1, i2 = ix[D1], ix[D2]
    E = _factor(ev["level"], b["distance"])
    for Dn, i, m, arg, dd, ah in ((D1, i1, "m1", "argmin_D1", "d_D1_argmin", "A_hat_argmin_D1"),
                                  (D2, i2, "m2", "argmin_D2", "d_D2_argmin", "A_hat_argmin_D2")):
        p = b[arg]
        refute_unless(p in H, f"the binding's {arg} is not a point of H")
        k = H.index(p)
        dk = ev["distances"][i][k]
        refute_unless(dk != "inf" and b[dd] == dk and same(b[ah], Ah[p][w]) and same(b[m], M[i][w])
                      and _cmp(_mul(_factor(ev["level"], dk), Ah[p][w]), M[i][w]) == 0,
                      f"the binding's minimum for {Dn} is not re-derived (value, argmin or its distance)")
    refute_unless(same(b["factor"], E) and same(b["factor_m2"], _mul(E, M[i2][w])) and same(b["Z1"], Z[i1])
                  and same(b["Z2"], Z[i2]) and same(b["factor_Z1"], _mul(E, Z[i1])) and same(b["A1"], A[i1][w])
                  and same(b["A2"], A[i2][w]) and same(b["factor2"], _mul(E, E)),
                  "a number of the binding chain is not re-derived")
    refute_unless(_cmp(A[i2][w], Fraction(0)) > 0 and same(b["ratio"], _div(A[i1][w], A[i2][w])),
                  "the binding ratio is not re-derived")
    lv = eps_level(ev["epsilon"])
    refute_unless(lv is not None and compare(A[i1][w], A[i2][w], level_factor(lv, b["distance"])) == 0,
                  "the binding instance is not tight at A's smallest eps")


def _enclosure_ok(enc, text) -> bool:
    """Does the stated enclosure contain the smallest eps written ``text``? ``0`` and ``inf`` are exact and carry no
    enclosure (or the point itself); otherwise the enclosure must contain the interval of eps and be narrow."""
    if text in ("0", "inf"):
        return enc is None or enc == [text, text]
    return enclosure_ok(enc, lambda: iv_eps(text))


def _mech_on_H(mh: dict, H: list) -> dict:
    """The mechanism on H, checked stochastic with H as its inputs: label -> row of kernel values."""
    distinct_labels(mh["inputs"], "inputs of the mechanism on H")
    distinct_labels(mh["outputs"], "outputs of the mechanism on H")
    rows = _rows(mh)
    refute_unless(len(rows) == len(mh["inputs"]) and all(len(r) == len(mh["outputs"]) for r in rows),
                  "the mechanism on H does not match its labels")
    refute_unless(sorted(mh["inputs"]) == sorted(H), "the mechanism's inputs are not H")
    refute_unless(not any(_cmp(v, Fraction(0)) < 0 for r in rows for v in r)
                  and all(_cmp(_sum(r), Fraction(1)) == 0 for r in rows),
                  "the mechanism on H is not stochastic (a negative entry or a row sum != 1)")
    return dict(zip(mh["inputs"], rows, strict=True))


def _part_b(ev: dict, A: dict, Ah: dict, Z: list, ix: dict) -> tuple:
    """(b) re-decided: ``(agrees, number of Z_D = 1 on H)``, and the stated first disagreement re-derived."""
    H, outs = ev["H"], ev["mech_on_H"]["outputs"]
    ones = sum(1 for h in H if _cmp(Z[ix[h]], Fraction(1)) == 0)
    first = next(((h, w) for h in H for w in range(len(outs)) if _cmp(A[h][w], Ah[h][w]) != 0), None)
    refute_unless(ev["agrees_on_H"] is (first is None) and ev["normalisers_equal_1"] == ones,
                  "part (b) re-decided differently")
    st = ev["disagreement"]
    if first is None:
        refute_unless(st is None, "a disagreement is stated where A agrees with A-hat on H")
    else:
        h, w = first
        refute_unless(isinstance(st, dict) and sorted(st) == ["A", "A_hat", "D", "Z_D", "output"] and st["D"] == h
                      and st["output"] == outs[w] and same(st["A"], A[h][w]) and same(st["A_hat"], Ah[h][w])
                      and same(st["Z_D"], Z[ix[h]]), "the stated first disagreement on H is not the re-derived one")
    return first is None, ones


def _part_a(ev: dict, Ah: dict, rpairs: list) -> bool:
    """(a) on the restricted metric's generating pairs (checked to generate d on H), A-hat's eps, the violation."""
    lv = ev["level"]
    a_ok = _private(Ah, rpairs, lv)
    refute_unless((ev["private_on_H"] == "holds") == a_ok, f"part (a) re-decided: {'holds' if a_ok else 'fails'}, "
                  f"stated {ev['private_on_H']}")
    refute_unless(smallest_eps_ok(Ah, rpairs, ev["epsilon_of_A_hat"]), f"the smallest eps of A-hat on H is not "
                  f"{ev['epsilon_of_A_hat']}")
    if a_ok:
        refute_unless(ev["violation"] is None, "part (a) holds, yet a violation is stated")
    else:
        _violation(ev["violation"], Ah, ev["mech_on_H"]["outputs"], rpairs, lv, "part (a)")
    return a_ok


def _parts_c_d(ev, A, A_rows, Ah, Z, M, pairs, D, ix) -> bool:
    """(c) at 2 eps with its violation, (d) A's smallest eps and enclosure, and the binding chain."""
    c_ok = _private(A, pairs, ev["level_2eps"])
    refute_unless((ev["private_2eps"] == "holds") == c_ok and ev["private_2eps"] in ("holds", "fails"),
                  f"part (c) re-decided: {'holds' if c_ok else 'fails'}")
    if c_ok:
        refute_unless(ev["violation_2eps"] is None, "part (c) holds, yet a violation is stated")
    else:
        _violation(ev["violation_2eps"], A, ev["mechanism"]["outputs"], pairs, ev["level_2eps"], "part (c)")
    refute_unless(smallest_eps_ok(A, pairs, ev["epsilon"]), f"(d): the smallest eps of A is not {ev['epsilon']}")
    refute_unless(_enclosure_ok(ev["enclosure"], ev["epsilon"]), "(d): the enclosure does not contain A's smallest eps")
    if c_ok and ev["epsilon"] not in ("0", "inf"):
        _check_binding(ev["binding"], ev, A_rows, Ah, Z, M, pairs, D, ix)
    else:
        refute_unless(ev["binding"] is None, "a binding chain is stated where A's smallest eps has none")
    return c_ok


def _check_no_extension(c: dict, ev: dict, got, a_ok: bool, pts: list):
    """A certificate stating no extension: some ``Z_D = 0`` (``got`` its index), or the extension not built
    (``got`` None: products of two powers ``R^(p/q)``); either way part (a) fails and alone decides the verdict."""
    refute_unless(got is None or (isinstance(got, int) and ev["extension_note"] == zero_normaliser_note(pts[got])),
                  "the note on the undefined extension is not the one its first zero normaliser states")
    refute_unless(not a_ok and c["verdict"] == "fails" and ev["normalisers"] is None
                  and ev["agrees_on_H"] is None and ev["normalisers_equal_1"] == 0 and ev["disagreement"] is None
                  and ev["private_2eps"] == ("undefined" if got is not None else "undecided")
                  and ev["violation_2eps"] is None and ev["epsilon"] is None
                  and ev["enclosure"] is None and ev["binding"] is None and ev["witness"] == {"part": "a"},
                  "no extension is stated, but one exists (or part (a) holds, or a fact about it is stated)")
    return CONFIRMED, 0, ("no extension (some Z_D = 0)" if got is not None else "the extension not built "
                          "(products of two powers R^(p/q); its note is a label)") + \
        " and part (a) re-decided as failing"


def _check_extension(c: dict):
    """Re-check an ``extension`` certificate: the work is bounded first (candidate products on the general route,
    refused before any is formed), then (a) re-decided on H, the extension recomputed and compared, (b) and (c)
    re-derived, and the verdict and enclosure re-decided."""
    ev = c["evidence"]
    lv = ev["level"]
    terms = len(ev["points"]) * len(ev["H"]) * len(ev["mech_on_H"]["outputs"])
    # refused before any work: the general route compares exponential polynomials one by one
    within_limit(method_of(c) == "RATIONAL" or terms <= MAX_EXTENSION_TERMS, f"the extension's {terms:,} candidate "
                 f"products of exponential polynomials exceed this kernel's {MAX_EXTENSION_TERMS:,}")
    check_double(lv, ev["level_2eps"])
    D, pairs, rpairs = _metric_tables(ev)
    H, pts = ev["H"], ev["points"]
    ix = {p: i for i, p in enumerate(pts)}
    mh = ev["mech_on_H"]
    Ah = _mech_on_H(mh, H)
    a_ok = _part_a(ev, Ah, rpairs)
    rows_H = [Ah[h] for h in H]
    try:
        got = _extension(ev, rows_H)
    except NotHere:                      # products of two powers R^(p/q): a failing (a) still decides the verdict
        if ev["mechanism"] is not None or ev["private_2eps"] != "undecided":
            raise
        got = None
    if ev["mechanism"] is None:
        return _check_no_extension(c, ev, got, a_ok, pts)
    refute_unless(not isinstance(got, int), "the stated extension exists, but recomputed some Z_D = 0")
    refute_unless(ev["extension_note"] is None, "a note on an extension that is defined")
    A_rows, Z, M = got
    m = ev["mechanism"]
    refute_unless(m["name"] == f"BCSZ18 extension of {mh['name']}" and m["inputs"] == pts
                  and m["outputs"] == mh["outputs"],
                  "the extension's name or labels are not those of the construction")
    refute_unless(_same([x for r in _rows(m) for x in r], [x for r in A_rows for x in r])
                  and len(m["codes"]) == len(pts)
                  and isinstance(ev["normalisers"], list) and _same([value(z) for z in ev["normalisers"]], Z),
                  "the recomputed extension or normalisers differ from the stated ones")
    A = dict(zip(pts, A_rows, strict=True))
    agree_H, ones = _part_b(ev, A, Ah, Z, ix)
    c_ok = _parts_c_d(ev, A, A_rows, Ah, Z, M, pairs, D, ix)
    part = "a" if not a_ok else "b" if not agree_H else "c" if not c_ok else "all"
    refute_unless(ev["witness"] == {"part": part}, f"the failing part is ({part}), not the stated witness")
    verdict = "holds" if (a_ok and agree_H and c_ok) else "fails"
    refute_unless(verdict == c["verdict"], f"the verdict re-derived is {verdict}")
    return CONFIRMED, len(A_rows), (
        f"metric distances rebuilt from {len(pairs)} generating pairs; extension recomputed on {len(A_rows)} points "
        f"(every minimum and normaliser); (a) {'holds' if a_ok else 'fails'}, (b) {agree_H} ({ones} normalisers = 1), "
        f"(c) {'holds' if c_ok else 'fails'}, (d) smallest eps {ev['epsilon']} re-derived")


def _sum(r):
    """The exact sum of a row (a stochastic row sums to exactly 1)."""
    t = Fraction(0)
    for v in r:
        t = _add(t, v)
    return t


def _slack_lp(ev, t: Fraction) -> tuple[list, list, list, list, list]:
    """The slack LP of the evidence's docstring, rebuilt."""
    m = ev["mech_on_H"]
    check_codes(m["codes"], len(m["values"]))
    Ah = dict(zip(m["inputs"], [[_q(m["values"][k]) for k in row] for row in m["codes"]], strict=True))
    W = len(ev["mech_on_H"]["outputs"])
    col = {p: k for k, p in enumerate(ev["free"])}
    if set(col) | set(ev["H"]) != set(ev["points"]) or set(col) & set(ev["H"]):
        raise ValueError("free points and H do not partition the metric's points")
    S = len(col) * W
    c = [Fraction(0)] * S + [Fraction(1)]
    A_eq = [{col[p] * W + w: Fraction(1) for w in range(W)} for p in ev["free"]]
    A_ub, b_ub = [], []
    for x, xp, d in pairs_of(ev["metric"]):
        dq = _q(d)
        if dq.denominator != 1:
            raise NotHere("a non-integer distance: t^d is irrational")
        f = t ** int(dq)
        for a, b in ((x, xp), (xp, x)):
            for w in range(W):
                row, const = {S: Fraction(-1)}, Fraction(0)
                for p, coef in ((a, Fraction(1)), (b, -f)):
                    if p in Ah:
                        const += coef * Ah[p][w]
                    else:
                        row[col[p] * W + w] = row.get(col[p] * W + w, 0) + coef
                A_ub.append(row)
                b_ub.append(-const)
    return c, A_eq, [Fraction(1)] * len(A_eq), A_ub, b_ub


def _check_best(c: dict):
    """Re-check a ``best_extension`` bracket: the points, H and the free points; both slack LPs rebuilt from the
    instance and verified from primal and dual (upper end slack 0 with its stated optimal extension, lower end
    slack > 0 below it), and both factors ``log(t)/eps`` enclosed."""
    ev = c["evidence"]
    refute_unless(c["verdict"] == "holds", "a bracket certificate asserts holds")
    pts, H, free = ev["points"], ev["H"], ev["free"]
    distinct_labels(pts, "points")
    refute_unless(ev["metric"]["points"] == len(pts) and ev["metric"].get("labels") in (None, pts),
                  "the metric's point count or labels are not its points'")
    distinct_labels(H, "points of H")
    refute_unless(set(H) <= set(pts), "H is not a subset of the metric's points")
    refute_unless(free == [p for p in pts if p not in set(H)], "free is not the points outside H, in order")
    check_level(ev["level"])
    mh = ev["mech_on_H"]
    # a definition, not a label: the LP fixes exactly H's rows (a row for a free point would fix it too and the LP
    # would be another one), and a point of H without a row would be neither fixed nor free
    _mech_on_H(mh, H)
    ok, detail = check_lp(*_slack_lp(ev, _q(ev["t_upper"])), ev["lp_upper"])
    refute_unless(ok, "upper end: " + detail)
    refute_unless(_q(ev["lp_upper"]["value"]) == 0, "the upper end's slack is not 0")
    t_hi = _q(ev["t_upper"])
    refute_unless(t_hi >= 1, "t_upper < 1")
    # the stated witness is the upper LP's optimal extension: H's rows fixed, the free rows from x
    m, W = ev["mechanism"], len(mh["outputs"])
    Ah = dict(zip(mh["inputs"], [[_q(mh["values"][k]) for k in row] for row in mh["codes"]], strict=True))
    x = [_q(v) for v in ev["lp_upper"]["x"]]
    want = [Ah[p] if p in Ah else x[free.index(p) * W:(free.index(p) + 1) * W] for p in pts]
    check_codes(m["codes"], len(m["values"]))
    refute_unless(m["name"] == f"best extension at t = {ev['t_upper']}" and m["inputs"] == pts
                  and m["outputs"] == mh["outputs"]
                  and [[_q(m["values"][k]) for k in row] for row in m["codes"]] == want,
                  "the stated extension is not the upper LP's optimal point")
    eps = iv_eps(ev["level"]["text"])
    refute_unless(enclosure_ok(ev["factor_upper"], lambda: mpmath.iv.log(_ivq(t_hi)) / eps),
                  "the upper factor log(t_upper)/eps is not enclosed")
    if ev["t_lower"] is not None:
        t_lo = _q(ev["t_lower"])
        ok2, d2 = check_lp(*_slack_lp(ev, t_lo), ev["lp_lower"])
        refute_unless(ok2 and _q(ev["lp_lower"]["value"]) > 0 and 1 <= t_lo < t_hi, "lower end: " + d2)
        refute_unless(enclosure_ok(ev["factor_lower"], lambda: mpmath.iv.log(_ivq(t_lo)) / eps),
                      "the lower factor log(t_lower)/eps is not enclosed")
        detail += f"; lower end: {d2}"
    else:
        refute_unless(t_hi == 1 and ev["lp_lower"] is None and ev["factor_lower"] == ["0", "0"],
                      "no lower end, but t_upper is not 1")
    return CONFIRMED, 2, f"slack LPs rebuilt: upper end: {detail}; the witness extension and both factors re-derived"


def _ivq(q: Fraction):
    """An interval of mpmath's global ``iv`` context enclosing ``q`` (used inside :func:`enclosure_ok`, which sets
    and restores that context's precision)."""
    return mpmath.iv.mpf(q.numerator) / q.denominator


def check(c: dict):
    """Re-check an ``extension`` or ``best_extension`` certificate (BCSZ18).

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
    >>> ev = {"mech_on_H": {"name": "K"}, "H": ["0", "2"], "metric": {"description": "path on 3 points"},
    ...       "level": {"text": "log(2)"}}
    >>> check({"kind": "extension", "claim": "K extends", "evidence": ev})
    ('refuted', 0, 'the claim is not the one its evidence states')
    """
    try:
        refute_unless(c["claim"] == claim_text(c), "the claim is not the one its evidence states")
        status, n, detail = _check_extension(c) if c["kind"] == "extension" else _check_best(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    if status != CONFIRMED:
        return status, n, detail
    return status, n, detail + metric_note(c["evidence"]["metric"]) + mechanism_note(c["evidence"]["mech_on_H"],
                                                                                     "name of the mechanism on H")


def method_of(c: dict) -> str:
    """The method the verdict rests on (the dispatcher refutes another, or a precision).

    ``EXACT_LP`` for ``best_extension``; for ``extension`` exact rationals when the level and the mechanism on
    H are rational, else the exact zero test with certified balls.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        ``"EXACT_LP"``, ``"RATIONAL"`` or ``"TRANSCENDENCE_BALLS"``.

    Examples
    --------
    >>> ev = {"level": {"eps": None, "R": "2"}, "mech_on_H": {"values": ["2/3", "1/3"]}}
    >>> method_of({"kind": "extension", "evidence": ev}), method_of({"kind": "best_extension", "evidence": ev})
    ('RATIONAL', 'EXACT_LP')
    """
    ev = c["evidence"]
    if c["kind"] == "best_extension":
        return "EXACT_LP"
    return method_for(ev["mech_on_H"]["values"], ev["level"])      # the one method rule


