"""Levels and smallest-eps statements shared by the kinds that carry a level record or an enclosure of eps.

A level record states ``eps`` itself (algebraic) or ``e^(D eps) = R`` (rational ``R``, ``D``); the kernel
re-derives its text from those parameters (:func:`check_level`), the factor ``e^(eps d)`` at a distance
(:func:`factor`), and checks a stated smallest eps and its decimal enclosure.  Everything here re-derives;
nothing is taken from the certificate.  Only this package's kernel (:mod:`exactdp.recheck._kernel`) and the
standard library (plus :mod:`mpmath` intervals for enclosures) are used.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ._kernel import _add, _mul, _neg, compare, fraction, level_factor, level_value, refute_unless, sign, value
from ._kernel import is_fraction, same


# ------------------------------------------------------------------------------ the one method rule ----
def level_rational(level: dict | None) -> bool:
    """Is ``e^eps`` a rational power ``R^(1/D)`` (``R``, ``D`` rational), or is there no level?"""
    # read as values, so a hostile R is `too large` before any rule is applied (tests/recheck/test_contract.py)
    return level is None or (level["eps"] is None and type(value(level["R"])) is Fraction
                             and type(value(level.get("D") or "1")) is Fraction)


def method_for(values, level: dict | None = None, exact_route: bool = True) -> str:
    """The one method rule of the kernel (docs/architecture.md#sec-method-rule), the producer's
    :class:`exactdp.exact.domain.Domain` written again on this side of the fence.

    ``RATIONAL`` when every entry is rational, the level (if any) is ``e^eps = R^(1/D)`` with ``R`` and ``D``
    rational and the producer's route was exact: every comparison is then one of fractions (a number ``a + b
    R^(p/q)`` is compared by ``q``-th powers, :class:`exactdp.recheck._kernel._P`); ``TRANSCENDENCE_BALLS`` otherwise.

    >>> method_for(["1/4", "3/4"], {"eps": None, "R": "2", "D": "3"}), method_for(["exp(-1)"])
    ('RATIONAL', 'TRANSCENDENCE_BALLS')
    """
    # a value is a text of the certificate, or a kernel value already read (an entry in alpha at a rational alpha)
    rational = exact_route and all(type(v) is Fraction or (isinstance(v, str) and is_fraction(v)) for v in values) \
        and level_rational(level)
    return "RATIONAL" if rational else "TRANSCENDENCE_BALLS"


def method_of(c: dict) -> str:
    """The one method rule (:func:`method_for`) read off a certificate's evidence.

    The entries of ``mechanism``, ``factors`` or ``mech_on_H``, the ``level`` (or the query's), and a
    ``lattice_composition``'s route (not exact: balls, or no exact delta).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        ``"RATIONAL"`` or ``"TRANSCENDENCE_BALLS"``.

    Examples
    --------
    >>> method_of({"evidence": {"mechanism": {"values": ["1/2"]}, "level": {"eps": "1/2", "R": None}}})
    'TRANSCENDENCE_BALLS'
    """
    ev = c["evidence"]
    mechs = [f["mechanism"] for f in ev["factors"]] if "factors" in ev else [ev.get("mechanism") or ev["mech_on_H"]]
    level = ev["query"]["level"] if "query" in ev else ev.get("level")
    exact = ev.get("route", "lattice-exact") == "lattice-exact" and ev.get("delta_at_eps", "") is not None
    return method_for([v for m in mechs for v in m["values"]], level, exact)


# ------------------------------------------------------------------------------------- smallest eps ----
_DEN = re.compile(r"^(?:/([0-9]+(?:/[0-9]+)?)|/\(([0-9]+(?:/[0-9]+)?)\))?$")


def _split_log(text: str):
    """``log(X)``, ``log(X)/D`` or ``log(X)/(D)`` as ``(X, D)``; ``None`` for another form."""
    if not text.startswith("log("):
        return None
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and ch == ")":
            m = _DEN.match(text[i + 1:])
            if m is None:
                return None
            return text[4:i], fraction(m.group(1) or m.group(2) or 1)
    return None


def eps_level(text: str) -> dict | None:
    """The level of an exact eps text: ``log(R)`` / ``log(R)/D`` as ``{R, D}`` (``R`` any exact value > 1 of
    this kernel), an algebraic eps as ``{eps}``; ``None`` for ``"0"``."""
    refute_unless(isinstance(text, str), "an eps that is not text")
    if text == "0":
        return None
    parts = _split_log(text)
    if parts is not None:
        R, D = parts
        refute_unless(sign(_add(value(R), _neg(Fraction(1)))) > 0 and D > 0, f"eps = {text} is not positive")
        return {"eps": None, "R": R, "D": str(D)}
    refute_unless(sign(value(text)) > 0, f"eps = {text} is not positive")
    return {"eps": text, "R": None, "D": None}


def smallest_eps_ok(rows: dict, pairs: list, text) -> bool:
    """Is ``text`` the exact smallest eps of the mechanism ``rows`` (label -> list of kernel values) on the
    generating pairs: every inequality ``K(x)(z) <= e^(eps d) K(x')(z)`` holds (both directions) and one is an
    equality -- or ``"inf"`` with an output of probability > 0 on one side and 0 on the other, or ``"0"`` with
    equal rows on every pair."""
    if not isinstance(text, str):
        return False
    if text == "inf":
        return any((sign(a) > 0) != (sign(b) > 0) for x, xp, _ in pairs for a, b in zip(rows[x], rows[xp], strict=True))
    lv = eps_level(text)
    tight = False
    for x, xp, d in pairs:
        E = level_factor(lv, d) if lv is not None else Fraction(1)
        for a, b in zip(rows[x], rows[xp], strict=True):
            for u, v in ((a, b), (b, a)):
                s = compare(u, v, E) if lv is not None else sign(_add(u, _neg(v)))
                if s > 0:
                    return False
                # an equality with u > 0 (hence v > 0) fails at every smaller eps, so it makes eps the smallest; 0 =
                # e^(eps d) 0 holds at every eps and pins nothing
                tight = tight or (s == 0 and sign(u) > 0)
    return tight or lv is None


def factor(level: dict, d: str):
    """``e^(eps d)`` at a level, as a kernel value (an algebraic power ``R^(p/q)`` as a ``_P``)."""
    return level_value(level, d)


def product(a, b):
    """``a * b`` in the kernel's arithmetic, for kinds that multiply by a :func:`factor` (a core judgement, so kinds
    share it without importing one another)."""
    return _mul(a, b)


def level_text(level: dict) -> str:
    """The text of a level from its exact parameters (``log(R)``, ``log(R)/D`` or the algebraic eps)."""
    if level.get("eps") is not None:
        return level["eps"]
    R, D = fraction(level["R"]), fraction(level["D"])
    if R == 1:
        return "0"
    lg = f"log({R})"
    return lg if D == 1 else (f"{lg}/{D}" if D.denominator == 1 else f"{lg}/({D})")


def check_level(level: dict) -> None:
    """A level's text is the one its parameters give (the reader sees the text; the kernel uses R, D or eps)."""
    if level.get("eps") is not None:
        refute_unless(same(level.get("text"), value(level["eps"])),
                      f"the level's text {level.get('text')!r} is not its eps")
        return
    refute_unless(level.get("text") == level_text(level), f"the level's text {level.get('text')!r} is not what its "
                  f"parameters give ({level_text(level)!r})")


def check_double(level: dict, level2: dict) -> None:
    """``level2`` is ``2 eps`` of ``level`` (same regime: ``R^2`` and the same ``D``, or twice the eps)."""
    check_level(level)
    check_level(level2)
    if level.get("eps") is not None:
        refute_unless(level2.get("eps") is not None and same(level2["eps"], _mul(Fraction(2), value(level["eps"]))),
                      "the 2 eps level is not twice the level")
        return
    refute_unless(level2.get("eps") is None and fraction(level2["R"]) == fraction(level["R"]) ** 2
                  and fraction(level2["D"]) == fraction(level["D"]), "the 2 eps level is not twice the level")


# ---------------------------------------------------------------------------------------- enclosures ----
#: a stated decimal enclosure is at most this wide (relative to max(1, |hi|)): it states the value to ~9 digits
ENCLOSURE_WIDTH = Fraction(1, 10**9)


def iv_eps(text: str):
    """An mpmath interval containing the eps of an exact text (``0``, ``log(R)``, ``log(R)/D`` or algebraic)."""
    import mpmath

    from ._kernel import _iv
    lv = eps_level(text)
    if lv is None:
        return mpmath.iv.mpf(0)
    if lv["eps"] is not None:
        return _iv(value(lv["eps"]))
    D = fraction(lv["D"])
    return mpmath.iv.log(_iv(value(lv["R"]))) / (mpmath.iv.mpf(D.numerator) / D.denominator)


def enclosure_ok(enc, make) -> bool:
    """``enc = [lo, hi]`` (decimal text) contains the interval ``make()`` (built at 256 bits) and is narrow."""
    import mpmath
    if not (isinstance(enc, list) and len(enc) == 2 and all(isinstance(e, str) for e in enc)):
        return False
    lo, hi = fraction(enc[0]), fraction(enc[1])
    if not (lo <= hi and hi - lo <= ENCLOSURE_WIDTH * max(Fraction(1), abs(hi))):
        return False
    saved = mpmath.iv.prec
    try:
        mpmath.iv.prec = 256
        v = make()
        # the decimal ends are enclosed too (their binary value is not exact): lo's upper end below v, hi's lower end
        # above it, so the containment is proved, not rounded into
        return mpmath.iv.mpf(enc[0]).b <= v.a and v.b <= mpmath.iv.mpf(enc[1]).a
    finally:
        mpmath.iv.prec = saved
