"""The exact privacy cost of DP-Sniper's TruncatedGeometricMechanism, to set its published lower bound against.

Run:  python benchmarks/bench_geosample.py

DP-Sniper (Bichsel et al., S&P 2021) evaluates ``TruncatedGeometricMechanism(eps = 0.1, n = 5)``, which is
``GeoSample`` of Balcer and Vadhan ("Differential Privacy on Finite Computers", ITCS 2018, Alg. 4.8): with
``k = ceil(ln(2/eps))`` it releases ``z`` in ``0..n`` for a count ``c`` in ``0..n`` through an integer CDF ``F_c``
with ``F_c(n) = d = (2^(k+1) + 1) (2^k + 1)^(n-1)``.  The output probabilities are ``(F_c(z) - F_c(z-1)) / d``,
exact rationals; exactdp's ``smallest_epsilon`` on neighbouring counts (a path) gives the exact cost, which Balcer
and Vadhan's Thm. 4.7 states as ``ln(1 + 2^-k)``.  DP-Sniper's reference logs report lower bounds for it
(``eval_sp2021/reference-results/dd_search_*_data.log``, line 16); a lower bound above the printed exact cost
would be a contradiction.  The formula for ``F`` is written here from the paper's definition.
"""

from __future__ import annotations

import math
import os
import sys
import time
from fractions import Fraction

import networkx as nx

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from exactdp import Mechanism, smallest_epsilon


def geosample_rows(eps: float = 0.1, n: int = 5) -> tuple[int, list]:
    """``(k, rows)``: GeoSample's exact output distribution for every count ``c`` in ``0..n``."""
    k = math.ceil(math.log(2 / eps))
    d = (2 ** (k + 1) + 1) * (2 ** k + 1) ** (n - 1)

    def cdf(c: int, z: int) -> int:
        if z < 0:
            return 0
        if z >= n:
            return d
        if z < c:
            return 2 ** (k * (c - z)) * (2 ** k + 1) ** (n - (c - z))
        return d - 2 ** (k * (z - c + 1)) * (2 ** k + 1) ** (n - 1 - (z - c))

    return k, [[Fraction(cdf(c, z) - cdf(c, z - 1), d) for z in range(n + 1)] for c in range(n + 1)]


def main():
    t0 = time.perf_counter()
    k, rows = geosample_rows()
    labels = [str(c) for c in range(len(rows))]
    K = Mechanism.from_rows(labels, labels, rows, name="GeoSample(eps = 0.1, n = 5)")
    c = smallest_epsilon(K, nx.path_graph(labels))
    print(f"k = {k}; exact cost: {c.evidence.epsilon} in [{c.evidence.enclosure[0]}, {c.evidence.enclosure[1]}]"
          f" ({time.perf_counter() - t0:.2f} s); Balcer-Vadhan Thm. 4.7: ln(1 + 2^-{k}) = {math.log1p(2.0 ** -k)}")


if __name__ == "__main__":
    main()
