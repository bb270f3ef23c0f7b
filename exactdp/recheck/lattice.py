"""Re-check ``lattice_composition`` certificates: the k-fold PLD as a polynomial power in Python integers.

Only the standard library and this package's kernel core.  From the JSON alone it

1. checks every carried mechanism is one (entries ``>= 0``, rows summing to exactly 1; entries rational or in one
   field ``Q(u)``, ``u = e^(1/L)``, else *not checkable*) and that the factors share their inputs;
2. re-derives the neighbour relation (the pairs at distance exactly 1 of the carried metric, or the given list)
   and checks one stated lattice step ``b > 1`` per ordered pair;
3. re-derives every factor's privacy-loss ratios ``P(y)/Q(y)`` per ordered pair and checks each is
   ``c b^n`` exactly (``c`` the smallest ratio, ``n >= 0`` an integer; the float logarithm only guesses ``n``,
   ``b^n == r/c`` decides; in ``Q(u)`` it is an identity of Laurent polynomials in ``u``);
4. counts the cost -- bits per packed coefficient times the degree of the composed polynomial -- and answers
   ``not checkable: too large`` beyond :data:`MAX_PACKED_BITS` before multiplying anything;
5. raises each factor's integer polynomial to its run count by Kronecker substitution (the coefficients packed
   into one integer, slots wide enough for the largest possible coefficient, then ``pow``: Python's
   multiplication is Karatsuba), multiplies the factors, and unpacks the composed PLD (Sommer, Meiser,
   Mohammadi, PoPETs 2019, Thm. 1: ratios and masses multiply);
6. reads ``delta = A - e^eps B`` of each ordered pair off the worst set ``{n : C b^n > e^eps}`` (HLM15 Def. 1;
   the threshold found by bisection with the kernel's exact comparison of a rational with ``e^eps``), takes the
   maximum exactly, and compares the stated exact value, the pair attaining it, the enclosure and the verdict.
"""

from __future__ import annotations

import ast
import math
from fractions import Fraction

from ._levels import ENCLOSURE_WIDTH, check_level, method_of  # noqa: F401 (the one method rule)
from ._pld import _relation, _rows
from ._kernel import (_E, NotHere, Refuted, TooLarge, _add, _div, _mul, _neg, compare, fraction,
                      level_value, refute_unless, sign, value)

CONFIRMED, REFUTED = "confirmed", "refuted"

#: most bits of one packed polynomial power (slot bits x (degree + 1)), summed over the distinct ordered pairs.
#: Measured on the 2-core development machine (benchmarks/lattice_recheck.py): randomized response with
#: e^eps0 = 3 at k = 1000 packs 3.0e6 bits and re-checks in ~0.5 s, at k = 3000 2.7e7 bits took 14 s (the
#: power's time grows as bits^1.6, Karatsuba); 8e6 bits (k ~ 1600 there) keep a re-check to ~2-3 s
MAX_PACKED_BITS = 8_000_000
#: largest exponent ``n`` of one ratio ``c b^n`` (the degree of one factor's polynomial)
MAX_DEGREE = 100_000
#: most runs of one factor
MAX_TIMES = 100_000
#: most (factor, ordered pair) PLDs re-derived
MAX_PLDS = 20_000
ROUTES = ("lattice-exact", "lattice-balls")

# ----------------------------------------------------------------------------------------- the shape ----
_MECH = {"name": "str", "inputs": ["str"], "outputs": ["str"], "values": ["str"], "codes": [["int"]]}
_METRIC = {"description": "str", "points": "int", "labels": ["str"], "pairs": [["str"]], "reduction": "str",
           "all_pairs_at": "?str", "edges": ("?", [["str"]]),
           "distances": ("?", {"values": ["str"], "codes": [["int"]]})}
_LEVEL = {"text": "str", "eps": "?str", "R": "?str", "D": "?str"}
_PAIR = {"x": "str", "x_prime": "str"}
#: the evidence, read strictly by the dispatcher before any work (:mod:`._schema`)
EVIDENCE = {"lattice_composition": {
    "factors": [{"mechanism": _MECH, "times": "int"}],
    "relation": {"description": "str", "metric": ("?", _METRIC), "pairs": [_PAIR]},
    "steps": [{"x": "str", "x_prime": "str", "step": "str"}], "level": _LEVEL, "route": "str",
    "delta_at_eps": "?str", "enclosure": ["str"], "pair": ("?", _PAIR), "delta": "?str"}}


# -------------------------------------------------------------------------------------------- claim ----
def claim_text(c: dict) -> str:
    """The claim of a ``lattice_composition`` certificate, rebuilt from its evidence.

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
    >>> ev = {"factors": [{"mechanism": {"name": "RR"}, "times": 3}], "relation": {"description": "pair (0, 1)"},
    ...       "level": {"text": "0"}, "delta": None, "route": "lattice-exact", "enclosure": ["0.6875", "0.6875"]}
    >>> claim_text({"evidence": ev})[-60:]
    'he pair (0, 1) is the stated exact value in [0.6875, 0.6875]'
    """
    ev = c["evidence"]
    who = "the composition of " + ", ".join(
        f"{f['mechanism']['name']} ({'once' if f['times'] == 1 else str(f['times']) + ' times'})"
        for f in ev["factors"])
    rel, lvl = ev["relation"]["description"], ev["level"]["text"]
    if ev["delta"] is not None:
        return f"{who} is (eps, delta)-DP with eps = {lvl}, delta = {ev['delta']} over the {rel}"
    what = "the stated exact value" if ev["route"] == "lattice-exact" else "a number"
    enc = ev["enclosure"]
    if not (isinstance(enc, list) and len(enc) == 2):
        raise ValueError("the enclosure is not [lo, hi]")
    return f"the smallest delta of {who} at eps = {lvl} over the {rel} is {what} in [{enc[0]}, {enc[1]}]"


# ------------------------------------------------------------------------------------------ lattice ----
def _log(q: Fraction) -> float:
    """``log q`` as a float, from numerator and denominator separately (no overflow for huge fractions); it only
    guesses a lattice exponent that :func:`_power_of` then checks exactly."""
    return math.log(q.numerator) - math.log(q.denominator)


def _power_of(r: Fraction, b: Fraction) -> int | None:
    """The integer ``n >= 0`` with ``b^n == r`` (``b > 1``), or None; the float log only guesses ``n``."""
    if r < 1:
        return None
    guess = round(_log(r) / _log(b))
    if guess > MAX_DEGREE + 1:
        raise TooLarge(f"a loss ratio at lattice exponent about {guess} > {MAX_DEGREE}")
    # the float only guesses n (and its neighbours); b^n == r in fractions decides, so a float error could only refuse a
    # ratio, never accept a wrong one
    for n in (guess, guess - 1, guess + 1):
        if 0 <= n <= MAX_DEGREE and b ** n == r:
            return n
    return None


def _factor_poly(P: list, Q: list, b: Fraction, where: str):
    """``(inf, c, den, coeffs)``: the P-mass where Q = 0, the smallest ratio, and the finite PLD as the integer
    polynomial ``sum coeffs[n] x^n`` over ``den`` (``P(ratio c b^n) = coeffs[n] / den``); refuted unless every
    ratio lies on the lattice."""
    inf = Fraction(0)
    atoms = []
    for p, q in zip(P, Q, strict=True):
        if p == 0:
            continue
        if q == 0:
            inf += p
        else:
            atoms.append((p / q, p))
    if not atoms:
        return inf, Fraction(1), 1, []
    # every ratio must be c b^n with n >= 0 an integer, c the smallest: the PLD is then the polynomial sum_n P(ratio c
    # b^n) x^n, whose k-th power is the k-fold composition
    c = min(r for r, _ in atoms)
    terms: dict = {}
    for r, p in atoms:
        n = _power_of(r / c, b)
        refute_unless(n is not None, f"{where}: the loss ratio {r} is not c*b^n with c = {c}, b = {b}")
        terms[n] = terms.get(n, Fraction(0)) + p
    den = math.lcm(*(m.denominator for m in terms.values()))
    coeffs = [0] * (max(terms) + 1)
    for n, m in terms.items():
        coeffs[n] = m.numerator * (den // m.denominator)
    return inf, c, den, coeffs


def _pack(coeffs: list, nbytes: int) -> int:
    """Kronecker substitution: the non-negative ``coeffs`` as one integer, ``nbytes`` bytes per slot, lowest first.
    Exact only if every coefficient fits its slot; the callers size the slots for the largest coefficient the
    product can reach (step 4), so no slot carries into the next."""
    return int.from_bytes(b"".join(a.to_bytes(nbytes, "little") for a in coeffs), "little")


def _unpack(X: int, nbytes: int, count: int) -> list:
    """The ``count`` slots of ``nbytes`` bytes of ``X`` (the inverse of :func:`_pack` for slots that did not
    overflow)."""
    raw = X.to_bytes(nbytes * count, "little")
    return [int.from_bytes(raw[i * nbytes:(i + 1) * nbytes], "little") for i in range(count)]


def _cost(polys: list) -> tuple[int, int]:
    """``(slot bytes, degree)`` of the composed polynomial: a coefficient is at most the product of the
    denominators (the masses sum to at most 1), so ``bits(prod den_i^k_i) + 1`` bits hold it."""
    bits = sum(k * den.bit_length() for _, _, den, co, k in polys) + 1
    deg = sum(k * (len(co) - 1) for _, _, _, co, k in polys)
    return bits // 8 + 1, deg


def _compose(polys: list, nbytes: int, deg: int) -> list:
    """The coefficients of ``prod_i F_i(x)^(k_i)`` by Kronecker substitution (one big integer per factor)."""
    X = 1
    for _, _, _, co, k in polys:
        X *= pow(_pack(co, nbytes), k)
    return _unpack(X, nbytes, deg + 1)


def _pair_delta(polys: list, b: Fraction, E, nbytes: int, deg: int):
    """``(A, B)`` with ``delta = A - e^eps B`` for one ordered pair (exact rationals)."""
    keep = Fraction(1)
    for inf, _, _, _, k in polys:
        keep *= (1 - inf) ** k
    inf_tot = 1 - keep
    if any(not co for _, _, _, co, _ in polys):         # a factor with all of its mass at Q = 0
        return Fraction(1), Fraction(0)
    M = _compose(polys, nbytes, deg)
    den = 1
    C = Fraction(1)
    for _, c, d, _, k in polys:
        den *= d ** k
        C *= c ** k
    # the worst set is {n : C b^n > e^eps}; C b^n increases with n, so bisect for its first n
    lo, hi = 0, deg + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if compare(C * b ** mid, Fraction(1), E) > 0:
            hi = mid
        else:
            lo = mid + 1
    if lo > deg:
        return inf_tot, Fraction(0)
    A_int = sum(M[lo:])
    # B = sum_{n >= lo} M_n / (den C b^n) = S / (den C bn^deg) with S = sum M_n bd^n bn^(deg - n), integers
    bn, bd = b.numerator, b.denominator
    w = bd ** lo * bn ** (deg - lo)
    S = 0
    for n in range(lo, deg + 1):
        S += M[n] * w
        if n < deg:
            w = w // bn * bd
    return inf_tot + Fraction(A_int, den), Fraction(S, den * bn ** deg) / C


# ------------------------------------------------------------------ entries in Q(u), u = e^(1/L) ----
# A mechanism whose entries are quotients of sums c e^r (r rational) lives in Q(u) with u = e^(1/L), L the common
# denominator of the exponents; u is transcendental (Lindemann), so an identity of Laurent polynomials in u is an
# identity of numbers and the lattice checks below are polynomial identities.  Polynomials are dicts
# exponent -> int (or Fraction before clearing denominators).

#: largest common denominator L of the exponents (u = e^(1/L))
MAX_L = 64


def _pm(p: dict, q: dict) -> dict:
    """The product of two sparse polynomials ``{exponent: coefficient}``, exact, zeros dropped."""
    out: dict = {}
    for i, a in p.items():
        for j, b in q.items():
            out[i + j] = out.get(i + j, 0) + a * b
    return {k: v for k, v in out.items() if v}


def _pa(p: dict, q: dict, sgn: int = 1) -> dict:
    """``p + sgn q`` for sparse polynomials, zeros dropped."""
    out = dict(p)
    for k, v in q.items():
        out[k] = out.get(k, 0) + sgn * v
    return {k: v for k, v in out.items() if v}


def _pp(p: dict, k: int) -> dict:
    """``p^k`` for a sparse polynomial by repeated squaring, exact."""
    out: dict = {0: 1}
    base = p
    while k:
        if k & 1:
            out = _pm(out, base)
        k >>= 1
        if k:
            base = _pm(base, base)
    return out


def _shift(p: dict, m: int) -> dict:
    """``p`` times ``x^m``: every exponent shifted by ``m``."""
    return {i + m: v for i, v in p.items()}


def _exponents(v) -> list:
    """The exponents r of the terms c e^r of a kernel value; NotHere unless every exponent is rational."""
    if isinstance(v, Fraction):
        return []
    if not isinstance(v, _E):
        raise NotHere("an entry outside Q(e^r): not a value of the lattice re-check")
    out = []
    for key in list(v.num) + list(v.den):
        if key == ():
            continue
        if len(key) != 1 or key[0][0] != 1:
            raise NotHere("an entry with an irrational exponent: outside this re-check")
        out.append(key[0][1])
    return out


def _laurent(d: dict, L: int) -> dict:
    """``{key: c}`` of an :class:`_E` side as a Laurent polynomial in ``u = e^(1/L)``."""
    out: dict = {}
    for key, c in d.items():
        j = 0 if key == () else key[0][1] * L
        # j is an int or a Fraction already read by value(): two arguments never parse text
        refute_unless(Fraction(j, 1).denominator == 1, "an exponent off the common denominator")  # pragma: no cover
        out[int(j)] = out.get(int(j), 0) + c
    return {k: v for k, v in out.items() if v}


def _to_E(p: dict, L: int) -> dict:
    """A Laurent polynomial ``{j: c}`` in ``u = e^(1/L)`` as an :class:`_E` side: ``c e^(j/L)`` terms (key () for j =
    0)."""
    return {(() if j == 0 else ((1, Fraction(j, L)),)): Fraction(c, 1) for j, c in p.items()}


def _kval(num: dict, den: dict, L: int):
    """A kernel value ``num(u) / den(u)``."""
    if not num:
        return Fraction(0)
    return _E(_to_E(num, L), _to_E(den, L))


def _field_factor(rows: dict, L: int) -> tuple[dict, dict]:
    """``(numerators, den)``: every entry of one mechanism as ``n_y(u) / den(u)`` with integer polynomials ``n_y``
    (exponents >= 0) and one Laurent ``den`` -- the product of the distinct entry denominators, cleared of
    rational coefficients and shifted."""
    pairs: dict = {}
    for x, row in rows.items():
        for y, v in enumerate(row):
            if isinstance(v, Fraction):
                pairs[(x, y)] = ({0: v} if v else {}, {0: Fraction(1)})
            else:
                pairs[(x, y)] = (_laurent(v.num, L), _laurent(v.den, L))
    dens: list = []
    for _, D in pairs.values():
        if D not in dens:
            dens.append(D)
    if len(dens) > 8:
        raise TooLarge("more than 8 distinct entry denominators in one mechanism")
    Dc: dict = {0: Fraction(1)}
    for D in dens:
        Dc = _pm(Dc, D)
    nums = {}
    for key, (N, D) in pairs.items():
        mult: dict = {0: Fraction(1)}
        for D2 in dens:
            if D2 is not D and D2 != D:
                mult = _pm(mult, D2)
        nums[key] = _pm(N, mult)
    coeffs = [c for p in nums.values() for c in p.values()] + list(Dc.values())
    scale = math.lcm(*(Fraction(c, 1).denominator for c in coeffs))
    low = min((i for p in nums.values() for i in p), default=0)
    nums = {k: {i - low: int(c * scale) for i, c in p.items()} for k, p in nums.items()}
    den = {i - low: int(c * scale) for i, c in Dc.items()}
    return nums, den


def _strip(p: dict) -> tuple[int, dict]:
    """``(a, p / x^a)`` with ``a`` the lowest exponent of ``p``: a Laurent polynomial as a shift and a polynomial."""
    a = min(p)
    return a, _shift(p, -a)


def _field_poly(nums: dict, den: dict, x: str, xp: str, s: int, ncols: int, where: str):
    """``(inf, c, den, terms)`` of one factor and ordered pair in ``Q(u)``: the numerator of the mass where
    ``Q = 0``, the smallest ratio ``c = (cn, cd)``, and ``n -> numerator`` with ratio ``c u^(s n)``; refuted
    unless every ratio is ``c u^(s n)`` (a polynomial identity)."""
    inf: dict = {}
    atoms = []
    for y in range(ncols):
        p, q = nums[(x, y)], nums[(xp, y)]
        if not p:
            continue
        if not q:
            inf = _pa(inf, p)
        else:
            atoms.append((p, q))
    if not atoms:
        return inf, ({0: 1}, {0: 1}), den, {}
    p0, q0 = atoms[0]
    rel = []
    for p, q in atoms:
        a, A = _strip(_pm(p, q0))
        b, B = _strip(_pm(q, p0))
        refute_unless(A == B and (a - b) % s == 0,
                      f"{where}: a loss ratio is not c*b^n on the stated step")
        rel.append((a - b) // s)
    lo = min(rel)
    i0 = rel.index(lo)
    cn, cd = atoms[i0]
    terms: dict = {}
    for (p, _), r in zip(atoms, rel, strict=True):
        n = r - lo
        if n > MAX_DEGREE:
            raise TooLarge(f"a loss ratio at lattice exponent {n} > {MAX_DEGREE}")
        terms[n] = _pa(terms.get(n, {}), p)
    return inf, (cn, cd), den, terms


def _field_cost(polys: list) -> tuple[int, int, int]:
    """``(slot bits, x-degree, u-width)`` of the composed bivariate polynomial: a coefficient is at most the
    product of the factors' coefficient 1-norms to their run counts, plus a sign bit."""
    bits = 2 + sum(k * sum(abs(c) for t in terms.values() for c in t.values()).bit_length()
                   for _, _, _, terms, k in polys)
    dx = sum(k * max(terms, default=0) for _, _, _, terms, k in polys)
    du = sum(k * max((j for t in terms.values() for j in t), default=0) for _, _, _, terms, k in polys)
    return bits, dx, du + 1


def _spack(coeffs: list, nbytes: int) -> int:
    """Kronecker substitution with signed coefficients: the packed positive parts minus the packed negative parts,
    which is ``sum c_i 2^(8 nbytes i)``; :func:`_field_compose` reads the signed slots back with an offset."""
    pos = [c if c > 0 else 0 for c in coeffs]
    neg = [-c if c < 0 else 0 for c in coeffs]
    return _pack(pos, nbytes) - _pack(neg, nbytes)


def _field_compose(polys: list, nbytes: int, dx: int, W: int) -> list:
    """``[M_n(u)]``: the coefficients of ``prod_i F_i(x, u)^(k_i)``, packed at ``x^n u^j -> slot n W + j``
    (two-level Kronecker substitution), signed slots read back with an offset of half a slot each."""
    X = 1
    for _, _, _, terms, k in polys:
        flat = [0] * ((max(terms) + 1) * W)
        for n, t in terms.items():
            for j, c in t.items():
                flat[n * W + j] = c
        X *= pow(_spack(flat, nbytes), k)
    count = (dx + 1) * W
    half = 1 << (8 * nbytes - 1)
    X += _pack([half] * count, nbytes)
    raw = _unpack(X, nbytes, count)
    return [{j: raw[n * W + j] - half for j in range(W) if raw[n * W + j] != half} for n in range(dx + 1)]


def _field_pair(polys: list, s: int, L: int, E, nbytes: int, dx: int, W: int):
    """``(A, B)`` kernel values with ``delta = A - e^eps B`` for one ordered pair in ``Q(u)``."""
    Den: dict = {0: 1}
    keep: dict = {0: 1}
    Cn: dict = {0: 1}
    Cd: dict = {0: 1}
    for inf, (cn, cd), den, _, k in polys:
        Den = _pm(Den, _pp(den, k))
        keep = _pm(keep, _pp(_pa(den, inf, -1), k))
        Cn, Cd = _pm(Cn, _pp(cn, k)), _pm(Cd, _pp(cd, k))
    base = _pa(Den, keep, -1)                               # the numerator of 1 - prod (1 - inf_i)^k_i
    if any(not terms for _, _, _, terms, _ in polys):
        return Fraction(1), Fraction(0)
    M = _field_compose(polys, nbytes, dx, W)
    C = _kval(Cn, Cd, L)

    def above(n: int) -> bool:
        """Is ``C u^(s n) > e^eps`` (exact comparison)? Increasing in ``n`` (``u > 1``, ``s > 0``), so the first such
        ``n`` is found by bisection: the worst set is ``{n : C u^(s n) > e^eps}``."""
        return compare(_mul(C, _kval({s * n: 1}, {0: 1}, L)), Fraction(1), E) > 0

    lo, hi = 0, dx + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if above(mid):
            hi = mid
        else:
            lo = mid + 1
    A: dict = dict(base)
    Bn: dict = {}
    for n in range(lo, dx + 1):
        A = _pa(A, M[n])
        Bn = _pa(Bn, _shift(M[n], -s * n))
    return _kval(A, Den, L), _kval(_pm(Bn, Cd), _pm(Den, Cn), L)


# ------------------------------------------------------------------------------------------- the run ----
def _run(c: dict) -> int:
    """Re-check a lattice_composition certificate (steps 1-6 of this module's docstring): the route, level and run
    counts, limits refused first, the relation and one lattice step per ordered pair, the composed PLD on the
    rational or the ``Q(u)`` route, then the answer (:func:`_check_answer`)."""
    ev = c["evidence"]
    refute_unless(ev["route"] in ROUTES, f"the route {ev['route']!r} is not one of {ROUTES}")
    check_level(ev["level"])
    facs = ev["factors"]
    refute_unless(isinstance(facs, list) and len(facs) > 0, "no factors")
    refute_unless(all(isinstance(f["times"], int) and f["times"] >= 1 for f in facs), "a run count below 1")
    if any(f["times"] > MAX_TIMES for f in facs):
        raise TooLarge(f"a factor run more than {MAX_TIMES:,} times")
    rows = [_rows(f["mechanism"]) for f in facs]
    inputs = facs[0]["mechanism"]["inputs"]
    refute_unless(all(set(f["mechanism"]["inputs"]) == set(inputs) for f in facs),
                  "the mechanisms do not share their inputs")
    pairs = _relation(ev["relation"], inputs)
    ordered = [o for x, xp in pairs for o in ((x, xp), (xp, x))]
    if len(ordered) * len(facs) > MAX_PLDS:
        raise TooLarge(f"more than {MAX_PLDS:,} (factor, ordered pair) PLDs")
    # one step per ordered pair, in the relation's order (each pair, then its reverse): one way to write it
    refute_unless([(s["x"], s["x_prime"]) for s in ev["steps"]] == ordered,
                  "the lattice steps are not one per ordered neighbouring pair, in the relation's order")
    steps = {(s["x"], s["x_prime"]): s["step"] for s in ev["steps"]}
    E = level_value(ev["level"], "1")              # R^(1/D), D > 1: a _P, compared in fractions
    if all(isinstance(v, Fraction) for r in rows for row in r.values() for v in row):
        vals, n = _rational_vals(rows, facs, ordered, steps, E)
    else:
        vals, n = _field_vals(rows, facs, ordered, steps, E)
    _check_answer(ev, vals, E, c["verdict"])
    return n


def _rational_vals(rows: list, facs: list, ordered: list, steps: dict, E) -> tuple[list, int]:
    """Rational entries: every PLD re-derived and the whole cost counted before any power is computed."""
    plans: list = []
    seen: dict = {}
    total = 0
    for x, xp in ordered:
        try:
            b = fraction(steps[(x, xp)])
        except (ValueError, ZeroDivisionError):
            raise NotHere(f"the step {steps[(x, xp)][:40]!r} is not rational while the entries are") from None
        refute_unless(b > 1, f"the step of ({x}, {xp}) is not > 1")
        polys = [(*_factor_poly(r[x], r[xp], b, f"factor {i}, pair ({x}, {xp})"), f["times"])
                 for i, (r, f) in enumerate(zip(rows, facs, strict=True))]
        key = (b, tuple((p[0], p[1], p[2], tuple(p[3]), p[4]) for p in polys))
        nbytes, deg = _cost(polys)
        if key not in seen:
            seen[key] = None
            total += 8 * nbytes * (deg + 1)
            if total > MAX_PACKED_BITS:
                raise TooLarge(f"the packed polynomial powers need more than {MAX_PACKED_BITS:,} bits "
                               "(bits per coefficient x degree)")
        plans.append(((x, xp), key, polys, b, nbytes, deg))
    vals = []
    for o, key, polys, b, nbytes, deg in plans:
        if seen[key] is None:
            seen[key] = _pair_delta(polys, b, E, nbytes, deg)
        vals.append((o, *seen[key]))
    return vals, len(seen)


def _step_exponent(text: str) -> Fraction:
    """``r`` of a step written ``exp(r)`` (the lattice step of entries in ``Q(e^r)``)."""
    v = value(text)
    if isinstance(v, Fraction):
        raise NotHere(f"a rational step {text[:40]!r} with transcendental entries: outside this re-check")
    keys = list(v.num)
    refute_unless(len(keys) == 1 and list(v.den) == [()] and v.den[()] == 1 and v.num[keys[0]] == 1 and keys[0] != ()
                  and len(keys[0]) == 1 and keys[0][0][0] == 1,
                  f"the step {text[:40]!r} is not exp(r) for a rational r")
    r = keys[0][0][1]
    refute_unless(r > 0, f"the step {text[:40]!r} is not > 1")
    return r


def _field_vals(rows: list, facs: list, ordered: list, steps: dict, E) -> tuple[list, int]:
    """Entries in ``Q(u)``: the same re-derivation with polynomials in ``u`` (two-level Kronecker substitution)."""
    exps = [r for rs in rows for row in rs.values() for v in row for r in _exponents(v)]
    rs = {o: _step_exponent(steps[o]) for o in ordered}
    L = math.lcm(1, *(Fraction(r, 1).denominator for r in exps + list(rs.values())))
    if L > MAX_L:
        raise TooLarge(f"exponents with a common denominator {L} > {MAX_L}")
    fields = [_field_factor(r, L) for r in rows]
    ncols = [len(f["mechanism"]["outputs"]) for f in facs]
    plans: list = []
    seen: dict = {}
    total = 0
    for x, xp in ordered:
        s_ = rs[(x, xp)] * L
        polys = [(*_field_poly(nums, den, x, xp, int(s_), nc, f"factor {i}, pair ({x}, {xp})"), f["times"])
                 for i, ((nums, den), nc, f) in enumerate(zip(fields, ncols, facs, strict=True))]
        key = repr((s_, [(sorted(p[0].items()), sorted(p[1][0].items()), sorted(p[1][1].items()),
                          sorted((n, sorted(t.items())) for n, t in p[3].items()), p[4]) for p in polys]))
        bits, dx, W = _field_cost(polys)
        nbytes = bits // 8 + 1
        if key not in seen:
            seen[key] = None
            total += 8 * nbytes * (dx + 1) * W
            if total > MAX_PACKED_BITS:
                raise TooLarge(f"the packed polynomial powers need more than {MAX_PACKED_BITS:,} bits "
                               "(bits per coefficient x degree in x x degree in u)")
        plans.append(((x, xp), key, polys, int(s_), nbytes, dx, W))
    vals = []
    for o, key, polys, s_, nbytes, dx, W in plans:
        if seen[key] is None:
            seen[key] = _field_pair(polys, s_, L, E, nbytes, dx, W)
        vals.append((o, *seen[key]))
    return vals, len(seen)


def _at_least(A1, B1, A2, B2, E) -> int:
    """sign((A1 - E B1) - (A2 - E B2))."""
    return compare(_sub(A1, A2), _sub(B1, B2), E)


def _sub(a, b):
    """``a - b`` in the kernel's arithmetic."""
    return _add(a, _neg(b))


def _check_answer(ev: dict, vals: list, E, verdict: str) -> None:
    """Refute unless the stated answer is the re-derived one: delta is the largest ``A - e^eps B`` over the ordered
    pairs (exact comparisons); on the exact route the stated value equals it (exact zero test) and the stated pair
    is the first attaining it; the enclosure contains it and, on the exact route, is narrow; then the verdict."""
    best = None
    for o, A, B in vals:
        if best is None or _at_least(A, B, best[1], best[2], E) > 0:
            best = (o, A, B)
    A, B = (Fraction(0), Fraction(0)) if best is None else best[1:]
    stated, pair = ev["delta_at_eps"], ev["pair"]
    if ev["route"] == "lattice-exact":
        refute_unless(stated is not None, "the exact route states no exact delta")
        d = _stated_value(stated)
        # d - (A - e^eps B) == 0, exactly (an exponential polynomial's zero test at a transcendental e^eps)
        refute_unless(sign(_add(_sub(d, A), _mul(E, B))) == 0,
                      f"the stated delta is not the re-derived delta ({_short(A, B)})")
        if best is not None:
            # the first ordered pair (in the relation's order) attaining the maximum: one way to write it
            refute_unless(pair is not None and (pair["x"], pair["x_prime"]) == best[0],
                          f"the stated pair is not the first ordered pair attaining the maximum, {best[0]}")
    else:
        refute_unless(stated is None and pair is None, "the ball route states an exact value or pair")
    enc = ev["enclosure"]
    refute_unless(len(enc) == 2, "the enclosure is not [lo, hi]")
    lo, hi = fraction(enc[0]), fraction(enc[1])
    refute_unless(lo <= hi, "the enclosure is empty")
    if ev["route"] == "lattice-exact":
        # the exact route states its value to ~9 digits at least (the ball route states the width it reached)
        refute_unless(hi - lo <= ENCLOSURE_WIDTH * max(Fraction(1), abs(hi)),
                      "the enclosure is wider than the exact route states")
    refute_unless(compare(_sub(A, lo), B, E) >= 0 and compare(_sub(hi, A), _neg(B), E) >= 0,
                  f"the enclosure [{enc[0]}, {enc[1]}] does not contain the re-derived delta ({_short(A, B)})")
    if ev["delta"] is None:
        refute_unless(verdict == "holds", "a certificate without a delta question states the value: its verdict holds")
        return
    dq = fraction(ev["delta"])
    refute_unless(0 <= dq <= 1, "the delta asked about is not in [0, 1]")
    holds = compare(_sub(dq, A), _neg(B), E) >= 0
    refute_unless(verdict == ("holds" if holds else "fails"), f"the verdict is {verdict}, the re-derived delta "
                  f"({_short(A, B)}) says {'holds' if holds else 'fails'}")


def _stated_value(text: str):
    """The stated exact delta.  At a transcendental step it is ``N/D`` with ``N`` and ``D`` exponential polynomials
    of about ``k`` terms each; the reader's term bound counts a quotient as ``terms(N) x terms(D)`` (what a sum of
    quotients could expand to), which stops k-fold compositions near k = 85 at eps0 = 1.  So a top-level quotient
    that the bound refuses is read as its two sides, each within every limit of the reader, and divided here:
    the work stays bounded (two reads within the limits, one product of two polynomials of at most
    ``MAX_TERMS`` terms each)."""
    try:
        return value(text)
    except TooLarge:
        try:
            node = ast.parse(text.replace("^", "**"), mode="eval").body
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
                raise
            left, right = ast.unparse(node.left), ast.unparse(node.right)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            raise TooLarge(f"the stated delta ({len(text):,} characters) is beyond the reader's limits") from None
        den = value(right)
        refute_unless(sign(den) != 0, "the stated delta divides by zero")
        return _div(value(left), den)


def _short(A, B) -> str:
    """A short description of ``A - e^eps B`` for a message (floats only to word it; nothing is decided from them)."""
    if not (isinstance(A, Fraction) and isinstance(B, Fraction)):
        return "an exact value in Q(e^r)"
    head = f"A - e^eps B with A ~ {float(A):.6g}, B ~ {float(B):.6g}"
    return head if B else f"~ {float(A):.17g}"


def check(c: dict):
    """``(status, checked, detail)`` for a ``lattice_composition`` certificate.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the polynomial powers computed, and why.

    Examples
    --------
    >>> ev = {"route": "lattice-other"}
    >>> check({"evidence": ev, "verdict": "holds"})[:2]
    ('refuted', 0)
    """
    try:
        n = _run(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    return CONFIRMED, n, (f"every loss ratio re-derived on its lattice; {n} composed PLD(s) recomputed as integer "
                          "polynomial powers (Kronecker substitution); the delta at eps, the attaining pair, the "
                          "enclosure and the verdict re-evaluated exactly")
