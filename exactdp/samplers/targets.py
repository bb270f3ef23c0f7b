"""Target laws and the exact comparison of an explored law with them (issue 30).

A target gives, for every output value, its probability: an exact :class:`fractions.Fraction` when it is
rational (a JSON table, a value outside the target's support, exp(0) = 1) and otherwise a python-flint ``arb``
ball at a given precision, which contains the true value rigorously.  :func:`compare` decides for every value
of a range whether the target lies in the explored enclosure ``[lo, lo + residual]``: certainly inside, certainly
outside (the sampler *differs*: a witness), or not decided at the precisions tried.  A float never decides.

The targets (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential Privacy"):

* ``bernoulli_exp(x)``: P[1] = exp(-x), P[0] = 1 - exp(-x), x >= 0;
* ``geometric_exp(x)``: P[k] = (1 - exp(-x)) exp(-k x) for k >= 0, x > 0;
* ``dlaplace(s)``: P[z] = tanh(1/(2s)) exp(-|z|/s), s > 0;
* ``dgauss(sigma2)``: P[z] = exp(-z^2/(2 sigma2)) / Z, the normaliser Z enclosed by a partial sum and a
  geometric bound of the tail;
* a JSON table ``{"values": {"0": "1/2", "1": "1/2"}}`` (or the mapping alone) of exact values.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, ctx, fmpq

from .explore import Law, SamplerError

__all__ = ["Comparison", "Row", "Target", "compare", "parse_target", "target"]


#: most output values a comparison reads (the command line checks it before the sampler is explored)
MAX_SUPPORT = 100_001

def _arb(q: Fraction) -> arb:
    return arb(fmpq(q.numerator, q.denominator))


def _check(name: str, x: Fraction, strict: bool) -> None:
    if x < 0 or (strict and x == 0):
        raise SamplerError(f"target {name}: the parameter must be {'> 0' if strict else '>= 0'}, not {x}")


def _bernoulli_exp(x: Fraction) -> Callable:
    _check("bernoulli_exp", x, strict=False)

    def p(z, prec):
        if z not in (0, 1):
            return Fraction(0)
        if x == 0:
            return Fraction(z)
        e = (-_arb(x)).exp()
        return e if z == 1 else 1 - e
    return p


def _geometric_exp(x: Fraction) -> Callable:
    _check("geometric_exp", x, strict=True)

    def p(k, prec):
        if k < 0:
            return Fraction(0)
        e = (-_arb(x)).exp()
        return (1 - e) * (-_arb(x) * k).exp()
    return p


def _dlaplace(s: Fraction) -> Callable:
    _check("dlaplace", s, strict=True)

    def p(z, prec):
        return (1 / (2 * _arb(s))).tanh() * (-abs(z) / _arb(s)).exp()
    return p


def _dgauss(sigma2: Fraction) -> Callable:
    _check("dgauss", sigma2, strict=True)
    cache: dict = {}

    def normaliser(prec):
        if prec not in cache:
            s2 = _arb(sigma2)
            # N only chooses where the partial sum stops (a float guides); the tail bound below is rigorous:
            # for z > N the ratio of consecutive terms exp(-(2z+1)/(2 sigma2)) is at most rho, so
            # sum_{z > N} exp(-z^2/(2 sigma2)) <= exp(-(N+1)^2/(2 sigma2)) / (1 - rho)
            n = math.isqrt(math.ceil(2 * float(sigma2) * (prec * 0.7 + 20))) + 1
            total = arb(1) + 2 * sum(((-arb(z * z)) / (2 * s2)).exp() for z in range(1, n + 1))
            rho = (-(arb(2 * n + 3)) / (2 * s2)).exp()
            tail = 2 * (-(arb((n + 1) ** 2)) / (2 * s2)).exp() / (1 - rho)
            cache[prec] = total + tail * arb(0.5, 0.5)  # Z in [partial sum, partial sum + tail]
        return cache[prec]

    def p(z, prec):
        return (-(arb(z * z)) / (2 * _arb(sigma2))).exp() / normaliser(prec)
    return p


_FAMILIES = {"bernoulli_exp": _bernoulli_exp, "geometric_exp": _geometric_exp, "dlaplace": _dlaplace,
             "dgauss": _dgauss}


@dataclass(frozen=True)
class Target:
    """A target law: ``name`` and its parameter, or an exact table.

    Parameters
    ----------
    name : str
        The family (or the table file's name).
    param : Fraction or None
        The family's parameter.
    table : dict or None
        Output -> exact probability, for a table.
    prob : callable
        ``prob(z, prec)``: a Fraction (exact) or an ``arb`` ball containing P[z] at ``prec`` bits.

    Examples
    --------
    >>> str(target("geometric_exp", 2))
    'geometric_exp(2)'
    """

    name: str
    param: Fraction | None = None
    table: dict | None = None
    prob: Callable = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __str__(self):
        return f"{self.name}({self.param})" if self.table is None else f"table {self.name}"


def target(name: str, param=None) -> Target:
    """The target law ``name`` (``bernoulli_exp``, ``geometric_exp``, ``dlaplace``, ``dgauss``) at ``param``.

    Parameters
    ----------
    name : str
        The family.
    param : int or Fraction
        Its exact parameter.

    Returns
    -------
    Target

    Examples
    --------
    >>> from fractions import Fraction
    >>> t = target("dlaplace", Fraction(3, 2))
    >>> str(t), t.prob(0, 64) > 0.32
    ('dlaplace(3/2)', True)
    >>> target("dgauss", 0)
    Traceback (most recent call last):
    ...
    exactdp.samplers.explore.SamplerError: target dgauss: the parameter must be > 0, not 0
    """
    if name not in _FAMILIES:
        raise SamplerError(f"unknown target {name!r} (known: {', '.join(_FAMILIES)}, or a .json table)")
    if isinstance(param, float) or param is None:
        raise SamplerError(f"target {name}: the parameter must be an exact rational, not {param!r}")
    try:
        x = Fraction(param)
    except (TypeError, ValueError):
        raise SamplerError(f"target {name}: the parameter must be an exact rational, not {param!r}") from None
    return Target(name, x, None, _FAMILIES[name](x))


def _exact(text, what: str) -> Fraction:
    if isinstance(text, bool) or not isinstance(text, int | str):
        raise SamplerError(f"{what}: an exact value is an integer or a string such as \"1/3\", not {text!r}")
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SamplerError(f"{what}: {text!r} is not an exact rational") from None


def parse_target(text: str) -> Target:
    """A target from the command line: ``dlaplace:3/2``, ``dlaplace(3/2)`` or a JSON table file.

    Parameters
    ----------
    text : str
        ``NAME:PARAM``, ``NAME(PARAM)`` or a path ending in ``.json``.

    Returns
    -------
    Target

    Examples
    --------
    >>> str(parse_target("dgauss(2)")), str(parse_target("bernoulli_exp:1/2"))
    ('dgauss(2)', 'bernoulli_exp(1/2)')
    >>> parse_target("laplace:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.samplers.explore.SamplerError: unknown target 'laplace' (known: ...)
    """
    t = text.strip()
    if t.endswith(".json"):
        try:
            with open(t, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError) as e:
            raise SamplerError(f"target table {t}: {e}") from None
        values = data.get("values", data) if isinstance(data, dict) else None
        if not isinstance(values, dict) or not values:
            raise SamplerError(f"target table {t}: expected {{\"values\": {{\"0\": \"1/2\", ...}}}}")
        table = {}
        for k, v in values.items():
            try:
                z = int(k)
            except ValueError:
                raise SamplerError(f"target table {t}: the output {k!r} is not an integer") from None
            q = _exact(v, f"target table {t}, output {z}")
            if not 0 <= q <= 1:
                raise SamplerError(f"target table {t}: P[{z}] = {q} is not a probability")
            table[z] = q
        if sum(table.values()) > 1:
            raise SamplerError(f"target table {t}: the values sum to {sum(table.values())} > 1")
        return Target(os.path.basename(t), None, table, lambda z, prec: table.get(z, Fraction(0)))
    for sep in (":", "("):
        if sep in t:
            name, _, rest = t.partition(sep)
            rest = rest[:-1] if sep == "(" and rest.endswith(")") else rest
            return target(name.strip(), _exact(rest.strip(), f"target {name.strip()}"))
    raise SamplerError(f"target {t!r}: expected NAME:PARAM (e.g. dlaplace:3/2) or a .json table")


@dataclass(frozen=True)
class Row:
    """One output value: its exact enclosure, the target and where the target lies.

    Parameters
    ----------
    value : int
        The output value.
    lo, hi : Fraction
        Its exact enclosure.
    target : str
        The target probability (a fraction, or an Arb ball as text).
    status : str
        ``inside``, ``below`` (target < lo), ``above`` (target > hi) or ``undecided``.

    Examples
    --------
    >>> Row(0, Fraction(1, 2), Fraction(1, 2), "1/2", "inside").status
    'inside'
    """

    value: int
    lo: Fraction
    hi: Fraction
    target: str
    status: str


@dataclass(frozen=True)
class Comparison:
    """The verdict of :func:`compare`, with every row, the witness and the reason of an undecided verdict.

    Parameters
    ----------
    verdict : str
        ``matches``, ``differs`` or ``undecided``.
    rows : tuple of Row
        Every value compared.
    residual : Fraction
        The law's residual (every enclosure's width).
    width : Fraction
        The width bound ``matches`` needs.
    target : str
        The target's name.
    witness : Row or None
        For ``differs``: the smallest output value whose target lies outside its enclosure.
    reason : str
        For ``undecided``: why, and by how much.

    Examples
    --------
    >>> Comparison("matches", (), Fraction(0), Fraction(0), "dlaplace(1)").exit_code
    0
    """

    verdict: str
    rows: tuple
    residual: Fraction
    width: Fraction
    target: str
    witness: Row | None = None
    reason: str = ""

    @property
    def exit_code(self) -> int:
        """The command line's exit code: 0 matches, 1 differs, 3 undecided.

        Returns
        -------
        int

        Examples
        --------
        >>> Comparison("differs", (), Fraction(0), Fraction(0), "t").exit_code
        1
        """
        return {"matches": 0, "differs": 1, "undecided": 3}[self.verdict]


def _locate(lo: Fraction, hi: Fraction, t, prec: int) -> str:
    if isinstance(t, Fraction):
        return "below" if t < lo else "above" if t > hi else "inside"
    lb, hb = _arb(lo), _arb(hi)
    if t < lb:
        return "below"
    if t > hb:
        return "above"
    if lb <= t and t <= hb:  # python-flint's comparisons are True only when certain
        return "inside"
    return "undecided"


def _text(t) -> str:
    return str(t) if isinstance(t, Fraction) else t.str(20, radius=True)


def compare(law: Law, tgt: Target, support: tuple[int, int], *, width=Fraction(1, 10**6),
            max_prec: int = 4096) -> Comparison:
    """Decide whether the target lies in the explored enclosure of every value of ``support``.

    Parameters
    ----------
    law : Law
        The explored law (:func:`exactdp.samplers.law`).
    tgt : Target
        The target (:func:`target`, :func:`parse_target`).
    support : (int, int)
        The values compared: the integers ``lo..hi``.
    width : Fraction
        ``matches`` needs the residual (every enclosure's width) at most this; a wider residual with the target
        inside every enclosure is ``undecided``.
    max_prec : int
        The highest Arb precision tried (bits) before a value is left undecided.

    Returns
    -------
    Comparison
        ``differs`` when some target value is certainly outside its enclosure (the witness); ``matches`` when
        every one is certainly inside and the residual is at most ``width``; ``undecided`` otherwise.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from exactdp.samplers import law
    >>> from exactdp.samplers.cks20 import bernoulli_exp
    >>> L = law(bernoulli_exp, [Fraction(1, 2)], summarise=["bernoulli_exp"], depth=20)
    >>> compare(L, target("bernoulli_exp", Fraction(1, 2)), (0, 1), width=Fraction(1, 10**15)).verdict
    'matches'
    >>> compare(L, target("bernoulli_exp", Fraction(1, 3)), (0, 1)).verdict
    'differs'
    """
    lo_z, hi_z = support
    if not (isinstance(lo_z, int) and isinstance(hi_z, int)) or lo_z > hi_z:
        raise SamplerError(f"support must be integers LO <= HI, not {support!r}")
    if hi_z - lo_z > MAX_SUPPORT - 1:
        raise SamplerError(f"support {lo_z}..{hi_z}: at most {MAX_SUPPORT} values are compared")
    width = Fraction(width)
    rows = []
    for z in range(lo_z, hi_z + 1):
        lo, hi = law.interval(z)
        prec, status, t = 64, "undecided", None
        while prec <= max_prec:
            with ctx.workprec(prec):
                t = tgt.prob(z, prec)
                status = _locate(lo, hi, t, prec)
            if status != "undecided":
                break
            prec *= 2
        rows.append(Row(z, lo, hi, _text(t), status))
    rows_t = tuple(rows)
    outside = [r for r in rows if r.status in ("below", "above")]
    if outside:
        w = outside[0]  # the smallest output value outside its enclosure
        return Comparison("differs", rows_t, law.residual, width, str(tgt), w)
    open_ = [r.value for r in rows if r.status == "undecided"]
    if open_:
        return Comparison("undecided", rows_t, law.residual, width, str(tgt), None,
                          f"the target at {open_[0]} is not separated from its enclosure's ends at {max_prec} bits")
    if law.residual > width:
        return Comparison("undecided", rows_t, law.residual, width, str(tgt), None,
                          f"the residual {float(law.residual):.3e} is above the width bound {float(width):.3e} "
                          f"(by a factor {float(law.residual / width):.3g}): raise --depth or lower --tol")
    return Comparison("matches", rows_t, law.residual, width, str(tgt))
