"""Interop with dp_accounting and OpenDP (issue 22 item 4): the libraries' floats read at their exact binary value and
compared exactly.  The exact side is checked independently here (KOV with Fractions, the closed form d_in/scale);
the reproduction of the issue's observation (dp_accounting's pessimistic delta below the exact one for 50-fold
randomized response at eps0 = 1) is asserted as what exactdp reports, with the exact difference's sign re-derived."""

from fractions import Fraction as Fr
from math import comb

import pytest

pytest.importorskip("dp_accounting", reason="dp-accounting has no wheel for this platform (the test extra installs it)")
pytest.importorskip("opendp", reason="opendp has no wheel for this platform (the test extra installs it)")

from exactdp import InvalidInput
from exactdp.exact.decide import decimal_enclosure, sign
from exactdp.exact.values import exact_number
from exactdp.mechanisms import generalized_rr, randomized_response
from exactdp.interop.accountants import check_opendp_gaussian, check_opendp_laplace, compare_dp_accounting


def kov(r, k, i):
    return sum((comb(k, j) * (Fr(r) ** (k - j) - Fr(r) ** (k - 2 * i + j)) for j in range(i)), Fr(0)) / (1 + Fr(r)) ** k


@pytest.mark.parametrize("k", [2, 6, 20])
def test_dp_accounting_brackets_kov(k):
    # e^eps0 = 3; dp_accounting is asked at the float nearest log 9, and the exact delta is taken at that float's
    # exact value: delta is 1-Lipschitz in e^eps, so it is within |e^eps_f - 9| < 1e-14 of KOV at log 9 (k - 2i = 2)
    rr = randomized_response(2, p="1/4")
    c = compare_dp_accounting(rr, [("0", "1")], times=k, eps="log(9)")
    assert c.eps_query.q & (c.eps_query.q - 1) == 0          # a dyadic rational: the float's exact value
    lo, hi = (Fr(x) for x in decimal_enclosure(c.exact, 30))
    want = kov(3, k, (k - 2) // 2)
    assert abs(lo - want) < Fr(1, 10**14) and abs(hi - want) < Fr(1, 10**14)
    assert c.pessimistic >= c.optimistic
    assert abs(Fr(c.pessimistic) - want) < Fr(1, 10**3) and abs(Fr(c.optimistic) - want) < Fr(1, 10**3)


def test_exact_side_is_kov_at_a_rational_eps():
    # eps = 0 is a float exactly: delta(0) = TV distance = KOV at i with k - 2i = 0 (k = 4, i = 2)
    c = compare_dp_accounting(randomized_response(2, p="1/4"), [("0", "1")], times=4, eps="0")
    assert Fr(str(c.exact)) == kov(3, 4, 2)
    assert (c.pessimistic_below, c.optimistic_above) == (Fr(c.pessimistic) < kov(3, 4, 2),
                                                         Fr(c.optimistic) > kov(3, 4, 2))


def test_the_issue_observation_is_reproduced_exactly():
    # 50-fold randomized response at eps0 = 1, queried at eps = 1: the pessimistic float is below the exact delta
    c = compare_dp_accounting(generalized_rr(2, eps="1"), [("0", "1")], times=50, eps="1")
    assert c.eps_query == 1
    f = Fr(c.pessimistic)
    d = c.exact - exact_number(f"{f.numerator}/{f.denominator}")
    assert c.pessimistic_below == (sign(d) > 0)
    assert c.to_json()["pessimistic_below_exact"] is c.pessimistic_below


@pytest.mark.parametrize("scale,d_in", [("2", 1), ("1", 3), ("1/3", 2), ("5", 1)])
def test_opendp_laplace(scale, d_in):
    r = check_opendp_laplace(scale, d_in)
    s = Fr(float(Fr(scale)))                      # the float OpenDP received, exactly
    assert Fr(str(r.exact)) == d_in / s           # clamp(x + Z): the endpoint outputs attain d_in/scale
    assert r.holds and Fr(r.reported) >= d_in / s


def test_opendp_gaussian():
    r = check_opendp_gaussian("1", 1, window=4, orders=(2, 3))
    assert r.reported == 0.5 and r.holds and [a for a, _ in r.exact] == [2, 3]
    assert r.to_json()["exact"][0][1].startswith("D_alpha in [")


@pytest.mark.parametrize("call,match", [
    (lambda: compare_dp_accounting(randomized_response(2, p="1/4"), [("0", "1")], times=0, eps="1"), "times"),
    (lambda: compare_dp_accounting(randomized_response(2, p="1/4"), [("0", "1")], times=1, eps="-1"), "eps"),
    (lambda: check_opendp_laplace("0", 1), "scale"),
    (lambda: check_opendp_laplace("1", 0), "d_in"),
    (lambda: check_opendp_laplace("1", 1, lo=0, hi=500), "200"),
    (lambda: check_opendp_gaussian("1", 1, window=0), "window"),
])
def test_refusals(call, match):
    with pytest.raises(InvalidInput, match=match):
        call()


def test_plan_comparison_and_the_command_line(tmp_path, capsys):
    import json

    from exactdp.cli import main
    from exactdp.interop.accountants import compare_plan_dp_accounting
    from exactdp.interop.audit import plan_profile

    plan = [(randomized_response(2, p="1/4"), 3), (randomized_response(2, p="1/3"), 2)]
    c = compare_plan_dp_accounting(plan, [("0", "1")], eps="log(2)")
    assert c.times == 5 and c.pessimistic >= c.optimistic
    exact = plan_profile(plan, [("0", "1")]).delta(eps=str(c.eps_query))
    assert sign(c.exact - exact) == 0
    lo, hi = (Fr(x) for x in decimal_enclosure(exact, 30))
    assert abs(Fr(c.pessimistic) - lo) < Fr(1, 1000) and abs(Fr(c.optimistic) - hi) < Fr(1, 1000)
    (tmp_path / "d.json").write_text(json.dumps({"kind": "discrete", "points": ["0", "1"]}))
    (tmp_path / "p.json").write_text(json.dumps([{"builder": "grr", "k": 2, "eps": "1", "times": 50}]))
    code = main(["audit", str(tmp_path / "p.json"), "--metric", str(tmp_path / "d.json"), "--eps", "1", "--delta",
                 "1/1000", "--dp-accounting", "--format", "json"])
    assert code == 2 and "--dp-accounting" in capsys.readouterr().err     # the comparison is printed as text
    code = main(["audit", str(tmp_path / "p.json"), "--metric", str(tmp_path / "d.json"), "--eps", "1", "--delta",
                 "1/1000", "--dp-accounting"])
    text = capsys.readouterr().out
    assert code == 1 and "dp_accounting at eps = 1" in text and "characters; --format json prints it" in text
