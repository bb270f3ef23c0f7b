"""KL10 utility: the Lipschitz constant, the Thm 2.7 bound of the exponential mechanism (both regimes, both
verdicts, re-checked), and (gamma, delta)-utility over open and closed balls."""

import copy
from fractions import Fraction

import pytest
from flint import fmpq

from exactdp import InvalidInput, recheck
from exactdp.mechanisms import exponential
from exactdp.metrics import discrete, path
from exactdp.utility.utility import certify_exponential_bound, certify_utility, lipschitz_constant


def test_lipschitz_constant_exact():
    C, pair = lipschitz_constant(path(4), path(10), {"0": "0", "1": "3", "2": "4", "3": "9"})
    assert C == 5 and pair == ("2", "3")


@pytest.mark.parametrize("t", ["1/2", "1/10", "1/1000"])
def test_thm27_bound_approached_not_attained(t):
    # two points, mu = (1 - t, t), beta = log 2: eps* = log(2(2 - t)/(1 + t)) < 2 beta = log 4
    tq = Fraction(t)
    E = exponential(discrete(2), beta="log(2)", mu={"0": str(1 - tq), "1": t})
    c = certify_exponential_bound(E, discrete(2), beta="log(2)")
    r = max(2 * (2 - tq) / (1 + tq), 2 * (1 + tq) / (2 - tq))
    assert c.holds is True and c.evidence.attained is False
    assert c.evidence.epsilon == f"log({r})" and c.recheck().status == "confirmed"


def test_thm27_transcendental_regime():
    E = exponential(path(3), beta="1/2")
    c = certify_exponential_bound(E, path(3), beta="1/2")
    assert c.holds is True and c.evidence.attained is False and c.evidence.bound == "1"
    # re-checked in exponential polynomials: the binding ratio against e^(2 C beta d) = e, strict, by intervals
    j = c.to_json()
    assert recheck(j).status == "confirmed", recheck(j).detail
    for field, value in (("beta", "1/4"), ("attained", True)):
        bad = copy.deepcopy(j)
        bad["evidence"][field] = value
        assert recheck(bad).status == "refuted", field


def test_thm27_violated_bound_detected():
    # claim a bound with a too-small beta: the exact eps exceeds 2 C beta
    E = exponential(discrete(2), beta="log(2)", mu={"0": "1/1000", "1": "999/1000"})
    c = certify_exponential_bound(E, discrete(2), beta="log(3)/2")  # 2 beta = log 3 < eps* ~ log(3.99)
    assert c.holds is False


def test_utility_open_and_closed_balls_and_worst_x():
    E = exponential(path(3), beta="log(2)")  # rows (4/7, 2/7, 1/7), (1/4, 1/2, 1/4), (1/7, 2/7, 4/7)
    c = certify_utility(E, path(3), gamma="1", delta="1/2")  # open: {x}; worst x = 1 with mass 1/2 = 1 - delta
    assert c.holds is True and (c.evidence.worst, c.evidence.mass) == ("1", "1/2")
    assert c.recheck().status == "confirmed"
    c = certify_utility(E, path(3), gamma="1", delta="1/3")
    assert c.holds is False and c.evidence.worst == "1" and c.recheck().status == "confirmed"
    c = certify_utility(E, path(3), gamma="1", delta="1/3", ball="closed")  # {x-1, x, x+1}
    assert c.holds is True and (c.evidence.worst, c.evidence.mass) in {("0", "6/7"), ("2", "6/7")}
    with pytest.raises(InvalidInput, match="ball: expected 'open'"):
        certify_utility(E, path(3), gamma="1", delta="1/3", ball="half")
    with pytest.raises(InvalidInput, match="delta: expected a rational 0 < delta < 1"):
        certify_utility(E, path(3), gamma="1", delta="1")
    with pytest.raises(InvalidInput, match="gamma: expected an exact number > 0"):
        certify_utility(E, path(3), gamma="0", delta="1/2")


def test_utility_with_a_disconnected_output_metric():
    # audit 2026-11-24 defect 2: sigma = inf (another component) is outside every ball, not a float in exact code
    import networkx as nx

    from exactdp.mechanism import mechanism_from_values
    from exactdp.metrics import from_graph
    from exactdp.utility.utility import ball_mass
    Y = from_graph(nx.Graph([("0", "1"), ("2", "3")]))
    M = mechanism_from_values(["0", "1", "2", "3"], ["0", "1", "2", "3"],
                              [[fmpq(1, 2), fmpq(1, 4), fmpq(1, 8), fmpq(1, 8)]] * 4)
    mass, inside = ball_mass(M, Y, None, "0", "5", "closed")
    assert (mass, list(inside)) == (fmpq(3, 4), ["0", "1"])
    c = certify_utility(M, Y, gamma="5", delta="1/4")
    assert c.holds is False  # worst ball {2, 3}: 1/4 < 3/4
    assert c.recheck().status == "confirmed"                      # the kernel reads sigma = inf too
