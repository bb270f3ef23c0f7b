"""Consistent forgeries of ``all_eps`` certificates (issue 27, item 1): each edits a genuine certificate the way a
forger would -- a set's end, its closure, the mechanism, the level -- and recomputes every field that depends on
the edit (the set's text, the witness, the counts), so only the re-derivation from the mechanism and the metric
can tell.  Every one must be refuted; the genuine certificates beside them stay confirmed.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from exactdp import Mechanism, certify_all_eps, certify_privacy, discrete, geometric, path
from exactdp.mechanisms import randomized_response
from exactdp.recheck import recheck
from exactdp.recheck.all_eps import claim_text, set_text

#: fails on (1/3, 1): output 2 for alpha > 1/3 and outputs 1, 3 for alpha > 1/2 -- 1/2 is a constraint's root
#: inside the failure set
SPLIT = [["1/4", "3/8", "3/8"], ["1/8", "1/8", "3/4"]]
#: fails on (0, 2^(-1/2)) U (root of a cubic, 1): two algebraic ends
TIE = [["1/2", "1/2"], ["alpha^3", "1-alpha^3"]]


def _json(cert) -> dict:
    return json.loads(json.dumps(cert.to_json()))


def _cert(rows, metric) -> dict:
    m = Mechanism.from_rows([str(i) for i in range(len(rows))], [str(j) for j in range(len(rows[0]))], rows)
    return _json(certify_all_eps(m, metric))


def _with_set(c: dict, pieces: list) -> dict:
    """The forger's edit: the pieces and their text together."""
    f = copy.deepcopy(c)
    f["evidence"]["failure_set"] = pieces
    f["evidence"]["failure_set_text"] = set_text(pieces)
    return f


def _piece(lo, hi, lo_closed=False, hi_closed=False) -> dict:
    return {"lo": lo, "hi": hi, "point": lo == hi, "lo_closed": lo_closed, "hi_closed": hi_closed,
            "lo_approx": "", "hi_approx": ""}


def _refuted(c: dict, why: str) -> None:
    r = recheck(c)
    assert r.status == "refuted" and why in r.detail, r.detail


def test_randomized_response_stated_to_fail_at_one_half_is_refuted():
    """The issue's case: RR on 3 categories, p = 1/4, fails for alpha in (1/2, 1) and is private at 1/2."""
    c = _json(certify_all_eps(randomized_response(3, p="1/4"), discrete(3)))
    assert recheck(c).status == "confirmed"
    assert [(p["lo"], p["hi"], p["lo_closed"]) for p in c["evidence"]["failure_set"]] == [("1/2", "1", False)]
    # at 1/2 every constraint holds (exactly): K(x)(z) <= alpha^-1 K(x')(z) with entries 1/2, 1/4
    assert Fraction(1, 2) <= Fraction(1, 4) / Fraction(1, 2)
    _refuted(_with_set(c, [_piece("1/2", "1", lo_closed=True)]), "beside a gap where no constraint fails")


def test_a_zero_width_gap_where_the_mechanism_fails_is_refuted():
    """The issue's case: (1/3, 1/2) U (1/2, 1) although output 2 fails at 1/2 (1/2 is output 1's root)."""
    c = _cert(SPLIT, discrete(2))
    assert recheck(c).status == "confirmed"
    assert c["evidence"]["failure_set_text"] == "(1/3, 1)"
    assert Fraction(3, 8) > Fraction(1, 8) / Fraction(1, 2)        # K(0)(2) > alpha^-1 K(1)(2) at alpha = 1/2
    _refuted(_with_set(c, [_piece("1/3", "1/2"), _piece("1/2", "1")]), "a constraint fails, but the set leaves it out")
    # the same set written with 1/2 in it, closed on either side, is the true set: confirmed
    for lc, hc in ((False, True), (True, False)):
        assert recheck(_with_set(c, [_piece("1/3", "1/2", hi_closed=hc), _piece("1/2", "1", lo_closed=lc)])).ok


def test_touching_pieces_at_a_point_where_nothing_fails_are_refuted():
    """(1/2, 1) glued from two pieces that meet at 3/4 and claim 3/4: refuted (3/4 is no constraint's root, and
    were it one, nothing fails there)."""
    c = _json(certify_all_eps(randomized_response(3, p="1/4"), discrete(3)))
    assert recheck(c).status == "confirmed"
    f = _with_set(c, [_piece("1/2", "3/4", hi_closed=True), _piece("3/4", "1")])
    assert recheck(f).status == "refuted"


@pytest.mark.parametrize("rows, key, why", [(SPLIT, "hi_closed", "closed at alpha = 0 or 1"),
                                             (SPLIT, "lo_closed", "beside a gap"),
                                             (TIE, "lo_closed", "closed at alpha = 0 or 1")])
def test_a_closed_end_is_refuted(rows, key, why):
    """A closed end at 0 or 1 is no alpha in (0, 1); a closed end beside a gap is a point where nothing fails."""
    c = _cert(rows, discrete(2))
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    assert not pieces[0][key]
    pieces[0][key] = True
    _refuted(_with_set(c, pieces), why)


def test_a_point_piece_is_refuted():
    """The failure set is open: a point {1/2} beside (1/3, 1/2) is no failure (1/2 is where output 1 ties)."""
    c = _json(certify_all_eps(randomized_response(3, p="1/4"), discrete(3)))
    f = _with_set(c, [_piece("1/2", "1/2", True, True), _piece("1/2", "1")])
    assert recheck(f).status == "refuted"


def test_the_decimal_beside_an_algebraic_end_is_compared_with_the_root():
    c = _cert(TIE, discrete(2))
    assert recheck(c).status == "confirmed"
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    genuine = pieces[0]["hi"]
    assert genuine.endswith("(~0.707106781187)"), genuine
    pieces[0]["hi"] = genuine.replace("(~0.707106781187)", "(~0.707106781199)")     # 12 units off
    _refuted(_with_set(c, pieces), "not within one unit of its last digit")
    pieces[0]["hi"] = genuine.replace("(~0.707106781187)", "(~0.70710678119)")      # rounded: within a unit
    assert recheck(_with_set(c, pieces)).status == "confirmed"
    pieces[0]["hi"] = genuine.replace("(~0.707106781187)", "(~0.6)")                 # |0.707 - 0.6| > 0.1
    _refuted(_with_set(c, pieces), "not within one unit")


def test_an_end_written_with_a_square_polynomial_is_the_same_number():
    """The end 2^(-1/2) as the root of (2 alpha^2 - 1)^2, a double root: read by its square-free part (no sign
    change at a double root: a bisection by signs would go astray)."""
    c = _cert(TIE, discrete(2))
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    pieces[0]["hi"] = "root of (2*alpha**2 - 1)**2 in [1/2, 3/4] (~0.707106781187)"
    r = recheck(_with_set(c, pieces))
    assert r.status == "confirmed", r.detail


def test_a_changed_mechanism_with_its_witness_recomputed_is_refuted():
    """The forger changes an entry (keeping rows stochastic) and recomputes the witness at the sample: the failure
    set no longer is the mechanism's."""
    c = _cert(SPLIT, discrete(2))
    rows = [["1/4", "3/8", "3/8"], ["1/8", "1/4", "5/8"]]          # output 2 now fails for alpha > 2/3
    g = _cert(rows, discrete(2))
    assert g["evidence"]["failure_set_text"] == "(1/2, 1)"
    f = copy.deepcopy(g)
    f["evidence"]["failure_set"] = copy.deepcopy(c["evidence"]["failure_set"])
    f["evidence"]["failure_set_text"] = c["evidence"]["failure_set_text"]
    f["evidence"]["sample_alpha"] = g["evidence"]["sample_alpha"]
    _refuted(f, "no constraint's root")


def test_a_changed_metric_is_refuted():
    """The holding geometric(2) on the path, restated on the discrete metric (distances 1 instead of 2 between
    the ends), with the counts recomputed: the mechanism fails there."""
    c = _json(certify_all_eps(geometric(2), path(3)))
    d = _json(certify_all_eps(geometric(2), discrete(3)))
    assert c["verdict"] == "holds" and d["verdict"] == "fails"
    f = copy.deepcopy(c)
    f["evidence"]["metric"] = d["evidence"]["metric"]
    f["evidence"]["counts"] = d["evidence"]["counts"]
    f["claim"] = claim_text(f)
    for k in ("distinct", "identically_tight", "sign_decided"):
        f["evidence"][k] = d["evidence"][k]
    assert recheck(f).status == "refuted"


def test_in_particular_states_what_is_checked():
    """The level clause no longer states a fact nobody checks (the entries' regime at the level)."""
    c = _json(certify_privacy(geometric(2), path(3), eps="log(2)/2"))
    assert c["kind"] == "all_eps" and c["claim"].endswith("in particular at eps = log(2)/2 (the statement for every "
                                                          "eps settles it)")
    assert recheck(c).status == "confirmed"
    f = copy.deepcopy(c)
    f["evidence"]["in_particular"] = "-1/2"
    f["claim"] = claim_text(f)
    _refuted(f, "is not an eps > 0")


def test_a_constraint_touching_zero_inside_a_gap_is_decided_exactly():
    """K(0)(a) = 1 - alpha, K(1)(a) = alpha/3 + 1/9: alpha (1 - alpha) <= alpha/3 + 1/9 is (alpha - 1/3)^2 >= 0, a
    double root at 1/3 inside the gap before the failure set (Bernstein coefficients alone leave it undecided; the
    roots are separated by Sturm counts).  Confirmed, and the set moved onto the tangency is refuted."""
    c = _cert([["1-alpha", "alpha"], ["alpha/3+1/9", "8/9-alpha/3"]], discrete(2))
    r = recheck(c)
    assert r.status == "confirmed", r.detail
    pieces = copy.deepcopy(c["evidence"]["failure_set"])
    f = _with_set(c, [_piece("1/3", "1/3", True, True), *pieces])
    assert recheck(f).status == "refuted"
    a = Fraction(1, 3)
    assert a * (1 - a) == a / 3 + Fraction(1, 9)                    # the tangency: equality, no failure at 1/3
