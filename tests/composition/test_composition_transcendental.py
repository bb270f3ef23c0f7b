"""Exact composition when the entries are transcendental (e.g. a geometric mechanism at eps = 1).

The hypothesis tests are independent of :mod:`exactdp.composition.composition` and :mod:`exactdp.composition.profile`:
the product rows are multiplied out in the test with the kernel's ExpFrac arithmetic and the worst set is
found by brute force over all output subsets, for one pair and for three pairs (the upper envelope).
Kairouz-Oh-Viswanath's sum is written out with math.comb.  The tests against
``privacy_profile(repeated(M, k))`` check that the two routes agree (they share ``pair_function``).
"""

from itertools import combinations, product
from math import comb

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.privacy.approximate import certify_approx
from exactdp.exact.decide import sign
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.exact.values import exact_number
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import geometric
from exactdp.mechanisms.product import repeated
from exactdp.metrics import path
from exactdp.composition.composition import composed_profile, kov_delta, privacy_loss_distribution
from exactdp.composition.profile import privacy_profile
from exactdp.verdict import Verdict

E = ExpFrac.exp(Lin.rat(1))          # e


def _exp(q):
    return ExpFrac.exp(Lin.rat(fmpq(q)))


def _rows_text(weights):
    """Rows ``w_y e^(c_y) / sum`` as exact text in exactdp's grammar."""
    out = []
    for row in weights:
        terms = [f"{w}*exp({c})" for w, c in row]
        total = " + ".join(terms)
        out.append([f"({t})/({total})" for t in terms])
    return out


def _mech_from(weights):
    rows = _rows_text(weights)
    return Mechanism.from_rows([f"x{i}" for i in range(len(rows))], [f"y{k}" for k in range(len(rows[0]))], rows)


def _independent_rows(weights, k):
    """The k-fold product rows, multiplied out here from the weights (not via exactdp.mechanisms.product)."""
    base = []
    for row in weights:
        total = sum((w * _exp(c) for w, c in row), ExpFrac.const(0))
        base.append([w * _exp(c) / total for w, c in row])
    return [[_prod(r[y] for y in ys) for ys in product(range(len(r)), repeat=k)] for r in base]


def _prod(vals):
    out = ExpFrac.const(1)
    for v in vals:
        out = out * v
    return out


def _brute(rows, i, j, t):
    """max over both orders and ALL output subsets S of P(S) - t Q(S), with exact signs."""
    best = ExpFrac.const(0)          # S = {} gives 0
    m = len(rows[0])
    for a, b in ((i, j), (j, i)):
        for size in range(1, m + 1):
            for S in combinations(range(m), size):
                v = sum((rows[a][y] - t * rows[b][y] for y in S), ExpFrac.const(0))
                if sign(v - best) > 0:
                    best = v
    return best


weights = st.lists(st.lists(st.tuples(st.integers(1, 3), st.integers(-2, 2)), min_size=2, max_size=2),
                   min_size=2, max_size=2)


@settings(max_examples=12, deadline=None)
@given(weights, st.integers(1, 3), st.sampled_from(["0", "1/2", "1", "2", "log(2)"]))
def test_composition_equals_brute_force_over_product_outputs(w, k, eps):
    M = _mech_from(w)
    got = composed_profile(M, [("x0", "x1")], k).delta(eps=eps)
    t = {"0": ExpFrac.const(1), "1/2": _exp("1/2"), "1": E, "2": _exp(2), "log(2)": ExpFrac.const(2)}[eps]
    ref = _brute(_independent_rows(w, k), 0, 1, t)
    assert sign(got - ref) == 0


weights3 = st.lists(st.lists(st.tuples(st.integers(1, 3), st.integers(-2, 2)), min_size=2, max_size=2),
                    min_size=3, max_size=3)


@settings(max_examples=8, deadline=None)
@given(weights3, st.integers(1, 2), st.sampled_from(["0", "1/2", "1", "log(2)"]))
def test_composition_over_several_pairs_equals_brute_force(w, k, eps):
    # three inputs, all three pairs: the profile is the upper envelope over the pairs, checked by brute force
    M = _mech_from(w)
    pairs = [(0, 1), (1, 2), (0, 2)]
    got = composed_profile(M, [(f"x{i}", f"x{j}") for i, j in pairs], k).delta(eps=eps)
    t = {"0": ExpFrac.const(1), "1/2": _exp("1/2"), "1": E, "log(2)": ExpFrac.const(2)}[eps]
    rows = _independent_rows(w, k)
    ref = ExpFrac.const(0)
    for i, j in pairs:
        v = _brute(rows, i, j, t)
        if sign(v - ref) > 0:
            ref = v
    assert sign(got - ref) == 0


@pytest.mark.parametrize("n, k", [(2, 2), (3, 2), (2, 3), (4, 2)])
def test_geometric_at_eps_1_profile_equals_the_built_product(n, k):
    G = geometric(n, eps="1")
    composed = composed_profile(G, path(n + 1), k)
    built = privacy_profile(repeated(G, k), path(n + 1))
    assert len(composed.pieces) == len(built.pieces)
    for a, b in zip(composed.pieces, built.pieces, strict=True):
        assert sign(a.t_from - b.t_from) == 0 and sign(a.A - b.A) == 0 and sign(a.B - b.B) == 0
    # loss values e^(k - 2i): breakpoints at the positive exponents k, k - 2, ...
    assert [p["eps_from"] for p in composed.to_json()["pieces"]] == ["0", *[str(e) for e in range(k, 0, -2)][::-1]]


@pytest.mark.parametrize("k", [2, 5, 50])
def test_kairouz_oh_viswanath_at_eps0_1(k):
    # binary randomized response with P(stay) = e/(1 + e): eps0 = 1, transcendental entries
    M = Mechanism.from_rows(["0", "1"], ["0", "1"], [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"],
                                                     ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]])
    pr = composed_profile(M, [("0", "1")], k)
    for i in sorted({0, 1, k // 2, k // 3}):
        e = k - 2 * i
        ref = sum((comb(k, m) * (E ** (k - m) - E ** (k - 2 * i + m)) for m in range(i)), ExpFrac.const(0))
        ref = ref / (1 + E) ** k
        got = pr.delta(eps=str(e))
        assert sign(got - ref) == 0 and sign(kov_delta(E, k, i) - ref) == 0


def test_boundary_excess_equals_delta_exactly_both_verdicts():
    G = geometric(2, eps="1")
    k = 2
    d = composed_profile(G, path(3), k).delta(eps="1/2")
    assert sign(d) > 0
    P = repeated(G, k)
    holds = certify_approx(P, path(3), eps="1/2", delta=str(d))
    assert holds.verdict is Verdict.HOLDS
    assert sign(exact_number(holds.evidence.excess) - d) == 0   # the excess is exactly delta: the boundary holds
    below = certify_approx(P, path(3), eps="1/2", delta=f"{d} - 1/10^9")
    assert below.verdict is Verdict.FAILS
    w = below.evidence.witness
    assert w["kind"] == "violation" and sign(exact_number(w["excess"]) - d) == 0
    assert exact_number(w["lhs"]) - exact_number(w["rhs"]) == fmpq(1, 10**9)   # over by exactly the gap


def test_two_independent_exponent_lines_use_the_general_field():
    # exponents 1 and sqrt(2) are Q-independent: the ExpFrac domain, checked against the built product
    M = Mechanism.from_rows(["a", "b"], ["u", "v"],
                            [["exp(1)/(exp(1) + exp(sqrt(2)))", "exp(sqrt(2))/(exp(1) + exp(sqrt(2)))"],
                             ["1/2", "1/2"]])
    for eps in ["0", "1/3"]:
        a = composed_profile(M, [("a", "b")], 2).delta(eps=eps)
        b = privacy_profile(repeated(M, 2), [("a", "b")]).delta(eps=eps)
        assert sign(a - b) == 0


def test_pld_masses_of_geometric_at_eps_1():
    L = privacy_loss_distribution(geometric(2, eps="1"), "0", "1")
    # rows of the truncated geometric at a = e^-1: P = (1, (1 - a) a, a^2)/(1 + a), Q = (a, 1 - a, a)/(1 + a);
    # ratios P/Q = (e, e^-1, e^-1): mass 1/(1 + a) at e and a/(1 + a) at e^-1, nothing at infinity
    a = _exp(-1)
    expected = [(E, 1 / (1 + a)), (a, a / (1 + a))]
    got = [(L.dom.to_exp(r), L.dom.quotient(p, L.den_p)) for r, p, _ in L.masses.values()]
    assert len(got) == 2 and L.inf.is_zero()
    for r, m in expected:
        assert sum(1 for r2, m2 in got if sign(r2 - r) == 0 and sign(m2 - m) == 0) == 1


def test_mixed_rational_and_exponential_rows_with_zeros():
    # a rational row, an exponential row and a row with a zero (loss infinity), over three pairs
    M = Mechanism.from_rows(["a", "b", "c"], ["u", "v", "w"],
                            [["1/2", "1/3", "1/6"],
                             ["exp(-1)/(1 + exp(-1) + exp(-2))", "1/(1 + exp(-1) + exp(-2))",
                              "exp(-2)/(1 + exp(-1) + exp(-2))"],
                             ["0", "1/2", "1/2"]])
    pairs = [("a", "b"), ("b", "c"), ("a", "c")]
    for k in (1, 2):
        composed = composed_profile(M, pairs, k)
        built = privacy_profile(repeated(M, k), pairs)
        for eps in ("0", "1/3", "1", "log(3)", "5"):
            assert sign(composed.delta(eps=eps) - built.delta(eps=eps)) == 0
    # (b, c): b puts mass exp(-1)/(1 + exp(-1) + exp(-2)) on u, where c has none: delta never reaches 0
    assert sign(composed_profile(M, [("b", "c")], 1).delta(eps="5") - M.entry("b", "u")) == 0
