"""The exact (eps, delta) expected-error LP (HLM15 Section 6)."""

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.metrics import discrete, path
from exactdp.utility.approx_error import min_max_expected_error


@pytest.mark.parametrize("m, t, delta", [(1, 2, "0"), (2, 3, "1/10"), (3, 2, "1/3"), (3, 5, "9/10")])
def test_discrete_metric_meets_theorem7(m, t, delta):
    # Theorem 7 gives E >= (1 - delta) m/(m + t); randomized response attains it (Example 7)
    value, _rows, sol = min_max_expected_error(discrete(m + 1), t, delta)
    assert sol.verify() and value == (1 - fmpq(delta)) * m / (m + t)


def test_optimal_rows_are_private_and_stochastic():
    t, delta = fmpq(2), fmpq(1, 10)
    value, rows, _ = min_max_expected_error(path(3), t, delta)
    assert all(sum(r) == 1 and min(r) >= 0 for r in rows)
    for a in range(3):
        for b in range(3):
            if a != b:   # worst-set excess of every ordered pair within delta
                assert sum(max(rows[a][u] - t * rows[b][u], 0) for u in range(3)) <= delta
    assert max(sum(abs(u - d) * rows[d][u] for u in range(3)) for d in range(3)) == value


def test_delta_one_allows_zero_error():
    value, _, _ = min_max_expected_error(path(3), 2, "1")
    assert value == 0


@pytest.mark.parametrize("t, delta, match", [("1/2", "0", "e\\^eps: expected t >= 1"),
                                             (2, "3/2", "delta: expected 0 <= delta <= 1")])
def test_bad_input(t, delta, match):
    with pytest.raises(InvalidInput, match=match):
        min_max_expected_error(path(3), t, delta)
