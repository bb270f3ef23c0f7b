"""Re-check ``all_eps`` certificates: symbolic alpha, every eps at once.

Holds: for every distinct constraint, ``p(alpha) = alpha^-d K(x')(z) - K(x)(z)``
(times positive denominators) is certified ``>= 0`` on [0, 1] by Bernstein
coefficients with subdivision -- a different method from the checker's root
isolation.  Fails: the witness is re-evaluated exactly at the rational sample
alpha, which must lie in the stated failure set.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import NotHere, bernstein_nonneg, pl_add, pl_mul, pl_neg, poly_of, value
from .privacy import _Mech, _witness_matches

CONFIRMED, REFUTED = "confirmed", "refuted"


def _in_set(alpha: Fraction, pieces: list):
    """Is ``alpha`` in the union of pieces?  ``None`` when a piece has an algebraic (irrational) end."""
    for p in pieces:
        try:
            lo, hi = Fraction(p["lo"]), Fraction(p["hi"])
        except ValueError:
            return None
        if (lo < alpha or (p["lo_closed"] and lo == alpha)) and (alpha < hi or (p["hi_closed"] and alpha == hi)):
            return True
    return False


def _check_fails(ev: dict):
    w, alpha = ev["witness"], Fraction(ev["sample_alpha"])
    mech, pairs = _Mech(ev["mechanism"]), ev["metric"]["pairs"]
    d = Fraction(w["distance"])
    if d.denominator != 1:
        raise NotHere("a non-integer distance")
    a, b = value(w["K_x"], alpha), value(w["K_x_prime"], alpha)
    if not isinstance(a, Fraction) or not isinstance(b, Fraction):
        raise NotHere("entries that are not rational functions of alpha")
    real = _witness_matches(mech, pairs, w)
    fails = a > b / alpha ** int(d) and str(a) == w["lhs"] and str(b / alpha ** int(d)) == w["rhs"]
    inside = _in_set(alpha, ev["failure_set"])
    ok = real and fails and inside is not False
    where = {True: "in the failure set", False: "NOT in the failure set",
             None: "the failure set has algebraic ends (not re-derived here; the witness alone proves the verdict)"}
    return (CONFIRMED if ok else REFUTED), 1, (
        f"at alpha = {alpha}: K(x)(z) = {a} {'>' if fails else 'is NOT >'} alpha^-d K(x')(z) = {b / alpha ** int(d)}"
        f"; sample {where[inside]}" + ("" if real else "; witness not in the mechanism"))


def _check_holds(ev: dict):
    mech, pairs = _Mech(ev["mechanism"]), ev["metric"]["pairs"]
    seen, n = set(), 0
    for x, xp, d in pairs:
        dd = Fraction(d)
        if dd.denominator != 1:
            raise NotHere("non-integer distances")
        for ca, cb in zip(mech.codes[mech.rows[x]], mech.codes[mech.rows[xp]]):
            for a, b in ((ca, cb), (cb, ca)):
                if (a, b, d) in seen:
                    continue
                seen.add((a, b, d))
                n += 1
                an, ad = poly_of(mech.values[a])
                bn, bd = poly_of(mech.values[b])
                # p = b/alpha^d - a has the sign of (bn ad - alpha^d an bd) * ad bd
                top = pl_add(pl_mul(bn, ad), pl_neg([Fraction(0)] * int(dd) + pl_mul(an, bd)))
                r = bernstein_nonneg(pl_mul(top, pl_mul(ad, bd)))
                if r is False:
                    return REFUTED, n, f"constraint {mech.values[a]} <= alpha^-{d} ({mech.values[b]}) fails on [0, 1]"
                if r is None:
                    raise NotHere(f"Bernstein subdivision did not certify {mech.values[a]} <= alpha^-{d} "
                                  f"({mech.values[b]}) (a root of even multiplicity inside (0, 1)?)")
    if n != ev["distinct"]:
        return REFUTED, n, f"{n} distinct constraints, the certificate says {ev['distinct']}"
    return CONFIRMED, n, f"{n} distinct constraints certified >= 0 on [0, 1] by Bernstein coefficients"


def check(c: dict):
    ev = c["evidence"]
    if c["verdict"] == "fails":
        return _check_fails(ev)
    return _check_holds(ev)
