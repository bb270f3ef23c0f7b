"""Rényi DP exactly (issue 22 item 2): D_alpha against a Fraction brute force (hypothesis), the RDP curve of
mechanisms against brute force over all ordered neighbouring pairs, Mironov's Prop. 3 conversion against the
exact privacy profile, and every refusal."""

from fractions import Fraction as Fr

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, InvalidType, Mechanism
from exactdp.exact.expo import ExpFrac
from exactdp.exact.level import level_of
from exactdp.exact.lin import Lin
from exactdp.mechanisms import generalized_rr, geometric, optimized_unary
from exactdp.metrics import discrete, path
from exactdp.theory.profile import privacy_profile
from exactdp.theory.renyi import LogValue, rdp_to_dp, renyi_curve, renyi_divergence


def brute_sum(P, Q, a):
    """sum_y P^a Q^(1-a) with Fractions; None for infinity."""
    s = Fr(0)
    for p, q in zip(P, Q, strict=True):
        if p == 0:
            continue
        if q == 0:
            return None
        s += p**a / q ** (a - 1)
    return s


def fr(v):
    return None if v is None else Fr(str(v))


@st.composite
def distributions(draw, n):
    w = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(lambda x: sum(x) > 0))
    return [Fr(x, sum(w)) for x in w]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(lambda n: st.tuples(distributions(n), distributions(n))), st.integers(2, 7))
def test_divergence_brute(PQ, a):
    P, Q = PQ
    v = renyi_divergence([str(p) for p in P], [str(q) for q in Q], a)
    assert v.den == a - 1
    assert fr(v.arg) == brute_sum(P, Q, a)


def test_divergence_text_and_inf():
    assert str(renyi_divergence(["1/2", "1/2"], ["1/4", "3/4"], 2)) == "log(4/3)"   # 1/4*4 + 1/4*4/3 = 4/3
    assert renyi_divergence(["1/2", "1/2", "0"], ["1/2", "0", "1/2"], 2).infinite
    assert str(renyi_divergence(["1/2", "1/2", "0"], ["1/4", "1/4", "1/2"], 2)) == "log(2)"   # 1 + 1 + 0
    assert str(renyi_divergence(["1", "0"], ["1/2", "1/2"], 3)) == "log(4)/2"
    assert str(LogValue(None, 3)) == "inf" and LogValue(None, 3).enclosure() == ("inf", "inf")


def krr_sum(k, e, a):
    """k-RR rows x, x': p^a q^(1-a) + q^a p^(1-a) + (k-2) q (p = e/(e+k-1), q = 1/(e+k-1))."""
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    return p**a / q ** (a - 1) + q**a / p ** (a - 1) + (k - 2) * q


@pytest.mark.parametrize("k,a", [(2, 2), (3, 3), (5, 4)])
def test_krr_curve_closed_form(k, a):
    [pt] = renyi_curve(generalized_rr(k, eps="log(3)"), discrete(k), [a])
    assert fr(pt.value.arg) == krr_sum(k, Fr(3), a) and pt.value.den == a - 1
    e = ExpFrac.exp(Lin.rat(fmpq(1, 2)))       # transcendental level: the same identity in exp(1/2)
    [pt] = renyi_curve(generalized_rr(k, eps="1/2"), discrete(k), [a])
    assert pt.value.arg == krr_sum(k, e, a)


@pytest.mark.parametrize("mech,metric", [(geometric(3, "1/2"), path(4)), (geometric(4, "2/3"), path(5)),
                                         (optimized_unary(3, alpha="1/3"), discrete(3))])
def test_curve_brute_over_pairs(mech, metric):
    rows = [[Fr(str(v)) for v in r] for r in mech.rows()]
    n = len(rows)
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j and metric.d(i, j) == 1]
    curve = renyi_curve(mech, metric, [2, 3, 5])
    for pt in curve:
        best = max(brute_sum(rows[i], rows[j], pt.order) for i, j in pairs)
        assert fr(pt.value.arg) == best
        i, j = (mech.inputs.index(x) for x in pt.pair)
        assert brute_sum(rows[i], rows[j], pt.order) == best


def test_curve_infinite_when_supports_differ():
    M = Mechanism.from_rows(["a", "b"], ["0", "1"], [["1", "0"], ["1/2", "1/2"]])
    [pt] = renyi_curve(M, [("a", "b")], [2])
    assert pt.value.infinite and pt.pair == ("b", "a")
    assert rdp_to_dp([pt], "1/10").epsilon.infinite


def test_conversion_exact_and_against_the_profile():
    M = geometric(4, "1/2")
    orders = [2, 3, 4, 8, 16]
    curve = renyi_curve(M, path(5), orders)
    for delta in (Fr(1, 10), Fr(1, 1000)):
        conv = rdp_to_dp(curve, f"{delta.numerator}/{delta.denominator}")
        # brute force: min over orders of log(S/delta)/(a-1), compared exactly through integer powers
        S = {pt.order: fr(pt.value.arg) for pt in curve}
        best = orders[0]
        for a in orders[1:]:
            if (S[a] / delta) ** (best - 1) < (S[best] / delta) ** (a - 1):
                best = a
        assert conv.order == best and fr(conv.epsilon.arg) == S[best] / delta and conv.epsilon.den == best - 1
        # Mironov's guarantee holds exactly: the exact delta at the converted eps is at most delta
        pr = privacy_profile(M, path(5))
        assert Fr(str(pr.delta(eps=str(conv.epsilon)))) <= delta
        # and it loses against the exact profile: eps(delta) < the converted eps (certified decimal bounds)
        exact_eps = pr.epsilon(f"{delta.numerator}/{delta.denominator}")
        exact_hi = Fr(level_of(eps=exact_eps).eps_enclosure()[1]) if exact_eps != "0" else Fr(0)
        assert exact_hi < Fr(conv.epsilon.enclosure()[0])


@pytest.mark.parametrize("call,exc,match", [
    (lambda: renyi_divergence(["1"], ["1"], 1), InvalidInput, "alpha >= 2"),
    (lambda: renyi_divergence(["1"], ["1"], 2.0), InvalidType, "integer"),
    (lambda: renyi_divergence(["1"], ["1"], True), InvalidType, "integer"),
    (lambda: renyi_divergence(["1"], ["1"], 10**6), InvalidInput, "exceeds the limit"),
    (lambda: renyi_divergence(["1/2", "1/2"], ["1"], 2), InvalidInput, "on one set"),
    (lambda: renyi_divergence(["1/2", "1/3"], ["1/2", "1/2"], 2), InvalidInput, "sums to 5/6"),
    (lambda: renyi_divergence(["3/2", "-1/2"], ["1/2", "1/2"], 2), InvalidInput, "negative"),
    (lambda: renyi_divergence([], [], 2), InvalidInput, "non-empty"),
    (lambda: renyi_divergence(["alpha", "1 - alpha"], ["1/2", "1/2"], 2), InvalidInput, "alpha. is not defined"),
    (lambda: renyi_divergence(["sqrt(2)/2", "1 - sqrt(2)/2"], ["1/2", "1/2"], 2), InvalidInput, "P\\[0\\]"),
    (lambda: renyi_curve(geometric(2), path(3), [2]), InvalidInput, "symbolic"),
    (lambda: renyi_curve(geometric(2, "1/2"), path(3), []), InvalidInput, "at least one order"),
    (lambda: renyi_curve(geometric(2, "1/2"), [], [2]), InvalidInput, "no neighbouring pair"),
    (lambda: rdp_to_dp([], "1/2"), InvalidInput, "no point"),
    (lambda: rdp_to_dp(renyi_curve(geometric(2, "1/2"), path(3), [2]), "1"), InvalidInput, "0 < delta < 1"),
    (lambda: rdp_to_dp(renyi_curve(geometric(2, "1/2"), path(3), [2]), "0"), InvalidInput, "0 < delta < 1"),
])
def test_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
