"""Re-check ``renyi`` certificates: every Rényi sum re-derived from the carried mechanism and relation.

Only the standard library and this package's kernel.  From the JSON alone it

1. checks the carried mechanism is one and re-derives the neighbour relation (:mod:`exactdp.recheck.profile`'s
   readers: the metric's pairs at distance 1, or the given list);
2. counts the work first -- ordered pairs x outputs x orders, weighted by the size of the powers -- and answers
   ``not checkable: too large`` beyond :data:`MAX_WORK` (:data:`MAX_TRANSCENDENTAL` terms at a transcendental
   level) before computing anything;
3. for every order ``alpha`` and every ordered pair computes ``S = sum_y P(y)^alpha Q(y)^(1 - alpha)`` exactly
   (Fractions, or the kernel's exponential-polynomial quotients with the exact zero test and certified intervals
   for signs), and checks the stated ``S`` is the largest (``inf`` exactly when some ``Q(y) = 0 < P(y)``), the
   stated pair attains it, and the stated ``rho = log(S)/(alpha - 1)`` is written from it ([Mir17] Defs. 3-4);
4. re-derives the conversion ([Mir17] Prop. 3): ``eps = log(S_alpha/delta)/(alpha - 1)`` at the first order
   minimising it, comparing ``(S_a/delta)^(b - 1)`` with ``(S_b/delta)^(a - 1)`` exactly;
5. rebuilds the claim sentence.
"""

from __future__ import annotations

from fractions import Fraction

from ._pld import RELATION
from ._levels import method_of  # noqa: F401 (the one method rule)
from ._kernel import Refuted, refute_unless
from ._kernel import same
from ._kernel import (IV, MAX_BITS, MAX_CELLS, TooLarge, _add, _asE, _div, _E, _iv, _mul, _neg, _padd, fraction,
                      power_within_limit, sign, value)
from ._dprivacy import MECH
from ._pld import _relation, _rows, relation_note

CONFIRMED, REFUTED = "confirmed", "refuted"

#: largest order (as the producer's)
MAX_ORDER = 256
#: most (ordered pair x output x order) power terms, each weighted by 1 + its bits / 1024: a term (a cached power
#: divided and added) costs about 14 us here, so 500,000 are about 7 s (3,000,000 took 40 s: issue 27)
MAX_WORK = 500_000
#: most squared bits summed over the (ordered pair x output x order) terms: adding Fractions of ``B`` bits costs
#: gcds quadratic in ``B`` (18 terms of 486,000 bits took 40 s), so this bounds the re-check to about 10 s here
MAX_SQUARED_BITS = 10**12
#: most (ordered pair x output x order) terms at a transcendental level (each a product of quotients)
MAX_TRANSCENDENTAL = 400
#: most transcendental terms summed without a shared denominator per row (each sum multiplies its terms'
#: denominators: 80 such terms took 8 s)
MAX_GENERIC = 24
#: the generic terms summed so far in this re-check (reset by ``_run``)
_GENERIC = [0]
#: most unordered neighbouring pairs
MAX_PAIRS = 50_000

ORDER = {"order": "int", "sum": "str", "value": "str", "x": "str", "x_prime": "str"}
CONVERSION = {"delta": "str", "order": "int", "epsilon": "str"}
RENYI = {"mechanism": MECH, "relation": RELATION, "orders": [ORDER], "conversion": ("?", CONVERSION)}
#: the evidence shape (read by the dispatcher before any work)
EVIDENCE = {"renyi": RENYI}
INF = "inf"


def claim_text(c: dict) -> str:
    """The claim of a ``renyi`` certificate, rebuilt from its evidence.

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
    >>> ev = {"orders": [{"order": 2, "value": "log(5/4)"}], "mechanism": {"name": "RR"},
    ...       "relation": {"description": "pair (0, 1)"}, "conversion": None}
    >>> claim_text({"evidence": ev})
    'the RDP curve of RR over the pair (0, 1) is rho(2) = log(5/4)'
    """
    ev = c["evidence"]
    curve = ", ".join(f"rho({o['order']}) = {o['value']}" for o in ev["orders"])
    out = f"the RDP curve of {ev['mechanism']['name']} over the {ev['relation']['description']} is {curve}"
    cv = ev["conversion"]
    if cv is not None:
        out += f"; by Mironov's conversion it is (eps, delta)-DP with eps = {cv['epsilon']}, delta = {cv['delta']}"
    return out


def log_text(arg: str, den: int) -> str:
    """``log(arg)/den`` written as the producer writes it (``/1`` omitted).

    Parameters
    ----------
    arg : str
        The argument of the log.
    den : int
        The denominator.

    Returns
    -------
    str

    Examples
    --------
    >>> log_text("5/4", 1), log_text("37/16", 2)
    ('log(5/4)', 'log(37/16)/2')
    """
    return f"log({arg})" if den == 1 else f"log({arg})/{den}"


def split_log(text: str, den: int) -> str:
    """The argument ``X`` of a text ``log(X)`` (``den = 1``) or ``log(X)/den``; Refuted otherwise.

    Parameters
    ----------
    text : str
        The text, as :func:`log_text` writes it.
    den : int
        The denominator it must have.

    Returns
    -------
    str
        The argument ``X``.

    Raises
    ------
    Refuted
        The text is not written so.

    Examples
    --------
    >>> split_log("log(37/16)/2", 2), split_log("log((1 + 2)/3)", 1)
    ('37/16', '(1 + 2)/3')
    >>> split_log("log(2))(3)", 1)
    Traceback (most recent call last):
    ...
    exactdp.recheck._kernel.Refuted: 'log(2))(3)' is not written log(...)
    """
    suffix = "" if den == 1 else f"/{den}"
    refute_unless(isinstance(text, str) and text.startswith("log(") and text.endswith(")" + suffix),
                  f"{text!r} is not written log(...){suffix}")
    inner = text[4:len(text) - len(suffix) - 1]
    depth = 0
    for ch in inner:
        depth += (ch == "(") - (ch == ")")
        refute_unless(depth >= 0, f"{text!r} is not written log(...){suffix}")
    refute_unless(depth == 0, f"{text!r} is not written log(...){suffix}")
    return inner


def _pow(v, k: int):
    """``v^k`` by repeated squaring in the kernel's arithmetic, after :func:`power_within_limit` has measured it."""
    if isinstance(v, Fraction):
        return v ** k
    power_within_limit(v, k, "a Renyi power")
    out, base = Fraction(1), v
    while k:
        if k & 1:
            out = _mul(out, base)
        k >>= 1
        if k:
            base = _mul(base, base)
    return out


def _sum(P: list, Q: list, a: int):
    """``sum_y P^a Q^(1-a)``; ``None`` when some ``Q(y) = 0 < P(y)``."""
    if not all(isinstance(v, Fraction) for v in (*P, *Q)):
        s = _sum_common(P, Q, a)
        if s is not NotImplemented:
            return s
        _GENERIC[0] += len(P)
        if _GENERIC[0] > MAX_GENERIC:
            raise TooLarge(f"more than {MAX_GENERIC} transcendental terms whose rows do not share a denominator")
    s = Fraction(0)
    for p, q in zip(P, Q, strict=True):
        if sign(p) == 0:
            continue
        if sign(q) == 0:
            return None
        s = _add(s, _div(_power(p, a), _power(q, a - 1)))
    return s


#: powers of the entries computed in this re-check, by (entry, exponent): every row meets every other, so each
#: power is needed once per pair of rows (reset by ``_run``)
_POWERS: dict = {}


def _power(v, k: int):
    """``v^k``, rational powers cached for this run (many cells share a value and an order)."""
    if not isinstance(v, Fraction):
        return _pow(v, k)
    key = (v, k)
    if key not in _POWERS:
        _POWERS[key] = v ** k
    return _POWERS[key]


def _sum_common(P: list, Q: list, a: int):
    """The same sum when each row's entries share one denominator (``P(y) = n_y/d``, ``Q(y) = m_y/e``) and every
    ``m_y`` is one exponential term: ``(e^(a-1)/d^a) sum_y n_y^a m_y^(1-a)``, an exponential polynomial times one
    quotient (the generic sum multiplies the denominators of every term).  ``NotImplemented`` otherwise."""
    Ps, Qs = [_asE(v) for v in P], [_asE(v) for v in Q]
    if len({repr(sorted(v.den.items())) for v in Ps}) != 1 or len({repr(sorted(v.den.items())) for v in Qs}) != 1:
        return NotImplemented
    acc: dict = {}
    for p, q in zip(Ps, Qs, strict=True):
        if not p.num:
            continue
        if not q.num:
            return None
        if len(q.num) != 1:
            return NotImplemented
        (k, c), = q.num.items()
        inv = _E({tuple((r, -x) for r, x in k): 1 / c})          # 1/m_y: one exponential term
        power_within_limit(_E(p.num), a, "a Renyi power")
        acc = _padd(acc, _mul(_pow(_E(p.num), a), _pow(inv, a - 1)).num)
    scale = _div(_pow(_E(Qs[0].den), a - 1), _pow(_E(Ps[0].den), a))
    return _mul(_E(acc), scale)


def _cmp(a, b) -> int:
    """Sign of ``a - b`` for sums (``None`` = infinity)."""
    if a is None or b is None:
        return (a is None) - (b is None)
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    return sign(_add(a, _neg(b)))


def _precount(ev: dict, npairs: int, nout: int, orders: list, values: list) -> None:
    """Count the work of the Renyi sums before doing any (refused with TooLarge): the terms on the general route; on
    the rational route the bits of the powers, the term operations, and the squared bits of the sums (whose gcds
    grow with the square of the bits)."""
    rational = all(isinstance(v, Fraction) for v in values)
    bits = max((max(abs(v.numerator).bit_length(), v.denominator.bit_length()) for v in values
                if isinstance(v, Fraction)), default=1)
    terms = 2 * npairs * nout * len(orders)
    if not rational:
        if terms > MAX_TRANSCENDENTAL:
            raise TooLarge(f"{terms:,} transcendental Renyi terms > {MAX_TRANSCENDENTAL:,}")
        return
    need_bits = max(orders) * bits
    if need_bits > MAX_BITS:
        raise TooLarge(f"powers of about {need_bits:,} bits > {MAX_BITS:,}")
    work = sum(2 * npairs * nout * (1 + a * bits // 1024) for a in orders)
    if work > MAX_WORK:
        raise TooLarge(f"the Renyi sums need about {work:,} term operations > {MAX_WORK:,}")
    squared = sum(2 * npairs * nout * (a * bits) ** 2 for a in orders)
    if squared > MAX_SQUARED_BITS:
        raise TooLarge(f"the Renyi sums add fractions of up to {need_bits:,} bits ({squared:.2e} squared bits > "
                       f"{MAX_SQUARED_BITS:.0e}: their gcds grow with the square)")


def _run(c: dict) -> int:
    """Re-check a renyi certificate: the verdict (holds), the orders, the limits, then the work counted
    (:func:`_precount`) before the mechanism, the relation, the Renyi sums per order and the conversion are
    re-derived."""
    ev = c["evidence"]
    _GENERIC[0] = 0
    _POWERS.clear()
    refute_unless(c["verdict"] == "holds", "a statement of the RDP curve with a verdict other than holds")
    m = ev["mechanism"]
    orders = ev["orders"]
    refute_unless(isinstance(orders, list) and len(orders) >= 1, "no order")
    for o in orders:
        refute_unless(type(o["order"]) is int and 2 <= o["order"] <= MAX_ORDER,
                      f"order {o['order']!r} is not an integer "
                      f"in [2, {MAX_ORDER}]")
    metric = ev["relation"]["metric"]
    n_in = len(m["inputs"])
    if n_in * len(m["outputs"]) > MAX_CELLS:
        raise TooLarge(f"{n_in} x {len(m['outputs'])} cells > {MAX_CELLS:,}")
    npairs = n_in * (n_in - 1) // 2 if metric is not None and metric.get("all_pairs_at") is not None \
        else len(ev["relation"]["pairs"])
    if npairs > MAX_PAIRS:
        raise TooLarge(f"{npairs:,} neighbouring pairs > {MAX_PAIRS:,}")
    if len(m["values"]) > 100_000:
        raise TooLarge("more than 100,000 distinct values")
    values = [value(v) for v in m["values"]]
    _precount(ev, npairs, len(m["outputs"]), [o["order"] for o in orders], values)
    rows = _rows(m)
    pairs = _relation(ev["relation"], m["inputs"])
    refute_unless(len(pairs) >= 1, "no neighbouring pair")
    ordered = [o for x, xp in pairs for o in ((x, xp), (xp, x))]
    sums: list = []
    for o in orders:
        a = o["order"]
        per = {op: _sum(rows[op[0]], rows[op[1]], a) for op in ordered}
        best = Fraction(0)
        for s in per.values():
            if _cmp(s, best) > 0:
                best = s
        stated = o["sum"]
        refute_unless((stated == INF) if best is None else (stated != INF and same(stated, best)),
                      f"the largest sum at order {a} is not {stated}")
        wit = (o["x"], o["x_prime"])
        refute_unless(wit in per, f"({wit[0]}, {wit[1]}) is not an ordered neighbouring pair")
        refute_unless(_cmp(per[wit], best) == 0, f"({wit[0]}, {wit[1]}) does not attain the largest sum at order {a}")
        refute_unless(o["value"] == (INF if stated == INF else log_text(stated, a - 1)),
                      f"rho({a}) = {o['value']} is not log(S)/{a - 1} of the stated sum")
        sums.append(best)
    cv = ev["conversion"]
    if cv is not None:
        _check_conversion(cv, [o["order"] for o in orders], sums)
    return len(ordered) * len(orders)


def _conv_le(s1, a1: int, s2, a2: int, d: Fraction) -> bool:
    """``log(s1/d)/(a1-1) <= log(s2/d)/(a2-1)`` exactly (``None`` = infinity)."""
    if s1 is None:
        return s2 is None
    if s2 is None:
        return True
    x1, x2 = _div(s1, d), _div(s2, d)
    if isinstance(x1, Fraction) and isinstance(x2, Fraction) and x1 != x2:
        # enclosures of both logs first (outward-rounded intervals decide only when disjoint): the exact powers
        # below reach (bits x order) bits -- 4 million at order 256 for 61-bit entries, a minute of gcds
        IV.dps = 40
        l1, l2 = IV.log(_iv(x1, IV)) / (a1 - 1), IV.log(_iv(x2, IV)) / (a2 - 1)
        if l1.b < l2.a or l1.a > l2.b:
            return bool(l1.b < l2.a)
    # log(x1)/(a1-1) <= log(x2)/(a2-1) iff x1^(a2-1) <= x2^(a1-1) (x1, x2 > 0, both orders > 1): exact, no logarithm
    return _cmp(_pow(x2, a1 - 1), _pow(x1, a2 - 1)) >= 0


def _check_conversion(cv: dict, orders: list, sums: list) -> None:
    """Refute unless the stated conversion is the re-derived one: ``delta`` rational in (0, 1), the order one of the
    curve's and the first giving the smallest ``eps = log(S/delta)/(k - 1)`` ([Mir17] Prop. 3, with ``S =
    sum P^k Q^(1-k)``), and that eps equal to the stated one exactly (or ``inf`` when ``S`` is)."""
    try:
        d = fraction(cv["delta"])
    except (ValueError, ZeroDivisionError):
        raise Refuted(f"delta = {cv['delta']!r} is not a rational") from None
    refute_unless(0 < d < 1, "delta is not in (0, 1)")
    k = cv["order"]
    refute_unless(k in orders, f"the conversion's order {k} is not one of the curve's")
    i = orders.index(k)
    for j, (b, s) in enumerate(zip(orders, sums, strict=True)):
        if j < i:
            refute_unless(not _conv_le(s, b, sums[i], k, d), f"order {b} gives an eps at most order {k}'s")
        elif j > i:
            refute_unless(_conv_le(sums[i], k, s, b, d), f"order {b} gives a smaller eps than order {k}'s")
    if sums[i] is None:
        refute_unless(cv["epsilon"] == INF, "the conversion's eps is not inf")
        return
    refute_unless(same(split_log(cv["epsilon"], k - 1), _div(sums[i], d)),
                  f"eps = {cv['epsilon']} is not log(S/delta)/{k - 1} at order {k}")


def check(c: dict):
    """``(status, checked, detail)`` for a ``renyi`` certificate: every order's Renyi sums re-derived.

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
    >>> check({"kind": "renyi", "verdict": "fails", "evidence": {}})
    ('refuted', 0, 'a statement of the RDP curve with a verdict other than holds')
    """
    try:
        n = _run(c)
    except Refuted as e:
        return REFUTED, 0, str(e)
    finally:
        _POWERS.clear()
    conv = "; the conversion re-derived" if c["evidence"]["conversion"] is not None else ""
    return CONFIRMED, n, (f"{n} Renyi sums re-derived over the ordered neighbouring pairs, the largest per order and "
                          f"its pair checked{conv}" + relation_note(c["evidence"]["relation"]))
