"""Metrics from a JSON spec (exactdp.metrics.spec): each kind, unknown kinds and missing fields refused."""

import pytest

from exactdp.errors import InvalidInput
from exactdp.metrics import (metric_from_spec)


def test_spec():
    assert len(metric_from_spec({"kind": "grid", "shape": [2, 3]})) == 6
    assert metric_from_spec({"kind": "hamming", "values": [0, 1], "individuals": 2}).distance("0,0", "1,1") == 2
    assert len(metric_from_spec({"kind": "subsets", "ground": ["a"]})) == 2
    with pytest.raises(InvalidInput, match="unknown kind"):
        metric_from_spec({"kind": "torus"})
    with pytest.raises(InvalidInput, match="needs the field 'n'"):
        metric_from_spec({"kind": "path"})
    with pytest.raises(InvalidInput, match="not in 'nodes'"):
        metric_from_spec({"kind": "graph", "nodes": ["a"], "edges": [["a", "b"]]})
