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

So the code is (log R, delta)-DP and not eps-DP for any eps < log L; both logs are enclosed by Arb balls.  This is
a plain result object: the kernel has no certificate kind for it yet (see docs/samplers.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import arb, ctx, fmpq

from .explore import Law, SamplerError

__all__ = ["AdditivePrivacy", "additive_privacy"]


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
