"""Brute-force helpers shared by the central builders' tests (tests/mechanisms/test_discrete_gaussian.py,
test_selection.py): rows as Fractions, a ratio as the certificate writes its log, the largest ratio over pairs."""

from fractions import Fraction as Fr


def fr_rows(M):
    return [[Fr(str(v)) for v in row] for row in M.rows()]


def log_text(R: Fr) -> str:
    return f"log({R.numerator})" if R.denominator == 1 else f"log({R.numerator}/{R.denominator})"


def brute_max_ratio(rows, pairs):
    return max(max(rows[a][z] / rows[b][z], rows[b][z] / rows[a][z]) for a, b in pairs for z in range(len(rows[0])))
