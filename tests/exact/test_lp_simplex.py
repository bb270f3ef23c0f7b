"""The exact simplex (exactdp.exact.lp_simplex) started from a random basis -- often singular, infeasible or of
the wrong size -- repairs it by exact pivots and reaches the outcome of an independent vertex enumeration
(tests/exact/test_lp.py's brute force)."""

from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from .test_lp import brute_force, small_lps
from exactdp.exact.lp import LPInfeasible, LPUnbounded
from exactdp.exact.lp_simplex import ExactSimplex, Infeasible, Optimal, StandardForm, Unbounded


@settings(max_examples=100, deadline=None)
@given(small_lps(), st.randoms(use_true_random=False))
def test_any_start_basis_is_repaired_by_exact_pivots(lp, rnd):
    # start the exact simplex from a random (often singular, infeasible or wrong-sized) basis
    sf = StandardForm(lp)
    C = {j for j in range(lp.n) if rnd.random() < 0.5}
    rows = {k for k in range(sf.m) if rnd.random() < 0.5}
    res = ExactSimplex(sf, C, rows).run(lp.c)
    want = brute_force(lp)
    if isinstance(res, Infeasible):
        assert want == "infeasible" and LPInfeasible(lp, res.y, res.lam).verify()
    elif isinstance(res, Unbounded):
        assert want == "unbounded" and LPUnbounded(lp, res.x, res.ray).verify()
    else:
        assert isinstance(res, Optimal)
        assert sum((c * x for c, x in zip(lp.c, res.x, strict=True)), fmpq(0)) == want
