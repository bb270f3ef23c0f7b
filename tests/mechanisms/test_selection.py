"""Permute-and-flip and report-noisy-max with geometric noise (issue 22 item 1): entries against independent
brute forces (permutations, truncated enumeration) in fractions.Fraction, MS20 Theorem 1, every refusal."""

import itertools
from fractions import Fraction as Fr
from math import factorial

import networkx as nx
import pytest
from _central_brute import brute_max_ratio, fr_rows, log_text
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, certify_privacy, from_graph, path, smallest_epsilon
from exactdp.errors import InputTooLarge, UnsupportedRegime
from exactdp.exact.level import level_of
from exactdp.mechanisms.selection import permute_and_flip, report_noisy_max


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


@settings(max_examples=20, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), min_size=3, max_size=3), min_size=1, max_size=3), st.integers(2, 4))
def test_random_pf_against_permutations(scores, t):
    # alpha = 1/t^2, so e^(eps/2) = t and every p_r = t^(q_r - q*) is rational
    assert fr_rows(permute_and_flip(scores, alpha=f"1/{t * t}")) == brute_pf(scores, Fr(t))


@pytest.mark.parametrize("call,exc,match", [
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
