"""Sizes follow the route (issue 20, items 3 and 4): ``Phi z = b`` is refused by the cells of the quotient its
route solves and the memory it needs, not by the number of points.

The cell counts are derived independently: a path of ``n`` points has the orbits of its reversal,
``ceil(n / 2)`` cells; a ``2m x 2m`` Euclidean grid has the orbits of the square's 8 symmetries, the
``m x m`` quarter cut by its diagonal, ``m (m + 1) / 2`` cells.
"""

import json

import pytest

from exactdp import from_matrix, grid, path
from exactdp.cli import main
from exactdp.cli.checks import UsageError, check_phi_route
from exactdp.errors import InputTooLarge, Undecided
from exactdp.exact.level import Level
from exactdp.priors import phi
from exactdp.priors.phi import PhiSystem
from exactdp.priors.regular import tight_constraints
from exactdp.priors.threshold import threshold

EPS1 = Level.from_eps("1")
HALF = Level.from_alpha("1/2")


def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("side", "cells"), [(10, 15), (100, 1_275), (200, 5_050)])
def test_euclidean_grids_take_the_verified_route_up_to_200(side, cells):
    m = side // 2
    assert cells == m * (m + 1) // 2
    r = PhiSystem(grid((side, side), "euclidean"), EPS1).route()
    assert (r.name, r.cells, r.points, r.refusal()) == ("verified float solve", cells, side * side, None)
    assert check_phi_route(grid((side, side), "euclidean"), "tight", level=EPS1) == cells


def test_the_220_grid_is_refused_by_its_cells_not_its_points():
    g = grid((220, 220), "euclidean")   # 48,400 points, 110 * 111 / 2 = 6,105 cells
    r = PhiSystem(g, EPS1).route()
    assert r.cells == 6_105 and r.limit == phi.MAX_VERIFIED_CELLS == 5_050
    why = r.refusal()
    assert "verified float solve" in why and "6,105 cells for 48,400 points" in why and "5,050 cells" in why
    with pytest.raises(InputTooLarge, match=r"6,105 cells for 48,400 points.*the limit is 5,050 cells"):
        PhiSystem(g, EPS1).solve_ones()
    with pytest.raises(InputTooLarge, match="6,105 cells"):  # not taken for a singular Phi
        tight_constraints(g, EPS1)
    with pytest.raises(InputTooLarge, match=r"threshold: the certified bracket .* 6,105 cells"):
        threshold(g)


@pytest.mark.parametrize(("n", "ok"), [(2999, True), (3000, True), (3001, False)])
def test_exact_route_limit_on_a_path(n, ok):
    r = PhiSystem(path(n), HALF).route()   # rational alpha, integer distances: exact over Q
    assert r.name == "exact rational solve" and r.cells == -(-n // 2)
    assert (r.refusal() is None) == ok
    if not ok:
        assert "1,501 cells for 3,001 points" in r.refusal() and "the limit is 1,500 cells" in r.refusal()


def test_the_same_path_at_a_transcendental_level_takes_the_verified_route():
    r = PhiSystem(path(3002), EPS1).route()
    assert (r.name, r.cells, r.refusal()) == ("verified float solve", 1_501, None)


def test_the_command_line_names_the_route_and_its_cost(tmp_path, capsys):
    g = tmp_path / "g220.json"
    g.write_text(json.dumps({"kind": "grid", "shape": [220, 220], "norm": "euclidean"}))
    for args, prefix in ((["tight", str(g), "--eps", "1"], "tight: "),
                         (["tight", str(g), "--threshold"], "threshold: the certified bracket"),
                         (["regular", str(tmp_path / "absent.json"), "--metric", str(g), "--eps", "1"], "regular: ")):
        code, out, err = _run(args, capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, args
        assert prefix in err and "verified float solve" in err and "6,105 cells for 48,400 points" in err
        assert "about k^3 = 2.3e+11" in err and "the limit is 5,050 cells" in err


def test_points_limit_only_where_the_full_codes_are_built(monkeypatch):
    monkeypatch.setattr(phi, "MAX_POINTS", 4)
    # distances in {1, 2}: a metric (any two sum to at least the third), without a formula exactdp knows
    m = from_matrix(["a", "b", "c", "d", "e"], [[0 if i == j else 1 + (i + j) % 2 for j in range(5)] for i in range(5)])
    with pytest.raises(InputTooLarge, match=r"5 points whose distances are not a known formula.*limit of 4 points"):
        PhiSystem(m, HALF)
    with pytest.raises(UsageError, match=r"^tight: Phi: 5 points whose distances"):
        check_phi_route(m, "tight", level=HALF)
    assert PhiSystem(path(10), HALF).route().cells == 5   # a formula: only the cells count


def test_memory_of_the_representatives_codes_is_capped(monkeypatch):
    monkeypatch.setattr(phi, "MAX_CODE_BYTES", 8 * 15 * 100 - 1)   # 15 representatives x 100 points, twice
    r = PhiSystem(grid((10, 10), "euclidean"), EPS1).route()
    assert "distance codes of the 15 representatives" in r.refusal()
    monkeypatch.setattr(phi, "MAX_CODE_BYTES", 8 * 15 * 100)
    assert r.refusal() is None


def test_arb_fallback_is_capped_and_said_undecided(monkeypatch):
    g = grid((10, 10), "euclidean")
    monkeypatch.setattr(PhiSystem, "_solve_verified", lambda self, part, qrhs: None)  # as if Rump's bound failed
    monkeypatch.setattr(phi, "MAX_BALL_CELLS", 14)
    with pytest.raises(Undecided, match=r"15-cell quotient did not certify every sign.*limited to 14 cells"):
        PhiSystem(g, EPS1).solve_ones()
    c = tight_constraints(g, EPS1)
    assert c.verdict.value == "undecided" and "limited to 14 cells" in c.reason
    monkeypatch.setattr(phi, "MAX_BALL_CELLS", 15)   # at the cap the Arb solve runs and decides
    assert tight_constraints(g, EPS1).holds is True
