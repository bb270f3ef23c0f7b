"""Kinds ``renyi``, ``fdp`` and ``audit`` (issue 22): genuine certificates confirmed, forgeries refuted, hostile
sizes answered fast, the sums and trade-off vertices against independent brute force, the command line's JSON.

The one-field mutation harness covers these kinds through their genuine certificates in
``tests/test_recheck_contract.py`` (GENUINE); this file adds the forgeries that keep the claim sentence and the
evidence self-consistent (only the mathematics is wrong), and the brute-force comparisons.
"""

from __future__ import annotations

import copy
import importlib
import json
import time
from fractions import Fraction as Fr
from itertools import product

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Mechanism, geometric, path
from exactdp.cli import main
from exactdp.mechanisms import discrete_gaussian, randomized_response
from exactdp.metrics import discrete
from exactdp.recheck import KINDS, recheck
from exactdp.interop.audit import certify_audit
from exactdp.divergences.fdp import certify_fdp
from exactdp.divergences.renyi import certify_renyi

K = Mechanism.from_rows(["0", "1"], ["a", "b", "c"], [["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]])


def j(c) -> dict:
    return json.loads(json.dumps(c.to_json()))


def reclaim(c: dict) -> dict:
    """The claim rebuilt from the (forged) evidence, so that only the mathematics is wrong."""
    c["claim"] = importlib.import_module(f"exactdp.recheck.{KINDS[c['kind']]}").claim_text(c)
    return c


# ------------------------------------------------------------------------------------------- genuine ----
@pytest.mark.parametrize("make", [
    lambda: certify_renyi(K, [("0", "1")], [2, 3, 5], delta="1/1000"),
    lambda: certify_renyi(geometric(2, "exp(-1/2)"), path(3), [2, 3], delta="1/100"),
    lambda: certify_renyi(randomized_response(3, p="0"), discrete(3), [2], delta="1/2"),    # rho = inf
    lambda: certify_renyi(discrete_gaussian(4, sigma2="2"), path(5), [2, 3], delta="1/1000"),  # transcendental
    lambda: certify_fdp(K, [("0", "1")]),
    lambda: certify_fdp(K, [("0", "1")], times=3, mu="2"),
    lambda: certify_fdp(geometric(2, "exp(-1/2)"), path(3)),
    lambda: certify_fdp(randomized_response(2, p="1/2"), [("0", "1")]),                      # mu* = 0 exactly
    lambda: certify_fdp(Mechanism.from_rows(["0", "1"], ["a", "b", "c"],                     # f(a) = 0 inside
                                            [["1/2", "1/2", "0"], ["0", "1/2", "1/2"]]), [("0", "1")]),
    lambda: certify_audit([(K, 3), (randomized_response(2, p="1/3"), 2)], [("0", "1")], eps="1/2", delta="1/2"),
    lambda: certify_audit([(geometric(2, "exp(-1/2)"), 2)], path(3), eps="1", delta="1/100"),
])
def test_genuine_confirmed(make):
    c = make()
    r = recheck(j(c))
    assert r.status == "confirmed", r.detail


def test_renyi_infinite_values():
    c = certify_renyi(randomized_response(3, p="0"), discrete(3), [2, 3], delta="1/2")
    assert [(o.sum, o.value) for o in c.evidence.orders] == [("inf", "inf"), ("inf", "inf")]
    assert c.evidence.conversion.epsilon == "inf"


def test_fdp_special_brackets():
    zero = certify_fdp(randomized_response(2, p="1/2"), [("0", "1")]).evidence.mu
    assert (zero.lo, zero.hi, zero.exact) == ("0", "0", True)
    none = certify_fdp(Mechanism.from_rows(["0", "1"], ["a", "b"], [["1", "0"], ["1/2", "1/2"]]),
                       [("0", "1")]).evidence.mu
    assert none.hi is None and none.exact is False


# ----------------------------------------------------------------------------------------- forgeries ----
def test_renyi_false_divergence_made_self_consistent():
    c = j(certify_renyi(K, [("0", "1")], [2, 3]))
    o = c["evidence"]["orders"][0]
    assert o["sum"] == "55/24"     # (1/2)^2/(1/8) + (1/4)^2/(3/8) + (1/4)^2/(1/2) = 2 + 1/6 + 1/8 (by hand below)
    for forged in ("51/32", "3", "55/23"):
        f = copy.deepcopy(c)
        f["evidence"]["orders"][0].update(sum=forged, value=f"log({forged})")
        assert recheck(reclaim(f)).status == "refuted", forged


def test_renyi_sum_by_hand():
    # rho(2) = max(D_2(P||Q), D_2(Q||P)); P = (1/2, 1/4, 1/4), Q = (1/8, 3/8, 1/2)
    pq = Fr(1, 4) / Fr(1, 8) + Fr(1, 16) / Fr(3, 8) + Fr(1, 16) / Fr(1, 2)     # 2 + 1/6 + 1/8 = 55/24
    qp = Fr(1, 64) / Fr(1, 2) + Fr(9, 64) / Fr(1, 4) + Fr(1, 4) / Fr(1, 4)      # 1/32 + 9/16 + 1 = 51/32
    assert max(pq, qp) == Fr(55, 24)
    o = certify_renyi(K, [("0", "1")], [2]).evidence.orders[0]
    assert (o.sum, o.value, (o.x, o.x_prime)) == ("55/24", "log(55/24)", ("0", "1"))


def test_renyi_forged_witness_and_conversion():
    c = j(certify_renyi(K, [("0", "1")], [2, 3, 5], delta="1/1000"))
    f = copy.deepcopy(c)
    f["evidence"]["orders"][0].update(x="1", x_prime="0")          # D_2(Q||P) = log(51/32) < log(55/24)
    assert recheck(reclaim(f)).status == "refuted"
    cv = c["evidence"]["conversion"]
    for k, o in zip((2, 3, 5), c["evidence"]["orders"], strict=True):
        if k == cv["order"]:
            continue
        f = copy.deepcopy(c)
        s = Fr(o["sum"]) / Fr(cv["delta"])
        f["evidence"]["conversion"].update(order=k, epsilon=f"log({s})" + ("" if k == 2 else f"/{k - 1}"))
        assert recheck(reclaim(f)).status == "refuted", k                 # a worse order, written consistently


def test_fdp_bracket_moved():
    c = j(certify_fdp(K, [("0", "1")]))
    lo, hi = Fr(c["evidence"]["mu"]["lo"]), Fr(c["evidence"]["mu"]["hi"])
    for new_lo, new_hi in ((lo - Fr(1, 10), lo - Fr(1, 20)),    # the upper end below mu*: f >= G_hi fails
                           (hi + Fr(1, 20), hi + Fr(1, 10)),    # the lower end above mu*: f < G_lo fails
                           (hi, hi)):                           # a zero-width bracket at a rational
        f = copy.deepcopy(c)
        f["evidence"]["mu"].update(lo=str(new_lo), hi=str(new_hi))
        assert recheck(reclaim(f)).status == "refuted", (new_lo, new_hi)
    f = copy.deepcopy(c)
    f["evidence"]["mu"].update(lo="0", hi="0", exact=True)
    assert recheck(reclaim(f)).status == "refuted"
    f = copy.deepcopy(c)
    f["evidence"]["mu"].update(lo="0", hi=None, exact=False)
    assert recheck(reclaim(f)).status == "refuted"


def test_fdp_vertex_moved():
    c = j(certify_fdp(K, [("0", "1")]))
    f = copy.deepcopy(c)
    f["evidence"]["vertices"][1]["b"] = str(Fr(f["evidence"]["vertices"][1]["b"]) + Fr(1, 100))
    assert recheck(reclaim(f)).status == "refuted"
    f = copy.deepcopy(c)
    del f["evidence"]["vertices"][1]
    assert recheck(reclaim(f)).status == "refuted"


def test_fdp_query_verdict_forged():
    c = j(certify_fdp(K, [("0", "1")], mu="2"))
    assert c["verdict"] == "holds"
    f = copy.deepcopy(c)
    f["verdict"] = "fails"
    assert recheck(f).status == "refuted"
    f = copy.deepcopy(c)
    f["evidence"]["mu_query"] = "1/10"                  # f >= G_{1/10} is false, the verdict says holds
    assert recheck(reclaim(f)).status == "refuted"


def test_audit_delta_claimed_below_the_exact_one():
    c = j(certify_audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/3"))
    ev = c["evidence"]
    assert (c["verdict"], ev["delta_exact"], ev["slack"]) == ("fails", "3/8", "-1/24")   # KOV: 3/8 at log 3, k = 2
    f = copy.deepcopy(c)
    f["verdict"] = "holds"
    f["evidence"].update(delta_exact="1/3", slack="0")
    assert recheck(reclaim(f)).status == "refuted"
    f = copy.deepcopy(c)
    f["evidence"].update(slack="1/24")
    assert recheck(reclaim(f)).status == "refuted"


# ----------------------------------------------------------------------------------------- hostile ----
def _timed(cert: dict):
    t = time.process_time()
    r = recheck(cert)
    return r, time.process_time() - t


def test_hostile_sizes_answered_fast():
    base = j(certify_renyi(K, [("0", "1")], [2]))
    big = copy.deepcopy(base)                          # 256th powers of 10^5-bit numbers
    big["evidence"]["mechanism"].update(values=["1/2 + 1/7^4000", "1/4 - 1/7^4000", "1/4", "1/8", "3/8", "1/2"],
                                        codes=[[0, 1, 2], [3, 4, 5]])
    big["evidence"]["orders"][0]["order"] = 256
    big["method"] = "TRANSCENDENCE_BALLS"             # the values are written as expressions, not p/q
    r, s = _timed(reclaim(big))
    assert r.status == "not checkable" and "too large" in r.detail and s < 10
    n = 3000                                           # the discrete metric on 3,000 points: 4.5 million pairs
    wide = copy.deepcopy(base)
    ev = wide["evidence"]
    ev["mechanism"].update(inputs=[str(i) for i in range(n)], codes=[[0, 1, 2]] * n)
    ev["relation"]["metric"] = {"description": f"discrete metric on {n} points", "points": n,
                                "labels": [str(i) for i in range(n)], "pairs": [], "reduction": "", "all_pairs_at": "1",
                                "edges": None, "distances": None}
    r, s = _timed(reclaim(wide))
    assert r.status == "not checkable" and "too large" in r.detail and s < 10
    f = j(certify_fdp(K, [("0", "1")], times=2))
    f["evidence"]["times"] = 10**6
    r, s = _timed(reclaim(f))
    assert r.status == "not checkable" and "too large" in r.detail and s < 10
    a = j(certify_audit([(K, 2)], [("0", "1")], eps="log(2)", delta="1/2"))
    a["evidence"]["factors"][0]["times"] = 10**5
    r, s = _timed(reclaim(a))
    assert r.status == "not checkable" and "too large" in r.detail and s < 10


def test_big_rational_powers_answered_fast():
    # a 3 x 3 mechanism with 1,900-bit entries at order 256 (the kernel's largest): adding fractions of half a
    # million bits costs gcds quadratic in the size (40 s before the squared-bits bound); now refused at once,
    # while the same mechanism at order 2 is re-derived
    big = 7**677                                                         # 1,900 bits
    rows = [[fmpq(1, 2) + fmpq(1, big), fmpq(1, 4) - fmpq(1, big), fmpq(1, 4)],
            [fmpq(1, 3), fmpq(1, 3) + fmpq(1, big), fmpq(1, 3) - fmpq(1, big)],
            [fmpq(1, 4), fmpq(1, 4), fmpq(1, 2)]]
    from exactdp.mechanism import mechanism_from_values

    M = mechanism_from_values(["0", "1", "2"], ["a", "b", "c"], rows)
    c = j(certify_renyi(M, discrete(3), [256]))
    r, s = _timed(c)
    assert r.status == "not checkable" and "squared bits" in r.detail and s < 10, (r.detail, s)
    assert recheck(j(certify_renyi(M, discrete(3), [2]))).status == "confirmed"


def test_tiny_vertices_answered_fast():
    # a genuine certificate with a vertex at 10^-400 (Phi^-1 near -43: beyond the enclosed range), and one at 10^-100
    far = j(certify_fdp(randomized_response(2, p=str(Fr(1, 10**400))), [("0", "1")]))
    r, s = _timed(far)
    assert r.status == "not checkable" and "too large" in r.detail and s < 10
    near = j(certify_fdp(randomized_response(2, p=str(Fr(1, 10**100))), [("0", "1")], times=3))
    r, s = _timed(near)
    assert r.status == "confirmed" and s < 10
    many = j(certify_fdp(randomized_response(2, p=str(Fr(1, 10**6))), [("0", "1")], times=56))   # 58 deep tails
    r, s = _timed(many)
    assert r.status == "not checkable" and "too large" in r.detail and s < 10


# -------------------------------------------------------------------------------------- brute force ----
def _rows(draw, n_in, n_out):
    rows = []
    for _ in range(n_in):
        w = [draw(st.integers(0, 6)) for _ in range(n_out)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([Fr(x, sum(w)) for x in w])
    return rows


@st.composite
def mechanisms(draw):
    n_in, n_out = draw(st.integers(2, 3)), draw(st.integers(2, 3))
    return _rows(draw, n_in, n_out)


def _mech(rows):
    return Mechanism.from_rows([str(i) for i in range(len(rows))], [f"y{j}" for j in range(len(rows[0]))],
                               [[str(v) for v in r] for r in rows])


@settings(max_examples=40, deadline=None)
@given(mechanisms(), st.lists(st.integers(2, 6), min_size=1, max_size=3, unique=True))
def test_renyi_sums_against_direct_fraction_sums(rows, orders):
    n = len(rows)
    c = certify_renyi(_mech(rows), discrete(n), orders)
    for o, a in zip(c.evidence.orders, orders, strict=True):
        sums = []
        for i, k in product(range(n), repeat=2):
            if i == k:
                continue
            P, Q = rows[i], rows[k]
            if any(p > 0 and q == 0 for p, q in zip(P, Q, strict=True)):
                sums.append(None)
            else:
                sums.append(sum((p**a / q ** (a - 1) for p, q in zip(P, Q, strict=True) if p > 0), Fr(0)))
        want = None if None in sums else max(sums)
        assert o.sum == ("inf" if want is None else str(want))
    assert recheck(j(c)).status == "confirmed"


def _hull(points):
    pts = sorted(set(points))
    out = []
    for p in pts:
        if out and out[-1][0] == p[0]:
            continue
        while len(out) >= 2 and ((out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                                 - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])) <= 0:
            out.pop()
        out.append(p)
    return out


@settings(max_examples=40, deadline=None)
@given(mechanisms(), st.integers(1, 2))
def test_tradeoff_vertices_against_every_test(rows, times):
    """The lower hull of (P(S), 1 - Q(S)) over every rejection set S of the composed outputs and every ordered pair:
    randomised tests are the convex combinations of these (DRS22 Sec. 2.1), so the hull is the tightest f."""
    n, m = len(rows), len(rows[0])
    outs = list(product(range(m), repeat=times))

    def prob(r, y):
        out = Fr(1)
        for v in y:
            out *= r[v]
        return out
    pts = []
    for i, k in product(range(n), repeat=2):
        if i == k:
            continue
        for mask in range(2 ** len(outs)):
            S = [y for b, y in enumerate(outs) if mask >> b & 1]
            pts.append((sum((prob(rows[i], y) for y in S), Fr(0)), 1 - sum((prob(rows[k], y) for y in S), Fr(0))))
    want = _hull(pts)
    c = certify_fdp(_mech(rows), discrete(n), times)
    assert [(Fr(v.a), Fr(v.b)) for v in c.evidence.vertices] == want
    assert recheck(j(c)).status == "confirmed"


# ----------------------------------------------------------------------------------------- the CLI ----
@pytest.fixture
def files(tmp_path):
    def write(name, obj):
        p = tmp_path / name
        p.write_text(json.dumps(obj))
        return str(p)
    return {"k": write("k.json", {"inputs": ["0", "1"], "outputs": ["a", "b", "c"],
                                  "matrix": [["1/2", "1/4", "1/4"], ["1/8", "3/8", "1/2"]]}),
            "d": write("d.json", {"kind": "discrete", "points": ["0", "1"]}),
            "sym": write("sym.json", {"matrix": [["1/(1+alpha)", "alpha/(1+alpha)"],
                                                 ["alpha/(1+alpha)", "1/(1+alpha)"]]}),
            "plan": write("plan.json", [{"mechanism": "k.json", "times": 2}]), "dir": tmp_path}


def test_cli_renyi_json(files, capsys):
    code = main(["renyi", files["k"], "--metric", files["d"], "--orders", "2,3", "--delta", "1/1000",
                 "--format", "json"])
    cert = json.loads(capsys.readouterr().out)
    assert code == 0 and cert["kind"] == "renyi" and cert["evidence"]["orders"][0]["sum"] == "55/24"
    assert recheck(cert).status == "confirmed"


def test_cli_renyi_text_shows_the_conversion_next_to_the_exact_eps(files, capsys):
    code = main(["renyi", files["k"], "--metric", files["d"], "--orders", "2,8", "--delta", "1/1000"])
    out = capsys.readouterr().out
    assert code == 0 and "Mironov's conversion at delta = 1/1000" in out and "exact smallest eps at delta" in out


@pytest.mark.parametrize("extra,match", [(["--orders", "2,x"], "--orders"), (["--orders", "1"], "--orders"),
                                         (["--orders", "2,2"], "--orders"), (["--orders", "300"], "--orders"),
                                         (["--delta", "2"], "delta")])
def test_cli_renyi_bad_input(files, capsys, extra, match):
    code = main(["renyi", files["k"], "--metric", files["d"], *extra])
    err = capsys.readouterr()
    assert code == 2 and err.out == "" and match in err.err and len(err.err.splitlines()) == 1


def test_cli_renyi_symbolic_refused(files, capsys):
    code = main(["renyi", files["sym"], "--metric", files["d"]])
    err = capsys.readouterr()
    assert code == 2 and err.out == "" and "alpha" in err.err


def test_cli_audit_json_rechecked(files, capsys):
    code = main(["audit", files["plan"], "--metric", files["d"], "--eps", "log(2)", "--delta", "1/2",
                 "--format", "json"])
    cert = json.loads(capsys.readouterr().out)
    assert code == 0 and cert["kind"] == "audit" and recheck(cert).status == "confirmed"
    code = main(["audit", files["plan"], "--metric", files["d"], "--eps", "log(2)", "--delta", "1/100",
                 "--format", "json"])
    cert = json.loads(capsys.readouterr().out)
    assert code == 1 and cert["verdict"] == "fails" and recheck(cert).status == "confirmed"


def test_cli_opendp(capsys):
    pytest.importorskip("opendp")
    # discrete Laplace at scale 2: OpenDP reports eps = d_in/scale = 1/2, the exact eps of the clamped mechanism
    # is 1/2 (the ratio of neighbouring rows is at most e^(1/2), attained inside the range)
    code = main(["opendp", "laplace", "--scale", "2", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["exact"] == "1/2" and out["reported_exact"] == "1/2" and out["holds"] is True
    code = main(["opendp", "gaussian", "--scale", "1", "--window", "3", "--orders", "2"])
    assert code == 0 and "holds" in capsys.readouterr().out
    for bad in (["laplace", "--scale", "-1"], ["gaussian", "--scale", "1", "--orders", "x"],
                ["laplace", "--scale", "2", "--d-in", "0"]):
        code = main(["opendp", *bad])
        err = capsys.readouterr()
        assert code == 2 and err.out == "" and len(err.err.splitlines()) == 1, bad
