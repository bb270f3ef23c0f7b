"""Time the ECP14 case studies at their real sizes (issue 4) and compare with qif.

Run:  python benchmarks/bench_ecp14.py   (add --quick for a smoke run; --curve for ECP14 Figure 7 only)
      python benchmarks/bench_ecp14.py --big-grid 150,200   (issue 20: existence at eps = 1 on grids of more
      than 20,000 points, in process; benchmarks/bench_grid200.py times the whole commands)

* existence of the tight-constraints mechanism decided (certified) at eps = 0.9 for the 751-answer sum query
  and the 961-answer 2-count query;
* each threshold bracket of width 1e-9 (float-guided bisection, both ends certified by Arb);
* Euclidean grids up to the paper's 100 x 100 (10,000 points) certified at one eps, and their threshold
  brackets (width 1e-9); peak memory;
* `qif.mechanism.d_privacy.tight_constraints` (float) on the same metric up to 2,500 points: time, and
  whether the signs of its float solution agree with the certified ones; above that, the float floor: a
  numpy solve of the symmetry-reduced system (no certificate);
* ``--curve``: ECP14 Figure 7 at the paper's size -- the certified uniform-prior utilities of the
  tight-constraints and planar Laplace mechanisms on the 100 x 100 Euclidean grid for eps = 0.40, 0.45, ...,
  1.30 (each a utility_comparison certificate where the tight mechanism exists), with the time per level.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from flint import fmpq
from exactdp.exact.level import Level
from exactdp.metrics import grid
from exactdp.papers.ecp14 import sum_query_metric, two_count_metric
from exactdp.priors.regular import tight_constraints
from exactdp.priors.threshold import threshold
what, arg = sys.argv[2], sys.argv[3]
m = {"sum": lambda: sum_query_metric(), "2count": lambda: two_count_metric(),
     "grid": lambda: grid((int(arg), int(arg)), "euclidean")}[what]()
t0 = time.perf_counter()
out = {"points": len(m)}
if sys.argv[4] == "exists":
    c = tight_constraints(m, Level.from_eps(sys.argv[5]))
    out.update(exists=str(c.holds), negative=len(c.evidence.negative), method=c.note)
    out["seconds"] = time.perf_counter() - t0
    signs = None
    if len(m) > 2500:
        import numpy as np
        from exactdp.exact.verified_solve import blas_single_thread
        from exactdp.priors.threshold import _FloatGuide
        g = _FloatGuide(m)
        t1 = time.perf_counter()
        with blas_single_thread():
            zmin = g.zmin(float(fmpq(sys.argv[5])))
        out["qif_result"] = f"float floor (numpy, reduced system): {time.perf_counter() - t1:.2f} s, min z = {zmin:.3g}"
    try:
        if len(m) > 2500:
            raise RuntimeError("qif skipped above 2,500 points (dense float build of n^2 Python calls)")
        import numpy as np
        from qif.mechanism import d_privacy as md
        import math
        pts = list(range(len(m)))
        D = [[float(sum(__import__("exactdp.exact.decide", fromlist=["x"]).float_bounds(m.d(i, j))) / 2)
              for j in pts] for i in pts]
        eps = float(fmpq(sys.argv[5]))
        t1 = time.perf_counter()
        H = md.tight_constraints(len(m), lambda i, j: eps * D[i][j])
        out["qif_seconds"] = time.perf_counter() - t1
        H = np.asarray(H)
        out["qif_result"] = (f"a matrix with min entry {H.min():.3g}, row sums in [{H.sum(1).min():.6f}, "
                             f"{H.sum(1).max():.6f}]") if H.size else "none"
    except Exception as e:  # qif missing, or it refused
        out["qif_error"] = f"{type(e).__name__}: {e}"[:120]
else:
    c = threshold(m, width=fmpq(1, 10**9))
    t = c.evidence
    out.update(threshold={"lo": t.lo, "hi": t.hi, "exact": t.exact, "route": t.route})
    out["seconds"] = time.perf_counter() - t0
out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


CURVE = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from exactdp.exact.level import Level
from exactdp.metrics import grid
from exactdp.priors.regular import tight_constraints
from exactdp.utility.grid import compare_utilities, outward_decimals, planar_laplace_utility
side, eps_list = int(sys.argv[2]), sys.argv[3].split(",")
m = grid((side, side), "euclidean")
for eps in eps_list:
    t0 = time.perf_counter()
    lap = planar_laplace_utility(side, eps)
    t1 = time.perf_counter()
    tc = tight_constraints(m, Level.from_eps(eps))
    row = {"eps": eps, "laplace": list(outward_decimals(*lap.enclosure, 10)), "laplace_s": t1 - t0}
    if tc.holds is True:
        c = compare_utilities(eps, tc, "planar-laplace", {"side": side})
        row.update(tight=c.evidence.tight_utility, verdict=c.verdict.value, recheck=c.recheck().status)
    else:
        row.update(tight=None, verdict="no tight-constraints mechanism (certified)")
    row["seconds"] = time.perf_counter() - t0
    row["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(row), flush=True)
"""


def curve(side=100, step=5):
    """ECP14 Fig. 7: the full certified curves (see the module docstring)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    eps = ",".join(f"{k}/100" for k in range(40, 131, step))
    r = subprocess.run([sys.executable, "-c", CURVE, root, str(side), eps], capture_output=True, text=True,
                       timeout=3600)
    if r.returncode:
        print(r.stderr.strip().splitlines()[-1] if r.stderr else "failed")
        return
    print(f"ECP14 Figure 7, {side} x {side} Euclidean grid (uniform prior, optimal remaps; enclosures rounded "
          "outward)\n")
    print("| eps | tight-constraints | planar Laplace (beta = eps/2) | verdict (re-check) | Laplace (s) | total (s) |")
    print("|---|---|---|---|---|---|")
    for line in r.stdout.splitlines():
        x = json.loads(line)
        t = f"[{x['tight'][0]}, {x['tight'][1]}]" if x["tight"] else "none exists"
        v = x["verdict"] + (f" ({x['recheck']})" if "recheck" in x else "")
        print(f"| {float(Fraction(x['eps'])):.2f} | {t} | [{x['laplace'][0]}, {x['laplace'][1]}] | {v} | "
              f"{x['laplace_s']:.2f} | {x['seconds']:.1f} |")


def run(*args, timeout=1800):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", CHILD, root, *args], capture_output=True, text=True, timeout=timeout)
    if r.returncode:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr else "failed"}
    return json.loads(r.stdout)


def main():
    quick = "--quick" in sys.argv
    print(f"Machine: {machine()}\n")
    if "--big-grid" in sys.argv:  # issue 20: existence at eps = 1 on grids past 20,000 points (limited by cells)
        print("| task | points | result | exactdp (s) | peak memory (MiB) | float floor |")
        print("|---|---|---|---|---|---|")
        for side in (int(v) for v in sys.argv[sys.argv.index("--big-grid") + 1].split(",")):
            r = run("grid", str(side), "exists", "1")
            print(f"| Euclidean grid {side} x {side} at eps = 1 | {r.get('points')} | "
                  f"exists = {r.get('exists', r.get('error'))} | {r.get('seconds', 0):.1f} | "
                  f"{r.get('peak_mib', 0):.0f} | "
                  f"{r.get('qif_result', '-')} |", flush=True)
        return
    if "--curve" in sys.argv or quick:
        curve(*((8, 45) if quick else (100, 5)))
        if not quick:
            return
        print()
    print("| task | points | result | exactdp (s) | peak memory (MiB) | qif tight_constraints |")
    print("|---|---|---|---|---|---|")
    for name in ("sum", "2count"):
        r = run(name, "0", "exists", "9/10")
        q = (f"{r['qif_seconds']:.2f} s, returned {r['qif_result']}" if "qif_seconds" in r else r.get("qif_error", "-"))
        print(f"| existence at eps = 0.9, {name} query | {r.get('points')} | exists = {r.get('exists')} "
              f"({r.get('negative')} coordinates certified negative) | {r.get('seconds', 0):.1f} | "
              f"{r.get('peak_mib', 0):.0f} | {q} |")
        if not quick:
            r = run(name, "0", "threshold")
            t = r.get("threshold", {})
            print(f"| threshold bracket (width 1e-9), {name} query | {r.get('points')} | "
                  f"[{t.get('lo')}, {t.get('hi')}] "
                  f"| {r.get('seconds', 0):.1f} | {r.get('peak_mib', 0):.0f} | - |")
    for side in ((20,) if quick else (30, 50, 100)):
        r = run("grid", str(side), "exists", "1")
        print(f"| Euclidean grid {side} x {side} at eps = 1 | {r.get('points')} | exists = {r.get('exists')} | "
              f"{r.get('seconds', 0):.1f} | {r.get('peak_mib', 0):.0f} | "
              f"{r.get('qif_result', r.get('qif_error', '-'))} |")
        if side >= 50:
            r = run("grid", str(side), "threshold")
            t = r.get("threshold", {})
            print(f"| threshold bracket (width 1e-9), Euclidean grid {side} x {side} | {r.get('points')} | "
                  f"[{t.get('lo')}, {t.get('hi')}] | {r.get('seconds', 0):.1f} | {r.get('peak_mib', 0):.0f} | - |")


if __name__ == "__main__":
    main()
