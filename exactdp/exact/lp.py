"""Exact linear programming: HiGHS's basis, rebuilt sparsely in rational arithmetic and verified.

Problem form (all data exact rationals)::

    minimise c.x  subject to  A_eq x = b_eq,  A_ub x <= b_ub,  x >= 0.

:func:`solve_lp` follows docs/architecture.md#sec-kernel (the exact LP),
in the way exact SoPlex and QSopt_ex use a float solver: HiGHS (highspy)
returns its actual simplex basis (:mod:`exactdp.exact.lp_float`); the basic
solution and its duals are rebuilt *exactly* with a sparse rational LU of
the basis matrix (:mod:`exactdp.exact.lp_sparse`); if that basis is not
exactly optimal, an exact revised simplex pivots *from it*
(:mod:`exactdp.exact.lp_simplex`).  A caller who knows a candidate optimum
passes it as ``start`` instead (the GRS12 user LP: the Bayes-remapped
geometric mechanism, optimal by GRS12 Thm 3.1, whose basis HiGHS's
tolerances cannot find at n >= 100).  Floats or the start only choose the
starting basis;
every outcome is proved exactly:

* an optimum comes with its dual certificate (``y``, ``lambda``): primal
  feasibility, ``c - A_eq^T y + A_ub^T lambda >= 0``, ``lambda >= 0`` and zero
  duality gap, re-checked by :meth:`LPSolution.verify`;
* an infeasible LP raises :class:`LPInfeasible` with a Farkas certificate;
* an unbounded LP raises :class:`LPUnbounded` with a feasible point and an
  improving ray.

Nothing is left undecided on a feasible bounded LP: the exact simplex
terminates (Bland's rule against cycling), whatever HiGHS reported.

>>> lp = LinearProgram(c=[1, 1], A_ub=[{0: -1, 1: -1}], b_ub=[-1])
>>> sol = solve_lp(lp)
>>> sol.value, sol.verify()
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flint import fmpq

from ..errors import ExactDPError, InputTooLarge, InvalidInput, Undecided
from .lp_check import dot as _dot
from .lp_check import face_is_point, optimal, reduced_costs

__all__ = [
    "MAX_LP_SIZE",
    "MAX_LP_SIZE_GUIDED",
    "LPInfeasible",
    "LPSolution",
    "LPUnbounded",
    "LinearProgram",
    "solve_lp",
]


def _q(v) -> fmpq:
    return v if isinstance(v, fmpq) else fmpq(v)


@dataclass
class LinearProgram:
    """``min c.x`` s.t. ``A_eq x = b_eq``, ``A_ub x <= b_ub``, ``x >= 0``; rows are sparse dicts.

    The form of GRS12's user-specific LP (2)-(6) and of the KL10 and BCSZ18
    LPs built in the topic packages (:mod:`exactdp.optimality`, ...).  Data are converted to ``fmpq`` at
    construction; zero coefficients are dropped.

    Parameters
    ----------
    c : list
        Objective coefficients, one per variable (exact rationals).
    A_eq, A_ub : list of dict, optional
        Constraint rows as ``{variable index: coefficient}``.
    b_eq, b_ub : list, optional
        Right-hand sides, one per row.
    names : list of str, optional
        Variable names, for messages and certificates.
    scale : list of float, optional
        Positive column scales used by the float solve only.

    Raises
    ------
    InvalidInput
        Rows and right-hand sides differ in number, or a row names a
        variable out of range.

    Examples
    --------
    >>> lp = LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=["1/2"])
    >>> lp.n, lp.b_eq
    (2, [1/2])
    """

    c: list
    A_eq: list = field(default_factory=list)
    b_eq: list = field(default_factory=list)
    A_ub: list = field(default_factory=list)
    b_ub: list = field(default_factory=list)
    names: list | None = None
    #: optional positive float column scales for the float solve only (x_j = scale_j * y_j), so that an
    #: optimum with entries of very different magnitudes (alpha^40 next to 1) has O(1) values in floats
    scale: list | None = None

    def __post_init__(self):
        self.c = [_q(v) for v in self.c]
        self.A_eq = [{int(j): _q(v) for j, v in r.items() if v != 0} for r in self.A_eq]
        self.A_ub = [{int(j): _q(v) for j, v in r.items() if v != 0} for r in self.A_ub]
        self.b_eq = [_q(v) for v in self.b_eq]
        self.b_ub = [_q(v) for v in self.b_ub]
        n = len(self.c)
        if len(self.A_eq) != len(self.b_eq) or len(self.A_ub) != len(self.b_ub):
            raise InvalidInput("linear program: constraint rows and right-hand sides differ in number")
        for r in self.A_eq + self.A_ub:
            if any(j < 0 or j >= n for j in r):
                raise InvalidInput("linear program: a constraint names a variable out of range")

    @property
    def n(self) -> int:
        """The number of variables.

        Examples
        --------
        >>> LinearProgram(c=[0, 0, 1]).n
        3
        """
        return len(self.c)


@dataclass
class LPSolution:
    """An exactly verified optimum with its dual certificate.

    Built by :func:`solve_lp`; the dual ``(y, lam)`` proves optimality (weak
    duality), as the optimality certificates of GRS12 Thm 3.1 use it.

    Parameters
    ----------
    lp : LinearProgram
        The program solved.
    value : fmpq
        The optimum ``c.x``.
    x : list of fmpq
        An optimal point.
    y : list of fmpq
        Duals of the equalities (free).
    lam : list of fmpq
        Duals of the inequalities (``>= 0``).
    reduced : list of fmpq
        ``c - A_eq^T y + A_ub^T lam`` (``>= 0``, zero on the support of ``x``).
    method : str
        How the optimum was found and verified.
    unique : bool or None, optional
        True when the optimal face is proved to be one point; None if not
        certified.

    Examples
    --------
    >>> sol = solve_lp(LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 2}], b_eq=[2]))
    >>> sol.value, sol.x, sol.y, sol.unique
    (1, [0, 1], [1/2], True)
    """

    lp: LinearProgram
    value: fmpq
    x: list
    y: list          # duals of the equalities (free)
    lam: list        # duals of the inequalities (>= 0)
    reduced: list    # c - A_eq^T y + A_ub^T lam  (>= 0, zero on the support of x)
    method: str
    unique: bool | None = None

    def verify(self) -> bool:
        """Re-check primal feasibility, dual feasibility and zero gap exactly.

        Returns
        -------
        bool
            True when ``x`` is feasible, ``lam >= 0``, the reduced costs are
            as stored and ``>= 0``, and ``c.x = b_eq.y - b_ub.lam = value``.

        Examples
        --------
        >>> from flint import fmpq
        >>> sol = solve_lp(LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 2}], b_eq=[2]))
        >>> sol.verify()
        True
        >>> sol.value = fmpq(2); sol.verify()
        False
        """
        return optimal(self.lp, self.lp.c, self.x, self.y, self.lam, self.reduced, self.value)


def _reduced(lp, y, lam):
    return reduced_costs(lp, lp.c, y, lam)


class LPInfeasible(ExactDPError):
    """The LP has no feasible point, with an exact Farkas certificate (an outcome, not an input error).


    ``lam >= 0`` and ``y`` with ``A_ub^T lam - A_eq^T y >= 0`` (componentwise) and ``b_ub.lam - b_eq.y < 0``:
    for a feasible ``x >= 0`` the first gives ``(A_ub^T lam - A_eq^T y).x >= 0`` while feasibility gives
    ``(A_ub^T lam - A_eq^T y).x <= b_ub.lam - b_eq.y < 0``.

    Parameters
    ----------
    lp : LinearProgram
        The program.
    y : list of fmpq
        Multipliers of the equalities.
    lam : list of fmpq
        Multipliers of the inequalities (``>= 0``).

    Examples
    --------
    >>> try:
    ...     solve_lp(LinearProgram(c=[1], A_eq=[{0: 1}], b_eq=[-1]))
    ... except LPInfeasible as e:
    ...     print(e.verify(), e.y, e.lam)
    True [-1] []
    """

    def __init__(self, lp, y, lam):
        super().__init__("linear program: infeasible (exact Farkas certificate: multipliers y for the "
                         "equalities and lam >= 0 for the inequalities combine the constraints into 0 <= negative)")
        self.lp, self.y, self.lam = lp, y, lam

    def verify(self) -> bool:
        """Re-check the Farkas certificate exactly.

        Returns
        -------
        bool
            True when ``lam >= 0``, ``A_ub^T lam - A_eq^T y >= 0`` and
            ``b_ub.lam - b_eq.y < 0``.

        Examples
        --------
        >>> from flint import fmpq
        >>> lp = LinearProgram(c=[1], A_eq=[{0: 1}], b_eq=[-1])
        >>> LPInfeasible(lp, [fmpq(-1)], []).verify(), LPInfeasible(lp, [fmpq(1)], []).verify()
        (True, False)
        """
        lp = self.lp
        if len(self.y) != len(lp.b_eq) or len(self.lam) != len(lp.b_ub) or any(v < 0 for v in self.lam):
            return False
        comb = reduced_costs(lp, [fmpq(0)] * lp.n, self.y, self.lam)     # A_ub^T lam - A_eq^T y
        rhs = _dot(dict(enumerate(lp.b_ub)), self.lam) - _dot(dict(enumerate(lp.b_eq)), self.y)
        return all(v >= 0 for v in comb) and rhs < 0


class LPUnbounded(ExactDPError):
    """The LP is feasible and its objective is unbounded below, with an exact certificate.


    ``x`` is feasible and the ray ``r >= 0`` has ``A_eq r = 0``, ``A_ub r <= 0`` and ``c.r < 0``, so
    ``x + t r`` is feasible for every ``t >= 0`` with objective ``c.x + t c.r -> -infinity``.

    Parameters
    ----------
    lp : LinearProgram
        The program.
    x : list of fmpq
        A feasible point.
    ray : list of fmpq
        An improving ray (``>= 0``).

    Examples
    --------
    >>> try:
    ...     solve_lp(LinearProgram(c=[-1, 0], A_ub=[{0: 1, 1: -1}], b_ub=[1]))
    ... except LPUnbounded as e:
    ...     print(e.verify(), e.ray)
    True [1, 1]
    """

    def __init__(self, lp, x, ray):
        super().__init__("linear program: unbounded (exact certificate: a feasible point and a ray along which "
                         "the objective decreases without bound)")
        self.lp, self.x, self.ray = lp, x, ray

    def verify(self) -> bool:
        """Re-check the feasible point and the improving ray exactly.

        Returns
        -------
        bool
            True when ``x >= 0`` is feasible, ``ray >= 0`` keeps every
            constraint (``A_eq r = 0``, ``A_ub r <= 0``) and ``c.r < 0``.

        Examples
        --------
        >>> from flint import fmpq
        >>> lp = LinearProgram(c=[-1, 0], A_ub=[{0: 1, 1: -1}], b_ub=[1])
        >>> LPUnbounded(lp, [fmpq(0), fmpq(0)], [fmpq(1), fmpq(1)]).verify()
        True
        >>> LPUnbounded(lp, [fmpq(0), fmpq(0)], [fmpq(1), fmpq(0)]).verify()
        False
        """
        lp, x, r = self.lp, self.x, self.ray
        if len(x) != lp.n or len(r) != lp.n or any(v < 0 for v in x) or any(v < 0 for v in r):
            return False
        ok = all(_dot(a, x) == b and _dot(a, r) == 0 for a, b in zip(lp.A_eq, lp.b_eq, strict=True))
        ok = ok and all(_dot(a, x) <= b and _dot(a, r) <= 0 for a, b in zip(lp.A_ub, lp.b_ub, strict=True))
        return ok and _dot(dict(enumerate(lp.c)), r) < 0


#: Largest LP (constraint nonzeros plus variables) solve_lp accepts with HiGHS as the guide.  Measured on the shared
#: 2-core machine: the GRS12 user LP at n = 150 (22,801 variables, about 136,000 in this count) certifies in 38 s
#: after 232 exact pivots, n = 200 (about 242,000) in 282 s and 400 MB (README, "Exact LP"); HiGHS's tolerances
#: cannot see entries near alpha^n, so its basis drifts further from the exact optimum as n grows and an LP past
#: this size is refused up front rather than left running for hours.
MAX_LP_SIZE = 400_000
#: Largest LP solve_lp accepts with a ``start`` point as the guide (no HiGHS).  Measured: the GRS12 user LP at
#: n = 300 (90,601 variables, 542,402 in this count) from the Bayes-remapped geometric mechanism's basis, zero
#: exact pivots, in 84 s and 525 MB for the whole ``exactdp optimal`` command (docs/benchmarks.md).
MAX_LP_SIZE_GUIDED = 545_000


def _check_size(lp, limit=None):
    limit = MAX_LP_SIZE if limit is None else limit
    size = lp.n + sum(len(r) for r in lp.A_eq) + sum(len(r) for r in lp.A_ub)
    if size > limit:
        raise InputTooLarge(f"linear program: expected at most {limit:,} variables plus constraint "
                            f"nonzeros for an exact solve, got {size:,} ({lp.n:,} variables); hint: a smaller "
                            "instance, or exploit symmetry to shrink the LP")


_METHOD_FLOAT = ("HiGHS basis (floating point) rebuilt in exact rationals and verified: primal feasibility, dual "
                 "feasibility, zero duality gap")


def _method(pivots, from_float, source="float", start_name="the given start point"):
    if pivots == 0 and from_float:
        if source == "start":
            return (f"the basis of {start_name} rebuilt in exact rationals and verified: primal feasibility, dual "
                    "feasibility, zero duality gap")
        return _METHOD_FLOAT
    start = (f"the basis of {start_name}" if source == "start" else "the HiGHS basis") if from_float else \
        "a slack basis (HiGHS gave none)"
    return (f"exact revised simplex (rational sparse LU) from {start}, {pivots} exact pivot(s), and verified: primal "
            "feasibility, dual feasibility, zero duality gap")


def _finish(lp, x, y, lam, method):
    red = _reduced(lp, y, lam)
    value = sum((ci * xi for ci, xi in zip(lp.c, x, strict=True)), fmpq(0))
    sol = LPSolution(lp, value, x, y, lam, red, method)
    if not sol.verify():
        return None
    sol.unique = _uniqueness(lp, sol)
    return sol


def _uniqueness(lp, sol):
    """True if the optimal face is a single point (certified by rank); None if not certified.

    The optimal face is ``{x >= 0 : A_eq x = b_eq, A_ub x <= b_ub, x_j = 0 where reduced_j > 0, row k tight
    where lam_k > 0}``; if the equalities alone determine the free coordinates (full column rank, computed
    with the exact sparse LU), it is one point.
    """
    return face_is_point(lp, [j for j in range(lp.n) if sol.reduced[j] == 0],
                         [k for k in range(len(lp.A_ub)) if sol.lam[k] > 0])


def _basis_from_point(sf, x):
    """The basis a feasible point ``x`` suggests: its support, and the slacks of the rows it leaves slack.

    Each equality row keeps one of its two internal slacks (``s+`` of ``a.x + s+ = b``, ``s-`` of
    ``-a.x + s- = -b``) basic at 0: first ``s-``; then, once the basis is factorised, the side is swapped on
    every row whose dual ``y`` would give the non-basic slack a negative reduced cost, so that no degenerate
    pivot is spent on the sign (as :func:`exactdp.exact.lp_float._internal_basis` does with HiGHS's duals).
    Returns ``(C, basic rows, factorisation or None)``, or ``None`` when ``x`` is not a list of ``lp.n``
    values.
    """
    from .lp_simplex import _Factor

    lp = sf.lp
    if len(x) != lp.n:
        return None
    x = [_q(v) for v in x]
    C = {j for j, v in enumerate(x) if v != 0}
    rows_b = {k for k in range(sf.m_ub) if _dot(lp.A_ub[k], x) != lp.b_ub[k]}
    minus = [sf.m_ub + sf.m_eq + i for i in range(sf.m_eq)]
    rows_b.update(minus)
    f = _Factor(sf, C, rows_b)
    if not f.ok:
        return C, rows_b, None
    u = f.solve_transpose({("x", j): lp.c[j] for j in C if lp.c[j] != 0})
    # y_i > 0: s+ must be the basic one and s- non-basic (the factorisation takes the row's sign change)
    f.swap_rows([(sf.m_ub + i, minus[i]) for i in range(sf.m_eq) if u.get(sf.m_ub + i, fmpq(0)) > 0])
    return set(C), set(f.rows_b), f


def solve_lp(lp: LinearProgram, start=None, start_name: str = "the given start point") -> LPSolution:
    """Solve ``lp`` exactly: an optimum with its dual certificate, or an exact proof that there is none.

    HiGHS's basis is the start; the exact revised simplex of :mod:`exactdp.exact.lp_simplex` rebuilds it
    with a sparse rational LU and pivots exactly until it is optimal (often zero pivots).  The LPs of
    GRS12 (2)-(6), KL10 and BCSZ18 are solved this way (docs/architecture.md#sec-kernel, the exact LP).

    Parameters
    ----------
    lp : LinearProgram
        The program, exact data.
    start : list, optional
        A feasible point believed optimal (exact values), used instead of HiGHS to choose the start basis:
        its support and the rows it leaves slack (for the GRS12 user LP, the Bayes-remapped geometric
        mechanism of GRS12 Thm 3.1).  A guide only: the result is verified exactly as always, and a start
        that is not optimal (or not a vertex) is repaired by exact pivots.
    start_name : str, optional
        What the start is, for the solution's ``method`` text.

    Returns
    -------
    LPSolution
        Exactly verified: :meth:`LPSolution.verify` re-checks primal and dual feasibility and zero gap.

    Raises
    ------
    InputTooLarge
        More than :data:`MAX_LP_SIZE` variables plus constraint nonzeros (:data:`MAX_LP_SIZE_GUIDED` with a
        ``start``).
    LPInfeasible
        No feasible point; carries a verified Farkas certificate.
    LPUnbounded
        Objective unbounded below; carries a verified feasible point and ray.
    Undecided
        Never in a correct run: an exact certificate that failed its own check (a bug to report).

    Examples
    --------
    >>> lp = LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2])
    >>> sol = solve_lp(lp)
    >>> sol.value, sol.x, sol.lam, sol.verify()
    (8, [4, 0], [2, 0], True)
    """
    from .lp_float import float_basis
    from .lp_simplex import ExactSimplex, Infeasible, StandardForm, Unbounded

    _check_size(lp, MAX_LP_SIZE if start is None else MAX_LP_SIZE_GUIDED)
    sf = StandardForm(lp)
    guided = _basis_from_point(sf, start) if start is not None else None
    source, factor = "start", None
    if guided is not None:
        basis, factor = guided[:2], guided[2]
    else:
        source = "float"
        basis, _statuses = float_basis(lp) if lp.n else (None, [])
    C, rows_b = basis if basis is not None else (set(), set(range(sf.m)))
    res = ExactSimplex(sf, C, rows_b, factor=factor).run(lp.c)
    exc: LPInfeasible | LPUnbounded
    if isinstance(res, Infeasible):
        exc = LPInfeasible(lp, res.y, res.lam)
        if exc.verify():
            raise exc
    elif isinstance(res, Unbounded):
        exc = LPUnbounded(lp, res.x, res.ray)
        if exc.verify():
            raise exc
    else:
        sol = _finish(lp, res.x, res.y, res.lam, _method(res.pivots, basis is not None, source, start_name))
        if sol is not None:
            return sol
    raise Undecided("internal error: the exact simplex produced a certificate that failed its exact check")
