"""The re-check of solves at transcendental levels on a verified quotient (exactdp.recheck._verified).

The instances have more than 60 points, so the re-check cannot fall back on its interval elimination: it must
verify the partition itself, enclose the quotient and redo Rump's bound from the certificate's y~ and R.
"""

import copy
import math
from fractions import Fraction
from itertools import product

import mpmath
import numpy as np
import pytest
from flint import fmpq

from exactdp.exact.level import Level
from exactdp.metrics import grid, hamming
from exactdp.recheck import recheck
from exactdp.recheck._verified import Refuted, enclose_quotient, quotient
from exactdp.priors.regular import regular_prior, tight_constraints
from exactdp.priors.threshold import threshold

GRID = grid((9, 9), "euclidean")          # 81 points, 15 cells under the square's 8 symmetries


@pytest.fixture(scope="module")
def certs():
    return {"fails": tight_constraints(GRID, Level.from_eps("1/2")),
            "holds": tight_constraints(GRID, Level.from_eps("3/2")),
            "bracket": threshold(GRID, width=fmpq(1, 10**6))}


def _float_z(eps: float) -> np.ndarray:
    """An independent float guide: z = Phi^-1 1 on all 81 points (numpy), Euclidean distances."""
    pts = [(r, c) for r in range(9) for c in range(9)]
    D = np.array([[math.hypot(a[0] - b[0], a[1] - b[1]) for b in pts] for a in pts])
    return np.linalg.solve(np.exp(-eps * D), np.ones(len(pts)))


@pytest.mark.parametrize("which, eps", [("fails", 0.5), ("holds", 1.5)])
def test_confirmed_and_agrees_with_an_independent_float_solve(certs, which, eps):
    c = certs[which]
    assert len(c.evidence.verified.center.mantissas) == 15 < 81 == len(c.evidence.distances.points)
    r = c.recheck()
    assert r.status == "confirmed" and "15-cell quotient" in r.detail, r.detail
    z = _float_z(eps)
    assert np.abs(z).min() > 1e-6                     # far from a tie: the float signs are reliable here
    want = [GRID.points[i] for i in np.flatnonzero(z < 0)]
    assert c.evidence.negative == want and (c.holds is True) == (not want)


def test_bracket_confirmed_at_both_ends(certs):
    c = certs["bracket"]
    ev = c.evidence
    assert ev.route == "bracket" and ev.ends.lo.inverse is None and ev.ends.hi.inverse is not None
    r = c.recheck()
    assert r.status == "confirmed" and "both ends" in r.detail, r.detail
    lo, hi = float(Fraction(ev.lo_rational)), float(Fraction(ev.hi_rational))
    assert _float_z(hi).min() > 0 > _float_z(lo).min()           # the float guide agrees on both sides


def _tampered(c, fn):
    """The re-check of ``c`` with its evidence changed by ``fn`` and its claim rebuilt from the changed evidence."""
    from exactdp.recheck.priors import claim_text

    j = copy.deepcopy(c.to_json())
    fn(j["evidence"])
    j["claim"] = claim_text(j)
    return recheck(j)


def _named(tamper):
    """``tamper``, with the metric's description replaced by a name the kernel does not rebuild (so the check
    that the table is the described grid does not catch the change first)."""
    def fn(ev):
        tamper(ev)
        ev["description"] = "a table of my own"
    return fn


def _move_point(ev, key="verified"):
    cells = ev[key]["cell_of"] if key == "verified" else ev["ends"]["hi"]["cell_of"]
    i = next(i for i, a in enumerate(cells) if cells.count(a) > 1)
    cells[i] = (cells[i] + 1) % (max(cells) + 1)


def _change_distance(ev, symmetric=True):
    codes = ev["distances"]["codes"]
    new = (codes[0][1] + 1) % len(ev["distances"]["values"]) or 1
    codes[0][1] = new
    if symmetric:
        codes[1][0] = new


@pytest.mark.parametrize("tamper, msg", [
    (_move_point, "not equitable"),
    (_change_distance, "is not the carried table's"),
    (_named(_change_distance), "not equitable"),
    (lambda ev: _change_distance(ev, symmetric=False), "not symmetric"),
    (lambda ev: ev.__setitem__("negative", []), "certified negative"),
])
def test_tampered_tight_certificate_is_refuted(certs, tamper, msg):
    r = _tampered(certs["fails"], tamper)
    assert r.status == "refuted" and msg in r.detail, r.detail


def _flip_negative_cell(ev):
    """y~ with the sign of one negative cell flipped: the claim 'negative there' no longer follows from y~."""
    ver = ev["verified"]
    neg_cell = ver["cell_of"][ev["distances"]["points"].index(ev["negative"][0])]
    m = ver["center"]["mantissas"]
    m[neg_cell] = str(-int(m[neg_cell]))


@pytest.mark.parametrize("tamper, msg", [
    # the enclosure always contains the true solution: a wrong y~ only widens it (the residual grows by the
    # change), so the flipped coordinate is no longer separated from 0 -- not checkable, never a wrong sign
    (_flip_negative_cell, "not separated from 0"),
    # a bad approximate inverse: ||I - R Q|| is not certified < 1 (R Q is about 4 I)
    (lambda ev: ev["verified"]["inverse"].__setitem__("exp", ev["verified"]["inverse"]["exp"] + 2), "inverse"),
])
def test_bad_approximations_are_not_checkable(certs, tamper, msg):
    r = _tampered(certs["fails"], tamper)
    assert r.status == "not checkable" and msg in r.detail, r.detail


def _other_point_at_lo(ev):
    ev["negative_at_lo"] = "4,4"            # the centre: z > 0 there at both ends (float guide: far from 0)


@pytest.mark.parametrize("tamper, msg", [
    (lambda ev: _move_point(ev, "ends"), "different partitions"),
    (_change_distance, "is not the carried table's"),
    (_named(_change_distance), "not equitable"),
    (_other_point_at_lo, "NOT confirmed"),
    (lambda ev: ev.update(lo_rational=ev["hi_rational"], hi_rational=ev["lo_rational"]), "0 < lo < hi"),
    (lambda ev: ev.update(lo="0.5"), "0 < lo < hi"),
])
def test_tampered_bracket_is_refuted(certs, tamper, msg):
    r = _tampered(certs["bracket"], tamper)
    assert r.status == "refuted" and msg in r.detail, r.detail


def test_bracket_without_verified_ends_says_why(certs):
    r = _tampered(certs["bracket"], lambda ev: ev.update(ends=None))
    assert r.status == "not checkable" and "no verified solves" in r.detail


# ---- a regular prior that is not constant on the metric's symmetry classes: the partition is refined by it ----
P = {"a": Fraction(1, 2), "b": Fraction(3, 10), "c": Fraction(1, 5)}
H = hamming(["a", "b", "c"], 4)                                    # 81 points, one orbit under its symmetries
PRIOR = {",".join(w): str(math.prod(P[v] for v in w)) for w in product("abc", repeat=4)}


@pytest.mark.parametrize("eps, want", [("1", False), ("6/5", True)])
def test_regular_prior_on_the_refined_quotient(eps, want):
    # closed form (Kronecker): Phi = Phi_1^(x)4, pi = p^(x)4, mu = nu^(x)4 with nu_v = (p_v - a/(1+2a))/(1-a):
    # regular iff min p >= a/(1 + 2a) iff a <= 1/3 iff eps >= log 3 = 1.0986...
    assert (float(Fraction(eps)) >= math.log(3)) is want
    pi = [PRIOR[p] for p in H.points]
    c = regular_prior(pi, H, Level.from_eps(eps))
    assert c.holds is want
    cells = c.evidence.verified.cell_of
    assert len(set(cells)) == 15                     # multisets of 4 values out of 3: C(6, 2)
    r = c.recheck()
    assert r.status == "confirmed" and "15-cell quotient" in r.detail, r.detail

    def swap_prior(ev):                 # a point of a 4-point cell gets the probability of 'a,a,a,a' (a 1-point cell)
        i = H.points.index("a,a,a,b")
        assert cells.count(cells[i]) == 4 and cells.count(cells[0]) == 1
        ev["prior"][i], ev["prior"][0] = ev["prior"][0], ev["prior"][i]
    r = _tampered(c, swap_prior)
    assert r.status == "refuted" and "not constant" in r.detail, r.detail


# ---- the kernel's pieces ----
def test_quotient_checks_equitability_and_symmetry():
    codes = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]                         # a path of 3 points
    k, counts, rhs_q = quotient(codes, [0, 1, 0], [1, 2, 1], 3)
    assert k == 2 and counts[0] == {(0, 0): 1, (1, 1): 1, (0, 2): 1} and rhs_q == [1, 2]
    with pytest.raises(Refuted, match="not equitable"):
        quotient(codes, [0, 0, 1], [1, 1, 1], 3)
    with pytest.raises(Refuted, match="not constant"):
        quotient(codes, [0, 1, 0], [1, 2, 3], 3)
    with pytest.raises(Refuted, match="not symmetric"):
        quotient([[0, 1, 2], [1, 0, 1], [1, 1, 0]], [0, 1, 2], [1, 1, 1], 3)
    with pytest.raises(Refuted, match="empty cell"):
        quotient(codes, [0, 2, 0], [1, 1, 1], 3)
    with pytest.raises(Refuted, match="sizes"):
        quotient(codes, [0, 1], [1, 1, 1], 3)
    for bad in ([[0, 1, -1], [1, 0, 1], [-1, 1, 0]], [[0, 1, 3], [1, 0, 1], [3, 1, 0]],
                [[0, 1, 2.0], [1, 0, 1], [2.0, 1, 0]]):
        with pytest.raises(Refuted, match="distance code is not an integer"):    # -1 would index from the end
            quotient(bad, [0, 1, 0], [1, 1, 1], 3)


def test_enclosure_of_the_quotient_contains_the_true_entries():
    codes = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    k, counts, _ = quotient(codes, [0, 1, 0], [1, 1, 1], 3)
    Qlo, Qhi = enclose_quotient({"eps": "1/2"}, ["0", "sqrt(2)", "inf"], k, counts)
    mpmath.mp.prec = 300
    try:
        e = mpmath.exp(-mpmath.sqrt(2) / 2)
        true = [[1, e], [2 * e, 1]]                                     # Q[A][B] = sum over b in B of phi_ab
        for A in range(2):
            for B in range(2):
                v = true[A][B] * mpmath.mpf(2) ** 110
                assert Qlo[A][B] <= v <= Qhi[A][B] and Qhi[A][B] - Qlo[A][B] <= 2
    finally:
        mpmath.mp.prec = 53


def test_large_quotients_carry_no_inverse_and_say_why(monkeypatch):
    import exactdp.priors.regular as regular
    from exactdp.metrics import path

    monkeypatch.setattr(regular, "MAX_CARRIED_INVERSE", 10)          # path(70): 35 cells under its reflection
    c = tight_constraints(path(70), Level.from_eps("1/2"))
    assert c.holds is True and c.evidence.verified.inverse is None and c.evidence.verified.center is None
    r = c.recheck()
    assert r.status == "not checkable" and "70 > 60 points" in r.detail, r.detail


@pytest.mark.parametrize("level", [Level.from_alpha("1/2"), Level.from_eps("1/2")])   # exact route; quotient route
def test_tampered_distances_are_refuted_never_a_crash(level):
    from exactdp.metrics import path

    j = tight_constraints(path(70), level).to_json()
    assert recheck(j).status == "confirmed"
    dist = j["evidence"]["distances"]
    zero = dist["values"].index("0")
    one = dist["values"].index("1")

    def code(c):                      # point 0's distance to point 1 and back, symmetric
        def f(d):
            d["codes"][0][1] = d["codes"][1][0] = c
        return f

    def value(i, v):
        def f(d):
            d["values"][i] = v
        return f

    def diagonal(d):
        d["codes"][0][0] = one

    cases = [(code(-1), "distance code is not an integer"), (code(len(dist["values"])), "distance code"),
             (code(zero), "distinct points at distance 0"), (value(one, "-100000"), "negative distance"),
             (value(one, "1/0"), "malformed evidence"), (diagonal, "non-zero distance from itself")]
    for mutate, msg in cases:
        t = copy.deepcopy(j)
        mutate(t["evidence"]["distances"])
        r = recheck(t)
        assert r.status == "refuted" and msg in r.detail, (msg, r.status, r.detail)
