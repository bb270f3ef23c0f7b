"""Selection mechanisms on small candidate sets: permute-and-flip and report-noisy-max (geometric noise).

Both take a score table ``q(x, r)`` (one row per input ``x``, one column per
candidate ``r``; exact rationals for permute-and-flip, integers for
report-noisy-max) of sensitivity ``Delta`` (``|q(x, r) - q(x', r)| <= Delta``
for neighbours ``x, x'``; the builders do not check it -- certify the result
over your metric), and return the exact output distribution derived from the
mechanism's definition.

**Permute-and-flip** ([MS20] Alg. 1): with ``q* = max_r q(x, r)`` and
``p_r = exp(eps (q(x, r) - q*)/(2 Delta))``, visit the candidates in a
uniformly random order and output the first ``r`` whose coin (probability
``p_r``) comes up heads.  ``r`` is output iff it is reached and accepted;
it is reached iff every candidate before it is rejected, and the set ``S`` of
those before it has probability ``|S|! (m-1-|S|)!/m!``:

.. math:: \\Pr[r \\mid x] = p_r \\sum_{j=0}^{m-1} \\frac{j!\\,(m-1-j)!}{m!} e_j\\big(\\{1 - p_s\\}_{s \\ne r}\\big)

(``e_j`` the elementary symmetric polynomials).  [MS20] Thm 1: eps-DP.

**Report-noisy-max with geometric noise** (the discrete analogue of [DR14]
Claim 3.9 with ``Lap(2 Delta/eps)``): output ``argmax_r q(x, r) + Z_r`` with
``Z_r`` i.i.d. two-sided geometric, ``Pr[Z = z] = (1-beta)/(1+beta) beta^|z|``,
``beta = e^(-eps/(2 Delta))``, ties broken uniformly at random.  Conditioning on
``v = q(x, r) + Z_r``, each other candidate is below ``v`` w.p. ``F_j = Pr[Z <= v - 1 - q_j]`` and
tied w.p. ``f_j = Pr[Z = v - q_j]``; a tie with ``T`` others is won w.p.
``1/(T+1) = int_0^1 t^T dt``, hence

.. math::

   \\Pr[r \\mid x] = \\sum_{v \\in \\mathbb{Z}} \\Pr[Z = v - q_r] \\int_0^1 \\prod_{j \\ne r} (F_j + f_j t)\\, dt .

Below ``min q`` and above ``max q`` every factor is a monomial in ``beta^v``, so
the two infinite tails are geometric series summed in closed form; the
finitely many ``v`` between are added one by one.  Everything is exact.

>>> P = permute_and_flip([[0, -2], [-2, 0]], alpha="1/2")
>>> [[str(v) for v in row] for row in P.rows()]
[['3/4', '1/4'], ['1/4', '3/4']]

References
----------
- [MS20] R. McKenna, D. Sheldon, "Permute-and-Flip: A new mechanism for
  differentially private selection", NeurIPS 2020, Algorithm 1, Theorem 1.
- [DR14] C. Dwork, A. Roth, "The Algorithmic Foundations of Differential
  Privacy", 2014, sec. 3.3, Claim 3.9 (report noisy max).
"""

from __future__ import annotations

from math import factorial
from typing import Any

from flint import fmpq

from ..errors import InputTooLarge, InvalidInput
from ..exact.values import to_rational
from ..mechanism import Mechanism, mechanism_from_values
from ._levels import exp_eps, int_arg, level_arg

__all__ = ["MAX_CANDIDATES", "MAX_SCORE_SPAN", "permute_and_flip", "report_noisy_max"]

#: most candidates of a selection mechanism here
MAX_CANDIDATES = 16


def _table(scores, inputs, candidates, integer):
    if not isinstance(scores, (list, tuple)) or not scores or not all(isinstance(r, (list, tuple)) for r in scores):
        raise InvalidInput("scores: expected a non-empty list of rows (one per input) of exact numbers")
    m = len(scores[0])
    if m < 2 or m > MAX_CANDIDATES or any(len(r) != m for r in scores):
        raise InvalidInput(f"scores: expected rows of one length between 2 and {MAX_CANDIDATES} (one score per "
                           f"candidate), got lengths {sorted({len(r) for r in scores})}")
    table = [[to_rational(v, what="score") for v in r] for r in scores]
    if integer and any(v.q != 1 for r in table for v in r):
        raise InvalidInput("report_noisy_max: scores must be integers (the noise is integer-valued)")
    inputs = [str(i) for i in range(len(table))] if inputs is None else [str(x) for x in inputs]
    candidates = [str(j) for j in range(m)] if candidates is None else [str(c) for c in candidates]
    if len(inputs) != len(table) or len(candidates) != m:
        raise InvalidInput(f"scores: {len(table)} x {m}, but {len(inputs)} inputs and {len(candidates)} candidates")
    return table, inputs, candidates


def _sensitivity(s):
    d = to_rational(s, what="sensitivity")
    if d <= 0:
        raise InvalidInput(f"sensitivity: expected Delta > 0, got {d}")
    return d


def _elementary(xs):
    """Elementary symmetric polynomials ``e_0..e_len`` of the exact values ``xs``."""
    e = [fmpq(1)]
    for x in xs:
        e = [e[0]] + [e[j] + x * e[j - 1] for j in range(1, len(e))] + [x * e[-1]]
    return e


def _pf_row(q, lv, delta):
    m, top = len(q), max(q)
    p = [exp_eps(lv, (v - top) / (2 * delta)) for v in q]
    row = []
    for r in range(m):
        e = _elementary([1 - p[s] for s in range(m) if s != r])
        w = sum((fmpq(factorial(j) * factorial(m - 1 - j), factorial(m)) * e[j] for j in range(m)), fmpq(0))
        row.append(p[r] * w)
    return row


def permute_and_flip(scores: list, *, eps: Any = None, alpha: Any = None, level: Any = None,
                     sensitivity: Any = 1, inputs: list | None = None, candidates: list | None = None) -> Mechanism:
    """Permute-and-flip ([MS20] Alg. 1): its exact output distribution (module docstring formula).

    Parameters
    ----------
    scores : list of lists
        ``q(x, r)``: one row per input, ``2..MAX_CANDIDATES`` exact rational scores.
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha.
    sensitivity : exact rational, default 1
        ``Delta > 0`` of the scores.
    inputs, candidates : list, optional
        Labels (default ``0..``).

    Returns
    -------
    Mechanism
        Inputs x candidates; eps-DP over neighbours whose scores differ by at most ``Delta`` ([MS20] Thm 1).

    Raises
    ------
    InvalidInput
        A malformed score table, wrong label counts, ``Delta <= 0``, a bad
        level, or an ``e^(t eps)`` that is irrational algebraic
        (:class:`~exactdp.errors.UnsupportedRegime`).

    Examples
    --------
    >>> P = permute_and_flip([[0, 0, -2]], eps="log(2)")
    >>> [str(v) for v in P.rows()[0]]
    ['5/12', '5/12', '1/6']

    References
    ----------
    [MS20] Algorithm 1 and Theorem 1.
    """
    table, ins, cands = _table(scores, inputs, candidates, integer=False)
    delta = _sensitivity(sensitivity)
    lv = level_arg(eps, alpha, level, required=False)
    rows = [_pf_row(q, lv, delta) for q in table]
    m = mechanism_from_values(ins, cands, rows, name=f"permute-and-flip ({len(cands)} candidates)")
    m.provenance = "permute-and-flip (MS20 Alg. 1)"
    return m


# ---- report-noisy-max with two-sided geometric noise ------------------------------------------
def _pmul(a, b):
    """Product of two polynomials in ``t`` (coefficient lists)."""
    out = [fmpq(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] = out[i + j] + x * y
    return out


def _integral(poly):
    return sum((c / (i + 1) for i, c in enumerate(poly)), fmpq(0))


class _Geo:
    """Two-sided geometric noise with parameter ``beta``: pmf ``f`` and cdf ``F`` at integers."""

    def __init__(self, beta):
        self.b = beta
        self.c = (1 - beta) / (1 + beta)

    def f(self, z: int):
        return self.c * self.b ** abs(z)

    def F(self, z: int):
        return self.b ** (-z) / (1 + self.b) if z <= 0 else 1 - self.b ** (z + 1) / (1 + self.b)


def _rnm_left(G, q, r, lo):
    """``sum_{v <= lo}`` (all factors ``beta^(q - v)`` times constants).

    That is ``beta^(-m lo)/(1 - beta^m)`` times a polynomial.
    """
    b, m = G.b, len(q)
    poly = [G.c * b ** q[r]]
    for j in range(m):
        if j != r:
            poly = _pmul(poly, [b ** q[j] * b / (1 + b), b ** q[j] * G.c])
    return _integral(poly) * b ** (-m * lo) / (1 - b**m)


def _rnm_right(G, q, r, hi):
    """``sum_{v >= hi}``: a polynomial in ``w = beta^v`` whose ``w^s`` terms sum to ``beta^(s hi)/(1 - beta^s)``."""
    b = G.b
    by_s = {1: [G.c * b ** (-q[r])]}   # power of w -> polynomial in t
    for j in range(len(q)):
        if j == r:
            continue
        lin = [-(b ** (-q[j])) / (1 + b), G.c * b ** (-q[j])]    # w-coefficient of F_j + f_j t
        nxt: dict = {}
        for s, poly in by_s.items():
            nxt[s] = _padd(nxt.get(s), poly)
            nxt[s + 1] = _padd(nxt.get(s + 1), _pmul(poly, lin))
        by_s = nxt
    return sum((_integral(poly) * b ** (s * hi) / (1 - b**s) for s, poly in by_s.items()), fmpq(0))


def _padd(a, b):
    if a is None:
        return list(b)
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(n)]


def _rnm_prob(G, q, r):
    lo, hi = min(q), max(q) + 1
    total = _rnm_left(G, q, r, lo) + _rnm_right(G, q, r, hi)
    for v in range(lo + 1, hi):
        poly = [G.f(v - q[r])]
        for j in range(len(q)):
            if j != r:
                poly = _pmul(poly, [G.F(v - 1 - q[j]), G.f(v - q[j])])
        total = total + _integral(poly)
    return total


#: largest spread max(q) - min(q) of one row of report-noisy-max scores (the exact sum visits every value between)
MAX_SCORE_SPAN = 10_000


def _shifted(q):
    """Integer scores less their minimum: argmax with i.i.d. noise does not change when a row is shifted."""
    lo = min(int(v.p) for v in q)
    out = [int(v.p) - lo for v in q]
    if max(out) > MAX_SCORE_SPAN:
        raise InputTooLarge(f"report_noisy_max: a row's scores span {max(out)} > {MAX_SCORE_SPAN}")
    return out


def report_noisy_max(scores: list, *, eps: Any = None, alpha: Any = None, level: Any = None,
                     sensitivity: int = 1, inputs: list | None = None, candidates: list | None = None) -> Mechanism:
    """Report-noisy-max with two-sided geometric noise ``beta = e^(-eps/(2 Delta))``, exactly.

    The discrete analogue of [DR14] Claim 3.9: ``argmax_r q(x, r) + Z_r``,
    ties broken uniformly at random; the exact distribution is the module
    docstring's series, summed in closed form.

    Parameters
    ----------
    scores : list of lists
        Integer scores ``q(x, r)``, one row per input, ``2..MAX_CANDIDATES`` candidates.
    eps, alpha, level : exact number or Level, optional
        The level.  None: a symbolic alpha.
    sensitivity : int, default 1
        ``Delta >= 1``; ``beta = e^(-eps/(2 Delta))``.
    inputs, candidates : list, optional
        Labels (default ``0..``).

    Returns
    -------
    Mechanism
        Inputs x candidates.

    Raises
    ------
    InvalidInput
        A malformed table, non-integer scores, ``Delta < 1``, a bad level, or
        an irrational algebraic ``beta`` (:class:`~exactdp.errors.UnsupportedRegime`).
    InvalidType
        A non-integer ``sensitivity``.

    Examples
    --------
    >>> R = report_noisy_max([[0, 0], [1, 0]], alpha="1/4")      # beta = 1/2
    >>> [[str(v) for v in row] for row in R.rows()]
    [['1/2', '1/2'], ['2/3', '1/3']]

    Notes
    -----
    [DR14] proves eps-DP for continuous noise, where ties have probability 0;
    with integer noise ties occur, and no published statement covers this
    discrete version with uniform tie-breaking.  Certify each instance
    (:func:`~exactdp.certify_privacy`): the tests find it eps-DP on theirs.

    References
    ----------
    [DR14] sec. 3.3, Claim 3.9 (report noisy max, continuous Laplace noise).
    """
    table, ins, cands = _table(scores, inputs, candidates, integer=True)
    delta = int_arg(sensitivity, "sensitivity", 1)
    lv = level_arg(eps, alpha, level, required=False)
    G = _Geo(exp_eps(lv, fmpq(-1, 2 * delta)))
    rows = [[_rnm_prob(G, q, r) for r in range(len(q))] for q in map(_shifted, table)]
    m = mechanism_from_values(ins, cands, rows, name=f"report-noisy-max, geometric noise ({len(cands)} candidates)")
    m.provenance = "report-noisy-max with two-sided geometric noise (DR14 Claim 3.9, discrete)"
    return m
