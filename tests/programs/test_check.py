"""Neighbour relations, the compiled mechanism and the suite's verdicts at n = 2 (issue 28)."""

import re
from pathlib import Path

import pytest
from flint import fmpq

from exactdp.errors import InputTooLarge, InvalidInput, UnsupportedRegime
from exactdp.mechanism import Mechanism
from exactdp.programs import (
    certify_program, load_pairs, neighbour_pairs, output_distribution, parse_program, program_mechanism,
    read_pairs_file, relation_metric,
)

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"


def _suite(name):
    text = (SUITE / f"{name}.prog").read_text()
    return parse_program(text, name), re.search(r"# relation: (\S+)", text).group(1)


# verdict for every eps at n = 2 on {0, 1, 2}^2 under the file's relation; "never": an output possible on one
# input and impossible on its neighbour (failure set all of (0, 1))
EXPECTED = {
    "nm_index_lap": "holds", "nm_index_geo": "holds", "nm_value_lap": "holds", "nm_value_geo": "never",
    "svt1": "holds", "svt2": "holds", "svt3": "holds", "svt4": "fails", "svt5": "never", "svt6": "holds",
    "gap_svt": "holds", "numerical_svt": "holds", "hist": "holds", "partial_sum": "holds",
    "partial_sum_bad": "fails", "truncated_geometric": "holds", "prefix_sum": "holds",
}
#: smart sums need n >= 3 (block length M = 2 < n): verdicts at n = 3
EXPECTED_N3 = {"smart_sum": "holds", "smart_sum_bad": "never"}
#: decided at a rational level only (noise scale proportional to eps): tests/programs/test_hist_eps.py
LEVEL_ONLY = {"hist_eps"}
SLOW = {"svt3", "gap_svt", "numerical_svt", "nm_index_lap", "nm_value_geo", "svt4", "prefix_sum"}


def test_every_suite_file_is_expected():
    assert sorted(p.stem for p in SUITE.glob("*.prog")) == sorted([*EXPECTED, *EXPECTED_N3, *LEVEL_ONLY])


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in EXPECTED])
def test_suite_verdicts_at_n2(name):
    program, relation = _suite(name)
    c = certify_program(program, n=2, domain=(0, 2), relation=relation)
    want = EXPECTED[name]
    assert c.holds == (want == "holds")
    if want != "holds":
        w = c.evidence.witness
        # the witness fails at its rational sample alpha, recomputed from the compiled distributions
        assert fmpq(w.lhs) > fmpq(w.rhs)
        assert (c.evidence.failure_set_text == "(0, 1)") == (want in ("never", "fails"))
    if want == "never":
        x, xp = (tuple(int(v) for v in s.split(",")) for s in (w.x, w.x_prime))
        assert w.output in output_distribution(program, x) and w.output not in output_distribution(program, xp)


def test_known_costs_at_eps0_1():
    # partial_sum_bad: the sum moves by n = 2 on all-differ, DLap(1/eps) gives exactly 2 eps
    p, _ = _suite("partial_sum_bad")
    assert certify_program(p, n=2, domain=(0, 2), relation="all-differ", eps="1", cost=True).evidence.epsilon == "2"
    p, _ = _suite("partial_sum")
    assert certify_program(p, n=2, domain=(0, 2), relation="one-differ", eps="1", cost=True).evidence.epsilon == "1"
    p, _ = _suite("svt5")
    assert certify_program(p, n=2, domain=(0, 2), relation="all-differ", eps="1", cost=True).evidence.epsilon == "inf"


def test_smart_sum_bad_releases_an_exact_block_sum():
    # n = 3, M = 2: the second output is q_1 + q_2 exactly; changing q_2 by one makes it impossible
    p, rel = _suite("smart_sum_bad")
    c = certify_program(p, n=3, domain=(0, 2), relation=rel)
    assert not c.holds and c.evidence.failure_set_text == "(0, 1)"
    w = c.evidence.witness
    x, xp = (tuple(int(v) for v in s.split(",")) for s in (w.x, w.x_prime))
    assert sum(abs(a - b) for a, b in zip(x, xp, strict=True)) == 1
    assert w.output in output_distribution(p, x) and w.output not in output_distribution(p, xp)
    assert w.output.split(",")[1] == str(x[0] + x[1])
    # the independent brute force (concrete runs, fractions): positive on x, no run of x' releases it
    from fractions import Fraction

    from _program_brute import brute_distribution
    low, lost = brute_distribution(p, x, Fraction(1, 8), 2, 6)
    assert low[w.output] > 0 and lost < Fraction(1, 10**4)
    assert w.output not in brute_distribution(p, xp, Fraction(1, 8), 2, 6)[0]
    assert certify_program(p, n=3, domain=(0, 2), relation=rel, eps="1", cost=True).evidence.epsilon == "inf"


def test_prefix_sum_costs_exactly_eps():
    p, rel = _suite("prefix_sum")
    assert certify_program(p, n=2, domain=(0, 2), relation=rel, eps="1", cost=True).evidence.epsilon == "1"


@pytest.mark.slow
def test_smart_sum_is_private_and_the_sources_noise_costs_two_eps():
    # inputs {0, 1} to stay cheap; the source (CheckDP's smartsum.c) checks 2 eps with Lap(1/eps): dlap(1) in
    # place of dlap(2) has the exact cost 2 at eps0 = 1, and the suite's dlap(2) (eps' = 2 eps) is eps'-DP
    p, rel = _suite("smart_sum")
    assert certify_program(p, n=3, domain=(0, 1), relation=rel).holds
    text = (SUITE / "smart_sum.prog").read_text()
    assert text.count("dlap(2)") == 2
    p1 = parse_program(text.replace("dlap(2)", "dlap(1)"), "smart_sum_lap1")
    # q_1 moves the first two releases (eta_2 then the block end's eta_1): the pair that costs 2 eps
    pairs = [[[0, 0, 0], [1, 0, 0]], [[1, 1, 0], [1, 1, 1]]]
    c = certify_program(p1, n=3, domain=(0, 1), relation=pairs, eps="1", cost=True)
    assert c.evidence.epsilon == "2" and {c.evidence.binding.x, c.evidence.binding.x_prime} == {"0,0,0", "1,0,0"}


def test_svt1_is_private_at_its_level_and_svt4_is_not():
    p, _ = _suite("svt1")
    assert certify_program(p, n=2, domain=(0, 2), eps="1").holds
    p, _ = _suite("svt4")
    c = certify_program(p, n=2, domain=(0, 2), eps="1")
    assert not c.holds and c.evidence.violation.output == "F,T"


def test_truncated_geometric_is_grs12s_geometric_mechanism():
    # the compiled program and exactdp's builder, written independently, agree entry by entry for every eps
    from exactdp.mechanisms import geometric

    p, _ = _suite("truncated_geometric")
    K = program_mechanism(p, [(i,) for i in range(6)])
    G = geometric(5)
    assert K.outputs == tuple(str(j) for j in range(6))
    for i in range(6):
        for j in range(6):
            assert K.entry(str(i), str(j)) == G.entry(i, j)


def test_relations():
    inputs, pairs = neighbour_pairs("all-differ", 2, (0, 2))
    assert len(inputs) == 9 and len(pairs) == 20
    assert len(neighbour_pairs("one-differ", 2, (0, 2))[1]) == 12
    inc = neighbour_pairs("increasing", 2, (0, 2))[1]
    assert inc == neighbour_pairs("decreasing", 2, (0, 2))[1]
    assert ((0, 1), (1, 2)) in inc and ((0, 1), (1, 0)) not in inc and len(inc) == 16
    # every named relation is inside all-differ
    assert set(inc) <= set(pairs)


@pytest.mark.parametrize("args,msg", [
    (("near", 2, (0, 2)), "relation: expected one of"),
    (("all-differ", 0, (0, 2)), "n: expected an integer >= 1"),
    (("all-differ", 2, (2, 0)), "domain: expected lo <= hi"),
])
def test_bad_relations(args, msg):
    with pytest.raises(InvalidInput, match=msg):
        neighbour_pairs(*args)


def test_too_many_inputs():
    with pytest.raises(InputTooLarge, match="give explicit pairs"):
        neighbour_pairs("all-differ", 10, (0, 2))


@pytest.mark.parametrize("data,msg", [
    ([], "non-empty JSON list"), ({"pairs": 3}, "non-empty JSON list"), ([[[0, 1]]], "pair 1 is not a list of two"),
    ([[[0, 1], [0]]], "pair 1: expected two lists of 2 integers"), ([[[0, 1], [0, 5]]], "leaves the domain 0..2"),
    ([[[0, 1], [0, 1]]], "twice"), ([[[0, True], [0, 1]]], "expected two lists"),
])
def test_bad_pairs(data, msg):
    with pytest.raises(InvalidInput, match=msg):
        load_pairs(data, 2, (0, 2))


def test_pairs_file(tmp_path):
    f = tmp_path / "p.json"
    f.write_text('{"pairs": [[[0, 1], [1, 1]], [[1, 1], [2, 2]]]}')
    assert read_pairs_file(str(f), 2) == ([(0, 1), (1, 1), (2, 2)], [((0, 1), (1, 1)), ((1, 1), (2, 2))])
    f.write_text('{"pairs": [')
    with pytest.raises(InvalidInput, match="line 1, column 12"):
        read_pairs_file(str(f), 2)
    with pytest.raises(InvalidInput, match=r"pairs file .*nope\.json"):
        read_pairs_file(str(tmp_path / "nope.json"), 2)


@pytest.mark.slow
def test_svt1_on_one_pair_at_n25():
    # the long-input case: one explicit pair, 25 queries, every eps at once
    x = [1] * 12 + [0] * 13
    xp = [0] * 12 + [1] * 13
    p, _ = _suite("svt1")
    assert certify_program(p, n=25, relation=[[x, xp]]).holds


def test_mechanism_entries_by_hand_and_validated_the_slow_way():
    # nm_index_geo on (2, 0): index 2 wins iff Z_2 >= Z_1 + 3 (a tie goes to index 1); with a = e^(-eps/2) =
    # alpha^(1/2): sum_z (1 - a) a^z a^(z + 3) = a^3/(1 + a)
    p, _ = _suite("nm_index_geo")
    K = program_mechanism(p, [(0, 0), (2, 0)])
    assert K.outputs == ("1", "2") and K.validated
    assert str(K.entry("2,0", "2")) == "alpha^(3/2)/(1 + alpha^(1/2))"
    assert str(K.entry("0,0", "1")) == "1/(1 + alpha^(1/2))"
    # the builder skips re-validation (rows sum to 1 in t by construction): validate it here through ExpFrac
    for name in ("svt1", "gap_svt"):
        q, _ = _suite(name)
        K = program_mechanism(q, [(0, 1), (2, 2)])
        Mechanism(K.inputs, K.outputs, K.codes, K.values, validate=True)


def test_alpha_level_needs_a_rational_base():
    p, _ = _suite("svt1")
    with pytest.raises(UnsupportedRegime, match=r"t = alpha\^\(1/4\).*1/16"):
        certify_program(p, n=2, alpha="1/2")
    assert certify_program(p, n=2, alpha="1/16").holds


def test_no_pairs_and_cost_without_level():
    p = parse_program('output "a"\n')
    with pytest.raises(InvalidInput, match="no neighbour pairs"):
        certify_program(p, n=1, domain=(0, 0), relation="all-differ")
    with pytest.raises(InvalidInput, match="cost: the exact privacy cost is taken at a level"):
        certify_program(p, n=1, domain=(0, 1), cost=True)


@pytest.mark.parametrize("name,kw", [
    ("svt1", {}), pytest.param("svt4", {}, marks=pytest.mark.slow), ("svt5", {}), ("partial_sum_bad", {}),
    pytest.param("svt4", {"eps": "1"}, marks=pytest.mark.slow), ("svt5", {"eps": "1", "cost": True}),
    ("nm_index_geo", {"alpha": "1/4"}),
])
def test_the_kernel_confirms_the_program_certificates(name, kw):
    # with L > 1 the all-eps statement is written in u = e^(-eps/L) with every pair at distance L, which the
    # kernel re-checks (it reads entries polynomial in alpha itself); the same verdict as in alpha = e^(-eps)
    from exactdp.recheck import recheck

    p, rel = _suite(name)
    c = certify_program(p, n=2, domain=(0, 2), relation=rel, **kw)
    assert c.holds == (EXPECTED[name] == "holds")
    r = recheck(c.to_json())
    assert r.status == "confirmed", r


def test_the_all_eps_statement_in_u_agrees_with_the_one_in_alpha():
    # svt4 (L = 4): the certificate in u fails on all of (0, 1); the mechanism in alpha = e^(-eps) fails too
    from exactdp.certify import certify_all_eps

    p, _ = _suite("svt4")
    inputs, pairs = neighbour_pairs("all-differ", 2, (0, 2))
    direct = certify_all_eps(program_mechanism(p, inputs), relation_metric(inputs, pairs))
    via_u = certify_program(p, n=2, domain=(0, 2))
    assert direct.holds is via_u.holds is False
    assert direct.evidence.failure_set_text == via_u.evidence.failure_set_text == "(0, 1)"
    assert via_u.evidence.witness.distance == "4" and direct.evidence.root_power == 4


def test_column_denominators_keep_every_entry_exactly():
    # program_mechanism writes a column's symbolic entries over one denominator (speed of the all-eps check);
    # each entry must still equal the reduced rational function, checked at rational alphas exactly
    from fractions import Fraction

    from exactdp.exact.level import level_of
    from exactdp.programs import RatFunc, input_label

    p, _ = _suite("svt4")
    inputs, _pairs = neighbour_pairs("all-differ", 2, (0, 2))
    K = program_mechanism(p, inputs, base_as_alpha=True)
    dists = [output_distribution(p, x) for x in inputs]
    for i, x in enumerate(inputs):
        for z in K.outputs:
            v = dists[i].get(z, RatFunc(0))
            for u in (Fraction(1, 3), Fraction(7, 9)):
                got = K.at(level_of(alpha=str(u))).entry(input_label(x), z)
                assert got == fmpq(v.at(u).numerator, v.at(u).denominator), (x, z, u)


def test_program_certificate_at_a_rational_alpha():
    """--alpha A writes the program kind at eps0 = log(1/A) when A^(1/L) is rational; the answers are the matrix
    route's at that alpha."""
    from exactdp.programs.check import program_certificate

    p, rel = _suite("svt4")
    k = program_certificate(p, n=2, domain=(0, 2), relation=rel, alpha="1/16", cost=True)
    m = certify_program(p, n=2, domain=(0, 2), relation=rel, alpha="1/16", cost=True)
    assert k.evidence.level == "log(16)" and k.evidence.epsilon == m.evidence.epsilon
    assert (k.evidence.witness.x, k.evidence.witness.x_prime) == (m.evidence.binding.x, m.evidence.binding.x_prime)
    at = program_certificate(p, n=2, domain=(0, 2), relation=rel, alpha="1/16")
    assert at.verdict.value == certify_program(p, n=2, domain=(0, 2), relation=rel, alpha="1/16").verdict.value


@pytest.mark.parametrize("kw,err,match", [
    ({"alpha": "1/2"}, UnsupportedRegime, "4-th root is rational"),     # svt4 has L = 4
    ({"alpha": "1"}, InvalidInput, "rational alpha in"),
    ({"alpha": "0.5"}, InvalidInput, "rational alpha in"),
    ({"alpha": "1/16", "eps": "1"}, InvalidInput, "give one level"),
])
def test_program_certificate_bad_alpha(kw, err, match):
    from exactdp.programs.check import program_certificate

    p, rel = _suite("svt4")
    with pytest.raises(err, match=match):
        program_certificate(p, n=2, domain=(0, 2), relation=rel, **kw)
