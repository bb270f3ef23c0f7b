"""Records shared by several certificate kinds: a mechanism, a level, generating pairs, a constraint.

They turn live objects into exact JSON data once, when a checker builds its
evidence; nothing downstream (renderers, the re-check) sees a live object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from ..exact.decide import exact_str
from .records import Record

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["MechanismData", "LevelData", "MetricData", "Constraint", "mechanism_data", "level_data", "metric_data"]


@dataclass(frozen=True)
class MechanismData(Record):
    """A mechanism, interned: ``K(inputs[i])(outputs[j]) = values[codes[i][j]]`` (exact strings)."""

    name: str
    inputs: list
    outputs: list
    values: list
    codes: list

    def rows(self) -> list:
        """The matrix as rows of exact strings."""
        return [[self.values[c] for c in row] for row in self.codes]


@dataclass(frozen=True)
class LevelData(Record):
    """A privacy level: ``eps`` exactly (an algebraic number) or ``eps = log(R)/D``; ``text`` for people."""

    text: str
    eps: str | None
    R: str | None
    D: str | None


@dataclass(frozen=True)
class MetricData(Record):
    """A metric by its generating pairs ``[x, x', d(x, x')]`` and the reason they suffice.

    When every pair of distinct points is a generating pair at one distance (the discrete metric), ``pairs``
    is empty and ``all_pairs_at`` holds that distance, with the points in ``labels``: ``n(n-1)/2`` pairs are
    not written out.
    """

    description: str
    points: int
    pairs: list
    reduction: str
    all_pairs_at: str | None = None
    labels: list | None = None


@dataclass(frozen=True)
class Constraint(Record):
    """One inequality ``K(x)(z) <= e^(eps d) K(x')(z)`` with its exact sides (``lhs``/``rhs``/``excess`` at a level)."""

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
    """Exact strings of a :class:`~exactdp.mechanism.Mechanism`'s distinct values and its code matrix."""
    return MechanismData(name=str(mech.name), inputs=[str(x) for x in mech.inputs],
                         outputs=[str(z) for z in mech.outputs], values=[exact_str(v) for v in mech.values],
                         codes=mech.codes.tolist())


@overload
def level_data(level: Level) -> LevelData: ...
@overload
def level_data(level: None) -> None: ...
def level_data(level: Level | None) -> LevelData | None:
    """The exact form of a :class:`~exactdp.exact.level.Level` (``None`` stays ``None``)."""
    if level is None:
        return None
    lin = level.exponent()
    if lin is not None:
        return LevelData(text=level.eps_str(), eps=str(lin), R=None, D=None)
    return LevelData(text=level.eps_str(), eps=None, R=exact_str(level.R), D=exact_str(level.D))


def metric_data(metric: FiniteMetric) -> MetricData:
    """A metric's generating pairs as exact strings, with the reduction that makes them sufficient."""
    pts = metric.points
    if metric.params.get("kind") == "discrete" and len(metric) >= 2:
        return MetricData(description=metric.description, points=len(metric), pairs=[], reduction=metric.reduction,
                          all_pairs_at=exact_str(metric.d(0, 1)), labels=[str(p) for p in pts])
    pairs = [[str(pts[i]), str(pts[j]), exact_str(d)] for i, j, d in metric.generating_pairs()]
    return MetricData(description=metric.description, points=len(metric), pairs=pairs, reduction=metric.reduction)
