"""Re-check ``lp`` certificates: an exact LP optimum stated in full, verified from its primal and dual.

Weak duality: a rational primal ``x`` that satisfies every constraint, and a
dual with ``lam >= 0`` and reduced costs ``c - A_eq^T y + A_ub^T lam >= 0``
whose value equals ``c.x``, prove ``x`` optimal.  With a radical parameter
``t`` (cost, dual and value affine in ``t``) every sign condition is checked
at both ends of the stated interval and the gap must vanish identically; ``t``
itself is placed in the interval by comparing rational powers exactly.
Uniqueness is re-derived from the complementary-slackness face and the
duals of ``min x_j`` / ``max x_j`` over it; a vertex by the rank of the
active constraints (Gaussian elimination over :mod:`fractions`).
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from ._lp import LP_SOLUTION, rank
from ._kernel import _add, _mul, _neg, fraction, NotHere, reduced_costs, sign, value

from ._labels import label_note

CONFIRMED, REFUTED = "confirmed", "refuted"

#: a sparse constraint row {"j": coefficient}
ROW = ("map", "str")
#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {"lp": {
    "statement": "str", "cost": ["str"], "A_eq": [ROW], "b_eq": ["str"], "A_ub": [ROW], "b_ub": ["str"],
    "lp": LP_SOLUTION,
    "parameter": ("?", {"atom": [("tuple", ["int", "str"])], "low": "?str", "high": "?str", "cost": ["str"],
                        "value": "str", "y": ["str"], "lam": ["str"]}),
    "vertex": "bool",
    "unique": ("?", {"zero": ["int"], "tight": ["int"],
                     "bounds": [{"j": "int", "lo_y": ["str"], "lo_lam": ["str"], "hi_y": ["str"],
                                 "hi_lam": ["str"]}]})}}


def _rows(rows):
    """Sparse rows ``{column: coefficient}`` from JSON (text keys to integers, coefficients as exact fractions)."""
    return [{int(j): fraction(a) for j, a in r.items()} for r in rows]


def _dot(row, x):
    """``row . x`` exactly in fractions, over the row's non-zero columns."""
    return sum((a * x[j] for j, a in row.items()), Fraction(0))


class _Affine:
    """Signs of ``v0 + v1 t`` for every t in [low, high] (v1 = 0 without a parameter)."""

    def __init__(self, par):
        """Read the parameter's range ``[low, high]`` (an end None is unbounded); None: no parameter."""
        self.par = par
        if par is not None:
            self.low = None if par["low"] is None else fraction(par["low"])
            self.high = None if par["high"] is None else fraction(par["high"])

    def nonneg(self, v0, v1=Fraction(0)) -> bool:
        """Is ``v0 + v1 t >= 0`` for every ``t`` of the range? An affine function is ``>= 0`` on an interval iff it
        is at both ends; an open end with a slope towards it fails. With a parameter, irrational ``v0`` is refused
        (NotHere)."""
        if self.par is None or v1 == 0:
            if self.par is not None and not isinstance(v0, Fraction):
                raise NotHere("a parametric LP with irrational coefficients of 1")
            return sign(v0) >= 0
        if not isinstance(v0, Fraction):
            raise NotHere("a parametric LP with irrational coefficients of 1")
        ends = [e for e in (self.low, self.high) if e is not None]
        if (self.low is None and v1 > 0) or (self.high is None and v1 < 0):
            return False                 # unbounded on that side, and decreasing towards it
        return all(v0 + v1 * e >= 0 for e in ends)

    def contains_t(self) -> bool:
        """Is ``t = prod p^(f_p)`` in [low, high]?  Compare ``t^q`` with ``bound^q`` exactly (t > 0)."""
        power = _t_power(self.par)
        if power is None:
            return False
        tq, q = power
        lo_ok = self.low is None or self.low <= 0 or self.low ** q <= tq
        hi_ok = self.high is None or (self.high > 0 and tq <= self.high ** q)
        return lo_ok and hi_ok


def _feasible(x, A_eq, b_eq, A_ub, b_ub) -> bool:
    """Is ``x`` feasible: ``x >= 0``, every equality holds and every inequality ``<=`` holds, exactly?"""
    return all(v >= 0 for v in x) and all(_dot(r, x) == b for r, b in zip(A_eq, b_eq, strict=True)) \
        and all(_dot(r, x) <= b for r, b in zip(A_ub, b_ub, strict=True))


def _optimal(ev, x, A_eq, b_eq, A_ub, b_ub, aff):
    """Dual feasibility and a zero gap (affine in t); returns (ok, detail, reduced costs as (v0, v1))."""
    lp, par = ev["lp"], ev["parameter"]
    n = len(x)
    parts = [([value(v) for v in ev["cost"]], [value(v) for v in lp["y"]], [value(v) for v in lp["lam"]],
              value(lp["value"]))]
    parts.append(([fraction(v) for v in par["cost"]], [fraction(v) for v in par["y"]],
                  [fraction(v) for v in par["lam"]], fraction(par["value"])) if par is not None else
                 ([Fraction(0)] * n, [Fraction(0)] * len(A_eq), [Fraction(0)] * len(A_ub), Fraction(0)))
    if any(len(c) != n or len(y) != len(A_eq) or len(lam) != len(A_ub) for c, y, lam, _ in parts):
        return False, "the cost or the dual has the wrong length", None
    (c0, y0, l0, _v0), (c1, y1, l1, _v1) = parts
    if not all(aff.nonneg(a, b) for a, b in zip(l0, l1, strict=True)):
        return False, "a negative inequality multiplier", None
    red = list(zip(reduced_costs(c0, A_eq, y0, A_ub, l0), reduced_costs(c1, A_eq, y1, A_ub, l1), strict=True))
    if not all(aff.nonneg(a, b) for a, b in red):
        return False, "a negative reduced cost: the dual is infeasible", None
    for c, y, lam, v in parts:           # the gap vanishes identically in t
        primal = sum((_mul(ci, xi) for ci, xi in zip(c, x, strict=True) if xi != 0), Fraction(0))
        dual = _add(sum((_mul(b, yi) for b, yi in zip(b_eq, y, strict=True)), Fraction(0)),
                    _neg(sum((_mul(b, li) for b, li in zip(b_ub, lam, strict=True)), Fraction(0))))
        if sign(_add(primal, _neg(dual))) != 0 or sign(_add(primal, _neg(v))) != 0:
            return False, "duality gap: the primal value, the dual value and the stated value differ", None
    return True, "primal feasible, dual feasible, zero gap", (red, l0, l1)


def _positive_at_t(v0, v1, aff) -> bool:
    """``v0 + v1 t > 0`` at the parameter's own t (exact: compare t with -v0/v1 through rational powers)."""
    if aff.par is None or v1 == 0:
        return sign(v0) > 0
    r = -v0 / v1
    probe = _Affine({**aff.par, "low": str(r), "high": None} if v1 > 0 else {**aff.par, "low": None, "high": str(r)})
    return probe.contains_t() and _exact_t_differs(aff.par, r)


#: largest common denominator q of the parameter's exponents (t^q is computed exactly)
MAX_ROOT = 64


def _t_power(par):
    """``(t^q, q)`` for ``t = prod p^(f_p)``, a real radical: integers ``p >= 2`` and exponents in (0, 1);
    ``None`` for anything else (a negative base would make ``t`` not real).  NotHere above :data:`MAX_ROOT`."""
    atom = par["atom"]
    if not atom or any(type(p) is not int or p < 2 for p, _ in atom):
        return None
    atom = [(p, fraction(f)) for p, f in atom]
    if any(not (0 < f < 1) for _, f in atom):
        return None
    q = lcm(*(f.denominator for _, f in atom))
    if q > MAX_ROOT:
        raise NotHere(f"a radical parameter of order {q} > {MAX_ROOT}")
    tq = Fraction(1)
    for p, f in atom:
        tq *= fraction(p) ** int(f * q)
    return tq, q


def _exact_t_differs(par, r) -> bool:
    """``t != r`` for a rational r: t^q = r^q only if ..., checked exactly."""
    power = _t_power(par)
    if power is None:
        return False
    tq, q = power
    return r <= 0 or r ** q != tq


def _unique(u, x, A_eq, b_eq, A_ub, b_ub, red_lam, aff):
    """Is the optimum ``x`` the only one? ``(True/False, why)``.

    By complementary slackness every optimum has ``x_j = 0`` where the reduced cost is positive and meets every
    inequality with a positive multiplier: these, with the equalities, define a face holding all optima. For every
    coordinate two face duals bound ``min x_j`` and ``max x_j`` on that face by ``x_j`` (weak duality, checked
    exactly); a coordinate pinned from both sides for all ``j`` makes ``x`` unique."""
    red, l0, l1 = red_lam
    n = len(x)
    zero, tight = [int(j) for j in u["zero"]], [int(k) for k in u["tight"]]
    if not all(_positive_at_t(red[j][0], red[j][1], aff) for j in zero) or not all(_positive_at_t(l0[k], l1[k], aff)
                                                                      for k in tight):
        return False, "a face constraint without a positive reduced cost or multiplier"
    F_eq = A_eq + [{j: Fraction(1)} for j in zero] + [A_ub[k] for k in tight]
    F_b = b_eq + [Fraction(0)] * len(zero) + [b_ub[k] for k in tight]
    if any(_dot(r, x) != b for r, b in zip(F_eq, F_b, strict=True)):
        return False, "the stated optimum is not on the face"
    done = set(zero)
    for bd in u["bounds"]:
        j = int(bd["j"])
        for key, s in (("lo", 1), ("hi", -1)):      # min s*x_j over the face is s*x_j
            y = [fraction(v) for v in bd[f"{key}_y"]]
            lam = [fraction(v) for v in bd[f"{key}_lam"]]
            if len(y) != len(F_eq) or len(lam) != len(A_ub) or any(v < 0 for v in lam):
                return False, f"the face dual of x_{j} is malformed or has a negative multiplier"
            e = [Fraction(0)] * n
            e[j] = fraction(s)
            if any(v < 0 for v in reduced_costs(e, F_eq, y, A_ub, lam)):
                return False, f"the face dual of x_{j} is infeasible"
            if _dot(dict(enumerate(F_b)), y) - _dot(dict(enumerate(b_ub)), lam) != s * x[j]:
                return False, f"the face dual of x_{j} does not bound it by the stated value"
        done.add(j)
    if done != set(range(n)):
        return False, "some coordinate has no bound on the face"
    return True, f"unique: {len(zero)} forced zeros, {len(u['bounds'])} coordinates pinned by face duals"



def claim_text(c: dict) -> str:
    """The claim of an ``lp`` certificate, rebuilt from its evidence.

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
    >>> claim_text({"evidence": {"statement": "min x0", "lp": {"value": "0"}, "parameter": None, "unique": None,
    ...                          "vertex": True}})
    'min x0: the LP optimum is 0, at a vertex'
    """
    ev = c["evidence"]
    par = ev["parameter"]
    value = ev["lp"]["value"] if par is None else (f"{ev['lp']['value']} + ({par['value']}) t with t = "
                                                   + " * ".join(f"{p}^({f})" for p, f in par["atom"])
                                                   + f", for every t in [{par['low']}, {par['high']}]")
    return (f"{ev['statement']}: the LP optimum is {value}" + (", attained only at x" if ev["unique"] is not None
                                                                else "") + (", at a vertex" if ev["vertex"] else ""))


def check(c: dict):
    """Re-check an ``lp`` certificate: feasibility, dual feasibility and a zero gap, in exact rationals.

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
    >>> ev = {"statement": "min x0", "lp": {"value": "0"}, "parameter": None, "unique": None, "vertex": True}
    >>> check({"claim": "min x0: the LP optimum is 1", "verdict": "holds", "evidence": ev})
    ('refuted', 0, 'the claim is not the one its evidence states')
    """
    if c["claim"] != claim_text(c):
        return REFUTED, 0, "the claim is not the one its evidence states"
    ev = c["evidence"]
    A_eq, A_ub = _rows(ev["A_eq"]), _rows(ev["A_ub"])
    b_eq, b_ub = [fraction(v) for v in ev["b_eq"]], [fraction(v) for v in ev["b_ub"]]
    x = [fraction(v) for v in ev["lp"]["x"]]
    n = len(x)
    if len(b_eq) != len(A_eq) or len(b_ub) != len(A_ub) or any(not 0 <= j < n for r in A_eq + A_ub for j in r):
        return REFUTED, 0, "the LP is not well formed"
    if not _feasible(x, A_eq, b_eq, A_ub, b_ub):
        return REFUTED, n, "the stated optimum violates a constraint"
    aff = _Affine(ev["parameter"])
    if ev["parameter"] is not None and not aff.contains_t():
        return REFUTED, n, "the parameter t is not in the stated interval"
    ok, detail, red_lam = _optimal(ev, x, A_eq, b_eq, A_ub, b_ub, aff)
    if ok and ev["vertex"]:
        active = A_eq + [r for r, b in zip(A_ub, b_ub, strict=True) if _dot(r, x) == b] + \
            [{j: Fraction(1)} for j in range(n) if x[j] == 0]
        # a vertex: the active constraints (equalities, tight inequalities, zero coordinates) have rank n, so x is their
        # only common solution
        ok = rank(active, n) == n
        detail += "; a vertex (active rank n)" if ok else "; NOT a vertex"
    if ok and ev["unique"] is not None:
        ok, more = _unique(ev["unique"], x, A_eq, b_eq, A_ub, b_ub, red_lam, aff)
        detail += "; " + more
    ok = ok and c["verdict"] == "holds"
    return (CONFIRMED if ok else REFUTED), n, f"LP with {n} variables: {detail}" + (
        label_note("statement", c["evidence"]["statement"]) if ok else "")


def method_of(c: dict) -> str:
    """The method an lp certificate's verdict rests on (the dispatcher refutes another, or a precision).

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
