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

from ._kernel import rational as _q
from ._kernel import NotHere, _add, _div, _neg, check_codes, sign, value
from .ecp14 import check_lp
from .privacy import check as check_privacy
from .privacy import pairs_of

CONFIRMED, REFUTED = "confirmed", "refuted"


def _inside(s: Fraction, gamma: Fraction, ball: str) -> bool:
    if ball not in ("open", "closed"):
        raise ValueError(f"ball {ball!r}")
    return s < gamma or (ball == "closed" and s == gamma)


def _check_utility(c: dict):
    ev = c["evidence"]
    m = ev["mechanism"]
    check_codes(m["codes"], len(m["values"]))
    vals = [_q(v) for v in m["values"]]
    g, target = _q(ev["gamma"]), _q(ev["target"])
    if target != 1 - _q(ev["delta"]):
        return REFUTED, 0, "1 - delta is misstated"
    masses = {}
    for i, x in enumerate(m["inputs"]):
        masses[x] = sum((vals[code] for code, s in zip(m["codes"][i], ev["sigma"][i])
                         if _inside(_q(s), g, ev["ball"])), Fraction(0))
    worst = min(masses.values())
    ok = ({x: str(v) for x, v in masses.items()} == ev["masses"] and worst == _q(ev["mass"])
          and masses[ev["worst"]] == worst and (c["verdict"] == "holds") == (worst >= target))
    return (CONFIRMED if ok else REFUTED), len(masses), f"{len(masses)} ball masses re-summed; worst {worst}"


_LOG = re.compile(r"^\s*(?:(\d+(?:/\d+)?)\*)?log\((\d+(?:/\d+)?)\)(?:/(\d+))?\s*$")


def _check_bound(c: dict):
    ev = c["evidence"]
    inner = {"kind": "epsilon", "verdict": "holds", "evidence": ev["smallest"]}
    status, n, detail = check_privacy(inner)
    if status != CONFIRMED:
        return status, n, "the nested smallest eps: " + detail
    C = max((_q(s) / _q(r) for _, _, r, s in ev["lipschitz_pairs"]), default=Fraction(0))
    if C != _q(ev["lipschitz"]):
        return REFUTED, n, f"Lipschitz constant re-maximised: {C}, stated {ev['lipschitz']}"
    b = ev["smallest"]["binding"]
    if ev["epsilon"] in ("0",) or b is None:
        rel = -1 if C > 0 else 0
    elif ev["epsilon"] == "inf":
        rel = 1
    else:
        rel = _binding_against_bound(ev, b, C)
    ok = (c["verdict"] == "holds") == (rel <= 0) and ev["attained"] == (rel == 0)
    return (CONFIRMED if ok else REFUTED), n, detail + f"; binding ratio against 2 C beta: {rel:+d}"


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
        ok = ok and _q(ev["t_upper"]) == 1 and ev["epsilon"] == "0"
    else:
        ok2, d2 = check_lp(*_utility_lp(ev, _q(ev["t_lower"])), ev["lp_lower"])
        s_lo = -_q(ev["lp_lower"]["value"])
        ok = ok and ok2 and s_lo == _q(ev["s_lower"]) and s_lo < target and _q(ev["t_lower"]) < _q(ev["t_upper"])
        ok = ok and ev["epsilon_bracket"] == [f"log({ev['t_lower']})", f"log({ev['t_upper']})"]
        detail += f"; lower end: {d2}"
    return (CONFIRMED if ok else REFUTED), 2, "utility LPs rebuilt; upper end: " + detail


def check(c: dict):
    return {"utility": _check_utility, "exponential_bound": _check_bound, "tradeoff": _check_tradeoff}[c["kind"]](c)
