"""Certified signs, ball enclosures and float bounds for every exact value type.

This is the one place where a verdict on a number is reached:

* ``fmpq`` -- exact comparison (regime 1);
* :class:`Lin` -- exact zero test, then balls (square roots are independent);
* :class:`ExpFrac` -- exact zero test (Lindemann--Weierstrass), then balls at
  rising precision (regime 2).

Floats appear only in :func:`float_bounds`, which returns *outward-rounded*
bounds used by the CGAL-style filter in :mod:`exactdp.certify`: a comparison
the filter settles is settled by a rigorous enclosure, and every other one is
sent back here.

>>> from flint import fmpq
>>> sign(fmpq(-1, 3))
-1
>>> lo, hi = float_bounds(fmpq(1, 3))
>>> lo < 1/3 < hi
True
"""

from __future__ import annotations

import math
from typing import Any

from flint import arb, ctx, fmpq

from ..errors import Undecided
from .lin import MAX_PREC, Lin

__all__ = ["sign", "is_zero", "arb_of", "float_bounds", "decimal_enclosure", "exact_str", "exact_latex", "simplify"]


def simplify(v: Any) -> Any:
    """Cancel common factors of an ExpFrac and return a rational as ``fmpq``; other values unchanged."""
    if hasattr(v, "reduced"):
        v = v.reduced()
        r = v.rational()
        return r if r is not None else v
    return v


def is_zero(x: Any) -> bool:
    """Exact zero test for ``fmpq``, ``Lin`` and ``ExpFrac``."""
    if isinstance(x, fmpq):
        return x == 0
    return x.is_zero()


def sign(x: Any, eps: Any = None) -> int:
    """Exact sign of an exact value (``eps``: exact value of the symbolic eps, if any)."""
    if isinstance(x, int):
        x = fmpq(x)
    if isinstance(x, fmpq):
        return (x > 0) - (x < 0)
    if isinstance(x, Lin):
        return x.sign()
    return x.sign(eps)


def arb_of(x: Any, eps: Any = None) -> arb:
    """Ball enclosure of ``x`` at the current working precision."""
    if isinstance(x, fmpq):
        return arb(x)
    if isinstance(x, Lin):
        return x.arb(None if eps is None else eps.arb())
    return x.arb(None if eps is None else eps.arb())


_BIG = 1.7976931348623157e308  # the largest finite float


def _down(v: float) -> float:
    return math.nextafter(v, -math.inf)


def _up(v: float) -> float:
    return math.nextafter(v, math.inf)


def float_bounds(x: Any) -> tuple[float, float]:
    """Floats ``lo <= x <= hi`` (outward rounded; never used to decide alone)."""
    if isinstance(x, fmpq):
        try:
            f = int(x.p) / int(x.q)  # correctly rounded (tiny values round to 0.0), so one ulp outward is a bound
        except OverflowError:  # beyond the float range: only the side is known
            return (_BIG, math.inf) if x > 0 else (-math.inf, -_BIG)
        return _down(f), _up(f)
    with ctx.workprec(80):
        b = arb_of(x)
    if not b.is_finite():
        return -math.inf, math.inf
    try:
        lo, hi = float(b.lower()), float(b.upper())
    except OverflowError:  # pragma: no cover - flint versions that raise instead of returning inf
        return -math.inf, math.inf
    return _down(lo), _up(hi)


def decimal_enclosure(x: Any, digits: int = 20) -> tuple[str, str]:
    """Decimal strings ``lo <= x <= hi``, each rounded outward, about ``digits`` digits.

    ``x`` may be an exact value or a zero-argument function returning a ball at
    the current precision (for ``log`` expressions).
    """
    prec = int(digits * 3.33) + 30
    while prec <= MAX_PREC:
        with ctx.workprec(prec):
            b = x() if callable(x) else arb_of(x)
            if b.is_finite() and (b.rad() == 0 or b.rel_accuracy_bits() > digits * 3.33 + 4):
                lo, hi = b.lower(), b.upper()
                return _round_str(lo, digits, -1), _round_str(hi, digits, 1)
        prec *= 2
    raise Undecided("no enclosure reached the requested accuracy")  # pragma: no cover


def _round_str(v: arb, digits: int, direction: int) -> str:
    """Decimal string of the exact binary number ``v`` rounded toward ``direction``."""
    m, e = v.mid().man_exp()  # v = m * 2^e exactly
    q = fmpq(int(m)) * (fmpq(2) ** int(e)) if e >= 0 else fmpq(int(m), 2 ** int(-e))
    if q == 0:
        return "0"
    a = abs(q)
    mag = int((int(a.p).bit_length() - int(a.q).bit_length()) * 0.30103)  # within 1 of floor(log10 |q|); fixed below
    while fmpq(10) ** (mag + 1) <= a:
        mag += 1
    while fmpq(10) ** mag > a:
        mag -= 1
    scale = digits - 1 - mag
    scaled = q * (fmpq(10) ** scale) if scale >= 0 else q / (fmpq(10) ** (-scale))
    n = int(scaled.floor()) if direction < 0 else int(scaled.ceil())
    s = str(abs(n))
    sgn = "-" if n < 0 else ""
    pos = len(s) - scale
    if scale <= 0:
        return sgn + s + "0" * (-scale)
    if pos <= 0:
        out = "0." + "0" * (-pos) + s
    else:
        out = s[:pos] + "." + s[pos:]
    out = out.rstrip("0").rstrip(".") if "." in out else out
    return sgn + out


def exact_str(x: Any) -> str:
    """Exact text of a value, in the exactdp input grammar (round-trips through the parser)."""
    if x == math.inf:
        return "inf"
    return str(x)


def exact_latex(x: Any) -> str:
    if x == math.inf:
        return r"\infty"
    if isinstance(x, fmpq):
        if x.q == 1:
            return str(x.p)
        sgn = "-" if x < 0 else ""
        return rf"{sgn}\frac{{{abs(x.p)}}}{{{x.q}}}"
    return x.latex()
