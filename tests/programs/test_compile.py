"""The compiler against an independent exact evaluator (issue 28): concrete runs with fractions at a rational t,
noise enumerated in a window, the mass outside the windows bounded exactly; never Monte Carlo."""

import re
from fractions import Fraction
from pathlib import Path

import pytest
from _program_brute import brute_distribution

from exactdp.errors import InputTooLarge
from exactdp.programs import ProgramError, RatFunc, base_power, output_distribution, parse_program

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"


def _suite(name):
    return parse_program((SUITE / f"{name}.prog").read_text(), name)


def _agree(program, x, t, W):
    """Every compiled probability at t lies in the brute force's exact enclosure, and no output is missed."""
    L = base_power(program)
    dist = output_distribution(program, x)
    low, lost = brute_distribution(program, x, t, L, W)
    assert lost < Fraction(1, 10**5)
    for z, v in dist.items():
        val = v.at(t)
        assert low.get(z, 0) <= val <= low.get(z, 0) + lost, (z, val, low.get(z))
    for z, lw in low.items():
        assert lw > 0 and z in dist
    assert sum(v.at(t) for v in dist.values()) == 1


@pytest.mark.parametrize("name,x", [
    ("svt1", (0, 2)), ("svt1", (2, 1)), ("svt3", (1, 0)), ("svt4", (0, 1)), ("svt5", (1, 2)), ("svt6", (2, 0)),
    ("nm_index_lap", (0, 1)), ("nm_index_geo", (1, 1)), ("nm_value_lap", (2, 0)), ("nm_value_geo", (0, 1)),
    ("hist", (0, 2)), ("partial_sum", (1, 2)),
])
def test_suite_programs_agree_with_the_brute_force(name, x):
    _agree(_suite(name), x, Fraction(1, 8), 7)


@pytest.mark.parametrize("name,x", [
    ("prefix_sum", (0, 2)), ("prefix_sum", (2, 0, 1)), ("smart_sum", (1, 0, 2)), ("smart_sum_bad", (2, 1, 0)),
])
def test_running_sums_agree_with_the_brute_force(name, x):
    # next = next + q + eta released at every step: sums of two and three noises (terms |s| t^|s|, sums.py)
    _agree(_suite(name), x, Fraction(1, 8), 7)


def test_running_sum_of_two_noises_by_hand():
    # "0,1": Z_1 <= 0 and Z_1 + Z_2 >= 1, the sum over z <= 0 of C t^(-z) P(Z_2 >= 1 - z) = C t/((1+t)(1-t^2))
    p = parse_program("s = 0\nfor i:\n  z = dlap(1)\n  s = s + z\n  output clamp(s, 0, 1)\nend\n")
    t = RatFunc.mono(1)
    C = (1 - t) / (1 + t)
    d = output_distribution(p, (5, 5))
    assert d["0,1"] == C * t / ((1 + t) * (1 - t * t))
    assert d["0,0"] == 1 / (1 + t) - d["0,1"]            # P(Z_1 <= 0) = 1/(1+t)


@pytest.mark.slow
@pytest.mark.parametrize("name,x", [("gap_svt", (1, 2)), ("numerical_svt", (2, 1))])
def test_value_releasing_svt_agrees_with_the_brute_force(name, x):
    _agree(_suite(name), x, Fraction(1, 8), 6)


def test_pivot_with_coefficients_and_equalities():
    # a pivot with coefficient 2, an equality and a != on loop noise; one-sided noise as the pivot
    p = parse_program("r = geo(2)\nfor i:\n  z = dlap(1)\n  if 2*r - z == q:\n    output \"E\"\n"
                      "  else:\n    if q + z != r:\n      output \"N\"\n    else:\n      output \"Q\"\n"
                      "    end\n  end\nend\nif 3 * r >= 4:\n  output \"big\"\nend\n")
    _agree(p, (1, 0), Fraction(1, 8), 6)


def test_exact_values_by_hand():
    # P(DLap(1/eps) >= 1) = t/(1+t); P(argmax of two one-sided noises = 1) = 1/(1+t) (ties to the smallest)
    p = parse_program('z = dlap(1)\nif z >= 1:\n  output "T"\nelse:\n  output "F"\nend\n')
    t = RatFunc.mono(1)
    assert output_distribution(p, ()) == {"T": t / (1 + t), "F": 1 / (1 + t)}
    d = output_distribution(parse_program("output argmax(q + geo(1))"), (0, 0))
    assert d == {"1": 1 / (1 + t), "2": t / (1 + t)}


def test_a_noise_that_cancels_is_a_constant():
    # z - z has no noise left: compared and clamped as the constant 0 (it divided by zero before)
    p = parse_program('z = dlap(1)\ny = z - z\nif y >= 0:\n  output "a"\nend\noutput clamp(y + q[1], -1, 1)\n')
    assert output_distribution(p, (1,)) == {"a,1": RatFunc(1)}


def test_base_power_is_the_lcm_of_the_scale_numerators():
    assert base_power(_suite("svt4")) == 4       # DLap(4/eps) = t^1, DLap(4/(3 eps)) = t^3
    assert base_power(_suite("numerical_svt")) == 6
    assert base_power(parse_program("output 1")) == 1


def test_no_noise_and_no_output():
    # a program (or a path) that outputs nothing releases "none"; an empty file is refused
    assert output_distribution(parse_program("x = 1\n"), (0,)) == {"none": RatFunc(1)}
    for empty in ("", "\n\n", "# a comment only\n"):
        with pytest.raises(ProgramError, match="line 1, column 1: the program is empty"):
            parse_program(empty)
    assert output_distribution(parse_program("output q[1] * 2 - 1\n"), (3,)) == {"5": RatFunc(1)}


@pytest.mark.parametrize("text,where,msg", [
    ("a = dlap(1)\nfor i:\n  b = dlap(1)\n  c = dlap(1)\n  if b >= c:\n    stop\n  end\nend\n", "line 5, column 8",
     "two noises drawn apart from the pivot"),
    ("a = dlap(1)\nb = dlap(1)\nc = dlap(1)\nif a + b >= 0:\n  if b + c >= 0:\n    stop\n  end\nend\n",
     "line 5, column 12", "do not nest into running sums"),
    ("a = dlap(1)\nfor i:\n  b = dlap(1)\n  c = dlap(1)\n  if b + 2 * c >= a:\n    stop\n  end\nend\n",
     "line 5, column 16", "coefficient other than +-1"),
    ("a = dlap(1)\nb = a * a\n", "line 2, column 7", "noise times noise"),
    ("a = dlap(1)\nfor i:\n  b = dlap(1)\n  if 2 * b >= a:\n    stop\n  end\nend\n", "line 4, column 12",
     "coefficient 2"),
    ("output q\n", "line 1, column 8", "outside the loop"),
    ("output y\n", "line 1, column 8", "undefined variable 'y'"),
    ("output q[3]\n", "line 1, column 8", "query index 3 outside 1..2"),
    ("a = dlap(1)\noutput a\n", "line 2, column 1", "released only clamped"),
    ("a = dlap(1)\noutput argmax(q + dlap(1))\n", "line 2, column 1", "argmax/max"),
    ("a = dlap(1)\noutput q[a]\n", "line 2, column 8", "must not depend on noise"),
])
def test_refused_constructs_name_the_place(text, where, msg):
    with pytest.raises(ProgramError, match=re.escape(where) + ".*" + re.escape(msg)):
        output_distribution(parse_program(text), (0, 1))


def test_too_many_paths_is_refused():
    p = parse_program("for i:\n  z = dlap(1)\n  output clamp(q + z, -6, 8)\nend\n")
    with pytest.raises(InputTooLarge, match="more than 100 paths"):
        output_distribution(p, (0, 0), max_paths=100)


def _cold(program, x):
    """``output_distribution`` with every cache emptied first (what the first compilation of a process sees)."""
    from exactdp.programs import compile as comp

    comp._SUMS.clear()
    comp._MEMO.clear()
    return output_distribution(program, x)


def test_shared_caches_give_the_cold_compilation_exactly():
    # the closed forms are cached across inputs and programs by their constraint data; compiling every suite
    # program on several inputs with warm caches (in an order that mixes programs) must equal the cold result
    names = ["svt1", "svt3", "svt4", "nm_value_lap", "gap_svt", "nm_index_geo", "partial_sum_bad"]
    inputs = [(0, 2), (2, 1), (1, 1)]
    cold = {(nm, x): _cold(_suite(nm), x) for nm in names for x in inputs}
    progs = {nm: _suite(nm) for nm in names}
    for x in reversed(inputs):
        for nm in reversed(names):
            assert output_distribution(progs[nm], x) == cold[(nm, x)], (nm, x)


def test_the_memo_hands_out_copies_and_follows_the_program_object():
    p, q = _suite("svt1"), _suite("svt4")
    d = output_distribution(p, (0, 1))
    d["forged"] = RatFunc(1)
    assert "forged" not in output_distribution(p, (0, 1))
    # a different program object (even with the same text) is compiled, not served from the other's memo
    assert output_distribution(q, (0, 1)) != output_distribution(p, (0, 1))
    assert output_distribution(_suite("svt1"), (0, 1)) == output_distribution(p, (0, 1))


def test_an_integer_built_by_repeated_squaring_is_refused_at_its_line():
    # an outsider's text: 30 squarings of 3 (3^(2^30), about 1.7e9 bits) ran for minutes before this bound; the
    # program's integers are held to 2^62 in magnitude, refused where the value first exceeds it
    text = "x = 3\n" + "x = x*x\n" * 30 + "s = q[1] + q[2]\nz = dlap(1)\noutput clamp(s + z + x - x, 0, 2)\n"
    with pytest.raises(ProgramError, match=r"line 7, column \d+: this expression's value exceeds 2\^62"):
        output_distribution(parse_program(text, "squares"), (0, 1))
    ok = "x = 3\n" + "x = x*x\n" * 5 + "s = q[1] + q[2]\nz = dlap(1)\noutput clamp(s + z + x - x, 0, 2)\n"
    assert output_distribution(parse_program(ok, "squares"), (0, 1))    # 3^32 < 2^62: computed


def test_the_path_limit_is_exact_at_the_boundary():
    # hist's loop at n = 2: 15 states after the first release, 15 * 15 = 225 after the second (the largest count);
    # the count is checked while it grows, so the limit 225 compiles and 224 refuses at the release's line
    p = parse_program("for i:\n  z = dlap(1)\n  output clamp(q + z, -6, 8)\nend\n")
    full = output_distribution(p, (0, 1), max_paths=10**6)
    assert len(full) == 225
    assert output_distribution(p, (0, 1), max_paths=225) == full
    with pytest.raises(InputTooLarge, match=re.escape("more than 224 paths at line 3 on input (0, 1)")):
        output_distribution(p, (0, 1), max_paths=224)


def test_the_path_limit_counts_only_feasible_forks():
    # the second clamp of the same noise forks 3 * 3 ways of which 3 are feasible: the limit 3 is enough
    p = parse_program("z = dlap(1)\noutput clamp(z, 0, 2)\noutput clamp(z, 0, 2)\n")
    d = output_distribution(p, (0,), max_paths=3)
    assert sorted(d) == ["0,0", "1,1", "2,2"]
    t = RatFunc.mono(1)
    assert d["1,1"] == (1 - t) / (1 + t) * t
    with pytest.raises(InputTooLarge, match=re.escape("more than 2 paths at line 2")):
        output_distribution(p, (0,), max_paths=2)


def test_a_refusal_restores_the_cyclic_collector():
    import gc

    p = parse_program("for i:\n  z = dlap(1)\n  output clamp(q + z, -6, 8)\nend\n")
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            with pytest.raises(InputTooLarge):
                output_distribution(p, (2, 2, 2), max_paths=50)
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
