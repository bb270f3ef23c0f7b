"""Reference implementations of the CKS20 samplers, for testing :func:`exactdp.samplers.law` (and mutants of them).

Written from the pseudocode of Canonne, Kamath and Steinke 2020, "The Discrete Gaussian for Differential
Privacy" (NeurIPS 2020; arXiv:2004.00010): Algorithm 1 (Bernoulli(exp(-gamma))), Algorithm 2 (discrete Laplace
through a geometric sampler) and Algorithm 3 (discrete Gaussian by rejection from a discrete Laplace).  Every
sampler takes the source of randomness first, ``f(rng, *args)``, draws only through ``rng.randrange`` and
computes with :class:`fractions.Fraction`; so the same code runs with a :class:`random.Random` and under
:func:`exactdp.samplers.law`.

These are test fixtures, not production samplers: they are short and follow the paper line by line.
:func:`variant` builds a copy of this module with one planted bug (a mutation of this source text), to show
that an exact law finds what a statistical test needs millions of samples for (issue 30):

* ``"division"``: the division ``gamma / k`` of Algorithm 1 done by :func:`_dashu_divide`, a rational division
  that slips when ``gcd(numerator, k) > 1`` (the kind of bug of dashu#57 behind opendp#2638, where
  ``(-2/3) / 4 != -1/6``).  At scale 1 no such gcd occurs, so the slip is invisible there.
* ``"off-by-one"``: ``magnitude < 1`` written ``magnitude <= 1`` in the rejection test of the discrete
  Laplace sampler (so -1 is rejected too).
* ``"rejection"``: the discrete Laplace sampler no longer rejects the draw (sign = 1, magnitude = 0), so 0 is
  returned too often ("negative zero" is not rejected).

Examples
--------
>>> import random
>>> from fractions import Fraction
>>> rng = random.Random(1)
>>> sorted({dlaplace(rng, Fraction(3, 2)) for _ in range(200)})[:3]   # doctest: +SKIP
[-7, -6, -5]
>>> bernoulli(rng, Fraction(0)), bernoulli(rng, Fraction(1))
(False, True)
"""

from __future__ import annotations

import inspect
import sys
import types
from fractions import Fraction
from math import floor, gcd, isqrt

# the samplers are test fixtures reached as attributes (cks20.dlaplace); the module's API is the mutant builder
__all__ = ["BUGS", "SUMMARISE", "variant"]


def _dashu_divide(q: Fraction, k: int) -> Fraction:
    """``q / k`` with a planted slip: the common factor of the numerator and ``k`` is removed from the numerator
    only, so the result is ``g`` times too small when ``g = gcd(numerator, k) > 1`` (e.g. (2/3) / 2 gives 1/6).

    >>> _dashu_divide(Fraction(2, 3), 2), Fraction(2, 3) / 2
    (Fraction(1, 6), Fraction(1, 3))
    >>> _dashu_divide(Fraction(1, 3), 2) == Fraction(1, 3) / 2     # gcd 1: right
    True
    """
    g = gcd(q.numerator, k)
    return Fraction(q.numerator // g, q.denominator * k)


def bernoulli(rng, p: Fraction) -> bool:
    """Bernoulli(p) for a rational ``p = n/d`` in [0, 1]: draw U uniform on {1, ..., d}, return U <= n.

    >>> from exactdp.samplers import law
    >>> law(bernoulli, [Fraction(2, 5)]).masses[True]
    Fraction(2, 5)
    """
    n, d = p.numerator, p.denominator
    return rng.randrange(1, d + 1) <= n


def bernoulli_exp01(rng, gamma: Fraction) -> int:
    """Bernoulli(exp(-gamma)) for gamma in [0, 1] (CKS20 Algorithm 1, first part): K = 1; while
    Bernoulli(gamma / K) succeeds, K += 1; return K mod 2.  P[K > k] = gamma^k / k!, so P[K odd] = exp(-gamma).

    >>> from exactdp.samplers import law
    >>> law(bernoulli_exp01, [Fraction(0)]).masses
    {1: Fraction(1, 1)}
    """
    k = 1
    while bernoulli(rng, gamma / k):
        k += 1
    return k % 2


def bernoulli_exp(rng, gamma: Fraction) -> int:
    """Bernoulli(exp(-gamma)) for gamma >= 0 (CKS20 Algorithm 1): for gamma > 1, floor(gamma) independent
    Bernoulli(exp(-1)) must all succeed, then one Bernoulli(exp(-(gamma - floor(gamma)))).

    >>> from exactdp.samplers import law
    >>> L = law(bernoulli_exp, [Fraction(3, 2)], depth=8)
    >>> L.masses[1] < L.masses[0]
    True
    """
    if gamma <= 1:
        return bernoulli_exp01(rng, gamma)
    for _ in range(floor(gamma)):
        if not bernoulli_exp01(rng, Fraction(1)):
            return 0
    return bernoulli_exp01(rng, gamma - floor(gamma))


def geometric_exp_slow(rng, x: Fraction) -> int:
    """The geometric law P[k] = (1 - exp(-x)) exp(-k x), k >= 0, counting successes of Bernoulli(exp(-x)).

    >>> from exactdp.samplers import law
    >>> law(geometric_exp_slow, [Fraction(1)], depth=1).masses    # one choice: K = 2 ends Algorithm 1 with 0
    {0: Fraction(1, 2)}
    """
    k = 0
    while bernoulli_exp(rng, x):
        k += 1
    return k


def _fast_round(rng, t: int):
    """One round of the first loop of CKS20 Algorithm 2: U uniform on {0, ..., t-1}, kept with probability
    exp(-U/t); None when rejected.  A function of its own so that ``summarise`` makes a rejected round one branch
    (the paths of different rejected U would otherwise be explored apart, 2^rounds of them).

    >>> from exactdp.samplers import law
    >>> law(_fast_round, [1]).masses
    {0: Fraction(1, 1)}
    """
    u = rng.randrange(t)
    return u if bernoulli_exp(rng, Fraction(u, t)) else None


def geometric_exp_fast(rng, x: Fraction) -> int:
    """The same geometric law for x = s/t > 0, faster (CKS20 Algorithm 2, first part): U uniform on
    {0, ..., t-1} accepted with probability exp(-U/t), V ~ geometric(1), return floor((V t + U) / s).

    >>> from exactdp.samplers import law
    >>> law(geometric_exp_fast, [Fraction(0)]).masses
    {0: Fraction(1, 1)}
    """
    if x == 0:
        return 0
    s, t = x.numerator, x.denominator
    u = None
    while u is None:
        u = _fast_round(rng, t)
    v = geometric_exp_slow(rng, Fraction(1))
    return (v * t + u) // s


def _dlaplace_round(rng, scale: Fraction):
    """One round of the loop of CKS20 Algorithm 2: a sign and a geometric magnitude; None when (sign = 1,
    magnitude = 0) is rejected, so that 0 is not counted twice (a function of its own, see :func:`_fast_round`).

    >>> from exactdp.samplers import law
    >>> law(_dlaplace_round, [Fraction(1)], depth=1).masses
    {}
    """
    sign = bernoulli(rng, Fraction(1, 2))
    magnitude = geometric_exp_fast(rng, 1 / scale)
    if sign and magnitude < 1:
        return None
    return -magnitude if sign else magnitude


def dlaplace(rng, scale: Fraction) -> int:
    """The discrete Laplace law P[z] = tanh(1/(2 scale)) exp(-|z| / scale) on the integers (CKS20 Algorithm 2):
    rounds of :func:`_dlaplace_round` until one is not rejected.

    >>> from exactdp.samplers import law
    >>> L = law(dlaplace, [Fraction(1)], depth=6)
    >>> L.masses[1] == L.masses[-1]
    True
    """
    z = None
    while z is None:
        z = _dlaplace_round(rng, scale)
    return z


def _dgauss_round(rng, sigma2: Fraction, t: int):
    """One round of CKS20 Algorithm 3: Y from the discrete Laplace of scale t, kept with probability
    exp(-(|Y| - sigma2/t)^2 / (2 sigma2)); None when rejected (a function of its own, see :func:`_fast_round`).

    >>> from exactdp.samplers import law
    >>> law(_dgauss_round, [Fraction(1), 2], depth=1).masses
    {}
    """
    y = dlaplace(rng, Fraction(t))
    gamma = (abs(y) - sigma2 / t) ** 2 / (2 * sigma2)
    return y if bernoulli_exp(rng, gamma) else None


def dgauss(rng, sigma2: Fraction) -> int:
    """The discrete Gaussian P[z] proportional to exp(-z^2 / (2 sigma2)) (CKS20 Algorithm 3): a discrete
    Laplace Y of scale t = floor(sqrt(sigma2)) + 1 accepted with probability exp(-(|Y| - sigma2/t)^2 / (2 sigma2)).

    >>> from exactdp.samplers import law
    >>> law(dgauss, [Fraction(1)], depth=2).masses
    {}
    """
    t = isqrt(floor(sigma2)) + 1
    y = None
    while y is None:
        y = _dgauss_round(rng, sigma2, t)
    return y


#: the functions to name in ``summarise`` for the samplers of this module (inner ones first)
SUMMARISE = ("bernoulli_exp01", "bernoulli_exp", "geometric_exp_slow", "_fast_round", "geometric_exp_fast",
             "_dlaplace_round", "dlaplace", "_dgauss_round")


#: the planted bugs of :func:`variant`: name -> (the source text replaced, its replacement)
BUGS = {
    "division": ("while bernoulli(rng, gamma / k):", "while bernoulli(rng, _dashu_divide(gamma, k)):"),
    "off-by-one": ("if sign and magnitude < 1:", "if sign and magnitude <= 1:"),
    "rejection": ("    if sign and magnitude < 1:\n        return None\n", ""),
}


def variant(bug: str) -> types.ModuleType:
    """A copy of this module with one planted bug (see :data:`BUGS`), built by mutating its source text.

    Parameters
    ----------
    bug : str
        ``"division"``, ``"off-by-one"`` or ``"rejection"``.

    Returns
    -------
    module
        A fresh module whose functions (``dlaplace``, ``bernoulli_exp``, ...) carry the bug; their globals are
        the new module's, so ``summarise`` works on them as on the reference.

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> m = variant("division")
    >>> x = [Fraction(2, 3)]
    >>> law(m.bernoulli_exp01, x, depth=2).masses == law(bernoulli_exp01, x, depth=2).masses
    False
    >>> variant("typo")
    Traceback (most recent call last):
    ...
    ValueError: unknown planted bug 'typo' (known: division, off-by-one, rejection)
    """
    if bug not in BUGS:
        raise ValueError(f"unknown planted bug {bug!r} (known: {', '.join(BUGS)})")
    old, new = BUGS[bug]
    source = inspect.getsource(sys.modules[__name__])
    head, _, tail = source.partition("#: the planted bugs")
    if head.count(old) != 1:  # the mutation site must be unique in the code (BUGS itself is after the marker)
        raise AssertionError(f"the mutation site of {bug!r} is not unique")
    mutated = head.replace(old, new) + "#: the planted bugs" + tail
    mod = types.ModuleType(f"{__name__}[{bug}]")
    mod.__dict__["__file__"] = __file__
    # our own source, mutated at one fixed site chosen from BUGS above: no user text ever reaches this exec
    exec(compile(mutated, f"<{__name__}[{bug}]>", "exec"), mod.__dict__)
    return mod
