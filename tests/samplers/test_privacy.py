"""The privacy of the additive mechanism a sampler implements (issue 30, item 4), against a brute force."""

from fractions import Fraction

import pytest

from exactdp.samplers import SamplerError, additive_privacy, law


def triangle(rng):
    return rng.randrange(3) - rng.randrange(3)   # P[z] = (3 - |z|)/9 on -2..2


def test_exact_law_gives_the_exact_ratio_and_delta():
    p = additive_privacy(law(triangle), (-2, 2))
    # brute force: ratios of neighbours (1/9, 2/9, 3/9, 2/9, 1/9) are 2 and 3/2; G_1 = {-1..2} misses P[-2] = 1/9
    assert p.ratio_upper == p.ratio_lower == 2 and p.at_upper in ((-1, 1), (1, -1))
    assert p.delta == Fraction(1, 9)
    assert "log(2)" in p.statement() and "0.6931" in p.eps_upper


def test_sensitivity_two_and_a_zero_lower_bound():
    p = additive_privacy(law(triangle), (-2, 2), sensitivity=2)
    assert p.ratio_upper == 3 and p.delta == Fraction(1, 3)  # P[0]/P[-2] = 3; shift 2 misses P[-2] + P[-1]
    q = additive_privacy(law(triangle), (-3, 2))            # P[-3] = 0: no finite eps over that range
    assert q.ratio_upper is None and "no finite eps" in q.statement()


def test_residual_widens_the_bounds_soundly():
    def geometric(rng):
        k = 0
        while rng.randrange(2):
            k += 1
        return k

    p = additive_privacy(law(geometric, depth=6), (0, 3))
    # true ratio P[k]/P[k+1] = 2; enclosures [2^-(k+1), 2^-(k+1) + 2^-6]
    assert p.ratio_lower < 2 < p.ratio_upper
    # brute force over the pairs: the largest hi_z / lo_(z-d) is hi_2 / lo_3 = (1/8 + 1/64) / (1/16)
    assert p.ratio_upper == max((Fraction(1, 2 ** (a + 1)) + Fraction(1, 64)) / Fraction(1, 2 ** (b + 1))
                                for a in range(4) for b in range(4) if abs(a - b) == 1) == Fraction(9, 4)
    assert p.delta == 1 - (Fraction(1, 4) + Fraction(1, 8) + Fraction(1, 16))


@pytest.mark.parametrize("support,sens,pattern", [((0, 0), 1, "LO < HI"), ((0, 2), 3, "sensitivity"),
                                                  ((0, 2), 0, "sensitivity"), ((5, 9), 1, "positive lower")])
def test_bad_inputs(support, sens, pattern):
    with pytest.raises(SamplerError, match=pattern):
        additive_privacy(law(triangle), support, sens)
