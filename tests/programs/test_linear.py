"""Programs of noisy linear queries (exactdp/programs/linear.py): the forms, the bound, and where it applies.

The lemma only proves privacy; every program it calls private is checked private on the compiled matrix (the
general route, which does not know the lemma), and every bound is compared with the exact cost at eps0 = 1.
"""

import re
from fractions import Fraction
from pathlib import Path

import pytest

from exactdp.errors import InvalidInput
from exactdp.programs import certify_program, parse_program
from exactdp.programs.check import program_certificate
from exactdp.programs.linear import linear_form, noise_sites

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"


def _suite(name):
    text = (SUITE / f"{name}.prog").read_text()
    return parse_program(text, name), re.search(r"# relation: (\S+)", text).group(1)


def test_running_sums_forms_and_bounds():
    p, rel = _suite("prefix_sum")
    f = linear_form(p, 4, (0, 2), rel)
    assert f.forms == {(0, i): tuple(int(j == i - 1) for j in range(4)) for i in range(1, 5)}
    assert f.bound == 1 and f.private
    p, rel = _suite("smart_sum")             # q_i in two noisy sums of scale 2 (a block's end in one)
    f = linear_form(p, 4, (0, 2), rel)
    assert f.forms == {(1, 1): (1, 0, 0, 0), (0, 2): (1, 1, 0, 0), (1, 3): (0, 0, 1, 0), (0, 4): (0, 0, 1, 1)}
    assert f.bound == 1
    assert linear_form(p, 4, (0, 2), "all-differ").bound == 3       # (1,1,1,1): 1/2 + 2/2 + 1/2 + 2/2


def test_svt_bound_grows_with_n():
    p, _ = _suite("svt1")                    # nu_i ~ DLap(4/eps) carries q_i; rho carries nothing
    assert [linear_form(p, n, (0, 2), "all-differ").bound for n in (2, 3, 4, 5)] == \
        [Fraction(1, 2), Fraction(3, 4), Fraction(1), Fraction(5, 4)]
    assert linear_form(p, 5, (0, 2), "one-differ").bound == Fraction(1, 4)


@pytest.mark.parametrize("text,why", [
    ("output argmax(q + dlap(2))\n", "argmax"),
    ("z = dlap(1)\nw = 3 * z\nv = z * w\noutput clamp(v, 0, 1)\n", "a product of two unknowns"),
    ("z = dlap(1)\noutput clamp(q[1], 0, 2)\n", "a raw query released"),
    ("z = dlap(1)\noutput clamp(2 * z + q[1], 0, 2)\n", "the form would be 1/2"),
])
def test_not_of_the_form(text, why):
    assert linear_form(parse_program(text), 2, (0, 2), "all-differ") is None, why


def test_a_shifted_one_sided_noise_proves_nothing():
    p = parse_program("for i:\n  z = geo(1)\n  output clamp(q + z, 0, 3)\nend\n")
    f = linear_form(p, 2, (0, 2), "one-differ")
    assert f.bound is None and not f.private


def test_branches_on_constants_are_taken_not_forked():
    p = parse_program("k = 0\nfor i:\n  k = k + 1\n  if k == 2:\n    z = dlap(1)\n    output clamp(q + z, 0, 2)\n"
                      "  else:\n    output \"-\"\n  end\nend\n")
    f = linear_form(p, 3, (0, 2), "all-differ")
    assert f.forms == {(0, 2): (0, 1, 0)} and f.bound == 1      # only iteration 2 draws and releases


def test_noise_sites_in_reading_order():
    p = parse_program("a = dlap(1)\nfor i:\n  if q >= 1:\n    b = dlap(2)\n  else:\n    c = geo(1)\n  end\nend\n"
                      "output 1\n")
    assert sorted(noise_sites(p).values()) == [0, 1, 2]


@pytest.mark.slow
def test_every_private_verdict_of_the_lemma_is_the_matrix_verdict_and_bounds_the_cost():
    checked = 0
    for f in sorted(SUITE.glob("*.prog")):
        if f.stem in ("hist_eps", "smart_sum", "smart_sum_bad"):
            continue                           # a level only; n >= 3 (below)
        p, rel = _suite(f.stem)
        lf = linear_form(p, 2, (0, 2), rel)
        if lf is None or not lf.private:
            continue
        assert certify_program(p, n=2, domain=(0, 2), relation=rel).holds, f.stem
        cost = certify_program(p, n=2, domain=(0, 2), relation=rel, eps="1", cost=True)
        assert Fraction(cost.evidence.enclosure[0]) <= lf.bound, f.stem      # the exact cost <= S at eps0 = 1
        checked += 1
    p, rel = _suite("smart_sum")
    assert linear_form(p, 3, (0, 2), rel).private and certify_program(p, n=3, domain=(0, 2), relation=rel).holds
    assert checked >= 10


def test_program_certificate_forms():
    p, rel = _suite("prefix_sum")
    c = program_certificate(p, n=6, domain=(0, 2), relation=rel)
    assert c.holds and c.evidence.form == "linear" and c.evidence.inputs == [] and c.method.name == "RATIONAL"
    assert c.evidence.noise_forms[0] == [0, 1, 1, 0, 0, 0, 0, 0]
    assert program_certificate(p, n=2, domain=(0, 2), relation=rel, form="matrix").evidence.form == "matrix"
    with pytest.raises(InvalidInput, match="form linear: the program is not"):
        program_certificate(p, n=3, domain=(0, 2), relation="all-differ", form="linear")
    with pytest.raises(InvalidInput, match="form product"):
        program_certificate(p, n=3, domain=(0, 2), relation=rel, form="product")
    with pytest.raises(InvalidInput, match="form: expected"):
        program_certificate(p, n=3, domain=(0, 2), relation=rel, form="fast")
    svt4, _ = _suite("svt4")                   # fails: the lemma proves nothing, the matrix decides
    assert program_certificate(svt4, n=2, domain=(0, 2), relation="all-differ").evidence.form == "matrix"
