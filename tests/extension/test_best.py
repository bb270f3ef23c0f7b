"""The best extension's exact slack LP (BCSZ18): exactly log(5/2) at L = 2, a bracket containing the lower-bound
root, a non-private input refused."""

from fractions import Fraction

import pytest

from exactdp import InvalidInput, Mechanism
from exactdp.metrics import path


def _ends(L):
    q = Fraction(1, 1 + 2**L)
    return Mechanism.from_rows(["0", str(L)], ["a", "b"], [[str(1 - q), str(q)], [str(q), str(1 - q)]])


def test_best_extension_L2_is_exactly_log_5_2():
    from flint import fmpq
    from exactdp.extension.best import extension_slack_lp
    # necessary: b_1 <= t q and 1 - b_1 <= t q with q = 1/5, so 2t >= 5; the LP shows t = 5/2 suffices
    at = extension_slack_lp(_ends(2), path(3), ["0", "2"], fmpq(5, 2))
    below = extension_slack_lp(_ends(2), path(3), ["0", "2"], fmpq(249, 100))
    assert at.value == 0 and below.value > 0 and below.solution.verify() and at.solution.verify()
    row = [Fraction(str(v)) for v in at.mechanism.rows()[1]]
    assert row == [Fraction(1, 2), Fraction(1, 2)]  # b_1 = 1/2 is forced: t q = 1/2 = 1 - t q


@pytest.mark.parametrize("L", [3, 4])
def test_best_extension_bracket_contains_the_lower_bound_root(L):
    from flint import fmpq
    from exactdp.extension.best import best_extension_bracket
    c = best_extension_bracket(_ends(L), path(L + 1), ["0", str(L)], alpha="1/2", rel_width="1/64")
    lo, hi = fmpq(c.evidence.t_lower), fmpq(c.evidence.t_upper)
    assert c.recheck().status == "confirmed"
    a, b = L // 2, L - L // 2
    assert lo ** a + lo ** b < 1 + 2**L <= hi ** a + hi ** b


def test_best_extension_refuses_non_private_input():
    from exactdp.extension.best import best_extension_bracket
    # ratio 9 > e^(eps d) = 4: not eps-private on H
    Ah = Mechanism.from_rows(["0", "2"], ["a", "b"], [["9/10", "1/10"], ["1/10", "9/10"]])
    with pytest.raises(InvalidInput, match="no extension is 2 eps-private"):
        best_extension_bracket(Ah, path(3), ["0", "2"], alpha="1/2")
