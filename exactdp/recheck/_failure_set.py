"""Failure sets of alpha in (0, 1) with exact ends, shared by the kinds ``all_eps`` and ``program``.

A failure set is a list of pieces (intervals and points) whose ends are exact rationals or ``root of P in [a, b]
(~x)``: the only root of ``P`` in the isolating interval.  :func:`read_pieces` reads and orders them,
:func:`set_text` rebuilds their text, :func:`in_set` places a rational, and :func:`exact_set` proves that the
set is exactly where some constraint polynomial is negative (Bernstein coefficients on the gaps and pieces, Sturm
counts to refine algebraic ends).  Moved here from ``all_eps`` so that ``program`` re-derives its failure set by
the same judgement (issue 28) without one kind importing another.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import pairwise

from . import _sturm
from ._kernel import (NotHere, Refuted, bernstein_nonneg, fraction, pl_add, pl_mul, pl_neg, poly_of, refute_unless,
                      within_limit)

__all__ = ["PIECE", "exact_set", "in_set", "read_pieces", "set_text"]

PIECE = {"lo": "str", "hi": "str", "point": "bool", "lo_closed": "bool", "hi_closed": "bool", "lo_approx": "str",
         "hi_approx": "str"}

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


def in_set(alpha: Fraction, pieces: list, ends: list) -> bool:
    """Is ``alpha`` in the union of the pieces (their ``(lo, hi)`` ends read by :func:`_end`)?"""
    for p, (lo, hi) in zip(pieces, ends, strict=True):
        c_lo, c_hi = _cmp_end(alpha, lo), _cmp_end(alpha, hi)
        if (c_lo > 0 or (p["lo_closed"] and c_lo == 0)) and (c_hi < 0 or (p["hi_closed"] and c_hi == 0)):
            return True
    return False


def read_pieces(pieces: list) -> list:
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
    return tuple(_sturm.primitive(p))


# ------------------------------------------------------------------ failure sets with algebraic ends ----
#: bisections of an algebraic end's isolating interval before giving up (each halves it)
MAX_BISECTIONS = 200
#: constraints times ends refined against each other (each a Sturm count per bisection)
MAX_END_WORK = 20_000
#: rational samples in a piece that no single constraint covers, each tested exactly (a wrong set is refuted)
SAMPLES = 64
#: pieces of a failure set read
MAX_PIECES = 10_000




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


def exact_set(raw: list, pieces: list, ends: list):
    """The failure set is exact: no constraint fails outside the pieces, each end in (0, 1) is a root of a
    constraint, and inside each piece some constraint fails throughout.  Bernstein on rational intervals; an
    algebraic end's interval is first refined (:func:`_refine`), so that a constraint's sign on the sliver between
    the end and a rational point is its sign at that point.

    ``raw``: the constraints' polynomials (a constraint fails where its polynomial is < 0); ``ends`` from
    :func:`read_pieces`.  Returns ``(distinct constraints, detail)``; raises :class:`Refuted` otherwise.

    Examples
    --------
    >>> half = [Fraction(1), Fraction(-2)]                          # 1 - 2 alpha < 0 exactly on (1/2, 1)
    >>> pieces = [{"lo": "1/2", "hi": "1", "point": False, "lo_closed": False, "hi_closed": False}]
    >>> exact_set([half], pieces, read_pieces(pieces))[0]
    1
    """
    polys = [list(q) for q in dict.fromkeys(_primitive(p) for p in raw) if q]
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
            # a set stated too large is refuted where a sample shows it (exactly); otherwise not checkable
            for j in range(1, SAMPLES):
                x = b1 + (a2 - b1) * Fraction(j, SAMPLES)
                refute_unless(any(_ev(p, x) < 0 for p in polys), f"no constraint fails at alpha = {x}, inside "
                              f"the piece ({pc['lo']}, {pc['hi']}) of the failure set")
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


