"""KL10's privacy-utility tradeoff LP: the discrete metric's closed form, the optimal mechanism, bad inputs."""

import pytest
from flint import fmpq

from exactdp import InvalidInput
from exactdp.errors import Undecided
from exactdp.metrics import discrete, path
from exactdp.utility.tradeoff import certify_tradeoff, discrete_tradeoff, utility_lp
from exactdp.utility.utility import certify_utility


@pytest.mark.parametrize("n,delta", [(2, "1/3"), (3, "1/5"), (4, "1/10"), (5, "1/2")])
def test_tradeoff_lp_matches_discrete_closed_form(n, delta):
    d = fmpq(delta)
    t_star = discrete_tradeoff(n, d)
    # s*(t) = t/(t + n - 1) exactly, at t* and at a smaller t
    for t in (t_star, t_star * fmpq(9, 10) if t_star > 1 else fmpq(1)):
        assert utility_lp(discrete(n), t, gamma="1").value == t / (t + n - 1)
    c = certify_tradeoff(discrete(n), gamma="1", delta=delta)
    if t_star == 1:
        assert c.evidence.epsilon == "0"
    else:
        ev = c.evidence
        lo, hi = fmpq(ev.t_lower), fmpq(ev.t_upper)
        assert lo < t_star <= hi and fmpq(ev.s_lower) < 1 - d <= fmpq(ev.s_upper)
        assert ev.epsilon == f"log({t_star})"      # exact (issue 19): the closed form, no longer a bracket
    assert c.recheck().status == "confirmed"


def test_tradeoff_optimal_mechanism_is_private_and_useful():
    from exactdp import certify_privacy
    u = utility_lp(path(4), fmpq(3), gamma="2")
    assert certify_privacy(u.mechanism, path(4), alpha="1/3").holds is True
    assert certify_utility(u.mechanism, path(4), gamma="2", delta=str(1 - u.value)).holds is True
    assert u.solution.verify()


def test_tradeoff_bad_inputs():
    with pytest.raises(InvalidInput, match="t: expected t = e\\^eps >= 1"):
        utility_lp(path(3), fmpq(1, 2), gamma="1")
    with pytest.raises(Undecided, match="not an integer"):  # a valid metric the LP route does not support
        utility_lp(path(3).scaled("1/2"), fmpq(2), gamma="1")
