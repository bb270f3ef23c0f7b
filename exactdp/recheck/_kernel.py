"""The re-check kernel's core: exact numbers from text, refutation, limits (docs/architecture.md#sec-recheck-kernel).

Values in the exactdp grammar are parsed with Python's :mod:`ast` (no
``eval``) into :class:`fractions.Fraction`, sums of square roots (``_Q``) or
exponential-polynomial quotients (``_E``); a zero test is exact (collected
coefficients, by Lindemann--Weierstrass in Baker's form), and a non-zero sign
comes from :mod:`mpmath` interval arithmetic at rising precision.  Polynomials
in ``alpha`` are certified non-negative on [0, 1] by Bernstein coefficients.
This module imports only the standard library and mpmath.

**Bounded work.**  Before a value is built, :func:`_tree` measures its syntax tree (:func:`_measure`):
the bits of every rational it implies (numerator and denominator tracked separately through ``+ - * /``
and integer powers), the number of exponential terms a product or power can create, the radicands handed
to trial-division factoring, the size of every exponent and of ``exp`` arguments, and the nesting depth.
Beyond the limits below a value is answered :class:`TooLarge` (``not checkable: too large (...)``)
without being built; powers taken later (a level factor ``R^(d/D)``, ``alpha^d``) are measured the same way
(:func:`power_within_limit`).  Interval arithmetic uses a private :class:`mpmath.ctx_iv.MPIntervalContext` with an
explicit precision: nothing here reads or changes mpmath's global precision.
"""

from __future__ import annotations

import ast
import re
import sys
from contextlib import contextmanager
from fractions import Fraction
from functools import lru_cache
from math import comb

import mpmath
from mpmath.ctx_iv import MPIntervalContext


class NotHere(Exception):
    """The value is outside what this small kernel handles."""


class TooLarge(NotHere):
    """The certificate asks for more work than this kernel's stated limits (answered before doing it)."""


class Refuted(ValueError):
    """A stated fact that the kernel derives differently: the certificate is refuted, with this message.

    The one refutation of the kernel (every kind raises it, through :func:`refute_unless` or directly).  It is a
    ``ValueError`` so that a kind that does not catch it still answers ``refuted`` (malformed evidence), never
    ``confirmed``.

    Examples
    --------
    >>> try:
    ...     refute_unless(1 + 1 == 3, "1 + 1 is not 3")
    ... except Refuted as e:
    ...     print(e)
    1 + 1 is not 3
    """


# ---------------------------------------------------------------- limits ----
#: longest exact text this kernel parses (certificates come from files: bound the work)
MAX_TEXT = 100_000
#: nesting depth of a value's syntax tree
MAX_DEPTH = 60
#: bits of any rational a value implies (numerator and denominator, each)
MAX_BITS = 1 << 20
#: a power's exponent (|k|), and the degree of a polynomial in alpha
MAX_EXPONENT = 100_000
MAX_DEGREE = 2_000
#: degree of a polynomial certified non-negative by Bernstein coefficients (O(degree^2) per subdivision)
MAX_BERNSTEIN = 300
#: coefficient updates of one Bernstein test's subdivisions
MAX_BERNSTEIN_WORK = 2_000_000
#: exponential terms an exponential polynomial may reach
MAX_TERMS = 4_096
#: radicands factored by trial division (sqrt): at most 10^12, so at most 10^6 divisions
MAX_RADICAND = 10**12
#: bits of an ``exp`` argument (numerator and denominator)
MAX_EXP_BITS = 256
#: decimal digits of a ``MAX_BITS``-bit integer (2^20 log10 2 = 315,653), with a margin: what the kernel reads and
#: writes (Python's default int-string limit of 4,300 digits would refute a genuine sum of 20,000 bits)
MAX_INT_DIGITS = 320_000


@contextmanager
def readable_ints():
    """Let ``int(text)`` and ``str(int)`` reach :data:`MAX_INT_DIGITS` digits for the duration of one re-check
    (the interpreter-wide limit is restored afterwards; text lengths stay bounded by :data:`MAX_TEXT`).

    >>> with readable_ints():
    ...     len(str(10 ** 5000))
    5001
    """
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0 if old == 0 else max(old, MAX_INT_DIGITS))
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)
#: inequalities a certificate may ask to re-decide; cells of a code matrix
MAX_INEQUALITIES = 20_000_000
MAX_CELLS = 16_000_000


def within_limit(ok: bool, what: str) -> None:
    """Raise :class:`TooLarge` with ``what`` unless ``ok`` (the one way work limits are enforced, before the work)."""
    if not ok:
        raise TooLarge(what)


def refute_unless(ok: bool, why: str) -> None:
    """Raise :class:`Refuted` with ``why`` unless ``ok`` (a stated fact the kernel derives differently)."""
    if not ok:
        raise Refuted(why)


def _small_rational(node):
    """The exponent of a power when it is a small rational literal (``3``, ``-2``, ``1/2``, ``9^9``), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return Fraction(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _small_rational(node.operand)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Pow, ast.Mult, ast.Add, ast.Sub)):
        a, b = _small_rational(node.left), _small_rational(node.right)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Pow):
            within_limit(b.denominator == 1 and abs(b) <= 64 and abs(a.numerator) < 2**64 and a.denominator < 2**64,
                         "an exponent of an exponent beyond the limits")
            if a == 0 and b < 0:
                raise ZeroDivisionError("0 to a negative power")
            r = a ** int(b)
        elif isinstance(node.op, ast.Div):
            if b == 0:
                raise ZeroDivisionError("division by zero in an exponent")
            r = a / b
        else:
            r = {ast.Mult: a * b, ast.Add: a + b, ast.Sub: a - b}[type(node.op)]
        within_limit(abs(r.numerator) <= 10**30 and r.denominator <= 10**30, f"an exponent of {_bits(r)} bits")
        return r
    return None


def _sum_chain(node) -> list:
    """The terms of a left-nested chain ``t0 + t1 - t2 ...`` as ``[(1, t0), (1, t1), (-1, t2), ...]``, in order.

    The parser nests a sum of ``k`` terms ``k`` deep; reading it as one chain keeps a long sum of exponential
    terms within the nesting limit, which then bounds parentheses, powers and calls only."""
    out = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        out.append((-1 if isinstance(node.op, ast.Sub) else 1, node.right))
        node = node.left
    out.append((1, node))
    out.reverse()
    return out


def _bits(r: Fraction) -> int:
    """Bits of ``r`` (numerator plus denominator): the size that the limits on rationals (``MAX_BITS``) count."""
    return abs(r.numerator).bit_length() + r.denominator.bit_length()


def _measure(node, alpha_bits: int = 64, depth: int = 0):
    """``(num_bits, den_bits, terms)`` bounding what :func:`_val` builds from ``node``; :class:`TooLarge`
    beyond the limits.  Bits of a sum: ``max(n1 + d2, n2 + d1) + 1`` over ``d1 + d2`` (and so on), valid
    bounds for fractions; terms of a product multiply, of a power ``k`` at most ``C(t + k - 1, k)``."""
    within_limit(depth <= MAX_DEPTH, f"a value nested more than {MAX_DEPTH} deep")
    if isinstance(node, ast.Constant):
        if type(node.value) is int:
            return max(1, node.value.bit_length()), 1, 1
        return 1, 1, 1                                   # rejected by _val
    if isinstance(node, ast.Name):
        return alpha_bits, alpha_bits, 1
    if isinstance(node, ast.UnaryOp):
        return _measure(node.operand, alpha_bits, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        return _measure_sum(node, alpha_bits, depth)
    if isinstance(node, ast.BinOp):
        n1, d1, t1 = _measure(node.left, alpha_bits, depth + 1)
        if isinstance(node.op, ast.Pow):
            k = _small_rational(node.right)
            if k is None:
                _measure(node.right, alpha_bits, depth + 1)
                return n1, d1, t1                        # a non-literal exponent: refused by _val
            p = abs(k.numerator)
            within_limit(p <= MAX_EXPONENT, f"an exponent {p} > {MAX_EXPONENT}")
            if k.denominator == 2:
                within_limit(n1 + d1 <= MAX_RADICAND.bit_length(), "a radicand of a half power beyond 10^12")
            n, d = (n1 * p, d1 * p) if k >= 0 else (d1 * p, n1 * p)
            t = 1 if t1 == 1 else min(t1 ** min(p, 64), comb(t1 + p - 1, p))
            out = (n, d, t)
        else:
            n2, d2, t2 = _measure(node.right, alpha_bits, depth + 1)
            if isinstance(node.op, (ast.Add, ast.Sub)):
                out = (max(n1 + d2, n2 + d1) + 1, d1 + d2, t1 + t2)
            elif isinstance(node.op, ast.Mult):
                out = (n1 + n2, d1 + d2, t1 * t2)
            else:
                out = (n1 + d2, d1 + n2, t1 * t2)
        within_limit(out[0] <= MAX_BITS and out[1] <= MAX_BITS, f"a number of more than {MAX_BITS} bits")
        within_limit(out[2] <= MAX_TERMS, f"more than {MAX_TERMS} exponential terms")
        return out
    if isinstance(node, ast.Call):
        if len(node.args) != 1:
            return 1, 1, 1                               # rejected by _val
        n, d, t = _measure(node.args[0], alpha_bits, depth + 1)
        name = getattr(node.func, "id", "")
        if name == "sqrt":
            within_limit(n <= MAX_RADICAND.bit_length() and d <= 1, "a radicand beyond 10^12 to factor")
            return n // 2 + 1, 1, 1
        if name == "exp":
            within_limit(n <= MAX_EXP_BITS and d <= MAX_EXP_BITS and t <= 64,
                         f"an exp argument beyond {MAX_EXP_BITS} bits")
            return 1, 1, 1
        return 1, 1, 1
    return 1, 1, 1                                       # other syntax: refused by _val


def _measure_sum(node, alpha_bits: int, depth: int):
    """:func:`_measure` of a chain ``t0 + t1 - t2 ...``: one level, its terms one more (not a level per term,
    so long sums of exponential terms stay readable); the bounds are combined term by term, left to right, as
    for the nested form."""
    first, *rest = _sum_chain(node)
    n1, d1, t1 = _measure(first[1], alpha_bits, depth + 1)
    for _, term in rest:
        n2, d2, t2 = _measure(term, alpha_bits, depth + 1)
        n1, d1, t1 = max(n1 + d2, n2 + d1) + 1, d1 + d2, t1 + t2
        within_limit(n1 <= MAX_BITS and d1 <= MAX_BITS, f"a number of more than {MAX_BITS} bits")
        within_limit(t1 <= MAX_TERMS, f"more than {MAX_TERMS} exponential terms")
    return n1, d1, t1


#: what the exactdp grammar writes: ASCII, no digit-group underscores, no hexadecimal/octal/binary literals (the
#: Python syntax the parser would otherwise accept: ``1_0``, ``0x10``, a Bengali four read as 4)
_NOT_GRAMMAR = re.compile(r"[^\x20-\x7e]|_|\b0[xXoObB]")


def _tree(text: str, alpha_bits: int = 64):
    """The syntax tree of ``text``, measured before anything is built (:func:`_measure`).

    Refusals, in order: text that is not a string or too long (NotHere); characters outside the grammar
    (ValueError, so malformed evidence is refuted, :data:`_NOT_GRAMMAR`); a tree beyond a limit (TooLarge, said
    with the text). Python's :mod:`ast` parses, nothing is evaluated; ``^`` is read as ``**``."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise NotHere("a value is not text of at most 100,000 characters")
    if _NOT_GRAMMAR.search(text):
        raise ValueError(f"{text[:40]!r} is not a number of the exactdp grammar (ASCII digits and operators only)")
    try:
        node = ast.parse(text.replace("^", "**"), mode="eval").body
        _measure(node, alpha_bits)
    except TooLarge as e:
        raise TooLarge(f"{e} in {text[:40]!r}") from None
    except SyntaxError:                                  # not an expression at all: malformed evidence (refuted)
        raise ValueError(f"{text[:40]!r} is not a number of the exactdp grammar") from None
    except (RecursionError, MemoryError, ValueError, ZeroDivisionError) as e:
        raise NotHere(f"unreadable value {text[:40]!r}: {type(e).__name__}") from None
    return node


@lru_cache(maxsize=4096)
def _sqf(n: int):
    """``(k, s)`` with ``n = k^2 s`` and ``s`` squarefree, by trial division, so that ``sqrt(n) = k sqrt(s)``.

    Square roots are kept as ``{squarefree s: c}`` (:class:`_Q`); a unique squarefree part makes equal numbers
    equal keys, which the exact zero test needs. The radicand is refused beyond 10^12 (trial division to 10^6)."""
    within_limit(n <= MAX_RADICAND, "a radicand beyond 10^12 to factor")
    k, s, p = 1, 1, 2
    # trial division up to sqrt(n) <= 10^6 (n was refused above 10^12): the unique squarefree part
    while p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        k *= p ** (e // 2)
        s *= p ** (e % 2)
        p += 1
    return k, s * n


class _Q:
    """Exponents: {squarefree s: Fraction} meaning sum c_s sqrt(s)."""

    def __init__(self, d):
        """Keep only the non-zero coefficients, so that an exactly zero sum is the empty map."""
        self.d = {s: c for s, c in d.items() if c != 0}

    def key(self):
        """A hashable canonical form: the exponent key of ``e^(sum c sqrt(s))`` (see :func:`_kadd`)."""
        return tuple(sorted(self.d.items()))


class _E:
    """Exponential polynomial quotient: num/den, each {exponent key: Fraction}."""

    def __init__(self, num, den=None):
        """Numerator and denominator as ``{exponent key: Fraction}``, zeros dropped; the denominator defaults to 1."""
        self.num = {k: c for k, c in num.items() if c != 0}
        self.den = den if den is not None else {(): Fraction(1)}


class _P:
    """``a + b c`` with ``c = R^(p/q)`` (``E = ('pow', R, p, q)``, :func:`_level_factor`) and ``a``, ``b`` fractions:
    the numbers of a rational question at ``e^eps = R^(1/D)``, ``D > 1`` (a hockey-stick ``A - B c``). Sums and
    rational multiples stay in this form; a sign compares ``|a|^q`` with ``|b|^q R^p`` in fractions, so the
    method is still ``RATIONAL`` (docs/architecture.md#sec-method-rule)."""

    def __init__(self, a, b, E):
        """Hold ``a + b c`` with ``E = ('pow', R, p, q)`` naming ``c = R^(p/q)``."""
        self.a, self.b, self.E = a, b, E

    def sign(self) -> int:
        """The exact sign of ``a + b c``. With ``a`` and ``b`` of opposite signs it compares ``|a|^q`` with ``|b|^q
        R^p`` (``c^q = R^p``, ``c > 0``; ``x -> x^q`` is increasing on non-negatives), all in fractions, after
        :func:`power_within_limit` has measured the powers."""
        _, R, p, q = self.E
        sa, sb = (self.a > 0) - (self.a < 0), (self.b > 0) - (self.b < 0)
        # a or b zero, or both of one sign: that sign, with no power taken (c > 0)
        if sa == 0 or sb == 0 or sa == sb:
            return sa or sb
        for v in (self.a, self.b):
            power_within_limit(v, q, "a comparison at a fractional power")
        lhs, rhs = abs(self.a) ** q, abs(self.b) ** q * R**p
        return sa * ((lhs > rhs) - (lhs < rhs))


def _p_op(a, b, op):
    """``a op b`` with one of them a :class:`_P` (over the same ``c``), the other one too or a fraction."""
    E = a.E if isinstance(a, _P) else b.E
    (a1, b1), (a2, b2) = [(v.a, v.b) if isinstance(v, _P) and v.E == E else (v, Fraction(0))
                          if isinstance(v, Fraction) else _not_here_p() for v in (a, b)]
    if op == "+":
        return _P(a1 + a2, b1 + b2, E)
    if op == "*" and b1 * b2 == 0:
        return _P(a1 * a2, a1 * b2 + b1 * a2, E)
    if op == "/" and b2 == 0:
        return _P(a1 / a2, b1 / a2, E)
    raise NotHere("a product of two powers R^(p/q)")


def _not_here_p():
    """Refuse (NotHere) an operation on a :class:`_P` whose other operand is not a fraction or a :class:`_P` at the
    same power ``c``."""
    raise NotHere("a power R^(p/q) with a number other than a fraction or the same power")


def _padd(p, q, s=1):
    """``p + s q`` for two exponential polynomials ``{exponent key: coefficient}``, zero coefficients dropped.

    Dropping zeros keeps the representation canonical: an exactly zero polynomial is ``{}`` (the zero test)."""
    out = dict(p)
    for k, c in q.items():
        out[k] = out.get(k, 0) + s * c
    return {k: c for k, c in out.items() if c != 0}


def _kadd(k1, k2):
    """The sum of two exponent keys (``e^k1 e^k2 = e^(k1 + k2)``): sorted ``(squarefree s, c)`` pairs meaning ``sum c
    sqrt(s)``, zero coefficients dropped, so that equal exponents are equal keys."""
    d = dict(k1)
    for s, c in k2:
        d[s] = d.get(s, 0) + c
    return tuple(sorted((s, c) for s, c in d.items() if c != 0))


def _pmul(p, q):
    """The product of two exponential polynomials, collecting terms whose exponents are equal keys.

    Collection is exact because distinct keys are distinct real exponents (squarefree parts are unique,
    :func:`_sqf`), so distinct ``e^k`` are linearly independent over the algebraic numbers
    (Lindemann--Weierstrass)."""
    out: dict[tuple, object] = {}
    for k1, c1 in p.items():
        for k2, c2 in q.items():
            k = _kadd(k1, k2)
            out[k] = out.get(k, 0) + c1 * c2
    return {k: c for k, c in out.items() if c != 0}


def _val(node, alpha=None):
    """Exact value: Fraction, _Q (algebraic exponent) or _E."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return Fraction(node.value)
    if isinstance(node, ast.Name) and node.id == "alpha":
        if alpha is None:
            raise NotHere("alpha without a value")
        return alpha
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _val(node.operand, alpha)
        return v if isinstance(node.op, ast.UAdd) else _neg(v)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        return _val_sum(node, alpha)
    if isinstance(node, ast.BinOp):
        a, b = _val(node.left, alpha), _val(node.right, alpha)
        if isinstance(node.op, ast.Pow):
            if isinstance(a, Fraction) and isinstance(b, Fraction) and b.denominator == 2 and a >= 0:
                return _half_power(a, b.numerator)  # a^(p/2) = sqrt(a)^p, a sum of square roots
            if isinstance(a, Fraction) and isinstance(b, Fraction) and b.denominator > 2 and a > 0:
                return _P(Fraction(0), Fraction(1), ("pow", a, b.numerator, b.denominator))  # signed by q-th powers
            if not isinstance(b, Fraction) or b.denominator != 1:
                raise NotHere("non-integer power")
            k = int(b)
            power_within_limit(a, k)                # measured before any of the k products is taken
            if isinstance(a, Fraction):
                return a**k
            out = _E({(): Fraction(1)})
            base = a if k >= 0 else _div(_E({(): Fraction(1)}), a)
            for _ in range(abs(k)):
                out = _mul(out, base)
            return out
        op = {ast.Add: _add, ast.Sub: lambda x, y: _add(x, _neg(y)), ast.Mult: _mul, ast.Div: _div}.get(type(node.op))
        if op is None:
            raise NotHere("operator")
        return op(a, b)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1 and not node.keywords:
        arg = _val(node.args[0], alpha)
        if node.func.id == "sqrt":
            if not isinstance(arg, Fraction) or arg.denominator != 1 or arg < 0:
                raise NotHere("sqrt of a non-integer")
            k, s = _sqf(int(arg))
            return Fraction(k) if s == 1 else _Q({s: Fraction(k)})
        if node.func.id == "exp":
            q = _Q({1: arg}) if isinstance(arg, Fraction) else arg
            if not isinstance(q, _Q):
                raise NotHere("exp of a non-algebraic argument")
            if not q.d:
                return Fraction(1)
            return _E({q.key(): Fraction(1)})     # e^q, q != 0 algebraic: transcendental (Lindemann), kept symbolic
    raise NotHere(f"unsupported syntax {ast.dump(node)[:40]}")


def _val_sum(node, alpha=None):
    """:func:`_val` of a chain ``t0 + t1 - t2 ...``: the terms with denominator 1 are summed in place (linear
    time), the others added one by one; exact, so the order does not change the value."""
    first, *rest = _sum_chain(node)
    acc = _val(first[1], alpha)
    poly: dict = {}
    for sgn, term in rest:
        v = _val(term, alpha)
        v = v if sgn > 0 else _neg(v)
        if isinstance(v, _E) and v.den == {(): 1}:
            for k, c in v.num.items():
                poly[k] = poly.get(k, 0) + c
        else:
            acc = _add(acc, v)
    return _add(acc, _E(poly)) if poly else acc


def _half_power(a: Fraction, p: int):
    """``a^(p/2)`` for a rational ``a >= 0`` and an odd integer ``p``: ``a^((p-1)/2) * sqrt(a)``."""
    k, sq = _sqf(a.numerator * a.denominator)      # sqrt(n/d) = sqrt(n d)/d = k sqrt(sq)/d
    root = Fraction(k, a.denominator)
    whole = a ** ((p - 1) // 2) if p >= 1 else 1 / a ** ((1 - p) // 2)
    return whole * root if sq == 1 else _Q({sq: whole * root})


def _neg(v):
    """``-v`` for every kind of kernel value (fraction, :class:`_P`, :class:`_Q`, :class:`_E`)."""
    if isinstance(v, Fraction):
        return -v
    if isinstance(v, _P):
        return _P(-v.a, -v.b, v.E)
    if isinstance(v, _Q):
        return _Q({s: -c for s, c in v.d.items()})
    return _E({k: -c for k, c in v.num.items()}, v.den)


def _asE(v):
    """``v`` as an exponential-polynomial quotient :class:`_E` (a fraction is the constant term).

    Refuses (NotHere) sums of square roots and :class:`_P` numbers: an :class:`_E`'s coefficients are fractions,
    so neither has a form there."""
    if isinstance(v, Fraction):
        return _E({(): v} if v else {})
    if isinstance(v, (_Q, _P)):
        raise NotHere("algebraic number as a probability")
    return v


def _add(a, b):
    """``a + b`` exactly, in the smallest form that holds both: fractions stay fractions, :class:`_P` numbers stay
    over their ``c``, sums of square roots stay :class:`_Q`, anything else becomes an :class:`_E` quotient (over a
    common denominator only when the denominators differ)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
    if isinstance(a, _P) or isinstance(b, _P):
        return _p_op(a, b, "+")
    if isinstance(a, (_Q, Fraction)) and isinstance(b, (_Q, Fraction)):
        qa = a if isinstance(a, _Q) else _Q({1: a})
        qb = b if isinstance(b, _Q) else _Q({1: b})
        d = dict(qa.d)
        for s, c in qb.d.items():
            d[s] = d.get(s, 0) + c
        return _Q(d)
    a, b = _asE(a), _asE(b)
    if a.den == b.den:
        return _E(_padd(a.num, b.num), a.den)
    return _E(_padd(_pmul(a.num, b.den), _pmul(b.num, a.den)), _pmul(a.den, b.den))


def _mul(a, b):
    """``a * b`` exactly, in the smallest form that holds both (as :func:`_add`)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    if isinstance(a, _P) or isinstance(b, _P):
        return _p_op(a, b, "*")
    if isinstance(a, _Q) and isinstance(b, Fraction):
        return _Q({s: c * b for s, c in a.d.items()})
    if isinstance(b, _Q) and isinstance(a, Fraction):
        return _Q({s: c * a for s, c in b.d.items()})
    a, b = _asE(a), _asE(b)
    return _E(_pmul(a.num, b.num), _pmul(a.den, b.den))


def _div(a, b):
    """``a / b`` exactly, in the smallest form that holds both (as :func:`_add`). A zero fraction divisor
    raises ZeroDivisionError; an :class:`_E` divisor is not tested for zero here."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    if isinstance(a, _P) or isinstance(b, _P):
        return _p_op(a, b, "/")
    if isinstance(a, _Q) and isinstance(b, Fraction):
        return _Q({s: c / b for s, c in a.d.items()})
    a, b = _asE(a), _asE(b)
    return _E(_pmul(a.num, b.den), _pmul(a.den, b.num))


def _value(text, alpha=None):
    """The kernel value of ``text``, an :class:`_E` that is a constant quotient reduced to its Fraction (so that
    rational text stays rational)."""
    v = _val(_tree(text), alpha)
    if isinstance(v, _E) and len(v.num) <= 1 and all(k == () for k in v.num) and list(v.den) == [()]:
        return v.num.get((), Fraction(0)) / v.den[()]
    return v


# ------------------------------------------------------------- intervals ----
#: the kernel's own interval context: its precision is set explicitly, never mpmath's global one
IV = MPIntervalContext()


def _iv_key(k, ctx):
    """An interval enclosing ``e^k`` for an exponent key ``k`` (``sum c sqrt(s)``), in the interval context ``ctx``."""
    return ctx.exp(sum((ctx.mpf(c.numerator) / c.denominator) * ctx.sqrt(s) for s, c in k)
                   if k else ctx.mpf(0))


def _iv(v, ctx=None):
    """An interval enclosing ``v`` in the interval context ``ctx`` (at that context's precision; ``None``:
    mpmath's global ``mpmath.iv``, for callers that manage its precision themselves)."""
    ctx = mpmath.iv if ctx is None else ctx
    if isinstance(v, Fraction):
        return ctx.mpf(v.numerator) / v.denominator
    if isinstance(v, _Q):
        return sum((ctx.mpf(c.numerator) / c.denominator) * ctx.sqrt(s) for s, c in v.d.items())
    if isinstance(v, _P):
        _, R, p, q = v.E
        return _iv(v.a, ctx) + _iv(v.b, ctx) * _iv(R, ctx) ** (ctx.mpf(p) / q)

    def ev(p):
        """An interval enclosing the exponential polynomial ``p`` (sum of ``c e^k``)."""
        return sum((ctx.mpf(c.numerator) / c.denominator) * _iv_key(k, ctx) for k, c in p.items()) \
            if p else ctx.mpf(0)
    return ev(v.num) / ev(v.den)


def _sign(v) -> int:
    """Sign of an exact value: exact zero test (collected coefficients), then intervals at rising precision
    in the kernel's private context :data:`IV`."""
    if isinstance(v, Fraction):
        return (v > 0) - (v < 0)
    if isinstance(v, _P):
        return v.sign()
    if isinstance(v, _E) and not v.num:
        return 0
    if isinstance(v, _Q) and not v.d:
        return 0
    # v is not zero here: a non-empty collected sum of distinct e^k is non-zero (Lindemann--Weierstrass; distinct keys,
    # _sqf), and so is one of c sqrt(s) over distinct squarefree s (linearly independent over Q); rising precision
    # separates it from 0; an interval decides a sign only when it excludes 0, the last precision answers NotHere
    for dps in (30, 60, 120, 240, 480, 960):
        IV.dps = dps
        x = _iv(v, IV)
        if x.a > 0:
            return 1
        if x.b < 0:
            return -1
    raise NotHere("sign not separated by intervals")


def _size(v) -> tuple:
    """``(bits, terms)`` of a built value: the largest coefficient's bits and the number of terms."""
    if isinstance(v, Fraction):
        return _bits(v), 1
    if isinstance(v, _Q):
        return max((_bits(c) for c in v.d.values()), default=1), max(1, len(v.d))
    if isinstance(v, _P):
        return max(_bits(v.a), _bits(v.b)), 2
    cs = list(v.num.values()) + list(v.den.values())
    return max((_bits(c) for c in cs), default=1), max(1, len(v.num), len(v.den))


def power_within_limit(v, k, what: str = "a power") -> None:
    """:class:`TooLarge` unless ``v^k`` stays within the limits (checked before it is built)."""
    k = abs(int(k))
    within_limit(k <= MAX_EXPONENT, f"{what} with exponent {k} > {MAX_EXPONENT}")
    b, t = _size(v)
    within_limit(b * k <= MAX_BITS, f"{what}: about {b * k} bits > {MAX_BITS}")
    within_limit(t == 1 or min(t ** min(k, 64), comb(t + k - 1, k)) <= MAX_TERMS,
                 f"{what}: more than {MAX_TERMS} terms")


# ------------------------------------------------------------ levels ----
def _level_factor(level_ev, d):
    """e^(eps d) as a value of this kernel, or ('pow', R, p, q) for R^(p/q)."""
    eps = level_ev.get("eps")
    if eps is not None:
        e = _val(_tree(eps))
        dd = _val(_tree(d))
        if isinstance(e, Fraction) and isinstance(dd, Fraction):
            prod = e * dd
            return Fraction(1) if prod == 0 else _E({((1, prod),): Fraction(1)})
        if isinstance(e, Fraction) or isinstance(dd, Fraction):
            q = _mul(e if isinstance(e, _Q) else _Q({1: e}), dd) if isinstance(dd, Fraction) else \
                _mul(dd, e)
            return _E({q.key(): Fraction(1)})
        raise NotHere("eps and distance both irrational")
    R = _value(level_ev["R"])
    k = _ratio(_val(_tree(d)), _val(_tree(level_ev["D"])))
    power_within_limit(R, k.numerator, "the level factor R^(d/D)")
    within_limit(k.denominator <= MAX_EXPONENT, f"the level factor R^(d/D) with d/D = {k}")
    if k.denominator == 1:
        return R ** int(k) if isinstance(R, Fraction) else _mul(R, Fraction(1)) if k == 1 else _powE(R, int(k))
    return ("pow", R, k.numerator, k.denominator)


def level_value(level_ev, d):
    """``e^(eps d)`` as a value: :func:`_level_factor`, a power ``R^(p/q)`` as the :class:`_P` ``0 + 1 c``."""
    E = _level_factor(level_ev, d)
    return _root(E[1], E[2], E[3]) if isinstance(E, tuple) else E


def _root(R, p: int, q: int):
    """``R^(p/q)`` as the text ``R^(p/q)`` reads: a sum of square roots for ``q = 2``, else a :class:`_P`."""
    if not isinstance(R, Fraction):
        raise NotHere("a power R^(p/q) of an irrational R")
    return _half_power(R, p) if q == 2 else _P(Fraction(0), Fraction(1), ("pow", R, p, q))


def _ratio(d, D) -> Fraction:
    """``d / D`` for two sums of square roots, when it is rational (else NotHere)."""
    if isinstance(d, Fraction) and isinstance(D, Fraction):
        return d / D
    qd = d if isinstance(d, _Q) else _Q({1: d}) if isinstance(d, Fraction) else None
    qD = D if isinstance(D, _Q) else _Q({1: D}) if isinstance(D, Fraction) else None
    if qd is None or qD is None or not qD.d or set(qd.d) != set(qD.d):
        raise NotHere("irrational exponent ratio d/D")
    ks = {qd.d[s] / qD.d[s] for s in qd.d}
    if len(ks) != 1:
        raise NotHere("irrational exponent ratio d/D")
    return ks.pop()


def _powE(v, k):
    """``v^k`` for a natural ``k``, by ``k`` exact products (``k`` was measured by the caller,
    :func:`power_within_limit`)."""
    out = _E({(): Fraction(1)})
    for _ in range(k):
        out = _mul(out, v)
    return out


def _cmp(a, b, E):
    """sign(a - E b) with E from :func:`_level_factor`."""
    if isinstance(E, tuple):
        _, R, p, q = E
        for v in (a, b):
            power_within_limit(v, q, "a comparison at a fractional power")
        lhs = _powE(_asE(a), q) if not isinstance(a, Fraction) else a**q
        rb = _powE(_asE(b), q) if not isinstance(b, Fraction) else b**q
        Rp = R**p if isinstance(R, Fraction) else _powE(R, p)
        return _sign(_add(lhs, _neg(_mul(Rp, rb))))
    return _sign(_add(a, _neg(_mul(E, b))))



# ------------------------------------------------------- polynomials in alpha ----
def _poly_of(text):
    """Rational function of alpha as (num, den) coefficient lists (integer powers only)."""
    node = _tree(text)

    def pv(n):
        """The node ``n`` as ``(numerator, denominator)`` coefficient lists in ``alpha``: integers, ``alpha``, ``+ -
        * /`` and integer powers only (NotHere otherwise); the degree of a power is measured first."""
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return ([Fraction(n.value)], [Fraction(1)])
        if isinstance(n, ast.Name) and n.id == "alpha":
            return ([Fraction(0), Fraction(1)], [Fraction(1)])
        if isinstance(n, ast.UnaryOp):
            a = pv(n.operand)
            return (_pl_neg(a[0]), a[1]) if isinstance(n.op, ast.USub) else a
        if isinstance(n, ast.BinOp):
            a = pv(n.left)
            if isinstance(n.op, ast.Pow):
                if not (isinstance(n.right, ast.Constant) and isinstance(n.right.value, int)):
                    raise NotHere("non-integer power of alpha")
                k = n.right.value
                within_limit(abs(k) * (max(len(a[0]), len(a[1])) - 1) <= MAX_DEGREE,
                             f"a polynomial in alpha of degree above {MAX_DEGREE}")
                num, den = ([Fraction(1)], [Fraction(1)])
                base = a if k >= 0 else (a[1], a[0])
                for _ in range(abs(k)):
                    num, den = _pl_mul(num, base[0]), _pl_mul(den, base[1])
                return num, den
            if isinstance(n.right, ast.UnaryOp) and isinstance(n.op, ast.Pow):  # pragma: no cover
                raise NotHere("power")
            b = pv(n.right)
            if isinstance(n.op, ast.Add):
                return _pl_add(_pl_mul(a[0], b[1]), _pl_mul(b[0], a[1])), _pl_mul(a[1], b[1])
            if isinstance(n.op, ast.Sub):
                return _pl_add(_pl_mul(a[0], b[1]), _pl_neg(_pl_mul(b[0], a[1]))), _pl_mul(a[1], b[1])
            if isinstance(n.op, ast.Mult):
                return _pl_mul(a[0], b[0]), _pl_mul(a[1], b[1])
            if isinstance(n.op, ast.Div):
                return _pl_mul(a[0], b[1]), _pl_mul(a[1], b[0])
        raise NotHere("unsupported syntax in alpha")
    return pv(node)


def _pl_add(p, q):
    """The sum of two polynomials given as coefficient lists (lowest degree first)."""
    n = max(len(p), len(q))
    return [(p[i] if i < len(p) else 0) + (q[i] if i < len(q) else 0) for i in range(n)]


def _pl_neg(p):
    """The negation of a polynomial given as a coefficient list."""
    return [-c for c in p]


def _pl_mul(p, q):
    """The product of two polynomials given as coefficient lists (lowest degree first), exactly in fractions."""
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


def _bernstein_nonneg(p, depth=12, strict: bool = False) -> object:
    """True if p >= 0 on [0,1] (``strict``: p > 0) is certified by Bernstein coefficients (with subdivision);
    False if p is negative (``strict``: not positive) at an end of a piece; None if undecided.  The work
    (coefficient updates of de Casteljau's splits) is bounded by ``MAX_BERNSTEIN_WORK``."""
    while len(p) > 1 and p[-1] == 0:
        p = p[:-1]
    if all(c == 0 for c in p):
        return not strict
    n = len(p) - 1
    within_limit(n <= MAX_BERNSTEIN, f"a Bernstein test of degree {n} > {MAX_BERNSTEIN}")
    # p's Bernstein coefficients on [0, 1], exact: b_i = sum_k C(i,k)/C(n,k) p_k
    b = [sum(Fraction(comb(i, k), comb(n, k)) * p[k] for k in range(i + 1)) for i in range(n + 1)]
    work = [0]

    def ok(c):
        """Is the Bernstein coefficient ``c`` positive (``strict``) or non-negative?"""
        return c > 0 if strict else c >= 0

    def rec(b, lev):
        """True, False or None for the piece with Bernstein coefficients ``b``.

        All coefficients ok: the polynomial is ok on the piece (it is a convex combination of them). An end
        coefficient not ok: the polynomial's value at that end is not ok, so False is a proof. Otherwise split at
        the middle (de Casteljau, exact in fractions) down to ``lev`` levels; None when the depth runs out."""
        if all(ok(c) for c in b):
            return True
        if not ok(b[0]) or not ok(b[-1]):
            return False  # p is negative (not positive) at an end of this piece (value of the polynomial there)
        if lev == 0:
            return None
        work[0] += n * n // 2 + 1
        within_limit(work[0] <= MAX_BERNSTEIN_WORK, f"Bernstein subdivision beyond {MAX_BERNSTEIN_WORK} steps")
        # de Casteljau split at 1/2
        left, right, cur = [b[0]], [b[-1]], b
        while len(cur) > 1:
            cur = [(cur[i] + cur[i + 1]) / 2 for i in range(len(cur) - 1)]
            left.append(cur[0])
            right.append(cur[-1])
        r1 = rec(left, lev - 1)
        if r1 is False:
            return False
        r2 = rec(right[::-1], lev - 1)
        if r2 is False:
            return False
        return True if (r1 is True and r2 is True) else None
    return rec(b, depth)


# public names for the kind modules
value, sign, level_factor, compare, poly_of, pl_add, pl_mul, pl_neg, bernstein_nonneg = (
    _value, _sign, _level_factor, _cmp, _poly_of, _pl_add, _pl_mul, _pl_neg, _bernstein_nonneg)


def check_codes(codes, nvalues: int, what: str = "code") -> None:
    """Every entry of a code matrix is an ``int`` in ``[0, nvalues)`` (ValueError otherwise): a negative code
    would silently index the values from the end, a bool pass for an int."""
    if not isinstance(codes, list) or any(
            not isinstance(r, list) or (r and (set(map(type, r)) != {int} or min(r) < 0 or max(r) >= nvalues))
            for r in codes):
        raise ValueError(f"a {what} is not an integer in [0, {nvalues})")


def reduced_costs(cost, A_eq, y, A_ub, lam) -> list:
    """``c - A_eq^T y + A_ub^T lam`` of an LP ``min c.x, A_eq x = b_eq, A_ub x <= b_ub, x >= 0`` (sparse rows
    ``{j: a}``), in this kernel's exact arithmetic: non-negative exactly when the dual ``(y, lam)`` is feasible."""
    red = list(cost)
    for row, v in zip(A_eq, y, strict=True):
        for j, a in row.items():
            red[j] = _add(red[j], _neg(_mul(a, v)))
    for row, v in zip(A_ub, lam, strict=True):
        for j, a in row.items():
            red[j] = _add(red[j], _mul(a, v))
    return red


#: a rational or decimal as the producer writes one: ASCII digits, an optional sign, fraction bar, decimal point and
#: exponent, nothing else (``Fraction`` itself also reads spaces, underscores and non-ASCII digits)
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?:/[0-9]+)?")


def fraction(text) -> Fraction:
    """An exact rational from a certificate's text (an int or Fraction passes through): ASCII ``p``, ``p/q`` or a
    decimal; anything else (spaces, underscores, a look-alike digit from another script) is a ``ValueError``, so
    the field reads as malformed evidence (refuted).

    >>> fraction("-3/4"), fraction("0.25"), fraction(2)
    (Fraction(-3, 4), Fraction(1, 4), Fraction(2, 1))
    """
    if isinstance(text, (int, Fraction)) and not isinstance(text, bool):
        return Fraction(text)
    if not isinstance(text, str) or len(text) > MAX_TEXT or not _NUMBER.fullmatch(text):
        raise ValueError(f"{str(text)[:40]!r} is not a rational written in ASCII digits")
    return Fraction(text)


def rational(text: str) -> Fraction:
    """An exact rational from its text, or :class:`NotHere` (an irrational or transcendental number is outside
    the rational-regime checks that call this); text that is not a number at all is a ``ValueError``."""
    if isinstance(text, str) and _NOT_GRAMMAR.search(text):
        raise ValueError(f"{text[:40]!r} is not a number of the exactdp grammar (ASCII digits and operators only)")
    try:
        return fraction(text)
    except (ValueError, ZeroDivisionError):
        raise NotHere(f"{text!r} is irrational or transcendental; this check covers the rational regime") from None


def exp_of_eps(text: str):
    """``e^eps`` as a value of this kernel for ``eps`` written in the exactdp grammar: an algebraic number
    (``"1/2"``, ``"sqrt(2)"``: ``exp(eps)``), ``"log(R)"`` (``R``) or ``"log(R)/k"`` for an integer ``k``
    (``R^(1/k)``: a fraction when ``R`` is a ``k``-th power of a rational, else the :class:`_P` ``0 + 1 c``)."""
    node = _tree(text)
    div = None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.left, ast.Call):
        div = _val(node.right)
        node = node.left
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "log" and len(node.args) == 1:
        R = _val(node.args[0])
        if div is None or div == 1:
            return R
        if not (isinstance(div, Fraction) and div.denominator == 1 and div > 0 and isinstance(R, Fraction)):
            raise NotHere(f"e^eps for eps = {text} is not a value of this kernel")
        k = int(div)
        within_limit(k <= 64, f"a {k}-th root")
        num, den = _iroot(R.numerator, k), _iroot(R.denominator, k)
        if num is None or den is None:      # e^eps = R^(1/k) irrational: a _P (a square root for k = 2)
            return _root(R, 1, k)
        return Fraction(num, den)          # ints: ``/`` would make a float reach exact arithmetic
    if div is not None:
        raise NotHere(f"unsupported eps {text!r}")
    v = _val(_tree(text))
    if isinstance(v, Fraction):
        return Fraction(1) if v == 0 else _E({((1, v),): Fraction(1)})
    if isinstance(v, _Q):
        return _E({v.key(): Fraction(1)})
    raise NotHere(f"eps = {text} is not algebraic")


def _iroot(n: int, k: int):
    """The integer ``r >= 0`` with ``r^k = n``, or None (binary search; ``n`` of at most 4096 bits)."""
    if n < 0:
        return None
    within_limit(n.bit_length() <= 4096, "a root of a number beyond 4096 bits")
    lo, hi = 0, 1 << (n.bit_length() // k + 1)
    while lo < hi:
        mid = (lo + hi) // 2
        if mid ** k < n:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo ** k == n else None


def eps_sign(text: str) -> int:
    """The sign of ``eps`` written in the exactdp grammar: an algebraic number, or ``log(R)`` / ``log(R)/D``
    (the sign of ``R - 1`` times that of ``D``)."""
    node = _tree(text)
    div = Fraction(1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.left, ast.Call):
        div = _val(node.right)
        node = node.left
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "log" and len(node.args) == 1:
        return _sign(_add(_val(node.args[0]), Fraction(-1))) * _sign(div)
    return _sign(_val(_tree(text)))


# ------------------------------------------------------------------ stated values and labels ----
def same(text, v) -> bool:
    """Does the exact text ``text`` denote the kernel value ``v``?"""
    if not isinstance(text, str):
        return False
    return sign(_add(value(text), _neg(v))) == 0


def distinct_labels(labels, what: str) -> None:
    """Refute unless ``labels`` is a list of distinct strings (the ``what`` of a certificate: rows, outputs, ...).

    Labels name rows and columns; a repeated one would let two different rows be read as one."""
    refute_unless(isinstance(labels, list) and all(isinstance(x, str) for x in labels)
                  and len(set(labels)) == len(labels),
                  f"the {what} are not distinct text labels")


def is_fraction(text) -> bool:
    """Whether ``text`` is an exact rational in the kernel's one grammar (:func:`fraction`)."""
    try:
        fraction(text)
    except (ValueError, ZeroDivisionError, TypeError):
        return False
    return True
