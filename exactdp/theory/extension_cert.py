"""One certificate for the BCSZ18 extension: (a) Â private on H, (b) A = Â on H, (c) A 2eps-private, (d) eps*(A).

:func:`certify_extension` decides each part exactly (``decide``), builds an
evidence record of exact strings, and renders the worked proof from that
record (``render``), following BCSZ18's chain of inequalities (proof of
Thm 2.1, Sec. 4) with the exact numbers of the binding instance: the pair
``(D_1, D_2)`` and output ``w`` where ``A``'s privacy ratio is largest.

>>> from exactdp import Mechanism
>>> from exactdp.metrics import path
>>> Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
>>> c = certify_extension(Ah, path(4), ["0", "3"], alpha="1/2")
>>> ev = c.evidence
>>> c.holds, ev.private_on_H, ev.agrees_on_H, ev.private_2eps, ev.epsilon
(True, 'holds', True, 'holds', 'log(2)')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from ..certificate import UNDECIDED, Certificate, Method, level_data, mechanism_data, metric_data
from ..certificate.extension import ExtensionEvidence
from ..certificate.privacy import PrivacyEvidence
from ..engine.privacy import certify_privacy, exact_method, resolve_level
from ..errors import Undecided
from ..exact.decide import exact_str, sign, simplify
from .extension import (ZeroNormaliser, _check_subset, check_extension_size, double_level, extension_data,
                        restrict_metric)

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = ["certify_extension"]


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
