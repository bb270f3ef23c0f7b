"""Brute force over all output sets, shared by the (eps, delta) tests."""

from fractions import Fraction
from itertools import combinations

from hypothesis import strategies as st

from exactdp.mechanism import Mechanism


def _subsets(m):
    for k in range(m + 1):
        yield from combinations(range(m), k)


def brute_excess(rows, pairs, t):
    """max over ordered neighbouring pairs and ALL output subsets of P_x(S) - t P_x'(S) (Fractions)."""
    best = None
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            for S in _subsets(len(rows[0])):
                v = sum((rows[a][y] for y in S), Fraction(0)) - t * sum((rows[b][y] for y in S), Fraction(0))
                best = v if best is None else max(best, v)
    return best


@st.composite
def mechanisms(draw):
    n = draw(st.integers(2, 3))
    m = draw(st.integers(1, 5))
    rows = []
    for _ in range(n):
        w = draw(st.lists(st.integers(0, 5), min_size=m, max_size=m).filter(lambda r: sum(r) > 0))
        rows.append([Fraction(x, sum(w)) for x in w])
    return rows


def _mech(rows):
    n, m = len(rows), len(rows[0])
    return Mechanism.from_rows([f"x{i}" for i in range(n)], [f"y{k}" for k in range(m)],
                               [[str(v) for v in r] for r in rows])
