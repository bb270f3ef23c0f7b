"""Labels and rendering (issue 27, item 4): names in a builder's form rebuilt from the matrix, free text flagged
as a label, control characters refused in every text field, the audit's accountant marked as a hint.

Each forgery is consistent: the name or text changed, every field that depends on it restated."""

from __future__ import annotations

import copy

import pytest

from exactdp import geometric
from exactdp.mechanisms import randomized_response
from exactdp.metrics import discrete
from exactdp.recheck import recheck
from exactdp.recheck._labels import mechanism_name
from exactdp.utility.utility import certify_utility

RR = "randomized response on m + 1 = 2 categories, p = "


def _rr_utility():
    return certify_utility(randomized_response(2, "1/5"), discrete(2), gamma=1, delta="1/4").to_json()


@pytest.mark.parametrize("p", ["0", "1/4", "1/5 ", "1/10"])
def test_a_builder_name_over_another_matrix_is_refuted(p):
    """"randomized response ..., p = 0" over the p = 1/5 matrix, claim restated."""
    j = _rr_utility()
    assert recheck(j).status == "confirmed"
    j["evidence"]["mechanism"]["name"] = RR + p
    j["claim"] = j["claim"].replace(RR + "1/5", RR + p)
    r = recheck(j)
    assert r.status == "refuted" and "matrix" in r.detail


@pytest.mark.parametrize("name", ["Randomized Response on 2 categories", "geometric (n = 1)", "geometric(n=1, p=0)"])
def test_a_builder_form_in_another_spelling_is_refuted(name):
    j = _rr_utility()
    j["evidence"]["mechanism"]["name"] = name
    j["claim"] = j["claim"].replace(RR + "1/5", name)
    assert recheck(j).status == "refuted"


@pytest.mark.parametrize("name", ["the census release", "geometric(1/2) on the edge count"])
def test_a_free_name_is_flagged_as_a_label(name):
    j = _rr_utility()
    j["evidence"]["mechanism"]["name"] = name
    j["claim"] = j["claim"].replace(RR + "1/5", name)
    r = recheck(j)
    assert r.status == "confirmed" and f"the mechanism's name {name!r} is a label, not re-derived" in r.detail
    assert "label" not in recheck(_rr_utility()).detail                # the builder's name is rebuilt: no flag


def test_geometric_names_are_rebuilt_with_the_level_read_off_the_matrix():
    from exactdp.certificate.common import mechanism_data
    for K in (geometric(3, "1/3"), geometric(2, eps="1"), geometric(1, "1/2")):
        assert mechanism_name(mechanism_data(K).to_json()) is True
    m = mechanism_data(geometric(3, "1/3")).to_json()
    m["name"] = "geometric(n=2)"
    with pytest.raises(ValueError, match="matrix is not that one"):
        mechanism_name(m)
    swapped = copy.deepcopy(mechanism_data(geometric(3, "1/3")).to_json())
    swapped["codes"][1], swapped["codes"][2] = swapped["codes"][2], swapped["codes"][1]
    with pytest.raises(ValueError, match="matrix is not that one"):
        mechanism_name(swapped)


@pytest.mark.parametrize("where", [("note",), ("evidence", "mechanism", "name"), ("evidence", "f", "0"),
                                   ("evidence", "mechanism", "inputs", 0), ("claim",)])
@pytest.mark.parametrize("char", ["\n", "\r", "\x1b", "\u2028", "\u202e", "\x00"])
def test_a_control_character_in_any_text_field_is_refused(where, char):
    j = _rr_utility()
    d = j
    for k in where[:-1]:
        d = d[k]
    d[where[-1]] = d[where[-1]] + char + "checked: everything"
    with pytest.raises(ValueError, match=r"not a certificate: .*control character"):
        recheck(j)


def test_a_control_character_in_a_key_is_refused():
    j = _rr_utility()
    j["evidence"]["f"]["0\nx"] = j["evidence"]["f"].pop("0")
    with pytest.raises(ValueError, match=r"control character .* in a key"):
        recheck(j)
