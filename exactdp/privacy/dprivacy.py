"""d-privacy and eps-DP of a mechanism over a finite metric, certified exactly.

ECP14 Def. 1 (d_X-privacy): ``K(x)(z) <= e^(eps d(x,x')) K(x')(z)`` for all
secrets ``x, x'`` and outputs ``z``.  eps-differential privacy is the case of
the Hamming metric or of the induced graph of a query (ECP14 sec. 3.2,
Corollary 1).

:func:`certify_privacy` decides the inequality at an exact level and returns
the witness (a violated inequality with both sides exact) or the tight
constraints.  :func:`smallest_epsilon` finds the exact smallest level

    eps* = max over constraints of log(K(x)(z) / K(x')(z)) / d(x, x'),

as a closed form ``log(r)/d`` (or an exact exponent such as ``1/2`` when the
ratio is ``e^(1/2)``) with a certified decimal enclosure, and ``inf`` when some
output has probability zero on one side of a constraint only.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from flint import fmpq

from ..certificate import (UNDECIDED, Certificate, Constraint, MechanismData, MetricData, Method, level_data,
                           mechanism_data, metric_data)
from .evidence import AllEpsEvidence, Counts, EpsilonEvidence, Factor, PrivacyEvidence
from ..errors import UnsupportedRegime
from ..exact.decide import exact_str, sign, simplify
from ..exact.level import Level, level_of
from ..metrics import as_metric
from .constraints import Constraints, Triple

if TYPE_CHECKING:
    import networkx as nx

    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["certify_privacy", "resolve_level", "smallest_epsilon"]


#: the level normaliser (kept under its historical name; see :func:`exactdp.exact.level.level_of`)
resolve_level = level_of


def _constraint(cons, t: Triple, level=None) -> Constraint:
    """The exact record of one constraint occurrence (both sides at ``level`` when given)."""
    x, xp, z, d = cons.locate(t)
    a, b = cons.mech.values[t.a], cons.mech.values[t.b]
    lhs = rhs = excess = None
    if level is not None:
        lhs = exact_str(a)
        E = level.factor(d)
        if E is not None:
            r = simplify(E * b)
            rhs, excess = exact_str(r), exact_str(simplify(a - r))
        else:
            rhs = f"{level.factor_str(d)} * ({exact_str(b)})"
    return Constraint(x=str(x), x_prime=str(xp), output=str(z), distance=exact_str(d), K_x=exact_str(a),
                      K_x_prime=exact_str(b), lhs=lhs, rhs=rhs, excess=excess)


def _counts(cons) -> Counts:
    return Counts(pairs=cons.n_pairs, outputs=cons.n_outputs, inequalities=cons.total)


def exact_method(level: Level | None, *mechs: Mechanism) -> Method:
    """The method of a certificate about ``mechs`` at ``level``: :meth:`Method.of`, the one method rule
    (docs/architecture.md#sec-method-rule; kept for its importers).

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> K = geometric(2, "1/2")
    >>> exact_method(Level.from_alpha("1/2"), K).name, exact_method(Level.from_eps("1/2"), K).name
    ('RATIONAL', 'TRANSCENDENCE_BALLS')
    """
    return Method.of(level, *mechs)


def _note(stats, rounds: int = 1) -> str:
    """How the checker ran (statistics of its method, not claims: they are not in the evidence)."""
    return (stats.note()
            + (f"; the smallest eps was found in {rounds} rounds of a float-guided search, each decided exactly"
               if rounds > 1 else ""))


def smallest_epsilon(mech: Mechanism, metric: FiniteMetric | nx.Graph, *,
                     progress: Callable[..., object] | None = None) -> Certificate[EpsilonEvidence]:
    """The exact smallest eps for which ``mech`` is ``eps d``-private.

    .. math:: \\varepsilon^* = \\max_{x, x', z} \\log(K(x)(z) / K(x')(z)) / d(x, x')

    over the generating pairs, with ``inf`` when some output has probability
    zero on one side of a constraint only.

    Parameters
    ----------
    mech : Mechanism
        Exact entries (rational or transcendental; a symbolic ``alpha`` must
        be fixed first, or use :func:`certify_all_eps`).
    metric : FiniteMetric or networkx.Graph
        Its points are the mechanism's inputs.
    progress : callable, optional
        Called as ``progress(stage, done, total)`` (``None, None`` for a step without a count)
        while long work goes on; the library itself prints nothing.

    Returns
    -------
    Certificate
        Kind ``epsilon``; ``evidence.epsilon`` is exact text (``"log(2)"``,
        ``"1/2"``, ``"0"`` or ``"inf"``), ``evidence.enclosure`` a decimal
        enclosure rounded outward, ``evidence.binding`` the binding constraint.
        The verdict holds when a finite eps* is decided, fails when eps* is
        ``inf`` (no finite eps works), and is undecided otherwise.

    Raises
    ------
    InvalidInput
        For a mechanism in a symbolic alpha.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> c = smallest_epsilon(geometric(4, "1/2"), path(5))
    >>> c.evidence.epsilon, c.evidence.enclosure
    ('log(2)', ['0.69314718055994530941', '0.69314718055994530942'])

    Notes
    -----
    Floats only choose the candidate: the largest float estimate of
    ``log(K(x)(z)/K(x')(z))/d``.  Its exact level ``log(r)/d`` is then checked
    against every constraint exactly; a violated constraint has a strictly
    larger exact ratio and becomes the next candidate, so the loop ends at the
    exact maximum.

    References
    ----------
    ECP14 Def. 1; HLM15 (11).
    """
    metric = as_metric(metric)
    mech = mech.concrete("smallest_epsilon", "fix a level (mech.at(Level...)) or use certify_all_eps")
    return _smallest_epsilon(mech, metric, Constraints(mech, metric), mechanism_data(mech), metric_data(metric),
                             progress)


def _smallest_epsilon(mech: Mechanism, metric: FiniteMetric, cons: Constraints, mdata: MechanismData,
                      gdata: MetricData, progress=None) -> Certificate[EpsilonEvidence]:
    """The engine of :func:`smallest_epsilon`: ``mech`` validated, ``metric`` a :class:`FiniteMetric`, ``cons``
    their constraints and ``mdata, gdata`` their certificate data, all built once by the caller."""
    base: dict[str, Any] = dict(mechanism=mdata, metric=gdata, counts=_counts(cons))
    claim = f"the smallest eps for which {mech.name} is eps*d-private on the {metric.description}"
    if cons.n_pairs == 0:
        ev = EpsilonEvidence(**base, epsilon="0", enclosure=["0", "0"], level=None, binding=None)
        return Certificate("epsilon", True, Method.RATIONAL, claim, ev, note="no constraint")
    t = cons.one_sided_zero()
    if t is not None:
        ev = EpsilonEvidence(**base, epsilon="inf", enclosure=["inf", "inf"], level=None, binding=_constraint(cons, t))
        # no finite eps works: "private for some eps" fails (exit 1 on the command line)
        return Certificate("epsilon", False, Method.RATIONAL, claim, ev, note="an exact zero on one side only")
    return _search_epsilon(mech, cons, base, claim, progress)


def _search_epsilon(mech, cons, base, claim, progress=None) -> Certificate[EpsilonEvidence]:
    """Float-guided candidates, each level decided exactly, until no constraint is violated."""
    vals = mech.values
    t, _ = cons.best_guess()
    rounds = 0
    while True:
        rounds += 1
        a, b, d = vals[t.a], vals[t.b], cons.dvals[t.dc]
        r = simplify(a / b)
        level = Level.from_ratio(fmpq(1), fmpq(1)) if sign(r - 1) <= 0 else Level.from_ratio(r, d)
        if progress is not None:
            progress(f"smallest eps, round {rounds}: candidate {level.eps_str()[:60]}", None, None)
        S = cons.decide(level, progress)
        if S.violated:
            t = S.worst
            continue
        if S.undecided:
            _, exc = S.undecided[0]
            ev = EpsilonEvidence(**base, epsilon=None, enclosure=None, level=None, binding=None,
                                 lower_bound=level.eps_str())
            return Certificate("epsilon", UNDECIDED, exact_method(level, mech), claim, ev, reason=exc.reason,
                               note=_note(S.stats, rounds))
        break
    zero = level.is_zero()
    ev = EpsilonEvidence(**base, epsilon="0" if zero else level.eps_str(),
                         enclosure=["0", "0"] if zero else list(level.eps_enclosure()),
                         level=level_data(level), binding=_constraint(cons, t, level),
                         tight=[_constraint(cons, x) for x in S.tight_listed], tight_count=S.tight)
    return Certificate("epsilon", True, exact_method(level, mech), claim, ev, note=_note(S.stats, rounds))


def certify_privacy(mech: Mechanism, metric: FiniteMetric | nx.Graph, *, eps: Any = None, alpha: Any = None,
                    level: Level | None = None, with_epsilon: bool = True,
                    progress: Callable[..., object] | None = None) -> Certificate[PrivacyEvidence | AllEpsEvidence]:
    """Certify that ``mech`` is ``eps d``-private on ``metric`` (ECP14 Def. 1).

    .. math:: K(x)(z) \\le e^{\\varepsilon d(x, x')} K(x')(z) \\quad \\forall x, x', z

    Parameters
    ----------
    mech : Mechanism
        Entries rational, transcendental, or in a symbolic alpha (then
        evaluated exactly at the level).
    metric : FiniteMetric or networkx.Graph
        Its points must be the mechanism's inputs (labels compared as strings).
    eps, alpha, level :
        Exactly one: ``eps`` (e.g. ``"1/2"``, ``"log(2)"``, ``"sqrt(2)"``) or
        ``alpha = e^(-eps)`` (e.g. ``"1/2"``, ``"exp(-1/2)"``), or a :class:`Level`.
    with_epsilon : bool
        Also compute the exact smallest eps (``evidence.epsilon``, and the
        nested ``evidence.smallest``).
    progress : callable, optional
        Called as ``progress(stage, done, total)`` (``None, None`` for a step without a count)
        while long work goes on; the library itself prints nothing.

    Returns
    -------
    Certificate
        Kind ``privacy``.  Verdict holds (``evidence.tight``, ``tightest``),
        fails (``evidence.violation``: x, x', output, both sides exactly and
        the excess) or undecided (``reason``, ``evidence.undecided_at``).
        One exception: a mechanism in a symbolic ``alpha`` whose entries are
        not exact at the level (``eps = log(2)/2`` makes ``alpha = 2^(-1/2)``)
        is settled, when it can be, by the proof for every eps at once, and
        the certificate is then of kind ``all_eps`` (``evidence`` an
        ``AllEpsEvidence``: check ``c.kind``, or narrow with ``isinstance``).

    Raises
    ------
    InvalidInput
        A bad level, or labels of mechanism and metric that differ.

    Examples
    --------
    >>> from exactdp.mechanisms import geometric
    >>> from exactdp.metrics import path
    >>> c = certify_privacy(geometric(3, "1/2"), path(4), eps="log(2)")
    >>> c.holds, c.evidence.epsilon, c.evidence.tight_count
    (True, 'log(2)', 12)
    >>> c = certify_privacy(geometric(3, "1/2"), path(4), eps="1/2")
    >>> c.holds, c.evidence.violation.lhs, c.evidence.violation.rhs
    (False, '1/6', '1/12*exp(1/2)')

    References
    ----------
    ECP14 Def. 1 and sec. 3.2; GRS12 Ex. 2.1; HLM15 (11).
    """
    metric = as_metric(metric)
    level = resolve_level(eps, alpha, level)
    claim = f"{mech.name} is eps*d-private with eps = {level.eps_str()} on the {metric.description}"
    try:
        mech = mech.at(level)   # evaluated at the level when in alpha, else validated
    except UnsupportedRegime as e:
        settled = _settled_for_every_eps(mech, metric, level) if mech.regime == "symbolic" else None
        return settled if settled is not None else _unsupported(mech, metric, level, claim, str(e))
    cons = Constraints(mech, metric)
    S = cons.decide(level, progress)
    if progress is not None:
        progress("certificate data", None, None)
    mdata, gdata = mechanism_data(mech), metric_data(metric)   # built once, shared with the smallest-eps evidence
    eps_cert = _smallest_epsilon(mech, metric, cons, mdata, gdata, progress) if with_epsilon else None
    smallest = eps_cert.evidence if eps_cert is not None else None
    factors = [Factor(distance=exact_str(d), factor=level.factor_str(d)) for d in cons.dvals[:4]]
    kw: dict[str, Any] = dict(mechanism=mdata, metric=gdata, level=level_data(level),
              counts=_counts(cons), factors=factors, violated_count=S.violated, tight_count=S.tight,
              epsilon=smallest.epsilon if smallest else None, enclosure=smallest.enclosure if smallest else None,
              smallest=smallest)
    method, note = exact_method(level, mech), _note(S.stats)
    if S.violated:
        assert S.worst is not None  # a violated constraint is recorded as the worst
        ev = PrivacyEvidence(**kw, violation=_constraint(cons, S.worst, level), tight=[], tightest=None,
                             undecided_at=None)
        return Certificate("privacy", False, method, claim, ev, note=note)
    if S.undecided:
        tu, exc = S.undecided[0]
        ev = PrivacyEvidence(**kw, violation=None, tight=[], tightest=None, undecided_at=_constraint(cons, tu, level))
        return Certificate("privacy", UNDECIDED, method, claim, ev, reason=exc.reason, note=note)
    tightest = None
    if smallest is not None and smallest.binding is not None and smallest.epsilon not in ("inf", "0"):
        tightest = _at_level(mech, metric, smallest.binding, level)
    ev = PrivacyEvidence(**kw, violation=None, tight=[_constraint(cons, t) for t in S.tight_listed],
                         tightest=tightest, undecided_at=None)
    return Certificate("privacy", True, method, claim, ev, note=note)


def _at_level(mech, metric, c: Constraint, level) -> Constraint:
    """The binding constraint of eps*, with both sides evaluated at ``level``."""
    a, b = mech.entry(c.x, c.output), mech.entry(c.x_prime, c.output)
    d = metric.distance(c.x, c.x_prime)
    E = level.factor(d)
    rhs = exact_str(simplify(E * b)) if E is not None else f"{level.factor_str(d)} * ({exact_str(b)})"
    return Constraint(x=c.x, x_prime=c.x_prime, output=c.output, distance=c.distance, K_x=c.K_x,
                      K_x_prime=c.K_x_prime, lhs=exact_str(a), rhs=rhs, excess=None)


def _settled_for_every_eps(mech, metric, level):
    """The all-eps certificate (regime 3) when it settles the level, else ``None``.

    Used when the entries in alpha cannot be evaluated exactly at the level (e.g. eps = log(2)/2,
    alpha = 2^(-1/2)): a proof for every eps covers it, and so does a failure for every alpha in (0, 1).
    """
    from .all_eps import certify_all_eps

    cert = certify_all_eps(mech, metric)
    fs = cert.evidence.failure_set or []
    everywhere = (cert.holds is False and len(fs) == 1 and not fs[0]["point"] and fs[0]["lo"] == "0"
                  and fs[0]["hi"] == "1")
    if cert.holds is not True and not everywhere:
        return None
    # the clause says only what the re-check re-derives: the level is an eps > 0 the statement covers
    claim = f"{cert.claim}; in particular at eps = {level.eps_str()} (the statement for every eps settles it)"
    return Certificate("all_eps", cert.verdict, cert.method, claim,
                       dataclasses.replace(cert.evidence, in_particular=level.eps_str()))


def _unsupported(mech, metric, level, claim, reason) -> Certificate[PrivacyEvidence]:
    """The mechanism cannot be evaluated exactly at this level: undecided, with the reason."""
    ev = PrivacyEvidence(mechanism=mechanism_data(mech), metric=metric_data(metric), level=level_data(level),
                         counts=Counts(pairs=0, outputs=0, inequalities=0), factors=[],
                         violation=None, violated_count=0, tight=[], tight_count=0,
                         tightest=None, undecided_at=None, epsilon=None, enclosure=None, smallest=None)
    return Certificate("privacy", UNDECIDED, Method.NONE, claim, ev, reason=reason)
