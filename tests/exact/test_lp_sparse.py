"""The sparse exact LU (exactdp.exact.lp_sparse): rank and both solves against flint's dense fmpq_mat."""

from flint import fmpq, fmpq_mat
from hypothesis import given, settings
from hypothesis import strategies as st

from .test_lp import small
from exactdp.exact.lp_sparse import SparseLU


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.lists(st.sampled_from([0, 0, 0, 1, -1, 2, fmpq(1, 3)]), min_size=n, max_size=n),
                         min_size=n, max_size=n), st.lists(small, min_size=n, max_size=n))))
def test_sparse_lu_against_dense_flint(data):
    n, rows, b = data
    M = fmpq_mat(n, n, [v for r in rows for v in r])
    lu = SparseLU([dict(enumerate(r)) for r in rows], n)
    assert lu.rank == M.rank()
    if lu.rank == n:
        rhs = fmpq_mat(n, 1, b)
        x, u = lu.solve(dict(enumerate(b))), lu.solve_transpose(dict(enumerate(b)))
        assert [x.get(j, 0) for j in range(n)] == [M.solve(rhs)[j, 0] for j in range(n)]
        assert [u.get(j, 0) for j in range(n)] == [M.transpose().solve(rhs)[j, 0] for j in range(n)]
