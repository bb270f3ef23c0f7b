import itertools
import random

import pytest
from flint import fmpq, fmpq_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.errors import InvalidInput
from exactdp.exact import lp_float
from exactdp.exact.lp import LinearProgram, LPInfeasible, LPUnbounded, solve_lp
from exactdp.exact.lp_simplex import ExactSimplex

# ---------------------------------------------------------------------------------------------------------------
# an independent brute force: vertices of {x >= 0, A_eq x = b_eq, A_ub x <= b_ub} and of the normalised recession
# cone, each found by solving every choice of n tight constraints with a dense fmpq_mat


def _dense_unique_solution(eqs, rhs, n):
    M = fmpq_mat(len(eqs), n)
    for i, r in enumerate(eqs):
        for j, v in r.items():
            M[i, j] = v
    if M.rank() < n:
        return None
    # n independent rows among eqs: pick them greedily, solve, and check the rest
    rows = []
    for i in range(len(eqs)):
        if fmpq_mat(len(rows) + 1, n, [M[k, j] for k in [*rows, i] for j in range(n)]).rank() == len(rows) + 1:
            rows.append(i)
        if len(rows) == n:
            break
    A = fmpq_mat(n, n, [M[k, j] for k in rows for j in range(n)])
    x = A.solve(fmpq_mat(n, 1, [rhs[k] for k in rows]))
    x = [x[j, 0] for j in range(n)]
    if any(sum((v * x[j] for j, v in r.items()), fmpq(0)) != b for r, b in zip(eqs, rhs, strict=True)):
        return None
    return x


def _vertices(c, A_eq, b_eq, A_ub, b_ub, n):
    rows = [(r, b) for r, b in zip(A_eq, b_eq, strict=True)]
    ub = [(r, b) for r, b in zip(A_ub, b_ub, strict=True)]
    extra = ub + [({j: fmpq(1)}, fmpq(0)) for j in range(n)]  # x_j >= 0 tight means x_j = 0
    for k in range(0, n + 1):
        for choice in itertools.combinations(range(len(extra)), k):
            eqs = [r for r, _ in rows] + [extra[i][0] for i in choice]
            rhs = [b for _, b in rows] + [extra[i][1] for i in choice]
            x = _dense_unique_solution(eqs, rhs, n) if len(eqs) >= n else None
            if x is None or any(v < 0 for v in x):
                continue
            if all(sum((v * x[j] for j, v in r.items()), fmpq(0)) <= b for r, b in ub):
                yield sum((ci * xi for ci, xi in zip(c, x, strict=True)), fmpq(0))


def brute_force(lp):
    """'infeasible', 'unbounded' or the optimal value, by vertex and extreme-ray enumeration."""
    n = lp.n
    vals = list(_vertices(lp.c, lp.A_eq, lp.b_eq, lp.A_ub, lp.b_ub, n))
    if not vals:
        return "infeasible"  # a non-empty polyhedron inside x >= 0 has a vertex
    rays = list(_vertices(lp.c, [*lp.A_eq, {j: 1 for j in range(n)}], [0] * len(lp.A_eq) + [1],
                          lp.A_ub, [0] * len(lp.A_ub), n))
    if rays and min(rays) < 0:
        return "unbounded"
    return min(vals)


def outcome(lp):
    try:
        sol = solve_lp(lp)
    except LPInfeasible as e:
        assert e.verify()
        return "infeasible"
    except LPUnbounded as e:
        assert e.verify()
        return "unbounded"
    assert sol.verify()
    return sol.value


small = st.integers(-3, 3)


@st.composite
def small_lps(draw):
    n = draw(st.integers(1, 3))
    m_ub = draw(st.integers(0, 3))
    m_eq = draw(st.integers(0, 2))
    row = st.lists(small, min_size=n, max_size=n).map(lambda v: dict(enumerate(v)))
    return LinearProgram(c=draw(st.lists(small, min_size=n, max_size=n)),
                         A_eq=draw(st.lists(row, min_size=m_eq, max_size=m_eq)),
                         b_eq=draw(st.lists(small, min_size=m_eq, max_size=m_eq)),
                         A_ub=draw(st.lists(row, min_size=m_ub, max_size=m_ub)),
                         b_ub=draw(st.lists(small, min_size=m_ub, max_size=m_ub)))


# ---------------------------------------------------------------------------------------------------------------


def test_simple_lp_and_certificate():
    lp = LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2])
    sol = solve_lp(lp)
    assert sol.value == 8 and sol.x == [4, 0] and sol.verify()
    assert sol.lam == [2, 0] and sol.reduced == [0, 1] and sol.unique


@settings(max_examples=150, deadline=None)
@given(small_lps())
def test_random_small_lps_against_vertex_enumeration(lp):
    assert outcome(lp) == brute_force(lp)


def test_degenerate_lp_without_float_basis(monkeypatch):
    # HiGHS gives no basis: the exact simplex starts from the slack basis and still certifies the optimum
    lp = LinearProgram(c=[1, 1, 0], A_eq=[{0: 1, 1: 1, 2: 1}], b_eq=[1], A_ub=[{0: -1, 2: 1}, {1: -1, 2: 1}],
                       b_ub=[0, 0])
    monkeypatch.setattr(lp_float, "float_basis", lambda lp: (None, []))
    sol = solve_lp(lp)
    assert sol.verify() and sol.value == fmpq(2, 3) and sol.x == [fmpq(1, 3)] * 3
    assert "slack basis" in sol.method


def test_highly_degenerate_vertex():
    # the optimum (0, 0) lies on many redundant constraints; a duplicated equality row is redundant
    lp = LinearProgram(c=[1, 1], A_ub=[{0: -k, 1: -1} for k in range(1, 8)] + [{0: 1, 1: 1}],
                       b_ub=[0] * 7 + [5], A_eq=[{0: 1, 1: -1}, {0: 2, 1: -2}], b_eq=[0, 0])
    sol = solve_lp(lp)
    assert sol.value == 0 and sol.x == [0, 0] and sol.verify()


def test_infeasible_lp_has_a_farkas_certificate():
    lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1}, {1: 1}], b_ub=[fmpq(1, 3)] * 2)
    with pytest.raises(LPInfeasible, match="infeasible") as e:
        solve_lp(lp)
    assert e.value.verify()
    e.value.lam = [0, 0]  # a wrong certificate is refused
    assert not e.value.verify()


def test_unbounded_lp_has_a_ray():
    lp = LinearProgram(c=[-1, 1], A_ub=[{0: 1, 1: -2}], b_ub=[3])
    with pytest.raises(LPUnbounded, match="unbounded") as e:
        solve_lp(lp)
    cert = e.value
    assert cert.verify() and cert.ray[0] > 0
    cert.ray = [fmpq(0), fmpq(1)]  # feasible direction, but the objective increases
    assert not cert.verify()


def test_infeasible_or_unbounded_when_highs_is_wrong(monkeypatch):
    # whatever HiGHS reports, the outcome is decided exactly: here it hands over a nonsense basis
    lp = LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    monkeypatch.setattr(lp_float, "float_basis", lambda lp: (({1}, {0, 1}), ["kUnbounded"]))
    sol = solve_lp(lp)
    assert sol.value == 1 and sol.x == [1, 0] and sol.y == [1] and sol.verify()


def test_coefficients_beyond_double_range():
    # 10^400 overflows a double: HiGHS cannot be used, and the exact simplex still decides from the slack basis
    big, tiny = fmpq(10) ** 400, fmpq(1, 10**400)
    lp = LinearProgram(c=[big, 2], A_eq=[{0: 1, 1: tiny}], b_eq=[1])  # x = (1, 0): 10^400; (0, 10^400): 2 10^400
    sol = solve_lp(lp)
    assert sol.verify() and sol.x == [1, 0] and sol.value == big and "slack basis" in sol.method


def test_user_lp_from_slack_basis_matches_highs_start(monkeypatch):
    # GRS12 user LP, n = 8: more pivots than one refactorisation period, same exact optimum
    from exactdp.optimality.universal import user_lp
    from exactdp.optimality.users import User

    lp = user_lp(8, fmpq(1, 3), User.uniform(8, "squared"))
    ref = solve_lp(lp)
    monkeypatch.setattr(lp_float, "float_basis", lambda lp: (None, []))
    sol = solve_lp(lp)
    assert sol.verify() and sol.value == ref.value and sol.x == ref.x
    assert int(sol.method.split(", ")[1].split()[0]) > ExactSimplex._REFACTOR


def test_tampered_certificate_fails_verification():
    lp = LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    sol = solve_lp(lp)
    assert sol.verify()
    sol.value = sol.value + fmpq(1, 10**9)
    assert not sol.verify()


def test_uniqueness_is_reported_only_when_certified():
    assert solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])).unique is True
    tie = solve_lp(LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 1}], b_eq=[1]))
    assert tie.value == 1 and tie.unique is None


def test_random_larger_lps_against_highs_start_and_slack_start(monkeypatch):
    # independent paths: HiGHS's basis vs. the slack basis must give the same exact optimum
    rng = random.Random(7)
    for _ in range(5):
        n = 12
        lp = LinearProgram(c=[rng.randint(0, 9) for _ in range(n)], A_eq=[{j: 1 for j in range(n)}], b_eq=[1],
                           A_ub=[{j: rng.randint(-4, 4) for j in range(n)} for _ in range(8)],
                           b_ub=[rng.randint(0, 3) for _ in range(8)])
        a = outcome(lp)
        with monkeypatch.context() as m:
            m.setattr(lp_float, "float_basis", lambda lp: (None, []))
            assert outcome(lp) == a


def test_too_large_lp_is_refused_up_front(monkeypatch):
    from exactdp.errors import InputTooLarge
    from exactdp.exact import lp as lpmod

    lp = LinearProgram(c=[1] * 5, A_eq=[{j: 1 for j in range(5)}], b_eq=[1])
    monkeypatch.setattr(lpmod, "MAX_LP_SIZE", 9)
    with pytest.raises(InputTooLarge, match=r"at most 9 variables plus constraint nonzeros.*got 10"):
        solve_lp(lp)
    monkeypatch.setattr(lpmod, "MAX_LP_SIZE", 10)
    assert solve_lp(lp).value == 1


def test_bad_lp():
    with pytest.raises(InvalidInput, match="out of range"):
        LinearProgram(c=[1], A_eq=[{3: 1}], b_eq=[1])
    with pytest.raises(InvalidInput, match="differ in number"):
        LinearProgram(c=[1], A_eq=[{0: 1}], b_eq=[])


# -- a start point instead of HiGHS (the GRS12 user LP's route, issue 20) ----------------------------------------
def _outcome_from(lp, start):
    try:
        sol = solve_lp(lp, start=start)
    except LPInfeasible as e:
        assert e.verify()
        return "infeasible"
    except LPUnbounded as e:
        assert e.verify()
        return "unbounded"
    assert sol.verify()
    return sol.value


@settings(max_examples=100, deadline=None)
@given(small_lps(), st.lists(st.sampled_from([0, 0, 1, 2, fmpq(1, 2), 3]), min_size=3, max_size=3))
def test_any_start_point_gives_the_brute_force_outcome(lp, pt):
    # a start point that is feasible or not, a vertex or not: only a guide, the outcome is the exact one
    assert _outcome_from(lp, pt[:lp.n]) == brute_force(lp)


def test_optimal_start_point_needs_no_pivot_whatever_the_sign_of_the_equality_dual():
    # min x0 + 2 x1, x0 + x1 = 1: optimum (1, 0) with y = 1 > 0 (s+ of the equality must be the basic slack)
    sol = solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1]), start=[1, 0], start_name="P")
    assert sol.verify() and sol.x == [1, 0] and sol.y == [1] and sol.method.startswith("the basis of P rebuilt")
    # min -x0 - 2 x1: optimum (0, 1) with y = -2 < 0 (s- basic)
    sol = solve_lp(LinearProgram(c=[-1, -2], A_eq=[{0: 1, 1: 1}], b_eq=[1]), start=[0, 1])
    assert sol.verify() and sol.x == [0, 1] and sol.y == [-2] and "pivot" not in sol.method


def test_non_optimal_start_point_is_repaired_by_pivots():
    lp = LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2])  # optimum 8 at (4, 0)
    sol = solve_lp(lp, start=[1, 3])  # feasible vertex (both rows tight), value 11
    assert sol.verify() and sol.value == 8 and sol.x == [4, 0]
    assert "from the basis of the given start point, 1 exact pivot(s)" in sol.method


def test_start_point_of_the_wrong_length_falls_back_to_highs():
    sol = solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1]), start=[1])
    assert sol.verify() and sol.x == [1, 0] and sol.method.startswith("HiGHS basis")


def test_start_point_has_its_own_measured_size_limit(monkeypatch):
    from exactdp.errors import InputTooLarge
    from exactdp.exact import lp as lpmod

    lp = LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])  # 2 variables + 2 nonzeros = 4
    monkeypatch.setattr(lpmod, "MAX_LP_SIZE", 3)
    monkeypatch.setattr(lpmod, "MAX_LP_SIZE_GUIDED", 4)
    assert solve_lp(lp, start=[1, 0]).value == 1
    with pytest.raises(InputTooLarge, match="at most 3 variables"):
        solve_lp(lp)
    monkeypatch.setattr(lpmod, "MAX_LP_SIZE_GUIDED", 3)
    with pytest.raises(InputTooLarge, match="at most 3 variables"):
        solve_lp(lp, start=[1, 0])
