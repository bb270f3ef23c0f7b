"""Re-check ``infeasible`` certificates: a Farkas vector proving that a linear system has no solution ``x >= 0``.

The easy direction of Farkas' lemma: multipliers ``y`` (any sign) of the equalities ``A_eq x = b_eq`` and
``lam >= 0`` of the inequalities ``A_ub x <= b_ub`` with ``w = A_eq^T y + A_ub^T lam >= 0`` and
``b_eq.y + b_ub.lam < 0`` leave no ``x >= 0``: it would give ``0 <= w.x <= b_eq.y + b_ub.lam < 0``.
The combination and its right-hand side are recomputed here with :mod:`fractions` and must equal the
stated ones.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import fraction

CONFIRMED, REFUTED = "confirmed", "refuted"

#: the evidence shape per kind (read by the dispatcher before any work); rows are sparse {"j": coefficient}
EVIDENCE = {"infeasible": {"statement": "str", "A_eq": [("map", "str")], "b_eq": ["str"], "A_ub": [("map", "str")],
                           "b_ub": ["str"], "names": ("?", ["str"]), "y": ["str"], "lam": ["str"],
                           "combination": ["str"], "rhs": "str"}}


def _rows(rows):
    return [{int(j): fraction(a) for j, a in r.items()} for r in rows]


def claim_text(c: dict) -> str:
    """The claim of an ``infeasible`` certificate, rebuilt from its evidence.

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
    >>> claim_text({"evidence": {"statement": "x0 = -1"}})
    'x0 = -1: no x >= 0 solves the system'
    """
    return f"{c['evidence']['statement']}: no x >= 0 solves the system"


def check(c: dict):
    """Re-check an ``infeasible`` certificate: its Farkas vector, in exact rationals.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the number of variables, and why.

    Examples
    --------
    ``x0 = -1`` has no solution ``x >= 0``: ``y = 1`` gives ``w = 1 >= 0`` and ``b.y = -1 < 0``.

    >>> ev = {"statement": "x0 = -1", "A_eq": [{"0": "1"}], "b_eq": ["-1"], "A_ub": [], "b_ub": [],
    ...       "names": None, "y": ["1"], "lam": [], "combination": ["1"], "rhs": "-1"}
    >>> c = {"claim": "x0 = -1: no x >= 0 solves the system", "verdict": "holds", "evidence": ev}
    >>> check(c)[:2]
    ('confirmed', 1)
    >>> check({**c, "evidence": {**ev, "b_eq": ["1"], "rhs": "1"}})[2]       # x0 = 1 is feasible
    'the right-hand side b.y = 1 is not negative: not a Farkas vector'
    """
    if c["claim"] != claim_text(c):
        return REFUTED, 0, "the claim is not the one its evidence states"
    ev = c["evidence"]
    if ev["names"] is not None and (len(set(ev["names"])) != len(ev["names"])
                                    or not all(isinstance(v, str) for v in ev["names"])):
        return REFUTED, 0, "the variable names are not distinct"
    A_eq, A_ub = _rows(ev["A_eq"]), _rows(ev["A_ub"])
    b_eq, b_ub = [fraction(v) for v in ev["b_eq"]], [fraction(v) for v in ev["b_ub"]]
    y, lam = [fraction(v) for v in ev["y"]], [fraction(v) for v in ev["lam"]]
    stated = [fraction(v) for v in ev["combination"]]
    n = len(stated)
    if len(b_eq) != len(A_eq) or len(b_ub) != len(A_ub) or len(y) != len(A_eq) or len(lam) != len(A_ub) \
            or any(not 0 <= j < n for r in A_eq + A_ub for j in r) \
            or (ev["names"] is not None and len(ev["names"]) != n):
        return REFUTED, 0, "the system or the Farkas vector is not well formed (lengths or indices)"
    if any(v < 0 for v in lam):
        return REFUTED, n, "a negative inequality multiplier"
    w = [Fraction(0)] * n
    for rows, mult in ((A_eq, y), (A_ub, lam)):
        for r, m in zip(rows, mult, strict=True):
            for j, a in r.items():
                w[j] += a * m
    rhs = (sum((b * m for b, m in zip(b_eq, y, strict=True)), Fraction(0))
           + sum((b * m for b, m in zip(b_ub, lam, strict=True)), Fraction(0)))
    if w != stated or rhs != fraction(ev["rhs"]):
        return REFUTED, n, "the stated combination or right-hand side differs from A^T y and b.y recomputed"
    if any(v < 0 for v in w):
        return REFUTED, n, "a negative entry of the combination A_eq^T y + A_ub^T lam: not a Farkas vector"
    if rhs >= 0:
        return REFUTED, n, f"the right-hand side b.y = {rhs} is not negative: not a Farkas vector"
    if c["verdict"] != "holds":
        return REFUTED, n, "a valid Farkas vector proves infeasibility, but the verdict is not holds"
    return CONFIRMED, n, (f"Farkas vector: {len(A_eq)} equality and {len(A_ub)} inequality multipliers combine into "
                          f"w >= 0 on {n} variables with right-hand side {rhs} < 0: no x >= 0 solves the system")


def method_of(c: dict) -> str:
    """The method an infeasible certificate's verdict rests on (the dispatcher refutes another, or a precision).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        Always ``"EXACT_LP"``.

    Examples
    --------
    >>> method_of({"evidence": {}})
    'EXACT_LP'
    """
    return "EXACT_LP"
