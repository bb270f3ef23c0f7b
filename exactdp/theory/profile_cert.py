"""Privacy profiles and compositions as certificates (kinds ``profile`` and ``composition``, issue 19).

:func:`certify_profile` and :func:`certify_composition` compute the exact profile
(:mod:`exactdp.theory.profile`, :mod:`exactdp.theory.composition`) and return a
:class:`~exactdp.certificate.Certificate` whose evidence (:mod:`exactdp.certificate.profile`) carries the
mechanisms, how often each runs, the neighbour relation, each factor's privacy-loss distribution per ordered
pair, the pieces of ``delta(eps)`` and the answers at the requested ``(eps, delta)``.  The independent kernel
(:mod:`exactdp.recheck.profile`) redoes the convolution with fractions and re-derives every piece.

Composing *different* mechanisms on the same input: the PLD of the ordered pair ``(x, x')`` of the composition
is the product (multiplicative convolution in ratios ``e^L``) of the factors' PLDs of that pair, each raised to
its number of runs -- Sommer, Meiser, Mohammadi (PoPETs 2019), Thm. 1.

>>> from exactdp.mechanisms import randomized_response
>>> c = certify_composition([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/2")
>>> c.holds, c.evidence.query.delta_at_eps
(True, '3/8')
>>> c.recheck().status
'confirmed'
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import TYPE_CHECKING, Any

from ..certificate import Certificate, Method
from ..certificate.common import level_data, mechanism_data, metric_data
from ..certificate.core import UNDECIDED
from ..certificate.profile import (CompositionEvidence, RunFactor, LossAtom, NeighbourPair, PairPLD, ProfileEvidence,
                                   ProfilePiece, ProfileQuery, Relation, profile_claim)
from ..engine.approximate import approx_level, neighbour_relation, parse_delta
from ..errors import InvalidInput, InvalidType, Undecided, UnsupportedRegime
from ..exact.decide import exact_str, sign, simplify
from ..exact.domain import Domain
from ..metrics.space import FiniteMetric
from ._expfield import domain_of
from .composition import _check_k, _pair_pld, check_composition_cost
from .profile import _precheck_metric_size, check_profile_size
from .profile import Profile, envelope, pair_function

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism

__all__ = ["certify_composition", "certify_profile"]


def _factors(factors) -> list:
    if not isinstance(factors, (list, tuple)) or not factors:
        raise InvalidType("composition: expected a non-empty list of (mechanism, times) pairs")
    out = []
    for k, f in enumerate(factors, 1):
        if not isinstance(f, (list, tuple)) or len(f) != 2:
            raise InvalidType(f"composition: factor {k} is {f!r}; expected a pair (mechanism, times)")
        mech, times = f
        _check_k(times)
        if mech.regime == "symbolic":
            raise InvalidInput(f"composition: mechanism {k} ({mech.name}) depends on a symbolic alpha; fix a level "
                               "first (mech.at(Level.from_eps(...)))")
        out.append((mech.validate(), times))
    ref = set(map(str, out[0][0].inputs))
    for mech, _ in out[1:]:
        if set(map(str, mech.inputs)) != ref:
            raise InvalidInput(f"composition: {mech.name} has other inputs than {out[0][0].name}; the mechanisms "
                               "of a composition run on the same input")
    return out


def _relation(mech, neighbours) -> tuple[list, Relation]:
    if hasattr(neighbours, "edges") and hasattr(neighbours, "nodes") and not isinstance(neighbours, FiniteMetric):
        neighbours = [(str(u), str(v)) for u, v in neighbours.edges()]
    pairs, _ = neighbour_relation(mech, neighbours)
    labels = [NeighbourPair(x=str(mech.inputs[i]), x_prime=str(mech.inputs[j])) for i, j in pairs]
    if isinstance(neighbours, FiniteMetric):
        md = metric_data(neighbours)
        return pairs, Relation(description=f"pairs at distance 1 of the {md.description}", metric=md, pairs=labels)
    return pairs, Relation(description=f"given list of {len(pairs)} neighbouring pairs", metric=None, pairs=labels)


def _atoms(pld, dom) -> list:
    """A factor's PLD as (ratio, mass) exact values, ``inf`` first, then decreasing ratios."""
    if dom is None:
        items = list(pld.masses.items())
        items.sort(key=lambda u: u[0], reverse=True)
        inf = pld.inf
    else:
        items = [(dom.to_exp(r), dom.quotient(p, pld.den_p)) for r, p, _ in pld.masses.values()]
        items.sort(key=cmp_to_key(_desc))
        inf = None if pld.inf.is_zero() else dom.quotient(pld.inf, pld.den_p)
    out = [LossAtom(ratio="inf", mass=exact_str(simplify(inf)))] if inf is not None and sign(inf) != 0 else []
    return out + [LossAtom(ratio=exact_str(simplify(r)), mass=exact_str(simplify(m))) for r, m in items]


def _desc(u: Any, v: Any) -> int:
    return sign(v[0] - u[0])


def _profile(facs, pairs, dom) -> tuple[Profile, list]:
    """The envelope over ordered pairs of the composed PLDs, and each factor's PLD per ordered pair."""
    ref = facs[0][0]
    plds, fs, seen = [], [], set()
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            x, xp = str(ref.inputs[a]), str(ref.inputs[b])
            total: Any = None
            key = []
            for k, (mech, times) in enumerate(facs):
                ia, ib = mech.row_index[x], mech.row_index[xp]
                base = _pair_pld(mech, ia, ib, dom)
                check_composition_cost(len(base.masses), times)   # refused before any squaring (issue 17)
                plds.append(PairPLD(factor=k, x=x, x_prime=xp, losses=_atoms(base, dom)))
                key.append(tuple(sorted(zip(mech.codes[ia].tolist(), mech.codes[ib].tolist(), strict=True))))
                p = base.power(times)
                total = p if total is None else total * p
            if tuple(key) in seen:          # identical column multisets give identical profiles
                continue
            seen.add(tuple(key))
            fs.append(pair_function(total.columns(), (a, b)))
    return Profile(envelope(fs), ref.inputs, "", []), plds


def _query(pr: Profile, lvl: Level | None, dlt) -> tuple[ProfileQuery, Any, str | None]:
    """The answers at the level and delta, the verdict, and the reason when a value is outside the exact regimes."""
    at, t_for, verdict, reason = None, None, True, None
    if dlt is not None:
        t = pr.epsilon_t(dlt)
        t_for = "inf" if t is None else exact_str(simplify(t))
    if lvl is not None:
        try:
            v = pr.delta(level=lvl)
            at = exact_str(v)
            if dlt is not None:
                verdict = sign(simplify(dlt - v)) >= 0
        except (Undecided, UnsupportedRegime, TypeError) as e:
            reason = f"delta at eps = {lvl.eps_str()}: {getattr(e, 'reason', None) or e}"
    q = ProfileQuery(level=level_data(lvl), delta=None if dlt is None else exact_str(dlt), delta_at_eps=at,
                     t_for_delta=t_for)
    return q, verdict, reason


def _certify(kind: str, facs: list, neighbours, eps, alpha, level, delta) -> Certificate:
    given_level = eps is not None or alpha is not None or level is not None
    lvl = approx_level(eps, alpha, level) if given_level else None
    dlt = parse_delta(delta) if delta is not None else None
    ref = facs[0][0]
    _precheck_metric_size(ref, neighbours)      # the sizes the route can do, refused up front (issue 17)
    pairs, rel = _relation(ref, neighbours)
    check_profile_size(2 * len(pairs), max(len(m.outputs) for m, _ in facs))
    domain = Domain.of(lvl, *(m for m, _ in facs))      # the arithmetic and the method, one rule
    dom = None if domain.rational_entries else domain_of([v for m, _ in facs for v in m.values])
    pr, plds = _profile(facs, pairs, dom)
    pieces = []
    for pc in pr.pieces:
        x, xp = (str(ref.inputs[pc.pair[0]]), str(ref.inputs[pc.pair[1]])) if pc.pair is not None else ("", "")
        pieces.append(ProfilePiece(t_from=exact_str(simplify(pc.t_from)), A=exact_str(simplify(pc.A)),
                                   B=exact_str(simplify(pc.B)), x=x, x_prime=xp))
    q, verdict, reason = _query(pr, lvl, dlt)
    if kind == "profile":
        ev: Any = ProfileEvidence(mechanism=mechanism_data(ref), relation=rel, plds=plds, pieces=pieces, query=q)
    else:
        ev = CompositionEvidence(factors=[RunFactor(mechanism=mechanism_data(m), times=t) for m, t in facs],
                                 relation=rel, plds=plds, pieces=pieces, query=q)
    claim = profile_claim(kind, ev)
    if reason is not None:
        return Certificate(kind, UNDECIDED, Method.NONE, claim, ev, reason=reason)
    return Certificate(kind, verdict, Method[domain.method], claim, ev)


def certify_profile(mech: Mechanism, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                    level: Level | None = None, delta: Any = None) -> Certificate:
    """The exact privacy profile of ``mech`` as a certificate (kind ``profile``), with the answer at a query.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (fix a symbolic alpha first with ``mech.at(level)``).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        A metric's pairs at distance 1, a graph's edges, or the pairs themselves.
    eps, alpha, level : optional
        The level of the query (``eps = 0`` allowed); with ``delta`` too, the verdict is whether the
        mechanism is (eps, delta)-DP.
    delta : optional
        Exact delta in ``[0, 1]``: the certificate also states the smallest eps with ``delta(eps) <= delta``.

    Returns
    -------
    Certificate
        Kind ``profile``: holds / fails at ``(eps, delta)``; with one of them (or none) it states the computed
        value (verdict holds); undecided when ``e^eps`` is outside the exact regimes.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> c = certify_profile(randomized_response(3, p="1/5"), discrete(3), eps="log(2)", delta="1/10")
    >>> c.holds, c.evidence.query.delta_at_eps, [p.t_from for p in c.evidence.pieces]
    (False, '1/5', ['1', '3'])
    >>> c.recheck().status
    'confirmed'

    References
    ----------
    HLM15 Def. 1; the PLD statement of Sommer, Meiser, Mohammadi (PoPETs 2019), Thm. 1.
    """
    return _certify("profile", _factors([(mech, 1)]), neighbours, eps, alpha, level, delta)


def certify_composition(factors: list, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                        level: Level | None = None, delta: Any = None) -> Certificate:
    """The exact profile of independent runs of several mechanisms on the same input (kind ``composition``).

    Parameters
    ----------
    factors : list of (Mechanism, int)
        Each mechanism with how many times it runs (``1 <= times <= MAX_K``); the mechanisms share their inputs
        (the outputs may differ).
    neighbours, eps, alpha, level, delta :
        As in :func:`certify_profile`.

    Returns
    -------
    Certificate
        Kind ``composition``.

    Raises
    ------
    InvalidInput
        Mechanisms with different inputs, a symbolic alpha, ``times < 1``.
    InvalidType
        ``factors`` is not a list of pairs, ``times`` not an integer.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> A, B = randomized_response(2, p="1/4"), randomized_response(2, p="1/3")
    >>> c = certify_composition([(A, 1), (B, 1)], [("0", "1")], eps="0")
    >>> c.evidence.query.delta_at_eps     # TV of the product rows: (1/2 - 1/12) + (1/4 - 1/6)
    '1/2'

    References
    ----------
    Sommer, Meiser, Mohammadi (PoPETs 2019), Thm. 1 (composition is the convolution of PLDs); HLM15 Def. 1.
    """
    return _certify("composition", _factors(factors), neighbours, eps, alpha, level, delta)
