"""Regression tests for issue 8 (hardening), library side: mechanisms.

Each input is the one the issue reports. Moved from tests/test_hardening.py, which was split by the module each
test exercises."""

import pytest

from exactdp.certify import certify_privacy, smallest_epsilon
from exactdp.errors import NotStochastic
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import exponential
from exactdp.metrics import grid, path


# -------------------------------------------------------------- mechanisms ----
def test_negative_entry_of_symbolic_mechanism_at_alpha():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2*alpha", "1-2*alpha"], ["1/2", "1/2"]], validate=False)
    with pytest.raises(NotStochastic, match=r"entry \('0', '1'\) = -1/2 is negative"):
        certify_privacy(K, path(2), alpha="3/4")
    assert certify_privacy(K, path(2), alpha="1/4").holds is True  # rows 1/2, 1/2 and 1/2, 1/2


def test_huge_row_sum_abbreviated_in_message():
    with pytest.raises(NotStochastic, match=r"sums to 20035299304068464649\.\.\.9156737 \(19729 digits\), expected"):
        Mechanism.from_rows(["0"], ["0", "1"], [["2^65536", "1"]])


def test_exponential_on_2x2_euclidean_grid_exactly_beta():
    m = grid((2, 2), "euclidean")
    c = smallest_epsilon(exponential(m, beta="1/4"), m)
    # every row has the same normaliser, so the ratio is e^(beta (d(x',z) - d(x,z))) <= e^(beta d(x,x'))
    assert c.holds is True and c.evidence.epsilon == "1/4" and c.recheck().ok is True


def test_identity_mechanism_has_no_finite_epsilon():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1", "0"], ["0", "1"]])
    c = smallest_epsilon(K, path(2))
    assert c.holds is False and c.evidence.epsilon == "inf" and c.recheck().ok is True
    assert "$" not in c.to_text() and "not eps d-private for any finite eps" in c.to_text()
