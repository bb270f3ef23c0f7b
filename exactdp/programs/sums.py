"""Sums of a polynomial times a power, and running sums of noises, in closed form (issue 28).

A program that releases a running sum of noises (``next = next + q + dlap(b)`` at every step: ShadowDP's
PrefixSum and SmartSum, CheckDP's SmartSum) constrains the partial sums ``W_j = Z_1 + ... + Z_j`` of independent
noises.  The law of ``Z_1 + Z_2`` for two discrete Laplace noises of one base already has the term
``|s| a^|s|``, so the geometric series of :mod:`~exactdp.programs.compile` (pure powers ``t^(m r)``) do not
suffice.  This module sums

    sum_{w=A}^{B} w^j t^(k w)            (A, B integers or infinite)

in closed form: with ``Q`` the polynomial of degree ``j`` (``j + 1`` when ``k = 0``) solving
``Q(w + 1) t^(k (w + 1)) - Q(w) t^(k w) = w^j t^(k w)`` (an antidifference, found coefficient by coefficient
from the top: ``x c_j - c_j = 1`` and ``(x - 1) c_l + x sum_{i > l} C(i, l) c_i = 0`` with ``x = t^k``; for
``k = 0`` the Faulhaber polynomial), the sum is ``Q(B + 1) t^(k (B + 1)) - Q(A) t^(k A)``, and an infinite end
contributes ``0`` (``Q(w) t^(k w) -> 0`` when the series converges: ``k > 0`` towards ``+inf``, ``k < 0``
towards ``-inf``).  The same identity with one end left symbolic gives ``sum_{w'=A}^{w-1}`` as a polynomial in
``w`` times ``t^(k w)`` plus a constant, which is what eliminating one noise of a chain needs.

:func:`chain_probability` then computes ``P(W_1 in I_1, ..., W_K in I_K)`` for the partial sums of a chain of
independent noises by eliminating ``W_K``, then ``W_{K-1}``, ...: each ``g_{j-1}(w) = sum_{w' in I_j}
f_j(w' - w) g_j(w')`` is a *piecewise exponential polynomial* (on each cell of the integer line a finite sum of
``c w^j t^(m w)``), exact, nothing truncated; the answer is ``g_0(0)``.

>>> from exactdp.programs.ratfunc import RatFunc
>>> t = RatFunc.mono(1)
>>> poly_geometric(1, 1, 0, None) == t / ((1 - t) * (1 - t))   # sum_{w >= 0} w t^w
True
"""

from __future__ import annotations

import functools
import itertools
import math
from .ratfunc import RatFunc

__all__ = ["chain_probability", "forms_probability", "poly_geometric"]


@functools.lru_cache(maxsize=512)
def _antidiff(j: int, k: int) -> tuple:
    """Coefficients ``c_0, c_1, ...`` of ``Q`` with ``Q(w+1) t^(k(w+1)) - Q(w) t^(k w) = w^j t^(k w)``."""
    if k == 0:      # Q(w + 1) - Q(w) = w^j: degree j + 1, c_0 = 0
        c = [RatFunc(0)] * (j + 2)
        for row in range(j, -1, -1):      # coefficient of w^l: sum_{i > l} C(i, l) c_i = [l == j]
            rest = RatFunc(1 if row == j else 0)
            for i in range(row + 2, j + 2):
                rest = rest - c[i] * math.comb(i, row)
            c[row + 1] = rest / (row + 1)
        return tuple(c)
    x = RatFunc.mono(k)
    c = [RatFunc(0)] * (j + 1)
    for row in range(j, -1, -1):          # x sum_{i >= l} C(i, l) c_i - c_l = [l == j]
        rest = RatFunc(1 if row == j else 0)
        for i in range(row + 1, j + 1):
            rest = rest - x * c[i] * math.comb(i, row)
        c[row] = rest / (x - 1)
    return tuple(c)


def _q_at(j: int, k: int, w: int) -> RatFunc:
    """``Q(w) t^(k w)`` at an integer ``w``."""
    val = RatFunc(0)
    for i, ci in enumerate(_antidiff(j, k)):
        if not ci.is_zero():
            val = val + ci * (w ** i)
    return val * RatFunc.mono(k * w)


def poly_geometric(j: int, k: int, A: int | None, B: int | None) -> RatFunc:
    """``sum_{w=A}^{B} w^j t^(k w)`` in closed form, ends integers or ``None`` (infinite).

    Parameters
    ----------
    j : int
        The power of ``w``, ``>= 0``.
    k : int
        The exponent of ``t`` per step.
    A, B : int or None
        The ends (``None``: ``-inf`` for ``A``, ``+inf`` for ``B``); ``A > B`` is the empty sum.

    Returns
    -------
    RatFunc
        The exact sum, a rational function of ``t`` (for ``0 < t < 1`` where the series converges).

    Raises
    ------
    ValueError
        A divergent series: an infinite end towards which ``t^(k w)`` does not decay.

    Examples
    --------
    >>> poly_geometric(2, 0, 1, 3)             # 1 + 4 + 9
    RatFunc('14')
    >>> poly_geometric(0, -1, None, -1)        # sum_{w <= -1} t^(-w) = t / (1 - t)
    RatFunc('(-t)/(t - 1)')
    """
    if j < 0:
        raise ValueError(f"poly_geometric: the power of w must be >= 0, got {j}")
    if (B is None and k <= 0) or (A is None and k >= 0):
        raise ValueError(f"poly_geometric: sum of w^{j} t^({k} w) diverges over [{A}, {B}]")
    if A is not None and B is not None and A > B:
        return RatFunc(0)
    hi = RatFunc(0) if B is None else _q_at(j, k, B + 1)
    lo = RatFunc(0) if A is None else _q_at(j, k, A)
    return hi - lo


# -- piecewise exponential polynomials: [(A, B, {(j, m): c})], c w^j t^(m w) on the cell A..B ---------------

def _add_to(d: dict, key, c: RatFunc):
    v = d[key] + c if key in d else c
    if v.is_zero():
        d.pop(key, None)
    else:
        d[key] = v


def _lt(a, b) -> bool:
    """``a < b`` for ends where ``None`` is infinite (the caller knows which side)."""
    return a is not None and b is not None and a < b


def _restrict(g: list, lo, hi) -> list:
    out = []
    for A, B, ep in g:
        a = A if lo is None else (lo if A is None else max(A, lo))
        b = B if hi is None else (hi if B is None else min(B, hi))
        if a is None or b is None or a <= b:
            out.append((a, b, ep))
    return out


def _kernel_consts(kind: str, e: int) -> RatFunc:
    te = RatFunc.mono(e)
    return (1 - te) / (1 + te) if kind == "dlap" else 1 - te


def _at_point(g: list, kind: str, e: int, p: int) -> RatFunc:
    """``sum_{w'} f(w' - p) g(w')`` over the cells of ``g`` (already restricted)."""
    C = _kernel_consts(kind, e)
    val = RatFunc(0)
    for A, B, ep in g:
        for (j, m), c in ep.items():
            if kind == "dlap":        # w' < p: t^(e (p - w'))
                b = p - 1 if B is None else min(B, p - 1)
                if A is None or b >= A:
                    val = val + c * RatFunc.mono(e * p) * poly_geometric(j, m - e, A, b)
            a = p if A is None else max(A, p)   # w' >= p: t^(e (w' - p))
            if B is None or a <= B:
                val = val + c * RatFunc.mono(-e * p) * poly_geometric(j, m + e, a, B)
    return val * C


def _on_range(g: list, kind: str, e: int, u, v) -> dict:
    """``sum_{w'} f(w' - w) g(w')`` for symbolic ``w`` in ``u..v``, a range holding no end of a cell of ``g``."""
    C = _kernel_consts(kind, e)
    out: dict = {}
    for A, B, ep in g:
        left = B is not None and u is not None and u > B
        right = A is not None and v is not None and v < A
        for (j, m), c in ep.items():
            if left:            # every w' < w
                if kind == "dlap":
                    _add_to(out, (0, e), c * C * poly_geometric(j, m - e, A, B))
                continue
            if right:           # every w' > w
                _add_to(out, (0, -e), c * C * poly_geometric(j, m + e, A, B))
                continue
            # A < w <= B for every w of the range: split at w
            if kind == "dlap":  # sum_{w'=A}^{w-1} w'^j t^((m-e) w') = Q(w) t^((m-e) w) - Q(A) t^((m-e) A)
                for i, ci in enumerate(_antidiff(j, m - e)):
                    if not ci.is_zero():
                        _add_to(out, (i, m), c * C * ci)
                if A is not None:
                    _add_to(out, (0, e), -(c * C * _q_at(j, m - e, A)))
            # sum_{w'=w}^{B} w'^j t^((m+e) w') = Q(B+1) t^((m+e)(B+1)) - Q(w) t^((m+e) w)
            for i, ci in enumerate(_antidiff(j, m + e)):
                if not ci.is_zero():
                    _add_to(out, (i, m), -(c * C * ci))
            if B is not None:
                _add_to(out, (0, -e), c * C * _q_at(j, m + e, B + 1))
    return out


def _eliminate(g: list, kind: str, e: int, lo, hi) -> list:
    """``h(w) = sum_{lo <= w' <= hi} f(w' - w) g(w')`` for the noise ``f`` (``kind``, base ``t^e``)."""
    g = _restrict(g, lo, hi)
    if not g:
        return []
    pts = sorted({p for A, B, _ in g for p in (A, B) if p is not None})
    if not pts:
        return [(None, None, _on_range(g, kind, e, None, None))]
    cells: list = [(None, pts[0] - 1)]
    for p, q in itertools.pairwise(pts):
        cells.append((p, p))
        if q - p > 1:
            cells.append((p + 1, q - 1))
    cells += [(pts[-1], pts[-1]), (pts[-1] + 1, None)]
    out = []
    for u, v in cells:
        ep = {(0, 0): _at_point(g, kind, e, u)} if u == v and u is not None else _on_range(g, kind, e, u, v)
        ep = {key: c for key, c in ep.items() if not c.is_zero()}
        if ep:
            out.append((u, v, ep))
    return out


def _value_at(g: list, w: int) -> RatFunc:
    for A, B, ep in g:
        if (A is None or w >= A) and (B is None or w <= B):
            val = RatFunc(0)
            for (j, m), c in ep.items():
                val = val + c * (w ** j) * RatFunc.mono(m * w)
            return val
    return RatFunc(0)


def chain_probability(steps: list) -> RatFunc:
    """``P(lo_j <= Z_1 + ... + Z_j <= hi_j for every j)`` for independent noises ``Z_1, ..., Z_K``.

    Parameters
    ----------
    steps : list of (kind, e, lo, hi)
        Per noise in order: ``kind`` ``"dlap"`` (``P(Z = z) = (1-t^e)/(1+t^e) t^(e |z|)``) or ``"geo"``
        (``(1 - t^e) t^(e z)``, ``z >= 0``), its base exponent ``e >= 1``, and the bounds on the partial sum
        through it (``None``: unbounded).

    Returns
    -------
    RatFunc
        The exact probability, a rational function of ``t``.

    Examples
    --------
    >>> from exactdp.programs.ratfunc import RatFunc
    >>> t = RatFunc.mono(1)
    >>> chain_probability([("dlap", 1, 0, 0)]) == (1 - t) / (1 + t)         # P(Z = 0)
    True
    >>> p = chain_probability([("dlap", 1, None, None), ("dlap", 1, 0, 0)])   # P(Z_1 + Z_2 = 0)
    >>> C = (1 - t) / (1 + t)
    >>> p == C * C * (1 + t * t) / (1 - t * t)
    True
    """
    # A partial sum pinned to a point p cuts the chain: the rest starts afresh from p (the noises are
    # independent), so the chain is a product of shorter ones, each shifted to start at 0 and cached (the paths
    # of one compilation share most of them).
    total, offset, seg = RatFunc(1), 0, []
    for kind, e, lo, hi in steps:
        if kind not in ("dlap", "geo") or not isinstance(e, int) or e < 1:
            raise ValueError(f"chain_probability: a noise ({kind!r}, base t^{e}) outside dlap/geo with e >= 1")
        if lo is not None and hi is not None and lo > hi:
            return RatFunc(0)
        seg.append((kind, e, None if lo is None else lo - offset, None if hi is None else hi - offset))
        if lo is not None and lo == hi:
            total = total * _segment(tuple(seg))
            offset, seg = lo, []
            if total.is_zero():
                return total
    return total * _segment(tuple(seg)) if seg else total


@functools.lru_cache(maxsize=65536)
def _segment(steps: tuple) -> RatFunc:
    g: list = [(None, None, {(0, 0): RatFunc(1)})]
    for kind, e, lo, hi in reversed(steps):
        g = _eliminate(g, kind, e, lo, hi)
        if not g:
            return RatFunc(0)
    return _value_at(g, 0)



def forms_probability(forms: list, info: dict) -> RatFunc:
    """``P(every form >= 0)`` for constraints on sums of independent noises that nest into chains.

    Each form is ``sum_v c_v Z_v + k >= 0`` with every ``c_v = +1`` (a lower bound on the sum of its noises)
    or every ``c_v = -1`` (an upper bound).  The noise sets of the forms must nest into disjoint chains
    ``S_1 subset S_2 subset ...`` (the running sums of a program: ``next = next + q + dlap(b)``); each chain is
    summed by :func:`chain_probability` and the chains, being independent, multiply.  Noises in no form sum to 1.

    Parameters
    ----------
    forms : list of (dict, int)
        ``({noise id: coefficient}, constant)``.
    info : dict
        Noise id -> ``(kind, e)``.

    Returns
    -------
    RatFunc
        The exact probability.

    Raises
    ------
    ValueError
        Forms outside that shape (mixed signs, coefficients other than +-1, sets that do not nest into chains).

    Examples
    --------
    >>> from exactdp.programs.ratfunc import RatFunc
    >>> t = RatFunc.mono(1)
    >>> forms_probability([({0: 1}, 0), ({0: -1}, 0)], {0: ("geo", 1)}) == 1 - t      # P(Z = 0), Z ~ Geo
    True
    >>> forms_probability([({0: 1, 1: -1}, 0)], {0: ("dlap", 1), 1: ("dlap", 1)})
    Traceback (most recent call last):
    ...
    ValueError: a comparison with noises of mixed signs (a difference of noises); the compiler sums running sums only
    """
    bounds: dict = {}
    for coef, k in forms:
        signs = set(coef.values())
        if signs not in ({1}, {-1}):
            why = "of mixed signs (a difference of noises)" if signs <= {1, -1} else "with a coefficient other than +-1"
            raise ValueError(f"a comparison with noises {why}; the compiler sums running sums only")
        S = tuple(sorted(coef))
        lo, hi = bounds.get(S, (None, None))
        if signs == {1}:
            lo = -k if lo is None else max(lo, -k)
        else:
            hi = k if hi is None else min(hi, k)
        bounds[S] = (lo, hi)
    total = RatFunc(1)
    for chain in _nesting(tuple(sorted(bounds))):
        steps: list = []
        for S, new in chain:
            for i, v in enumerate(new):
                lo, hi = bounds[S] if i == len(new) - 1 else (None, None)
                steps.append((*info[v], lo, hi))
        total = total * chain_probability(steps)
        if total.is_zero():
            break
    return total


@functools.lru_cache(maxsize=4096)
def _nesting(supports: tuple) -> tuple:
    """The chains of the noise sets ``supports`` (sorted tuples of ids), each a tuple of ``(set, new ids)``; the
    paths of one program share a few such shapes, so it is cached.  ``ValueError`` when they do not nest."""
    chains: list[list] = []
    for S in sorted(supports, key=len):
        fs = frozenset(S)
        below = [c for c in chains if c[-1][0] <= fs]
        if len(below) > 1 or any(c[-1][0] & fs for c in chains if c not in below):
            raise ValueError("comparisons on sums of noises that do not nest into running sums (one chain of sums "
                             "each containing the last); the compiler admits running sums only")
        if below:
            below[0].append((fs, S, tuple(sorted(fs - below[0][-1][0]))))
        else:
            chains.append([(fs, S, S)])
    return tuple(tuple((S, new) for _fs, S, new in c) for c in chains)
