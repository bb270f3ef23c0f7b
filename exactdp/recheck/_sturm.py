"""Polynomials in ``t`` over Fractions for the re-check: text, arithmetic, Sturm counts (no exactdp imports).

A polynomial is a list of Fractions, lowest degree first, without trailing zeros (``[]`` is 0).  Its text is
``"t^2 - 3*t + 1"``: integer coefficients, powers of ``t`` (the exactdp certificate's form); anything else is
refused (``ValueError``).  :func:`roots_in` counts the distinct real roots in an open interval by Sturm's
theorem (the negated-remainder sequence of ``p`` and ``p'``; the ends must not be roots).

>>> p = parse("t^2 - 2*t - 1")
>>> roots_in(p, Fraction(2), Fraction(3)), roots_in(p, Fraction(-1), Fraction(3))
(1, 2)
"""

from __future__ import annotations

import re
import math
from fractions import Fraction
from itertools import pairwise

from ._kernel import NotHere

#: largest degree re-checked here (Sturm sequences over Fractions grow quickly beyond)
MAX_POLY_DEGREE = 200
#: largest coefficient size (decimal digits) read from a certificate
MAX_DIGITS = 2_000

_TERM = re.compile(r"([+-]?)([0-9]+)?(\*?t(?:\^([0-9]+))?)?")


def parse(text: str) -> list:
    """The polynomial of ``text`` (see the module docstring); ``ValueError`` if it is not one."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"not a polynomial in t: {text!r}")
    if len(text) > MAX_POLY_DEGREE * (MAX_DIGITS + 8):
        raise NotHere("a polynomial text beyond this kernel's size limit")
    s = text.replace(" ", "")
    if text == "0":
        return []
    coeffs: dict = {}
    pos = 0
    first = True
    while pos < len(s):
        m = _TERM.match(s, pos)
        if m is None or m.end() == pos or (not first and not m.group(1)) or (m.group(2) is None and not m.group(3)):
            raise ValueError(f"not a polynomial in t: {text!r}")
        sign, num, mono, power = m.groups()
        if mono and mono.startswith("*") and num is None:
            raise ValueError(f"not a polynomial in t: {text!r}")
        if num is not None and len(num) > MAX_DIGITS:
            raise NotHere(f"a coefficient of more than {MAX_DIGITS} digits")
        c = int(num) if num is not None else 1
        if num is not None and mono and not mono.startswith("*"):
            raise ValueError(f"not a polynomial in t: {text!r}")
        k = (int(power) if power is not None else 1) if mono else 0
        if k > MAX_POLY_DEGREE:
            raise NotHere(f"a polynomial of degree {k} > {MAX_POLY_DEGREE}")
        if c == 0 or k in coeffs:
            raise ValueError(f"not a polynomial in t in the certificate's form: {text!r}")
        coeffs[k] = -c if sign == "-" else c
        pos = m.end()
        first = False
    out = trim([Fraction(coeffs.get(i, 0)) for i in range(max(coeffs) + 1)])
    if globals()["text"](out) != text:
        raise ValueError(f"not a polynomial in the certificate's form (descending powers, one space around + and -): "
                         f"{text!r}")
    return out


def text(p: list) -> str:
    """The certificate's text of an integer polynomial (the inverse of :func:`parse`)."""
    out: list[str] = []
    for k in range(len(p) - 1, -1, -1):
        c = p[k]
        if c == 0:
            continue
        mono = "" if k == 0 else ("t" if k == 1 else f"t^{k}")
        mag = abs(c)
        body = str(mag) if not mono else (mono if mag == 1 else f"{mag}*{mono}")
        out.append((("-" if c < 0 else "") if not out else ("- " if c < 0 else "+ ")) + body)
    return " ".join(out) if out else "0"


def trim(p: list) -> list:
    """Drop trailing zero coefficients."""
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return p


def add(p: list, q: list, s: int = 1) -> list:
    """``p + s q``."""
    n = max(len(p), len(q))
    return trim([(p[i] if i < len(p) else 0) + s * (q[i] if i < len(q) else 0) for i in range(n)])


def mul(p: list, q: list) -> list:
    """``p q``."""
    if not p or not q:
        return []
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return trim(out)


def mono(c, k: int) -> list:
    """``c t^k``."""
    return trim([Fraction(0)] * k + [Fraction(c)])


def scale(p: list, c) -> list:
    """``c p``."""
    return trim([c * v for v in p])


def at(p: list, x: Fraction) -> Fraction:
    """``p(x)`` (Horner)."""
    v = Fraction(0)
    for c in reversed(p):
        v = v * x + c
    return v


def divmod_(p: list, q: list):
    """``(quotient, remainder)`` over the rationals (``q`` non-zero)."""
    if not q:
        raise ZeroDivisionError("division by the zero polynomial")
    r, out = list(p), [Fraction(0)] * max(len(p) - len(q) + 1, 0)
    while len(r) >= len(q) and r:
        k = len(r) - len(q)
        f = r[-1] / q[-1]
        out[k] = f
        for i, c in enumerate(q):
            r[i + k] -= f * c
        r = trim(r)
    return trim(out), r


def gcd(p: list, q: list) -> list:
    """The monic greatest common divisor (``[]`` when both are zero)."""
    while q:
        p, q = q, divmod_(p, q)[1]
    return [c / p[-1] for c in p] if p else []


def squarefree(p: list) -> list:
    """The monic square-free part ``p / gcd(p, p')`` of a non-constant ``p``: the same real roots, each simple.

    >>> squarefree(parse("t^3 - t^2")) == parse("t^2 - t")
    True
    """
    q = divmod_(p, gcd(p, _deriv(p)))[0]
    return [c / q[-1] for c in q]


def _deriv(p: list) -> list:
    """The derivative of a polynomial (coefficient list, lowest degree first), trimmed."""
    return trim([i * p[i] for i in range(1, len(p))])


def _variations(seq: list, x: Fraction) -> int:
    """Sign variations of the Sturm sequence ``seq`` at ``x``, zeros skipped: Sturm's theorem counts the distinct
    real roots in ``(a, b]`` as ``V(a) - V(b)`` (exact, in fractions)."""
    signs = [s for s in ((v > 0) - (v < 0) for v in (at(p, x) for p in seq)) if s]
    return sum(1 for u, v in pairwise(signs) if u != v)


def roots_in(p: list, a: Fraction, b: Fraction) -> int:
    """The number of distinct real roots of ``p`` in ``(a, b)``; ``p(a)``, ``p(b)`` must be non-zero."""
    if not p:
        raise ValueError("the zero polynomial has roots everywhere")
    if len(p) - 1 > MAX_POLY_DEGREE:
        raise NotHere(f"a polynomial of degree {len(p) - 1} > {MAX_POLY_DEGREE}")
    if at(p, a) == 0 or at(p, b) == 0:
        raise ValueError("an end of the interval is a root")
    if len(p) == 1 or (a >= 0 and all(c >= 0 for c in p)) or (a >= 0 and all(c <= 0 for c in p)):
        return 0
    seq = [primitive(p), primitive(_deriv(p))]
    while len(seq[-1]) > 1:
        r = divmod_(seq[-2], seq[-1])[1]
        if not r:
            break
        seq.append(primitive(scale(r, -1)))
    return _variations(seq, a) - _variations(seq, b)


def primitive(p: list) -> list:
    """``p`` times the positive rational that makes its coefficients coprime integers (``[]`` for 0).  Sturm's
    theorem allows any positive factor on each member of the sequence (the signs at every point are unchanged),
    and without it the remainders' fractions grow so fast that a degree-100 sequence took minutes (an outsider's
    program)."""
    if not p:
        return []
    ints = [int(c * math.lcm(*(c.denominator for c in p))) for c in p]
    g = math.gcd(*ints)
    return [Fraction(v // g, 1) for v in ints]


#: Sturm counts spent separating the roots of one polynomial on an interval (:func:`nonneg_on`)
MAX_SEPARATIONS = 4_000


def _ends_divided(p: list, lo: Fraction, hi: Fraction) -> list:
    """``p`` with its roots at ``lo`` and ``hi`` divided out, signed so that it has the sign of ``p`` on the open
    ``(lo, hi)`` (``alpha - lo > 0`` there, ``alpha - hi < 0``: dividing by the latter flips the sign)."""
    q = trim(p)
    while q and at(q, lo) == 0:
        q = divmod_(q, [-lo, Fraction(1)])[0]
    while q and at(q, hi) == 0:
        q = scale(divmod_(q, [-hi, Fraction(1)])[0], -1)
    return q


def positive_inside(p: list, lo: Fraction, hi: Fraction) -> bool:
    """``p > 0`` on the open interval ``(lo, hi)``, decided exactly: no root inside (Sturm) once the roots at the
    ends are divided out, and positive at ``lo``.

    >>> p = parse("t^2 - t")
    >>> positive_inside(p, Fraction(-1), Fraction(0)), positive_inside(p, Fraction(0), Fraction(1))
    (True, False)
    """
    q = _ends_divided(p, lo, hi)
    return bool(q) and at(q, lo) > 0 and roots_in(q, lo, hi) == 0


def nonneg_on(p: list, lo: Fraction, hi: Fraction) -> bool:
    """``p >= 0`` on the closed interval ``[lo, hi]``, decided exactly where Bernstein coefficients stay undecided
    (a root of even multiplicity inside): the interval is cut at rational non-roots until each piece holds at most
    one root (Sturm counts); on each side of that root the sign is the sign at the piece's end, so ``p >= 0``
    iff it is positive at every cut (and ``>= 0`` at ``lo`` and ``hi``).

    >>> nonneg_on(parse("9*t^2 - 6*t + 1"), Fraction(0), Fraction(1))      # (3t - 1)^2: a double root at 1/3
    True
    >>> nonneg_on(parse("9*t^2 - 6*t"), Fraction(0), Fraction(1))
    False
    """
    if not trim(p):
        return True
    if at(p, lo) < 0 or at(p, hi) < 0:
        return False
    q = _ends_divided(p, lo, hi)
    if len(q) <= 1:
        return not q or q[0] > 0
    cuts, stack, spent = [], [(lo, hi)], 0
    while stack:
        a, b = stack.pop()
        spent += 1
        if spent > MAX_SEPARATIONS:
            raise NotHere(f"roots not separated in {MAX_SEPARATIONS} Sturm counts")
        if roots_in(q, a, b) <= 1:
            cuts += [a, b]
            continue
        k, m = 2, (a + b) / 2
        while at(q, m) == 0:                          # finitely many roots: another rational inside will do
            k += 1
            m = a + (b - a) / k
        stack += [(a, m), (m, b)]
    return all(at(q, x) > 0 for x in cuts)
