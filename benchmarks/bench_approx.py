"""Time exact (eps, delta) profiles and compositions (issue 9) against dp_accounting's PLD accountant.

Run:  python benchmarks/bench_approx.py

Prints Markdown rows for the README: wall-clock times (best of a few runs) on
the machine named in the header, the exact delta (as a 20-digit enclosure of the
exact value) and dp_accounting's pessimistic delta (its default
value_discretization_interval = 1e-4) for the same (mechanism, eps).
dp_accounting (pip install dp_accounting) is optional and not a project
dependency; its column is left empty when it is not installed.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine

from exactdp import Mechanism, geometric, path, randomized_response
from exactdp.exact.decide import decimal_enclosure
from exactdp.composition.composition import composed_profile
from exactdp.composition.profile import privacy_profile

K = 50


def best(fn, reps=3):
    out, t = None, math.inf
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - t0)
    return out, t


def random_mechanism(n, seed=1):
    rnd = random.Random(seed)
    rows = []
    for _ in range(n):
        w = [rnd.randint(1, 9) for _ in range(n)]
        s = sum(w)
        rows.append([f"{v}/{s}" for v in w])
    labels = [str(i) for i in range(n)]
    return Mechanism.from_rows(labels, labels, rows, name=f"random {n} x {n}")


def dp_accounting_delta(mech, pairs, k, eps):
    """dp_accounting's pessimistic PLD delta of the k-fold composition, max over the neighbouring pairs."""
    try:
        from dp_accounting.pld import privacy_loss_distribution as pld
    except ImportError:
        return None, None
    t0 = time.perf_counter()
    worst = 0.0
    rows = [[float(v) for v in r] for r in mech.rows()]
    for i, j in pairs:
        P = {y: math.log(v) for y, v in enumerate(rows[i]) if v > 0}
        Q = {y: math.log(v) for y, v in enumerate(rows[j]) if v > 0}
        d = pld.from_two_probability_mass_functions(Q, P, pessimistic_estimate=True, symmetric=False)
        worst = max(worst, d.self_compose(k).get_delta_for_epsilon(eps))
    return worst, time.perf_counter() - t0


def exact_row(name, mech, labels, pairs, eps_text, eps_float):
    pr, t = best(lambda: composed_profile(mech, labels, K), reps=3)
    lo, _hi = decimal_enclosure(pr.delta(eps=eps_text), 20)
    dpa, tdpa = dp_accounting_delta(mech, pairs, K, eps_float)
    diff = "" if dpa is None else f"{dpa - float(lo):.3e}"
    print(f"| {name}, {K}-fold | eps = {eps_text} | {t:.3f} s | {lo} | "
          f"{'' if tdpa is None else f'{tdpa:.3f} s'} | {'' if dpa is None else f'{dpa:.12g}'} | {diff} |")


def main():
    print(f"Machine: {machine()} (shared with other jobs; timings are indicative)\n")
    print("| profile | size | pieces | time |")
    print("|---|---|---|---|")
    for n in (200,):
        M = random_mechanism(n)
        pr, t = best(lambda M=M, n=n: privacy_profile(M, path(n)), reps=1)
        print(f"| random rational mechanism, path neighbours | {n} x {n} | {len(pr.pieces)} | {t:.2f} s |")
        G = geometric(n - 1, "1/2")
        pr, t = best(lambda G=G, n=n: privacy_profile(G, path(n)), reps=1)
        print(f"| geometric alpha = 1/2, path neighbours | {n} x {n} | {len(pr.pieces)} | {t:.2f} s |")
    print()
    print("| composition | at | exact time | exact delta (20 digits, lower end) | dp_accounting time | "
          "dp_accounting delta (pessimistic) | dp_accounting - exact |")
    print("|---|---|---|---|---|---|---|")
    R = randomized_response(2, p="1/4")                 # e^eps0 = 3
    for eps in ("20", "30", "40"):
        exact_row("randomized response p = 1/4", R, [("0", "1")], [(0, 1)], eps, float(eps))
    G = geometric(19, "1/2")                             # 20 outputs, eps0 = log 2 per use
    pairs = [(i, i + 1) for i in range(19)]
    labels = [(str(i), str(j)) for i, j in pairs]
    for eps in ("10", "20", "30"):
        exact_row("geometric alpha = 1/2, 20 outputs", G, labels, pairs, eps, float(eps))


if __name__ == "__main__":
    main()
