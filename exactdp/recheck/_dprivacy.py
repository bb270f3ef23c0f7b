"""Re-check ``privacy`` and ``epsilon`` certificates: every stated fact re-derived from the JSON.

Nothing of the evidence is taken on trust (the per-kind contract is in ``docs/recheck.md``):

* the metric's generating pairs are derived from its definition (:mod:`exactdp.recheck._metric`), and the
  mechanism's inputs must be the metric's points;
* the mechanism is a mechanism (entries ``>= 0``, rows summing to exactly 1);
* the level's text is rebuilt from the level that is checked (``eps``, or ``log(R)/D``), and so are the
  claim sentence, the reported smallest eps and its decimal enclosure;
* every inequality ``K(x)(z) <= e^(eps d) K(x')(z)`` is re-decided, and the counts of violated and tight
  ones, the counts of pairs, outputs and inequalities, the factors ``e^(eps d)`` shown, and every listed
  constraint (witness, binding, tightest, tight list) with its sides ``lhs``, ``rhs``, ``excess`` are compared
  with what the kernel derives.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import lcm

from mpmath import libmp

from . import _metric
from ._kernel import Refuted, refute_unless
from ._levels import method_for
from ._kernel import (IV, MAX_CELLS, MAX_INEQUALITIES, NotHere, _add, _iv, _mul, _neg, check_codes, compare,
                      fraction, level_factor, within_limit, sign, value)

CONFIRMED, REFUTED = "confirmed", "refuted"

# ----------------------------------------------------------------------------------------- the shape ----
MECH = {"name": "str", "inputs": ["str"], "outputs": ["str"], "values": ["str"], "codes": [["int"]]}
METRIC = {"description": "str", "points": "int", "labels": ["str"], "pairs": [["str"]], "reduction": "str",
          "all_pairs_at": "?str", "edges": ("?", [["str"]]),
          "distances": ("?", {"values": ["str"], "codes": [["int"]]})}
LEVEL = {"text": "str", "eps": "?str", "R": "?str", "D": "?str"}
CONSTRAINT = {"x": "str", "x_prime": "str", "output": "str", "distance": "str", "K_x": "str", "K_x_prime": "str",
              "lhs": "?str", "rhs": "?str", "excess": "?str"}
COUNTS = {"pairs": "int", "outputs": "int", "inequalities": "int"}
EPSILON = {"mechanism": MECH, "metric": METRIC, "counts": COUNTS, "epsilon": "?str", "enclosure": ("?", ["str"]),
           "level": ("?", LEVEL), "binding": ("?", CONSTRAINT), "tight": [CONSTRAINT], "tight_count": "int",
           "lower_bound": "?str"}
PRIVACY = {"mechanism": MECH, "metric": METRIC, "level": LEVEL, "counts": COUNTS,
           "factors": [{"distance": "str", "factor": "str"}], "violation": ("?", CONSTRAINT),
           "violated_count": "int", "tight": [CONSTRAINT], "tight_count": "int", "tightest": ("?", CONSTRAINT),
           "undecided_at": ("?", CONSTRAINT), "epsilon": "?str", "enclosure": ("?", ["str"]),
           "smallest": ("?", EPSILON)}
#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {"privacy": PRIVACY, "epsilon": EPSILON}
#: why a schema-1 certificate of these kinds is not checkable
V1 = ("its metric record lists the generating pairs only, not the definition they rest on (edges, distances), "
      "and its counters are not re-derivable; re-certify with a current exactdp for a schema-2 certificate")


# ------------------------------------------------------------------------------------- the mechanism ----
class _Mech:
    def __init__(self, m: dict, symbolic_ok: bool = False):
        """Read a carried mechanism: labels, the value table and the code matrix, refusing more than ``MAX_CELLS``
        cells before anything is built, repeated labels and a code matrix of the wrong shape. Unless symbolic
        entries are allowed and present, the rows are checked to be probability distributions
        (:meth:`_stochastic`)."""
        # counted from the labels before any value is parsed or any row is built
        within_limit(len(m["inputs"]) * len(m["outputs"]) <= MAX_CELLS,
                     f"a mechanism of {len(m['inputs'])} x {len(m['outputs'])} > {MAX_CELLS} cells")
        self.rows = {x: i for i, x in enumerate(m["inputs"])}
        self.cols = {z: j for j, z in enumerate(m["outputs"])}
        if len(self.rows) != len(m["inputs"]) or len(self.cols) != len(m["outputs"]):
            raise ValueError("a repeated input or output label")
        self.values, self.codes = m["values"], m["codes"]
        if len(self.codes) != len(m["inputs"]) or any(len(r) != len(m["outputs"]) for r in self.codes):
            raise ValueError("the code matrix does not match the labels")
        check_codes(self.codes, len(self.values))
        self._v: dict = {}
        if not symbolic_ok or not any("alpha" in v for v in self.values):
            self._stochastic()

    def _stochastic(self) -> None:
        """Every entry ``>= 0`` and every row summing to exactly 1 (ValueError otherwise)."""
        vals = [value(v) for v in self.values]
        self._v = dict(enumerate(vals))      # parsed once, reused by every comparison
        if any(sign(v) < 0 for v in vals):
            raise ValueError("a negative entry: not a mechanism")
        if all(isinstance(v, Fraction) for v in vals):
            # all rational: rows summed as integers over one common denominator, exactly and in linear time
            den = lcm(*(v.denominator for v in vals)) if vals else 1
            ints = [v.numerator * (den // v.denominator) for v in vals]
            bad = next((i for i, r in enumerate(self.codes) if sum(map(ints.__getitem__, r)) != den), None)
        else:
            bad = None
            for i, r in enumerate(self.codes):
                total = Fraction(0)
                # k equal entries of a row added as one product k * value
                for c, k in Counter(r).items():
                    total = _add(total, _mul(fraction(k), vals[c]))
                if sign(_add(total, Fraction(-1))) != 0:
                    bad = i
                    break
        if bad is not None:
            raise ValueError(f"row {bad} does not sum to exactly 1: not a mechanism")

    def val(self, code: int):
        """The exact value of entry code ``code``, parsed once and cached (many cells share one value)."""
        if code not in self._v:
            self._v[code] = value(self.values[code])
        return self._v[code]

    def entry_text(self, x, z) -> str:
        """The stated text of the entry at row ``x``, column ``z``."""
        return self.values[self.codes[self.rows[x]][self.cols[z]]]


# -------------------------------------------------------------------------------------------- metric ----
def pairs_of(metric: dict) -> list:
    """The generating pairs ``[x, x', d]`` re-derived from the metric record's definition.

    The definition is edges, distances or one distance for all pairs (:mod:`exactdp.recheck._metric`).

    Parameters
    ----------
    metric : dict
        A metric record of a certificate (``METRIC``).

    Returns
    -------
    list
        ``[x, x', d]`` per generating pair (labels and the exact distance text).

    Raises
    ------
    ValueError
        The record contradicts itself (listed pairs that are not the derived ones, a description that names
        another metric, ...).

    Examples
    --------
    >>> m = {"description": "three friends", "points": 3, "labels": ["a", "b", "c"], "pairs": [],
    ...      "reduction": "", "all_pairs_at": "1", "edges": None, "distances": None}
    >>> pairs_of(m)                    # one distance for all pairs: every pair generates
    [['a', 'b', '1'], ['a', 'c', '1'], ['b', 'c', '1']]
    """
    return _metric.derive(metric)[0]


def _setting(ev: dict, symbolic_ok: bool = False):
    """``(mech, pairs, distance_of, note)`` with the mechanism's inputs checked to be the metric's points."""
    mech = _Mech(ev["mechanism"], symbolic_ok)
    pairs, described = _metric.derive(ev["metric"])
    refute_unless(sorted(ev["metric"]["labels"]) == sorted(mech.rows), "the mechanism's inputs are not the metric's "
                  "points")
    within_limit(2 * len(pairs) * len(mech.cols) <= MAX_INEQUALITIES,
                 f"{2 * len(pairs) * len(mech.cols)} > {MAX_INEQUALITIES} inequalities")
    dist = {}
    for x, xp, d in pairs:
        dist[(x, xp)] = dist[(xp, x)] = d
    note = _metric.name_note(ev["metric"]["description"], described)
    return mech, pairs, dist, note


def _counts(ev: dict, mech: _Mech, pairs: list) -> None:
    """Refute unless the stated counts are those of the check done: the pairs, the outputs, and two inequalities per
    pair and output (both directions ``M[x,z] <= e^eps M[x',z]`` and back)."""
    c = ev["counts"]
    want = {"pairs": len(pairs), "outputs": len(mech.cols), "inequalities": 2 * len(pairs) * len(mech.cols)}
    refute_unless(c == want, f"the counts {c} are not {want}")


# --------------------------------------------------------------------------------------------- level ----
def _is_int_text(s: str) -> bool:
    """Is ``s`` a plain natural number (digits only, no leading zero), so that ``log(R)/D`` needs no parentheses?"""
    return s.isdigit() and (s == "0" or not s.startswith("0"))


def level_text(lv: dict) -> str:
    """The text of ``eps`` that the level checked gives (``eps``, ``log(R)``, ``log(R)/D``, ``log(R)/(D)``).

    Parameters
    ----------
    lv : dict
        A level record (``LEVEL``): ``eps`` itself, or ``e^(D eps) = R``.

    Returns
    -------
    str
        The text of ``eps``.

    Examples
    --------
    >>> [level_text({"text": "", "eps": e, "R": r, "D": d})
    ...  for e, r, d in ((None, "3", "1"), (None, "3", "2"), (None, "1", "5"), ("1/2", None, None))]
    ['log(3)', 'log(3)/2', '0', '1/2']
    """
    if lv["eps"] is not None:
        refute_unless(lv["R"] is None and lv["D"] is None, "a level with both eps and R, D")
        return lv["eps"]
    if lv["R"] == "1":
        return "0"
    lg = f"log({lv['R']})"
    return lg if lv["D"] == "1" else f"{lg}/{lv['D']}" if _is_int_text(lv["D"]) else f"{lg}/({lv['D']})"


def _check_level(lv: dict) -> None:
    """Refute unless the level's text is the one its parameters give (:func:`level_text`) and eps is not negative
    (``eps >= 0``, or ``R >= 1`` and ``D > 0`` for ``e^eps = R^(1/D)``)."""
    refute_unless(lv["text"] == level_text(lv), f"the level's text {lv['text']!r} is not the level checked "
                  f"({level_text(lv)!r})")
    if lv["eps"] is not None:
        refute_unless(sign(value(lv["eps"])) >= 0, "a negative eps")
    else:
        refute_unless(sign(_add(value(lv["R"]), Fraction(-1))) >= 0 and sign(value(lv["D"])) > 0,
                      "a level with R < 1 or D <= 0")


def _level(lv: dict | None) -> dict | None:
    """The level's defining parameters only (``eps``, or ``R`` and ``D``), as the kernel's level functions read them;
    None stays None."""
    if lv is None:
        return None
    return {"eps": lv["eps"]} if lv["eps"] is not None else {"R": lv["R"], "D": lv["D"]}


def _exact(x) -> Fraction:
    """The mpmath number ``x`` (an interval end, a binary float) as the exact Fraction it is."""
    p, q = libmp.to_rational(x)
    return Fraction(p, q)


def _check_enclosure(enc: list, lv: dict) -> None:
    """``lo <= eps <= hi`` proved with the kernel's intervals, ``hi - lo`` at most ``10^-15`` relative."""
    refute_unless(len(enc) == 2, "an enclosure is two numbers")
    lo, hi = fraction(enc[0]), fraction(enc[1])
    IV.prec = 256
    if lv["eps"] is not None:
        x = _iv(value(lv["eps"]), IV)
    else:
        x = IV.log(_iv(value(lv["R"]), IV)) / _iv(value(lv["D"]), IV)
    a, b = x._mpi_
    refute_unless(lo <= _exact(a) and _exact(b) <= hi, f"[{enc[0]}, {enc[1]}] does not enclose eps")
    refute_unless(hi - lo <= Fraction(1, 10**15) * max(Fraction(1), abs(hi)),
                  f"[{enc[0]}, {enc[1]}] is wider than 10^-15")


# ------------------------------------------------------------------------------------- inequalities ----
def _status(a, b, E) -> int:
    """+1 violated, 0 tight, -1 slack for ``a <= E b``; an exact zero on the left is slack (as the checker counts)."""
    if sign(a) == 0:
        return -1
    if sign(b) == 0:
        return 1
    return compare(a, b, E)


def count(mech: _Mech, pairs: list, lv: dict | None):
    """Count the inequalities ``K(x)(z) <= e^(eps d) K(x')(z)``: violated, tight, all, distinct tight triples.

    Every generating pair, output and direction is decided, each distinct triple
    ``(code of K(x)(z), code of K(x')(z), d)`` once.

    Parameters
    ----------
    mech : _Mech
        The mechanism, read from its record.
    pairs : list
        The generating pairs ``[x, x', d]`` (:func:`pairs_of`).
    lv : dict or None
        The level, parsed; None: the factor is 1 (``eps = 0``).

    Returns
    -------
    tuple of int
        ``(violated, tight, inequalities, distinct tight triples)``.

    Examples
    --------
    At ``eps = 0`` randomized response with ``2/3`` on the diagonal violates one direction per output:

    >>> K = _Mech({"name": "K", "inputs": ["0", "1"], "outputs": ["0", "1"], "values": ["2/3", "1/3"],
    ...            "codes": [[0, 1], [1, 0]]})
    >>> count(K, [["0", "1", "1"]], None)
    (2, 0, 4, 0)
    """
    cache: dict = {}
    factors: dict = {}
    viol = ties = n = 0
    for x, xp, d in pairs:
        if d not in factors:
            # only generating pairs are decided: eps*d-privacy on them gives it on every pair, because the distance is
            # their shortest-path closure and the factors e^(eps d) multiply along a path
            factors[d] = level_factor(lv, d) if lv is not None else Fraction(1)
        E = factors[d]
        ra, rb = mech.codes[mech.rows[x]], mech.codes[mech.rows[xp]]
        for ca, cb in zip(ra, rb, strict=True):
            for a, b in ((ca, cb), (cb, ca)):
                n += 1
                key = (a, b, d)
                s = cache.get(key)
                if s is None:
                    # each distinct (value, value, distance) triple decided once: the status depends on nothing else
                    s = cache[key] = _status(mech.val(a), mech.val(b), E)
                viol += s == 1
                ties += s == 0
    return viol, ties, n, sum(s == 0 for s in cache.values())


def _factor_text(lv: dict, d: str, E) -> str | None:
    """The producer's text of a factor that is a fractional power (``R^((d)/(D))``), else None."""
    return f"{lv['R']}^(({d})/({lv['D']}))" if isinstance(E, tuple) else None


def _same(text: str, v) -> bool:
    """Does ``text`` denote the kernel value ``v`` (exact zero test of the difference)?"""
    return sign(_add(value(text), _neg(v))) == 0


def _constraint(mech: _Mech, dist: dict, c: dict, lv: dict | None, sides: bool):
    """Check that ``c`` is a constraint of the mechanism and metric, and its sides when ``sides``; its status."""
    refute_unless(dist.get((c["x"], c["x_prime"])) == c["distance"],
                  f"({c['x']}, {c['x_prime']}) at distance {c['distance']} is not a generating pair")
    refute_unless(mech.entry_text(c["x"], c["output"]) == c["K_x"] and
                  mech.entry_text(c["x_prime"], c["output"]) == c["K_x_prime"],
                  f"the entries of the constraint at ({c['x']}, {c['x_prime']}, {c['output']}) are not the mechanism's")
    a, b = value(c["K_x"]), value(c["K_x_prime"])
    E = level_factor(lv, c["distance"]) if lv is not None else Fraction(1)
    if not sides:
        refute_unless(c["lhs"] is None and c["rhs"] is None and c["excess"] is None, "unexpected sides of a constraint")
    else:
        refute_unless(c["lhs"] == c["K_x"], f"lhs {c['lhs']!r} is not K(x)(z) = {c['K_x']!r}")
        ft = _factor_text(lv, c["distance"], E) if lv is not None else None
        if ft is not None:
            refute_unless(c["rhs"] == f"{ft} * ({c['K_x_prime']})" and c["excess"] is None,
                          "the sides of a constraint at a fractional power are not the ones checked")
        else:
            rhs = _mul(E, b)
            refute_unless(_same(c["rhs"], rhs), f"rhs {c['rhs']!r} is not e^(eps d) K(x')(z)")
            refute_unless(c["excess"] is None or _same(c["excess"], _add(a, _neg(rhs))),
                          f"excess {c['excess']!r} is not lhs - rhs")
    return _status(a, b, E)


#: tight constraints listed: one per distinct tight triple, at most this many (the checker's MAX_LISTED)
MAX_LISTED = 10


def _tight_list(mech, dist, tight: list, lv, distinct: int) -> None:
    """The listed tight constraints: tight, of distinct triples, ``min(10, distinct tight triples)`` of them."""
    keys = {(mech.codes[mech.rows[t["x"]]][mech.cols[t["output"]]],
             mech.codes[mech.rows[t["x_prime"]]][mech.cols[t["output"]]], t["distance"]) for t in tight}
    refute_unless(len(keys) == len(tight) == min(MAX_LISTED, distinct), f"{len(tight)} tight constraints listed, "
                  f"{len(keys)} distinct; there are {distinct} distinct tight triples")
    for t in tight:
        refute_unless(_constraint(mech, dist, t, lv, sides=False) == 0,
                      f"the listed tight constraint ({t['x']}, {t['x_prime']}, {t['output']}) is not tight")


def check_method(c: dict, rational: bool) -> None:
    """Require the method the verdict rests on to be the one its numbers call for.

    That is exact rational arithmetic when the entries and the level are rational, else the exact zero test
    with certified balls; no precision.

    Parameters
    ----------
    c : dict
        The certificate's JSON (its ``method`` and ``precision``).
    rational : bool
        Whether the entries and the level are all rational.

    Raises
    ------
    Refuted
        The method is another one, or a precision is stated.

    Examples
    --------
    >>> check_method({"method": "RATIONAL", "precision": None}, True)
    >>> check_method({"method": "RATIONAL", "precision": None}, False)
    Traceback (most recent call last):
    ...
    exactdp.recheck._kernel.Refuted: the method 'RATIONAL' (precision None) is not 'TRANSCENDENCE_BALLS': the
    numbers are not all rational
    """
    want = "RATIONAL" if rational else "TRANSCENDENCE_BALLS"
    refute_unless(c["method"] == want and c["precision"] is None, f"the method {c['method']!r} (precision "
                  f"{c['precision']}) is not {want!r}: the numbers are {'' if rational else 'not '}all rational")


def _rational(mech: _Mech, lv: dict | None) -> bool:
    """Is the certificate's method ``RATIONAL`` for this mechanism at this level? Decided by the one method rule
    (:func:`method_for`, docs/architecture.md#sec-method-rule) from the entries and the level."""
    return method_for([mech.val(i) for i in range(len(mech.values))], lv) == "RATIONAL"     # the one method rule


# ----------------------------------------------------------------------------------------- epsilon ----
def check_epsilon(ev: dict, verdict: str, c: dict | None = None):
    """Re-check the evidence of an ``epsilon`` certificate (the smallest eps, exactly).

    Parameters
    ----------
    ev : dict
        The evidence (``EPSILON``).
    verdict : str
        The verdict stated: ``"holds"`` for a finite eps, ``"fails"`` for an infinite one.
    c : dict, optional
        The certificate, whose method is checked too; None for a nested smallest-eps record.

    Returns
    -------
    tuple
        ``(status, checked, detail)``.

    Raises
    ------
    Refuted
        A stated fact that the kernel derives differently.

    Examples
    --------
    A mechanism with no generating pair (one input) has ``eps* = 0``:

    >>> K = {"name": "K", "inputs": ["a"], "outputs": ["0", "1"], "values": ["1/2"], "codes": [[0, 0]]}
    >>> m = {"description": "a point", "points": 1, "labels": ["a"], "pairs": [], "reduction": "",
    ...      "all_pairs_at": "1", "edges": None, "distances": None}
    >>> ev = {"mechanism": K, "metric": m, "counts": {"pairs": 0, "outputs": 2, "inequalities": 0},
    ...       "epsilon": "0", "enclosure": ["0", "0"], "level": None, "binding": None, "tight": [],
    ...       "tight_count": 0, "lower_bound": None}
    >>> check_epsilon(ev, "holds")[:2]
    ('confirmed', 0)
    """
    mech, pairs, dist, note = _setting(ev)
    _counts(ev, mech, pairs)
    if c is not None and "method" in c:
        check_method(c, ev["level"] is None or _rational(mech, ev["level"]))
    eps, b, lv = ev["epsilon"], ev["binding"], ev["level"]
    refute_unless(ev["lower_bound"] is None, "a lower bound in a decided certificate")
    if eps == "inf":
        refute_unless(verdict == "fails" and lv is None and ev["enclosure"] == ["inf", "inf"] and ev["tight"] == []
                      and ev["tight_count"] == 0 and b is not None, "an infinite eps is stated with other data")
        _constraint(mech, dist, b, None, sides=b["lhs"] is not None)
        refute_unless(sign(value(b["K_x"])) > 0 and sign(value(b["K_x_prime"])) == 0,
                      "the binding constraint is not an output with probability > 0 on one side and 0 on the other")
        return CONFIRMED, 1, "an output with probability > 0 on one side and exactly 0 on the other" + note
    refute_unless(verdict == "holds", "a finite smallest eps is stated with verdict fails")
    if not pairs:
        refute_unless(eps == "0" and lv is None and b is None and ev["enclosure"] == ["0", "0"] and ev["tight"] == []
                      and ev["tight_count"] == 0, "no generating pair, yet a level or a constraint")
        return CONFIRMED, 0, "no generating pair: eps* = 0" + note
    refute_unless(lv is not None and b is not None, "a finite eps without its level and binding constraint")
    _check_level(lv)
    refute_unless(eps == lv["text"], f"epsilon {eps!r} is not the level checked ({lv['text']!r})")
    zero = eps == "0"
    if zero:
        refute_unless(ev["enclosure"] == ["0", "0"], "the enclosure of eps* = 0 is [0, 0]")
    else:
        _check_enclosure(ev["enclosure"], lv)
    L = None if zero else _level(lv)
    viol, ties, n, tdist = count(mech, pairs, L)
    refute_unless(viol == 0, f"{viol} inequalities are violated at eps = {eps}")
    refute_unless(ties == ev["tight_count"], f"{ties} inequalities are tight, the certificate says {ev['tight_count']}")
    s = _constraint(mech, dist, b, L, sides=True)
    refute_unless(zero or s == 0, "the binding constraint is not an equality at eps*")
    refute_unless(zero or b["excess"] == "0", "the binding constraint's excess is not 0")
    _tight_list(mech, dist, ev["tight"], L, tdist)
    return CONFIRMED, n, (f"{n} inequalities at eps* = {eps} re-decided: none violated, {ties} tight; the binding "
                          "constraint is an equality" + ("" if zero else " and the enclosure holds") + note)


# ----------------------------------------------------------------------------------------- privacy ----
def check_privacy(c: dict):
    """Re-check a ``privacy`` certificate: every inequality at the level, the counts, the witness or tight ones.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``PRIVACY``.

    Returns
    -------
    tuple
        ``(status, checked, detail)``.

    Raises
    ------
    Refuted
        A stated fact that the kernel derives differently.

    Examples
    --------
    >>> K = {"name": "K", "inputs": ["a"], "outputs": ["0", "1"], "values": ["1/2"], "codes": [[0, 0]]}
    >>> m = {"description": "a point", "points": 1, "labels": ["a"], "pairs": [], "reduction": "",
    ...      "all_pairs_at": "1", "edges": None, "distances": None}
    >>> ev = {"mechanism": K, "metric": m, "counts": {"pairs": 0, "outputs": 2, "inequalities": 2}}
    >>> check_privacy({"kind": "privacy", "verdict": "holds", "evidence": ev})
    Traceback (most recent call last):
    ...
    exactdp.recheck._kernel.Refuted: the counts {'pairs': 0, 'outputs': 2, 'inequalities': 2} are not
    {'pairs': 0, 'outputs': 2, 'inequalities': 0}
    """
    ev, verdict = c["evidence"], c["verdict"]
    mech, pairs, dist, note = _setting(ev)
    _counts(ev, mech, pairs)
    check_method(c, _rational(mech, ev["level"]))
    _check_level(ev["level"])
    lv = _level(ev["level"])
    viol, ties, n, tdist = count(mech, pairs, lv)
    refute_unless(ev["undecided_at"] is None, "an undecided constraint in a decided certificate")
    _factors(ev, pairs)
    refute_unless(ties == ev["tight_count"], f"{ties} inequalities are tight, the certificate says {ev['tight_count']}")
    refute_unless(viol == ev["violated_count"], f"{viol} inequalities are violated, the certificate says "
                  f"{ev['violated_count']}")
    if verdict == "holds":
        refute_unless(viol == 0 and ev["violation"] is None, f"{viol} inequalities are violated")
        _tight_list(mech, dist, ev["tight"], lv, tdist)
        detail = f"{n} inequalities re-decided: none violated, {ties} tight"
    else:
        w = ev["violation"]
        refute_unless(w is not None and ev["tight"] == [] and ev["tightest"] is None, "a failing certificate without "
                      "its witness")
        refute_unless(_constraint(mech, dist, w, lv, sides=True) == 1, "the witness is not violated")
        detail = f"witness re-decided violated; {viol} violated inequalities"
    m, more = _smallest(ev, verdict, mech, dist)
    return CONFIRMED, n + m, detail + more + note


def _factors(ev: dict, pairs: list) -> None:
    """The factors ``e^(eps d)`` shown: at most 4 distinct generating distances, each value re-derived."""
    lv = _level(ev["level"])
    ds = list(dict.fromkeys(d for _, _, d in pairs))
    fs = ev["factors"]
    refute_unless(len(fs) == min(4, len(ds)) and len({f["distance"] for f in fs}) == len(fs)
                  and all(f["distance"] in ds for f in fs), "the factors are not those of generating distances")
    for f in fs:
        E = level_factor(lv, f["distance"])
        ft = _factor_text(ev["level"], f["distance"], E)
        refute_unless(f["factor"] == ft if ft is not None else _same(f["factor"], E),
                      f"e^(eps * {f['distance']}) is not {f['factor']}")


def _smallest(ev: dict, verdict: str, mech: _Mech, dist: dict) -> tuple:
    """The nested smallest-eps evidence, the eps and enclosure shown, and the tightest constraint."""
    sm, lv = ev["smallest"], _level(ev["level"])
    if sm is None:
        refute_unless(ev["epsilon"] is None and ev["enclosure"] is None and ev["tightest"] is None,
                      "a smallest eps without its certificate")
        return 0, ""
    refute_unless(sm["mechanism"] == ev["mechanism"] and sm["metric"] == ev["metric"],
                  "the smallest-eps evidence is about another mechanism or metric")
    refute_unless(ev["epsilon"] == sm["epsilon"] and ev["enclosure"] == sm["enclosure"],
                  "the stated smallest eps is not the one certified")
    try:
        _, m, d = check_epsilon(sm, "fails" if sm["epsilon"] == "inf" else "holds")
    except NotHere as e:
        raise NotHere(f"the smallest eps {ev['epsilon']}: {e}") from None
    t = ev["tightest"]
    if verdict == "holds" and sm["epsilon"] not in ("inf", "0"):
        bd = sm["binding"]
        refute_unless(t is not None and (t["x"], t["x_prime"], t["output"]) == (bd["x"], bd["x_prime"], bd["output"])
                      and t["excess"] is None, "the tightest constraint is not the binding one of eps*")
        _constraint(mech, dist, t, lv, sides=True)
    else:
        refute_unless(t is None, "a tightest constraint without a finite positive eps*")
    return m, f"; smallest eps: {d}"


def check(c: dict):
    """Re-check a ``privacy`` or ``epsilon`` certificate; a refuted fact is reported, not raised.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the inequalities decided, and why.

    Examples
    --------
    >>> K = {"name": "K", "inputs": ["a"], "outputs": ["0", "1"], "values": ["1/2"], "codes": [[0, 0]]}
    >>> m = {"description": "a point", "points": 1, "labels": ["a"], "pairs": [], "reduction": "",
    ...      "all_pairs_at": "1", "edges": None, "distances": None}
    >>> ev = {"mechanism": K, "metric": m, "counts": {"pairs": 0, "outputs": 2, "inequalities": 0},
    ...       "epsilon": "0", "enclosure": ["0", "0"], "level": None, "binding": None, "tight": [],
    ...       "tight_count": 0, "lower_bound": None}
    >>> check({"kind": "epsilon", "verdict": "holds", "evidence": ev, "method": "RATIONAL", "precision": None})
    ('confirmed', 0, "no generating pair: eps* = 0; the metric's description 'a point' is a name, not re-derived
    (the metric is the one its carried definition gives)")
    >>> check({"kind": "epsilon", "verdict": "fails", "evidence": ev, "method": "RATIONAL", "precision": None})[:2]
    ('refuted', 0)
    """
    try:
        if c["kind"] == "epsilon":
            return check_epsilon(c["evidence"], c["verdict"], c)
        return check_privacy(c)
    except Refuted as e:
        return REFUTED, 0, str(e)


def claim_text(c: dict) -> str:
    """The claim sentence the checked fields state (the producer, :mod:`exactdp.privacy.dprivacy`, writes it).

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
    >>> ev = {"mechanism": {"name": "RR"}, "metric": {"description": "path on 2 points"},
    ...       "level": {"text": "log(2)"}}
    >>> claim_text({"kind": "privacy", "evidence": ev})
    'RR is eps*d-private with eps = log(2) on the path on 2 points'
    >>> claim_text({"kind": "epsilon", "evidence": ev})
    'the smallest eps for which RR is eps*d-private on the path on 2 points'
    """
    ev = c["evidence"]
    name, where = ev["mechanism"]["name"], ev["metric"]["description"]
    if c["kind"] == "epsilon":
        return f"the smallest eps for which {name} is eps*d-private on the {where}"
    return f"{name} is eps*d-private with eps = {ev['level']['text']} on the {where}"
