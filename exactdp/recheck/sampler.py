"""Re-check ``sampler_privacy`` certificates: the (eps, delta) of ``x + Z`` from the explored intervals of ``Z``.

Only the standard library and this package's kernel core.  **Taken on trust** (definitional inputs): the
intervals ``[lo_z, hi_z]`` of ``P[Z = z]`` for ``z = LO..HI``, the mass found outside the range and the residual
-- they come from running the sampler's Python code, which a kernel reading JSON cannot re-run; the claim
sentence says "given the intervals ...".  Checked of them: the shape the exploration produces (one interval per
value of the range, in order; ``0 <= lo``, ``hi = lo + residual``; the ``lo``'s, the outside mass and the
residual sum to exactly 1).  **Re-derived**, exactly with fractions, from them:

1. the shifts ``0 < |d| <= k``, ``k = min(sensitivity, b - a)`` for the inputs ``a..b`` (a shift beyond
   ``HI - LO`` pairs no two values of the range: delta is then 1);
2. ``R = max hi_z / lo_{z-d}`` over ``z``, ``z - d`` in the range with ``lo_{z-d} > 0`` and the first pair
   attaining it (shifts ``1, -1, 2, -2, ...``, then ``z`` increasing);
3. ``delta = max_d (1 - sum_{z in G_d} lo_z)`` (``G_d`` the ``z`` of step 2): the tails, residual and
   zero-lower-bound values, bounded by the mass not found on ``G_d``;
4. ``L = max lo_z / hi_{z-d}`` over pairs with ``hi_{z-d} > 0``;
5. with a question, ``R <= e^eps`` (the kernel's exact comparison) and ``delta <= delta_asked``: verdict holds.

Then ``P[x + Z in S] <= R P[x' + Z in S] + delta`` for neighbours (Dwork and Roth 2014, Def. 2.4).
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import Refuted, TooLarge, compare, exp_of_eps, fraction, refute_unless

CONFIRMED, REFUTED = "confirmed", "refuted"

#: most (z, shift) pairs whose ratios are re-derived: 40,000 pairs of 70-bit intervals re-check in 0.8 s on the
#: 2-core machine (200,000 took 7 s), 20,000 values over a 3,600-bit common denominator in 2.1 s
MAX_PAIRS = 40_000
#: most intervals carried
MAX_VALUES = 20_001
#: most characters of one number of the intervals (a 4096-bit denominator is 1,234 digits), checked before parsing
MAX_NUMBER_CHARS = 2_500
#: most bits of a common denominator of the lower bounds, residual and outside mass (the 2-adic part's largest
#: exponent plus the bits of the distinct odd parts): every sum and ratio is of numbers this size.  An exploration
#: that rounds to 2^-BITS (the command's default, 128) has odd parts 1; exact explorations of deep samplers can
#: exceed it (too large)
MAX_COMMON_BITS = 4_096

#: the evidence, read strictly by the dispatcher before any work (:mod:`._schema`)
EVIDENCE = {"sampler_privacy": {
    "sampler": "str", "support": ["int"], "inputs": ["int"], "sensitivity": "int",
    "intervals": [{"value": "int", "lo": "str", "hi": "str"}], "outside": "str", "residual": "str",
    "ratio": "str", "at": {"z": "int", "shift": "int"}, "ratio_lower": "?str", "delta": "str",
    "eps_asked": "?str", "delta_asked": "?str"}}


def claim_text(c: dict) -> str:
    """The claim of a ``sampler_privacy`` certificate, rebuilt from its evidence.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> ev = {"support": [0, 1], "inputs": [0, 1], "sensitivity": 1, "outside": "0", "residual": "0",
    ...       "sampler": "coin", "ratio": "1", "delta": "0", "ratio_lower": "1", "eps_asked": None}
    >>> claim_text({"evidence": ev})[-60:]
    'ith eps = log(1), delta = 0; its pure eps is at least log(1)'
    """
    ev = c["evidence"]
    lo, hi = ev["support"]
    a, b = ev["inputs"]
    head = (f"given the intervals [lo, hi] of P[Z = z] for z in {lo}..{hi} (mass found outside {ev['outside']}, "
            f"residual {ev['residual']}) found by running {ev['sampler']} -- taken on trust: the kernel does not "
            f"re-run the code -- the additive mechanism x + Z over inputs x in {a}..{b}, neighbours at distance "
            f"<= {ev['sensitivity']}, is (eps, delta)-DP with eps = log({ev['ratio']}), delta = {ev['delta']}")
    low = "" if ev["ratio_lower"] is None else f"; its pure eps is at least log({ev['ratio_lower']})"
    ask = "" if ev["eps_asked"] is None else (f"; the question: (eps, delta)-DP at eps = {ev['eps_asked']}, "
                                              f"delta = {ev['delta_asked']}")
    return head + low + ask


def method_of(c: dict) -> str:
    """``RATIONAL`` unless the question's ``e^eps`` is transcendental (``TRANSCENDENCE_BALLS``).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        The method the verdict rests on.

    Examples
    --------
    >>> method_of({"evidence": {"eps_asked": "log(2)"}}), method_of({"evidence": {"eps_asked": "1/2"}})
    ('RATIONAL', 'TRANSCENDENCE_BALLS')
    """
    eps = c["evidence"]["eps_asked"]
    return "RATIONAL" if eps is None or isinstance(exp_of_eps(eps), Fraction) else "TRANSCENDENCE_BALLS"


def _intervals(ev: dict) -> dict:
    """The trusted intervals, held to the shape the exploration produces."""
    lo_z, hi_z = ev["support"]
    refute_unless(lo_z < hi_z, "the support is not LO < HI")
    if hi_z - lo_z + 1 > MAX_VALUES:
        raise TooLarge(f"more than {MAX_VALUES:,} noise values")
    ivs = ev["intervals"]
    refute_unless([i["value"] for i in ivs] == list(range(lo_z, hi_z + 1)),
                  "the intervals are not one per value of the range, in order")
    texts = [ev["residual"], ev["outside"]] + [t for i in ivs for t in (i["lo"], i["hi"])]
    if any(len(t) > MAX_NUMBER_CHARS for t in texts):
        raise TooLarge(f"a number of the intervals longer than {MAX_NUMBER_CHARS:,} characters")
    res, out = fraction(ev["residual"]), fraction(ev["outside"])
    los = [fraction(i["lo"]) for i in ivs]
    refute_unless(all(0 <= q <= 1 for q in [res, out, *los]), "a lower bound, residual or outside mass not in [0, 1]")
    dens = {q.denominator for q in [res, out, *los]}
    odd = {d >> ((d & -d).bit_length() - 1) for d in dens}           # d = 2^v * odd part
    if max((d & -d).bit_length() for d in dens) + sum(o.bit_length() for o in odd) > MAX_COMMON_BITS:
        raise TooLarge(f"a common denominator of more than {MAX_COMMON_BITS:,} bits")
    iv = {}
    for i, lo in zip(ivs, los, strict=True):
        refute_unless(fraction(i["hi"]) == lo + res, f"the interval of {i['value']} is not [lo, lo + residual]")
        iv[i["value"]] = (lo, lo + res)
    refute_unless(sum((p[0] for p in iv.values()), Fraction(0)) + out + res == 1,
                  "the lower bounds, the mass outside and the residual do not sum to 1")
    return iv


def _run(c: dict) -> int:
    """Re-derive ``R``, its attaining pair, ``delta`` and ``L`` from the intervals (steps 1-4 of this module's
    docstring), after counting the (value, shift) pairs against ``MAX_PAIRS``; returns the number of pairs read."""
    ev = c["evidence"]
    a, b = ev["inputs"]
    s = ev["sensitivity"]
    refute_unless(a <= b and s >= 1, "the inputs are not a <= b or the sensitivity is not >= 1")
    lo_z, hi_z = ev["support"]
    k = min(s, b - a)
    refute_unless(k >= 1, "no two inputs of the range are neighbours")
    reach = min(k, hi_z - lo_z)                          # larger shifts pair no two values of the range
    if 2 * reach * (hi_z - lo_z + 1) > MAX_PAIRS:         # counted before any work
        raise TooLarge(f"more than {MAX_PAIRS:,} (value, shift) pairs")
    iv = _intervals(ev)
    R, at, L, n = None, None, None, 0
    delta = Fraction(int(k > reach), 1)                   # a shift past the range leaves all the mass to delta
    for d in [t for j in range(1, reach + 1) for t in (j, -j)]:
        found = Fraction(0)
        for z in range(max(lo_z, lo_z + d), min(hi_z, hi_z + d) + 1):
            (lo1, hi1), (lo2, hi2) = iv[z], iv[z - d]
            n += 1
            # z in G_d: P[x + Z = z] <= hi_z <= R lo_(z-d) <= R P[x' + Z = z]; the mass off G_d is at most 1 - sum_(G_d)
            # lo_z, which delta covers
            if lo2 > 0:
                found += lo1
                if R is None or hi1 / lo2 > R:
                    R, at = hi1 / lo2, (z, d)
            if hi2 > 0 and (L is None or lo1 / hi2 > L):
                L = lo1 / hi2
        delta = max(delta, 1 - found)
    if R is None:
        raise Refuted("no pair has a positive lower bound: no finite ratio")
    refute_unless(fraction(ev["ratio"]) == R, f"the ratio {ev['ratio'][:40]} is not the re-derived R = {R}")
    refute_unless((ev["at"]["z"], ev["at"]["shift"]) == at, f"the stated pair is not the first attaining R, {at}")
    refute_unless(fraction(ev["delta"]) == delta, f"the delta {ev['delta'][:40]} is not the re-derived {delta}")
    refute_unless((None if ev["ratio_lower"] is None else fraction(ev["ratio_lower"])) == L,
                  f"the lower ratio is not the re-derived L = {L}")
    _question(ev, R, delta, c["verdict"])
    return n


def _question(ev: dict, R: Fraction, delta: Fraction, verdict: str) -> None:
    """Step 5: the question asked, if any. The verdict must be ``holds`` (the certificate states what the intervals
    show); with eps and delta, ``R <= e^eps`` (exact comparison) and the derived delta ``<=`` the one asked."""
    refute_unless(verdict == "holds", "a sampler_privacy certificate states what the intervals show: it holds")
    eps, dq = ev["eps_asked"], ev["delta_asked"]
    refute_unless((eps is None) == (dq is None), "the question has eps without delta or delta without eps")
    if eps is None:
        return
    E = exp_of_eps(eps)
    refute_unless(compare(R, Fraction(1), E) <= 0, f"R = {R} exceeds e^eps for eps = {eps}")
    refute_unless(delta <= fraction(dq) <= 1, f"the re-derived delta {delta} exceeds the delta asked")


def check(c: dict):
    """``(status, checked, detail)`` for a ``sampler_privacy`` certificate.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the (value, shift) pairs re-derived,
        and why.

    Examples
    --------
    >>> ev = {"inputs": [1, 0], "sensitivity": 1}
    >>> check({"evidence": ev, "verdict": "holds"})[:2]
    ('refuted', 0)
    """
    try:
        n = _run(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return CONFIRMED, n, (f"given the intervals (taken on trust: they come from running code; held to lo >= 0, "
                          f"hi = lo + residual, total mass 1), {n} (value, shift) ratios re-derived exactly: R, "
                          "the attaining pair, delta, the lower ratio L and the verdict")
