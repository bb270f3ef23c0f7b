"""Audit an accountant: does a claimed ``(eps, delta)`` hold for a composition of mechanisms?  Exactly.

A *plan* is a list of ``(mechanism, times)`` entries over the same inputs:
the data set is released through ``times`` independent runs of each
mechanism.  For an ordered neighbouring pair ``(x, x')`` the privacy-loss
distribution of the whole release is the product of the entries' PLDs, each
raised to its ``times`` (:mod:`exactdp.composition.composition`: losses add,
ratios multiply -- exact, nothing rounded), and the exact profile
``delta(eps)`` of the release is the upper envelope over ordered pairs of

    delta_{x,x'}(e^eps) = m_inf + sum_{r > e^eps} m_r (1 - e^eps / r)

(the worst-set lemma, HLM15 Def. 1).  A claim ``(eps, delta)`` holds iff
``delta(eps) <= delta``; :func:`audit` returns the exact ``delta(eps)``, the
verdict, and the exact slack ``delta - delta(eps)`` (negative: the excess of a
violated claim), decided by the kernel's exact sign.

>>> from exactdp.mechanisms import randomized_response
>>> rr = randomized_response(2, p="1/4")                 # e^eps0 = 3
>>> r = audit([(rr, 2)], [("0", "1")], eps="log(3)", delta="3/8")
>>> r.holds, r.delta_exact, r.slack                      # KOV: delta = 3/8 at eps = log 3, k = 2
(True, 3/8, 0)
>>> audit([(rr, 2)], [("0", "1")], eps="log(3)", delta="1/3").slack
-1/24
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from ..privacy.approximate import approx_level, neighbour_relation, parse_delta
from ..errors import InvalidInput, InvalidType
from ..exact.decide import arb_of, decimal_enclosure, exact_str, sign, simplify
from ..exact.domain import Domain
from ..composition._expfield import domain_of
from ..composition.composition import _check_k, _checked, _pair_pld
from ..composition.profile import Profile, envelope, pair_function

if TYPE_CHECKING:
    pass

__all__ = ["MAX_PLAN", "AuditResult", "audit", "certify_audit", "plan_pair_plds", "plan_profile"]

#: most entries in a plan
MAX_PLAN = 1_000


@dataclass(frozen=True)
class AuditResult:
    """The exact answer to "is the plan ``(eps, delta)``-DP?".

    ``delta_exact`` is the smallest delta at ``eps`` (kernel value),
    ``slack = delta - delta_exact`` (``< 0``: the claim is violated by
    ``-slack``), ``pair`` the ordered pair of inputs attaining it, and
    ``eps_exact`` the exact smallest eps at the claimed delta (text) and
    ``eps_exact_approx`` its decimal enclosure.

    Parameters
    ----------
    eps : str
        The claimed eps, as text.
    delta : exact number
        The claimed delta.
    delta_exact : exact number
        The smallest delta at ``eps``.
    slack : exact number
        ``delta - delta_exact``.
    holds : bool
        ``slack >= 0``.
    pair : tuple or None
        The ordered pair attaining ``delta_exact``.
    eps_exact : str
        The smallest eps at ``delta``, as text.
    plan : tuple
        ``(mechanism name, times)`` per entry.
    eps_exact_approx : tuple of str, optional
        A decimal enclosure of ``eps_exact``.

    Examples
    --------
    Twice randomized response with ``p = 1/4``: at ``eps = 0`` the rows ``(9, 3, 3, 1)/16`` and
    ``(1, 3, 3, 9)/16`` are at total variation ``1/2``.

    >>> from exactdp.mechanisms import randomized_response
    >>> r = audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="0", delta="1/4")
    >>> r.holds, r.delta_exact, r.slack
    (False, 1/2, -1/4)
    """

    eps: str
    delta: Any
    delta_exact: Any
    slack: Any
    holds: bool
    pair: tuple | None
    eps_exact: str
    plan: tuple
    eps_exact_approx: tuple = ("", "")

    def to_json(self) -> dict:
        """Return every field as exact text (``holds`` a bool, with the verdict in words).

        Returns
        -------
        dict
            The fields, ``verdict`` (``"holds"`` or ``"violated"``) and the plan.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> r = audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="0", delta="1/2")
        >>> {k: r.to_json()[k] for k in ("delta_exact", "slack", "verdict", "eps_exact_at_delta")}
        {'delta_exact': '1/2', 'slack': '0', 'verdict': 'holds', 'eps_exact_at_delta': '0'}
        """
        return {"eps": self.eps, "delta": exact_str(self.delta), "delta_exact": exact_str(self.delta_exact),
                "slack": exact_str(self.slack), "holds": self.holds,
                "verdict": "holds" if self.holds else "violated",
                "pair": list(self.pair) if self.pair else None, "eps_exact_at_delta": self.eps_exact,
                "eps_exact_at_delta_approx": list(self.eps_exact_approx),
                "plan": [{"mechanism": n, "times": k} for n, k in self.plan]}


def _normalise(plan) -> tuple[list, list]:
    if not isinstance(plan, (list, tuple)):
        raise InvalidType(f"plan: expected a list of (mechanism, times) entries, got {type(plan).__name__}")
    if not plan:
        raise InvalidInput("plan: expected at least one (mechanism, times) entry")
    if len(plan) > MAX_PLAN:
        raise InvalidInput(f"plan: {len(plan)} entries exceed the limit {MAX_PLAN}")
    mechs, times = [], []
    for n, e in enumerate(plan):
        if not isinstance(e, (list, tuple)) or len(e) != 2:
            raise InvalidType(f"plan entry {n}: expected a (mechanism, times) pair, got {e!r}")
        m, k = e
        _check_k(k)
        mechs.append(m)
        times.append(k)
    first = mechs[0].inputs
    for n, m in enumerate(mechs[1:], 1):
        if sorted(m.inputs) != sorted(first):
            raise InvalidInput(f"plan entry {n}: its inputs {list(m.inputs)[:5]} differ from entry 0's "
                               f"{list(first)[:5]}; every mechanism of a plan runs on the same data set")
    return mechs, times


def plan_pair_plds(plan: Sequence[tuple], neighbours: Any) -> tuple[list, list, str, Any]:
    """The exact privacy-loss distribution of the whole plan for every ordered neighbouring pair.

    Parameters
    ----------
    plan : list of (Mechanism, int)
        Mechanisms on the same input labels and how often each runs.
    neighbours : FiniteMetric, networkx graph or list of label pairs
        On the inputs (of the first mechanism).

    Returns
    -------
    (list of ((i, j), PLD), list of label pairs, str, list of labels)
        The ordered pairs (indices into the first mechanism's inputs) with their
        PLDs, the unordered pairs, the relation's description and the labels.

    Raises
    ------
    InvalidInput
        An empty plan, a symbolic mechanism, different inputs, a bad ``times``.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> plds, pairs, _, _ = plan_pair_plds([(randomized_response(2, p="1/4"), 2)], [("0", "1")])
    >>> sorted(plds[0][1].masses.items())
    [(1/9, 1/16), (1, 3/8), (9, 9/16)]
    """
    mechs, times = _normalise(plan)
    checked = [_checked(m)[0] for m in mechs]
    # the arithmetic of the number domain (exact/domain.py): fractions, or one exponential field
    dom = None if Domain.of(None, *checked).rational_entries else domain_of([v for m in checked for v in m.values])
    base = checked[0]
    pairs, rel = neighbour_relation(base, neighbours)
    if not pairs:
        raise InvalidInput("plan: no neighbouring pair (no two inputs at distance 1)")
    out = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            L: Any = None
            for m, k in zip(checked, times, strict=True):
                u, v = m.row_index[base.inputs[a]], m.row_index[base.inputs[b]]
                Lk = _pair_pld(m, u, v, dom).power(k)
                L = Lk if L is None else L * Lk
            out.append(((a, b), L))
    return out, [(base.inputs[i], base.inputs[j]) for i, j in pairs], rel, base.inputs


def plan_profile(plan: Sequence[tuple], neighbours: Any) -> Profile:
    """The exact privacy profile ``delta(eps)`` of a plan (a heterogeneous composition).

    Parameters
    ----------
    plan : list of (Mechanism, int)
    neighbours : as in :func:`plan_pair_plds`.

    Returns
    -------
    Profile
        Equal to :func:`~exactdp.composition.composition.composed_profile` for a one-entry plan.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> pr = plan_profile([(randomized_response(2, p="1/4"), 1), (randomized_response(2, p="1/3"), 1)],
    ...                   [("0", "1")])
    >>> pr.epsilon("0"), pr.delta(eps="0")  # e^eps = 3 * 2; delta(0) = TV of the rows (1/2, 1/4, 1/6, 1/12), reversed
    ('log(6)', 1/2)
    """
    plds, pairs, rel, labels = plan_pair_plds(plan, neighbours)
    fs = [pair_function(L.columns(), tag) for tag, L in plds]
    desc = ", ".join(f"{getattr(m, 'name', 'mechanism')} x {k}" for m, k in plan)
    return Profile(envelope(fs), labels, f"{rel}, plan: {desc}", pairs)


def audit(plan: Sequence[tuple], neighbours: Any, *, eps: Any, delta: Any) -> AuditResult:
    """Decide exactly whether the plan is ``(eps, delta)``-DP, and by how much.

    Parameters
    ----------
    plan : list of (Mechanism, int)
        Mechanisms on the same inputs and how many times each runs.
    neighbours : FiniteMetric, networkx graph or list of label pairs
    eps : exact number
        The claimed eps (``"1"``, ``"log(2)"``, ``"1/2"``), ``>= 0``.
    delta : exact number
        The claimed delta in ``[0, 1]``.

    Returns
    -------
    AuditResult
        The exact ``delta(eps)``, the verdict and the exact slack.

    Raises
    ------
    InvalidInput
        A bad plan, eps or delta.
    UnsupportedRegime
        ``e^eps`` outside every exact regime.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> r = audit([(randomized_response(2, p="1/4"), 10)], [("0", "1")], eps="log(9)", delta="12195/16384")
    >>> r.holds, r.slack, r.eps_exact         # KOV, k = 10, i = 4: sum_l C(10, l)(3^(10-l) - 3^(2+l))/4^10
    (True, 0, 'log(9)')
    >>> audit([(randomized_response(2, p="1/4"), 10)], [("0", "1")], eps="log(9)", delta="1/2").slack
    -4003/16384

    References
    ----------
    HLM15 Def. 1; Kairouz, Oh, Viswanath (ICML 2015) for randomized response,
    checked against :func:`~exactdp.composition.composition.kov_delta` in the tests.
    """
    lvl = approx_level(eps, None, None)
    dl = parse_delta(delta)
    pr = plan_profile(plan, neighbours)
    d = simplify(pr.delta(level=lvl))
    slack = simplify(dl - d)
    t = pr.epsilon_t(dl)
    approx = ("inf", "inf") if t is None else decimal_enclosure(lambda: arb_of(t).log(), 12)
    return AuditResult(lvl.eps_str() if not lvl.is_zero() else "0", dl, d, slack, sign(slack) >= 0,
                       pr.binding_pair(level=lvl), pr.epsilon(dl),
                       tuple((getattr(m, "name", "mechanism"), k) for m, k in plan), approx)


def certify_audit(plan: Sequence[tuple], neighbours: Any, *, eps: Any, delta: Any, accountant: str = "") -> Any:
    """The audit of a claimed ``(eps, delta)`` for a plan as a certificate (kind ``audit``).

    A thin layer over :func:`audit` and
    :func:`~exactdp.composition.composition.certify_composition` (whose evidence -- the mechanisms, how often each
    runs, the relation, each factor's PLD per ordered pair, the pieces of the exact profile -- it carries), with
    the claim, the exact ``delta(eps)``, the exact slack, the pair attaining it and the smallest ``e^eps`` at the
    claimed ``delta``.  :mod:`exactdp.recheck.audit` redoes the convolution with fractions.

    Parameters
    ----------
    plan : list of (Mechanism, int)
        Mechanisms on the same inputs and how many times each runs.
    neighbours : FiniteMetric, networkx graph or list of label pairs
    eps, delta : exact numbers
        The claim (``eps >= 0``, ``delta`` in ``[0, 1]``).
    accountant : str, optional
        Who made the claim (a hint shown in the proof, e.g. ``"dp_accounting"``).

    Returns
    -------
    Certificate
        Kind ``audit``: holds iff ``delta(eps) <= delta``.

    Raises
    ------
    InvalidInput
        A bad plan, eps or delta.
    UnsupportedRegime
        ``e^eps`` outside every exact regime.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_audit([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/3")
    >>> c.holds, c.evidence.delta_exact, c.evidence.slack, c.recheck().status
    (False, '3/8', '-1/24', 'confirmed')

    References
    ----------
    HLM15 Def. 1; Sommer, Meiser, Mohammadi (PoPETs 2019), Thm. 1.
    """
    from ..certificate import Certificate
    from .evidence import AuditEvidence, audit_claim
    from ..composition.composition import certify_composition

    r = audit(plan, neighbours, eps=eps, delta=delta)
    c = certify_composition(list(plan), neighbours, eps=eps, delta=delta)
    ev, q = c.evidence, c.evidence.query
    if c.reason is not None or q.level is None or q.t_for_delta is None:  # pragma: no cover - audit() raised first
        raise InvalidInput(f"audit: {c.reason}")
    x, xp = (str(r.pair[0]), str(r.pair[1])) if r.pair else ("", "")
    aev = AuditEvidence(factors=ev.factors, relation=ev.relation, plds=ev.plds, pieces=ev.pieces, level=q.level,
                        delta=exact_str(r.delta), delta_exact=exact_str(r.delta_exact), slack=exact_str(r.slack),
                        x=x, x_prime=xp, t_for_delta=q.t_for_delta, accountant=str(accountant))
    return Certificate("audit", r.holds, c.method, audit_claim(aev), aev)
