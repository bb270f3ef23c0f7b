"""Consistent forgeries of the BCSZ18 kinds (issue 27, item 3): a definition changed -- the mechanism on H, H --
and every dependent field recomputed as a forger would (the slack LPs re-solved exactly).  Each is refuted.

Before the fix ``best_extension`` never required ``mech_on_H``'s inputs to be ``H``: a row for a free point fixed
that point too, so the slack LPs were another problem's (smaller slack, a smaller stated ``eps'``), and the
certificate was confirmed with the claim "from |H| = 2 points".
"""

from __future__ import annotations

import copy

from exactdp import Mechanism
from exactdp.exact import LinearProgram, solve_lp
from exactdp.exact import exact_str
from exactdp.metrics import path
from exactdp.recheck import recheck
from exactdp.recheck.extension import _slack_lp
from exactdp.theory.extension_cert import certify_extension
from exactdp.theory.extension_lp import best_extension_bracket

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
    from exactdp.theory.extension_lp import _ratio_enclosure
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
