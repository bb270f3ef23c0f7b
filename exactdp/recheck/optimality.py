"""Re-check ``optimality`` certificates (GRS12 Thm 3.1 for one user).

The user-specific LP GRS12 (2)-(6) is rebuilt here from the user (prior and
loss) and alpha; the optimum is verified from the certificate's primal and
dual (:func:`~exactdp.recheck.ecp14.check_lp`; with a loss of square roots,
such as the journal's ``|i - j|^(3/2)``, the reduced costs are sums of square
roots signed by this kernel).  The truncated geometric
mechanism (GRS12 Sec. 2: ``(1-a)/(1+a) a^|i-j|`` inside, ``a^|i-j|/(1+a)`` at
the ends 0 and n) is rebuilt too, remapped by the stated Bayes remap, and its
expected loss compared with the optimum.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import _add, _mul, _neg, sign, value
from .ecp14 import check_lp

CONFIRMED, REFUTED = "confirmed", "refuted"


def _user_lp(n, a, prior, loss) -> tuple[list, list, list, list, list]:
    N = n + 1
    v = lambda i, r: i * N + r  # noqa: E731
    c = [_mul(prior[i], loss[i][r]) if prior[i] != 0 else Fraction(0) for i in range(N) for r in range(N)]
    A_eq = [{v(i, r): Fraction(1) for r in range(N)} for i in range(N)]
    A_ub = []
    for i in range(n):
        for r in range(N):
            A_ub.append({v(i + 1, r): a, v(i, r): Fraction(-1)})   # alpha x_(i+1)r <= x_ir
            A_ub.append({v(i, r): a, v(i + 1, r): Fraction(-1)})   # alpha x_ir <= x_(i+1)r
    return c, A_eq, [Fraction(1)] * N, A_ub, [Fraction(0)] * len(A_ub)


def _geometric(n, a):
    def g(i, j):
        w = a ** abs(i - j)
        return w / (1 + a) if j in (0, n) else w * (1 - a) / (1 + a)
    return [[g(i, j) for j in range(n + 1)] for i in range(n + 1)]


def _same(x, y) -> bool:
    return sign(_add(x, _neg(y))) == 0


def check(c: dict):
    ev = c["evidence"]
    n, a = ev["n"], Fraction(ev["alpha"])
    prior = [Fraction(v) for v in ev["prior"]]
    loss = [[value(v) for v in row] for row in ev["loss"]]   # rationals, or sums of square roots (|i-j|^(3/2))
    if not (0 < a < 1) or len(prior) != n + 1 or sum(prior) != 1:
        return REFUTED, 0, "the user or alpha is not well formed"
    ok, detail = check_lp(*_user_lp(n, a, prior, loss), ev["lp"])
    G = _geometric(n, a)
    remap = {int(z): int(r) for z, r in ev["remap"].items()}
    g_loss = Fraction(0)
    for i in range(n + 1):
        for z in range(n + 1):
            g_loss = _add(g_loss, _mul(prior[i] * G[i][z], loss[i][remap[z]]))
    attains = _same(g_loss, value(ev["lp"]["value"]))
    ok = ok and _same(g_loss, value(ev["geometric_loss"])) and attains == ev["attains"] \
        and (c["verdict"] == "holds") == attains
    return (CONFIRMED if ok else REFUTED), (n + 1) ** 2, (
        f"user LP rebuilt ({(n + 1) ** 2} variables): {detail}; remapped geometric loss "
        f"{g_loss if isinstance(g_loss, Fraction) else ev['geometric_loss']} "
        f"{'=' if attains else '!='} optimum")
