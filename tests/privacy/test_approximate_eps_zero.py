"""(0, delta)-DP however eps = 0 is written: the total-variation question (issue 19, item 3).

The expected values come from an independent brute force with Python Fractions: the total-variation
distance of two rows is half their L1 distance, and also the largest P(S) - Q(S) over all output sets S
(both are computed and must agree); a composed mechanism's rows are the product distributions.
"""

import json
import random
from fractions import Fraction
from itertools import combinations, product

import pytest
from flint import fmpq

from exactdp.privacy.approximate import certify_approx
from exactdp.cli import main
from exactdp.errors import InvalidInput
from exactdp.exact.level import Level, level_of
from exactdp.mechanism import Mechanism
from exactdp.composition.composition import composed_profile
from exactdp.composition.profile import privacy_profile

#: every way of writing eps = 0 in the library
ZERO_LEVELS = [dict(eps="0"), dict(eps="log(1)"), dict(eps="0*log(2)"), dict(alpha="1"), dict(alpha="exp(0)"),
               dict(level=Level(fmpq(1)))]


def _tv_half_l1(p, q):
    return sum((abs(a - b) for a, b in zip(p, q, strict=True)), Fraction(0)) / 2


def _tv_sets(p, q):
    m = len(p)
    return max(sum((p[y] - q[y] for y in S), Fraction(0)) for k in range(m + 1) for S in combinations(range(m), k))


def _tv(rows, pairs):
    """max over neighbouring pairs (both orders) of the TV distance, computed two independent ways
    (the sup over output sets only up to 10 outputs: 2^m subsets)."""
    a = max(_tv_half_l1(rows[i], rows[j]) for i, j in pairs)
    if len(rows[0]) > 10:
        return a
    b = max(max(_tv_sets(rows[i], rows[j]), _tv_sets(rows[j], rows[i])) for i, j in pairs)
    assert a == b
    return a


def _power_rows(rows, k):
    """Rows of k independent repetitions: product distributions over output tuples."""
    out = []
    for r in rows:
        row = []
        for ys in product(range(len(r)), repeat=k):
            v = Fraction(1)
            for y in ys:
                v *= r[y]
            row.append(v)
        out.append(row)
    return out


def _random_rows(rng, n, m):
    rows = []
    for _ in range(n):
        w = [rng.randint(0, 6) for _ in range(m)]
        w[rng.randrange(m)] += 1
        rows.append([Fraction(x, sum(w)) for x in w])
    return rows


def _mech(rows):
    return Mechanism.from_rows([f"x{i}" for i in range(len(rows))], [f"y{k}" for k in range(len(rows[0]))],
                               [[str(v) for v in r] for r in rows])


CASES = [_random_rows(random.Random(seed), n, m) for seed, (n, m) in enumerate([(2, 2), (2, 3), (3, 3), (3, 4),
                                                                               (4, 2), (3, 5)])]


def _pairs(n):
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


@pytest.mark.parametrize("rows", CASES)
@pytest.mark.parametrize("how", ZERO_LEVELS, ids=lambda d: "-".join(f"{k}={v}" for k, v in d.items()))
def test_certify_zero_level_is_total_variation(rows, how):
    M, pairs = _mech(rows), _pairs(len(rows))
    labels = [(f"x{i}", f"x{j}") for i, j in pairs]
    tv = _tv(rows, pairs)
    if tv == 0:
        pytest.skip("identical rows")
    at = certify_approx(M, labels, delta=str(tv), **how)
    assert at.holds is True and Fraction(at.evidence.excess) == tv          # the boundary delta = TV holds
    assert at.evidence.epsilon_given == "0" and at.evidence.e_eps == "1"
    below = certify_approx(M, labels, delta=str(tv - Fraction(1, 10**6)), **how)
    assert below.holds is False and Fraction(below.evidence.excess) == tv
    w = below.evidence.witness
    assert Fraction(w["lhs"]) - Fraction(w["rhs"]) == Fraction(1, 10**6)   # P(S*) vs Q(S*) + delta
    assert at.recheck().status == "confirmed" and below.recheck().status == "confirmed"


@pytest.mark.parametrize("rows", CASES)
@pytest.mark.parametrize("how", ZERO_LEVELS, ids=lambda d: "-".join(f"{k}={v}" for k, v in d.items()))
def test_profile_and_composition_at_zero(rows, how):
    M, pairs = _mech(rows), _pairs(len(rows))
    labels = [(f"x{i}", f"x{j}") for i, j in pairs]
    assert Fraction(str(privacy_profile(M, labels).delta(**how))) == _tv(rows, pairs)
    for k in (1, 2):
        got = composed_profile(M, labels, k).delta(**how)
        assert Fraction(str(got)) == _tv(_power_rows(rows, k), pairs)


@pytest.mark.parametrize("how", ZERO_LEVELS, ids=lambda d: "-".join(f"{k}={v}" for k, v in d.items()))
def test_zero_level_with_zero_delta_asks_for_equal_rows(how):
    # (0, 0)-DP (HLM15 Def. 1): P(S) <= Q(S) for all S and both orders, i.e. equal rows
    eq = _mech([[Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 2)] * 2])
    assert certify_approx(eq, [("x0", "x1")], delta="0", **how).holds is True
    c = certify_approx(eq, [("x0", "x2")], delta="0", **how)
    assert c.holds is False and Fraction(c.evidence.excess) == Fraction(1, 6)


@pytest.mark.parametrize("bad, match", [(dict(eps="-1"), "eps >= 0"), (dict(alpha="2"), "0 < alpha < 1"),
                                        (dict(alpha="0"), "0 < alpha < 1"), (dict(eps="-log(2)"), "eps > 0"),
                                        (dict(eps="0", alpha="1"), "exactly one")])
def test_bad_levels_stay_bad(bad, match):
    with pytest.raises(InvalidInput, match=match):
        certify_approx(_mech(CASES[0]), [("x0", "x1")], delta="1/2", **bad)


def test_pure_levels_still_exclude_zero():
    for how in (dict(eps="0"), dict(alpha="1"), dict(eps="log(1)")):
        with pytest.raises(InvalidInput):
            level_of(**how)
        assert level_of(**how, allow_zero=True).is_zero()


# ---- command line ----------------------------------------------------------------------------------------------
ROWS = CASES[3]          # 3 inputs, 4 outputs


@pytest.fixture
def files(tmp_path):
    mech = {"inputs": ["x0", "x1", "x2"], "outputs": ["y0", "y1", "y2", "y3"],
            "matrix": [[str(v) for v in r] for r in ROWS]}
    (tmp_path / "m.json").write_text(json.dumps(mech))
    (tmp_path / "d.json").write_text(json.dumps({"kind": "discrete", "points": ["x0", "x1", "x2"]}))
    return str(tmp_path / "m.json"), str(tmp_path / "d.json")


def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("level", [["--eps", "0"], ["--alpha", "1"], ["--eps", "log(1)"]])
def test_cli_certify_zero_level(files, capsys, level):
    m, d = files
    tv = _tv(ROWS, _pairs(3))
    code, out, err = _run(["certify", m, "--metric", d, *level, "--delta", str(tv), "--format", "json"], capsys)
    assert code == 0 and err == "" and Fraction(json.loads(out)["evidence"]["excess"]) == tv
    code, out, _ = _run(["certify", m, "--metric", d, *level, "--delta", str(tv - Fraction(1, 100)), "--format",
                         "json"], capsys)
    assert code == 1 and json.loads(out)["verdict"] == "fails"
    code, out, err = _run(["certify", m, "--metric", d, *level], capsys)       # pure DP at eps = 0: refused
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "certify --delta" in err


@pytest.mark.parametrize("level", [["--eps", "0"], ["--alpha", "1"]])
def test_cli_profile_and_compose_zero_level(files, capsys, level):
    m, d = files
    code, out, _ = _run(["profile", m, "--metric", d, *level, "--format", "json"], capsys)
    q = json.loads(out)["evidence"]["query"]
    assert code == 0 and Fraction(q["delta_at_eps"]) == _tv(ROWS, _pairs(3)) and q["level"]["text"] == "0"
    code, out, _ = _run(["compose", m, "--metric", d, "--times", "2", *level, "--format", "json"], capsys)
    q = json.loads(out)["evidence"]["query"]
    assert code == 0 and Fraction(q["delta_at_eps"]) == _tv(_power_rows(ROWS, 2), _pairs(3))


def test_cli_profile_two_levels_is_bad_input(files, capsys):
    m, d = files
    with pytest.raises(SystemExit) as e:   # --eps and --alpha are one level: argparse refuses both (exit 2)
        _run(["profile", m, "--metric", d, "--eps", "0", "--alpha", "1"], capsys)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "not allowed with argument" in err
    code, out, err = _run(["compose", m, "--metric", d, "--times", "2", "--alpha", "3/2"], capsys)
    assert code == 2 and out == "" and "alpha" in err
