"""Privacy for every eps > 0 at once (regime 3: symbolic alpha, exact root isolation).

With ``alpha = e^(-eps)`` a symbol in (0, 1), ``e^(eps d) = alpha^(-d)`` and each
constraint ``K(x)(z) <= alpha^(-d) K(x')(z)`` becomes ``p(alpha) >= 0`` for an
exact rational function ``p``.  Its sign on (0, 1) is decomposed exactly
(:func:`exactdp.exact.symbolic.sign_pieces`).  The mechanism is private for
every eps iff no piece is negative; otherwise the union of the negative pieces
is the exact set of alpha (equivalently eps = -log alpha) where it fails.
"""

from __future__ import annotations

import numpy as np
import sympy as sp
from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Step
from ..errors import InvalidInput, UnsupportedRegime
from ..exact.decide import exact_latex, exact_str
from ..exact.expo import ExpFrac
from ..exact.lin import Lin
from ..exact.symbolic import AlphaSet, denominator_lcm, sign_pieces
from ..metrics import as_metric
from .constraints import Constraints, Triple

__all__ = ["certify_all_eps"]


def _is_zero(v):
    return v == 0 if isinstance(v, fmpq) else v.is_zero()


def certify_all_eps(mech, metric) -> Certificate:
    """Certify ``eps d``-privacy of a mechanism in a symbolic alpha for every eps > 0.

    Returns a certificate whose ``holds`` is True (private for every eps), or
    False with ``data["failure_set"]``: the exact set of alpha in (0, 1) where a
    constraint fails, and a witness at a rational sample alpha in it.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric, randomized_response
    >>> from exactdp.metrics import path, discrete
    >>> certify_all_eps(geometric(3), path(4)).holds
    True
    >>> c = certify_all_eps(randomized_response(3, p="1/4"), discrete(3))
    >>> c.holds, c.data["failure_set"][0]["lo"], c.data["failure_set"][0]["hi"]
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
    claim_latex = r"\forall \alpha \in (0,1)\ \forall x,x',z:\ K_\alpha(x)(z) \le \alpha^{-d(x,x')} K_\alpha(x')(z)"
    steps = [
        Step("Definition", "With $\\alpha = e^{-\\varepsilon} \\in (0,1)$, $\\varepsilon d$-privacy (ECP14 Def. 1) "
             "reads $K(x)(z) \\le \\alpha^{-d(x,x')} K(x')(z)$. Every $\\varepsilon > 0$ corresponds to exactly one "
             "$\\alpha \\in (0,1)$, so proving the inequality for every $\\alpha \\in (0,1)$ proves it for every "
             "$\\varepsilon$."),
        Step("The mechanism", f"$K$ is the {len(mech.inputs)} x {len(mech.outputs)} matrix *{mech.name}* with entries "
             f"exact rational functions of $\\alpha$ ({len(vals)} distinct). Each row sums to 1 as an identity in "
             "$\\alpha$ and each entry is $\\ge 0$ on all of $(0,1)$ (exact root isolation)."),
        Step("Reduction to generating pairs", f"The metric is the {metric.description}. {metric.reduction}. "
             f"{cons.total} inequalities reduce to {cons.distinct()} distinct triples."),
    ]
    try:
        L = denominator_lcm(vals)
        for d in cons.dvals:
            if not isinstance(d, fmpq):
                raise UnsupportedRegime(f"distance {d} is irrational: alpha^(-{d}) is not a power of alpha")
            L = L * int(d.q) // np.gcd(L, int(d.q))
    except UnsupportedRegime as e:
        return _undecided(claim, claim_latex, steps, str(e), cons)
    zero_count = descartes_or_roots = 0
    fail_pieces = []
    first_fail = None
    seen: set = set()
    triples = [Triple(int(f), int(a), int(b), int(dc)) for ch in cons.chunks()
               for f, a, b, dc in zip(ch.first, ch.A, ch.B, ch.DC)]
    for t in triples:
        if (t.a, t.b, t.dc) in seen:
            continue
        seen.add((t.a, t.b, t.dc))
        a, b, d = vals[t.a], vals[t.b], cons.dvals[t.dc]
        if _is_zero(a):
            continue
        E = ExpFrac.exp(Lin.eps() * d)
        x = E * b - a
        if isinstance(x, ExpFrac):
            x = x.reduced()
        if _is_zero(x):
            zero_count += 1
            continue
        try:
            pieces = sign_pieces(x if isinstance(x, ExpFrac) else ExpFrac.const(x), L)
        except UnsupportedRegime as e:
            return _undecided(claim, claim_latex, steps, str(e), cons)
        descartes_or_roots += 1
        neg = [p for p in pieces if p.sign < 0]
        if neg:
            fail_pieces += neg
            if first_fail is None:
                first_fail = (t, neg[0], x)
    fails = AlphaSet(fail_pieces)
    data = {"constraints": {"pairs": cons.n_pairs, "outputs": cons.n_outputs, "inequalities": cons.total,
                            "distinct": len(seen)},
            "identically_tight": zero_count, "sign_decided": descartes_or_roots,
            "failure_set": fails.to_json(), "failure_set_text": str(fails)}
    steps.append(Step("Exact signs on (0, 1)",
                      f"Of the {len(seen)} distinct triples, {zero_count} give $p \\equiv 0$ (tight for every $\\varepsilon$), "
                      f"{descartes_or_roots} were decided by Descartes' rule of signs on $(1+v)^n p(1/(1+v))$ or by "
                      "exact isolation of the real roots in $(0,1)$ of the irreducible factors, the sign carried across "
                      "each root by the parity of its multiplicity."))
    if fails.is_empty():
        holds = True
        witness = {"identically_tight": zero_count}
        concl = "The mechanism is eps*d-private for every eps > 0."
    else:
        holds = False
        t, piece, x = first_fail
        xl, xp, z, d = cons.locate(t)
        sample, u = _sample(piece, L)
        at = {"x": xl, "x_prime": xp, "output": z, "distance": exact_str(d),
              "K_x": exact_str(vals[t.a]), "K_x_prime": exact_str(vals[t.b]),
              "sample_alpha": str(sample)}
        lhs = _eval(vals[t.a], u, L)
        rhs = _eval(vals[t.b], u, L) / u ** int(d * L)  # alpha^(-d) = u^(-d L), d L an integer
        if not lhs > rhs:  # the sample lies strictly inside a piece where p < 0
            raise RuntimeError("internal error: the failure witness does not fail")
        at.update(lhs=str(lhs), rhs=str(rhs), excess=str(lhs - rhs))
        witness = {**at, "failure_set": str(fails)}
        steps.append(Step("Where it fails",
                          f"For $x = {xl}$, $x' = {xp}$, $z = {z}$: $p(\\alpha) = \\alpha^{{-{exact_latex(d)}}} "
                          f"K(x')(z) - K(x)(z) = {exact_latex(x)}$ is negative for $\\alpha \\in {fails.latex()}$"
                          + f"; at $\\alpha = {sample}$: $K(x)(z) = {lhs} > {rhs} = \\alpha^{{-d}} K(x')(z)$."))
        concl = f"The mechanism fails exactly for alpha in {fails} (eps = -log alpha), and is private elsewhere."
    return Certificate(kind="all_eps", claim=claim, claim_latex=claim_latex, holds=holds, witness=witness,
                       method="symbolic alpha: exact identity tests and exact real-root isolation on (0, 1) "
                              "(regime 3)", steps=steps, data=data,
                       evidence={"mechanism": mech, "metric": metric, "L": L}, conclusion=concl)


def _undecided(claim, claim_latex, steps, reason, cons):
    steps.append(Step("Undecided", reason))
    return Certificate(kind="all_eps", claim=claim, claim_latex=claim_latex, holds=UNDECIDED,
                       witness={"reason": reason}, method="symbolic alpha (regime 3)", steps=steps,
                       data={"reason": reason, "failure_set": None}, evidence={}, conclusion="Undecided: " + reason)


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
