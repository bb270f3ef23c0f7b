"""exactdp.plot: the privacy profile (HLM15) and the BCSZ18 extension figures, and their exact data.

Expected values come from brute force over all output sets (Fractions), from the extension's
definition re-implemented here with Fractions, or from closed forms -- never from the code under test.
"""

import json
import math
from fractions import Fraction as F
from itertools import product, pairwise

import pytest
from hypothesis import given, settings

from exactdp import Mechanism, path
from exactdp import plot as P
from exactdp.cli import main
from exactdp.errors import InvalidInput
from exactdp.mechanisms import randomized_response

from _approx_brute import _mech, brute_excess, mechanisms


@pytest.fixture
def plt():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def _fr(v):
    return F(str(v))


def _check_pieces_against_brute(pieces, rows, pairs):
    """Each exact piece A - tB equals the brute-force worst excess at its start and just inside it."""
    for t_from, t_to, A, B in pieces:
        t0 = _fr(t_from)
        t1 = t0 + 1 if t_to is None else (t0 + _fr(t_to)) / 2
        for t in (t0, t1):
            assert _fr(A) - t * _fr(B) == max(brute_excess(rows, pairs, t), F(0))


@settings(max_examples=25, deadline=None)
@given(mechanisms())
def test_profile_data_is_the_brute_force_profile(rows):
    M = _mech(rows)
    pairs = [(i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    labels = [(M.inputs[i], M.inputs[j]) for i, j in pairs]
    pieces = P.profile_data(M, labels)
    assert _fr(pieces[0][0]) == 1 and pieces[-1][1] is None
    assert all(_fr(a[1]) == _fr(b[0]) for a, b in pairwise(pieces))   # contiguous
    _check_pieces_against_brute(pieces, rows, pairs)


@pytest.mark.parametrize("k", [1, 2])   # brute force over 2^(3^k) output sets
def test_profile_data_of_the_composition_is_the_product_profile(k):
    rows = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 6), F(1, 2), F(1, 3)]]
    M = _mech(rows)
    prod_rows = [[math.prod(r[y] for y in ys) for ys in product(range(3), repeat=k)] for r in rows]
    pieces = P.profile_data(M, [("x0", "x1")], times=k)
    _check_pieces_against_brute(pieces, prod_rows, [(0, 1)])


def test_profile_data_randomized_response_closed_form():
    # RR on 3 values, p = 1/5: P = (3/5, 1/5, 1/5), Q = (1/5, 3/5, 1/5): one ratio 3 > 1
    pieces = P.profile_data(randomized_response(3, p="1/5"), [("0", "1")])
    assert [tuple(None if v is None else _fr(v) for v in pc) for pc in pieces] == \
           [(1, 3, F(3, 5), F(1, 5)), (3, None, 0, 0)]


def test_plot_profile_draws_the_exact_pieces(plt):
    R = randomized_response(2, p="4/9")                      # e^eps0 = 5/4
    ax, data = P.plot_profile(R, [("0", "1")], times=4, bounds=True)
    # single: delta = 5/9 - 4/9 e^eps on [0, log(5/4)], then 0
    xs, ys = ax.lines[0].get_xdata(), ax.lines[0].get_ydata()
    for x, y in zip(xs, ys, strict=True):
        want = max(5 / 9 - 4 / 9 * math.exp(x), 0.0)
        assert y == pytest.approx(want, abs=1e-15)
    assert ax.lines[1].get_xdata().tolist() == pytest.approx([math.log(5 / 4)], rel=1e-15)
    # the composition's breakpoints: e^eps = (5/4)^(4 - 2i) > 1
    marks = ax.lines[3].get_xdata().tolist()
    assert marks == pytest.approx([math.log(1.25) * e for e in (2, 4)], rel=1e-14)
    # the 4-fold composition by hand (Kairouz-Oh-Viswanath, r = 5/4, P(stay) = 5/9): A - t B at each breakpoint
    # t = r^(4-2i): t = 1 gives ((r^4 - 1) + 4 (r^3 - r))/(1 + r)^4 = 121/729, t = 25/16 gives
    # (r^4 - r^2)/(1 + r)^4 = 25/729, and from t = 625/256 on the profile is 0
    assert [F(str(t)) for t, *_ in data["composed"]] == [1, F(25, 16), F(625, 256)]
    assert [F(str(a)) - F(str(t)) * F(str(b)) for t, _, a, b in data["composed"]] == [F(121, 729), F(25, 729), 0]
    assert len(ax.lines) == 6 and ax.get_xlabel() == "eps" and ax.get_ylabel() == "smallest delta"
    # basic bound: (4 eps0, 4 delta(eps0)); delta reaches 0 at 4 log(5/4), where the pure bound starts
    bx, by = ax.lines[4].get_xdata(), ax.lines[4].get_ydata()
    assert min(x for x, y in zip(bx, by, strict=True) if y == 0) == pytest.approx(4 * math.log(1.25), rel=1e-12)
    assert by[0] == pytest.approx(4 * (5 / 9 - 4 / 9), rel=1e-12) and bx[0] == 0


def test_plot_profile_log_axis(plt):
    ax, _ = P.plot_profile(randomized_response(2, p="1/4"), [("0", "1")], times=10, logy=True)
    assert ax.get_yscale() == "log" and ax.get_ylim()[0] == pytest.approx(1e-12)


def test_plot_profile_bad_input(plt):
    with pytest.raises(InvalidInput, match="bounds=True needs times=k"):
        P.plot_profile(randomized_response(2, p="1/4"), [("0", "1")], bounds=True)
    with pytest.raises(InvalidInput, match="k: expected k >= 1"):
        P.profile_data(randomized_response(2, p="1/4"), [("0", "1")], times=0)
    for bad in ("0", "-1", "1", "3/2"):
        with pytest.raises(InvalidInput, match=r"delta_prime .* must be in"):
            P.plot_profile(randomized_response(2, p="1/4"), [("0", "1")], times=2, bounds=True, delta_prime=bad)


# -- BCSZ18 --------------------------------------------------------------------------------------------------------
RRH = [[F(4, 5), F(1, 5)], [F(1, 5), F(4, 5)]]


def _extension_by_definition(n, H, rows):
    """Path metric on 0..n-1, alpha = 1/2 so e^(eps d) = 2^d: A(D)(w) = min_{D' in H} 2^|D-D'| Â(D')(w) / Z_D."""
    out = []
    for D in range(n):
        m = [min(F(2) ** abs(D - h) * rows[k][w] for k, h in enumerate(H)) for w in range(len(rows[0]))]
        out.append([v / sum(m) for v in m])
    return out


def test_extension_pairs_against_the_definition():
    Rh = Mechanism.from_rows(["0", "4"], ["a", "b"], [[str(v) for v in r] for r in RRH])
    X, pairs = P.extension_pairs(Rh, path(5), ["0", "4"], alpha="1/2")
    A = _extension_by_definition(5, [0, 4], RRH)
    assert [[_fr(v) for v in r] for r in X.mechanism.rows()] == A
    want = []
    for i in range(5):
        for j in range(i + 1, 5):
            R = max(max(A[i][w] / A[j][w], A[j][w] / A[i][w]) for w in range(2))
            d = j - i
            want.append((str(i), str(j), d, R, 2 ** d >= R, 4 ** d >= R, i in (0, 4) and j in (0, 4)))
    got = [(a, b, int(_fr(d)), _fr(R), w1, w2, both) for a, b, d, R, w1, w2, both in pairs]
    assert got == want
    assert all(w2 for *_, w2, _ in got)                      # BCSZ18 Prop. 2.1: 2 eps-private
    assert {w1 for *_, w1, _, _ in got} == {True, False}      # eps alone fails for some pair outside H
    assert all(w1 for *_, w1, _, both in got if both)         # and holds on H x H


def test_plot_extension_draws_log_ratios(plt):
    Rh = Mechanism.from_rows(["0", "4"], ["a", "b"], [[str(v) for v in r] for r in RRH])
    ax, _pairs = P.plot_extension(Rh, path(5), ["0", "4"], alpha="1/2")
    inside = list(zip(ax.lines[0].get_xdata(), ax.lines[0].get_ydata(), strict=True))
    assert inside == [(4.0, pytest.approx(math.log(4), rel=1e-14))]
    assert len(ax.lines[1].get_xdata()) == 9
    assert ax.lines[3].get_ydata().tolist() == pytest.approx([0, 2 * math.log(2) * 4], rel=1e-14)


def test_extension_pairs_refuses_large_metrics():
    Rh = Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/2", "1/2"], ["1/2", "1/2"]])
    with pytest.raises(InvalidInput, match="limited to 200 points"):
        P.extension_pairs(Rh, path(201), ["0", "1"], alpha="1/2")


# -- command line --------------------------------------------------------------------------------------------------
def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_plot_profile_and_extension_commands(tmp_path, capsys, plt):
    def write(name, obj):
        p = tmp_path / name
        p.write_text(json.dumps(obj))
        return str(p)
    rr = write("rr.json", {"inputs": ["0", "1"], "outputs": ["0", "1"],
                           "matrix": [["exp(1)/(1 + exp(1))", "1/(1 + exp(1))"],
                                      ["1/(1 + exp(1))", "exp(1)/(1 + exp(1))"]]})
    d2 = write("d2.json", {"kind": "discrete", "points": ["0", "1"]})
    rrh = write("rrh.json", {"inputs": ["0", "4"], "outputs": ["a", "b"], "matrix": [["4/5", "1/5"], ["1/5", "4/5"]]})
    p5 = write("p5.json", {"kind": "path", "n": 5})
    h = write("h.json", ["0", "4"])
    for args in (["profile", rr, "--metric", d2], ["profile", rr, "--metric", d2, "--times", "5", "--bounds",
                                                    "--logy"],
                 ["extension", rrh, "--metric", p5, "--subset", h, "--alpha", "1/2"],
                 ["extension", rrh, "--metric", p5, "--eps", "log(2)"]):
        out = tmp_path / "f.png"
        code, _text, err = _run(["plot", *args, "-o", str(out)], capsys)
        assert code == 0 and out.read_bytes()[:4] == b"\x89PNG", (args, err)
        out.unlink()
    for args, match in ((["profile", rr], "needs MECH.json and --metric"),
                        (["profile", rr, "--metric", d2, "--bounds"], "--bounds needs --times"),
                        (["profile", rr, "--metric", d2, "--times", "0"], "--times: expected 1 <= K"),
                        (["extension", rrh, "--metric", p5], "needs --eps or --alpha")):
        code, _, err = _run(["plot", *args, "-o", str(tmp_path / "x.png")], capsys)
        assert code == 2 and match in err, (args, err)
