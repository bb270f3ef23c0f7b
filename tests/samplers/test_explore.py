"""The exploring source of randomness and the law of a sampler (issue 30): symbolic draws against a brute force,
exact masses and residuals, the rounding mode's soundness, and every refused sampler."""

import itertools
import operator
import random
from fractions import Fraction

import pytest

from exactdp.samplers import SamplerError, law
from exactdp.samplers import explore

OPS = [operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne]
THRESHOLDS = [-1, 0, Fraction(1, 2), 2, 3, 4, Fraction(7, 2), 5, 9, 2.5]


@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("lo,hi", [(0, 5), (2, 6), (-3, 1)])
def test_a_compared_draw_agrees_with_counting(op, lo, hi):
    for q in THRESHOLDS:
        L = law(lambda rng, q=q: op(rng.randrange(lo, hi), q))
        brute = Fraction(sum(1 for u in range(lo, hi) if op(u, q)), hi - lo)
        assert L.masses.get(True, 0) == brute and L.residual == 0, (op, q)
        if op not in (operator.eq, operator.ne) or q not in range(lo + 1, hi - 1):
            assert L.paths <= 3  # two branches, never one per value (== inside the range fixes the value)


def test_two_compares_on_one_draw_and_arithmetic_agree_with_counting():
    def f(rng):
        u = rng.randrange(10)
        v = rng.randrange(3)
        if u < 4 and u >= 1:
            return 0
        return (u * v + 1) % 4 if u != 9 else -1

    brute: dict = {}
    for u, v in itertools.product(range(10), range(3)):
        r = 0 if 1 <= u < 4 else ((u * v + 1) % 4 if u != 9 else -1)
        brute[r] = brute.get(r, 0) + Fraction(1, 30)
    L = law(f)
    assert L.masses == brute and L.residual == 0


def test_a_loop_is_cut_at_the_depth_with_its_exact_residual():
    def geometric(rng):
        k = 0
        while rng.randrange(3) < 2:
            k += 1
        return k

    L = law(geometric, depth=7)
    assert L.masses == {k: Fraction(2, 3) ** k / 3 for k in range(7)}
    assert L.residual == Fraction(2, 3) ** 7
    assert law(geometric, depth=0).residual == 1


def test_tol_and_max_paths_move_mass_into_the_residual_soundly():
    def geometric(rng):
        k = 0
        while rng.randrange(2):
            k += 1
        return k

    L = law(geometric, depth=50, tol=Fraction(1, 2 ** 10))
    assert max(L.masses) == 9 and L.residual == Fraction(1, 2 ** 10)
    M = law(geometric, depth=50, max_paths=3)
    assert M.masses == {0: Fraction(1, 2)} and M.residual == Fraction(1, 2)


def test_rounded_masses_are_lower_bounds_and_the_residual_an_upper_bound():
    from exactdp.samplers.cks20 import bernoulli_exp01

    exact = law(bernoulli_exp01, [Fraction(2, 3)], depth=12)
    rounded = law(bernoulli_exp01, [Fraction(2, 3)], depth=12, bits=20)
    assert all(rounded.masses[v] <= exact.masses[v] for v in exact.masses)
    assert rounded.residual >= exact.residual and rounded.residual < exact.residual + Fraction(20, 2 ** 20)
    assert all(m.denominator & (m.denominator - 1) == 0 for m in rounded.masses.values())  # dyadic


def test_a_summary_gives_the_exact_law_of_a_finite_sampler(monkeypatch):
    from exactdp.samplers import cks20

    def two(rng, p):
        return cks20.bernoulli(rng, p) + cks20.bernoulli(rng, p)

    plain = law(two, [Fraction(2, 5)])
    # the summarised name must be a global of the sampler's module: call it through that module
    summed = law(cks20.bernoulli_exp, [Fraction(5, 2)], summarise=["bernoulli_exp01"], depth=16)
    direct = law(cks20.bernoulli_exp, [Fraction(5, 2)], depth=16)
    assert plain.masses == {0: Fraction(9, 25), 1: Fraction(12, 25), 2: Fraction(4, 25)}
    for v in (0, 1):  # same exact law up to residuals; the summary needs far fewer runs
        lo1, hi1 = summed.interval(v)
        lo2, hi2 = direct.interval(v)
        assert lo1 <= hi2 and lo2 <= hi1
    assert summed.summaries == 2 and summed.paths < direct.paths


def test_the_patches_are_undone():
    from exactdp.samplers import cks20

    before = (random.random, random.randrange, cks20.bernoulli_exp01)
    law(cks20.bernoulli_exp, [Fraction(3, 2)], summarise=["bernoulli_exp01"], depth=5)
    with pytest.raises(SamplerError):
        law(lambda rng: random.random())
    assert (random.random, random.randrange, cks20.bernoulli_exp01) == before


def test_another_source_of_randomness_is_refused():
    with pytest.raises(SamplerError, match=r"calls random\.random"):
        law(lambda rng: random.random() < 0.5)
    with pytest.raises(SamplerError, match=r"calls rng\.getrandbits"):
        law(lambda rng: rng.getrandbits(3))
    with pytest.raises(SamplerError, match=r"calls rng\.randint"):
        law(lambda rng: rng.randint(1, 6))
    with pytest.raises(SamplerError, match=r"secrets\.randbelow"):
        import secrets
        law(lambda rng: secrets.randbelow(3))


@pytest.mark.parametrize("m", [0, -1])
def test_a_draw_from_an_empty_range_is_refused(m):
    with pytest.raises(SamplerError, match=r"empty range \(m = 0 < 1\)"):
        law(lambda rng: rng.randrange(m))


def test_bad_draw_arguments_and_outputs_are_refused():
    with pytest.raises(SamplerError, match="must be integers"):
        law(lambda rng: rng.randrange(Fraction(5, 2)))
    with pytest.raises(SamplerError, match="unhashable"):
        law(lambda rng: [rng.randrange(2)])
    with pytest.raises(SamplerError, match=r"raised ZeroDivisionError: .*after the choices \[0\]"):
        law(lambda rng: 1 // (rng.randrange(3) > 0))


def test_a_sampler_with_hidden_state_is_refused_on_replay():
    state = [0]

    def f(rng):
        state[0] += 1
        return rng.randrange(2 + state[0] % 2) < 1

    with pytest.raises(SamplerError, match="different choice on replay"):
        law(f)


def test_a_loop_without_choices_is_abandoned_not_hung():
    def stuck(rng):
        while rng.randrange(1) == 0:
            pass

    assert law(stuck).residual == 1 and law(stuck).masses == {}


@pytest.mark.parametrize("kw,pattern", [({"depth": -1}, "depth"), ({"depth": 2.0}, "depth"), ({"bits": 3}, "bits"),
                                        ({"tol": Fraction(3, 2)}, "tol"), ({"tol": 1e-9}, "float"),
                                        ({"max_paths": 0}, "max_paths"), ({"summarise": ["nope"]}, "'nope'")])
def test_bad_arguments_of_law(kw, pattern):
    from exactdp.samplers.cks20 import bernoulli

    with pytest.raises(SamplerError, match=pattern):
        law(bernoulli, [Fraction(1, 2)], **kw)
    with pytest.raises(SamplerError, match="must be a function"):
        law(3)


def test_a_sym_used_as_a_number_is_fixed():
    def f(rng):
        u = rng.randrange(4)
        return (Fraction(u, 4), int(u), hash(u) == hash(int(u)), str(u), abs(-u), -u <= 0)

    L = law(f)
    assert sorted(L.masses) == [(Fraction(k, 4), k, True, str(k), k, True) for k in range(4)]
    assert repr(explore.Sym(None, 0, 3)) == "Sym[0, 3)"
