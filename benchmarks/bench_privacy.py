"""Time the heavy privacy paths (issue 2) and compare with the `qif` float checker.

Run:  python benchmarks/bench_privacy.py        (add --quick for a smoke run)

Prints Markdown rows for the README.  Times are wall-clock, best of a few runs,
on the machine named in the header.  `qif` (pip install qif) is optional: its
column is left empty when it is not installed.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine

from exactdp import certify_all_eps, certify_privacy, geometric, path


def best(fn, reps=3):
    out, t = None, math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - t0)
    return out, t


def qif_time(G, eps_float, reps=1, slack=1.0):
    try:
        import numpy as np
        from qif.measure import d_privacy
    except ImportError:
        return None, None
    from exactdp.exact.decide import float_bounds
    vals = np.array([sum(float_bounds(v)) / 2 for v in G.values])
    C = vals[G.codes]
    def d(i, j):
        return (abs(i - j) * eps_float * slack)
    res, t = best(lambda: d_privacy.is_private(C, d), reps)
    return res, t


def geometric_rows(n, quick):
    rows = []
    # alpha = 1/2: rational regime
    def run_rational():
        c = certify_privacy(geometric(n, "1/2"), path(n + 1), alpha="1/2")
        assert c.holds is True and c.evidence.epsilon == "log(2)"
        return c
    _c, t = best(run_rational, 1 if quick else 3)
    q, tq = qif_time(geometric(n, "1/2"), math.log(2))
    rows.append((f"geometric n = {n}, alpha = 1/2 (verdict + exact smallest eps)", t, tq, q))
    # qif's float check of the same matrix stops at a false violation (a tie lost to rounding of
    # exp(k log 2)); with eps inflated by 1e-12 it runs the whole check, which is the time to compare
    q, tq = qif_time(geometric(n, "1/2"), math.log(2), slack=1 + 1e-12)
    rows.append(("  same, qif given eps * (1 + 1e-12) so that it completes", t, tq, q))

    def run_transcendental():
        c = certify_privacy(geometric(n), path(n + 1), eps="1/2")
        assert c.holds is True and c.evidence.epsilon == "1/2"
        return c
    _c, t = best(run_transcendental, 1 if quick else 3)
    q, tq = qif_time(geometric(n, eps="1/2"), 0.5)
    rows.append((f"geometric n = {n}, eps = 1/2 (transcendental alpha)", t, tq, q))
    return rows


def all_eps_row(n):
    def run():
        c = certify_all_eps(geometric(n), path(n + 1))
        assert c.holds is True
        return c
    _, t = best(run, 1)
    return (f"--all-eps proof, geometric n = {n}", t, None, None)


def float_floor_rows(quick):
    """Issue 12, target 3: exactdp's certify (mechanism already built) against a vectorised numpy float check
    of the same constraints (max over edges and outputs of |log K(x)(z) - log K(x')(z)| <= eps d), and the
    randomized response on the discrete metric."""
    import numpy as np

    from exactdp.certificate import mechanism_data
    from exactdp.privacy.constraints import Constraints
    from exactdp.exact.decide import float_bounds
    from exactdp.exact.level import Level
    from exactdp.mechanisms import randomized_response
    from exactdp.metrics import discrete

    rows = []
    n = 400 if quick else 3999
    G, P = geometric(n, "1/2"), path(n + 1)
    # each timed call gets a mechanism of its own, built beforehand: a first call, nothing cached from the last
    fresh = [geometric(n, "1/2") for _ in range(1 if quick else 3)]
    c, t = best(lambda: certify_privacy(fresh.pop(), P, alpha="1/2"), len(fresh))
    assert c.holds is True and c.evidence.epsilon == "log(2)"
    vals = np.array([sum(float_bounds(v)) / 2 for v in G.values])

    def floor():
        with np.errstate(divide="ignore", invalid="ignore"):
            L = np.log(vals)[G.codes]
            return bool(np.nanmax(np.abs(np.diff(L, axis=0))) <= math.log(2) * (1 + 1e-12))
    f, tf = best(floor, 3)
    rows.append((f"geometric n = {n}, alpha = 1/2: certify (built, first call) vs numpy float check (verdict {f})",
                 t, tf, f))
    # the same decision without the certificate: every constraint decided at the level, ties exactly
    level = Level.from_alpha("1/2")
    S, te = best(lambda: Constraints(G, P).decide(level), 1 if quick else 3)
    assert S.violated == 0 and S.tight == n * (n + 1)  # one direction of every (pair, output) is a tie
    rows.append((f"  same, the decision alone (Constraints + decide: verdict, {S.tight} exact ties, no certificate)",
                 te, tf, f))
    _, tm = best(lambda: mechanism_data(G), 1 if quick else 3)
    rows.append((f"  same, the certificate's mechanism data alone ({n + 1} x {n + 1} codes, read-only int matrix)",
                 tm, tf, f))
    m = 200 if quick else 2000
    R, D = randomized_response([str(i) for i in range(m)]), discrete([str(i) for i in range(m)])
    c, t = best(lambda: certify_privacy(R, D, eps="log(3)"), 1)
    assert c.holds is True
    rows.append((f"randomized response {m} x {m}, discrete metric, eps = log 3", t, None, None))
    return rows


DENSE_CHILD = r"""
import json, random, resource, sys, time
sys.path.insert(0, sys.argv[1])
from exactdp import Mechanism, certify_privacy, from_matrix
n, seed = int(sys.argv[2]), 2026
rng = random.Random(seed)
t0 = time.perf_counter()
pts = [str(i) for i in range(n)]
D = [[0] * n for _ in range(n)]
for i in range(n):
    for j in range(i + 1, n):
        D[i][j] = D[j][i] = rng.randint(5, 10)  # any values in [5, 10] satisfy the triangle inequality
metric = from_matrix(pts, D)
rows = []
for i in range(n):
    w = [rng.randint(1, 1000) for _ in range(n)]
    s = sum(w)
    rows.append([f"{x}/{s}" for x in w])
K = Mechanism.from_rows(pts, pts, rows)
t1 = time.perf_counter()
c = certify_privacy(K, metric, eps="1")
t2 = time.perf_counter()
# VmHWM is this process's own high-water mark; ru_maxrss can carry the parent's peak over fork + exec
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
try:
    with open("/proc/self/status") as f:
        peak = next(int(x.split()[1]) for x in f if x.startswith("VmHWM:")) / 1024
except (OSError, StopIteration):
    pass
print(json.dumps({"build": t1 - t0, "certify": t2 - t1, "peak_mib": peak, "holds": str(c.holds),
                  "epsilon": c.evidence.epsilon, "note": c.note}))
"""


def dense_row(n):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", DENSE_CHILD, root, str(n)], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main():
    quick = "--quick" in sys.argv
    n = 100 if quick else 1000
    print(f"Machine: {machine()}\n")
    print("| benchmark | exactdp (s) | qif is_private (s) | exactdp / qif |")
    print("|---|---|---|---|")
    for name, t, tq, q in [*geometric_rows(n, quick), all_eps_row(20 if quick else 200)]:
        ratio = f"{t / tq:.2f}" if tq else "-"
        qs = f"{tq:.2f} (verdict {q})" if tq else "-"
        print(f"| {name} | {t:.2f} | {qs} | {ratio} |")
    for name, t, tq, _q in float_floor_rows(quick):
        print(f"| {name} | {t:.2f} | {f'{tq:.2f} (numpy float floor)' if tq else '-'} | "
              f"{f'{t / tq:.2f}' if tq else '-'} |")
    d = dense_row(60 if quick else 300)
    print(f"| dense random {60 if quick else 300} x {60 if quick else 300} rational mechanism, explicit distances: "
          f"build {d['build']:.1f} s, certify + smallest eps {d['certify']:.1f} s, peak memory "
          f"{d['peak_mib']:.0f} MiB (eps* = {d['epsilon'][:40]}; {d['note']}) | {d['certify']:.2f} | - | - |")


if __name__ == "__main__":
    main()
