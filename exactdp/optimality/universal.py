"""Universal optimality of the geometric mechanism (GRS12 Thm 3.1, Sec. 5).

* :func:`user_lp` -- the user-specific LP (GRS12 (2)-(6)): variables ``x_ir``,
  privacy constraints between adjacent rows, rows summing to 1, ``x >= 0``.
* :func:`optimal_mechanism` -- its exact optimum with the dual certificate.
* :func:`certify_universal_optimality` -- the Bayes-remapped geometric
  mechanism attains the LP optimum exactly (Thm 3.1).
* :func:`constraint_matrix` -- the Section 5 constraint matrix, and the row and
  column patterns of Lemmas 5.5, 5.6 and 5.9 (:func:`check_lemmas`);
  :func:`lemma_5_11_remap` builds the remap of Lemma 5.11 from it.

Constraint-matrix symbols: ``Z`` zero column; ``S`` slack; ``D`` when
``x_(i+1)r = alpha x_ir`` (the probability goes *down* by alpha from row i to
row i+1); ``U`` when ``x_ir = alpha x_(i+1)r`` (it goes *up*).  This is the
journal version's convention (GRS12, SIAM J. Comput. 2012, Fig. 3(b)), which
prints ``Z`` as ``0`` (:data:`JOURNAL_GLYPHS`); the arXiv text lost the glyphs.

Losses with irrational (radical) values, such as the journal's
``|i - j|^(3/2)``, are solved by :mod:`exactdp.exact.lp_irrational`: the vertex
stays rational and the dual certificate is exact linear forms in the radicals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Callable, Sequence

from flint import fmpq

from ..certificate import Certificate, Method, mechanism_data
from ..priors.evidence import LPData
from .evidence import OptimalityEvidence
from ..errors import InputTooLarge, InvalidInput, Undecided
from ..exact.decide import exact_str, sign
from ..exact.level import level_of
from ..exact.lp import MAX_LP_SIZE, MAX_LP_SIZE_GUIDED, LinearProgram, solve_lp
from ..exact.lp_irrational import solve_lp_irrational
from ..mechanism import Mechanism, mechanism_from_values
from .remaps import bayes_remap
from .users import User, expected_loss

if TYPE_CHECKING:
    from ..exact.lp import LPSolution
    from ..exact.lp_irrational import IrrationalLPSolution
    from ..metrics.space import FiniteMetric

__all__ = [
    "JOURNAL_GLYPHS",
    "certify_universal_optimality",
    "check_lemmas",
    "check_lp_size",
    "constraint_matrix",
    "lemma_5_11_remap",
    "max_lp_n",
    "optimal_mechanism",
    "privacy_lp",
    "rational_alpha",
    "user_cost",
    "user_lp",
    "user_lp_size",
]

#: the journal version's glyphs for the constraint matrix (GRS12 SIAM J. Comput. 2012, Fig. 3(b)): our Z is
#: printed as 0, and D (x_(i+1)j = alpha x_ij tight), U (x_(i+1)j = x_ij / alpha tight), S (slack) as they are
JOURNAL_GLYPHS = {"Z": "0", "D": "D", "U": "U", "S": "S"}


def rational_alpha(alpha: Any = None, eps: Any = None) -> fmpq:
    """Return the level as a rational alpha (the LP regime); other levels are outside it.

    Parameters
    ----------
    alpha : str or exact number, optional
        ``alpha = e^-eps``.
    eps : str or exact number, optional
        ``eps`` (give one of the two).

    Returns
    -------
    fmpq
        ``alpha``.

    Raises
    ------
    Undecided
        If ``alpha`` is irrational (the LP needs rational coefficients).

    Examples
    --------
    >>> rational_alpha(eps="log(2)"), rational_alpha(alpha="1/3")
    (1/2, 1/3)
    >>> rational_alpha(eps="1")
    Traceback (most recent call last):
    ...
    exactdp.errors.Undecided: alpha = e^(-1) is not rational; the exact LP needs rational coefficients (give
    --alpha p/q or --eps log(q))
    """
    level = level_of(eps, alpha)
    a = level.alpha()
    if not isinstance(a, fmpq):
        raise Undecided(f"alpha = e^(-{level.eps_str()}) is not rational; the exact LP needs rational "
                        "coefficients (give --alpha p/q or --eps log(q))")
    return a


def user_lp_size(n: int) -> int:
    """Return the number of variables plus constraint nonzeros of :func:`user_lp` at ``n``.

    That is ``(n+1)^2`` variables, ``(n+1)^2`` in the row sums and ``4 n (n+1)`` in the privacy
    constraints (the measure :data:`~exactdp.exact.lp.MAX_LP_SIZE_GUIDED` caps).

    Parameters
    ----------
    n : int
        The largest value of the data.

    Returns
    -------
    int
        ``2 (n+1)^2 + 4 n (n+1)``.

    Examples
    --------
    >>> user_lp_size(1), user_lp_size(300), user_lp_size(301)
    (16, 542402, 546016)
    """
    N = n + 1
    return 2 * N * N + 4 * n * N


def max_lp_n() -> int:
    """Return the largest ``n`` whose user LP the exact solver accepts from its start point.

    That is the largest ``n`` with ``user_lp_size(n) <= MAX_LP_SIZE_GUIDED`` (measured at n = 300:
    docs/benchmarks.md).

    Returns
    -------
    int
        The bound on ``n``.

    Examples
    --------
    >>> max_lp_n()
    300
    """
    n = 1
    while user_lp_size(n + 1) <= MAX_LP_SIZE_GUIDED:
        n += 1
    return n


def check_lp_size(n: int) -> None:
    """Refuse, before anything is built, an ``n`` whose user LP exceeds the exact solver's limit.

    Parameters
    ----------
    n : int
        The largest value of the data.

    Raises
    ------
    InputTooLarge
        If ``user_lp_size(n) > MAX_LP_SIZE_GUIDED``.

    Examples
    --------
    >>> check_lp_size(1000)
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: n = 1000: the exact GRS12 LP would have (n+1)^2 = 1,002,001 variables and 6,008,002
    variables plus nonzeros; the exact LP solver's limit is 545,000, so n <= 300
    """
    if user_lp_size(n) > MAX_LP_SIZE_GUIDED:
        raise InputTooLarge(f"n = {n}: the exact GRS12 LP would have (n+1)^2 = {(n + 1) ** 2:,} variables and "
                            f"{user_lp_size(n):,} variables plus nonzeros; the exact LP solver's limit is "
                            f"{MAX_LP_SIZE_GUIDED:,}, so n <= {max_lp_n()}")


def user_lp(n: int, alpha: fmpq, user: User) -> LinearProgram:
    """Return the GRS12 user-specific LP (2)-(6); variable ``x_ir`` has index ``i*(n+1) + r``.

    Parameters
    ----------
    n : int
        The data take values ``0..n`` (``n >= 1``).
    alpha : fmpq
        The privacy level ``alpha = e^-eps``, rational.
    user : User
        The prior and loss on ``{0..n}``; for a radical loss the LP's cost is zero and the radical
        cost goes to :func:`~exactdp.exact.lp_irrational.solve_lp_irrational` (see :func:`user_cost`).

    Returns
    -------
    LinearProgram
        Minimise the expected loss over rows summing to 1, ``x >= 0``, and
        ``alpha x_(i+1)r <= x_ir``, ``alpha x_ir <= x_(i+1)r`` for adjacent rows.

    Raises
    ------
    InvalidInput
        If ``n < 1`` or the user's prior is not on ``{0..n}``.
    InputTooLarge
        Beyond :func:`max_lp_n`.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.optimality.users import User
    >>> lp = user_lp(1, fmpq(1, 2), User.uniform(1))
    >>> len(lp.c), len(lp.A_eq), len(lp.A_ub), lp.A_ub[0]      # alpha x_10 <= x_00
    (4, 2, 4, {2: 1/2, 0: -1})
    """
    if n < 1:
        raise InvalidInput(f"n: expected n >= 1, got {n}")
    check_lp_size(n)
    if user.n != n:
        raise InvalidInput(f"user: the prior has {user.n + 1} entries, expected {n + 1} for n = {n}")
    N = n + 1
    v = lambda i, r: i * N + r  # noqa: E731
    # an irrational loss keeps the constraints rational: the LP then carries a zero cost and the radical cost
    # goes to :func:`~exactdp.exact.lp_irrational.solve_lp_irrational` (see :func:`user_cost`)
    c = user_cost(user) if user.rational else [0] * (N * N)
    A_eq = [{v(i, r): 1 for r in range(N)} for i in range(N)]
    A_ub = []
    for i in range(n):
        for r in range(N):
            A_ub.append({v(i + 1, r): alpha, v(i, r): -1})   # alpha x_(i+1)r <= x_ir
            A_ub.append({v(i, r): alpha, v(i + 1, r): -1})   # alpha x_ir <= x_(i+1)r
    names = [f"x[{i},{r}]" for i in range(N) for r in range(N)]
    # float scales for the basis search only: optimal mechanisms are remaps of the geometric mechanism,
    # whose entries are about alpha^|i - r|
    a = float(alpha)
    scale = [max(a ** abs(i - r), 1e-300) for i in range(N) for r in range(N)]
    return LinearProgram(c=c, A_eq=A_eq, b_eq=[1] * N, A_ub=A_ub, b_ub=[0] * len(A_ub), names=names, scale=scale)


def user_cost(user: User) -> list:
    """Return the objective of the user-specific LP, ``c_ir = p_i l(i, r)`` (GRS12 (2)).

    Parameters
    ----------
    user : User
        The prior and the loss.

    Returns
    -------
    list
        ``c`` in the variable order of :func:`user_lp`, exact (:class:`Rad` for radical losses).

    Examples
    --------
    >>> from exactdp.optimality.users import User
    >>> user_cost(User(["1/4", "3/4"], "binary"))
    [0, 1/4, 3/4, 0]
    """
    N = user.n + 1
    return [user.prior[i] * user.loss[i][r] if user.prior[i] != 0 else fmpq(0) for i in range(N) for r in range(N)]


def privacy_lp(metric: FiniteMetric, alpha: fmpq, cost: Callable[[int, int], Any],
               outputs: Sequence[str] | None = None) -> LinearProgram:
    """The exact LP of ``alpha^(-d)``-privacy over any finite metric with integer distances.

    Variables ``x[x][z]`` (index ``i * m + j``) for the metric's points ``x`` and outputs ``z`` (default: the
    points); constraints ``alpha^d x[x][z] <= x[x'][z]`` in both directions on every generating pair
    (sufficient by the chain argument of :mod:`exactdp.metrics`), rows summing to 1, ``x >= 0``; objective
    ``sum cost(i, j) x[i][j]``.  With ``metric = path(n + 1)`` and ``cost = p_i l(i, r)`` it is :func:`user_lp`.

    Parameters
    ----------
    metric : FiniteMetric
        The inputs, with integer distances.
    alpha : fmpq
        The privacy level ``alpha = e^-eps``, rational.
    cost : callable
        ``cost(i, j)``, the objective's coefficient of row ``i`` and output ``j``.
    outputs : sequence of str, optional
        The output labels (default: the metric's points).

    Returns
    -------
    LinearProgram
        The LP; solve it with :func:`~exactdp.exact.lp.solve_lp`.

    Raises
    ------
    InvalidInput
        If a distance is not an integer.

    Examples
    --------
    Two points at distance 1, cost 1 off the diagonal: ``x_00 = x_11 = p`` with ``p/2 <= 1 - p`` is
    best at ``p = 2/3``, total cost ``2 (1 - p) = 2/3``.

    >>> from flint import fmpq
    >>> from exactdp.exact.lp import solve_lp
    >>> from exactdp.metrics import path
    >>> solve_lp(privacy_lp(path(2), fmpq(1, 2), lambda i, j: int(i != j))).value
    2/3
    """
    outs = list(metric.points) if outputs is None else [str(o) for o in outputs]
    n, m = len(metric), len(outs)
    v = lambda i, j: i * m + j  # noqa: E731
    c = [cost(i, j) for i in range(n) for j in range(m)]
    A_eq = [{v(i, j): 1 for j in range(m)} for i in range(n)]
    A_ub = []
    for i, k, d in metric.generating_pairs():
        if not isinstance(d, fmpq) or d.q != 1:
            raise InvalidInput(f"privacy LP: distance {d} is not an integer; alpha^d must be rational")
        f = alpha ** int(d.p)
        for j in range(m):
            A_ub.append({v(i, j): f, v(k, j): -1})
            A_ub.append({v(k, j): f, v(i, j): -1})
    return LinearProgram(c=c, A_eq=A_eq, b_eq=[1] * n, A_ub=A_ub, b_ub=[0] * len(A_ub))


def _start_point(n: int, alpha: fmpq, user: User, remapped: Mechanism | None) -> list | None:
    """The Bayes-remapped geometric mechanism as a point of the user LP (GRS12 Thm 3.1 says it is optimal).

    Only a guide for the exact solver's start basis (:func:`~exactdp.exact.lp.solve_lp`'s ``start``); None
    when its entries are not rationals over the outputs ``0..n``.
    """
    if remapped is None:
        from ..mechanisms import geometric

        remapped = bayes_remap(geometric(n, str(alpha)), user)[1]
    N = n + 1
    if list(remapped.outputs) != [str(r) for r in range(N)]:
        return None
    rows = remapped.rows()
    x = []
    for i in range(N):
        row = rows[remapped.row_index[str(i)]]
        for r in range(N):
            if not isinstance(row[r], fmpq):
                return None
            x.append(row[r])
    return x


def optimal_mechanism(n: int, alpha: Any, user: User, *,
                      remapped: Mechanism | None = None) -> tuple[LPSolution | IrrationalLPSolution, Mechanism]:
    """Return the exact optimum of the user-specific LP, :func:`user_lp`, and its mechanism.

    The exact solver starts from the basis of the Bayes-remapped geometric mechanism (``remapped``, computed
    when not given), which GRS12 Thm 3.1 proves optimal for a monotone loss: at n = 200 HiGHS's basis was
    hundreds of exact pivots away (its tolerances cannot see entries near ``alpha^n``), while this basis is
    optimal as it is.  The start only guides: the optimum is verified exactly by its dual certificate, and
    a start that is not optimal is repaired by exact pivots.

    For a loss with irrational (radical) values, such as GRS12's ``|i - j|^(3/2)``, the solution is an
    :class:`~exactdp.exact.lp_irrational.IrrationalLPSolution`: the vertex is rational and the dual certificate is
    exact linear forms in the radicals.

    Parameters
    ----------
    n : int
        The data take values ``0..n``.
    alpha : str or exact number
        The privacy level ``alpha = e^-eps``, rational.
    user : User
        The prior and the (monotone) loss.
    remapped : Mechanism, optional
        The Bayes-remapped geometric mechanism, when the caller has it already.

    Returns
    -------
    solution : LPSolution or IrrationalLPSolution
        The verified optimum (value, vertex, dual certificate, uniqueness).
    mechanism : Mechanism
        The optimal vertex as a mechanism on ``0..n``.

    Raises
    ------
    InputTooLarge
        Beyond the exact LP solver's limits.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.optimality.users import User, power_loss
    >>> sol, opt = optimal_mechanism(2, "1/2", User(["1/2", 0, "1/2"], power_loss(2, fmpq(3, 2))))
    >>> sol.value, sol.unique
    (Rad('1/6 + 2^(1/2)/3'), True)
    >>> opt.rows()[0]
    [2/3, 1/6, 1/6]
    """
    alpha = fmpq(alpha) if not isinstance(alpha, fmpq) else alpha
    lp = user_lp(n, alpha, user)
    sol: Any
    if user.rational:
        sol = solve_lp(lp, start=_start_point(n, alpha, user, remapped),
                       start_name="the Bayes-remapped geometric mechanism (GRS12 Thm 3.1)")
    else:  # radical costs: HiGHS guides, with its own (smaller, measured) limit
        if user_lp_size(n) > MAX_LP_SIZE:
            raise InputTooLarge(f"n = {n}: with an irrational loss the exact GRS12 LP is solved from HiGHS's basis, "
                                f"whose limit is {MAX_LP_SIZE:,} variables plus nonzeros (this LP has "
                                f"{user_lp_size(n):,})")
        sol = solve_lp_irrational(lp, user_cost(user))
    N = n + 1
    rows = [[sol.x[i * N + r] for r in range(N)] for i in range(N)]
    mech = mechanism_from_values(range(N), range(N), rows, name=f"LP optimum (n={n}, alpha={alpha})")
    return sol, mech


def certify_universal_optimality(n: int, user: User, *, alpha: Any = None,
                                 eps: Any = None) -> Certificate[OptimalityEvidence]:
    """GRS12 Thm 3.1 for one user: the Bayes-remapped geometric mechanism attains the LP optimum.

    Parameters
    ----------
    n : int
        Results ``{0..n}``.
    user : User
        Prior and monotone loss.
    alpha, eps :
        Exactly one; alpha must be rational (the LP regime).

    Returns
    -------
    Certificate
        Kind ``optimality``: holds when the remapped geometric mechanism's loss equals the LP optimum;
        ``evidence.lp`` carries the exact primal and dual.

    Raises
    ------
    Undecided
        When alpha is not rational.

    Examples
    --------
    >>> from exactdp.optimality.users import User
    >>> c = certify_universal_optimality(4, User.uniform(4, "squared"), alpha="1/3")
    >>> c.holds, c.evidence.lp.value == c.evidence.geometric_loss
    (True, True)
    """
    from ..mechanisms import geometric

    a = rational_alpha(alpha, eps)
    G = geometric(n, str(a))
    mapping, GR = bayes_remap(G, user)
    sol, opt = optimal_mechanism(n, a, user, remapped=GR)
    g_loss = expected_loss(GR, user)
    holds = g_loss == sol.value
    ev = OptimalityEvidence(n=n, alpha=str(a), user=user.name, prior=[str(v) for v in user.prior],
                            loss=[[str(v) for v in row] for row in user.loss],
                            lp=LPData(value=str(sol.value), x=[str(v) for v in sol.x], y=[str(v) for v in sol.y],
                                      lam=[str(v) for v in sol.lam]),
                            unique=sol.unique, optimum=mechanism_data(opt),
                            remap={str(k): str(v) for k, v in mapping.items()},
                            geometric_loss=exact_str(g_loss), attains=bool(holds))
    claim = f"the Bayes-remapped geometric mechanism (n = {n}, alpha = {a}) is optimal for the user ({user.name})"
    return Certificate("optimality", holds, Method.EXACT_LP, claim, ev, note=sol.method)


# -- the constraint matrix (GRS12 Sec. 5) -----------------------------------------------
def constraint_matrix(mech: Mechanism, alpha: Any) -> list[list[str]]:
    """Return the constraint matrix of GRS12 Section 5 (Fig. 3(b)) of a mechanism on ``0..n``.

    Row ``i`` (0..n-1) relates mechanism rows ``i`` and ``i+1``, column by column: ``Z`` (both 0),
    ``D`` (``x_(i+1)r = alpha x_ir``), ``U`` (``x_ir = alpha x_(i+1)r``) or ``S`` (slack).

    Parameters
    ----------
    mech : Mechanism
        Inputs ``"0".."n"``.
    alpha : str or exact number
        The privacy level.

    Returns
    -------
    list of list of str
        ``n`` rows of ``Z``/``S``/``D``/``U``.

    Examples
    --------
    The geometric mechanism at ``alpha = 1/2`` has rows ``(2/3, 1/6, 1/6)``, ``(1/3, 1/3, 1/3)``,
    ``(1/6, 1/6, 2/3)``: column 0 halves twice, column 2 doubles twice.

    >>> from exactdp.mechanisms import geometric
    >>> constraint_matrix(geometric(2, "1/2"), "1/2")
    [['D', 'U', 'U'], ['D', 'D', 'U']]
    """
    alpha = fmpq(alpha) if isinstance(alpha, (int, str)) else alpha
    n = len(mech.inputs) - 1
    rows = [mech.row_index[str(i)] for i in range(n + 1)]
    cols = range(len(mech.outputs))
    out = []
    for i in range(n):
        row = []
        for j in cols:
            a, b = mech[rows[i], j], mech[rows[i + 1], j]
            if sign(a) == 0 and sign(b) == 0:
                row.append("Z")
            elif sign(b - alpha * a) == 0:
                row.append("D")
            elif sign(a - alpha * b) == 0:
                row.append("U")
            else:
                row.append("S")
        out.append(row)
    return out


def check_lemmas(C: list[list[str]]) -> dict:
    """Which of the GRS12 patterns hold for a constraint matrix ``C`` (lists of Z/S/D/U).

    * Lemma 5.5: each row, ignoring Z columns, is ``D* S? U*``;
    * Lemma 5.6: row ``i+1`` has at least one more D than row ``i``, or at least as many if row ``i+1`` has
      an S (the lemma's glyphs were lost; this reading is the one the proof of Lemma 5.9 uses -- "each row
      either contains an additional D or expends one of the S's" -- and it holds on every LP vertex we
      computed, while the reading with the S in row ``i`` fails on the paper's own Figure 2);
    * Lemma 5.9: the k-th non-Z column is ``U^a S^s D^rest`` with ``a`` = the number of results mapped
      to earlier non-Z columns (``sum over earlier columns of (s + 1)``).

    Parameters
    ----------
    C : list of list of str
        A constraint matrix (:func:`constraint_matrix`).

    Returns
    -------
    dict
        ``{"lemma 5.5": bool, "lemma 5.6": bool, "lemma 5.9": bool}``.

    Examples
    --------
    >>> check_lemmas([["D", "U", "U"], ["D", "D", "U"]])
    {'lemma 5.5': True, 'lemma 5.6': True, 'lemma 5.9': True}
    >>> check_lemmas([["U", "D"]])      # a row reads D* S? U*; the first column starts with no U
    {'lemma 5.5': False, 'lemma 5.6': True, 'lemma 5.9': False}
    """
    import re

    nz = [j for j in range(len(C[0])) if any(C[i][j] != "Z" for i in range(len(C)))] if C else []
    rows = ["".join(C[i][j] for j in nz) for i in range(len(C))]
    l55 = all(re.fullmatch(r"D*S?U*", r) for r in rows)
    l56 = True
    for i in range(len(rows) - 1):
        d0, d1 = rows[i].count("D"), rows[i + 1].count("D")
        need = d0 if "S" in rows[i + 1] else d0 + 1
        l56 &= d1 >= need
    l59, start = True, 0
    for j in nz:
        col = "".join(C[i][j] for i in range(len(C)))
        m = re.fullmatch(r"(U*)(S*)(D*)", col)
        if not m or len(m.group(1)) != start:
            l59 = False
            break
        start += len(m.group(2)) + 1
    return {"lemma 5.5": bool(l55), "lemma 5.6": bool(l56), "lemma 5.9": bool(l59)}


def lemma_5_11_remap(C: list[list[str]], n: int) -> dict:
    """Return the remap of GRS12 Lemma 5.11 read off a constraint matrix.

    The k-th non-Z column with pattern ``U^a S^s D^rest`` receives the geometric outputs ``a .. a + s``.

    Parameters
    ----------
    C : list of list of str
        The constraint matrix of an optimal vertex (:func:`constraint_matrix`).
    n : int
        The geometric mechanism's outputs are ``0..n``.

    Returns
    -------
    dict
        Each geometric output label -> a column label.

    Raises
    ------
    InvalidInput
        If the column patterns do not partition ``0..n``.

    Examples
    --------
    Column 0 ``S S`` takes outputs 0, 1, 2; column 1 is all ``Z`` and receives none:

    >>> lemma_5_11_remap([["S", "Z"], ["S", "Z"]], 2)
    {'0': '0', '1': '0', '2': '0'}
    >>> lemma_5_11_remap([["D", "U", "U"], ["D", "D", "U"]], 2)
    {'0': '0', '1': '1', '2': '2'}
    """
    mapping = {}
    for j in range(len(C[0])):
        col = [C[i][j] for i in range(len(C))]
        if all(c == "Z" for c in col):
            continue
        a, s = col.count("U"), col.count("S")
        for z in range(a, a + s + 1):
            mapping[str(z)] = str(j)
    if sorted(mapping, key=int) != [str(z) for z in range(n + 1)]:
        raise InvalidInput("lemma 5.11: the column patterns do not partition the outputs 0..n "
                           "(the matrix is not the constraint matrix of an optimal vertex)")
    return mapping

