"""Regenerate the figures of the documentation and the README into docs/figures/.

    PYTHONPATH=. python docs/make_figures.py

Every figure is drawn by exactdp.plot from exact data (see its docstrings).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402

from exactdp import Level, cycle, from_graph, geometric, path  # noqa: E402
from exactdp.plot import (plot_geo_utility, plot_geometric_vs_laplace, plot_mechanism,  # noqa: E402
                          plot_regular_region, plot_utility)

OUT = Path(__file__).resolve().parent / "figures"


def sum_query(u, v=5):
    """ECP14 sec. 7.1: answers 0..u*v of a sum query, adjacent iff they differ by at most v."""
    n = u * v + 1
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((i, j) for i in range(n) for j in range(i + 1, min(n, i + v + 1)))
    return from_graph(G)


def save(fig, name):
    fig.tight_layout()
    fig.savefig(OUT / name, dpi=90)
    plt.close(fig)
    print(OUT / name, (OUT / name).stat().st_size // 1024, "KB")


def main():
    OUT.mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(6, 4.8))
    plot_mechanism(geometric(6, "1/2"), ax=ax)
    save(fig, "geometric_heatmap.png")

    fig, axes = plt.subplots(1, 2, figsize=(9, 4.2))
    level = Level.from_alpha("1/2")
    plot_regular_region(path(3), level, ax=axes[0])
    plot_regular_region(cycle(3), level, ax=axes[1])
    save(fig, "regular_region.png")

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    plot_utility(sum_query(4), [f"{k}/100" for k in range(62, 97, 1)], sensitivity=5, ax=ax)
    save(fig, "utility_sum_query.png")

    # ECP14 Fig. 7 at the paper's size: 100 x 100 grid, eps = 0.40, 0.45, ..., 1.30 (about a minute)
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    plot_geo_utility(100, [f"{k}/100" for k in range(40, 131, 5)], ax=ax)
    save(fig, "utility_geo_grid.png")

    fig, ax = plt.subplots(figsize=(6, 4.2))
    plot_geometric_vs_laplace(ax=ax)
    save(fig, "geometric_vs_laplace.png")


if __name__ == "__main__":
    main()
