"""exactdp.plot.mechanism: a mechanism's heat map, exact entries converted to floats only for drawing
(the range-restricted geometric mechanism from its definition, GRS12 Def. 2.4)."""

from fractions import Fraction as F

import pytest

from exactdp import Level, geometric
from exactdp import plot as P


def _geometric_rows(n, a):
    """Range-restricted geometric mechanism (GRS12 Def. 2.4), from its definition."""
    rows = []
    for x in range(n + 1):
        rows.append([(a ** abs(x - z) / (1 + a) if z in (0, n) else (1 - a) / (1 + a) * a ** abs(x - z))
                     for z in range(n + 1)])
    return rows


def test_plot_mechanism_heat_map(plt):
    ax = P.plot_mechanism(geometric(4, "1/2"))
    want = _geometric_rows(4, F(1, 2))
    assert ax.images[0].get_array().tolist() == [[float(v) for v in r] for r in want]
    assert len(ax.texts) == 25 and ax.texts[0].get_text() == "2/3"
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("output z", "secret x")
    assert len(ax.figure.axes) == 2  # the heat map and its colour bar


def test_plot_mechanism_transcendental_and_large(plt):
    ax = P.plot_mechanism(geometric(40).at(Level.from_eps("1")))
    arr = ax.images[0].get_array()
    assert arr.shape == (41, 41) and len(ax.texts) == 0
    import math
    assert arr[0][0] == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-15)
