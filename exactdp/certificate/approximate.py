"""Evidence and worked proof of approximate (eps, delta)-privacy (kind ``approx``, HLM15 Defs. 1-2).

The evidence carries the mechanism (its file format: exact strings), the
neighbour relation as given, the level and delta, and the witness of the
worst-set lemma: the ordered pair with the largest excess, its worst set
``S*``, both sides and the exact excess.  The re-check
(:mod:`exactdp.recheck.approximate`) re-derives every pair's worst set and excess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .privacy import tex
from .common import MetricData
from .records import Evidence, Record, evidence_kind
from .render import Proof, Step, label_text, renderer

__all__ = ["ApproxEvidence", "ApproxMechanism", "ApproxWitness"]


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


@evidence_kind("approx")
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


def _definition(ev):
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
    steps = [_definition(ev), _relation(ev), _LEMMA]
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
