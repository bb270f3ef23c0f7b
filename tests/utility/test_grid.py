"""Certified uniform-prior utilities (ECP14 sec. 7, Figs. 6-7) and the ``utility_comparison`` certificate."""

import copy
import json
import os
import re
from fractions import Fraction

import jsonschema
import pytest
from flint import arb, ctx, fmpq
from hypothesis import given, settings, strategies as st

from exactdp.certificate import Certificate, Verdict
from exactdp.errors import InvalidInput
from exactdp.exact.level import Level
from exactdp.metrics import grid, path
from exactdp.recheck import recheck
from exactdp.priors.regular import tight_constraints
from exactdp.utility.grid import (compare_utilities, geometric_utility, outward_decimals,
                                         planar_laplace_utility, tight_utility)


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _F(q) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def _brute_laplace(N, eps):
    """(1/n) sum_z max_x e^(-beta d(x,z)) / Z_x over all n^2 pairs, as one ball at 200 bits (independent)."""
    with ctx.workprec(200):
        beta = arb(fmpq(eps)) / 2
        pts = [(i, j) for i in range(N) for j in range(N)]
        w = {}

        def k(x, z):
            s = (x[0] - z[0]) ** 2 + (x[1] - z[1]) ** 2
            if s not in w:
                w[s] = (-beta * arb(s).sqrt()).exp()
            return w[s]
        Z = {x: sum((k(x, z) for z in pts), arb(0)) for x in pts}
        total = arb(0)
        arg = {}
        for z in pts:
            vals = [(k(x, z) / Z[x], x) for x in pts]
            best = max(vals, key=lambda t: t[0].mid())
            arg[z] = best[1]
            total += best[0]
        return total / len(pts), arg


def _meets(lo, hi, ball) -> bool:
    """Does the exact interval [lo, hi] meet the ball (compared at 300 bits, so the rationals stay exact)?"""
    with ctx.workprec(300):
        return arb(lo) <= ball.upper() and ball.lower() <= arb(hi)


@pytest.mark.parametrize("N, eps", [(1, "1"), (2, "1"), (3, "2/5"), (4, "1"), (5, "2/5"), (6, "3"), (7, "1/10")])
def test_laplace_enclosure_contains_the_brute_force_value(N, eps):
    r = planar_laplace_utility(N, eps)
    brute, _ = _brute_laplace(N, eps)
    assert r.lo <= r.hi and r.hi - r.lo < fmpq(1, 10**20)
    assert _meets(r.lo, r.hi, brute)      # the true value is in both
    assert sum(s for _, _, s in r.reps) == N * N


@pytest.mark.parametrize("N, eps", [(5, "1/20"), (7, "1/10"), (6, "2/5"), (4, "3")])
def test_the_column_maximum_is_on_the_diagonal(N, eps):
    # the triangle-inequality lemma behind step 3 (Z_x >= e^(-beta d(x,z)) Z_z), checked by brute force
    _, arg = _brute_laplace(N, eps)
    assert all(arg[z] == z for z in arg)


def test_laplace_exact_at_the_2_by_2_grid():
    with ctx.workprec(200):
        e = arb(fmpq(1, 2))
        want = 1 / (1 + 2 * (-e).exp() + (-e * arb(2).sqrt()).exp())
    r = planar_laplace_utility(2, "1")
    assert _meets(r.lo, r.hi, want)


def test_laplace_utility_grows_with_eps():
    a, b = planar_laplace_utility(10, "1/2"), planar_laplace_utility(10, "1")
    assert a.hi < b.lo


@pytest.mark.parametrize("side, eps, match", [(0, "1", "side: expected an integer 1..400"),
                                              (401, "1", "side: expected an integer"),
                                              ("3", "1", "side: expected an integer"),
                                              (True, "1", "side: expected an integer"),
                                              (3, "0", "eps: expected a rational > 0"),
                                              (3, "-1/2", "eps: expected a rational > 0")])
def test_laplace_bad_input(side, eps, match):
    with pytest.raises(InvalidInput, match=match):
        planar_laplace_utility(side, eps)


def test_tight_utility_exact_and_verified():
    # rational level: z = (2/3, 1/3, 2/3) on the path of 3 points, utility 5/9 (ECP14 Thm 2)
    lo, hi, cells = tight_utility(tight_constraints(path(3), Level.from_alpha("1/2")))
    assert lo == hi == fmpq(5, 9) and [c[0] for c in cells] == [1, 1, 1]
    # transcendental level: the closed form z = 1/(1+a) at the ends and (1-a)/(1+a) inside (ECP14 sec. 6.1)
    c = tight_constraints(path(8), Level.from_eps("1/2"))
    lo, hi, cells = tight_utility(c)
    with ctx.workprec(200):
        a = (-arb(fmpq(1, 2))).exp()
        want = (2 + 6 * (1 - a)) / (1 + a) / 8
    assert _meets(lo, hi, want) and sum(c[0] for c in cells) == 8


def test_tight_utility_refuses_what_is_not_an_existing_tight_mechanism():
    from exactdp import certify_privacy, geometric
    failing = tight_constraints(grid((5, 5), "euclidean"), Level.from_eps("1/5"))
    assert failing.holds is False
    for bad in (failing, certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")):
        with pytest.raises(InvalidInput, match="cert: expected a tight certificate that holds"):
            tight_utility(bad)


def test_geometric_utility_closed_form():
    with ctx.workprec(200):
        a = (-arb(1)).exp()
        two = 1 / (1 + a)                                   # N = 2: both columns' maxima 1/(1+a)
        ten = (2 / (1 + a) + 8 * (1 - a) / (1 + a)) / 10
    lo, hi = geometric_utility(2, "1")
    assert _meets(lo, hi, two)
    lo, hi = geometric_utility(10, "5", step=5, power=2)   # eps/step = 1, squared
    assert _meets(lo, hi, ten * ten)
    with pytest.raises(InvalidInput, match="geometric_utility: expected eps > 0"):
        geometric_utility(1, "1")


def test_outward_decimals():
    assert outward_decimals(fmpq(1, 3), fmpq(2, 3), 3) == ("0.333", "0.667")
    assert outward_decimals(fmpq(-1, 3), fmpq(1, 8), 2) == ("-0.34", "0.13")
    assert outward_decimals(fmpq(1, 4), fmpq(1, 4), 2) == ("0.25", "0.25")


@settings(max_examples=25, deadline=None)
@given(st.fractions(min_value=-10, max_value=10), st.fractions(min_value=0, max_value=10), st.integers(1, 8))
def test_outward_decimals_contain(lo, width, digits):
    a, b = fmpq(lo.numerator, lo.denominator), fmpq(lo.numerator, lo.denominator) + fmpq(width.numerator,
                                                                                           width.denominator)
    s, t = (Fraction(v) for v in outward_decimals(a, b, digits))
    assert s <= _F(a) and _F(b) <= t and t - s <= _F(b - a) + Fraction(2, 10**digits)


# -- the utility_comparison certificate ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def grid_cmp():
    m = grid((6, 6), "euclidean")
    tc = tight_constraints(m, Level.from_eps("2"))
    assert tc.holds is True
    return m, tc, compare_utilities("2", tc, "planar-laplace", {"side": 6})


def _set(path, fn):
    def tamper(j):
        d = j["evidence"]
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = fn(d[path[-1]])
    return tamper


def _swap_cells(cell_of):
    # move one corner point into the cell of the centre: the partition is no longer equitable
    out = list(cell_of)
    out[0] = out[14]
    return out


TAMPER = [_set(["margin"], lambda v: str(Fraction(v) + Fraction(1, 10**12))),
          _set(["other_utility", 1], lambda v: "0.000000000001"),
          _set(["other_params", "side"], lambda v: v + 1),
          _set(["tight_utility", 0], lambda v: "0.9"),
          _set(["tight_utility", 1], lambda v: str(Fraction(v) - Fraction(1, 10**11))),
          _set(["eps"], lambda v: "3"),
          _set(["points"], lambda v: v + 1),
          _set(["metric", "shape"], lambda v: [v[0], v[1] + 1]),
          _set(["metric", "norm"], lambda v: "manhattan"),
          _set(["metric", "kind"], lambda v: "torus"),
          _set(["tight", "cell_of"], _swap_cells),
          _set(["tight", "center", "mantissas", 0], lambda v: str(int(v) * 1001 // 1000)),
          _set(["tight", "center", "exp"], lambda v: v + 3)]


def test_comparison_holds_round_trip_recheck_and_tampering(grid_cmp):
    _m, tc, c = grid_cmp
    assert c.verdict is Verdict.HOLDS and Fraction(c.evidence.margin) > 0
    assert c.evidence.metric.to_json() == {"kind": "grid", "shape": [6, 6], "norm": "euclidean", "points": None,
                                           "reach": None}
    assert c.evidence.points == 36
    lo, hi, _ = tight_utility(tc)
    assert Fraction(c.evidence.tight_utility[0]) <= _F(lo) and _F(hi) <= Fraction(c.evidence.tight_utility[1])
    lap = planar_laplace_utility(6, "2")
    assert Fraction(c.evidence.other_utility[0]) <= _F(lap.lo) and _F(lap.hi) <= Fraction(c.evidence.other_utility[1])
    j = c.to_json()
    with open(os.path.join(ROOT, "schema", "certificate.schema.json"), encoding="utf-8") as f:
        jsonschema.validate(j, json.load(f))                   # the schema file in the repository
    assert Certificate.from_json(json.dumps(j)) == c
    got = recheck(json.dumps(j))
    assert got.status == "confirmed" and "re-derived on the" in got.detail, got.detail
    for tamper in TAMPER:
        bad = copy.deepcopy(j)
        tamper(bad)
        r = recheck(bad)
        assert r.status == "refuted", (r.detail, bad["evidence"]["margin"])
    flipped = copy.deepcopy(j)
    flipped["verdict"] = "fails"
    assert recheck(flipped).status == "refuted"
    assert "**Verdict.** holds" in c.to_markdown() and r"\begin{proof}" in c.to_latex() and "$" not in c.to_text()
    assert "triangle inequality" in c.to_markdown() and "Z_{\\min}" not in c.to_markdown()


def test_the_reviewers_forged_fails_is_refuted():
    # issue 7 review: the 3 x 3 docstring certificate, with the tight utility set to 0 and the verdict to fails;
    # the re-check used to re-sum only the certificate's own cell enclosures and confirmed it
    tc = tight_constraints(grid((3, 3), "euclidean"), Level.from_eps("2"))
    j = compare_utilities("2", tc, "planar-laplace", {"side": 3}).to_json()
    ev = j["evidence"]
    ev["tight_utility"], j["verdict"], ev["margin"] = ["0", "0"], "fails", "-" + ev["other_utility"][1]
    r = recheck(j)
    assert r.status == "refuted" and "not inside the stated tight-constraints enclosure" in r.detail


def _forge(j, **fields):
    from exactdp.recheck.utility_comparison import claim_text

    bad = copy.deepcopy(j)
    bad["evidence"].update(fields)
    bad["claim"] = claim_text(bad)      # a consistent claim: only the forged field is wrong (issue 18)
    return bad


def test_malformed_evidence_is_refuted_not_a_crash(grid_cmp):
    j = grid_cmp[2].to_json()
    cases = [(_forge(j, points=0), "counts 0 points"),
             (_forge(j, eps="1/0"), "eps is not a rational number"),
             (_forge(j, eps="-1"), "eps is not positive"),
             (_forge(j, other="geometric", other_params={"side": None, "values": 36, "step": 0, "power": 1}),
              "step is not|values\\^power"),
             (_forge(j, other="geometric", other_params={"side": None, "values": 1, "step": 1, "power": 1}),
              "values is not|values\\^power"),
             (_forge(j, other_params={"side": 0, "values": None, "step": None, "power": None}),
              "side is not|side x side"),
             (_forge(j, other="laplace"), "unknown mechanism"),
             (_forge(j, tight={**j["evidence"]["tight"], "cell_of": [0] * 36}), "not equitable|different sizes"),
             (_forge(j, tight={**j["evidence"]["tight"], "cell_of": []}), "different sizes")]
    for bad, match in cases:
        r = recheck(bad)
        assert r.status == "refuted", (match, r.detail)
        assert re.search(match, r.detail), (match, r.detail)


def test_without_the_inverse_a_grid_is_rederived(grid_cmp, monkeypatch):
    # a quotient above the carried-inverse cap (as the 1,275-cell 100 x 100 grid of ECP14 sec. 7.2): made here
    # by lowering the cap, so the tight certificate carries no y~ and no R.  On a described grid the re-check
    # derives the orbit quotient and the whole verified solve itself (issue 19)
    from exactdp.priors import regular
    monkeypatch.setattr(regular, "MAX_CARRIED_INVERSE", 2)
    m = grid((6, 6), "euclidean")
    tc = tight_constraints(m, Level.from_eps("2"))
    c = compare_utilities("2", tc, "planar-laplace", {"side": 6})
    assert c.holds is True and c.evidence.tight.inverse is None and c.evidence.cells == 6
    r = recheck(c.to_json())
    assert r.status == "confirmed" and "symmetry orbits" in r.detail, r.detail
    # dropping the inverse from a confirmed certificate does not let a forged tight utility through
    j = grid_cmp[2].to_json()
    j["evidence"]["tight"]["inverse"] = None
    assert recheck(j).status == "confirmed"
    lo, hi = (Fraction(v) for v in j["evidence"]["tight_utility"])
    forged = _forge(j, tight_utility=[str(lo + Fraction(1, 10**6)), str(hi + Fraction(1, 10**6))],
                    margin=str(lo + Fraction(1, 10**6) - Fraction(j["evidence"]["other_utility"][1])))
    r = recheck(forged)
    assert r.status == "refuted" and "not inside the stated" in r.detail, r.detail
    # a partition other than the symmetry orbits (a hint) is not used by this route
    odd = _forge(j, tight={**j["evidence"]["tight"], "cell_of": list(range(36))}, cells=36)
    assert recheck(odd).status == "not checkable"


def _reach_path(n, reach):
    import networkx as nx
    from exactdp.metrics import from_graph
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((i, j) for i in range(n) for j in range(i + 1, min(n, i + reach + 1)))
    return from_graph(G)


def test_comparison_fails_honestly_and_is_confirmed():
    # on the path whose points within 2 steps are adjacent, d(i, j) = ceil(|i - j|/2) <= |i - j|: the geometric
    # mechanism with alpha = e^(-eps) is only eps|i - j|-private, a weaker guarantee than eps d, and its
    # utility is higher than the tight-constraints mechanism's -- a true FAILS, re-derived by the re-check
    tc = tight_constraints(_reach_path(10, 2), Level.from_eps("1"))
    spec = {"kind": "path", "points": 10, "reach": 2}
    c = compare_utilities("1", tc, "geometric", {"values": 10, "step": 1, "power": 1}, metric=spec)
    assert c.verdict is Verdict.FAILS and Fraction(c.evidence.margin) < 0
    with ctx.workprec(200):        # closed form of the geometric utility, independently (ECP14 sec. 7.1)
        a = (-arb(1)).exp()
        want = (2 / (1 + a) + 8 * (1 - a) / (1 + a)) / 10
    lo, hi = (Fraction(v) for v in c.evidence.other_utility)
    assert _meets(fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator), want)
    r = recheck(c.to_json())
    assert r.status == "confirmed" and "verdict fails" in r.detail, r.detail
    assert "**Verdict.** fails" in c.to_markdown()


def test_comparison_geometric_undecided():
    m = path(12)
    tc = tight_constraints(m, Level.from_eps("1"))
    g = geometric_utility(12, "1")
    c = compare_utilities("1", tc, "geometric", {"values": 12, "step": 1, "power": 1},
                          metric={"kind": "path", "points": 12, "reach": 1})
    # on a path the tight-constraints mechanism IS the truncated geometric one (ECP14 sec. 6.1): equal utilities
    assert c.verdict is Verdict.UNDECIDED and "overlap" in c.reason
    lo, hi, _ = tight_utility(tc)
    assert lo <= g[1] and g[0] <= hi
    assert recheck(c.to_json()).status == "not checkable"


@pytest.mark.parametrize("args, kwargs, match", [
    (("2", "laplace", {"side": 6}), {}, "other: expected 'planar-laplace' or 'geometric'"),
    (("0", "planar-laplace", {"side": 6}), {}, "eps: expected a rational > 0"),
    (("2", "planar-laplace", {"side": 0}), {}, "params: expected 'side' a positive integer"),
    (("2", "planar-laplace", {"side": True}), {}, "params: expected 'side' a positive integer"),
    (("2", "planar-laplace", {"sides": 6}), {}, r"params: expected the keys \['side'\]"),
    (("2", "planar-laplace", {"side": 5}), {}, "tight_cert: its distances are not those of the 5 x 5 grid"),
    (("2", "planar-laplace", {"side": 6}), {"metric": {"kind": "grid", "shape": [6, 6], "norm": "manhattan"}},
     "metric: the planar Laplace mechanism lives on"),
    (("2", "geometric", {"values": 36, "step": 1, "power": 1}), {}, "metric: expected"),
    (("2", "geometric", {"values": 6, "step": 1, "power": 2}),
     {"metric": {"kind": "grid", "shape": [6, 6], "norm": "chebyshev"}}, "tight_cert: its distances are not"),
    (("1", "planar-laplace", {"side": 6}), {}, "tight_cert: expected a tight certificate at eps = 1")])
def test_comparison_bad_input(grid_cmp, args, kwargs, match):
    eps, other, params = args
    with pytest.raises(InvalidInput, match=match):
        compare_utilities(eps, grid_cmp[1], other, params, **kwargs)


def test_comparison_refuses_a_tight_certificate_on_another_metric():
    # issue 7 review: a tight certificate on path(4) compared with planar Laplace on the 30 x 30 grid
    tc = tight_constraints(path(4), Level.from_eps("2"))
    with pytest.raises(InvalidInput, match="tight_cert: its distances are not those of the 30 x 30 grid"):
        compare_utilities("2", tc, "planar-laplace", {"side": 30})
    with pytest.raises(InvalidInput, match="tight_cert: expected a tight certificate at eps"):
        compare_utilities("2", certify_privacy_cert(), "planar-laplace", {"side": 3})


def certify_privacy_cert():
    from exactdp import certify_privacy, geometric
    return certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")


def test_recheck_laplace_meets_the_brute_force():
    import mpmath
    from fractions import Fraction
    from exactdp.recheck.utility_comparison import _laplace
    saved = mpmath.iv.prec
    try:
        mpmath.iv.prec = 100
        u = _laplace(Fraction(1, 10), {"side": 7})
    finally:
        mpmath.iv.prec = saved
    lo, hi = (fmpq(*mpmath.libmp.to_rational(e)) for e in u._mpi_)
    brute, _ = _brute_laplace(7, "1/10")
    assert _meets(lo, hi, brute) and hi - lo < fmpq(1, 10**20)




@pytest.mark.parametrize("N, eps", [(3, "2"), (4, "3/2"), (5, "2")])
def test_tight_utility_against_a_direct_ball_solve(N, eps):
    # independent of the quotient and of Rump's bound: the full n x n system Phi z = 1 solved in Arb balls
    from flint import arb_mat
    m = grid((N, N), "euclidean")
    c = compare_utilities(eps, tight_constraints(m, Level.from_eps(eps)), "planar-laplace", {"side": N})
    pts = [(i, j) for i in range(N) for j in range(N)]
    with ctx.workprec(200):
        e = arb(fmpq(eps))
        Phi = arb_mat([[(-e * arb((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2).sqrt()).exp() for q in pts] for p in pts])
        z = Phi.solve(arb_mat([[1]] * len(pts)))
        want = sum((z[i, 0] for i in range(len(pts))), arb(0)) / len(pts)
    lo, hi = (Fraction(v) for v in c.evidence.tight_utility)
    assert _meets(fmpq(lo.numerator, lo.denominator), fmpq(hi.numerator, hi.denominator), want)
    assert recheck(c.to_json()).status == "confirmed"
