"""Metrics from the JSON file format documented in the README.

>>> metric_from_spec({"kind": "path", "n": 3}).points
('0', '1', '2')
>>> metric_from_spec({"kind": "graph", "nodes": ["a", "b"], "edges": [["a", "b", "3/2"]]}).distance("a", "b")
3/2
"""

from __future__ import annotations

import sys
from typing import Any

from ..errors import InvalidInput, InvalidType
from .databases import hamming, symmetric_difference
from .graphs import cycle, discrete, from_graph, grid, path
from .space import FiniteMetric, from_matrix

__all__ = ["as_metric", "check_keys", "check_labels", "metric_from_spec"]

_KINDS = "graph, matrix, path, cycle, grid, hamming, discrete, subsets"
#: the fields of each kind (besides "kind"): any other key is refused, so a misspelt "nrom" is not ignored
_FIELDS = {"path": ("n",), "cycle": ("n",), "discrete": ("points",), "grid": ("shape", "norm", "step"),
           "hamming": ("values", "individuals"), "subsets": ("ground",), "matrix": ("points", "distances"),
           "graph": ("nodes", "edges")}
#: characters refused in labels: C0/C1 controls (newline, ESC of terminal escapes), line and paragraph
#: separators, and the bidirectional overrides that reorder what a reader sees ("Trojan Source")
_BAD_LABEL_CHARS = frozenset([*map(chr, range(0x20)), *map(chr, range(0x7F, 0xA0)), "\u2028", "\u2029",
                              *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))])


def check_keys(obj: dict, allowed, where: str) -> None:
    """Refuse a key of ``obj`` outside ``allowed``, naming it (a misspelt key is never silently ignored).

    Parameters
    ----------
    obj : dict
        A decoded JSON object.
    allowed : iterable of str
        Its permitted keys.
    where : str
        How the message names the object.

    Raises
    ------
    InvalidInput
        The first unknown key, with the permitted ones.

    Examples
    --------
    >>> check_keys({"kind": "grid", "nrom": "euclidean"}, ("kind", "shape", "norm", "step"), "metric (grid)")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: metric (grid): unknown key 'nrom'; expected only 'kind', 'shape', 'norm', 'step'
    """
    allowed = tuple(allowed)
    extra = [k for k in obj if k not in allowed]
    if extra:
        raise InvalidInput(f"{where}: unknown key {_shown(extra[0])}; expected only "
                           + ", ".join(repr(k) for k in allowed))


def _shown(label: str, limit: int = 60) -> str:
    """``repr`` of a label with every non-printable character escaped, cut to ``limit`` characters."""
    text = label if len(label) <= limit else label[:limit] + "..."
    return repr(text) if text.isprintable() else "'" + text.encode("unicode_escape").decode("ascii") + "'"


def check_labels(labels, where: str) -> None:
    """Refuse a label holding a control character (newline, ESC, a bidirectional override), naming the key.

    Labels are printed in verdicts and witnesses; a newline or a terminal escape sequence in one would forge
    output lines or recolour the terminal.

    Parameters
    ----------
    labels : iterable
        The labels (compared as strings).
    where : str
        How the message names them (the file and key).

    Raises
    ------
    InvalidInput
        The first label with such a character, the character's code point named.

    Examples
    --------
    >>> check_labels(["a", "b\\x1b[31m"], "metric: 'points'")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: metric: 'points': label 'b\\x1b[31m' has the control character U+001B; ...
    """
    for x in labels:
        t = str(x)
        bad = next((c for c in t if c in _BAD_LABEL_CHARS), None)
        if bad is not None:
            raise InvalidInput(f"{where}: label {_shown(t)} has the control character U+{ord(bad):04X}; labels are "
                               "printable text")


def _get(spec, key, kind):
    if key not in spec:
        raise InvalidInput(f"metric: kind {kind!r} needs the field {key!r}")
    return spec[key]


def _get_list(spec, key, kind):
    v = _get(spec, key, kind)
    if not isinstance(v, list):
        raise InvalidType(f"metric: the field {key!r} of kind {kind!r} must be a list, got {type(v).__name__}")
    return v


def _strict(spec: dict, kind) -> None:
    """Refuse a key the kind does not have and a label with a control character (issue 32)."""
    if isinstance(kind, str) and kind in _FIELDS:
        check_keys(spec, ("kind", *_FIELDS[kind]), f"metric ({kind})")
        for key in ("points", "nodes", "values", "ground"):
            if isinstance(spec.get(key), list):
                check_labels(spec[key], f"metric ({kind}): {key!r}")


def metric_from_spec(spec: Any) -> FiniteMetric:
    """Build a :class:`FiniteMetric` from a decoded JSON object.

    The file format of the README: ``{"kind": ..., ...}`` with kind one of
    ``graph`` (``nodes``, ``edges`` of ``[u, v]`` or ``[u, v, w]``),
    ``matrix`` (``points``, ``distances``), ``path``/``cycle`` (``n``),
    ``grid`` (``shape``, ``norm``, ``step``), ``hamming`` (``values``,
    ``individuals``; ECP14 sec. 3.2), ``discrete`` (``points``; HLM15 Ex. 7),
    ``subsets`` (``ground``; HLM15 Ex. 1).

    Parameters
    ----------
    spec : dict
        The decoded JSON object; numbers exact (ints or exact text).

    Returns
    -------
    FiniteMetric
        The metric the constructor of that kind builds.

    Raises
    ------
    InvalidInput
        Not an object, an unknown kind, a missing field, a malformed edge, a
        node listed twice, or any error of the constructor called
        (:class:`~exactdp.errors.NotAMetric` for a bad matrix).
    InvalidType
        A field of the wrong JSON type.

    Examples
    --------
    >>> metric_from_spec({"kind": "grid", "shape": [2, 2], "norm": "euclidean"}).distance("0,0", "1,1")
    Lin('sqrt(2)')
    >>> metric_from_spec({"kind": "ring"})
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: metric: unknown kind 'ring'; expected one of graph, matrix, path, cycle, grid,
    hamming, discrete, subsets
    """
    if not isinstance(spec, dict):
        raise InvalidInput(f"metric: expected a JSON object with a 'kind' field, got {type(spec).__name__}")
    kind = spec.get("kind")
    _strict(spec, kind)
    if kind == "path":
        return path(_get(spec, "n", kind))
    if kind == "cycle":
        return cycle(_get(spec, "n", kind))
    if kind == "discrete":
        return discrete(_get_list(spec, "points", kind))
    if kind == "grid":
        return grid(_get_list(spec, "shape", kind), spec.get("norm", "manhattan"), spec.get("step", 1))
    if kind == "hamming":
        return hamming(_get_list(spec, "values", kind), _get(spec, "individuals", kind))
    if kind == "subsets":
        return symmetric_difference(_get_list(spec, "ground", kind))
    if kind == "matrix":
        distances = _get_list(spec, "distances", kind)
        if not all(isinstance(r, list) for r in distances):
            raise InvalidType("metric: 'distances' must be a list of rows (lists)")
        return from_matrix(_get_list(spec, "points", kind), distances)
    if kind == "graph":
        nodes = _get(spec, "nodes", kind)
        edges = spec.get("edges", [])
        if not isinstance(nodes, list) or not isinstance(edges, list):
            raise InvalidInput("metric: 'nodes' and 'edges' must be lists")
        labels = [str(v) for v in nodes]
        if len(set(labels)) != len(labels):
            dup = next(x for x in labels if labels.count(x) > 1)
            raise InvalidInput(f"metric: node {dup!r} is listed twice in 'nodes'; labels are compared as strings "
                               "and must be unique")
        import networkx as nx

        G = nx.MultiGraph()  # an edge listed twice keeps both; from_graph takes the shorter
        G.add_nodes_from(labels)
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


def as_metric(obj: Any, weight: str = "weight") -> FiniteMetric:
    """Normalise a metric argument once, at the entry of a public function.

    Accepts a :class:`FiniteMetric` (returned as is), an undirected networkx
    graph (its shortest-path metric, :func:`from_graph`: edge attribute
    ``weight`` when every edge has it, unit lengths when none has it;
    parallel edges count with their minimum) or a decoded JSON metric
    specification (a ``dict``, see :func:`metric_from_spec`).

    Parameters
    ----------
    obj : FiniteMetric or networkx.Graph or dict
        The metric argument as a user passed it.
    weight : str, default "weight"
        The edge attribute holding lengths, for a graph.

    Returns
    -------
    FiniteMetric
        ``obj`` itself, or the metric it describes.

    Raises
    ------
    InvalidType
        Any other type (a matrix: use :func:`from_matrix`).
    InvalidInput
        A graph where some edges have ``weight`` and others not, or an
        error of :func:`from_graph` / :func:`metric_from_spec`.

    Examples
    --------
    >>> import networkx as nx
    >>> as_metric(nx.path_graph(3)).distance(0, 2)
    2
    >>> as_metric({"kind": "cycle", "n": 4}).distance("0", "3")
    1
    >>> as_metric([[0, 1], [1, 0]])
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidType: metric: expected a FiniteMetric, a networkx graph or a JSON metric object, got list;
    hint: from_matrix(points, distances) builds one from a matrix
    """
    if isinstance(obj, FiniteMetric):
        return obj
    nx = sys.modules.get("networkx")  # an object cannot be a networkx graph unless networkx is imported
    if nx is not None and isinstance(obj, nx.Graph):
        has = [weight in data for _, _, data in obj.edges(data=True)]
        if any(has) and not all(has):
            raise InvalidInput(f"metric: {has.count(False)} of {len(has)} edges of the graph have no {weight!r} "
                               "attribute; give every edge a length, or none (unit lengths)")
        return from_graph(obj, weight=weight if any(has) else None)
    if isinstance(obj, dict):
        return metric_from_spec(obj)
    raise InvalidType(f"metric: expected a FiniteMetric, a networkx graph or a JSON metric object, got "
                      f"{type(obj).__name__}; hint: from_matrix(points, distances) builds one from a matrix")
