"""Metrics from the JSON file format documented in the README.

>>> metric_from_spec({"kind": "path", "n": 3}).points
('0', '1', '2')
>>> metric_from_spec({"kind": "graph", "nodes": ["a", "b"], "edges": [["a", "b", "3/2"]]}).distance("a", "b")
3/2
"""

from __future__ import annotations

import networkx as nx

from ..errors import InvalidInput
from .databases import hamming, symmetric_difference
from .graphs import cycle, discrete, from_graph, grid, path
from .space import FiniteMetric, from_matrix

__all__ = ["metric_from_spec"]

_KINDS = "graph, matrix, path, cycle, grid, hamming, discrete, subsets"


def _get(spec, key, kind):
    if key not in spec:
        raise InvalidInput(f"metric: kind {kind!r} needs the field {key!r}")
    return spec[key]


def metric_from_spec(spec) -> FiniteMetric:
    """Build a :class:`FiniteMetric` from a decoded JSON object."""
    if not isinstance(spec, dict):
        raise InvalidInput(f"metric: expected a JSON object with a 'kind' field, got {type(spec).__name__}")
    kind = spec.get("kind")
    if kind == "path":
        return path(_get(spec, "n", kind))
    if kind == "cycle":
        return cycle(_get(spec, "n", kind))
    if kind == "discrete":
        return discrete(_get(spec, "points", kind))
    if kind == "grid":
        return grid(_get(spec, "shape", kind), spec.get("norm", "manhattan"), spec.get("step", 1))
    if kind == "hamming":
        return hamming(_get(spec, "values", kind), _get(spec, "individuals", kind))
    if kind == "subsets":
        return symmetric_difference(_get(spec, "ground", kind))
    if kind == "matrix":
        return from_matrix(_get(spec, "points", kind), _get(spec, "distances", kind))
    if kind == "graph":
        nodes = _get(spec, "nodes", kind)
        edges = spec.get("edges", [])
        if not isinstance(nodes, list) or not isinstance(edges, list):
            raise InvalidInput("metric: 'nodes' and 'edges' must be lists")
        G = nx.Graph()
        G.add_nodes_from(str(v) for v in nodes)
        weighted = any(isinstance(e, list) and len(e) == 3 for e in edges)
        for e in edges:
            if not isinstance(e, list) or len(e) not in (2, 3):
                raise InvalidInput(f"metric: an edge is [u, v] or [u, v, w], got {e!r}")
            u, v = str(e[0]), str(e[1])
            for end in (u, v):
                if end not in G:
                    raise InvalidInput(f"metric: edge {e!r} names {end!r}, which is not in 'nodes'")
            if u == v:
                raise InvalidInput(f"metric: self-loop {e!r}; a metric has d(x, x) = 0")
            G.add_edge(u, v, w=e[2] if len(e) == 3 else 1)
        return from_graph(G, weight="w" if weighted else None)
    raise InvalidInput(f"metric: unknown kind {kind!r}; expected one of {_KINDS}")
