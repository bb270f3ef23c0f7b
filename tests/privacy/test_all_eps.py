import pytest
import sympy as sp

from exactdp import Mechanism, certify_all_eps, discrete, geometric, path, randomized_response
from exactdp.errors import InvalidInput
from exactdp.exact.symbolic import U, AlphaSet, Algebraic, sign_pieces
from exactdp.exact.values import Setting, probability
from exactdp.metrics import from_matrix, grid


def test_geometric_private_for_every_eps():
    for n in (1, 2, 7):
        c = certify_all_eps(geometric(n), path(n + 1))
        assert c.holds is True and c.recheck().ok is True
        assert c.evidence.failure_set == []


def test_fixed_p_fails_exactly_above_half():
    c = certify_all_eps(randomized_response(4, p="1/5"), discrete(4))
    assert c.holds is False
    (piece,) = c.evidence.failure_set
    assert (piece["lo"], piece["hi"], piece["point"]) == ("1/2", "1", False)
    assert c.recheck().ok is True


def test_algebraic_threshold():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["(1+alpha)/3", "(2-alpha)/3"], ["(2-alpha)/3", "(1+alpha)/3"]])
    c = certify_all_eps(K, path(2))
    assert c.holds is False
    (piece,) = c.evidence.failure_set
    assert piece["lo"].startswith("root of alpha**2 + 2*alpha - 2")
    assert piece["lo_approx"].startswith("0.7320508075688")  # sqrt(3) - 1
    assert c.recheck().ok is True


def test_misscaled_fails_everywhere_and_scaled_metric_holds():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/(1+alpha^2)", "alpha^2/(1+alpha^2)"],
                                                      ["alpha^2/(1+alpha^2)", "1/(1+alpha^2)"]])
    c = certify_all_eps(K, path(2))
    assert c.holds is False and c.evidence.failure_set_text == "(0, 1)"
    assert certify_all_eps(K, from_matrix(["0", "1"], [[0, 2], [2, 0]])).holds is True


def test_rational_powers_of_alpha():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/(1+alpha^(1/2))", "alpha^(1/2)/(1+alpha^(1/2))"],
                                                      ["alpha^(1/2)/(1+alpha^(1/2))", "1/(1+alpha^(1/2))"]])
    c = certify_all_eps(K, path(2))
    assert c.holds is True


def test_irrational_distances_are_undecided():
    from exactdp import UNDECIDED
    g = grid((2, 2), "euclidean")
    K = Mechanism.from_rows(g.points, ["u"], [["1"]] * 4)
    c = certify_all_eps(K, g)
    assert c.holds is UNDECIDED and "irrational" in c.reason


def test_transcendental_mechanism_rejected():
    with pytest.raises(InvalidInput, match="write them in alpha"):
        certify_all_eps(geometric(2, eps="1/2"), path(3))


def test_sign_pieces_and_alphaset():
    S = Setting.symbolic()
    p = probability("(2*alpha - 1)*(3*alpha - 1)^2", setting=S)
    signs = [pc.sign for pc in sign_pieces(p)]
    assert signs == [-1, 0, -1, 0, 1]  # double root at 1/3 keeps the sign
    a = AlphaSet([pc for pc in sign_pieces(p) if pc.sign <= 0])
    assert str(a) == "(0, 1/2]"  # the double root 1/3 is covered; the root 1/2 closes the interval
    b = AlphaSet([pc for pc in sign_pieces(p) if pc.sign < 0])
    assert str(b) == "(0, 1/3) U (1/3, 1/2)"
    r = Algebraic(sp.Poly(U**2 - 2, U), 1, 2)  # sqrt(2)
    assert r.cmp(Algebraic.rational(sp.Rational(141, 100))) == 1
    assert r.cmp(Algebraic.rational(sp.Rational(142, 100))) == -1
    s = Algebraic(sp.Poly(U**4 - 4 * U**2 + 2, U), sp.Rational(13, 10), 2)  # sqrt(2 + sqrt(2)) = 1.847...
    assert r.cmp(s) == -1 and s.cmp(r) == 1
    assert r.cmp(Algebraic(sp.Poly(U**2 - 2, U), sp.Rational(5, 4), sp.Rational(3, 2))) == 0


def test_failure_witness_with_fractional_powers_of_alpha():
    # (1 + u)/(2 - u) <= 1/alpha with u = alpha^(1/2) fails for alpha above a root of an irreducible cubic
    K = Mechanism.from_rows(["0", "1"], ["0", "1"],
                            [["(1+alpha^(1/2))/3", "(2-alpha^(1/2))/3"], ["(2-alpha^(1/2))/3", "(1+alpha^(1/2))/3"]])
    c = certify_all_eps(K, path(2))
    assert c.holds is False
    from fractions import Fraction
    alpha = Fraction(c.evidence.sample_alpha)
    u = Fraction(int(alpha.numerator ** 0.5), int(alpha.denominator ** 0.5))
    assert u * u == alpha  # alpha^(1/2) is rational at the sample
    lhs, rhs = (1 + u) / 3, (2 - u) / 3 / alpha  # recomputed here, independently of the library
    assert (Fraction(c.evidence.witness.lhs), Fraction(c.evidence.witness.rhs)) == (lhs, rhs) and lhs > rhs
