"""Re-check ``infeasible`` certificates: a Farkas vector proving that a linear system has no solution ``x >= 0``.

The easy direction of Farkas' lemma: multipliers ``y`` (any sign) of the equalities ``A_eq x = b_eq`` and
``lam >= 0`` of the inequalities ``A_ub x <= b_ub`` with ``w = A_eq^T y + A_ub^T lam >= 0`` and
``b_eq.y + b_ub.lam < 0`` leave no ``x >= 0``: it would give ``0 <= w.x <= b_eq.y + b_ub.lam < 0``.
The combination and its right-hand side are recomputed here with :mod:`fractions` and must equal the
stated ones.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

from ._kernel import fraction
from ._labels import label_note

CONFIRMED, REFUTED = "confirmed", "refuted"

#: the evidence shape per kind (read by the dispatcher before any work); rows are sparse {"j": coefficient}
EVIDENCE = {"infeasible": {"statement": "str", "A_eq": [("map", "str")], "b_eq": ["str"], "A_ub": [("map", "str")],
                           "b_ub": ["str"], "names": ("?", ["str"]), "y": ["str"], "lam": ["str"],
                           "combination": ["str"], "rhs": "str"}}


def _rows(rows):
    """Sparse rows ``{column: coefficient}`` from JSON (text keys to integers, coefficients as exact fractions)."""
    return [{int(j): fraction(a) for j, a in r.items()} for r in rows]


#: largest system (non-zero coefficients) a claim writes out in full; a larger one is named by its size
MAX_WRITTEN_TERMS = 60
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[[0-9]+\])*$")


def system_text(ev: dict) -> str:
    """The system as a claim states it, rebuilt from its rows.

    Written out (``"x0 + 2*x1 = 1, x1 <= -1"``; the variables by their names when every name is an identifier,
    else ``x0, x1, ...``) up to :data:`MAX_WRITTEN_TERMS` non-zero coefficients, else named by its size.

    Parameters
    ----------
    ev : dict
        The evidence: ``A_eq``, ``b_eq``, ``A_ub``, ``b_ub``, ``names`` and ``combination`` (its length is the
        number of variables).

    Returns
    -------
    str
        The system in words.

    Examples
    --------
    >>> system_text({"A_eq": [{"0": "1", "1": "-2"}], "b_eq": ["-1"], "A_ub": [{"1": "1"}], "b_ub": ["0"],
    ...              "names": None, "combination": ["1", "0"]})
    'x0 - 2*x1 = -1, x1 <= 0'
    """
    names = ev["names"]
    n = len(ev["combination"])
    var = names if names is not None and all(isinstance(v, str) and _IDENT.match(v) for v in names) \
        else [f"x{j}" for j in range(n)]
    rows = [(r, "=", b) for r, b in zip(ev["A_eq"], ev["b_eq"], strict=True)] + \
        [(r, "<=", b) for r, b in zip(ev["A_ub"], ev["b_ub"], strict=True)]
    if sum(len(r) for r, _, _ in rows) > MAX_WRITTEN_TERMS:
        return (f"the system of {len(ev['A_eq'])} equalities and {len(ev['A_ub'])} inequalities in {n} variables "
                "(written out in the evidence)")
    out = []
    for r, op, b in rows:
        terms = []
        for j, a in sorted(((int(j), fraction(a)) for j, a in r.items())):
            if a == 0:
                continue
            mag = "" if abs(a) == 1 else f"{abs(a)}*"
            terms.append(("- " if a < 0 else "+ ") + mag + var[j])
        lhs = " ".join(terms).removeprefix("+ ") if terms else "0"
        lhs = "-" + lhs[2:] if lhs.startswith("- ") else lhs
        out.append(f"{lhs} {op} {fraction(b)}")
    return ", ".join(out) if out else "the empty system"


def claim_text(c: dict) -> str:
    """The claim of an ``infeasible`` certificate, rebuilt from its system.

    Issue 27: the statement is compared with the system.  A statement that is the system as
    :func:`system_text` writes it is the claim; any other statement is a label, marked as one after the
    re-derived system.

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
    >>> ev = {"statement": "x0 = -1", "A_eq": [{"0": "1"}], "b_eq": ["-1"], "A_ub": [], "b_ub": [], "names": None,
    ...       "combination": ["1"]}
    >>> claim_text({"evidence": ev})
    'no x >= 0 solves x0 = -1'
    >>> claim_text({"evidence": {**ev, "statement": "GRS12 fn. 4"}})
    'no x >= 0 solves x0 = -1 (labelled "GRS12 fn. 4")'
    """
    ev = c["evidence"]
    system = system_text(ev)
    if ev["statement"] == system:
        return f"no x >= 0 solves {system}"
    return f"no x >= 0 solves {system} (labelled {json.dumps(ev['statement'], ensure_ascii=False)})"


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
    >>> c = {"claim": "no x >= 0 solves x0 = -1", "verdict": "holds", "evidence": ev}
    >>> check(c)[:2]
    ('confirmed', 1)
    >>> check({**c, "evidence": {**ev, "b_eq": ["1"], "rhs": "1"}})[2]       # the claim states x0 = -1
    'the claim is not the one its system states'
    >>> forged = {**ev, "statement": "x0 = 1", "b_eq": ["1"], "rhs": "1"}
    >>> check({**c, "claim": "no x >= 0 solves x0 = 1", "evidence": forged})[2]        # x0 = 1 is feasible
    'the right-hand side b.y = 1 is not negative: not a Farkas vector'
    """
    ev = c["evidence"]
    if len(ev["b_eq"]) != len(ev["A_eq"]) or len(ev["b_ub"]) != len(ev["A_ub"]):
        return REFUTED, 0, "the system or the Farkas vector is not well formed (lengths or indices)"
    if c["claim"] != claim_text(c):
        return REFUTED, 0, "the claim is not the one its system states"
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
    # Farkas' lemma: an x >= 0 solving the system would give 0 <= w.x = y.(A_eq x) + lam.(A_ub x) <= b.y (lam >= 0), so
    # w >= 0 with b.y < 0 leaves no solution
    if any(v < 0 for v in w):
        return REFUTED, n, "a negative entry of the combination A_eq^T y + A_ub^T lam: not a Farkas vector"
    if rhs >= 0:
        return REFUTED, n, f"the right-hand side b.y = {rhs} is not negative: not a Farkas vector"
    if c["verdict"] != "holds":
        return REFUTED, n, "a valid Farkas vector proves infeasibility, but the verdict is not holds"
    label = "" if ev["statement"] == system_text(ev) else label_note("statement", ev["statement"])
    return CONFIRMED, n, (f"Farkas vector: {len(A_eq)} equality and {len(A_ub)} inequality multipliers combine into "
                          f"w >= 0 on {n} variables with right-hand side {rhs} < 0: no x >= 0 solves the system"
                          + label)


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
