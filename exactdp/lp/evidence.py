"""Evidence and worked proof of an exact LP optimum stated in full (kind ``lp``).

Some paper claims rest on linear programs that are not the user-specific LP of
GRS12 Thm 3.1 (kind ``optimality``): the LP over databases of GRS12 Thm 6.3,
the LP of a non-monotone loss in GRS12's footnote 4, faces of an optimal set.
Such a certificate states the LP itself -- ``min c.x`` subject to
``A_eq x = b_eq``, ``A_ub x <= b_ub``, ``x >= 0`` -- with a rational primal
and a dual, so that the re-check needs nothing but the JSON: primal
feasibility, dual feasibility (``lam >= 0``, reduced costs ``>= 0``) and a
zero gap prove optimality (weak duality).

Two optional parts:

- ``parameter``: the cost, the dual and the value are affine in one real
  radical ``t = prod p^(f_p)`` (GRS12 Thm 6.3's ``t = 2^(1 - delta)``); the
  certificate then asserts optimality for every ``t`` in ``[low, high]``
  (an affine function is ``>= 0`` on an interval iff it is at both ends), and
  that ``t`` itself lies in it.
- ``unique``: the optimum is the only one.  With the dual above, every optimum
  has ``x_j = 0`` where the reduced cost is positive (``zero``) and makes tight
  every inequality with a positive multiplier (``tight``) -- complementary
  slackness; on that face, ``min x_j`` and ``max x_j`` both equal the stated
  ``x_j``, each proved by the dual of that face LP (``bounds``).
"""

from __future__ import annotations

import json

from dataclasses import dataclass
from typing import ClassVar

from ..priors.evidence import LPData
from ..privacy.evidence import tex
from ..certificate.records import Evidence, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = ["InfeasibleEvidence", "LPEvidence", "LPParameter", "LPUnique"]


@dataclass(frozen=True)
class LPParameter(Record):
    """Cost, duals and value affine in ``t = prod p^(f_p)``: the coefficients of ``t`` (those of 1 are in ``lp``).

    Parameters
    ----------
    atom : list of list
        ``[[p, "f_p"], ...]``: primes ``p`` with ``0 < f_p < 1``.
    low, high : str or None
        Optimality is asserted for every ``t`` in ``[low, high]`` (None: unbounded).
    cost : list of str
        The costs' coefficients of ``t``.
    value : str
        The value's coefficient of ``t``.
    y : list of str
        The equality duals' coefficients of ``t``.
    lam : list of str
        The inequality duals' coefficients of ``t``.

    Examples
    --------
    >>> LPParameter(atom=[[2, "1/2"]], low="0", high="2", cost=["1"], value="1", y=["1"], lam=[]).atom   # t = sqrt(2)
    [[2, '1/2']]
    """

    atom: list[list]                       # [[p, "f_p"], ...], primes p, 0 < f_p < 1
    low: str | None                  # optimality is asserted for every t in [low, high] (None: unbounded)
    high: str | None
    cost: list[str]
    value: str
    y: list[str]
    lam: list[str]


@dataclass(frozen=True)
class LPUnique(Record):
    """Uniqueness: the face cut out by complementary slackness, and per free variable the duals of min / max x_j.

    Parameters
    ----------
    zero : list of int
        Variables with a positive reduced cost (0 on every optimum).
    tight : list of int
        Inequality rows with a positive multiplier (tight on every optimum).
    bounds : list of dict
        Per free variable ``j``: ``{"j", "lo_y", "lo_lam", "hi_y", "hi_lam"}``, the duals of min and max ``x_j``.

    Examples
    --------
    >>> LPUnique(zero=[1], tight=[], bounds=[]).to_json()
    {'zero': [1], 'tight': [], 'bounds': []}
    """

    zero: list[int]                       # variables with a positive reduced cost (0 on every optimum)
    tight: list[int]                      # inequality rows with a positive multiplier (tight on every optimum)
    bounds: list[dict]                     # [{"j": j, "lo_y": [...], "lo_lam": [...], "hi_y": [...], "hi_lam": [...]}]


@evidence_kind("lp", checker="exactdp.lp.optimum:certify_lp_optimum")
@dataclass(frozen=True)
class LPEvidence(Evidence):
    """``x`` minimises ``c.x`` over ``A_eq x = b_eq, A_ub x <= b_ub, x >= 0`` (rows: ``{"j": coefficient}``).

    Parameters
    ----------
    statement : str
        The claim in words.
    cost : list of str
        The costs ``c``.
    A_eq : list of dict
        The equality rows ``{"j": coefficient}``.
    b_eq : list of str
        Their right-hand sides.
    A_ub : list of dict
        The inequality rows.
    b_ub : list of str
        Their right-hand sides.
    lp : LPData
        The optimum and its dual.
    parameter : LPParameter or None
        The coefficients of ``t``, for an LP affine in ``t``.
    vertex : bool
        Whether the constraints active at ``x`` have rank ``n`` (``x`` is a vertex).
    unique : LPUnique or None
        The proof that the optimum is unique, if claimed.

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram, solve_lp
    >>> from exactdp.certify import certify_lp_optimum
    >>> c = certify_lp_optimum(solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])), "x0 + x1 = 1")
    >>> c.evidence.lp.value, c.evidence.lp.x                  # all weight on the cheaper x0
    ('1', ['1', '0'])
    """

    statement: str
    cost: list[str]
    A_eq: list[dict[str, str]]
    b_eq: list[str]
    A_ub: list[dict[str, str]]
    b_ub: list[str]
    lp: LPData
    parameter: LPParameter | None
    vertex: bool                     # the constraints active at x have rank n (x is a vertex)
    unique: LPUnique | None

    _nested: ClassVar[dict[str, type]] = {"lp": LPData, "parameter": LPParameter, "unique": LPUnique}

    @classmethod
    def example(cls):
        """A small genuine ``lp`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> LPEvidence.example().kind
        'lp'
        """
        from exactdp.exact import LinearProgram, solve_lp
        from exactdp.lp.optimum import certify_lp_optimum
        lp = LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1}], b_ub=["3/4"])
        return certify_lp_optimum(solve_lp(lp), "a two-variable LP", unique=True, vertex=True)


def _atom_tex(atom) -> str:
    return r" \cdot ".join(f"{p}^{{{tex(f)}}}" for p, f in atom)


@renderer("lp")
def _lp_proof(cert) -> Proof:
    ev: LPEvidence = cert.evidence
    n, par = len(ev.cost), ev.parameter
    steps = [Step("The linear program", f"Minimise $c \\cdot x$ over $x \\in \\mathbb{{R}}^{{{n}}}$, $x \\ge 0$, "
                  f"with {len(ev.A_eq)} equalities $A_{{eq}} x = b_{{eq}}$ and {len(ev.A_ub)} inequalities "
                  "$A_{ub} x \\le b_{ub}$, all stated in the certificate.")]
    if par is not None:
        lo = tex(par.low) if par.low is not None else r"-\infty"
        hi = tex(par.high) if par.high is not None else r"\infty"
        rng = f"[{lo}, {hi}]"
        steps.append(Step("One radical parameter", f"The cost is $c = c_0 + c_1 t$ with $t = {_atom_tex(par.atom)}$; "
                          f"the dual and the value are affine in $t$ too, and the argument below holds for every "
                          f"$t \\in {rng}$ (an affine function is non-negative on an interval iff it is at both "
                          "ends), which contains this $t$."))
    steps.append(Step("Primal feasibility", "The stated rational $x$ satisfies every constraint exactly."))
    steps.append(Step("Dual feasibility and zero gap", "The multipliers $\\lambda$ of the inequalities are "
                      "$\\ge 0$, the reduced costs $c - A_{eq}^T y + A_{ub}^T \\lambda$ are $\\ge 0$, and "
                      f"$c \\cdot x = b_{{eq}} \\cdot y - b_{{ub}} \\cdot \\lambda = {tex(ev.lp.value)}$"
                      + (f" $+ ({tex(par.value)})\\, t$" if par is not None else "")
                      + ": by weak duality no feasible point does better."))
    if ev.vertex:
        steps.append(Step("A vertex", f"The constraints active at $x$ (equalities, tight inequalities, "
                          f"$x_j = 0$) have rank {n}, the number of variables."))
    if ev.unique is not None:
        u = ev.unique
        steps.append(Step("Uniqueness", f"Every optimum satisfies complementary slackness with this dual: $x_j = 0$ "
                          f"for the {len(u.zero)} variables with a positive reduced cost, and equality in the "
                          f"{len(u.tight)} inequalities with a positive multiplier. Over that face the minimum and "
                          f"the maximum of each of the other {len(u.bounds)} coordinates equal the stated value, each "
                          "proved by its own dual: the optimum is unique."))
    concl = f"{_label(ev.statement)}optimal value ${tex(ev.lp.value)}$" + \
        (f" $+ ({tex(par.value)})\\, t$" if par is not None else "") + \
        (", attained only at $x$." if ev.unique is not None else ".")
    return Proof(r"x^* \in \arg\min \{c \cdot x : A_{eq} x = b_{eq},\ A_{ub} x \le b_{ub},\ x \ge 0\}", steps,
                 concl, [("statement (a label)", ev.statement), ("optimal value", ev.lp.value),
                         ("variables", str(n)), ("unique", "yes" if ev.unique is not None else "not asserted")])


@evidence_kind("infeasible", checker="exactdp.lp.optimum:certify_lp_infeasible")
@dataclass(frozen=True)
class InfeasibleEvidence(Evidence):
    """No ``x >= 0`` has ``A_eq x = b_eq, A_ub x <= b_ub``: proved by a Farkas vector ``(y, lam)``.

    Parameters
    ----------
    statement : str
        The claim in words.
    A_eq : list of dict
        The equality rows ``{"j": coefficient}``.
    b_eq : list of str
        Their right-hand sides.
    A_ub : list of dict
        The inequality rows.
    b_ub : list of str
        Their right-hand sides.
    names : list of str or None
        The variables' names (display only), or None for ``x_0, x_1, ...``.
    y : list of str
        Multipliers of the equalities (any sign).
    lam : list of str
        Multipliers of the inequalities (``>= 0``).
    combination : list of str
        ``w = A_eq^T y + A_ub^T lam``, one entry per variable (``>= 0``).
    rhs : str
        ``b_eq . y + b_ub . lam`` (``< 0``).

    Examples
    --------
    >>> ev = InfeasibleEvidence(statement="x0 = -1", A_eq=[{"0": "1"}], b_eq=["-1"], A_ub=[], b_ub=[], names=None,
    ...                          y=["1"], lam=[], combination=["1"], rhs="-1")
    >>> ev.rhs                    # 1 * x0 >= 0 would have to equal -1
    '-1'
    """

    statement: str
    A_eq: list[dict[str, str]]                       # rows {"j": coefficient}
    b_eq: list[str]
    A_ub: list[dict[str, str]]
    b_ub: list[str]
    names: list[str] | None               # the variables' names (display only), or None for x_0, x_1, ...
    y: list[str]                          # multipliers of the equalities (any sign)
    lam: list[str]                        # multipliers of the inequalities (>= 0)
    combination: list[str]                # w = A_eq^T y + A_ub^T lam, one entry per variable (>= 0)
    rhs: str                         # b_eq . y + b_ub . lam (< 0)

    @classmethod
    def example(cls):
        """A small genuine ``infeasible`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> InfeasibleEvidence.example().kind
        'infeasible'
        """
        from exactdp.exact import LinearProgram
        from exactdp.lp.optimum import certify_lp_infeasible
        lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}], b_ub=["1/2"],
                           names=["x0", "x1"])
        return certify_lp_infeasible(lp, "x0 + x1 = 1 and x0 + x1 <= 1/2")


#: at most this many non-zero entries are listed in a proof step (the rest are counted)
_LISTED = 24
#: at most this many terms of one constraint are written out
_TERMS = 8


def _var(ev, j: int) -> str:
    return f"\\mathtt{{{ev.names[j].replace('_', chr(92) + '_')}}}" if ev.names else f"x_{{{j}}}"


def _nonzero(values, label) -> str:
    nz = [(k, v) for k, v in enumerate(values) if v != "0"]
    shown = ", ".join(f"${label(k)} = {tex(v)}$" for k, v in nz[:_LISTED])
    more = f" and {len(nz) - _LISTED} more" if len(nz) > _LISTED else ""
    return (shown + more) if nz else "none"


def _count(rows, stem: str) -> str:
    return f"{len(rows)} {stem}{'y' if len(rows) == 1 else 'ies'}"


def _row_tex(ev, row: dict, op: str, rhs: str) -> str:
    terms = []
    items = sorted(row.items(), key=lambda kv: int(kv[0]))
    for j, a in items[:_TERMS]:
        coef = "" if a == "1" else "-" if a == "-1" else tex(a) + " "
        terms.append(f"{coef}{_var(ev, int(j))}")
    more = " + \\dots" if len(items) > _TERMS else ""
    return (" + ".join(terms).replace("+ -", "- ") or "0") + f"{more} {op} {tex(rhs)}"


def _multipliers(ev, values, rows, b, op, name) -> str:
    """The non-zero multipliers, each with the constraint it weighs (at most ``_LISTED`` listed)."""
    nz = [k for k, v in enumerate(values) if v != "0"]
    shown = "; ".join(f"${name}_{{{k}}} = {tex(values[k])}$ on ${_row_tex(ev, rows[k], op, b[k])}$"
                      for k in nz[:_LISTED])
    return (shown + (f"; and {len(nz) - _LISTED} more" if len(nz) > _LISTED else "")) if nz else "none"


def _label(statement: str) -> str:
    """A statement in words, marked as a label (issue 27: the re-check does not re-derive it)."""
    return f"(labelled {json.dumps(statement, ensure_ascii=False)}) "


@renderer("infeasible")
def _infeasible_proof(cert) -> Proof:
    ev: InfeasibleEvidence = cert.evidence
    n = len(ev.combination)
    named = (" The variables are " + ", ".join(f"${_var(ev, j)}$" for j in range(min(n, _LISTED)))
             + (", ..." if n > _LISTED else "") + ".") if ev.names else ""
    steps = [Step("The system", f"Find $x \\in \\mathbb{{R}}^{{{n}}}$, $x \\ge 0$, with {_count(ev.A_eq, 'equalit')} "
                  f"$A_{{eq}} x = b_{{eq}}$ and {_count(ev.A_ub, 'inequalit')} $A_{{ub}} x \\le b_{{ub}}$, all stated "
                  "in the certificate." + named),
             Step("The Farkas vector", "Multipliers $y$ of the equalities (any sign), the non-zero ones with their "
                  "equality: " + _multipliers(ev, ev.y, ev.A_eq, ev.b_eq, "=", "y") + ". Multipliers "
                  "$\\lambda \\ge 0$ of the inequalities, the non-zero ones: "
                  + _multipliers(ev, ev.lam, ev.A_ub, ev.b_ub, "\\le", "\\lambda") + "."),
             Step("The combined constraint", "$w = A_{eq}^T y + A_{ub}^T \\lambda$, computed exactly, has every "
                  "entry $\\ge 0$; its non-zero entries: " + _nonzero(ev.combination, lambda j: f"w_{{{_var(ev, j)}}}")
                  + f". Its right-hand side is $b_{{eq}} \\cdot y + b_{{ub}} \\cdot \\lambda = {tex(ev.rhs)} < 0$."),
             Step("Farkas' lemma (the easy direction)", "Suppose some $x \\ge 0$ satisfied the system. Then "
                  "$w \\cdot x \\ge 0$, as a sum of products of non-negative numbers. But "
                  "$w \\cdot x = y \\cdot (A_{eq} x) + \\lambda \\cdot (A_{ub} x) \\le y \\cdot b_{eq} + "
                  f"\\lambda \\cdot b_{{ub}} = {tex(ev.rhs)} < 0$: the equalities hold exactly and $\\lambda \\ge 0$ "
                  "keeps each inequality's direction. $0 \\le w \\cdot x < 0$ is a contradiction, so no such $x$ "
                  "exists.")]
    return Proof(r"\nexists\, x \ge 0:\ A_{eq} x = b_{eq},\ A_{ub} x \le b_{ub}", steps,
                 f"{_label(ev.statement)}the system has no solution $x \\ge 0$.",
                 [("statement (a label)", ev.statement), ("variables", str(n)),
                  ("constraints", f"{_count(ev.A_eq, 'equalit')}, {_count(ev.A_ub, 'inequalit')}"),
                  ("Farkas right-hand side", ev.rhs)])
