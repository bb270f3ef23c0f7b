"""GRS12 Bayes remaps: the optimal remap of the geometric mechanism by hand, and its matrix."""

from flint import fmpq

from exactdp.mechanisms import geometric
from exactdp.optimality.remaps import bayes_remap, remap_matrix
from exactdp.optimality.users import User, expected_loss


def test_expected_loss_and_remap_by_hand():
    u = User(["1/2", 0, 0, "1/2"], "binary")  # GRS12 Ex. 2.2 shape, n = 3
    G = geometric(3, "1/2")
    assert expected_loss(G, u) == fmpq(1, 3)  # 1 - 2/3 on each end
    mapping, R = bayes_remap(G, u)
    assert mapping == {"0": "0", "1": "0", "2": "3", "3": "3"}
    assert expected_loss(R, u) == fmpq(1, 6)
    M = remap_matrix(mapping, G.outputs, [str(r) for r in range(4)])
    assert G.compose(M).rows() == R.rows()
