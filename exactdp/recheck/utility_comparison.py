"""Re-check ``utility_comparison`` certificates (ECP14 sec. 7, Figs. 6-7) from their JSON alone.

* the metric is rebuilt here from its description (``metric``: the unit grid with a Euclidean, Chebyshev or
  Manhattan distance, or the path whose points within ``reach`` steps are adjacent, with the graph distance
  ``ceil(|i - j| / reach)``) -- never read from the checker;
* the tight-constraints utility ``sum(z)/n`` with ``Phi z = 1`` (ECP14 Thm 2, attained by Prop. 7 when
  ``z >= 0``) is re-derived by redoing the verified quotient solve the evidence carries (``tight``: the
  partition ``cell_of``, the approximate solution ``y~`` and approximate inverse ``R`` of the quotient):
  :mod:`exactdp.recheck._verified` checks that the partition is equitable on every point, encloses ``Q`` and
  bounds ``|y_c - y~_c| <= err_c`` by Rump's verification; then every ``y~_c - err_c > 0`` (so the mechanism
  exists) and ``sum(z)/n`` lies in ``[sum_c |c| (y~_c - err_c), sum_c |c| (y~_c + err_c)] / n``, which must be
  inside the stated enclosure.  Without ``R`` (a quotient above the checker's carried-inverse cap) the tight
  half is not checkable here, and neither is the verdict;
* the other utility is re-derived with :mod:`mpmath` intervals: the geometric closed form, or the planar
  Laplace utility on the ``side x side`` Euclidean grid as ``(1/n) sum_z 1/Z_z`` -- the column maximum of
  ``K(x)(z) = e^(-beta d(x,z))/Z_x`` is at ``x = z``, since the triangle inequality gives
  ``Z_x >= e^(-beta d(x,z)) Z_z`` -- with the normalisers ``Z`` from 2-D prefix sums, evaluated once per
  orbit of the square's symmetries (found here by folding every point);
* both stated enclosures must contain the re-derived ones, and the verdict and margin must follow exactly.
"""

from __future__ import annotations

from fractions import Fraction

from mpmath.ctx_iv import MPIntervalContext

from ._levels import ENCLOSURE_WIDTH
from ._kernel import fraction, NotHere
from ._grid import Grid
from ._verified import Inverse, Refuted, enclose_quotient, enclosed_solution, quotient, short, solve_grid

CONFIRMED, REFUTED = "confirmed", "refuted"

#: the evidence, read strictly by the dispatcher before any work (:mod:`._schema`).  ``metric`` (a grid or a
#: path) and ``other_params`` (per mechanism) carry every field of either case, the other case's null
#: (:func:`_metric_spec`, :func:`_params` check which); ``tight`` is a hint
_VERIFIED = {"cell_of": ("?", ["int"]), "center": ("?", {"exp": "int", "mantissas": ["str"]}),
             "inverse": ("?", {"exp": "int", "mantissas": [["int"]]}), "z_enclosures": ("?", [["str"]]),
             "beta": "?str", "fixed_point_eta": "?str", "cell_signs": "?str"}
EVIDENCE = {"utility_comparison": {
    "description": "str", "eps": "str",
    "metric": {"kind": "str", "shape": ("?", ["int"]), "norm": "?str", "points": "?int", "reach": "?int"},
    "points": "int", "cells": "int", "tight": _VERIFIED, "tight_utility": ["str"], "other": "str",
    "other_params": {"side": "?int", "values": "?int", "step": "?int", "power": "?int"},
    "other_utility": ["str"], "margin": "str"}}

#: the fields of each case of ``metric`` and ``other_params`` (the others are null)
_METRIC_FIELDS = {"grid": ("kind", "shape", "norm"), "path": ("kind", "points", "reach")}
_PARAM_FIELDS = {"planar-laplace": ("side",), "geometric": ("values", "step", "power")}


def _case(record: dict, keep: tuple, what: str) -> dict:
    """The fields ``keep`` of ``record``; every other field must be null (a union carried as one record)."""
    other = sorted(k for k, v in record.items() if k not in keep and v is not None)
    if other:
        raise Refuted(f"the {what} states fields of another case: {other}")
    return {k: record[k] for k in keep}


def _metric_spec(ev: dict) -> dict:
    """The described metric (grid or path) without the other case's null fields."""
    kind = ev["metric"]["kind"]
    if kind not in _METRIC_FIELDS:
        raise Refuted(f"an unknown metric kind {kind!r}")
    return _case(ev["metric"], _METRIC_FIELDS[kind], "metric")


def _params(ev: dict) -> dict:
    """The other mechanism's parameters without the other case's null fields."""
    if ev["other"] not in _PARAM_FIELDS:
        raise Refuted(f"an unknown mechanism {ev['other']!r}")
    return _case(ev["other_params"], _PARAM_FIELDS[ev["other"]], "mechanism's parameters")

#: largest grid side re-derived here (planar Laplace)
MAX_SIDE = 200
#: largest metric whose distance matrix is rebuilt here (n^2 codes) for the tight-constraints half
MAX_POINTS = 3000
_NORMS = ("euclidean", "chebyshev", "manhattan")


#: this module's own interval context (issue 21: never mpmath's global ``mpmath.iv``), at a fixed precision
_IV = MPIntervalContext()
_IV.prec = 100


def _iv(q: Fraction):
    """An interval of the kernel's private context enclosing the fraction ``q``."""
    return _IV.mpf(q.numerator) / q.denominator


def _int(v, what: str, lo: int = 1) -> int:
    """A JSON integer ``>= lo`` (a boolean is refused, though Python counts it an int)."""
    if not isinstance(v, int) or isinstance(v, bool) or v < lo:
        raise Refuted(f"{what} is not an integer >= {lo}: {v!r}")
    return v


def _distances(spec: dict) -> tuple:
    """``(values, codes)`` of the described metric: distance text per code, ``codes[i][j]`` per point pair."""
    kind = spec.get("kind")
    if kind == "grid":
        shape, norm = spec["shape"], spec["norm"]
        if not (isinstance(shape, list) and len(shape) == 2) or norm not in _NORMS:
            raise Refuted(f"a grid metric needs a shape [R, C] and a norm in {_NORMS}")
        R, C = (_int(v, "a grid side") for v in shape)
        if R * C > MAX_POINTS:
            raise NotHere(f"a metric of {R * C} points is above this kernel's {MAX_POINTS} for rebuilding distances")
        pts = [(r, c) for r in range(R) for c in range(C)]
        key = {"euclidean": lambda a, b: a * a + b * b, "chebyshev": max, "manhattan": lambda a, b: a + b}[norm]
        # mypy joins max and the lambdas to "function"; each takes two ints
        keys = [[key(abs(p[0] - q[0]), abs(p[1] - q[1])) for q in pts] for p in pts]  # type: ignore[operator]
        text = (lambda s: f"sqrt({s})") if norm == "euclidean" else str
    elif kind == "path":
        n, reach = _int(spec["points"], "the number of points"), _int(spec["reach"], "the reach")
        if n > MAX_POINTS:
            raise NotHere(f"a metric of {n} points is above this kernel's {MAX_POINTS} for rebuilding distances")
        keys = [[-(-abs(i - j) // reach) for j in range(n)] for i in range(n)]
        text = str
    else:
        raise Refuted(f"an unknown metric kind {kind!r}")
    distinct = sorted({v for row in keys for v in row})
    index = {v: i for i, v in enumerate(distinct)}
    return [text(v) for v in distinct], [[index[v] for v in row] for row in keys]


def _tight(ev: dict, eps: Fraction):
    """The re-derived enclosure ``(lo, hi)`` of ``sum(z)/n``, checked against the stated one; or a refutation."""
    t = [fraction(v) for v in ev["tight_utility"]]
    tight = ev["tight"]
    if not isinstance(tight, dict):
        raise Refuted("the tight-constraints solve is not an object")
    if tight.get("inverse") is None or tight.get("center") is None:
        return _tight_grid(ev, eps, t, tight)
    values, codes = _distances(ev["metric"])
    n = len(codes)
    if ev["points"] != n:
        return None, f"the certificate counts {ev['points']} points, the described metric has {n}"
    k, counts, rhs_q = quotient(codes, tight["cell_of"], [Fraction(1)] * n, len(values))
    if ev["cells"] != k:
        return None, f"the certificate counts {ev['cells']} cells, the carried (equitable) partition has {k}"
    Qlo, Qhi = enclose_quotient({"eps": str(eps)}, values, k, counts)
    R = Inverse(tight["inverse"], k)
    ys, errs, beta = enclosed_solution(Qlo, Qhi, R, R.verify(Qlo, Qhi), tight["center"], rhs_q)
    return _utility(ev, t, ys, errs, tight["cell_of"], n, k, (
        f"sum(z)/n re-derived on the {k}-cell quotient (equitable partition checked on every point of the "
        f"rebuilt metric; Rump's bound ||I - R Q||_inf <= {short(beta)} < 1; every z > 0)"))


def _tight_grid(ev: dict, eps: Fraction, t: list, tight: dict):
    """The tight half on a described grid without a carried inverse: the orbit quotient and the whole verified
    solve derived here (:func:`._verified.solve_grid`)."""
    if ev["metric"].get("kind") != "grid":
        raise NotHere(f"the {ev['cells']}-cell quotient is too large for the certificate to carry its approximate "
                      "inverse, and only a grid's quotient is derived here from its definition")
    try:
        g = Grid(ev["metric"])
    except ValueError as e:
        raise Refuted(str(e)) from None
    if ev["points"] != g.n:
        return None, f"the certificate counts {ev['points']} points, the described metric has {g.n}"
    if tight.get("cell_of") is not None and not g.same_partition(tight["cell_of"]):
        raise NotHere("the certificate's partition is not the grid's symmetry orbits, which this route derives")
    if ev["cells"] != g.k:
        return None, f"the certificate counts {ev['cells']} cells, the grid's symmetry orbits are {g.k}"
    out = solve_grid(ev["metric"], {"eps": str(eps)}, (Fraction(1),) * g.k)
    return _utility(ev, t, out["ys"], out["errs"], g.cell_of, g.n, g.k, (
        f"sum(z)/n re-derived on the {g.k}-cell quotient of the grid's symmetry orbits (the grid re-derived from its "
        f"definition, the partition equitable as the orbits of isometries; R computed here, Rump's bound "
        f"||I - R Q||_inf <= {short(out['beta'])} < 1; every z > 0)"))


def _utility(ev: dict, t: list, ys: list, errs: list, cell_of: list, n: int, k: int, how: str):
    """``sum(z)/n`` enclosed from the quotient solution, inside the stated enclosure, every ``z > 0``."""
    if not all(y - e > 0 for y, e in zip(ys, errs, strict=True)):
        return None, "a coordinate of z = Phi^-1 1 is not certified positive: no tight-constraints mechanism"
    size = [0] * k
    for c in cell_of:
        size[c] += 1
    lo = sum(s * (y - e) for s, y, e in zip(size, ys, errs, strict=True)) / n
    hi = sum(s * (y + e) for s, y, e in zip(size, ys, errs, strict=True)) / n
    if not (t[0] <= lo <= hi <= t[1]):
        return None, (f"sum(z)/n re-derived in [{short(lo)}, {short(hi)}] is not inside the stated "
                      "tight-constraints enclosure")
    return t, how


def _geometric(eps: Fraction, p: dict):
    """The geometric mechanism's utility on ``N`` values at ``eps / step``, to the ``power`` (one factor per
    coordinate), in intervals: ``((2/(1+a) + (N-2)(1-a)/(1+a)) / N)^power`` with ``a = e^(-eps/step)``, the mean
    of the diagonal entries (ends ``1/(1+a)``, inside ``(1-a)/(1+a)``)."""
    iv = _IV
    N, step, power = int(p["values"]), int(p["step"]), int(p["power"])
    a = iv.exp(-_iv(eps / step))
    return ((2 / (1 + a) + (N - 2) * (1 - a) / (1 + a)) / N) ** power


def _orbits(N: int) -> dict:
    """Folded key -> orbit size, by folding every point of the grid."""
    out: dict = {}
    for i in range(N):
        for j in range(N):
            p, q = min(i, N - 1 - i), min(j, N - 1 - j)
            key = (min(p, q), max(p, q))
            out[key] = out.get(key, 0) + 1
    return out


def _prefix_sums(N: int, beta):
    """2-D prefix sums ``G[u][v] = sum_{u' <= u, v' <= v} e^(-beta sqrt(u'^2 + v'^2))`` in intervals: the quadrant
    sums from which every normaliser ``Z`` is read in O(1)."""
    iv = _IV
    wcache: dict = {}

    def w(s):
        """``e^(-beta sqrt(s))`` for a squared distance ``s``, in intervals, computed once per ``s``."""
        if s not in wcache:
            wcache[s] = iv.exp(-beta * iv.sqrt(s))
        return wcache[s]
    G = [[None] * N for _ in range(N)]
    for u in range(N):
        run = iv.mpf(0)
        for v in range(N):
            run = run + w(u * u + v * v)
            G[u][v] = run + (G[u - 1][v] if u else 0)
    return G


def _laplace(eps: Fraction, p: dict):
    """The planar Laplace utility ``(1/n) sum_z 1/Z_z`` on the ``N x N`` euclidean grid (module docstring: the column
    maximum is on the diagonal), ``Z`` evaluated once per orbit of the square's symmetries; ``N`` refused outside
    ``1..MAX_SIDE``."""
    N = int(p["side"])
    if not 1 <= N <= MAX_SIDE:
        raise NotHere(f"a grid side of {N} is outside this kernel's range 1..{MAX_SIDE}")
    iv = _IV
    beta = _iv(eps / 2)
    G = _prefix_sums(N, beta)

    def Z(a, b):
        """``Z`` at point ``(a, b)`` by inclusion-exclusion: the four quadrant sums around it, minus its four
        half-axes (each in two quadrants), plus the point itself (``e^0 = 1``: in four quadrants and four half-axes);
        an identity of sums, evaluated in intervals."""
        A, B = N - 1 - a, N - 1 - b
        return G[a][b] + G[a][B] + G[A][b] + G[A][B] - G[a][0] - G[A][0] - G[0][b] - G[0][B] + 1
    total = iv.mpf(0)
    for key, size in _orbits(N).items():
        total += size / Z(*key)
    return total / (N * N)


def _other(ev: dict, eps: Fraction):
    """The other mechanism's utility re-derived in intervals, and whether the stated enclosure contains it."""
    p = ev["other_params"]
    if ev["other"] == "geometric":
        if not (_int(p["values"], "values", 2) and _int(p["step"], "step") and _int(p["power"], "power")):
            raise Refuted("bad geometric parameters")
        u = _geometric(eps, p)
    elif ev["other"] == "planar-laplace":
        _int(p["side"], "side")
        u = _laplace(eps, p)
    else:
        raise Refuted(f"an unknown mechanism {ev['other']!r}")
    o = [fraction(v) for v in ev["other_utility"]]
    return o, _iv(o[0]).b <= u.a and u.b <= _iv(o[1]).a


def _power_is(p: dict, spec: dict) -> bool:
    """The geometric mechanism acts on the described metric's points: ``values^power`` of them, as the product of
    ``power`` copies on ``values`` answers -- one copy on a path of ``values`` points, two on the ``values x
    values`` grid (ECP14 sec. 7.1: a sum query and a 2-count query).  Compared as shapes, never as a power: a
    hostile ``values`` never makes a huge number."""
    v, k = p.get("values"), p.get("power")
    if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in (v, k)):
        return False
    if spec.get("kind") == "grid":
        return k == 2 and spec.get("shape") == [v, v]
    return k == 1 and spec.get("points") == v


def _description(spec: dict) -> str:
    """The described metric's own description (as exactdp's metric constructors word it)."""
    if spec.get("kind") == "grid":
        R, C = spec["shape"]
        return f"{R} x {C} grid, {spec['norm']} distance"
    n, reach = spec["points"], spec["reach"]
    edges = sum(min(n, i + reach + 1) - (i + 1) for i in range(n))
    return f"graph with {n} nodes and {edges} edges"


def claim_text(c: dict) -> str:
    """The claim of a ``utility_comparison`` certificate, rebuilt from its evidence.

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
    >>> ev = {"eps": "1/2", "description": "6 x 6 grid", "other": "planar-laplace"}
    >>> print(claim_text({"evidence": ev}))
    at eps = 1/2 on the 6 x 6 grid, the tight-constraints mechanism has higher uniform-prior utility (optimal remap)
    than the planar laplace mechanism
    """
    ev = c["evidence"]
    return (f"at eps = {ev['eps']} on the {ev['description']}, the tight-constraints mechanism has higher "
            f"uniform-prior utility (optimal remap) than the {ev['other'].replace('-', ' ')} mechanism")


def check(c: dict):
    """Re-check a ``utility_comparison`` certificate: both utilities enclosed from verified solves on the grid.

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
    >>> check({"kind": "utility_comparison", "evidence": {"metric": {"kind": "circle"}}})[0]
    'refuted'
    """
    try:
        ev = {**c["evidence"], "metric": _metric_spec(c["evidence"]), "other_params": _params(c["evidence"])}
    except Refuted as e:
        return REFUTED, 0, str(e)
    try:
        if c["claim"] != claim_text(c) or ev["description"] != _description(ev["metric"]):
            return REFUTED, 0, "the claim or the metric's description is not the one the evidence states"
        for enc in (ev["tight_utility"], ev["other_utility"]):
            lo, hi = fraction(enc[0]), fraction(enc[1])
            if len(enc) != 2 or not (lo <= hi and hi - lo <= ENCLOSURE_WIDTH * max(Fraction(1), abs(hi))):
                return REFUTED, 0, "a stated utility enclosure is reversed or wider than the stated accuracy"
        if ev["other"] == "geometric" and not _power_is(ev["other_params"], ev["metric"]):
            return REFUTED, 0, ("the geometric mechanism's values^power is not the number of the metric's points: "
                                "its utility would be another mechanism's")
        if ev["other"] == "planar-laplace" and ev["metric"] != {"kind": "grid", "norm": "euclidean",
                                                                "shape": [ev["other_params"].get("side")] * 2}:
            return REFUTED, 0, "the planar Laplace mechanism lives on the side x side Euclidean grid"
    except (KeyError, TypeError, ValueError) as e:
        return REFUTED, 0, f"malformed evidence ({e})"
    try:
        eps = fraction(ev["eps"])
    except ZeroDivisionError:
        return REFUTED, 0, "eps is not a rational number"
    if eps <= 0:
        return REFUTED, 0, "eps is not positive"
    try:
        o, inside = _other(ev, eps)
        if not inside:
            return REFUTED, 1, f"the {ev['other']} utility re-derived in intervals is NOT inside the stated enclosure"
        try:
            t, tdetail = _tight(ev, eps)
        except NotHere as e:
            raise NotHere(f"the {ev['other']} utility was re-derived inside the stated enclosure, but the verdict "
                          f"needs both: {e}") from None
    except Refuted as e:
        return REFUTED, 0, str(e)
    except ZeroDivisionError as e:
        return REFUTED, 0, f"malformed evidence (a division by zero: {e})"
    if t is None:
        return REFUTED, 1, tdetail
    want = "holds" if t[0] > o[1] else ("fails" if t[1] < o[0] else "undecided")
    ok = want == c["verdict"] and fraction(ev["margin"]) == t[0] - o[1]
    return (CONFIRMED if ok else REFUTED), 2, (
        f"{tdetail}; the {ev['other']} utility re-derived in interval arithmetic inside the stated enclosure; "
        f"verdict {want}" + ("" if ok else f" but the certificate says {c['verdict']} (margin {ev['margin']})"))
