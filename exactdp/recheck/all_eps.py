"""Re-check ``all_eps`` certificates: symbolic alpha, every eps at once.

The mechanism is checked to be a mechanism for every alpha in (0, 1): each row sums to 1 identically (as a
rational function of alpha) and each entry is ``>= 0`` on [0, 1] (Bernstein coefficients).  Holds: for
every distinct constraint, ``p(alpha) = alpha^-d K(x')(z) - K(x)(z)`` (times positive denominators) is
certified ``>= 0`` on [0, 1] by Bernstein coefficients with subdivision -- a different method from the
checker's root isolation -- and the counts of distinct, identically tight and sign-decided constraints are
re-derived.  Fails: the witness is re-evaluated exactly at the rational sample alpha, which must lie in the
stated failure set; the failure set's text is rebuilt from its pieces, and when every end is rational the
kernel also proves that no constraint fails outside the pieces (Bernstein on each gap), that each end
inside (0, 1) is a root of a constraint and that in each piece one constraint fails throughout (strict
Bernstein positivity once the roots at the ends are divided out): the failure set is then exact.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise
from math import gcd, lcm

from ._kernel import Refuted, refute_unless
from . import _sturm
from ._kernel import (MAX_DEGREE, NotHere, bernstein_nonneg, eps_sign, fraction, within_limit, pl_add, pl_mul, pl_neg,
                      poly_of, value)
from ._dprivacy import CONSTRAINT, COUNTS, MECH, METRIC, _counts, _setting

CONFIRMED, REFUTED = "confirmed", "refuted"

PIECE = {"lo": "str", "hi": "str", "point": "bool", "lo_closed": "bool", "hi_closed": "bool", "lo_approx": "str",
         "hi_approx": "str"}
EVIDENCE = {"all_eps": {"mechanism": MECH, "metric": METRIC, "counts": COUNTS, "distinct": "int",
                        "identically_tight": "int", "sign_decided": "int", "root_power": "int",
                        "failure_set": ("?", [PIECE]), "failure_set_text": "?str", "witness": ("?", CONSTRAINT),
                        "sample_alpha": "?str", "in_particular": "?str"}}
V1 = ("its metric record lists the generating pairs only, not the definition they rest on (edges, distances); "
      "re-certify with a current exactdp for a schema-2 certificate")


_RATIONAL = re.compile(r"-?[0-9]+(/[0-9]+)?")
_ROOT = re.compile(r"root of (?P<p>[ -~]+) in \[(?P<a>[0-9]+(?:/[0-9]+)?), (?P<b>[0-9]+(?:/[0-9]+)?)\] "
                   r"\(~(?P<x>[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)?)\)")


def _decimal_near(num: list, a: Fraction, b: Fraction, text: str) -> bool:
    """Is the only root ``r`` of the square-free ``num`` in ``(a, b)`` within one unit of the last printed digit of
    the decimal ``text``?  Exactly: ``r`` lies in ``[lo, hi]`` (that window cut to ``[a, b]``) iff ``num`` does not
    keep one strict sign on it (one simple root, so the sign changes at ``r`` and only there)."""
    mant, _, exp = text.lower().partition("e")
    unit = Fraction(10) ** (int(exp or 0) - len(mant.partition(".")[2]))
    x = fraction(mant) * Fraction(10) ** int(exp or 0)
    lo, hi = max(a, x - unit), min(b, x + unit)
    return lo < hi and _ev(num, lo) * _ev(num, hi) <= 0


def _end(text) -> tuple:
    """An end of a failure-set piece, as the producer writes it: ``(a, a, None)`` for an exact rational ``a``
    (its canonical text), or ``(a, b, p)`` for ``root of P in [a, b] (~x)``: the only root of the polynomial
    ``p`` in ``(a, b)`` (Sturm), ``0 <= a < b <= 1`` rationals.  Anything else is refuted: an end nobody can
    read is not an end (``"(9/10)"`` or ``"9/10+0"`` are refused, not taken for algebraic numbers)."""
    if isinstance(text, str) and _RATIONAL.fullmatch(text):
        q = fraction(text)
        refute_unless(str(q) == text, f"the end {text!r} is not written as the exact rational it is ({q})")
        return q, q, None
    m = _ROOT.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise Refuted(f"the end {str(text)[:60]!r} is neither an exact rational nor 'root of P in [a, b] (~x)'")
    a, b = fraction(m["a"]), fraction(m["b"])
    refute_unless(str(a) == m["a"] and str(b) == m["b"] and 0 <= a < b <= 1,
                  f"the isolating interval [{m['a']}, {m['b']}] is not rationals 0 <= a < b <= 1 in lowest terms")
    num, den = poly_of(m["p"])
    num, den = _sturm.trim(num), _sturm.trim(den)
    refute_unless(len(den) == 1 and len(num) >= 2, f"{m['p']!r} is not a non-constant polynomial in alpha")
    within_limit(len(num) - 1 <= _sturm.MAX_POLY_DEGREE, f"a root of a polynomial of degree {len(num) - 1}")
    if _ev(num, a) == 0 or _ev(num, b) == 0:
        raise NotHere(f"{m['p']} vanishes at an end of its isolating interval [{a}, {b}]")
    refute_unless(_sturm.roots_in(num, a, b) == 1, f"{m['p']} has not exactly one root in ({a}, {b})")
    # its square-free part, monic: the same roots, each simple, so the sign changes at the root (every sign
    # argument below rests on that), and one number has one representation in a given interval
    num = _sturm.squarefree(num)
    refute_unless(_decimal_near(num, a, b, m["x"]), f"the decimal {m['x']} printed with the root of {m['p']} in "
                  f"[{a}, {b}] is not within one unit of its last digit of that root")
    return a, b, num


def _cmp_end(alpha: Fraction, end: tuple) -> int:
    """``sign(alpha - end)``, exactly: a root is compared by the sign of its polynomial at ``alpha``."""
    a, b, p = end
    if p is None:
        return (alpha > a) - (alpha < a)
    if alpha <= a or alpha >= b:
        return -1 if alpha <= a else 1
    v = _ev(p, alpha)
    if v == 0:
        return 0
    return -1 if (v > 0) == (_ev(p, a) > 0) else 1     # the sign at a until the root, the other sign after it


def _end_le(e: tuple, f: tuple) -> bool | None:
    """``e <= f`` for two ends, exactly; ``None`` when two different roots have overlapping intervals."""
    if e[2] is None:
        return _cmp_end(e[0], f) <= 0
    if f[2] is None:
        return _cmp_end(f[0], e) >= 0
    if e[:2] == f[:2] and e[2] == f[2]:
        return True
    if e[1] <= f[0]:
        return True
    if f[1] <= e[0]:
        return False
    return None


def _in_set(alpha: Fraction, pieces: list, ends: list) -> bool:
    """Is ``alpha`` in the union of the pieces (their ``(lo, hi)`` ends read by :func:`_end`)?"""
    for p, (lo, hi) in zip(pieces, ends, strict=True):
        c_lo, c_hi = _cmp_end(alpha, lo), _cmp_end(alpha, hi)
        if (c_lo > 0 or (p["lo_closed"] and c_lo == 0)) and (c_hi < 0 or (p["hi_closed"] and c_hi == 0)):
            return True
    return False


def _read_pieces(pieces: list) -> list:
    """The ends of every piece (:func:`_end`), in order and inside [0, 1], a point exactly when its ends are one
    number; refuted otherwise (``not checkable`` when two algebraic ends cannot be ordered)."""
    within_limit(len(pieces) <= MAX_PIECES, f"a failure set of {len(pieces):,} pieces > {MAX_PIECES:,}")
    ends = [(_end(p["lo"]), _end(p["hi"])) for p in pieces]
    flat = [e for pair in ends for e in pair]
    refute_unless(all(0 <= e[0] <= 1 for e in flat if e[2] is None), "a piece outside [0, 1]")   # roots: by _end
    for e, f in pairwise(flat):
        le = _end_le(e, f)
        if le is None:
            raise NotHere("two algebraic ends of the failure set whose isolating intervals overlap")
        refute_unless(le, "the pieces are not disjoint and in order")
    for p, (lo, hi) in zip(pieces, ends, strict=True):
        refute_unless(p["point"] == (p["lo"] == p["hi"]), "a point piece with two ends, or an interval with one")
        refute_unless(p["point"] or _end_le(hi, lo) is False, "an interval piece whose ends are one number")
    return ends


def set_text(pieces: list) -> str:
    """The failure set as text, rebuilt from its pieces (the producer's ``AlphaSet.__str__``).

    Parameters
    ----------
    pieces : list of dict
        Points and intervals of alpha: ``lo``, ``hi``, ``point``, ``lo_closed``, ``hi_closed``.

    Returns
    -------
    str
        The union of the pieces, ``{}`` when empty.

    Examples
    --------
    >>> set_text([{"lo": "1/3", "hi": "1/3", "point": True, "lo_closed": True, "hi_closed": True},
    ...           {"lo": "1/2", "hi": "1", "point": False, "lo_closed": True, "hi_closed": False}])
    '{1/3} U [1/2, 1)'
    >>> set_text([])
    '{}'
    """
    if not pieces:
        return "{}"
    return " U ".join(f"{{{p['lo']}}}" if p["point"] else
                      f"{'[' if p['lo_closed'] else '('}{p['lo']}, {p['hi']}{']' if p['hi_closed'] else ')'}"
                      for p in pieces)


def _polys(mech, pairs):
    """Every distinct constraint as ``(a, b, d, P)`` with ``P`` the polynomial of the sign of p, or None when
    ``K(x)(z)`` is identically 0 (the constraint holds trivially)."""
    out, seen = [], set()
    cache: dict = {}
    work = 0

    def _read(code):                                    # each distinct entry parsed once
        if code not in cache:
            cache[code] = poly_of(mech.values[code])
        return cache[code]

    for x, xp, d in pairs:
        dd = value(d)
        if not isinstance(dd, Fraction) or dd.denominator != 1:
            raise NotHere("non-integer distances")
        within_limit(dd <= MAX_DEGREE, f"a distance {d} used as a power of alpha beyond {MAX_DEGREE}")
        for ca, cb in zip(mech.codes[mech.rows[x]], mech.codes[mech.rows[xp]], strict=True):
            for a, b in ((ca, cb), (cb, ca)):
                if (a, b, d) in seen:
                    continue
                seen.add((a, b, d))
                an, ad = _read(a)
                bn, bd = _read(b)
                if not any(an):
                    out.append((a, b, d, None))
                    continue
                # p = b/alpha^d - a has the sign of (bn ad - alpha^d an bd) * ad bd; its products counted as they
                # are built (coefficient operations: about 3 us each here)
                work += len(bn) * len(ad) + len(an) * len(bd) + (len(ad) + len(bd)) * (len(an) + len(bn) + int(dd))
                within_limit(work <= MAX_CONSTRAINT_WORK, f"the constraints' polynomials need more than "
                             f"{MAX_CONSTRAINT_WORK:,} coefficient operations")
                top = pl_add(pl_mul(bn, ad), pl_neg([Fraction(0)] * int(dd) + pl_mul(an, bd)))
                out.append((a, b, d, pl_mul(top, pl_mul(ad, bd))))
    return out


def _ev(p, t: Fraction) -> Fraction:
    out = Fraction(0)
    for c in reversed(p):
        out = out * t + c
    return out


def _on(p, lo: Fraction, hi: Fraction):
    """``p(lo + (hi - lo) s)`` as coefficients in ``s`` (so [lo, hi] becomes [0, 1])."""
    out = [Fraction(0)]
    lin = [lo, hi - lo]
    for c in reversed(p):
        out = pl_add(pl_mul(out, lin), [c])
    return out


def _primitive(p) -> tuple:
    """``p / (c alpha^k)`` for the ``c > 0`` and ``k >= 0`` that leave a primitive integer polynomial not
    vanishing at 0 (``()`` for 0).  It has the sign of ``p`` at every alpha in (0, 1], and by continuity it is
    ``>= 0`` on ``[0, x]`` exactly when ``p`` is (``x > 0``): one representative per constraint up to such
    factors, so equal constraints are decided once (geometric(150)'s 598 distinct constraints are 2 of them)."""
    p = _sturm.trim(p)
    k = 0
    while k < len(p) and p[k] == 0:
        k += 1
    p = p[k:]
    if not p:
        return ()
    q = [int(c * lcm(*(c.denominator for c in p))) for c in p]
    g = gcd(*q)
    return tuple(Fraction(x // g, 1) for x in q)


def _nonneg_on_01(p: tuple):
    """``p >= 0`` on [0, 1]: at once when no coefficient is negative, else by Bernstein coefficients."""
    return True if all(c >= 0 for c in p) else bernstein_nonneg(list(p))


def _bernstein_budget(keys) -> None:
    """The Bernstein tests ahead, counted before any: the squared degrees of the distinct polynomials with a
    negative coefficient (a conversion to Bernstein form costs the square of the degree in rational operations)."""
    work = sum(len(k) ** 2 for k in keys if any(c < 0 for c in k))
    within_limit(work <= MAX_BERNSTEIN_TOTAL, f"Bernstein tests of {work:,} squared degrees > {MAX_BERNSTEIN_TOTAL:,}")


def _mechanism_everywhere(mech) -> None:
    """Rows sum to 1 identically in alpha; entries ``>= 0`` on [0, 1] (a mechanism for every alpha).  Each distinct
    entry is read once and decided once (up to the factors of :func:`_primitive`); a row's entries are summed per
    distinct denominator first, so the row's common denominator is the product of its distinct ones only."""
    polys = [poly_of(v) for v in mech.values]
    within_limit(sum(len(n) + len(d) for n, d in polys) <= MAX_POLY_TERMS, f"more than {MAX_POLY_TERMS:,} coefficients "
                 "in the entries")
    keys: dict = {}
    for c, (num, den) in enumerate(polys):
        keys.setdefault(_primitive(pl_mul(num, den)), c)
    _bernstein_budget(keys)
    for key, c in keys.items():
        r = _nonneg_on_01(key)
        if r is not True:
            raise Refuted(f"the entry {mech.values[c]!r} is not shown >= 0 on [0, 1]: not a mechanism") \
                if r is False else NotHere(f"the entry {mech.values[c]!r}: Bernstein did not certify >= 0")
    for i, row in enumerate(mech.codes):
        by_den: dict = {}
        for c in row:
            n2, d2 = polys[c]
            kd = tuple(_sturm.trim(d2))
            by_den[kd] = pl_add(by_den.get(kd, [Fraction(0)]), n2)
        num, den = [Fraction(0)], [Fraction(1)]
        for d2, n2 in by_den.items():
            num, den = pl_add(pl_mul(num, list(d2)), pl_mul(n2, den)), pl_mul(den, list(d2))
            within_limit(len(den) <= MAX_DEGREE, f"a row of degree {len(den)} > {MAX_DEGREE}")
        refute_unless(not any(pl_add(num, pl_neg(den))), f"row {i} does not sum to 1 identically in alpha: not a "
                      "mechanism")


def _check_fails(ev: dict, mech, pairs, dist):
    w, alpha = ev["witness"], fraction(ev["sample_alpha"])
    pieces = ev["failure_set"]
    refute_unless(w is not None and pieces, "a failing certificate without witness or failure set")
    refute_unless(ev["failure_set_text"] == set_text(pieces), "the failure set's text is not its pieces")
    refute_unless(dist.get((w["x"], w["x_prime"])) == w["distance"], "the witness is not at a generating pair")
    refute_unless(mech.entry_text(w["x"], w["output"]) == w["K_x"] and
                  mech.entry_text(w["x_prime"], w["output"]) == w["K_x_prime"], "the witness's entries are not the "
                  "mechanism's")
    d = value(w["distance"])
    if not isinstance(d, Fraction) or d.denominator != 1:
        raise NotHere("a non-integer distance")
    within_limit(d <= MAX_DEGREE, f"a distance {d} used as a power of alpha")
    a, b = value(w["K_x"], alpha), value(w["K_x_prime"], alpha)
    if not isinstance(a, Fraction) or not isinstance(b, Fraction):
        raise NotHere("entries that are not rational functions of alpha")
    rhs = b / alpha ** int(d)
    refute_unless(str(a) == w["lhs"] and str(rhs) == w["rhs"] and w["excess"] == str(a - rhs),
                  "the witness's sides are not its entries at the sample alpha")
    refute_unless(a > rhs, f"at alpha = {alpha} the witness holds: {a} <= {rhs}")
    ends = _read_pieces(pieces)
    refute_unless(_in_set(alpha, pieces, ends), f"the sample alpha = {alpha} is not in the failure set")
    _distinct(ev, _polys(mech, pairs))
    n, extra = _gaps(mech, pairs, pieces, ends)
    return CONFIRMED, n, (f"at alpha = {alpha}: K(x)(z) = {a} > alpha^-d K(x')(z) = {rhs}; sample in the failure "
                          f"set{extra}")


# ------------------------------------------------------------------ failure sets with algebraic ends ----
#: bisections of an algebraic end's isolating interval before giving up (each halves it)
MAX_BISECTIONS = 200
#: constraints times ends refined against each other (each a Sturm count per bisection)
MAX_END_WORK = 20_000
#: pieces of a failure set read
MAX_PIECES = 10_000
#: coefficient operations building the constraints' polynomials (geometric(150): about 700,000, 2 s)
MAX_CONSTRAINT_WORK = 2_500_000
#: squared degrees of the distinct polynomials certified by Bernstein coefficients in one re-check
MAX_BERNSTEIN_TOTAL = 1_000_000
#: coefficients of the mechanism's entries read as polynomials in alpha (numerators and denominators)
MAX_POLY_TERMS = 2_000_000


def _refine(end: tuple, polys: list, cuts: list) -> tuple:
    """Shrink the isolating interval ``(a, b)`` of the root ``r`` of ``q`` until, for every constraint ``p``,
    ``p(a)``, ``p(b)`` are non-zero and ``p`` has no root in ``(a, b)`` but possibly ``r`` itself (Sturm), and no
    rational cut lies in it.  Then on ``(a, r)`` and on ``(r, b)`` each ``p`` has the sign of ``p(a)``, resp.
    ``p(b)``.  Returns ``(a, b, roots)`` with ``roots[i]`` whether ``r`` is a root of ``polys[i]`` (its gcd with
    ``q`` vanishes in ``(a, b)``)."""
    a, b, q = end
    roots = []
    for p in polys:
        g = _sturm.gcd(p, q)
        roots.append(len(g) > 1 and _sturm.roots_in(g, a, b) > 0)     # g | q: g(a), g(b) != 0
    for _ in range(MAX_BISECTIONS):
        if not any(a < x < b for x in cuts) and all(
                _ev(p, a) != 0 and _ev(p, b) != 0 and _sturm.roots_in(p, a, b) == k for p, k in zip(polys, roots,
                                                                                                     strict=True)):
            return a, b, roots
        m = (a + b) / 2
        if _ev(q, m) == 0:
            raise NotHere(f"an algebraic end of the failure set is the rational {m}")
        a, b = (m, b) if (_ev(q, m) > 0) == (_ev(q, a) > 0) else (a, m)
    raise NotHere(f"an algebraic end not separated from the constraints' roots in {MAX_BISECTIONS} bisections")


def _gaps(mech, pairs, pieces, ends):
    """The failure set is exact: no constraint fails outside the pieces, each end in (0, 1) is a root of a
    constraint, and inside each piece some constraint fails throughout.  Bernstein on rational intervals; an
    algebraic end's interval is first refined (:func:`_refine`), so that a constraint's sign on the sliver between
    the end and a rational point is its sign at that point."""
    polys = [list(q) for q in dict.fromkeys(_primitive(p) for _, _, _, p in _polys(mech, pairs) if p is not None) if q]
    flat = [e for pair in ends for e in pair]
    algebraic = any(e[2] is not None for e in flat)
    if algebraic:
        _within_end_budget(polys, flat)
    cuts = sorted({e[0] for e in flat if e[2] is None} | {Fraction(0), Fraction(1)})
    ref = {}
    for e in flat:
        if e[2] is not None and (e[0], e[1]) not in ref:
            ref[(e[0], e[1])] = _refine(e, polys, cuts)
    _ends_are_roots(flat, polys, ref)
    bounds = [(e[0], e[0]) if e[2] is None else ref[(e[0], e[1])][:2] for e in flat]
    zero, one = (Fraction(0), Fraction(0)), (Fraction(1), Fraction(1))
    gaps = [(zero, bounds[0]), *zip(bounds[1:-1:2], bounds[2::2], strict=True), (bounds[-1], one)]
    _no_constraint_fails_in_gaps(gaps, polys)
    _ends_decided(pieces, flat, lambda e: _fails_at(e, polys, ref))
    _one_constraint_fails_in_each_piece(pieces, flat, bounds, polys, ref)
    return len(polys), ("; no constraint fails outside it and one fails throughout each piece (Bernstein"
                        + ("; each algebraic end the only root of its polynomial in its interval, refined by Sturm "
                           "counts)" if algebraic else ")"))


def _within_end_budget(polys: list, flat: list) -> None:
    """Algebraic ends are refined against every constraint by Sturm counts: refuse (too large) beyond the limits."""
    within_limit(all(len(p) - 1 <= _sturm.MAX_POLY_DEGREE for p in polys),
                 f"a constraint of degree above {_sturm.MAX_POLY_DEGREE} beside algebraic ends")
    within_limit(len(polys) * len(flat) <= MAX_END_WORK,
                 f"{len(polys):,} constraints against {len(flat):,} ends of "
                 f"the failure set > {MAX_END_WORK:,} Sturm refinements")


def _ends_are_roots(flat: list, polys: list, ref: dict) -> None:
    """Every end of the failure set inside (0, 1) is a root of some constraint (refuted otherwise): a rational end
    by its value, an algebraic one by its refined interval (:func:`_refine`)."""
    for e in flat:
        if e[2] is None:
            refute_unless(not 0 < e[0] < 1 or any(_ev(p, e[0]) == 0 for p in polys),
                          f"the end {e[0]} of the failure set is no constraint's root")
        else:
            refute_unless(any(ref[(e[0], e[1])][2]), "an algebraic end of the failure set is no constraint's root")


def _no_constraint_fails_in_gaps(gaps: list, polys: list) -> None:
    """Every constraint is ``>= 0`` on each gap between the pieces, ends included (refuted otherwise).

    A gap is ``((a1, b1), (a2, b2))``: the bounds of its two ends (``a == b`` for a rational end)."""
    for (a1, b1), (a2, b2) in gaps:
        if (a1, b1) == (a2, b2):
            continue                                    # two pieces meet at one end: no gap
        for p in polys:
            # p >= 0 on [end1, end2]: on the slivers (end1, b1] and [a2, end2) by the sign at b1, a2 (p has no
            # other root there); on [b1, a2] by Bernstein
            refute_unless((a1 == b1 or _ev(p, b1) > 0) and (a2 == b2 or _ev(p, a2) > 0),
                          "a constraint fails next to an algebraic end, outside the failure set")
            if b1 < a2:
                r = bernstein_nonneg(_on(p, b1, a2))
                if r is None:                           # a root of even multiplicity: separated by Sturm counts
                    within_limit(len(p) - 1 <= _sturm.MAX_POLY_DEGREE, f"a constraint of degree {len(p) - 1} that "
                                 "Bernstein coefficients do not decide")
                    r = _sturm.nonneg_on(p, b1, a2)
                refute_unless(r is True, f"a constraint fails on [{b1}, {a2}], outside the failure set")


def _one_constraint_fails_in_each_piece(pieces: list, flat: list, bounds: list, polys: list, ref: dict) -> None:
    """Some constraint fails at each point piece (refuted otherwise) and throughout each interval piece (not
    checkable otherwise: no single constraint certified to fail all the way)."""
    for k, pc in enumerate(pieces):
        (a1, b1), (a2, b2) = bounds[2 * k], bounds[2 * k + 1]
        if pc["point"]:
            e = flat[2 * k]
            if e[2] is None:
                ok = any(_ev(p, e[0]) < 0 for p in polys)
            else:                                       # p(r) < 0: r not a root of p, and p's sign at a there
                ra, _, at = ref[(e[0], e[1])]
                ok = any(not t and _ev(p, ra) < 0 for p, t in zip(polys, at, strict=True))
            refute_unless(ok, f"no constraint fails at alpha = {pc['lo']}")
        elif not any(_fails_between(p, (a1, b1), (a2, b2)) for p in polys):
            raise NotHere(f"no single constraint is certified to fail throughout ({pc['lo']}, {pc['hi']})")


def _fails_at(e: tuple, polys: list, ref: dict) -> bool:
    """Does some constraint fail at the end ``e``, exactly?  A rational end by its value; an algebraic end ``r``
    by the sign of each constraint at its refined interval's lower end (:func:`_refine`: no root of ``p`` in that
    interval but possibly ``r`` itself, so ``p(r)`` has that sign unless ``r`` is a root of ``p``)."""
    if e[2] is None:
        return any(_ev(p, e[0]) < 0 for p in polys)
    ra, _, at = ref[(e[0], e[1])]
    return any(not t and _ev(p, ra) < 0 for p, t in zip(polys, at, strict=True))


def _ends_decided(pieces: list, flat: list, fails_at) -> None:
    """Every end of every piece is in the stated set exactly when some constraint fails there.

    A point is closed on both sides; 0 and 1 are no alpha of (0, 1); an end with a gap beside it lies in no
    failure set (the gap checks show every constraint ``>= 0`` on the gap's closure), so it must be open; where
    two pieces touch, the common end is in the stated set (closed on either side) exactly when a constraint
    fails there -- the zero-width gap ``(a, e) U (e, b)`` is decided like any other."""
    for pc, lo, hi in zip(pieces, flat[::2], flat[1::2], strict=True):
        refute_unless(not pc["point"] or (pc["lo_closed"] and pc["hi_closed"]),
                      f"the point {{{pc['lo']}}} is not closed")
        refute_unless(not (pc["lo_closed"] and lo[2] is None and lo[0] == 0) and
                      not (pc["hi_closed"] and hi[2] is None and hi[0] == 1), "a piece closed at alpha = 0 or 1, which "
                      "is no eps > 0 (alpha in (0, 1))")
    for k in range(len(pieces) + 1):
        left = pieces[k - 1] if k > 0 else None
        right = pieces[k] if k < len(pieces) else None
        if left is not None and right is not None and flat[2 * k - 1] == flat[2 * k]:
            inside = bool(left["hi_closed"] or right["lo_closed"])
            refute_unless(inside == fails_at(flat[2 * k]), f"at alpha = {left['hi']}, where two pieces meet, "
                          + ("no constraint fails, but the set contains it" if inside else
                          "a constraint fails, but the set leaves it out"))
            continue
        refute_unless(left is None or not left["hi_closed"],
                      f"the set contains its end {left and left['hi']}, beside a "
                      "gap where no constraint fails: no constraint fails there either")
        refute_unless(right is None or not right["lo_closed"], f"the set contains its end {right and right['lo']}, "
                      "beside a gap where no constraint fails: no constraint fails there either")


def _fails_between(p, lo: tuple, hi: tuple) -> bool:
    """``p < 0`` throughout the open piece between two ends given by their (refined) intervals ``(a, b)``; a
    rational end is ``(e, e)``.  Slivers by the sign at the interval's inner end, the rest by
    :func:`_fails_inside` (which divides out roots at rational ends) or strict Bernstein."""
    (a1, b1), (a2, b2) = lo, hi
    if (a1 != b1 and _ev(p, b1) >= 0) or (a2 != b2 and _ev(p, a2) >= 0):
        return False
    if b1 == a2:
        return a1 != b1 or a2 != b2                     # the slivers meet: covered above
    if a1 == b1 and a2 == b2:
        return _fails_inside(p, b1, a2)
    q = pl_neg(p)
    for e, rational, flip in ((b1, a1 == b1, False), (a2, a2 == b2, True)):
        while rational and any(q) and _ev(q, e) == 0:
            q = _divide(q, e)
            if flip:
                q = pl_neg(q)
    return any(q) and bernstein_nonneg(_on(q, b1, a2), strict=True) is True


def _fails_inside(p, lo: Fraction, hi: Fraction) -> bool:
    """``p < 0`` on the open interval ``(lo, hi)``: the roots at the ends divided out, the rest ``> 0`` on
    ``[lo, hi]`` (strict Bernstein coefficients)."""
    q = pl_neg(p)
    for e, flip in ((lo, False), (hi, True)):
        while any(q) and _ev(q, e) == 0:
            q = _divide(q, e)                 # q / (alpha - e); on (lo, hi), alpha - hi < 0: flip the sign
            if flip:
                q = pl_neg(q)
    if not any(q):
        return False
    r = bernstein_nonneg(_on(q, lo, hi), strict=True)
    if r is None and len(q) - 1 <= _sturm.MAX_POLY_DEGREE:
        return _sturm.positive_inside(_sturm.trim(q), lo, hi)     # exactly: no root inside, positive at lo
    return r is True


def _divide(p, e: Fraction):
    """``p / (alpha - e)`` for a root ``e`` of ``p`` (synthetic division)."""
    out, acc = [], Fraction(0)
    for c in reversed(p):
        acc = acc * e + c
        out.append(acc)
    return list(reversed(out[:-1]))


def _distinct(ev: dict, polys: list) -> None:
    """The counts of distinct, identically tight and sign-decided constraints, re-derived."""
    n = len(polys)
    zero_a = sum(P is None for *_, P in polys)
    zero_p = sum(P is not None and not any(P) for *_, P in polys)
    refute_unless((ev["distinct"], ev["identically_tight"], ev["sign_decided"]) == (n, zero_p, n - zero_a - zero_p),
                  f"{n} distinct constraints, {zero_p} identically tight, {n - zero_a - zero_p} decided; the "
                  "certificate "
                  f"says {ev['distinct']}, {ev['identically_tight']}, {ev['sign_decided']}")


def _check_holds(ev: dict, mech, pairs):
    refute_unless(ev["witness"] is None and ev["failure_set"] == [] and ev["failure_set_text"] == "{}"
                  and ev["sample_alpha"] is None, "a holding certificate with a failure set")
    polys = _polys(mech, pairs)
    _distinct(ev, polys)
    keys: dict = {}
    for a, b, d, P in polys:
        if P is not None and any(P):
            keys.setdefault(_primitive(P), (a, b, d))
    _bernstein_budget(keys)
    for key, (a, b, d) in keys.items():
        r = _nonneg_on_01(key)
        if r is None and len(key) - 1 <= _sturm.MAX_POLY_DEGREE:   # even-multiplicity roots: Sturm decides
            r = _sturm.nonneg_on(list(key), Fraction(0), Fraction(1))
        if r is False:
            raise Refuted(f"constraint {mech.values[a]} <= alpha^-{d} ({mech.values[b]}) fails on [0, 1]")
        if r is None:
            raise NotHere(f"Bernstein subdivision did not certify {mech.values[a]} <= alpha^-{d} "
                          f"({mech.values[b]}) (a root of even multiplicity inside (0, 1)?)")
    n = len(polys)
    return CONFIRMED, n, f"{n} distinct constraints certified >= 0 on [0, 1] by Bernstein coefficients"


def check(c: dict):
    """Re-check an ``all_eps`` certificate: privacy for every eps > 0 (entries polynomials in alpha), exactly.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the facts re-derived, and why.

    Examples
    --------
    >>> K = {"name": "K", "inputs": ["a", "b"], "outputs": ["0"], "values": ["1"], "codes": [[0], [0]]}
    >>> m = {"description": "a point", "points": 1, "labels": ["a"], "pairs": [], "reduction": "",
    ...      "all_pairs_at": "1", "edges": None, "distances": None}
    >>> check({"kind": "all_eps", "evidence": {"mechanism": K, "metric": m}})
    ('refuted', 0, "the mechanism's inputs are not the metric's points")
    """
    ev = c["evidence"]
    try:
        mech, pairs, dist, note = _setting(ev, symbolic_ok=True)
        _counts(ev, mech, pairs)
        refute_unless(ev["root_power"] == 1, "entries are polynomials in alpha itself: root_power is 1")
        refute_unless(c["method"] == "SYMBOLIC_ROOTS" and c["precision"] is None, "the method of a statement for every "
                      "eps is symbolic alpha (SYMBOLIC_ROOTS), without a precision")
        _mechanism_everywhere(mech)
        refute_unless(ev["in_particular"] is None or eps_sign(ev["in_particular"]) > 0,
                      f"the level {ev['in_particular']!r} is not an eps > 0")
        if c["verdict"] == "fails":
            s, n, d = _check_fails(ev, mech, pairs, dist)
            if ev["in_particular"] is not None:
                fs = ev["failure_set"]
                refute_unless(len(fs) == 1 and not fs[0]["point"] and fs[0]["lo"] == "0" and fs[0]["hi"] == "1",
                              "a failure for one eps is claimed from a failure set that is not all of (0, 1)")
        else:
            s, n, d = _check_holds(ev, mech, pairs)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return s, n, d + note


def claim_text(c: dict) -> str:
    """The claim sentence the checked fields state (the producer, :mod:`exactdp.engine.all_eps`, writes it).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> ev = {"mechanism": {"name": "geometric"}, "metric": {"description": "path on 3 points"}, "in_particular": None}
    >>> claim_text({"evidence": ev})
    'geometric is eps*d-private for every eps > 0 on the path on 3 points'
    """
    ev = c["evidence"]
    s = f"{ev['mechanism']['name']} is eps*d-private for every eps > 0 on the {ev['metric']['description']}"
    if ev["in_particular"] is not None:
        s += f"; in particular at eps = {ev['in_particular']} (the statement for every eps settles it)"
    return s
