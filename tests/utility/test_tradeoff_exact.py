"""Issue 19 item 2: KL10 Def. 2.3's eps*(gamma, delta) exactly, its certificate and the kernel's re-check.

Independent derivations used here:

* the discrete metric on k points with a ball holding only its centre (open, gamma <= 1): a t-private mechanism
  averaged over the k! permutations of the points stays t-private and its worst ball mass does not drop, so the
  optimum is randomized response M_x(x) = p, M_x(y) = (1 - p)/(k - 1) with p <= t (1 - p)/(k - 1); hence
  s*(t) = t/(t + k - 1) and s*(t*) = 1 - delta gives t* = (k - 1)(1 - delta)/delta (eps* = 0 when t* <= 1);
* other metrics: exact LPs (the project's verified LP solver, not the parametric code under test) at rationals
  within 1e-12 of t* on each side -- below, s* < 1 - delta; above, s* >= 1 - delta -- and sympy's root of the
  stated polynomial inside the stated interval.
"""

from __future__ import annotations

import contextlib
import copy
import json
from fractions import Fraction

import pytest
import sympy as sp
from flint import fmpq

from exactdp import InvalidInput, recheck
from exactdp.cli import main
from exactdp.metrics import cycle, discrete, path
from exactdp.recheck import _sturm
from exactdp.recheck._kernel import NotHere
from exactdp.recheck.utility import claim_text
from exactdp.utility.tradeoff import certify_tradeoff, utility_lp

T = sp.Symbol("t")


def _closed_form(k: int, delta: str) -> Fraction:
    d = Fraction(delta)
    return (k - 1) * (1 - d) / d


# ------------------------------------------------------------------------------------- discrete metric ----
@pytest.mark.parametrize("k,gamma,delta", [(2, "1", "1/3"), (3, "1/2", "1/4"), (3, "1", "1/5"), (4, "1", "1/10"),
                                           (5, "1/3", "1/2"), (6, "1", "2/7"), (3, "1", "2/3"), (4, "1", "9/10")])
def test_discrete_metric_is_the_closed_form(k, gamma, delta):
    t = _closed_form(k, delta)
    c = certify_tradeoff(discrete(k), gamma=gamma, delta=delta)
    want = f"log({t})" if t > 1 else "0"
    assert c.evidence.epsilon == want
    assert c.claim.startswith(f"eps*(gamma = {gamma}, delta = {delta}) = {want} on the discrete metric")
    if t > 1:
        assert c.evidence.polynomial == (f"t - {t}" if t.denominator == 1 else f"{t.denominator}*t - {t.numerator}")
        assert Fraction(c.evidence.t_lower) < t < Fraction(c.evidence.t_upper)
    r = recheck(c.to_json())
    assert r.status == "confirmed", r.detail


def test_the_issues_example_needs_two_lps():
    c = certify_tradeoff(discrete(3), gamma="1/2", delta="1/4")
    assert c.evidence.epsilon == "log(6)" and c.evidence.reason is None
    assert c.note.startswith("2 exact LPs")          # at t = 1 and t = 2 (it was 16 LPs and a bracket before)


# ---------------------------------------------------------------------------------------- other metrics ----
NON_DISCRETE = [  # metric, gamma, delta, ball, the expected degree of t*'s polynomial
    (path(3), "1", "1/2", "open", 1),
    (path(4), "1", "1/2", "open", 2),
    (path(4), "2", "1/5", "open", 2),
    (path(4), "1", "1/3", "closed", 2),
    (cycle(5), "1", "1/3", "open", 2),
]


def _root(ev) -> sp.Expr:
    P = sp.Poly(sp.sympify(ev["polynomial"].replace("^", "**"), locals={"t": T}), T)
    a, b = sp.Rational(ev["t_lower"]), sp.Rational(ev["t_upper"])
    roots = [r for r in sp.real_roots(P) if a < r < b]
    assert len(roots) == 1
    return roots[0]


@pytest.mark.parametrize("X,gamma,delta,ball,deg", NON_DISCRETE, ids=[f"{x[0].description[:8]}-{x[1]}-{x[2]}-{x[3]}"
                                                                     for x in NON_DISCRETE])
def test_non_discrete_exact_value_against_lps_next_to_it(X, gamma, delta, ball, deg):
    c = certify_tradeoff(X, gamma=gamma, delta=delta, ball=ball)
    ev = c.to_json()["evidence"]
    assert ev["polynomial"] is not None and sp.Poly(sp.sympify(ev["polynomial"].replace("^", "**")), T).degree() == deg
    r = _root(ev)
    if deg == 1:
        assert ev["epsilon"] == f"log({r})"
    else:
        assert ev["epsilon"] == f"log(root of {ev['polynomial']} in ({ev['t_lower']}, {ev['t_upper']}))"
    target = 1 - fmpq(delta)
    eps = sp.Rational(1, 10**12)
    q = sp.Rational(int(sp.floor(r * 10**15)), 10**15)     # |q - r| < 1e-15
    below, above = q - eps, q + eps
    assert below < r < above
    lo = utility_lp(X, fmpq(int(below.p), int(below.q)), gamma=gamma, ball=ball).value
    hi = utility_lp(X, fmpq(int(above.p), int(above.q)), gamma=gamma, ball=ball).value
    assert lo < target <= hi
    res = recheck(c.to_json())
    assert res.status == "confirmed", res.detail


def test_path_of_four_is_one_plus_sqrt_two():
    # gamma = 1, delta = 1/2 on the path 0..3: t* = 1 + sqrt(2), checked at its rational neighbours above
    ev = certify_tradeoff(path(4), gamma="1", delta="1/2").to_json()["evidence"]
    assert sp.simplify(_root(ev) - (1 + sp.sqrt(2))) == 0


def test_bracket_fall_back_says_why_and_rechecks(monkeypatch):
    # a basis beyond the parametric solve's size limit (lowered here): exact LPs bisect to rel_width, and say why
    import exactdp.utility.tradeoff as tr
    monkeypatch.setattr(tr, "MAX_PARAMETRIC_COLUMNS", 5)
    c = certify_tradeoff(path(5), gamma="2", delta="1/4", rel_width="1/16")
    ev = c.evidence
    assert ev.epsilon is None and ev.polynomial is None and ev.parametric is None
    assert "basic columns" in ev.reason and "limited to 5" in ev.reason
    assert Fraction(ev.t_upper) - Fraction(ev.t_lower) <= Fraction(ev.t_lower) / 16
    assert c.claim == f"log({ev.t_lower}) < eps*(gamma = 2, delta = 1/4) <= log({ev.t_upper}) on the " \
                      f"{path(5).description} (open balls) for f = id into the {path(5).description}"
    assert recheck(c.to_json()).status == "confirmed"
    monkeypatch.undo()
    full = certify_tradeoff(path(5), gamma="2", delta="1/4")       # the exact value lies in that bracket
    t = _root(full.to_json()["evidence"])
    assert sp.Rational(ev.t_lower) < t <= sp.Rational(ev.t_upper)
    j = json.loads(json.dumps(c.to_json()))                         # a bracket may not claim a value
    j["evidence"]["epsilon"] = full.evidence.epsilon
    assert _caught(_with_claim(j))


def test_polynomials_beyond_the_kernel_give_a_bracket_that_says_so(monkeypatch):
    import exactdp.priors.parametric as tp
    monkeypatch.setattr(tp, "MAX_CERT_DEGREE", 1)
    c = certify_tradeoff(path(4), gamma="1", delta="1/2", rel_width="1/8")
    assert c.evidence.epsilon is None and "beyond the 1 the re-check kernel takes" in c.evidence.reason
    assert Fraction(c.evidence.t_lower) < Fraction(5, 2) and recheck(c.to_json()).status == "confirmed"


def test_the_search_stops_when_no_mechanism_is_found(monkeypatch):
    import exactdp.utility.tradeoff as tr
    monkeypatch.setattr(tr, "MAX_PARAMETRIC_COLUMNS", 0)
    with pytest.raises(InvalidInput, match="no private mechanism with this utility was found up to t = 4"):
        certify_tradeoff(discrete(3), gamma="1", delta="1/100", max_steps=3)       # t* = 198: 1, 2, 4 fail


# ------------------------------------------------------------------------------------------- the kernel ----
@pytest.mark.parametrize("coeffs", [[-1, -2, 1], [6, -5, 1], [1, 0, 1], [0, -3, 0, 1], [-2, 0, 0, 0, 1],
                                    [5, -25, 31, -9, 1], [-7, 2]])
def test_sturm_counts_against_sympy(coeffs):
    p = [Fraction(c) for c in coeffs]
    P = sp.Poly(list(reversed(coeffs)), T)
    for a, b in [(-10, 10), (0, 3), (Fraction(1, 3), Fraction(7, 2)), (2, 5)]:
        if P.eval(sp.Rational(str(a))) == 0 or P.eval(sp.Rational(str(b))) == 0:
            continue
        assert _sturm.roots_in(p, Fraction(a), Fraction(b)) == P.count_roots(sp.Rational(str(a)), sp.Rational(str(b)))


@pytest.mark.parametrize("text", ["t^2t", "2t", "(t)+1", "t + t", "0*t", "--t", "1 2", "", "t^2 -t", "1 + t",
                                  "t - 6x", "(t - 6)+1"])
def test_polynomial_texts_outside_the_form_are_refused(text):
    with pytest.raises(ValueError):
        _sturm.parse(text)


# ---------------------------------------------------------------------------------- mutations, forgeries ----
def _genuine(X, gamma, delta, ball="open"):
    return json.loads(json.dumps(certify_tradeoff(X, gamma=gamma, delta=delta, ball=ball).to_json()))


def _with_claim(j):
    # a mutated f or table no claim can state is refuted as it is
    with contextlib.suppress(ValueError, NotHere, LookupError, TypeError):
        j["claim"] = claim_text(j)
    return j


def _caught(j) -> bool:
    try:
        return recheck(j).status != "confirmed"
    except ValueError:
        return True


def _leaves(node, trail=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*trail, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, (*trail, i))
        for i in range(len(node)):
            yield trail, ("drop", i)
    elif node is not None:
        yield trail, ("leaf", node)


def _changed(v, poly: bool = False):
    if poly:                                      # a polynomial: another one, in the certificate's form
        p = _sturm.parse(v)
        return [_sturm.text(_sturm.add(p, [Fraction(1)])), _sturm.text(_sturm.add(p, [Fraction(0), Fraction(1)]))]
    if isinstance(v, bool):
        return [not v]
    if isinstance(v, int):
        return [v + 1]
    try:
        q = Fraction(v)
        return [str(q + Fraction(1, 7)) if q else "1/3"]
    except (ValueError, ZeroDivisionError):
        pass
    return [v + "x"]


def _mutants(j):
    for trail, (op, v) in _leaves(j["evidence"], ("evidence",)):
        if trail[1] == "reason" or trail[1:3] == ("metric", "reduction"):
            continue                              # the hint; the metric's reduction text (trustA's record)
        values = [None] if op == "drop" else _changed(v, trail[1] in ("parametric", "polynomial"))
        for w in values:
            m = copy.deepcopy(j)
            d = m
            for k in trail[:-1] if op == "leaf" else trail:
                d = d[k]
            if op == "drop":
                del d[v]
            else:
                d[trail[-1]] = w
            yield trail, op, _with_claim(m) if op == "leaf" else m


_LABELS = {"inputs", "outputs", "labels", "points"}


@pytest.mark.parametrize("case", [(discrete(3), "1/2", "1/4"), (path(4), "1", "1/2")], ids=["discrete3", "path4"])
def test_every_leaf_mutation_is_refuted(case):
    j = _genuine(*case)
    assert recheck(j).status == "confirmed"
    missed = []
    for trail, op, m in _mutants(j):
        if _caught(m):
            continue
        if op == "leaf" and isinstance(trail[-2], str) and trail[-2] in ("y", "lam") and trail[1] != "parametric":
            continue                              # another valid dual at an end point: a true fact, re-verified
        if any(t in _LABELS for t in trail if isinstance(t, str)):
            continue                              # a relabelling nothing else refers to
        if trail == ("evidence", "metric", "description"):
            continue                              # trustA's metric record (its text is not re-derived there)
        if trail == ("evidence", "output_description") and "into sigma on [" in m["claim"]:
            continue                              # a name, not a family: the claim then states the table itself
        if trail == ("evidence", "gamma") and _balls(m) == _balls(j):
            continue                              # another gamma with the same balls: the same, true, value
        missed.append((trail, op))
    assert not missed, missed


def _balls(j):
    ev = j["evidence"]
    g = Fraction(ev["gamma"])
    return [[Fraction(s) < g or (ev["ball"] == "closed" and Fraction(s) == g) for s in row] for row in ev["sigma"]]


def _refuted(j, why=""):
    r = recheck(_with_claim(j))
    assert r.status == "refuted", r.detail
    assert why in r.detail, r.detail


def test_forged_rational_root_inside_the_interval_is_refuted():
    j = _genuine(path(4), "1", "1/2")             # t* = 1 + sqrt(2) in (7/3, 5/2)
    ev = j["evidence"]
    ev["polynomial"], ev["epsilon"] = "5*t - 12", "log(12/5)"
    _refuted(j, "does not divide")


def test_forged_other_root_of_the_polynomial_is_refuted():
    j = _genuine(path(4), "1", "1/2")             # t^2 - 2t - 1: the other root is 1 - sqrt(2)
    ev = j["evidence"]
    for name, t in (("lower", "-1"), ("upper", "0")):
        ev[f"t_{name}"] = t
    ev["epsilon"] = "log(root of t^2 - 2*t - 1 in (-1, 0))"
    ev["epsilon_bracket"] = ["log(-1)", "log(0)"]
    ev["mechanism"]["name"] = "optimal mechanism at t = 0"
    _refuted(j)


def test_forged_wider_interval_where_the_basis_is_not_optimal_is_refuted():
    # the same true root, but the interval reaches t = 1, where this basis is not feasible: the proof fails
    j = _genuine(path(4), "1", "1/2")
    from exactdp.utility.tradeoff import _lp_data
    u = utility_lp(path(4), fmpq(1), gamma="1")
    ev = j["evidence"]
    ev.update(t_lower="1", s_lower=str(u.value), lp_lower=json.loads(json.dumps(_lp_data(u).to_json())),
              epsilon_bracket=["log(1)", ev["epsilon_bracket"][1]],
              epsilon=f"log(root of t^2 - 2*t - 1 in (1, {ev['t_upper']}))")
    _refuted(j, "is not positive at t = 1")


def test_forged_interval_without_the_root_is_refuted():
    # a self-consistent bracket (LPs recomputed at the new ends) that misses t* = 2.414...: the ends contradict it
    from exactdp.utility.tradeoff import _lp_data
    j = _genuine(path(4), "1", "1/2")
    assert j["evidence"]["polynomial"] == "t^2 - 2*t - 1"
    ulo, uhi = utility_lp(path(4), fmpq(5, 2), gamma="1"), utility_lp(path(4), fmpq(3), gamma="1")
    j["evidence"].update(t_lower="5/2", t_upper="3", s_lower=str(ulo.value), s_upper=str(uhi.value),
                         lp_lower=json.loads(json.dumps(_lp_data(ulo).to_json())),
                         lp_upper=json.loads(json.dumps(_lp_data(uhi).to_json())), mechanism=_mech_json(uhi),
                         epsilon_bracket=["log(5/2)", "log(3)"],
                         epsilon="log(root of t^2 - 2*t - 1 in (5/2, 3))")
    _refuted(j)


def _mech_json(u):
    from exactdp.certificate import mechanism_data
    return json.loads(json.dumps(mechanism_data(u.mechanism).to_json()))


def test_forged_parametric_solution_is_refuted():
    j = _genuine(path(4), "1", "1/2")
    par = j["evidence"]["parametric"]
    par["denominator"] = _sturm.text(_sturm.scale(_sturm.parse(par["denominator"]), 2))   # halves every x_j
    _refuted(j, "equality row")


def test_cli_json_returns_the_exact_value(tmp_path, capsys):
    m = tmp_path / "d3.json"
    m.write_text(json.dumps({"kind": "discrete", "points": ["a", "b", "c"]}))
    rc = main(["tradeoff", "--metric", str(m), "--gamma", "1/2", "--delta", "1/4", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["evidence"]["epsilon"] == "log(6)" and recheck(out).status == "confirmed"


def test_the_claims_comparison_with_an_algebraic_eps_star():
    """KL10-thm3.4 compares a mechanism's log(q) with eps* = log t*, t* = (-1 + sqrt 21)/2 = 1.79128... (the root
    of t^2 + t - 5 in (7/4, 11/6)), by the sign of the polynomial: no sympify."""
    from types import SimpleNamespace

    from exactdp.papers.kl10 import _exceeds

    tr = SimpleNamespace(epsilon="log(root)", polynomial="t^2 + t - 5", t_lower="7/4", t_upper="11/6")
    assert _exceeds("log(9/5)", tr) is True          # 1.8 > 1.7913
    assert _exceeds("log(179/100)", tr) is False     # 1.79 < 1.7913
    assert _exceeds("log(2)", tr) is True and _exceeds("log(3/2)", tr) is False
    assert _exceeds("log(sqrt(2))", tr) is False     # not log of a rational: no claim made
    assert _exceeds("log(2)", SimpleNamespace(epsilon="0")) is True


# ---------------------------------------------------- disconnected metrics (audit 2026-11-24, defect 2) ----
def _graph(nodes, edges):
    import networkx as nx

    from exactdp.metrics import from_graph
    G = nx.Graph()
    G.add_nodes_from(nodes)
    G.add_edges_from(edges)
    return from_graph(G)


@pytest.mark.parametrize("delta", ["1/2", "1/4", "1/10", "2/3"])
def test_two_components_are_two_copies_of_the_two_point_metric(delta):
    # before: the distance inf between components reached the exact ball test as a float (TypeError, exit 4).
    # Singleton balls (gamma = 1, open); a mechanism gains nothing by sending mass across a component, so each
    # component {0, 1}, {2, 3} is the discrete metric on 2 points: t* = (1 - delta)/delta (closed form), or 1
    t = max(_closed_form(2, delta), Fraction(1))
    c = certify_tradeoff(_graph("0123", [("0", "1"), ("2", "3")]), gamma="1", delta=delta)
    assert c.evidence.epsilon == (f"log({t})" if t > 1 else "0")


def test_no_edges_need_no_privacy_budget():
    # with no edges every mechanism is private at t = 1: the identity mechanism has utility 1 > 1 - delta
    for g in ("1", "1/2", "5"):
        c = certify_tradeoff(_graph("01", []), gamma=g, delta="1/2")
        assert c.holds is True and c.evidence.epsilon == "0"


def test_two_components_recheck():
    # the kernel reads sigma = inf between components (outside every ball); a finite sigma there is refuted
    c = certify_tradeoff(_graph("0123", [("0", "1"), ("2", "3")]), gamma="1", delta="1/4")
    j = c.to_json()
    assert recheck(j).status == "confirmed"
    j["evidence"]["sigma"][0][2] = "5"
    assert recheck(j).status == "refuted"
