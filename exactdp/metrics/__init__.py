"""Finite metric spaces with exact distances (a layer of docs/architecture.md#sec-layers)."""

from .databases import database_label, hamming, induced, symmetric_difference
from .graph_space import node_distance_space
from .graphs import cycle, discrete, from_graph, grid, path
from .space import FiniteMetric, from_matrix
from .spec import as_metric, metric_from_spec

__all__ = [
    "FiniteMetric",
    "as_metric",
    "cycle",
    "database_label",
    "discrete",
    "from_graph",
    "from_matrix",
    "grid",
    "hamming",
    "induced",
    "metric_from_spec",
    "node_distance_space",
    "path",
    "symmetric_difference",
]
