"""Uniform-prior utilities with optimal remaps at the case studies' sizes, certified (ECP14 sec. 7, Figs. 6-7).

For the uniform prior on ``n`` secrets the utility of a mechanism ``K`` with the optimal remap is
``U(K) = (1/n) sum_z max_x K(x)(z)`` (ECP14 sec. 3.5: the probability of a correct guess).

* **Tight-constraints mechanism** (ECP14 Thm 2, attained by Prop. 7): ``U = sum(z)/n`` with
  ``Phi z = 1``; enclosed from the exact rational enclosures of ``z`` that a ``tight`` certificate carries
  (the symmetry-reduced verified solve), cell by cell (:func:`tight_utility`).
* **Planar Laplace, discretised and truncated** (ECP14 sec. 7.2) on the ``N x N`` grid of unit step with the
  Euclidean distance: ``K(x)(z) = e^(-beta d(x,z)) / Z_x`` with ``beta = eps/2`` (eps-geo-indistinguishable:
  the normaliser ratio contributes at most ``e^(beta d)``).  :func:`planar_laplace_utility` encloses ``U``
  rigorously in Arb ball arithmetic without the ``n^2`` entries:

  1. ``Z_x = sum_{u, v} W[|u|][|v|]`` over the offsets that stay in the grid, ``W[u][v] = e^(-beta
     sqrt(u^2 + v^2))``; with the prefix sums ``G(p, q) = sum_{u <= p, v <= q} W[u][v]`` and
     ``a' = N - 1 - a``, ``b' = N - 1 - b``,
     ``Z_(a,b) = G(a,b) + G(a,b') + G(a',b) + G(a',b') - G(a,0) - G(a',0) - G(0,b) - G(0,b') + 1``:
     ``N^2`` exponentials and ``O(1)`` per point;
  2. ``Z`` is constant on the orbits of the grid's 8 symmetries (they preserve the grid and ``d``), so only
     orbit representatives are evaluated, weighted by the orbit sizes;
  3. ``max_x K(x)(z) = K(z)(z) = 1/Z_z``: by the triangle inequality ``Z_x = sum_y e^(-beta d(x,y)) >=
     sum_y e^(-beta (d(x,z) + d(z,y))) = e^(-beta d(x,z)) Z_z``, so ``K(x)(z) <= 1/Z_z`` for every ``x``
     (true of the exponential mechanism on any finite metric).  Hence ``U = (1/n) sum_z 1/Z_z``, summed over
     orbit representatives with their sizes -- ``N^2`` exponentials, no float anywhere.

* **Geometric mechanism** (range-restricted, ECP14 sec. 7.1, Fig. 6): the column maxima are on the diagonal,
  so ``U = (2/(1+a) + (N-2)(1-a)/(1+a)) / N`` per coordinate with ``a = e^(-eps/s)`` (``s`` the metric step
  of one geometric step), raised to the number of independent coordinates (:func:`geometric_utility`).

:func:`compare_utilities` turns two enclosures into a ``utility_comparison`` certificate (holds when the
tight-constraints utility is certified higher).

On the 2 x 2 grid every column maximum is on the diagonal, so ``U = 1/Z = 1/(1 + 2e^(-1/2) + e^(-sqrt(2)/2))``
at eps = 1:

>>> lo, hi = planar_laplace_utility(2, "1").enclosure
>>> outward_decimals(lo, hi, 12)
('0.369531395757', '0.369531395758')
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass

from flint import arb, ctx, fmpq

from ..certificate import UNDECIDED, Certificate, Verdict
from ..certificate.utility_cmp import UtilityComparisonEvidence
from ..errors import InvalidInput, Undecided
from ..exact.values import to_rational

__all__ = ["planar_laplace_utility", "LaplaceUtility", "tight_utility", "geometric_utility", "compare_utilities",
           "outward_decimals"]

#: largest grid side handled (N^2 points)
MAX_SIDE = 400


@dataclass
class LaplaceUtility:
    """Certified enclosure ``lo <= U <= hi`` (exact rationals) of the planar-Laplace utility on an N x N grid;
    ``reps`` the orbit representatives ``(a, b, orbit size)`` of the square's 8 symmetries."""

    side: int
    eps: fmpq
    lo: fmpq
    hi: fmpq
    reps: list

    @property
    def enclosure(self) -> tuple:
        """``(lo, hi)``."""
        return self.lo, self.hi


def _orbit_reps(N: int) -> list:
    """``(a, b, size)``: one representative ``a <= b <= (N-1)/2`` per orbit of the square's 8 symmetries."""
    out = []
    h = (N - 1) // 2
    for a in range(h + 1):
        for b in range(a, h + 1):
            imgs = set()
            for p, q in ((a, b), (b, a)):
                for pp in (p, N - 1 - p):
                    for qq in (q, N - 1 - q):
                        imgs.add((pp, qq))
            out.append((a, b, len(imgs)))
    return out


def _weights(N: int, beta: arb) -> list:
    """``W[u][v] = e^(-beta sqrt(u^2 + v^2))`` as balls, one exponential per distinct ``u^2 + v^2``."""
    cache: dict = {}
    W = []
    for u in range(N):
        row = []
        for v in range(N):
            s = u * u + v * v
            w = cache.get(s)
            if w is None:
                w = cache[s] = (-beta * arb(s).sqrt()).exp()
            row.append(w)
        W.append(row)
    return W


def _prefix(W: list) -> list:
    """``G[p][q] = sum_{u <= p, v <= q} W[u][v]``."""
    N = len(W)
    G = [[arb(0)] * N for _ in range(N)]
    for p in range(N):
        run = arb(0)
        for q in range(N):
            run += W[p][q]
            G[p][q] = run + (G[p - 1][q] if p else 0)
    return G


def _normaliser(G: list, a: int, b: int) -> arb:
    """``Z_(a,b)``: the sum of ``W`` over the offsets from ``(a, b)`` that stay in the grid (step 1)."""
    N = len(G)
    A, B = N - 1 - a, N - 1 - b
    return (G[a][b] + G[a][B] + G[A][b] + G[A][B] - G[a][0] - G[A][0] - G[0][b] - G[0][B] + 1)


def planar_laplace_utility(side: int, eps, *, prec: int = 96) -> LaplaceUtility:
    """Certified uniform-prior utility, optimal remap, of the discretised planar Laplace mechanism.

    ``K(x)(z) = e^(-beta d(x,z)) / Z_x``, ``beta = eps/2``, on the ``side x side`` grid of unit step with the
    Euclidean distance; ``U = (1/n) sum_z max_x K(x)(z)`` (ECP14 sec. 7.2, Fig. 7).

    Parameters
    ----------
    side : int
        ``N``: the grid has ``N^2`` points, ``1 <= N <= 400``.
    eps : rational
        The level (``beta = eps/2``), ``eps > 0``.
    prec : int
        Ball precision in bits.

    Returns
    -------
    LaplaceUtility
        Exact rationals ``lo <= U <= hi`` (see the module docstring for the argument).

    Raises
    ------
    InvalidInput
        A side outside ``1..400`` or a level that is not a positive rational.

    Examples
    --------
    >>> r = planar_laplace_utility(1, "1/2")
    >>> r.lo, r.hi
    (1, 1)

    References
    ----------
    ECP14 sec. 7.2 (Figure 7); sec. 3.5 (utility with the optimal remap).
    """
    N, e = _check_side(side), to_rational(eps, what="eps")
    if e <= 0:
        raise InvalidInput(f"eps: expected a rational > 0, got {eps!r}; hint: eps = 1/2 or 13/10")
    with ctx.workprec(prec):
        G = _prefix(_weights(N, arb(e / 2)))
        reps = _orbit_reps(N)
        total = arb(0)
        for a, b, size in reps:
            total += size / _normaliser(G, a, b)       # max_x K(x)(z) = 1/Z_z (step 3)
        total /= N * N
        lo, hi = _rational(total.lower()), _rational(total.upper())
    return LaplaceUtility(N, e, lo, hi, reps)


def _check_side(side) -> int:
    try:
        N = None if isinstance(side, bool) else operator.index(side)
    except TypeError:
        N = None
    if N is None or not 1 <= N <= MAX_SIDE:
        raise InvalidInput(f"side: expected an integer 1..{MAX_SIDE}, got {side!r}")
    return N


def _rational(x: arb) -> fmpq:
    """The exact value of a ball with radius 0 (an end point from ``lower()``/``upper()``)."""
    m, e = x.mid().man_exp()
    return fmpq(int(m)) * fmpq(2) ** int(e) if e >= 0 else fmpq(int(m), 2 ** int(-e))


def outward_decimals(lo: fmpq, hi: fmpq, digits: int) -> tuple:
    """``(lo', hi')`` decimal strings with ``lo' <= lo``, ``hi <= hi'`` and ``digits`` decimals.

    >>> outward_decimals(fmpq(1, 3), fmpq(2, 3), 3)
    ('0.333', '0.667')
    """
    s = 10 ** digits
    a, b = (lo * s).floor(), (hi * s).ceil()
    return _dec(int(a), digits), _dec(int(b), digits)


def _dec(k: int, digits: int) -> str:
    sgn, k = ("-" if k < 0 else ""), abs(k)
    t = str(k).rjust(digits + 1, "0")
    return sgn + t[:-digits] + "." + t[-digits:]


def tight_utility(cert) -> tuple:
    """``(lo, hi, cells)``: the tight-constraints utility ``sum(z)/n`` (ECP14 Thm 2, Prop. 7) enclosed from a
    ``tight`` certificate that holds, and ``cells`` as ``(size, lo_z, hi_z)`` (exact rationals).

    Raises
    ------
    InvalidInput
        When the certificate is not a ``tight`` certificate that holds.
    Undecided
        When it carries no rational enclosure of ``z`` (an Arb-only solve).

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> from exactdp.exact.level import Level
    >>> from exactdp.theory.regular import tight_constraints
    >>> tight_utility(tight_constraints(path(3), Level.from_alpha("1/2")))[:2]   # z = (2/3, 1/3, 2/3)
    (5/9, 5/9)

    References
    ----------
    ECP14 Thm 2, Prop. 7.
    """
    if getattr(cert, "kind", None) != "tight" or cert.holds is not True:
        raise InvalidInput("cert: expected a tight certificate that holds (a tight-constraints mechanism exists)")
    ev = cert.evidence
    cells: list[tuple[int, fmpq, fmpq]]
    if ev.exact and ev.z is not None:
        cells = [(1, v, v) for v in (_q(t) for t in ev.z)]
    elif ev.verified is not None and ev.verified.get("z_enclosures") is not None:
        cell_of = ev.verified.get("cell_of") or list(range(len(ev.verified["z_enclosures"])))
        sizes = [0] * len(ev.verified["z_enclosures"])
        for c in cell_of:
            sizes[c] += 1
        cells = [(s, _q(lo), _q(hi)) for s, (lo, hi) in zip(sizes, ev.verified["z_enclosures"])]
    else:
        raise Undecided("the tight certificate carries no rational enclosure of z (an Arb-only solve)")
    n = sum(c[0] for c in cells)
    lo = sum((c[0] * c[1] for c in cells), fmpq(0)) / n
    hi = sum((c[0] * c[2] for c in cells), fmpq(0)) / n
    return lo, hi, cells


_RATIONAL = re.compile(r"-?[0-9]+(/[0-9]+)?")


def _q(text: str) -> fmpq:
    """An exact rational from certificate text: ``p/q`` read directly (fast), anything else by the parser."""
    if _RATIONAL.fullmatch(text):
        return fmpq(text)
    return to_rational(text, what="z")


def geometric_utility(values: int, eps, step: int = 1, power: int = 1, *, prec: int = 128) -> tuple:
    """``(lo, hi)`` exact rationals enclosing the range-restricted geometric mechanism's uniform-prior utility.

    ``((2/(1+a) + (N-2)(1-a)/(1+a)) / N)^power`` with ``a = e^(-eps/step)`` (ECP14 sec. 7.1, Fig. 6; the
    column maxima of the truncated geometric mechanism GRS12 are on its diagonal).

    Two answers: both column maxima are ``1/(1 + a)``, so ``U = 1/(1 + e^(-1)) = 0.7310585786...`` at eps = 1:

    >>> outward_decimals(*geometric_utility(2, "1"), 10)
    ('0.7310585786', '0.7310585787')
    """
    e = to_rational(eps, what="eps")
    if e <= 0 or values < 2 or step < 1 or power < 1:
        raise InvalidInput(f"geometric_utility: expected eps > 0, values >= 2, step >= 1, power >= 1; got eps={eps!r}, "
                           f"values={values!r}, step={step!r}, power={power!r}")
    with ctx.workprec(prec):
        a = (-arb(e / step)).exp()
        u = ((2 / (1 + a) + (values - 2) * (1 - a) / (1 + a)) / values) ** power
        return _rational(u.lower()), _rational(u.upper())


def compare_utilities(description: str, eps, tight_cert, other: str, params: dict, other_enclosure,
                      digits: int = 12) -> Certificate:
    """A ``utility_comparison`` certificate: is the tight-constraints utility certified above ``other``'s?

    Parameters
    ----------
    description : str
        The metric, in words.
    eps : rational
        The level.
    tight_cert : Certificate
        A ``tight`` certificate that holds (its ``z`` enclosures give the tight utility, :func:`tight_utility`).
    other : {"planar-laplace", "geometric"}
        The mechanism compared with; ``params`` its parameters (``{"side": N}`` or ``{"values": N, "step": s,
        "power": p}``), ``other_enclosure`` its utility ``(lo, hi)``.
    digits : int
        Decimals of the stated enclosures (rounded outward).

    Returns
    -------
    Certificate
        Holds when ``tight_lo > other_hi``, fails when ``tight_hi < other_lo``, else undecided.

    Raises
    ------
    InvalidInput
        An unknown ``other``, or a tight certificate at another level (or one that does not hold).

    Examples
    --------
    >>> from exactdp.metrics import grid
    >>> from exactdp.exact.level import Level
    >>> from exactdp.theory.regular import tight_constraints
    >>> m = grid((3, 3), "euclidean")
    >>> tc = tight_constraints(m, Level.from_eps("2"))
    >>> c = compare_utilities(m.description, "2", tc, "planar-laplace", {"side": 3},
    ...                       planar_laplace_utility(3, "2").enclosure)
    >>> c.holds, c.evidence.tight_utility, c.evidence.other_utility
    (True, ['0.668672655211', '0.668672655212'], ['0.359685785297', '0.359685785298'])
    >>> c.recheck().status
    'confirmed'

    References
    ----------
    ECP14 sec. 7, Figs. 6-7.
    """
    if other not in ("planar-laplace", "geometric"):
        raise InvalidInput(f"other: expected 'planar-laplace' or 'geometric', got {other!r}")
    e = to_rational(eps, what="eps")
    lv = getattr(getattr(tight_cert, "evidence", None), "level", None)
    if lv is None or lv.eps is None or to_rational(lv.eps, what="level") != e:
        raise InvalidInput(f"tight_cert: expected a tight certificate at eps = {e}, got one at "
                           f"{getattr(lv, 'text', None)!r}")
    lo, hi, cells = tight_utility(tight_cert)
    t = outward_decimals(lo, hi, digits)
    o = outward_decimals(fmpq(other_enclosure[0]), fmpq(other_enclosure[1]), digits)
    cell_text = [[c[0], *outward_decimals(c[1], c[2], 24)] for c in cells]
    tl, th, ol, oh = (to_rational(v, what="enclosure") for v in (*t, *o))
    ev = UtilityComparisonEvidence(description=description, eps=str(e), points=sum(c[0] for c in cells),
                                   tight_cells=cell_text, tight_utility=list(t), other=other,
                                   other_params={k: int(v) for k, v in params.items()}, other_utility=list(o),
                                   margin=str(tl - oh))
    claim = (f"at eps = {e} on the {description}, the tight-constraints mechanism has higher uniform-prior utility "
             f"(optimal remap) than the {other.replace('-', ' ')} mechanism")
    method = tight_cert.method
    if tl > oh:
        return Certificate("utility_comparison", Verdict.HOLDS, method, claim, ev, precision=tight_cert.precision)
    if th < ol:
        return Certificate("utility_comparison", Verdict.FAILS, method, claim, ev, precision=tight_cert.precision)
    return Certificate("utility_comparison", UNDECIDED, method, claim, ev,
                       reason="the two enclosures overlap at the stated accuracy")
