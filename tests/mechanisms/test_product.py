"""Products of mechanisms (exactdp.mechanisms.product): k-fold repetition and product sanitisation, entries by
hand, bad k and the size limit."""

import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, InvalidInput
from exactdp.mechanisms import randomized_response
from exactdp.mechanisms.product import product_sanitisation, repeated


def test_repeated_is_the_product():
    R = repeated(randomized_response(2, p="1/4"), 3)
    assert R.entry("0", "0,0,1") == fmpq(9, 64) and len(R.outputs) == 8


def test_product_sanitisation_entries():
    Y = product_sanitisation(randomized_response(3, p="1/5"), 2)
    assert Y.shape == (9, 9) and Y.entry("0,2", "0,1") == fmpq(3, 25)


def test_repeated_bad_input():
    with pytest.raises(InvalidInput, match="k: expected an integer >= 1"):
        repeated(randomized_response(2, p="1/4"), 0)
    with pytest.raises(InputTooLarge, match="cells exceed"):
        repeated(randomized_response(2, p="1/4"), 40)
