"""The clamped discrete staircase (issue 22 item 1): entries against the GV pmf in fractions.Fraction and
clamping, the exact smallest eps equal to eps, delta = 1 is the geometric mechanism, every refusal."""

from fractions import Fraction as Fr

import networkx as nx
import pytest
from _central_brute import fr_rows

from exactdp import InvalidInput, certify_privacy, from_graph, smallest_epsilon
from exactdp.exact.level import level_of
from exactdp.mechanisms import geometric
from exactdp.mechanisms.staircase import staircase


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


@pytest.mark.parametrize("call,exc,match", [
    (lambda: staircase(3, delta=0, eps="1"), InvalidInput, "delta: expected an integer >= 1"),
    (lambda: staircase(3, delta=2, gamma="3/2", eps="1"), InvalidInput, "gamma: expected"),
    (lambda: staircase(3, delta=2, gamma="0", eps="1"), InvalidInput, "gamma: expected"),
    (lambda: staircase(3, eps="1", alpha="1/2"), InvalidInput, "exactly one"),
])
def test_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
