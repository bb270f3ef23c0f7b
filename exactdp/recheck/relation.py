"""Re-check ``relation`` certificates: ``lhs R rhs`` re-derived from the two exact texts.

Numbers: the sign of ``lhs - rhs`` by this kernel's exact zero test and
intervals.  For every alpha in (0, 1): "=" is an identity of rational
functions (cross-multiplied coefficients compared exactly); "<=" / ">=" are
certified by Bernstein coefficients of the cross-multiplied difference; a
failure is re-evaluated at the rational sample alpha.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import NotHere, bernstein_nonneg, pl_add, pl_mul, pl_neg, poly_of, sign, value
from ._kernel import _add, _neg

_OK = {"=": {0}, "<=": {-1, 0}, "<": {-1}, ">=": {0, 1}, ">": {1}}


def _trim(p):
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def check(c: dict):
    ev, holds = c["evidence"], c["verdict"] == "holds"
    rel = ev["relation"]
    if ev["variable"] is None:
        s = sign(_add(value(ev["lhs"]), _neg(value(ev["rhs"]))))
        ok = (s in _OK[rel]) == holds
        return ("confirmed" if ok else "refuted"), 1, f"sign(lhs - rhs) = {s}: the relation {rel} " \
            + ("holds" if s in _OK[rel] else "fails")
    if not holds:
        if ev["sample_alpha"] is None:
            raise NotHere("the failure set has only algebraic points and no rational sample")
        a = Fraction(ev["sample_alpha"])
        x, y = value(ev["lhs"], a), value(ev["rhs"], a)
        if not (isinstance(x, Fraction) and isinstance(y, Fraction)):
            raise NotHere("sides that are not rational at a rational alpha")
        s = (x > y) - (x < y)
        ok = 0 < a < 1 and s not in _OK[rel]
        return ("confirmed" if ok else "refuted"), 1, f"at alpha = {a}: lhs = {x}, rhs = {y}"
    ln, ld = poly_of(ev["lhs"])
    rn, rd = poly_of(ev["rhs"])
    # lhs - rhs = (ln rd - rn ld) / (ld rd); its sign is that of (ln rd - rn ld) * ld * rd
    top = pl_add(pl_mul(ln, rd), pl_neg(pl_mul(rn, ld)))
    if rel == "=":
        ok = not _trim(top)
        return ("confirmed" if ok else "refuted"), 1, "identity of rational functions in alpha " \
            + ("verified coefficient by coefficient" if ok else "FAILS")
    if rel not in ("<=", ">="):
        raise NotHere("a strict inequality on all of (0, 1) (Bernstein bounds certify only <= and >=)")
    p = pl_mul(top, pl_mul(ld, rd))
    r = bernstein_nonneg(p if rel == ">=" else pl_neg(p))
    if r is None:
        raise NotHere("Bernstein subdivision did not separate the difference from 0")
    return ("confirmed" if r else "refuted"), 1, f"lhs {rel} rhs on [0, 1] " + \
        ("certified by Bernstein coefficients" if r else "FAILS")
