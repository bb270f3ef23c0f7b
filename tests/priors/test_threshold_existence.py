"""The ECP14 threshold defined correctly (issue 27, item 2): the exact set of levels where a tight-constraints
mechanism exists, and eps*, the smallest level from which one exists at EVERY larger level.

The 6-point metric of the issue (points 0, 1, 2 pairwise at distance 2; 3, 4, 5 with d(3,4) = d(4,5) = 2,
d(3,5) = 1; every cross distance 1) has z = Phi^-1 1 >= 0 for alpha <= 1/2 and alpha >= 1/sqrt(2), negative in
between: the set is not an interval, and eps* = log 2 although one exists at eps = log(4/3).
"""

import copy
import json
from fractions import Fraction

import networkx as nx
import pytest
from flint import arb, fmpq

from exactdp.cli import main
from exactdp.exact.level import Level
from exactdp.metrics import from_graph, grid, metric_from_spec, path
from exactdp.recheck import recheck
from exactdp.priors.regular import tight_constraints
from exactdp.priors.threshold import existence_set, poly_text, threshold

SIX = [[0, 2, 2, 1, 1, 1], [2, 0, 2, 1, 1, 1], [2, 2, 0, 1, 1, 1],
       [1, 1, 1, 0, 2, 1], [1, 1, 1, 2, 0, 2], [1, 1, 1, 1, 2, 0]]
SIX_SPEC = {"kind": "matrix", "points": [str(i) for i in range(6)], "distances": SIX}


def _six():
    return metric_from_spec(SIX_SPEC)


def _brute_exists(D, alpha: Fraction) -> bool:
    """Phi z = 1 solved with Fractions (Phi invertible at the sampled alpha), z >= 0: written from ECP14 Prop. 7."""
    n = len(D)
    A = [[alpha ** D[i][j] for j in range(n)] + [Fraction(1)] for i in range(n)]
    for c in range(n):
        p = next(r for r in range(c, n) if A[r][c] != 0)
        A[c], A[p] = A[p], A[c]
        for r in range(n):
            if r != c and A[r][c] != 0:
                f = A[r][c] / A[c][c]
                A[r] = [x - f * y for x, y in zip(A[r], A[c], strict=True)]
    return all(A[i][n] / A[i][i] >= 0 for i in range(n))


def _genuine_six() -> dict:
    return json.loads(json.dumps(threshold(_six()).to_json()))


@pytest.mark.slow
def test_six_point_existence_set_is_two_pieces_and_the_threshold_is_log_2():
    c = threshold(_six())
    ev = c.evidence
    assert c.holds is True and ev.route == "exact-polynomial" and ev.root_of_alpha == 1
    assert ev.exact == "log(2)" and ev.attained is True
    lo, hi = fmpq(ev.lo_rational), fmpq(ev.hi_rational)
    assert lo <= hi and arb(2).log() > arb(lo) and arb(2).log() < arb(hi)
    first, second = ev.existence
    assert (first.lo, first.hi, first.lo_closed, first.hi_closed) == ("0", "1/2", False, True)
    assert second.hi == "1" and second.lo_closed is True and second.hi_closed is False
    assert second.lo.startswith("root of 2*t^2 - 1 in (")            # alpha = 1/sqrt(2)
    a, b = (Fraction(x) for x in second.lo[len("root of 2*t^2 - 1 in ("):-1].split(", "))
    assert 2 * a * a < 1 < 2 * b * b and b - a <= Fraction(1, 2**48)
    r = c.recheck()
    assert r.status == "confirmed", r.detail
    assert "2 pieces" in r.detail and "log(2) (attained)" in r.detail
    text = c.to_text()
    assert "not an interval (2 pieces)" in text and "eps* = log(2)" in text


def test_six_point_set_agrees_with_a_brute_force_at_rational_levels():
    # membership of alpha in (0, 1/2] U [1/sqrt 2, 1), decided exactly: alpha <= 1/2 or 2 alpha^2 >= 1
    for alpha in [Fraction(k, 40) for k in range(1, 40)]:
        if alpha == Fraction(1, 2):
            continue                   # z has a zero there (the end): Phi is invertible, but checked below
        inside = alpha <= Fraction(1, 2) or 2 * alpha * alpha >= 1
        assert _brute_exists(SIX, alpha) is inside, alpha
    assert _brute_exists(SIX, Fraction(1, 2)) is True
    # the case: a tight-constraints mechanism exists at eps = log(4/3), below eps* = log 2
    assert tight_constraints(_six(), Level.from_alpha("3/4")).holds is True
    assert tight_constraints(_six(), Level.from_alpha("3/5")).holds is False


def test_the_singular_point_inside_the_gap_is_decided():
    ex = existence_set(_six())
    assert [poly_text(r.f) for r in ex.singular] == ["4*t^3 + 4*t^2 - 2*t - 1"]   # det Q = 0 near 0.585
    assert len(ex.pieces) == 2                                       # and no mechanism exists there


def test_cli_six_point_threshold_json_and_recheck(tmp_path, capsys):
    f = tmp_path / "six.json"
    f.write_text(json.dumps(SIX_SPEC))
    assert main(["tight", str(f), "--threshold", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ev = out["evidence"]
    assert ev["exact"] == "log(2)" and [p["hi"] for p in ev["existence"]] == ["1/2", "1"]
    assert recheck(out).status == "confirmed"
    assert main(["tight", str(f), "--threshold"]) == 0
    text = capsys.readouterr().out
    assert "(0, 1/2] U [root of 2*t^2 - 1" in text and "not an interval" in text


@pytest.mark.parametrize("m, route, exact", [
    (path(5), "path", "0"), (grid((3, 3)), "manhattan", "0"),
    (from_graph(nx.star_graph(3)), "exact-polynomial", "log(2)"),
    (from_graph(nx.Graph([(0, 1), (1, 2), (3, 4)])), "exact-polynomial", "0")])
def test_monotone_metrics_keep_their_thresholds(m, route, exact):
    c = threshold(m)
    ev = c.evidence
    assert (ev.route, ev.exact) == (route, exact)
    if route == "exact-polynomial":
        assert len(ev.existence) == 1                               # an interval
        assert "an interval" in c.to_text() or exact == "0"
    assert c.recheck().status == "confirmed"


def test_chebyshev_grid_threshold_is_the_root_of_its_quartic():
    c = threshold(grid((4, 4), "chebyshev"))
    ev = c.evidence
    assert ev.exact == "-log(alpha*)" and len(ev.existence) == 1
    assert ev.existence[0].hi.startswith("root of 2*t^4 + t^3 + 5*t^2 + t - 1 in (")
    lo, hi = fmpq(ev.lo_rational), fmpq(ev.hi_rational)
    p = lambda x: 2 * x**4 + x**3 + 5 * x**2 + x - 1                 # noqa: E731
    assert p((-arb(hi)).exp()) < 0 < p((-arb(lo)).exp())           # the root e^-eps* lies in [e^-hi, e^-lo]
    assert c.recheck().status == "confirmed"


# -- forgeries edited consistently: each is refuted -----------------------------------------------------------

def _refuted(j, why):
    r = recheck(j)
    assert r.status == "refuted", r.detail
    assert why in r.detail, r.detail


def test_forged_interval_is_refuted():
    j = _genuine_six()
    j["evidence"]["existence"] = j["evidence"]["existence"][:1]      # "one exists exactly for eps >= log 2"
    _refuted(j, "2 piece(s), not 1")


def test_forged_open_end_is_refuted():
    j = _genuine_six()
    j["evidence"]["existence"][1]["lo_closed"] = False
    _refuted(j, "closed")


def test_forged_monotone_threshold_zero_is_refuted():
    j = _genuine_six()
    ev = j["evidence"]
    ev["existence"] = [{"lo": "0", "hi": "1", "lo_closed": False, "hi_closed": False}]
    ev.update(exact="0", lo="0", hi="0", lo_rational=None, hi_rational=None, attained=True)
    _refuted(j, "piece")


def test_forged_end_at_the_singular_point_is_refuted():
    j = _genuine_six()
    ex = existence_set(_six())
    j["evidence"]["existence"][1]["lo"] = ex.singular[0].text()      # 4t^3 + 4t^2 - 2t - 1: det Q = 0, none exists
    _refuted(j, "not the re-derived end")


def test_forged_threshold_and_attainment_are_refuted():
    j = _genuine_six()
    j["evidence"]["attained"] = False
    _refuted(j, "alpha* itself")
    j = _genuine_six()
    ev = j["evidence"]
    ev["existence"][0]["hi"], ev["exact"] = "1/3", "log(3)"
    ev["lo"] = ev["lo_rational"] = "1.0986"
    ev["hi"] = ev["hi_rational"] = "1.0987"
    _refuted(j, "not the re-derived end")
    j = _genuine_six()
    j["evidence"]["exact"] = "log(3)"
    _refuted(j, "the threshold is log(2)")
    j = _genuine_six()
    j["evidence"]["lo"] = j["evidence"]["lo_rational"] = "0.6932"
    _refuted(j, "is not in")


def test_forged_bracket_route_with_an_existence_set_is_refuted():
    j = json.loads(json.dumps(threshold(grid((3, 3), "euclidean")).to_json()))
    assert j["evidence"]["route"] == "bracket"
    j2 = copy.deepcopy(j)
    j2["evidence"]["exact"] = "log(2)"
    _refuted(j2, "not an exact threshold")
    text = threshold(grid((3, 3), "euclidean")).to_text()
    assert "eps* <= " in text and "not certified" in text          # a bracket is a lower bound only


def _plus():
    pts = ["1,1", "0,1", "2,1", "1,0", "1,2"]
    rc = [tuple(map(int, p.split(","))) for p in pts]
    D = [[abs(a[0] - b[0]) + abs(a[1] - b[1]) for b in rc] for a in rc]
    return metric_from_spec({"kind": "matrix", "points": pts, "distances": D})


def test_plus_shape_is_a_star_not_a_grid():
    c = threshold(_plus())
    ev = c.evidence
    assert ev.route == "exact-polynomial" and ev.exact == "log(3)" and ev.existence[0].hi == "1/3"
    assert c.recheck().status == "confirmed"
    j = json.loads(json.dumps(c.to_json()))
    j["evidence"].update(route="manhattan", exact="0", lo="0", hi="0", lo_rational=None, hi_rational=None,
                         existence=None, root_of_alpha=None, attained=None)
    j["method"] = "CLOSED_FORM"
    r = recheck(j)
    assert r.status == "refuted", r.detail


def test_kernel_refuses_a_large_set_at_once():
    j = _genuine_six()
    n = 201
    j["evidence"]["distances"] = {"points": [str(i) for i in range(n)], "values": ["0", "1"],
                                  "codes": [[0 if i == k else 1 for k in range(n)] for i in range(n)]}
    j["evidence"]["description"] = "explicit distance matrix on 201 points"
    j["claim"] = "the threshold eps for a tight-constraints mechanism on the explicit distance matrix on 201 points"
    r = recheck(j)
    assert r.status == "not checkable" and "too large" in r.detail, r.detail
    j = _genuine_six()
    j["evidence"]["distances"]["values"] = ["0", "1000", "2000"]    # powers of t far beyond the degree limit
    j["evidence"]["description"] = "explicit distance matrix on 6 points"
    r = recheck(j)
    assert r.status == "not checkable" and "too large" in r.detail and "degree 12000" in r.detail, r.detail
