"""Lin, the exact Q-linear combinations of square roots and eps (exactdp.exact.lin): square-free splitting,
arithmetic and exact signs."""

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput, UnsupportedRegime
from exactdp.exact.lin import Lin, squarefree_split


def test_squarefree():
    assert squarefree_split(1) == (1, 1)
    assert squarefree_split(50) == (5, 2)
    with pytest.raises(InvalidInput):
        squarefree_split(0)


def test_lin_arithmetic_and_sign():
    r2, r3 = Lin.sqrt(2), Lin.sqrt(3)
    assert (r2 * r3) == Lin.sqrt(6)
    assert (r2 + r2) == Lin.sqrt(8)
    assert (r2 - r2).is_zero()
    assert (r2 + r3 - Lin.sqrt(5)).sign() == 1
    assert (Lin.sqrt(2) * 1000 - 1414).sign() == 1 and (Lin.sqrt(2) * 1000 - 1415).sign() == -1
    # very close but not equal: sqrt(10^12+1) - 10^6 > 0
    assert (Lin.sqrt(10**12 + 1) - 10**6).sign() == 1
    with pytest.raises(UnsupportedRegime):
        (Lin.eps() + 1).sign()
    with pytest.raises(UnsupportedRegime):
        Lin.eps() * Lin.eps()
    assert str(Lin.sqrt(5) * fmpq(-3, 2)) == "-3*sqrt(5)/2"
