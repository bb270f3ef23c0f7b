"""Re-check ``audit`` certificates: a claimed ``(eps, delta)`` against the plan's exact profile, re-derived.

Only the standard library and this package's kernel.  The profile is re-derived exactly as for a
``composition`` certificate, with :mod:`exactdp.recheck.profile`'s pieces (mechanisms checked, relation
re-derived, each factor's PLD per ordered pair compared, the convolutions counted before any is done and
refused ``not checkable: too large`` beyond that module's limits, the stated pieces checked to be the upper
envelope of every worst-set line).  Then it re-evaluates the profile at the claimed ``eps``
(``delta(eps)``), the smallest ``e^eps`` at the claimed ``delta``, the verdict ``delta(eps) <= delta``, the slack
``delta - delta(eps)``, checks that the stated pair attains ``delta(eps)`` (its own worst set at ``e^eps``), and
rebuilds the claim sentence.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import Refuted, refute_unless
from ._kernel import same
from ._levels import check_level, method_of  # noqa: F401 (the one method rule)
from ._kernel import _add, _neg, level_value, sign, value
from ._dprivacy import LEVEL, MECH
from ._pld import (_at, _base, _check_pieces, _check_query, _convolve, _count_plds, _diff, _factors, _lines, _precount,
                   _relation, _rows, relation_note)
from ._pld import RELATION

CONFIRMED, REFUTED = "confirmed", "refuted"

PLD = {"factor": "int", "x": "str", "x_prime": "str", "losses": [{"ratio": "str", "mass": "str"}]}
PIECE = {"t_from": "str", "A": "str", "B": "str", "x": "str", "x_prime": "str"}
AUDIT = {"factors": [{"mechanism": MECH, "times": "int"}], "relation": RELATION, "plds": [PLD], "pieces": [PIECE],
         "level": LEVEL, "delta": "str", "delta_exact": "str", "slack": "str", "x": "str", "x_prime": "str",
         "t_for_delta": "str", "accountant": "str"}
#: the evidence shape (read by the dispatcher before any work)
EVIDENCE = {"audit": AUDIT}


def claim_text(c: dict) -> str:
    """The claim of an ``audit`` certificate, rebuilt from its evidence.

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
    >>> ev = {"factors": [{"mechanism": {"name": "RR"}, "times": 2}], "level": {"text": "log(3)"}, "delta": "1/3",
    ...       "relation": {"description": "pair (0, 1)"}, "delta_exact": "3/8", "slack": "-1/24"}
    >>> print(claim_text({"evidence": ev}))
    the plan RR x 2 is (eps, delta)-DP with eps = log(3), delta = 1/3 over the pair (0, 1) (exact delta(eps) = 3/8,
    slack -1/24)
    """
    ev = c["evidence"]
    who = "the plan " + " + ".join(f"{f['mechanism']['name']} x {f['times']}" for f in ev["factors"])
    return (f"{who} is (eps, delta)-DP with eps = {ev['level']['text']}, delta = {ev['delta']} over the "
            f"{ev['relation']['description']} (exact delta(eps) = {ev['delta_exact']}, slack {ev['slack']})")


def _run(c: dict) -> int:
    """Re-check an audit certificate (this module's docstring, in order): the profile's pieces as for a composition,
    then the claimed level and delta through the profile's query check, the slack, the attaining pair; returns the
    number of lines compared."""
    ev = c["evidence"]
    facs = _factors(c)
    rows = [_rows(m) for m, _ in facs]
    inputs = facs[0][0]["inputs"]
    refute_unless(all(set(m["inputs"]) == set(inputs) for m, _ in facs), "the mechanisms do not share their inputs")
    plds = _count_plds(ev, inputs, len(facs))
    pairs = _relation(ev["relation"], inputs)
    refute_unless(len(pairs) >= 1, "no neighbouring pair")
    ordered = [o for x, xp in pairs for o in ((x, xp), (xp, x))]
    base, keys = _base(plds, ordered, rows, facs)
    # every convolution's cost counted before any is done (not checkable beyond the limits)
    _precount(base, keys)
    lines_of: dict = {}
    memo: dict = {}
    for o, per in base.items():
        # ordered pairs with the same list of PLDs share one convolution
        if keys[o] not in memo:
            memo[keys[o]] = _lines(*_convolve(per))
        lines_of[o] = memo[keys[o]]
    P = _check_pieces(ev["pieces"], lines_of)
    lv = ev["level"]
    check_level(lv)
    query = {"level": lv, "delta": ev["delta"], "delta_at_eps": ev["delta_exact"], "t_for_delta": ev["t_for_delta"]}
    _check_query(query, P, c["verdict"])          # delta(eps), the smallest e^eps at delta, the verdict
    d, at = value(ev["delta"]), value(ev["delta_exact"])
    refute_unless(same(ev["slack"], _add(d, _neg(at))), f"the slack {ev['slack']} is not delta - delta(eps)")
    wit = (ev["x"], ev["x_prime"])
    refute_unless(wit in lines_of, f"({wit[0]}, {wit[1]}) is not an ordered neighbouring pair")
    t = Fraction(1) if lv["eps"] is None and value(lv["R"]) == 1 else level_value(lv, "1")   # a _P at D > 1
    best = Fraction(0)
    # the stated pair's own delta at e^eps: the largest of its worst-set lines there
    for a, b in lines_of[wit]:
        v = _at(a, b, t)
        if _diff(v, best) > 0:
            best = v
    refute_unless(sign(_add(best, _neg(at))) == 0, f"({wit[0]}, {wit[1]}) does not attain delta(eps)")
    return sum(len(v) for v in lines_of.values())


def check(c: dict):
    """``(status, checked, detail)`` for an ``audit`` certificate: the plan's profile re-derived, exactly.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the facts re-derived, and why.

    Examples
    --------
    >>> check({"kind": "audit", "evidence": {"factors": [{"mechanism": {"name": "RR"}, "times": 0}]}})
    ('refuted', 0, 'times = 0 is not a positive integer')
    """
    try:
        n = _run(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return CONFIRMED, n, (f"{len(c['evidence']['pieces'])} pieces of the plan's profile re-derived against {n} "
                          "worst-set lines; delta(eps), the slack, the attaining pair and the verdict re-evaluated"
                          + relation_note(c["evidence"]["relation"]))
