"""A restricted parser for exact numbers typed by users.

Grammar (no ``eval``, no ``sympify``)::

    expr   := term (('+' | '-') term)*
    term   := unary (('*' | '/') unary)*
    unary  := ('+' | '-') unary | power
    power  := atom (('^' | '**') unary)?
    atom   := NUMBER | 'alpha' | 'eps' | FUNC '(' expr ')' | '(' expr ')'
    FUNC   := 'exp' | 'log' | 'sqrt'
    NUMBER := digits ['.' digits] [('e'|'E') ['+'|'-'] digits]    (ASCII digits 0-9 only)

Decimal numbers are taken at their exact decimal value (``0.1`` is 1/10).
The result is a small tuple tree; :mod:`exactdp.exact.values` gives it a value.

Examples
--------
>>> parse_exact("(1 - alpha)/(1 + alpha)")
('div', ('sub', ('num', 1), ('alpha',)), ('add', ('num', 1), ('alpha',)))
>>> parse_exact("__import__('os')")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
exactdp.errors.ParseError: expression: unknown name '__import__' at position 0 in "__import__('os')"; allowed: numbers,
alpha, eps, exp, log, sqrt, + - * / ^ and parentheses
"""

from __future__ import annotations

import re

from flint import fmpq, fmpz

from ..errors import InputTooLarge, ParseError

__all__ = ["MAX_DEPTH", "MAX_EXPR_CHARS", "parse_exact"]

MAX_EXPR_CHARS = 10_000
MAX_DEPTH = 64
MAX_DIGITS = 2_000

# ASCII only: digits are 0-9 (re.ASCII keeps \d and \s from matching other scripts' digits and spaces)
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z_0-9]*)|(?P<op>\*\*|[-+*/^()]))",
    re.ASCII,
)
_NAMES = {"alpha", "eps", "exp", "log", "sqrt"}
_HINT = "allowed: numbers, alpha, eps, exp, log, sqrt, + - * / ^ and parentheses"


def _show(text: str, limit: int = 80) -> str:
    """``repr(text)``, cut to about ``limit`` characters for a one-line message."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


def _decimal(text: str) -> fmpq:
    """The exact value of a decimal literal such as ``12.5e-3``."""
    mant, _, exp = text.lower().partition("e")
    ip, _, fp = mant.partition(".")
    if len(ip) + len(fp) > MAX_DIGITS:
        raise InputTooLarge(f"number {text[:20]}... has {len(ip) + len(fp)} digits; the limit is {MAX_DIGITS}")
    if exp and (len(exp) > 8 or abs(int(exp)) > MAX_DIGITS):
        raise InputTooLarge(f"number {text[:20]}{'...' if len(text) > 20 else ''}: decimal exponent beyond the "
                            f"limit {MAX_DIGITS}")
    digits = int((ip or "0") + fp)
    e = (int(exp) if exp else 0) - len(fp)
    return fmpq(digits * fmpz(10) ** e) if e >= 0 else fmpq(digits, fmpz(10) ** (-e))


def _tokenize(text: str):
    pos, out = 0, []
    n = len(text)
    while pos < n:
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            bad = text[pos:].lstrip(" \t\n\r\f\v")[:1]
            if bad.isdigit() or bad.isspace():
                raise ParseError(
                    f"expression: non-ASCII {'digit' if bad.isdigit() else 'space'} {bad!r} (U+{ord(bad):04X}) at "
                    f"position {pos} in {_show(text)}; write numbers with the ASCII digits 0-9")
            raise ParseError(
                f"expression: unexpected character {text[pos:].lstrip()[:1]!r} at position "
                f"{pos} in {_show(text)}; {_HINT}"
            )
        assert m.lastgroup is not None  # every alternative of the token pattern is a named group
        start = m.start(m.lastgroup)
        kind = m.lastgroup
        val = m.group(kind)
        if kind == "name" and val not in _NAMES:
            raise ParseError(f"expression: unknown name {val!r} at position {start} in {_show(text)}; {_HINT}")
        out.append((kind, val, start))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0
        self.depth = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None, len(self.text))

    def take(self, val=None):
        tok = self.peek()
        if tok[0] is None or (val is not None and tok[1] != val):
            want = repr(val) if val else "more input"
            got = repr(tok[1]) if tok[0] else "end of input"
            raise ParseError(f"expression: expected {want}, got {got} at position {tok[2]} in {_show(self.text)}")
        self.i += 1
        return tok

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise InputTooLarge(f"expression: nesting deeper than {MAX_DEPTH} in {_show(self.text)}")

    def expr(self):
        self.enter()
        node = self.term()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.take()[1]
            node = ("add" if op == "+" else "sub", node, self.term())
        self.depth -= 1
        return node

    def term(self):
        node = self.unary()
        while self.peek()[1] in ("*", "/") and self.peek()[0] == "op":
            op = self.take()[1]
            node = ("mul" if op == "*" else "div", node, self.unary())
        return node

    def unary(self):
        tok = self.peek()
        if tok[0] == "op" and tok[1] in ("+", "-"):
            self.take()
            self.enter()
            inner = self.unary()
            self.depth -= 1
            return ("neg", inner) if tok[1] == "-" else inner
        return self.power()

    def power(self):
        base = self.atom()
        if self.peek()[1] in ("^", "**") and self.peek()[0] == "op":
            self.take()
            self.enter()
            ex = self.unary()
            self.depth -= 1
            return ("pow", base, ex)
        return base

    def atom(self):
        kind, val, pos = self.peek()
        if kind == "num":
            self.take()
            return ("num", _decimal(val))
        if kind == "name":
            self.take()
            if val in ("alpha", "eps"):
                return (val,)
            self.take("(")
            arg = self.expr()
            self.take(")")
            return ("call", val, arg)
        if val == "(":
            self.take()
            node = self.expr()
            self.take(")")
            return node
        got = repr(val) if kind else "end of input"
        raise ParseError(f"expression: expected a number, name or '(', got {got} at position {pos} "
                         f"in {_show(self.text)}")


def parse_exact(text: str) -> tuple:
    """Parse ``text`` into an expression tree (the exactdp grammar; nothing is evaluated).

    Parameters
    ----------
    text : str
        The expression.

    Returns
    -------
    tuple
        The tree: ``("num", n)``, ``("add", a, b)``, ``("call", name, arg)``, ...

    Raises
    ------
    ParseError
        If the text is outside the grammar.
    InputTooLarge
        Beyond :data:`MAX_EXPR_CHARS` characters.

    Examples
    --------
    >>> parse_exact("1/2 + exp(-1)")
    ('add', ('div', ('num', 1), ('num', 2)), ('call', 'exp', ('neg', ('num', 1))))
    """
    if not isinstance(text, str):
        raise ParseError(f"expression: expected a string, got {type(text).__name__}")
    if len(text) > MAX_EXPR_CHARS:
        raise InputTooLarge(f"expression: {len(text)} characters, the limit is {MAX_EXPR_CHARS}")
    if not text.strip():
        raise ParseError("expression: empty string; expected an exact number such as 1/3")
    p = _Parser(text)
    node = p.expr()
    if p.i != len(p.toks):
        _kind, val, pos = p.toks[p.i]
        raise ParseError(f"expression: unexpected {val!r} at position {pos} in {_show(text)}")
    return node
