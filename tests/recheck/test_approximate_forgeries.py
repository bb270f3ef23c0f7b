"""``approx`` certificates (issue 27, item 5): a genuine certificate at eps = log(4)/2 is confirmed (e^eps = 2 is
read as the exact rational it is, never a float); a consistent forgery of its level or delta is refuted."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from exactdp.privacy.approximate import certify_approx
from exactdp.mechanisms import randomized_response
from exactdp.metrics import discrete
from exactdp.recheck import recheck
from exactdp.recheck._kernel import exp_of_eps

RR = randomized_response(3, p="1/5")


def _json(eps: str, delta: str) -> dict:
    return json.loads(json.dumps(certify_approx(RR, discrete(3), eps=eps, delta=delta).to_json()))


def test_e_to_a_rational_root_is_an_exact_fraction():
    v = exp_of_eps("log(4)/2")
    assert type(v) is Fraction and v == 2
    assert exp_of_eps("log(27/8)/3") == Fraction(3, 2)


@pytest.mark.parametrize("eps, delta, verdict", [("log(4)/2", "1/5", "holds"), ("log(4)/2", "1/10", "fails"),
                                                 ("log(9)/2", "0", "holds")])
def test_genuine_certificates_at_a_root_level_are_confirmed(eps, delta, verdict):
    c = _json(eps, delta)
    assert c["verdict"] == verdict
    r = recheck(c)
    assert r.status == "confirmed", r.detail


def test_a_delta_forged_consistently_is_refuted():
    """The forger lowers delta in the holding certificate at eps = log(4)/2 (claim rewritten to match): at e^eps = 2
    the binding pair needs delta >= 3/5 - 2/5 = 1/5, so delta = 1/10 is refuted."""
    f = _json("log(4)/2", "1/5")
    f["evidence"]["delta"] = "1/10"
    f["claim"] = f["claim"].replace("delta = 1/5", "delta = 1/10")
    r = recheck(f)
    assert r.status == "refuted", r.detail
    assert Fraction(3, 5) - 2 * Fraction(1, 5) > Fraction(1, 10)
