"""Target laws and the exact comparison (issue 30): both verdicts and undecided, exact tables, bad targets."""

import json
from fractions import Fraction

import pytest
from flint import arb, ctx

from exactdp.samplers import SamplerError, compare, law, parse_target, target


def coin(rng):
    return rng.randrange(4) < 1


def test_an_exact_table_matches_and_differs_exactly(tmp_path):
    p = tmp_path / "t.json"
    p.write_text(json.dumps({"values": {"1": "1/4", "0": "3/4"}}))
    c = compare(law(coin), parse_target(str(p)), (0, 2), width=0)
    assert c.verdict == "matches" and c.exit_code == 0 and [r.status for r in c.rows] == ["inside"] * 3
    p.write_text(json.dumps({"1": "1/3", "0": "2/3"}))
    c = compare(law(coin), parse_target(str(p)), (0, 1), width=0)
    assert c.verdict == "differs" and c.exit_code == 1
    assert (c.witness.value, c.witness.status, c.witness.lo, c.witness.hi) == (0, "below", Fraction(3, 4),
                                                                              Fraction(3, 4))


def test_too_wide_is_undecided_and_says_by_how_much(tmp_path):
    def geometric(rng):
        k = 0
        while rng.randrange(2):
            k += 1
        return k

    L = law(geometric, depth=4)
    assert L.residual == Fraction(1, 16)
    c = compare(L, target("geometric_exp", Fraction(1, 1)), (0, 0), width=Fraction(1, 100))
    assert c.verdict == "differs"  # 1 - e^-1 = 0.63 > 1/2 + 1/16
    p = tmp_path / "t.json"  # inside every enclosure [2^-(k+1), 2^-(k+1) + 1/16]
    p.write_text(json.dumps({"0": "17/32", "1": "9/32", "2": "5/32"}))
    c = compare(L, parse_target(str(p)), (0, 2), width=Fraction(1, 100))
    assert c.verdict == "undecided" and c.exit_code == 3 and "by a factor 6.25" in c.reason


def test_the_dgauss_normaliser_encloses_one():
    t = target("dgauss", Fraction(5, 2))
    with ctx.workprec(128):
        total = sum((t.prob(z, 128) for z in range(-40, 41)), arb(0))
        assert total.overlaps(arb(1)) and total.rad() < 1e-30


@pytest.mark.parametrize("text", ["dlaplace:3/2", "dlaplace(3/2)", " dlaplace( 3/2 ) "])
def test_target_forms(text):
    assert str(parse_target(text)) == "dlaplace(3/2)"


@pytest.mark.parametrize("text,pattern", [
    ("laplace:1", "unknown target"), ("dlaplace", "expected NAME:PARAM"), ("dlaplace:x", "not an exact rational"),
    ("dlaplace:0", "must be > 0"), ("bernoulli_exp:-1", "must be >= 0"), ("geometric_exp:0", "must be > 0"),
    ("missing.json", "target table missing.json")])
def test_bad_targets(text, pattern):
    with pytest.raises(SamplerError, match=pattern):
        parse_target(text)


@pytest.mark.parametrize("content,pattern", [("[1]", "expected"), ('{"x": "1/2"}', "not an integer"),
                                             ('{"0": 0.5}', "exact value"), ('{"0": "3/2"}', "not a probability"),
                                             ('{"0": "2/3", "1": "2/3"}', "sum to 4/3")])
def test_bad_tables(tmp_path, content, pattern):
    p = tmp_path / "t.json"
    p.write_text(content)
    with pytest.raises(SamplerError, match=pattern):
        parse_target(str(p))


def test_bad_support_and_float_parameter():
    with pytest.raises(SamplerError, match="LO <= HI"):
        compare(law(coin), target("bernoulli_exp", 1), (2, 1))
    with pytest.raises(SamplerError, match="exact rational"):
        target("dlaplace", 0.5)
