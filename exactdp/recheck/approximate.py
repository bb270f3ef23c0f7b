"""Re-check ``approx`` certificates ((eps, delta)-privacy, HLM15 Def. 1) from their JSON evidence.

Imports only the standard library and this package's kernel :mod:`exactdp.recheck._kernel`
(Fractions, its own exponential-polynomial zero test and mpmath intervals).
It ties ``e^eps`` to the stated ``eps`` (``exp(eps)``, or ``R`` for ``eps = log(R)``), re-derives the neighbour
relation (from the carried metric: its pairs at distance 1; else the count of the given pairs), checks the
mechanism is one, re-derives for every ordered neighbouring pair the worst set
``S* = {y : P_x(y) > e^eps P_x'(y)}`` and the excess ``P_x(S*) - e^eps P_x'(S*)``, takes the largest,
compares it with delta, and re-derives every number of the witness (its sums, both sides, the excess, the
number of violating pairs).
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import Refuted, refute_unless
from . import _metric
from ._levels import eps_level, method_for
from ._kernel import (MAX_CELLS, MAX_INEQUALITIES, _add, _mul, _neg, _sign, _value, exp_of_eps,
                      within_limit)
from ._dprivacy import METRIC

__all__ = ["check", "claim_text"]

WITNESS = {"kind": "str", "x": "str", "x_prime": "str", "worst_set": ["str"], "P_x_S": "str", "P_x_prime_S": "str",
           "factor": "str", "lhs": "str", "rhs": "str", "excess": "str", "violating_pairs": "int"}
EVIDENCE = {"approx": {"mechanism": {"name": "str", "inputs": ["str"], "outputs": ["str"], "matrix": [["str"]]},
                       "epsilon_given": "str", "delta": "str", "relation": "str", "metric": ("?", METRIC),
                       "pairs": [["str"]], "e_eps": "?str", "excess": "?str", "worst_set": ("?", ["str"]),
                       "witness": ("?", WITNESS)}}
V1 = ("it does not carry the mechanism's name nor the metric its neighbour relation comes from; re-certify with a "
      "current exactdp for a schema-2 certificate")


def _sum(vals):
    """The exact sum of kernel values (fractions or exact transcendental values)."""
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
    """The worst set for ``(P, Q)`` at ``t = e^eps``: ``S = {y : P[y] > t Q[y]}``, ``A = P(S)``, ``B = Q(S)`` and ``A
    - t B``, which is ``max_S P(S) - t Q(S)`` (the hockey-stick divergence; every ``y`` with a positive term is in
    ``S``, no other adds to it). Signs are exact."""
    S = [y for y in range(len(P)) if _sign(_add(P[y], _neg(_mul(t, Q[y])))) > 0]
    A, B = _sum(P[y] for y in S), _sum(Q[y] for y in S)
    return S, A, B, _add(A, _neg(_mul(t, B)))


def _same(text: str, v) -> bool:
    """Does ``text`` denote the kernel value ``v`` (exact zero test of the difference)?"""
    return _sign(_add(_value(text), _neg(v))) == 0


def _relation(ev: dict, inputs: list) -> None:
    """The pairs are distinct pairs of inputs, and the relation's text is what they are."""
    pairs, rel = ev["pairs"], ev["relation"]
    keys = set()
    for p in pairs:
        refute_unless(len(p) == 2 and p[0] != p[1] and p[0] in inputs and p[1] in inputs,
                      f"{p} is not a pair of inputs")
        keys.add(frozenset(p))
    refute_unless(len(keys) == len(pairs), "a repeated neighbouring pair")
    if ev["metric"] is not None:
        m = ev["metric"]
        refute_unless(rel == f"pairs at distance 1 of the {m['description']}", "the relation is not the metric's")
        refute_unless(sorted(m["labels"]) == sorted(inputs), "the metric's points are not the mechanism's inputs")
        refute_unless(keys == _metric.pairs_at_one(m), "the pairs are not the metric's pairs at distance 1")
    else:
        refute_unless(rel in (f"edges of the given graph ({len(pairs)} edges)",
                         f"given list of {len(pairs)} neighbouring pairs"), f"the relation {rel!r} is not the "
                      "carried pairs")


def check(c: dict) -> tuple[str, int, str]:
    """``(status, checked, detail)`` for an ``approx`` certificate: every output set's inequality, exactly.

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
    >>> K = {"inputs": ["a", "a"], "outputs": ["0"]}
    >>> check({"kind": "approx", "verdict": "holds", "evidence": {"mechanism": K, "pairs": []}})
    ('refuted', 0, 'a repeated input or output label')
    """
    ev = c["evidence"]
    try:
        status, detail = _check(ev, c["verdict"] == "holds")
        if status == "confirmed":
            want = method_for([v for r in ev["mechanism"]["matrix"] for v in r], eps_level(ev["epsilon_given"]))
            refute_unless(c["method"] == want and c["precision"] is None, f"the method {c['method']!r} is not {want!r}")
    except Refuted as e:
        return "refuted", 0, str(e)
    if status == "confirmed" and ev["metric"] is not None:
        detail += _metric.metric_note(ev["metric"])
    return status, 2 * len(ev["pairs"]), detail


def _check(ev: dict, certified: bool) -> tuple[str, str]:
    """``(status, detail)`` of an approximate-DP certificate: limits first (cells, inequalities), then labels, the
    relation, ``e^eps`` and ``delta`` in range, the mechanism's rows, and the largest hockey-stick excess over
    every ordered pair (:func:`_pair`), compared with delta exactly."""
    m = ev["mechanism"]
    # the work is bounded from the labels and pairs before any value is read
    within_limit(len(m["inputs"]) * len(m["outputs"]) <= MAX_CELLS, "a mechanism beyond the cell limit")
    within_limit(2 * len(ev["pairs"]) * len(m["outputs"]) <= MAX_INEQUALITIES, "more inequalities than the limit")
    refute_unless(len(set(m["inputs"])) == len(m["inputs"]) and len(set(m["outputs"])) == len(m["outputs"]),
                  "a repeated input or output label")
    _relation(ev, m["inputs"])
    t = exp_of_eps(ev["epsilon_given"])
    refute_unless(ev["e_eps"] is not None and _same(ev["e_eps"], t),
                  f"e_eps = {ev['e_eps']} is not e^eps for eps = {ev['epsilon_given']}")
    refute_unless(_sign(t) > 0 and _sign(_add(t, Fraction(-1))) >= 0, "eps < 0")
    delta = _value(ev["delta"])
    refute_unless(_sign(delta) >= 0 and _sign(_add(delta, Fraction(-1))) <= 0, "delta outside [0, 1]")
    rows = {x: [_value(v) for v in r] for x, r in zip(m["inputs"], m["matrix"], strict=True)}
    outs = list(m["outputs"])
    bad = _not_a_mechanism(m["inputs"], outs, m["matrix"], rows)
    if bad:
        return "refuted", bad
    best, over = None, 0
    # (eps, delta)-DP asks P(S) <= e^eps Q(S) + delta for every S and both orders of every pair (Dwork and Roth 2014,
    # Def. 2.4); per order the worst S gives the largest excess (_pair), so the largest excess over all orders is the
    # smallest delta
    for a, b in ev["pairs"]:
        for x, xp in ((a, b), (b, a)):
            S, A, B, exc = _pair(rows[x], rows[xp], t)
            over += _sign(_add(exc, _neg(delta))) > 0
            if best is None or _sign(_add(exc, _neg(best[4]))) > 0:
                best = (x, xp, S, (A, B), exc)
    holds = best is None or _sign(_add(best[4], _neg(delta))) <= 0
    if holds != certified:
        return "refuted", f"the largest excess gives holds = {holds}, the certificate says {certified}"
    if best is None:
        refute_unless(ev["witness"] is None and ev["excess"] == "0" and ev["worst_set"] == [],
                      "an empty relation with a witness")
        return "confirmed", "empty relation"
    _witness(ev, rows, outs, t, delta, best[4], holds, over)
    return "confirmed", (f"{2 * len(ev['pairs'])} ordered pairs re-derived with fractions and the exp-polynomial "
                         "zero test; verdict and witness agree")


def _witness(ev: dict, rows: dict, outs: list, t, delta, largest, holds: bool, over: int) -> None:
    """Every number of the witness re-derived: its pair, worst set, sums, factor, sides, excess, kind, count."""
    w = ev["witness"]
    refute_unless(w is not None, "no witness")
    refute_unless(ev["excess"] == w["excess"] and ev["worst_set"] == w["worst_set"],
                  "the stated excess or worst set is not the witness's")
    refute_unless(w["kind"] == ("binding" if holds else "violation"), f"the witness's kind {w['kind']!r}")
    refute_unless(w["violating_pairs"] == (0 if holds else over), f"{over} ordered pairs violate, the witness says "
                  f"{w['violating_pairs']}")
    refute_unless(w["x"] in rows and w["x_prime"] in rows and frozenset((w["x"], w["x_prime"])) in
                  {frozenset(p) for p in ev["pairs"]}, "the witness is not a neighbouring pair")
    S, A, B, exc = _pair(rows[w["x"]], rows[w["x_prime"]], t)
    refute_unless([outs[y] for y in S] == list(w["worst_set"]),
                  f"the worst set of ({w['x']}, {w['x_prime']}) is {[outs[y] for y in S]}")
    refute_unless(_same(w["P_x_S"], A) and _same(w["P_x_prime_S"], B) and w["lhs"] == w["P_x_S"],
                  "the witness sums P_x(S*), P_x'(S*) do not re-sum")
    refute_unless(w["factor"] == ev["e_eps"], "the witness's factor is not e^eps")
    refute_unless(_same(w["rhs"], _add(_mul(t, B), delta)), "the witness's rhs is not e^eps P_x'(S*) + delta")
    refute_unless(_same(w["excess"], exc), "the witness's excess is not P_x(S*) - e^eps P_x'(S*)")
    refute_unless(_sign(_add(exc, _neg(largest))) == 0, "the witness pair does not attain the largest excess")


def claim_text(c: dict) -> str:
    """The claim sentence the checked fields state (the producer, :mod:`exactdp.privacy.approximate`, writes it).

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
    >>> ev = {"mechanism": {"name": "RR"}, "epsilon_given": "0", "delta": "1/2", "relation": "pair (0, 1)"}
    >>> claim_text({"evidence": ev})
    'RR is (eps, delta)-DP with eps = 0, delta = 1/2 over the pair (0, 1)'
    """
    ev = c["evidence"]
    return (f"{ev['mechanism']['name']} is (eps, delta)-DP with eps = {ev['epsilon_given']}, delta = {ev['delta']} "
            f"over the {ev['relation']}")
