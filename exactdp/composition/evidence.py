"""Evidence and worked proof of an exact privacy profile (kinds ``profile`` and ``composition``).

The profile of a mechanism over a neighbour relation is ``delta(eps) = max over ordered pairs (x, x')`` of the
smallest delta of that pair (HLM15 Def. 1).  For one ordered pair with rows ``P = K(x)``, ``Q = K(x')`` the
privacy loss of an output ``y ~ P`` is ``L(y) = log(P(y)/Q(y))`` (``+inf`` where ``Q(y) = 0``), and

    delta_{x,x'}(eps) = sum_y (P(y) - e^eps Q(y))_+ = P(L = inf) + sum_{l > eps} (1 - e^(eps - l)) P(L = l)

-- the worst-set lemma: the largest ``P(S) - e^eps Q(S)`` over output sets ``S`` is attained at
``S* = {y : L(y) > eps}``, and ``Q(y) = e^(-L(y)) P(y)``.  This is the standard statement of the privacy
loss distribution (PLD) method: Sommer, Meiser and Mohammadi, "Privacy loss classes: the central limit theorem
in differential privacy" (PoPETs 2019), Thm. 1 / Lemma 5; Koskela, Jalko and Honkela (AISTATS 2020), eq. (2.3).
Independent repetitions add the losses, so the PLD of a composition is the convolution of the factors' PLDs
(in ratios ``r = e^L``: masses multiply, ratios multiply) -- Sommer et al. Thm. 1.  Grouping the losses in
decreasing order, ``delta_{x,x'}`` is piecewise ``A - e^eps B`` with ``A = P(S*)`` and ``B = Q(S*)``, convex
and non-increasing in ``t = e^eps``; the profile is the upper envelope over the ordered pairs.

The evidence carries what the kernel needs to redo all of this cheaply: the mechanisms and how often each is
used, the relation (the metric it comes from, or the given list), each factor's PLD per ordered pair (the
proof's first table), and the claims: the pieces ``(t_from, A, B, attaining pair)`` of the profile in
``t = e^eps`` and the answers at the requested ``(eps, delta)``.  The re-check is
:mod:`exactdp.recheck.profile`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..certificate.common import LevelData, MechanismData, MetricData
from ..privacy.evidence import tex
from ..certificate.records import Evidence, Record, evidence_kind
from ..certificate.render import Proof, Step, renderer

__all__ = [
    "CompositionEvidence",
    "LatticeCompositionEvidence",
    "LatticeStep",
    "LossAtom",
    "NeighbourPair",
    "PairPLD",
    "ProfileEvidence",
    "ProfilePiece",
    "ProfileQuery",
    "Relation",
    "RunFactor",
    "eps_of_t",
    "lattice_claim",
    "profile_claim",
]


@dataclass(frozen=True)
class LossAtom(Record):
    """One value of a privacy-loss distribution: the ratio ``r = e^L = P(y)/Q(y)`` and its probability.

    ``ratio`` is ``"inf"`` when ``Q(y) = 0``; ``mass`` is ``P(L = log r)`` under ``P`` (exact text).

    Parameters
    ----------
    ratio : str
        ``P(y)/Q(y)``, exact, or ``"inf"``.
    mass : str
        Its probability under ``P``, exact.

    Examples
    --------
    >>> LossAtom(ratio="3", mass="3/4").to_json()
    {'ratio': '3', 'mass': '3/4'}
    """

    ratio: str
    mass: str


@dataclass(frozen=True)
class PairPLD(Record):
    """The PLD of one factor for the ordered pair ``(x, x_prime)``, its loss values in decreasing order.

    Parameters
    ----------
    factor : int
        The factor's index into the composition's factors.
    x, x_prime : str
        The ordered pair.
    losses : list of LossAtom
        The loss values, decreasing.

    Examples
    --------
    >>> p = PairPLD(factor=0, x="0", x_prime="1", losses=[LossAtom("3", "3/4"), LossAtom("1/3", "1/4")])
    >>> [a.ratio for a in p.losses]
    ['3', '1/3']
    """

    factor: int
    x: str
    x_prime: str
    losses: list[LossAtom]

    _nested: ClassVar[dict[str, type]] = {"losses": LossAtom}


@dataclass(frozen=True)
class RunFactor(Record):
    """One mechanism of a composition and how many independent times it is run.

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    times : int
        How many runs.

    Examples
    --------
    >>> K = MechanismData(name="K", inputs=["a"], outputs=["0"], values=["1"], codes=[[0]])
    >>> RunFactor(mechanism=K, times=3).times
    3
    """

    mechanism: MechanismData
    times: int

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData}


@dataclass(frozen=True)
class NeighbourPair(Record):
    """Two neighbouring inputs (unordered: both orders are checked).

    Parameters
    ----------
    x : str
        One input.
    x_prime : str
        The other input.

    Examples
    --------
    >>> NeighbourPair(x="0", x_prime="1").x_prime
    '1'
    """

    x: str
    x_prime: str


@dataclass(frozen=True)
class Relation(Record):
    """The neighbour relation: the pairs at distance 1 of ``metric``, or (``metric`` None) the given ``pairs``.

    Parameters
    ----------
    description : str
        The relation in words.
    metric : MetricData or None
        The metric it comes from, if any.
    pairs : list of NeighbourPair
        The neighbouring pairs.

    Examples
    --------
    >>> r = Relation(description="pair (0, 1)", metric=None, pairs=[NeighbourPair("0", "1")])
    >>> r.to_json()["pairs"]
    [{'x': '0', 'x_prime': '1'}]
    """

    description: str
    metric: MetricData | None
    pairs: list[NeighbourPair]

    _nested: ClassVar[dict[str, type]] = {"metric": MetricData, "pairs": NeighbourPair}


@dataclass(frozen=True)
class ProfilePiece(Record):
    """``delta(eps) = A - B e^eps`` for ``e^eps`` from ``t_from`` up to the next piece's ``t_from``.

    The ordered pair ``(x, x_prime)`` attains it.

    Parameters
    ----------
    t_from : str
        Where the piece starts, as ``e^eps``.
    A, B : str
        The coefficients, exact.
    x, x_prime : str
        The attaining ordered pair.

    Examples
    --------
    >>> ProfilePiece(t_from="1", A="1/2", B="1/6", x="0", x_prime="1").A
    '1/2'
    """

    t_from: str
    A: str
    B: str
    x: str
    x_prime: str


@dataclass(frozen=True)
class ProfileQuery(Record):
    """The question asked of a privacy profile: a level, a ``delta``, or both.

    A level (``delta_at_eps``: the profile there), a ``delta`` (``t_for_delta``: the smallest ``e^eps`` with
    ``delta(eps) <= delta``, ``"inf"`` if none), or both (the verdict: ``delta_at_eps <= delta``).

    Parameters
    ----------
    level : LevelData or None
        The level asked about.
    delta : str or None
        The ``delta`` asked about.
    delta_at_eps : str or None
        The profile at the level.
    t_for_delta : str or None
        The smallest ``e^eps`` with ``delta(eps) <= delta``.

    Examples
    --------
    >>> ProfileQuery(level=None, delta="1/2", delta_at_eps=None, t_for_delta="1").t_for_delta
    '1'
    """

    level: LevelData | None
    delta: str | None
    delta_at_eps: str | None
    t_for_delta: str | None

    _nested: ClassVar[dict[str, type]] = {"level": LevelData}


@evidence_kind("profile", checker="exactdp.composition.composition:certify_profile")
@dataclass(frozen=True)
class ProfileEvidence(Evidence):
    """The exact privacy profile of one mechanism over a neighbour relation (HLM15 Def. 1).

    Parameters
    ----------
    mechanism : MechanismData
        The mechanism.
    relation : Relation
        The neighbour relation.
    plds : list of PairPLD
        The privacy-loss distribution of each ordered pair.
    pieces : list of ProfilePiece
        ``delta(eps)``, piece by piece.
    query : ProfileQuery
        The question asked and its answer.

    Examples
    --------
    >>> from exactdp.composition.composition import certify_profile
    >>> from exactdp.mechanisms import randomized_response
    >>> ev = certify_profile(randomized_response(2, p="1/4"), [("0", "1")], eps="0", delta="1/2").evidence
    >>> ev.query.delta_at_eps            # at eps = 0 the profile is the total variation of (3/4, 1/4) and (1/4, 3/4)
    '1/2'
    """

    mechanism: MechanismData
    relation: Relation
    plds: list[PairPLD]
    pieces: list[ProfilePiece]
    query: ProfileQuery

    _nested: ClassVar[dict[str, type]] = {"mechanism": MechanismData, "relation": Relation, "plds": PairPLD,
                                          "pieces": ProfilePiece, "query": ProfileQuery}

    @classmethod
    def example(cls):
        """A small genuine ``profile`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> ProfileEvidence.example().kind
        'profile'
        """
        from exactdp.composition.composition import certify_profile
        from exactdp.mechanisms import randomized_response
        from exactdp.metrics import discrete
        return certify_profile(randomized_response(3, p="1/5"), discrete(3), eps="log(2)", delta="1/5")


@evidence_kind("composition", checker="exactdp.composition.composition:certify_composition")
@dataclass(frozen=True)
class CompositionEvidence(Evidence):
    """The exact privacy profile of independent runs of several mechanisms on the same input (PLD convolution).

    Parameters
    ----------
    factors : list of RunFactor
        The mechanisms and how many times each runs.
    relation : Relation
        The neighbour relation.
    plds : list of PairPLD
        The privacy-loss distribution of each factor and ordered pair.
    pieces : list of ProfilePiece
        ``delta(eps)`` of the composition, piece by piece.
    query : ProfileQuery
        The question asked and its answer.

    Examples
    --------
    >>> from exactdp.composition.composition import certify_composition
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_composition([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)", delta="1/2")
    >>> [f.times for f in c.evidence.factors], c.evidence.query.delta_at_eps
    ([2], '3/8')
    """

    factors: list[RunFactor]
    relation: Relation
    plds: list[PairPLD]
    pieces: list[ProfilePiece]
    query: ProfileQuery

    _nested: ClassVar[dict[str, type]] = {"factors": RunFactor, "relation": Relation, "plds": PairPLD,
                                          "pieces": ProfilePiece, "query": ProfileQuery}

    @classmethod
    def example(cls):
        """A small genuine ``composition`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> CompositionEvidence.example().kind
        'composition'
        """
        from exactdp.composition.composition import certify_composition
        from exactdp.mechanisms import geometric, randomized_response
        from exactdp.metrics import path
        factors = [(geometric(2, "1/2"), 2), (randomized_response(3, p="1/5"), 1)]
        return certify_composition(factors, path(3), eps="log(3)", delta="1/3")


# ------------------------------------------------------------------------------------------ the claim ----
def eps_of_t(t: str) -> str:
    """The eps whose ``e^eps`` is the exact text ``t``: ``"1"`` is ``"0"``, ``"exp(b)"`` is ``b``, ``"inf"`` stays.

    Parameters
    ----------
    t : str
        ``e^eps`` as an exact text, or ``"inf"``.

    Returns
    -------
    str
        ``eps`` as an exact text (``log(t)`` in general).

    Examples
    --------
    >>> eps_of_t("1"), eps_of_t("27"), eps_of_t("exp(2)"), eps_of_t("inf")
    ('0', 'log(27)', '2', 'inf')
    """
    if t in ("1", "inf"):
        return "0" if t == "1" else "inf"
    if t.startswith("exp(") and t.endswith(")") and _balanced(t[4:-1]):
        return t[4:-1]
    return f"log({t})"


def _balanced(s: str) -> bool:
    depth = 0
    for ch in s:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _subject(kind: str, ev) -> str:
    if kind == "profile":
        return ev.mechanism.name
    return "the composition of " + ", ".join(f"{f.mechanism.name} ({_runs(f.times)})" for f in ev.factors)


def _runs(k: int) -> str:
    return "once" if k == 1 else f"{k} times"


def profile_claim(kind: str, ev) -> str:
    """The claim sentence of a ``profile`` / ``composition`` certificate, built from its evidence.

    (:func:`exactdp.recheck.profile.claim_text` rebuilds it independently from the JSON.)

    Parameters
    ----------
    kind : {"profile", "composition"}
        The certificate's kind.
    ev : ProfileEvidence or CompositionEvidence
        The certificate's evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.composition.composition import certify_profile
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_profile(randomized_response(2, p="1/4"), [("0", "1")], eps="0", delta="1/2")
    >>> profile_claim("profile", c.evidence) == c.claim
    True
    """
    who, rel, q = _subject(kind, ev), ev.relation.description, ev.query
    if q.level is not None and q.delta is not None:
        return f"{who} is (eps, delta)-DP with eps = {q.level.text}, delta = {q.delta} over the {rel}"
    if q.level is not None:
        return f"the smallest delta of {who} at eps = {q.level.text} over the {rel} is {q.delta_at_eps}"
    if q.delta is not None:
        return (f"the smallest eps with delta(eps) <= {q.delta} for {who} over the {rel} is "
                f"{eps_of_t(q.t_for_delta or 'inf')}")
    return f"the privacy profile of {who} over the {rel} has {len(ev.pieces)} pieces"


# ------------------------------------------------------------------------------------------ the proof ----
def _pld_table(ev, kind: str) -> str:
    shown = ev.plds[:8]
    lines = []
    for p in shown:
        name = ev.mechanism.name if kind == "profile" else ev.factors[p.factor].mechanism.name
        atoms = ", ".join(f"$P(e^L = {tex(a.ratio)}) = {tex(a.mass)}$"
                          for a in p.losses[:10]) + (" ..." if len(p.losses) > 10 else "")
        lines.append(f"{name}, $(x, x') = ({p.x}, {p.x_prime})$: {atoms}")
    more = f" ({len(ev.plds) - len(shown)} more in the evidence)" if len(ev.plds) > len(shown) else ""
    return "; ".join(lines) + more + "."


def _pieces_text(ev) -> str:
    out = []
    for k, pc in enumerate(ev.pieces):
        end = ev.pieces[k + 1].t_from if k + 1 < len(ev.pieces) else None
        rng = f"${tex(pc.t_from)} \\le e^{{\\varepsilon}}" + (f" < {tex(end)}$" if end is not None else "$")
        line = tex(pc.A) if pc.B == "0" else f"{tex(pc.A)} - ({tex(pc.B)}) e^{{\\varepsilon}}"
        out.append(f"{rng}: $\\delta(\\varepsilon) = {line}$, attained by $({pc.x}, {pc.x_prime})$")
    return "; ".join(out) + "."


@renderer("profile")
@renderer("composition")
def _proof(cert) -> Proof:
    kind, ev, q = cert.kind, cert.evidence, cert.evidence.query
    rel = ev.relation
    steps = [Step("Definition", "HLM15 Def. 1: the mechanism is $(\\varepsilon, \\delta)$-DP iff $P_x(S) \\le "
                  "e^{\\varepsilon} P_{x'}(S) + \\delta$ for every ordered pair of neighbours and every output set "
                  "$S$; the privacy profile $\\delta(\\varepsilon)$ is the smallest such $\\delta$."),
             Step("The neighbour relation", f"The {rel.description}: {len(rel.pairs)} unordered pairs, so "
                  f"{2 * len(rel.pairs)} ordered pairs."),
             Step("Privacy loss", "For an ordered pair with rows $P = K(x)$, $Q = K(x')$ the loss of an output "
                  "$y \\sim P$ is $L(y) = \\log(P(y)/Q(y))$ ($+\\infty$ where $Q(y) = 0$). The worst set for "
                  "$e^{\\varepsilon}$ is $S^* = \\{y : L(y) > \\varepsilon\\}$ (each term $P(y) - e^{\\varepsilon} "
                  "Q(y)$ is positive exactly there), and $Q(y) = e^{-L(y)} P(y)$, so $\\delta_{x,x'}(\\varepsilon) "
                  "= P(L = \\infty) + \\sum_{l > \\varepsilon} (1 - e^{\\varepsilon - l}) P(L = l)$ (Sommer, Meiser, "
                  "Mohammadi 2019, Thm. 1; Koskela et al. 2020, eq. (2.3))."),
             Step("The loss distributions", "Each factor's PLD (ratio $e^L$ and its probability): "
                  + _pld_table(ev, kind))]
    if kind == "composition":
        steps.append(Step("Composition", "Independent runs add the losses: the PLD of the composition is the "
                          "convolution of the factors' PLDs (" + ", ".join(
                              f"{f.mechanism.name} {_runs(f.times)}" for f in ev.factors) + "): ratios multiply, "
                          "probabilities multiply (Sommer et al. 2019, Thm. 1), computed exactly."))
    steps.append(Step("The profile", "Summing the losses above $\\varepsilon$ piece by piece ($A = P(S^*)$, "
                      "$B = Q(S^*)$) and taking the largest pair at every $\\varepsilon$: " + _pieces_text(ev)))
    summary: list[tuple[str, str | None]] = [("relation", rel.description), ("pieces", str(len(ev.pieces)))]
    for k, pc in enumerate(ev.pieces[:12]):
        line = pc.A if pc.B == "0" else f"{pc.A} - ({pc.B})*exp(eps)"
        summary.append((f"piece {k + 1}", f"e^eps >= {pc.t_from}: delta = {line}, attained by ({pc.x}, {pc.x_prime})"))
    if q.level is not None:
        steps.append(Step("At the requested eps", f"At $\\varepsilon = {tex(q.level.text)}$: $\\delta(\\varepsilon) "
                          f"= {tex(q.delta_at_eps or '')}$ (the piece containing $e^{{\\varepsilon}}$)."))
        summary.append(("delta at eps", q.delta_at_eps))
    if q.delta is not None:
        steps.append(Step("At the requested delta", f"The smallest $\\varepsilon$ with $\\delta(\\varepsilon) \\le "
                          f"{tex(q.delta)}$ is ${tex(eps_of_t(q.t_for_delta or 'inf'))}$ (the profile is "
                          "non-increasing)."))
        summary.append(("smallest eps for delta", eps_of_t(q.t_for_delta or "inf")))
    if cert.reason is not None:
        concl = "Undecided: " + cert.reason
    elif q.level is not None and q.delta is not None:
        rel_sign = "\\le" if cert.holds is True else ">"
        steps.append(Step("Verdict", f"$\\delta(\\varepsilon) = {tex(q.delta_at_eps or '')} {rel_sign} "
                          f"{tex(q.delta)}$, decided exactly."))
        concl = (f"{'Holds' if cert.holds is True else 'Fails'}: the smallest delta at eps = {q.level.text} is "
                 f"{q.delta_at_eps}.")
    else:
        concl = cert.claim + "."
    return Proof("\\delta(\\varepsilon) = \\max_{x \\sim x'} \\sum_y (P_x(y) - e^{\\varepsilon} P_{x'}(y))_+",
                 steps, concl, summary)



# ----------------------------------------------------------------------------------------------------
# Evidence and worked proof of a composition on the privacy-loss lattice (kind ``lattice_composition``, issue 29).
#
# When every finite loss ratio ``P(y)/Q(y)`` of an ordered pair is ``c b^n`` (one step ``b > 1``, one offset
# ``c``, integers ``n >= 0``), the PLD of the pair is the polynomial ``F(x) = sum_n m_n x^n`` and the ``k``-fold
# PLD is ``F(x)^k`` (Sommer, Meiser, Mohammadi, PoPETs 2019, Thm. 1); several mechanisms on one step multiply
# their powers.  The smallest delta at ``t = e^eps`` is, by the worst-set lemma (HLM15 Def. 1),


@dataclass(frozen=True)
class LatticeStep(Record):
    """The lattice step ``b`` of one ordered pair: every finite ratio ``P(y)/Q(y)`` of every factor is ``c_i b^n``.

    Parameters
    ----------
    x, x_prime : str
        The ordered pair.
    step : str
        ``b > 1``, exact text.

    Examples
    --------
    >>> LatticeStep(x="0", x_prime="1", step="9").to_json()
    {'x': '0', 'x_prime': '1', 'step': '9'}
    """

    x: str
    x_prime: str
    step: str


@evidence_kind("lattice_composition", checker="exactdp.composition.lattice:certify_lattice_composition")
@dataclass(frozen=True)
class LatticeCompositionEvidence(Evidence):
    """The smallest delta at one eps of independent runs of mechanisms whose losses lie on one lattice.

    Parameters
    ----------
    factors : list of RunFactor
        The mechanisms and how many times each runs.
    relation : Relation
        The neighbour relation.
    steps : list of LatticeStep
        The lattice step of each ordered neighbouring pair.
    level : LevelData
        The eps asked about.
    route : str
        ``"lattice-exact"`` (``delta_at_eps`` is the exact value) or ``"lattice-balls"`` (only the enclosure).
    delta_at_eps : str or None
        The exact smallest delta at the level (``None`` on the ball route).
    enclosure : list of str
        ``[lo, hi]``: decimals with ``lo <= delta_at_eps <= hi``.
    pair : NeighbourPair or None
        The ordered pair attaining the maximum (``None`` on the ball route or without pairs).
    delta : str or None
        The delta of the question "(eps, delta)-DP?", if asked.

    Examples
    --------
    >>> from exactdp.composition.lattice import certify_lattice_composition
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_lattice_composition([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="log(3)")
    >>> c.evidence.delta_at_eps, c.evidence.enclosure, [s.step for s in c.evidence.steps]
    ('3/8', ['0.375', '0.375'], ['9', '9'])
    """

    factors: list[RunFactor]
    relation: Relation
    steps: list[LatticeStep]
    level: LevelData
    route: str
    delta_at_eps: str | None
    enclosure: list[str]
    pair: NeighbourPair | None
    delta: str | None

    _nested: ClassVar[dict[str, type]] = {"factors": RunFactor, "relation": Relation, "steps": LatticeStep,
                                          "level": LevelData, "pair": NeighbourPair}

    @classmethod
    def example(cls):
        """A small genuine ``lattice_composition`` certificate (test tables and docs derive from it).

        Examples
        --------
        >>> LatticeCompositionEvidence.example().kind
        'lattice_composition'
        """
        from exactdp.composition.lattice import certify_lattice_composition
        from exactdp.mechanisms import geometric, randomized_response
        from exactdp.metrics import path
        factors = [(geometric(2, "1/3"), 1), (randomized_response(3, p="1/5"), 2)]
        return certify_lattice_composition(factors, path(3), eps="log(3)", delta="1/2")


def _who(ev) -> str:
    return "the composition of " + ", ".join(
        f"{f.mechanism.name} ({'once' if f.times == 1 else str(f.times) + ' times'})" for f in ev.factors)


def lattice_claim(ev: LatticeCompositionEvidence) -> str:
    """The claim sentence of a ``lattice_composition`` certificate, built from its evidence.

    (:func:`exactdp.recheck.lattice.claim_text` rebuilds it independently from the JSON.)  The exact delta can
    have thousands of digits, so the sentence names its enclosure and the route.

    Parameters
    ----------
    ev : LatticeCompositionEvidence
        The evidence.

    Returns
    -------
    str
        The claim sentence.

    Examples
    --------
    >>> from exactdp.composition.lattice import certify_lattice_composition
    >>> from exactdp.mechanisms import randomized_response
    >>> c = certify_lattice_composition([(randomized_response(2, p="1/4"), 2)], [("0", "1")], eps="0", delta="1/2")
    >>> lattice_claim(c.evidence) == c.claim, c.claim.endswith("(eps, delta)-DP with eps = 0, delta = 1/2 over the "
    ...                                                     "given list of 1 neighbouring pairs")
    (True, True)
    """
    who, rel = _who(ev), ev.relation.description
    if ev.delta is not None:
        return f"{who} is (eps, delta)-DP with eps = {ev.level.text}, delta = {ev.delta} over the {rel}"
    what = "the stated exact value" if ev.route == "lattice-exact" else "a number"
    return (f"the smallest delta of {who} at eps = {ev.level.text} over the {rel} is {what} in "
            f"[{ev.enclosure[0]}, {ev.enclosure[1]}]")


@renderer("lattice_composition")
def _proof_lattice(cert) -> Proof:
    ev: LatticeCompositionEvidence = cert.evidence
    runs = ", ".join(f"{f.mechanism.name} {'once' if f.times == 1 else str(f.times) + ' times'}" for f in ev.factors)
    steps_txt = "; ".join(f"$({s.x}, {s.x_prime})$: $b = {tex(s.step)}$" for s in ev.steps[:8])
    more = f" ({len(ev.steps) - 8} more in the evidence)" if len(ev.steps) > 8 else ""
    steps = [Step("Definition", "HLM15 Def. 1: the smallest $\\delta$ at $\\varepsilon$ is the largest "
                  "$P_x(S) - e^{\\varepsilon} P_{x'}(S)$ over ordered neighbours and output sets; the worst set is "
                  "where the privacy loss exceeds $\\varepsilon$."),
             Step("The neighbour relation", f"The {ev.relation.description}: {len(ev.relation.pairs)} unordered "
                  "pairs."),
             Step("The lattice", "Every finite ratio $P(y)/Q(y)$ of every factor is $c_i b^n$ with an integer "
                  f"$n \\ge 0$, so each factor's PLD is a polynomial $F_i(x)$ in $x \\leftrightarrow b$: {steps_txt}"
                  f"{more}."),
             Step("Composition", f"Independent runs ({runs}) multiply ratios and masses (Sommer, Meiser, Mohammadi "
                  "2019, Thm. 1): the composed PLD is $\\prod_i F_i(x)^{k_i}$ with ratio $\\prod_i c_i^{k_i} b^n$ at "
                  "$x^n$, and the mass where $Q = 0$ is $1 - \\prod_i (1 - m_{\\infty,i})^{k_i}$."),
             Step("The route", f"{ev.route}: " + ("the power is computed exactly, so the delta below is exact."
                  if ev.route == "lattice-exact" else "the power is carried in rigorous balls: only an enclosure "
                  "is stated."))]
    at = ev.delta_at_eps if ev.delta_at_eps is not None else f"[{ev.enclosure[0]}, {ev.enclosure[1]}]"
    shown = at if len(at) <= 200 else f"an exact value of {len(at):,} characters"
    steps.append(Step("At the requested eps", f"$\\delta({tex(ev.level.text)}) = $ {shown}, in "
                      f"$[{ev.enclosure[0]}, {ev.enclosure[1]}]$"
                      + (f", attained by $({ev.pair.x}, {ev.pair.x_prime})$." if ev.pair is not None else ".")))
    summary: list[tuple[str, str | None]] = [("relation", ev.relation.description), ("route", ev.route),
                                             ("delta at eps", shown),
                                             ("enclosure", f"[{ev.enclosure[0]}, {ev.enclosure[1]}]")]
    if cert.reason is not None:
        concl = "Undecided: " + cert.reason
    elif ev.delta is not None:
        concl = (f"{'Holds' if cert.holds is True else 'Fails'}: the smallest delta at eps = {ev.level.text} is "
                 f"{'at most' if cert.holds is True else 'above'} {ev.delta}.")
    else:
        concl = cert.claim + "."
    return Proof("\\delta(\\varepsilon) = \\max_{x \\sim x'} \\sum_n M_n (1 - e^{\\varepsilon} / (c b^n))_+",
                 steps, concl, summary)
