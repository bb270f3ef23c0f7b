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

``--grs12 --sizes 100,150,200,300`` times the route ``exactdp optimal`` takes (issue 20): the exact
solver starts from the Bayes-remapped geometric mechanism's basis (GRS12 Thm 3.1; the remap's time
included), against scipy's HiGHS alone on the same LP as the reference, and, with ``--old N1,N2``, the
HiGHS-guided route at those sizes; each size runs in a fresh process so that its peak RSS is its own.

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

import numpy as np
from flint import fmpq

from _machine import machine
from exactdp.exact.lp import solve_lp
from exactdp.optimality.universal import user_lp
from exactdp.optimality.users import User


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


def grs12_row(n, old):
    """One row of ``--grs12`` (run in a fresh process): the start-point route, HiGHS alone, the old route."""
    from exactdp.mechanisms import geometric
    from exactdp.optimality.universal import optimal_mechanism
    from exactdp.optimality.remaps import bayes_remap

    alpha, user = fmpq(1, 2), User.uniform(n, "absolute")
    t0 = time.perf_counter()
    GR = bayes_remap(geometric(n, "1/2"), user)[1]
    sol, _ = optimal_mechanism(n, alpha, user, remapped=GR)
    t = time.perf_counter() - t0
    assert sol.verify()
    pivots = "0" if sol.method.startswith("the basis of") else sol.method.split(", ")[1].split()[0]
    rss = peak_mib()
    lp = user_lp(n, alpha, user)
    sv, ts = scipy_value(lp)
    gs = f"{sv - float(sol.value):+.1e}" if sv is not None else "no optimum"
    if old:
        t0 = time.perf_counter()
        ref = solve_lp(lp)
        to = time.perf_counter() - t0
        assert ref.verify() and ref.value == sol.value
        op = "0" if ref.method.startswith("HiGHS basis") else ref.method.split(", ")[1].split()[0]
        opart = f"{to:.1f} | {op} | {peak_mib():.0f}"
    else:
        opart = "- | - | -"
    return (f"| {n} | {lp.n:,} | {t:.1f} | {pivots} | {rss:.0f} | {ts:.1f} | {gs} | {opart} |")


def grs12(sizes, old):
    import subprocess

    print(f"Machine: {machine()}; load average at start {os.getloadavg()[0]:.1f}\n")
    print("| n | variables | exactdp, start from the remapped geometric (s) | exact pivots | peak RSS (MiB) "
          "| scipy HiGHS alone (s) | HiGHS - exact | exactdp from HiGHS's basis (s) | its exact pivots "
          "| peak RSS with it (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        cmd = [sys.executable, os.path.abspath(__file__), "--grs12-row", str(n)] + (["--old"] if n in old else [])
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        print(out.strip(), flush=True)


def main():
    if "--grs12-row" in sys.argv:
        print(grs12_row(int(sys.argv[sys.argv.index("--grs12-row") + 1]), "--old" in sys.argv))
        return
    if "--grs12" in sys.argv:
        sizes = (100, 150, 200, 300)
        if "--sizes" in sys.argv:
            sizes = tuple(int(v) for v in sys.argv[sys.argv.index("--sizes") + 1].split(","))
        old = ()
        if "--old" in sys.argv:
            old = tuple(int(v) for v in sys.argv[sys.argv.index("--old") + 1].split(","))
        grs12(sizes, old)
        return
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
        qpart = "- | -" if tq is None else f"{tq:.2f} | " + (qv if isinstance(qv, str) else f"{qv - exact:+.1e}")
        print(f"| {n} | {lp.n} | {t:.2f} | {pivots} | {peak_mib():.0f} | {ts:.2f} | {gs} | {qpart} |", flush=True)


if __name__ == "__main__":
    main()
