"""Approximate (eps, delta)-differential privacy, certified exactly (HLM15 Defs. 1-2).

HLM15 Def. 1 (5): a mechanism is ``(eps, delta)``-differentially private iff

    P_x(S) <= e^eps P_x'(S) + delta

for every pair of *neighbouring* inputs ``x ~ x'`` (both orders: the relation
is symmetric) and every set ``S`` of outputs.  For ``delta > 0`` the pure-DP
reduction to the edges of a metric scaled by distance does NOT hold (group
privacy degrades ``delta``), so the checker runs over the neighbour relation
it is given and the certificate names it.

**Worst-set lemma.**  For one ordered pair ``(x, x')`` and ``t = e^eps``,

    max_S (P_x(S) - t P_x'(S)) = sum_y (P_x(y) - t P_x'(y))_+ ,

attained by ``S* = {y : P_x(y) > t P_x'(y)}``: every output in ``S*`` adds a
positive amount, every other output a non-positive one.  So the excess of the
pair is ``A - t B`` with ``A = P_x(S*)`` and ``B = P_x'(S*)``, an exact number
in every regime of the kernel (rational when ``t`` and the entries are; an
exponential polynomial when ``eps`` is algebraic), and the mechanism is
``(eps, delta)``-private iff the largest excess over ordered neighbouring
pairs is ``<= delta``.

>>> from exactdp.mechanisms import randomized_response
>>> R = randomized_response(2, p="1/4")
>>> c = certify_approx(R, [("0", "1")], eps="log(2)", delta="1/4")
>>> c.holds, c.evidence.excess, c.evidence.worst_set
(True, '1/4', ['0'])
>>> certify_approx(R, [("0", "1")], eps="log(2)", delta="1/5").holds
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from flint import fmpq

from ..certificate import UNDECIDED, Certificate, Method
from .evidence import ApproxEvidence, ApproxMechanism, ApproxWitness
from ..certificate.common import metric_data
from ..errors import InvalidInput, InvalidType, Undecided, UnsupportedRegime
from ..exact.decide import exact_str, sign, simplify
from ..exact.expo import ExpFrac
from ..exact.level import Level
from ..exact.values import exact_number
from ..metrics.space import FiniteMetric, dist_sub
from .constraints import align
from .dprivacy import exact_method, resolve_level

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "affine_sign",
    "approx_level",
    "certify_approx",
    "max_excess",
    "neighbour_relation",
    "pair_excess",
    "parse_delta",
]

ONE = fmpq(1)
#: largest number of inputs scanned pair by pair when a metric has distances below 1
MAX_SCAN = 2000


# ------------------------------------------------------------ normalisers ----
def approx_level(eps: Any = None, alpha: Any = None, level: Level | None = None) -> Level:
    """Resolve a :class:`Level`, allowing ``eps = 0`` however it is written (``eps = 0``, ``log(1)``, ``alpha = 1``).

    ``eps = 0`` (``e^eps = 1``) is the level of (0, delta)-DP, the
    total-variation question; pure DP excludes it.

    Parameters
    ----------
    eps, alpha, level : optional
        The level, one of them.

    Returns
    -------
    Level
        The level (possibly ``eps = 0``).

    Raises
    ------
    InvalidInput
        If ``eps`` is negative, or the level is not given exactly once.

    Examples
    --------
    >>> approx_level(eps="0").is_zero(), approx_level(alpha="1").is_zero(), approx_level(eps="log(3)").eps_str()
    (True, True, 'log(3)')
    """
    if eps is not None and alpha is None and level is None:
        v = exact_number(eps, what="eps")
        if isinstance(v, fmpq) and v < 0:
            raise InvalidInput(f"eps: expected eps >= 0, got {v}; hint: eps is a privacy level, e.g. 1/2 or "
                               "log(2)")
    return resolve_level(eps, alpha, level, allow_zero=True)


def parse_delta(delta: Any) -> Any:
    """Read ``delta`` as an exact value in ``[0, 1]`` (rational or an exponential expression).

    Parameters
    ----------
    delta : Any
        The text or number.

    Returns
    -------
    fmpq or ExpFrac
        The exact value, simplified.

    Raises
    ------
    InvalidInput
        If ``delta`` is missing, outside ``[0, 1]``, or an expression in eps/alpha.
    UnsupportedRegime
        If it is outside the exact regimes (e.g. an irrational algebraic number).

    Examples
    --------
    >>> parse_delta("1/100"), parse_delta("exp(-3)")
    (1/100, ExpFrac('exp(-3)'))
    >>> parse_delta("3/2")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: delta: expected 0 <= delta <= 1, got 3/2; hint: delta is a probability
    """
    if delta is None:
        raise InvalidInput("delta: expected an exact number in [0, 1], got None; hint: delta='1/100'")
    v = exact_number(delta, what="delta")
    if isinstance(v, ExpFrac) and v.has_eps():
        raise InvalidInput(f"delta: expected a number, got the expression {v} in eps/alpha")
    if not isinstance(v, (fmpq, ExpFrac)):
        raise UnsupportedRegime(f"delta: {v} is outside the exact regimes (rational or exponential expressions)")
    if sign(v) < 0 or sign(v - 1) > 0:
        raise InvalidInput(f"delta: expected 0 <= delta <= 1, got {exact_str(v)}; hint: delta is a probability")
    return simplify(v)


def neighbour_relation(mech: Mechanism, neighbours: Any) -> tuple[list[tuple[int, int]], str]:
    """Normalise a neighbour relation to sorted index pairs ``(i, j)``, ``i < j``, and a description.

    Parameters
    ----------
    mech : Mechanism
        The mechanism whose inputs the pairs name.
    neighbours : FiniteMetric, networkx graph or list
        A :class:`FiniteMetric` on the mechanism's inputs (its pairs at distance exactly 1: graph edges,
        Hamming neighbours), a networkx graph (its edges), or an explicit list of label pairs.

    Returns
    -------
    tuple
        The sorted pairs of input indices ``(i, j)``, ``i < j``, without repeats, and a description.

    Raises
    ------
    InvalidInput
        If a pair names an unknown input or the same input twice, or the metric's points are not the inputs.
    InvalidType
        If ``neighbours`` is none of these.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import path
    >>> neighbour_relation(randomized_response(3, p="1/4"), path(3))[0]
    [(0, 1), (1, 2)]
    >>> neighbour_relation(randomized_response(3, p="1/4"), [("0", "x")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: neighbours: pair 1 names 'x', which is not an input of the mechanism; ...
    """
    idx = {x: i for i, x in enumerate(mech.inputs)}
    if isinstance(neighbours, FiniteMetric):
        return _metric_pairs(mech, neighbours), f"pairs at distance 1 of the {neighbours.description}"
    if hasattr(neighbours, "edges") and hasattr(neighbours, "nodes"):
        items = [(u, v) for u, v in neighbours.edges()]
        desc = f"edges of the given graph ({len(items)} edges)"
    elif isinstance(neighbours, (list, tuple)):
        items = list(neighbours)
        desc = f"given list of {len(items)} neighbouring pairs"
    else:
        raise InvalidType(f"neighbours: expected a FiniteMetric, a networkx graph or a list of label pairs, got "
                          f"{type(neighbours).__name__}")
    out = set()
    for k, pr in enumerate(items, 1):
        if not isinstance(pr, (list, tuple)) or len(pr) != 2:
            raise InvalidInput(f"neighbours: pair {k} is {pr!r}; expected two input labels such as ['a', 'b']")
        a, b = (str(t) for t in pr)
        for lab in (a, b):
            if lab not in idx:
                known = ", ".join(repr(x) for x in mech.inputs[:8]) + (" ..." if len(mech.inputs) > 8 else "")
                raise InvalidInput(f"neighbours: pair {k} names {lab!r}, which is not an input of the mechanism; "
                                   f"inputs: {known}")
        if a == b:
            raise InvalidInput(f"neighbours: pair {k} is ({a!r}, {a!r}); an input is not its own neighbour")
        i, j = sorted((idx[a], idx[b]))
        out.add((i, j))
    return sorted(out), desc


def _metric_pairs(mech, metric):
    if tuple(metric.points) != tuple(mech.inputs) and set(metric.points) != set(mech.inputs):
        align(mech, metric)                     # raises LabelMismatch, naming the labels that differ
    pos = {x: mech.inputs.index(x) for x in metric.points} if tuple(metric.points) != tuple(mech.inputs) else None
    gen = metric.generating_pairs()
    below = any(sign(dist_sub(d, ONE)) < 0 for _, _, d in gen)
    if below:  # a pair at distance 1 may be a sum of shorter generating pairs: scan every pair
        n = len(metric)
        if n > MAX_SCAN:
            raise InvalidInput(f"neighbours: the metric has distances below 1 and {n} points (> {MAX_SCAN}); "
                               "hint: pass the neighbouring pairs explicitly")
        cand = [(i, j) for i in range(n) for j in range(i + 1, n) if sign(dist_sub(metric.d(i, j), ONE)) == 0]
    else:
        cand = [(i, j) for i, j, d in gen if sign(dist_sub(d, ONE)) == 0]
    if pos is not None:
        cand = [tuple(sorted((pos[metric.points[i]], pos[metric.points[j]]))) for i, j in cand]
    return sorted(set(cand))


# ------------------------------------------------------------ the engine ----
def affine_sign(A: Any, B: Any, level: Level) -> int:
    """Decide ``sign(A - e^eps B)`` exactly, for exact ``A, B`` of any sign.

    Parameters
    ----------
    A, B : exact number
        The two values.
    level : Level
        The level ``eps``.

    Returns
    -------
    int
        -1, 0 or 1.

    Examples
    --------
    At ``e^eps = 2``: ``3 - 2``, ``2 - 2``, ``1 - 2`` and ``-1 + 2``:

    >>> lvl = Level.from_eps("log(2)")
    >>> [affine_sign(fmpq(a), fmpq(b), lvl) for a, b in [(3, 1), (2, 1), (1, 1), (-1, -1)]]
    [1, 0, -1, 1]
    """
    sb = sign(B)
    if sb == 0:
        return sign(A)
    if sb > 0:
        return -1 if sign(A) <= 0 else level.compare(A, B, ONE)
    return 1 if sign(A) >= 0 else -level.compare(-A, -B, ONE)


def pair_excess(mech: Mechanism, i: int, j: int, level: Level, cache: dict | None = None) -> tuple[list[int], Any, Any]:
    """Find the worst set ``S*`` of the ordered pair ``(x_i, x_j)`` and ``(A, B) = (P_i(S*), P_j(S*))``.

    The excess is ``A - e^eps B`` (worst-set lemma, module docstring): ``S*`` holds the outputs ``y`` with
    ``P_i(y) > e^eps P_j(y)``.

    Parameters
    ----------
    mech : Mechanism
        The mechanism.
    i, j : int
        Input indices, in this order.
    level : Level
        The level ``eps``.
    cache : dict, optional
        Maps value-code pairs to ``P > e^eps Q`` decisions; filled in.

    Returns
    -------
    tuple
        ``(S*, A, B)``: output indices, and the two exact masses of ``S*``.

    Examples
    --------
    At ``e^eps = 2``, only ``y0`` has ``P_0(y) > 2 P_1(y)`` (``1/2 > 1/4``); the reverse pair has no such output
    (``1/2 > 2 * 1/4`` is false):

    >>> from exactdp import Mechanism
    >>> M = Mechanism.from_rows(["x0", "x1"], ["y0", "y1", "y2"], [["1/2", "1/4", "1/4"], ["1/8", "1/2", "3/8"]])
    >>> pair_excess(M, 0, 1, Level.from_eps("log(2)")), pair_excess(M, 1, 0, Level.from_eps("log(2)"))
    (([0], 1/2, 1/8), ([], 0, 0))
    """
    cache = {} if cache is None else cache
    vals = mech.values
    ci, cj = mech.codes[i].tolist(), mech.codes[j].tolist()
    S, A, B = [], fmpq(0), fmpq(0)
    for y, (a, b) in enumerate(zip(ci, cj, strict=True)):
        key = (a, b)
        s = cache.get(key)
        if s is None:
            s = level.compare(vals[a], vals[b], ONE) > 0
            cache[key] = s
        if s:
            S.append(y)
            A = A + vals[a]
            B = B + vals[b]
    return S, simplify(A), simplify(B)


def max_excess(mech: Mechanism, pairs: Iterable[tuple[int, int]], level: Level) -> tuple[tuple | None, list[tuple]]:
    """Find the largest excess over the ordered pairs (both orders of each pair).

    Parameters
    ----------
    mech : Mechanism
        The mechanism.
    pairs : iterable of tuple
        Pairs of input indices.
    level : Level
        The level ``eps``.

    Returns
    -------
    tuple
        ``(i, j, S*, A, B)`` of a maximiser (``None`` without pairs), and the same for every ordered pair.

    Raises
    ------
    Undecided
        When a comparison is outside every regime.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> M = Mechanism.from_rows(["x0", "x1"], ["y0", "y1", "y2"], [["1/2", "1/4", "1/4"], ["1/8", "1/2", "3/8"]])
    >>> best, rows = max_excess(M, [(0, 1)], Level.from_eps("log(2)"))
    >>> best, len(rows)
    ((0, 1, [0], 1/2, 1/8), 2)
    """
    cache: dict = {}
    best, rows = None, []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            S, A, B = pair_excess(mech, a, b, level, cache)
            rows.append((a, b, S, A, B))
            if best is None or affine_sign(A - best[3], B - best[4], level) > 0:
                best = (a, b, S, A, B)
    return best, rows


def _excess_value(A, B, level):
    E = level.factor(ONE)
    return simplify(A - E * B) if E is not None else None


def _excess_str(A, B, level):
    v = _excess_value(A, B, level)
    return exact_str(v) if v is not None else f"{exact_str(A)} - {level.factor_str(ONE)}*({exact_str(B)})"


# ------------------------------------------------------------ the checker ----
def certify_approx(mech: Mechanism, neighbours: Any, *, eps: Any = None, alpha: Any = None, level: Level | None = None,
                   delta: Any) -> Certificate[ApproxEvidence]:
    """Certify ``(eps, delta)``-differential privacy over a neighbour relation (HLM15 Def. 1 (5)).

    Parameters
    ----------
    mech : Mechanism
        Rational, transcendental or symbolic entries (a symbolic alpha is
        evaluated exactly at the level).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        The relation ``x ~ x'``: a metric's pairs at distance 1 (graph edges,
        Hamming neighbours), a graph's edges, or an explicit list.  Both
        orders of every pair are checked.
    eps, alpha, level : exact number or Level
        Exactly one; ``eps = 0`` (``alpha = 1``, ``log(1)``) is allowed:
        (0, delta)-DP holds iff the total-variation distance of every pair
        of neighbouring rows is at most ``delta`` (with ``delta = 0``: the
        rows are equal).  Pure DP (:func:`certify_privacy`) refuses it.
    delta : exact number in [0, 1]
        The additive slack of HLM15 Def. 1 (5) (rational or an exponential
        expression).

    Returns
    -------
    Certificate
        kind ``"approx"``.  ``evidence.excess`` is the exact largest excess
        ``max sum_y (P_x(y) - e^eps P_x'(y))_+`` (the smallest delta at this
        eps).  ``evidence.witness`` is the maximising pair ``(x, x')``, its worst set
        ``S*``, both sides ``P_x(S*)`` and ``e^eps P_x'(S*) + delta``: a
        violation when the excess exceeds ``delta``, else the binding pair.
        Undecided (with the reason) outside the exact regimes.

    Raises
    ------
    InvalidInput
        Not exactly one of ``eps``, ``alpha``, ``level``; ``eps < 0``; a
        ``delta`` outside [0, 1] or written in eps/alpha; a neighbour pair
        that is malformed, names an unknown input or repeats one; a metric
        whose points are not the mechanism's inputs
        (:class:`~exactdp.errors.UnsupportedRegime` for a ``delta`` outside
        the exact regimes).
    InvalidType
        ``neighbours`` of another type.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> R = randomized_response(3, p="1/5")          # 1 - 2p = 3/5
    >>> c = certify_approx(R, discrete(3), eps="log(2)", delta="1/5")
    >>> c.holds, c.evidence.excess, c.evidence.witness["lhs"], c.evidence.witness["rhs"]
    (True, '1/5', '3/5', '3/5')
    >>> c = certify_approx(R, discrete(3), eps="1/2", delta="0")
    >>> c.holds, c.evidence.excess
    (False, '-1/5*exp(1/2) + 3/5')

    References
    ----------
    HLM15 Def. 1 (5), Def. 2; the worst-set lemma is the standard reduction
    (module docstring), proved in the certificate's worked proof.
    """
    lvl = approx_level(eps, alpha, level)
    dlt = parse_delta(delta)
    pairs, rel = neighbour_relation(mech, neighbours)
    claim = (f"{mech.name} is (eps, delta)-DP with eps = {lvl.eps_str()}, delta = {exact_str(dlt)} over the "
             f"{rel}")
    base: dict[str, Any] = dict(epsilon_given=lvl.eps_str(), delta=exact_str(dlt), relation=rel,
                metric=metric_data(neighbours) if isinstance(neighbours, FiniteMetric) else None,
                pairs=[[str(mech.inputs[i]), str(mech.inputs[j])] for i, j in pairs])
    try:
        cm = mech.at(lvl)   # evaluated at the level when in alpha, else validated
        best, rows = max_excess(cm, pairs, lvl) if pairs else (None, [])
        verdict = best is None or affine_sign(best[3] - dlt, best[4], lvl) <= 0
    except (Undecided, UnsupportedRegime) as e:
        ev = ApproxEvidence(mechanism=_mech_json(mech), **base, e_eps=None, excess=None, worst_set=None,
                            witness=None)
        return Certificate("approx", UNDECIDED, Method.NONE, claim, ev, reason=getattr(e, "reason", str(e)))
    if best is None:
        ev = ApproxEvidence(mechanism=_mech_json(cm), **base, e_eps=lvl.factor_str(ONE), excess="0", worst_set=[],
                            witness=None)
        return Certificate("approx", True, exact_method(lvl, cm), claim, ev, note="the relation is empty")
    w = _witness(cm, lvl, dlt, best, rows, verdict)
    ev = ApproxEvidence(mechanism=_mech_json(cm), **base, e_eps=lvl.factor_str(ONE), excess=w["excess"],
                        worst_set=w["worst_set"], witness=w)
    return Certificate("approx", verdict, exact_method(lvl, cm), claim, ev)


def _mech_json(mech) -> ApproxMechanism:
    js = mech.to_json()
    return ApproxMechanism(name=str(mech.name), inputs=[str(x) for x in js["inputs"]],
                           outputs=[str(z) for z in js["outputs"]], matrix=js["matrix"])


def _witness(cm, lvl, dlt, best, rows, verdict) -> ApproxWitness:
    """The maximising ordered pair, its worst set and both sides, as exact text."""
    i, j, S, A, B = best
    E = lvl.factor(ONE)
    if E is not None:
        rhs = exact_str(simplify(E * B + dlt))
    else:
        rhs = f"{lvl.factor_str(ONE)}*({exact_str(B)}) + {exact_str(dlt)}"
    over = sum(1 for r in rows if affine_sign(r[3] - dlt, r[4], lvl) > 0) if not verdict else 0
    return ApproxWitness(kind="binding" if verdict else "violation", x=str(cm.inputs[i]), x_prime=str(cm.inputs[j]),
                         worst_set=[str(cm.outputs[y]) for y in S], P_x_S=exact_str(A), P_x_prime_S=exact_str(B),
                         factor=lvl.factor_str(ONE), lhs=exact_str(A), rhs=rhs, excess=_excess_str(A, B, lvl),
                         violating_pairs=over)
