"""GRS12 users: loss tables, the prior and loss validation (rational and radical losses), exact errors."""

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.optimality.users import User, loss_table


def test_loss_tables():
    assert loss_table("squared", 2)[0] == [0, 1, 4]
    assert loss_table("binary", 2)[1] == [1, 0, 1]
    with pytest.raises(InvalidInput, match="expected one of"):
        loss_table("hinge", 2)


@pytest.mark.parametrize("prior, loss, msg", [
    (["1/2", "1/3"], "absolute", "sum to 5/6"),
    (["3/2", "-1/2"], "absolute", r"p\[1\] = -1/2 is negative"),
    (["1"], "absolute", "n >= 1"),
    (["1/2", "1/2"], [[0, 1], [1, 0], [1, 1]], "expected a 2 x 2 table to match the prior, got 3 rows$"),
    (["1/2", "1/2"], [[0, 1], [1, 0, 1]], "expected a 2 x 2 table to match the prior, got a row of 3 entries$"),
    (["1/2", "1/2"], [[0, -1], [1, 0]], "negative"),
    ([1, 0, 0], [[0, 2, 1], [1, 0, 1], [2, 1, 0]], r"i = 0, r = 1, r' = 2"),
    ([0.5, 0.5], "absolute", "binary float"),
])
def test_bad_users(prior, loss, msg):
    with pytest.raises((InvalidInput, TypeError), match=msg):
        User(prior, loss)


def test_radical_user_validation():
    from exactdp.exact.radical import Rad
    s2 = Rad.power(2, fmpq(1, 2))
    u = User(["1/2", "1/2"], [[0, s2], [s2, 0]])
    assert not u.rational and u.loss[0][1] == s2
    assert User(["1/2", "1/2"], [[0, s2 * s2], [1, 0]]).rational  # sqrt2 * sqrt2 = 2 is kept rational
    with pytest.raises(InvalidInput, match=r"l\(0, 1\) = 2\^\(1/2\) > l\(0, 2\) = 1"):
        User([1, 0, 0], [[0, s2, 1], [1, 0, 1], [2, 1, 0]])
    with pytest.raises(InvalidInput, match="negative"):
        User(["1/2", "1/2"], [[0, -s2], [1, 0]])
