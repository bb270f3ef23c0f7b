"""Why dp_accounting "answered 0.0" for randomized response at k = 10,000 (docs/benchmarks.md, issue 29).

dp_accounting 0.6.0's ``DensePLDPmf.get_delta_for_epsilon`` has two paths: a number goes to
``_get_delta_for_epsilon`` (``inf_mass + sum (-expm1(eps - loss)) p``: sound at any eps), a list goes to
``_get_delta_for_epsilon_vectorized``, which computes ``mu_upper - exp(eps) * mu_lower`` with
``mu_lower = sum p e^(-loss)``.  Beyond eps = 709.78 ``exp(eps)`` overflows to inf and ``e^(-loss)`` underflows to 0
for losses beyond 745, so the answer is ``inf * 0 = nan``.  ``benchmarks/bench_composition.py`` asked with a list and
took ``max(0.0, nan)``, which is ``0.0`` in Python: the "0.0" rows were nan.  Run:
``python benchmarks/dp_accounting_list_overflow.py`` (about 5 s).
"""

from __future__ import annotations

import math
import time
import warnings

from dp_accounting.pld import pld_pmf
from dp_accounting.pld import privacy_loss_distribution as pldlib


def main() -> None:
    warnings.simplefilter("ignore", RuntimeWarning)
    # 1. the two paths on a two-point PLD: losses 4790 and 4810 with probability 1/2 each, eps = 4800
    losses, probs = [4790.0, 4810.0], [0.5, 0.5]
    print("two-point PLD at eps = 4800: exact", 0.5 * -math.expm1(-10.0),
          "| list path", pld_pmf._get_delta_for_epsilon_vectorized(0.0, losses, probs, [4800.0])[0],
          "| number path", pld_pmf._get_delta_for_epsilon(0.0, losses, probs, 4800.0))
    # 2. the benchmark's own construction (randomized response at eps0 = 1, pessimistic, grid 1e-4), k = 1000
    e = math.e
    up = {0: math.log(e / (1 + e)), 1: math.log(1 / (1 + e))}
    lo = {0: math.log(1 / (1 + e)), 1: math.log(e / (1 + e))}
    t = time.perf_counter()
    pld = pldlib.from_two_probability_mass_functions(up, lo, pessimistic_estimate=True,
                                                     value_discretization_interval=1e-4).self_compose(1000)
    eps = [462.0, 700.0, 709.0, 710.0, 720.0]
    as_list = pld.get_delta_for_epsilon(eps)
    one_by_one = [pld.get_delta_for_epsilon(x) for x in eps]
    print(f"randomized response eps0 = 1, k = 1000 ({time.perf_counter() - t:.1f} s):")
    print("| eps | list call | one eps per call | max(0.0, list call) |")
    print("|---|---|---|---|")
    for x, a, b in zip(eps, as_list, one_by_one, strict=True):
        print(f"| {x:g} | {float(a)!r} | {float(b)!r} | {max(0.0, float(a))!r} |")


if __name__ == "__main__":
    main()
