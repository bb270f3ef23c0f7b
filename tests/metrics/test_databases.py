"""Database metrics (exactdp.metrics.databases): the metric induced by a query on the databases."""

from exactdp.metrics import (induced)


def test_induced_graph_of_count_and_pairs():
    m = induced([0, 1], 2, lambda x: sum(x))
    assert m.points == ("0", "1", "2")
    assert [(i, j) for i, j, _ in m.generating_pairs()] == [(0, 1), (1, 2)]
    two = induced([0, 1], 2, lambda x: (x[0], x[0] + x[1]))
    assert len(two) == 4
