import itertools
import random

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput, Undecided
from exactdp.exact import lp as lpmod
from exactdp.exact.lp import LinearProgram, solve_lp


def brute_force_vertices(lp):
    """Optimum over all vertices (tiny problems): every basis of the standard form."""
    from exactdp.exact.lp import _solve_exact_system
    n = lp.n
    rows = [(r, b, "eq") for r, b in zip(lp.A_eq, lp.b_eq)] + [(r, b, "ub") for r, b in zip(lp.A_ub, lp.b_ub)]
    best = None
    # a vertex: n linearly independent tight constraints among rows and x_j = 0
    cands = [("row", k) for k in range(len(rows))] + [("var", j) for j in range(n)]
    for choice in itertools.combinations(cands, n):
        eqs, rhs = [], []
        for kind, k in choice:
            if kind == "row":
                eqs.append(dict(rows[k][0]))
                rhs.append(rows[k][1])
            else:
                eqs.append({k: fmpq(1)})
                rhs.append(fmpq(0))
        sol = _solve_exact_system(eqs, rhs, n)
        if sol is None or not sol[1]:
            continue
        x = sol[0]
        if any(v < 0 for v in x):
            continue
        if any(sum((a * x[j] for j, a in r.items()), fmpq(0)) != b for r, b in zip(lp.A_eq, lp.b_eq)):
            continue
        if any(sum((a * x[j] for j, a in r.items()), fmpq(0)) > b for r, b in zip(lp.A_ub, lp.b_ub)):
            continue
        v = sum((c * xi for c, xi in zip(lp.c, x)), fmpq(0))
        best = v if best is None or v < best else best
    return best


def test_simple_lp_and_certificate():
    lp = LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2])
    sol = solve_lp(lp)
    assert sol.value == 8 and sol.x == [4, 0] and sol.verify()
    assert all(v >= 0 for v in sol.lam) and all(v >= 0 for v in sol.reduced)


@pytest.mark.parametrize("seed", range(12))
def test_random_small_lps_against_vertex_enumeration(seed):
    rng = random.Random(seed)
    n = rng.randint(2, 3)
    c = [rng.randint(0, 5) for _ in range(n)]
    A_eq = [{j: 1 for j in range(n)}]
    A_ub = [{j: rng.randint(-3, 3) for j in range(n)} for _ in range(rng.randint(1, 3))]
    b_ub = [rng.randint(0, 4) for _ in A_ub]
    lp = LinearProgram(c=c, A_eq=A_eq, b_eq=[1], A_ub=A_ub, b_ub=b_ub)
    try:
        sol = solve_lp(lp)
    except Undecided:
        assert brute_force_vertices(lp) is None  # infeasible
        return
    assert sol.verify()
    assert sol.value == brute_force_vertices(lp)


def test_degenerate_lp_falls_back_or_verifies(monkeypatch):
    # force the float basis to be useless: the exact simplex must still give a verified optimum
    lp = LinearProgram(c=[1, 1, 0], A_eq=[{0: 1, 1: 1, 2: 1}], b_eq=[1], A_ub=[{0: -1, 2: 1}, {1: -1, 2: 1}],
                       b_ub=[0, 0])
    monkeypatch.setattr(lpmod, "_from_active", lambda *a, **k: None)
    sol = solve_lp(lp)
    assert sol.verify() and sol.value == fmpq(2, 3) and "simplex" in sol.method


def test_infeasible_and_unbounded_are_not_answered():
    with pytest.raises(Undecided):
        solve_lp(LinearProgram(c=[1], A_eq=[{0: 1}], b_eq=[-1]))
    with pytest.raises(Undecided):
        solve_lp(LinearProgram(c=[-1], A_ub=[{0: -1}], b_ub=[0]))


def test_tampered_certificate_fails_verification():
    lp = LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])
    sol = solve_lp(lp)
    assert sol.verify()
    sol.value = sol.value + fmpq(1, 10**9)
    assert not sol.verify()


def test_bad_lp():
    with pytest.raises(InvalidInput, match="out of range"):
        LinearProgram(c=[1], A_eq=[{3: 1}], b_eq=[1])
    with pytest.raises(InvalidInput, match="differ in number"):
        LinearProgram(c=[1], A_eq=[{0: 1}], b_eq=[])
