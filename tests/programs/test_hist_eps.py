"""hist_eps (issue 28): noise of scale proportional to eps, compiled exactly at a rational level eps0 only.

DLap(eps0) has base a = e^(-1/eps0); neighbouring inputs move one bin by one, and for an interior output v the
probabilities are c a^|v-q| and c a^|v-q-1|, whose ratio is a^(-1) = e^(1/eps0) exactly (the clamped edges have a
smaller ratio).  So the exact cost at eps0 is 1/eps0, and the program is eps0-DP exactly when 1/eps0 <= eps0,
i.e. eps0 >= 1 -- the known verdict, re-derived here by the compiler and by the kernel's own evaluator.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from _program_brute import brute_distribution

from exactdp.errors import UnsupportedRegime
from exactdp.programs import certify_program, parse_program
from exactdp.programs.check import program_certificate
from exactdp.programs.compile import base_power, output_distribution
from exactdp.programs.language import ProgramError, at_level, eps_scaled
from exactdp.recheck import recheck
from exactdp.recheck import program as K

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"
HIST_EPS = parse_program((SUITE / "hist_eps.prog").read_text(), "hist_eps")


@pytest.mark.parametrize("eps0", ["1", "2", "1/2", "3/2"])
def test_exact_cost_is_one_over_eps0(eps0):
    c = certify_program(HIST_EPS, n=1, domain=(0, 2), relation="one-differ", eps=eps0, cost=True)
    assert Fraction(c.evidence.epsilon) == 1 / Fraction(eps0)


@pytest.mark.parametrize("eps0,holds", [("1", True), ("2", True), ("3/2", True), ("1/2", False), ("9/10", False)])
def test_private_at_eps0_exactly_when_eps0_at_least_1(eps0, holds):
    c = certify_program(HIST_EPS, n=1, domain=(0, 2), relation="one-differ", eps=eps0)
    assert c.holds == holds


def test_the_level_substitution_is_the_base_e_to_minus_1_over_eps0():
    # DLap(eps0) at eps0 = 2 has base e^(-1/2): the program with dlap(4) (base e^(-eps/4)) at eps = 2
    four = parse_program("for i:\n  z = dlap(4)\n  output clamp(q + z, -6, 8)\nend\n", "four")
    resolved = at_level(HIST_EPS, Fraction(2))
    assert not eps_scaled(resolved) and eps_scaled(HIST_EPS)
    for x in [(0,), (2,)]:
        assert output_distribution(resolved, x) == output_distribution(four, x)


@pytest.mark.parametrize("eps0,x", [(Fraction(1), (0,)), (Fraction(2), (2,)), (Fraction(1, 2), (1,))])
def test_compiled_at_eps0_agrees_with_the_brute_force_from_the_definition(eps0, x):
    # the brute force reads dlap(eps) as base e^(-1/eps0) = t^(L/eps0^2) at t = e^(-eps0/L), from its definition
    resolved = at_level(HIST_EPS, eps0)
    L = base_power(resolved)
    t = Fraction(1, 3)
    dist = output_distribution(resolved, x)
    low, lost = brute_distribution(HIST_EPS, x, t, L, 30, eps0)
    assert lost < Fraction(1, 10**5)
    for z, v in dist.items():
        assert low.get(z, 0) <= v.at(t) <= low.get(z, 0) + lost, z
    assert set(low) <= set(dist) and sum(v.at(t) for v in dist.values()) == 1


def test_every_eps_is_refused_with_one_line():
    with pytest.raises(UnsupportedRegime, match=r"proportional to eps.*rational level only"):
        certify_program(HIST_EPS, n=1, domain=(0, 2), relation="one-differ")
    with pytest.raises(UnsupportedRegime, match="proportional to eps"):
        program_certificate(HIST_EPS, n=1, domain=(0, 2), relation="one-differ")
    with pytest.raises(UnsupportedRegime, match="give eps"):
        certify_program(HIST_EPS, n=1, domain=(0, 2), relation="one-differ", alpha="1/2")


@pytest.mark.parametrize("text,match", [("z = dlap(2*)\n", "expected 'eps'"), ("z = dlap(0*eps)\n", "positive"),
                                        ("z = dlap(eps2)\n", "column 10: expected an integer")])
def test_bad_eps_scales(text, match):
    with pytest.raises(ProgramError, match=match):
        parse_program(text)


@pytest.mark.parametrize("eps0,cost,verdict", [("1/2", True, "holds"), ("1/2", False, "fails"), ("2", False, "holds")])
def test_kernel_rederives_the_level_certificates(eps0, cost, verdict):
    c = json.loads(json.dumps(program_certificate(HIST_EPS, n=1, domain=(0, 2), relation="one-differ", eps=eps0,
                                                  cost=cost).to_json()))
    assert c["verdict"] == verdict
    r = recheck(c)
    assert r.status == "confirmed", r.detail
    if cost:        # a forged cost (eps0 itself, the honest-looking mistake) is refuted
        c["evidence"]["epsilon"] = eps0
        c["claim"] = K.claim_text(c)
        assert recheck(c).status == "refuted"
    # the same matrix stated for every eps, or at another level, is refuted by the kernel's own evaluator
    c2 = json.loads(json.dumps(c))
    c2["evidence"].update(question="all_eps", level=None, epsilon=None, witness=None)
    c2["verdict"] = "holds"
    c2["claim"] = K.claim_text(c2)
    assert recheck(c2).status == "refuted"
    c3 = json.loads(json.dumps(program_certificate(HIST_EPS, n=1, domain=(0, 2), relation="one-differ",
                                                   eps=eps0).to_json()))
    c3["evidence"]["level"] = "3" if eps0 != "3" else "5"
    c3["claim"] = K.claim_text(c3)
    assert recheck(c3).status == "refuted"


def test_kernel_parses_the_eps_scales():
    assert K.at_level(K.parse("z = dlap(eps)\nw = geo(3/2*eps)"), Fraction(2)) == [
        ("set", "z", ("noise", "dlap", Fraction(4))), ("set", "w", ("noise", "geo", Fraction(6)))]
