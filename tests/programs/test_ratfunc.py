"""RatFunc (issue 28): reduced rational functions of t, checked against fractions at rational points."""

from fractions import Fraction

import pytest

from exactdp.programs import RatFunc

T = RatFunc.mono(1)


def test_reduced_form_is_unique():
    a = (1 - T * T) / (1 - T)
    assert a == 1 + T and a.den == 1
    assert RatFunc.mono(-2) * RatFunc.mono(2) == 1
    assert hash((2 * T) / T) == hash(RatFunc(2))
    assert RatFunc(0) == 0 and RatFunc(0).is_zero()


@pytest.mark.parametrize("t", [Fraction(1, 3), Fraction(2, 7), Fraction(5, 4)])
def test_arithmetic_agrees_with_fractions(t):
    f = (1 - T) / (1 + T) * RatFunc.mono(-3) + RatFunc.mono(2, Fraction(1, 2)) - 3
    assert f.at(t) == (1 - t) / (1 + t) / t**3 + t**2 / 2 - 3
    assert (1 / f).at(t) == 1 / f.at(t)
    assert (2 - f).at(t) == 2 - f.at(t)


def test_text_and_degree():
    assert str((1 - T) / (1 + T)) == "(-t + 1)/(t + 1)"
    assert str(RatFunc.mono(3, Fraction(-3, 2)) + 1) == "-3/2 t^3 + 1"
    assert ((1 - T) / (1 + T * T)).degree() == 2


def test_division_by_zero():
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        T / RatFunc(0)
    with pytest.raises(ZeroDivisionError, match="vanishes at t = 1"):
        (1 / (1 - T)).at(Fraction(1))
