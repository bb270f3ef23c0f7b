"""The independent re-check kernel: exact numbers from text, with no exactdp code (DESIGN.md section 4).

Values in the exactdp grammar are parsed with Python's :mod:`ast` (no
``eval``) into :class:`fractions.Fraction`, sums of square roots (``_Q``) or
exponential-polynomial quotients (``_E``); a zero test is exact (collected
coefficients, by Lindemann--Weierstrass in Baker's form), and a non-zero sign
comes from :mod:`mpmath` interval arithmetic at rising precision.  Polynomials
in ``alpha`` are certified non-negative on [0, 1] by Bernstein coefficients.
This module imports only the standard library and mpmath.
"""

from __future__ import annotations

import ast
from fractions import Fraction

import mpmath




class NotHere(Exception):
    """The value is outside what this small kernel handles."""


# ---------------------------------------------------------------- parsing ----
#: longest exact text this kernel parses (certificates come from files: bound the work)
MAX_TEXT = 100_000


def _tree(text: str):
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise NotHere("a value is not text of at most 100,000 characters")
    try:
        return ast.parse(text.replace("^", "**"), mode="eval").body
    except (SyntaxError, RecursionError, MemoryError, ValueError) as e:
        raise NotHere(f"unreadable value {text[:40]!r}: {type(e).__name__}") from None


def _sqf(n: int):
    k, s, p = 1, 1, 2
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
        self.d = {s: c for s, c in d.items() if c != 0}

    def key(self):
        return tuple(sorted(self.d.items()))


class _E:
    """Exponential polynomial quotient: num/den, each {exponent key: Fraction}."""

    def __init__(self, num, den=None):
        self.num = {k: c for k, c in num.items() if c != 0}
        self.den = den if den is not None else {(): Fraction(1)}


def _padd(p, q, s=1):
    out = dict(p)
    for k, c in q.items():
        out[k] = out.get(k, 0) + s * c
    return {k: c for k, c in out.items() if c != 0}


def _kadd(k1, k2):
    d = dict(k1)
    for s, c in k2:
        d[s] = d.get(s, 0) + c
    return tuple(sorted((s, c) for s, c in d.items() if c != 0))


def _pmul(p, q):
    out = {}
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
    if isinstance(node, ast.BinOp):
        a, b = _val(node.left, alpha), _val(node.right, alpha)
        if isinstance(node.op, ast.Pow):
            if isinstance(a, Fraction) and isinstance(b, Fraction) and b.denominator == 2 and a >= 0:
                return _half_power(a, b.numerator)  # a^(p/2) = sqrt(a)^p, a sum of square roots
            if not isinstance(b, Fraction) or b.denominator != 1:
                raise NotHere("non-integer power")
            k = int(b)
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
            return _E({q.key(): Fraction(1)})
    raise NotHere(f"unsupported syntax {ast.dump(node)[:40]}")


def _half_power(a: Fraction, p: int):
    """``a^(p/2)`` for a rational ``a >= 0`` and an odd integer ``p``: ``a^((p-1)/2) * sqrt(a)``."""
    k, sq = _sqf(a.numerator * a.denominator)      # sqrt(n/d) = sqrt(n d)/d = k sqrt(sq)/d
    root = Fraction(k, a.denominator)
    whole = a ** ((p - 1) // 2) if p >= 1 else 1 / a ** ((1 - p) // 2)
    return whole * root if sq == 1 else _Q({sq: whole * root})


def _neg(v):
    if isinstance(v, Fraction):
        return -v
    if isinstance(v, _Q):
        return _Q({s: -c for s, c in v.d.items()})
    return _E({k: -c for k, c in v.num.items()}, v.den)


def _asE(v):
    if isinstance(v, Fraction):
        return _E({(): v} if v else {})
    if isinstance(v, _Q):
        raise NotHere("algebraic number as a probability")
    return v


def _add(a, b):
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a + b
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
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a * b
    if isinstance(a, _Q) and isinstance(b, Fraction):
        return _Q({s: c * b for s, c in a.d.items()})
    if isinstance(b, _Q) and isinstance(a, Fraction):
        return _Q({s: c * a for s, c in b.d.items()})
    a, b = _asE(a), _asE(b)
    return _E(_pmul(a.num, b.num), _pmul(a.den, b.den))


def _div(a, b):
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a / b
    if isinstance(a, _Q) and isinstance(b, Fraction):
        return _Q({s: c / b for s, c in a.d.items()})
    a, b = _asE(a), _asE(b)
    return _E(_pmul(a.num, b.den), _pmul(a.den, b.num))


def _value(text, alpha=None):
    v = _val(_tree(text), alpha)
    if isinstance(v, _E) and len(v.num) <= 1 and all(k == () for k in v.num) and list(v.den) == [()]:
        return v.num.get((), Fraction(0)) / v.den[()]
    return v


# ------------------------------------------------------------- intervals ----
def _iv_key(k):
    return mpmath.iv.exp(sum((mpmath.iv.mpf(c.numerator) / c.denominator) * mpmath.iv.sqrt(s) for s, c in k)
                         if k else mpmath.iv.mpf(0))


def _iv(v):
    if isinstance(v, Fraction):
        return mpmath.iv.mpf(v.numerator) / v.denominator
    if isinstance(v, _Q):
        return sum((mpmath.iv.mpf(c.numerator) / c.denominator) * mpmath.iv.sqrt(s) for s, c in v.d.items())

    def ev(p):
        return sum((mpmath.iv.mpf(c.numerator) / c.denominator) * _iv_key(k) for k, c in p.items()) \
            if p else mpmath.iv.mpf(0)
    return ev(v.num) / ev(v.den)


def _sign(v) -> int:
    """Sign of an exact value: exact zero test (collected coefficients), then intervals."""
    if isinstance(v, Fraction):
        return (v > 0) - (v < 0)
    if isinstance(v, _E) and not v.num:
        return 0
    if isinstance(v, _Q) and not v.d:
        return 0
    saved = mpmath.iv.dps
    try:
        for dps in (30, 60, 120, 240, 480, 960):
            mpmath.iv.dps = dps
            x = _iv(v)
            if x.a > 0:
                return 1
            if x.b < 0:
                return -1
    finally:
        mpmath.iv.dps = saved
    raise NotHere("sign not separated by intervals")


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
    if k.denominator == 1:
        return R ** int(k) if isinstance(R, Fraction) else _mul(R, Fraction(1)) if k == 1 else _powE(R, int(k))
    return ("pow", R, k.numerator, k.denominator)


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
    out = _E({(): Fraction(1)})
    for _ in range(k):
        out = _mul(out, v)
    return out


def _cmp(a, b, E):
    """sign(a - E b) with E from :func:`_level_factor`."""
    if isinstance(E, tuple):
        _, R, p, q = E
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
    n = max(len(p), len(q))
    return [(p[i] if i < len(p) else 0) + (q[i] if i < len(q) else 0) for i in range(n)]


def _pl_neg(p):
    return [-c for c in p]


def _pl_mul(p, q):
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        if a:
            for j, b in enumerate(q):
                out[i + j] += a * b
    return out


def _bernstein_nonneg(p, depth=12) -> object:
    """True if p >= 0 on [0,1] is certified by Bernstein coefficients (with subdivision)."""
    while len(p) > 1 and p[-1] == 0:
        p = p[:-1]
    if all(c == 0 for c in p):
        return True
    n = len(p) - 1
    from math import comb
    b = [sum(Fraction(comb(i, k), comb(n, k)) * p[k] for k in range(i + 1)) for i in range(n + 1)]

    def rec(b, lev):
        if all(c >= 0 for c in b):
            return True
        if b[0] < 0 or b[-1] < 0:
            return False  # p is negative at an end of this piece (value of the polynomial there)
        if lev == 0:
            return None
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
    for row, v in zip(A_eq, y):
        for j, a in row.items():
            red[j] = _add(red[j], _neg(_mul(a, v)))
    for row, v in zip(A_ub, lam):
        for j, a in row.items():
            red[j] = _add(red[j], _mul(a, v))
    return red


def rational(text: str) -> Fraction:
    """An exact rational from its text, or :class:`NotHere` (an irrational or transcendental number is outside
    the rational-regime checks that call this)."""
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise NotHere(f"{text!r} is irrational or transcendental; this check covers the rational regime") from None
