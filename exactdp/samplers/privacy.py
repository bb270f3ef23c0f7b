"""The privacy of the additive mechanism a sampler implements, from its explored law (issue 30, item 4).

The mechanism is ``M(x) = x + Z`` on the integers, ``Z`` drawn by the sampler's code, and neighbours are inputs
at distance at most ``sensitivity``.  From the enclosures ``p(z) in [lo_z, hi_z]`` over the explored range
``[LO, HI]``:

* for a shift ``d`` (``0 < |d| <= sensitivity``) and every ``z`` with ``z`` and ``z - d`` in the range,
  ``p(z) <= R p(z - d)`` where ``R = max hi_z / lo_{z-d}``: so for every set ``S`` of outputs,
  ``P[M(x) in S] <= R P[M(x + d) in S] + delta`` with ``delta = max_d (1 - sum_{z in G_d} lo_z)``, ``G_d`` the
  values ``z`` of the range with ``z - d`` in it (the rest of the mass: tails and residual, bounded by what was
  not found there);
* the pure eps of the implementation is at least ``log L``, ``L = max lo_z / hi_{z-d}`` (one pair of singletons).

So the code is (log R, delta)-DP and not eps-DP for any eps < log L; both logs are enclosed by Arb balls.
:func:`additive_privacy` is a plain result; :func:`certify_sampler_privacy` writes the same statement as a
certificate of kind ``sampler_privacy`` that the independent kernel re-derives from the intervals
(:mod:`exactdp.recheck.sampler`; the intervals themselves come from running code and are taken on trust).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from flint import arb, ctx, fmpq

from ..certificate import UNDECIDED, Certificate, Method, Verdict
from ..exact.level import Level
from .evidence import SamplerInterval, SamplerPair, SamplerPrivacyEvidence, sampler_claim
from .explore import Law, SamplerError

__all__ = ["AdditivePrivacy", "additive_privacy", "certify_sampler_privacy"]


@dataclass(frozen=True)
class AdditivePrivacy:
    """The certified statement of :func:`additive_privacy`.

    Parameters
    ----------
    support : (int, int)
        The explored range ``LO..HI`` of the noise.
    sensitivity : int
        Neighbouring inputs differ by at most this.
    ratio_upper : Fraction or None
        ``R``: every ratio ``p(z) / p(z - d)`` in the range is at most this (None: some ``lo`` is 0, no finite
        bound).
    ratio_lower : Fraction
        ``L``: some ratio is at least this.
    at_upper, at_lower : (int, int)
        The ``(z, d)`` attaining ``R`` and ``L``.
    delta : Fraction
        The exact delta covering the mass outside the range and the residual.
    eps_upper, eps_lower : str
        Arb balls enclosing ``log R`` and ``log L``.

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> additive_privacy(law(lambda rng: rng.randrange(2)), (0, 1)).delta
    Fraction(1, 2)
    """

    support: tuple
    sensitivity: int
    ratio_upper: Fraction | None
    ratio_lower: Fraction
    at_upper: tuple | None
    at_lower: tuple
    delta: Fraction
    eps_upper: str
    eps_lower: str

    def statement(self) -> str:
        """The claim in one sentence.

        Returns
        -------
        str

        Examples
        --------
        >>> from exactdp.samplers import law
        >>> p = additive_privacy(law(lambda rng: rng.randrange(3) - rng.randrange(3)), (-2, 2))
        >>> "eps = log(2)" in p.statement()
        True
        """
        lo, hi = self.support
        if self.ratio_upper is None:
            head = "no finite eps over the explored range (a probability with a zero lower bound)"
        else:
            head = (f"(eps, delta)-DP with eps = log({self.ratio_upper}) in {self.eps_upper} and "
                    f"delta = {float(self.delta):.3e} (exactly {self.delta})")
        return (f"the additive mechanism x + Z (Z from the code, neighbours at distance <= {self.sensitivity}, "
                f"noise explored on {lo}..{hi}) is {head}; its pure eps is at least log({self.ratio_lower}) "
                f"in {self.eps_lower}")


def _log(q: Fraction) -> str:
    with ctx.workprec(128):
        return arb(fmpq(q.numerator, q.denominator)).log().str(15, radius=True)


def additive_privacy(law: Law, support: tuple[int, int], sensitivity: int = 1) -> AdditivePrivacy:
    """The (eps, delta) of ``x + Z`` for the explored law of ``Z``, certified from its exact enclosures.

    Parameters
    ----------
    law : Law
        The explored law of the noise (integer outputs).
    support : (int, int)
        The range ``LO..HI`` over which ratios are taken.
    sensitivity : int
        Neighbouring inputs differ by at most this (a positive integer).

    Returns
    -------
    AdditivePrivacy

    Examples
    --------
    >>> from fractions import Fraction
    >>> from exactdp.samplers import law
    >>> def noise(rng):          # P[-1] = P[1] = 1/4, P[0] = 1/2
    ...     return rng.randrange(2) - rng.randrange(2)
    >>> p = additive_privacy(law(noise), (-1, 1))
    >>> p.ratio_upper, p.ratio_lower, p.delta
    (Fraction(2, 1), Fraction(2, 1), Fraction(1, 4))
    """
    lo_z, hi_z = support
    if not (isinstance(lo_z, int) and isinstance(hi_z, int)) or lo_z >= hi_z:
        raise SamplerError(f"support must be integers LO < HI, not {support!r}")
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, int) or not 1 <= sensitivity <= hi_z - lo_z:
        raise SamplerError(f"sensitivity must be an integer in [1, {hi_z - lo_z}], not {sensitivity!r}")
    iv = {z: law.interval(z) for z in range(lo_z, hi_z + 1)}
    best_up: Fraction | None = Fraction(0)
    best_lo = Fraction(0)
    at_up = at_lo = None
    delta = Fraction(0)
    for d in [s for k in range(1, sensitivity + 1) for s in (k, -k)]:
        zs = [z for z in range(lo_z, hi_z + 1) if lo_z <= z - d <= hi_z]
        delta = max(delta, 1 - sum((iv[z][0] for z in zs), Fraction(0)))
        for z in zs:
            (lo1, hi1), (lo2, hi2) = iv[z], iv[z - d]
            if best_up is not None:
                if lo2 == 0:
                    best_up, at_up = None, (z, d)
                elif hi1 / lo2 > best_up:
                    best_up, at_up = hi1 / lo2, (z, d)
            if hi2 > 0 and lo1 / hi2 > best_lo:
                best_lo, at_lo = lo1 / hi2, (z, d)
    if at_lo is None:
        raise SamplerError("no probability of the range has a positive lower bound: explore deeper")
    return AdditivePrivacy((lo_z, hi_z), sensitivity, best_up, best_lo, at_up, at_lo, delta,
                           _log(best_up) if best_up is not None else "inf", _log(best_lo))


def _shifts(k: int) -> list[int]:
    return [s for j in range(1, k + 1) for s in (j, -j)]


def _bounds(iv: dict, lo_z: int, hi_z: int, k: int):
    """``(R, at, L, delta)`` from the enclosures: the pairs with ``lo_{z-d} = 0`` leave ``G_d`` (their mass goes
    to delta), so ``R`` is finite whenever some pair has a positive lower bound."""
    R, at, L, delta = None, None, None, Fraction(0)
    if k > hi_z - lo_z:            # a shift past the range: no z has its partner there, so all mass is in delta
        delta = Fraction(1)
    for d in _shifts(min(k, hi_z - lo_z)):
        found = Fraction(0)
        for z in range(max(lo_z, lo_z + d), min(hi_z, hi_z + d) + 1):
            (lo1, hi1), (lo2, hi2) = iv[z], iv[z - d]
            if lo2 > 0:
                found += lo1
                if R is None or hi1 / lo2 > R:
                    R, at = hi1 / lo2, (z, d)
            if hi2 > 0 and (L is None or lo1 / hi2 > L):
                L = lo1 / hi2
        delta = max(delta, 1 - found)
    return R, at, L, delta


_LOG = re.compile(r"log\((-?[0-9]+(?:/[0-9]+)?)\)")


def _ratio_within(R: Fraction, eps: str) -> bool:
    """``R <= e^eps`` for ``eps`` written ``log(Q)`` or as an exact rational (decided exactly: ``e^q`` is
    irrational for rational ``q != 0``, Lindemann, so Arb balls at growing precision separate them)."""
    m = _LOG.fullmatch(eps.strip())
    if m:
        Q = Fraction(m.group(1))
        if Q <= 0:
            raise SamplerError(f"eps = {eps}: log of a non-positive number")
        return R <= Q
    try:
        q = Fraction(eps)
    except (ValueError, ZeroDivisionError):
        raise SamplerError(f"eps must be log(Q) or an exact rational, not {eps!r}") from None
    if q < 0:
        raise SamplerError(f"eps must be >= 0, not {eps}")
    if q == 0:
        return R <= 1
    prec = 64
    while True:
        with ctx.workprec(prec):
            diff = arb(fmpq(R.numerator, R.denominator)) - arb(fmpq(q.numerator, q.denominator)).exp()
            if diff < 0:
                return True
            if diff > 0:
                return False
        prec *= 2


def certify_sampler_privacy(law: Law, support: tuple[int, int], sensitivity: int = 1, *,
                            inputs: tuple[int, int] | None = None, eps: str | None = None,
                            delta: str | None = None, name: str = "the sampler") -> Certificate:
    """A re-checkable certificate of the (eps, delta) of ``x + Z`` given the explored law of ``Z`` (issue 30, 4).

    Given the enclosures ``[lo_z, lo_z + residual]`` of :func:`~exactdp.samplers.law` on ``LO..HI`` (taken on
    trust by the kernel: it cannot re-run code), ``R = max hi_z / lo_{z-d}`` over shifts
    ``0 < |d| <= min(sensitivity, b - a)`` and pairs with ``lo_{z-d} > 0``, ``delta = max_d (1 - sum_{G_d} lo_z)``
    and ``L = max lo_z / hi_{z-d}``: ``x + Z`` is ``(log R, delta)``-DP over inputs ``a..b`` (Dwork and Roth
    2014, Def. 2.4) and not ``eps``-DP for ``eps < log L``.  With a question ``(eps, delta)`` the verdict is holds
    when ``R <= e^eps`` and the delta is at most the one asked, undecided otherwise (the intervals bound the
    truth from one side: they do not show a failure).

    Parameters
    ----------
    law : Law
        The explored law of the noise (integer outputs).
    support : (int, int)
        The range ``LO < HI`` of the intervals.
    sensitivity : int
        Neighbouring inputs differ by at most this (a positive integer).
    inputs : (int, int), optional
        The inputs ``a <= b`` asked about (default ``0..sensitivity``: every shift occurs).
    eps, delta : str, optional
        The question, both or neither: ``eps`` as ``log(Q)`` or an exact rational, ``delta`` exact.
    name : str
        What was run (``FILE:FUNCTION(args)``), named in the claim.

    Returns
    -------
    Certificate
        Kind ``sampler_privacy``; verdict holds (the value, or the question answered yes) or undecided.

    Raises
    ------
    SamplerError
        A bad range, sensitivity, inputs or question, or no positive lower bound in the range.

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> from exactdp.recheck import recheck
    >>> tri = law(lambda rng: rng.randrange(3) - rng.randrange(3))     # P[z] = (3 - |z|)/9
    >>> c = certify_sampler_privacy(tri, (-2, 2), eps="log(2)", delta="1/9", name="tri")
    >>> c.verdict.value, c.evidence.ratio, c.evidence.delta, recheck(c).status
    ('holds', '2', '1/9', 'confirmed')
    >>> certify_sampler_privacy(tri, (-2, 2), eps="1/2", delta="1/9").verdict.value      # 2 > e^(1/2)
    'undecided'
    """
    lo_z, hi_z = support
    if isinstance(lo_z, bool) or isinstance(hi_z, bool) or not (isinstance(lo_z, int) and isinstance(hi_z, int)) \
            or lo_z >= hi_z:
        raise SamplerError(f"support must be integers LO < HI, not {support!r}")
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, int) or sensitivity < 1:
        raise SamplerError(f"sensitivity must be a positive integer, not {sensitivity!r}")
    a, b = (0, sensitivity) if inputs is None else inputs
    if not (type(a) is int and type(b) is int and a <= b):
        raise SamplerError(f"inputs must be integers a <= b, not {inputs!r}")
    if (eps is None) != (delta is None):
        raise SamplerError("the question needs both eps and delta")
    if delta is not None and not 0 <= _exact(delta) <= 1:
        raise SamplerError(f"delta must be in [0, 1], not {delta}")
    if eps is not None:
        _ratio_within(Fraction(1), eps)           # the question's eps is read before any work
    k = min(sensitivity, b - a)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in law.masses):
        raise SamplerError("the sampler returned a value that is not an integer: no additive mechanism")
    iv = {z: law.interval(z) for z in range(lo_z, hi_z + 1)}
    if k == 0:
        raise SamplerError("no two inputs of the range are neighbours: nothing to certify")
    R, at, L, dlt = _bounds(iv, lo_z, hi_z, k)
    if R is None or at is None:
        raise SamplerError("no probability of the range has a positive lower bound: explore deeper")
    ev = SamplerPrivacyEvidence(
        sampler=name, support=[lo_z, hi_z], inputs=[a, b], sensitivity=sensitivity,
        intervals=[SamplerInterval(value=z, lo=str(iv[z][0]), hi=str(iv[z][1])) for z in range(lo_z, hi_z + 1)],
        outside=str(law.mass_outside(lo_z, hi_z)), residual=str(law.residual), ratio=str(R),
        at=SamplerPair(z=at[0], shift=at[1]), ratio_lower=None if L is None else str(L), delta=str(dlt),
        eps_asked=eps, delta_asked=None if delta is None else str(_exact(delta)))
    claim = sampler_claim(ev)
    if eps is None:
        return Certificate("sampler_privacy", Verdict.HOLDS, Method.RATIONAL, claim, ev)
    within = _ratio_within(R, eps)
    zero = _LOG.fullmatch(eps.strip()) is None and Fraction(eps) == 0
    method = Method.of(None if zero else Level.from_eps(eps.strip()))     # the one method rule: log(Q) is rational
    if within and dlt <= _exact(delta):
        return Certificate("sampler_privacy", Verdict.HOLDS, method, claim, ev)
    return Certificate("sampler_privacy", UNDECIDED, Method.NONE, claim, ev,
                       reason=f"the intervals show eps = log(R), R ~ {float(R):.12g}, and delta ~ "
                              f"{float(dlt):.6g}, not the question's: they bound the code's law from one side and "
                              "cannot show a failure (explore deeper or ask less)")


def _exact(text) -> Fraction:
    try:
        return Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        raise SamplerError(f"delta must be an exact rational, not {text!r}") from None
