"""Randomized response's fast builder (issue 20, item 1) gives exactly the cell-by-cell construction: rational p,
the symbolic optimum p = alpha/(1 + (m - 1) alpha), the corners p = 0 and p = 1/2, validated exactly."""

from fractions import Fraction

import pytest
from flint import fmpq

from exactdp import Mechanism, randomized_response
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin


@pytest.mark.parametrize("m, p", [(2, "1/4"), (5, "1/10"), (7, None), (3, "0"), (3, "1/2")])
def test_randomized_response_cell_by_cell(m, p):
    cats = [f"c{k}" for k in range(m)]
    R = randomized_response(cats, p=p)
    a = ExpFrac.exp(-Lin.eps())
    pv = a / (1 + (m - 1) * a) if p is None else Fraction(p)
    for x in cats:
        for z in cats:
            want = 1 - (m - 1) * pv if x == z else pv
            got = R.entry(x, z)
            if isinstance(want, Fraction):
                assert got == fmpq(want.numerator, want.denominator)
            else:
                assert got - want == 0
    Mechanism(R.inputs, R.outputs, R.codes, R.values, validate=True)
