"""Composition on the privacy-loss lattice next to dp_accounting's pessimistic PLD, same run (issue 29).

Run:  python benchmarks/bench_composition.py [--quick]

For each mechanism, k runs over a neighbour relation, five eps (integers, so
dp_accounting is asked exactly the same eps): exactdp's
:func:`~exactdp.composition.lattice.composed_deltas` (the route it took, the exact
delta's certified enclosure) against dp_accounting 0.6's PLD accountant
(``from_two_probability_mass_functions`` per distinct ordered pair, pessimistic
estimate, its default ``value_discretization_interval = 1e-4``,
``self_compose(k)``, ``get_delta_for_epsilon`` at the five eps; the maximum over
pairs).  Identical ordered pairs (equal column multisets) are computed once on
both sides.  Whether dp_accounting's pessimistic float is below the exact delta
is decided exactly from the certified enclosure (``below`` / ``above`` /
``inside``: the float lies in the enclosure).  Each time is one wall-clock run
of the whole computation, all eps included.

Cases: randomized response at eps0 = 1 (entries in Q(e)), k = 1000 and
10,000; the clamped geometric mechanism on {0..4} at alpha = 1/2 over the path,
k = 1000; the discrete Gaussian noise truncated to |z| <= 10 (inputs 0 and 1,
outputs -10..11, one normaliser), sigma^2 = 1 and 4, k = 1000; the tail case
k = 200, sigma^2 = 1/2 and 1, eps = 255.2.  ``--quick``: k = 10, one eps, a smaller truncation;
``--tail``: the tail case only.
"""

from __future__ import annotations

import math
import os
import sys
import time
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine
from flint import ctx, fmpq

from exactdp.exact.decide import arb_of, sign
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.mechanism import mechanism_from_values
from exactdp.mechanisms import generalized_rr, geometric
from exactdp.metrics import discrete, path
from exactdp.composition.lattice import composed_deltas


def truncated_dg(sigma2, T: int):
    """Discrete Gaussian noise on |z| <= T added to x in {0, 1} (dp_accounting's DiscreteGaussianDpEvent shape)."""
    s2 = fmpq(sigma2)
    outs = list(range(-T, T + 2))
    rows = []
    for x in (0, 1):
        w = [ExpFrac.exp(Lin.rat(-fmpq((y - x) ** 2) / (2 * s2))) if abs(y - x) <= T else fmpq(0) for y in outs]
        Z = sum(w[1:], w[0])
        rows.append([v / Z for v in w])
    return mechanism_from_values([0, 1], outs, rows, name=f"discrete Gaussian sigma^2 = {s2}, abs(z) <= {T}")


def _ordered_pairs(mech, neighbours):
    from exactdp.privacy.approximate import neighbour_relation

    pairs, _ = neighbour_relation(mech, neighbours)
    seen, out = set(), []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            key = tuple(sorted(zip(mech.codes[a].tolist(), mech.codes[b].tolist(), strict=True)))
            if key not in seen:
                seen.add(key)
                out.append((a, b))
    return out


def _log_pmfs(mech, a, b):
    vals = mech.values
    up, lo = {}, {}
    with ctx.workprec(80):
        for y, (u, v) in enumerate(zip(mech.codes[a].tolist(), mech.codes[b].tolist(), strict=True)):
            if sign(vals[u]) > 0:
                up[y] = float(arb_of(vals[u]).log().mid())
            if sign(vals[v]) > 0:
                lo[y] = float(arb_of(vals[v]).log().mid())
    return up, lo


def dp_accounting_deltas(mech, neighbours, k: int, eps: list) -> list:
    from dp_accounting.pld import privacy_loss_distribution as pldlib

    best = [0.0] * len(eps)
    for a, b in _ordered_pairs(mech, neighbours):
        up, lo = _log_pmfs(mech, a, b)
        pld = pldlib.from_two_probability_mass_functions(up, lo, pessimistic_estimate=True,
                                                         value_discretization_interval=1e-4)
        ds = pld.self_compose(k).get_delta_for_epsilon([float(e) for e in eps])
        # a nan (dp_accounting's list call overflows exp(eps) beyond eps = 709.78) must stay visible: Python's
        # max(0.0, nan) is 0.0, which is how the k = 10,000 rows once read "0.0" (docs/benchmarks.md)
        best = [math.nan if math.isnan(x) or math.isnan(float(y)) else max(x, float(y))
                for x, y in zip(best, ds, strict=True)]
    return best


def _place(f: float, lo: str, hi: str) -> str:
    if math.isnan(f):
        return "nan"
    q = Fraction(f)
    if q < Fraction(lo):
        return "below"
    if q > Fraction(hi):
        return "above"
    return "inside"


def _rel(f: float, lo: str, hi: str) -> str:
    if math.isnan(f):
        return "-"
    mid = (Fraction(lo) + Fraction(hi)) / 2
    if mid == 0:
        return "-"
    return f"{float((Fraction(f) - mid) / mid):+.2e}"


def run_case(name, mech, nb, k, eps, with_dp=True):
    t = time.perf_counter()
    # the exact side answers at the exact binary value of the float dp_accounting is asked
    rs = composed_deltas(mech, nb, k, [str(Fraction(float(e))) for e in eps])
    t_ex = time.perf_counter() - t
    t = time.perf_counter()
    dp = dp_accounting_deltas(mech, nb, k, eps) if with_dp else [float("nan")] * len(eps)
    t_dp = time.perf_counter() - t
    for e, r, d in zip(eps, rs, dp, strict=True):
        place = _place(d, r.lo, r.hi) if with_dp else "-"
        print(f"| {name} | {k} | {e} | {r.route} | [{r.lo}, {r.hi}] | {d!r} | {place} | {_rel(d, r.lo, r.hi)} |")
    print(f"| {name} | {k} | all {len(eps)} | time (s) | **{t_ex:.2f}** (exactdp) | **{t_dp:.2f}** (dp_accounting) "
          "| | |")
    return t_ex, t_dp


def main(quick: bool, tail_only: bool = False) -> int:
    try:
        import dp_accounting  # noqa: F401
    except ImportError:
        print("dp_accounting is not installed (pip install 'exactdp[interop]'); nothing to compare")
        return 0
    print(f"machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| mechanism | k | eps | route | exact delta (certified enclosure) | dp_accounting pessimistic | "
          "float vs exact | relative difference |")
    print("|---|---|---|---|---|---|---|---|")
    rr = generalized_rr(2, eps="1")
    if quick:
        run_case("randomized response, eps0 = 1", rr, discrete(2), 10, [3])
        run_case("discrete Gaussian sigma^2 = 1, abs(z) <= 3", truncated_dg(1, 3), [("0", "1")], 10, [3])
        return 0
    if tail_only:
        _tail()
        return 0
    # eps around the mean loss k*tanh(1/2) ~ 0.462 k and up to ~4 standard deviations above it
    run_case("randomized response, eps0 = 1", rr, discrete(2), 1000, [462, 490, 518, 546, 574])
    run_case("geometric {0..4}, alpha = 1/2", geometric(4, "1/2"), path(5), 1000, [100, 200, 300, 400, 500])
    for s2, eps in ((1, [500, 540, 580, 620, 660]), (4, [125, 145, 165, 185, 205])):
        run_case(f"discrete Gaussian sigma^2 = {s2}, abs(z) <= 10", truncated_dg(s2, 10), [("0", "1")], 1000, eps)
    run_case("randomized response, eps0 = 1", rr, discrete(2), 10_000, [4621, 4700, 4800, 4900, 5000])
    _tail()
    return 0


def _tail():
    # the tail case of issue 29 (k = 200, eps = 255.2) for the discrete Gaussian truncated at |z| <= 10
    for s2 in (fmpq(1, 2), fmpq(1)):
        run_case(f"discrete Gaussian sigma^2 = {s2}, abs(z) <= 10", truncated_dg(s2, 10), [("0", "1")], 200,
                 [fmpq(1276, 5)])


if __name__ == "__main__":
    sys.exit(main("--quick" in sys.argv[1:], "--tail" in sys.argv[1:]))
