"""Re-check ``privacy`` and ``epsilon`` certificates: every inequality re-decided from the JSON.

The reduction to generating pairs is taken from the evidence (it is stated
and proved in the worked proof); everything else -- the entries, the level,
each comparison, the counts of violated and tight inequalities, the witness --
is re-derived here.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import lcm

from ._kernel import NotHere, _add, _mul, _neg, check_codes, compare, level_factor, sign, value

CONFIRMED, REFUTED = "confirmed", "refuted"


class _Mech:
    def __init__(self, m: dict):
        self.rows = {x: i for i, x in enumerate(m["inputs"])}
        self.cols = {z: j for j, z in enumerate(m["outputs"])}
        self.values, self.codes = m["values"], m["codes"]
        if len(self.codes) != len(m["inputs"]) or any(len(r) != len(m["outputs"]) for r in self.codes):
            raise ValueError("the code matrix does not match the labels")
        check_codes(self.codes, len(self.values))
        self._v: dict = {}
        self._stochastic()

    def _stochastic(self) -> None:
        """Every entry ``>= 0`` and every row summing to exactly 1 (ValueError otherwise): the certificate is
        about a mechanism.  Entries in a symbolic ``alpha`` are left to the all-eps re-check."""
        try:
            vals = [value(v) for v in self.values]
        except NotHere:
            if any("alpha" in v for v in self.values):
                return
            raise
        self._v = dict(enumerate(vals))      # parsed once, reused by every comparison
        if any(sign(v) < 0 for v in vals):
            raise ValueError("a negative entry: not a mechanism")
        if all(isinstance(v, Fraction) for v in vals):
            # exact integer sums: scale every value by the common denominator
            den = lcm(*(v.denominator for v in vals)) if vals else 1
            ints = [v.numerator * (den // v.denominator) for v in vals]
            bad = next((i for i, r in enumerate(self.codes) if sum(map(ints.__getitem__, r)) != den), None)
        else:
            one = value("1")
            bad = None
            for i, r in enumerate(self.codes):
                total = Fraction(0)
                for c, k in Counter(r).items():
                    total = _add(total, _mul(Fraction(k), vals[c]))
                if sign(_add(total, _neg(one))) != 0:
                    bad = i
                    break
        if bad is not None:
            raise ValueError(f"row {bad} does not sum to exactly 1: not a mechanism")

    def val(self, code: int):
        if code not in self._v:
            self._v[code] = value(self.values[code])
        return self._v[code]

    def entry_text(self, x, z) -> str:
        return self.values[self.codes[self.rows[x]][self.cols[z]]]


def _level(lv: dict | None) -> dict | None:
    if lv is None:
        return None
    return {"eps": lv["eps"]} if lv["eps"] is not None else {"R": lv["R"], "D": lv["D"]}


def _status(a, b, E) -> int:
    """+1 violated, 0 tight, -1 slack for ``a <= E b``; an exact zero on the left is slack (as the checker counts)."""
    if sign(a) == 0:
        return -1
    if sign(b) == 0:
        return 1
    return compare(a, b, E)


def count(mech: _Mech, pairs: list, lv: dict | None):
    """(violated, tight, inequalities) over every pair, output and direction (``lv`` None: factor 1)."""
    cache: dict = {}
    viol = ties = n = 0
    for x, xp, d in pairs:
        E = level_factor(lv, d) if lv is not None else value("1")
        ra, rb = mech.codes[mech.rows[x]], mech.codes[mech.rows[xp]]
        for ca, cb in zip(ra, rb):
            for a, b in ((ca, cb), (cb, ca)):
                n += 1
                key = (a, b, d)
                s = cache.get(key)
                if s is None:
                    s = cache[key] = _status(mech.val(a), mech.val(b), E)
                viol += s == 1
                ties += s == 0
    return viol, ties, n


def pairs_of(metric: dict) -> list:
    """The generating pairs ``[x, x', d]`` of the evidence (every pair at one distance when ``all_pairs_at``)."""
    d = metric.get("all_pairs_at")
    if d is None:
        return metric["pairs"]
    labels = metric["labels"]
    return [[x, y, d] for i, x in enumerate(labels) for y in labels[i + 1:]]


def _witness_matches(mech: _Mech, pairs: list, w: dict) -> bool:
    """The witness names a real constraint: its entries and its distance are the mechanism's and the metric's."""
    if mech.entry_text(w["x"], w["output"]) != w["K_x"] or mech.entry_text(w["x_prime"], w["output"]) != w["K_x_prime"]:
        return False
    return any({x, xp} == {w["x"], w["x_prime"]} and d == w["distance"] for x, xp, d in pairs)


def check_epsilon(ev: dict):
    mech, pairs = _Mech(ev["mechanism"]), pairs_of(ev["metric"])
    eps, b = ev["epsilon"], ev["binding"]
    if eps == "inf":
        ok = _witness_matches(mech, pairs, b) and sign(value(b["K_x"])) > 0 and sign(value(b["K_x_prime"])) == 0
        return (CONFIRMED if ok else REFUTED), 1, "an output with probability > 0 on one side and exactly 0 on the other"
    if eps == "0":
        viol, ties, n = count(mech, pairs, None)
        return (CONFIRMED if viol == 0 else REFUTED), n, f"{n} inequalities K(x)(z) <= K(x')(z): {viol} violated"
    lv = _level(ev["level"])
    viol, ties, n = count(mech, pairs, lv)
    E = level_factor(lv, b["distance"])
    binding_tight = _witness_matches(mech, pairs, b) and compare(value(b["K_x"]), value(b["K_x_prime"]), E) == 0
    ok = viol == 0 and ties == ev["tight_count"] and binding_tight
    return (CONFIRMED if ok else REFUTED), n, (
        f"{n} inequalities at eps* = {eps} re-decided: {viol} violated, {ties} tight (certificate: "
        f"{ev['tight_count']}); the binding constraint is {'an equality' if binding_tight else 'NOT an equality'}")


def check_privacy(c: dict):
    ev = c["evidence"]
    mech, pairs, lv = _Mech(ev["mechanism"]), pairs_of(ev["metric"]), _level(ev["level"])
    viol, ties, n = count(mech, pairs, lv)
    if c["verdict"] == "holds":
        ok = viol == 0 and ties == ev["tight_count"]
        detail = f"{n} inequalities re-decided: {viol} violated, {ties} tight (certificate: {ev['tight_count']} tight)"
    else:
        w = ev["violation"]
        real = _witness_matches(mech, pairs, w)
        a, b = value(w["K_x"]), value(w["K_x_prime"])
        fails = _status(a, b, level_factor(lv, w["distance"])) == 1
        ok = real and fails and viol == ev["violated_count"]
        detail = (f"witness {'re-decided violated' if fails else 'NOT violated'}"
                  f"{'' if real else ' (and not an entry pair of the mechanism)'}; {viol} violated inequalities "
                  f"(certificate: {ev['violated_count']})")
    if ev["smallest"] is not None:
        # the verdict stands on its own; the smallest eps it reports is re-checked when this kernel can
        try:
            s, m, d = check_epsilon(ev["smallest"])
        except NotHere as e:
            detail += f"; the smallest eps {ev['epsilon']} is not re-checked here ({e})"
        else:
            ok = ok and s == CONFIRMED and ev["epsilon"] == ev["smallest"]["epsilon"]
            n += m
            detail += f"; smallest eps: {d}"
    return (CONFIRMED if ok else REFUTED), n, detail


def check(c: dict):
    if c["kind"] == "epsilon":
        return check_epsilon(c["evidence"])
    return check_privacy(c)
