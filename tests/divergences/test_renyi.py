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
from exactdp.composition.profile import privacy_profile
from exactdp.divergences.renyi import LogValue, rdp_to_dp, renyi_curve, renyi_divergence


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


def _generic_sum(P, Q, a):
    """The sum term by term in the kernel's field, with no shared denominator (the definition)."""
    from exactdp.exact.decide import sign

    s = ExpFrac.const(0)
    for p, q in zip(P, Q, strict=True):
        if sign(p) == 0:
            continue
        if sign(q) == 0:
            return None
        s = s + ExpFrac.coerce(p) ** a / ExpFrac.coerce(q) ** (a - 1)
    return s


def _row(weights, shift):
    """A row ``c_y exp(b_y) / Z`` normalised by its sum (transcendental), zeros where the weight is 0."""
    terms = [ExpFrac.exp(Lin.rat(fmpq(b + shift, 2)), fmpq(c)) if c else ExpFrac.const(0) for c, b in weights]
    Z = sum(terms[1:], terms[0])
    return [t / Z for t in terms]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3)), min_size=2, max_size=4),
       st.lists(st.tuples(st.integers(0, 3), st.integers(-3, 3)), min_size=4, max_size=4),
       st.integers(2, 4), st.booleans())
def test_the_shared_denominator_sum_equals_the_definition(wp, wq, a, mix):
    from exactdp.divergences.renyi import _sum, _sum_shared

    wq = wq[:len(wp)]
    if not any(c for c, _ in wp) or not any(c for c, _ in wq):
        return
    P, Q = _row(wp, 0), _row(wq, 1)
    if mix:  # a row not of the shared shape: one entry put over another denominator -> the generic route
        P[0] = ExpFrac(P[0].num, {k: 2 * c for k, c in P[0].den.items()}) * 2
    expected = _generic_sum(P, Q, a)
    got = _sum(P, Q, a)
    if expected is None:
        assert got is None
    else:
        assert got is not None and ExpFrac.coerce(got) == expected          # exact value equality
    # infinite whatever the shape; else the shape is refused exactly when two nonzero entries of P sit over
    # different denominators (the mix can leave them equal: a row of rationals folds its one-term denominator)
    shared = _sum_shared(P, Q, a)
    if expected is None:
        assert shared is None
    else:
        dens = {ExpFrac(ExpFrac.coerce(p).den).key() for p in P if p != 0}
        assert (shared is NotImplemented) == (len(dens) > 1)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(-3, 3)), min_size=3, max_size=3),
       st.lists(st.tuples(st.integers(1, 3), st.integers(-3, 3)), min_size=3, max_size=3))
def test_sums_are_ordered_as_the_exact_sign_orders_them(w1, w2):
    from exactdp.exact.decide import sign
    from exactdp.divergences.renyi import _conv_le, _larger, _sum

    s1, s2 = _sum(_row(w1, 0), _row(w2, 0), 2), _sum(_row(w2, 0), _row(w1, 0), 3)
    for x, y in ((s1, s2), (s2, s1), (s1, s1)):
        assert _larger(x, y) == (sign(x - y) > 0)
    # a value equal to another but written differently: ordered as equal (the exact fallback decides it)
    twin = ExpFrac(_mul_both(ExpFrac.coerce(s1)), _mul_both(ExpFrac.coerce(s1), den=True))
    assert twin.key() != ExpFrac.coerce(s1).key() and not _larger(twin, s1) and not _larger(s1, twin)
    d = fmpq(1, 100)
    for (x, a1), (y, a2) in (((s1, 2), (s2, 3)), ((s2, 3), (s1, 2)), ((s1, 2), (s1, 2))):
        assert _conv_le(x, a1, y, a2, d) == (sign((y / d) ** (a1 - 1) - (x / d) ** (a2 - 1)) >= 0)


def _mul_both(v, den=False):
    """``v``'s numerator (or denominator) times ``1 + exp(1)``: the same quotient, another representation."""
    one_e = {Lin(): fmpq(1), Lin.rat(1): fmpq(1)}
    from exactdp.exact.expo import _pmul

    return _pmul(v.den if den else v.num, one_e)


def test_the_discrete_gaussian_curve_is_fast_and_its_certificate_rechecks():
    # n = 8, orders 2-3 (384 transcendental terms): the stated sums are long sums of exponentials, which the
    # re-check once refused as nested more than 60 deep
    from exactdp.mechanisms.discrete_gaussian import discrete_gaussian
    from exactdp.divergences.renyi import certify_renyi

    M = discrete_gaussian(8, sigma2="1")
    c = certify_renyi(M, path(9), [2, 3], delta="1/1000")
    r = c.recheck()
    assert r.status == "confirmed", r.detail
    # the largest sum at order 2 against every ordered pair's, exactly (the definition, term by term; the
    # maximum by exact signs, no float)
    from exactdp.exact.decide import sign

    rows = M.rows()
    sums = [_generic_sum(rows[u], rows[v], 2) for i in range(8) for u, v in ((i, i + 1), (i + 1, i))]
    best = sums[0]
    for s in sums[1:]:
        if sign(s - best) > 0:
            best = s
    assert ExpFrac.coerce(renyi_curve(M, path(9), [2])[0].value.arg) == best


@pytest.mark.parametrize("n,sigma2,orders", [(4, "1", [2, 3, 5]), (2, "2/3", [16]), (2, "1/2", [2, 7])])
def test_the_polynomial_route_gives_the_same_sums_as_the_term_by_term_route(monkeypatch, n, sigma2, orders):
    """issue 32 item 2: the FLINT route (Laurent polynomials in exp(1/L)) that made order 16 take seconds, not
    minutes, states the very sums of the dictionary route: equal keys (so equal text) and equal values."""
    import exactdp.divergences.renyi as R
    from exactdp.mechanisms.discrete_gaussian import discrete_gaussian

    M = discrete_gaussian(n, sigma2=sigma2)
    rows = M.rows()
    fast = [R._sum(rows[u], rows[v], a) for a in orders for u, v in ((0, 1), (1, 0), (n - 1, n))]
    monkeypatch.setattr(R, "_sum_shared_dense", lambda live, order: NotImplemented)
    slow = [R._sum(rows[u], rows[v], a) for a in orders for u, v in ((0, 1), (1, 0), (n - 1, n))]
    for f, s in zip(fast, slow, strict=True):
        assert ExpFrac.coerce(f).key() == ExpFrac.coerce(s).key() and str(f) == str(s)
    assert ExpFrac.coerce(fast[0]) == _generic_sum(rows[0], rows[1], orders[0])     # the definition itself


@pytest.mark.slow
def test_order_16_of_the_discrete_gaussian_reports_progress_and_takes_the_exact_maximum():
    """The issue's input, smaller: order 16 runs, each ordered pair is reported, and the stated sum is the
    largest over the ordered pairs by exact signs."""
    from exactdp.exact.decide import sign
    from exactdp.mechanisms.discrete_gaussian import discrete_gaussian
    from exactdp.divergences.renyi import _sum

    M = discrete_gaussian(3, sigma2="1")
    seen = []
    p = renyi_curve(M, path(4), [16], progress=lambda *s: seen.append(s))[0]
    assert seen == [("order 16, ordered pairs", k, 6) for k in range(6)]
    rows = M.rows()
    sums = [_sum(rows[u], rows[v], 16) for i in range(3) for u, v in ((i, i + 1), (i + 1, i))]
    assert all(sign(p.value.arg - s) >= 0 for s in sums) and any(sign(p.value.arg - s) == 0 for s in sums)


def test_a_sum_beyond_the_polynomial_degree_limit_is_refused():
    from exactdp.errors import InputTooLarge
    from exactdp.mechanisms.discrete_gaussian import discrete_gaussian
    from exactdp.divergences.renyi import MAX_DENSE_SUM_DEGREE

    M = discrete_gaussian(10, sigma2="1/1000")            # exponents up to 500 * 100: degree 50,000 per row
    with pytest.raises(InputTooLarge, match=rf"order 4: degree .* exceeds the limit {MAX_DENSE_SUM_DEGREE:,}"):
        renyi_curve(M, path(11), [4])
