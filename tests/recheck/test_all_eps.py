"""The re-check of ``all_eps`` failure sets: every end read exactly, algebraic ends included.

A failure set is confirmed only when the kernel re-derives it: its ends (exact rationals, or the only root of a
polynomial in an isolating interval, by Sturm counts), the sample inside it, no constraint failing between the
pieces and one failing throughout each piece.  The forgeries below change the set consistently (pieces and text
together), as an adversary would.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Mechanism, certify_all_eps, discrete, path
from exactdp.recheck import recheck
from exactdp.recheck.all_eps import set_text


def _cert(rows, metric):
    m = Mechanism.from_rows([str(i) for i in range(len(rows))], [str(j) for j in range(len(rows[0]))], rows)
    return json.loads(json.dumps(certify_all_eps(m, metric).to_json()))


def _with_set(c, pieces):
    f = copy.deepcopy(c)
    f["evidence"]["failure_set"] = pieces
    f["evidence"]["failure_set_text"] = set_text(pieces)
    return f


TIE = [["1/2", "1/2"], ["alpha^3", "1-alpha^3"]]   # fails for alpha in (0, 2^(-1/2)) U (root of a cubic, 1)


def test_two_algebraic_ends_are_confirmed_with_their_gaps():
    c = _cert(TIE, discrete(2))
    assert c["verdict"] == "fails" and any(p["lo"].startswith("root of") for p in c["evidence"]["failure_set"])
    r = recheck(c)
    assert r.status == "confirmed" and "no constraint fails outside it" in r.detail, r.detail


def test_a_dropped_piece_is_refuted():
    c = _cert(TIE, discrete(2))
    pieces = c["evidence"]["failure_set"]
    for keep in ([pieces[0]], [pieces[-1]]):
        f = _with_set(c, keep)
        if keep == [pieces[-1]]:                        # keep the sample inside the set
            f["evidence"]["sample_alpha"] = c["evidence"]["sample_alpha"]
        assert recheck(f).status != "confirmed"


def test_an_end_moved_to_another_root_is_refuted():
    c = _cert(TIE, discrete(2))
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    end = "root of 3*alpha**2 - 1 in [1/2, 3/5] (~0.577350269190)"    # 3^(-1/2): no constraint's root
    key = "hi" if pieces[0]["hi"].startswith("root of") else "lo"
    pieces[0][key] = end
    r = recheck(_with_set(c, pieces))
    assert r.status == "refuted" and "no constraint's root" in r.detail, r.detail


@pytest.mark.parametrize("end, why", [
    ("root of alpha**2 - 1/2 in [1/2, 3/5] (~0.707)", "not exactly one root"),        # the root is not in there
    ("root of alpha**2 - 1/2 in [3/5, 4/5] (~0.707)", None),                         # the genuine root (accepted)
    ("root of alpha**2 - 1/2 in [3/5, 6/5] (~0.707)", "0 <= a < b <= 1"),
    ("root of alpha**2 - 1/2 in [6/10, 4/5] (~0.707)", "lowest terms"),
    ("root of 7 in [3/5, 4/5] (~0.707)", "non-constant polynomial"),
    ("(7/10)", "neither an exact rational"), ("7/10+0", "neither an exact rational"), ("14/20", "not written as"),
    ("sqrt(1/2)", "neither an exact rational"), ("root of alpha**2 - 1/2 in [3/5, 4/5]", "neither"),
])
def test_every_end_is_read_as_the_producer_writes_it(end, why):
    c = _cert(TIE, discrete(2))
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    genuine = pieces[0]["hi"]
    pieces[0]["hi"] = end
    r = recheck(_with_set(c, pieces))
    if why is None:       # the same number 2^(-1/2), another polynomial and isolating interval: still the set
        assert genuine.startswith("root of 2*alpha**2 - 1 in [1/2, 3/4]") and r.status == "confirmed", r.detail
    else:
        assert r.status == "refuted" and why in r.detail, (end, r.detail)


def test_the_sample_must_lie_in_the_set_and_the_pieces_in_order():
    c = _cert(TIE, discrete(2))
    pieces = c["evidence"]["failure_set"]
    f = _with_set(c, list(reversed(pieces)))
    assert recheck(f).status == "refuted"
    f = copy.deepcopy(c)
    f["evidence"]["sample_alpha"] = "3/4"                 # between the pieces: the witness holds there
    assert recheck(f).status == "refuted"


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.sampled_from(["1/2", "1/3", "2/3"]), st.data())
def test_genuine_sets_are_confirmed_and_every_consistent_rewrite_is_not(k1, k2, p, data):
    # K(0) = (p, 1 - p), K(1) = (alpha^k1 c, 1 - alpha^k1 c) and so on: thresholds at roots of polynomials
    rows = [[p, f"1-{p}"], [f"alpha^{k1}/2", f"1-alpha^{k1}/2"], [f"(1+alpha^{k2})/3", f"(2-alpha^{k2})/3"]]
    c = _cert(rows, path(3))
    assert recheck(c).status == "confirmed"
    pieces = c["evidence"]["failure_set"]
    if c["verdict"] != "fails" or not pieces:
        return
    # a consistent rewrite: drop one piece, or glue two neighbours, or widen the first piece to start at 0
    choice = data.draw(st.sampled_from(["drop", "glue", "widen"]))
    new = copy.deepcopy(pieces)
    if choice == "drop" and len(new) > 1:
        new.pop(data.draw(st.integers(0, len(new) - 1)))
    elif choice == "glue" and len(new) > 1:
        new[0] = dict(new[0], hi=new[1]["hi"], hi_closed=new[1]["hi_closed"], point=False)
        del new[1]
    elif new[0]["lo"] != "0":
        new[0] = dict(new[0], lo="0", lo_closed=False, point=False)
    else:
        return
    if new == pieces:
        return
    assert recheck(_with_set(c, new)).status != "confirmed"


@pytest.mark.parametrize("rows", [TIE, [["1/2", "1/2"], ["alpha", "1-alpha"]]])
def test_an_end_outside_zero_one_is_refuted(rows):
    # algebraic ends are in [0, 1] by their intervals; a rational end beyond 1 is refused before any gap is read
    c = _cert(rows, discrete(2))
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    assert pieces[-1]["hi"] == "1"
    pieces[-1]["hi"] = "3/2"
    r = recheck(_with_set(c, pieces))
    assert r.status == "refuted" and "outside [0, 1]" in r.detail, r.detail
