"""exactdp.plot.extension: the BCSZ18 extension figure and its exact data, against the extension's definition
re-implemented here with Fractions."""

import math
from fractions import Fraction as F

import pytest

from exactdp import Mechanism, path
from exactdp import plot as P
from exactdp.errors import InvalidInput


def _fr(v):
    return F(str(v))


RRH = [[F(4, 5), F(1, 5)], [F(1, 5), F(4, 5)]]


def _extension_by_definition(n, H, rows):
    """Path metric on 0..n-1, alpha = 1/2 so e^(eps d) = 2^d: A(D)(w) = min_{D' in H} 2^|D-D'| Â(D')(w) / Z_D."""
    out = []
    for D in range(n):
        m = [min(F(2) ** abs(D - h) * rows[k][w] for k, h in enumerate(H)) for w in range(len(rows[0]))]
        out.append([v / sum(m) for v in m])
    return out


def test_extension_pairs_against_the_definition():
    Rh = Mechanism.from_rows(["0", "4"], ["a", "b"], [[str(v) for v in r] for r in RRH])
    X, pairs = P.extension_pairs(Rh, path(5), ["0", "4"], alpha="1/2")
    A = _extension_by_definition(5, [0, 4], RRH)
    assert [[_fr(v) for v in r] for r in X.mechanism.rows()] == A
    want = []
    for i in range(5):
        for j in range(i + 1, 5):
            R = max(max(A[i][w] / A[j][w], A[j][w] / A[i][w]) for w in range(2))
            d = j - i
            want.append((str(i), str(j), d, R, 2 ** d >= R, 4 ** d >= R, i in (0, 4) and j in (0, 4)))
    got = [(a, b, int(_fr(d)), _fr(R), w1, w2, both) for a, b, d, R, w1, w2, both in pairs]
    assert got == want
    assert all(w2 for *_, w2, _ in got)                      # BCSZ18 Prop. 2.1: 2 eps-private
    assert {w1 for *_, w1, _, _ in got} == {True, False}      # eps alone fails for some pair outside H
    assert all(w1 for *_, w1, _, both in got if both)         # and holds on H x H


def test_plot_extension_draws_log_ratios(plt):
    Rh = Mechanism.from_rows(["0", "4"], ["a", "b"], [[str(v) for v in r] for r in RRH])
    ax, _pairs = P.plot_extension(Rh, path(5), ["0", "4"], alpha="1/2")
    inside = list(zip(ax.lines[0].get_xdata(), ax.lines[0].get_ydata(), strict=True))
    assert inside == [(4.0, pytest.approx(math.log(4), rel=1e-14))]
    assert len(ax.lines[1].get_xdata()) == 9
    assert ax.lines[3].get_ydata().tolist() == pytest.approx([0, 2 * math.log(2) * 4], rel=1e-14)


def test_extension_pairs_refuses_large_metrics():
    Rh = Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/2", "1/2"], ["1/2", "1/2"]])
    with pytest.raises(InvalidInput, match="limited to 200 points"):
        P.extension_pairs(Rh, path(201), ["0", "1"], alpha="1/2")
