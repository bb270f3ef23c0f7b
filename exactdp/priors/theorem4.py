"""ECP14 Theorem 4: is a mechanism optimal for every regular prior?

By Theorem 4 (when a tight-constraints mechanism exists), a private ``H : Y -> Z``
is optimal for every ``d``-regular prior iff some remap ``R : Z -> Y`` makes
``HR`` a tight-constraints mechanism: ``(HR)_yy' = phi_yy' (HR)_y'y'`` for all
``y != y'`` (Def. 6).  These conditions are *linear* in ``R``, so the question is
an exact LP feasibility problem over (possibly randomised) remaps:
``R >= 0``, rows of ``R`` summing to 1, the tight equalities -- minimise their
total violation; an exact optimum of 0 gives ``R``, a positive one proves that
no remap exists (with its dual certificate).  For small output sets, a search
over the deterministic remaps is also available.

>>> from exactdp.mechanisms import geometric
>>> from exactdp.metrics import path
>>> from exactdp.exact.level import Level
>>> c = tight_remap(geometric(3, "1/2"), path(4), Level.from_alpha("1/2"))
>>> c.holds
True
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from flint import fmpq

from ..certificate import Certificate, Method, level_data, mechanism_data
from .evidence import Theorem4Evidence, distance_data
from ..errors import InvalidInput
from ..exact.lp import LinearProgram, solve_lp
from .phi import PhiSystem

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["deterministic_tight_remaps", "tight_remap"]


def _check_rational(mech):
    from ..exact.expo import ExpFrac

    if any(isinstance(v, ExpFrac) for v in mech.values):
        raise InvalidInput("Theorem 4 check: the mechanism must have rational entries (fix a rational alpha)")


def tight_remap(mech: Mechanism, metric: FiniteMetric, level: Level) -> Certificate[Theorem4Evidence]:
    """Exact LP over remaps ``R : Z -> Y`` for ``HR`` tight-constraints (see module docstring).

    Parameters
    ----------
    mech : Mechanism
        Rational entries; inputs are the metric's points.
    metric : FiniteMetric
    level : Level

    Returns
    -------
    Certificate
        Kind ``theorem4``: holds when some remap works; ``evidence.remap`` (output -> {input: probability}),
        ``evidence.lp_value`` the exact optimum of the violation LP (positive when none works).

    Raises
    ------
    InvalidInput
        Irrational entries, or inputs that are not the metric's points.

    References
    ----------
    ECP14 Thm 4, Def. 6.

    Examples
    --------
    Randomized response keeping its input with probability ``3/4`` is more accurate than the tight
    ``(2/3, 1/3)`` at ``alpha = 1/2``; a randomized remap adds the missing noise:

    >>> from exactdp.exact.level import Level
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> tight_remap(randomized_response(2, p="1/4"), discrete(2), Level.from_alpha("1/2")).holds
    True
    """
    _check_rational(mech)
    S = PhiSystem(metric, level)
    M = S.exact_matrix()
    Y = list(metric.points)
    if set(mech.inputs) != set(Y):
        raise InvalidInput("Theorem 4 check: the mechanism's inputs must be the metric's points")
    Z = list(mech.outputs)
    ny, nz = len(Y), len(Z)
    v = lambda z, y: z * ny + y  # noqa: E731  variable r[z][y]
    nvar = nz * ny
    A_eq = [{v(z, y): 1 for y in range(ny)} for z in range(nz)]
    b_eq = [1] * nz
    # (HR)_{a b} - phi_ab (HR)_{b b} + s+ - s- = 0 for a != b, with (HR)_{ab} = sum_z h_{a z} r_{z b}
    rows_h = [mech.row_index[y] for y in Y]
    slack = nvar
    for a in range(ny):
        for b in range(ny):
            if a == b:
                continue
            row: dict = {}
            for z in range(nz):
                coef = mech[rows_h[a], z] - M[a, b] * mech[rows_h[b], z]
                if coef != 0:
                    row[v(z, b)] = coef
            row[slack] = 1
            row[slack + 1] = -1
            slack += 2
            A_eq.append(row)
            b_eq.append(0)
    c = [0] * nvar + [1] * (slack - nvar)
    sol = solve_lp(LinearProgram(c=c, A_eq=A_eq, b_eq=b_eq))
    exists = sol.value == 0
    R = None
    if exists:
        R = {Z[z]: {Y[y]: str(sol.x[v(z, y)]) for y in range(ny) if sol.x[v(z, y)] != 0} for z in range(nz)}
    ev = Theorem4Evidence(mechanism=mechanism_data(mech), level=level_data(level), distances=distance_data(metric),
                          variables=nvar, lp_value=str(sol.value), remap=R)
    return Certificate("theorem4", exists, Method.EXACT_LP, f"some remap makes {mech.name} tight-constraints "
                       "(optimal for every regular prior)", ev)


def deterministic_tight_remaps(mech: Mechanism, metric: FiniteMetric, level: Level, limit: int = 200_000) -> list:
    """Return all deterministic remaps ``Z -> Y`` making ``HR`` tight-constraints (exhaustive; small cases only).

    Tight-constraints: ``(HR)_ab = alpha^d(a, b) (HR)_bb`` for all ``a != b`` (ECP14 Def. 6).

    Parameters
    ----------
    mech : Mechanism
        Rational entries; inputs are the metric's points.
    metric : FiniteMetric
        The metric.
    level : Level
        The level.
    limit : int, optional
        The most remaps ``|Y|^|Z|`` tried.

    Returns
    -------
    list of dict
        Each remap as output -> point.

    Raises
    ------
    InvalidInput
        Beyond ``limit`` remaps, or irrational entries.

    Examples
    --------
    At ``alpha = 1/2`` the rows ``(2/3, 1/3)``, ``(1/3, 2/3)`` are tight as they are (``1/3 = 2/3 / 2``); the
    swap gives ``2/3 != 1/3 / 2`` and a constant remap ``1 != 1 / 2``.  The rows ``(3/4, 1/4)`` need a
    randomized remap (see :func:`tight_remap`):

    >>> from exactdp.exact.level import Level
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> L = Level.from_alpha("1/2")
    >>> deterministic_tight_remaps(randomized_response(2, p="1/3"), discrete(2), L)
    [{'0': '0', '1': '1'}]
    >>> deterministic_tight_remaps(randomized_response(2, p="1/4"), discrete(2), L)
    []
    """
    _check_rational(mech)
    S = PhiSystem(metric, level)
    M = S.exact_matrix()
    Y = list(metric.points)
    Z = list(mech.outputs)
    if len(Y) ** len(Z) > limit:
        raise InvalidInput(f"Theorem 4 search: {len(Y)}^{len(Z)} remaps exceed the limit {limit}; use tight_remap")
    rows = [mech.row_index[y] for y in Y]
    found = []
    for choice in itertools.product(range(len(Y)), repeat=len(Z)):
        HR = [[fmpq(0)] * len(Y) for _ in Y]
        for a in range(len(Y)):
            for z, b in enumerate(choice):
                HR[a][b] += mech[rows[a], z]
        if all(HR[a][b] == M[a, b] * HR[b][b] for a in range(len(Y)) for b in range(len(Y)) if a != b):
            found.append({Z[z]: Y[b] for z, b in enumerate(choice)})
    return found
