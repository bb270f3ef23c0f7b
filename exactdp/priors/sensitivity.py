"""Uniform Delta-sensitivity (ECP14 Def. 2, Theorem 1) and oblivious mechanisms ``H o f``.

``f : X -> Y`` is uniformly Delta-sensitive w.r.t. ``d_X, d_Y`` iff (1)
``d_Y(f(x), f(x')) <= Delta d_X(x, x')`` for all ``x, x'`` and (2) every pair
``y, y'`` is joined by a *tight* chain (its length equals ``d_Y(y, y')``) of
*Delta-expansive* steps (``d_Y(y_i, y_(i+1)) = Delta d_X(x, x')`` for some
``x in f^-1(y_i)``, ``x' in f^-1(y_(i+1))``).  Then (Thm. 1) ``H`` is
``d_Y``-private iff ``H o f`` is ``Delta d_X``-private.

Condition (2) is decided exactly: a tight expansive chain from ``y`` to ``y'``
exists iff the shortest path from ``y`` to ``y'`` using only expansive steps
(weighted by ``d_Y``) has length exactly ``d_Y(y, y')`` (any chain is at least
that long by the triangle inequality).

>>> from exactdp.metrics import hamming, induced
>>> X = hamming([0, 1], 3)
>>> f = {x: str(sum(int(c) for c in x.split(","))) for x in X.points}
>>> Y = induced([0, 1], 3, lambda x: sum(x))
>>> uniformly_sensitive(X, Y, f, 1)[0]
True
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from flint import fmpq

from ..errors import InvalidInput
from ..exact.decide import exact_str
from ..mechanism import mechanism_from_values
from ..metrics.space import dist_sign, dist_sub

if TYPE_CHECKING:
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["compose_query", "uniformly_sensitive"]


def _eq(a, b) -> bool:
    if a == math.inf or b == math.inf:
        return a == b
    return dist_sign(dist_sub(a, b)) == 0


def uniformly_sensitive(X: FiniteMetric, Y: FiniteMetric, f: dict, delta: Any) -> tuple[bool, str]:
    """Decide whether ``f`` is uniformly Delta-sensitive (ECP14 Def. 2), exactly.

    Parameters
    ----------
    X : FiniteMetric
        The domain metric ``d_X``.
    Y : FiniteMetric
        The range metric ``d_Y``.
    f : dict
        Each point of ``X`` -> a point of ``Y``.
    delta : rational
        The sensitivity ``Delta``.

    Returns
    -------
    verdict : bool
        True iff both conditions of Def. 2 hold.
    reason : str
        The condition that fails, with its witness, or ``"both conditions hold"``.

    Raises
    ------
    InvalidInput
        If ``f`` is not defined on every point of ``X``, takes a value outside ``Y``, or ``X`` has
        irrational distances.

    Examples
    --------
    Doubling ``{0, 1, 2}`` into ``{0..4}`` on paths is uniformly 2-sensitive, not 1-sensitive.

    >>> from exactdp.metrics import path
    >>> double = {"0": "0", "1": "2", "2": "4"}
    >>> uniformly_sensitive(path(3), path(5), double, 2)
    (True, 'both conditions hold')
    >>> uniformly_sensitive(path(3), path(5), double, 1)
    (False, 'condition 1 fails: d_Y(f(0), f(1)) = 2 > Delta * d_X = 1')
    """
    delta = fmpq(delta)
    fx = {str(k): str(v) for k, v in f.items()}
    if set(fx) != set(X.points):
        raise InvalidInput("uniform sensitivity: f must be given on every point of X")
    if not set(fx.values()) <= set(Y.points):
        raise InvalidInput("uniform sensitivity: f takes a value that is not a point of Y")
    xs = list(X.points)
    expansive = set()
    for i, x in enumerate(xs):
        for x2 in xs[i + 1:]:
            dx = X.distance(x, x2)
            y, y2 = fx[x], fx[x2]
            dy = Y.distance(y, y2)
            bound = dx if dx == math.inf else dx * delta if isinstance(dx, fmpq) else None
            if bound is None:
                raise InvalidInput("uniform sensitivity: irrational distances in X are not supported here")
            if bound != math.inf and dist_sign(dist_sub(dy, bound)) > 0:
                return False, (f"condition 1 fails: d_Y(f({x}), f({x2})) = {exact_str(dy)} > Delta * d_X = "
                               f"{exact_str(bound)}")
            if y != y2 and bound != math.inf and _eq(dy, bound):
                expansive.add((y, y2))
    import networkx as nx

    G = nx.Graph()
    G.add_nodes_from(Y.points)
    for y, y2 in expansive:
        G.add_edge(y, y2, w=Y.distance(y, y2))
    image = sorted(set(fx.values()))
    for y in image:
        lens = nx.single_source_dijkstra_path_length(G, y, weight="w")
        for y2 in image:
            if y2 == y:
                continue
            if y2 not in lens or not _eq(lens[y2], Y.distance(y, y2)):
                return False, (f"condition 2 fails: no tight Delta-expansive chain from {y} to {y2} "
                               f"(d_Y = {exact_str(Y.distance(y, y2))})")
    return True, "both conditions hold"


def compose_query(H: Mechanism, f: dict, X: FiniteMetric) -> Mechanism:
    """Return the oblivious mechanism ``H o f`` on the points of ``X`` (row ``x`` is ``H(f(x))``), ECP14 Thm 1.

    Parameters
    ----------
    H : Mechanism
        A mechanism on the points of the range of ``f``.
    f : dict
        Each point of ``X`` -> an input of ``H``.
    X : FiniteMetric
        The domain; its points are the rows of the result.

    Returns
    -------
    Mechanism
        Inputs ``X.points``, outputs those of ``H``.

    Raises
    ------
    InvalidInput
        If some ``f(x)`` is not an input of ``H``.

    Examples
    --------
    >>> from exactdp.mechanism import Mechanism
    >>> from exactdp.metrics import path
    >>> H = Mechanism.from_rows(["0", "1"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
    >>> K = compose_query(H, {"0": "0", "1": "0", "2": "1"}, path(3))
    >>> K.inputs, [[str(v) for v in row] for row in K.rows()]
    (('0', '1', '2'), [['3/4', '1/4'], ['3/4', '1/4'], ['1/4', '3/4']])
    """
    rows = []
    for x in X.points:
        y = str(f[x])
        if y not in H.row_index:
            raise InvalidInput(f"compose: f({x}) = {y} is not an input of H")
        rows.append([H[H.row_index[y], j] for j in range(len(H.outputs))])
    return mechanism_from_values(X.points, H.outputs, rows, name=f"{H.name} o f")
