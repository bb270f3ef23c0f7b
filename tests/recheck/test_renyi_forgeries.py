"""``renyi`` and ``composition`` certificates (issue 27, items 5 and 6): the genuine curve at orders 2..256 over
61-bit entries is confirmed (its sums pass Python's default 4,300-digit int-string limit); consistent forgeries --
another mechanism, order, run count or level, with the claim rebuilt from the edited fields -- are refuted."""

from __future__ import annotations

import copy
import json
import sys

import pytest

from exactdp import Mechanism, geometric, path
from exactdp.recheck import recheck
from exactdp.recheck.profile import claim_text as composition_claim
from exactdp.recheck.renyi import claim_text as renyi_claim
from exactdp.composition.composition import certify_composition
from exactdp.divergences.renyi import certify_renyi

P61 = 2**61 - 1
BIG = Mechanism.from_rows(["0", "1"], ["a", "b"], [[f"1/{P61}", f"{P61 - 1}/{P61}"], [f"3/{P61}", f"{P61 - 3}/{P61}"]])


def _json(cert) -> dict:
    return json.loads(json.dumps(cert.to_json()))


@pytest.mark.slow
def test_orders_up_to_256_over_61_bit_entries_are_confirmed():
    c = _json(certify_renyi(BIG, [["0", "1"]], list(range(2, 257)), delta="1/100"))
    assert max(len(o["sum"]) for o in c["evidence"]["orders"]) > 4_300      # beyond the default int-string limit
    r = recheck(c)
    assert r.status == "confirmed", r.detail
    assert sys.get_int_max_str_digits() == 4_300                               # the limit is restored afterwards


def test_another_mechanism_with_the_claim_rebuilt_is_refuted():
    c = _json(certify_renyi(geometric(2, "1/3"), path(3), [2, 3]))
    other = _json(certify_renyi(geometric(2, "1/2"), path(3), [2, 3]))
    assert recheck(c).status == "confirmed"
    f = copy.deepcopy(c)
    f["evidence"]["mechanism"] = other["evidence"]["mechanism"]
    f["claim"] = renyi_claim(f)
    r = recheck(f)
    assert r.status == "refuted" and "largest sum" in r.detail, r.detail


def test_an_order_renamed_with_its_value_rewritten_is_refuted():
    c = _json(certify_renyi(geometric(2, "1/3"), path(3), [2, 3]))
    f = copy.deepcopy(c)
    o = f["evidence"]["orders"][1]
    o["order"] = 4
    o["value"] = o["value"].replace("/2", "/3")          # log(S)/(alpha - 1) at the forged order
    f["claim"] = renyi_claim(f)
    r = recheck(f)
    assert r.status == "refuted", r.detail


def test_a_composition_with_another_run_count_is_refuted():
    K = Mechanism.from_rows(["0", "1"], ["x", "y"], [["1/3", "2/3"], ["1/2", "1/2"]])
    c = _json(certify_composition([(K, 3)], [("0", "1")], eps="1", delta="1/2"))
    assert recheck(c).status == "confirmed"
    f = copy.deepcopy(c)
    f["evidence"]["factors"][0]["times"] = 4
    f["claim"] = composition_claim(f)
    assert recheck(f).status == "refuted"


def test_a_composition_of_2048_bit_entries_run_many_times_is_too_large_at_once():
    """The work bound counts loss values x squared bits: K = 70 runs of 2048-bit entries (71 values of 143,000
    bits) is answered 'too large' before any convolution."""
    q = (1 << 2047) + 12345
    K = Mechanism.from_rows(["0", "1"], ["x", "y"], [[f"{q // 3}/{q}", f"{q - q // 3}/{q}"],
                                                     [f"{q // 5}/{q}", f"{q - q // 5}/{q}"]])
    c = _json(certify_composition([(K, 2)], [("0", "1")], eps="1", delta="1/2"))
    assert recheck(c).status == "confirmed"
    from exactdp.recheck._pld import MAX_SQUARED_BITS, _squared_bits
    assert _squared_bits([(2, 70, 2048)]) == 71 * (70 * 2048) ** 2 > MAX_SQUARED_BITS
    assert _squared_bits([(2, 2, 2048)]) <= MAX_SQUARED_BITS
