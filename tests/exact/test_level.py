"""Regression tests for issue 8 (hardening), library side: levels.

Each input is the one the issue reports. Moved from tests/test_hardening.py, which was split by the module each
test exercises."""

import re

import pytest
from flint import fmpq

from exactdp import UNDECIDED
from exactdp.certify import certify_all_eps, certify_privacy
from exactdp.errors import InputTooLarge, InvalidInput
from exactdp.exact.expo import ExpFrac
from exactdp.exact.level import Level
from exactdp.exact.lin import Lin
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import geometric
from exactdp.metrics import from_matrix, path

GEO2 = [["1/(1+alpha)", "alpha/(1+alpha)"], ["alpha/(1+alpha)", "1/(1+alpha)"]]


def geo2():
    return Mechanism.from_rows(["0", "1"], ["0", "1"], GEO2, validate=False)


# ------------------------------------------------------------------ levels ----
def test_level_log_3_600_over_2_has_rational_alpha():
    L = Level.from_eps("log(3^600)/2")
    assert L.alpha() == fmpq(1, 3**300)
    c = certify_privacy(geo2(), path(2), eps="log(3^600)/2")
    assert c.holds is True and c.recheck().ok is True
    assert Level.from_eps("log(2^3001)/3").alpha() is None  # 2^3001 is no cube


def test_level_with_astronomical_power_refused():
    with pytest.raises(InputTooLarge, match="more than 1000000 bits"):
        Level.from_eps("10^1000*log(2)")


def test_symbolic_mechanism_at_irrational_alpha_settled_by_all_eps_proof():
    c = certify_privacy(geometric(3), path(4), eps="log(2)/2")
    assert c.holds is True and c.kind == "all_eps" and "at eps = log(2)/2" in c.claim
    assert certify_all_eps(geometric(3), path(4)).holds is True  # the proof that settles it
    # failing for every alpha settles it too: the ratio 1/alpha exceeds e^(eps/2) = alpha^(-1/2) everywhere
    half = from_matrix(["0", "1"], [[0, "1/2"], ["1/2", 0]])
    c = certify_privacy(geo2(), half, eps="log(2)/2")
    assert c.holds is False and c.evidence.failure_set_text == "(0, 1)" and "at eps = log(2)/2" in c.claim
    # where the all-eps proof fails only for some alpha, alpha = 2^(-1/2) stays undecided (no guess)
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/2+alpha/4", "1/2-alpha/4"], ["1/2-alpha/4", "1/2+alpha/4"]],
                            validate=False)
    quarter = from_matrix(["0", "1"], [[0, "1/4"], ["1/4", 0]])
    assert certify_privacy(K, quarter, eps="log(2)/2").holds is UNDECIDED


@pytest.mark.parametrize("text", ["exp(1000000)", "exp(1)/2", "exp(-1)"])
def test_an_exponential_eps_is_named_as_such(text):
    # audit 2026-11-24 defect 10: exp(1000000) is exact; the form (not its size, not its exactness) is refused
    with pytest.raises(InvalidInput, match=re.escape(f"eps: {text!r} is an exponential; eps must be a rational")):
        Level.from_eps(text)


@pytest.mark.parametrize("alpha", ["exp(-log(3)/2)", "3^(-1/2)", "1/sqrt(3)", "sqrt(3)/3", "exp(-1/2*log(3))"])
def test_every_form_of_alpha_3_to_the_minus_half_is_the_level_log3_over_2(alpha):
    # audit 2026-11-24 defect 11: --eps 'log(3)/2' was accepted, the same level as an alpha was refused
    lv, ref = Level.from_alpha(alpha), Level.from_eps("log(3)/2")
    assert (lv.R, lv.D, lv.eps_str()) == (ref.R, ref.D, "log(3)/2") == (fmpq(3), fmpq(2), "log(3)/2")
    M = Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]])   # ratio 3 > 3^(1/2): fails
    c = certify_privacy(M, path(2), alpha=alpha)
    assert c.holds is False and c.to_json() == certify_privacy(M, path(2), eps="log(3)/2").to_json()


@pytest.mark.parametrize("alpha,words", [("sqrt(2)", "0 < alpha < 1, got sqrt(2)"), ("-1/sqrt(3)", "0 < alpha < 1"),
                                         ("sqrt(2) - 1", "a rational in (0, 1) or exp(-c)")])
def test_an_algebraic_alpha_outside_the_forms_is_refused(alpha, words):
    with pytest.raises(InvalidInput, match=re.escape(words)):
        Level.from_alpha(alpha)


@pytest.mark.parametrize("spec, kind, eps", [
    (("eps", "log(2)"), "rational", "log(2)"), (("alpha", "1/2"), "rational", "log(2)"),
    (("eps", "log(9/8)"), "rational", "log(9/8)"), (("eps", "2*log(3)"), "rational", "log(9)"),
    (("eps", "log(2)/3"), "rational", "log(2)/3"), (("eps", "1/2"), "transcendental", "1/2"),
    (("alpha", "exp(-1/2)"), "transcendental", "1/2"), (("eps", "sqrt(2)"), "transcendental", "sqrt(2)"),
    (("eps", "-log(1/2)"), "rational", "log(2)"),
])
def test_levels(spec, kind, eps):
    L = Level.from_eps(spec[1]) if spec[0] == "eps" else Level.from_alpha(spec[1])
    assert L.regime == kind and L.eps_str() == eps


@pytest.mark.parametrize("bad", ["0", "-1", "log(1)", "log(1/2)", "alpha", "exp(1)"])
def test_bad_eps(bad):
    with pytest.raises(InvalidInput, match="eps"):
        Level.from_eps(bad)


# sqrt(2)/2 = 2^(-1/2) is the level eps = log(2)/2 since the audit of 2026-11-24 (tests/exact/test_level.py);
# sqrt(2) > 1 and sqrt(2) - 1 (not a square root of a rational) stay refused
@pytest.mark.parametrize("bad", ["0", "1", "3/2", "-1/2", "exp(1/2)", "sqrt(2)", "sqrt(2) - 1"])
def test_bad_alpha(bad):
    with pytest.raises(InvalidInput, match="alpha"):
        Level.from_alpha(bad)


def test_level_compare_boundaries():
    L = Level.from_alpha("1/2")  # e^(eps d) = 2^d
    assert L.compare(fmpq(2), fmpq(1), fmpq(1)) == 0          # exactly at the bound
    assert L.compare(fmpq(2) + fmpq(1, 10**30), fmpq(1), fmpq(1)) == 1
    assert L.compare(fmpq(4), fmpq(1), fmpq(3, 2)) == 1        # 4 > 2^(3/2)
    assert L.compare(fmpq(8), fmpq(3), fmpq(3, 2)) == -1       # 8/3 < 2^(3/2) = 2.83
    assert L.compare(fmpq(2), fmpq(1), Lin.sqrt(2)) == -1      # Gelfond-Schneider: 2 < 2^sqrt2
    assert L.compare(fmpq(0), fmpq(0), fmpq(1)) == 0
    assert L.compare(fmpq(1), fmpq(0), fmpq(1)) == 1
    T = Level.from_eps("1/2")
    h = ExpFrac.exp(Lin.rat(fmpq(1, 2)))
    assert T.compare(h, fmpq(1), fmpq(1)) == 0                # e^(1/2) = e^(eps*1)
    assert T.compare(h * h, fmpq(1), fmpq(2)) == 0
    assert T.compare(fmpq(3, 2), fmpq(1), fmpq(1)) == -1
    S = Level.from_eps("sqrt(2)")
    assert S.compare(ExpFrac.exp(Lin.sqrt(8)), fmpq(1), fmpq(2)) == 0
