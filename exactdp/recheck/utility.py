"""Re-check KL10 certificates (``utility``, ``exponential_bound``, ``tradeoff``) from their JSON alone.

* ``utility`` (rational entries and distances): every ball is re-read from
  ``sigma`` against ``gamma``, every mass re-summed, the worst x re-found and
  compared with ``1 - delta``.
* ``exponential_bound``: the nested smallest-eps evidence is re-checked by the
  ``epsilon`` re-check; the Lipschitz constant is re-maximised over the stated
  pairs; for ``beta = c log(q)`` the binding ratio ``r`` is compared exactly with
  ``q^(2 C c d)`` (powers cleared: ``r^den <= q^num``); for another ``beta`` with
  ``r`` and ``e^(2 C beta d)`` exponential polynomials, by this kernel's exact
  zero test and intervals.
* ``tradeoff``: both LPs are rebuilt from the metric's pairs, ``sigma``,
  ``gamma`` and ``t`` and verified from primal and dual
  (:func:`exactdp.recheck._lp.check_lp`); then ``s*(t_lower) < 1 - delta <=
  s*(t_upper)``.  The exact value: the LP is rebuilt with entries ``t^d`` as
  polynomials; the carried parametric basis (polynomials over Fractions,
  :mod:`exactdp.recheck._sturm`) must satisfy the equalities and zero gap as
  identities in ``t``, have positive denominators on ``[a, b]``, and every
  primal value, slack, inequality dual and reduced cost must be positive at
  ``a`` with no root in ``(a, b)`` other than ``t*`` (Sturm counts of it and of
  its gcd with ``polynomial``); ``polynomial`` has exactly one root ``t*`` in
  ``(a, b)`` and divides ``x_s - (1 - delta) D``, which is negative at ``a``
  with ``t*`` its only root there.  So ``s*(t) = x_s(t)/D(t)`` on ``[a, t*]``
  (weak duality both ways), ``s* < 1 - delta`` before ``t*`` (``s*`` is
  non-decreasing in ``t``: the constraints relax) and ``= 1 - delta`` at it:
  ``eps* = log t*``, whose text is rebuilt.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ._kernel import Refuted, refute_unless
from . import _sturm as poly
from ._metric import check_table
from ._kernel import same
from ._levels import _split_log, enclosure_ok, iv_eps, method_for
from ._kernel import _add, _div, _mul, _neg, check_codes, fraction, NotHere, sign, value
from ._kernel import rational as _q
from ._labels import mechanism_note
from ._metric import metric_note, query_text
from ._sturm import MAX_POLY_DEGREE
from ._lp import check_lp
from ._dprivacy import EPSILON as _EPSILON
from ._dprivacy import MECH, METRIC, _Mech, pairs_of
from ._dprivacy import check as check_privacy

CONFIRMED, REFUTED = "confirmed", "refuted"

# ----------------------------------------------------------------------------------------- the shapes ----
_LP = {"value": "str", "x": ["str"], "y": ["str"], "lam": ["str"]}
#: the output metric as a full distance table over its points
_DISTANCES = {"points": ["str"], "values": ["str"], "codes": [["int"]]}
_PARAMETRIC = {"denominator": "str", "x": ["str"], "dual_denominator": "str", "y": ["str"], "lam": ["str"]}
TRADEOFF = {"inputs": ["str"], "outputs": ["str"], "metric": METRIC, "output": ("?", _DISTANCES),
            "output_description": "str", "f": ("map", "str"),
            "sigma": [["str"]], "gamma": "str", "delta": "str", "ball": "str", "target": "str", "epsilon": "?str",
            "epsilon_bracket": ["str"], "t_lower": "?str", "s_lower": "?str", "lp_lower": ("?", _LP),
            "t_upper": "str", "s_upper": "str", "lp_upper": _LP, "mechanism": MECH, "polynomial": "?str",
            "parametric": ("?", _PARAMETRIC), "reason": "?str"}
#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {
    "tradeoff": TRADEOFF,
    "utility": {"mechanism": MECH, "output": ("?", _DISTANCES), "output_description": "str", "f": ("map", "str"),
                "sigma": [["str"]],
                "gamma": "str", "delta": "str", "ball": "str", "masses": ("map", "str"), "worst": "str", "mass": "str",
                "target": "str", "ball_outputs": ["str"]},
    "exponential_bound": {"beta": "str", "output": ("?", _DISTANCES), "f": ("map", "str"), "lipschitz": "str",
                          "lipschitz_pair": ("?", ["str"]), "lipschitz_pairs": [["str"]], "bound": "str",
                          "bound_enclosure": ["str"], "epsilon": "?str", "enclosure": ("?", ["str"]),
                          "attained": "?bool", "smallest": _EPSILON}}


def _inside(s, gamma: Fraction, ball: str) -> bool:
    """``s`` (a distance's text: a rational, or ``"inf"`` between components) inside the ball of radius
    ``gamma``; an infinite distance is outside every ball."""
    if ball not in ("open", "closed"):
        raise ValueError(f"ball {ball!r}")
    if s == "inf":
        return False
    s = _q(s)
    return s < gamma or (ball == "closed" and s == gamma)


def _output(ev: dict) -> dict:
    """The output metric's table (convention 3): ``{(y, y'): distance value}`` over its points."""
    out = ev["output"]
    if out is None:
        raise NotHere("the output metric is too large for the certificate to carry its distance table")
    M = check_table(out["points"], out["values"], out["codes"])
    return {(a, b): M[i][j] for i, a in enumerate(out["points"]) for j, b in enumerate(out["points"])}


def _sigma(ev: dict, inputs: list, outputs: list) -> None:
    """``sigma[i][j] = sigma(f(x_i), y_j)`` read off the carried output metric."""
    T = _output(ev)
    pts = set(ev["output"]["points"])
    refute_unless(isinstance(ev["f"], dict) and sorted(ev["f"]) == sorted(inputs) and set(ev["f"].values()) <= pts
                  and set(outputs) <= pts,
                  "f does not map the inputs to points of the output metric (or an output is not one)")
    refute_unless(len(ev["sigma"]) == len(inputs) and all(len(r) == len(outputs) for r in ev["sigma"]),
                  "sigma does not have |X| x |Y| entries")
    for x, row in zip(inputs, ev["sigma"], strict=True):
        for y, s in zip(outputs, row, strict=True):
            t = T[(ev["f"][x], y)]            # None: infinite (points in different components)
            refute_unless(s == "inf" if t is None else (s != "inf" and same(s, t)),
                          f"sigma(f({x}), {y}) = {s} is not the output metric's distance")


def _check_utility(c: dict):
    """Re-check a ``utility`` certificate ((gamma, delta)-usefulness): ``sigma`` read off the output metric, each
    input's mass inside the ball of radius gamma re-summed in fractions, the worst input (the first attaining the
    minimum) and the verdict ``worst >= 1 - delta``."""
    ev = c["evidence"]
    m = ev["mechanism"]
    mech = _Mech(m)
    _sigma(ev, m["inputs"], m["outputs"])
    vals = [_q(v) for v in m["values"]]
    g, target = _q(ev["gamma"]), _q(ev["target"])
    if target != 1 - _q(ev["delta"]):
        return REFUTED, 0, "1 - delta is misstated"
    masses, inside = {}, {}
    for i, x in enumerate(m["inputs"]):
        inside[x] = [y for y, s in zip(m["outputs"], ev["sigma"][i], strict=True) if _inside(s, g, ev["ball"])]
        masses[x] = sum((vals[mech.codes[i][mech.cols[y]]] for y in inside[x]), Fraction(0))
    worst = min(masses.values())
    first = next(x for x in m["inputs"] if masses[x] == worst)
    ok = ({x: str(v) for x, v in masses.items()} == ev["masses"] and worst == _q(ev["mass"])
          and ev["worst"] == first and ev["ball_outputs"] == inside[first]
          and (c["verdict"] == "holds") == (worst >= target))
    return (CONFIRMED if ok else REFUTED), len(masses), (f"sigma read off the output metric; {len(masses)} ball "
                                                          f"masses re-summed; worst {first}: {worst}")


_LOG = re.compile(r"^\s*(?:(\d+(?:/\d+)?)\*)?log\((\d+(?:/\d+)?)\)(?:/(\d+))?\s*$")


def _check_bound(c: dict):
    """Re-check an ``exponential_bound`` certificate (KL10 Thm. 2.7): the nested smallest-eps certificate re-checked
    as a privacy one, ``f`` maps inputs into the output metric, the mechanism is KL10 Def. 2.6's exponential
    mechanism, the Lipschitz constant ``C`` re-maximised over the metric's generating pairs (enough: the distance
    is their shortest-path closure, and sigma obeys the triangle inequality), and the binding ratio compared
    with ``2 C beta`` for the verdict."""
    ev = c["evidence"]
    inner = {"kind": "epsilon", "verdict": "holds", "evidence": ev["smallest"]}
    status, n, detail = check_privacy(inner)
    if status != CONFIRMED:
        return status, n, "the nested smallest eps: " + detail
    sm = ev["smallest"]
    refute_unless(ev["epsilon"] == sm["epsilon"] and ev["enclosure"] == sm["enclosure"],
                  "eps* is not the nested smallest eps")
    pts = sm["mechanism"]["inputs"]
    T = _output(ev)
    refute_unless(isinstance(ev["f"], dict) and sorted(ev["f"]) == sorted(pts)
                  and set(ev["f"].values()) <= set(ev["output"]["points"]),
                  "f does not map the inputs into the output metric")
    _is_exponential(ev, T)
    lp = ev["lipschitz_pairs"]
    refute_unless([p[:3] for p in lp] == [list(p) for p in pairs_of(sm["metric"])] and all(len(p) == 4 for p in lp),
                  "the Lipschitz pairs are not the metric's generating pairs")
    for x, xp, _, s in lp:
        refute_unless(T[(ev["f"][x], ev["f"][xp])] is not None and same(s, T[(ev["f"][x], ev["f"][xp])]),
                      f"sigma(f({x}), f({xp})) = {s} is not the output metric's distance")
    C = max((_q(s) / _q(r) for _, _, r, s in lp), default=Fraction(0))
    if _q(ev["lipschitz"]) != C:
        return REFUTED, n, f"Lipschitz constant re-maximised: {C}, stated {ev['lipschitz']}"
    best = next(([x, xp] for x, xp, r, s in lp if _q(s) / _q(r) == C), None) if C > 0 else None
    refute_unless(ev["lipschitz_pair"] == best, "the Lipschitz pair is not the first pair attaining C")
    _bound(ev, C)
    b = ev["smallest"]["binding"]
    if ev["epsilon"] in ("0",) or b is None:
        rel = -1 if C > 0 else 0
    elif ev["epsilon"] == "inf":
        rel = 1
    else:
        rel = _binding_against_bound(ev, b, C)
    ok = (c["verdict"] == "holds") == (rel <= 0) and ev["attained"] == (rel == 0)
    return (CONFIRMED if ok else REFUTED), n, detail + f"; binding ratio against 2 C beta: {rel:+d}"


_NAMED = re.compile(r"^exponential\(beta = (.*)\)$")


def _is_exponential(ev: dict, T: dict) -> None:
    """The nested mechanism is KL10 Def. 2.6's exponential mechanism for the evidence's ``f``, ``sigma`` and
    ``beta``: ``M_x(y) = mu(y) e^(-beta sigma(f(x), y)) / Z_x`` for one ``mu >= 0`` on its outputs (points of the
    output metric).  Thm 2.7 is about that mechanism; without this, ``f``, ``sigma`` and the mechanism are three
    unrelated inputs and a "counterexample" is a mechanism of another ``f``.

    ``mu`` is eliminated: with a reference row ``x0`` and an output ``y0`` where ``M_x0(y0) > 0``, every cell
    must satisfy ``M_x(y) M_x0(y0) e^(beta K) = M_x0(y) M_x(y0)``, ``K = sigma(f x, y) - sigma(f x0, y) -
    sigma(f x, y0) + sigma(f x0, y0)`` (then ``mu(y) ~ M_x0(y) e^(beta sigma(f x0, y))`` works for every row).
    ``beta = c log(q)`` with rational entries: powers cleared, ``r^den = q^num``; otherwise the kernel's exact
    zero test on exponential polynomials.  A builder's name ``exponential(beta = b)`` must state this ``beta``."""
    m = ev["smallest"]["mechanism"]
    X, Y, f = m["inputs"], m["outputs"], ev["f"]
    refute_unless(set(Y) <= set(ev["output"]["points"]),
                  "an output of the mechanism is not a point of the output metric")
    named = _NAMED.match(m["name"])
    refute_unless(named is None or named.group(1).replace(" ", "") == ev["beta"].replace(" ", ""),
                  f"the mechanism is named {m['name']!r}, an exponential mechanism of another beta than {ev['beta']}")
    mech = _Mech(m)
    at = [[mech.val(mech.codes[i][j]) for j in range(len(Y))] for i in range(len(X))]
    y0 = next(j for j, v in enumerate(at[0]) if sign(v) > 0)     # a row sums to 1: some entry is positive

    def s(x, j):
        """The output distance ``sigma(f(x), y_j)``; an infinite one is refused (NotHere): the exponential
        mechanism's weight there is 0, outside this re-check."""
        d = T[(f[x], Y[j])]
        if d is None:
            raise NotHere("an infinite output distance: the exponential mechanism's weight is 0 there")
        return d
    log_beta = _LOG.match(ev["beta"])
    rational = all(isinstance(v, Fraction) for r in at for v in r)
    cache: dict = {}
    for i, x in enumerate(X):
        for j in range(len(Y)):
            K = s(x, j) - s(X[0], j) - s(x, y0) + s(X[0], y0)
            a, b = _mul(at[i][j], at[0][y0]), _mul(at[0][j], at[i][y0])       # need a e^(beta K) = b
            if log_beta is not None and rational:
                e = K * fraction(log_beta.group(1) or 1) / fraction(log_beta.group(3) or 1)   # e^(beta K) = q^e
                q = fraction(log_beta.group(2))
                ok = (a == 0 and b == 0) or (a > 0 and b > 0 and (b / a) ** e.denominator == q ** e.numerator)
            elif log_beta is not None:
                raise NotHere("beta = c log(q) with entries that are not rational")
            else:
                if K not in cache:
                    cache[K] = value(f"exp(({ev['beta']})*({K}))")
                ok = sign(_add(_mul(a, cache[K]), _neg(b))) == 0
            refute_unless(ok,
                          f"the mechanism is not the exponential mechanism of f, sigma and beta = {ev['beta']} for any "
                          f"mu (at x = {x}, y = {Y[j]})")


def _bound(ev: dict, C: Fraction) -> None:
    """``bound = 2 C beta`` re-derived: for ``beta = c log(q)`` as ``log(R)/D`` with ``R^(1/D) = q^(2 C c)``
    (powers cleared), else as an exact value; and its enclosure."""
    bound = ev["bound"]
    mt = _LOG.match(ev["beta"])
    if C == 0:
        refute_unless(bound == "0" and ev["bound_enclosure"] == ["0", "0"], "2 C beta = 0 is misstated")
        return
    if mt is not None:
        e = 2 * C * fraction(mt.group(1) or 1) / fraction(mt.group(3) or 1)      # bound = e * log(q)
        q = fraction(mt.group(2))
        parts = _split_log(bound)
        refute_unless(parts is not None, f"2 C beta = {bound} is not log(R)/D")
        R, D = _q(parts[0]), parts[1]
        k = e * D                                                                # R = q^k
        refute_unless(R ** k.denominator == q ** k.numerator if k > 0 else R == 1, f"2 C beta is not {bound}")
    else:
        refute_unless(same(bound, _mul(2 * C, value(ev["beta"]))), f"2 C beta is not {bound}")
    refute_unless(enclosure_ok(ev["bound_enclosure"], lambda: iv_eps(bound)),
                  "the bound's enclosure does not contain it")


def _binding_against_bound(ev, b, C) -> int:
    """Sign of ``r - e^(2 C beta d)`` for the binding ratio ``r = K_x / K_x'`` (KL10 Thm 2.7's bound).

    ``beta = c log(q)``: powers cleared, ``r^den`` against ``q^num`` in fractions.  Otherwise (``beta``
    rational or a sum of square roots, entries exponential polynomials): the difference is an exponential
    polynomial quotient; its zero test is exact (Lindemann-Weierstrass, collected exponents) and a non-zero
    sign comes from intervals at rising precision.
    """
    mt = _LOG.match(ev["beta"])
    if mt is not None:
        coef = fraction(mt.group(1) or 1) / fraction(mt.group(3) or 1)
        q = fraction(mt.group(2))
        r = _q(b["K_x"]) / _q(b["K_x_prime"])
        e = 2 * C * coef * _q(b["distance"])  # r vs q^e
        lhs, rhs = r ** e.denominator, q ** e.numerator
        return (lhs > rhs) - (lhs < rhs)
    r = _div(value(b["K_x"]), value(b["K_x_prime"]))
    bound = value(f"exp(2*({C})*({b['distance']})*({ev['beta']}))")
    return sign(_add(r, _neg(bound)))


def _lp_rows(ev) -> tuple[list, list, list, list, list]:
    """The utility LP with entries ``c t^k`` as ``(c, k)`` (the layout of the evidence's docstring)."""
    X, Y = ev["inputs"], ev["outputs"]
    nX, nY = len(X), len(Y)
    ix = {x: i for i, x in enumerate(X)}
    N = nX * nY
    c = [0] * N + [-1]
    A_eq = [{x * nY + y: (1, 0) for y in range(nY)} for x in range(nX)]
    A_ub, b_ub = [], []
    for x, xp, d in pairs_of(ev["metric"]):
        dq = _q(d)
        if dq.denominator != 1:
            raise NotHere("a non-integer distance: t^d is irrational")
        if not 0 < dq <= MAX_POLY_DEGREE:
            raise NotHere(f"a distance outside (0, {MAX_POLY_DEGREE}]: t^d beyond this kernel's polynomials")
        for a, b in ((ix[x], ix[xp]), (ix[xp], ix[x])):
            for y in range(nY):
                A_ub.append({a * nY + y: (1, 0), b * nY + y: (-1, int(dq))})
                b_ub.append(0)
    g = _q(ev["gamma"])
    for x in range(nX):
        row = {N: (1, 0)}
        for y in range(nY):
            if _inside(ev["sigma"][x][y], g, ev["ball"]):
                row[x * nY + y] = (-1, 0)
        A_ub.append(row)
        b_ub.append(0)
    return c, A_eq, [1] * nX, A_ub, b_ub


def _utility_lp(ev, t: Fraction) -> tuple[list, list, list, list, list]:
    """The utility LP at the parameter value ``t``: its rows hold coefficients ``a t^k`` (from :func:`_lp_rows`),
    evaluated here in fractions, so the LP is verified from primal and dual exactly at ``t``."""
    c, A_eq, b_eq, A_ub, b_ub = _lp_rows(ev)

    def ev_rows(rows):
        """Rows ``{j: (a, k)}`` as ``{j: a t^k}`` in fractions."""
        return [{j: fraction(a) * t ** k for j, (a, k) in r.items()} for r in rows]
    return ([fraction(v) for v in c], ev_rows(A_eq), [fraction(v) for v in b_eq], ev_rows(A_ub),
            [fraction(v) for v in b_ub])


def _dot(row: dict, P: list) -> list:
    """``row . P`` for polynomial entries: ``sum a t^k P_j(t)``, a polynomial in ``t`` (exact coefficients)."""
    out: list = []
    for j, (a, k) in row.items():
        if P[j]:
            out = poly.add(out, poly.mul(poly.mono(a, k), P[j]))
    return out


def _nonneg(p: list, P: list, a: Fraction, b: Fraction, what: str) -> None:
    """``p >= 0`` on ``[a, r]``, ``r`` the only root of ``P`` in ``(a, b)``: ``p = 0``, or ``p(a) > 0`` and every
    root of ``p`` in ``(a, b)`` is ``r`` (Sturm counts of ``p`` and of ``gcd(p, P)``)."""
    if not p:
        return
    refute_unless(poly.at(p, a) > 0, f"{what} is not positive at t = {a}")
    refute_unless(poly.at(p, b) != 0, f"{what} vanishes at t = {b}")
    n = poly.roots_in(p, a, b)
    if n:
        gd = poly.gcd(p, P)
        refute_unless(n == 1 and len(gd) > 1 and poly.roots_in(gd, a, b) == 1,
                      f"{what} has a root in ({a}, {b}) other than t*: the basis is not feasible up to t*")


def _check_exact(ev: dict, target: Fraction) -> str:
    """``t*`` = the only root of ``polynomial`` in ``(t_lower, t_upper)``, from the parametric basis (module
    docstring); returns the detail."""
    par = ev["parametric"]
    a, b = _q(ev["t_lower"]), _q(ev["t_upper"])
    refute_unless(1 <= a < b, "the interval is not 1 <= t_lower < t_upper")
    P = poly.parse(ev["polynomial"])
    X = [poly.parse(v) for v in par["x"]]
    Yd = [poly.parse(v) for v in par["y"]]
    L = [poly.parse(v) for v in par["lam"]]
    D, E = poly.parse(par["denominator"]), poly.parse(par["dual_denominator"])
    c, A_eq, b_eq, A_ub, b_ub = _lp_rows(ev)
    refute_unless(len(X) == len(c) and len(Yd) == len(A_eq) and len(L) == len(A_ub),
                  "the parametric solution does not have the LP's dimensions")
    for den, name in ((D, "the primal denominator"), (E, "the dual denominator")):
        refute_unless(bool(den) and poly.at(den, a) > 0 and poly.at(den, b) > 0 and poly.roots_in(den, a, b) == 0,
                      f"{name} is not positive on [{a}, {b}]")
    for i, (row, bv) in enumerate(zip(A_eq, b_eq, strict=True)):
        refute_unless(poly.add(_dot(row, X), poly.scale(D, bv), -1) == [], f"equality row {i} is not an identity in t")
    cx = poly.add([], [])
    for j, cj in enumerate(c):
        cx = poly.add(cx, poly.scale(X[j], cj))
    dual: list = []
    for bv, yv in zip(b_eq, Yd, strict=True):
        dual = poly.add(dual, poly.scale(yv, bv))
    for bv, lv in zip(b_ub, L, strict=True):
        dual = poly.add(dual, poly.scale(lv, bv), -1)
    refute_unless(poly.mul(cx, E) == poly.mul(dual, D), "the primal and dual values differ as functions of t (a gap)")
    refute_unless(len(P) >= 2 and poly.at(P, a) != 0 and poly.at(P, b) != 0 and poly.roots_in(P, a, b) == 1,
                  f"the polynomial does not have exactly one root in ({a}, {b})")
    N = poly.add(X[-1], poly.scale(D, target), -1)         # x_s - (1 - delta), times D
    refute_unless(bool(N) and poly.divmod_(N, P)[1] == [], "t*'s polynomial does not divide x_s(t) - (1 - delta)")
    refute_unless(poly.at(N, a) < 0 and poly.at(N, b) != 0 and poly.roots_in(N, a, b) == 1,
                  "x_s(t) - (1 - delta) is not negative before t* with t* its only root in the interval")
    for j, p in enumerate(X):
        _nonneg(p, P, a, b, f"primal x[{j}]")
    for k, (row, bv) in enumerate(zip(A_ub, b_ub, strict=True)):
        _nonneg(poly.add(poly.scale(D, bv), _dot(row, X), -1), P, a, b, f"the slack of inequality {k}")
    red = [poly.scale(E, cj) for cj in c]
    for row, yv in zip(A_eq, Yd, strict=True):
        for j, (aa, k) in row.items():
            red[j] = poly.add(red[j], poly.mul(poly.mono(aa, k), yv), -1)
    for row, lv in zip(A_ub, L, strict=True):
        for j, (aa, k) in row.items():
            red[j] = poly.add(red[j], poly.mul(poly.mono(aa, k), lv))
    for k, lv in enumerate(L):
        _nonneg(lv, P, a, b, f"the dual lam[{k}]")
    for j, r in enumerate(red):
        _nonneg(r, P, a, b, f"the reduced cost of x[{j}]")
    return (f"parametric basis primal and dual feasible on [{a}, t*] with zero gap; t* the only root of "
            f"{ev['polynomial']} in ({a}, {b})")


def _epsilon_text(ev: dict) -> str:
    """``log(t*)`` as the certificate writes it, from the checked polynomial and interval."""
    P = poly.parse(ev["polynomial"])
    if len(P) == 2:
        return f"log({-P[0] / P[1]})"
    return f"log(root of {poly.text(P)} in ({_q(ev['t_lower'])}, {_q(ev['t_upper'])}))"


def _check_tradeoff(c: dict):
    """Re-check a ``tradeoff`` certificate: the inputs are the metric's points, the upper LP verified from primal and
    dual at ``t_upper`` with its value at least ``1 - delta``, the stated mechanism its optimal point; then the lower
    end, and the exact eps* when its polynomial and parametric basis are carried (a bracket only otherwise)."""
    ev = c["evidence"]
    refute_unless(c["verdict"] == "holds", "a tradeoff certificate asserts holds")
    X = ev["inputs"]
    refute_unless(len(set(X)) == len(X) and ev["metric"]["points"] == len(X) and ev["metric"].get("labels") in (None, X)
                  and all(a in X and b in X for a, b, _ in pairs_of(ev["metric"])),
                  "the inputs are not the metric's points")
    _sigma(ev, X, ev["outputs"])
    refute_unless(ev["mechanism"]["name"] == f"optimal mechanism at t = {ev['t_upper']}",
                  "the stated mechanism is not named after its LP")
    target = 1 - _q(ev["delta"])
    if _q(ev["target"]) != target:
        return REFUTED, 0, "1 - delta is misstated"
    ok, detail = check_lp(*_utility_lp(ev, _q(ev["t_upper"])), ev["lp_upper"])
    s_up = -_q(ev["lp_upper"]["value"])
    ok = ok and s_up == _q(ev["s_upper"]) and s_up >= target
    # the stated mechanism is the upper LP's optimal point, M_x(y) = x[x |Y| + y]
    m = ev["mechanism"]
    check_codes(m["codes"], len(m["values"]))
    vals = [_q(v) for v in m["values"]]
    stated = [vals[k] for row in m["codes"] for k in row]
    same = m["inputs"] == ev["inputs"] and m["outputs"] == ev["outputs"] and \
        stated == [_q(v) for v in ev["lp_upper"]["x"][:len(stated)]] and len(stated) == len(ev["lp_upper"]["x"]) - 1
    if not same:
        detail += "; the stated mechanism is NOT the upper LP's optimal point"
    ok = ok and same
    if ev["t_lower"] is None:
        ok = ok and _q(ev["t_upper"]) == 1 and ev["epsilon"] == "0" and ev["epsilon_bracket"] == ["0", "0"] \
            and ev["s_lower"] is None and ev["lp_lower"] is None and ev["polynomial"] is None \
            and ev["parametric"] is None
        return (CONFIRMED if ok else REFUTED), 1, "utility LP at t = 1 rebuilt: " + detail
    ok2, d2 = check_lp(*_utility_lp(ev, _q(ev["t_lower"])), ev["lp_lower"])
    s_lo = -_q(ev["lp_lower"]["value"])
    ok = ok and ok2 and s_lo == _q(ev["s_lower"]) and s_lo < target and _q(ev["t_lower"]) < _q(ev["t_upper"])
    ok = ok and ev["epsilon_bracket"] == [f"log({ev['t_lower']})", f"log({ev['t_upper']})"]
    detail = f"utility LPs rebuilt; upper end: {detail}; lower end: {d2}"
    if not ok:
        return REFUTED, 2, detail
    if ev["polynomial"] is None and ev["parametric"] is None:
        return (CONFIRMED if ev["epsilon"] is None else REFUTED), 2, detail + "; a bracket only"
    refute_unless(ev["polynomial"] is not None and ev["parametric"] is not None,
                  "the exact value needs both the polynomial and the parametric basis")
    detail += "; " + _check_exact(ev, target)
    refute_unless(ev["epsilon"] == _epsilon_text(ev),
                  f"eps* is log({ev['epsilon']}) as stated, not {_epsilon_text(ev)}")
    return CONFIRMED, 2, detail


def claim_text(c: dict) -> str:
    """The claim of a ``utility`` / ``exponential_bound`` / ``tradeoff`` certificate, rebuilt from its evidence.

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
    >>> out = {"points": ["0", "1"], "values": ["0", "1"], "codes": [[0, 1], [1, 0]]}
    >>> ev = {"mechanism": {"name": "K", "inputs": ["0", "1"]}, "gamma": "1", "delta": "1/4", "ball": "open",
    ...       "f": {"0": "0", "1": "1"}, "output": out, "output_description": "discrete metric on 2 points"}
    >>> claim_text({"kind": "utility", "evidence": ev})
    'K achieves (1, 1/4)-utility (open balls) for f = id into the discrete metric on 2 points'
    """
    ev = c["evidence"]
    if c["kind"] == "utility":
        q = query_text(ev["f"], ev["mechanism"]["inputs"], ev["output"], ev["output_description"])
        return f"{ev['mechanism']['name']} achieves ({ev['gamma']}, {ev['delta']})-utility ({ev['ball']} balls) for {q}"
    if c["kind"] == "exponential_bound":
        sm = ev["smallest"]
        return (f"{sm['mechanism']['name']} is 2*C*beta-private (KL10 Thm 2.7), beta = {ev['beta']}, on the "
                f"{sm['metric']['description']}")
    where = (f"on the {ev['metric']['description']} ({ev['ball']} balls) for "
             f"{query_text(ev['f'], ev['inputs'], ev['output'], ev['output_description'])}")
    if ev["epsilon"] is not None:
        return f"eps*(gamma = {ev['gamma']}, delta = {ev['delta']}) = {ev['epsilon']} {where}"
    lo, hi = ev["epsilon_bracket"]
    return f"{lo} < eps*(gamma = {ev['gamma']}, delta = {ev['delta']}) <= {hi} {where}"


def check(c: dict):
    """Re-check a KL10 certificate (``utility``, ``exponential_bound``, ``tradeoff``).

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
    >>> out = {"points": ["0", "1"], "values": ["0", "1"], "codes": [[0, 1], [1, 0]]}
    >>> ev = {"mechanism": {"name": "K", "inputs": ["0", "1"]}, "gamma": "1", "delta": "1/4", "ball": "open",
    ...       "f": {"0": "0", "1": "1"}, "output": out, "output_description": "discrete metric on 2 points"}
    >>> check({"kind": "utility", "claim": "K achieves (1, 0)-utility (open balls)", "evidence": ev})
    ('refuted', 0, 'the claim is not the one its evidence states')
    """
    try:
        refute_unless(c["claim"] == claim_text(c), "the claim is not the one its evidence states")
        status, n, detail = {"utility": _check_utility, "exponential_bound": _check_bound,
                             "tradeoff": _check_tradeoff}[c["kind"]](c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    if status == CONFIRMED and c["kind"] == "tradeoff":     # exponential_bound: privacy's check adds the note
        detail += metric_note(c["evidence"]["metric"])
    if status == CONFIRMED and c["kind"] != "tradeoff":     # tradeoff's mechanism is named after its LP (checked)
        ev = c["evidence"]
        detail += mechanism_note(ev["mechanism"] if c["kind"] == "utility" else ev["smallest"]["mechanism"])
    return status, n, detail


def method_of(c: dict) -> str:
    """The method a KL10 verdict rests on (the dispatcher refutes another, or a precision).

    Exact rationals when the mechanism (and the nested level) is rational, else the exact zero test with
    certified balls; ``EXACT_LP`` for ``tradeoff`` (every verdict rests on exact LPs and their duals).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        ``"RATIONAL"``, ``"TRANSCENDENCE_BALLS"`` or ``"EXACT_LP"``.

    Examples
    --------
    >>> [method_of({"kind": "utility", "evidence": {"mechanism": {"values": v}}}) for v in (["1/2"], ["exp(-1)"])]
    ['RATIONAL', 'TRANSCENDENCE_BALLS']
    >>> method_of({"kind": "tradeoff", "evidence": {}})
    'EXACT_LP'
    """
    ev = c["evidence"]
    if c["kind"] == "tradeoff":
        return "EXACT_LP"
    if c["kind"] == "utility":
        return method_for(ev["mechanism"]["values"])                # the one method rule (no level)
    if c["kind"] == "exponential_bound":
        return method_for(ev["smallest"]["mechanism"]["values"], ev["smallest"]["level"])
    raise ValueError(f"kind {c['kind']!r}")
