"""The shared suite of noise programs, exactly (issue 28): verdict for every eps and cost at eps0 = 1.

Run:  python benchmarks/bench_programs.py          (n = 2 and 3; --quick: n = 2, three programs; --n4 adds n = 4;
      --names a,b and --ns 4 select a part of the table, --no-n25 skips the svt1 line at n = 25; --refusals: only
      the seconds until smart_sum, prefix_sum and hist at n = 5 are refused by the path limit; --no-cost skips the
      cost at eps0 = 1)

For every program of ``examples/programs/`` on inputs ``{0, 1, 2}^n`` under the relation its file names:

* ``exactdp``: compile and decide for every eps at once, then the exact smallest eps of the program compiled at
  eps0 = 1, both as ``program`` certificates (``program_certificate``, the route of ``exactdp program``: the
  product form for a program of independent iterations, ``exactdp/programs/product.py``), wall-clock seconds each;
* a float brute force of the same program at eps0 = 1 and n = 2 (the concrete interpreter of the tests with binary
  floats, noise enumerated in the window [-12, 12]): its time, its estimate of the largest log-ratio over neighbour
  pairs and outputs, and the probability mass its window leaves out (so what it cannot see).

Times include the compilation; imports are excluded.  Nothing here is asserted: the verdicts are tested in
tests/programs/test_check.py.
"""

from __future__ import annotations

import math
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "_support"))

from _machine import machine  # noqa: E402
from _program_brute import brute_distribution  # noqa: E402

import sympy  # noqa: E402

from exactdp.programs import base_power, certify_program, neighbour_pairs, parse_program  # noqa: E402
from exactdp.programs.check import program_certificate  # noqa: E402

SUITE = os.path.join(ROOT, "examples", "programs")
NAMES = ["truncated_geometric", "nm_index_lap", "nm_index_geo", "nm_value_lap", "nm_value_geo", "svt1", "svt2",
         "svt3", "svt4", "svt5", "svt6", "gap_svt", "numerical_svt", "hist", "partial_sum", "partial_sum_bad",
         "prefix_sum", "smart_sum", "smart_sum_bad"]
SUMS = ["prefix_sum", "smart_sum", "smart_sum_bad"]     # running sums of noises (--sums: these only)


def load(name):
    with open(os.path.join(SUITE, f"{name}.prog"), encoding="utf-8") as f:
        text = f.read()
    return parse_program(text, name), re.search(r"# relation: (\S+)", text).group(1)


def exact_row(name, n):
    p, rel = load(name)
    t0, c0 = time.perf_counter(), time.process_time()
    c = program_certificate(p, n=n, domain=(0, 2), relation=rel)
    t1, c1 = time.perf_counter(), time.process_time()
    k = None if "--no-cost" in sys.argv else program_certificate(p, n=n, domain=(0, 2), relation=rel, eps="1",
                                                                   cost=True)
    t2, c2 = time.perf_counter(), time.process_time()
    if c.holds:
        verdict = "private for every eps"
    elif c.evidence.never:
        verdict = "not private for any eps"
    else:
        verdict = f"fails for u in {c.evidence.failure_set_text}"
    w = k.evidence.witness if k is not None else None
    wit = f"{w.x} / {w.x_prime} -> {w.output}" if w is not None else ""
    # the exact smallest eps, its first decimals cut (a label: the certificate holds the exact expression)
    eps = k.evidence.epsilon if k is not None else "-"
    value = None if eps in ("inf", "-") else sympy.sympify(eps)
    shown = eps if value is None else str(value) if value.is_Rational else str(sympy.N(value, 30))[:8]
    route = "" if c.evidence.form == "matrix" else f" ({c.evidence.form})"
    # wall-clock and CPU seconds: on a shared machine the CPU time is the steadier of the two
    return rel + route, verdict, shown, wit, (t1 - t0, c1 - c0), (t2 - t1, c2 - c1)


def float_row(name, n=2, W=12):
    p, rel = load(name)
    L = base_power(p)
    t = math.exp(-1 / L)
    inputs, pairs = neighbour_pairs(rel, n, (0, 2))
    t0 = time.perf_counter()
    dists, lost = {}, 0.0
    for x in inputs:
        dists[x], lo = brute_distribution(p, x, t, L, W)
        lost = max(lost, lo)
    worst = 0.0
    for a, b in pairs:
        for u, v in ((a, b), (b, a)):
            for z, pz in dists[u].items():
                q = dists[v].get(z, 0.0)
                worst = max(worst, math.inf if q == 0 else math.log(pz / q))
    return worst, lost, time.perf_counter() - t0


def refusals():
    """Seconds until a program past the path limit is refused (n = 5: 15^5 paths per input, limit 200,000)."""
    from exactdp.errors import InputTooLarge

    for name, rel in (("smart_sum", None), ("prefix_sum", None), ("hist", "all-differ")):
        p, own = load(name)
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            certify_program(p, n=5, domain=(0, 2), relation=rel or own)
            what = "not refused"
        except InputTooLarge as exc:
            what = str(exc)
        print(f"{name}, n = 5, {rel or own}: {what}: {time.perf_counter() - t0:.2f} s "
              f"({time.process_time() - c0:.2f} s CPU)", flush=True)


def main():
    if "--refusals" in sys.argv:     # only the time to refuse past the path limit
        refusals()
        return
    quick = "--quick" in sys.argv
    names = ["svt1", "nm_index_geo", "partial_sum_bad"] if quick else SUMS if "--sums" in sys.argv else NAMES
    ns = [2] if quick else [2, 3] + ([4] if "--n4" in sys.argv else [])
    for i, a in enumerate(sys.argv):     # --names a,b,c / --ns 4 : a part of the table (to run it in pieces)
        if a == "--names":
            names = sys.argv[i + 1].split(",")
        if a == "--ns":
            ns = [int(v) for v in sys.argv[i + 1].split(",")]
    print(f"machine: {machine()}; date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| program | n | relation | exactdp: every eps | cost at eps0 = 1 (lower end) | binding pair -> output "
          "| s (all eps): wall (CPU) | s (cost): wall (CPU) "
          "| float brute force n = 2: max log-ratio, mass outside, s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        for n in ns:
            rel, verdict, cost, wit, ta, tc = exact_row(name, n)
            fl = ""
            if n == 2:
                worst, lost, tf = float_row(name, W=6 if quick else 12)
                fl = f"{worst:.6f}, {lost:.1e}, {tf:.2f}"
            print(f"| {name} | {n} | {rel} | {verdict} | {cost} | {wit} | {ta[0]:.2f} ({ta[1]:.2f}) "
                  f"| {tc[0]:.2f} ({tc[1]:.2f}) | {fl} |", flush=True)
    if "--no-n25" in sys.argv:
        return
    x = [1] * 12 + [0] * 13
    xp = [0] * 12 + [1] * 13
    p, _ = load("svt1")
    t0, c0 = time.perf_counter(), time.process_time()
    c = certify_program(p, n=25, relation=[[x, xp]])
    print(f"svt1, n = 25, one pair: {c.verdict.value} for every eps in {time.perf_counter() - t0:.2f} s "
          f"({time.process_time() - c0:.2f} s CPU)")


if __name__ == "__main__":
    main()
