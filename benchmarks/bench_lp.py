"""Time the exact LP (issues 3 and 12) against float LP solvers in the same run.

Run:  python benchmarks/bench_lp.py            (n = 40, 60, 80)
      python benchmarks/bench_lp.py --large    (also n = 150: 22,801 variables)
      python benchmarks/bench_lp.py --quick    (n = 10, 20: a smoke run)
      python benchmarks/bench_lp.py --sizes 80,150   (chosen sizes)
qif runs up to n = 60 (at n = 80 its LP backend failed after minutes); --qif-all runs it at every size.

Instance: the GRS12 user-specific LP (2)-(6) with a uniform prior, absolute
loss and alpha = 1/2 ((n + 1)^2 variables).  For each n, in one process:

* exactdp: ``solve_lp`` (HiGHS basis -> exact sparse LU -> exact pivots),
  the optimum verified with its dual certificate (``LPSolution.verify``);
* scipy HiGHS (``linprog(method="highs")``) on the same LP in floats -- the
  float floor;
* qif's ``min_loss_given_d`` (a float LP), if qif is installed.

Columns: seconds, the number of exact pivots exactdp needed after HiGHS, the
peak resident memory of the process so far, and each float optimum's signed
gap ``float - exact`` (negative: the float "optimal mechanism" is slightly
non-private).
"""

from __future__ import annotations

import math
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from flint import fmpq  # noqa: E402

from _machine import machine  # noqa: E402
from exactdp.exact.lp import solve_lp  # noqa: E402
from exactdp.theory.optimality import user_lp  # noqa: E402
from exactdp.theory.users import User  # noqa: E402


def scipy_value(lp):
    from scipy.optimize import linprog
    from scipy.sparse import csr_matrix

    def mat(rows):
        ri, ci, data = [], [], []
        for i, r in enumerate(rows):
            for j, v in r.items():
                ri.append(i)
                ci.append(j)
                data.append(float(v))
        return csr_matrix((data, (ri, ci)), shape=(len(rows), lp.n))
    t0 = time.perf_counter()
    res = linprog([float(v) for v in lp.c], A_ub=mat(lp.A_ub), b_ub=[float(v) for v in lp.b_ub],
                  A_eq=mat(lp.A_eq), b_eq=[float(v) for v in lp.b_eq], bounds=(0, None), method="highs")
    return (res.fun if res.status == 0 else None), time.perf_counter() - t0


def qif_value(n, alpha):
    try:
        from qif.mechanism import d_privacy as md
    except ImportError:
        return None, None
    pi = np.ones(n + 1) / (n + 1)
    eps = -math.log(alpha)
    t0 = time.perf_counter()
    try:
        C = md.min_loss_given_d(pi, n + 1, lambda i, j: abs(i - j) * eps, lambda i, r: abs(i - r))
    except RuntimeError as e:  # qif's LP backend gives up on badly scaled programs
        return f"failed ({str(e).split('(')[0].strip()})", time.perf_counter() - t0
    t = time.perf_counter() - t0
    return sum(pi[i] * C[i, r] * abs(i - r) for i in range(n + 1) for r in range(n + 1)), t


def peak_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main():
    sizes = (10, 20) if "--quick" in sys.argv else (40, 60, 80) + ((150,) if "--large" in sys.argv else ())
    if "--sizes" in sys.argv:
        sizes = tuple(int(v) for v in sys.argv[sys.argv.index("--sizes") + 1].split(","))
    print(f"Machine: {machine()}; load average at start {os.getloadavg()[0]:.1f}\n")
    print("| n | variables | exactdp exact (s) | exact pivots | peak RSS (MiB) | scipy HiGHS (s) | HiGHS - exact "
          "| qif (s) | qif - exact |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        lp = user_lp(n, fmpq(1, 2), User.uniform(n, "absolute"))
        t0 = time.perf_counter()
        sol = solve_lp(lp)
        t = time.perf_counter() - t0
        assert sol.verify()
        pivots = "0" if sol.method.startswith("HiGHS basis") else sol.method.split(", ")[1].split()[0]
        exact = float(sol.value)
        sv, ts = scipy_value(lp)
        qv, tq = qif_value(n, 0.5) if n <= 60 or "--qif-all" in sys.argv else (None, None)
        gs = f"{sv - exact:+.1e}" if sv is not None else "no optimum"
        if tq is None:
            qpart = "- | -"
        else:
            qpart = f"{tq:.2f} | " + (qv if isinstance(qv, str) else f"{qv - exact:+.1e}")
        print(f"| {n} | {lp.n} | {t:.2f} | {pivots} | {peak_mib():.0f} | {ts:.2f} | {gs} | {qpart} |", flush=True)


if __name__ == "__main__":
    main()
