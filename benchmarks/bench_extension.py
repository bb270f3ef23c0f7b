"""Time the BCSZ18 extension and the KL10 tradeoff LP at the sizes of issue 10.

Run:  python benchmarks/bench_extension.py   (add --quick for a smoke run)

* certify_extension on the node-distance space of graphs on n = 5 vertices (1,024 graphs), H = graphs of
  maximum degree <= D, Â = geometric(1/2) mechanism on the edge count (alpha = 2^-D);
* certify_extension on a 1,000-point path with H every 10th point and Â = geometric(1/1024) on H's index;
* one exact tradeoff LP s*(t) on a 30-point path (gamma = 2, open balls), and the sizes below it;
* the re-check of issue 27's hostile extension shape: a 300-point path, |H| = 150, 200 outputs (9,000,000
  candidate minima, the checker's limit is 10,000,000), alpha = 1/2 and 99/100 (factors of ~2,000 bits), in
  CPU seconds.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine
from flint import fmpq

from exactdp.errors import Undecided
from exactdp.mechanism import mechanism_from_values
from exactdp.mechanisms import geometric
from exactdp.metrics import path
from exactdp.metrics.graph_space import edge_count, max_degree, node_distance_space
from exactdp.recheck import recheck
from exactdp.extension.extension import certify_extension
from exactdp.utility.tradeoff import utility_lp


def bounded_degree(n, Dg):
    t0 = time.perf_counter()
    M = node_distance_space(n)
    H = [k for k in range(len(M)) if max_degree(k, n) <= Dg]
    N = max(edge_count(k) for k in H)
    G = geometric(N, "1/2")
    rows = [G.rows()[edge_count(k)] for k in H]
    Ah = mechanism_from_values([M.points[k] for k in H], G.outputs, rows, name="geometric on the edge count")
    c = certify_extension(Ah, M, list(Ah.inputs), alpha=str(fmpq(1, 2**Dg)))
    dt = time.perf_counter() - t0
    print(f"node distance n = {n} ({len(M)} graphs), D = {Dg}, |H| = {len(H)}: {c.verdict.value}, eps = "
          f"{c.evidence.level.text}, eps* of A = {c.evidence.epsilon}, {dt:.1f} s")


def long_path(n, step):
    t0 = time.perf_counter()
    M = path(n)
    H = [str(i) for i in range(0, n, step)]
    G = geometric(len(H) - 1, str(fmpq(1, 2**step)))
    Ah = mechanism_from_values(H, G.outputs, G.rows(), name="geometric on H's index")
    c = certify_extension(Ah, M, H, alpha="1/2")
    dt = time.perf_counter() - t0
    print(f"path n = {n}, |H| = {len(H)}, {len(G.outputs)} outputs: {c.verdict.value}, "
          f"eps* of A = {c.evidence.epsilon}, "
          f"{dt:.1f} s")


def tradeoff(n, t):
    t0 = time.perf_counter()
    try:
        u = utility_lp(path(n), fmpq(t), gamma="2")
        res = f"s*(t) = {u.value}"
    except Undecided as e:
        res = f"undecided ({e.reason})"
    print(f"tradeoff LP, path n = {n}, t = {t}, gamma = 2: {res}, {time.perf_counter() - t0:.1f} s")


def hostile_recheck(n, h, w, alpha):
    H = [str(i) for i in range(0, n, max(1, n // h))][:h]
    rows = []
    for i in range(len(H)):
        wts = [1 + ((i * 7 + j * 13) % 5) for j in range(w)]
        rows.append([fmpq(v, sum(wts)) for v in wts])
    Ah = mechanism_from_values(H, [f"o{j}" for j in range(w)], rows, name="a mechanism on H")
    j = certify_extension(Ah, path(n), H, alpha=alpha).to_json()
    t0 = time.process_time()
    r = recheck(j)
    print(f"re-check of the extension, path n = {n}, |H| = {len(H)}, {w} outputs, alpha = {alpha}: {r.status}, "
          f"{time.process_time() - t0:.1f} s CPU")


def main():
    quick = "--quick" in sys.argv
    print(machine())
    bounded_degree(4, 2)
    if not quick:
        for Dg in (1, 2, 3):
            bounded_degree(5, Dg)
    long_path(200 if quick else 1000, 10)
    for n in ((10,) if quick else (10, 20, 30)):
        tradeoff(n, "2")
    for alpha in ("1/2", "99/100"):
        hostile_recheck(*((40, 20, 20) if quick else (300, 150, 200)), alpha)


if __name__ == "__main__":
    main()
