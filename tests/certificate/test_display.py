"""The text format for a reader (issue 32 items 16-17): escaped, shortened, certified decimals beside exact values.

The enclosures are checked against Python's ``decimal`` module at 60 digits (independent of FLINT/Arb)."""

import json
from decimal import Decimal, getcontext
from fractions import Fraction

import pytest

from exactdp.certificate.display import (MAX_ITEMS, decimal_enclosure_of, for_reader, shorten, terminal_safe,
                                         with_decimals)
from exactdp.cli import main

getcontext().prec = 60
E = Decimal(1).exp()


@pytest.mark.parametrize("text,value", [
    ("-1/16*exp(1) + 5/16", -E / 16 + Decimal(5) / 16),
    ("log(17/5)", (Decimal(17) / 5).ln()),
    ("1/16*exp(1) - 17/80", E / 16 - Decimal(17) / 80),
    ("sqrt(2)/3", Decimal(2).sqrt() / 3),
    ("log((exp(1) + 4)/(exp(-1/2) + 1))/15", ((E + 4) / (Decimal("-0.5").exp() + 1)).ln() / 15),
    ("2^-3", Decimal(1) / 8),
])
def test_the_enclosure_holds_the_exact_value(text, value):
    lo, hi = decimal_enclosure_of(text)
    assert Decimal(lo) <= value <= Decimal(hi)
    assert Decimal(hi) - Decimal(lo) <= abs(value) * Decimal("1e-7") + Decimal("1e-12")      # about 8 digits


@pytest.mark.parametrize("text", ["1/2 - (1/4)*exp(eps)", "alpha/2", "inf", "(0, 1)", "log(0)", "1/(1 - 1)", "x"])
def test_no_enclosure_where_there_is_no_finite_constant(text):
    assert decimal_enclosure_of(text) is None and with_decimals(text) == text


def test_with_decimals_leaves_plain_numbers_and_brackets_exact_rationals():
    assert with_decimals("12") == "12" and with_decimals("-0.5") == "-0.5"
    assert with_decimals("1/10") == "1/10 in [0.1, 0.1]"
    lo, hi = with_decimals("1/3")[len("1/3 in ["):-1].split(", ")
    assert Fraction(lo) < Fraction(1, 3) < Fraction(hi)


def test_terminal_safe_escapes_controls_but_keeps_lines():
    assert terminal_safe("a\x1b[2Jb\u202ec\x00\td\n") == "a\\x1b[2Jb\\u202ec\\x00\td\n"
    assert terminal_safe("é ✓ (0,0)") == "é ✓ (0,0)"


@pytest.mark.parametrize("n", [MAX_ITEMS - 1, MAX_ITEMS, MAX_ITEMS + 1, 40])
def test_long_lists_say_how_many_more(n):
    pairs = [f"({k}, {k}/7)" for k in range(n)]
    got = shorten("vertices " + ", ".join(pairs) + "; end")
    if n <= MAX_ITEMS:
        assert got == "vertices " + ", ".join(pairs) + "; end"
    else:
        assert got == "vertices " + ", ".join(pairs[:MAX_ITEMS]) + f", ... {n - MAX_ITEMS} more; end"


def test_a_long_value_keeps_its_ends_and_length():
    v = "exp(1) + " * 100 + "1"
    got = shorten(v, 60)
    assert got == f"{v[:30]} ... {v[-30:]} ({len(v):,} characters; --format json prints it in full)"


def test_for_reader_decorates_rows_not_the_claim():
    text = "claim:   x is 1/3\nverdict: holds\nslack: 1/3\nattained by: (0, 1)\n"
    assert for_reader(text, decimals=True) == ("claim:   x is 1/3\nverdict: holds\nslack: 1/3 in [0.33333333, "
                                               "0.33333334]\nattained by: (0, 1)\n")
    assert for_reader(text) == text


def _write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


def test_the_commands_text_has_decimals_and_their_json_the_exact_values(tmp_path, capsys):
    plan = _write(tmp_path, "plan.json", [{"builder": "grr", "k": 3, "eps": "log(2)", "times": 3}])
    d3 = _write(tmp_path, "d3.json", {"kind": "discrete", "points": ["0", "1", "2"]})
    assert main(["audit", plan, "--metric", d3, "--eps", "1", "--delta", "1/10"]) == 1
    out = capsys.readouterr().out
    assert "exact delta at eps: -1/16*exp(1) + 5/16 in [0.14260738, 0.14260739]\n" in out
    assert "smallest eps at delta: log(17/5) in [1.2237754, 1.2237755]\n" in out
    assert main(["audit", plan, "--metric", d3, "--eps", "1", "--delta", "1/10", "--format", "json"]) == 1
    ev = json.loads(capsys.readouterr().out)["evidence"]
    assert " in [" not in json.dumps(ev) and "-1/16*exp(1) + 5/16" in json.dumps(ev)


def test_a_file_name_with_escapes_reaches_the_terminal_escaped(tmp_path, capsys):
    evil = _write(tmp_path, "evil\x1b[31m\u202e.json", {"matrix": [["2/3", "1/3"], ["1/3", "2/3"]]})
    p2 = _write(tmp_path, "p2.json", {"kind": "path", "n": 2})
    for fmt in ("text", "markdown", "latex"):
        assert main(["epsilon", evil, "--metric", p2, "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\u202e" not in out
        assert ("evil\\x1b[31m\\u202e.json" if fmt != "latex" else "evil\\textbackslash{}x1b[31m") in out
