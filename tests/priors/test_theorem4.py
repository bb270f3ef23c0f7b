"""ECP14 Theorem 4: remaps that make a mechanism tight (a split output merged back), both verdicts."""

from exactdp.exact.level import Level
from exactdp.mechanisms import geometric, randomized_response
from exactdp.metrics import path


HALF = Level.from_alpha("1/2")


def test_theorem4_remaps():
    from exactdp.mechanism import mechanism_from_values
    from exactdp.priors.theorem4 import deterministic_tight_remaps, tight_remap
    G = geometric(3, "1/2")
    # split output 1 into two outputs carrying half of its mass each: the merge remap restores G
    rows = []
    for i in range(4):
        r = [G[i, j] for j in range(4)]
        rows.append([r[0], r[1] / 2, r[1] / 2, r[2], r[3]])
    H = mechanism_from_values(G.inputs, ["0", "1a", "1b", "2", "3"], rows)
    c = tight_remap(H, path(4), HALF)
    assert c.holds is True
    found = deterministic_tight_remaps(H, path(4), HALF)
    assert {"0": "0", "1a": "1", "1b": "1", "2": "2", "3": "3"} in found
    # a mechanism that no remap makes tight: randomized response far from the threshold
    assert tight_remap(randomized_response(["0", "1", "2", "3"], p="1/5"), path(4), HALF).holds is False
