"""Re-check times of ``lattice_composition`` certificates (issue 29): the kernel's own polynomial power.

Run: ``python benchmarks/lattice_recheck.py`` (numbers in docs/benchmarks.md).  For each case: the producer's time
(FLINT), the kernel's re-check time (Python integers, Kronecker substitution), the packed bits the kernel counted
and the certificate's size.  Wall-clock on a shared machine: take the numbers as an order of magnitude.
"""

from __future__ import annotations

import json
import sys
import time

from exactdp.mechanisms import generalized_rr, geometric, randomized_response
from exactdp.metrics import path
from exactdp.recheck import recheck
from exactdp.composition.lattice import certify_lattice_composition


def cases():
    rr3 = randomized_response(2, p="1/4")
    yield "randomized response e^eps0 = 3, k = 1000, eps = 50", [(rr3, 1000)], [("0", "1")], "50"
    yield "randomized response e^eps0 = 3, k = 1000, eps = 500 log 3", [(rr3, 1000)], [("0", "1")], "500*log(3)"
    yield "randomized response e^eps0 = 3, k = 1600, eps = 100", [(rr3, 1600)], [("0", "1")], "100"
    yield "randomized response e^eps0 = 3, k = 1700 (refused by the cost bound)", [(rr3, 1700)], [("0", "1")], "100"
    yield "clamped geometric {0..4}, alpha = 1/2, k = 200, eps = 20 log 2", [(geometric(4, "1/2"), 200)], path(5), \
        "20*log(2)"
    yield "clamped geometric {0..4}, alpha = 1/2, k = 1000, eps = 100 log 2", [(geometric(4, "1/2"), 1000)], \
        path(5), "100*log(2)"
    yield "plan: RR e^eps0 = 3 x 300 + RR e^eps0 = 9 x 200, eps = 100 log 7", \
        [(rr3, 300), (randomized_response(2, p="1/10"), 200)], [("0", "1")], "100*log(7)"
    yield "randomized response e^eps0 = 3, k = 10,000 (refused by the cost bound)", [(rr3, 10_000)], [("0", "1")], "1"
    rr1 = generalized_rr(2, eps="1")
    yield "randomized response eps0 = 1, k = 50, eps = 20", [(rr1, 50)], [("0", "1")], "20"
    yield "randomized response eps0 = 1, k = 80, eps = 30", [(rr1, 80)], [("0", "1")], "30"
    yield "randomized response eps0 = 1, k = 100, eps = 40", [(rr1, 100)], [("0", "1")], "40"
    yield "randomized response eps0 = 1, k = 150, eps = 60", [(rr1, 150)], [("0", "1")], "60"
    yield "randomized response eps0 = 1, k = 160, eps = 64", [(rr1, 160)], [("0", "1")], "64"
    yield "randomized response eps0 = 1, k = 170 (refused by the cost bound)", [(rr1, 170)], [("0", "1")], "68"
    yield "randomized response eps0 = 1, k = 1000 (refused by the cost bound)", [(rr1, 1000)], [("0", "1")], "500"
    yield "geometric {0, 1, 2}, alpha = e^(-1/2), k = 10, eps = 2", [(geometric(2, "exp(-1/2)"), 10)], path(3), "2"


def main() -> None:
    print("| case | certify | kernel re-check | status | certificate |")
    print("|---|---|---|---|---|")
    for name, facs, nb, eps in cases():
        t0 = time.perf_counter()
        c = certify_lattice_composition(facs, nb, eps=eps)
        t1 = time.perf_counter()
        j = c.to_json()
        t2 = time.perf_counter()
        r = recheck(j)
        t3 = time.perf_counter()
        size = len(json.dumps(j))
        print(f"| {name} | {t1 - t0:.2f} s | {t3 - t2:.2f} s | {r.status} | {size:,} chars |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
