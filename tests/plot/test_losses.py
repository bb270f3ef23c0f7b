"""exactdp.plot.losses: GRS12's optimal loss of the geometric mechanism against the Laplace one, exact data
(closed forms, never the code under test) and the figure drawn from it."""

from fractions import Fraction as F


from exactdp import plot as P


def test_loss_data_exact_closed_forms():
    roots = [F(k, 7) for k in range(1, 7)]
    data = P.loss_data([str(s) for s in roots])
    for (alpha, geo, lap), s in zip(data, roots, strict=True):
        a = s * s
        assert F(str(alpha)) == a
        assert F(str(geo)) == a / (1 + a)      # GRS12 sec. 6.1, geometric optimum
        assert F(str(lap)) == s / 2            # sqrt(alpha)/2
        assert F(str(geo)) < F(str(lap))      # AM-GM: (1 + a)/(2 sqrt a) > 1 for a < 1


def test_plot_geometric_vs_laplace(plt):
    ax, _data = P.plot_geometric_vs_laplace(["1/4", "1/2", "3/4"])
    assert len(ax.lines) == 2
    assert ax.lines[0].get_xdata().tolist() == [1 / 16, 1 / 4, 9 / 16]
    assert ax.lines[0].get_ydata().tolist() == [float(F(1, 17)), float(F(1, 5)), float(F(9, 25))]
    assert ax.lines[1].get_ydata().tolist() == [1 / 8, 1 / 4, 3 / 8]
    assert ax.get_xlabel() == "alpha = exp(-eps)"
