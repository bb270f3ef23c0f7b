"""Evidence and worked proofs of d-privacy, the smallest eps, and privacy for every eps.

Kinds ``privacy`` (ECP14 Def. 1 at one level), ``epsilon`` (the exact
smallest level) and ``all_eps`` (every level at once, symbolic alpha).  The
renderers write the proof from the evidence alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from ..errors import ExactDPError
from ..exact.decide import exact_latex
from ..exact.values import LogVal, Setting, exact_number
from ..certificate.common import Constraint, LevelData, MechanismData, MetricData
from ..certificate.records import Evidence, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer
from ..certificate.render import label_text
import json

__all__ = [
    "RELATIONS",
    "AllEpsEvidence",
    "ApproxEvidence",
    "ApproxMechanism",
    "ApproxWitness",
    "Counts",
    "EpsilonEvidence",
    "Factor",
    "Piece",
    "PrivacyEvidence",
    "RelationEvidence",
    "tex",
]


def tex(s: str | None) -> str:
    """LaTeX of an exact value written in the exactdp grammar (formatting only).

    Parameters
    ----------
    s : str or None
        An exact value's text (``"log(3)/2"``), ``"inf"``, or ``None`` (undecided).

    Returns
    -------
    str
        LaTeX math (without ``$``); a text that is not an exact value is set verbatim.

    Examples
    --------
    >>> tex("inf"), tex(None), tex("x_1")
    ('\\\\infty', '\\\\text{undecided}', '\\\\mathtt{x\\\\_1}')
    >>> tex("log(3)/2")
    '\\\\frac{\\\\log\\\\left(3\\\\right)}{2}'
    """
    if s is None:
        return r"\text{undecided}"
    if s == "inf":
        return r"\infty"
    try:
        v = exact_number(s, Setting.symbolic())
    except ExactDPError:
        return r"\mathtt{" + s.replace("_", r"\_") + "}"
    if isinstance(v, LogVal):
        lg = rf"\log\left({exact_latex(v.base)}\right)"
        c = v.coef
        return lg if c == 1 else (rf"\frac{{{lg}}}{{{c.q}}}" if c.p == 1 else rf"{exact_latex(c)} {lg}")
    try:
        return exact_latex(v)
    except AttributeError:
        return r"\mathtt{" + s.replace("_", r"\_") + "}"


# ----------------------------------------------------------------------------------------------- records ----
@dataclass(frozen=True)
class Counts(Record):
    """How many generating pairs, outputs and inequalities (``2 * pairs * outputs``) the reduction leaves.

    Parameters
    ----------
    pairs : int
        The generating pairs.
    outputs : int
        The outputs.
    inequalities : int
        ``2 * pairs * outputs``.

    Examples
    --------
    >>> Counts(pairs=2, outputs=3, inequalities=12)["inequalities"]
    12
    """

    pairs: int
    outputs: int
    inequalities: int

    def __getitem__(self, key: str) -> int:
        return getattr(self, key)


@dataclass(frozen=True)
class Factor(Record):
    """``e^(eps d)`` at one generating distance ``d``, exact text.

    Parameters
    ----------
    distance : str
        The generating distance ``d``.
    factor : str
        ``e^(eps d)``, exact.

    Examples
    --------
    >>> Factor(distance="1", factor="2").factor
    '2'
    """

    distance: str
    factor: str


@dataclass(frozen=True)
class Piece(Record):
    """A piece of the failure set in ``alpha``: an interval (ends open unless closed) or a point.

    ``lo``/``hi`` are exact (a rational, or an algebraic root described in words); ``lo_approx`` and
    ``hi_approx`` are decimal approximations for people: hints, never claims.

    Parameters
    ----------
    lo, hi : str
        The ends, exact.
    point : bool
        Whether the piece is the point ``lo``.
    lo_closed, hi_closed : bool
        Whether each end belongs to the piece.
    lo_approx, hi_approx : str
        Decimal approximations of the ends (hints).

    Examples
    --------
    >>> Piece(lo="1/2", hi="1", point=False, lo_closed=False, hi_closed=False, lo_approx="0.5", hi_approx="1").hi
    '1'
    """

    lo: str
    hi: str
    point: bool
    lo_closed: bool
    hi_closed: bool
    lo_approx: str = field(default="", metadata={"role": "hint"})
    hi_approx: str = field(default="", metadata={"role": "hint"})

    def __getitem__(self, key: str):
        return getattr(self, key)


@evidence_kind("epsilon", checker="exactdp.privacy.dprivacy:smallest_epsilon")
@dataclass(frozen=True)
class EpsilonEvidence(Evidence):
    """The exact smallest eps: ``log(K(x)(z)/K(x')(z))/d`` at the binding constraint, checked everywhere.

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    metric : MetricData
        The metric ``d``.
    counts : Counts
        Generating pairs, outputs and inequalities.
    epsilon : str or None
        ``"log(2)"``, ``"1/2"``, ``"0"``, ``"inf"``; None when undecided.
    enclosure : list of str or None
        ``[lo, hi]`` decimal strings, rounded outward.
    level : LevelData or None
        The level ``eps*`` (None for inf, or undecided).
    binding : Constraint or None
        The binding constraint (an equality at ``eps*``) or the one-sided zero.
    tight : list of Constraint
        Tight inequalities at ``eps*`` listed.
    tight_count : int
        How many inequalities are tight at ``eps*``.
    lower_bound : str or None
        When undecided: a level shown not to suffice.

    Examples
    --------
    >>> from exactdp import geometric, path, smallest_epsilon
    >>> smallest_epsilon(geometric(2, "1/2"), path(3)).evidence.epsilon     # the geometric mechanism: -log(alpha)
    'log(2)'
    """

    mechanism: MechanismData
    metric: MetricData
    counts: Counts
    epsilon: str | None               # "log(2)", "1/2", "0", "inf"; None when undecided
    enclosure: list[str] | None       # [lo, hi] decimal strings, rounded outward
    level: LevelData | None           # the level eps* (None for inf, or undecided)
    binding: Constraint | None        # the binding constraint (an equality at eps*) or the one-sided zero
    tight: list[Constraint] = field(default_factory=list)
    tight_count: int = 0
    lower_bound: str | None = None    # when undecided: a level shown not to suffice

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "metric": MetricData, "counts": Counts,
                                          "level": LevelData, "binding": Constraint, "tight": Constraint}

    @classmethod
    def example(cls):
        """A small genuine ``epsilon`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> EpsilonEvidence.example().kind
        'epsilon'
        """
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        from exactdp.privacy.dprivacy import smallest_epsilon
        return smallest_epsilon(geometric(3, "1/2"), path(4))


@evidence_kind("privacy", checker="exactdp.privacy.dprivacy:certify_privacy")
@dataclass(frozen=True)
class PrivacyEvidence(Evidence):
    """Privacy ``eps d`` at one level: the violated inequality, or the tight ones (ECP14 Def. 1).

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    metric : MetricData
        The metric ``d``.
    level : LevelData
        The level ``eps``.
    counts : Counts
        Generating pairs, outputs and inequalities.
    factors : list of Factor
        ``e^(eps d)`` at the first few generating distances.
    violation : Constraint or None
        The worst violated inequality (verdict fails).
    violated_count : int
        How many inequalities are violated.
    tight : list of Constraint
        Tight inequalities listed (verdict holds).
    tight_count : int
        How many inequalities are tight.
    tightest : Constraint or None
        The binding constraint of ``eps*``, evaluated at this level.
    undecided_at : Constraint or None
        A comparison no exact regime settles.
    epsilon : str or None
        The exact smallest eps (as in ``smallest``), None if not computed.
    enclosure : list of str or None
        ``[lo, hi]`` around ``epsilon``, decimals rounded outward.
    smallest : EpsilonEvidence or None
        The smallest eps's own evidence.

    Examples
    --------
    >>> from exactdp import certify_privacy, path, randomized_response
    >>> ev = certify_privacy(randomized_response(2, "1/3"), path(2), alpha="1/3").evidence
    >>> ev.counts.inequalities, ev.violated_count, ev.violation is None      # 1 pair x 2 outputs x 2 directions
    (4, 0, True)
    """

    mechanism: MechanismData
    metric: MetricData
    level: LevelData
    counts: Counts
    factors: list[Factor]             # e^(eps d) at the first few generating distances
    violation: Constraint | None      # the worst violated inequality (verdict fails)
    violated_count: int
    tight: list[Constraint]           # tight inequalities listed (verdict holds)
    tight_count: int
    tightest: Constraint | None       # the binding constraint of eps*, evaluated at this level
    undecided_at: Constraint | None   # a comparison no exact regime settles
    epsilon: str | None               # the exact smallest eps (as in ``smallest``), None if not computed
    enclosure: list[str] | None
    smallest: EpsilonEvidence | None

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "metric": MetricData, "level": LevelData,
                                          "counts": Counts, "factors": Factor, "violation": Constraint,
                                          "tight": Constraint, "tightest": Constraint, "undecided_at": Constraint,
                                          "smallest": EpsilonEvidence}

    @classmethod
    def example(cls):
        """A small genuine ``privacy`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> PrivacyEvidence.example().kind
        'privacy'
        """
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        from exactdp.privacy.dprivacy import certify_privacy
        return certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2")


@evidence_kind("all_eps", checker="exactdp.privacy.all_eps:certify_all_eps")
@dataclass(frozen=True)
class AllEpsEvidence(Evidence):
    """Privacy for every eps > 0 (symbolic alpha): the exact set of alpha in (0, 1) where it fails.

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism, entries in ``alpha``.
    metric : MetricData
        The metric ``d``.
    counts : Counts
        Generating pairs, outputs and inequalities.
    distinct : int
        Distinct inequalities (as polynomials in alpha).
    identically_tight : int
        Inequalities that are equalities for every alpha.
    sign_decided : int
        Inequalities whose sign on (0, 1) was decided by exact root isolation.
    root_power : int
        ``L``: entries are polynomials in ``alpha^(1/L)``.
    failure_set : list of Piece or None
        The exact pieces of alpha where privacy fails.
    failure_set_text : str or None
        The same union of intervals, as text.
    witness : Constraint or None
        A failing constraint, sides evaluated at ``sample_alpha``.
    sample_alpha : str or None
        A rational alpha in the failure set.
    in_particular : str or None
        A level the statement for every eps was asked for.

    Examples
    --------
    >>> from exactdp import certify_all_eps, discrete, randomized_response
    >>> ev = certify_all_eps(randomized_response(3, p="1/4"), discrete(3)).evidence
    >>> ev.counts.pairs, ev.counts.outputs                 # every pair of the 3 points generates
    (3, 3)
    """

    mechanism: MechanismData
    metric: MetricData
    counts: Counts
    distinct: int
    identically_tight: int
    sign_decided: int
    root_power: int                   # L: entries are polynomials in alpha^(1/L)
    failure_set: list[Piece] | None   # exact pieces of alpha
    failure_set_text: str | None      # the same union of intervals, as text
    witness: Constraint | None        # a failing constraint, sides evaluated at sample_alpha
    sample_alpha: str | None
    in_particular: str | None = None  # a level the statement for every eps was asked for

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "metric": MetricData, "counts": Counts,
                                          "failure_set": Piece, "witness": Constraint}

    @classmethod
    def example(cls):
        """A small genuine ``all_eps`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> AllEpsEvidence.example().kind
        'all_eps'
        """
        from exactdp.mechanisms import geometric
        from exactdp.metrics import path
        from exactdp.privacy.all_eps import certify_all_eps
        return certify_all_eps(geometric(2), path(3))


# --------------------------------------------------------------------------------------------- renderers ----
def _definition(level_text=None):
    lvl = f" with $\\varepsilon = {tex(level_text)}$" if level_text is not None else ""
    return Step("Definition",
                "A mechanism $K$ is $\\varepsilon d$-private (ECP14 Def. 1) iff "
                "$K(x)(z) \\le e^{\\varepsilon d(x,x')} K(x')(z)$ for all secrets $x, x'$ and outputs $z$"
                f"{lvl}; for the Hamming metric, or the induced graph of a query, this is "
                "$\\varepsilon$-differential privacy (ECP14 sec. 3.2).")


def _mechanism_step(m: MechanismData):
    return Step("The mechanism",
                f"$K$ is the {len(m.inputs)} x {len(m.outputs)} exact matrix *{m.name}* ({len(m.values)} coded "
                "values). Every entry was checked to be >= 0 and every row to sum to exactly 1 when it was built.")


def metric_phrase(g: MetricData) -> str:
    """How a worked proof names the metric: its description where the independent re-check rebuilds it from
    the carried definition, otherwise what the certificate carries with the description marked as a label.

    Parameters
    ----------
    g : MetricData
        The metric record.

    Returns
    -------
    str
        ``"the path on 3 points (d(i, j) = |i - j|)"``, or e.g. ``"the metric carried by the certificate (8
        points, its weighted edges), labelled 'graphs on ...' (a label the re-check does not verify)"``.

    Examples
    --------
    >>> from exactdp.certificate.common import metric_data
    >>> from exactdp.metrics import path
    >>> metric_phrase(metric_data(path(3)))
    'the path on 3 points (d(i, j) = |i - j|)'
    >>> g = metric_data(path(3))
    >>> metric_phrase(MetricData(**{**g.to_json(), "description": "road network of Oslo"}))
    "the metric carried by the certificate (3 points, its weighted edges), labelled 'road network of Oslo'
    (a label the re-check does not verify)"
    """
    from ..recheck._kernel import NotHere
    from ..recheck._metric import derive

    try:
        described = derive(g.to_json())[1]
    except (NotHere, ValueError, ArithmeticError, KeyError, TypeError):
        described = False
    if described:
        return f"the {g.description}"
    what = ("its weighted edges" if g.edges is not None else "its distance table" if g.distances is not None
            else f"every pair at distance {g.all_pairs_at}")
    return (f"the metric carried by the certificate ({g.points} points, {what}), labelled {g.description!r} "
            "(a label the re-check does not verify)")


def _reduction_step(g: MetricData, counts: Counts):
    red = g.reduction[:1].upper() + g.reduction[1:]
    return Step("Reduction to generating pairs",
                f"The metric is {metric_phrase(g)}. {red}. So it suffices to check {counts['pairs']} "
                f"pair{'' if counts['pairs'] == 1 else 's'}, in "
                f"both directions, for each of the {counts['outputs']} outputs: {counts['inequalities']} "
                "inequalities. Identical triples (K(x)(z), K(x')(z), d(x, x')) are decided once.")


def _summary_eps(epsilon, enclosure):
    out = [("epsilon", epsilon if epsilon is not None else "undecided")]
    if enclosure:
        out.append(("epsilon enclosure", f"[{enclosure[0]}, {enclosure[1]}]"))
    return out


def _constraint_line(c: Constraint) -> str:
    return f"x = {c.x}, x' = {c.x_prime}, output {c.output}, d = {c.distance}"


@renderer("epsilon")
def _epsilon_proof(cert) -> Proof:
    ev: EpsilonEvidence = cert.evidence
    steps = [Step("Goal", "The smallest $\\varepsilon$ with $K(x)(z) \\le e^{\\varepsilon d(x,x')} K(x')(z)$ "
                  "everywhere is $\\varepsilon^* = \\max \\log(K(x)(z)/K(x')(z)) / d(x,x')$ over the constraints "
                  "(with $\\infty$ when $K(x)(z) > 0 = K(x')(z)$)."),
             _mechanism_step(ev.mechanism), _reduction_step(ev.metric, ev.counts)]
    b = ev.binding
    if ev.counts["pairs"] == 0:
        steps.append(Step("No constraint", "Every pair of points is at infinite distance."))
    elif ev.epsilon == "inf":
        assert b is not None  # an infinite epsilon is witnessed by its binding constraint
        steps.append(Step("An output seen on one side only",
                          f"$K({b.x})({b.output}) = {tex(b.K_x)} > 0$ but $K({b.x_prime})({b.output}) = 0$ while "
                          f"$d = {tex(b.distance)}$ is finite, so no finite $\\varepsilon$ satisfies the constraint."))
    elif ev.epsilon is None:
        steps.append(Step("Undecided", f"At the candidate level ${tex(ev.lower_bound)}$ a comparison could not "
                          f"be decided: {cert.reason}"))
    elif ev.epsilon == "0":
        steps.append(Step("All ratios at most 1", "Every constraint has $K(x)(z) \\le K(x')(z)$, checked exactly, "
                          "so the mechanism is $\\varepsilon d$-private for every $\\varepsilon \\ge 0$."))
    else:
        assert b is not None  # a finite positive epsilon is attained at its binding constraint
        steps.append(Step("The binding constraint",
                          f"For $x = {b.x}$, $x' = {b.x_prime}$, $z = {b.output}$ (distance ${tex(b.distance)}$): "
                          f"$K(x)(z) / K(x')(z) = {tex(b.K_x)} / {tex(b.K_x_prime)}$, so "
                          f"$\\varepsilon^* \\ge {tex(ev.epsilon)}$."))
        steps.append(Step("Every other constraint holds at that level",
                          f"At $\\varepsilon = {tex(ev.epsilon)}$ all {ev.counts['inequalities']} inequalities "
                          f"were decided: none is violated and {ev.tight_count} are tight "
                          f"(equalities). Hence $\\varepsilon^* = {tex(ev.epsilon)}$."))
    if ev.epsilon is None:
        concl = "The exact smallest epsilon could not be decided."
    elif ev.epsilon == "inf":
        concl = ("$\\varepsilon^* = \\infty$: the mechanism is not $\\varepsilon d$-private for any finite "
                 "$\\varepsilon$ (an output has probability zero on one side of a pair at finite distance only).")
    else:
        enc = ev.enclosure
        concl = f"$\\varepsilon^* = {tex(ev.epsilon)}$" + (f" $\\in [{enc[0]}, {enc[1]}]$." if enc else ".")
    summary = _summary_eps(ev.epsilon, ev.enclosure)
    if b is not None and ev.epsilon not in (None, "0"):
        summary.append(("binding constraint", _constraint_line(b) + f": K(x)(z) = {b.K_x}, K(x')(z) = {b.K_x_prime}"))
    summary.append(("tight inequalities", str(ev.tight_count)))
    return Proof(r"\varepsilon^* = " + tex(ev.epsilon), steps, concl, summary)


def _violated(ev: PrivacyEvidence):
    v, lv = ev.violation, ev.level
    assert v is not None  # a failing privacy certificate carries its violated constraint
    if v.K_x_prime == "0":
        txt = (f"$K({v.x})({v.output}) = {tex(v.K_x)} > 0 = K({v.x_prime})({v.output})$: no level can "
               "satisfy this constraint.")
    else:
        txt = (f"$x = {v.x}$, $x' = {v.x_prime}$, $z = {v.output}$, $d(x,x') = {tex(v.distance)}$: "
               f"$K(x)(z) = {tex(v.K_x)}$ but $e^{{\\varepsilon d}} K(x')(z) = {tex(v.rhs)}$, "
               "and the left side is larger (decided exactly).")
    concl = (f"The mechanism is not eps*d-private at eps = {lv.text}: {ev.violated_count} inequalities fail; "
             "the witness above is one.")
    return Step("A violated constraint", txt), concl, [
        ("violated inequalities", str(ev.violated_count)),
        ("witness", _constraint_line(v) + f": K(x)(z) = {v.lhs} > {_shown(v.rhs)} = e^(eps d) K(x')(z)")]


_POWER = re.compile(r"(\S+)\^\(\(([^()]+)\)/\(([^()]+)\)\)")


def _shown(side: str | None) -> str | None:
    """A constraint's side for a reader: the producer's ``R^((d)/(D))`` (kept so in the evidence, where the re-check
    reads it) as ``R^(d/D)`` with ``d/D`` reduced when both are rational: ``3^((1)/(2))`` is ``3^(1/2)``."""
    if side is None or (m := _POWER.match(side)) is None:
        return side
    R, d, D = m.groups()
    try:
        e = f"({Fraction(d) / Fraction(D)})"
    except (ValueError, ZeroDivisionError):
        e = f"(({d})/{D})" if D.isdigit() else f"(({d})/({D}))"
    return f"{R}^{e}" + side[m.end():]


def _all_hold(ev: PrivacyEvidence):
    ex = ""
    if ev.tight:
        t = ev.tight[0]
        ex = (f" For example $K({t.x})({t.output}) = {tex(t.K_x)} = e^{{\\varepsilon \\cdot {tex(t.distance)}}} "
              f"K({t.x_prime})({t.output})$ exactly.")
    step = Step("Every constraint holds", f"All {ev.counts['inequalities']} inequalities hold; "
                f"{ev.tight_count} of them with equality (tight constraints).{ex}")
    more = [("tight inequalities", str(ev.tight_count))]
    if ev.tightest is not None:
        t = ev.tightest
        more.append(("tightest", _constraint_line(t) + f": K(x)(z) = {t.lhs} <= {_shown(t.rhs)} = e^(eps d) K(x')(z)"))
    return step, f"The mechanism is eps*d-private at eps = {ev.level.text}.", more


@renderer("privacy")
def _privacy_proof(cert) -> Proof:
    ev: PrivacyEvidence = cert.evidence
    lv = ev.level
    claim_latex = r"\forall x, x', z:\ K(x)(z) \le e^{" + tex(lv.text) + r"\, d(x,x')} K(x')(z)"
    steps = [_definition(lv.text)]
    if cert.reason is not None and ev.undecided_at is None:
        steps.append(Step("Undecided", cert.reason))
        return Proof(claim_latex, steps, "Undecided: " + cert.reason, [("level", lv.text)])
    steps += [_mechanism_step(ev.mechanism), _reduction_step(ev.metric, ev.counts)]
    lines = ", ".join(f"$e^{{\\varepsilon \\cdot {tex(f.distance)}}} = {tex(f.factor)}$" for f in ev.factors)
    steps.append(Step("The level", f"$\\varepsilon = {tex(lv.text)}$; for the generating distances: {lines}"
                      + (" ..." if ev.counts["pairs"] and len(ev.factors) >= 4 else "") + "."))
    summary = [("level", f"eps = {lv.text}")]
    if ev.violation is not None:
        step, concl, more = _violated(ev)
    elif ev.undecided_at is not None:
        u = ev.undecided_at
        step = Step("Undecided comparison", f"{_constraint_line(u)}: {cert.reason}")
        concl, more = ("No violation was found, but some comparisons are outside every exact regime: undecided.",
                       [("undecided at", _constraint_line(u))])
    else:
        step, concl, more = _all_hold(ev)
    steps.append(step)
    summary += more
    if ev.smallest is not None:
        enc = ev.enclosure
        steps.append(Step("The smallest level", f"Separately (see the epsilon certificate), $\\varepsilon^* = "
                          f"{tex(ev.epsilon)}$" + (f" $\\in [{enc[0]}, {enc[1]}]$" if enc else "") + "."))
        summary += _summary_eps(ev.epsilon, ev.enclosure)
    return Proof(claim_latex, steps, concl, summary)


@renderer("all_eps")
def _all_eps_proof(cert) -> Proof:
    ev: AllEpsEvidence = cert.evidence
    claim_latex = (r"\forall \alpha \in (0,1),\ x, x', z:\ K_\alpha(x)(z) \le \alpha^{-d(x,x')} K_\alpha(x')(z)")
    steps = [Step("Definition", "With $\\alpha = e^{-\\varepsilon}$, the mechanism is $\\varepsilon d$-private for "
                  "every $\\varepsilon > 0$ iff $p(\\alpha) = \\alpha^{-d} K(x')(z) - K(x)(z) \\ge 0$ on $(0, 1)$ for "
                  "every constraint (ECP14 Def. 1; GRS12 Ex. 2.1 for the geometric mechanism)."),
             _mechanism_step(ev.mechanism), _reduction_step(ev.metric, ev.counts)]
    if cert.reason is not None:
        steps.append(Step("Undecided", cert.reason))
        return Proof(claim_latex, steps, "Undecided: " + cert.reason, [])
    steps.append(Step("Exact signs on (0, 1)",
                      f"Entries are rational functions of $\\alpha^{{1/{ev.root_power}}}$. Of the {ev.distinct} "
                      f"distinct triples, {ev.identically_tight} give $p \\equiv 0$ (tight for every "
                      f"$\\varepsilon$), {ev.sign_decided} were decided by Descartes' rule of signs on "
                      "$(1+v)^n p(1/(1+v))$ or by exact isolation of the real roots in $(0,1)$ of the irreducible "
                      "factors, the sign carried across each root by the parity of its multiplicity."))
    summary: list[tuple[str, str | None]] = [("distinct constraints", str(ev.distinct)),
                                             ("identically tight", str(ev.identically_tight))]
    w = ev.witness
    if w is None:
        concl = "The mechanism is eps*d-private for every eps > 0."
    else:
        steps.append(Step("Where it fails",
                          f"Some constraint has $p(\\alpha) < 0$ exactly for $\\alpha \\in {ev.failure_set_text}$ "
                          "(the union of the sets where each constraint fails) and none elsewhere. For instance, for "
                          f"$x = {w.x}$, $x' = {w.x_prime}$, $z = {w.output}$ at $\\alpha = {tex(ev.sample_alpha)}$: "
                          f"$K(x)(z) = {tex(w.lhs)} > {tex(w.rhs)} = \\alpha^{{-d}} K(x')(z)$."))
        concl = (f"The mechanism fails exactly for alpha in {ev.failure_set_text} (eps = -log alpha), "
                 "and is private elsewhere.")
        summary += [("failure set (alpha)", ev.failure_set_text),
                    ("witness", _constraint_line(w) + f" at alpha = {ev.sample_alpha}: {w.lhs} > {w.rhs}")]
    return Proof(claim_latex, steps, concl, summary)



# ----------------------------------------------------------------------------------------------------
# Evidence and worked proof of approximate (eps, delta)-privacy (kind ``approx``, HLM15 Defs. 1-2).
#
# The evidence carries the mechanism (its file format: exact strings), the
# neighbour relation as given, the level and delta, and the witness of the
# worst-set lemma: the ordered pair with the largest excess, its worst set
# ``S*``, both sides and the exact excess.  The re-check


@dataclass(frozen=True)
class ApproxMechanism(Record):
    """The mechanism of an ``approx`` certificate in its file format: ``matrix[i][j] = P_(inputs[i])(outputs[j])``.

    Parameters
    ----------
    name : str
        The mechanism's name.
    inputs, outputs : list of str
        Row and column labels.
    matrix : list of list of str
        The exact entries, row by row.

    Examples
    --------
    >>> ApproxMechanism(name="K", inputs=["a"], outputs=["0"], matrix=[["1"]]).matrix
    [['1']]
    """

    name: str
    inputs: list[str]
    outputs: list[str]
    matrix: list[list[str]]

    def __getitem__(self, key: str):
        return getattr(self, key)


_KEYS = {"P_x(S)": "P_x_S", "P_x'(S)": "P_x_prime_S"}


@dataclass(frozen=True)
class ApproxWitness(Record):
    """The ordered pair with the largest excess: its worst set ``S*``, both sums, both sides and the excess.

    ``kind`` is ``binding`` (verdict holds) or ``violation``; ``factor`` is ``e^eps``; ``lhs = P_x(S*)``,
    ``rhs = e^eps P_x'(S*) + delta``; ``violating_pairs`` counts the ordered pairs whose excess exceeds delta
    (0 when the verdict holds).  ``w["P_x(S)"]`` reads ``P_x_S`` (the names of schema 1).

    Parameters
    ----------
    kind : str
        ``"binding"`` or ``"violation"``.
    x, x_prime : str
        The ordered pair.
    worst_set : list of str
        The worst output set ``S*``.
    P_x_S, P_x_prime_S : str
        ``P_x(S*)`` and ``P_x'(S*)``, exact.
    factor : str
        ``e^eps``, exact.
    lhs, rhs : str
        ``P_x(S*)`` and ``e^eps P_x'(S*) + delta``.
    excess : str
        ``P_x(S*) - e^eps P_x'(S*)``, exact.
    violating_pairs : int
        The ordered pairs whose excess exceeds delta.

    Examples
    --------
    >>> w = ApproxWitness(kind="binding", x="0", x_prime="1", worst_set=["0"], P_x_S="3/5", P_x_prime_S="1/5",
    ...                   factor="2", lhs="3/5", rhs="3/5", excess="1/5", violating_pairs=0)
    >>> w["P_x(S)"], w["excess"]
    ('3/5', '1/5')
    """

    kind: str
    x: str
    x_prime: str
    worst_set: list[str]
    P_x_S: str
    P_x_prime_S: str
    factor: str
    lhs: str
    rhs: str
    excess: str
    violating_pairs: int

    def __getitem__(self, key: str):
        return getattr(self, _KEYS.get(key, key))

    def get(self, key: str, default=None):
        """Return the field ``key``, or ``default`` for a name that is not a field (the dict reading of schema 1).

        Parameters
        ----------
        key : str
            A field name, or a schema-1 key such as ``"P_x(S)"``.
        default : object, optional
            Returned when ``key`` names no field.

        Returns
        -------
        object
            The field's value, or ``default``.

        Examples
        --------
        >>> from exactdp.certify import certify_approx
        >>> from exactdp.mechanisms import randomized_response
        >>> from exactdp.metrics import discrete
        >>> w = certify_approx(randomized_response(2, "1/4"), discrete(2), eps="0", delta="1/4").evidence.witness
        >>> w.get("excess") == w.excess, w.get("no such field", 7)
        (True, 7)
        """
        return getattr(self, _KEYS.get(key, key), default)


@evidence_kind("approx", checker="exactdp.privacy.approximate:certify_approx")
@dataclass(frozen=True)
class ApproxEvidence(Evidence):
    """``P_x(S) <= e^eps P_x'(S) + delta`` for every neighbouring pair (both orders) and output set ``S``.

    ``metric`` is the metric the relation comes from (its pairs at distance 1), when it was given as one.

    Parameters
    ----------
    mechanism : ApproxMechanism
        The mechanism.
    epsilon_given : str
        The ``eps`` asked about.
    delta : str
        The ``delta`` asked about.
    relation : str
        The neighbour relation in words.
    metric : MetricData or None
        The metric the relation comes from, if any.
    pairs : list of list of str
        The neighbouring pairs.
    e_eps : str or None
        ``e^eps``, exact.
    excess : str or None
        The largest excess: the smallest delta at this eps (``"0"`` for no pair).
    worst_set : list of str or None
        The output set attaining it.
    witness : ApproxWitness or None
        The ordered pair with the largest excess.

    Examples
    --------
    >>> from exactdp.certify import certify_approx
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> ev = certify_approx(randomized_response(2, "1/4"), discrete(2), eps="0", delta="1/4").evidence
    >>> ev.epsilon_given, ev.delta, ev.e_eps
    ('0', '1/4', '1')
    """

    mechanism: ApproxMechanism
    epsilon_given: str
    delta: str
    relation: str
    metric: MetricData | None
    pairs: list[list[str]]
    e_eps: str | None
    excess: str | None               # the largest excess: the smallest delta at this eps ("0" for no pair)
    worst_set: list[str] | None
    witness: ApproxWitness | None

    _nested: ClassVar[dict[str, type]] = {"mechanism": ApproxMechanism, "metric": MetricData, "witness": ApproxWitness}

    @classmethod
    def example(cls):
        """A small genuine ``approx`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> ApproxEvidence.example().kind
        'approx'
        """
        from exactdp.mechanisms import randomized_response
        from exactdp.metrics import discrete
        from exactdp.privacy.approximate import certify_approx
        return certify_approx(randomized_response(3, p="1/5"), discrete(3), eps="log(2)", delta="1/5")


def _definition_approximate(ev):
    return Step("Definition", "HLM15 Def. 1 (5): the mechanism is $(\\varepsilon, \\delta)$-differentially private "
                "iff $P_x(S) \\le e^{\\varepsilon} P_{x'}(S) + \\delta$ for all neighbours $x \\sim x'$ (the relation "
                "is symmetric, so both orders) and all output sets $S$; here $\\varepsilon = "
                f"{tex(ev.epsilon_given)}$ and $\\delta = {tex(ev.delta)}$.")


def _relation(ev):
    n_pairs = len(ev.pairs)
    return Step("The neighbour relation", f"The relation: the {ev.relation}; {n_pairs} unordered pairs of the "
                f"{len(ev.mechanism['inputs'])} inputs, so {2 * n_pairs} ordered pairs. For $\\delta > 0$ it is "
                "checked as given: the pure-DP reduction to edges scaled by distance does not hold (group privacy "
                "degrades $\\delta$).")


_LEMMA = Step("Worst-set lemma", "For one ordered pair, $P_x(S) - e^{\\varepsilon} P_{x'}(S) = \\sum_{y \\in S} "
              "(P_x(y) - e^{\\varepsilon} P_{x'}(y))$. Every term with $y \\in S^* = \\{y : P_x(y) > e^{\\varepsilon} "
              "P_{x'}(y)\\}$ is positive and every other term is $\\le 0$, so adding $S^* \\setminus S$ and removing "
              "$S \\setminus S^*$ never lowers the sum: the largest value over all $S$ is $\\sum_y (P_x(y) - "
              "e^{\\varepsilon} P_{x'}(y))_+$, attained at $S^*$. Hence (5) holds for the pair iff this excess is "
              "$\\le \\delta$, and each output's membership of $S^*$ is one exact comparison.")


@renderer("approx")
def _approx_proof(cert) -> Proof:
    ev: ApproxEvidence = cert.evidence
    claim_latex = (r"\forall x \sim x',\ \forall S:\ P_x(S) \le e^{" + tex(ev.epsilon_given) + r"} P_{x'}(S) + "
                   + tex(ev.delta))
    steps = [_definition_approximate(ev), _relation(ev), _LEMMA]
    summary: list[tuple[str, str | None]] = [("eps", ev.epsilon_given), ("delta", ev.delta), ("relation", ev.relation)]
    if cert.reason is not None:
        steps.append(Step("Undecided", cert.reason))
        return Proof(claim_latex, steps, "Undecided: " + cert.reason, summary)
    w = ev.witness
    if w is None:
        steps.append(Step("No neighbouring pair", "The relation is empty, so (5) holds vacuously."))
        return Proof(claim_latex, steps, "Holds vacuously.", summary)
    outs, q_s = w["worst_set"], w["P_x'(S)"]
    shown = ", ".join(label_text(o) for o in outs[:12]) + (", ..." if len(outs) > 12 else "")
    n_outs = f"{len(outs)} output{'' if len(outs) == 1 else 's'}"
    steps.append(Step("The largest excess", f"Over the {2 * len(ev.pairs)} ordered pairs the largest excess is "
                      f"attained at $x = {w['x']}$, $x' = {w['x_prime']}$ with $S^* = \\{{{shown}\\}}$ ({n_outs}): "
                      f"$P_x(S^*) = {tex(w['P_x(S)'])}$, $P_{{x'}}(S^*) = {tex(q_s)}$, "
                      f"so the excess is $P_x(S^*) - e^{{\\varepsilon}} P_{{x'}}(S^*) = {tex(w['excess'])}$ (compared "
                      "with every other pair's excess exactly)."))
    summary += [("largest excess (smallest delta at this eps)", ev.excess),
                ("witness", f"x = {w['x']}, x' = {w['x_prime']}, worst set {{{shown}}}: "
                 f"P_x(S*) = {w['lhs']}, e^eps P_x'(S*) + delta = {w['rhs']}")]
    if cert.holds is True:
        steps.append(Step("Every pair is within delta", f"The largest excess is $\\le \\delta = {tex(ev.delta)}$ "
                          "(decided exactly), so by the lemma every set $S$ and every ordered pair satisfy (5); the "
                          "smallest admissible delta at this eps is the excess itself."))
        concl = (f"The mechanism is (eps, delta)-DP at eps = {ev.epsilon_given}, delta = {ev.delta}; the smallest "
                 f"delta at this eps is {w['excess']}.")
    else:
        steps.append(Step("A violated inequality", f"$P_x(S^*) = {tex(w['P_x(S)'])} > e^{{\\varepsilon}} P_{{x'}}(S^*) "
                          f"+ \\delta$ (decided exactly): the set $S^*$ witnesses a violation of (5); "
                          f"{w['violating_pairs']} ordered "
                          f"pair{' violates' if w['violating_pairs'] == 1 else 's violate'} it."))
        concl = (f"The mechanism is not (eps, delta)-DP at eps = {ev.epsilon_given}, delta = {ev.delta}: the set "
                 f"{{{shown}}} has excess {w['excess']} > delta for ({w['x']}, {w['x_prime']}).")
    return Proof(claim_latex, steps, concl, summary)



# ----------------------------------------------------------------------------------------------------
# Evidence and worked proof of an exact relation between two exact values (kind ``relation``).
#
# Paper claims often come down to "this number equals the printed one" or "this
# bound holds": ``lhs R rhs`` for ``R`` in ``=, <=, <, >=, >``, between exact
# numbers, or for every ``alpha`` in (0, 1) between rational functions of
# ``alpha``.  The evidence holds both sides as exact text; the re-check

#: relation -> its LaTeX
RELATIONS = {"=": "=", "<=": r"\le", "<": "<", ">=": r"\ge", ">": ">"}


@evidence_kind("relation", checker="exactdp.privacy.relation:certify_relation")
@dataclass(frozen=True)
class RelationEvidence(Evidence):
    """``lhs relation rhs``, exactly; ``variable`` is ``"alpha"`` when it must hold for every alpha in (0, 1).

    Parameters
    ----------
    statement : str
        The statement in words.
    lhs, rhs : str
        The two sides, exact.
    relation : str
        ``=``, ``<=``, ``<``, ``>=`` or ``>``.
    variable : str or None
        ``"alpha"`` for a statement for every alpha in (0, 1).
    difference : str
        ``lhs - rhs``, simplified.
    failure_set : str or None
        Where it fails (alpha), when it fails.
    sample_alpha : str or None
        A rational alpha in the failure set.

    Examples
    --------
    >>> from exactdp.certify import certify_relation
    >>> ev = certify_relation("exp(1)", "2718/1000", ">").evidence
    >>> ev.relation, ev.variable
    ('>', None)
    """

    statement: str
    lhs: str
    rhs: str
    relation: str
    variable: str | None
    difference: str                  # lhs - rhs, simplified
    failure_set: str | None          # where it fails (alpha), when it fails
    sample_alpha: str | None         # a rational alpha in the failure set

    @classmethod
    def example(cls):
        """A small genuine ``relation`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> RelationEvidence.example().kind
        'relation'
        """
        from exactdp.privacy.relation import certify_relation
        return certify_relation("alpha^2", "alpha", "<=", for_all_alpha=True)


@renderer("relation")
def _relation_proof(cert) -> Proof:
    ev: RelationEvidence = cert.evidence
    rel = RELATIONS[ev.relation]
    formula = f"{tex(ev.lhs)} {rel} {tex(ev.rhs)}"
    if ev.variable:
        formula = r"\forall \alpha \in (0, 1):\ " + formula
    steps = [Step("The values", f"Left: ${tex(ev.lhs)}$; right: ${tex(ev.rhs)}$; their difference simplifies "
                  f"exactly to ${tex(ev.difference)}$.")]
    if ev.variable:
        steps.append(Step("Its sign on (0, 1)", "The difference is a rational function of $\\alpha$; its sign on "
                          "$(0, 1)$ is decided by exact real-root isolation of numerator and denominator"
                          + (f"; the relation fails exactly for $\\alpha \\in {ev.failure_set}$ (e.g. "
                             f"$\\alpha = {tex(ev.sample_alpha)}$)." if ev.failure_set else ".")))
    else:
        steps.append(Step("Its sign", "Decided exactly: a zero test by exact arithmetic (or Lindemann-Weierstrass), "
                          "and a non-zero sign by certified ball arithmetic."))
    formula_text = f"{ev.lhs} {ev.relation} {ev.rhs}"
    said = formula_text if ev.statement == formula_text else \
        f"{formula_text} (labelled {json.dumps(ev.statement, ensure_ascii=False)})"
    concl = f"{said}: " + {"holds": "holds", "fails": "fails",
                                   "undecided": "undecided"}[cert.verdict.value] + "."
    return Proof(formula, steps, concl, [("relation", f"{ev.lhs} {ev.relation} {ev.rhs}"),
                                         ("difference", ev.difference)])
