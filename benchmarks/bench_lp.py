"""Time the exact user-specific LP (issue 3) and compare with qif's float LP.

Run:  python benchmarks/bench_lp.py   (add --quick for a smoke run)

For each instance: exactdp's exact optimum (HiGHS basis rebuilt exactly and
verified with its dual), and `qif.mechanism.d_privacy.min_loss_given_d` (float
LP) on the same prior, loss and privacy constraints: the time ratio and the
absolute difference between qif's float optimum and the exact one.
"""

from __future__ import annotations

import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from flint import fmpq  # noqa: E402

from _machine import machine  # noqa: E402
from exactdp.theory.optimality import optimal_mechanism  # noqa: E402
from exactdp.theory.users import User  # noqa: E402


def qif_value(n, alpha, loss):
    try:
        import numpy as np
        from qif.mechanism import d_privacy as md
    except ImportError:
        return None, None
    pi = np.ones(n + 1) / (n + 1)
    f = {"absolute": lambda i, r: abs(i - r), "squared": lambda i, r: (i - r) ** 2,
         "binary": lambda i, r: float(i != r)}[loss]
    eps = -math.log(alpha)
    t0 = time.perf_counter()
    C = md.min_loss_given_d(pi, n + 1, lambda i, j: abs(i - j) * eps, f)
    t = time.perf_counter() - t0
    val = sum(pi[i] * C[i, r] * f(i, r) for i in range(n + 1) for r in range(n + 1))
    return val, t


def main():
    quick = "--quick" in sys.argv
    print(f"Machine: {machine()}\n")
    print("| instance | variables | exactdp exact LP + dual (s) | qif float LP (s) | ratio | |qif - exact| |")
    print("|---|---|---|---|---|---|")
    for n in ((5, 10) if quick else (20, 40)):
        for loss in ("absolute", "squared", "binary"):
            t0 = time.perf_counter()
            sol, _ = optimal_mechanism(n, fmpq(1, 2), User.uniform(n, loss))
            t = time.perf_counter() - t0
            assert sol.verify()
            qv, tq = qif_value(n, 0.5, loss)
            exact = float(sol.value)
            extra = (f"{tq:.2f} | {t / tq:.1f} | {abs(qv - exact):.1e}" if tq else "- | - | -")
            print(f"| n + 1 = {n + 1}, alpha = 1/2, uniform prior, {loss} loss | {(n + 1) ** 2} | {t:.2f} | {extra} |")
    if not quick:
        from exactdp.papers import run_claim
        t0 = time.perf_counter()
        r = run_claim("GRS12-thm3.1")
        t = time.perf_counter() - t0
        print(f"| GRS12-thm3.1 batch: 272 users (LP + dual + remapped geometric, each), status {r.status} | - | "
              f"{t:.2f} | - | - | - |")


if __name__ == "__main__":
    main()
