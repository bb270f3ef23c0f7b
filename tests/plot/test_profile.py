"""exactdp.plot.profile: the privacy profile (HLM15) figure and its exact data, against a brute force over all
output sets (Fractions) and closed forms -- never the code under test."""

import math
from fractions import Fraction as F
from itertools import product, pairwise

import pytest
from hypothesis import given, settings

from exactdp import plot as P
from exactdp.errors import InvalidInput
from exactdp.mechanisms import randomized_response

from _approx_brute import _mech, brute_excess, mechanisms


def _fr(v):
    return F(str(v))


def _check_pieces_against_brute(pieces, rows, pairs):
    """Each exact piece A - tB equals the brute-force worst excess at its start and just inside it."""
    for t_from, t_to, A, B in pieces:
        t0 = _fr(t_from)
        t1 = t0 + 1 if t_to is None else (t0 + _fr(t_to)) / 2
        for t in (t0, t1):
            assert _fr(A) - t * _fr(B) == max(brute_excess(rows, pairs, t), F(0))


@settings(max_examples=25, deadline=None)
@given(mechanisms())
def test_profile_data_is_the_brute_force_profile(rows):
    M = _mech(rows)
    pairs = [(i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    labels = [(M.inputs[i], M.inputs[j]) for i, j in pairs]
    pieces = P.profile_data(M, labels)
    assert _fr(pieces[0][0]) == 1 and pieces[-1][1] is None
    assert all(_fr(a[1]) == _fr(b[0]) for a, b in pairwise(pieces))   # contiguous
    _check_pieces_against_brute(pieces, rows, pairs)


@pytest.mark.parametrize("k", [1, 2])   # brute force over 2^(3^k) output sets
def test_profile_data_of_the_composition_is_the_product_profile(k):
    rows = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 6), F(1, 2), F(1, 3)]]
    M = _mech(rows)
    prod_rows = [[math.prod(r[y] for y in ys) for ys in product(range(3), repeat=k)] for r in rows]
    pieces = P.profile_data(M, [("x0", "x1")], times=k)
    _check_pieces_against_brute(pieces, prod_rows, [(0, 1)])


def test_profile_data_randomized_response_closed_form():
    # RR on 3 values, p = 1/5: P = (3/5, 1/5, 1/5), Q = (1/5, 3/5, 1/5): one ratio 3 > 1
    pieces = P.profile_data(randomized_response(3, p="1/5"), [("0", "1")])
    assert [tuple(None if v is None else _fr(v) for v in pc) for pc in pieces] == \
           [(1, 3, F(3, 5), F(1, 5)), (3, None, 0, 0)]


def test_plot_profile_draws_the_exact_pieces(plt):
    R = randomized_response(2, p="4/9")                      # e^eps0 = 5/4
    ax, data = P.plot_profile(R, [("0", "1")], times=4, bounds=True)
    # single: delta = 5/9 - 4/9 e^eps on [0, log(5/4)], then 0
    xs, ys = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    for x, y in zip(xs, ys, strict=True):
        want = max(5 / 9 - 4 / 9 * math.exp(x), 0.0)
        assert y == pytest.approx(want, abs=1e-15)
    assert ax.lines[1].get_xdata().tolist() == pytest.approx([math.log(5 / 4)], rel=1e-15)
    # the composition's breakpoints: e^eps = (5/4)^(4 - 2i) > 1
    marks = ax.lines[3].get_xdata().tolist()
    assert marks == pytest.approx([math.log(1.25) * e for e in (2, 4)], rel=1e-14)
    # the 4-fold composition by hand (Kairouz-Oh-Viswanath, r = 5/4, P(stay) = 5/9): A - t B at each breakpoint
    # t = r^(4-2i): t = 1 gives ((r^4 - 1) + 4 (r^3 - r))/(1 + r)^4 = 121/729, t = 25/16 gives
    # (r^4 - r^2)/(1 + r)^4 = 25/729, and from t = 625/256 on the profile is 0
    assert [F(str(t)) for t, *_ in data["composed"]] == [1, F(25, 16), F(625, 256)]
    assert [F(str(a)) - F(str(t)) * F(str(b)) for t, _, a, b in data["composed"]] == [F(121, 729), F(25, 729), 0]
    assert len(ax.lines) == 6 and ax.get_xlabel() == "eps" and ax.get_ylabel() == "smallest delta"
    # basic bound: (4 eps0, 4 delta(eps0)); delta reaches 0 at 4 log(5/4), where the pure bound starts
    bx, by = ax.lines[4].get_xdata(), ax.lines[4].get_ydata()
    assert min(x for x, y in zip(bx, by, strict=True) if y == 0) == pytest.approx(4 * math.log(1.25), rel=1e-12)
    assert by[0] == pytest.approx(4 * (5 / 9 - 4 / 9), rel=1e-12) and bx[0] == 0


def test_plot_profile_log_axis(plt):
    ax, _ = P.plot_profile(randomized_response(2, p="1/4"), [("0", "1")], times=10, logy=True)
    assert ax.get_yscale() == "log" and ax.get_ylim()[0] == pytest.approx(1e-12)


def test_plot_profile_bad_input(plt):
    with pytest.raises(InvalidInput, match="bounds=True needs times=k"):
        P.plot_profile(randomized_response(2, p="1/4"), [("0", "1")], bounds=True)
    with pytest.raises(InvalidInput, match="k: expected k >= 1"):
        P.profile_data(randomized_response(2, p="1/4"), [("0", "1")], times=0)
    for bad in ("0", "-1", "1", "3/2"):
        with pytest.raises(InvalidInput, match=r"delta_prime .* must be in"):
            P.plot_profile(randomized_response(2, p="1/4"), [("0", "1")], times=2, bounds=True, delta_prime=bad)
