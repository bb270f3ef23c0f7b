"""The lattice composition as a certificate (kind ``lattice_composition``, issue 29).

:func:`~exactdp.theory.lattice.composed_plan_deltas` computes the delta; this module wraps the answer with what
the re-check kernel (:mod:`exactdp.recheck.lattice`) needs to redo it independently: the mechanisms, the
relation, one lattice step per ordered pair and the level -- not the composed PLD, which the kernel raises to
the ``k``-th power itself (Kronecker substitution in Python integers).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..certificate import Certificate, Method
from ..certificate.common import level_data, mechanism_data
from ..certificate.lattice import LatticeCompositionEvidence, LatticeStep, lattice_claim
from ..certificate.profile import NeighbourPair, RunFactor
from ..engine.approximate import approx_level, neighbour_relation, parse_delta
from ..errors import InvalidInput
from ..exact.decide import exact_str, sign, simplify
from .composition import _pair_pld
from .lattice import ComposedDelta, _common_step, _plan_factors, composed_plan_deltas, lattice_of
from .profile_cert import _relation

if TYPE_CHECKING:
    from ..exact.level import Level

__all__ = ["certify_lattice_composition", "lattice_certificate"]


def _step_text(L: Any) -> str:
    if L.kind == "rational":
        return str(L.b)
    return exact_str(simplify(L.dom.to_exp(L.b)))


def _steps(facs: list, neighbours: Any) -> list[LatticeStep]:
    """The common lattice step of every ordered neighbouring pair (both orders; no pair skipped)."""
    from ._expfield import domain_of

    ref = facs[0][0]
    trans = [v for m, _ in facs if m.regime != "rational" for v in m.values]
    dom = domain_of(trans) if trans else None
    pairs, _ = neighbour_relation(ref, neighbours)
    out = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            x, xp = str(ref.inputs[a]), str(ref.inputs[b])
            lats = []
            for m, _k in facs:
                L = lattice_of(_pair_pld(m, m.row_index[x], m.row_index[xp], None if m.regime == "rational" else dom))
                if L is None:
                    raise InvalidInput(f"composition: the losses of ({x}, {xp}) in {m.name} lie on no common lattice")
                lats.append(L)
            common = _common_step(lats)
            if common is None:
                raise InvalidInput(f"composition: the factors' losses of ({x}, {xp}) lie on no common lattice")
            moving = [L for L in common if L.span > 0]
            # a pair whose every factor has one finite ratio has no step of its own: any b > 1 fits (n = 0)
            out.append(LatticeStep(x=x, x_prime=xp, step=_step_text(moving[0]) if moving else "2"))
    return out


def certify_lattice_composition(factors: list, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                                level: Level | None = None, delta: Any = None
                                ) -> Certificate[LatticeCompositionEvidence]:
    """The smallest delta at one eps of independent runs on one privacy-loss lattice, as a certificate.

    Parameters
    ----------
    factors : list of (Mechanism, int)
        Each mechanism with its number of runs (same inputs; losses on one lattice per ordered pair).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        The neighbour relation.
    eps, alpha, level :
        The level (one of them is required).
    delta : optional
        Exact delta in ``[0, 1]``: the verdict is whether the composition is (eps, delta)-DP (undecided on the
        ball route when ``delta`` lies inside the enclosure).

    Returns
    -------
    Certificate
        Kind ``lattice_composition``; without ``delta`` the verdict holds and states the value.

    Raises
    ------
    InvalidInput
        No level, losses on no common lattice, bad factors.
    InputTooLarge
        Refused by the cost estimate of :func:`~exactdp.theory.lattice.lattice_plan`.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_lattice_composition([(randomized_response(2, p="1/4"), 3)], [("0", "1")], eps="0", delta="1/2")
    >>> c.holds, c.evidence.delta_at_eps, c.evidence.route
    (False, '11/16', 'lattice-exact')
    >>> c.recheck().status
    'confirmed'

    References
    ----------
    Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1 (composition multiplies PLDs); HLM15 Def. 1.
    """
    return lattice_certificate(factors, neighbours, eps=eps, alpha=alpha, level=level, delta=delta)[0]


def lattice_certificate(factors: list, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                        level: Level | None = None, delta: Any = None
                        ) -> tuple[Certificate[LatticeCompositionEvidence], ComposedDelta]:
    """:func:`certify_lattice_composition` and the :class:`~exactdp.theory.lattice.ComposedDelta` behind it.

    The command line prints the answer's text (its enclosure, route and size) and emits the certificate.

    Parameters
    ----------
    factors, neighbours, eps, alpha, level, delta :
        As in :func:`certify_lattice_composition`.

    Returns
    -------
    tuple
        ``(certificate, answer)``.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c, r = lattice_certificate([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)")
    >>> c.evidence.delta_at_eps, r.route
    ('3/8', 'lattice-exact')
    """
    if eps is None and alpha is None and level is None:
        raise InvalidInput("lattice composition: give eps, alpha or level (the delta at that level)")
    lvl = approx_level(eps, alpha, level)
    facs = _plan_factors(factors)
    r = composed_plan_deltas(facs, neighbours, [lvl])[0]
    ref = facs[0][0]
    _, rel = _relation(ref, neighbours)
    steps = _steps(facs, neighbours)
    dlt = parse_delta(delta) if delta is not None else None
    exact = r.value
    ev = LatticeCompositionEvidence(
        factors=[RunFactor(mechanism=mechanism_data(m), times=t) for m, t in facs], relation=rel, steps=steps,
        level=level_data(lvl), route=r.route, delta_at_eps=None if exact is None else exact_str(simplify(exact)),
        enclosure=[r.lo, r.hi], pair=None if r.pair is None or exact is None else NeighbourPair(*r.pair),
        delta=None if dlt is None else exact_str(dlt))
    claim = lattice_claim(ev)
    verdict: bool | None = True
    if dlt is not None:
        if exact is not None:
            verdict = sign(simplify(dlt - exact)) >= 0
        else:
            dq = Fraction(int(dlt.p), int(dlt.q))
            verdict = True if dq >= Fraction(r.hi) else (False if dq < Fraction(r.lo) else None)
    if verdict is None:
        from ..certificate.core import UNDECIDED
        return Certificate("lattice_composition", UNDECIDED, Method.NONE, claim, ev,
                           reason="delta lies inside the certified enclosure of the ball route"), r
    # the one method rule; the ball route (no exact delta) decided in certified balls
    method = Method.of(lvl, *(m for m, _ in facs), exact_route=exact is not None)
    return Certificate("lattice_composition", verdict, method, claim, ev), r
