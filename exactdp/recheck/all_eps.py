"""Re-check ``all_eps`` certificates: symbolic alpha, every eps at once.

The mechanism is checked to be a mechanism for every alpha in (0, 1): each row sums to 1 identically (as a
rational function of alpha) and each entry is ``>= 0`` on [0, 1] (Bernstein coefficients).  Holds: for
every distinct constraint, ``p(alpha) = alpha^-d K(x')(z) - K(x)(z)`` (times positive denominators) is
certified ``>= 0`` on [0, 1] by Bernstein coefficients with subdivision -- a different method from the
checker's root isolation -- and the counts of distinct, identically tight and sign-decided constraints are
re-derived.  Fails: the witness is re-evaluated exactly at the rational sample alpha, which must lie in the
stated failure set; the failure set's text is rebuilt from its pieces, and when every end is rational the
kernel also proves that no constraint fails outside the pieces (Bernstein on each gap), that each end
inside (0, 1) is a root of a constraint and that in each piece one constraint fails throughout (strict
Bernstein positivity once the roots at the ends are divided out): the failure set is then exact.
"""

from __future__ import annotations

from fractions import Fraction

from ._kernel import Refuted, refute_unless
from . import _sturm
from ._kernel import (MAX_DEGREE, NotHere, bernstein_nonneg, eps_sign, fraction, within_limit, pl_add, pl_mul, pl_neg,
                      poly_of, value)
from ._dprivacy import CONSTRAINT, COUNTS, MECH, METRIC, _counts, _setting
from ._failure_set import (MAX_PIECES, PIECE, _ev, _on, _primitive, exact_set, in_set, read_pieces,  # noqa: F401
                           set_text)

CONFIRMED, REFUTED = "confirmed", "refuted"

EVIDENCE = {"all_eps": {"mechanism": MECH, "metric": METRIC, "counts": COUNTS, "distinct": "int",
                        "identically_tight": "int", "sign_decided": "int", "root_power": "int",
                        "failure_set": ("?", [PIECE]), "failure_set_text": "?str", "witness": ("?", CONSTRAINT),
                        "sample_alpha": "?str", "in_particular": "?str"}}
V1 = ("its metric record lists the generating pairs only, not the definition they rest on (edges, distances); "
      "re-certify with a current exactdp for a schema-2 certificate")



def _polys(mech, pairs):
    """Every distinct constraint as ``(a, b, d, P)`` with ``P`` the polynomial of the sign of p, or None when
    ``K(x)(z)`` is identically 0 (the constraint holds trivially)."""
    out, seen = [], set()
    cache: dict = {}
    work = 0

    def _read(code):                                    # each distinct entry parsed once
        if code not in cache:
            cache[code] = poly_of(mech.values[code])
        return cache[code]

    for x, xp, d in pairs:
        dd = value(d)
        if not isinstance(dd, Fraction) or dd.denominator != 1:
            raise NotHere("non-integer distances")
        within_limit(dd <= MAX_DEGREE, f"a distance {d} used as a power of alpha beyond {MAX_DEGREE}")
        for ca, cb in zip(mech.codes[mech.rows[x]], mech.codes[mech.rows[xp]], strict=True):
            for a, b in ((ca, cb), (cb, ca)):
                if (a, b, d) in seen:
                    continue
                seen.add((a, b, d))
                an, ad = _read(a)
                bn, bd = _read(b)
                if not any(an):
                    out.append((a, b, d, None))
                    continue
                # p = b/alpha^d - a has the sign of (bn ad - alpha^d an bd) * ad bd; its products counted as they
                # are built (coefficient operations: about 3 us each here)
                work += len(bn) * len(ad) + len(an) * len(bd) + (len(ad) + len(bd)) * (len(an) + len(bn) + int(dd))
                within_limit(work <= MAX_CONSTRAINT_WORK, f"the constraints' polynomials need more than "
                             f"{MAX_CONSTRAINT_WORK:,} coefficient operations")
                top = pl_add(pl_mul(bn, ad), pl_neg([Fraction(0)] * int(dd) + pl_mul(an, bd)))
                out.append((a, b, d, pl_mul(top, pl_mul(ad, bd))))
    return out


def _nonneg_on_01(p: tuple):
    """``p >= 0`` on [0, 1]: at once when no coefficient is negative, else by Bernstein coefficients."""
    return True if all(c >= 0 for c in p) else bernstein_nonneg(list(p))


def _bernstein_budget(keys) -> None:
    """The Bernstein tests ahead, counted before any: the squared degrees of the distinct polynomials with a
    negative coefficient (a conversion to Bernstein form costs the square of the degree in rational operations)."""
    work = sum(len(k) ** 2 for k in keys if any(c < 0 for c in k))
    within_limit(work <= MAX_BERNSTEIN_TOTAL, f"Bernstein tests of {work:,} squared degrees > {MAX_BERNSTEIN_TOTAL:,}")


def _mechanism_everywhere(mech) -> None:
    """Rows sum to 1 identically in alpha; entries ``>= 0`` on [0, 1] (a mechanism for every alpha).  Each distinct
    entry is read once and decided once (up to the factors of :func:`_primitive`); a row's entries are summed per
    distinct denominator first, so the row's common denominator is the product of its distinct ones only."""
    polys = [poly_of(v) for v in mech.values]
    within_limit(sum(len(n) + len(d) for n, d in polys) <= MAX_POLY_TERMS, f"more than {MAX_POLY_TERMS:,} coefficients "
                 "in the entries")
    keys: dict = {}
    for c, (num, den) in enumerate(polys):
        keys.setdefault(_primitive(pl_mul(num, den)), c)
    _bernstein_budget(keys)
    for key, c in keys.items():
        r = _nonneg_on_01(key)
        if r is not True:
            raise Refuted(f"the entry {mech.values[c]!r} is not shown >= 0 on [0, 1]: not a mechanism") \
                if r is False else NotHere(f"the entry {mech.values[c]!r}: Bernstein did not certify >= 0")
    for i, row in enumerate(mech.codes):
        by_den: dict = {}
        for c in row:
            n2, d2 = polys[c]
            kd = tuple(_sturm.trim(d2))
            by_den[kd] = pl_add(by_den.get(kd, [Fraction(0)]), n2)
        num, den = [Fraction(0)], [Fraction(1)]
        for d2, n2 in by_den.items():
            num, den = pl_add(pl_mul(num, list(d2)), pl_mul(n2, den)), pl_mul(den, list(d2))
            within_limit(len(den) <= MAX_DEGREE, f"a row of degree {len(den)} > {MAX_DEGREE}")
        refute_unless(not any(pl_add(num, pl_neg(den))), f"row {i} does not sum to 1 identically in alpha: not a "
                      "mechanism")


def _gaps(mech, pairs, pieces, ends):
    """:func:`exact_set` on the mechanism's constraints."""
    return exact_set([p for _, _, _, p in _polys(mech, pairs) if p is not None], pieces, ends)


def _check_fails(ev: dict, mech, pairs, dist):
    w, alpha = ev["witness"], fraction(ev["sample_alpha"])
    pieces = ev["failure_set"]
    refute_unless(w is not None and pieces, "a failing certificate without witness or failure set")
    refute_unless(ev["failure_set_text"] == set_text(pieces), "the failure set's text is not its pieces")
    refute_unless(dist.get((w["x"], w["x_prime"])) == w["distance"], "the witness is not at a generating pair")
    refute_unless(mech.entry_text(w["x"], w["output"]) == w["K_x"] and
                  mech.entry_text(w["x_prime"], w["output"]) == w["K_x_prime"], "the witness's entries are not the "
                  "mechanism's")
    d = value(w["distance"])
    if not isinstance(d, Fraction) or d.denominator != 1:
        raise NotHere("a non-integer distance")
    within_limit(d <= MAX_DEGREE, f"a distance {d} used as a power of alpha")
    a, b = value(w["K_x"], alpha), value(w["K_x_prime"], alpha)
    if not isinstance(a, Fraction) or not isinstance(b, Fraction):
        raise NotHere("entries that are not rational functions of alpha")
    rhs = b / alpha ** int(d)
    refute_unless(str(a) == w["lhs"] and str(rhs) == w["rhs"] and w["excess"] == str(a - rhs),
                  "the witness's sides are not its entries at the sample alpha")
    refute_unless(a > rhs, f"at alpha = {alpha} the witness holds: {a} <= {rhs}")
    ends = read_pieces(pieces)
    refute_unless(in_set(alpha, pieces, ends), f"the sample alpha = {alpha} is not in the failure set")
    _distinct(ev, _polys(mech, pairs))
    n, extra = _gaps(mech, pairs, pieces, ends)
    return CONFIRMED, n, (f"at alpha = {alpha}: K(x)(z) = {a} > alpha^-d K(x')(z) = {rhs}; sample in the failure "
                          f"set{extra}")


#: coefficient operations building the constraints' polynomials (geometric(150): about 700,000, 2 s)
MAX_CONSTRAINT_WORK = 2_500_000
#: squared degrees of the distinct polynomials certified by Bernstein coefficients in one re-check
MAX_BERNSTEIN_TOTAL = 1_000_000
#: coefficients of the mechanism's entries read as polynomials in alpha (numerators and denominators)
MAX_POLY_TERMS = 2_000_000
def _distinct(ev: dict, polys: list) -> None:
    """The counts of distinct, identically tight and sign-decided constraints, re-derived."""
    n = len(polys)
    zero_a = sum(P is None for *_, P in polys)
    zero_p = sum(P is not None and not any(P) for *_, P in polys)
    refute_unless((ev["distinct"], ev["identically_tight"], ev["sign_decided"]) == (n, zero_p, n - zero_a - zero_p),
                  f"{n} distinct constraints, {zero_p} identically tight, {n - zero_a - zero_p} decided; the "
                  "certificate "
                  f"says {ev['distinct']}, {ev['identically_tight']}, {ev['sign_decided']}")


def _check_holds(ev: dict, mech, pairs):
    refute_unless(ev["witness"] is None and ev["failure_set"] == [] and ev["failure_set_text"] == "{}"
                  and ev["sample_alpha"] is None, "a holding certificate with a failure set")
    polys = _polys(mech, pairs)
    _distinct(ev, polys)
    keys: dict = {}
    for a, b, d, P in polys:
        if P is not None and any(P):
            keys.setdefault(_primitive(P), (a, b, d))
    _bernstein_budget(keys)
    for key, (a, b, d) in keys.items():
        r = _nonneg_on_01(key)
        if r is None and len(key) - 1 <= _sturm.MAX_POLY_DEGREE:   # even-multiplicity roots: Sturm decides
            r = _sturm.nonneg_on(list(key), Fraction(0), Fraction(1))
        if r is False:
            raise Refuted(f"constraint {mech.values[a]} <= alpha^-{d} ({mech.values[b]}) fails on [0, 1]")
        if r is None:
            raise NotHere(f"Bernstein subdivision did not certify {mech.values[a]} <= alpha^-{d} "
                          f"({mech.values[b]}) (a root of even multiplicity inside (0, 1)?)")
    n = len(polys)
    return CONFIRMED, n, f"{n} distinct constraints certified >= 0 on [0, 1] by Bernstein coefficients"


def check(c: dict):
    """Re-check an ``all_eps`` certificate: privacy for every eps > 0 (entries polynomials in alpha), exactly.

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
    >>> K = {"name": "K", "inputs": ["a", "b"], "outputs": ["0"], "values": ["1"], "codes": [[0], [0]]}
    >>> m = {"description": "a point", "points": 1, "labels": ["a"], "pairs": [], "reduction": "",
    ...      "all_pairs_at": "1", "edges": None, "distances": None}
    >>> check({"kind": "all_eps", "evidence": {"mechanism": K, "metric": m}})
    ('refuted', 0, "the mechanism's inputs are not the metric's points")
    """
    ev = c["evidence"]
    try:
        mech, pairs, dist, note = _setting(ev, symbolic_ok=True)
        _counts(ev, mech, pairs)
        refute_unless(ev["root_power"] == 1, "entries are polynomials in alpha itself: root_power is 1")
        refute_unless(c["method"] == "SYMBOLIC_ROOTS" and c["precision"] is None, "the method of a statement for every "
                      "eps is symbolic alpha (SYMBOLIC_ROOTS), without a precision")
        _mechanism_everywhere(mech)
        refute_unless(ev["in_particular"] is None or eps_sign(ev["in_particular"]) > 0,
                      f"the level {ev['in_particular']!r} is not an eps > 0")
        if c["verdict"] == "fails":
            s, n, d = _check_fails(ev, mech, pairs, dist)
            if ev["in_particular"] is not None:
                fs = ev["failure_set"]
                refute_unless(len(fs) == 1 and not fs[0]["point"] and fs[0]["lo"] == "0" and fs[0]["hi"] == "1",
                              "a failure for one eps is claimed from a failure set that is not all of (0, 1)")
        else:
            s, n, d = _check_holds(ev, mech, pairs)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return s, n, d + note


def claim_text(c: dict) -> str:
    """The claim sentence the checked fields state (the producer, :mod:`exactdp.privacy.all_eps`, writes it).

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
    >>> ev = {"mechanism": {"name": "geometric"}, "metric": {"description": "path on 3 points"}, "in_particular": None}
    >>> claim_text({"evidence": ev})
    'geometric is eps*d-private for every eps > 0 on the path on 3 points'
    """
    ev = c["evidence"]
    s = f"{ev['mechanism']['name']} is eps*d-private for every eps > 0 on the {ev['metric']['description']}"
    if ev["in_particular"] is not None:
        s += f"; in particular at eps = {ev['in_particular']} (the statement for every eps settles it)"
    return s
