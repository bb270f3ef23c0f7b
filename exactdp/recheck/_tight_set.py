"""Where a tight-constraints mechanism exists, re-derived from a distance table over all of (0, 1) (ECP14).

A tight-constraints mechanism exists at ``alpha = e^(-eps)`` iff ``Phi z = 1`` has a solution ``z >= 0``
(ECP14 Props. 7-8; ``Phi`` need not be invertible).  This module re-derives the exact set of such ``alpha``
from the distances alone, with no exactdp code:

1. the coarsest equitable partition of the distance table (colour refinement; each point's cell and the
   counts of (cell, distance) it sees); ``Phi`` is symmetric, so a solution ``z >= 0`` exists iff the quotient
   ``Q x = 1`` has one ``x >= 0`` (average any solution over the cells);
2. ``Q`` as integer polynomials in ``t = alpha^(1/L)`` (``L`` the lcm of the distances' denominators), and
   ``x_A = num_A / det`` by fraction-free (Bareiss) elimination, every division checked exact;
3. the distinct roots in (0, 1) of ``det`` and of every ``g_A = num_A det`` are the roots of one square-free
   ``S``, isolated by Descartes' rule of signs in exact integers (Vincent's bisection, :func:`count`); on each
   gap between two roots every ``g_A`` has the sign
   it has at a rational sample of the gap; at a root ``r`` ``g_A(r) = 0`` iff ``gcd(g_A, S)`` has its root in
   ``r``'s interval; at a root of ``det`` (``Q(r)`` singular) ``Q(r) x = 1, x >= 0`` is decided by Gauss--Jordan
   over ``Q[t]/(f)``, ``f`` a divisor of ``S`` split whenever a zero test splits it (so every zero test is
   exact), and, with one free unknown, by exact signs at ``r`` of the ends of the interval the free unknown may
   take.

The work is counted before it is done (:data:`MAX_POINTS`, :data:`MAX_COST`, :data:`MAX_SET_DEGREE`): beyond
them the answer is :class:`~._kernel.TooLarge` at once.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import pairwise
from math import lcm

from . import _sturm as P
from ._kernel import NotHere, TooLarge, fraction

#: most points whose coarsest equitable partition is computed here (about n^2 per refinement round, n rounds)
MAX_POINTS = 200
#: most coefficient products of the fraction-free elimination, estimated as k^3 (k e + 1)^2 (``k`` cells,
#: ``e`` the largest exponent of ``t`` in ``Q``)
MAX_COST = 3_000_000
#: largest degree of the square-free polynomial whose roots in (0, 1) are isolated (the ends of the set)
MAX_SET_DEGREE = 60
#: most digits of a rational end read from a certificate
MAX_END_DIGITS = 200

_ROOT = re.compile(r"root of (.+) in \(([0-9/]+), ([0-9/]+)\)")


class Mismatch(ValueError):
    """The stated set differs from the re-derived one (the certificate is refuted)."""


def equitable_cells(codes: list) -> list:
    """The coarsest equitable partition of a distance-code table: ``cell[i]`` for every point (colour refinement).

    >>> equitable_cells([[0, 1, 2], [1, 0, 1], [2, 1, 0]])       # a path 0 - 1 - 2: the ends, the middle
    [0, 1, 0]
    """
    n = len(codes)
    cell = [0] * n
    count = 1
    while True:
        sig = [(cell[i], tuple(sorted(Counter((cell[j], codes[i][j]) for j in range(n)).items()))) for i in range(n)]
        ids: dict = {}
        new = [ids.setdefault(s, len(ids)) for s in sig]
        if len(ids) == count:
            return new
        cell, count = new, len(ids)


def _quotient(values: list, codes: list, cell: list):
    """``(Q, L)``: ``Q[A][B] = sum_{b in B} t^(L d(rep_A, b))`` (``"inf"``: no term), integer polynomials."""
    finite: list[Fraction | None] = []
    for v in values:
        if v == "inf":
            finite.append(None)
            continue
        try:
            if len(v) > MAX_END_DIGITS:
                raise TooLarge("a distance of more than 200 characters")
            finite.append(fraction(v))      # the kernel's one grammar for a rational read from a certificate
        except ValueError:
            raise NotHere("irrational distances: alpha^d is not a polynomial in a root of alpha") from None
    L = lcm(*(d.denominator for d in finite if d is not None))
    expo = [None if d is None else int(d * L) for d in finite]
    k = max(cell) + 1
    reps = [cell.index(a) for a in range(k)]
    e = max((x for x in expo if x is not None), default=0)
    cost = k ** 3 * (k * e + 1) ** 2
    if cost > MAX_COST or 2 * k * e > P.MAX_POLY_DEGREE:
        raise TooLarge(f"the existence set over (0, 1): {k} cells with powers of t up to {e} (about {cost:.1e} "
                       f"coefficient products, degree {2 * k * e}); the limits are {MAX_COST:.0e} and "
                       f"{P.MAX_POLY_DEGREE}")
    Q: list[list[list]] = [[[] for _ in range(k)] for _ in range(k)]
    for a, r in enumerate(reps):
        for j, c in enumerate(codes[r]):
            if expo[c] is not None:
                Q[a][cell[j]] = P.add(Q[a][cell[j]], P.mono(1, expo[c]))
    return Q, L


def _imul(p: list, q: list) -> list:
    """The product of two integer polynomials (coefficient lists, lowest degree first); empty is zero."""
    if not p or not q:
        return []
    out = [0] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


def _isub(p: list, q: list) -> list:
    """``p - q`` for integer polynomials, trimmed so that zero is the empty list."""
    n = max(len(p), len(q))
    out = [(p[i] if i < len(p) else 0) - (q[i] if i < len(q) else 0) for i in range(n)]
    while out and out[-1] == 0:
        out.pop()
    return out


def _idiv(p: list, q: list) -> list:
    """``p / q`` for integer polynomials when the division is exact (else ``ValueError``)."""
    r, out = list(p), [0] * max(len(p) - len(q) + 1, 0)
    while r and len(r) >= len(q):
        k = len(r) - len(q)
        c, m = divmod(r[-1], q[-1])
        if m:
            raise ValueError("an inexact division in fraction-free elimination")
        out[k] = c
        for i, v in enumerate(q):
            r[i + k] -= c * v
        while r and r[-1] == 0:
            r.pop()
    if r:
        raise ValueError("an inexact division in fraction-free elimination")
    return out


def _bareiss(Q: list):
    """``(det, nums)`` with ``Q x = 1`` solved as ``x_A = nums[A] / det`` (fraction-free Gauss--Jordan on integer
    polynomials, every division checked exact), or None when ``det`` is the zero polynomial."""
    k = len(Q)
    M = [[[int(c) for c in e] for e in row] + [[1]] for row in Q]
    prev = [1]
    for c in range(k):
        p = next((r for r in range(c, k) if M[r][c]), None)
        if p is None:
            return None
        M[c], M[p] = M[p], M[c]
        piv = M[c][c]
        for i in range(k):
            if i == c:
                continue
            mic = M[i][c]
            for j in range(k + 1):
                if j != c:
                    M[i][j] = _idiv(_isub(_imul(piv, M[i][j]), _imul(mic, M[c][j])), prev)
            M[i][c] = []
        prev = piv
    fr = lambda p: [Fraction(v, 1) for v in p]  # noqa: E731  (integers: two arguments never parse text)
    return fr(M[k - 1][k - 1]), [fr(M[i][k]) for i in range(k)]


# -- counting real roots by Descartes' rule of signs (exact, integer arithmetic) ---------------------------------

def _integral(p: list) -> list:
    """``p`` times the lcm of its denominators: integer coefficients, the same roots."""
    d = lcm(*(Fraction(c, 1).denominator for c in p)) if p else 1     # numbers, never text
    return [int(Fraction(c, 1) * d) for c in p]


def _variations(p: list, a: Fraction, b: Fraction) -> int:
    """Descartes' bound for the roots of ``p`` in ``(a, b)``: the sign variations of ``(1 + z)^n q(1/(1 + z))``,
    ``q(y) = p(a + (b - a) y)`` (Vincent; exact for 0 and 1 roots)."""
    n = len(p) - 1
    d = lcm(a.denominator, b.denominator)
    a1, w = int(a * d), int((b - a) * d)
    # q(y) d^n = sum_i c_i (a1 + w y)^i d^(n - i), by Horner in integers
    q = [p[n]]
    for i in range(n - 1, -1, -1):
        q = _isub(_imul(q, [a1, w]), [-p[i] * d ** (n - i)])
    r = list(reversed(q + [0] * (n + 1 - len(q))))            # y^n q(1/y)
    for i in range(n):                                          # Taylor shift y -> y + 1
        for j in range(n - 1, i - 1, -1):
            r[j] += r[j + 1]
    signs = [v > 0 for v in r if v]
    return sum(1 for u, v in pairwise(signs) if u != v)


def count(p: list, a: Fraction, b: Fraction) -> int:
    """The number of distinct roots of ``p`` in the open interval ``(a, b)`` (``p(a)``, ``p(b)`` non-zero):
    Descartes' rule on its square-free part, bisected until every piece has 0 or 1 sign variation."""
    if not p:
        raise ValueError("the zero polynomial has roots everywhere")
    if P.at(p, a) == 0 or P.at(p, b) == 0:
        raise ValueError("an end of the interval is a root")
    if len(p) - 1 > P.MAX_POLY_DEGREE:
        raise TooLarge(f"a polynomial of degree {len(p) - 1} > {P.MAX_POLY_DEGREE}")
    g = P.gcd(p, P.trim([i * p[i] for i in range(1, len(p))]))
    sq = _integral(P.divmod_(p, g)[0] if len(g) > 1 else p)
    total, todo = 0, [(a, b)]
    while todo:
        lo, hi = todo.pop()
        v = _variations(sq, lo, hi)
        if v <= 1:
            total += v
            continue
        m = _split(sq, lo, hi)
        todo += [(lo, m), (m, hi)]
    return total


def _split(p: list, a: Fraction, b: Fraction) -> Fraction:
    """A point of ``(a, b)`` near the middle that is not a root of ``p`` (finitely many are)."""
    for k in range(2, 40):
        m = a + (b - a) * Fraction(k // 2 + 1 if k % 2 else k // 2, k + 1) if k > 2 else (a + b) / 2
        if P.at(p, m) != 0:
            return m
    raise ValueError("no split point found")


def _sqfree(p: list) -> list:
    """The square-free part of ``p`` without the roots 0 and 1 (which are not in the open interval)."""
    p = P.trim(p)
    while p and p[0] == 0:
        p = p[1:]
    g = P.gcd(p, P.trim([i * p[i] for i in range(1, len(p))]))
    p = P.divmod_(p, g)[0] if len(g) > 1 else p
    while len(p) > 1 and P.at(p, Fraction(1)) == 0:
        p = P.divmod_(p, [Fraction(-1), Fraction(1)])[0]
    return p


def _isolate(S: list) -> list:
    """Disjoint rational intervals ``(a, b)`` (``S(a)``, ``S(b)`` non-zero), one per root of ``S`` in (0, 1)."""
    out = []
    todo = [(Fraction(0), Fraction(1))]
    Si = _integral(S)                            # S is square-free: Descartes' test isolates its roots
    while todo:
        a, b = todo.pop()
        v = _variations(Si, a, b)
        if v == 1:
            out.append((a, b))
        elif v > 1:
            m = _split(Si, a, b)
            todo += [(a, m), (m, b)]
    out.sort()
    for i, (a, b) in enumerate(out):             # no interval touches 0 or 1: their ends sample the outer gaps
        while a == 0:                            # the only root r of S in (0, b)
            m = b / 2
            if P.at(S, m) == 0:
                a = m / 2                        # r = m: (m/2, b) still isolates it
            elif count(S, m, b) == 1:
                a = m
            else:
                b = m
        while b == 1:
            m = (1 + a) / 2
            if P.at(S, m) == 0:
                b = (1 + m) / 2
            elif count(S, a, m) == 1:
                b = m
            else:
                a = m
        out[i] = (a, b)
    return out


class _Field:
    """Arithmetic at the root ``r`` of ``S`` in ``(a, b)``: polynomials modulo ``f``, ``f`` a divisor of ``S``
    with ``f(r) = 0``, split (D5 evaluation) whenever a zero test finds a proper factor."""

    def __init__(self, S: list, a: Fraction, b: Fraction):
        """The field at the root ``r`` of ``S``, the only root in ``(a, b)``; ``f`` starts as ``S`` and only shrinks."""
        self.f, self.a, self.b = S, a, b

    def red(self, h: list) -> list:
        """``h`` reduced modulo ``f`` (same value at ``r``, since ``f(r) = 0``)."""
        return P.divmod_(h, self.f)[1] if len(self.f) > 1 else []

    def is_zero(self, h: list) -> bool:
        """Is ``h(r) = 0``? ``h(r) = 0`` iff ``r`` is a root of ``g = gcd(h, f)``; as ``r`` is the only root of ``S``
        in ``(a, b)``, that is so iff ``g`` has a root there (:func:`count` is 1). Either way ``f`` is replaced by the
        factor (``g`` or ``f / g``) that still vanishes at ``r`` (dynamic evaluation, D5)."""
        h = self.red(h)
        if not h:
            return True
        g = P.gcd(h, self.f)
        if len(g) > 1 and count(g, self.a, self.b) == 1:
            self.f = g                           # r is a root of g: h = 0 at r
            return True
        if len(g) > 1:
            self.f = P.divmod_(self.f, g)[0]     # r is not a root of g: keep the factor that holds r
        return False

    def inv(self, h: list) -> list:
        """``1/h`` modulo ``f`` (``h(r)`` non-zero, so after :meth:`is_zero` ``h`` is prime to ``f``)."""
        r0, r1, s0, s1 = self.f, self.red(h), [], [Fraction(1)]
        while len(r1) > 1:
            q, r = P.divmod_(r0, r1)
            r0, r1, s0, s1 = r1, r, s1, P.add(s0, P.mul(q, s1), -1)
        if not r1:
            raise ValueError("not invertible")
        return self.red(P.scale(s1, 1 / r1[0]))

    def sign(self, h: list) -> int:
        """The exact sign of ``h(r)``: zero by :meth:`is_zero`; else the isolating interval is bisected (on the sign
        of ``f``, which changes across ``r`` only) until ``h`` has no root in it and not at its ends, where ``h``
        has one sign, read at ``a`` in fractions."""
        if self.is_zero(h):
            return 0
        h = self.red(h)
        a, b = self.a, self.b
        while P.at(h, a) == 0 or P.at(h, b) == 0 or count(h, a, b) > 0:
            m = (a + b) / 2
            fm = P.at(self.f, m)
            if fm == 0:
                a = b = m
                break
            if (P.at(self.f, a) > 0) != (fm > 0):
                b = m
            else:
                a = m
        v = P.at(h, a)
        return (v > 0) - (v < 0)


def _exists_singular(Q: list, S: list, a: Fraction, b: Fraction, det: list) -> bool:
    """Whether ``Q(r) x = 1`` has a solution ``x >= 0``, ``r`` the root of ``S`` in ``(a, b)`` with ``det(r) = 0``."""
    K = _Field(S, a, b)
    K.is_zero(det)                               # narrows f to a factor of det
    k = len(Q)
    M = [[list(Q[i][j]) for j in range(k)] + [[Fraction(1)]] for i in range(k)]
    pivots, row = [], 0
    for c in range(k):
        p = next((i for i in range(row, k) if not K.is_zero(M[i][c])), None)
        if p is None:
            continue
        M[row], M[p] = M[p], M[row]
        iv = K.inv(M[row][c])
        M[row] = [K.red(P.mul(h, iv)) for h in M[row]]
        for i in range(k):
            if i != row and not K.is_zero(M[i][c]):
                f_ = M[i][c]
                M[i] = [K.red(P.add(x, P.mul(f_, y), -1)) for x, y in zip(M[i], M[row], strict=True)]
            elif i != row:
                M[i][c] = []
        pivots.append(c)
        row += 1
    if any(not K.is_zero(M[i][k]) for i in range(row, k)):
        return False
    free = [c for c in range(k) if c not in pivots]
    if not free:
        return all(K.sign(M[i][k]) >= 0 for i in range(row))
    if len(free) > 1:
        raise NotHere("a singular point of Q with two free unknowns or more is not decided here")
    j = free[0]
    lo: list[list] = [[]]
    hi: list[list] = []
    for i in range(row):
        bv, R = M[i][k], M[i][j]
        sr = K.sign(R)
        if sr == 0:
            if K.sign(bv) < 0:
                return False
        else:
            (hi if sr > 0 else lo).append(K.red(P.mul(bv, K.inv(R))))
    return all(K.sign(P.add(h, low, -1)) >= 0 for h in hi for low in lo)


def _within_set_degree(S: list) -> None:
    """TooLarge as soon as the polynomial of all candidate ends has more than :data:`MAX_SET_DEGREE` roots."""
    if len(S) - 1 > MAX_SET_DEGREE:
        raise TooLarge(f"the existence set over (0, 1): the distinct roots of det Q and of every num_A det Q are "
                       f"those of a polynomial of degree {len(S) - 1} or more; the limit is {MAX_SET_DEGREE}")


def existence(values: list, codes: list):
    """``(L, roots, pieces)``: the set of ``t = alpha^(1/L)`` in (0, 1) where a tight-constraints mechanism exists.

    ``roots`` are the isolating intervals ``(a, b)`` of the distinct roots of ``S``; ``pieces`` are
    ``(lo, hi, lo_closed, hi_closed)`` with ends indices into ``[0, *roots, 1]`` (0 and ``len(roots) + 1`` the
    ends of (0, 1)).  :class:`~._kernel.TooLarge` beyond the limits, :class:`~._kernel.NotHere` for what is
    not decided here.

    >>> L, roots, pieces, S = existence(["0", "1", "2"], [[0, 1, 2], [1, 0, 1], [2, 1, 0]])    # a path
    >>> L, roots, pieces
    (1, [], [(0, 1, False, False)])
    """
    n = len(codes)
    if n > MAX_POINTS:
        raise TooLarge(f"the existence set over (0, 1) of {n} points: the limit is {MAX_POINTS}")
    cell = equitable_cells(codes)
    Q, L = _quotient(values, codes, cell)
    sol = _bareiss(Q)
    if sol is None:
        raise NotHere("the quotient is singular for every alpha")
    det, nums = sol
    gs = [P.mul(x, det) for x in nums if x]
    S = _sqfree(det)
    _within_set_degree(S)
    for x in nums:
        # the roots of g = num_A det are those of det (already in S) and of num_A: S grows by num_A's new roots
        # only, and is checked after every step, so a hostile table is refused before its gcds grow (issue 27:
        # an 8-point table took 96 s of CPU before the degree limit was checked once, at the end)
        if x:
            h = _sqfree(x)
            S = P.mul(S, P.divmod_(h, P.gcd(h, S))[0])
            _within_set_degree(S)
    S = P.scale(S, 1 / S[-1]) if S else S
    if len(S) - 1 > MAX_SET_DEGREE:
        raise TooLarge(f"the existence set over (0, 1): the distinct roots of det Q and of every num_A det Q are "
                       f"those of a polynomial of degree {len(S) - 1}; the limit is {MAX_SET_DEGREE} (root isolation "
                       "by Descartes' rule takes about a second at degree 44, far longer at 100)")
    roots = _isolate(S) if len(S) > 1 else []
    dS = P.gcd(det, S)
    samples = [roots[0][0] if roots else Fraction(1, 2)] + [b for _a, b in roots]
    gap = [all(P.at(g, s) > 0 for g in gs) for s in samples]
    atoms = [gap[0]]
    for i, (a, b) in enumerate(roots):
        if len(dS) > 1 and count(dS, a, b) == 1:
            ok = _exists_singular(Q, S, a, b, det)
        else:
            ok = all(P.at(g, b) > 0 or (len(P.gcd(g, S)) > 1 and count(P.gcd(g, S), a, b) == 1) for g in gs)
        atoms += [ok, gap[i + 1]]
    pieces = []
    i = 0
    while i < len(atoms):
        if not atoms[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(atoms) and atoms[j + 1]:
            j += 1
        lo, lc = (i // 2, False) if i % 2 == 0 else ((i + 1) // 2, True)
        hi, hc = (j // 2 + 1, False) if j % 2 == 0 else ((j + 1) // 2, True)
        pieces.append((lo, hi, lc, hc))
        i = j + 1
    return L, roots, pieces, S


def _rational(text: str) -> Fraction:
    """An interval end stated as text, read as an exact rational: longer than ``MAX_END_DIGITS`` characters is
    refused before parsing (TooLarge); text that is not a rational is a :class:`Mismatch` (refuted)."""
    if len(text) > MAX_END_DIGITS:
        raise TooLarge(f"an end of more than {MAX_END_DIGITS} characters")
    try:
        return fraction(text)
    except (ValueError, ZeroDivisionError):
        raise Mismatch(f"{text!r} is not an exact rational") from None


def end_value(text: str):
    """A stated end: ``Fraction`` or ``(poly, a, b)`` (checked: ``poly`` has exactly one root in ``(a, b)``)."""
    m = _ROOT.fullmatch(text)
    if m is None:
        return _rational(text)
    try:
        f = P.parse(m.group(1))
    except ValueError as e:
        raise Mismatch(str(e)) from None
    a, b = _rational(m.group(2)), _rational(m.group(3))
    if not (0 <= a < b <= 1 and P.at(f, a) != 0 and P.at(f, b) != 0 and count(f, a, b) == 1):
        raise Mismatch(f"{text!r}: the polynomial does not have exactly one root in that interval")
    return f, a, b


def same_root(end, S: list, a: Fraction, b: Fraction) -> bool:
    """Whether the stated ``end`` is the root of ``S`` isolated in ``(a, b)``."""
    if isinstance(end, Fraction):
        return a < end < b and P.at(S, end) == 0
    f, fa, fb = end
    lo, hi = max(a, fa), min(b, fb)
    if lo >= hi:
        return False
    g = P.gcd(f, S)
    return len(g) > 1 and count(g, lo, hi) == 1


def compare(stated: list, roots: list, pieces: list, S: list) -> list:
    """Check the stated pieces against the re-derived ones; return the stated ends (parsed) of each piece.

    Raises :class:`Mismatch` naming the first difference (count, an end, or whether an end is closed)."""
    if len(stated) != len(pieces):
        raise Mismatch(f"the set has {len(pieces)} piece(s), not {len(stated)}")
    ends = [Fraction(0), *roots, Fraction(1)]
    out = []
    for k, (p, (lo, hi, lc, hc)) in enumerate(zip(stated, pieces, strict=True)):
        pair = []
        for text, idx in ((p["lo"], lo), (p["hi"], hi)):
            if idx in (0, len(ends) - 1):
                if text != str(ends[idx]):
                    raise Mismatch(f"piece {k + 1}: the end {text!r} is not {ends[idx]}")
                pair.append(ends[idx])
                continue
            v = end_value(text)
            if not same_root(v, S, *ends[idx]):
                raise Mismatch(f"piece {k + 1}: the end {text!r} is not the re-derived end (a root of the "
                               f"polynomial in the interval ({ends[idx][0]}, {ends[idx][1]}))")
            pair.append(v)
        if (p["lo_closed"], p["hi_closed"]) != (lc, hc):
            raise Mismatch(f"piece {k + 1}: its ends are {'closed' if lc else 'open'} and "
                           f"{'closed' if hc else 'open'}, not as stated")
        out.append(pair)
    return out
