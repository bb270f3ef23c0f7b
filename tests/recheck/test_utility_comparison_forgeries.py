"""Consistent forgeries of ``utility_comparison`` (issue 27, item 3): the geometric mechanism's ``values`` and
``power`` changed -- its utility enclosure and the margin recomputed as a forger would -- so that it is a mechanism
on another number of points than the metric's.  Before the fix the kernel never required ``values^power`` to be
the metric's points and confirmed the comparison with a weaker mechanism."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactdp.exact.level import Level
from exactdp.metrics import grid
from exactdp.recheck import recheck
from exactdp.priors.regular import tight_constraints
from exactdp.utility.grid import compare_utilities, geometric_utility, outward_decimals

SPEC = {"kind": "grid", "shape": [3, 3], "norm": "chebyshev"}


@pytest.fixture(scope="module")
def genuine() -> dict:
    tc = tight_constraints(grid((3, 3), "chebyshev"), Level.from_eps("2"))
    j = compare_utilities("2", tc, "geometric", {"values": 3, "step": 2, "power": 2}, metric=SPEC).to_json()
    assert j["verdict"] == "holds" and recheck(j).status == "confirmed"
    return j


def _forge(j: dict, values: int, power: int) -> dict:
    j = {**j, "evidence": {**j["evidence"], "other_params": {**j["evidence"]["other_params"]}}}
    ev = j["evidence"]
    ev["other_params"]["values"], ev["other_params"]["power"] = values, power
    lo, hi = geometric_utility(values, "2", 2, power)
    ev["other_utility"] = list(outward_decimals(lo, hi, 12))
    ev["margin"] = str(Fraction(ev["tight_utility"][0]) - Fraction(ev["other_utility"][1]))
    return j


@pytest.mark.parametrize("values, power", [(4, 2), (9, 1), (3, 1), (2, 3)])
def test_geometric_on_another_number_of_points_is_refuted(genuine, values, power):
    r = recheck(_forge(genuine, values, power))
    assert r.status == "refuted" and "values^power" in r.detail


def test_the_genuine_parameters_recomputed_stay_confirmed(genuine):
    """The forger's recomputation itself is faithful: with the genuine (3, 2) it is the genuine certificate.
    (9, 1): 9 points, but a one-dimensional mechanism on a 3 x 3 grid; (3, 1), (4, 2), (2, 3): other point counts."""
    assert recheck(_forge(genuine, 3, 2)).status == "confirmed"


def test_a_hostile_power_is_refuted_at_once(genuine):
    bad = _forge(genuine, 3, 2)
    bad["evidence"]["other_params"]["values"], bad["evidence"]["other_params"]["power"] = 10**6, 10**6
    assert recheck(bad).status == "refuted"
