"""Regression tests for issue 8 (hardening), library side: numbers: exact parsing and evaluation.

Each input is the one the issue reports. Moved from tests/test_hardening.py, which was split by the module each
test exercises."""

import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, ParseError, UnsupportedRegime
from exactdp.exact.lin import squarefree_split
from exactdp.exact.values import MAX_POLY_POWER, MAX_RESULT_BITS, Setting, brief, exact_number
from exactdp.mechanism import Mechanism


# ---------------------------------------------------------------- numbers ----
@pytest.mark.parametrize("text", ["٢/٣", "１/２", "1/٣"])
def test_non_ascii_digits_refused(text):
    with pytest.raises(ParseError, match="non-ASCII digit"):
        exact_number(text)


def test_5001_digit_string_refused_before_int_conversion():
    with pytest.raises(InputTooLarge, match="5001 digits; the limit is 2000"):
        exact_number("1" * 5001)
    with pytest.raises(InputTooLarge, match="5001 digits"):
        Mechanism.from_rows(["0"], ["0"], [["1" * 5001]])
    with pytest.raises(InputTooLarge, match="decimal exponent"):
        exact_number("1e" + "9" * 5001)


def test_tower_of_powers_refused_with_abbreviated_exponent():
    with pytest.raises(InputTooLarge, match=r"exponent 20035299304068464649\.\.\.9156736 \(19729 digits\) is beyond"):
        exact_number("2^2^2^2^2^2")


def test_result_size_of_powers_bounded():
    with pytest.raises(InputTooLarge, match=f"beyond the limit {MAX_RESULT_BITS} bits"):
        exact_number("(2^100000)^100000")
    assert exact_number("(2^1000)^900") == fmpq(2) ** 900_000  # under the limit: exact
    with pytest.raises(InputTooLarge, match=f"limit {MAX_POLY_POWER}"):
        exact_number("(1+exp(1))^5000")


def test_long_plus_zero_chain_evaluates_iteratively():
    text = "1/2" + "+0" * 1000
    assert len(text) == 2003
    assert exact_number(text) == fmpq(1, 2)
    assert exact_number("1" + "-1+1" * 2400) == 1  # 9,601 characters, under the length limit


def test_brief_keeps_short_numbers_and_cuts_long_ones():
    assert brief(fmpq(-3, 4)) == "-3/4"
    b = brief(fmpq(2) ** 65536)
    assert b.endswith("(19729 digits)") and len(b) < 60


def test_square_root_of_hard_to_factor_integer_refused_fast():
    with pytest.raises(UnsupportedRegime, match="cannot be factored cheaply"):
        exact_number("sqrt(10^200+1)")
    with pytest.raises(UnsupportedRegime, match="perfect squares"):
        exact_number("sqrt(10^2000+3)")
    assert squarefree_split(2**300 * 3) == (2**150, 3)
    assert exact_number("sqrt(10^3000)") == fmpq(10) ** 1500


@pytest.mark.parametrize("text", ["3^(-1/2)", "exp(-log(3)/2)", "(sqrt(3))^(-1)", "sqrt(3)^(-2)*sqrt(3)"])
def test_negative_and_half_powers_are_exact_square_roots(text):
    # audit 2026-11-24 defect 11: 3^(-1/2) = 1/sqrt(3) = sqrt(3)/3 exactly (its square is 1/3, it is positive)
    from exactdp.exact.lin import Lin
    v = exact_number(text)
    assert isinstance(v, Lin) and (v * v).rational() == fmpq(1, 3) and v.sign() > 0
    assert str(v) == "sqrt(3)/3"


def test_symbolic_setting_alpha_is_exp_minus_eps():
    a = exact_number("alpha", Setting.symbolic())
    assert (a - exact_number("exp(-eps)", Setting.symbolic())).is_zero()
