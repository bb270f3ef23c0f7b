"""GRS12 on the journal version's settings: every printed number pinned exactly.

Expected values are derived here by hand (closed forms from the paper, sums written out), not copied from the
code under test.
"""

import itertools

import pytest
from flint import fmpq

from exactdp.errors import InvalidInput
from exactdp.exact.lp import solve_lp
from exactdp.exact.radical import Rad
from exactdp.mechanisms import geometric
from exactdp.optimality.universal import constraint_matrix, optimal_mechanism
from exactdp.optimality.remaps import bayes_remap
from exactdp.optimality.users import User, expected_loss, power_loss

Q = fmpq
S2, S3, S5 = (Rad.power(k, Q(1, 2)) for k in (2, 3, 5))

FIG2 = [[Q(2, 3), 0, Q(1, 4), Q(1, 24), Q(1, 48), Q(1, 48)],
        [Q(1, 3), 0, Q(1, 2), Q(1, 12), Q(1, 24), Q(1, 24)],
        [Q(1, 6), 0, Q(1, 2), Q(1, 6), Q(1, 12), Q(1, 12)],
        [Q(1, 12), 0, Q(1, 4), Q(1, 3), Q(1, 6), Q(1, 6)],
        [Q(1, 24), 0, Q(1, 8), Q(1, 6), Q(1, 3), Q(1, 3)],
        [Q(1, 48), 0, Q(1, 16), Q(1, 12), Q(1, 6), Q(2, 3)]]


# -- Figure 1 ---------------------------------------------------------------------------------------
def test_fig1_tables_by_formula():
    from exactdp.papers.grs12_discussion import two_sided_mass
    a = Q(1, 2)
    G = geometric(5, "1/2")
    assert [G[0, j] for j in range(6)] == [Q(2, 3), Q(1, 6), Q(1, 12), Q(1, 24), Q(1, 48), Q(1, 48)]
    for i in range(6):
        assert G[i, 0] == a ** i / (1 + a) and G[i, 5] == a ** (5 - i) / (1 + a)
        # untruncated P(z | i) = (1/3) (1/2)^|z - i|; a long finite window sums to 1 minus the two exact tails
        window = sum((Q(1, 3) * a ** abs(z - i) for z in range(-40, 46)), Q(0))
        assert window == 1 - Q(1, 3) * (a ** (41 + i) + a ** (46 - i)) / (1 - a)
        assert two_sided_mass(None, -i, a) == G[i, 0] and two_sided_mass(5 - i, None, a) == G[i, 5]
    assert two_sided_mass(None, None, a) == 1 and two_sided_mass(2, 2, a) == Q(1, 12)


# -- Example 2.2 (untruncated) ----------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 3, 5, 7])
@pytest.mark.parametrize("a", [Q(1, 2), Q(1, 3), Q(9, 10)])
def test_ex22_formulas(n, a):
    from exactdp.papers.grs12_discussion import _ex22_losses
    face, post = _ex22_losses(n, a)
    assert face == 2 * a / (1 + a)
    assert post == a ** ((n + 1) // 2) / (1 + a)


def test_ex22_printed_numbers():
    from exactdp.papers.grs12_discussion import _ex22_losses
    assert _ex22_losses(5, Q(1, 2)) == (Q(2, 3), Q(1, 12))
    # the truncated mechanism (the earlier reconstruction): face value alpha/(1 + alpha) = 1/3 at 1/2
    u = User([Q(1, 2), 0, 0, 0, 0, Q(1, 2)], "binary")
    assert expected_loss(geometric(5, "1/2"), u) == Q(1, 3)


# -- Section 6.1 ------------------------------------------------------------------------------------
def test_sec61_printed_numbers():
    sol, _ = optimal_mechanism(1, Q(1, 2), User.uniform(1, "binary"))
    assert sol.value == Q(1, 3)
    laplace = S2 / 4                        # 1/(2 sqrt 2) = sqrt(1/2)/2
    assert laplace * laplace * 8 == 1
    assert Q(345, 1000) <= laplace < Q(355, 1000)           # "~ 0.35"
    ratio = laplace * 3                                     # (1 + 1/2)/(2 sqrt(1/2)) = 3 sqrt 2 / 4
    assert ratio == (1 + Q(1, 2)) / 2 * S2 and Q(1055, 1000) <= ratio < Q(1065, 1000)   # "1.06"


# -- Figures 2 and 3 (journal Fig. 3(a), 3(b)) ------------------------------------------------------
def _fig2_user():
    return User(["1/4", 0, "1/4", 0, "1/4", "1/4"], power_loss(5, Q(3, 2)))


def test_power_loss_values_by_hand():
    L = power_loss(5, Q(3, 2))
    assert L[0] == [0, 1, 2 * S2, 3 * S3, 8, 5 * S5]
    assert L[5][0] == 5 * S5 and L[2][2] == 0
    with pytest.raises(InvalidInput, match="positive rational"):
        power_loss(3, 0)


def test_fig2_is_the_unique_optimum_for_the_published_user():
    sol, opt = optimal_mechanism(5, Q(1, 2), _fig2_user())
    assert opt.rows() == FIG2 and sol.unique is True and sol.verify()
    # value by hand: rows 0, 2, 4, 5 (prior 1/4) against |i - j|^(3/2)
    hand = Q(1, 4) * ((Q(1, 4) * 2 * S2 + Q(1, 24) * 3 * S3 + Q(1, 48) * 8 + Q(1, 48) * 5 * S5)
                      + (Q(1, 6) * 2 * S2 + Q(1, 6) + Q(1, 12) * 2 * S2 + Q(1, 12) * 3 * S3)
                      + (Q(1, 24) * 8 + Q(1, 8) * 2 * S2 + Q(1, 6) + Q(1, 3))
                      + (Q(1, 48) * 5 * S5 + Q(1, 16) * 3 * S3 + Q(1, 12) * 2 * S2 + Q(1, 6)))
    assert sol.value == hand == Q(1, 3) + Q(17, 48) * S2 + Q(9, 64) * S3 + Q(5, 96) * S5


def test_fig2_is_the_bayes_remapped_geometric():
    u = _fig2_user()
    mapping, R = bayes_remap(geometric(5, "1/2"), u)
    assert mapping == {"0": "0", "1": "2", "2": "2", "3": "3", "4": "4", "5": "5"}
    assert R.rows() == FIG2


def test_fig3_journal_pattern():
    from exactdp.mechanism import mechanism_from_values
    from exactdp.papers.grs12_optimality import FIGURE_3, journal_pattern
    M = mechanism_from_values(range(6), range(6), [[Q(v) for v in r] for r in FIG2])
    want = ["D0UUUU", "D0SUUU", "D0DUUU", "D0DDUU", "D0DDDU"]
    assert want == FIGURE_3
    assert journal_pattern(constraint_matrix(M, Q(1, 2))) == want
    # the glyph convention by hand: row pair (0, 1), column 0: 1/3 = (1/2)(2/3) -> D; column 2: 1/2 = (1/4)/(1/2) -> U
    assert FIG2[1][0] == Q(1, 2) * FIG2[0][0] and FIG2[1][2] == FIG2[0][2] / Q(1, 2)


# -- Footnote: an optimal LP vertex that is no remap ------------------------------------------------
def test_footnote_vertex():
    from exactdp.papers.grs12_optimality import FOOTNOTE_LOSS, _footnote_lp, vertex_rank
    V = [[Q(1, 3), Q(1, 3), Q(1, 3), 0], [Q(2, 3), Q(1, 6), Q(1, 6), 0], [Q(1, 3), Q(1, 3), Q(1, 3), 0],
         [Q(1, 6), Q(1, 6), Q(2, 3), 0]]
    # privacy by hand: adjacent rows within a factor 2 in every column (0 next to 0)
    for i in range(3):
        for j in range(4):
            assert Q(1, 2) * V[i][j] <= V[i + 1][j] and Q(1, 2) * V[i + 1][j] <= V[i][j]
    value = sum((Q(1, 4) * V[i][j] * FOOTNOTE_LOSS[i][j] for i in range(4) for j in range(4)), Q(0))
    assert value == Q(1, 3)
    lp = _footnote_lp()
    assert solve_lp(lp).value == Q(1, 3) and vertex_rank(lp, [v for r in V for v in r]) == 16
    # another optimal point: the same rows 0, 1 and rows 2, 3 shifted; feasible and of value 1/3
    W = [V[0], V[1], [Q(7, 12), Q(1, 12), Q(1, 3), 0], [Q(7, 24), Q(1, 24), Q(2, 3), 0]]
    for i in range(3):
        for j in range(4):
            assert Q(1, 2) * W[i][j] <= W[i + 1][j] and Q(1, 2) * W[i + 1][j] <= W[i][j]
    assert all(sum(r) == 1 for r in W) and W != V
    assert sum((Q(1, 4) * W[i][j] * FOOTNOTE_LOSS[i][j] for i in range(4) for j in range(4)), Q(0)) == Q(1, 3)
    # no deterministic remap of the truncated geometric mechanism gives V (and none reaches 1/3)
    G = geometric(3, "1/2").rows()
    for m in itertools.product(range(4), repeat=4):
        R = [[sum((G[i][z] for z in range(4) if m[z] == j), Q(0)) for j in range(4)] for i in range(4)]
        assert R != V
        assert sum((Q(1, 4) * R[i][j] * FOOTNOTE_LOSS[i][j] for i in range(4) for j in range(4)), Q(0)) > Q(1, 3)
    with pytest.raises(InvalidInput, match="not nondecreasing"):
        User.uniform(3, FOOTNOTE_LOSS)


# -- Theorem 6.1 (journal Cor. 3.4): the loss 1 + gamma |j - i| --------------------------------------
def test_thm61_gamma_loss_instances():
    from exactdp.papers.grs12_discussion import _is_unique_geometric, gamma_loss
    assert gamma_loss(2, Q(1, 10))[0] == [0, Q(11, 10), Q(12, 10)]
    # n = 3, alpha = 9/10: fails at gamma = 1/10, holds at 1/20, and (interpolation) at any gamma below, e.g. 1/37
    assert not _is_unique_geometric(3, Q(9, 10), gamma_loss(3, Q(1, 10)))[0]
    for g in (Q(1, 20), Q(1, 37), Q(1, 1000)):
        assert _is_unique_geometric(3, Q(9, 10), gamma_loss(3, g))[0]
    # and with the absolute loss the statement fails (n = 2, alpha = 2/3: the middle output always)
    ok, sol, opt = _is_unique_geometric(2, Q(2, 3), "absolute")
    assert not ok and opt.rows() == [[0, 1, 0]] * 3 and sol.value == Q(2, 3)


# -- Theorem 6.3 (journal App. C, Fig. 6(a)) --------------------------------------------------------
FIG4 = {frozenset({1}): (Q(11, 12), Q(1, 12)), frozenset({2}): (Q(2, 3), Q(1, 3)),
        frozenset({1, 3}): (Q(5, 6), Q(1, 6)), frozenset({2, 3}): (Q(1, 3), Q(2, 3))}


@pytest.mark.parametrize("delta", [Q(1, 10), Q(1, 2), Q(1, 1000)])
def test_thm63_figure4_rows(delta):
    from exactdp.papers.grs12_databases import IDX, published_prior, solve_user
    p = published_prior(Q(1, 20))
    assert p[frozenset({2, 3})] == Q(9, 20) and sum(p.values()) == 1
    sol = solve_user(p, delta)
    assert {D: (sol.x[IDX[D] * 4 + 1], sol.x[IDX[D] * 4 + 2]) for D in FIG4} == FIG4
    # value by hand: the mass at distance 1 from the count (|{1}| = |{2}| = 1, |{1,3}| = |{2,3}| = 2):
    # {1}: (1/4)(1/12) on output 2, {2}: (1/4)(1/3) on 2, {1,3}: (1/20)(5/6) on 1, {2,3}: (9/20)(1/3) on 1
    assert sol.value == Q(1, 48) + Q(1, 12) + Q(1, 24) + Q(3, 20) == Q(71, 240)


def test_thm63_absolute_loss_limit_is_rational_and_the_same():
    # delta = 0 (t = 2): a rational LP solved by the ordinary exact LP gives the same four rows
    from exactdp.papers.grs12_databases import IDX, database_lp, published_prior
    p = published_prior(Q(1, 20))
    sol = solve_lp(database_lp(p, loss=lambda i, r: Q(abs(i - r))))
    assert {D: (sol.x[IDX[D] * 4 + 1], sol.x[IDX[D] * 4 + 2]) for D in FIG4} == FIG4


def test_thm63_proof_numbers_and_impossibility():
    from exactdp.papers.grs12_databases import (_swap12, common_t_interval, entry_ranges, face_simultaneous_lp,
                                                proof_bounds, published_prior, solve_user, t_interval)
    lo, hi = proof_bounds()
    assert (lo, hi) == (Q(7, 12), Q(1, 6)) and lo / hi == Q(7, 2) > 2
    p1 = published_prior(Q(1, 20))
    p2 = {D: p1[_swap12(D)] for D in p1}
    s1, s2 = solve_user(p1, Q(1, 10)), solve_user(p2, Q(1, 10))
    ranges = entry_ranges(s1)
    assert len(ranges) == 32 and all(a == b for a, b in ranges.values())  # the optimum is unique
    assert {D: (ranges[(D, 1)][0], ranges[(D, 2)][0]) for D in FIG4} == FIG4
    assert solve_lp(face_simultaneous_lp(s1, s2)).value > 0
    atom = Rad.power(2, Q(9, 10)).terms[0][0]
    assert t_interval(s1, atom) == (1, None) and t_interval(s2, atom) == (1, None)
    assert common_t_interval([s1, s2], atom) == (1, None)
