"""The distinct constraint triples (:mod:`exactdp.privacy.triples`): the blocks of the byte map and the width of
the keys.  The modes themselves are compared with a brute force in ``tests/privacy/test_constraints_modes.py``."""

import pytest
from flint import fmpq

from exactdp.privacy.triples import Triples
from exactdp.mechanism import mechanism_from_values
from exactdp.metrics import path


def test_blocks_cover_the_range_in_order_growing_to_the_cap(monkeypatch):
    from exactdp.privacy import triples as C

    monkeypatch.setattr(C, "FIRST_BLOCK", 2)
    monkeypatch.setattr(C, "BLOCK", 8)
    for n in (0, 1, 2, 3, 7, 30, 31):
        b = list(C._blocks(n))
        assert [i for b0, b1 in b for i in range(b0, b1)] == list(range(n))
        assert [b1 - b0 for b0, b1 in b][:-1] == [2, 4, 8, 8, 8][:max(len(b) - 1, 0)]


@pytest.mark.parametrize("n_values, dtype", [(46340, "int32"), (46341, "int64")])
def test_forward_keys_are_narrow_only_when_every_key_fits(n_values, dtype):
    # V^2 < 2^31 exactly when V <= 46340: the keys (a V + b) are built as int32 then, as int64 beyond
    import numpy as np

    m = (n_values + 1) // 2
    rows = [[fmpq(1, m + k) for k in range(m)], [fmpq(1, 3 * m + k) for k in range(m)]]
    if n_values % 2:
        rows[1][0] = rows[0][0]  # one value shared: 2 m - 1 distinct
    mech = mechanism_from_values(["0", "1"], [str(j) for j in range(m)], rows, validate=False)
    assert len(mech.values) == n_values
    cons = Triples(mech, path(2))
    k = cons._forward_keys(0, 1, n_values, 1)
    assert k.dtype == np.dtype(dtype)
    a, b = mech.codes[0].astype(np.int64), mech.codes[1].astype(np.int64)
    assert k.astype(np.int64).tolist() == (a * n_values + b).tolist()
