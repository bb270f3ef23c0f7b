"""Precision running out is ``Undecided`` (exit 3) in every exact number type, never ``UnsupportedRegime``
(exit 2, "bad input"): the input was fine, the question was not separated within the precision allowed
(issue 21, "Errors")."""

import pytest
from flint import fmpq

from exactdp.errors import Undecided, UnsupportedRegime
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.exact.radical import Rad

# each value is non-zero but within 2^-90 of zero, so 64 bits cannot separate it and 512 bits can
# rounded up: sqrt(2) = 1.41421356237309504880168872420969807..., e^(1/2) = 1.64872127070012814684865078781416357...
_SQRT2 = fmpq(14142135623730950488016887242097, 10**31)
_E_HALF = fmpq(16487212707001281468486507878142, 10**31)


def _cases():
    yield "Lin", Lin.sqrt(2) - _SQRT2, -1
    yield "Rad", Rad.power(2, fmpq(1, 2)) - _SQRT2, -1
    yield "ExpFrac", ExpFrac.exp(Lin.rat(fmpq(1, 2))) - _E_HALF, -1


@pytest.mark.parametrize("name,value,sign", list(_cases()), ids=[c[0] for c in _cases()])
def test_exhaustion_is_undecided_and_more_precision_decides(name, value, sign):
    with pytest.raises(Undecided, match="not separated"):
        value.sign(max_prec=64)
    # the same value is decided exactly with the default precision
    assert value.sign() == sign


def test_undecided_is_not_a_bad_input():
    assert not issubclass(Undecided, UnsupportedRegime)
