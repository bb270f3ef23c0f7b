"""The exact smallest maximal expected error of an (eps, delta)-DP sanitisation (HLM15 Section 6).

HLM15 (13) defines ``E = max_d E[rho(Y_d, d)]`` for a 1-D mechanism ``Y`` on a
finite metric space ``D`` (outputs in ``D``); Lemma 4 and Theorems 6-7 bound
it from below under (14): ``P(Y_d in A) <= e^eps P(Y_d' in A) + delta`` for
ALL ``d, d'`` in ``D``.  By the worst-set lemma (14) is linear once an
auxiliary ``s_{d,d'}(u) >= Y_d(u) - e^eps Y_d'(u)`` with
``sum_u s_{d,d'}(u) <= delta`` is added, so the optimum is an LP:

    minimise E  s.t.  sum_u Y_d(u) = 1,  sum_u rho(u, d) Y_d(u) <= E,
                      Y_d(u) - t Y_d'(u) - s_{d,d'}(u) <= 0,  sum_u s_{d,d'}(u) <= delta,  all >= 0,

solved exactly by :func:`exactdp.exact.lp.solve_lp` (float basis, exact
verification with the dual) for rational ``t = e^eps`` and ``delta``.

>>> from exactdp.metrics import discrete
>>> value, rows, sol = min_max_expected_error(discrete(3), 2, "1/10")
>>> value, sol.verify()
(9/20, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import fmpq

from ..errors import InvalidInput
from ..exact.lp import LinearProgram, solve_lp
from ..exact.values import to_rational

if TYPE_CHECKING:
    from ..metrics.space import FiniteMetric

__all__ = ["min_max_expected_error"]


def min_max_expected_error(metric: FiniteMetric, t: Any, delta: Any) -> tuple[Any, list, Any]:
    """Return the exact minimum of ``max_d E[rho(Y_d, d)]`` over (eps, delta)-DP ``Y`` (HLM15 (13)-(14)).

    The privacy condition (14) binds all pairs ``d, d'`` of the space, as in HLM15 Section 6.

    Parameters
    ----------
    metric : FiniteMetric
        The space ``D`` (inputs and outputs), with rational distances.
    t : rational
        ``e^eps >= 1``.
    delta : rational
        ``0 <= delta <= 1``.

    Returns
    -------
    value : fmpq
        The optimum.
    rows : list of list of fmpq
        The rows ``Y_d`` of an optimal mechanism.
    solution : LPSolution
        The verified LP solution (:class:`~exactdp.exact.lp.LPSolution`).

    Raises
    ------
    InvalidInput
        If ``t < 1`` or ``delta`` is outside ``[0, 1]``, or a distance is not rational.

    Examples
    --------
    On two points at distance 1 with ``eps = 0`` and ``delta = 0`` both rows are equal, so one of the
    two errors ``1 - Y(d)`` is at least ``1/2``; ``delta = 1`` lifts the constraint and the error is 0.

    >>> from exactdp.metrics import discrete
    >>> min_max_expected_error(discrete(2), 1, 0)[0], min_max_expected_error(discrete(2), 1, 1)[0]
    (1/2, 0)
    """
    t, delta = to_rational(t, what="e^eps"), to_rational(delta, what="delta")
    if t < 1:
        raise InvalidInput(f"e^eps: expected t >= 1, got {t}")
    if not (0 <= delta <= 1):
        raise InvalidInput(f"delta: expected 0 <= delta <= 1, got {delta}")
    n = len(metric)
    D = [[to_rational(metric.d(i, j), what="distance") for j in range(n)] for i in range(n)]
    y = lambda d, u: d * n + u                                       # noqa: E731
    pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
    s0 = n * n
    s = lambda k, u: s0 + k * n + u                                  # noqa: E731
    E = s0 + len(pairs) * n
    c = [fmpq(0)] * E + [fmpq(1)]
    A_eq = [{y(d, u): 1 for u in range(n)} for d in range(n)]
    A_ub: list[dict]
    b_ub: list
    A_ub, b_ub = [], []
    for d in range(n):
        row: dict = {y(d, u): D[u][d] for u in range(n) if D[u][d] != 0}
        row[E] = -1
        A_ub.append(row)
        b_ub.append(fmpq(0))
    for k, (a, b) in enumerate(pairs):
        for u in range(n):
            A_ub.append({y(a, u): 1, y(b, u): -t, s(k, u): -1})
            b_ub.append(fmpq(0))
        A_ub.append({s(k, u): 1 for u in range(n)})
        b_ub.append(delta)
    sol = solve_lp(LinearProgram(c=c, A_eq=A_eq, b_eq=[fmpq(1)] * n, A_ub=A_ub, b_ub=b_ub))
    rows = [[sol.x[y(d, u)] for u in range(n)] for d in range(n)]
    return sol.value, rows, sol
