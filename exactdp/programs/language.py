"""The noise-program language: tokens, syntax tree and parser (issue 28; semantics in ``docs/programs.md``).

A program is a list of statements over integer query answers ``q_1..q_n``.  The text form, one statement a
line, blocks closed by ``end``::

    # Lyu, Su and Li 2017, Alg. 1 with c = 1
    rho = dlap(2)                  # DLap(2/eps), drawn once
    count = 0
    for i:                         # i = 1..n, q is q_i
        nu = dlap(4)               # fresh DLap(4/eps) every iteration
        if q + nu >= 1 + rho:
            output "T"
            count = count + 1
            if count >= 1:
                stop
            end
        else:
            output "F"
        end
    end

The parser is written by hand (no ``eval``); every refusal is a :class:`ProgramError` naming the line and
column of the mistake.

>>> p = parse_program("x = dlap(2)\\noutput clamp(q[1] + x, -1, 1)\\n")
>>> [type(s).__name__ for s in p.body]
['Assign', 'Output']
>>> parse_program("output clamp(q[1] + , 0, 1)")
Traceback (most recent call last):
...
exactdp.programs.language.ProgramError: line 1, column 21: expected a number, a name, 'q[...]' or '(', got ','
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..errors import ParseError

__all__ = ["MAX_PROGRAM_CHARS", "Program", "ProgramError", "at_level", "eps_scaled", "parse_program"]

#: longest program text read (a program is a few dozen lines; the limit keeps a hostile file cheap)
MAX_PROGRAM_CHARS = 100_000
#: largest absolute integer constant or noise scale part in a program
MAX_CONST = 10**6

KEYWORDS = {"if", "else", "end", "for", "output", "stop", "dlap", "geo", "clamp", "argmax", "max", "q", "i", "n"}
COMPARISONS = (">=", "<=", "==", "!=", ">", "<")


class ProgramError(ParseError):
    """A program that does not parse or is refused, with the line and column of the mistake.

    Parameters
    ----------
    line, column : int
        1-based place of the mistake (kept as attributes).
    message : str
        What is wrong.

    Examples
    --------
    >>> str(ProgramError(2, 5, "undefined variable 'y'"))
    "line 2, column 5: undefined variable 'y'"
    """

    def __init__(self, line: int, column: int, message: str):
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


# -- syntax tree ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Node:
    """Base of the syntax tree: every node knows its place (line, column)."""

    line: int
    col: int


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Var(Node):
    name: str


@dataclass(frozen=True)
class Query(Node):
    """``q`` (the current query in a loop) when ``index`` is None, else ``q[index]`` (1-based)."""

    index: object  # an expression node or None


@dataclass(frozen=True)
class BinOp(Node):
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Noise(Node):
    """``dlap(b)`` (two-sided, DLap(b/eps)) or ``geo(b)`` (one-sided, Geo(b/eps)); ``scale`` is ``b > 0``.

    ``per_eps``: the scale is ``b eps`` instead (``dlap(eps)``, ``dlap(b*eps)``: base ``e^(-1/(b eps))``), which is
    no power of ``e^(-eps)``; such a program is compiled at a level only (:func:`at_level`)."""

    kind: str
    scale: Fraction
    per_eps: bool = False


@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Assign(Node):
    name: str
    value: object  # an expression or a Noise


@dataclass(frozen=True)
class If(Node):
    cond: Compare
    then: list
    orelse: list


@dataclass(frozen=True)
class For(Node):
    body: list


@dataclass(frozen=True)
class Output(Node):
    """``kind``: ``symbol`` (``value`` a str), ``int`` (an exact integer expression), ``clamp`` (expression,
    ``lo``, ``hi``), ``argmax`` (``value`` a Noise), ``max`` (``value`` a Noise, with ``lo``, ``hi``)."""

    kind: str
    value: object
    lo: int = 0
    hi: int = 0


@dataclass(frozen=True)
class Stop(Node):
    pass


@dataclass
class Program:
    """A parsed noise program: its statements and the text it came from.

    Parameters
    ----------
    body : list
        The statements (syntax-tree nodes).
    text : str
        The program text.
    name : str
        Its name in messages and certificates.
    scales : list
        Unused; kept empty.

    Examples
    --------
    >>> parse_program("output 1", "one").name
    'one'
    """

    body: list
    text: str = ""
    name: str = "program"
    scales: list = field(default_factory=list)


# -- tokens --------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<ws>[ \t]+) | (?P<comment>\#[^\n]*) | (?P<nl>\n) | (?P<num>\d+) | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<str>"[A-Za-z0-9_+\-.]*") | (?P<op>>=|<=|==|!=|[-+*/(),:<>=\[\]])
""", re.VERBOSE | re.ASCII)


@dataclass(frozen=True)
class Tok:
    kind: str
    text: str
    line: int
    col: int


def tokenize(text: str) -> list[Tok]:
    """The tokens of ``text`` (newlines kept: they end statements).

    Examples
    --------
    >>> [t.text for t in tokenize("x = q + 1")]
    ['x', '=', 'q', '+', '1', '\\n']
    """
    out: list[Tok] = []
    line, start, pos = 1, 0, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        col = pos - start + 1
        if m is None:
            ch = text[pos]
            hint = " (a symbol is written in double quotes with letters, digits, _ + - .)" if ch == '"' else ""
            raise ProgramError(line, col, f"unexpected character {ch!r}{hint}")
        kind = m.lastgroup or ""
        if kind == "nl":
            out.append(Tok("nl", "\n", line, col))
            line, start = line + 1, m.end()
        elif kind not in ("ws", "comment"):
            out.append(Tok(kind, m.group(), line, col))
        pos = m.end()
    out.append(Tok("nl", "\n", line, pos - start + 1))
    return out


# -- parser --------------------------------------------------------------------------------------------------

class _Parser:
    def __init__(self, toks: list[Tok]):
        self.toks = toks
        self.k = 0
        self.loop_depth = 0

    def peek(self) -> Tok:
        return self.toks[self.k] if self.k < len(self.toks) else self.toks[-1]

    def fail(self, tok: Tok, msg: str):
        raise ProgramError(tok.line, tok.col, msg)

    def take(self, text: str | None = None, kind: str | None = None) -> Tok:
        t = self.peek()
        if (text is not None and t.text != text) or (kind is not None and t.kind != kind):
            want = repr(text) if text is not None else {"name": "a name", "num": "an integer", "nl": "end of line",
                                                         "str": "a symbol in double quotes"}.get(kind or "", kind)
            got = "end of line" if t.kind == "nl" else repr(t.text)
            self.fail(t, f"expected {want}, got {got}")
        self.k += 1
        return t

    def at(self, text: str) -> bool:
        return self.peek().text == text and self.peek().kind != "str"

    def skip_nl(self):
        while self.peek().kind == "nl" and self.k < len(self.toks) - 1:
            self.k += 1

    def block(self, enders: tuple[str, ...]) -> list:
        stmts: list = []
        while True:
            self.skip_nl()
            t = self.peek()
            if self.k >= len(self.toks) - 1:
                if enders:
                    self.fail(t, f"expected {' or '.join(repr(e) for e in enders)} to close the block, got end of "
                                 "program")
                return stmts
            if t.kind == "name" and t.text in enders:
                return stmts
            stmts.append(self.statement())

    def statement(self):
        t = self.peek()
        if t.kind != "name":
            self.fail(t, f"expected a statement (a name, 'if', 'for', 'output' or 'stop'), got {t.text!r}")
        if t.text == "if":
            return self.if_stmt()
        if t.text == "for":
            self.k += 1
            var = self.take(kind="name")
            if var.text != "i":
                self.fail(var, f"the loop variable is 'i' (it runs over the queries 1..n), got {var.text!r}")
            self.take(":")
            self.take(kind="nl")
            if self.loop_depth:
                self.fail(t, "loops do not nest: one loop over the n queries")
            self.loop_depth += 1
            body = self.block(("end",))
            self.loop_depth -= 1
            self.take("end")
            self.take(kind="nl")
            return For(t.line, t.col, body)
        if t.text == "output":
            self.k += 1
            out = self.output(t)
            self.take(kind="nl")
            return out
        if t.text == "stop":
            self.k += 1
            self.take(kind="nl")
            return Stop(t.line, t.col)
        if t.text in KEYWORDS:
            self.fail(t, f"{t.text!r} is a reserved word and cannot start a statement or be assigned")
        self.k += 1
        self.take("=")
        nxt = self.peek()
        value = self.noise() if nxt.text in ("dlap", "geo") else self.expr()
        self.take(kind="nl")
        return Assign(t.line, t.col, t.text, value)

    def if_stmt(self):
        t = self.take("if")
        cond = self.compare()
        self.take(":")
        self.take(kind="nl")
        then = self.block(("else", "end"))
        orelse: list = []
        if self.at("else"):
            self.k += 1
            self.take(":")
            self.take(kind="nl")
            orelse = self.block(("end",))
        self.take("end")
        self.take(kind="nl")
        return If(t.line, t.col, cond, then, orelse)

    def output(self, t: Tok):
        p = self.peek()
        if p.kind == "str":
            self.k += 1
            return Output(t.line, t.col, "symbol", p.text[1:-1])
        if p.text == "argmax":
            self.k += 1
            self.take("(")
            nz = self.query_plus_noise()
            self.take(")")
            return Output(t.line, t.col, "argmax", nz)
        if p.text == "clamp":
            self.k += 1
            self.take("(")
            if self.at("max"):
                self.k += 1
                self.take("(")
                nz = self.query_plus_noise()
                self.take(")")
                kind, value = "max", nz
            else:
                kind, value = "clamp", self.expr()
            self.take(",")
            lo = self.signed_int()
            self.take(",")
            hi = self.signed_int()
            self.take(")")
            if lo > hi:
                self.fail(p, f"clamp window [{lo}, {hi}] is empty: expected lo <= hi")
            return Output(t.line, t.col, kind, value, lo, hi)
        return Output(t.line, t.col, "int", self.expr())

    def query_plus_noise(self) -> Noise:
        t = self.peek()
        if t.text != "q" or self.toks[self.k + 1].text == "[":
            self.fail(t, "argmax and max take 'q + dlap(b)' or 'q + geo(b)' (fresh noise on every query)")
        self.k += 1
        self.take("+")
        return self.noise()

    def signed_int(self) -> int:
        neg = False
        if self.at("-"):
            self.k += 1
            neg = True
        t = self.take(kind="num")
        v = self.int_value(t)
        return -v if neg else v

    def int_value(self, t: Tok) -> int:
        if len(t.text) > 7 or int(t.text) > MAX_CONST:
            self.fail(t, f"integer {t.text} is larger than the limit {MAX_CONST}")
        return int(t.text)

    def noise(self) -> Noise:
        t = self.take(kind="name")
        if t.text not in ("dlap", "geo"):
            self.fail(t, f"expected dlap(b) or geo(b), got {t.text!r}")
        self.take("(")
        num, den, per_eps = 1, 1, False
        if not self.at("eps"):
            num = self.int_value(self.take(kind="num"))
            if self.at("/"):
                self.k += 1
                den = self.int_value(self.take(kind="num"))
            if self.at("*"):          # b*eps: the scale proportional to eps (hist_eps)
                self.k += 1
                if not self.at("eps"):
                    self.fail(self.peek(), f"expected 'eps' after '{num}/{den}*' in the noise scale")
        if self.at("eps"):
            self.k += 1
            per_eps = True
        close = self.peek()
        self.take(")")
        if num == 0 or den == 0:
            self.fail(close, f"noise scale {num}/{den}: expected a positive rational b (the noise is "
                             f"{t.text}(b/eps))")
        return Noise(t.line, t.col, t.text, Fraction(num, den), per_eps)

    def compare(self) -> Compare:
        left = self.expr()
        t = self.peek()
        if t.text not in COMPARISONS or t.kind != "op":
            self.fail(t, f"expected a comparison ({', '.join(COMPARISONS)}), got "
                         f"{'end of line' if t.kind == 'nl' else repr(t.text)}")
        self.k += 1
        right = self.expr()
        return Compare(t.line, t.col, t.text, left, right)

    def expr(self):
        node = self.term()
        while self.peek().text in ("+", "-") and self.peek().kind == "op":
            t = self.take()
            node = BinOp(t.line, t.col, t.text, node, self.term())
        return node

    def term(self):
        node = self.factor()
        while self.at("*"):
            t = self.take()
            node = BinOp(t.line, t.col, "*", node, self.factor())
        return node

    def factor(self):
        t = self.peek()
        if t.kind == "num":
            self.k += 1
            return Num(t.line, t.col, self.int_value(t))
        if t.text == "-" and t.kind == "op":
            self.k += 1
            return BinOp(t.line, t.col, "-", Num(t.line, t.col, 0), self.factor())
        if t.text == "(":
            self.k += 1
            e = self.expr()
            self.take(")")
            return e
        if t.kind == "name":
            if t.text in ("dlap", "geo"):
                self.fail(t, "noise is drawn in an assignment of its own (x = dlap(b)), not inside an expression")
            if t.text == "q":
                self.k += 1
                if self.at("["):
                    self.k += 1
                    idx = self.expr()
                    self.take("]")
                    return Query(t.line, t.col, idx)
                return Query(t.line, t.col, None)
            if t.text in KEYWORDS and t.text not in ("i", "n"):
                self.fail(t, f"{t.text!r} is a reserved word, not a value")
            self.k += 1
            return Var(t.line, t.col, t.text)
        self.fail(t, "expected a number, a name, 'q[...]' or '(', got "
                     f"{'end of line' if t.kind == 'nl' else repr(t.text)}")


def parse_program(text: str, name: str = "program") -> Program:
    """Parse the text form of a noise program.

    Parameters
    ----------
    text : str
        The program (syntax in ``docs/programs.md``).
    name : str, default "program"
        Its name in messages and certificates.

    Returns
    -------
    Program
        The syntax tree, with the text kept (certificates carry it).

    Raises
    ------
    ProgramError
        Text that does not parse, with its line and column.

    Examples
    --------
    >>> parse_program("for i:\\n  x = geo(4/3)\\n  output clamp(q + x, 0, 2)\\nend\\n").body[0].body[0].value.scale
    Fraction(4, 3)
    >>> parse_program("")
    Traceback (most recent call last):
    ...
    exactdp.programs.language.ProgramError: line 1, column 1: the program is empty: no statement
    >>> parse_program("if q[1] > 0:\\n  stop\\n")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.programs.language.ProgramError: line 3, column 1: expected 'else' or 'end' to close the block, got end of
    program
    """
    if not isinstance(text, str):
        raise ProgramError(1, 1, f"expected the program as text, got {type(text).__name__}")
    if len(text) > MAX_PROGRAM_CHARS:
        raise ProgramError(1, 1, f"program of {len(text)} characters exceeds the limit {MAX_PROGRAM_CHARS}")
    p = _Parser(tokenize(text))
    body = p.block(())
    if not body:                    # an empty file (or comments only) is a mistake, not a program releasing nothing
        raise ProgramError(1, 1, "the program is empty: no statement")
    return Program(body, text, name)


def _walk_noise(stmts: list, fn) -> list:
    """The statements with every noise ``nz`` replaced by ``fn(nz)`` (a new tree; the old one is untouched)."""
    out = []
    for s in stmts:
        if isinstance(s, (Assign, Output)) and isinstance(s.value, Noise):
            s = replace(s, value=fn(s.value))
        elif isinstance(s, If):
            s = replace(s, then=_walk_noise(s.then, fn), orelse=_walk_noise(s.orelse, fn))
        elif isinstance(s, For):
            s = replace(s, body=_walk_noise(s.body, fn))
        out.append(s)
    return out


def eps_scaled(program: Program) -> bool:
    """Whether the program draws a noise whose scale is proportional to eps (``dlap(eps)``, ``geo(b*eps)``).

    Parameters
    ----------
    program : Program
        A parsed program.

    Returns
    -------
    bool
        True when some noise has base ``e^(-1/(b eps))``: then the program is compiled at a level only.

    Examples
    --------
    >>> eps_scaled(parse_program("z = dlap(eps)\\noutput clamp(q[1] + z, 0, 1)\\n"))
    True
    >>> eps_scaled(parse_program("z = dlap(2)\\noutput clamp(q[1] + z, 0, 1)\\n"))
    False
    """
    found: list[bool] = []

    def note(nz: Noise) -> Noise:
        found.append(nz.per_eps)
        return nz

    _walk_noise(program.body, note)
    return any(found)


def at_level(program: Program, eps0: Fraction) -> Program:
    """The program with its noise at the level ``eps0``: every ``dlap(b*eps)`` becomes ``dlap(b eps0^2)``.

    ``DLap(b eps0)`` has base ``a = e^(-1/(b eps0))``, and ``dlap(b eps0^2)`` (``DLap(b eps0^2/eps)``) at
    ``eps = eps0`` has the same base ``e^(-eps0/(b eps0^2))``: the compiled mechanism at ``eps0`` is exact.
    Noises with scale ``b/eps`` are unchanged.

    Parameters
    ----------
    program : Program
        A parsed program.
    eps0 : Fraction
        The level, a positive rational.

    Returns
    -------
    Program
        The same text and name; the tree with every scale a rational ``b`` (of ``b/eps``).

    Examples
    --------
    >>> p = at_level(parse_program("z = dlap(eps)\\noutput clamp(q[1] + z, 0, 1)\\n"), Fraction(1, 2))
    >>> p.body[0].value.scale, eps_scaled(p)
    (Fraction(1, 4), False)
    """
    e = Fraction(eps0)
    return Program(_walk_noise(program.body,
                               lambda nz: replace(nz, scale=nz.scale * e * e, per_eps=False) if nz.per_eps else nz),
                   program.text, program.name)
