"""Exact composition (PLD) against brute-force products, KOV and the composition bounds."""

from fractions import Fraction
from math import comb

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.errors import InputTooLarge, InvalidInput, InvalidType
from exactdp.mechanisms import geometric, randomized_response
from exactdp.mechanisms.product import product_sanitisation, repeated
from exactdp.metrics import path
from exactdp.composition.composition import (MAX_K, advanced_composition, basic_composition, composed_profile,
                                             kov_delta, privacy_loss_distribution)
from exactdp.composition.profile import privacy_profile

from _approx_brute import _mech, brute_excess, mechanisms


@settings(max_examples=30, deadline=None)
@given(mechanisms().filter(lambda r: len(r[0]) <= 3), st.integers(1, 3),
       st.fractions(min_value=1, max_value=9, max_denominator=4))
def test_composition_equals_the_exact_product(rows, k, t):
    M = _mech(rows)
    labels = [(M.inputs[0], M.inputs[1])]
    eps = "0" if t == 1 else f"log({t})"
    got = composed_profile(M, labels, k).delta(eps=eps)
    P = repeated(M, k)
    assert got == privacy_profile(P, labels).delta(eps=eps)
    prow = [[Fraction(str(v)) for v in r] for r in P.rows()]
    if len(prow[0]) <= 9:   # brute force over all 2^(m^k) output sets
        assert Fraction(str(got)) == brute_excess(prow, [(0, 1)], t)


@pytest.mark.parametrize("r, k", [(3, 2), (3, 5), (2, 10), (fmpq(5, 4), 50)])
def test_kairouz_oh_viswanath_closed_form(r, k):
    r = fmpq(r)
    p = 1 / (1 + r)
    pr = composed_profile(randomized_response(2, p=str(p)), [("0", "1")], k)
    for i in range(k // 2 + 1):
        e = k - 2 * i
        eps = "0" if e == 0 else f"log({r ** e})"
        # independent: sum over m of C(k,m) written out with Python integers
        rr = Fraction(str(r))
        ref = sum(comb(k, m) * (rr ** (k - m) - rr ** (k - 2 * i + m)) for m in range(i)) / (1 + rr) ** k
        assert Fraction(str(pr.delta(eps=eps))) == ref == Fraction(str(kov_delta(r, k, i)))


def test_basic_and_advanced_composition_hold_with_exact_looseness():
    k = 50
    R = randomized_response(2, p="4/9")                 # e^eps0 = 5/4
    single = privacy_profile(R, [("0", "1")])
    eps1 = "log(9/8)"
    d1 = single.delta(eps=eps1)
    assert d1 == fmpq(1, 18)                            # 5/9 - 9/8 * 4/9
    comp = composed_profile(R, [("0", "1")], k)
    _e_str, d_basic = basic_composition(k, eps1, d1)
    exact = comp.delta(eps=f"log({fmpq(9, 8) ** k})")
    assert exact < d_basic
    assert d_basic - exact > fmpq(2)                    # basic bound exceeds 1: vacuous, exact is not
    from flint import arb
    lo, hi, bound = advanced_composition(k, lambda: arb(fmpq(9, 8)).log(), d1, fmpq(1, 10**6))
    # delta is non-increasing in t, so delta(lo) >= delta(e^eps') >= delta(hi)
    upper = comp.delta(eps=f"log({lo})")
    lower = comp.delta(eps=f"log({hi})")
    assert upper <= bound and lower <= upper


def test_pld_of_randomized_response():
    L = privacy_loss_distribution(randomized_response(2, p="1/4"), "0", "1")
    L50 = L.power(50)
    assert len(L50.masses) == 51 and sum(L50.masses.values()) == 1


def test_geometric_20_outputs_50_fold():
    G = geometric(19, "1/2")
    pr = composed_profile(G, path(20), 50)
    assert pr.delta(eps=f"log({2 ** 50})") == 0
    assert pr.delta(eps="0") > 0


@pytest.mark.parametrize("k, err, match", [
    (0, InvalidInput, "k: expected k >= 1"),
    (-3, InvalidInput, "k: expected k >= 1"),
    (MAX_K + 1, InputTooLarge, "exceed the limit"),
    ("5", InvalidType, "expected an integer"),
])
def test_bad_k(k, err, match):
    with pytest.raises(err, match=match):
        composed_profile(randomized_response(2, p="1/4"), [("0", "1")], k)


def test_composition_refuses_a_symbolic_alpha():
    with pytest.raises(InvalidInput, match="symbolic alpha; fix a level"):
        composed_profile(geometric(2), path(3), 2)
    with pytest.raises(InvalidInput, match="symbolic alpha; fix a level"):
        privacy_loss_distribution(geometric(2), "0", "1")


@settings(max_examples=15, deadline=None)
@given(mechanisms().filter(lambda r: len(r) == 2 and len(r[0]) <= 3))
def test_product_sanitisation_profile_equals_one_dimensional(rows):
    # HLM15 Thm 5 / Lemma 3: Hamming neighbours of D^2 have exactly the 1-D excess (pair by pair)
    from exactdp.metrics import hamming
    M = _mech(rows)
    one = privacy_profile(M, [(M.inputs[0], M.inputs[1])]).to_json()["pieces"]
    two = privacy_profile(product_sanitisation(M, 2), hamming(list(M.inputs), 2)).to_json()["pieces"]
    assert [(p["eps_from"], p["eps_to"], p["delta"]) for p in one] == \
           [(p["eps_from"], p["eps_to"], p["delta"]) for p in two]
