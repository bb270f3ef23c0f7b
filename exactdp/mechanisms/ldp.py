"""Local-DP frequency oracles over the inputs ``0..k-1``, built exactly at a requested eps.

Each builder returns a :class:`~exactdp.mechanism.Mechanism` whose rows are the
user's inputs ``v in {0..k-1}`` and whose columns are the reports; it is built
so that its privacy level over the discrete metric (any two inputs at
distance 1) is the requested ``eps`` -- the tests check the exact smallest eps
against each paper's statement.  Notation of Wang et al. 2017 ([WBLJ17]):
a report ``y`` *supports* the inputs ``Support(y)``; the protocol is *pure*
when ``p* = Pr[v in Support(Y) | v]`` and ``q* = Pr[v in Support(Y) | u]``
(``u != v``) do not depend on ``v, u``.

============================  ======================================================================  ===============
builder                       report                                                                  [WBLJ17] p*, q*
============================  ======================================================================  ===============
:func:`generalized_rr`        ``y in [k]``: ``v`` w.p. ``e^eps/(e^eps+k-1)``                          p, q
:func:`symmetric_unary`       ``{0,1}^k``, one-hot, each bit kept w.p. ``e^(eps/2)/(e^(eps/2)+1)``    p, q
:func:`optimized_unary`       ``{0,1}^k``, own bit 1 w.p. 1/2, others 1 w.p. ``1/(e^eps+1)``          1/2, q
:func:`subset_selection`      an ``omega``-subset of ``[k]`` (Ye--Barg)                               see there
============================  ======================================================================  ===============

Local hashing and Hadamard response are in :mod:`~exactdp.mechanisms.ldp_hash`;
:func:`estimator_variance` gives the exact variance of the standard unbiased
count estimator of any of them.

>>> R = generalized_rr(3, eps="log(2)")
>>> [str(v) for v in R.rows()[0]]
['1/2', '1/4', '1/4']
>>> optimized_unary(2, alpha="1/3").entry(0, "10")
3/8

References
----------
- [WBLJ17] T. Wang, J. Blocki, N. Li, S. Jha, "Locally Differentially Private
  Protocols for Frequency Estimation", USENIX Security 2017, sec. 4 (pure
  protocols and the variance of their estimator), 4.1 (DE), 4.3 (SUE = basic RAPPOR, OUE).
- [YB18] M. Ye, A. Barg, "Optimal Schemes for Discrete Distribution
  Estimation Under Locally Differential Privacy", IEEE Trans. Inf. Theory
  64(8), 2018 (the ``d``-subset mechanism).
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Any, NamedTuple

from flint import fmpq

from ..errors import InputTooLarge, InvalidInput
from ..exact.decide import exact_str
from ..mechanism import Mechanism, mechanism_from_values
from ._levels import exp_eps, floor_of, int_arg, level_arg

__all__ = [
    "MAX_REPORTS",
    "MAX_UNARY_K",
    "estimator_variance",
    "generalized_rr",
    "optimized_unary",
    "subset_selection",
    "symmetric_unary",
]

#: largest k of the unary encodings: their report space {0,1}^k has 2^k columns (1024 at k = 10)
MAX_UNARY_K = 10
#: most reports (columns) a frequency oracle may have here
MAX_REPORTS = 4096


class Oracle(NamedTuple):
    """A built frequency oracle: the mechanism and ``Support(y)`` for each report (aligned with its outputs)."""

    mechanism: Mechanism
    support: tuple


def _oracle(k, outputs, rows, supports, name, provenance, values=None) -> Oracle:
    """An :class:`Oracle` from exact rows, or (``values`` given) from integer codes into ``values``."""
    ins = [str(v) for v in range(k)]
    if values is None:
        m = mechanism_from_values(ins, outputs, rows, name=name)
    else:
        m = Mechanism(ins, outputs, rows, values, name=name)
    m.provenance = provenance
    return Oracle(m, tuple(frozenset(s) for s in supports))


def _k(k, lo=2, hi=None):
    return int_arg(k, "k", lo, hi)


# ---- generalized randomized response (direct encoding) ----------------------------------
def _grr(k, level) -> Oracle:
    k = _k(k, 2, MAX_REPORTS)
    e = exp_eps(level, 1)
    p, q = e / (e + k - 1), 1 / (e + k - 1)
    rows = [[p if y == v else q for y in range(k)] for v in range(k)]
    return _oracle(k, [str(y) for y in range(k)], rows, [{y} for y in range(k)],
                   f"generalized randomized response (k = {k})", "k-RR / direct encoding (WBLJ17 sec. 4.1)")


def generalized_rr(k: int, *, eps: Any = None, alpha: Any = None, level: Any = None) -> Mechanism:
    """Generalized (k-ary) randomized response, [WBLJ17] sec. 4.1 (direct encoding, DE).

    ``Pr[y | v] = p = e^eps/(e^eps + k - 1)`` for ``y = v`` and
    ``q = 1/(e^eps + k - 1)`` otherwise; ``p/q = e^eps``, so it is exactly
    eps-LDP.  The same matrix as :func:`~exactdp.mechanisms.randomized_response`
    at HLM15's threshold ``p = 1/(m + e^eps)``.

    Parameters
    ----------
    k : int
        Inputs and reports ``0..k-1``, ``2 <= k <= MAX_REPORTS``.
    eps, alpha, level : exact number or Level, optional
        The level (one of them; ``alpha = e^(-eps)``).  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``k x k``.

    Raises
    ------
    InvalidInput
        ``k < 2``, more than one level, or a bad level
        (:class:`~exactdp.errors.InputTooLarge` for ``k > MAX_REPORTS``).
    InvalidType
        A non-integer ``k``.

    Examples
    --------
    >>> [str(v) for v in generalized_rr(4, alpha="1/2").rows()[2]]
    ['1/5', '1/5', '2/5', '1/5']
    >>> generalized_rr(2).entry(0, 0)
    ExpFrac('alpha^(-1)/(alpha^(-1) + 1)')

    References
    ----------
    [WBLJ17] sec. 4.1; Kairouz, Oh, Viswanath (NeurIPS 2014).
    """
    return _grr(k, level_arg(eps, alpha, level, required=False)).mechanism


# ---- unary encodings ------------------------------------------------------------------------
def _unary(k, level, p, q, name, provenance) -> Oracle:
    outs = list(itertools.product((0, 1), repeat=k))
    vals: dict = {}  # (own bit, ones among the others) -> probability
    for own in (0, 1):
        for o in range(k):
            vals[own, o] = (p if own else 1 - p) * q**o * (1 - q) ** (k - 1 - o)
    rows = [[vals[y[v], sum(y) - y[v]] for y in outs] for v in range(k)]
    labels = ["".join(map(str, y)) for y in outs]
    supports = [{i for i, b in enumerate(y) if b} for y in outs]
    return _oracle(k, labels, rows, supports, name, provenance)


def _sue(k, level) -> Oracle:
    k = _k(k, 2, MAX_UNARY_K)
    h = exp_eps(level, fmpq(1, 2))
    return _unary(k, level, h / (h + 1), 1 / (h + 1), f"symmetric unary encoding (k = {k})",
                  "basic RAPPOR / SUE (WBLJ17 sec. 4.3)")


def _oue(k, level) -> Oracle:
    k = _k(k, 2, MAX_UNARY_K)
    e = exp_eps(level, 1)
    return _unary(k, level, fmpq(1, 2), 1 / (e + 1), f"optimized unary encoding (k = {k})",
                  "OUE (WBLJ17 sec. 4.3)")


def symmetric_unary(k: int, *, eps: Any = None, alpha: Any = None, level: Any = None) -> Mechanism:
    """Symmetric unary encoding (basic RAPPOR), [WBLJ17] sec. 4.3.

    ``v`` is one-hot encoded in ``{0,1}^k``; each bit is reported unchanged with
    probability ``p = e^(eps/2)/(e^(eps/2) + 1)`` and flipped with
    ``q = 1 - p = 1/(e^(eps/2) + 1)``, independently.  Two inputs differ in
    two bits, so the largest ratio is ``(p/q)^2 = e^eps``: exactly eps-LDP.

    Parameters
    ----------
    k : int
        Inputs ``0..k-1``; reports are the ``2^k`` bit strings (bit ``i`` is the
        ``i``-th character), so ``2 <= k <= MAX_UNARY_K`` (= 10, 1024 columns).
    eps, alpha, level : exact number or Level, optional
        The level; ``e^(eps/2)`` must be rational or ``eps`` algebraic
        (``alpha = 1/4`` works, ``alpha = 1/2`` is refused with
        :class:`~exactdp.errors.UnsupportedRegime`).  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``k x 2^k``.

    Raises
    ------
    InvalidInput
        ``k < 2``, ``k > MAX_UNARY_K`` (:class:`~exactdp.errors.InputTooLarge`),
        a bad level, or ``e^(eps/2)`` irrational algebraic
        (:class:`~exactdp.errors.UnsupportedRegime`).
    InvalidType
        A non-integer ``k``.

    Examples
    --------
    >>> S = symmetric_unary(2, alpha="1/4")
    >>> S.entry(0, "10"), S.entry(0, "01")
    (4/9, 1/9)

    References
    ----------
    [WBLJ17] sec. 4.3; Erlingsson, Pihur, Korolova, "RAPPOR" (CCS 2014), basic one-time RAPPOR with ``f`` such
    that ``eps = 2 log((1 - f/2)/(f/2))``.
    """
    return _sue(k, level_arg(eps, alpha, level, required=False)).mechanism


def optimized_unary(k: int, *, eps: Any = None, alpha: Any = None, level: Any = None) -> Mechanism:
    """Optimized unary encoding (OUE), [WBLJ17] sec. 4.3.

    ``v`` is one-hot encoded; its own bit is reported as 1 with probability
    ``p = 1/2``; every other bit as 1 with ``q = 1/(e^eps + 1)``.  The
    largest ratio is ``p(1-q)/(q(1-p)) = e^eps``: exactly eps-LDP.

    Parameters
    ----------
    k : int
        ``2 <= k <= MAX_UNARY_K``; reports are the ``2^k`` bit strings.
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha.

    Returns
    -------
    Mechanism
        ``k x 2^k``.

    Raises
    ------
    InvalidInput
        ``k < 2``, ``k > MAX_UNARY_K`` (:class:`~exactdp.errors.InputTooLarge`)
        or a bad level.
    InvalidType
        A non-integer ``k``.

    Examples
    --------
    >>> O = optimized_unary(2, eps="log(3)")
    >>> O.entry(1, "01"), O.entry(1, "10"), O.entry(1, "11")
    (3/8, 1/8, 1/8)

    References
    ----------
    [WBLJ17] sec. 4.3 (OUE, eq. for ``p = 1/2``, ``q = 1/(e^eps + 1)``).
    """
    return _oue(k, level_arg(eps, alpha, level, required=False)).mechanism


# ---- subset selection ---------------------------------------------------------------------------
def _omega_default(k, level):
    e = exp_eps(level, 1)
    v = fmpq(k) / (e + 1)
    if isinstance(v, fmpq):
        w = int(-((-v.p) // v.q))
    else:
        w = -floor_of(-v, (lambda prec: -(k / (level.factor_arb(fmpq(1)) + 1))) if level is not None else None)
    return min(max(int(w), 1), k - 1)


def _subset(k, level, omega) -> Oracle:
    k = _k(k, 2, MAX_REPORTS)
    if level is None and omega is None:
        raise InvalidInput("subset selection: give omega (the subset size) for a symbolic alpha")
    w = _omega_default(k, level) if omega is None else int_arg(omega, "omega", 1)
    if w > k - 1:
        raise InvalidInput(f"omega: expected a subset size 1 <= omega <= k - 1 = {k - 1}, got {w}")
    if comb(k, w) > MAX_REPORTS:
        raise InputTooLarge(f"subset selection: C({k}, {w}) = {comb(k, w)} reports exceed {MAX_REPORTS}")
    e = exp_eps(level, 1)
    Z = comb(k - 1, w - 1) * e + comb(k - 1, w)
    hi, lo = e / Z, 1 / Z
    outs = list(itertools.combinations(range(k), w))
    rows = [[hi if v in S else lo for S in outs] for v in range(k)]
    labels = ["{" + ",".join(map(str, S)) + "}" for S in outs]
    return _oracle(k, labels, rows, [set(S) for S in outs], f"subset selection (k = {k}, omega = {w})",
                   "omega-subset selection (YB18; Wang et al. 2016)")


def subset_selection(k: int, omega: int | None = None, *, eps: Any = None, alpha: Any = None,
                     level: Any = None) -> Mechanism:
    """Subset selection ([YB18]'s ``d``-subset mechanism; Wang et al. 2016), exactly eps-LDP.

    Reports are the ``omega``-subsets ``S`` of ``{0..k-1}``:
    ``Pr[S | v] = e^eps / Z`` when ``v in S``, ``1 / Z`` otherwise, with
    ``Z = C(k-1, omega-1) e^eps + C(k-1, omega)``.  The ratio of the two
    values is ``e^eps``: exactly eps-LDP for ``1 <= omega <= k-1``.

    Parameters
    ----------
    k : int
        Inputs ``0..k-1``, ``k >= 2``; at most ``MAX_REPORTS`` subsets.
    omega : int, optional
        Subset size, ``1 <= omega <= k - 1``.  Default: ``ceil(k/(e^eps + 1))``
        clamped to ``1..k-1`` (the size [YB18] recommends, about
        ``k/(e^eps+1)``), decided exactly (rationally, or from certified balls:
        ``e^eps`` is then transcendental, so never a tie).
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha (then ``omega`` is required).

    Returns
    -------
    Mechanism
        ``k x C(k, omega)``; reports labelled ``"{0,2}"``.

    Raises
    ------
    InvalidInput
        ``k < 2``, ``omega`` outside ``1..k-1``, too many subsets
        (:class:`~exactdp.errors.InputTooLarge`), a bad level, or no ``omega``
        with a symbolic alpha.
    InvalidType
        A non-integer ``k`` or ``omega``.

    Examples
    --------
    >>> S = subset_selection(4, 2, eps="log(2)")
    >>> S.outputs[:3], S.entry(0, "{0,1}"), S.entry(0, "{1,2}")
    (('{0,1}', '{0,2}', '{0,3}'), 2/9, 1/9)
    >>> subset_selection(6, alpha="1/2").shape      # omega = ceil(6/3) = 2
    (6, 15)

    References
    ----------
    [YB18] sec. III; S. Wang et al., "Mutual Information Optimally Local Private Discrete Distribution
    Estimation", arXiv:1607.08025 (2016).
    """
    return _subset(k, level_arg(eps, alpha, level, required=False), omega).mechanism


# ---- the exact variance of the unbiased count estimator ----------------------------------------------
def _pure_pq(orc: Oracle):
    """``(p*, q*)`` of a pure protocol, checked exactly for every input and every other input."""
    rows = orc.mechanism.rows()
    k = len(rows)
    p_star: Any = None
    q_star: Any = None
    for v in range(k):
        cols = [j for j, S in enumerate(orc.support) if v in S]
        for u in range(k):
            s = sum((rows[u][j] for j in cols), fmpq(0))
            ref = p_star if u == v else q_star
            if ref is None:
                if u == v:
                    p_star = s
                else:
                    q_star = s
            elif s != ref:
                raise InvalidInput(f"estimator_variance: the protocol is not pure (Pr[{v} supported | {u}] = "
                                   f"{exact_str(s)} differs from {exact_str(ref)})")
    return p_star, q_star


def estimator_variance(oracle: str, k: int, *, eps: Any = None, alpha: Any = None, level: Any = None,
                       f: Any = 0, n: int = 1, **params: Any) -> Any:
    """The exact variance of the unbiased count estimator of a pure frequency oracle ([WBLJ17] sec. 4).

    With ``p*, q*`` read off the exact matrix (and checked to be the same for
    every input), the estimator of the count of ``v`` among ``n`` users is
    ``c(v) = (sum_j 1[v in Support(y_j)] - n q*)/(p* - q*)``; when a fraction
    ``f`` of the users hold ``v`` its variance is

    .. math:: \\mathrm{Var}[c(v)] = n\\,\\frac{q^*(1-q^*)}{(p^*-q^*)^2} + n f \\frac{1 - p^* - q^*}{p^* - q^*}

    (the sum of ``n f`` Bernoulli(``p*``) and ``n(1-f)`` Bernoulli(``q*``) variances, scaled).

    Parameters
    ----------
    oracle : str
        A frequency-oracle name of :data:`~exactdp.mechanisms.catalog.ORACLES`:
        ``"grr"``, ``"sue"``, ``"oue"``, ``"blh"``, ``"olh"``, ``"lh"``,
        ``"hadamard"``, ``"subset"``.
    k : int
        Domain size.
    eps, alpha, level : exact number or Level, optional
        The level (one of them is required).
    f : exact number, default 0
        Fraction of users holding ``v``, ``0 <= f <= 1``.
    n : int, default 1
        Number of users.
    **params
        Further parameters of the builder (``g``, ``family``, ``omega``).

    Returns
    -------
    fmpq or ExpFrac
        The exact variance.

    Raises
    ------
    InvalidInput
        An unknown oracle, a bad ``f``, ``n < 1``, or any error of the builder.

    Examples
    --------
    >>> estimator_variance("grr", 3, eps="log(2)")     # (k - 2 + e^eps)/(e^eps - 1)^2
    3
    >>> estimator_variance("oue", 5, eps="log(3)", n=100)   # 4 e^eps/(e^eps - 1)^2 per user
    300

    References
    ----------
    [WBLJ17] sec. 4 (the variance of a pure protocol's estimator; ``Var*`` drops the ``f`` term), sec. 4.1--4.4.
    """
    from .catalog import oracle_of

    orc = oracle_of(oracle, k, level_arg(eps, alpha, level), **params)
    fq = _fraction(f)
    n = int_arg(n, "n", 1)
    p, q = _pure_pq(orc)
    var = n * (q * (1 - q) / (p - q) ** 2 + fq * (1 - p - q) / (p - q))
    r = var.rational() if hasattr(var, "rational") else None
    return r if r is not None else var


def _fraction(f):
    from ..exact.values import to_rational

    fq = to_rational(f, what="f")
    if not (0 <= fq <= 1):
        raise InvalidInput(f"f: expected a fraction of users in [0, 1], got {fq}")
    return fq
