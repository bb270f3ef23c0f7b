"""An accountant's modelling claim checked exactly (issue 29, item 4): dp_accounting's source models permute-and-flip
by the Laplace mechanism with parameter 1/eps; for finite score vectors that is an upper bound, not an identity."""

from __future__ import annotations

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.exact.decide import sign, simplify
from exactdp.exact.radical import Rad
from exactdp.mechanisms import generalized_rr, permute_and_flip, randomized_response
from exactdp.interop.accountants import _laplace_model, check_laplace_model
from exactdp.composition.profile import privacy_profile


def test_permute_and_flip_two_candidates_is_dominated_not_identical():
    """eps = log 4, scores swapped: the exact profile is 3/4 - t/4 up to t = 3; the model 1 - sqrt(t)/2; their
    difference is (sqrt(t) - 1)^2 / 4 >= 0, zero only at t = 1 (eps' = 0)."""
    pf = permute_and_flip([[1, 0], [0, 1]], eps="log(4)")
    assert privacy_profile(pf, [("0", "1")]).delta(eps="log(2)") == fmpq(1, 4)          # the numbers
    model = _laplace_model(fmpq(2), fmpq(4))
    assert sign(model - (Rad.rat(fmpq(1)) - Rad.power(fmpq(1, 2), fmpq(1, 2)))) == 0     # 1 - sqrt(1/2)
    c = check_laplace_model(pf, [("0", "1")], eps="log(4)")
    assert (c.relation, c.witness_t, c.touch_t) == ("dominates", None, "1")


@pytest.mark.parametrize("scores", [[[2, 0, 1], [1, 1, 0]], [[0, 1, 2, 3], [1, 2, 3, 2]]])
def test_permute_and_flip_more_candidates(scores):
    for e in ("log(4)", "log(9)"):
        assert check_laplace_model(permute_and_flip(scores, eps=e), [("0", "1")], eps=e).relation == "dominates"


def test_randomized_response_is_not_covered_with_a_witness():
    """Randomized response with ratio 3 against the Laplace model at log 3: at eps' = 0 the exact delta (total
    variation 1/2) exceeds the model's 1 - 1/sqrt(3)."""
    rr = randomized_response(2, p="1/4")
    c = check_laplace_model(rr, [("0", "1")], eps="log(3)")
    assert c.relation == "neither" and c.witness_t == "1" and c.exact_delta == "1/2"
    t = fmpq(c.witness_t)
    assert privacy_profile(rr, [("0", "1")]).delta(eps="0") == fmpq(1, 2)
    assert sign(simplify(_laplace_model(t, fmpq(3)) - Rad.rat(fmpq(1, 2)))) < 0


def test_model_zero_eps():
    """At eps = 0 the model is 0 everywhere: identical to a mechanism whose rows are equal, else neither."""
    same = randomized_response(2, p="1/2")
    assert check_laplace_model(same, [("0", "1")], eps="0").relation == "identical"
    assert check_laplace_model(randomized_response(2, p="1/4"), [("0", "1")], eps="0").relation == "neither"


def test_bad_input():
    with pytest.raises(InvalidInput, match="rational"):
        check_laplace_model(generalized_rr(2, eps="1"), [("0", "1")], eps="log(4)")
    with pytest.raises(InvalidInput, match="e\\^eps must be rational"):
        check_laplace_model(randomized_response(2, p="1/4"), [("0", "1")], eps="1")
