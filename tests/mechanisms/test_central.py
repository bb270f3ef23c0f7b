"""Central builders (issue 22 item 1): truncated discrete Gaussian, clamped discrete staircase, permute-and-flip
and report-noisy-max with geometric noise -- entries against independent brute forces in fractions.Fraction,
the exact smallest eps against the stated formulas, and every refusal."""

import itertools
from fractions import Fraction as Fr
from math import factorial

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, InvalidType, certify_privacy, from_graph, path, smallest_epsilon
from exactdp.errors import InputTooLarge, UnsupportedRegime
from exactdp.exact.level import level_of
from exactdp.mechanisms import geometric
from exactdp.mechanisms.discrete_gaussian import discrete_gaussian
from exactdp.mechanisms.selection import permute_and_flip, report_noisy_max
from exactdp.mechanisms.staircase import staircase


def fr_rows(M):
    return [[Fr(str(v)) for v in row] for row in M.rows()]


def log_text(R: Fr) -> str:
    return f"log({R.numerator})" if R.denominator == 1 else f"log({R.numerator}/{R.denominator})"


# ---- discrete Gaussian --------------------------------------------------------------------------------
def brute_gaussian(n, beta):
    rows = []
    for x in range(n + 1):
        w = [beta ** ((y - x) ** 2) for y in range(n + 1)]
        rows.append([v / sum(w) for v in w])
    return rows


def gaussian_eps_ratio(n, beta):
    """The module's formula: e^(eps*) = max_x beta^(-(2x+1)) Z_(x+1)/Z_x."""
    Z = [sum(beta ** ((y - x) ** 2) for y in range(n + 1)) for x in range(n + 1)]
    return max(beta ** (-(2 * x + 1)) * Z[x + 1] / Z[x] for x in range(n))


def brute_max_ratio(rows, pairs):
    return max(max(rows[a][z] / rows[b][z], rows[b][z] / rows[a][z]) for a, b in pairs for z in range(len(rows[0])))


@pytest.mark.parametrize("n,beta", [(1, Fr(1, 2)), (3, Fr(1, 2)), (4, Fr(2, 3)), (6, Fr(9, 10))])
def test_gaussian_brute_and_smallest_eps(n, beta):
    G = discrete_gaussian(n, base=f"{beta.numerator}/{beta.denominator}")
    assert fr_rows(G) == brute_gaussian(n, beta)
    R = gaussian_eps_ratio(n, beta)
    assert brute_max_ratio(brute_gaussian(n, beta), [(x, x + 1) for x in range(n)]) == R
    assert smallest_epsilon(G, path(n + 1)).evidence.epsilon == log_text(R)


def test_gaussian_symbolic_and_sigma2():
    assert fr_rows(discrete_gaussian(3).at(level_of(alpha="1/3"))) == brute_gaussian(3, Fr(1, 3))
    # sigma^2 = 1/2: beta = e^(-1) -- the same as base exp(-1); eps* brackets the float value of the formula
    G = discrete_gaussian(3, sigma2="1/2")
    assert G.to_json() == discrete_gaussian(3, base="exp(-1)").to_json()
    import math
    b = math.exp(-1)
    Z = [sum(b ** ((y - x) ** 2) for y in range(4)) for x in range(4)]
    approx = max((2 * x + 1) + math.log(Z[x + 1] / Z[x]) for x in range(3))
    lo, hi = Fr(approx) - Fr(1, 10**6), Fr(approx) + Fr(1, 10**6)
    assert certify_privacy(G, path(4), eps=f"{hi.numerator}/{hi.denominator}").holds
    assert not certify_privacy(G, path(4), eps=f"{lo.numerator}/{lo.denominator}").holds


# ---- staircase ---------------------------------------------------------------------------------------------
def sensitivity_metric(n, delta):
    g = nx.Graph()
    g.add_nodes_from(str(i) for i in range(n + 1))
    g.add_edges_from((str(i), str(j)) for i in range(n + 1) for j in range(i + 1, min(i + delta, n) + 1))
    return from_graph(g)


def gv_pmf(i, b, delta, r):
    """GV16 sec. V: a(r) = (1-b)/(2r + 2b(Delta - r) - (1-b)); P(k Delta + j) = a b^k (1 if j < r else b)."""
    a = (1 - b) / (2 * r + 2 * b * (delta - r) - (1 - b))
    k, j = divmod(abs(i), delta)
    return a * b**k * (1 if j < r else b)


@pytest.mark.parametrize("n,delta,r,b", [(5, 2, 1, Fr(1, 2)), (6, 3, 2, Fr(1, 3)), (7, 3, 3, Fr(2, 5)),
                                         (4, 1, 1, Fr(1, 2))])
def test_staircase_against_gv_and_clamping(n, delta, r, b):
    S = staircase(n, delta=delta, gamma=f"{r}/{delta}", alpha=f"{b.numerator}/{b.denominator}")
    rows = fr_rows(S)
    for x in range(n + 1):
        for y in range(1, n):
            assert rows[x][y] == gv_pmf(y - x, b, delta, r)
    # clamping: Pr[0 | x] - Pr[0 | x+1] = Pr[Z = -x], Pr[n | x+1] - Pr[n | x] = Pr[Z = n - x - 1]
    for x in range(n):
        assert rows[x][0] - rows[x + 1][0] == gv_pmf(-x, b, delta, r)
        assert rows[x + 1][n] - rows[x][n] == gv_pmf(n - x - 1, b, delta, r)
    assert all(sum(row) == 1 for row in rows)


@pytest.mark.parametrize("delta,gamma", [(1, "1"), (2, "1/2"), (2, "1"), (3, "1/3"), (3, "2/3")])
@pytest.mark.parametrize("eps,below", [("log(2)", "log(199/100)"), ("1/2", "499/1000")])
def test_staircase_smallest_eps_is_eps(delta, gamma, eps, below):
    n = max(delta + 1, 2)          # the smallest range where P(0)/P(Delta) = e^eps occurs inside
    S = staircase(n, delta=delta, gamma=gamma, eps=eps)
    D = sensitivity_metric(n, delta)
    assert smallest_epsilon(S, D).evidence.epsilon == level_of(eps=eps).eps_str()
    assert not certify_privacy(S, D, eps=below).holds


def test_staircase_delta1_is_the_geometric_mechanism():
    assert staircase(5, alpha="1/3").to_json()["matrix"] == geometric(5, "1/3").to_json()["matrix"]


# ---- permute-and-flip ------------------------------------------------------------------------------------
def brute_pf(scores, e_half):
    """Enumerate every visiting order; p_r = e_half^(q_r - q*) with e_half = e^(eps/(2 Delta))."""
    rows = []
    for q in scores:
        top, m = max(q), len(q)
        p = [e_half ** (v - top) for v in q]
        row = [Fr(0)] * m
        for order in itertools.permutations(range(m)):
            reach = Fr(1, factorial(m))
            for r in order:
                row[r] += reach * p[r]
                reach *= 1 - p[r]
        rows.append(row)
    return rows


def score_example():
    sc = [[0, 1, 2], [1, 1, 2], [1, 2, 2], [0, 2, 3], [1, 2, 3]]
    g = nx.Graph()
    g.add_nodes_from(str(i) for i in range(len(sc)))
    g.add_edges_from((str(i), str(j)) for i, j in itertools.combinations(range(len(sc)), 2)
                     if max(abs(a - b) for a, b in zip(sc[i], sc[j], strict=True)) <= 1)
    return sc, from_graph(g)


@pytest.mark.parametrize("scores", [[[0, -2], [-2, 0]], [[0, 1, 2], [2, 2, 0]], [[0, 1, 2, 3], [3, 1, 1, 0]]])
def test_pf_brute(scores):
    assert fr_rows(permute_and_flip(scores, alpha="1/4")) == brute_pf(scores, Fr(2))


def test_pf_privacy_ms20_theorem1():
    sc, D = score_example()
    for eps, below in [("log(4)", "log(399/100)"), ("1/2", "499/1000")]:
        P = permute_and_flip(sc, eps=eps)
        assert certify_privacy(P, D, eps=eps).holds                     # MS20 Thm 1
        assert smallest_epsilon(P, D).evidence.epsilon == level_of(eps=eps).eps_str()   # attained here
        assert not certify_privacy(P, D, eps=below).holds
    pth = [[-abs(x - r) for r in range(4)] for x in range(4)]
    rows = brute_pf(pth, Fr(2))
    R = brute_max_ratio(rows, [(x, x + 1) for x in range(3)])
    assert smallest_epsilon(permute_and_flip(pth, eps="log(4)"), path(4)).evidence.epsilon == log_text(R)
    assert R < 4


# ---- report-noisy-max ----------------------------------------------------------------------------------------
def truncated_rnm(q, beta, W):
    """Sum over the noise box [-W, W]^m exactly, ties split uniformly; the rest has mass <= 1 - box mass."""
    c = (1 - beta) / (1 + beta)
    m = len(q)
    row = [Fr(0)] * m
    box = Fr(0)
    pmf = {z: c * beta ** abs(z) for z in range(-W, W + 1)}
    for zs in itertools.product(range(-W, W + 1), repeat=m):
        pr = Fr(1)
        for z in zs:
            pr *= pmf[z]
        vals = [a + z for a, z in zip(q, zs, strict=True)]
        best = max(vals)
        win = [i for i, v in enumerate(vals) if v == best]
        for i in win:
            row[i] += pr / len(win)
        box += pr
    return row, 1 - box


@pytest.mark.parametrize("q", [[0, 1], [2, 0, 1], [0, 0, 3]])
def test_rnm_against_truncated_enumeration(q):
    R = report_noisy_max([q], alpha="1/4")       # beta = 1/2
    exact = fr_rows(R)[0]
    W = 24 if len(q) == 2 else 12
    trunc, missing = truncated_rnm(q, Fr(1, 2), W)
    assert missing < Fr(1, 10**3)
    for e, t in zip(exact, trunc, strict=True):
        assert t <= e <= t + missing


def test_rnm_two_candidates_closed_form():
    # q = (1, 0), beta = 1/2: D = Z2 - Z1 has Pr[D = d] = sum_z f(z) f(z + d); Pr[1 wins] = Pr[D < 1] + Pr[D = 1]/2
    b = Fr(1, 2)
    c = (1 - b) / (1 + b)
    # sum_z b^|z| b^|z+d| = b^|d| (|d| + (1 + b^2)/(1 - b^2))
    pd = {d: c * c * b ** abs(d) * (abs(d) + (1 + b * b) / (1 - b * b)) for d in (0, 1)}
    below = (1 - pd[0]) / 2 + pd[0]        # Pr[D <= 0] by symmetry of D
    assert fr_rows(report_noisy_max([[1, 0]], alpha="1/4"))[0][0] == below + pd[1] / 2


def test_rnm_shift_invariance():
    assert report_noisy_max([[1000, 1001, 999]], eps="1/2").to_json()["matrix"] == \
        report_noisy_max([[-5, -4, -6]], eps="1/2").to_json()["matrix"]


def test_rnm_privacy():
    sc, D = score_example()
    for eps in ("log(4)", "1/2"):
        assert certify_privacy(report_noisy_max(sc, eps=eps), D, eps=eps).holds
    assert certify_privacy(report_noisy_max(sc, eps="log(16)", sensitivity=2), D, eps="log(16)").holds


def test_selection_symbolic():
    sc = [[0, 1], [1, 0]]
    for build in (permute_and_flip, report_noisy_max):
        S = build(sc)
        assert S.regime == "symbolic"
        assert S.at(level_of(eps="1/2")).to_json() == build(sc, eps="1/2").to_json()


# ---- refusals -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,exc,match", [
    (lambda: discrete_gaussian(0, base="1/2"), InvalidInput, "n: expected an integer >= 1"),
    (lambda: discrete_gaussian(1000, base="1/2"), InputTooLarge, "exceeds the limit"),
    (lambda: discrete_gaussian(3, base="1/2", sigma2="1"), InvalidInput, "not both"),
    (lambda: discrete_gaussian(3, base="3/2"), InvalidInput, r"^base: expected an exact number 0 < beta < 1 .*'3/2'"),
    (lambda: discrete_gaussian(3, base="2"), InvalidInput, r"^base: .*got '2'$"),      # audit 2026-11-24: not alpha
    (lambda: discrete_gaussian(3, base="x"), InvalidInput, r"^base: .*got 'x'$"),
    (lambda: discrete_gaussian(3, sigma2="-1"), InvalidInput, "sigma\\^2 > 0"),
    (lambda: discrete_gaussian(3.5, base="1/2"), InvalidType, "n: expected an integer"),
    (lambda: staircase(3, delta=0, eps="1"), InvalidInput, "delta: expected an integer >= 1"),
    (lambda: staircase(3, delta=2, gamma="3/2", eps="1"), InvalidInput, "gamma: expected"),
    (lambda: staircase(3, delta=2, gamma="0", eps="1"), InvalidInput, "gamma: expected"),
    (lambda: staircase(3, eps="1", alpha="1/2"), InvalidInput, "exactly one"),
    (lambda: permute_and_flip([[0]], eps="1"), InvalidInput, "between 2 and"),
    (lambda: permute_and_flip([[0, 1], [0]], eps="1"), InvalidInput, "one length"),
    (lambda: permute_and_flip([], eps="1"), InvalidInput, "non-empty list"),
    (lambda: permute_and_flip([[0, 1]], eps="1", sensitivity="0"), InvalidInput, "Delta > 0"),
    (lambda: permute_and_flip([[0, 1]], eps="1", inputs=["a", "b"]), InvalidInput, "2 inputs"),
    (lambda: permute_and_flip([[0, 1]], alpha="1/2"), UnsupportedRegime, "irrational algebraic"),
    (lambda: report_noisy_max([[0, "1/2"]], eps="1"), InvalidInput, "must be integers"),
    (lambda: report_noisy_max([[0, 1]], eps="1", sensitivity=0), InvalidInput, "sensitivity: expected"),
    (lambda: report_noisy_max([[0, 10**5]], eps="1"), InputTooLarge, "span"),
])
def test_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ---- properties over random instances (hypothesis) ---------------------------------------------------------
@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=3), st.integers(2, 4))
def test_random_pf_against_permutations(scores, t):
    # alpha = 1/t^2, so e^(eps/2) = t and every p_r = t^(q_r - q*) is rational
    assert fr_rows(permute_and_flip(scores, alpha=f"1/{t * t}")) == brute_pf(scores, Fr(t))


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 5), st.integers(1, 9), st.integers(2, 10))
def test_random_gaussian_against_formula(n, a, b):
    beta = Fr(min(a, b - 1), b)
    G = discrete_gaussian(n, base=f"{beta.numerator}/{beta.denominator}")
    assert fr_rows(G) == brute_gaussian(n, beta)
    assert smallest_epsilon(G, path(n + 1)).evidence.epsilon == log_text(gaussian_eps_ratio(n, beta))
