"""ECP14 utility, leakage and its bounds (Theorems 2 and 3, Prop. 5, Corollary 2), exactly."""

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.exact.level import Level
from exactdp.mechanisms import geometric, randomized_response
from exactdp.metrics import path
from exactdp.priors.leakage import leakage, max_utility, optimal_remap, theorem3_bound, utility


HALF = Level.from_alpha("1/2")


def test_utility_and_leakage():
    R = randomized_response(["a", "b", "c"], p="1/4")
    prior = ["1/2", "1/4", "1/4"]
    remap = optimal_remap(R, prior)
    assert remap == {"a": "a", "b": "a", "c": "a"} or remap["a"] == "a"
    assert max_utility(R, prior) == utility(R, prior, remap)
    L = leakage(R, ["1/3"] * 3)
    assert L.evidence.leakage_bits == "log2(3/2)"
    assert L.evidence.enclosure[0].startswith("0.5849625007211561")
    # Theorem 3: the leakage of an eps-DP mechanism on V^u is at most u log2(|V| e^eps/(|V| - 1 + e^eps))
    assert theorem3_bound(2, 1, fmpq(3)) == fmpq(3, 2)
    # a plain int or text is read exactly (it divided as a float before): 2 * 3 / (1 + 3) = 3/2, squared 9/4
    assert type(theorem3_bound(2, 1, 3)) is fmpq and theorem3_bound(2, 1, 3) == fmpq(3, 2)
    assert theorem3_bound(2, 2, "3") == fmpq(9, 4)
    with pytest.raises(InvalidInput, match="must be exact"):
        theorem3_bound(2, 1, 3.0)


def test_theorem2_prop5_corollary2_bounds():
    from exactdp.priors.leakage import corollary2_bound, prop5_bound, theorem2_bound, tightness_holds
    assert theorem2_bound(["1/3"] * 3, path(3), HALF) == fmpq(5, 9)
    assert prop5_bound(["1/3"] * 3, path(3), HALF) == fmpq(5, 3)
    assert corollary2_bound(path(3), HALF) == fmpq(5, 3)
    # the truncated geometric mechanism attains the bound (tight); randomized response with p = 1/5 does not
    assert tightness_holds(geometric(2, "1/2"), path(3), HALF) is True
    assert tightness_holds(randomized_response(["0", "1", "2"], p="1/5"), path(3), HALF) is False
    # the maximal utility of the tight mechanism equals the Theorem 2 bound exactly
    assert max_utility(geometric(2, "1/2"), ["1/3"] * 3) == fmpq(5, 9)
    with pytest.raises(InvalidInput, match="regular prior"):
        theorem2_bound(["9/10", "1/20", "1/20"], path(3), HALF)
