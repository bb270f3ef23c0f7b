"""Re-check ``relation`` certificates: ``lhs R rhs`` re-derived from the two exact texts.

Numbers: the sign of ``lhs - rhs`` by this kernel's exact zero test and
intervals.  For every alpha in (0, 1): "=" is an identity of rational
functions (cross-multiplied coefficients compared exactly); "<=" / ">=" are
certified by Bernstein coefficients of the cross-multiplied difference; a
failure is re-evaluated at the rational sample alpha.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ._labels import label_note
from ._levels import method_for
from ._kernel import bernstein_nonneg, fraction, NotHere, pl_add, pl_mul, pl_neg, poly_of, sign, value
from ._kernel import _add, _neg
import itertools

_OK = {"=": {0}, "<=": {-1, 0}, "<": {-1}, ">=": {0, 1}, ">": {1}}
#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {"relation": {"statement": "str", "lhs": "str", "rhs": "str", "relation": "str", "variable": "?str",
                         "difference": "str", "failure_set": "?str", "sample_alpha": "?str"}}


def _trim(p):
    """A coefficient list (lowest degree first) without trailing zeros, so that zero is the empty list."""
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def claim_text(c: dict) -> str:
    """The claim of a ``relation`` certificate, rebuilt from its evidence: the statement with its exact relation.

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
    >>> ev = {"statement": "rho", "lhs": "1 - alpha", "relation": "<=", "rhs": "1", "variable": "alpha"}
    >>> claim_text({"evidence": ev})
    'rho: 1 - alpha <= 1 for every alpha in (0, 1)'
    """
    ev = c["evidence"]
    formula = f"{ev['lhs']} {ev['relation']} {ev['rhs']}"
    suffix = " for every alpha in (0, 1)" if ev["variable"] is not None else ""
    return formula + suffix if ev["statement"] == formula else f"{ev['statement']}: {formula}{suffix}"


# ----------------------------------------------------------------------- Sturm sequences over fractions ----
def _peval(p, x: Fraction) -> Fraction:
    """``p(x)`` exactly by Horner's rule in fractions."""
    v = Fraction(0)
    for a in reversed(p):
        v = v * x + a
    return v


def _prem(a, b):
    """Remainder of ``a`` divided by ``b`` (coefficient lists, low to high)."""
    a = _trim(a)
    b = _trim(b)
    while len(a) >= len(b) and a:
        f = a[-1] / b[-1]
        k = len(a) - len(b)
        a = _trim([x - f * (b[i - k] if 0 <= i - k < len(b) else 0) for i, x in enumerate(a)])
    return a


def _sturm(p):
    """The Sturm sequence of ``p``: ``p``, ``p'``, then the negated remainders of successive divisions (exact, in
    fractions), zero polynomials dropped; Sturm's theorem counts roots with it (:func:`_changes`)."""
    p = _trim(p)
    seq = [p, _trim([i * a for i, a in enumerate(p)][1:])]
    while seq[-1]:
        r = _prem(seq[-2], seq[-1])
        seq.append([-x for x in r])
    return [q for q in seq if q]


def _changes(seq, x: Fraction) -> int:
    """Sign changes of the Sturm sequence at ``x`` (zeros skipped): the distinct real roots of ``p`` in ``(a, b]``
    number ``changes(a) - changes(b)`` (Sturm's theorem), exactly in fractions."""
    signs = [v for v in (_peval(q, x) for q in seq) if v != 0]
    return sum(1 for a, b in itertools.pairwise(signs) if (a > 0) != (b > 0))


def _roots_inside(p, a: Fraction, b: Fraction) -> int:
    """Distinct real roots of ``p`` in the open interval ``(a, b)`` (Sturm's theorem)."""
    p = _trim(p)
    if len(p) <= 1:
        return 0
    seq = _sturm(p)
    return _changes(seq, a) - _changes(seq, b) - (1 if _peval(p, b) == 0 else 0)


#: largest degree of the difference's numerator times denominator whose Sturm sequence is built here
MAX_STURM_DEGREE = 200

_PIECE = re.compile(r"^(?:\{([^{}]+)\}|([\[(])([^,]+), ([^\])]+)([\])]))$")


def _pieces(text: str):
    """A failure set ``(a, b) U [c, d] U {e}`` as ``(lo, hi, lo_closed, hi_closed)`` with rational ends."""
    out = []
    for part in text.split(" U "):
        m = _PIECE.match(part.strip())
        if m is None:
            raise ValueError(f"unreadable failure set {text!r}")
        try:
            if m.group(1) is not None:
                v = fraction(m.group(1))
                out.append((v, v, True, True))
            else:
                out.append((fraction(m.group(3)), fraction(m.group(4)), m.group(2) == "[", m.group(5) == "]"))
        except ValueError:
            raise NotHere("a failure set with an algebraic end point is not re-derived here") from None
    return out


def _member(pieces, x: Fraction) -> bool:
    """Is ``x`` in the union of the pieces ``(lo, hi, lo closed, hi closed)`` (exact comparisons)?"""
    return any((lo < x or (lc and lo == x)) and (x < hi or (hc and x == hi)) for lo, hi, lc, hc in pieces)


def _failure_set_ok(ev, top, den, rel) -> bool:
    """Every root of the numerator and denominator of lhs - rhs is an end point of the stated pieces; on each open
    gap between end points the relation's truth is constant (no root inside, by Sturm) and decided at a rational
    point; each end point is decided exactly; membership in the stated set must match failure everywhere."""
    if len(_trim(top)) + len(_trim(den)) > MAX_STURM_DEGREE:
        raise NotHere(f"a failure set of a difference of degree above {MAX_STURM_DEGREE} is not re-derived here")
    pieces = _pieces(ev["failure_set"])
    ends = sorted({Fraction(0), Fraction(1)} | {e for lo, hi, _, _ in pieces for e in (lo, hi) if 0 < e < 1})
    Q = pl_mul(top, den)

    def fails(x):
        """Does the relation fail at ``x``? The sign of ``lhs - rhs`` is that of ``top * den`` (``den`` the product
        of the denominators, ``top/den`` the difference); a pole at ``x`` is refused (NotHere)."""
        d = _peval(den, x)
        if d == 0:
            raise NotHere("the difference has a pole at an end point of the failure set")
        v = _peval(top, x) * d
        return ((v > 0) - (v < 0)) not in _OK[rel]

    for a, b in itertools.pairwise(ends):
        if _roots_inside(Q, a, b):
            return False
        mid = (a + b) / 2
        if fails(mid) != _member(pieces, mid):
            return False
    return all(fails(e) == _member(pieces, e) for e in ends[1:-1])


def check(c: dict):
    """Re-check a ``relation`` certificate: the sign of ``lhs - rhs``, or its roots in alpha, exactly.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the relations decided, and why.

    Examples
    --------
    >>> ev = {"statement": "1/2 < 2/3", "lhs": "1/2", "rhs": "2/3", "relation": "<", "variable": None,
    ...       "difference": "-1/6", "failure_set": None, "sample_alpha": None}
    >>> check({"claim": "1/2 < 2/3", "verdict": "holds", "evidence": ev})
    ('confirmed', 1, 'sign(lhs - rhs) = -1: the relation < holds')
    >>> check({"claim": "1/2 < 2/3", "verdict": "holds", "evidence": {**ev, "difference": "1/6"}})[2]
    'the stated difference is not lhs - rhs'
    >>> check({"claim": "rho: 1/2 < 2/3", "verdict": "holds", "evidence": {**ev, "statement": "rho"}})[2]
    "sign(lhs - rhs) = -1: the relation < holds; the statement 'rho' is a label, not re-derived"
    """
    status, n, detail = _decide(c)
    ev = c["evidence"]
    if status == "confirmed" and ev["statement"] != f"{ev['lhs']} {ev['relation']} {ev['rhs']}":
        detail += label_note("statement", ev["statement"])        # the claim's fact is the formula after it
    return status, n, detail


def _decide(c: dict):
    """:func:`check` without the note on the statement."""
    ev = c["evidence"]
    if c["claim"] != claim_text(c):
        return "refuted", 0, "the claim is not the one its evidence states"
    if ev["variable"] not in (None, "alpha") or ev["relation"] not in _OK:
        return "refuted", 0, "the variable or the relation is not well formed"
    if ev["variable"] is None:
        if ev["failure_set"] is not None or ev["sample_alpha"] is not None:
            return "refuted", 0, "a failure set in alpha is stated for a relation between numbers"
        if sign(_add(value(ev["difference"]), _neg(_add(value(ev["lhs"]), _neg(value(ev["rhs"])))))) != 0:
            return "refuted", 0, "the stated difference is not lhs - rhs"
        return _check(c)
    ln, ld = poly_of(ev["lhs"])
    rn, rd = poly_of(ev["rhs"])
    dn, dd = poly_of(ev["difference"])
    top, den = pl_add(pl_mul(ln, rd), pl_neg(pl_mul(rn, ld))), pl_mul(ld, rd)
    if _trim(pl_add(pl_mul(dn, den), pl_neg(pl_mul(top, dd)))):
        return "refuted", 0, "the stated difference is not lhs - rhs (as rational functions of alpha)"
    if c["verdict"] == "holds":
        if ev["failure_set"] is not None or ev["sample_alpha"] is not None:
            return "refuted", 0, "a failure set is stated for a relation that holds"
        return _check(c)
    if ev["failure_set"] is None or not _failure_set_ok(ev, top, den, ev["relation"]):
        return "refuted", 0, "the stated failure set is not where the relation fails (Sturm sequences)"
    if ev["sample_alpha"] is not None and not _member(_pieces(ev["failure_set"]), fraction(ev["sample_alpha"])):
        return "refuted", 0, "the sample alpha is not in the failure set"
    status, n, detail = _check(c)
    return status, n, detail + "; the failure set re-derived exactly (every root is an end point, Sturm sequences)"


def _check(c: dict):
    """Re-check a relation certificate: without a variable, the exact sign of ``lhs - rhs``; a failure, at its
    rational sample alpha in (0, 1); an identity, coefficient by coefficient of the cross-multiplied difference;
    an inequality for every alpha, by Bernstein coefficients of the difference times the denominators' product."""
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
        a = fraction(ev["sample_alpha"])
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
    # (lhs - rhs) (ld rd)^2 = top ld rd: the same sign wherever lhs - rhs is defined; p >= 0 on [0, 1] then covers every
    # alpha in (0, 1)
    p = pl_mul(top, pl_mul(ld, rd))
    r = bernstein_nonneg(p if rel == ">=" else pl_neg(p))
    if r is None:
        raise NotHere("Bernstein subdivision did not separate the difference from 0")
    return ("confirmed" if r else "refuted"), 1, f"lhs {rel} rhs on [0, 1] " + \
        ("certified by Bernstein coefficients" if r else "FAILS")


def method_of(c: dict) -> str:
    """The method the verdict rests on (the dispatcher refutes another, or a precision).

    Exact root isolation for a relation for every alpha; for numbers exact rationals when the difference is
    rational, else the exact zero test with certified balls.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        ``"SYMBOLIC_ROOTS"``, ``"RATIONAL"`` or ``"TRANSCENDENCE_BALLS"``.

    Examples
    --------
    >>> [method_of({"evidence": {"variable": v, "difference": d}})
    ...  for v, d in (("alpha", "alpha - 1"), (None, "-1/6"), (None, "log(2) - 1"))]
    ['SYMBOLIC_ROOTS', 'RATIONAL', 'TRANSCENDENCE_BALLS']
    """
    ev = c["evidence"]
    return "SYMBOLIC_ROOTS" if ev["variable"] is not None else method_for([ev["difference"]])   # the one rule
