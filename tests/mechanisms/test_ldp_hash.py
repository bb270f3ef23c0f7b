"""Local hashing and Hadamard response (exactdp.mechanisms.ldp_hash; issue 22 item 1): entries against each
protocol simulated from its definition with fractions.Fraction (hash families enumerated, the pairwise collision
probability exactly 1/g), BLH as linear LH with g = 2, and OLH's choice of g. The brute forces and helpers
and the privacy and refusal tables over every builder are in tests/mechanisms/test_ldp.py."""

from fractions import Fraction as Fr
from itertools import combinations, product

import pytest

from .test_ldp import brute_hadamard, brute_lh_linear, rows_of, same
from exactdp.exact.level import level_of
from exactdp.mechanisms.ldp_hash import (binary_local_hashing, hadamard_response, local_hashing, olh_g,
                                         optimal_local_hashing)


@pytest.mark.parametrize("k,g,e", [(3, 2, Fr(3)), (5, 3, Fr(2)), (4, 5, Fr(4)), (10, 2, Fr(3, 2)), (5, 4, Fr(3)),
                                   (4, 6, Fr(5)), (3, 9, Fr(8))])
def test_local_hashing_linear_brute(k, g, e):
    H, brute = brute_lh_linear(k, g, e)
    same(local_hashing(k, g, alpha=str(1 / e)), brute)
    # the property that makes the protocol pure: every two inputs collide with probability exactly 1/g
    for u, v in combinations(range(k), 2):
        assert Fr(sum(h[u] == h[v] for h in H), len(H)) == Fr(1, g)


def test_local_hashing_all_family_brute():
    k, g, e = 2, 4, Fr(3)
    H = list(product(range(g), repeat=k))
    brute = {(str(v), "".join(map(str, h)) + f":{y}"): Fr(1, len(H)) * (e if h[v] == y else 1) / (e + g - 1)
             for v in range(k) for h in H for y in range(g)}
    same(local_hashing(k, g, family="all", alpha="1/3"), brute)
    same(optimal_local_hashing(k, family="all", eps="log(3)"), brute)   # g = round(3) + 1 = 4
    for u, v in combinations(range(k), 2):
        assert Fr(sum(h[u] == h[v] for h in H), len(H)) == Fr(1, g)


def test_blh_is_linear_lh_with_g2():
    assert rows_of(binary_local_hashing(5, alpha="1/3")) == brute_lh_linear(5, 2, Fr(3))[1]


@pytest.mark.parametrize("k,e", [(2, Fr(3)), (3, Fr(2)), (4, Fr(5, 3)), (7, Fr(4))])
def test_hadamard_brute(k, e):
    same(hadamard_response(k, alpha=str(1 / e)), brute_hadamard(k, e))


def test_olh_g_choice():
    assert [olh_g(level_of(eps=e)) for e in ("log(3)", "log(5/2)", "log(12/5)", "1", "2", "1/10")] == \
        [4, 4, 3, 4, 8, 2]     # round(e^eps) + 1, halves up: e = 2.718 -> 4, e^2 = 7.389 -> 8, e^(1/10) -> 2
