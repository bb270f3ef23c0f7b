"""dp_accounting DpEvent trees read exactly (issue 29): each leaf's PLD, the composition, refusals by name."""

from __future__ import annotations

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.exact.decide import sign, simplify
from exactdp.exact.values import exact_number
from exactdp.mechanisms import generalized_rr, geometric
from exactdp.interop.accountants import dp_event_deltas, plan_of_dp_event
from exactdp.composition.composition import composed_profile, privacy_loss_distribution
from exactdp.composition.composition import certify_composition

dp = pytest.importorskip("dp_accounting")
de = pytest.importorskip("dp_accounting.dp_event")


class DiscreteGaussianDpEvent:
    """The event of dp_accounting's newer releases (absent from 0.6.0), matched by class name."""

    def __init__(self, sigma, sensitivity=1):
        self.sigma, self.sensitivity = sigma, sensitivity


def test_randomized_response_event():
    """p = 1/2 on 2 buckets keeps the input with 3/4: three runs at eps = 0 have total variation 11/16."""
    ev = dp.SelfComposedDpEvent(dp.RandomizedResponseDpEvent(0.5, 2), 3)
    assert dp_event_deltas(ev, ["0"])[0].value == fmpq(11, 16)
    (m, k), = plan_of_dp_event(ev)
    assert k == 3 and [[str(v) for v in r] for r in m.rows()] == [["3/4", "1/4"], ["1/4", "3/4"]]
    ev4 = dp.RandomizedResponseDpEvent(0.5, 4)      # 4 buckets: stay 5/8, move 1/8 each
    (m4, _), = plan_of_dp_event(ev4)
    assert [str(v) for v in m4.rows()[0]] == ["5/8", "1/8", "1/8", "1/8"]


def test_discrete_laplace_event_is_the_clamped_geometric():
    """DLap(a = 1), sensitivity 1: P(z <= 0) = 1/(1 + e^-1) at ratio e, e^-1/(1 + e^-1) at ratio 1/e (the
    infinite sums in closed form) -- the clamp's PLD."""
    (m, _), = plan_of_dp_event(de.DiscreteLaplaceDpEvent(1.0, 1))
    L = privacy_loss_distribution(m, "0", "1")
    got = {str(L.dom.to_exp(r)): L.dom.quotient(p, L.den_p) for r, p, _ in L.masses.values()}
    assert sorted(got) == ["exp(-1)", "exp(1)"] and L.inf.is_zero()
    assert sign(simplify(got["exp(1)"] - exact_number("1/(1 + exp(-1))"))) == 0
    assert sign(simplify(got["exp(-1)"] - exact_number("exp(-1)/(1 + exp(-1))"))) == 0
    ev = dp.ComposedDpEvent([dp.SelfComposedDpEvent(de.DiscreteLaplaceDpEvent(1.0, 2), 2),
                             de.DiscreteLaplaceDpEvent(1.0, 1)])
    g2, g1 = geometric(2, eps="1"), generalized_rr(2, eps="1")
    plan = plan_of_dp_event(ev)
    assert [k for _, k in plan] == [2, 1] and plan[0][0].rows() == [g2.rows()[0], g2.rows()[2]]
    for e in ("0", "1", "3"):
        ref = exact_number(certify_composition(plan, [("0", "1")], eps=e).evidence.query.delta_at_eps)
        assert sign(simplify(dp_event_deltas(ev, [e])[0].value - ref)) == 0
    # DLap(1) with sensitivity 1 is binary randomized response at eps0 = 1
    ref1 = composed_profile(g1, [("0", "1")], 4).delta(eps="2")
    assert sign(simplify(dp_event_deltas(dp.SelfComposedDpEvent(de.DiscreteLaplaceDpEvent(1.0, 1), 4), [2.0])[0]
                         .value - ref1)) == 0


def test_discrete_gaussian_event_needs_its_truncation():
    ev = dp.SelfComposedDpEvent(DiscreteGaussianDpEvent(1.0), 2)
    with pytest.raises(InvalidInput, match="state the truncation"):
        dp_event_deltas(ev, ["1"])
    (m, k), = plan_of_dp_event(ev, truncation=3)
    assert k == 2 and list(m.outputs) == [str(y) for y in range(-3, 5)] and str(m.rows()[0][7]) == "0"
    r = dp_event_deltas(ev, ["1"], truncation=3)[0]
    ref = exact_number(certify_composition([(m, 2)], [("0", "1")], eps="1").evidence.query.delta_at_eps)
    assert sign(simplify(r.value - ref)) == 0


@pytest.mark.parametrize("ev, match", [
    (dp.GaussianDpEvent(1.0), "GaussianDpEvent is not read exactly"),
    (dp.ComposedDpEvent([dp.RandomizedResponseDpEvent(0.5, 2), dp.LaplaceDpEvent(1.0)]), "LaplaceDpEvent is not read"),
    (de.DiscreteLaplaceDpEvent(0.1, 1), "denominator exceeds"),
    (dp.RandomizedResponseDpEvent(1.5, 2), "0 <= p <= 1"),
    (dp.SelfComposedDpEvent(dp.RandomizedResponseDpEvent(0.5, 2), 0), "count must be >= 1"),
    (dp.NoOpDpEvent(), "no private event"),
    (dp.ComposedDpEvent([dp.RandomizedResponseDpEvent(0.5, 2), de.DiscreteLaplaceDpEvent(1.0, 1)]),
     "incommensurable"),
])
def test_refused(ev, match):
    with pytest.raises(InvalidInput, match=match):
        dp_event_deltas(ev, ["1"])


def test_the_route_is_chosen_by_the_estimate_and_both_agree(monkeypatch):
    """Six runs of the discrete Gaussian (|z| <= 10): the estimate sends it to balls; forced exact, the exact
    value lies in the ball route's enclosure."""
    from exactdp.composition import lattice

    ev = dp.SelfComposedDpEvent(DiscreteGaussianDpEvent(1.0), 6)
    balls = dp_event_deltas(ev, ["3"], truncation=10)[0]
    assert balls.route == "lattice-balls" and balls.value is None
    monkeypatch.setattr(lattice, "MAX_EXACT_TERMS", 10**9)
    monkeypatch.setattr(lattice, "MAX_EXACT_BITS", 10**12)
    exact = dp_event_deltas(ev, ["3"], truncation=10)[0]
    assert exact.route == "lattice-exact"
    lo, hi = exact_number(balls.lo), exact_number(balls.hi)
    assert sign(simplify(exact.value - lo)) >= 0 and sign(simplify(hi - exact.value)) >= 0


def test_randomized_response_float_read_at_its_exact_value():
    """p = 0.1 is 3602879701896397/2^55: a plain rational probability (no exponent of e), read at any denominator."""
    from fractions import Fraction

    (m, _), = plan_of_dp_event(dp.RandomizedResponseDpEvent(0.1, 2))
    p = Fraction(0.1)
    assert [Fraction(str(v)) for v in m.rows()[0]] == [1 - p / 2, p / 2]
    assert dp_event_deltas(dp.RandomizedResponseDpEvent(0.1, 2), ["0"])[0].value == fmpq(1) - fmpq(p.numerator,
                                                                                                 p.denominator)
