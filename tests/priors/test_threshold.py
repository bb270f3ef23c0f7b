"""The ECP14 threshold below which tight constraints exist: exact value log(2) on the star, 0 on the cycle."""

import networkx as nx
from flint import fmpq

from exactdp.metrics import cycle, from_graph
from exactdp.priors.threshold import exact_threshold, threshold


def test_thresholds():
    star = from_graph(nx.star_graph(3))
    c = threshold(star)
    t = c.evidence
    assert t.exact == "log(2)"
    lo, hi = fmpq(t.lo_rational), fmpq(t.hi_rational)
    assert hi - lo <= fmpq(1, 10**9) and fmpq(69314718, 10**8) < hi and lo < fmpq(69314719, 10**8)
    assert threshold(cycle(5)).evidence.exact == "0"
    a, text, _fails = exact_threshold(star)
    assert a.is_rational() and text == "log(2)"
