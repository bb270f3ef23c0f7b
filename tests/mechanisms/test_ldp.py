"""Local-DP frequency oracles (issue 22 item 1): exact smallest eps = the papers' eps, entries against an
independent brute force (each protocol simulated from its definition with fractions.Fraction), the exact
estimator variance against the closed forms of Wang et al. 2017, and every refusal."""

from fractions import Fraction as Fr
from itertools import combinations, product
from math import comb

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, InvalidType, certify_privacy, discrete, smallest_epsilon
from exactdp.errors import InputTooLarge, UnsupportedRegime
from exactdp.exact.expo import ExpFrac
from exactdp.exact.level import level_of
from exactdp.exact.lin import Lin
from exactdp.mechanisms.ldp import (MAX_UNARY_K, estimator_variance, generalized_rr, optimized_unary,
                                    subset_selection, symmetric_unary)
from exactdp.mechanisms.ldp_hash import (binary_local_hashing, hadamard_response, local_hashing, optimal_local_hashing)


def rows_of(mech):
    """The matrix as Fractions, keyed by (input, output) labels."""
    return {(x, z): Fr(str(mech.entry(x, z))) for x in mech.inputs for z in mech.outputs}


def same(mech, brute):
    """Entry by entry, and no report outside the brute force's support (labels match exactly)."""
    got = rows_of(mech)
    full = {(x, z): brute.get((x, z), Fr(0)) for x in mech.inputs for z in mech.outputs}
    assert set(brute) <= set(full), sorted(set(brute) - set(full))[:3]
    assert got == full


# ---- brute forces: each protocol simulated from its definition ------------------------------------
def brute_grr(k, e):
    return {(str(v), str(y)): (e if y == v else 1) / (e + k - 1) for v in range(k) for y in range(k)}


def brute_unary(k, keep_own, one_other):
    """Each bit independently: own bit reported 1 w.p. keep_own, every other bit 1 w.p. one_other."""
    out = {}
    for v in range(k):
        for y in product((0, 1), repeat=k):
            pr = Fr(1)
            for i, b in enumerate(y):
                p1 = keep_own if i == v else one_other
                pr *= p1 if b else 1 - p1
            out[str(v), "".join(map(str, y))] = pr
    return out


def brute_subset(k, w, e):
    out = {}
    for v in range(k):
        weights = {S: (e if v in S else Fr(1)) for S in combinations(range(k), w)}
        Z = sum(weights.values())
        for S, wt in weights.items():
            out[str(v), "{" + ",".join(map(str, S)) + "}"] = wt / Z
    return out


def base_digits(v, g, m):
    ds = []
    for _ in range(m):
        v, d = divmod(v, g)
        ds.append(d)
    return ds


def smallest_prime_factor(g):
    return min(d for d in range(2, g + 1) if g % d == 0 and all(d % e for e in range(2, d)))


def brute_lh_linear(k, g, e):
    p = smallest_prime_factor(g)
    m = 1
    while p**m < k:
        m += 1
    H = [tuple(sum(a * d for a, d in zip(av, base_digits(v, p, m), strict=True)) % g for v in range(k))
         for av in product(range(g), repeat=m)]
    return H, {(str(v), "".join(map(str, h)) + f":{y}"): Fr(1, len(H)) * (e if h[v] == y else 1) / (e + g - 1)
               for v in range(k) for h in H for y in range(g)}


def sylvester(K):
    H = [[1]]
    while len(H) < K:
        H = [r + r for r in H] + [r + [-x for x in r] for r in H]
    return H


def brute_hadamard(k, e):
    K = 1
    while k >= K:
        K *= 2
    H = sylvester(K)
    return {(str(v), str(j)): Fr(2, K) * (e if H[v + 1][j] == 1 else 1) / (1 + e) for v in range(k) for j in range(K)}


# ---- entries against the brute forces (rational levels) --------------------------------------------
@pytest.mark.parametrize("k,e", [(2, Fr(3)), (3, Fr(2)), (5, Fr(9, 4))])
def test_grr_brute(k, e):
    same(generalized_rr(k, alpha=str(1 / e)), brute_grr(k, e))


@pytest.mark.parametrize("k,h", [(2, Fr(2)), (3, Fr(3, 2)), (4, Fr(5))])
def test_sue_brute(k, h):     # h = e^(eps/2): alpha = 1/h^2
    same(symmetric_unary(k, alpha=str(1 / h**2)), brute_unary(k, h / (h + 1), 1 / (h + 1)))


@pytest.mark.parametrize("k,e", [(2, Fr(3)), (4, Fr(2)), (5, Fr(7, 3))])
def test_oue_brute(k, e):
    same(optimized_unary(k, alpha=str(1 / e)), brute_unary(k, Fr(1, 2), 1 / (e + 1)))


@pytest.mark.parametrize("k,w,e", [(3, 1, Fr(2)), (4, 2, Fr(3)), (6, 3, Fr(5, 2))])
def test_subset_brute(k, w, e):
    same(subset_selection(k, w, alpha=str(1 / e)), brute_subset(k, w, e))


# ---- privacy: the exact smallest eps is the requested eps -------------------------------------------
BUILDERS = [
    ("grr", lambda **kw: generalized_rr(4, **kw)),
    ("sue", lambda **kw: symmetric_unary(3, **kw)),
    ("oue", lambda **kw: optimized_unary(4, **kw)),
    ("subset", lambda **kw: subset_selection(5, 2, **kw)),
    ("blh", lambda **kw: binary_local_hashing(5, **kw)),
    ("lh3", lambda **kw: local_hashing(4, 3, **kw)),
    ("lh6", lambda **kw: local_hashing(5, 6, **kw)),
    ("olh", lambda **kw: optimal_local_hashing(3, **kw)),
    ("hadamard", lambda **kw: hadamard_response(5, **kw)),
]
# (eps as given, the level just below it); every builder: e^(eps/2) must exist for SUE, so log(9/4), log(4), 1/2, 3/2
LEVELS = [("log(9/4)", "log(224/100)"), ("log(4)", "log(399/100)"), ("1/2", "499/1000"), ("3/2", "1499/1000")]


@pytest.mark.parametrize("name,build", BUILDERS, ids=[b[0] for b in BUILDERS])
@pytest.mark.parametrize("eps,below", LEVELS)
def test_smallest_eps_is_the_requested_eps(name, build, eps, below):
    M = build(eps=eps)
    k = len(M.inputs)
    c = smallest_epsilon(M, discrete(k))
    assert c.holds and c.evidence.epsilon == level_of(eps=eps).eps_str()
    assert certify_privacy(M, discrete(k), eps=eps).holds
    assert not certify_privacy(M, discrete(k), eps=below).holds


@pytest.mark.parametrize("name,build", BUILDERS, ids=[b[0] for b in BUILDERS])
def test_alpha_and_eps_give_the_same_mechanism(name, build):
    assert rows_of(build(alpha="1/4")) == rows_of(build(eps="log(4)"))


def test_symbolic_alpha_specialises_to_the_level():
    for build in (generalized_rr, optimized_unary, hadamard_response, binary_local_hashing):
        S = build(3)
        assert S.regime == "symbolic"
        assert rows_of(S.at(level_of(alpha="1/5"))) == rows_of(build(3, alpha="1/5"))


# ---- estimator variance: Wang et al. 2017 closed forms ----------------------------------------------------
def e_of(eps):
    lv = level_of(eps=eps)
    return lv.factor(fmpq(1))


def wang(p, q, f=0, n=1):
    """[WBLJ17] sec. 4, pure protocols: Var = n q(1-q)/(p-q)^2 + n f (1-p-q)/(p-q)."""
    return n * q * (1 - q) / (p - q) ** 2 + n * f * (1 - p - q) / (p - q)


@pytest.mark.parametrize("eps", ["log(3)", "log(9/4)", "1/2"])
def test_variance_closed_forms(eps):
    e = e_of(eps)
    k = 4
    assert estimator_variance("grr", k, eps=eps) == (k - 2 + e) / (e - 1) ** 2          # WBLJ17 sec. 4.1 (DE)
    assert estimator_variance("oue", k, eps=eps) == 4 * e / (e - 1) ** 2                 # WBLJ17 sec. 4.3 (OUE)
    assert estimator_variance("blh", k, eps=eps) == (e + 1) ** 2 / (e - 1) ** 2          # WBLJ17 sec. 4.4 (BLH, g = 2)
    assert estimator_variance("hadamard", k, eps=eps) == (e + 1) ** 2 / (e - 1) ** 2     # p* = e/(e+1), q* = 1/2
    g = 3
    assert estimator_variance("lh", k, eps=eps, g=g) == (e - 1 + g) ** 2 / ((e - 1) ** 2 * (g - 1))  # sec. 4.4 (LH)


def test_variance_sue_and_olh_at_their_levels():
    # SUE: e^(eps/2)/(e^(eps/2) - 1)^2 (WBLJ17 sec. 4.3); at eps = log(9/4), e^(eps/2) = 3/2: 6
    assert estimator_variance("sue", 5, eps="log(9/4)") == fmpq(6)
    h = ExpFrac.exp(Lin.rat(fmpq(1, 4)))
    assert estimator_variance("sue", 3, eps="1/2") == h / (h - 1) ** 2
    # OLH at g = e^eps + 1 exactly (eps = log(3), g = 4): 4 e^eps/(e^eps - 1)^2 = 3 (WBLJ17 sec. 4.4)
    assert estimator_variance("olh", 2, eps="log(3)") == fmpq(3)


def test_variance_subset_selection():
    k, w, e = 6, 2, fmpq(3)
    Z = comb(k - 1, w - 1) * e + comb(k - 1, w)
    p, q = comb(k - 1, w - 1) * e / Z, (comb(k - 2, w - 2) * e + comb(k - 2, w - 1)) / Z
    assert estimator_variance("subset", k, alpha="1/3", omega=w) == wang(p, q)


@pytest.mark.parametrize("f,n", [(fmpq(1, 2), 1), (fmpq(1), 7), (fmpq(0), 100), (fmpq(1, 3), 12)])
def test_variance_in_f_and_n(f, n):
    e, k = fmpq(3), 5
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    assert estimator_variance("grr", k, alpha="1/3", f=str(f), n=n) == wang(p, q, f, n)
    assert estimator_variance("oue", k, alpha="1/3", f=str(f), n=n) == wang(fmpq(1, 2), 1 / (e + 1), f, n)


def test_subset_default_omega():
    # ceil(k/(e^eps + 1)): k = 6, e^eps = 2 -> 2; k = 7, e^eps = 2 -> 3; k = 5, e^eps = e^(1/2) = 1.65 -> 2
    assert subset_selection(6, alpha="1/2").name.endswith("omega = 2)")
    assert subset_selection(7, alpha="1/2").name.endswith("omega = 3)")
    assert subset_selection(5, eps="1/2").name.endswith("omega = 2)")


# ---- refusals ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call,exc,match", [
    (lambda: generalized_rr(1, eps="1"), InvalidInput, "k: expected an integer >= 2"),
    (lambda: generalized_rr(2.0, eps="1"), InvalidType, "k: expected an integer"),
    (lambda: generalized_rr(True, eps="1"), InvalidType, "k: expected an integer"),
    (lambda: generalized_rr(3, eps="1", alpha="1/2"), InvalidInput, "exactly one"),
    (lambda: generalized_rr(3, eps="-1"), InvalidInput, "eps > 0"),
    (lambda: generalized_rr(3, alpha="2"), InvalidInput, "0 < alpha < 1"),
    (lambda: symmetric_unary(MAX_UNARY_K + 1, eps="1"), InputTooLarge, "exceeds the limit"),
    (lambda: symmetric_unary(3, alpha="1/2"), UnsupportedRegime, "irrational algebraic"),
    (lambda: optimized_unary(1, eps="1"), InvalidInput, "k: expected"),
    (lambda: subset_selection(4, 0, eps="1"), InvalidInput, "omega: expected an integer >= 1"),
    (lambda: subset_selection(4, 4, eps="1"), InvalidInput, "omega: expected a subset size 1 <= omega <= k - 1 = 3"),
    (lambda: subset_selection(4), InvalidInput, "give omega"),
    (lambda: subset_selection(20, 10, eps="1"), InputTooLarge, "reports exceed"),
    (lambda: local_hashing(3, 1, eps="1"), InvalidInput, "g: expected an integer >= 2"),
    (lambda: local_hashing(3, 3, family="md5", eps="1"), InvalidInput, "family: expected one of"),
    (lambda: local_hashing(9, 4, family="all", eps="1"), InputTooLarge, "more than"),
    (lambda: local_hashing(4000, 17, eps="1"), InputTooLarge, "exceed"),
    (lambda: optimal_local_hashing(3), InvalidInput, "exactly one"),
    (lambda: estimator_variance("grr", 3, eps="1", f="3/2"), InvalidInput, "f: expected a fraction"),
    (lambda: estimator_variance("grr", 3, eps="1", n=0), InvalidInput, "n: expected an integer >= 1"),
    (lambda: estimator_variance("rappor", 3, eps="1"), InvalidInput, "unknown name"),
    (lambda: estimator_variance("grr", 3, eps="1", g=3), InvalidInput, "grr:"),
])
def test_refusals(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ---- properties over random domains and rational levels (hypothesis) --------------------------------------
levels = st.tuples(st.integers(2, 30), st.integers(1, 15)).filter(lambda t: t[0] > t[1]).map(lambda t: Fr(*t))


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), levels, st.data())
def test_random_oracles_against_brute_force(k, e, data):
    alpha = str(1 / e)
    w = data.draw(st.integers(1, k - 1))
    cases = [(generalized_rr(k, alpha=alpha), brute_grr(k, e)),
             (optimized_unary(k, alpha=alpha), brute_unary(k, Fr(1, 2), 1 / (e + 1))),
             (subset_selection(k, w, alpha=alpha), brute_subset(k, w, e)),
             (hadamard_response(k, alpha=alpha), brute_hadamard(k, e)),
             (binary_local_hashing(k, alpha=alpha), brute_lh_linear(k, 2, e)[1])]
    eps = level_of(alpha=alpha).eps_str()
    for M, brute in cases:
        same(M, brute)
        assert smallest_epsilon(M, discrete(k)).evidence.epsilon == eps


def test_variance_refuses_a_protocol_that_is_not_pure():
    # supports that do not make Pr[v supported | u] the same for every u != v: the estimator is not the pure one
    from exactdp.mechanisms.ldp import Oracle, _pure_pq

    M = generalized_rr(3, alpha="1/2")
    with pytest.raises(InvalidInput, match="not pure"):
        _pure_pq(Oracle(M, (frozenset({0, 1}), frozenset({1}), frozenset({2}))))
    assert _pure_pq(Oracle(M, (frozenset({0}), frozenset({1}), frozenset({2})))) == (fmpq(1, 2), fmpq(1, 4))
