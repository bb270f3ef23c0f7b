"""GRS12: Ghosh, Roughgarden, Sundararajan, "Universally utility-maximizing privacy mechanisms".

Example 2.1: the alpha-geometric mechanism is eps-differentially private for a
count query.  The text lost its formulas; ``shared/papers/README.md`` restores
them (two-sided geometric noise, range restriction to ``{0..n}``).
"""

from __future__ import annotations

from ..certify.all_eps import certify_all_eps
from ..certify.privacy import certify_privacy
from ..exact.decide import exact_str
from ..exact.expo import ExpFrac
from ..exact.lin import Lin
from ..mechanisms import geometric
from ..metrics import path
from .registry import ClaimResult, register

NS = range(1, 11)


def _unrestricted_column_factor(n: int, z: int):
    """Ratio of the unrestricted geometric column z to a restricted column, and whether it is independent of the row.

    Unrestricted: ``P(z | i) = (1-alpha)/(1+alpha) alpha^|z-i|`` for every integer z.  Returns
    ``(restricted column, factor, holds)``: ``holds`` says whether ``P(z | i) = factor * G(i, column)`` for every
    row i, checked exactly as identities in alpha.
    """
    a = ExpFrac.exp(-Lin.eps())
    G = geometric(n)
    col = 0 if z <= 0 else (n if z >= n else z)
    factors = []
    for i in range(n + 1):
        unres = (1 - a) / (1 + a) * (a ** abs(z - i))
        factors.append((unres / G[i, col]).reduced())
    f0 = factors[0]
    return col, f0, all((f - f0).is_zero() for f in factors)  # exact identity test


@register("GRS12-ex2.1", "GRS12", "Example 2.1",
          "The alpha-geometric mechanism (output i + Z with Pr[Z = z] = (1-alpha)/(1+alpha) alpha^|z|) is "
          "eps-differentially private for a count query, because the probabilities of adjacent points differ by "
          "a factor alpha = e^(-eps) and the true count differs by at most one on neighbouring databases.",
          "eps-differentially private, for every eps > 0")
def ex21() -> ClaimResult:
    rows = ["| n | verdict for every eps | distinct constraints | identically tight | recheck |", "|---|---|---|---|---|"]
    certs, ok = [], True
    for n in NS:
        c = certify_all_eps(geometric(n), path(n + 1))
        r = c.recheck()
        certs.append(c)
        ok &= c.holds is True and r.ok is True
        rows.append(f"| {n} | {c.verdict.value} | {c.evidence.distinct} | {c.evidence.identically_tight} | "
                    f"{'confirmed' if r.ok is True else r.detail} |")
    n = 4
    lines = []
    for z in (-3, -1, 0, 2, 4, 5, 7):
        col, f, same = _unrestricted_column_factor(n, z)
        ok &= same
        lines.append(f"- z = {z}: P(z | i) = ({exact_str(f)}) * G_{n}(i, {col}) for every i")
    unres = ("Every column of the unrestricted mechanism is a positive multiple (a function of alpha only) of a "
             "column of the range-restricted one, checked as exact identities in alpha (here n = 4):\n\n"
             + "\n".join(lines) + "\n\nFor z <= 0 the factor is (1 - alpha) alpha^(-z), for z >= n it is "
             "(1 - alpha) alpha^(z - n), and 1 inside. Scaling a column by a positive factor leaves every ratio "
             "K(x)(z)/K(x')(z) unchanged, so the privacy constraints of the unrestricted mechanism are exactly "
             "those of the range-restricted one, which are certified below for every eps.")
    level = certify_privacy(geometric(10, "1/2"), path(11), alpha="1/2")
    certs.append(level)
    ok &= level.holds is True and level.evidence.epsilon == "log(2)"
    sections = [
        ("Range-restricted geometric mechanism on {0..n}, all eps at once", "\n".join(rows) + "\n"),
        ("From the range-restricted to the unrestricted mechanism", unres),
        ("Worked proof for n = 3, every eps", certs[2].to_markdown()),
        ("At alpha = 1/2 (n = 10): exact smallest eps", level.to_markdown()),
    ]
    return ClaimResult("reproduced" if ok else "differs",
                       "private for every eps > 0 (n = 1..10, symbolic alpha, exact root isolation); the smallest eps "
                       "at alpha = 1/2 is exactly log(2) = -log(alpha)", sections, certs)
