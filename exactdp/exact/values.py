"""Give parsed expressions an exact value, and take exact numbers from Python.

Values live in three exact types:

* :class:`flint.fmpq` -- rational numbers (regime 1 of docs/architecture.md#sec-kernel);
* :class:`~exactdp.exact.lin.Lin` -- algebraic numbers ``sum c_s sqrt(s)``,
  used for distances and exponents;
* :class:`~exactdp.exact.expo.ExpFrac` -- quotients of exponential polynomials,
  for transcendental entries (regime 2) and entries in a symbolic ``alpha``
  (regime 3).

``log(q)`` of a rational is kept as :class:`LogVal` (``c * log(q)``); it may be
used as an epsilon or inside ``exp``.  Anything else (for instance ``log(3)``
as a probability) is refused with :class:`~exactdp.errors.UnsupportedRegime`.

Examples
--------
>>> exact_number("0.25")
1/4
>>> exact_number("exp(-1/2)")
ExpFrac('exp(-1/2)')
>>> probability("(1 - alpha)/(1 + alpha)", alpha=fmpq(1, 2))
1/3
>>> exact_number(0.1)  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
exactdp.errors.InvalidType: number: got the binary float 0.1; exactdp takes exact numbers. Pass a string such as '0.1'
or '1/10' for the decimal, or allow_float=True to take the float's exact binary value 3602879701896397/36028797018963968
"""

from __future__ import annotations

import math
import operator
from decimal import Decimal
from fractions import Fraction
from numbers import Integral, Rational
from typing import Any

from flint import fmpq, fmpz

from ..errors import InputTooLarge, InvalidInput, InvalidType, NeedsLevel, UnsupportedRegime
from .decide import is_zero
from .expo import ExpFrac
from .interop import is_sympy, sympy_text
from .lin import Lin
from .parse import parse_exact

__all__ = [
    "MAX_POLY_POWER",
    "MAX_POWER",
    "MAX_RESULT_BITS",
    "LogVal",
    "Setting",
    "brief",
    "distance",
    "evaluate",
    "exact_number",
    "from_python",
    "probability",
    "to_rational",
]

#: largest integer exponent in an expression
MAX_POWER = 100_000
#: largest exact result of a power, in bits (about 300,000 decimal digits)
MAX_RESULT_BITS = 1_000_000
#: largest power of a sum (which expands into many terms)
MAX_POLY_POWER = 1_000


class LogVal:
    """``c * log(q)`` for rationals ``c`` and ``q > 0`` (kept exact, unevaluated).

    Parameters
    ----------
    base : fmpq
        ``q > 0``.
    coef : fmpq, optional
        ``c`` (default 1).

    Examples
    --------
    >>> str(LogVal(fmpq(2))), str(LogVal(fmpq(3), fmpq(1, 2))), exact_number("log(2)")
    ('log(2)', 'log(3)/2', LogVal(log(2)))
    """

    __slots__ = ("base", "coef")

    def __init__(self, base: fmpq, coef: fmpq = fmpq(1)):
        self.base = fmpq(base)
        self.coef = fmpq(coef)

    def __repr__(self):
        return f"LogVal({self})"

    def __str__(self):
        c = self.coef
        lg = f"log({self.base})"
        if c == 1:
            return lg
        if c.p == 1:
            return f"{lg}/{c.q}"
        return f"{c}*{lg}" if c.q == 1 else f"{c.p}*{lg}/{c.q}"


class Setting:
    """What ``alpha`` and ``eps`` mean while evaluating an expression.

    Parameters
    ----------
    alpha : fmpq or ExpFrac or None
        Value substituted for ``alpha`` (``None``: the name is not allowed).
    eps : Lin or LogVal or None
        Value substituted for ``eps``.

    Examples
    --------
    >>> from flint import fmpq
    >>> exact_number("(1 - alpha)/(1 + alpha)", Setting(alpha=fmpq(1, 2)))
    1/3
    """

    __slots__ = ("alpha", "eps")

    def __init__(self, alpha=None, eps=None):
        self.alpha = alpha
        self.eps = eps

    @staticmethod
    def symbolic() -> Setting:
        """Return the setting where ``alpha`` is the symbol exp(-eps) and ``eps`` the symbol itself (regime 3).

        Entries in this setting are rational functions of ``alpha``, valid for
        every eps at once (GRS12's geometric mechanism in ``alpha``).

        Returns
        -------
        Setting
            ``alpha = ExpFrac('alpha')``, ``eps = Lin('eps')``.

        Examples
        --------
        >>> exact_number("2*alpha", Setting.symbolic())
        ExpFrac('2*alpha')
        """
        return Setting(ExpFrac.exp(-Lin.eps()), Lin.eps())


_PLAIN = Setting()


def _need(cond, msg):
    if not cond:
        raise UnsupportedRegime(msg)


def _as_lin(v):
    if isinstance(v, Lin):
        return v
    if isinstance(v, fmpq):
        return Lin.rat(v)
    return None


def _simplify(v):
    """Bring a value to its simplest exact type (Lin/ExpFrac that are rational -> fmpq)."""
    if isinstance(v, Lin) and v.is_rational() and not v.has_eps():
        return v.rational()
    if isinstance(v, ExpFrac):
        r = v.rational()
        if r is not None:
            return r
    return v


_OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}


def _binop(op, a, b):
    if isinstance(a, LogVal) or isinstance(b, LogVal):
        return _log_binop(op, a, b)
    x: Any
    y: Any
    if isinstance(a, fmpq) and isinstance(b, fmpq):
        x, y = a, b
    elif _as_lin(a) is not None and _as_lin(b) is not None:
        x, y = _as_lin(a), _as_lin(b)
    else:
        _need(not isinstance(a, Lin) and not isinstance(b, Lin),
              "an irrational algebraic number (sqrt) may appear only in distances and exponents, "
              "not combined with exponentials")
        x, y = ExpFrac.coerce(a), ExpFrac.coerce(b)
    if op == "div" and is_zero(y):
        raise InvalidInput("expression: division by zero")
    return _OPS[op](x, y)


def _log_binop(op, a, b):
    if op in ("mul", "div") and isinstance(a, LogVal) and isinstance(b, fmpq):
        if op == "div" and b == 0:
            raise InvalidInput("expression: division by zero")
        return LogVal(a.base, a.coef * b if op == "mul" else a.coef / b)
    if op == "mul" and isinstance(b, LogVal) and isinstance(a, fmpq):
        return LogVal(b.base, b.coef * a)
    if op in ("add", "sub") and isinstance(a, LogVal) and isinstance(b, LogVal):
        s = 1 if op == "add" else -1
        if a.base == b.base:
            return LogVal(a.base, a.coef + s * b.coef)
        if a.coef == s * b.coef:
            return LogVal(a.base * b.base ** s, a.coef)
    raise UnsupportedRegime("a logarithm may be scaled by a rational or used inside exp(), nothing more")


def _power(base, ex):
    if isinstance(ex, Lin) and not ex.has_eps() and ex.is_rational():
        ex = ex.rational()
    if isinstance(ex, fmpq) and ex.q == 1:
        k = int(ex.p)
        if abs(k) > MAX_POWER:
            raise InputTooLarge(f"expression: exponent {brief(k)} is beyond the limit {MAX_POWER}")
        _check_power_size(base, k)
        if isinstance(base, fmpq):
            if base == 0 and k < 0:
                raise InvalidInput("expression: division by zero (0 to a negative power)")
            return base**k
        if isinstance(base, Lin):
            if k < 0:                           # 1/b exactly (Lin division), then the positive power
                if base.is_zero():
                    raise InvalidInput("expression: division by zero (0 to a negative power)")
                base, k = Lin.rat(1) / base, -k
            out = Lin.rat(1)
            for _ in range(k):
                out = out * base
            return out
        if isinstance(base, ExpFrac):
            return base**k
        raise UnsupportedRegime("a logarithm cannot be raised to a power")
    # non-integer exponent
    if isinstance(base, fmpq) and isinstance(ex, fmpq) and ex.q == 2 and base >= 0:
        root = Lin.sqrt(base)
        return _power(root, fmpq(ex.p))
    if isinstance(base, ExpFrac):
        mono = base.monomial()
        lex = _as_lin(ex)
        if mono is not None and mono[0] == 1 and lex is not None:
            return ExpFrac.exp(mono[1] * lex)
    if isinstance(base, fmpq) and base > 0 and isinstance(ex, (fmpq, Lin)):
        raise UnsupportedRegime(
            f"{base}^({ex}) is an algebraic or transcendental power of a rational; "
            "write the level as eps = c*log(q) instead"
        )
    raise UnsupportedRegime(f"power with exponent {ex} is outside the exact regimes")


def _coef_bits(q) -> int:
    q = fmpq(q)
    return int(q.p).bit_length() + int(q.q).bit_length()


def _check_power_size(base, k: int) -> None:
    """Refuse ``base^k`` when its exact result would pass :data:`MAX_RESULT_BITS` or :data:`MAX_POLY_POWER`."""
    k = abs(k)
    if isinstance(base, fmpq):
        bits, terms = _coef_bits(base), 1
    elif isinstance(base, Lin):
        bits, terms = max((_coef_bits(c) + int(a).bit_length() for a, c in base.terms), default=0), len(base.terms)
    elif isinstance(base, ExpFrac):
        cs = list(base.num.values()) + list(base.den.values())
        bits, terms = max(_coef_bits(c) for c in cs), max(len(base.num), len(base.den))
    else:
        return
    if terms > 1 and k > MAX_POLY_POWER:
        raise InputTooLarge(f"expression: a sum raised to the power {brief(k)} is beyond the limit {MAX_POLY_POWER}; "
                            "it would expand into too many terms")
    if bits * k > MAX_RESULT_BITS:
        raise InputTooLarge(f"expression: a power with about {brief(bits * k)} bits is beyond the limit "
                            f"{MAX_RESULT_BITS} bits for one exact number")


def brief(x: Any, limit: int = 60) -> str:
    """Return text for ``x`` shortened to about ``limit`` characters for messages (the digit count is kept).

    Parameters
    ----------
    x : object
        Usually an exact number.
    limit : int, optional
        About how many characters.

    Returns
    -------
    str
        The text, or its first and last digits and the digit count.

    Examples
    --------
    >>> brief(fmpq(2) ** 200)
    '16069380442589902755...5301376 (61 digits)'
    >>> brief(fmpq(1, 3))
    '1/3'
    """
    if isinstance(x, int) and x.bit_length() > 4 * limit:
        x = fmpz(x)
    if isinstance(x, fmpz):
        x = fmpq(x)
    if isinstance(x, fmpq):
        parts = [str(abs(x.p))] + ([str(x.q)] if x.q != 1 else [])
        if sum(map(len, parts)) <= limit:
            return str(x)
        head, tail = limit // 3, limit // 8
        cut = ["-" * (x < 0 and i == 0) + (t if len(t) <= limit // 2 else f"{t[:head]}...{t[-tail:]} "
                                           f"({len(t)} digits)") for i, t in enumerate(parts)]
        return "/".join(cut)
    t = str(x)
    return t if len(t) <= 2 * limit else t[:limit] + f"... ({len(t)} characters)"


def _exp(v, setting):
    if isinstance(v, LogVal):
        # exp(c log q) = q^c
        if v.coef.q in (1, 2):                  # q^(k/2) is a square root's power: exact in Lin
            return _power(v.base, v.coef)
        raise UnsupportedRegime(f"exp({v}) = {v.base}^({v.coef}) is irrational algebraic")
    lv = _as_lin(v)
    _need(lv is not None, "exp() takes a rational, a sum of square roots or a multiple of eps")
    if lv.is_zero():
        return fmpq(1)
    return ExpFrac.exp(lv)


def _log(v):
    if isinstance(v, fmpq):
        if v <= 0:
            raise InvalidInput(f"expression: log of a non-positive number {v}")
        return fmpq(0) if v == 1 else LogVal(v)
    if isinstance(v, ExpFrac):
        mono = v.monomial()
        if mono is not None and mono[0] == 1:
            return mono[1]
    raise UnsupportedRegime("log() takes a positive rational or exp(...) of an exact exponent")


def _leaf(node, setting):
    tag = node[0]
    if tag == "num":
        return node[1]
    v = setting.alpha if tag == "alpha" else setting.eps
    if v is None:
        raise InvalidInput(f"expression: {tag!r} is not defined here; give --alpha/--eps or use it in a mechanism")
    return v


def _apply(node, args):
    """The value of ``node`` from the values of its children ``args``."""
    tag = node[0]
    if tag == "neg":
        v = args[0]
        return LogVal(v.base, -v.coef) if isinstance(v, LogVal) else -v
    if tag in _OPS:
        return _simplify(_binop(tag, args[0], args[1]))
    if tag == "pow":
        return _simplify(_power(args[0], args[1]))
    if tag == "call":
        arg = args[0]
        if node[1] == "exp":
            return _simplify(_exp(arg, None))
        if node[1] == "log":
            return _simplify(_log(arg))
        if isinstance(arg, fmpq):
            return _simplify(Lin.sqrt(arg))
        raise UnsupportedRegime("sqrt() takes a non-negative rational")
    raise AssertionError(tag)  # pragma: no cover


def _children(node):
    tag = node[0]
    if tag == "neg":
        return node[1:2]
    if tag == "call":
        return node[2:3]
    return node[1:3]


def evaluate(node: tuple, setting: Setting = _PLAIN) -> Any:
    """Exact value of a parsed expression tree under ``setting``.

    The walk is iterative (an explicit stack), so a long chain such as
    ``1/2+0+0+...`` costs no Python recursion.

    Parameters
    ----------
    node : tuple
        A tree from :func:`~exactdp.exact.parse.parse_exact`.
    setting : Setting, optional
        What ``alpha`` and ``eps`` mean (default: neither is allowed).

    Returns
    -------
    fmpq, Lin, ExpFrac or LogVal
        The exact value.

    Examples
    --------
    >>> evaluate(parse_exact("1/2" + "+0" * 2000))
    1/2
    """
    stack, vals = [(node, False)], []
    while stack:
        nd, ready = stack.pop()
        if nd[0] in ("num", "alpha", "eps"):
            vals.append(_leaf(nd, setting))
        elif ready:
            k = len(_children(nd))
            args = vals[len(vals) - k:]
            del vals[len(vals) - k:]
            vals.append(_apply(nd, args))
        else:
            stack.append((nd, True))
            stack.extend((c, False) for c in reversed(_children(nd)))
    return vals[0]


def from_python(x: Any, *, what: str = "number", allow_float: bool = False) -> Any:
    """An exact value from a Python object or exact text.

    Integers (numpy integers too), :class:`fractions.Fraction`,
    :class:`decimal.Decimal`, sympy/flint rationals, sympy expressions (taken
    structurally, see :mod:`exactdp.exact.interop`) and strings in the exactdp
    grammar are exact.  A
    binary float is refused unless ``allow_float=True``, which takes its exact
    binary value.

    Parameters
    ----------
    x : object
        The value.
    what : str, optional
        Its name, for messages.
    allow_float : bool, optional
        Take a binary float at its exact value instead of refusing it.

    Returns
    -------
    fmpq, Lin, ExpFrac, LogVal or str
        The exact value; a string (or a sympy expression, written as text) is returned as text for
        :func:`exact_number` to parse in its setting.

    Raises
    ------
    InvalidType
        For a float (unless allowed), a bool, or an unknown type.
    InvalidInput
        For NaN or an infinity.

    Examples
    --------
    >>> from decimal import Decimal
    >>> from fractions import Fraction
    >>> from_python(Fraction(1, 3)), from_python(Decimal("0.25")), from_python(0.5, allow_float=True)
    (1/3, 1/4, 1/2)
    >>> from_python("exp(1)")
    'exp(1)'
    """
    if isinstance(x, (fmpq, ExpFrac, Lin, LogVal)):
        return x
    if isinstance(x, bool):
        raise InvalidType(f"{what}: got the boolean {x}; expected an exact number")
    if isinstance(x, (int, fmpz, Integral)):
        return fmpq(int(x))
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    if isinstance(x, Rational):  # sympy.Rational, numpy ints registered as Integral
        return fmpq(int(x.numerator), int(x.denominator))
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise InvalidInput(f"{what}: got {x}; expected a finite number")
        n, d = x.as_integer_ratio()
        return fmpq(n, d)
    if isinstance(x, str):
        if x.strip().lower() in ("nan", "inf", "-inf", "infinity", "oo"):
            raise InvalidInput(f"{what}: got {x!r}; expected a finite exact number")
        return x  # caller evaluates with its setting
    if isinstance(x, float) or type(x).__name__.startswith("float"):
        xf = float(x)
        if not math.isfinite(xf):
            raise InvalidInput(f"{what}: got {xf}; expected a finite exact number "
                               "(NaN and infinity are not probabilities)")
        n, d = xf.as_integer_ratio()
        if not allow_float:
            raise InvalidType(
                f"{what}: got the binary float {xf!r}; exactdp takes exact numbers. Pass a string "
                f"such as {repr(xf)!r} or '{Fraction(xf).limit_denominator(10**6)}' for the decimal, "
                f"or allow_float=True to take the float's exact binary value {n}/{d}"
            )
        return fmpq(n, d)
    if hasattr(x, "is_Rational") and getattr(x, "is_Rational", False):
        return fmpq(int(x.p), int(x.q))
    if is_sympy(x):  # exp(-1), log(2), sqrt(2), alpha/(1 + alpha): written in the grammar from the tree
        return sympy_text(x)
    raise InvalidType(f"{what}: got {type(x).__name__} {x!r}; expected an int, Fraction, exact string or Decimal")


def exact_number(x: Any, setting: Setting = _PLAIN, *, what: str = "number", allow_float: bool = False) -> Any:
    """Return the exact value of ``x`` (Python number or exact text) under ``setting``.

    Text is parsed by exactdp's own restricted parser (never ``eval``) and
    evaluated in the exact types of docs/architecture.md#sec-kernel.

    Parameters
    ----------
    x : int or Fraction or Decimal or str or sympy number
        The number; text in the exactdp grammar (``"3/2"``, ``"0.25"``,
        ``"sqrt(2)"``, ``"exp(-1/2)"``, ``"log(9/8)"``, expressions in
        ``alpha``/``eps`` when ``setting`` defines them).
    setting : Setting, optional
        Values of ``alpha`` and ``eps``; by default neither name is allowed.
    what : str, default "number"
        The argument's name, for messages.
    allow_float : bool, default False
        Take a binary float at its exact binary value (else refused).

    Returns
    -------
    fmpq or Lin or ExpFrac or LogVal
        The exact value, simplified (a rational is always ``fmpq``).

    Raises
    ------
    InvalidType
        A binary float without ``allow_float``, or an unsupported type.
    InvalidInput
        Text outside the grammar (:class:`~exactdp.errors.ParseError`), a
        name the setting does not define, division by zero
        (:class:`~exactdp.errors.InputTooLarge` past the size limits,
        :class:`~exactdp.errors.UnsupportedRegime` for a value outside every
        exact regime, such as ``log(3)*log(2)``).

    Examples
    --------
    >>> exact_number("log(9/8)"), exact_number("sqrt(8)")
    (LogVal(log(9/8)), Lin('2*sqrt(2)'))
    >>> exact_number(0.5, allow_float=True)
    1/2
    >>> exact_number("alpha")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: number: expression: 'alpha' is not defined here; give --alpha/--eps or use it in a
    mechanism
    """
    v = from_python(x, what=what, allow_float=allow_float)
    if isinstance(v, str):
        try:
            v = evaluate(parse_exact(v), setting)
        except (InvalidInput, InvalidType) as e:
            msg = str(e)
            if not msg.startswith(what):
                msg = f"{what}: {msg}"
            raise type(e)(msg) from None
    return _simplify(v)


def probability(x: Any, *, alpha: Any = None, eps: Any = None, setting: Setting | None = None,
                what: str = "entry", allow_float: bool = False) -> Any:
    """Return an exact probability-like value (``fmpq`` or ``ExpFrac``).

    Parameters
    ----------
    x : object
        Exact text or a Python number (as :func:`from_python`).
    alpha : fmpq or ExpFrac, optional
        The value of ``alpha`` in the text.
    eps : Lin or LogVal, optional
        The value of ``eps`` in the text.
    setting : Setting, optional
        Instead of ``alpha`` and ``eps``.
    what : str, optional
        Its name, for messages.
    allow_float : bool, optional
        Take a binary float at its exact value.

    Returns
    -------
    fmpq or ExpFrac
        The value; it is not checked to lie in ``[0, 1]`` here.

    Raises
    ------
    UnsupportedRegime
        For an irrational algebraic number or a logarithm.

    Examples
    --------
    >>> probability("alpha^2", alpha=fmpq(1, 2)), probability("1/(1 + exp(1))")
    (1/4, ExpFrac('1/(exp(1) + 1)'))
    >>> probability("2^(1/2)")
    Traceback (most recent call last):
    ...
    exactdp.errors.UnsupportedRegime: entry: sqrt(2) is an irrational algebraic number; probabilities must be
    rational, exponential expressions, or expressions in alpha
    """
    s = setting if setting is not None else Setting(alpha, eps)
    v = exact_number(x, s, what=what, allow_float=allow_float)
    if isinstance(v, Lin) and v.has_eps():
        raise NeedsLevel(f"{what}: {v} uses eps outside exp(...); read for every eps, an entry must be a function "
                         "of alpha = exp(-eps): give the level (--eps or --alpha) to evaluate it there")
    if isinstance(v, Lin):
        raise UnsupportedRegime(f"{what}: {v} is an irrational algebraic number; probabilities must be "
                                "rational, exponential expressions, or expressions in alpha")
    if isinstance(v, LogVal):
        raise UnsupportedRegime(f"{what}: {v} is a logarithm, not a probability")
    return v


def distance(x: Any, *, what: str = "distance", allow_float: bool = False) -> Any:
    """Return an exact distance: ``fmpq``, ``Lin`` (square roots) or ``math.inf``.

    Parameters
    ----------
    x : object
        Exact text, a Python number, or ``inf``.
    what : str, optional
        Its name, for messages.
    allow_float : bool, optional
        Take a binary float at its exact value.

    Returns
    -------
    fmpq, Lin or float
        The distance (``math.inf`` for infinity).

    Raises
    ------
    UnsupportedRegime
        For a transcendental value.

    Examples
    --------
    >>> distance(3), distance("2^(1/2)"), distance("inf")
    (3, Lin('sqrt(2)'), inf)
    >>> distance("exp(1)")
    Traceback (most recent call last):
    ...
    exactdp.errors.UnsupportedRegime: distance: exp(1) is transcendental; distances must be rational or sums of
    square roots
    """
    if isinstance(x, float) and math.isinf(x) and x > 0:
        return math.inf
    if isinstance(x, str) and x.strip().lower() in ("inf", "infinity", "oo"):
        return math.inf
    v = exact_number(x, what=what, allow_float=allow_float)
    if isinstance(v, (ExpFrac, LogVal)):
        raise UnsupportedRegime(f"{what}: {v} is transcendental; distances must be rational or sums of square roots")
    return v


def to_rational(x: Any, *, what: str = "number", allow_float: bool = False) -> fmpq:
    """Return an exact rational, refusing irrationals.

    Parameters
    ----------
    x : object
        Exact text or a Python number.
    what : str, optional
        Its name, for messages.
    allow_float : bool, optional
        Take a binary float at its exact value.

    Returns
    -------
    fmpq
        The value.

    Raises
    ------
    InvalidInput
        For an irrational value.

    Examples
    --------
    >>> to_rational("0.2"), to_rational(3)
    (1/5, 3)
    >>> to_rational("2^(1/2)")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: number: expected a rational number, got sqrt(2)
    """
    v = exact_number(x, what=what, allow_float=allow_float)
    if not isinstance(v, fmpq):
        raise InvalidInput(f"{what}: expected a rational number, got {v}")
    return v
