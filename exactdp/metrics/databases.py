"""Metrics on databases: Hamming distance on V^u, the induced graph of a query, and
the symmetric-difference metric on subsets.

* ECP14 sec. 3.2: databases ``V^u``; ``x ~ x'`` iff they differ in exactly one
  individual; ``d_h`` is the shortest-path (Hamming) distance, and
  ``eps``-differential privacy is ``eps d_h``-privacy.  The *induced graph* of
  a query ``f : V^u -> Y`` joins ``y ~_f y'`` iff ``f(x) = y`` and ``f(x') = y'``
  for some adjacent ``x ~ x'``; Corollary 1: ``H`` is ``eps d_{~f}``-private iff
  ``H o f`` is ``eps d_h``-private.
* HLM15 Example 1: the symmetric-difference metric ``|A (+) B|`` on subsets of
  a finite set (the hypercube graph).
"""

from __future__ import annotations

import itertools
from typing import Any
from collections.abc import Callable, Iterable

from flint import fmpq

from ..errors import InputTooLarge, InvalidInput, InvalidType
from ..exact.values import brief
from .graphs import MAX_POINTS, _GRAPH_REDUCTION, from_graph
from .space import FiniteMetric

__all__ = ["database_label", "hamming", "induced", "symmetric_difference"]


def database_label(x: Iterable[Any]) -> str:
    """Label of a database tuple: its values joined by commas, e.g. ``"0,1,1"``.

    The labels :func:`hamming` gives the databases ``x in V^u`` of ECP14 sec. 3.2.

    Parameters
    ----------
    x : iterable
        The values of the individuals, in order.

    Returns
    -------
    str
        ``str`` of each value, joined by ``","``.

    Examples
    --------
    >>> database_label((0, 1, 1))
    '0,1,1'
    >>> hamming([0, 1], 3).distance(database_label((0, 1, 1)), "1,1,1")
    1
    """
    return ",".join(str(v) for v in x)


def _universe(values: Iterable[Any], individuals: int) -> list:
    values = list(values)
    if not values:
        raise InvalidInput("hamming values: expected at least one value")
    if len({str(v) for v in values}) != len(values):
        raise InvalidInput(f"hamming values: labels must be distinct as strings, got {brief(values)}")
    if isinstance(individuals, bool) or not isinstance(individuals, int):
        raise InvalidType(f"hamming individuals: expected an integer, got {brief(individuals)}")
    if individuals < 1:
        raise InvalidInput(f"hamming individuals: expected u >= 1, got {brief(individuals)}")
    if len(values) > 1 and (individuals > MAX_POINTS.bit_length() or len(values) ** individuals > MAX_POINTS):
        raise InputTooLarge(
            f"hamming: |V|^u = {len(values)}^{brief(individuals)} databases exceed the limit {MAX_POINTS}; "
            "hint: use the induced graph of your query instead")
    return values


def hamming(values: Iterable[Any], individuals: int) -> FiniteMetric:
    """Hamming distance on databases ``V^u`` (ECP14 sec. 3.2).

    Databases are tuples of ``u`` values in ``V``; ``x ~ x'`` when they differ
    in exactly one individual, and ``d_h`` is the shortest-path distance of
    that graph: ``eps``-DP is ``eps d_h``-privacy (ECP14 sec. 3.2).

    Parameters
    ----------
    values : iterable
        The value set ``V`` (labels distinct as strings).
    individuals : int
        ``u >= 1``, the number of individuals.

    Returns
    -------
    FiniteMetric
        ``|V|^u`` points labelled by :func:`database_label`; generating pairs
        the adjacent databases.

    Raises
    ------
    InvalidType
        ``individuals`` is not an integer.
    InvalidInput
        No values, repeated labels, ``u < 1``, or ``|V|^u`` beyond
        ``MAX_POINTS`` (:class:`~exactdp.errors.InputTooLarge`).

    Examples
    --------
    >>> m = hamming([0, 1], 3)
    >>> len(m), m.distance("0,0,0", "1,1,0")
    (8, 2)
    """
    values = _universe(values, individuals)
    u, k = individuals, len(values)
    dbs = list(itertools.product(range(k), repeat=u))
    labels = [",".join(str(values[i]) for i in x) for x in dbs]
    index = {x: i for i, x in enumerate(dbs)}

    def pairs():
        out = []
        for i, x in enumerate(dbs):
            for pos in range(u):
                for v in range(x[pos] + 1, k):
                    y = (*x[:pos], v, *x[pos + 1:])
                    out.append((i, index[y], fmpq(1)))
        out.sort(key=lambda t: (t[0], t[1]))
        return out

    return FiniteMetric(
        labels, pairs, lambda i, j: fmpq(sum(a != b for a, b in zip(dbs[i], dbs[j], strict=True))),
        kind="hamming", description=f"Hamming distance on V^u with |V| = {k}, u = {u}",
        reduction=_GRAPH_REDUCTION + " (the adjacency graph: databases differing in one individual)",
        params={"kind": "hamming", "values": [str(v) for v in values], "individuals": u},
    )


def induced(values: Iterable[Any], individuals: int, query: Callable[[tuple], Any]) -> FiniteMetric:
    """The induced-graph metric ``d_{~f}`` of a query ``f : V^u -> Y`` (ECP14 sec. 3.2).

    ``y ~_f y'`` iff ``f(x) = y`` and ``f(x') = y'`` for some adjacent
    databases ``x ~ x'``; by ECP14 Cor. 1, ``H`` is ``eps d_{~f}``-private iff
    ``H o f`` is ``eps d_h``-private.

    Parameters
    ----------
    values : iterable
        The value set ``V`` (labels distinct as strings).
    individuals : int
        ``u >= 1``, the number of individuals.
    query : callable
        ``f``: a Python function of a database tuple; answers are labelled
        with ``str`` (and sorted when they are comparable).

    Returns
    -------
    FiniteMetric
        The shortest-path metric of the induced graph on the answers.

    Raises
    ------
    InvalidType
        ``individuals`` is not an integer, or ``query`` is not callable.
    InvalidInput
        No values, repeated labels, ``u < 1``, or ``|V|^u`` beyond
        ``MAX_POINTS`` (:class:`~exactdp.errors.InputTooLarge`).

    Examples
    --------
    >>> count = lambda x: sum(x)
    >>> m = induced([0, 1], 3, count)
    >>> m.points, m.distance("0", "3")
    (('0', '1', '2', '3'), 3)
    """
    values = _universe(values, individuals)
    if not callable(query):
        raise InvalidType(f"query: expected a function of a database tuple, got {type(query).__name__}")
    import networkx as nx

    answers: dict = {}
    G = nx.Graph()
    dbs = list(itertools.product(values, repeat=individuals))
    fx = {}
    for x in dbs:
        y = query(x)
        fx[x] = y
        answers.setdefault(str(y), y)
    try:
        order = sorted(answers, key=lambda s: answers[s])
    except TypeError:
        order = list(answers)
    G.add_nodes_from(order)
    for x in dbs:
        for pos in range(individuals):
            for v in values:
                if v == x[pos]:
                    continue
                neighbour = (*x[:pos], v, *x[pos + 1:])
                y2 = fx[neighbour]
                a, b = str(fx[x]), str(y2)
                if a != b:
                    G.add_edge(a, b)
    m = from_graph(G)
    m.kind = "induced"
    m.description = f"induced graph of a query on V^u (|V| = {len(values)}, u = {individuals}): {m.description}"
    m.reduction = _GRAPH_REDUCTION + (" (the induced graph: y ~ y' iff f(x) = y, f(x') = y' for adjacent "
                                      "databases x ~ x', ECP14 sec. 3.2)")
    return m


def symmetric_difference(ground: Iterable[Any]) -> FiniteMetric:
    """The subsets of a finite set with ``d(A, B) = |A (+) B|`` (HLM15 Example 1).

    The hypercube graph on the subsets: ``eps``-DP over it is HLM15's
    ``eps d``-privacy for set-valued data (HLM15 Example 1).

    Parameters
    ----------
    ground : iterable
        The ground set (elements distinct as strings).

    Returns
    -------
    FiniteMetric
        ``2^k`` points labelled ``"{a,b}"`` with elements in the order of
        ``ground`` (by size, then lexicographic); generating pairs the
        subsets that differ in one element.

    Raises
    ------
    InvalidInput
        Repeated elements, or ``2^k`` beyond ``MAX_POINTS``
        (:class:`~exactdp.errors.InputTooLarge`).

    Examples
    --------
    >>> m = symmetric_difference(["x", "y"])
    >>> m.points
    ('{}', '{x}', '{y}', '{x,y}')
    >>> m.distance("{x}", "{y}")
    2
    """
    ground = [str(g) for g in ground]
    if len(set(ground)) != len(ground):
        raise InvalidInput(f"ground set: elements must be distinct, got {brief(ground)}")
    k = len(ground)
    if 2**k > MAX_POINTS:
        raise InputTooLarge(f"symmetric difference: 2^{k} subsets exceed the limit {MAX_POINTS}")
    masks = sorted(range(2**k), key=lambda m: (bin(m).count("1"), [-(m >> i & 1) for i in range(k)]))
    labels = ["{" + ",".join(g for i, g in enumerate(ground) if m >> i & 1) + "}" for m in masks]
    pos = {m: i for i, m in enumerate(masks)}

    def pairs():
        out = []
        for m in masks:
            for b in range(k):
                if not m >> b & 1:
                    i, j = pos[m], pos[m | 1 << b]
                    out.append((min(i, j), max(i, j), fmpq(1)))
        out.sort(key=lambda t: (t[0], t[1]))
        return out

    return FiniteMetric(
        labels, pairs, lambda i, j: fmpq(bin(masks[i] ^ masks[j]).count("1")),
        kind="subsets", description=f"subsets of a {k}-element set, symmetric-difference distance",
        reduction=_GRAPH_REDUCTION + " (the hypercube: subsets differing in one element)",
        params={"kind": "subsets", "ground": ground},
    )
