"""What the text format shows a reader on a terminal (issue 32): safe, short, and with decimals.

The certificate keeps every exact value in full (``--format json``); the text format is for reading, so

- :func:`terminal_safe` escapes control characters (a newline or ESC in a file name or a re-checked file's
  label cannot forge an output line or recolour the terminal);
- :func:`shorten` cuts a list of more than :data:`MAX_ITEMS` items to its first ones and ``... N more``, and an
  expression longer than :data:`MAX_CHARS` characters to its two ends and its length;
- :func:`with_decimals` writes a certified decimal enclosure beside an exact value: ``log(2) in [0.69314718,
  0.69314719]``, the bounds rounded outward from an Arb ball evaluation of the exact expression (never a float).

:func:`for_reader` applies them to a whole text output, line by line; the command line uses it for the text
format of every certificate (decimals for the kinds of :data:`DECIMAL_KINDS`).

>>> print(for_reader("exact delta at eps: -1/16*exp(1) + 5/16\\nattained by: (0, 1)\\n", decimals=True), end="")
exact delta at eps: -1/16*exp(1) + 5/16 in [0.14260738, 0.14260739]
attained by: (0, 1)
"""

from __future__ import annotations

import re

__all__ = ["DECIMAL_KINDS", "MAX_CHARS", "MAX_ITEMS", "decimal_enclosure_of", "for_reader", "shorten",
           "terminal_safe", "with_decimals"]

#: kinds whose text output carries decimals beside its exact values (``composition`` can be added by its owner)
DECIMAL_KINDS = frozenset({"profile", "audit", "fdp"})
#: items of a list shown before ``... N more``
MAX_ITEMS = 12
#: characters of one value shown whole; longer ones keep their two ends
MAX_CHARS = 400
#: significant digits of the decimal enclosures
DIGITS = 8

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_PAIR_LIST = re.compile(rf"(\([^()]*\)(?:, \([^()]*\)){{{MAX_ITEMS},}})")
_ROW = re.compile(r"^([A-Za-z][A-Za-z0-9 ()*^_'=<>,.-]*?): (.+)$")


def terminal_safe(text: str) -> str:
    """``text`` with every control character but newline and tab written as an escape (``\\x1b``, ``\\u202e``).

    Parameters
    ----------
    text : str
        Text about to be printed.

    Returns
    -------
    str
        The same text, printable.

    Examples
    --------
    >>> terminal_safe("claim: \\x1b[31mred\\u202e\\n")
    'claim: \\\\x1b[31mred\\\\u202e\\n'
    """
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def shorten(value: str, limit: int = MAX_CHARS) -> str:
    """A value as the text format shows it: long lists of pairs cut to ``... N more``, long text to its ends.

    Parameters
    ----------
    value : str
        One value (a row of the text format, or part of one).
    limit : int
        Characters shown whole.

    Returns
    -------
    str
        ``value``, or its shortened form saying how much was left out (``--format json`` has it all).

    Examples
    --------
    >>> shorten(", ".join(f"({k}, {k + 1})" for k in range(20)))
    '(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8), (8, 9), (9, 10), (10, 11), (11, 12), ... 8 more'
    >>> shorten("x" * 1000, 40)
    'xxxxxxxxxxxxxxxxxxxx ... xxxxxxxxxxxxxxxxxxxx (1,000 characters; --format json prints it in full)'
    """
    def cut(m):
        items = re.findall(r"\([^()]*\)", m.group(1))
        return ", ".join(items[:MAX_ITEMS]) + f", ... {len(items) - MAX_ITEMS} more"
    value = _PAIR_LIST.sub(cut, value)
    if len(value) > limit:
        half = limit // 2
        value = f"{value[:half]} ... {value[-half:]} ({len(value):,} characters; --format json prints it in full)"
    return value


def decimal_enclosure_of(text: str, digits: int = DIGITS) -> tuple[str, str] | None:
    """Certified decimals ``lo <= x <= hi`` of the exact value written ``text``, or None.

    The expression (the exactdp grammar: numbers, ``+ - * / ^``, ``exp``, ``log``, ``sqrt``) is evaluated in
    Arb ball arithmetic at rising precision (:func:`exactdp.exact.decide.decimal_enclosure`), so the bounds are
    proved.  None for text that is not such an expression, uses ``alpha``/``eps``, is infinite or undefined.

    Parameters
    ----------
    text : str
        An exact value as exactdp prints it.
    digits : int
        Significant digits.

    Returns
    -------
    tuple of str or None

    Examples
    --------
    >>> decimal_enclosure_of("log(17/5)"), decimal_enclosure_of("1/2 - (1/4)*exp(eps)")
    (('1.2237754', '1.2237755'), None)
    """
    from flint import arb

    from ..errors import ExactDPError
    from ..exact.decide import decimal_enclosure
    from ..exact.parse import parse_exact

    try:
        tree = parse_exact(text)
    except (ExactDPError, RecursionError):
        return None

    def ball(node):
        op = node[0]
        if op == "num":
            return arb(node[1])
        if op in ("alpha", "eps"):
            raise ValueError("symbolic")
        if op == "neg":
            return -ball(node[1])
        if op == "call":
            x = ball(node[2])
            return {"exp": arb.exp, "log": arb.log, "sqrt": arb.sqrt}[node[1]](x)
        a, b = ball(node[1]), ball(node[2])
        if op == "pow":
            return a ** b
        if op == "div" and b.contains(0):
            raise ZeroDivisionError("a divisor's ball contains 0")
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]

    exact = _rational(tree)
    if exact is not None and exact.denominator >> _twos(exact.denominator) == 5 ** _fives(exact.denominator) \
            and len(str(abs(exact.numerator) * 10 ** 40 // exact.denominator).rstrip("0")) <= digits:
        s = _decimal_text(exact)                     # a terminating decimal that short is exact: lo = hi
        return s, s
    try:
        ball(tree)                                   # symbolic text fails here, before any precision loop
        return decimal_enclosure(lambda: ball(tree), digits)
    except (ValueError, ZeroDivisionError, ExactDPError, RecursionError, OverflowError):
        return None


def _rational(node):
    """The exact value of a tree of rationals and + - * / (integer powers), else None."""
    from fractions import Fraction

    op = node[0]
    try:
        if op == "num":
            return Fraction(int(node[1].p), int(node[1].q))
        if op == "neg":
            x = _rational(node[1])
            return None if x is None else -x
        if op in ("add", "sub", "mul", "div", "pow"):
            a, b = _rational(node[1]), _rational(node[2])
            if a is None or b is None:
                return None
            if op == "pow":
                return a ** int(b) if b.denominator == 1 and abs(b) <= 64 and (a or b > 0) else None
            return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b if b else None}[op]
    except (AttributeError, ZeroDivisionError, OverflowError):
        return None
    return None


def _twos(n: int) -> int:
    return (n & -n).bit_length() - 1


def _fives(n: int) -> int:
    k = 0
    while n % 5 == 0:
        n, k = n // 5, k + 1
    return k


def _decimal_text(x) -> str:
    """A terminating decimal's exact text (``3/8`` -> ``0.375``)."""
    from decimal import Decimal, localcontext

    with localcontext() as c:
        c.prec = 200
        return format(Decimal(x.numerator) / Decimal(x.denominator), "f")


def with_decimals(value: str, digits: int = DIGITS) -> str:
    """``value`` followed by its certified decimal enclosure, ``x in [lo, hi]``.

    Unchanged when it is already a plain number or has no finite value.  The helper the text formats share.

    Parameters
    ----------
    value : str
        An exact value as printed.
    digits : int
        Significant digits.

    Returns
    -------
    str

    Examples
    --------
    >>> with_decimals("log(2)"), with_decimals("3/4"), with_decimals("0.75"), with_decimals("(0, 1)")
    ('log(2) in [0.69314718, 0.69314719]', '3/4 in [0.75, 0.75]', '0.75', '(0, 1)')
    """
    if re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
        return value
    enc = decimal_enclosure_of(value, digits)
    return value if enc is None else f"{value} in [{enc[0]}, {enc[1]}]"


_BRACKET = re.compile(r"\[([^\[\],]+), ([^\[\],]+)\]$")


def _decorated(value: str) -> str:
    """:func:`with_decimals`, or for a value ending in an exact bracket ``[a, b]`` the decimals around it."""
    shown = with_decimals(value)
    m = _BRACKET.search(value) if shown == value else None
    if m:
        lo, hi = decimal_enclosure_of(m.group(1)), decimal_enclosure_of(m.group(2))
        if lo is not None and hi is not None:
            shown = f"{value} within [{lo[0]}, {hi[1]}]"
    return shown


def for_reader(text: str, decimals: bool = False) -> str:
    """A text output as a reader sees it: rows shortened, decimals added, control characters escaped.

    Each ``name: value`` row is shortened (and, with ``decimals``, its exact value is followed by a certified
    enclosure); every control character is escaped.

    Parameters
    ----------
    text : str
        The text format's lines.
    decimals : bool
        Write decimals beside the rows whose whole value is an exact number.

    Returns
    -------
    str

    Examples
    --------
    >>> for_reader("slack: 1/16*exp(1) - 17/80\\nclaim: (1, 1/10)\\n", decimals=True)
    'slack: 1/16*exp(1) - 17/80 in [-0.042607386, -0.042607385]\\nclaim: (1, 1/10)\\n'
    """
    out = []
    for line in text.split("\n"):
        m = _ROW.match(line)
        if m and m.group(1) not in ("claim", "conclusion", "method", "reason"):
            value = m.group(2)
            shown = shorten(_decorated(value) if decimals and len(value) <= MAX_CHARS else value)
            line = line if shown == value else f"{m.group(1)}: {shown}"
        else:
            line = shorten(line, 4 * MAX_CHARS)
        out.append(line)
    return terminal_safe("\n".join(out))
