
import pytest
from flint import fmpq

from exactdp.errors import InvalidInput, Undecided
from exactdp.mechanisms import geometric
from exactdp.optimality.universal import (certify_universal_optimality, check_lemmas, constraint_matrix,
                                       lemma_5_11_remap, optimal_mechanism, user_lp)
from exactdp.optimality.remaps import bayes_remap
from exactdp.optimality.users import User, expected_loss


def test_universal_optimality_and_dual():
    c = certify_universal_optimality(4, User.uniform(4, "binary"), alpha="2/3")
    assert c.holds is True and c.evidence.attains is True
    assert c.recheck().ok is True
    assert len(c.evidence.lp.y) == 5


def test_lp_beats_unremapped_geometric_for_binary_two_point_prior():
    u = User(["1/2", 0, 0, "1/2"], "binary")
    sol, _opt = optimal_mechanism(3, fmpq(1, 2), u)
    assert sol.value == fmpq(1, 6) < expected_loss(geometric(3, "1/2"), u)


def test_uniqueness_for_uniform_absolute():
    sol, opt = optimal_mechanism(4, fmpq(1, 3), User.uniform(4, "absolute"))
    assert sol.unique is True
    assert opt.rows() == geometric(4, "1/3").rows()


def test_constraint_matrix_of_geometric_and_lemmas():
    G = geometric(4, "1/2")
    C = constraint_matrix(G, fmpq(1, 2))
    assert C[0] == ["D", "U", "U", "U", "U"] and C[3] == ["D", "D", "D", "D", "U"]
    assert check_lemmas(C) == {"lemma 5.5": True, "lemma 5.6": True, "lemma 5.9": True}
    assert lemma_5_11_remap(C, 4) == {str(z): str(z) for z in range(5)}
    bad = [["U", "D"], ["D", "U"]]
    assert check_lemmas(bad)["lemma 5.5"] is False or check_lemmas(bad)["lemma 5.9"] is False


def test_user_lp_shapes_and_errors():
    lp = user_lp(2, fmpq(1, 2), User.uniform(2))
    assert lp.n == 9 and len(lp.A_eq) == 3 and len(lp.A_ub) == 12
    with pytest.raises(InvalidInput, match="expected 4"):
        user_lp(3, fmpq(1, 2), User.uniform(2))
    with pytest.raises(Undecided, match="not rational"):
        certify_universal_optimality(2, User.uniform(2), eps="1/2")
    with pytest.raises(InvalidInput, match="alpha"):
        certify_universal_optimality(2, User.uniform(2), alpha="3/2")


def test_privacy_lp_over_a_metric_matches_the_user_lp():
    from exactdp.exact.lp import solve_lp
    from exactdp.metrics import cycle, path
    from exactdp.optimality.universal import privacy_lp
    u = User.uniform(4, "absolute")
    on_path = solve_lp(privacy_lp(path(5), fmpq(1, 2), lambda i, j: u.prior[i] * u.loss[i][j]))
    assert on_path.value == optimal_mechanism(4, fmpq(1, 2), u)[0].value
    # on a cycle (0 and 4 adjacent) the privacy constraints are stronger: the optimum cannot be smaller
    on_cycle = solve_lp(privacy_lp(cycle(5), fmpq(1, 2), lambda i, j: u.prior[i] * u.loss[i][j]))
    assert on_cycle.verify() and on_cycle.value >= on_path.value


@pytest.mark.parametrize("n, alpha, exponent, prior", [
    (2, "1/2", "3/2", ["1/2", 0, "1/2"]),
    (3, "1/3", "1/2", ["1/4", "1/4", "1/4", "1/4"]),
    (4, "2/3", "3/2", ["1/10", "2/5", 0, "1/5", "3/10"]),
    (3, "1/2", "9/10", ["1/2", "1/6", "1/6", "1/6"]),
])
def test_radical_loss_optimum_equals_remapped_geometric(n, alpha, exponent, prior):
    # Thm 3.1 with an irrational loss: the radical LP and the Bayes remap (a different code path) agree exactly
    from exactdp.optimality.users import power_loss
    u = User(prior, power_loss(n, fmpq(exponent)))
    sol, opt = optimal_mechanism(n, fmpq(alpha), u)
    assert sol.verify()
    _, R = bayes_remap(geometric(n, alpha), u)
    assert expected_loss(R, u) == sol.value
    assert expected_loss(opt, u) == sol.value


@pytest.mark.parametrize("n, alpha, loss, prior", [
    (6, "1/2", "absolute", None), (7, "1/3", "squared", None), (5, "2/3", "binary", None),
    (6, "1/2", "absolute", ["1/2", 0, 0, 0, 0, 0, "1/2"]), (5, "1/5", "squared", ["1/10", "1/5", 0, "1/5", "1/2", 0]),
])
def test_optimum_from_the_remapped_geometric_equals_the_highs_route(n, alpha, loss, prior):
    # the start basis (GRS12 Thm 3.1's mechanism) only guides: the same exact optimum as from HiGHS's basis
    from exactdp.exact.lp import solve_lp
    from exactdp.optimality.universal import optimal_mechanism, user_lp

    user = User.uniform(n, loss) if prior is None else User(prior, loss)
    sol, _ = optimal_mechanism(n, alpha, user)
    ref = solve_lp(user_lp(n, fmpq(alpha), user))
    assert sol.verify()
    assert ref.method.startswith(("HiGHS", "exact revised simplex (rational sparse LU) from the HiGHS"))
    assert sol.value == ref.value and "Bayes-remapped geometric mechanism (GRS12 Thm 3.1)" in sol.method


def test_a_start_that_is_not_optimal_is_repaired(monkeypatch):
    # the uniform mechanism (every entry 1/(n+1)): feasible, not a vertex, not optimal; exact pivots repair it
    from exactdp.optimality import universal as optimality

    n = 4
    user = User.uniform(n, "absolute")
    ref, _ = optimality.optimal_mechanism(n, "1/2", user)
    monkeypatch.setattr(optimality, "_start_point", lambda n, a, u, r: [fmpq(1, n + 1)] * (n + 1) ** 2)
    sol, _ = optimality.optimal_mechanism(n, "1/2", user)
    assert sol.verify() and sol.value == ref.value and "exact pivot" in sol.method


def test_irrational_loss_keeps_the_highs_routes_size_limit(monkeypatch):
    from exactdp.errors import InputTooLarge
    from exactdp.optimality import universal as optimality
    from exactdp.optimality.users import power_loss

    monkeypatch.setattr(optimality, "MAX_LP_SIZE", optimality.user_lp_size(2) - 1)
    with pytest.raises(InputTooLarge, match=r"irrational loss .* HiGHS's basis"):
        optimality.optimal_mechanism(2, "1/2", User(["1/2", 0, "1/2"], power_loss(2, fmpq(3, 2))))
