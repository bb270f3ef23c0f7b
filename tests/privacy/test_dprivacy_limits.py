"""Regression tests for issue 8 (hardening), library side: huge exponent numerators in certify_privacy.

Each input is the one the issue reports. Moved from tests/test_hardening.py, which was split by the module each
test exercises."""

import pytest

from exactdp.certify import certify_privacy
from exactdp.mechanism import Mechanism
from exactdp.metrics import from_matrix, path

GEO2 = [["1/(1+alpha)", "alpha/(1+alpha)"], ["alpha/(1+alpha)", "1/(1+alpha)"]]


def geo2():
    return Mechanism.from_rows(["0", "1"], ["0", "1"], GEO2, validate=False)


# -------------------------------------------------- huge exponent numerators ----
@pytest.mark.parametrize("eps", ["499999999999/1000000000000", "49999999/100000000"])
def test_geometric_2x2_at_eps_with_huge_denominator(eps):
    c = certify_privacy(geo2(), path(2), eps=eps)
    # the ratio K(0)(0)/K(1)(0) is 1/alpha = e^eps exactly: holds, tight
    assert c.holds is True and c.evidence.epsilon == eps
    f = c.evidence.factors[0]
    assert (f.distance, f.factor) == ("1", f"exp({eps})")
    assert c.recheck().ok is True


def test_distance_1_over_1000003_at_alpha_half():
    m = from_matrix(["0", "1"], [[0, "1/1000003"], ["1/1000003", 0]])
    c = certify_privacy(geo2(), m, alpha="1/2")
    # K(0)(0)/K(1)(0) = 1/alpha = 2 > 2^(1/1000003)
    assert c.holds is False and c.evidence.violation.lhs == "2/3"
