"""The program parser (issue 28): the syntax tree it builds and every refusal, with its line and column."""

import re
from fractions import Fraction

import pytest

from exactdp.programs import ProgramError, parse_program
from exactdp.programs.language import MAX_PROGRAM_CHARS, Assign, For, If, Noise, Output, Stop, tokenize


def test_tree_of_a_loop_program():
    p = parse_program("rho = dlap(2)\nfor i:\n  nu = geo(4/3)  # fresh\n  if q + nu >= 1 + rho:\n"
                      "    output \"T\"\n    stop\n  else:\n    output clamp(q - nu, -6, 8)\n  end\nend\n", "x")
    a, f = p.body
    assert isinstance(a, Assign) and a.value == Noise(1, 7, "dlap", Fraction(2))
    assert isinstance(f, For) and isinstance(f.body[1], If)
    then, orelse = f.body[1].then, f.body[1].orelse
    assert isinstance(then[0], Output) and then[0].kind == "symbol" and then[0].value == "T"
    assert isinstance(then[1], Stop)
    assert orelse[0].kind == "clamp" and (orelse[0].lo, orelse[0].hi) == (-6, 8)
    assert p.name == "x" and p.text.startswith("rho")


def test_argmax_and_max_forms():
    a = parse_program("output argmax(q + geo(2))").body[0]
    assert a.kind == "argmax" and a.value.kind == "geo"
    m = parse_program("output clamp(max(q + dlap(1)), -1, 3)").body[0]
    assert (m.kind, m.lo, m.hi) == ("max", -1, 3)


def test_tokens_keep_places():
    toks = tokenize("x = 1\n  y = q[2]")
    assert [(t.text, t.line, t.col) for t in toks if t.text == "y"] == [("y", 2, 3)]


@pytest.mark.parametrize("text,where,msg", [
    ("x = 1 $ 2", "line 1, column 7", "unexpected character '$'"),
    ('output "a b"', "line 1, column 8", "unexpected character"),
    ("x = dlap(0)", "line 1, column 11", "noise scale 0/1"),
    ("x = dlap(1/0)", "line 1, column 13", "noise scale 1/0"),
    ("x = dlap(-1)", "line 1, column 10", "expected an integer"),
    ("x = 1 + dlap(1)", "line 1, column 9", "drawn in an assignment of its own"),
    ("for j:\nend", "line 1, column 5", "the loop variable is 'i'"),
    ("for i:\n  for i:\n  end\nend", "line 2, column 3", "loops do not nest"),
    ("if q[1] > 0:\n  stop\n", "line 3, column 1", "to close the block"),
    ("if q[1] 0:\n  stop\nend", "line 1, column 9", "expected a comparison"),
    ("if = 3\n", "line 1, column 4", "expected a number"),
    ("stop 3", "line 1, column 6", "expected end of line"),
    ("output clamp(q[1], 3, 1)", "line 1, column 8", "clamp window [3, 1] is empty"),
    ("output argmax(q[1] + dlap(1))", "line 1, column 15", "argmax and max take 'q + dlap(b)'"),
    ("x = 99999999", "line 1, column 5", "larger than the limit"),
    ("end", "line 1, column 1", "a reserved word"),
    ("n = 3", "line 1, column 1", "a reserved word"),
    ("x = clamp", "line 1, column 5", "a reserved word, not a value"),
    ("+ 1", "line 1, column 1", "expected a statement"),
    ("x = (1 + 2", "line 1, column 11", "expected ')'"),
])
def test_refusals_name_line_and_column(text, where, msg):
    with pytest.raises(ProgramError, match=re.escape(where) + ".*" + re.escape(msg)) as e:
        parse_program(text)
    line, col = (int(v) for v in re.findall(r"\d+", where))
    assert (e.value.line, e.value.column) == (line, col)


def test_too_long_and_not_text():
    with pytest.raises(ProgramError, match="exceeds the limit"):
        parse_program("#" * (MAX_PROGRAM_CHARS + 1))
    with pytest.raises(ProgramError, match="expected the program as text"):
        parse_program(b"output 1")  # type: ignore[arg-type]
