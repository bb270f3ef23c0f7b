"""What exactdp finds in float accountants, each row measured here (issue 29; docs/accountants.md).

Rows:

1. dp_accounting's source models permute-and-flip by "the Laplace mechanism with parameter 1/epsilon".  Two
   candidates, scores swapped by the neighbours, eps = log 4: the exact delta at eps' = log 2 against the model's,
   and :func:`exactdp.interop.accountants.check_laplace_model`'s relation over all eps' (identical / dominates /
   neither, with its witness or the point where the profiles touch).
2. dp_accounting 0.6.0's *pessimistic* PLD (``from_two_probability_mass_functions``, grid 1e-4,
   ``self_compose(1000)``, one eps per call) for randomized response at eps0 = 1 composed 1000 times, against the
   exact delta of the lattice route at the float's exact eps (``below`` decided exactly from the certified
   enclosure).  docs/benchmarks.md's composition section, re-measured.
3. The same PLD asked with a *list* of eps: beyond eps = 709.78 ``exp(eps)`` overflows and the answer is nan
   (``benchmarks/dp_accounting_list_overflow.py``), while one eps per call is sound.
4. dp_accounting 0.6.0's ``PLDAccountant`` on ``SelfComposedDpEvent(RandomizedResponseDpEvent(...), k)``: the
   randomized-response branch composes the event once and ignores the count (its Laplace branches call
   ``self_compose(count)``), so the answer is that of one run; exactdp reads the same tree exactly
   (:func:`exactdp.interop.accountants.compare_dp_event`).

``--quick`` (the smoke test): rows 2 and 3 at k = 1000 skip dp_accounting's composition (about 5-20 s) and show
the list-call overflow on a two-point PLD only.
"""

from __future__ import annotations

import math
import os
import sys
import time
import warnings
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from flint import fmpq

from exactdp.exact.decide import decimal_enclosure, exact_str
from exactdp.mechanisms import generalized_rr, permute_and_flip
from exactdp.interop.accountants import _laplace_model, check_laplace_model, compare_dp_event
from exactdp.composition.lattice import composed_deltas
from exactdp.composition.profile import privacy_profile


def _place(f: float, lo: str, hi: str) -> str:
    """Where a float lies against a certified enclosure, decided on exact values."""
    if math.isnan(f):
        return "nan"
    q = Fraction(f)
    return "**below**" if q < Fraction(lo) else "above" if q > Fraction(hi) else "inside"


def row_permute_and_flip() -> None:
    t0 = time.perf_counter()
    pf = permute_and_flip([[1, 0], [0, 1]], eps="log(4)")
    exact = privacy_profile(pf, [("0", "1")]).delta(eps="log(2)")
    model = _laplace_model(fmpq(2), fmpq(4))
    c = check_laplace_model(pf, [("0", "1")], eps="log(4)")
    secs = time.perf_counter() - t0
    print(f"| 1 | permute-and-flip, 2 candidates, eps = log 4, delta at eps' = log 2 | exact {exact_str(exact)} | "
          f"Laplace model (dp_accounting's source) {model} = {decimal_enclosure(model, 17)[0]}... | model "
          f"{c.relation} the exact profile (touching at e^eps' = {c.touch_t}); not identical | {secs:.2f} s |")


def _rr_pld(k: int):
    from dp_accounting.pld import privacy_loss_distribution as pldlib

    e = math.e
    up = {0: math.log(e / (1 + e)), 1: math.log(1 / (1 + e))}
    lo = {0: math.log(1 / (1 + e)), 1: math.log(e / (1 + e))}
    return pldlib.from_two_probability_mass_functions(up, lo, pessimistic_estimate=True,
                                                      value_discretization_interval=1e-4).self_compose(k)


def rows_pessimistic_and_overflow(quick: bool) -> None:
    k, eps = 1000, [462.0, 490.0, 518.0, 546.0, 574.0]
    t0 = time.perf_counter()
    rs = composed_deltas(generalized_rr(2, eps="1"), [("0", "1")], k, [str(Fraction(e)) for e in eps])
    t_ex = time.perf_counter() - t0
    pld, t_dp = None, 0.0
    if not quick:
        t0 = time.perf_counter()
        pld = _rr_pld(k)
        t_dp = time.perf_counter() - t0
    for e, r in zip(eps, rs, strict=True):
        if pld is None:
            got, place = "(skipped in --quick)", "-"
        else:
            f = float(pld.get_delta_for_epsilon(e))
            got, place = repr(f), _place(f, r.lo, r.hi)
        print(f"| 2 | randomized response eps0 = 1, k = {k}, pessimistic PLD at eps = {e:g} | exact in [{r.lo}, "
              f"{r.hi}] ({r.route}) | dp_accounting {got} | {place} | exact {t_ex:.2f} s, dp_accounting "
              f"{t_dp:.2f} s |")
    warnings.simplefilter("ignore", RuntimeWarning)
    from dp_accounting.pld import pld_pmf

    losses, probs = [4790.0, 4810.0], [0.5, 0.5]
    lst = pld_pmf._get_delta_for_epsilon_vectorized(0.0, losses, probs, [4800.0])[0]
    one = pld_pmf._get_delta_for_epsilon(0.0, losses, probs, 4800.0)
    print(f"| 3 | two-point PLD (losses 4790, 4810, 1/2 each) at eps = 4800 | exact (1 - e^-10)/2 = "
          f"{0.5 * -math.expm1(-10.0)!r} | list call {float(lst)!r}, one eps per call {float(one)!r} | list call "
          "nan | - |")
    if pld is not None:
        xs = [700.0, 709.0, 710.0, 720.0]
        as_list = [float(v) for v in pld.get_delta_for_epsilon(xs)]
        single = [float(pld.get_delta_for_epsilon(x)) for x in xs]
        ex = composed_deltas(generalized_rr(2, eps="1"), [("0", "1")], k, [str(Fraction(x)) for x in xs])
        lows = ", ".join(f"{float(Fraction(r.lo)):.3e}" for r in ex)
        print(f"| 3 | randomized response eps0 = 1, k = {k}, eps = {', '.join(f'{x:g}' for x in xs)} | exact (lower "
              f"ends of the certified enclosures) {lows} | list call {as_list}, one eps per call {single} | list "
              "call nan above 709.78 | - |")


def row_self_composed_count() -> None:
    import dp_accounting as dp

    rr = dp.RandomizedResponseDpEvent(0.5, 2)          # keep with 3/4: ratio 3
    for k, eps in ((3, "0"), (1000, "550")):
        t0 = time.perf_counter()
        c = compare_dp_event(dp.SelfComposedDpEvent(rr, k), eps)
        listed = compare_dp_event(dp.ComposedDpEvent([rr] * k), eps) if k <= 3 else None
        secs = time.perf_counter() - t0
        lo, hi = c.exact.enclosure()
        more = f"; listed as {k} events {listed.accountant!r}" if listed is not None else ""
        print(f"| 4 | PLDAccountant on SelfComposedDpEvent(RandomizedResponseDpEvent(0.5, 2), {k}) at eps = {eps} | "
              f"exact in [{lo}, {hi}] ({c.exact_route}) | dp_accounting {c.accountant!r}{more} | "
              f"{'**below**' if c.below else 'not below'} | {secs:.2f} s |")


def main(quick: bool) -> int:
    try:
        import dp_accounting  # noqa: F401
    except ImportError:
        print("dp_accounting is not installed (pip install 'exactdp[interop]'); nothing to compare")
        return 0
    print("| row | case | exactdp | accountant | finding | time |")
    print("|---|---|---|---|---|---|")
    row_permute_and_flip()
    rows_pessimistic_and_overflow(quick)
    row_self_composed_count()
    return 0


if __name__ == "__main__":
    sys.exit(main("--quick" in sys.argv[1:]))
