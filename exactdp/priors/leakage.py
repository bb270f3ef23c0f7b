"""Utility for the binary gain and min-entropy leakage (ECP14 Sections 3.4, 3.5 and 5).

* ``U(H, pi, R) = sum_y pi_y (HR)_yy`` (3); the optimal remap guesses, for each
  output ``z``, a ``y`` maximising ``pi_y h_yz`` (ties to the first point), so
  the maximal utility is ``sum_z max_y pi_y h_yz``;
* min-entropy leakage ``L(H, pi) = H_inf(pi) - H_inf(H, pi) =
  log2( sum_z max_y pi_y h_yz / max_y pi_y )`` -- a ``log2`` of an exact number,
  reported exactly with a certified enclosure;
* bounds: Theorem 2 (``U <= sum mu``), Prop. 5 (``L <= log2(sum mu / max pi)``),
  Corollary 2 (``L <= log2(|Y| sum mu)`` when the uniform prior is regular), and
  Theorem 3 (``L <= u log2(|V| e^eps / (|V| - 1 + e^eps))`` for eps-DP on V^u).

>>> from exactdp.mechanisms import randomized_response
>>> R = randomized_response(["a", "b"], p="1/4")
>>> max_utility(R, ["1/2", "1/2"])
3/4
>>> leakage(R, ["1/2", "1/2"]).evidence.leakage_bits
'log2(3/2)'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import arb, fmpq

from ..certificate import Certificate, Method, mechanism_data
from .evidence import LeakageEvidence
from ..errors import InvalidInput
from ..exact.decide import arb_of, decimal_enclosure, exact_str, sign

if TYPE_CHECKING:
    from ..exact.level import Level
    from ..mechanism import Mechanism
    from ..metrics.space import FiniteMetric

__all__ = [
    "corollary2_bound",
    "leakage",
    "log2_str",
    "max_utility",
    "optimal_remap",
    "prop5_bound",
    "theorem2_bound",
    "theorem3_bound",
    "tightness_holds",
    "utility",
]


def _prior(prior, mech):
    from ..exact.values import to_rational

    if isinstance(prior, dict):
        prior = [prior[x] for x in mech.inputs]
    if len(prior) != len(mech.inputs):
        raise InvalidInput(f"prior: {len(prior)} probabilities for {len(mech.inputs)} inputs")
    p = [to_rational(v, what="prior") for v in prior]
    if any(v < 0 for v in p) or sum(p, fmpq(0)) != 1:
        raise InvalidInput("prior: expected non-negative probabilities summing to exactly 1")
    return p


def optimal_remap(mech: Mechanism, prior: Any) -> dict:
    """Return the optimal deterministic remap for the binary gain: each output -> the input maximising ``pi_y h_yz``.

    Ties go to the first input.

    Parameters
    ----------
    mech : Mechanism
        The mechanism ``H``.
    prior : list or dict
        Exact probabilities over its inputs.

    Returns
    -------
    dict
        Output label -> input label.

    Raises
    ------
    InvalidInput
        If the prior is not a probability distribution over the inputs.

    Examples
    --------
    With a skewed prior, guessing ``a`` is best whatever the answer (``9/40 > 3/40`` for output ``b``):

    >>> from exactdp.mechanisms import randomized_response
    >>> R = randomized_response(["a", "b"], p="1/4")
    >>> optimal_remap(R, ["1/2", "1/2"]), optimal_remap(R, ["9/10", "1/10"])
    ({'a': 'a', 'b': 'b'}, {'a': 'a', 'b': 'a'})
    """
    p = _prior(prior, mech)
    out = {}
    for j, z in enumerate(mech.outputs):
        best = 0
        for i in range(1, len(mech.inputs)):
            if sign(p[i] * mech[i, j] - p[best] * mech[best, j]) > 0:
                best = i
        out[z] = mech.inputs[best]
    return out


def utility(mech: Mechanism, prior: Any, remap: dict) -> Any:
    """Return the utility ECP14 (3), ``sum_y pi_y (HR)_yy``, for a deterministic remap, exactly.

    Parameters
    ----------
    mech : Mechanism
        The mechanism ``H``.
    prior : list or dict
        Exact probabilities over its inputs.
    remap : dict
        Output label -> input label.

    Returns
    -------
    fmpq or exact number
        The probability that the remapped answer is the true input.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> R = randomized_response(["a", "b"], p="1/4")
    >>> utility(R, ["9/10", "1/10"], {"a": "a", "b": "b"})       # 9/10 * 3/4 + 1/10 * 3/4
    3/4
    """
    p = _prior(prior, mech)
    total = fmpq(0)
    for i, y in enumerate(mech.inputs):
        for j, z in enumerate(mech.outputs):
            if remap.get(z) == y:
                total = total + p[i] * mech[i, j]
    return total


def max_utility(mech: Mechanism, prior: Any) -> Any:
    """Return ``sum_z max_y pi_y h_yz``, the utility with an optimal remap (:func:`optimal_remap`).

    Parameters
    ----------
    mech : Mechanism
        The mechanism ``H``.
    prior : list or dict
        Exact probabilities over its inputs.

    Returns
    -------
    fmpq or exact number
        The maximal utility.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> R = randomized_response(["a", "b"], p="1/4")
    >>> max_utility(R, ["9/10", "1/10"])             # always guess a
    9/10
    """
    return utility(mech, prior, optimal_remap(mech, prior))


def log2_str(v: Any) -> str:
    """Return ``log2(v)`` as exact text (``"0"`` for ``v = 1``).

    Parameters
    ----------
    v : exact number
        A positive value.

    Returns
    -------
    str
        ``"log2(...)"`` or ``"0"``.

    Examples
    --------
    >>> from flint import fmpq
    >>> log2_str(fmpq(3, 2)), log2_str(fmpq(1))
    ('log2(3/2)', '0')
    """
    return "0" if v == 1 else f"log2({exact_str(v)})"


def leakage(mech: Mechanism, prior: Any) -> Certificate[LeakageEvidence]:
    """Min-entropy leakage in bits, exactly: ``log2(max utility / max_y pi_y)`` (ECP14 Prop. 4).

    .. math:: L(H, \\pi) = \\log_2 \\frac{\\sum_z \\max_y \\pi_y h_{yz}}{\\max_y \\pi_y}

    Parameters
    ----------
    mech : Mechanism
    prior : list or dict
        Exact probabilities over the mechanism's inputs.

    Returns
    -------
    Certificate
        Kind ``leakage``; ``evidence.leakage_bits`` is exact text (``"log2(3/2)"``), ``evidence.enclosure``
        a decimal enclosure.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> leakage(randomized_response(2, p="1/4"), ["1/2", "1/2"]).evidence.leakage_bits
    'log2(3/2)'

    References
    ----------
    ECP14 sec. 3.5, Prop. 4.
    """
    p = _prior(prior, mech)
    U = max_utility(mech, prior)
    m = max(p)
    r = U / m
    if hasattr(r, "reduced"):
        r = r.reduced()
        rr = r.rational()
        r = rr if rr is not None else r
    enc = list(decimal_enclosure(lambda: arb_of(r).log() / arb(2).log()))
    ev = LeakageEvidence(mechanism=mechanism_data(mech), prior=[exact_str(v) for v in p], max_utility=exact_str(U),
                         max_prior=exact_str(m), ratio=exact_str(r), leakage_bits=log2_str(r), enclosure=enc)
    method = Method.of(None, mech)               # the one method rule (no level)
    return Certificate("leakage", True, method, f"the min-entropy leakage of {mech.name}", ev,
                       note="log2 enclosed by Arb balls")


def theorem3_bound(values: int, individuals: int, e_eps: Any) -> Any:
    """Return ECP14 Thm 3's leakage bound ``u log2(|V| e^eps / (|V| - 1 + e^eps))`` as the number inside ``log2``.

    That is ``(|V| e^eps / (|V| - 1 + e^eps))^u``, so the bound in bits is ``log2`` of the result.

    Parameters
    ----------
    values : int
        ``|V|``.
    individuals : int
        ``u``.
    e_eps : exact number
        ``e^eps``: an exact value, or an int or text that is read as a rational.

    Returns
    -------
    exact number
        The ratio raised to the power ``u``.

    Raises
    ------
    InvalidInput
        ``e_eps`` is a float (the bound is exact or nothing).

    Examples
    --------
    >>> from flint import fmpq
    >>> theorem3_bound(2, 1, fmpq(2)), theorem3_bound(2, 3, "2"), theorem3_bound(2, 1, 2)   # 4/3, (4/3)^3
    (4/3, 64/27, 4/3)
    """
    if isinstance(e_eps, float):
        raise InvalidInput(f"theorem3_bound: e^eps must be exact, not the float {e_eps!r}")
    if isinstance(e_eps, (int, str)) and not isinstance(e_eps, bool):
        from ..exact.values import to_rational

        e_eps = to_rational(e_eps)             # a Python int would make k * e_eps / (...) a float division
    k = values
    return (k * e_eps / (k - 1 + e_eps)) ** individuals


def _mu(prior, metric, level):
    from .regular import regular_prior

    c = regular_prior(prior, metric, level)
    if c.holds is not True:
        raise InvalidInput("the bound needs a regular prior (ECP14 Def. 4); this one is "
                           + ("undecided: " + c.reason if c.reason else "not regular"))
    if c.evidence.regime != "rational":
        raise InvalidInput("exact bounds need a rational alpha; use the enclosures of regular_prior instead")
    assert c.evidence.mu is not None        # a regular prior's certificate carries mu when alpha is rational
    return [fmpq(v) for v in c.evidence.mu]


def theorem2_bound(prior: Any, metric: FiniteMetric, level: Level) -> Any:
    """Return ECP14 Thm 2's bound ``sum_y mu_y`` on ``U(H, pi, R)`` for every private H and remap R, exactly.

    Parameters
    ----------
    prior : list or dict
        A regular prior (ECP14 Def. 4).
    metric : FiniteMetric
        The metric of the privacy notion.
    level : Level
        A rational level.

    Returns
    -------
    fmpq
        ``sum mu``.

    Raises
    ------
    InvalidInput
        If the prior is not regular or the level is not rational.

    Examples
    --------
    The randomized response at ``alpha = 1/2`` (rows ``(2/3, 1/3)``, ``(1/3, 2/3)``) is optimal for the
    uniform prior on two points: its utility ``2/3`` meets Theorem 2's bound and its leakage
    ``log2(4/3)`` meets Prop. 5 and Corollary 2.

    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import discrete
    >>> theorem2_bound(["1/2", "1/2"], discrete(2), Level.from_alpha("1/2"))
    2/3
    """
    return sum(_mu(prior, metric, level), fmpq(0))


def prop5_bound(prior: Any, metric: FiniteMetric, level: Level) -> Any:
    """Return ECP14 Prop. 5's leakage bound ``log2(sum mu / max pi)`` as the number inside ``log2``.

    Parameters
    ----------
    prior : list or dict
        A regular prior (ECP14 Def. 4).
    metric : FiniteMetric
        The metric of the privacy notion.
    level : Level
        A rational level.

    Returns
    -------
    fmpq
        ``sum mu / max pi``.

    Raises
    ------
    InvalidInput
        If the prior is not regular or the level is not rational.

    Examples
    --------
    The randomized response at ``alpha = 1/2`` (rows ``(2/3, 1/3)``, ``(1/3, 2/3)``) is optimal for the
    uniform prior on two points: its utility ``2/3`` meets Theorem 2's bound and its leakage
    ``log2(4/3)`` meets Prop. 5 and Corollary 2.

    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import discrete
    >>> prop5_bound(["1/2", "1/2"], discrete(2), Level.from_alpha("1/2"))
    4/3
    """
    from ..exact.values import to_rational

    p = [to_rational(v) for v in (prior.values() if isinstance(prior, dict) else prior)]
    return theorem2_bound(prior, metric, level) / max(p)


def corollary2_bound(metric: FiniteMetric, level: Level) -> Any:
    """Return ECP14 Cor. 2's leakage bound ``log2(|Y| sum mu)`` (uniform prior regular) as the number inside ``log2``.

    The bound holds for every prior.

    Parameters
    ----------
    metric : FiniteMetric
        The metric of the privacy notion.
    level : Level
        A rational level.

    Returns
    -------
    fmpq
        ``|Y| sum mu`` for the uniform prior.

    Raises
    ------
    InvalidInput
        If the uniform prior is not regular or the level is not rational.

    Examples
    --------
    The randomized response at ``alpha = 1/2`` (rows ``(2/3, 1/3)``, ``(1/3, 2/3)``) is optimal for the
    uniform prior on two points: its utility ``2/3`` meets Theorem 2's bound and its leakage
    ``log2(4/3)`` meets Prop. 5 and Corollary 2.

    >>> from exactdp.exact.level import Level
    >>> from exactdp.metrics import discrete
    >>> corollary2_bound(discrete(2), Level.from_alpha("1/2"))
    4/3
    """
    n = len(metric)
    return n * theorem2_bound([fmpq(1, n)] * n, metric, level)


def tightness_holds(mech: Mechanism, metric: FiniteMetric, level: Level, remap: dict | None = None) -> bool:
    """Return whether ECP14 Thm 2's equality condition ``Phi diag(HR) = 1`` holds, exactly.

    Parameters
    ----------
    mech : Mechanism
        The mechanism ``H`` on the metric's points.
    metric : FiniteMetric
        The metric.
    level : Level
        The level of ``Phi_ab = alpha^d(a, b)``.
    remap : dict, optional
        The deterministic remap ``R`` (output -> point; default the identity).

    Returns
    -------
    bool
        True iff every row of ``Phi diag(HR)`` sums to 1.

    Examples
    --------
    ``Phi = [[1, 1/2], [1/2, 1]]``: the diagonal ``(2/3, 2/3)`` gives ``2/3 + 1/3 = 1``; ``(3/4, 3/4)`` does not.

    >>> from exactdp.exact.level import Level
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> L = Level.from_alpha("1/2")
    >>> tightness_holds(randomized_response(2, p="1/3"), discrete(2), L)
    True
    >>> tightness_holds(randomized_response(2, p="1/4"), discrete(2), L)
    False
    """
    from .phi import PhiSystem

    S = PhiSystem(metric, level)
    M = S.exact_matrix()
    pts = list(metric.points)
    remap = remap or {z: z for z in mech.outputs}
    diag = []
    for y in pts:
        i = mech.row_index[y]
        diag.append(sum((mech[i, j] for j, z in enumerate(mech.outputs) if remap.get(z) == y), fmpq(0)))
    return all(sum((M[a, b] * diag[b] for b in range(len(pts))), fmpq(0)) == 1 for a in range(len(pts)))
