"""The one method rule (issue 31, item 4): exact/domain.py on the producer's side, recheck/_levels.method_for and
the kernel's numbers ``a + b R^(p/q)`` (``_P``) on the other.

The probe of the issue: rational mechanisms at ``eps = log(2)/3`` (``e^eps = 2^(1/3)``, irrational) give ONE
method for every kind with a level, and the kernel confirms every certificate.
"""

from fractions import Fraction

import mpmath
import pytest
from flint import fmpq

from exactdp import Mechanism, certify_approx, certify_extension, certify_privacy
from exactdp.certificate.common import mechanism_data
from exactdp.certificate.core import Method
from exactdp.exact import Level
from exactdp.exact.domain import Domain
from exactdp.mechanisms import generalized_rr, geometric, randomized_response
from exactdp.metrics import discrete, path
from exactdp.recheck import _kernel, _levels, recheck
from exactdp.interop.audit import certify_audit
from exactdp.divergences.fdp import certify_fdp
from exactdp.composition.lattice import certify_lattice_composition
from exactdp.priors.leakage import leakage
from exactdp.composition.composition import certify_composition, certify_profile
from exactdp.divergences.renyi import certify_renyi
from exactdp.utility.utility import certify_utility

RR = randomized_response(2, p="1/4")
AH = Mechanism.from_rows(["0", "2"], ["a", "b"], [["2/3", "1/3"], ["1/3", "2/3"]])
N = [("0", "1")]


def _leveled(eps, mech=RR):
    """Every kind that takes a level, at ``eps``."""
    return {
        "privacy": certify_privacy(geometric(3, "1/2") if mech is RR else mech, path(4) if mech is RR else
                                   discrete(len(mech.inputs)), eps=eps),
        "approx": certify_approx(mech, N, eps=eps, delta="1/5"),
        "profile": certify_profile(mech, N, eps=eps, delta="1/5"),
        "composition": certify_composition([(mech, 2)], N, eps=eps, delta="1/5"),
        "audit": certify_audit([(mech, 2)], N, eps=eps, delta="1/2"),
        "lattice_composition": certify_lattice_composition([(mech, 2)], N, eps=eps, delta="1/2"),
        "extension": certify_extension(AH, path(3), eps=eps),
    }


def test_probe_log2_over_3_one_method_every_certificate_confirmed():
    certs = _leveled("log(2)/3")
    # the kinds without a level, on the same rational mechanism: their numbers are rational too
    certs |= {"renyi": certify_renyi(RR, N, [2, 3], delta="1/100"),
              "utility": certify_utility(RR, discrete(2), gamma=1, delta="1/4"),
              "leakage": leakage(RR, ["1/2", "1/2"])}
    for kind, c in certs.items():
        assert c.method is Method.RATIONAL, kind
        r = recheck(c)
        assert r.status == "confirmed", (kind, r.detail)
    # both verdicts occur, so the rule is not tied to one of them
    assert {c.holds for c in certs.values()} == {True, False}
    # f-DP's bracket rests on enclosures of the Gaussian Phi: its own method, the same on both sides
    f = certify_fdp(RR, N, mu="27/20")
    assert f.method is Method.TRANSCENDENCE_BALLS and recheck(f).status == "confirmed"


def test_probe_exact_values_at_log2_over_3():
    c = certify_profile(RR, N, eps="log(2)/3", delta="1/5")
    assert c.evidence.query.delta_at_eps == "3/4 - 2^(1/3)/4"      # 3/4 - 2^(1/3)/4 = 0.435... > 1/5: fails
    assert c.holds is False
    a = certify_audit([(RR, 2)], N, eps="log(2)/3", delta="1/2")
    assert (a.evidence.delta_exact, a.evidence.slack, a.holds) == ("9/16 - 2^(1/3)/16", "-1/16 + 2^(1/3)/16", True)
    lc = certify_lattice_composition([(RR, 2)], N, eps="log(2)/3", delta="1/2")
    assert lc.evidence.delta_at_eps == "9/16 - 2^(1/3)/16" and lc.evidence.route == "lattice-exact"


def test_algebraic_eps_is_transcendence_balls_on_both_sides():
    for kind, c in _leveled("1/2").items():
        if c.method is Method.NONE:          # an undecided certificate asserts no method
            continue
        assert c.method is Method.TRANSCENDENCE_BALLS, kind
        assert recheck(c).status in ("confirmed", "not checkable"), kind


@pytest.mark.parametrize("kind", ["profile", "composition", "audit", "lattice_composition"])
def test_forged_method_is_refuted(kind):
    j = _leveled("log(2)/3")[kind].to_json()
    j["method"] = "TRANSCENDENCE_BALLS"
    r = recheck(j)
    assert r.status == "refuted" and "the one the checked numbers call for" in r.detail


@pytest.mark.parametrize("kind,field,forged", [
    ("profile", ("query", "delta_at_eps"), "3/4 - 2^(1/3)/5"),
    ("composition", ("query", "delta_at_eps"), "9/16 - 2^(1/3)/8"),
    ("audit", ("slack",), "-1/16 + 2^(1/3)/17"),
    ("audit", ("delta_exact",), "9/16 - 2^(1/3)/15"),
    ("lattice_composition", ("delta_at_eps",), "9/16 - 2^(1/3)/17"),
    ("approx", ("excess",), "3/4 - 2^((1)/(3))*(1/5)"),
])
def test_forged_number_at_a_power_is_refuted(kind, field, forged):
    j = _leveled("log(2)/3")[kind].to_json()
    ev = j["evidence"]
    for k in field[:-1]:
        ev = ev[k]
    ev[field[-1]] = forged
    assert recheck(j).status == "refuted"


def test_number_in_another_power_is_never_confirmed():
    # 2^(2/3) = c^2 is not a + b c with the level's c = 2^(1/3): outside the kernel, answered not checkable
    j = _leveled("log(2)/3")["composition"].to_json()
    j["evidence"]["query"]["delta_at_eps"] = "9/16 - 2^(2/3)/16"
    r = recheck(j)
    assert r.status == "not checkable" and "power" in r.detail


def test_forged_verdict_at_a_power_is_refuted():
    j = _leveled("log(2)/3")["profile"].to_json()
    j["verdict"] = "holds"
    assert recheck(j).status == "refuted"


def _P(a, b, R, p, q):
    return _kernel._P(Fraction(a), Fraction(b), ("pow", Fraction(R), p, q))


@pytest.mark.parametrize("a,b,R,p,q", [(5, -4, 2, 1, 3), (-5, 4, 2, 1, 3), (1, 1, 2, 1, 3), (-1, -1, 3, 2, 5),
                                       (Fraction(5, 4), -1, 2, 1, 3), (Fraction(6, 5), -1, 2, 1, 3), (0, 0, 2, 1, 3),
                                       (2, -1, 8, 1, 3), (-3, 1, 27, 1, 3), (7, -3, 5, 3, 4), (0, -2, 2, 1, 3)])
def test_kernel_power_sign_against_intervals(a, b, R, p, q):
    got = _kernel._sign(_P(a, b, R, p, q))
    mpmath.iv.dps = 60
    x = mpmath.iv.mpf(Fraction(a).numerator) / Fraction(a).denominator + \
        mpmath.iv.mpf(Fraction(b).numerator) / Fraction(b).denominator * mpmath.iv.mpf(R) ** (mpmath.iv.mpf(p) / q)
    if x.a > 0:
        assert got == 1
    elif x.b < 0:
        assert got == -1
    else:                                 # an exact zero: 8^(1/3) = 2, 27^(1/3) = 3
        assert got == 0 and x.a <= 0 <= x.b


def test_kernel_power_arithmetic_and_text():
    c = _kernel._value("3/4 - 2^(1/3)/4")
    assert (c.a, c.b, c.E) == (Fraction(3, 4), Fraction(-1, 4), ("pow", Fraction(2), 1, 3))
    d = _kernel._add(c, _kernel._mul(Fraction(1, 4), _kernel._value("2^((1)/(3))")))
    assert (d.a, d.b) == (Fraction(3, 4), Fraction(0))
    assert _kernel.same("1/2 + 2^(1/3)", _kernel._add(Fraction(1, 2), _kernel._value("2^(1/3)")))
    assert not _kernel.same("1/2 + 2^(1/3)", _kernel._value("2^(1/3)"))
    # products of two powers, and mixing with an exponential polynomial, leave the kernel: not checkable, never refuted
    for f in (lambda: _kernel._mul(_kernel._value("2^(1/3)"), _kernel._value("2^(1/3)")),
              lambda: _kernel._add(_kernel._value("2^(1/3)"), _kernel._value("3^(1/3)")),
              lambda: _kernel._add(_kernel._value("2^(1/3)"), _kernel._value("exp(-1)"))):
        with pytest.raises(_kernel.NotHere, match="power"):
            f()


def test_method_rule_same_on_both_sides():
    mechs = {"rational": RR, "transcendental": generalized_rr(2, eps="1")}
    levels = {"none": None, "log(3)": "log(3)", "log(2)/3": "log(2)/3", "1/2": "1/2"}
    for m in mechs.values():
        for lv in levels.values():
            L = None if lv is None else Level.from_eps(lv)
            ev_level = None if L is None else _levels.eps_level(lv)
            want = _levels.method_for(mechanism_data(m).values, ev_level)
            assert Domain.of(L, m).method == want == Method.of(L, m).name


def test_domain_cases():
    half, cube = Level.from_eps("1/2"), Level.from_eps("log(2)/3")
    assert Domain.of(cube, RR) == Domain(True, True, True)
    assert Domain.of(half, RR) == Domain(True, False, True)
    assert Domain.of(None, generalized_rr(2, eps="1")).method == "TRANSCENDENCE_BALLS"
    assert Domain.of(values=[fmpq(1, 3), fmpq(2)]).method == "RATIONAL"
    assert Domain.of(cube, RR, exact_route=False).method == "TRANSCENDENCE_BALLS"
    assert Domain.of(Level.from_alpha("1/3"), geometric(2, "1/3")).rational is True


@pytest.mark.parametrize("eps", ["log(5)/2", "log(3)/7", "log(9)/2"])
def test_other_roots_one_method_and_confirmed(eps):
    # a square root (D = 2: the kernel's sums of square roots), a 7th root, and 9^(1/2) = 3 (rational after all)
    rr3, nb = randomized_response(3, p="1/5"), discrete(3)
    certs = [certify_lattice_composition([(rr3, 2)], nb, eps=eps, delta="1/2"),
             certify_composition([(rr3, 2)], nb, eps=eps, delta="1/2"),
             certify_audit([(rr3, 2)], nb, eps=eps, delta="1/2"),
             certify_approx(rr3, nb, eps=eps, delta="1/3"),
             certify_profile(rr3, nb, eps=eps, delta="1/3"),
             certify_privacy(rr3, nb, eps=eps)]
    for c in certs:
        assert c.method is Method.RATIONAL and recheck(c).status == "confirmed", (c.kind, recheck(c).detail)
