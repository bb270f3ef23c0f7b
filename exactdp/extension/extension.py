"""Extending a private mechanism from a subset ``H`` to the whole space (BCSZ18 Prop. 2.1).

BCSZ18 (proof of Theorem 2.1, Sec. 4), in finite form with the counting
measure: given a finite metric space ``(M, d)``, a non-empty subset ``H`` and a
mechanism ``Â`` on ``H`` that is ``eps``-private for ``d`` restricted to ``H``,

    A(D)(w) = (1 / Z_D) * min over D' in H of e^(eps d(D, D')) Â(D')(w),
    Z_D     = sum over w of  min over D' in H of e^(eps d(D, D')) Â(D')(w).

The minimum runs over all of ``H`` (not only the nearest point).  **Reconstructed:**
the printed normaliser ``Z_D := ∫ inf_{D'} [(eps d(D, D')) f_{Â(D)'}] dμ`` lost
its ``exp`` (and its ``D'`` subscript) in conversion; the density it normalises
is ``inf_{D'} exp(eps d(D, D')) f_{Â(D')}``, so ``Z_D`` is the integral of that
density, as above.  BCSZ18 uses densities ``f_D = dÂ(D)/dμ`` with respect to
``μ = Â(D_0)``; on a finite output set the counting measure gives the same
mechanism (every ``f_D(w)`` is scaled by the same ``μ(w)``, and an output with
``μ(w) = 0`` has probability 0 under every ``Â(D')`` by privacy).

The proof's chain (BCSZ18 Sec. 4): by the triangle inequality
``m_{D_1}(w) <= e^(eps d(D_1, D_2)) m_{D_2}(w)`` for the unnormalised minima,
hence ``Z_{D_1} <= e^(eps d) Z_{D_2}``, and together
``A(D_1)(w) <= e^(2 eps d(D_1, D_2)) A(D_2)(w)``; on ``H`` the minimum is
attained at ``D' = D`` (``Â`` is eps-private), so ``Z_D = 1`` and ``A = Â``
there.  (The printed proof also says "for any ``D_1, D_2 in H``" where it means
``M``.)

Exact regimes (docs/architecture.md#sec-kernel): a rational ``alpha = e^(-eps)`` with
rational distances whose ratios to the level's unit are integers gives rational
entries; an algebraic ``eps`` (``1/2``, ``sqrt(2)``) gives exponential
polynomials, and every minimum is decided by the exact zero test plus certified
signs of :class:`~exactdp.exact.expo.ExpFrac`.  Elsewhere (e.g. ``eps =
log(2)/3`` at distance 1, where ``e^(eps d) = 2^(1/3)``) the entries leave the
kernel's field and :func:`extend` raises :class:`~exactdp.errors.Undecided`.

Floats only *filter*: a candidate ``D'`` is dropped for output ``w`` only when
an outward-rounded enclosure of ``eps d + log Â(D')(w)`` lies strictly above
the enclosure of another candidate's; every survivor is compared exactly.

>>> from exactdp import Mechanism
>>> from exactdp.metrics import path
>>> Rh = Mechanism.from_rows(["0", "2"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
>>> A = extend(Rh, path(3), ["0", "2"], alpha="1/2")
>>> [[str(v) for v in row] for row in A.rows()]
[['2/3', '1/3'], ['1/2', '1/2'], ['1/3', '2/3']]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

import numpy as np
from flint import ctx, fmpq

from ..privacy.dprivacy import resolve_level
from ..errors import InputTooLarge, InvalidInput, LabelMismatch, Undecided, UnsupportedRegime
from ..exact.decide import arb_of, exact_str, sign, simplify
from ..exact.expo import ExpFrac
from ..exact.filter import POS, FilterStats, add, compare, enclose
from ..exact.level import Level
from ..mechanism import mechanism_from_values
from ..metrics.space import FiniteMetric, from_matrix
from ..certificate import UNDECIDED, Certificate, Method, level_data, mechanism_data, metric_data
from .evidence import ExtensionEvidence
from ..privacy.evidence import PrivacyEvidence
from ..privacy.dprivacy import certify_privacy, exact_method

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "MAX_EXTENSION_BITS",
    "MAX_EXTENSION_CELLS",
    "MAX_EXTENSION_POINTS",
    "ExtensionData",
    "ZeroNormaliser",
    "certify_extension",
    "check_extension_size",
    "double_level",
    "extend",
    "extension_data",
    "restrict_metric",
]

#: most points of ``M``: each costs a fixed amount of exact work in Python (measured on a loaded 2-core machine:
#: a two-output extension from the two ends of a path of 10^5 points took 41 s at eps = 1/2, 4 * 10^4 points 20 s)
MAX_EXTENSION_POINTS = 50_000
#: most ``(D, D', w)`` candidates (``|M| |H| |W|``), filtered in floating point row by row (measured: a path of
#: 1,000 points, ``|H| = 100``, 100 outputs -- 10^7 candidates -- took 24 s)
MAX_EXTENSION_CELLS = 10_000_000
#: most bits of the exact entries at a rational level, estimated as ``|W| sum_D d(D, H) log2(R)/D_unit`` (the
#: entries of ``A(D)`` carry ``e^(eps d(D, H))``); 2 * 10^8 bits (path of 2 * 10^4 points, alpha = 1/2) took
#: 3.3 s and 230 MB, 5 * 10^9 (10^5 points) 44 s and 4.1 GiB, 10^6 points aborted in GMP
MAX_EXTENSION_BITS = 400_000_000


class ZeroNormaliser(InvalidInput):
    """``Z_D = 0``: every output has a zero minimum, so ``A(D)`` is undefined (``Â`` is not private).

    Examples
    --------
    Rows with different supports on ``H`` (BCSZ18 Lemma 4.1: not private for any eps):

    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "2"], ["a", "b"], [["1", "0"], ["0", "1"]])
    >>> try:
    ...     extension_data(Ah, path(3), ["0", "2"], alpha="1/2")
    ... except ZeroNormaliser as e:
    ...     print(str(e).split(", so")[0])
    mech_on_H: at the point '0' every output has minimum 0 (Z_D = 0)
    """


class ExtensionData:
    """The exact extension and the quantities its proof quotes (BCSZ18 Sec. 4, the inf-construction).

    Parameters
    ----------
    mechanism : Mechanism
        ``A`` on all of ``M`` (inputs in the metric's order).
    Z : list
        The exact normaliser ``Z_D`` per point of ``M``.
    argmin : numpy.ndarray
        ``argmin[i, w]``: index into ``H`` of one ``D'`` attaining the minimum.
    H : list of str
        The subset, in the order used by ``argmin``.
    level : Level
        The level ``eps`` of the construction.
    minima : list of list
        The unnormalised minima ``m_D(w)``.
    comparisons : FilterStats
        What the float filter and the exact comparisons of the minima did.

    Examples
    --------
    With ``e^eps = 2``, ``m_D(w) = min_(D' in H) 2^d(D, D') A(D', w)``; at ``D = 1``:
    ``m(a) = min(2 * 3/4, 4 * 1/4) = 1`` (from ``D' = 3``), ``m(b) = min(2 * 1/4, 4 * 3/4) = 1/2`` (from ``D' = 0``),
    so ``Z = 3/2``:

    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
    >>> X = extension_data(Ah, path(4), ["0", "3"], alpha="1/2")
    >>> [str(v) for v in X.minima[1]], str(X.Z[1]), X.argmin[1].tolist(), X.H
    (['1', '1/2'], '3/2', [1, 0], ['0', '3'])
    >>> [str(v) for v in X.mechanism.rows()[1]], X.level.eps_str()
    (['2/3', '1/3'], 'log(2)')
    """

    def __init__(self, mechanism, Z, argmin, H, level, minima, comparisons):
        self.mechanism, self.Z, self.argmin, self.H = mechanism, Z, argmin, H
        self.level, self.minima, self.comparisons = level, minima, comparisons


def double_level(level: Level) -> Level:
    """Double a level: ``2 eps``, in the same regime.

    Parameters
    ----------
    level : Level
        The level ``eps``.

    Returns
    -------
    Level
        The level ``2 eps`` (BCSZ18's extension of an eps-private mechanism is 2 eps-private).

    Examples
    --------
    >>> double_level(Level.from_eps("1/2")).eps_str(), double_level(Level.from_alpha("1/2")).eps_str()
    ('1', 'log(4)')
    """
    if level._eps_lin is not None:
        return Level.from_eps(str(level._eps_lin * 2))
    return Level(level.R * level.R, level.D)


def restrict_metric(metric: FiniteMetric, H: Sequence[str]) -> FiniteMetric:
    """Restrict the metric ``d`` to the points ``H`` (distances of ``M``, not of an induced graph).

    Generating pairs are the pairs of ``H`` with no point of ``H`` strictly
    between them, found exactly (integer arithmetic after clearing denominators
    when all distances are rational; :func:`~exactdp.metrics.from_matrix`
    otherwise).

    Parameters
    ----------
    metric : FiniteMetric
        The metric on ``M``.
    H : sequence of str
        Labels of points of ``M``.

    Returns
    -------
    FiniteMetric
        The metric on ``H``.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> R = restrict_metric(path(5), ["0", "2", "4"])
    >>> R.distance("0", "4"), [(R.points[i], R.points[j], str(d)) for i, j, d in R.generating_pairs()]
    (4, [('0', '2', '2'), ('2', '4', '2')])
    """
    labels = [str(h) for h in H]
    idx = [metric._idx(h) for h in labels]
    D = [[metric.d(i, j) for j in idx] for i in idx]
    k = len(labels)
    if not all(isinstance(v, fmpq) or v == math.inf for row in D for v in row):
        return from_matrix(labels, D)
    den = 1
    for row in D:
        for v in row:
            if v != math.inf:
                den = den * int(v.q) // math.gcd(den, int(v.q))
    big = [[int(v * den) if v != math.inf else -1 for v in row] for row in D]
    top = max(max(r) for r in big)
    if top * 2 >= 2**62:
        return from_matrix(labels, D)
    Mx = np.array(big, dtype=np.int64)
    fin = Mx >= 0
    pairs = []
    for a in range(k):
        S = Mx[a][:, None] + Mx  # S[c, b] = d(a, c) + d(c, b)
        ok = fin[a][:, None] & fin
        between = ok & (Mx[a][None, :] == S)
        between[a, :] = False
        between[np.arange(k), np.arange(k)] = False
        has = between.any(axis=0)
        for b in range(a + 1, k):
            if fin[a, b] and not has[b]:
                pairs.append((a, b, D[a][b]))
    return FiniteMetric(labels, pairs, lambda i, j: D[i][j], kind="matrix",
                        description=f"restriction of the {metric.description} to {k} point{'' if k == 1 else 's'} of H",
                        reduction=("the generating pairs are the pairs of H with no point of H strictly between "
                                   "them, found exactly"))


def _check_subset(mech, metric, H):
    if H is None:
        H = list(mech.inputs)
    if isinstance(H, str) or not hasattr(H, "__iter__"):
        raise InvalidInput(f"H: expected a list of point labels, got {type(H).__name__} {H!r}")
    H = [str(h) for h in H]
    if not H:
        raise InvalidInput("H: expected a non-empty subset of the metric's points, got none; hint: BCSZ18 Prop. 2.1 "
                           "extends from a non-empty H")
    if len(set(H)) != len(H):
        dup = next(h for h in H if H.count(h) > 1)
        raise InvalidInput(f"H: point {dup!r} appears twice")
    missing = [h for h in H if h not in metric.index]
    if missing:
        raise InvalidInput(f"H: point {missing[0]!r} is not a point of the metric ({metric.description})")
    if set(H) != set(mech.inputs):
        extra = sorted(set(mech.inputs) - set(H))[:3]
        lack = sorted(set(H) - set(mech.inputs))[:3]
        raise LabelMismatch(f"mechanism on H: its inputs must be exactly H; inputs not in H: {extra}, points of H "
                            f"without a row: {lack}")
    return H


def _log_bounds_values(values):
    """Outward float bounds of ``log v`` per distinct value (NaN for an exact zero, which has no logarithm)."""
    def bounds(v):
        if sign(v) == 0:
            return math.nan, math.nan
        with ctx.workprec(80):
            b = arb_of(v).log()
        return float(b.lower()), float(b.upper())

    return enclose(values, bounds)


def _factor_table(level, dists):
    """Exact ``e^(eps d)`` and outward float bounds of ``eps d`` for each distinct finite distance."""
    E: list = []
    for d in dists:
        f = level.factor(d)
        if f is None:
            raise Undecided(f"e^(eps d) at eps = {level.eps_str()} and d = {exact_str(d)} is "
                            f"{level.factor_str(d)}, an irrational algebraic number: the extension's entries leave the "
                            "kernel's exact field (give eps as an algebraic number such as 1/2, or alpha rational "
                            "with integer multiples of the level's unit distance)")
        E.append(f)

    def bounds(d):
        b = level.eps_arb() * arb_of(d)
        return float(b.lower()), float(b.upper())

    with ctx.workprec(80):
        lo, hi = enclose(dists, bounds)
    return E, lo, hi


def extension_data(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None = None, *, eps: Any = None,
                   alpha: Any = None, level: Level | None = None) -> ExtensionData:
    """Build the BCSZ18 extension with its normalisers and minimisers (see :func:`extend`).

    Parameters
    ----------
    mech_on_H : Mechanism
        The mechanism on the points ``H``.
    metric : FiniteMetric
        The metric on all of ``M``.
    H : sequence of str, optional
        The subset (by default the mechanism's inputs).
    eps, alpha, level : optional
        The level, one of them.

    Returns
    -------
    ExtensionData
        The extension and the quantities its proof quotes.

    Raises
    ------
    ZeroNormaliser
        If some point has every minimum 0.
    Undecided
        If the mechanism cannot be evaluated exactly at the level.
    InputTooLarge
        Beyond the limits of :func:`check_extension_size` or :data:`MAX_EXTENSION_BITS`.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
    >>> [str(z) for z in extension_data(Ah, path(4), ["0", "3"], alpha="1/2").Z]
    ['1', '3/2', '3/2', '1']
    """
    level = resolve_level(eps, alpha, level)
    H = _check_subset(mech_on_H, metric, H)
    try:
        mech_on_H = mech_on_H.at(level)   # evaluated at the level when in alpha, else validated
    except UnsupportedRegime as e:
        raise Undecided(f"the mechanism on H cannot be evaluated exactly at eps = {level.eps_str()}: {e}") from None
    W = len(mech_on_H.outputs)
    check_extension_size(metric, H, W)
    hidx = [metric.index[h] for h in H]
    rows = np.array([mech_on_H.row_index[h] for h in H], dtype=np.int64)
    codes = mech_on_H.codes[rows]  # |H| x |W|
    vals = mech_on_H.values
    vlo, vhi = _log_bounds_values(vals)
    n = len(metric)
    dists, dmat = _distances_to_H(metric, hidx)
    finite = [d != math.inf for d in dists]
    _check_bits(level, dists, finite, dmat, W)
    E, flo, fhi = _factor_table(level, [d if f else fmpq(0) for d, f in zip(dists, finite, strict=True)])
    _check_components(metric, dmat, finite, H)
    minima, argmin, stats = _minima(dmat, np.array(finite, dtype=bool), codes, vals, vlo, vhi, E, flo, fhi)
    Z = []
    out_rows = []
    for i in range(n):
        z = fmpq(0)
        for v in minima[i]:
            z = z + v
        z = simplify(z)
        if sign(z) == 0:
            raise ZeroNormaliser(
                f"mech_on_H: at the point {metric.points[i]!r} every output has minimum 0 (Z_D = 0), so the extension "
                "is undefined there; this happens only when rows of the mechanism on H have different supports, "
                "i.e. it is not eps-private for any eps (BCSZ18 Lemma 4.1)")
        Z.append(z)
        out_rows.append([simplify(v / z) if sign(v) != 0 else fmpq(0) for v in minima[i]])
    A = mechanism_from_values(metric.points, mech_on_H.outputs, out_rows,
                              name=f"BCSZ18 extension of {mech_on_H.name}", validate=True)
    A.provenance = f"BCSZ18 inf-construction from |H| = {len(H)} at eps = {level.eps_str()}"
    return ExtensionData(A, Z, argmin, H, level, minima, stats)


def _distances_to_H(metric, hidx):
    """The distinct distances ``d(D, D')`` (``D`` in M, ``D'`` in H) and the ``|M| x |H|`` matrix of their codes."""
    dist_codes: dict = {}
    dists: list = []
    dmat = np.empty((len(metric), len(hidx)), dtype=np.int64)
    for i in range(len(metric)):
        for k, j in enumerate(hidx):
            d = metric.d(i, j)
            key = "inf" if d == math.inf else exact_str(d)
            c = dist_codes.get(key)
            if c is None:
                c = dist_codes[key] = len(dists)
                dists.append(d)
            dmat[i, k] = c
    return dists, dmat


def check_extension_size(metric: FiniteMetric, H: Sequence[str], outputs: int) -> None:
    """Refuse an extension too large for the exact construction, up front, before any distance.

    The limits are :data:`MAX_EXTENSION_POINTS` points of ``M`` and :data:`MAX_EXTENSION_CELLS` candidates
    ``|M| |H| |W|``.

    Parameters
    ----------
    metric : FiniteMetric
        The metric on ``M``.
    H : sequence of str
        The subset.
    outputs : int
        The number ``|W|`` of outputs.

    Raises
    ------
    InputTooLarge
        Beyond either limit.

    Examples
    --------
    >>> from exactdp.metrics import path
    >>> check_extension_size(path(1000), [str(i) for i in range(0, 1000, 10)], 100)   # 10^7: the limit
    >>> check_extension_size(path(10**6), ["0", "999999"], 2)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: extension: the metric has 1,000,000 points; the exact construction's limit is 50,000
    points
    >>> check_extension_size(path(2000), [str(i) for i in range(0, 2000, 10)], 200)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: extension: 2,000 points x |H| = 200 x 200 outputs = 80,000,000 candidate minima; the
    exact construction's limit is 10,000,000
    """
    n, k = len(metric), len(H)
    if n > MAX_EXTENSION_POINTS:
        raise InputTooLarge(f"extension: the metric has {n:,} points; the exact construction's limit is "
                            f"{MAX_EXTENSION_POINTS:,} points")
    if n * k * outputs > MAX_EXTENSION_CELLS:
        raise InputTooLarge(f"extension: {n:,} points x |H| = {k:,} x {outputs:,} outputs = {n * k * outputs:,} "
                            f"candidate minima; the exact construction's limit is {MAX_EXTENSION_CELLS:,}")


def _check_bits(level, dists, finite, dmat, W):
    """Refuse, before any exact power is formed, an extension whose exact entries would exceed
    :data:`MAX_EXTENSION_BITS` (rational levels: ``e^(eps d) = R^(d/D)`` has about ``(d/D) log2 R`` bits)."""
    R, D = level.R, level.D
    if not (isinstance(R, fmpq) and isinstance(D, fmpq)) or level.is_zero():
        return
    unit = math.log2(max(abs(int(R.p)), int(R.q))) / float(D)
    try:
        dist = np.array([float(d) if f else math.inf for d, f in zip(dists, finite, strict=True)])
    except TypeError:  # a distance without a float value: no estimate, the exact route decides
        return
    nearest = dist[dmat].min(axis=1)
    bits = W * unit * float(nearest[np.isfinite(nearest)].sum())
    if bits > MAX_EXTENSION_BITS:
        raise InputTooLarge(f"extension: at eps = {level.eps_str()} the exact entries e^(eps d(D, H)) would take about "
                            f"{bits:,.0f} bits in total ({W:,} outputs, distances to H up to "
                            f"{float(nearest[np.isfinite(nearest)].max()):,.0f}); the limit is {MAX_EXTENSION_BITS:,} "
                            "bits (a transcendental level such as eps = 1/2 keeps e^(eps d) symbolic)")


def _check_components(metric, dmat, finite, H):
    fin = np.array(finite)
    reach = fin[dmat].any(axis=1)
    if not reach.all():
        i = int(np.nonzero(~reach)[0][0])
        raise InvalidInput(
            f"H: the point {metric.points[i]!r} is in a component of the metric with no point of H, so the "
            "extension is undefined there (every D' in H is at infinite distance, BCSZ18's infimum is +inf); hint: "
            "add a point of that component to H or drop the component")


def _minima(dmat, finite, codes, vals, vlo, vhi, E, flo, fhi) -> tuple[list, np.ndarray, FilterStats]:
    """Exact ``min over D' of e^(eps d(D, D')) Â(D')(w)`` for every D and w, float-filtered in log space.

    The candidates are the ``D'`` at a finite distance; an exact zero among them is the minimum.  The others
    meet the filter (:mod:`exactdp.exact.filter`): the enclosure of ``eps d + log Â(D')(w)`` is compared with
    the smallest upper bound among them, and a candidate certainly above it cannot attain the minimum; the
    rest are compared exactly (identical ``(distance, value)`` candidates once).
    """
    n, W = dmat.shape[0], codes.shape[1]
    argmin = np.zeros((n, W), dtype=np.int64)
    minima = []
    stats = FilterStats()
    zero_code = np.array([sign(v) == 0 for v in vals], dtype=bool)
    is_zero = zero_code[codes]  # |H| x W
    for i in range(n):
        fin = finite[dmat[i]][:, None]
        zeros, live = fin & is_zero, fin & ~is_zero
        lo, hi = add(flo[dmat[i]][:, None], fhi[dmat[i]][:, None], vlo[codes], vhi[codes])  # |H| x W
        best_hi = np.where(live, hi, math.inf).min(axis=0)
        above = compare(lo, hi, -math.inf, best_hi[None, :]) == POS  # certainly above some candidate's value
        row: list = []
        for w in range(W):
            zk = np.nonzero(zeros[:, w])[0]
            if len(zk):  # an exact zero is a candidate: the minimum is 0
                argmin[i, w] = int(zk[0])
                row.append(fmpq(0))
                stats.compared += 1
                stats.zero += 1
                continue
            cand = np.nonzero(live[:, w] & ~above[:, w])[0]
            n_live = int(live[:, w].sum())
            stats.compared += n_live
            stats.filtered += n_live - len(cand)
            seen: set = set()
            best = None
            for k in cand.tolist():
                key = (int(dmat[i, k]), int(codes[k, w]))
                if key in seen:
                    stats.repeated += 1
                    continue
                seen.add(key)
                v = E[key[0]] * vals[key[1]]
                stats.exact += 1
                if best is None or sign(v - best) < 0:
                    best, bk = v, k
            argmin[i, w] = bk
            row.append(simplify(best) if isinstance(best, ExpFrac) else best)
        minima.append(row)
    return minima, argmin, stats


def extend(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None = None, *, eps: Any = None,
           alpha: Any = None, level: Level | None = None) -> Mechanism:
    """The BCSZ18 extension of a mechanism on ``H`` to the whole metric space.

    ``A(D)(w) = min_{D' in H} e^(eps d(D, D')) Â(D')(w) / Z_D`` with ``Z_D`` the
    same minimum summed over ``w`` (BCSZ18 proof of Thm 2.1; the normaliser is
    reconstructed -- the printed ``Z_D`` lost its ``exp``, see the module
    docstring).

    Parameters
    ----------
    mech_on_H : Mechanism
        ``Â``: rows exactly the points of ``H``.
    metric : FiniteMetric
        ``(M, d)``; may be disconnected (then every component must contain a
        point of ``H``; the extension is computed per component because points
        at infinite distance never attain the minimum).
    H : list of labels, optional
        The subset; default the mechanism's inputs.
    eps, alpha, level :
        Exactly one: the level ``eps`` at which ``Â`` is private.

    Returns
    -------
    Mechanism
        ``A`` with inputs the metric's points and the outputs of ``Â``.

    Raises
    ------
    InvalidInput
        ``H`` empty, not in the metric, a component without a point of ``H``.
    LabelMismatch
        The mechanism's inputs are not ``H``.
    Undecided
        ``e^(eps d)`` is outside the kernel's exact field (the reason is given).

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
    >>> A = extend(Ah, path(4), ["0", "3"], alpha="1/2")
    >>> [[str(v) for v in row] for row in A.rows()]
    [['3/4', '1/4'], ['2/3', '1/3'], ['1/3', '2/3'], ['1/4', '3/4']]

    Notes
    -----
    ``O(|M| |H| |W|)`` float work plus one exact comparison per surviving
    candidate (identical ``(distance, value)`` candidates are compared once).

    References
    ----------
    BCSZ18 Prop. 2.1 and its proof (Sec. 4), Lemma 4.1.
    """
    return extension_data(mech_on_H, metric, H, eps=eps, alpha=alpha, level=level).mechanism



# ----------------------------------------------------------------------------------------------------
# One certificate for the BCSZ18 extension: (a) Â private on H, (b) A = Â on H, (c) A 2eps-private, (d) eps*(A).
#
# :func:`certify_extension` decides each part exactly (``decide``), builds an
# evidence record of exact strings, and renders the worked proof from that
# record (``render``), following BCSZ18's chain of inequalities (proof of
# Thm 2.1, Sec. 4) with the exact numbers of the binding instance: the pair
if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric



def _agreement(X, mech_on_H):
    """(b): ``Z_D = 1`` and ``A(D) = Â(D)`` exactly for every ``D`` in H; first disagreement or None."""
    A = X.mechanism
    ones = 0
    first = None
    for h in X.H:
        z = X.Z[A.row_index[h]]
        if sign(z - 1) == 0:
            ones += 1
        for w in A.outputs:
            a, b = A.entry(h, w), mech_on_H.entry(h, w)
            if first is None and sign(a - b) != 0:
                first = {"D": h, "output": w, "A": exact_str(a), "A_hat": exact_str(b), "Z_D": exact_str(z)}
    return ones, first


def _binding(X, metric, mech_on_H, b):
    """Exact numbers of BCSZ18's chain at the binding pair ``(D_1, D_2, w)`` of A's smallest eps."""
    A, L = X.mechanism, X.level
    D1, D2, w = b.x, b.x_prime, b.output
    i1, i2, j = A.row_index[D1], A.row_index[D2], A.col_index[w]
    d12 = metric.distance(D1, D2)
    p1, p2 = X.H[int(X.argmin[i1, j])], X.H[int(X.argmin[i2, j])]
    m1, m2, Z1, Z2 = X.minima[i1][j], X.minima[i2][j], X.Z[i1], X.Z[i2]
    E = L.factor(d12)
    a1, a2 = A.entry(D1, w), A.entry(D2, w)
    return {"D1": D1, "D2": D2, "output": w, "distance": exact_str(d12),
            "argmin_D1": p1, "argmin_D2": p2, "d_D1_argmin": exact_str(metric.distance(D1, p1)),
            "d_D2_argmin": exact_str(metric.distance(D2, p2)),
            "A_hat_argmin_D1": exact_str(mech_on_H.entry(p1, w)), "A_hat_argmin_D2": exact_str(mech_on_H.entry(p2, w)),
            "m1": exact_str(m1), "m2": exact_str(m2), "factor": exact_str(E), "factor_m2": exact_str(simplify(E * m2)),
            "Z1": exact_str(Z1), "Z2": exact_str(Z2), "factor_Z1": exact_str(simplify(E * Z1)),
            "A1": exact_str(a1), "A2": exact_str(a2),
            "ratio": exact_str(simplify(a1 / a2)) if sign(a2) else "inf", "factor2": exact_str(simplify(E * E))}


def _distances(metric, H):
    hidx = [metric.index[h] for h in H]
    return [[exact_str(metric.d(i, j)) if metric.d(i, j) != math.inf else "inf" for j in hidx]
            for i in range(len(metric))]


def _no_extension(base, ca, claim, e) -> Certificate[ExtensionEvidence]:
    """The certificate when ``A`` cannot be built: a zero normaliser, or an undecided comparison."""
    undecided = isinstance(e, Undecided)
    note = e.reason if isinstance(e, Undecided) else str(e)
    ev = ExtensionEvidence(**base, mechanism=None, normalisers=None, agrees_on_H=None, normalisers_equal_1=0,
                           disagreement=None, private_2eps="undecided" if undecided else "undefined",
                           violation_2eps=None, epsilon=None, enclosure=None, binding=None,
                           witness={"part": "a"} if ca.holds is False else None, extension_note=note)
    if ca.holds is False:
        return Certificate("extension", False, ca.method, claim, ev, note="part (a) fails")
    return Certificate("extension", UNDECIDED, Method.NONE, claim, ev, reason=note)


def _combine(holds_a, disagree, holds_c, binding):
    """The verdict of parts (a), (b), (c) together, and the witness of the first part that fails."""
    verdicts = [holds_a, disagree is None, holds_c]
    holds: Any
    if any(v is False for v in verdicts):
        holds = False
    elif any(v is UNDECIDED for v in verdicts):
        holds = UNDECIDED
    else:
        holds = True
    # the witness names the part; its numbers are in ``violation``, ``disagreement``, ``violation_2eps``, ``binding``
    part = "a" if holds_a is False else "b" if disagree is not None else "c" if holds_c is False else "all"
    return holds, {"part": part}


def certify_extension(mech_on_H: Mechanism, metric: FiniteMetric, H: Sequence[str] | None = None, *,
                      eps: Any = None, alpha: Any = None,
                      level: Level | None = None) -> Certificate[ExtensionEvidence]:
    """Certify BCSZ18 Prop. 2.1 on an instance: the extension exists, agrees on H and is 2 eps-private.

    Parameters
    ----------
    mech_on_H : Mechanism
        ``Â`` with rows exactly ``H``.
    metric : FiniteMetric
        ``(M, d)``.
    H : list of labels, optional
        Default: the mechanism's inputs.
    eps, alpha, level : exact number or Level
        Exactly one: the level ``eps`` claimed for ``Â`` on ``H``
        (``alpha = e^(-eps)``).

    Returns
    -------
    Certificate
        ``kind = "extension"``.  Holds when (a) ``Â`` is eps-private on ``H``
        for the restricted metric, (b) ``A = Â`` on ``H`` (every normaliser
        ``Z_D = 1``) and (c) ``A`` is ``2 eps``-private on ``M``; fails with the
        failing part's witness (for (a): the violated constraint of ``Â``);
        undecided outside the exact regimes.  The evidence holds ``mechanism``
        (``A``), ``agrees_on_H``, ``private_2eps``, ``epsilon`` (``A``'s exact
        smallest eps), ``witness`` and ``binding`` (BCSZ18's chain at the
        binding pair).

    Raises
    ------
    InvalidInput
        Not exactly one of ``eps``, ``alpha``, ``level``; an ``H`` that is
        empty, repeats a point or names a point outside the metric; a
        component of the metric with no point of ``H`` (the extension is
        undefined there) (:class:`~exactdp.errors.LabelMismatch` when the
        mechanism's inputs are not exactly ``H``).
    InvalidType
        A level given as a binary float.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.metrics import path
    >>> Ah = Mechanism.from_rows(["0", "2"], ["a", "b"], [["2/3", "1/3"], ["1/3", "2/3"]])
    >>> c = certify_extension(Ah, path(3), alpha="1/2")
    >>> c.verdict, c.evidence.agrees_on_H, c.evidence.private_2eps
    (<Verdict.HOLDS: 'holds'>, True, 'holds')
    >>> c.evidence.mechanism.rows()[1]
    ['1/2', '1/2']

    References
    ----------
    BCSZ18 Prop. 2.1 (Thm 2.1), Lemma 4.1, proof in Sec. 4.
    """
    level = resolve_level(eps, alpha, level)
    H = _check_subset(mech_on_H, metric, H)
    check_extension_size(metric, H, len(mech_on_H.outputs))
    if mech_on_H.regime == "symbolic":
        mech_on_H = mech_on_H.at(level)
    claim = (f"the BCSZ18 extension of {mech_on_H.name} from |H| = {len(H)} points to the {metric.description} "
             f"agrees on H and is 2 eps-private, eps = {level.eps_str()}")
    R = restrict_metric(metric, H)
    ca = certify_privacy(mech_on_H, R, level=level)
    assert isinstance(ca.evidence, PrivacyEvidence)  # a concrete mechanism: never the all-eps fallback
    base = dict(mech_on_H=mechanism_data(mech_on_H), H=list(H), metric=metric_data(metric),
                restricted=metric_data(R), points=list(metric.points), distances=_distances(metric, H),
                level=level_data(level), level_2eps=level_data(double_level(level)),
                private_on_H=ca.verdict.value, epsilon_of_A_hat=ca.evidence.epsilon, violation=ca.evidence.violation)
    try:
        X = extension_data(mech_on_H, metric, H, level=level)
    except (ZeroNormaliser, Undecided) as e:
        return _no_extension(base, ca, claim, e)
    ones, disagree = _agreement(X, mech_on_H)
    cc = certify_privacy(X.mechanism, metric, level=double_level(level))
    assert isinstance(cc.evidence, PrivacyEvidence)  # a concrete mechanism: never the all-eps fallback
    sm = cc.evidence.smallest
    binding = None
    if cc.holds is True and sm is not None and sm.binding is not None and sm.epsilon not in (None, "0", "inf"):
        binding = _binding(X, metric, mech_on_H, sm.binding)
    holds, witness = _combine(ca.holds, disagree, cc.holds, binding)
    ev = ExtensionEvidence(**base, mechanism=mechanism_data(X.mechanism), normalisers=[exact_str(z) for z in X.Z],
                           agrees_on_H=disagree is None, normalisers_equal_1=ones, disagreement=disagree,
                           private_2eps=cc.verdict.value, violation_2eps=cc.evidence.violation,
                           epsilon=cc.evidence.epsilon, enclosure=cc.evidence.enclosure, binding=binding,
                           witness=witness, extension_note=None)
    method = exact_method(level, mech_on_H)
    note = f"minima: {X.comparisons.note('candidate')}"
    if holds is UNDECIDED:
        return Certificate("extension", UNDECIDED, method, claim, ev, reason="a comparison is outside every exact "
                           "regime", note=note)
    return Certificate("extension", holds, method, claim, ev, note=note)
