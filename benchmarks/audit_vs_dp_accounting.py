"""The exact audit of k-fold compositions next to dp_accounting's PLD accountant (issue 22).

Run:  python benchmarks/audit_vs_dp_accounting.py [--quick]

For randomized response at eps0 = 1 (entries e/(1+e): transcendental, composed
exactly in Q(e)) and the geometric mechanism on {0..4} at alpha = 1/2 (rational,
eps0 = log 2 per unit), k = 10, 50, 200 (--quick: k = 10 only), at eps = 1 and at
eps = c k eps0 rounded to an integer for c = 1/5, 2/5, 3/5 (where delta is small
and a relative error shows), prints Markdown rows:
the exact delta at the float eps dp_accounting was asked (a 17-digit enclosure of the
exact value), dp_accounting's pessimistic and optimistic delta (its default
value_discretization_interval = 1e-4), whether the pessimistic estimate is below the
exact delta (decided exactly: the float at its exact binary value), and both times.
dp_accounting is installed by the test and interop extras; without it the script says
so and exits 0.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine

from exactdp.mechanisms import generalized_rr, geometric
from exactdp.metrics import discrete, path


def main(quick: bool) -> int:
    try:
        from exactdp.interop.accountants import compare_dp_accounting
        import dp_accounting  # noqa: F401
    except ImportError:
        print("dp_accounting is not installed (pip install 'exactdp[interop]'); nothing to compare")
        return 0
    ks = (10,) if quick else (10, 50, 200)
    cases = [("randomized response, eps0 = 1", generalized_rr(2, eps="1"), discrete(2), 1.0),
             ("geometric {0..4}, alpha = 1/2", geometric(4, "1/2"), path(5), 0.6931471805599453)]
    print(f"machine: {machine()}")
    print("| mechanism | k | eps | exact delta | dp_accounting pessimistic | optimistic | pess. < exact | "
          "exact s | dp_accounting s |")
    print("|---|---|---|---|---|---|---|---|---|")
    below = total = 0
    t_all = time.perf_counter()
    for name, mech, nb, eps0 in cases:
        for k in ks:
            epss = list(dict.fromkeys(["1"] + [str(max(1, round(c * k * eps0))) for c in (0.2, 0.4, 0.6)]))
            for eps in (epss[:2] if quick else epss):
                c = compare_dp_accounting(mech, nb, times=k, eps=eps).to_json()
                total += 1
                below += c["pessimistic_below_exact"]
                print(f"| {name} | {k} | {eps} | {c['delta_exact_approx']} | {c['pessimistic']} | {c['optimistic']} | "
                      f"{'yes' if c['pessimistic_below_exact'] else 'no'} | {c['seconds_exact']} | "
                      f"{c['seconds_dp_accounting']} |")
    print(f"\npessimistic estimate below the exact delta in {below} of {total} cases "
          f"(total {time.perf_counter() - t_all:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main("--quick" in sys.argv[1:]))
