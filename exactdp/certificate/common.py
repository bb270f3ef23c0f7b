"""Records shared by several certificate kinds: a mechanism, a level, generating pairs, a constraint.

They turn live objects into exact JSON data once, when a checker builds its
evidence; nothing downstream (renderers, the re-check) sees a live object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, overload

from ..exact.decide import exact_str
from .records import IntMatrix, Record

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["Constraint", "DistanceTable", "LevelData", "MechanismData", "MetricData", "level_data", "mechanism_data",
           "metric_data"]


@dataclass(frozen=True)
class MechanismData(Record):
    """A mechanism, interned: ``K(inputs[i])(outputs[j]) = values[codes[i][j]]`` (exact strings).

    ``K(x)(z)`` is ECP14's ``h_xz`` (sec. 3.1).  Build it with
    :func:`mechanism_data`.

    Parameters
    ----------
    name : str
        The mechanism's name.
    inputs, outputs : list of str
        Row and column labels.
    values : list of str
        Distinct exact entries, in the exactdp grammar.
    codes : IntMatrix (or list of list of int)
        Index into ``values`` per cell; stored as a read-only :class:`IntMatrix`.

    Examples
    --------
    >>> MechanismData(name="K", inputs=["a"], outputs=["0", "1"], values=["1/4", "3/4"], codes=[[0, 1]]).rows()
    [['1/4', '3/4']]
    """

    name: str
    inputs: list[str]
    outputs: list[str]
    values: list[str]
    codes: IntMatrix

    def __post_init__(self):
        object.__setattr__(self, "codes", IntMatrix(self.codes))   # a list from JSON, or an int array
        super().__post_init__()

    def rows(self) -> list:
        """Return the matrix as rows of exact strings.

        Returns
        -------
        list of list of str
            ``rows()[i][j] = values[codes[i][j]]``.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> mechanism_data(geometric(1, "1/2")).rows()
        [['2/3', '1/3'], ['1/3', '2/3']]
        """
        return [[self.values[c] for c in row] for row in self.codes]


@dataclass(frozen=True)
class LevelData(Record):
    """A privacy level: ``eps`` exactly (an algebraic number) or ``eps = log(R)/D``; ``text`` for people.

    Parameters
    ----------
    text : str
        ``eps`` as people read it (``"log(2)"``, ``"1/2"``).
    eps : str or None
        ``eps`` when it is an algebraic number (transcendental regime).
    R, D : str or None
        ``e^(eps D) = R`` otherwise (rational regime).

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> level_data(Level.from_alpha("1/2"))
    LevelData(text='log(2)', eps=None, R='2', D='1')
    """

    text: str
    eps: str | None
    R: str | None
    D: str | None


@dataclass(frozen=True)
class DistanceTable(Record):
    """An explicit distance matrix, interned: ``d(labels[i], labels[j]) = values[codes[i][j]]`` (``"inf"`` allowed).

    Parameters
    ----------
    values : list of str
        Distinct exact distances (``"0"`` on the diagonal).
    codes : IntMatrix
        Index into ``values`` per pair of points.

    Examples
    --------
    >>> DistanceTable(values=["0", "1"], codes=[[0, 1], [1, 0]]).codes[0]
    [0, 1]
    """

    values: list[str]
    codes: IntMatrix

    def __post_init__(self):
        object.__setattr__(self, "codes", IntMatrix(self.codes))
        super().__post_init__()


@dataclass(frozen=True)
class MetricData(Record):
    """A metric by what it rests on, and its generating pairs ``[x, x', d(x, x')]`` (ECP14 sec. 3.2).

    Exactly one definition is carried, so that the re-check derives the generating pairs itself: ``edges``
    (the metric is the shortest-path metric of these weighted edges), ``distances`` (an explicit matrix) or
    ``all_pairs_at`` (every pair of distinct points at this distance; ``pairs`` is then empty, the ``n(n-1)/2``
    pairs are not written out).  Checking the generating pairs suffices (ECP14 sec. 3.2).

    Parameters
    ----------
    description : str
        The metric's one-line description.
    points : int
        Number of points.
    labels : list of str
        The points, in order.
    pairs : list of list of str
        ``[x, x', d(x, x')]`` per generating pair (exact text).
    reduction : str
        Why checking these pairs suffices.
    all_pairs_at : str, optional
        The common distance when every pair is generating.
    edges : list of list of str, optional
        ``[x, x', w]``: the weighted edges of the graph whose shortest paths are the metric.
    distances : DistanceTable, optional
        The explicit distance matrix.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> m = metric_data(path(3))
    >>> m.pairs, m.edges
    ([['0', '1', '1'], ['1', '2', '1']], [['0', '1', '1'], ['1', '2', '1']])
    """

    description: str
    points: int
    labels: list[str]
    pairs: list[list[str]]
    reduction: str
    all_pairs_at: str | None = None
    edges: list[list[str]] | None = None
    distances: DistanceTable | None = None

    _nested: ClassVar[dict[str, type]] = {"distances": DistanceTable}


@dataclass(frozen=True)
class Constraint(Record):
    """One inequality ``K(x)(z) <= e^(eps d) K(x')(z)`` with its exact sides (``lhs``/``rhs``/``excess`` at a level).

    A constraint of ``eps d``-privacy (ECP14 Def. 1); a tight one of ECP14
    Def. 6 has ``excess = 0``.

    Parameters
    ----------
    x, x_prime : str
        The two inputs.
    output : str
        The output ``z``.
    distance : str
        ``d(x, x')``, exact text.
    K_x, K_x_prime : str
        ``K(x)(z)`` and ``K(x')(z)``, exact text.
    lhs, rhs, excess : str, optional
        At a level: ``K(x)(z)``, ``e^(eps d) K(x')(z)`` and ``lhs - rhs``.

    Examples
    --------
    >>> c = Constraint(x="0", x_prime="1", output="0", distance="1", K_x="2/3", K_x_prime="1/3",
    ...                lhs="2/3", rhs="2/3", excess="0")
    >>> Constraint.from_json(c.to_json()) == c
    True
    """

    x: str
    x_prime: str
    output: str
    distance: str
    K_x: str
    K_x_prime: str
    lhs: str | None = None
    rhs: str | None = None
    excess: str | None = None


def mechanism_data(mech: Mechanism) -> MechanismData:
    """Return the exact strings of a :class:`~exactdp.mechanism.Mechanism`'s distinct values and its code matrix.

    Parameters
    ----------
    mech : Mechanism
        The live mechanism.

    Returns
    -------
    MechanismData
        Exact JSON data only.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> mechanism_data(geometric(1, "1/2")).codes
    IntMatrix([[0, 1], [1, 0]])
    """
    return MechanismData(name=str(mech.name), inputs=[str(x) for x in mech.inputs],
                         outputs=[str(z) for z in mech.outputs], values=[exact_str(v) for v in mech.values],
                         codes=IntMatrix(mech.codes))


@overload
def level_data(level: Level) -> LevelData: ...
@overload
def level_data(level: None) -> None: ...
def level_data(level: Level | None) -> LevelData | None:
    """Return the exact form of a :class:`~exactdp.exact.level.Level` (``None`` stays ``None``).

    Parameters
    ----------
    level : Level or None
        The live level.

    Returns
    -------
    LevelData or None
        ``eps`` when algebraic, else ``R`` and ``D``.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> level_data(Level.from_eps("1/2"))
    LevelData(text='1/2', eps='1/2', R=None, D=None)
    >>> level_data(None) is None
    True
    """
    if level is None:
        return None
    lin = level.exponent()
    if lin is not None:
        return LevelData(text=level.eps_str(), eps=str(lin), R=None, D=None)
    return LevelData(text=level.eps_str(), eps=None, R=exact_str(level.R), D=exact_str(level.D))


def metric_data(metric: FiniteMetric) -> MetricData:
    """Return a metric's generating pairs as exact strings, with the reduction that makes them sufficient.

    Parameters
    ----------
    metric : FiniteMetric
        The live metric.

    Returns
    -------
    MetricData
        The pairs; for the discrete metric ``all_pairs_at`` and ``labels``
        instead.

    Examples
    --------
    >>> from exactdp.metrics import discrete
    >>> m = metric_data(discrete(3))
    >>> m.pairs, m.all_pairs_at, m.labels, m.edges
    ([], '1', ['0', '1', '2'], None)
    """
    pts = metric.points
    labels = [str(p) for p in pts]
    def record(pairs, **definition) -> MetricData:
        return MetricData(description=metric.description, points=len(metric), labels=labels, pairs=pairs,
                          reduction=metric.reduction, **definition)
    if metric.params.get("kind") == "discrete" and len(metric) >= 2:
        return record([], all_pairs_at=exact_str(metric.d(0, 1)))
    pairs = [[labels[i], labels[j], exact_str(d)] for i, j, d in metric.generating_pairs()]
    if metric.kind == "matrix":
        vals: dict = {}
        codes = [[vals.setdefault("inf" if d == math.inf else exact_str(d), len(vals)) for d in row]
                 for row in metric.distance_matrix()]
        return record(pairs, distances=DistanceTable(values=list(vals), codes=IntMatrix(codes)))
    edges = pairs if metric.defining_edges is None else \
        [[labels[i], labels[j], exact_str(w)] for i, j, w in metric.defining_edges()]
    return record(pairs, edges=edges)
