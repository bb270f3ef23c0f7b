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

:func:`compare_utilities` computes both enclosures and writes a ``utility_comparison`` certificate (holds
when the tight-constraints utility is certified higher).

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
from typing import Any

import numpy as np
from flint import arb, ctx, fmpq

from ..certificate import UNDECIDED, Certificate, Verdict
from ..priors.evidence import VerifiedSolve
from .evidence import ComparedMetric, OtherParams, UtilityComparisonEvidence
from ..errors import InvalidInput, Undecided
from ..exact.values import to_rational

__all__ = [
    "LaplaceUtility",
    "compare_utilities",
    "geometric_utility",
    "outward_decimals",
    "planar_laplace_utility",
    "tight_utility",
]

#: largest grid side handled (N^2 points)
MAX_SIDE = 400


@dataclass
class LaplaceUtility:
    """Certified enclosure ``lo <= U <= hi`` (exact rationals) of the planar-Laplace utility on an N x N grid.

    Parameters
    ----------
    side : int
        ``N``.
    eps : fmpq
        The level.
    lo, hi : fmpq
        The enclosure.
    reps : list
        The orbit representatives ``(a, b, orbit size)`` of the square's 8 symmetries.

    Examples
    --------
    On one point every answer is right: ``U = 1``.

    >>> r = planar_laplace_utility(1, "1/2")
    >>> r.enclosure, r.reps
    ((1, 1), [(0, 0, 1)])
    """

    side: int
    eps: fmpq
    lo: fmpq
    hi: fmpq
    reps: list

    @property
    def enclosure(self) -> tuple:
        """The enclosure ``(lo, hi)``.

        Examples
        --------
        >>> planar_laplace_utility(1, "1").enclosure
        (1, 1)
        """
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


def planar_laplace_utility(side: int, eps: Any, *, prec: int = 96) -> LaplaceUtility:
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
    """Return decimal strings ``lo' <= lo`` and ``hi <= hi'`` with ``digits`` decimals (rounded outward).

    Parameters
    ----------
    lo, hi : fmpq
        The enclosure.
    digits : int
        Decimals.

    Returns
    -------
    tuple of str
        ``(lo', hi')``.

    Examples
    --------
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


def tight_utility(cert: Certificate) -> tuple:
    """Return the tight-constraints utility ``sum(z)/n`` (ECP14 Thm 2, Prop. 7) enclosed from a ``tight`` certificate.

    Parameters
    ----------
    cert : Certificate
        A ``tight`` certificate that holds.

    Returns
    -------
    lo, hi : fmpq
        The enclosure of ``sum(z)/n``.
    cells : list of tuple
        ``(size, lo_z, hi_z)`` per cell of the quotient (exact rationals).

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
    >>> from exactdp.priors.regular import tight_constraints
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
    elif ev.verified is not None and ev.verified.z_enclosures is not None:
        cell_of = ev.verified.cell_of or list(range(len(ev.verified.z_enclosures)))
        sizes = [0] * len(ev.verified.z_enclosures)
        for c in cell_of:
            sizes[c] += 1
        cells = [(s, _q(lo), _q(hi)) for s, (lo, hi) in zip(sizes, ev.verified.z_enclosures, strict=True)]
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


def geometric_utility(values: int, eps: Any, step: int = 1, power: int = 1, *, prec: int = 128) -> tuple:
    """Return exact rationals enclosing the range-restricted geometric mechanism's uniform-prior utility.

    ``((2/(1+a) + (N-2)(1-a)/(1+a)) / N)^power`` with ``a = e^(-eps/step)`` (ECP14 sec. 7.1, Fig. 6; the
    column maxima of the truncated geometric mechanism GRS12 are on its diagonal).

    Parameters
    ----------
    values : int
        ``N >= 2`` answers per coordinate.
    eps : rational
        The level, ``> 0``.
    step : int, optional
        ``a = e^(-eps/step)``.
    power : int, optional
        The number of coordinates.
    prec : int, optional
        Working precision of the balls (bits).

    Returns
    -------
    lo, hi : fmpq
        The enclosure.

    Raises
    ------
    InvalidInput
        For ``eps <= 0``, ``values < 2``, ``step < 1`` or ``power < 1``.

    Examples
    --------
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


#: the mechanisms a tight-constraints mechanism is compared with
OTHERS = ("planar-laplace", "geometric")


def compare_utilities(eps: Any, tight_cert: Certificate, other: str, params: dict, *,
                      metric: dict | None = None, digits: int = 12) -> Certificate:
    """Return a ``utility_comparison`` certificate: is the tight-constraints utility certified above ``other``'s.

    Both utilities are for the uniform prior with the optimal remap, ``U(K) = (1/n) sum_z max_x K(x)(z)``
    (ECP14 sec. 3.5): the tight-constraints mechanism's is ``sum(z)/n`` with ``Phi z = 1`` (Thm 2, attained by
    Prop. 7; :func:`tight_utility`), the other is computed here from ``params`` (:func:`planar_laplace_utility`,
    :func:`geometric_utility`).  The certificate describes the metric and carries the verified quotient solve,
    so the re-check rebuilds the distances and re-derives ``sum(z)/n`` itself.

    Parameters
    ----------
    eps : rational
        The level.
    tight_cert : Certificate
        A ``tight`` certificate that holds, at ``eps``, on the metric described by ``metric``.
    other : {"planar-laplace", "geometric"}
        The mechanism compared with, with ``params`` ``{"side": N}`` (the ``N x N`` unit Euclidean grid,
        ``beta = eps/2``) or ``{"values": N, "step": s, "power": p}`` (``alpha = e^(-eps/s)`` on each of ``p``
        coordinates with ``N`` answers).
    params : dict
        The parameters of ``other`` (above).
    metric : dict, optional
        The metric of the tight-constraints mechanism: ``{"kind": "grid", "shape": [R, C], "norm":
        "euclidean" | "chebyshev" | "manhattan"}`` (unit step) or ``{"kind": "path", "points": n, "reach": v}``
        (``d(i, j) = ceil(|i - j| / v)``, the graph of a sum query, ECP14 sec. 7.1).  Implied for
        ``planar-laplace`` (the ``N x N`` Euclidean grid); required for ``geometric``, with ``values^power``
        points.
    digits : int
        Decimals of the stated enclosures (rounded outward).

    Returns
    -------
    Certificate
        Holds when ``tight_lo > other_hi``, fails when ``tight_hi < other_lo``, else undecided.

    Raises
    ------
    InvalidInput
        An unknown ``other``, bad ``params`` or ``metric``, or a tight certificate that does not hold, is at
        another level, or is on another metric.

    Examples
    --------
    >>> from exactdp.metrics import grid
    >>> from exactdp.exact.level import Level
    >>> from exactdp.priors.regular import tight_constraints
    >>> tc = tight_constraints(grid((3, 3), "euclidean"), Level.from_eps("2"))
    >>> c = compare_utilities("2", tc, "planar-laplace", {"side": 3})
    >>> c.holds, c.evidence.tight_utility, c.evidence.other_utility
    (True, ['0.668672655211', '0.668672655212'], ['0.359685785297', '0.359685785298'])
    >>> c.recheck().status
    'confirmed'

    References
    ----------
    ECP14 sec. 7, Figs. 6-7; Thm 2, Prop. 7.
    """
    if other not in OTHERS:
        raise InvalidInput(f"other: expected 'planar-laplace' or 'geometric', got {other!r}")
    e = to_rational(eps, what="eps")
    if e <= 0:
        raise InvalidInput(f"eps: expected a rational > 0, got {eps!r}; hint: eps = 1/2 or 13/10")
    params, enclosure = _other_utility(other, params, e)
    spec, built = _domain(other, params, metric)
    _check_tight_cert(tight_cert, e, built)
    lo, hi, cells = tight_utility(tight_cert)
    t = outward_decimals(lo, hi, digits)
    o = outward_decimals(enclosure[0], enclosure[1], digits)
    tl, th, ol, oh = (to_rational(v, what="enclosure") for v in (*t, *o))
    ver = tight_cert.evidence.verified
    tight = VerifiedSolve(cell_of=ver.cell_of if ver else None, center=ver.center if ver else None,
                          inverse=ver.inverse if ver else None)
    ev = UtilityComparisonEvidence(description=built.description, eps=str(e), metric=ComparedMetric(**spec),
                                   points=len(built), cells=len(cells), tight=tight, tight_utility=list(t),
                                   other=other, other_params=OtherParams(**params), other_utility=list(o),
                                   margin=str(tl - oh))
    claim = (f"at eps = {e} on the {built.description}, the tight-constraints mechanism has higher uniform-prior "
             f"utility (optimal remap) than the {other.replace('-', ' ')} mechanism")
    method = tight_cert.method
    if tl > oh:
        return Certificate("utility_comparison", Verdict.HOLDS, method, claim, ev, precision=tight_cert.precision)
    if th < ol:
        return Certificate("utility_comparison", Verdict.FAILS, method, claim, ev, precision=tight_cert.precision)
    return Certificate("utility_comparison", UNDECIDED, method, claim, ev,
                       reason="the two enclosures overlap at the stated accuracy")


_PARAMS = {"planar-laplace": ("side",), "geometric": ("values", "step", "power")}


def _other_utility(other: str, params, e: fmpq) -> tuple:
    """``(params, (lo, hi))``: the checked integer parameters and the other mechanism's utility enclosure."""
    keys = _PARAMS[other]
    if not isinstance(params, dict) or set(params) != set(keys):
        raise InvalidInput(f"params: expected the keys {list(keys)} for {other!r}, got {params!r}")
    out = {}
    for k in keys:
        v = params[k]
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InvalidInput(f"params: expected {k!r} a positive integer, got {v!r}")
        out[k] = v
    if other == "planar-laplace":
        return out, planar_laplace_utility(out["side"], e).enclosure
    return out, geometric_utility(out["values"], e, out["step"], out["power"])


def _domain(other: str, params: dict, metric) -> tuple:
    """``(spec, FiniteMetric)``: the described metric of the comparison, checked and built."""
    from ..metrics import from_graph, grid

    if other == "planar-laplace":
        want = {"kind": "grid", "shape": [params["side"]] * 2, "norm": "euclidean"}
        if metric is not None and metric != want:
            raise InvalidInput(f"metric: the planar Laplace mechanism lives on {want}, got {metric!r}")
        return want, grid((params["side"], params["side"]), "euclidean")
    n = params["values"] ** params["power"]
    if isinstance(metric, dict) and metric.get("kind") == "grid" and set(metric) == {"kind", "shape", "norm"} \
            and metric["norm"] in ("euclidean", "chebyshev", "manhattan") \
            and metric["shape"] == [params["values"]] * 2 and params["power"] == 2:
        return dict(metric), grid(tuple(metric["shape"]), metric["norm"])
    if isinstance(metric, dict) and metric.get("kind") == "path" and set(metric) == {"kind", "points", "reach"} \
            and metric["points"] == n and params["power"] == 1 and isinstance(metric["reach"], int) \
            and not isinstance(metric["reach"], bool) and metric["reach"] >= 1:
        import networkx as nx

        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from((i, j) for i in range(n) for j in range(i + 1, min(n, i + metric["reach"] + 1)))
        return dict(metric), from_graph(G)
    raise InvalidInput(f"metric: expected {{'kind': 'path', 'points': {n}, 'reach': v}} (power 1) or "
                       f"{{'kind': 'grid', 'shape': [{params['values']}, {params['values']}], 'norm': ...}} (power 2) "
                       f"for the geometric mechanism on {params['values']} answers, got {metric!r}")


def _check_tight_cert(tight_cert, e: fmpq, built) -> None:
    """Refuse a tight certificate at another level or on another metric than ``built``."""
    from ..priors.evidence import distance_data

    ev: Any = getattr(tight_cert, "evidence", None)
    lv = getattr(ev, "level", None)
    if getattr(tight_cert, "kind", None) != "tight" or lv is None or lv.eps is None \
            or to_rational(lv.eps, what="level") != e:
        raise InvalidInput(f"tight_cert: expected a tight certificate at eps = {e}, got one at "
                           f"{getattr(lv, 'text', None)!r}")
    if ev.distances is not None:      # the carried distance matrix must be the described metric's
        d = distance_data(built)
        assert d is not None  # the certificate carried this metric's distances, so they are small enough
        if d.values != ev.distances.values or len(d.points) != len(ev.distances.points) or \
                not np.array_equal(np.asarray(d.codes), np.asarray(ev.distances.codes)):
            raise InvalidInput(f"tight_cert: its distances are not those of the {built.description} ({len(built)} "
                               f"points); it is on the {ev.description}")
        return
    ver = ev.verified                 # too large to carry distances: the same construction and size
    n = len((ver.cell_of or ver.z_enclosures or ()) if ver is not None else ())
    if ev.description != built.description or n != len(built):
        raise InvalidInput(f"tight_cert: expected a tight certificate on the {built.description} ({len(built)} "
                           f"points), got one on the {ev.description} ({n} points)")
