"""The LP optimality check written once (exactdp/exact/lp_check.py), over both number types of a cost."""

from fractions import Fraction
from itertools import product

import pytest
from flint import fmpq

from exactdp.exact.lp import LinearProgram, LPInfeasible, solve_lp
from exactdp.exact.lp_check import RADICALS, RATIONALS, dot, face_is_point, optimal, reduced_costs
from exactdp.exact.lp_irrational import solve_lp_irrational
from exactdp.exact.radical import Rad

# min c.x over the simplex x0 + x1 + x2 = 1, x0 <= 1/2
LP = LinearProgram(c=[3, 1, 2], A_eq=[{0: 1, 1: 1, 2: 1}], b_eq=[1], A_ub=[{0: 1}], b_ub=[fmpq(1, 2)])
SQRT2 = Rad.power(2, fmpq(1, 2))


def _brute(cost_float_free):
    """The optimum over the vertices of the simplex slice, in fractions (the LP is small)."""
    verts = [(Fraction(1, 2), Fraction(1, 2), 0), (Fraction(1, 2), 0, Fraction(1, 2)), (0, 1, 0), (0, 0, 1)]
    return min(cost_float_free(v) for v in verts)


def test_rational_optimum_through_the_single_check():
    sol = solve_lp(LP)
    assert sol.x == [0, 1, 0] and sol.value == 1
    assert Fraction(str(sol.value)) == _brute(lambda v: 3 * v[0] + v[1] + 2 * v[2])
    assert optimal(LP, LP.c, sol.x, sol.y, sol.lam, sol.reduced, sol.value, RATIONALS)
    assert reduced_costs(LP, LP.c, sol.y, sol.lam) == sol.reduced
    assert all(r >= 0 for r in sol.reduced) and sol.reduced[1] == 0


def test_radical_optimum_through_the_single_check():
    cost = [SQRT2, fmpq(3, 2), fmpq(2)]          # sqrt(2) = 1.414 < 3/2 < 2, but x0 <= 1/2
    sol = solve_lp_irrational(LP, cost)
    assert sol.x == [fmpq(1, 2), fmpq(1, 2), 0]
    assert sol.value == SQRT2 * fmpq(1, 2) + fmpq(3, 4)
    assert optimal(LP, cost, sol.x, sol.y, sol.lam, sol.reduced, sol.value, RADICALS)
    assert sol.verify() and sol.unique is True


@pytest.mark.parametrize("arith", ["rational", "radical"])
def test_non_optimal_point_is_rejected(arith):
    if arith == "rational":
        cost, sol = LP.c, solve_lp(LP)
        A = RATIONALS
    else:
        cost, sol = [SQRT2, fmpq(3, 2), fmpq(2)], solve_lp_irrational(LP, [SQRT2, fmpq(3, 2), fmpq(2)])
        A = RADICALS
    # a feasible vertex that is not optimal, with the stated value moved to match it: the gap is not zero
    worse = [0, 0, fmpq(1)]
    worse_value = sum((c * v for c, v in zip(cost, worse, strict=True)), A.zero)
    assert not optimal(LP, cost, worse, sol.y, sol.lam, sol.reduced, worse_value, A)
    # the true optimum with a wrong value, a wrong reduced cost, a negative multiplier, an infeasible point
    assert not optimal(LP, cost, sol.x, sol.y, sol.lam, sol.reduced, sol.value + 1, A)
    assert not optimal(LP, cost, sol.x, sol.y, sol.lam, [r + 1 for r in sol.reduced], sol.value, A)
    assert not optimal(LP, cost, sol.x, sol.y, [-v - 1 for v in sol.lam], sol.reduced, sol.value, A)
    assert not optimal(LP, cost, [fmpq(1), 0, 0], sol.y, sol.lam, sol.reduced, sol.value, A)
    assert not optimal(LP, cost, sol.x[:2], sol.y, sol.lam, sol.reduced, sol.value, A)


def test_infeasible_farkas_uses_the_same_reduced_costs():
    lp = LinearProgram(c=[1, 1], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}], b_ub=[fmpq(1, 2)])
    with pytest.raises(LPInfeasible, match="infeasible") as e:
        solve_lp(lp)
    assert e.value.verify()
    # A_ub^T lam - A_eq^T y >= 0 and b_ub.lam - b_eq.y < 0, re-derived by hand
    comb = reduced_costs(lp, [fmpq(0)] * 2, e.value.y, e.value.lam)
    assert all(v >= 0 for v in comb)
    assert dot({0: fmpq(1, 2)}, e.value.lam) - dot({0: fmpq(1)}, e.value.y) < 0
    assert not LPInfeasible(lp, [fmpq(0)], [fmpq(0)]).verify()


def test_face_rank_test_both_ways():
    lp = LinearProgram(c=[0, 0, 0], A_eq=[{0: 1, 1: 1, 2: 1}], b_eq=[1])
    assert face_is_point(lp, [], []) is True
    assert face_is_point(lp, [2], []) is True
    assert face_is_point(lp, [0, 1], []) is None
    # a tight inequality completes the rank
    lp2 = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: -1}], b_ub=[0])
    assert face_is_point(lp2, [0, 1], [0]) is True and face_is_point(lp2, [0, 1], []) is None
    # both number types agree on uniqueness for the same optimal face
    r = Rad.power(2, fmpq(1, 2))
    assert solve_lp_irrational(lp, [r, r, fmpq(2)]).unique is None
    assert solve_lp(LinearProgram(c=[1, 1, 2], A_eq=[{0: 1, 1: 1, 2: 1}], b_eq=[1])).unique is None


def test_rational_check_against_brute_force_on_small_costs():
    for c in product([0, 1, 2], repeat=3):
        lp = LinearProgram(c=list(c), A_eq=LP.A_eq, b_eq=LP.b_eq, A_ub=LP.A_ub, b_ub=LP.b_ub)
        sol = solve_lp(lp)
        assert Fraction(str(sol.value)) == _brute(lambda v, c=c: sum(ci * vi for ci, vi in zip(c, v, strict=True)))
        assert optimal(lp, lp.c, sol.x, sol.y, sol.lam, sol.reduced, sol.value)
