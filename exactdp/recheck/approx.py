"""Re-check ``approx`` certificates ((eps, delta)-privacy, HLM15 Def. 1) from their JSON evidence.

Imports only the standard library and this package's kernel :mod:`exactdp.recheck._kernel`
(Fractions, its own exponential-polynomial zero test and mpmath intervals).
It re-derives, for every ordered neighbouring pair, the worst set
``S* = {y : P_x(y) > e^eps P_x'(y)}`` and the excess ``P_x(S*) - e^eps P_x'(S*)``,
takes the largest, compares it with delta, and re-sums the witness.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import NotHere as _NotHere, _add, _mul, _neg, _sign, _value

__all__ = ["check"]


def _sum(vals):
    out = Fraction(0)
    for v in vals:
        out = _add(out, v)
    return out


def _not_a_mechanism(inputs, outs, matrix, rows) -> str | None:
    """Why the carried matrix is not a mechanism (shape, a negative entry, a row not summing to 1), or None."""
    if len(matrix) != len(inputs) or len(rows) != len(inputs) or any(len(r) != len(outs) for r in matrix):
        return "the matrix does not match its labels"
    for x, r in rows.items():
        if any(_sign(v) < 0 for v in r):
            return f"row {x} has a negative entry: not a mechanism"
        if _sign(_add(_sum(r), Fraction(-1))):
            return f"row {x} does not sum to exactly 1: not a mechanism"
    return None


def _pair(P, Q, t):
    S = [y for y in range(len(P)) if _sign(_add(P[y], _neg(_mul(t, Q[y])))) > 0]
    A, B = _sum(P[y] for y in S), _sum(Q[y] for y in S)
    return S, A, B, _add(A, _neg(_mul(t, B)))


def check(c: dict) -> tuple[str, int, str]:
    """``(status, checked, detail)`` for an ``approx`` certificate."""
    ev = c["evidence"]
    status, detail = _check(ev, c["verdict"] == "holds")
    return status, 2 * len(ev["pairs"]), detail


def _check(ev: dict, certified: bool) -> tuple[str, str]:
    try:
        t, delta = _value(ev["e_eps"]), _value(ev["delta"])
        m = ev["mechanism"]
        rows = {x: [_value(v) for v in r] for x, r in zip(m["inputs"], m["matrix"])}
        outs = list(m["outputs"])
        bad = _not_a_mechanism(m["inputs"], outs, m["matrix"], rows)
        if bad:
            return "refuted", bad
        best = None
        for a, b in ev["pairs"]:
            for x, xp in ((a, b), (b, a)):
                S, A, B, exc = _pair(rows[x], rows[xp], t)
                if best is None or _sign(_add(exc, _neg(best[4]))) > 0:
                    best = (x, xp, S, (A, B), exc)
        holds = best is None or _sign(_add(best[4], _neg(delta))) <= 0
        if holds != certified:
            return "refuted", f"the largest excess gives holds = {holds}, the certificate says {certified}"
        if best is None:
            return "confirmed", "empty relation"
        w = ev["witness"]
        if ev["excess"] != w["excess"] or list(ev["worst_set"]) != list(w["worst_set"]):
            return "refuted", "the stated excess or worst set is not the witness's"
        S, A, B, exc = _pair(rows[w["x"]], rows[w["x_prime"]], t)
        if [outs[y] for y in S] != list(w["worst_set"]):
            return "refuted", f"the worst set of ({w['x']}, {w['x_prime']}) is {[outs[y] for y in S]}"
        if _sign(_add(A, _neg(_value(w["P_x(S)"])))) or _sign(_add(B, _neg(_value(w["P_x'(S)"])))):
            return "refuted", "the witness sums P_x(S*), P_x'(S*) do not re-sum"
        if _sign(_add(exc, _neg(best[4]))):
            return "refuted", "the witness pair does not attain the largest excess"
    except _NotHere as e:
        return "not checkable", f"outside the re-check kernel: {e}"
    return "confirmed", (f"{2 * len(ev['pairs'])} ordered pairs re-derived with fractions and the exp-polynomial "
                         "zero test; verdict and witness agree")
