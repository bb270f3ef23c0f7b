"""Certify an exact relation between two exact values: ``lhs R rhs`` (``=, <=, <, >=, >``).

For numbers (rationals, sums of square roots, exponential polynomials) the
sign of ``lhs - rhs`` is decided by the exact kernel (docs/architecture.md#sec-kernel:
exact zero test, then certified balls).  With ``for_all_alpha=True`` both sides
are rational functions of a symbolic ``alpha = e^(-eps)`` and the relation must
hold on all of (0, 1); the sign of the difference is decided by exact
real-root isolation, and a failure comes with the exact set of alpha where it
fails and a rational sample in it.
"""

from __future__ import annotations

from typing import Any

from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Method
from .evidence import RELATIONS, RelationEvidence
from ..errors import InvalidInput, Undecided, UnsupportedRegime
from ..exact.decide import exact_str, sign, simplify
from ..exact.expo import ExpFrac
from ..exact.symbolic import AlphaSet, sign_pieces
from ..exact.values import Setting, exact_number

__all__ = ["certify_relation"]

_OK = {"=": {0}, "<=": {-1, 0}, "<": {-1}, ">=": {0, 1}, ">": {1}}


def _value(v, symbolic: bool, what: str):
    if isinstance(v, (int, fmpq, ExpFrac)) or hasattr(v, "sign"):
        return fmpq(v) if isinstance(v, int) else v
    return exact_number(v, Setting.symbolic() if symbolic else Setting(), what=what)


def relation_claim(statement: str, lhs: str, relation: str, rhs: str, for_all_alpha: bool) -> str:
    """The claim of a ``relation`` certificate: the statement with the exact relation it rests on.

    The re-check rebuilds the same sentence from the evidence (``exactdp.recheck.relation.claim_text``), so the
    reader always sees the relation that was checked next to the caller's words (issue 18).

    Parameters
    ----------
    statement : str
        The caller's statement (by default the formula itself).
    lhs, relation, rhs : str
        The exact sides and one of ``=, <=, <, >=, >``.
    for_all_alpha : bool
        Whether the relation is claimed for every alpha in (0, 1).

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> relation_claim("2 > 1", "2", ">", "1", False)
    '2 > 1'
    >>> relation_claim("the printed bound", "alpha^2", "<=", "alpha", True)
    'the printed bound: alpha^2 <= alpha for every alpha in (0, 1)'
    """
    formula = f"{lhs} {relation} {rhs}"
    suffix = " for every alpha in (0, 1)" if for_all_alpha else ""
    return formula + suffix if statement == formula else f"{statement}: {formula}{suffix}"


def certify_relation(lhs: Any, rhs: Any, relation: str = "=", *, statement: str | None = None,
                     for_all_alpha: bool = False) -> Certificate[RelationEvidence]:
    """Certify ``lhs relation rhs`` exactly.

    The claims use it for the identities the papers state in closed form,
    e.g. GRS12's geometric-mechanism entries in ``alpha`` (first example) and
    the HLM15 Thm 6/7 bounds.

    Parameters
    ----------
    lhs, rhs : exact values or text in the exactdp grammar
        Numbers, or (with ``for_all_alpha``) expressions in ``alpha``.
    relation : {"=", "<=", "<", ">=", ">"}
        The relation to decide.
    statement : str, optional
        What the relation says, in words (the certificate's claim).
    for_all_alpha : bool
        The relation must hold for every alpha in (0, 1).

    Returns
    -------
    Certificate
        Kind ``relation``: holds or fails (with ``evidence.failure_set`` and a rational
        ``evidence.sample_alpha`` for a symbolic alpha), or undecided with the reason.

    Raises
    ------
    InvalidInput
        An unknown relation or a value that is not exact.

    Examples
    --------
    >>> certify_relation("2*alpha/(1 + alpha)", "1 - (1 - alpha)/(1 + alpha)", for_all_alpha=True).holds
    True
    >>> c = certify_relation("alpha", "1/2", "<=", for_all_alpha=True)
    >>> c.holds, c.evidence.failure_set
    (False, '(1/2, 1)')
    >>> certify_relation("exp(1)", "2718/1000", ">").holds
    True
    """
    if relation not in RELATIONS:
        raise InvalidInput(f"relation: expected one of {', '.join(RELATIONS)}, got {relation!r}")
    a, b = _value(lhs, for_all_alpha, "lhs"), _value(rhs, for_all_alpha, "rhs")
    diff = simplify(a - b)
    if isinstance(diff, ExpFrac):
        diff = diff.reduced()
    base: dict[str, Any] = dict(statement=statement or f"{exact_str(a)} {relation} {exact_str(b)}", lhs=exact_str(a),
                rhs=exact_str(b), relation=relation, variable="alpha" if for_all_alpha else None,
                difference=exact_str(diff), failure_set=None, sample_alpha=None)
    claim = relation_claim(base["statement"], base["lhs"], relation, base["rhs"], for_all_alpha)
    if not for_all_alpha:
        try:
            s = sign(diff)
        except Undecided as e:
            return Certificate("relation", UNDECIDED, Method.TRANSCENDENCE_BALLS, claim, RelationEvidence(**base),
                               reason=e.reason)
        method = Method.of(values=[diff])       # the one method rule on the difference
        return Certificate("relation", s in _OK[relation], method, claim, RelationEvidence(**base))
    try:
        pieces = sign_pieces(diff if isinstance(diff, ExpFrac) else ExpFrac.const(diff))
    except UnsupportedRegime as e:
        return Certificate("relation", UNDECIDED, Method.NONE, claim, RelationEvidence(**base), reason=str(e))
    bad = [p for p in pieces if p.sign not in _OK[relation]]
    if not bad:
        return Certificate("relation", True, Method.SYMBOLIC_ROOTS, claim, RelationEvidence(**base))
    fails = AlphaSet(bad)
    p = bad[0]
    lo, hi = p.lo, p.hi
    if p.is_point:
        sample = lo.a if lo.is_rational() else None
    else:
        while not (lo.b < hi.a):
            lo._bisect()
            hi._bisect()
        sample = (lo.b + hi.a) / 2
    ev = RelationEvidence(**{**base, "failure_set": str(fails),
                             "sample_alpha": None if sample is None else str(fmpq(int(sample.p), int(sample.q)))})
    return Certificate("relation", False, Method.SYMBOLIC_ROOTS, claim, ev)
