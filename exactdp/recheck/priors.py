"""Re-check the ECP14 kinds: ``tight``, ``regular``, ``threshold``, ``leakage``, ``theorem4``.

``Phi`` (``phi_yy' = e^(-eps d(y,y'))``) is rebuilt here from the full
distance matrix in the evidence.  At a rational ``alpha`` (with distances that
are integer multiples of the level's ``D``) every check is exact: a solution
is verified by one multiplication (``Phi z = 1``, ``mu Phi = pi``), an LP by
its primal and dual (:func:`check_lp`).  A solve at a transcendental level is
redone here: on the quotient of an equitable partition that the certificate
names and this module verifies, by Rump's verification of the approximate
solution and inverse the certificate carries (:mod:`exactdp.recheck._verified`,
where the error analysis is), or, for at most 60 points without them, by
interval Gaussian elimination.  Threshold brackets are re-checked at both ends
that way.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from mpmath.ctx_iv import MPIntervalContext

from ._lp import check_lp
from ._kernel import refute_unless
from ._metric import check_table
from ._levels import ENCLOSURE_WIDTH, check_level, method_for
from ._metric import describe_table, name_note
from ._kernel import NotHere, _div, fraction, level_factor, sign, value
from ._kernel import _iv as _interval
from . import _tight_set
from ._grid import Grid
from ._verified import (Inverse, Refuted, certified_signs, check_codes, enclose_quotient, enclosed_solution, quotient,
                        solve_grid)
from ._dprivacy import LEVEL, MECH, _Mech

CONFIRMED, REFUTED = "confirmed", "refuted"

#: the routes each kind's producer takes (an enumerated field: another one is refuted)
ROUTES = {"tight": ("solve", "lp"), "regular": ("support", "solve", "lp"),
          "threshold": ("symmetric", "path", "manhattan", "exact-polynomial", "bracket")}

# ----------------------------------------------------------------------------------------- the shape ----
#: the evidence of each kind, read strictly by the dispatcher before any work (:mod:`._schema`); the hints
#: (``verified``, ``ends``: the checker's float solve, re-verified here or not used) are typed as well
DIST = {"points": ["str"], "values": ["str"], "codes": [["int"]]}
GRID = {"kind": "str", "shape": ["int"], "norm": "str"}
LP = {"value": "str", "x": ["str"], "y": ["str"], "lam": ["str"]}
#: a verified float solve on a quotient (certificate/priors.py: VerifiedSolve); dyadic numbers m 2^exp
VERIFIED = {"cell_of": ("?", ["int"]), "center": ("?", {"exp": "int", "mantissas": ["str"]}),
            "inverse": ("?", {"exp": "int", "mantissas": [["int"]]}), "z_enclosures": ("?", [["str"]]),
            "beta": "?str", "fixed_point_eta": "?str", "cell_signs": "?str"}
TIGHT = {"description": "str", "level": LEVEL, "regime": "str", "distances": ("?", DIST), "route": "str",
         "z": ("?", ["str"]), "exact": "bool", "negative": ["str"], "rank": "?int", "lp": ("?", LP),
         "mechanism": ("?", MECH), "cells": "?int", "verified": ("?", VERIFIED), "metric": ("?", GRID)}
REGULAR = {"description": "str", "level": LEVEL, "regime": "str", "prior": ["str"], "distances": ("?", DIST),
           "route": "str", "zero_at": ["str"], "mu": ("?", ["str"]), "exact": "bool", "gamma": ("?", ["str"]),
           "negative": ["str"], "lp": ("?", LP), "verified": ("?", VERIFIED), "metric": ("?", GRID)}
THRESHOLD = {"description": "str", "route": "str", "distances": ("?", DIST), "lo": "?str", "hi": "?str",
             "lo_rational": "?str", "hi_rational": "?str", "exact": "?str", "exact_failure_set": "?str",
             "negative_at_lo": "?str", "ends": ("?", {"lo": VERIFIED, "hi": VERIFIED}), "metric": ("?", GRID),
             "root_of_alpha": "?int", "attained": "?bool",
             "existence": ("?", [{"lo": "str", "hi": "str", "lo_closed": "bool", "hi_closed": "bool"}])}
LEAKAGE = {"mechanism": MECH, "prior": ["str"], "max_utility": "str", "max_prior": "str", "ratio": "str",
           "leakage_bits": "str", "enclosure": ["str"]}
# remap: output label -> {input label: probability}, labels chosen by the user (checked in _check_theorem4)
THEOREM4 = {"mechanism": MECH, "level": LEVEL, "distances": ("?", DIST), "variables": "int", "lp_value": "str",
            "remap": ("?", ("map", ("map", "str")))}
EVIDENCE = {"tight": TIGHT, "regular": REGULAR, "threshold": THRESHOLD, "leakage": LEAKAGE, "theorem4": THEOREM4}


def _check_metric(dist: dict) -> None:
    """The carried distances are a metric's: codes in range, ``d(x, x) = 0`` and every other value ``> 0`` or
    ``"inf"`` (between components).  Raises :class:`Refuted`."""
    values, codes = dist["values"], dist["codes"]
    check_codes(codes, len(values))
    signs = [None if d == "inf" else sign(value(d)) for d in values]
    if any(s is not None and s < 0 for s in signs):
        raise Refuted("a negative distance")
    if any(signs[row[i]] != 0 for i, row in enumerate(codes)):
        raise Refuted("a point at a non-zero distance from itself")
    if any(signs[c] == 0 for i, row in enumerate(codes) for j, c in enumerate(row) if i != j):
        raise Refuted("two distinct points at distance 0")


def _phi(ev: dict) -> list:
    """Exact rational Phi from the distances and the level, or NotHere."""
    vals = _phi_values(ev)
    return [[vals[c] for c in row] for row in ev["distances"]["codes"]]


def _phi_values(ev: dict) -> list:
    """``phi`` for each distance value (exact rationals), or NotHere."""
    lv, dist = ev["level"], ev["distances"]
    if dist is None:
        raise NotHere("the metric is too large for the certificate to carry its distance matrix")
    _check_metric(dist)
    if lv["eps"] is not None:
        raise NotHere("the level is transcendental (alpha = e^(-eps) with eps algebraic): the certificate rests on "
                      "Arb ball solves, and an n x n interval solve is outside this kernel")
    R, D = fraction(lv["R"]), fraction(lv["D"])
    vals = []
    for d in dist["values"]:
        if d == "inf":
            vals.append(Fraction(0))
            continue
        k = fraction(d) / D
        if k.denominator != 1:
            raise NotHere("a distance that is not an integer multiple of D: phi is irrational")
        vals.append(R ** -int(k))
    return vals


#: largest system re-solved in interval arithmetic at a transcendental level
MAX_INTERVAL_POINTS = 60


def _interval_solve(ev: dict, rhs: list, sharp: bool = False):
    """Signs of ``Phi^-1 rhs`` at a transcendental level by interval Gaussian elimination (rising precision).

    ``phi = e^(-eps d)`` is enclosed by this kernel's own intervals; elimination pivots on the entry of largest
    midpoint; a coordinate whose interval contains 0 at every precision is not decided (NotHere).  ``sharp``:
    start at 400 bits (enclosures to compare with a certificate's ~12-digit balls)."""
    dist = ev["distances"]
    n = len(dist["codes"])
    if n > MAX_INTERVAL_POINTS:
        raise NotHere(f"the level is transcendental and the system has {n} > {MAX_INTERVAL_POINTS} points: an "
                      "interval re-solve of that size is outside this kernel (the certificate rests on Arb balls)")
    iv = MPIntervalContext()             # a private context (issue 21): never mpmath's global one
    for prec in ((400, 1600) if sharp else (120, 400, 1600)):
        iv.prec = prec
        vals = []
        for d in dist["values"]:
            vals.append(iv.mpf(0) if d == "inf" else _interval(_div(value("1"), level_factor(ev["level"], d)), iv))
        A = [[vals[c] for c in row] + [iv.mpf(rhs[i].numerator) / rhs[i].denominator]
             for i, row in enumerate(dist["codes"])]
        got = _eliminate(A, n)
        if got is not None:
            return got
    raise NotHere("interval elimination did not separate a coordinate from 0 (an exact zero?)")


def _eliminate(A, n):
    """Interval Gaussian elimination on the augmented ``n x (n+1)`` interval matrix ``A`` (in place): the pivot is
    chosen by the midpoints (a float only chooses; any choice is sound), and the result encloses the exact
    solution. None when a pivot or a solution coordinate contains 0 (no sign certified); else the signs and the
    enclosures."""
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(A[i][k].mid))
        A[k], A[p] = A[p], A[k]
        if 0 in A[k][k]:
            return None
        for i in range(k + 1, n):
            f = A[i][k] / A[k][k]
            A[i] = [A[i][j] - f * A[k][j] if j >= k else A[i][j] for j in range(n + 1)]
    x: list = [None] * n
    for i in range(n - 1, -1, -1):
        t = A[i][n]
        for j in range(i + 1, n):
            t = t - A[i][j] * x[j]
        x[i] = t / A[i][i]
    if any(0 in v for v in x):
        return None
    return [1 if v.a > 0 else -1 for v in x], [(_frac(v.a), _frac(v.b)) for v in x]


def _frac(end) -> Fraction:
    """An interval end point (an exact binary number) as a fraction."""
    sgn, man, exp, _ = end._mpi_[0]       # a degenerate interval; exact (no rounding to mpmath's global precision)
    q = fraction(man) * Fraction(2) ** exp
    return -q if sgn else q


def _quotient_signs(level: dict, dist: dict, ver: dict, rhs: list):
    """Signs of ``Phi^-1 rhs`` per point by the verified quotient route: ``(signs, cells, beta)``."""
    _check_metric(dist)
    k, counts, rhs_q = quotient(dist["codes"], ver["cell_of"], rhs, len(dist["values"]))
    Qlo, Qhi = enclose_quotient(level, dist["values"], k, counts)
    R = Inverse(ver["inverse"], k)
    signs, beta = certified_signs(Qlo, Qhi, R, R.verify(Qlo, Qhi), ver["center"], rhs_q)
    ys, errs, _ = enclosed_solution(Qlo, Qhi, R, R.verify(Qlo, Qhi), ver["center"], rhs_q)
    enc = [(ys[a] - errs[a], ys[a] + errs[a]) for a in ver["cell_of"]]
    return [signs[a] for a in ver["cell_of"]], k, beta, enc


def _bracket_signs(ev: dict, ends: dict):
    """Signs at both ends of a bracket; ``R`` (given once, at ``hi``) is verified in full at ``hi`` and at ``lo``
    by the perturbation bound ``|I - R Q_lo| <= |I - R Q_hi| + |R| |Q_lo - Q_hi|``."""
    dist = ev["distances"]
    cell_of = ends["hi"]["cell_of"]
    if ends["lo"]["cell_of"] != cell_of:
        raise Refuted("the two ends name different partitions")
    _check_metric(dist)
    k, counts, rhs_q = quotient(dist["codes"], cell_of, [Fraction(1)] * len(cell_of), len(dist["values"]))
    R = Inverse(ends["hi"]["inverse"], k)
    hi: tuple[list, list] = enclose_quotient({"eps": ev["hi_rational"]}, dist["values"], k, counts)
    lo: tuple[list, list] = enclose_quotient({"eps": ev["lo_rational"]}, dist["values"], k, counts)
    g_hi = R.verify(*hi)
    s_hi, b_hi = certified_signs(*hi, R, g_hi, ends["hi"]["center"], rhs_q)
    s_lo, b_lo = certified_signs(*lo, R, R.verify_near(g_hi, hi, *lo), ends["lo"]["center"], rhs_q)
    return [s_hi[a] for a in cell_of], [s_lo[a] for a in cell_of], k, max(b_hi, b_lo)


def _ball(text: str):
    """A stated enclosure ``[m +/- r]`` (Arb's text) or an exact rational, as ``(lo, hi)`` fractions."""
    m = _BALL.match(text) if isinstance(text, str) else None
    if m is None:
        q = fraction(text)
        return q, q
    mid, rad = fraction(m.group(1)), fraction(m.group(2))
    return mid - rad, mid + rad


_BALL = re.compile(r"^\[([-+0-9.e]+) \+/- ([0-9.e+-]+)\]$")


def _balls_ok(stated: list, enc: list, refine=None) -> None:
    """Each stated ball contains the value this kernel enclosed (``enc``), and states it to ~9 digits: refuted when
    disjoint.  When a stated ball only overlaps this kernel's enclosure (a wide one: Rump's bound with the
    certificate's approximate inverse is loose once the system differs from the one it was computed for),
    ``refine()`` -- an interval re-solve at rising precision, or ``None`` -- gives narrower enclosures and the test
    is repeated on them; overlapping still, the answer is not checkable (never confirmed)."""
    refute_unless(isinstance(stated, list) and len(stated) == len(enc), "the stated solution has the wrong length")
    balls = [_ball(s_) for s_ in stated]
    for s_, (a, b) in zip(stated, balls, strict=True):
        refute_unless(b - a <= ENCLOSURE_WIDTH * max(Fraction(1), abs(b)),
                      f"the stated enclosure {s_} is wider than its accuracy")
    for attempt in range(2):
        loose = False
        for s_, (a, b), (lo, hi) in zip(stated, balls, enc, strict=True):
            refute_unless(not (b < lo or hi < a),
                          f"the stated enclosure {s_} does not contain the value re-derived here")
            loose = loose or not (a <= lo and hi <= b)
        if not loose:
            return
        if attempt == 0 and refine is not None:
            enc = refine()
    bad = next(s_ for s_, (a, b), (lo, hi) in zip(stated, balls, enc, strict=True) if not (a <= lo and hi <= b))
    raise NotHere(f"the stated enclosure {bad} is tighter than this kernel's")


def _check_signs_transcendental(ev: dict, rhs: list, negative: list, holds: bool, stated=None):
    """The signs of ``Phi z = rhs`` at a transcendental level, by one of three verified routes: the carried quotient
    with its approximate inverse (Rump), a described grid's symmetry quotient (inverse computed here), or interval
    elimination for a small matrix; then compared with the stated negative coordinates and verdict, and a stated
    solution with its enclosure."""
    ver = ev.get("verified")
    if ver is not None and all(ver[k] is not None for k in ("inverse", "center", "cell_of")):
        try:
            signs, k, beta, enc = _quotient_signs(ev["level"], ev["distances"], ver, rhs)
        except Refuted as e:
            return REFUTED, len(rhs), str(e)
        how = (f"re-verified on the {k}-cell quotient of the equitable partition (checked on every point; Rump's "
               f"bound ||I - R Q||_inf <= {float(beta):.2g} < 1, residual enclosed exactly)")
    elif ev["distances"] is None:
        g, out = _grid_signs(ev, rhs)
        cs = _cell_signs(out["ys"], out["errs"])
        signs = [cs[a] for a in g.cell_of]
        enc = [(out["ys"][a] - out["errs"][a], out["ys"][a] + out["errs"][a]) for a in g.cell_of]
        how = (f"re-verified on the {g.k}-cell quotient of the grid's symmetry orbits (the grid re-derived from its "
               f"definition; Rump's bound ||I - R Q||_inf <= {float(out['beta']):.2g} < 1 with R computed here, "
               "residual enclosed exactly)")
    else:
        signs, enc = _interval_solve(ev, rhs)
        how = "re-solved in interval arithmetic at the transcendental level"
    if stated is not None:
        dist = ev["distances"]
        refine = None
        if dist is not None and len(dist["codes"]) <= MAX_INTERVAL_POINTS:
            def refine():
                """A sharper interval solve, run only when the stated enclosure needs it."""
                return _interval_solve(ev, rhs, sharp=True)[1]
        _balls_ok(stated, enc, refine)
        how += "; every stated enclosure contains the re-derived value"
    pts = ev["distances"]["points"] if ev["distances"] is not None else _grid(ev).points
    neg = [pts[i] for i, s in enumerate(signs) if s < 0]
    ok = neg == negative and holds == (not neg)
    return (CONFIRMED if ok else REFUTED), len(signs), (
        f"{how}: {len(neg)} coordinate(s) certified negative (certificate: {len(negative)})")


def _gamma_balls(ev: dict) -> None:
    """Transcendental ``gamma_y = mu_y sum_y' phi_yy'``: the stated ball must meet the product of the stated
    ``mu`` ball (checked above) and the row sum of ``Phi`` enclosed in intervals."""
    dist = ev["distances"]
    if dist is None:
        raise NotHere("gamma = mu_y times the row sums of Phi is re-derived from a carried distance matrix only")
    refute_unless(len(ev["gamma"]) == len(dist["codes"]) == len(ev["mu"]), "gamma has the wrong length")
    iv = MPIntervalContext()             # a private context (issue 21)
    iv.prec = 200
    phi = [iv.mpf(0) if d == "inf" else _interval(_div(value("1"), level_factor(ev["level"], d)), iv)
           for d in dist["values"]]
    for row, m, g in zip(dist["codes"], ev["mu"], ev["gamma"], strict=True):
        lo, hi = _ball(m)
        prod = iv.mpf([_ivq(lo, iv).a, _ivq(hi, iv).b])
        prod = prod * sum((phi[c] for c in row), iv.mpf(0))
        a, b = _ball(g)
        refute_unless(not (_ivq(b, iv).b < prod.a or prod.b < _ivq(a, iv).a),
                      f"gamma = {g} is not mu_y times the row sum of Phi")


def _check_bracket(c: dict):
    """Both ends of a threshold bracket re-verified: every z > 0 at ``hi``, z < 0 at ``negative_at_lo`` at ``lo``."""
    ev = c["evidence"]
    ends, dist = ev.get("ends"), ev["distances"]
    if dist is None and ev.get("metric") is None:
        raise NotHere("the metric is too large for the certificate to carry its distance matrix")
    if not ends and dist is not None:
        raise NotHere("the certificate carries no verified solves at the bracket ends (an Arb ball solve, or a "
                      "quotient too large to carry its approximate inverse), which this kernel does not redo")
    refute_unless(ev["exact"] is None and ev["exact_failure_set"] is None and ev["existence"] is None
                  and ev["root_of_alpha"] is None and ev["attained"] is None,
                  "a bracket states where z changes sign, not an exact threshold or an existence set")
    lo, hi = fraction(ev["lo_rational"]), fraction(ev["hi_rational"])
    if not (0 < lo < hi and fraction(ev["lo"]) == lo and fraction(ev["hi"]) == hi and c["verdict"] == "holds"):
        return REFUTED, 0, "the bracket ends are not 0 < lo < hi (or their decimal text differs)"
    try:
        if dist is not None:
            pts = dist["points"]
            s_hi, s_lo, k, beta = _bracket_signs(ev, ends)
            where = f"the {k}-cell quotient"
        else:
            g = _grid(ev)
            pts = g.points
            out = solve_grid(ev["metric"], {"eps": str(hi)}, (Fraction(1),) * g.k, {"eps": str(lo)})
            c_hi = _cell_signs(out["ys"], out["errs"])
            c_lo = _cell_signs(*out["lo"][:2])
            s_hi, s_lo, k = [c_hi[a] for a in g.cell_of], [c_lo[a] for a in g.cell_of], g.k
            beta = max(out["beta"], out["lo"][2])
            where = f"the {k}-cell quotient of the grid's symmetry orbits (the grid re-derived from its definition)"
    except Refuted as e:
        return REFUTED, len(ev["distances"]["points"]) if dist is not None else 0, str(e)
    at = ev["negative_at_lo"]
    ok = all(v > 0 for v in s_hi) and at in pts and s_lo[pts.index(at)] < 0
    return (CONFIRMED if ok else REFUTED), 2 * len(pts), (
        f"both ends re-verified on {where} (Rump's bound {float(beta):.2g} < 1): at eps = "
        f"{ev['hi']} every z > 0 {'(confirmed)' if all(v > 0 for v in s_hi) else '(NOT confirmed)'}, at eps = "
        f"{ev['lo']} z at {at!r} < 0 {'(confirmed)' if at in pts and s_lo[pts.index(at)] < 0 else '(NOT confirmed)'}")



def _violation_lp(M, rhs):
    """min sum(s+ + s-) s.t. M x + s+ - s- = rhs, x, s >= 0 (the checkers' formulation, rebuilt)."""
    n = len(M)
    A_eq = []
    for i in range(n):
        row = {j: M[i][j] for j in range(n) if M[i][j] != 0}
        row[n + i] = Fraction(1)
        row[2 * n + i] = Fraction(-1)
        A_eq.append(row)
    return [Fraction(0)] * n + [Fraction(1)] * (2 * n), A_eq, list(rhs)


def _phi_times(codes, vals, z) -> list:
    """``Phi z`` exactly, ``Phi_ij = vals[codes[i][j]]``.  Rows that see the same multiset of (distance code,
    z value) pairs have the same product, so each distinct multiset is summed once (on a symmetric metric most
    rows repeat one another)."""
    zkey: dict = {}
    zc = [zkey.setdefault(v, len(zkey)) for v in z]
    zvals = list(zkey)
    cache: dict = {}
    out = []
    for row in codes:
        sig = frozenset(Counter(zip(row, zc, strict=True)).items())
        v = cache.get(sig)
        if v is None:
            v = cache[sig] = sum((m * vals[e] * zvals[c] for (e, c), m in sig), Fraction(0))
        out.append(v)
    return out


def _solution_checks(ev, z, rhs, negative, holds):
    """At a rational level: the stated solution ``z`` satisfies ``Phi z = rhs`` exactly (one multiplication in
    fractions), and its negative coordinates are the stated ones and decide the verdict."""
    codes, points = ev["distances"]["codes"], ev["distances"]["points"]
    n = len(codes)
    if len(z) != n or any(len(r) != n for r in codes):
        return REFUTED, n, "the solution and the distance matrix have different sizes"
    for i, v in enumerate(_phi_times(codes, _phi_values(ev), z)):
        if v != rhs[i]:
            return REFUTED, n, f"row {points[i]}: the stated solution does not satisfy the system"
    neg = [points[i] for i in range(n) if z[i] < 0]
    ok = neg == negative and holds == (not neg)
    return (CONFIRMED if ok else REFUTED), n, (f"the system re-verified exactly by multiplication; {len(neg)} "
                                                f"negative coordinate(s) (certificate: {len(negative)})")


def _transcendental(ev: dict) -> bool:
    """Is this a solve at a transcendental level (eps stated, a matrix or a metric carried, the solve route)?"""
    return ev["level"]["eps"] is not None and (ev["distances"] is not None or ev.get("metric") is not None) \
        and ev["route"] == "solve"


def _grid(ev: dict):
    """The unit grid the evidence describes (when it carries no distance matrix), checked against its description."""
    refute_unless(ev["distances"] is None or ev.get("metric") is None, "both a distance matrix and a described metric")
    try:
        g = Grid(ev.get("metric"))
    except ValueError as e:
        raise Refuted(str(e)) from None
    refute_unless(g.description == ev["description"], "the described metric is not the one the description names")
    return g


def _grid_signs(ev: dict, rhs: list):
    """Signs and enclosures of ``Phi^-1 rhs`` per point on a described grid: the orbit quotient derived here
    (:mod:`._grid`), the solve verified here (:func:`._verified.solve_grid`)."""
    g = _grid(ev)
    refute_unless(len(rhs) == g.n, "the right-hand side and the grid differ in size")
    ver = ev.get("verified")
    if isinstance(ver, dict) and ver.get("cell_of") is not None and not g.same_partition(ver["cell_of"]):
        raise NotHere("the certificate's partition is not the grid's symmetry orbits, which this route derives")
    rhs_q: list = [None] * g.k
    for a, v in zip(g.cell_of, rhs, strict=True):
        refute_unless(rhs_q[a] is None or rhs_q[a] == v,
                      "the right-hand side is not constant on the grid's symmetry orbits")
        rhs_q[a] = v
    return g, solve_grid(ev["metric"], _solve_level(ev["level"]), tuple(rhs_q))


def _solve_level(lv: dict) -> dict:
    """The part of a level the factors ``e^(-eps d)`` are computed from."""
    return {"eps": lv["eps"]} if lv["eps"] is not None else {"eps": None, "R": lv["R"], "D": lv["D"]}


def _cell_signs(ys: list, errs: list) -> list:
    """Certified signs of the quotient solution (NotHere when a coordinate is not separated from 0)."""
    out = []
    for i, (y, e) in enumerate(zip(ys, errs, strict=True)):
        if not (y - e > 0 or y + e < 0):
            raise NotHere(f"coordinate {i} of the quotient solution is not separated from 0 by the verified bound")
        out.append(1 if y > 0 else -1)
    return out


def _rational_regime(ev: dict) -> bool:
    """Is ``Phi`` rational: a level ``log(R)/D`` with every finite distance an integer multiple of ``D``?"""
    lv, dist = ev["level"], ev["distances"]
    if lv["eps"] is not None or dist is None:
        return lv["eps"] is None and dist is None and ev["regime"] == "rational"
    try:
        D = fraction(lv["D"])
        return all(d == "inf" or (fraction(d) / D).denominator == 1 for d in dist["values"])
    except (ValueError, ZeroDivisionError):
        return False


#: largest singular Phi whose rank is recomputed over fractions
MAX_RANK_POINTS = 200


def _common(ev: dict) -> None:
    """Level text, the distance table (convention 3) and the regime, re-derived for tight / regular."""
    check_level(ev["level"])             # the distance table is checked by check() before any kind's work
    rational = _rational_regime(ev)
    refute_unless(ev["regime"] == ("rational" if rational else "transcendental"), "the regime is not the level's")


def _cells(ev: dict) -> None:
    """Refute unless the stated number of cells is that of the carried partition ``cell_of`` (None without one)."""
    ver = ev.get("verified")
    k = None
    if isinstance(ver, dict) and isinstance(ver.get("cell_of"), list) and ver["cell_of"]:
        k = max(ver["cell_of"]) + 1
    refute_unless(ev["cells"] == k, "the number of cells is not that of the partition the certificate carries")


def _tight_solve_fields(c: dict, ev: dict) -> None:
    """The solve route's own fields: no LP, ``exact`` the regime, and a mechanism exactly where the producer writes
    one (an exact solve that holds: z rational, every z >= 0), where :func:`_check_tight` re-derives it entry by
    entry; anywhere else it would be a field nobody checked."""
    refute_unless(ev["route"] == "solve" and ev["rank"] is None and ev["lp"] is None, "the solve route states no LP")
    refute_unless(ev["exact"] is _rational_regime(ev), "exact is not whether the regime is rational")
    if ev["mechanism"] is not None:
        refute_unless(ev["exact"] is True and c["verdict"] == "holds" and ev["distances"] is not None,
                      "a mechanism is stated for a solve that is not exact or not holding: the producer writes "
                      "none there")
        m, pts = ev["mechanism"], ev["distances"]["points"]
        refute_unless(m["name"] == "tight-constraints mechanism" and m["inputs"] == pts and m["outputs"] == pts,
                      "the mechanism is not the tight-constraints mechanism on the points")
    else:
        refute_unless(c["verdict"] != "holds" or not _rational_regime(ev),
                      "a rational tight-constraints mechanism exists "
                      "but is not stated")


def _check_tight(c: dict):
    """Re-check a ``tight`` certificate (ECP14 Props. 7-8: does ``Phi z = 1`` have ``z >= 0``?): on the LP route a
    singular ``Phi`` (exact rank, bounded by ``MAX_RANK_POINTS``) and the LP's solution; on the solve route the
    signs, verified at a transcendental level or exact by multiplication at a rational one."""
    ev = c["evidence"]
    refute_unless(ev["route"] in ROUTES["tight"], f"an unknown route {ev['route']!r}")
    _common(ev)
    _cells(ev)
    n = len(ev["distances"]["codes"]) if ev["distances"] is not None else None
    if ev["route"] == "lp":
        refute_unless(ev["exact"] is True and ev["negative"] == [] and ev["mechanism"] is None and ev["lp"] is not None,
                      "the LP route states exact z, no negative coordinate and no mechanism")
        M = _phi(ev)
        n = len(M)
        from ._lp import rank
        if n > MAX_RANK_POINTS:
            raise NotHere(f"the rank of a {n} x {n} Phi (Gaussian elimination over fractions) is above this kernel's "
                          f"{MAX_RANK_POINTS} points")
        refute_unless(ev["rank"] == rank([dict(enumerate(r)) for r in M], n) and ev["rank"] < n,
                      "the rank of Phi is not the stated one (or Phi is not singular)")
        exists = c["verdict"] == "holds"
        refute_unless(ev["z"] == (ev["lp"]["x"][:n] if exists else None), "z is not the LP's solution")
    else:
        _tight_solve_fields(c, ev)
    if _transcendental(ev):
        n = len(ev["distances"]["codes"]) if ev["distances"] is not None else _grid(ev).n
        return _check_signs_transcendental(ev, [Fraction(1)] * n, ev["negative"], c["verdict"] == "holds", ev["z"])
    M = _phi(ev)
    n, holds = len(M), c["verdict"] == "holds"
    if ev["route"] == "lp":
        cc, A, b = _violation_lp(M, [Fraction(1)] * n)
        ok, detail = check_lp(cc, A, b, [], [], ev["lp"])
        ok = ok and holds == (fraction(ev["lp"]["value"]) == 0)
        return (CONFIRMED if ok else REFUTED), n, "singular Phi, exact LP: " + detail
    z = [fraction(v) for v in ev["z"]]
    status, k, detail = _solution_checks(ev, z, [Fraction(1)] * n, ev["negative"], holds)
    if status == CONFIRMED and ev["mechanism"] is not None:
        mech = _Mech(ev["mechanism"])
        for i in range(n):
            for j in range(n):
                if fraction(mech.values[mech.codes[i][j]]) != M[i][j] * z[j]:
                    return REFUTED, k, "the mechanism is not h_yy' = phi_yy' z_y'"
        detail += "; the mechanism h_yy' = phi_yy' z_y' re-derived"
    return status, k, "Phi z = 1: " + detail


def _check_regular(c: dict):
    """Re-check a ``regular`` certificate (ECP14 Def. 4: ``mu Phi = pi`` with ``mu >= 0``): a prior with a zero is
    not regular (Prop. 2, the support route); else ``gamma`` re-derived and the signs of ``mu`` decided as for
    ``tight``."""
    ev = c["evidence"]
    _common(ev)
    holds = c["verdict"] == "holds"
    pi = [fraction(v) for v in ev["prior"]]
    refute_unless(all(p >= 0 for p in pi) and sum(pi) == 1, "the prior is not a probability vector")
    if ev["distances"] is not None:
        pts = ev["distances"]["points"]
        refute_unless(len(pi) == len(pts), "the prior and the points differ in length")
        refute_unless(ev["zero_at"] == [y for y, p in zip(pts, pi, strict=True) if p == 0],
                      "zero_at is not where the prior is 0")
    refute_unless(ev["route"] in ROUTES["regular"], f"an unknown route {ev['route']!r}")
    refute_unless(ev["exact"] is (_rational_regime(ev) or ev["route"] == "lp"),
                  "exact is not whether the regime is rational")
    if ev["route"] == "support":
        ok = not holds and bool(ev["zero_at"]) and any(p == 0 for p in pi) and ev["mu"] is None \
            and ev["gamma"] is None and ev["negative"] == [] and ev["lp"] is None
        return (CONFIRMED if ok else REFUTED), len(pi), "a prior with a zero probability is not regular (Prop. 2)"
    refute_unless(ev["zero_at"] == [], "zero_at is stated on a solve")
    refute_unless(ev["route"] == "lp" or ev["lp"] is None, "the solve route states no LP")
    if ev["mu"] is not None and ev["exact"]:
        M = _phi(ev)
        mu = [fraction(v) for v in ev["mu"]]
        refute_unless(ev["gamma"] is not None
                      and [fraction(g) for g in ev["gamma"]] == [m * sum(r) for m, r in zip(mu, M, strict=True)],
                      "gamma_y = mu_y sum_y' phi_yy' is not re-derived")
    elif ev["route"] == "lp":
        refute_unless(ev["gamma"] is None, "gamma is stated without mu")
    if _transcendental(ev):
        refute_unless(ev["gamma"] is not None, "gamma is not stated")
        out = _check_signs_transcendental(ev, pi, ev["negative"], holds, ev["mu"])
        _gamma_balls(ev)
        return out
    M = _phi(ev)
    if ev["route"] == "lp":
        cc, A, b = _violation_lp(M, pi)
        ok, detail = check_lp(cc, A, b, [], [], ev["lp"])
        ok = ok and holds == (fraction(ev["lp"]["value"]) == 0) and ev["negative"] == [] \
            and ev["mu"] == (ev["lp"]["x"][:len(pi)] if holds else None)
        return (CONFIRMED if ok else REFUTED), len(pi), "singular Phi, exact LP: " + detail
    mu = [fraction(v) for v in ev["mu"]]
    status, k, detail = _solution_checks(ev, mu, pi, ev["negative"], holds)
    return status, k, "mu Phi = pi (Phi symmetric): " + detail


def _ball_size_symmetric(dist) -> bool:
    """Is the metric ball-size symmetric: does every point see the same multiset of distance codes? (ECP14 Prop. 9:
    then the threshold is 0.)"""
    vals = dist["values"]
    prof = [sorted(vals[c] for c in row) for row in dist["codes"]]
    return all(p == prof[0] for p in prof)


def _full_grid(rc: list) -> bool:
    """Are the labels ``(r, c)`` every point of a rectangle of consecutive rows and columns, each once?  (The
    closed form ``Phi = Phi_rows (x) Phi_cols`` needs it: five points of a plus shape are a star, not a grid.)

    >>> _full_grid([(0, 0), (0, 1), (1, 0), (1, 1)]), _full_grid([(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)])
    (True, False)
    """
    if any(len(p) != 2 for p in rc) or len(set(rc)) != len(rc):
        return False
    rows, cols = sorted({r for r, _ in rc}), sorted({c for _, c in rc})
    return (rows == list(range(rows[0], rows[0] + len(rows))) and cols == list(range(cols[0], cols[0] + len(cols)))
            and len(rc) == len(rows) * len(cols))


def _path_like(dist, grid: bool) -> bool:
    """Is ``d = h |i - j|`` in the point order (a path), or ``h (|dr| + |dc|)`` on labels ``"r,c"`` (grid)?"""
    pts, vals, codes = dist["points"], dist["values"], dist["codes"]
    if len(pts) < 2:
        return True
    h = fraction(vals[codes[0][1]])
    if grid:
        try:
            rc = [tuple(int(t) for t in p.split(",")) for p in pts]
        except ValueError:
            return False
        if not _full_grid(rc):
            return False                 # the product (Kronecker) form of Phi needs every (r, c) of a rectangle
        h = min(fraction(v) for v in vals if v != "0")
        want = lambda i, j: h * (abs(rc[i][0] - rc[j][0]) + abs(rc[i][1] - rc[j][1]))  # noqa: E731
    else:
        want = lambda i, j: h * abs(i - j)  # noqa: E731
    return h > 0 and all(vals[codes[i][j]] != "inf" and fraction(vals[codes[i][j]]) == want(i, j)
                         for i in range(len(pts)) for j in range(len(pts)))


def _ivq(q: Fraction, ctx):
    """``q`` enclosed in the interval context ``ctx``."""
    return ctx.mpf(q.numerator) / q.denominator


def _solve_exact(M: list, b: list):
    """The solution of ``M z = b`` over the rationals (Gaussian elimination), or ``None`` when ``M`` is singular."""
    n = len(M)
    A = [[*list(r), v] for r, v in zip(M, b, strict=True)]
    for k in range(n):
        p = next((i for i in range(k, n) if A[i][k] != 0), None)
        if p is None:
            return None
        A[k], A[p] = A[p], A[k]
        for i in range(n):
            if i != k and A[i][k] != 0:
                f = A[i][k] / A[k][k]
                A[i] = [x - f * y for x, y in zip(A[i], A[k], strict=True)]
    return [A[i][n] / A[i][i] for i in range(n)]


def _check_existence(ev: dict):
    """Route ``exact-polynomial``: the set of alpha where a tight-constraints mechanism exists re-derived from the
    distances over all of (0, 1) (:mod:`._tight_set`), compared piece by piece and end by end (open or closed);
    the threshold ``eps* = -L log t*`` (``(0, t*]`` the first piece), whether it is attained, its text and its
    rational bracket re-derived from it."""
    refute_unless(ev["negative_at_lo"] is None and ev["ends"] is None and ev["exact_failure_set"] is None
                  and ev["metric"] is None, "the exact route states no bracket solves")
    dist = ev["distances"]
    if dist is None:
        raise NotHere("the metric is too large for the certificate to carry its distance matrix")
    if ev["existence"] is None:
        raise NotHere("the certificate does not state the existence set (an older certificate)")
    L, roots, pieces, S = _tight_set.existence(dist["values"], dist["codes"])
    try:
        ends = _tight_set.compare(ev["existence"], roots, pieces, S)
    except _tight_set.Mismatch as e:
        return REFUTED, len(dist["codes"]), f"the existence set is not the re-derived one: {e}"
    refute_unless(ev["root_of_alpha"] == L,
                  f"the ends are values of t = alpha^(1/{L}), not of alpha^(1/{ev['root_of_alpha']})")
    n = len(dist["codes"])
    shape = "an interval" if len(pieces) == 1 else f"{len(pieces)} pieces"
    if pieces == [(0, len(roots) + 1, False, False)]:
        refute_unless(ev["lo"] == ev["hi"] == ev["exact"] == "0" and ev["lo_rational"] is None
                      and ev["hi_rational"] is None
                      and ev["attained"] is True,
                      "the set is all of (0, 1): the threshold is 0, stated with other numbers")
        return CONFIRMED, n, ("the existence set re-derived over all of (0, 1): all of it (Sturm sequences on the "
                              "quotient of the coarsest equitable partition): threshold 0")
    refute_unless(pieces[0][0] == 0 and not pieces[0][2], "the set does not start at alpha = 0")
    star = ends[0][1]
    attained = pieces[0][3]
    refute_unless(ev["attained"] is attained, f"one {'exists' if attained else 'does not exist'} at alpha* itself")
    exact = f"log({1 / star ** L})" if isinstance(star, Fraction) else "-log(alpha*)"
    refute_unless(ev["exact"] == exact, f"the threshold is {exact}, not {ev['exact']}")
    lo, hi = fraction(ev["lo_rational"]), fraction(ev["hi_rational"])
    refute_unless(fraction(ev["lo"]) == lo and fraction(ev["hi"]) == hi, "the bracket's decimal text differs")
    iv = MPIntervalContext()             # a private context (issue 21)
    iv.prec = 256
    a, b = (star, star) if isinstance(star, Fraction) else star[1:]
    refute_unless(a > 0, "alpha* is not positive")
    eps = -L * iv.log(iv.mpf([_ivq(a, iv).a, _ivq(b, iv).b]))
    refute_unless(_ivq(lo, iv).b <= eps.a and eps.b <= _ivq(hi, iv).a, f"eps* = {exact} is not in [{lo}, {hi}]")
    return CONFIRMED, n, (f"the existence set re-derived over all of (0, 1) ({shape}; Descartes' rule on the quotient "
                          f"of the coarsest equitable partition, singular points decided exactly): every end and "
                          f"whether it is closed; threshold eps* = {exact} " + ("(attained)" if attained else
                                                                               "(an infimum, not attained)")
                          + f" in [{ev['lo']}, {ev['hi']}]")


def _check_threshold(c: dict):
    """Re-check a ``threshold`` certificate by its route: 0 by a closed form (path, manhattan grid), by ball-size
    symmetry (ECP14 Prop. 9), the exact existence set of a polynomial, or a bracket re-checked at both ends."""
    ev = c["evidence"]
    refute_unless(c["verdict"] == "holds", "a threshold certificate asserts holds")
    refute_unless(ev["route"] in ROUTES["threshold"], f"an unknown threshold route {ev['route']!r}")
    if ev["route"] in ("path", "manhattan", "symmetric"):
        refute_unless(ev["lo"] == ev["hi"] == ev["exact"] == "0" and ev["lo_rational"] is None
                      and ev["hi_rational"] is None
                      and ev["exact_failure_set"] is None and ev["negative_at_lo"] is None and ev["ends"] is None
                      and ev["existence"] is None and ev["root_of_alpha"] is None and ev["attained"] is None,
                      "threshold 0 is stated with other numbers")
    if ev["route"] in ("path", "manhattan"):
        if ev["distances"] is None:
            raise NotHere("the metric is too large for the certificate to carry its distance matrix")
        ok = _path_like(ev["distances"], ev["route"] == "manhattan")
        return (CONFIRMED if ok else REFUTED), len(ev["distances"]["codes"]), (
            f"the distances are those of a {ev['route']} (checked on every pair): z > 0 at every level by the "
            "closed form, threshold 0" if ok else f"the distances are NOT those of a {ev['route']}")
    if ev["route"] == "exact-polynomial":
        return _check_existence(ev)
    if ev["route"] == "symmetric":
        if ev["distances"] is None:
            raise NotHere("the metric is too large for the certificate to carry its distance matrix")
        ok = _ball_size_symmetric(ev["distances"])
        return (CONFIRMED if ok else REFUTED), len(ev["distances"]["codes"]), (
            "the metric is ball-size symmetric (every point sees the same multiset of distances): threshold 0 by "
            "ECP14 Prop. 9" if ok else "the metric is NOT ball-size symmetric")
    refute_unless(ev["route"] == "bracket", f"an unknown threshold route {ev['route']!r}")
    return _check_bracket(c)


def _check_leakage(c: dict):
    """Re-check a ``leakage`` certificate: ``U = sum_z max_y pi_y h_yz``, the ratio ``U / max pi`` and ``log2`` of it
    re-derived in fractions, and the stated enclosure checked to contain that logarithm. Entries that are not
    rational are not checkable here."""
    ev = c["evidence"]
    refute_unless(c["verdict"] == "holds", "a leakage certificate asserts holds")
    mech = _Mech(ev["mechanism"])
    try:
        pi = [fraction(v) for v in ev["prior"]]
        H = [[fraction(mech.values[k]) for k in row] for row in mech.codes]
    except ValueError:
        raise NotHere("transcendental entries") from None
    refute_unless(len(pi) == len(H) and all(p >= 0 for p in pi) and sum(pi) == 1,
                  "the prior is not a probability vector "
                  "over the mechanism's inputs")
    U = sum(max(pi[y] * H[y][z] for y in range(len(pi))) for z in range(len(H[0])))
    r = U / max(pi)
    refute_unless(fraction(ev["max_utility"]) == U and max(pi) == fraction(ev["max_prior"])
                  and r == fraction(ev["ratio"]),
                  "the maximal utility, the largest prior probability or their ratio is not re-derived")
    bits = "0" if r == 1 else f"log2({r})"
    refute_unless(ev["leakage_bits"] == bits, f"the leakage is log2({r}) = {bits}, not {ev['leakage_bits']}")
    if r == 1:
        inside = ev["enclosure"] == ["0", "0"]
    else:
        inside = _enclosure_ok(ev["enclosure"], lambda iv: iv.log(_ivq(r, iv)) / iv.log(2))
    return (CONFIRMED if inside else REFUTED), len(pi) * len(H[0]), (
        f"sum_z max_y pi_y h_yz = {U}, ratio {r}, leakage {bits} bits re-derived; its enclosure "
        f"{'contains it' if inside else 'does NOT contain it (or is too wide)'}")


def _enclosure_ok(enc, make) -> bool:
    """``enc = [lo, hi]`` (decimal text) is narrow and contains ``make(ctx)``, built in a private interval context at
    256 bits (issue 21: mpmath's global precision is never set)."""
    if not (isinstance(enc, list) and len(enc) == 2 and all(isinstance(e, str) for e in enc)):
        return False
    lo, hi = fraction(enc[0]), fraction(enc[1])
    if not (lo <= hi and hi - lo <= ENCLOSURE_WIDTH * max(Fraction(1), abs(hi))):
        return False
    iv = MPIntervalContext()
    iv.prec = 256
    v = make(iv)
    return _ivq(lo, iv).b <= v.a and v.b <= _ivq(hi, iv).a


def _check_theorem4(c: dict):
    """Re-check a ``theorem4`` certificate: a stated remap ``R`` is stochastic and ``H R`` meets the tight
    equalities ``(HR)_yy' = phi_yy' (HR)_y'y'`` exactly, in fractions.  "No remap works" is not checkable: it rests
    on an LP optimum > 0 whose dual the certificate does not carry."""
    ev = c["evidence"]
    check_level(ev["level"])
    d = ev["distances"]
    check_table(d["points"], d["values"], d["codes"])
    if c["verdict"] != "holds":
        # what a "fails" states is decided where it can be: the LP's size, an optimum > 0 and no remap (an optimum
        # of 0, or a remap, says a remap exists); that the optimum is > 0 needs the dual, which is not carried
        refute_unless(ev["variables"] == len(ev["mechanism"]["outputs"]) * len(d["points"]),
                      "the LP's size is not re-derived")
        refute_unless(ev["remap"] is None and fraction(ev["lp_value"]) > 0,
                      f"'no remap works' is stated with an LP optimum "
                      f"{ev['lp_value']} (0: a remap exists) or with a remap")
        raise NotHere("'no remap works' rests on a positive LP optimum whose dual the certificate does not carry")
    M = _phi(ev)
    mech = _Mech(ev["mechanism"])
    pts = ev["distances"]["points"]
    refute_unless(sorted(ev["mechanism"]["inputs"]) == sorted(pts),
                  "the mechanism's inputs are not the metric's points")
    H = [[fraction(mech.values[k]) for k in mech.codes[mech.rows[y]]] for y in pts]
    outs = ev["mechanism"]["outputs"]
    refute_unless(ev["variables"] == len(outs) * len(pts) and ev["lp_value"] == "0",
                  "the LP's size or its optimum (0: a remap exists) is not re-derived")
    refute_unless(isinstance(ev["remap"], dict) and set(ev["remap"]) <= set(outs)
                  and all(set(r) <= set(pts) for r in ev["remap"].values()),
                  "the remap names unknown outputs or points")
    R = [[fraction(ev["remap"].get(z, {}).get(y, "0")) for y in pts] for z in outs]
    if any(v < 0 for r in R for v in r) or any(sum(r) != 1 for r in R):
        return REFUTED, len(R), "the remap is not stochastic"
    n = len(pts)
    HR = [[sum(H[a][z] * R[z][b] for z in range(len(outs))) for b in range(n)] for a in range(n)]
    ok = all(HR[a][b] == M[a][b] * HR[b][b] for a in range(n) for b in range(n) if a != b)
    return (CONFIRMED if ok else REFUTED), n * n, "HR re-derived; its tight equalities (HR)_yy' = phi_yy' (HR)_y'y' " \
        + ("hold exactly" if ok else "FAIL")


def claim_text(c: dict) -> str:
    """The claim of a ``tight`` / ``regular`` / ``threshold`` / ``leakage`` / ``theorem4`` certificate, rebuilt.

    The producers in exactdp.priors build the same sentence from the evidence.

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
    >>> claim_text({"kind": "leakage", "evidence": {"mechanism": {"name": "RR"}}})
    'the min-entropy leakage of RR'
    >>> claim_text({"kind": "regular", "evidence": {"level": {"text": "log(2)"}, "description": "path on 3 points"}})
    'the prior is regular for eps*d with eps = log(2) on the path on 3 points'
    """
    ev, kind = c["evidence"], c["kind"]
    if kind == "tight":
        return (f"a tight-constraints mechanism exists for eps*d with eps = {ev['level']['text']} on the "
                f"{ev['description']}")
    if kind == "regular":
        return f"the prior is regular for eps*d with eps = {ev['level']['text']} on the {ev['description']}"
    if kind == "threshold":
        return f"the threshold eps for a tight-constraints mechanism on the {ev['description']}"
    if kind == "leakage":
        return f"the min-entropy leakage of {ev['mechanism']['name']}"
    return (f"some remap makes {ev['mechanism']['name']} tight-constraints (optimal for every regular prior)")


def _described(c: dict) -> str:
    """The description in the claim of ``tight`` / ``regular`` / ``threshold`` rebuilt from the carried distance
    table (:func:`._metric.describe_table`) or grid definition (:func:`_grid`); ``""``, or the detail's note
    that it is a name.  Raises :class:`Refuted` when it names a family the table is not."""
    ev = c["evidence"]
    if c["kind"] not in ("tight", "regular", "threshold"):
        return ""
    d = ev["distances"]
    if d is not None:
        try:
            if describe_table(ev["description"], d["points"], d["values"], d["codes"]):
                return ""
        except ValueError as e:
            raise Refuted(f"the description {ev['description']!r} is not the carried table's: {e}") from None
    elif ev["metric"] is not None:
        return ""                        # the grid's definition is checked against the description (_grid)
    return name_note(ev["description"], False, "the statement is about the carried "
                     + ("distance table" if d is not None else "metric"))


def check(c: dict):
    """Re-check an ECP14 certificate (``tight``, ``regular``, ``threshold``, ``leakage``, ``theorem4``).

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
    >>> c = {"kind": "leakage", "claim": "the min-entropy leakage of K", "evidence": {"mechanism": {"name": "RR"}}}
    >>> check(c)
    ('refuted', 0, 'the claim is not the one its evidence states')
    """
    try:
        refute_unless(c["claim"] == claim_text(c), "the claim is not the one its evidence states")
        if c["kind"] in ("tight", "regular", "threshold") and c["evidence"]["distances"] is not None:
            d = c["evidence"]["distances"]
            check_table(d["points"], d["values"], d["codes"])
        note = _described(c)
        status, n, detail = {"tight": _check_tight, "regular": _check_regular, "threshold": _check_threshold,
                             "leakage": _check_leakage, "theorem4": _check_theorem4}[c["kind"]](c)
        return status, n, detail + note
    except Refuted as e:
        return REFUTED, 0, str(e)


def method_of(c: dict) -> str | None:
    """The method the verdict of an ECP14 certificate rests on, from its checked fields.

    The dispatcher refutes another, or a stated precision: ``theorem4`` and an LP route ``EXACT_LP``; a prior with a
    zero (Prop. 2) and leakage with rational entries ``RATIONAL`` (else ``TRANSCENDENCE_BALLS``); a solve
    ``EXACT_SOLVE`` in the rational regime, else ``VERIFIED_FLOAT`` when the certificate carries the verified float
    solve (partition, approximate solution and inverse, or a grid re-derived from its definition); without it (an
    Arb ball solve, ``BALL_SOLVE`` with its working precision, or a hint dropped) ``None``: the kernel re-solves in
    intervals or answers not checkable, and which float method the checker ran is not a fact it can tie to the
    numbers; a threshold 0 ``CLOSED_FORM`` (Prop. 9, the path and grid closed forms) or ``SYMBOLIC_ROOTS`` (exact
    root isolation), a bracket as its end solves.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str or None
        The method, or None when the verdict rests on no method tied to the numbers.

    Examples
    --------
    >>> method_of({"kind": "theorem4", "evidence": {}})
    'EXACT_LP'
    >>> [method_of({"kind": "leakage", "evidence": {"mechanism": {"values": v}}}) for v in (["1/2"], ["exp(-1)"])]
    ['RATIONAL', 'TRANSCENDENCE_BALLS']
    """
    ev, kind = c["evidence"], c["kind"]
    if kind == "theorem4":
        return "EXACT_LP"
    if kind == "leakage":
        return method_for(ev["mechanism"]["values"])                # the one method rule (no level)
    route = ev["route"]
    if route not in ROUTES[kind]:
        return None                      # refuted by the kind's check, with the reason
    if kind == "threshold":
        if route in ("symmetric", "path", "manhattan"):
            return "CLOSED_FORM"
        if route == "exact-polynomial":
            return "SYMBOLIC_ROOTS"
        return "VERIFIED_FLOAT" if ev["ends"] is not None or ev["metric"] is not None else None
    if route == "support":
        return "RATIONAL"
    if route == "lp":
        return "EXACT_LP"
    if ev["exact"]:
        return "EXACT_SOLVE"
    return "VERIFIED_FLOAT" if ev["verified"] is not None or ev["metric"] is not None else None
