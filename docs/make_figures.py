"""Regenerate the figures of the documentation and the README into docs/figures/.

    PYTHONPATH=. python docs/make_figures.py [--workers N | --scheduler ADDRESS]

Every figure is drawn by exactdp.plot from exact data (see its docstrings).  The 19 levels of ECP14 Fig. 7 are
independent jobs: ``--workers N`` runs them on a local Dask cluster of N processes, ``--scheduler ADDRESS`` on an
existing one (exactdp.sweep; the figure is the same).
"""

import argparse
from functools import partial
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import networkx as nx

from exactdp import Level, Mechanism, cycle, from_graph, geometric, path
from exactdp.mechanisms import randomized_response
from exactdp.plot import (extension_pairs, plot_extension, plot_geo_utility, plot_geometric_vs_laplace,
                          plot_mechanism, plot_profile, plot_regular_region, plot_utility)
from exactdp.sweep import sweep

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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, help="the Fig. 7 levels on a local Dask cluster of N processes")
    where.add_argument("--scheduler", help="the Fig. 7 levels on an existing Dask cluster (its scheduler address)")
    a = ap.parse_args()
    mapper = partial(sweep, workers=a.workers, scheduler=a.scheduler, what="make_figures")
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
    plot_geo_utility(100, [f"{k}/100" for k in range(40, 131, 5)], ax=ax, mapper=mapper)
    save(fig, "utility_geo_grid.png")

    fig, ax = plt.subplots(figsize=(6, 4.2))
    plot_geometric_vs_laplace(ax=ax)
    save(fig, "geometric_vs_laplace.png")

    # HLM15: randomized response with p = 4/9 (pure log(5/4)-DP) and its 50-fold composition
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    rr = randomized_response(2, p="4/9")
    plot_profile(rr, [("0", "1")], ax=axes[0], eps_max=0.3)
    axes[0].set_title("randomized response, p = 4/9: the exact profile", fontsize=9)
    plot_profile(rr, [("0", "1")], times=50, bounds=True, logy=True, eps_max=12.0, ax=axes[1])
    axes[1].set_title("50-fold composition: exact against the basic and advanced bounds", fontsize=9)
    save(fig, "privacy_profile.png")

    # BCSZ18: a log(2)-private mechanism on H = {0, 4, 8} (the truncated geometric at alpha = 1/16 on
    # H's three points, 4 apart) extended to the path 0..8
    gh = geometric(2, "1/16")
    mech_h = Mechanism.from_rows(["0", "4", "8"], ["0", "4", "8"], [[str(v) for v in r] for r in gh.rows()])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    X, _ = extension_pairs(mech_h, path(9), ["0", "4", "8"], alpha="1/2")
    plot_mechanism(X.mechanism, ax=axes[0], annotate=False)
    axes[0].set_title("the extension A on 0..8 (rows 0, 4, 8 are the mechanism on H)", fontsize=9)
    plot_extension(mech_h, path(9), ["0", "4", "8"], alpha="1/2", ax=axes[1])
    save(fig, "extension.png")


if __name__ == "__main__":
    main()
