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
  (:func:`exactdp.recheck.ecp14.check_lp`); then ``s*(t_lower) < 1 - delta <=
  s*(t_upper)``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ._b_util import Refuted, _split_log, check_table, enclosure_ok, iv_eps, need, same
from ._kernel import rational as _q
from ._kernel import NotHere, _add, _div, _mul, _neg, check_codes, sign, value
from .ecp14 import check_lp
from .privacy import _Mech
from .privacy import check as check_privacy
from .privacy import pairs_of
from .privacy import EPSILON as _EPSILON
from .privacy import MECH as _MECH

CONFIRMED, REFUTED = "confirmed", "refuted"

# ------------------------------------------------------------------- the shape (utility, exponential_bound) ----
#: the output metric as a full distance table over its points
_OUTPUT = {"points": ["str"], "values": ["str"], "codes": [["int"]]}
#: the evidence shape per kind (read by the dispatcher before any work); ``tradeoff`` states its own
EVIDENCE = {
    "utility": {"mechanism": _MECH, "output": ("?", _OUTPUT), "f": ("map", "str"), "sigma": [["str"]],
                "gamma": "str", "delta": "str", "ball": "str", "masses": ("map", "str"), "worst": "str", "mass": "str",
                "target": "str", "ball_outputs": ["str"]},
    "exponential_bound": {"beta": "str", "output": ("?", _OUTPUT), "f": ("map", "str"), "lipschitz": "str",
                          "lipschitz_pair": ("?", ["str"]), "lipschitz_pairs": [["str"]], "bound": "str",
                          "bound_enclosure": ["str"], "epsilon": "?str", "enclosure": ("?", ["str"]),
                          "attained": "?bool", "smallest": _EPSILON}}


def _inside(s: Fraction, gamma: Fraction, ball: str) -> bool:
    if ball not in ("open", "closed"):
        raise ValueError(f"ball {ball!r}")
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
    need(isinstance(ev["f"], dict) and sorted(ev["f"]) == sorted(inputs) and set(ev["f"].values()) <= pts
         and set(outputs) <= pts, "f does not map the inputs to points of the output metric (or an output is not one)")
    need(len(ev["sigma"]) == len(inputs) and all(len(r) == len(outputs) for r in ev["sigma"]),
         "sigma does not have |X| x |Y| entries")
    for x, row in zip(inputs, ev["sigma"]):
        for y, s in zip(outputs, row):
            need(T[(ev["f"][x], y)] is not None and same(s, T[(ev["f"][x], y)]),
                 f"sigma(f({x}), {y}) = {s} is not the output metric's distance")


def _check_utility(c: dict):
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
        inside[x] = [y for y, s in zip(m["outputs"], ev["sigma"][i]) if _inside(_q(s), g, ev["ball"])]
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
    ev = c["evidence"]
    inner = {"kind": "epsilon", "verdict": "holds", "evidence": ev["smallest"]}
    status, n, detail = check_privacy(inner)
    if status != CONFIRMED:
        return status, n, "the nested smallest eps: " + detail
    sm = ev["smallest"]
    need(ev["epsilon"] == sm["epsilon"] and ev["enclosure"] == sm["enclosure"],
         "eps* is not the nested smallest eps")
    pts = sm["mechanism"]["inputs"]
    T = _output(ev)
    need(isinstance(ev["f"], dict) and sorted(ev["f"]) == sorted(pts)
         and set(ev["f"].values()) <= set(ev["output"]["points"]), "f does not map the inputs into the output metric")
    lp = ev["lipschitz_pairs"]
    need([p[:3] for p in lp] == [list(p) for p in pairs_of(sm["metric"])] and all(len(p) == 4 for p in lp),
         "the Lipschitz pairs are not the metric's generating pairs")
    for x, xp, _, s in lp:
        need(T[(ev["f"][x], ev["f"][xp])] is not None and same(s, T[(ev["f"][x], ev["f"][xp])]),
             f"sigma(f({x}), f({xp})) = {s} is not the output metric's distance")
    C = max((_q(s) / _q(r) for _, _, r, s in lp), default=Fraction(0))
    if C != _q(ev["lipschitz"]):
        return REFUTED, n, f"Lipschitz constant re-maximised: {C}, stated {ev['lipschitz']}"
    best = next(([x, xp] for x, xp, r, s in lp if _q(s) / _q(r) == C), None) if C > 0 else None
    need(ev["lipschitz_pair"] == best, "the Lipschitz pair is not the first pair attaining C")
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


def _bound(ev: dict, C: Fraction) -> None:
    """``bound = 2 C beta`` re-derived: for ``beta = c log(q)`` as ``log(R)/D`` with ``R^(1/D) = q^(2 C c)``
    (powers cleared), else as an exact value; and its enclosure."""
    bound = ev["bound"]
    mt = _LOG.match(ev["beta"])
    if C == 0:
        need(bound == "0" and ev["bound_enclosure"] == ["0", "0"], "2 C beta = 0 is misstated")
        return
    if mt is not None:
        e = 2 * C * Fraction(mt.group(1) or 1) / Fraction(mt.group(3) or 1)      # bound = e * log(q)
        q = Fraction(mt.group(2))
        parts = _split_log(bound)
        need(parts is not None, f"2 C beta = {bound} is not log(R)/D")
        R, D = _q(parts[0]), parts[1]
        k = e * D                                                                # R = q^k
        need(R ** k.denominator == q ** k.numerator if k > 0 else R == 1, f"2 C beta is not {bound}")
    else:
        need(same(bound, _mul(2 * C, value(ev["beta"]))), f"2 C beta is not {bound}")
    need(enclosure_ok(ev["bound_enclosure"], lambda: iv_eps(bound)), "the bound's enclosure does not contain it")


def _binding_against_bound(ev, b, C) -> int:
    """Sign of ``r - e^(2 C beta d)`` for the binding ratio ``r = K_x / K_x'`` (KL10 Thm 2.7's bound).

    ``beta = c log(q)``: powers cleared, ``r^den`` against ``q^num`` in fractions.  Otherwise (``beta``
    rational or a sum of square roots, entries exponential polynomials): the difference is an exponential
    polynomial quotient; its zero test is exact (Lindemann-Weierstrass, collected exponents) and a non-zero
    sign comes from intervals at rising precision.
    """
    mt = _LOG.match(ev["beta"])
    if mt is not None:
        coef = Fraction(mt.group(1) or 1) / Fraction(mt.group(3) or 1)
        q = Fraction(mt.group(2))
        r = _q(b["K_x"]) / _q(b["K_x_prime"])
        e = 2 * C * coef * _q(b["distance"])  # r vs q^e
        lhs, rhs = r ** e.denominator, q ** e.numerator
        return (lhs > rhs) - (lhs < rhs)
    r = _div(value(b["K_x"]), value(b["K_x_prime"]))
    bound = value(f"exp(2*({C})*({b['distance']})*({ev['beta']}))")
    return sign(_add(r, _neg(bound)))


def _utility_lp(ev, t: Fraction) -> tuple[list, list, list, list, list]:
    X, Y = ev["inputs"], ev["outputs"]
    nX, nY = len(X), len(Y)
    ix = {x: i for i, x in enumerate(X)}
    N = nX * nY
    c = [Fraction(0)] * N + [Fraction(-1)]
    A_eq = [{x * nY + y: Fraction(1) for y in range(nY)} for x in range(nX)]
    A_ub, b_ub = [], []
    for x, xp, d in pairs_of(ev["metric"]):
        dq = _q(d)
        if dq.denominator != 1:
            raise NotHere("a non-integer distance: t^d is irrational")
        f = t ** int(dq)
        for a, b in ((ix[x], ix[xp]), (ix[xp], ix[x])):
            for y in range(nY):
                A_ub.append({a * nY + y: Fraction(1), b * nY + y: -f})
                b_ub.append(Fraction(0))
    g = _q(ev["gamma"])
    for x in range(nX):
        row = {N: Fraction(1)}
        for y in range(nY):
            if _inside(_q(ev["sigma"][x][y]), g, ev["ball"]):
                row[x * nY + y] = Fraction(-1)
        A_ub.append(row)
        b_ub.append(Fraction(0))
    return c, A_eq, [Fraction(1)] * nX, A_ub, b_ub


def _check_tradeoff(c: dict):
    ev = c["evidence"]
    need(c["verdict"] == "holds", "a bracket certificate asserts holds")
    X = ev["inputs"]
    need(len(set(X)) == len(X) and ev["metric"]["points"] == len(X) and ev["metric"].get("labels") in (None, X)
         and all(a in X and b in X for a, b, _ in pairs_of(ev["metric"])), "the inputs are not the metric's points")
    _sigma(ev, X, ev["outputs"])
    need(ev["mechanism"]["name"] == f"optimal mechanism at t = {ev['t_upper']}",
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
            and ev["s_lower"] is None and ev["lp_lower"] is None
    else:
        ok2, d2 = check_lp(*_utility_lp(ev, _q(ev["t_lower"])), ev["lp_lower"])
        s_lo = -_q(ev["lp_lower"]["value"])
        ok = ok and ok2 and s_lo == _q(ev["s_lower"]) and s_lo < target and _q(ev["t_lower"]) < _q(ev["t_upper"])
        ok = ok and ev["epsilon_bracket"] == [f"log({ev['t_lower']})", f"log({ev['t_upper']})"] \
            and ev["epsilon"] is None
        detail += f"; lower end: {d2}"
    return (CONFIRMED if ok else REFUTED), 2, "utility LPs rebuilt; upper end: " + detail


def claim_text(c: dict) -> str:
    """The claim of a ``utility`` / ``exponential_bound`` / ``tradeoff`` certificate, rebuilt from its evidence."""
    ev = c["evidence"]
    if c["kind"] == "utility":
        return (f"{ev['mechanism']['name']} achieves ({ev['gamma']}, {ev['delta']})-utility ({ev['ball']} balls)")
    if c["kind"] == "exponential_bound":
        return f"{ev['smallest']['mechanism']['name']} is 2*C*beta-private (KL10 Thm 2.7), beta = {ev['beta']}"
    return (f"eps*(gamma = {ev['gamma']}, delta = {ev['delta']}) on the {ev['metric']['description']} "
            f"({ev['ball']} balls)")


def check(c: dict):
    try:
        need(c["claim"] == claim_text(c), "the claim is not the one its evidence states")
        return {"utility": _check_utility, "exponential_bound": _check_bound,
                "tradeoff": _check_tradeoff}[c["kind"]](c)
    except Refuted as e:
        return REFUTED, 0, str(e)


def method_of(c: dict) -> str | None:
    """The method a ``utility`` / ``exponential_bound`` verdict rests on (the dispatcher refutes another, or a
    precision): exact rationals when the mechanism (and the nested level) is rational, else the exact zero test
    with certified balls; ``None`` (not stated here) for ``tradeoff``."""
    ev = c["evidence"]
    if c["kind"] == "utility":
        rational = all(isinstance(value(v), Fraction) for v in ev["mechanism"]["values"])
    elif c["kind"] == "exponential_bound":
        sm = ev["smallest"]
        lv = sm["level"]
        mech = _Mech(sm["mechanism"])
        rational = all(isinstance(mech.val(i), Fraction) for i in range(len(mech.values))) and (
            lv is None or (lv["eps"] is None and isinstance(value(lv["R"]), Fraction)))
    else:
        return None
    return "RATIONAL" if rational else "TRANSCENDENCE_BALLS"
