from fractions import Fraction
from decimal import Decimal

import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, InvalidInput, InvalidType, ParseError, UnsupportedRegime
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.exact.parse import MAX_EXPR_CHARS, parse_exact
from exactdp.exact.values import LogVal, Setting, distance, exact_number, from_python, probability


@pytest.mark.parametrize("text, value", [
    ("3", fmpq(3)), ("3/4", fmpq(3, 4)), (" 3 / 4 ", fmpq(3, 4)), ("0.1", fmpq(1, 10)), (".5", fmpq(1, 2)),
    ("1e-3", fmpq(1, 1000)), ("2.5E2", fmpq(250)), ("2^-3", fmpq(1, 8)), ("2**3", fmpq(8)), ("-(1/2)", fmpq(-1, 2)),
    ("(1 + 2) * 3 - 4/2", fmpq(7)), ("2^3^2", fmpq(512)), ("-2^2", fmpq(-4)), ("exp(0)", fmpq(1)),
    ("exp(log(3))", fmpq(3)), ("exp(2*log(3))", fmpq(9)), ("sqrt(9/4)", fmpq(3, 2)), ("sqrt(4)^3", fmpq(8)),
])
def test_rational_values(text, value):
    assert exact_number(text) == value


def test_decimal_is_exact_not_binary():
    assert exact_number("0.1") + exact_number("0.2") == exact_number("0.3")
    assert exact_number("0.30000000000000004") != exact_number("0.3")


@pytest.mark.parametrize("text", [
    "__import__('os')", "os.system('ls')", "1;2", "lambda: 1", "[1]", "1 2", "(1", "1)", "", "  ", "exp", "exp()",
    "alpha alpha", "1/", "*2", "x", "e", "pi", "1 = 1", "'1'", "1 // 2", "a.b",
])
def test_grammar_rejects(text):
    with pytest.raises(ParseError):
        parse_exact(text)


def test_error_names_position_and_hint():
    with pytest.raises(ParseError, match=r"unknown name '__import__' at position 0.*allowed: numbers, alpha"):
        exact_number("__import__('os').system('x')")


def test_limits():
    with pytest.raises(InputTooLarge, match="characters"):
        parse_exact("1+" * MAX_EXPR_CHARS + "1")
    with pytest.raises(InputTooLarge, match="nesting"):
        parse_exact("(" * 200 + "1" + ")" * 200)
    with pytest.raises(InputTooLarge, match="digits"):
        parse_exact("1" * 5000)
    with pytest.raises(InvalidInput, match="exponent"):
        exact_number("2^1000000")


def test_division_by_zero():
    with pytest.raises(InvalidInput, match="division by zero"):
        exact_number("1/0")
    with pytest.raises(InvalidInput, match="division by zero"):
        exact_number("1/(alpha - alpha)", Setting.symbolic())


def test_transcendental_and_algebraic_values():
    t = exact_number("exp(1/2)")
    assert isinstance(t, ExpFrac) and t.monomial() == (1, Lin.rat(fmpq(1, 2)))
    assert exact_number("sqrt(8)") == Lin.sqrt(8)
    assert exact_number("sqrt(2)*sqrt(2)") == 2
    lv = exact_number("log(9/8)")
    assert isinstance(lv, LogVal) and lv.base == fmpq(9, 8)
    assert str(exact_number("2*log(3)/3")) == "2*log(3)/3"


def test_alpha_needs_a_setting():
    with pytest.raises(InvalidInput, match="'alpha' is not defined"):
        exact_number("alpha")
    assert probability("alpha^2", alpha=fmpq(1, 3)) == fmpq(1, 9)


@pytest.mark.parametrize("text", ["log(3)", "sqrt(2)"])
def test_probability_rejects_non_probabilities(text):
    with pytest.raises(UnsupportedRegime):
        probability(text)


def test_unsupported_powers():
    with pytest.raises(UnsupportedRegime, match="log"):
        exact_number("2^(1/3)")
    with pytest.raises(InvalidInput, match="non-positive"):
        exact_number("log(-1)")


def test_from_python():
    assert from_python(3) == 3
    assert from_python(Fraction(1, 3)) == fmpq(1, 3)
    assert from_python(Decimal("0.25")) == fmpq(1, 4)
    import sympy
    assert from_python(sympy.Rational(2, 7)) == fmpq(2, 7)
    with pytest.raises(InvalidType, match=r"binary float 0\.1.*allow_float=True"):
        from_python(0.1)
    assert from_python(0.5, allow_float=True) == fmpq(1, 2)
    assert from_python(0.1, allow_float=True) == fmpq(3602879701896397, 36028797018963968)
    with pytest.raises(InvalidInput, match="NaN"):
        from_python(float("nan"), allow_float=True)
    with pytest.raises(InvalidInput, match="finite"):
        from_python(float("inf"))
    with pytest.raises(InvalidType, match="boolean"):
        from_python(True)
    with pytest.raises(InvalidType, match="expected an int"):
        from_python([1])
    import numpy as np
    with pytest.raises(InvalidType, match="binary float"):
        from_python(np.float64(0.25))
    assert from_python(np.int64(4)) == 4


def test_distance_values():
    assert distance("inf") == float("inf")
    assert distance("sqrt(2)") == Lin.sqrt(2)
    with pytest.raises(UnsupportedRegime, match="transcendental"):
        distance("exp(1)")
