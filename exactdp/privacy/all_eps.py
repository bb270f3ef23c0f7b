"""Privacy for every eps > 0 at once (regime 3: symbolic alpha, exact root isolation).

With ``alpha = e^(-eps)`` a symbol in (0, 1), ``e^(eps d) = alpha^(-d)`` and each
constraint ``K(x)(z) <= alpha^(-d) K(x')(z)`` becomes ``p(alpha) >= 0`` for an
exact rational function ``p``.  Its sign on (0, 1) is decomposed exactly
(:func:`exactdp.exact.symbolic.sign_pieces`).  The mechanism is private for
every eps iff no piece is negative; otherwise the union of the negative pieces
is the exact set of alpha (equivalently eps = -log alpha) where it fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Constraint, Method, mechanism_data, metric_data
from .evidence import AllEpsEvidence, Counts, Piece
from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import exact_str
from ..exact.expo import ExpFrac
from ..exact.lin import Lin
from ..exact.symbolic import AlphaSet, denominator_lcm, sign_pieces
from ..metrics import as_metric
from .constraints import Constraints, Triple

if TYPE_CHECKING:
    import networkx as nx

    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["certify_all_eps"]


def _is_zero(v):
    return v == 0 if isinstance(v, fmpq) else v.is_zero()


def certify_all_eps(mech: Mechanism, metric: FiniteMetric | nx.Graph) -> Certificate[AllEpsEvidence]:
    """Certify ``eps d``-privacy of a mechanism in a symbolic alpha for every eps > 0.

    .. math:: K_\\alpha(x)(z) \\le \\alpha^{-d(x,x')} K_\\alpha(x')(z) \\quad
              \\forall \\alpha \\in (0, 1),\\ x, x', z

    Parameters
    ----------
    mech : Mechanism
        Entries rational functions of a symbolic ``alpha`` (or rational).
    metric : FiniteMetric or networkx.Graph
        The metric ``d`` of ``eps d``-privacy (ECP14 Def. 1) on the inputs.

    Returns
    -------
    Certificate
        Kind ``all_eps``: holds (private for every eps), or fails with
        ``evidence.failure_set`` -- the exact set of alpha in (0, 1) where a
        constraint fails -- and ``evidence.witness`` at the rational
        ``evidence.sample_alpha`` in it; undecided (with the reason) for
        irrational distances or powers outside the regime.

    Raises
    ------
    InvalidInput
        For fixed transcendental entries (write them in alpha).

    Examples
    --------
    >>> from exactdp.mechanisms import geometric, randomized_response
    >>> from exactdp.metrics import path, discrete
    >>> certify_all_eps(geometric(3), path(4)).holds
    True
    >>> c = certify_all_eps(randomized_response(3, p="1/4"), discrete(3))
    >>> c.holds, c.evidence.failure_set[0]["lo"], c.evidence.failure_set[0]["hi"]
    (False, '1/2', '1')

    References
    ----------
    GRS12 Ex. 2.1 (the geometric mechanism is eps-private for every eps).
    """
    metric = as_metric(metric)
    vals = mech.values
    if mech.regime == "transcendental":
        raise InvalidInput("certify_all_eps: the entries are fixed transcendental numbers; write them in alpha "
                           "(e.g. 'alpha^2/(1+alpha)') to prove a statement for every eps")
    mech = mech.validate()
    cons = Constraints(mech, metric)
    claim = f"{mech.name} is eps*d-private for every eps > 0 on the {metric.description}"
    base = dict(mechanism=mechanism_data(mech), metric=metric_data(metric),
                counts=Counts(pairs=cons.n_pairs, outputs=cons.n_outputs, inequalities=cons.total))
    try:
        L = _root_power(vals, cons.dvals)
        seen, zero_count, decided, fail_pieces, first_fail = _decide_signs(cons, vals, L)
    except UnsupportedRegime as e:
        return _undecided(claim, base, str(e))
    fails = AlphaSet(fail_pieces)
    kw = dict(base, distinct=seen, identically_tight=zero_count, sign_decided=decided, root_power=int(L),
              failure_set=[Piece(**p) for p in fails.to_json()], failure_set_text=str(fails))
    if fails.is_empty():
        return Certificate("all_eps", True, Method.SYMBOLIC_ROOTS, claim,
                           AllEpsEvidence(**kw, witness=None, sample_alpha=None))
    t, piece, _x = first_fail
    xl, xp, z, d = cons.locate(t)
    sample, u = _sample(piece, L)
    lhs = _eval(vals[t.a], u, L)
    rhs = _eval(vals[t.b], u, L) / u ** int(d * L)  # alpha^(-d) = u^(-d L), d L an integer
    if not lhs > rhs:  # the sample lies strictly inside a piece where p < 0
        raise RuntimeError("internal error: the failure witness does not fail")
    w = Constraint(x=str(xl), x_prime=str(xp), output=str(z), distance=exact_str(d), K_x=exact_str(vals[t.a]),
                   K_x_prime=exact_str(vals[t.b]), lhs=str(lhs), rhs=str(rhs), excess=str(lhs - rhs))
    return Certificate("all_eps", False, Method.SYMBOLIC_ROOTS, claim,
                       AllEpsEvidence(**kw, witness=w, sample_alpha=str(sample)))


def _root_power(vals, dvals) -> int:
    """``L`` such that every entry and every ``alpha^(-d)`` is a rational function of ``u = alpha^(1/L)``."""
    L = denominator_lcm(vals)
    for d in dvals:
        if not isinstance(d, fmpq):
            raise UnsupportedRegime(f"distance {d} is irrational: alpha^(-{d}) is not a power of alpha")
        L = L * int(d.q) // np.gcd(L, int(d.q))
    return L


def _decide_signs(cons, vals, L):
    """Exact sign on (0, 1) of ``p = alpha^(-d) K(x')(z) - K(x)(z)`` for each distinct triple.

    Returns (distinct triples, identically zero ones, decided ones, negative pieces, first failure)."""
    zero_count = decided = 0
    fail_pieces, first_fail, seen = [], None, set()
    for ch in cons.chunks():
        for f, ia, ib, dc in zip(ch.first, ch.A, ch.B, ch.DC, strict=True):
            t = Triple(int(f), int(ia), int(ib), int(dc))
            if (t.a, t.b, t.dc) in seen:
                continue
            seen.add((t.a, t.b, t.dc))
            a, b, d = vals[t.a], vals[t.b], cons.dvals[t.dc]
            if _is_zero(a):
                continue
            x = ExpFrac.exp(Lin.eps() * d) * b - a
            if isinstance(x, ExpFrac):
                x = x.reduced()
            if _is_zero(x):
                zero_count += 1
                continue
            neg = [p for p in sign_pieces(x if isinstance(x, ExpFrac) else ExpFrac.const(x), L) if p.sign < 0]
            decided += 1
            if neg:
                fail_pieces += neg
                if first_fail is None:
                    first_fail = (t, neg[0], x)
    return len(seen), zero_count, decided, fail_pieces, first_fail


def _undecided(claim, base, reason):
    ev = AllEpsEvidence(**base, distinct=0, identically_tight=0, sign_decided=0, root_power=1, failure_set=None,
                        failure_set_text=None, witness=None, sample_alpha=None)
    return Certificate("all_eps", UNDECIDED, Method.NONE, claim, ev, reason=reason)


def _sample(piece, L):
    """``(alpha, u)``: a rational alpha strictly inside an open piece, with ``u = alpha^(1/L)`` rational.

    Exact throughout: the piece's algebraic ends are refined until a rational gap opens, then (for L > 1) a
    rational u with lo < u^L < hi is found by exact bisection on [0, 1].
    """
    lo, hi = piece.lo, piece.hi
    while not (lo.b < hi.a):
        lo._bisect()
        hi._bisect()
    lo_r, hi_r = lo.b, hi.a  # rationals with lo <= lo_r < hi_r <= hi
    if L == 1:
        q = (lo_r + hi_r) / 2
        return fmpq(int(q.p), int(q.q)), fmpq(int(q.p), int(q.q))
    import sympy as sp  # the algebraic ends are sympy rationals already

    a, b = sp.Rational(0), sp.Rational(1)
    while True:
        u = (a + b) / 2
        v = u**L
        if v <= lo_r:
            a = u
        elif v >= hi_r:
            b = u
        else:
            return fmpq(int(v.p), int(v.q)), fmpq(int(u.p), int(u.q))


def _eval(v, u: fmpq, L: int):
    """Exact value of a symbolic entry at ``alpha = u^L`` (exp(c eps) = alpha^(-c) = u^(-c L), c L integer)."""
    if isinstance(v, fmpq):
        return v

    def ev(p):
        total = fmpq(0)
        for k, c in p.items():
            e = -k.eps_coefficient() * L
            if k.without_eps().terms or e.q != 1:
                raise UnsupportedRegime(f"exp({k}) is not an integer power of alpha^(1/{L})")
            total += c * u ** int(e.p)
        return total
    return ev(v.num) / ev(v.den)
