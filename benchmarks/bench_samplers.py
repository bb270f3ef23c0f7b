"""Time the exact law of CKS20's samplers (issue 30) and count the samples a chi-square test would need.

Run:  python benchmarks/bench_samplers.py   (add --quick for a smoke run)

* the discrete Laplace sampler of :mod:`exactdp.samplers.cks20` at scales 1, 3/2, 5/2, 7/3: its law over
  |z| <= 8 explored until every interval is narrower than 1e-18 (residual < 1e-18), then compared with the
  target tanh(1/(2s)) e^(-|z|/s) through Arb balls; the same for each planted bug (division slip, off-by-one,
  dropped rejection);
* the discrete Gaussian at sigma^2 in {1, 2, 5};
* the statistical alternative, computed exactly from the laws (not simulated): with D = sum_i (q_i - p_i)^2 / p_i
  over the 17 values and one bin for the rest (p: the reference law, q: the buggy one), a chi-square
  goodness-of-fit test of n samples of the buggy sampler has expected statistic (k - 1) + n D; it reaches the
  critical value at p = 0.01 (about even odds of seeing the bug) at n = (chi2_0.99(k-1) - (k-1)) / D.
"""

from __future__ import annotations

import os
import sys
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine

from exactdp.samplers import compare, law, target
from exactdp.samplers import cks20

QUICK = "--quick" in sys.argv
FULL = {"depth": 100, "tol": Fraction(1, 10**22), "bits": 128}
SMOKE = {"depth": 50, "tol": Fraction(1, 10**10), "bits": 64}
OPTS = SMOKE if QUICK else FULL
WIDTH = Fraction(1, 10**6) if QUICK else Fraction(1, 10**18)
LO, HI = -8, 8


def chi2_critical(df: int, alpha: float = 0.01) -> float:
    """The chi-square quantile (scipy if present, else Wilson-Hilferty; only the benchmark's report uses it)."""
    try:
        from scipy.stats import chi2

        return float(chi2.ppf(1 - alpha, df))
    except ImportError:
        z = 2.3263478740408408  # the normal 0.99 quantile
        return df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3


def run(mod, fn, arg, tgt):
    t0 = time.perf_counter()
    L = law(getattr(mod, fn), [arg], summarise=cks20.SUMMARISE, **OPTS)
    c = compare(L, tgt, (LO, HI), width=WIDTH)
    return L, c, time.perf_counter() - t0


def bins(L):
    ps = [L.interval(z)[0] for z in range(LO, HI + 1)]
    return [*ps, 1 - sum(ps)]


def samples_needed(ref, bug) -> float:
    p, q = bins(ref), bins(bug)
    d = sum(((qi - pi) ** 2 / pi for pi, qi in zip(p, q, strict=True) if pi > 0), Fraction(0))
    k = len(p)
    return (chi2_critical(k - 1) - (k - 1)) / float(d) if d else float("inf")


def main() -> None:
    print(f"machine: {machine()}")
    print(f"settings: depth {OPTS['depth']}, tol {float(OPTS['tol']):.0e}, bits {OPTS['bits']}, "
          f"width bound {float(WIDTH):.0e}, values {LO}..{HI}\n")
    scales = [Fraction(3, 2)] if QUICK else [Fraction(1), Fraction(3, 2), Fraction(5, 2), Fraction(7, 3)]
    print("| sampler | scale | time (s) | runs | residual | verdict | chi-square samples at p = 0.01 |")
    print("|---|---|---|---|---|---|---|")
    for s in scales:
        tgt = target("dlaplace", s)
        ref, c, dt = run(cks20, "dlaplace", s, tgt)
        print(f"| dlaplace (reference) | {s} | {dt:.2f} | {ref.paths + ref.summary_paths} | "
              f"{float(ref.residual):.1e} | {c.verdict} | - |", flush=True)
        for bug in cks20.BUGS:
            L, c, dt = run(cks20.variant(bug), "dlaplace", s, tgt)
            w = c.witness
            seen = f"{c.verdict} (at {w.value}: target {w.status} [{float(w.lo):.6g}, ...])" if w else c.verdict
            print(f"| dlaplace ({bug}) | {s} | {dt:.2f} | {L.paths + L.summary_paths} | {float(L.residual):.1e} | "
                  f"{seen} | {samples_needed(ref, L):.3g} |", flush=True)
    for s2 in ([Fraction(1)] if QUICK else [Fraction(1), Fraction(2), Fraction(5)]):
        L, c, dt = run(cks20, "dgauss", s2, target("dgauss", s2))
        print(f"| dgauss (reference) | sigma^2 = {s2} | {dt:.2f} | {L.paths + L.summary_paths} | "
              f"{float(L.residual):.1e} | {c.verdict} | - |", flush=True)


if __name__ == "__main__":
    main()
