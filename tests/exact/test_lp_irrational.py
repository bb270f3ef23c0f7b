"""The radical kernel (exact/radical.py) and the LP with a radical cost (exact/lp_irrational.py)."""

import itertools
import math

import pytest
from flint import fmpq, fmpq_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.errors import InvalidInput, InvalidType, Undecided
from exactdp.exact.lin import Lin
from exactdp.exact.lp import LinearProgram
from exactdp.exact.lp_irrational import optimal_face_constraints, solve_lp_irrational
from exactdp.exact.radical import Rad, to_rad

R2, R3 = Rad.power(2, fmpq(1, 2)), Rad.power(3, fmpq(1, 2))


def test_canonical_forms():
    assert Rad.power(8, fmpq(3, 2)) == R2 * 16          # 8^(3/2) = 16 sqrt 2
    assert Rad.power(4, fmpq(3, 2)) == 8
    assert Rad.power(fmpq(1, 2), fmpq(1, 2)) == R2 / 2   # sqrt(1/2) = sqrt(2)/2
    assert Rad.power(6, fmpq(1, 2)) == R2 * R3
    assert R2 * R2 == 2 and (R2 * R2).is_rational()
    c = Rad.power(2, fmpq(1, 3))
    assert c * c * c == 2
    assert Rad.power(12, fmpq(2, 3)) == Rad.power(2, fmpq(1, 3)) * Rad.power(72, fmpq(1, 3))  # 144^(1/3)
    assert str(Rad.power(2, fmpq(9, 10))) == "2^(9/10)"
    assert str(R2 / 3 + fmpq(1, 6)) == "1/6 + 2^(1/2)/3"
    assert to_rad(Lin.sqrt(8) + 1) == 1 + 2 * R2
    assert Rad.power(0, fmpq(1, 2)).is_zero()


def test_zero_test_and_signs():
    assert (R2 * R2 - 2).is_zero() and (R2 - R3).sign() == -1
    # 2^(9/10) = 1.866066...: separated exactly from nearby rationals
    t = Rad.power(2, fmpq(9, 10))
    assert (t - fmpq(1866, 1000)).sign() == 1 and (t - fmpq(1867, 1000)).sign() == -1
    # a near-cancellation: sqrt(2) + sqrt(3) against sqrt(10) (= 3.1462... vs 3.1623...)
    assert (R2 + R3 - Rad.power(10, fmpq(1, 2))).sign() == -1
    # 3^(2/3) versus 2^(4/3) (2.0801 vs 2.5198)
    assert Rad.power(3, fmpq(2, 3)) < Rad.power(2, fmpq(4, 3))
    assert Rad.rat(fmpq(-2, 3)).sign() == -1 and Rad().sign() == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-9, 9), st.integers(1, 30), st.sampled_from([2, 3, 5])), min_size=1,
                max_size=4))
def test_sign_agrees_with_floats_away_from_zero(terms):
    v = sum((Rad.power(m, fmpq(1, k)) * c for c, m, k in terms), Rad())
    f = sum(c * m ** (1 / k) for c, m, k in terms)
    if abs(f) > 1e-6:
        assert v.sign() == (1 if f > 0 else -1)
    if v.is_zero():
        assert abs(f) < 1e-9


@pytest.mark.parametrize("args, err, msg", [
    ((-2, fmpq(1, 2)), InvalidInput, "base m >= 0"),
    ((0, fmpq(-1, 2)), InvalidInput, "exponent > 0"),
])
def test_bad_powers(args, err, msg):
    with pytest.raises(err, match=msg):
        Rad.power(*args)


def test_bad_coercions():
    with pytest.raises(InvalidType, match="binary floats are not exact"):
        to_rad(0.5)
    with pytest.raises(InvalidInput, match="symbolic eps"):
        to_rad(Lin.eps())
    with pytest.raises(InvalidInput, match="not rational"):
        R2.rational()
    with pytest.raises(InvalidInput, match="division by zero"):
        R2 / 0


def _vertices(lp):
    """Brute force: every basic feasible solution of a tiny LP in equality form (no inequality rows)."""
    m, n = len(lp.A_eq), lp.n
    for B in itertools.combinations(range(n), m):
        M = fmpq_mat(m, m, [lp.A_eq[i].get(j, 0) for i in range(m) for j in B])
        if M.rank() < m:
            continue
        xb = M.solve(fmpq_mat(m, 1, lp.b_eq))
        x = [fmpq(0)] * n
        for k, j in enumerate(B):
            x[j] = xb[k, 0]
        if all(v >= 0 for v in x):
            yield x


@pytest.mark.parametrize("cost", [
    [R2, fmpq(7, 5), R3 - 1, Rad.power(2, fmpq(9, 10)) - fmpq(1, 2)],
    [R2 + R3, Rad.power(10, fmpq(1, 2)), 3, R3 * 2 - 1],
    [Rad.power(5, fmpq(3, 2)) / 8, Rad.power(3, fmpq(3, 2)) / 4, R2 * 2 / 3, fmpq(14, 10)],
])
def test_optimum_matches_brute_force(cost):
    lp = LinearProgram(c=[0] * 4, A_eq=[{0: 1, 1: 1, 2: 1, 3: 1}, {0: 1, 1: 2, 2: -1}], b_eq=[1, fmpq(1, 2)])
    sol = solve_lp_irrational(lp, cost)
    best = min((sum((c * v for c, v in zip(sol.cost, x, strict=True)), Rad()) for x in _vertices(lp)), key=float)
    assert all((sum((c * v for c, v in zip(sol.cost, x, strict=True)), Rad()) - best).sign() >= 0
               for x in _vertices(lp))
    assert sol.value == best and sol.verify()


def _assert_optimal_dual(sol):
    """What defines an optimal dual, whichever one the float guide's basis gave (it is not unique here)."""
    lp = sol.lp
    assert sol.verify()
    assert all(v.sign() >= 0 for v in sol.lam) and all(v.sign() >= 0 for v in sol.reduced)
    # complementary slackness, exactly: a positive reduced cost only on a zero variable, a positive
    # multiplier only on a tight row
    assert all(sol.x[j] == 0 for j in range(lp.n) if sol.reduced[j].sign() > 0)
    for k, (row, b) in enumerate(zip(lp.A_ub, lp.b_ub, strict=True)):
        if sol.lam[k].sign() > 0:
            assert sum((a * sol.x[j] for j, a in row.items()), fmpq(0)) == b


def test_inequalities_duals_and_face():
    # min sqrt2 x0 + sqrt3 x1 s.t. x0 + x1 = 1, x1 <= 1/4, x0 <= 1: x = (1, 0), value sqrt 2.  The vertex is
    # degenerate (x1 = 0 and x0 <= 1 are both tight), so the optimal dual is a segment: reduced costs
    # (0, sqrt3 - sqrt2) with lam = 0, or reduced costs (0, 0) with lam = (0, sqrt3 - sqrt2), or between.
    # HiGHS 1.15 and 1.16 pick different ends; the test asserts what defines an optimal dual.
    lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{1: 1}, {0: 1}], b_ub=[fmpq(1, 4), 1])
    sol = solve_lp_irrational(lp, [R2, R3])
    assert sol.x == [1, 0] and sol.value == R2 and sol.unique is True
    _assert_optimal_dual(sol)
    # whichever dual: x1 = 0 is forced, by a positive reduced cost or through the tight row x0 <= 1
    assert sol.reduced[1] + sol.lam[1] == R3 - R2 and sol.lam[0].is_zero()
    zero, tight = optimal_face_constraints(sol)
    assert zero == [1] or tight == [1]
    # the face the constraints describe is the single optimum (x0 + x1 = 1 with x1 = 0 or x0 = 1)
    # the reverse costs: x = (3/4, 1/4), nondegenerate, so the dual is unique: the bound x1 <= 1/4 is tight
    # with multiplier sqrt3 - sqrt2
    sol2 = solve_lp_irrational(lp, [R3, R2])
    assert sol2.x == [fmpq(3, 4), fmpq(1, 4)] and sol2.value == R3 * fmpq(3, 4) + R2 / 4
    _assert_optimal_dual(sol2)
    assert sol2.lam[0] == R3 - R2 and sol2.lam[1].is_zero() and sol2.y == [R3]
    assert optimal_face_constraints(sol2) == ([], [0]) and sol2.unique is True


def test_tampered_certificate_fails_verification():
    lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    sol = solve_lp_irrational(lp, [R2, R3])
    sol.y = [R3]
    assert sol.verify() is False


def test_errors():
    lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    with pytest.raises(InvalidInput, match="expected 2 entries"):
        solve_lp_irrational(lp, [R2])
    with pytest.raises(Undecided, match="infeasib"):
        solve_lp_irrational(LinearProgram(c=[0], A_eq=[{0: 1}], b_eq=[-1]), [R2])
    with pytest.raises(Undecided, match=r"unbounded|infeasib|Unbounded"):
        solve_lp_irrational(LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: -1}], b_eq=[0]), [-R2, 1])
    assert math.isclose(float(R2), 2 ** 0.5)
