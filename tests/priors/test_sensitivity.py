"""ECP14 uniform sensitivity of a query and the composed mechanism H o f."""

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.mechanisms import geometric
from exactdp.metrics import hamming, path


def test_uniform_sensitivity_and_composition():
    from exactdp.metrics import induced
    from exactdp.priors.sensitivity import compose_query, uniformly_sensitive
    X = hamming([0, 1], 2)
    f = {p: str(sum(int(c) for c in p.split(","))) for p in X.points}
    Y = induced([0, 1], 2, lambda x: sum(x))
    assert uniformly_sensitive(X, Y, f, 1) == (True, "both conditions hold")
    ok, why = uniformly_sensitive(X, path(3), f, fmpq(1, 2))
    assert not ok and "condition 1 fails" in why
    H = geometric(2, "1/2")
    HF = compose_query(H, f, X)
    assert HF.entry("1,1", "2") == H.entry("2", "2")
    with pytest.raises(InvalidInput, match="every point"):
        uniformly_sensitive(X, Y, {"0,0": "0"}, 1)
