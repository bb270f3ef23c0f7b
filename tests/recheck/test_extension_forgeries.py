"""Consistent forgeries of the BCSZ18 kinds (issue 27, item 3): a definition changed -- the mechanism on H, H --
and every dependent field recomputed as a forger would (the slack LPs re-solved exactly).  Each is refuted.

Before the fix ``best_extension`` never required ``mech_on_H``'s inputs to be ``H``: a row for a free point fixed
that point too, so the slack LPs were another problem's (smaller slack, a smaller stated ``eps'``), and the
certificate was confirmed with the claim "from |H| = 2 points".
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from exactdp import Mechanism
from exactdp.exact import LinearProgram, solve_lp
from exactdp.exact import exact_str
from exactdp.metrics import path
from exactdp.recheck import recheck
from exactdp.recheck._kernel import TooLarge
from exactdp.recheck.extension import _slack_lp
from exactdp.extension.extension import certify_extension
from exactdp.extension.best import best_extension_bracket

AH = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])


def _lp_json(ev: dict, t) -> dict:
    """The forger's exact optimum of the kernel's own slack LP at ``t`` (primal, duals, value)."""
    from fractions import Fraction
    c, A_eq, b_eq, A_ub, b_ub = _slack_lp(ev, Fraction(t))
    q = str                                             # the LP reads exact text
    sol = solve_lp(LinearProgram(c=[q(v) for v in c], A_eq=[{j: q(a) for j, a in r.items()} for r in A_eq],
                                 b_eq=[q(v) for v in b_eq], A_ub=[{j: q(a) for j, a in r.items()} for r in A_ub],
                                 b_ub=[q(v) for v in b_ub]))
    return {"value": exact_str(sol.value), "x": [exact_str(v) for v in sol.x], "y": [exact_str(v) for v in sol.y],
            "lam": [exact_str(v) for v in sol.lam]}


def _free_row_forgery() -> dict:
    """A genuine bracket on path(4) with H = {0, 3}; the forger adds a row for the free point 1 to mech_on_H (its
    LP now fixes 1 as well), re-solves both slack LPs at a new bracket -- a false lower end: the genuine problem
    has slack 0 at the forged ``t_lower`` -- and restates the witness extension and both factor enclosures."""
    from flint import fmpq

    from exactdp.exact import Level
    from exactdp.extension.best import _ratio_enclosure
    j = best_extension_bracket(AH, path(4), ["0", "3"], alpha="1/2", rel_width="1/16").to_json()
    assert recheck(j).status == "confirmed"
    ev = j["evidence"]
    genuine_upper = ev["t_upper"]
    m = ev["mech_on_H"]
    m["inputs"] = ["0", "1", "3"]
    m["values"] = ["8/9", "1/9", "2/3", "1/3"]
    m["codes"] = [[0, 1], [2, 3], [1, 0]]
    ev["t_lower"], ev["t_upper"] = genuine_upper, "4"
    ev["lp_upper"] = _lp_json(ev, ev["t_upper"])
    ev["lp_lower"] = _lp_json(ev, ev["t_lower"])
    lev = Level.from_eps("log(2)")
    ev["factor_lower"] = list(_ratio_enclosure(fmpq(83, 32), lev))
    ev["factor_upper"] = list(_ratio_enclosure(fmpq(4), lev))
    x = ev["lp_upper"]["x"]
    W = 2
    rows = {"0": ["8/9", "1/9"], "1": ["2/3", "1/3"], "3": ["1/9", "8/9"]}
    rows.update({p: x[k * W:(k + 1) * W] for k, p in enumerate(ev["free"])})
    vals = sorted({v for r in rows.values() for v in r})
    ev["mechanism"]["name"] = "best extension at t = 4"
    ev["mechanism"]["values"] = vals
    ev["mechanism"]["codes"] = [[vals.index(v) for v in rows[p]] for p in ev["points"]]
    return j


def test_best_extension_row_for_a_free_point_is_refuted():
    j = _free_row_forgery()
    # the forgery is self-consistent: slack 0 at the upper end, > 0 at the (false) lower end
    assert j["evidence"]["lp_upper"]["value"] == "0" and j["evidence"]["lp_lower"]["value"] != "0"
    r = recheck(j)
    assert r.status == "refuted" and "inputs are not H" in r.detail


def test_best_extension_missing_row_of_h_is_refuted():
    j = best_extension_bracket(AH, path(4), ["0", "3"], alpha="1/2", rel_width="1/16").to_json()
    j["evidence"]["mech_on_H"]["codes"] = j["evidence"]["mech_on_H"]["codes"][:1]
    j["evidence"]["mech_on_H"]["inputs"] = ["0"]
    assert recheck(j).status == "refuted"


def test_best_extension_h_outside_the_metric_is_refuted():
    j = best_extension_bracket(AH, path(4), ["0", "3"], alpha="1/2", rel_width="1/16").to_json()
    j["evidence"]["H"] = ["0", "9"]
    j["evidence"]["mech_on_H"]["inputs"] = ["0", "9"]
    r = recheck(j)
    assert r.status == "refuted"


def test_extension_mech_on_h_for_another_h_is_refuted():
    """``extension``: a mechanism on H' = {0, 1} stated as one on H = {0, 3} (labels changed, every number
    recomputed by re-running the checker on the forger's H) is refuted: the inputs are not H."""
    j = certify_extension(AH, path(4), ["0", "3"], alpha="1/2").to_json()
    assert recheck(j).status == "confirmed"
    bad = copy.deepcopy(j)
    bad["evidence"]["mech_on_H"]["inputs"] = ["0", "1"]
    r = recheck(bad)
    assert r.status == "refuted"


# ------------------------------------------------------------------ the work bound (issue 27, item 6) ----
def _slow_minima(ev, Ah):
    """The construction by plain Fractions: every candidate multiplied out (the brute force)."""
    from fractions import Fraction

    from exactdp.recheck._levels import factor
    out = []
    for drow in ev["distances"]:
        cands = [(factor(ev["level"], d), k) for k, d in enumerate(drow) if d != "inf"]
        m = [min(E * Ah[k][w] for E, k in cands) for w in range(len(Ah[0]))]
        z = sum(m, Fraction(0))
        out.append([v / z for v in m])
    return out


@pytest.mark.parametrize("alpha, rows", [
    ("1/2", [["8/9", "1/9"], ["1/9", "8/9"]]),
    ("99/100", [["1/2", "1/2"], ["1/3", "2/3"]]),          # near-ties in the float filter
    ("1/3", [["1", "0"], ["1/2", "1/2"]]),                 # zero entries: a minimum of exactly 0
    ("2/3", [["1/2", "1/2"], ["1/2", "1/2"]])])            # every candidate of a point ties
def test_the_integer_route_is_the_construction(alpha, rows):
    """The exact-integer route with its float filter against the brute force, on path(6) with H = {0, 2, 5}."""
    from fractions import Fraction

    from exactdp.recheck.extension import _extension
    AH3 = Mechanism.from_rows(["0", "2", "5"], ["a", "b"], [*rows, rows[0]])
    ev = certify_extension(AH3, path(6), ["0", "2", "5"], alpha=alpha).to_json()["evidence"]
    Ah = [[Fraction(ev["mech_on_H"]["values"][c]) for c in r] for r in ev["mech_on_H"]["codes"]]
    got = _extension(ev, Ah)
    assert not isinstance(got, int) and got[0] == _slow_minima(ev, Ah)


def test_hostile_bit_sizes_are_refused_as_too_large():
    """A level whose factors e^(eps d) carry thousands of bits at every point: refused before the products."""
    from fractions import Fraction

    from exactdp.recheck import extension as ext
    j = certify_extension(AH, path(4), ["0", "3"], alpha="1/2").to_json()
    ev = j["evidence"]
    Ah = [[Fraction(ev["mech_on_H"]["values"][c]) for c in r] for r in ev["mech_on_H"]["codes"]]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ext, "MAX_EXTENSION_COST", 3)          # the same bound, reached at this small size
        with pytest.raises(TooLarge, match=r"cost more than|too large for its common denominator"):
            ext._extension(ev, Ah)
    bad = copy.deepcopy(j)
    bad["evidence"]["mech_on_H"]["values"] = [f"{2 ** 4000 - 1}/{2 ** 4000}", f"1/{2 ** 4000}"]
    assert recheck(bad).status == "refuted"          # within the bound: decided (the stated extension is not it)


def _table(n: int, seed: int, broken: bool = False):
    """A random metric table: shortest paths of a random weighted graph (two components when ``seed`` is odd),
    as a metric record with an explicit ``distances`` table; ``broken`` shortens one distance below a detour."""
    import random

    rnd = random.Random(seed)
    INF = None
    d = [[Fraction(0) if i == j else INF for j in range(n)] for i in range(n)]
    comp = [0 if seed % 2 == 0 or i < n // 2 else 1 for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if comp[i] == comp[j] and rnd.random() < 0.5:
                d[i][j] = d[j][i] = Fraction(rnd.randint(1, 6), rnd.choice([1, 2, 3]))
    for k in range(n):                                      # Floyd-Warshall, exactly
        for i in range(n):
            for j in range(n):
                if d[i][k] is not None and d[k][j] is not None and (d[i][j] is None or d[i][k] + d[k][j] < d[i][j]):
                    d[i][j] = d[i][k] + d[k][j]
    for i in range(n):                                      # a disconnected pair inside a component: join it
        for j in range(n):
            if i != j and comp[i] == comp[j] and d[i][j] is None:
                d[i][j] = Fraction(100)
    if broken:
        d[0][1] = d[1][0] = d[0][1] * 3 if d[0][1] is not None else Fraction(1000)
    vals = sorted({str(v) if v is not None else "inf" for r in d for v in r})
    codes = [[vals.index(str(v) if v is not None else "inf") for v in r] for r in d]
    return {"distances": {"values": vals, "codes": codes}}, {str(i): i for i in range(n)}


@pytest.mark.parametrize("seed", range(6))
def test_the_integer_generating_pairs_are_the_loops(seed, monkeypatch):
    """The vectorised triangle inequalities and generating pairs against the exact loop they replace."""
    from exactdp.recheck import _metric
    for broken in (False, True):
        metric, idx = _table(12, seed, broken)
        vals = metric["distances"]["values"]
        fast = _metric._generating_integers(metric["distances"]["codes"],
                                            [None if v == "inf" else Fraction(v) for v in vals], vals, 12)
        with monkeypatch.context() as mp:
            mp.setattr(_metric, "_generating_integers", lambda *a: None)
            try:
                slow = _metric._matrix(metric, idx)
            except ValueError:
                slow = None
        assert fast == slow
