"""Evidence records (exactdp.certificate.records): exact JSON data only -- lists checked by type set, a float
anywhere refused -- and the compact read-only integer matrix."""

import pytest

from exactdp import (Certificate, certify_privacy, geometric, path)


@pytest.mark.parametrize("value", [
    ["1/2", 3, True, None], [["a", "b", "1"], ["c", "d", "2"]], [[0, 1], [1, 0]], [], [[]],
    [{"x": ["1", 2]}], [["a"], [["b"]]],
])
def test_a_record_accepts_json_data_in_lists_checked_by_type_set(value):
    from dataclasses import dataclass

    from exactdp.certificate.records import Record

    @dataclass(frozen=True)
    class Holder(Record):
        value: list

    assert Holder(value).value == value


class _Text(str):
    pass


@pytest.mark.parametrize("value, accepted", [
    ([_Text("1/2")], True),                          # a subclass of str: past the fast path, checked one by one
    (["1/2", 0.5], False), ([["a", "b", 0.5]], False), ([["a"], ["b", 1.5]], False), ([[["a", 0.5]]], False),
    ([{"x": [0.5]}], False), (["1/2", object()], False),
])
def test_a_float_anywhere_in_a_list_is_refused(value, accepted):
    from dataclasses import dataclass

    from exactdp.certificate.records import Record

    @dataclass(frozen=True)
    class Holder(Record):
        value: list

    if accepted:
        Holder(value)
    else:
        with pytest.raises(TypeError, match="exact JSON data only"):
            Holder(value)


def test_int_matrix_is_exact_compact_and_refuses_non_integers():
    from exactdp.certificate.records import IntMatrix
    import numpy as np

    m = IntMatrix(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert m == [[0, 1, 2], [3, 4, 5]] and m.tolist() == [[0, 1, 2], [3, 4, 5]] and list(m)[1] == [3, 4, 5]
    assert m != [[0, 1, 2], [3, 4, 6]] and m != [[0, 1, 2]] and m != "[[0, 1, 2], [3, 4, 5]]"
    with pytest.raises(ValueError):
        m._a[0, 0] = 7                                       # read-only: a record cannot change after the check
    big = 2**62
    assert IntMatrix([[big, -big]]).tolist() == [[big, -big]]
    for bad in ([[0, True]], [[0, 0.5]], [[0, "1"]], [[0, 1], [2]], [0, 1], [[2**70]], np.ones((2, 2))):
        with pytest.raises(TypeError, match="IntMatrix"):
            IntMatrix(bad)
    # in a record: the JSON is a plain list of rows, and it round-trips
    c = certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2")
    j = c.to_json()
    assert type(j["evidence"]["mechanism"]["codes"]) is list
    assert Certificate.from_json(j) == c and isinstance(Certificate.from_json(j).evidence.mechanism.codes, IntMatrix)
