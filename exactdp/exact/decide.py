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

__all__ = ["arb_of", "decimal_enclosure", "exact_latex", "exact_str", "float_bounds", "is_zero", "sign", "simplify"]


def simplify(v: Any) -> Any:
    """Cancel common factors of an ExpFrac and return a rational as ``fmpq``; other values unchanged.

    Parameters
    ----------
    v : object
        An exact value.

    Returns
    -------
    object
        ``v`` reduced, as an ``fmpq`` when it is rational.

    Examples
    --------
    >>> from exactdp.exact import exact_number
    >>> e = exact_number("exp(1)")
    >>> e / e, simplify(e / e)
    (ExpFrac('1'), 1)
    """
    if hasattr(v, "reduced"):
        v = v.reduced()
        r = v.rational()
        return r if r is not None else v
    return v


def is_zero(x: Any) -> bool:
    """Return whether an exact value is zero (an exact test for ``fmpq``, ``Lin`` and ``ExpFrac``).

    Parameters
    ----------
    x : fmpq, Lin or ExpFrac
        The value.

    Returns
    -------
    bool
        True iff ``x == 0``.

    Examples
    --------
    >>> from exactdp.exact import exact_number
    >>> e = exact_number("exp(1)")
    >>> is_zero(e - e), is_zero(e), is_zero(exact_number("2^(1/2)"))
    (True, False, False)
    """
    if isinstance(x, fmpq):
        return x == 0
    return x.is_zero()


def sign(x: Any, eps: Any = None) -> int:
    """Return the exact sign of an exact value, decided as in docs/architecture.md#sec-kernel.

    Rationals compare exactly; sums of square roots and exponential
    polynomials are first tested for zero exactly (Lindemann--Weierstrass for
    the latter, ECP14 and BCSZ18 entries alike), then separated by balls at
    rising precision.

    Parameters
    ----------
    x : int or fmpq or Lin or ExpFrac
        The value.
    eps : Lin, optional
        Exact value of the symbolic ``eps`` when ``x`` contains it.

    Returns
    -------
    int
        ``-1``, ``0`` or ``1``.

    Raises
    ------
    UnsupportedRegime
        ``x`` depends on a symbolic eps and no ``eps`` is given, or the sign
        was not separated within the precision limit.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.values import exact_number
    >>> sign(exact_number("exp(-1/2)") - fmpq(3, 5))
    1
    >>> sign(exact_number("sqrt(2)") - fmpq(3, 2)), sign(0)
    (-1, 0)
    """
    if isinstance(x, int):
        x = fmpq(x)
    if isinstance(x, fmpq):
        return (x > 0) - (x < 0)
    if isinstance(x, Lin):
        return x.sign()
    return x.sign(eps)


def arb_of(x: Any, eps: Any = None) -> arb:
    """Return a ball enclosure of ``x`` at the current working precision.

    Parameters
    ----------
    x : fmpq or Lin or ExpFrac
        The exact value.
    eps : Lin, optional
        Exact value of the symbolic ``eps`` when ``x`` contains it.

    Returns
    -------
    flint.arb
        A ball that contains ``x`` (Arb's rigorous error bound).

    Raises
    ------
    UnsupportedRegime
        ``x`` contains the symbolic eps and no ``eps`` is given.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.values import exact_number
    >>> b = arb_of(exact_number("exp(-1/2)"))
    >>> b.contains(arb_of(fmpq(6065, 10000))), b > arb_of(fmpq(6065, 10000))
    (False, True)
    """
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
    """Return floats ``lo <= x <= hi``, outward rounded (a guide: never used to decide alone).

    Parameters
    ----------
    x : fmpq, Lin or ExpFrac
        An exact value.

    Returns
    -------
    lo, hi : float
        Bounds; infinite on a side that is not known in the float range.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from flint import fmpq
    >>> lo, hi = float_bounds(fmpq(1, 3))
    >>> Fraction(lo) < Fraction(1, 3) < Fraction(hi)
    True
    >>> float_bounds(fmpq(1, 2))          # exactly representable: one ulp either side
    (0.49999999999999994, 0.5000000000000001)
    """
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
    """Return decimal strings ``lo <= x <= hi``, each rounded outward, about ``digits`` digits.

    Parameters
    ----------
    x : fmpq or Lin or ExpFrac or callable
        An exact value, or a zero-argument function returning a ball at the
        current precision (for ``log`` expressions).
    digits : int, default 20
        Significant digits wanted.

    Returns
    -------
    tuple of str
        ``(lo, hi)``: decimal text with ``lo <= x <= hi`` proved.

    Raises
    ------
    Undecided
        No enclosure reached the accuracy within the precision limit.

    Examples
    --------
    >>> from flint import fmpq
    >>> from exactdp.exact.values import exact_number
    >>> decimal_enclosure(exact_number("exp(-1/2)"), 10)
    ('0.6065306597', '0.6065306598')
    >>> decimal_enclosure(fmpq(1, 3), 5)
    ('0.33333', '0.33334')
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
    out = "0." + "0" * -pos + s if pos <= 0 else s[:pos] + "." + s[pos:]
    out = out.rstrip("0").rstrip(".") if "." in out else out
    return sgn + out


def exact_str(x: Any) -> str:
    """Return the exact text of a value, in the exactdp input grammar (round-trips through the parser).

    Parameters
    ----------
    x : fmpq or Lin or ExpFrac or LogVal or float
        An exact value, or ``math.inf``.

    Returns
    -------
    str
        Text that :func:`~exactdp.exact.values.exact_number` reads back to
        the same value (``"inf"`` for ``math.inf``).

    Examples
    --------
    >>> import math
    >>> from exactdp.exact.values import exact_number
    >>> exact_str(exact_number("3/4")), exact_str(exact_number("sqrt(8)")), exact_str(math.inf)
    ('3/4', '2*sqrt(2)', 'inf')
    >>> exact_str(exact_number("exp(-1/2)"))
    'exp(-1/2)'
    """
    if type(x) is fmpq:  # the common case: str is exact, and no comparison with a float
        return str(x)
    if x == math.inf:
        return "inf"
    return str(x)


def exact_latex(x: Any) -> str:
    """Return the LaTeX of an exact value.

    Parameters
    ----------
    x : fmpq or Lin or ExpFrac or float
        An exact value, or ``math.inf``.

    Returns
    -------
    str
        LaTeX math (no surrounding ``$``).

    Examples
    --------
    >>> import math
    >>> from exactdp.exact.values import exact_number
    >>> print(exact_latex(exact_number("-3/4")), exact_latex(exact_number("exp(-1/2)")), exact_latex(math.inf))
    -\\frac{3}{4} e^{-\\frac{1}{2}} \\infty
    """
    if x == math.inf:
        return r"\infty"
    if isinstance(x, fmpq):
        if x.q == 1:
            return str(x.p)
        sgn = "-" if x < 0 else ""
        return rf"{sgn}\frac{{{abs(x.p)}}}{{{x.q}}}"
    return x.latex()
