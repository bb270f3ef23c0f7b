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
(:func:`exactdp.recheck.ecp14.check_lp`); the lower end must have slack > 0 and
the upper end slack 0 with its stated extension.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import rational as _q
from ._kernel import NotHere, _add, _div, _mul, _neg, check_codes, level_factor, sign, value
from .ecp14 import check_lp
from .privacy import pairs_of

CONFIRMED, REFUTED = "confirmed", "refuted"


def _rows(m: dict) -> list:
    check_codes(m["codes"], len(m["values"]))
    vals = [_q(v) for v in m["values"]]
    return [[vals[c] for c in row] for row in m["codes"]]


def _factor(level: dict, d: str):
    """``e^(eps d)``: a fraction, or an exponential polynomial of this kernel (transcendental levels)."""
    E = level_factor(level, d)
    if isinstance(E, tuple):
        raise NotHere("e^(eps d) is an algebraic power R^(p/q) at this level")
    return E


def _cmp(a, b) -> int:
    """Sign of ``a - b``: fractions directly; otherwise the kernel's exact zero test, then intervals."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return sign(_add(a, _neg(b)))


def _private(rows: dict, pairs: list, level: dict) -> bool:
    for x, xp, d in pairs:
        E = _factor(level, d)
        for a, b in zip(rows[x], rows[xp]):
            if _cmp(a, _mul(E, b)) > 0 or _cmp(b, _mul(E, a)) > 0:
                return False
    return True


def _min(vals):
    best = vals[0]
    for v in vals[1:]:
        if _cmp(v, best) < 0:
            best = v
    return best


def _extension(ev, Ah):
    """The inf-construction recomputed: (rows, normalisers), or None where every minimum is 0."""
    out, Z = [], []
    for drow in ev["distances"]:
        cands = [(_factor(ev["level"], d), k) for k, d in enumerate(drow) if d != "inf"]
        if not cands:
            return None
        m = [_min([_mul(E, Ah[k][w]) for E, k in cands]) for w in range(len(Ah[0]))]
        z = Fraction(0)
        for v in m:
            z = _add(z, v)
        if _cmp(z, Fraction(0)) == 0:
            return None
        out.append([_div(v, z) for v in m])
        Z.append(z)
    return out, Z


def _same(xs, ys) -> bool:
    return len(xs) == len(ys) and all(_cmp(a, b) == 0 for a, b in zip(xs, ys))


def _check_extension(c: dict):
    ev = c["evidence"]
    lv = ev["level"]
    Ah_rows = _rows(ev["mech_on_H"])
    Ah = dict(zip(ev["mech_on_H"]["inputs"], Ah_rows))
    if sorted(Ah) != sorted(ev["H"]):
        return REFUTED, 0, "the mechanism's inputs are not H"
    if any(v < 0 for r in Ah_rows for v in r) or any(sum(r) != 1 for r in Ah_rows):
        return REFUTED, 0, "the mechanism on H is not stochastic (a negative entry or a row sum != 1)"
    # (a) on every pair of H, with d(h, h') read from the distance table (no trust in the restricted pairs)
    pos = {p: i for i, p in enumerate(ev["points"])}
    pairs_H = [[h, h2, ev["distances"][pos[h]][k]] for i, h in enumerate(ev["H"]) for k, h2 in enumerate(ev["H"])
               if k > i and ev["distances"][pos[h]][k] != "inf"]
    hk = {h: k for k, h in enumerate(ev["H"])}
    for x, xp, d in pairs_of(ev["restricted"]):  # the stated pairs must be pairs of H at the tabled distance
        if ev["distances"][pos[x]][hk[xp]] != d:
            return REFUTED, 0, f"restricted pair ({x}, {xp}) states distance {d}, not the table's"
    a_ok = _private(Ah, pairs_H, lv)
    if (ev["private_on_H"] == "holds") != a_ok:
        return REFUTED, 0, f"part (a) re-decided: {'holds' if a_ok else 'fails'}, stated {ev['private_on_H']}"
    rows_H = [Ah[h] for h in ev["H"]]
    got = _extension(ev, rows_H)
    if ev["mechanism"] is None:
        ok = (got is None) or c["verdict"] == "undecided"
        return (CONFIRMED if ok and not a_ok and c["verdict"] == "fails" else REFUTED), 0, \
            "no extension stated; part (a) re-decided as failing" if ok else "an extension exists but none is stated"
    if got is None:
        return REFUTED, 0, "the stated extension exists, but recomputed some Z_D = 0"
    A_rows, Z = got
    m = ev["mechanism"]
    check_codes(m["codes"], len(m["values"]))
    vals = [value(v) for v in m["values"]]
    stated = [[vals[k] for k in row] for row in m["codes"]]
    if len(stated) != len(A_rows) or not all(_same(a, b) for a, b in zip(stated, A_rows)) \
            or not _same([value(z) for z in ev["normalisers"]], Z):
        return REFUTED, len(A_rows), "the recomputed extension or normalisers differ from the stated ones"
    A = dict(zip(ev["points"], A_rows))
    agree = all(_same(A[h], Ah[h]) for h in ev["H"])
    ones = sum(1 for h in ev["H"] if _cmp(Z[ev["points"].index(h)], Fraction(1)) == 0)
    c_ok = _private(A, pairs_of(ev["metric"]), ev["level_2eps"])
    verdict = "holds" if (a_ok and agree and c_ok) else "fails"
    ok = (agree == ev["agrees_on_H"] and ones == ev["normalisers_equal_1"]
          and (ev["private_2eps"] == "holds") == c_ok and verdict == c["verdict"])
    return (CONFIRMED if ok else REFUTED), len(A_rows), (
        f"extension recomputed on {len(A_rows)} points (every minimum and normaliser); (a) "
        f"{'holds' if a_ok else 'fails'}, (b) {agree} ({ones} normalisers = 1), (c) {'holds' if c_ok else 'fails'}")


def _slack_lp(ev, t: Fraction) -> tuple[list, list, list, list, list]:
    """The slack LP of the evidence's docstring, rebuilt."""
    Ah = dict(zip(ev["mech_on_H"]["inputs"], _rows(ev["mech_on_H"])))
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
    ev = c["evidence"]
    ok, detail = check_lp(*_slack_lp(ev, _q(ev["t_upper"])), ev["lp_upper"])
    ok = ok and _q(ev["lp_upper"]["value"]) == 0
    if ev["t_lower"] is not None:
        ok2, d2 = check_lp(*_slack_lp(ev, _q(ev["t_lower"])), ev["lp_lower"])
        ok = ok and ok2 and _q(ev["lp_lower"]["value"]) > 0 and _q(ev["t_lower"]) < _q(ev["t_upper"])
        detail += f"; lower end: {d2}"
    return (CONFIRMED if ok else REFUTED), 2, f"slack LPs rebuilt: upper end: {detail}"


def check(c: dict):
    return _check_extension(c) if c["kind"] == "extension" else _check_best(c)
