"""The exact privacy profile ``delta(eps)`` of a finite mechanism (HLM15 Def. 1).

For one ordered pair ``(x, x')`` with rows ``P, Q`` and ``t = e^eps >= 1``, the
worst-set lemma (:mod:`exactdp.privacy.approximate`) gives

    delta_{x,x'}(t) = sum_y (P(y) - t Q(y))_+ = A_k - t B_k   for r_{k+1} <= t <= r_k,

where ``r_1 > r_2 > ...`` are the distinct ratios ``P(y)/Q(y) > 1`` (an output
with ``Q(y) = 0 < P(y)`` has ratio infinity and is always in the worst set),
``A_k = P({y : r_y >= r_k})`` and ``B_k = Q({y : r_y >= r_k})``.  So each pair's
profile is convex, non-increasing and piecewise linear in ``t`` with exact
breakpoints (rational when the entries are), and the mechanism's profile
``delta(t) = max over ordered neighbouring pairs`` is their upper envelope,
again piecewise ``A - t B``; the envelope's extra breakpoints (where two
pairs cross) are the exact solutions ``t = (A - A')/(B - B')``.

>>> from exactdp.mechanisms import randomized_response
>>> pr = privacy_profile(randomized_response(2, p="1/4"), [("0", "1")])
>>> [(p["eps_from"], p["eps_to"], p["delta"]) for p in pr.to_json()["pieces"]]
[('0', 'log(3)', '3/4 - 1/4*exp(eps)'), ('log(3)', 'inf', '0')]
>>> pr.delta(eps="log(2)"), pr.epsilon("1/4")
(1/4, 'log(2)')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

import numpy as np
from flint import fmpq

from ..privacy.approximate import approx_level, neighbour_relation, parse_delta
from ..errors import InputTooLarge, InvalidInput, UnsupportedRegime
from ..exact.decide import exact_str, sign, simplify
from ..exact.level import Level
from ..exact.radical import Rad

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = [
    "MAX_PROFILE_CELLS",
    "Piece",
    "Profile",
    "check_profile_size",
    "envelope",
    "pair_function",
    "privacy_profile",
    "smallest_delta",
]

ONE = fmpq(1)
ZERO = fmpq(0)


@dataclass
class Piece:
    """One piece of a profile: ``delta(t) = A - t B`` from ``t = t_from`` up to the next piece's ``t_from``.

    Parameters
    ----------
    t_from : exact number
        Where the piece starts (``t = e^eps >= 1``).
    A, B : exact number
        The line ``A - t B``.
    pair : tuple or None
        The ordered pair (row indices, or any tag) that attains it; ``None`` for the empty relation.

    Examples
    --------
    >>> from flint import fmpq
    >>> Piece(fmpq(1), fmpq(3, 4), fmpq(1, 4), (0, 1))
    Piece(t_from=1, A=3/4, B=1/4, pair=(0, 1))
    """

    t_from: object
    A: object
    B: object
    pair: tuple | None


def _lt(a, b) -> bool:
    """Exact ``a < b`` (``None`` is infinity)."""
    if b is None:
        return a is not None
    if a is None:
        return False
    return sign(b - a) > 0


def _cmp(a, b) -> int:
    return sign(a - b)


def pair_function(columns: Iterable[tuple], tag: Any) -> list:
    """Return the profile of one ordered pair from its ``(P(y), Q(y))`` columns, as pieces in ``t = e^eps``.

    A column may carry its ratio ``P(y)/Q(y)`` as a third item when the caller
    knows it already (the composition does).  Columns with equal ratios are merged; ratios ``<= 1`` never enter the
    worst set for ``t >= 1``.

    Parameters
    ----------
    columns : iterable of tuple
        ``(P(y), Q(y))`` or ``(P(y), Q(y), P(y)/Q(y))`` per output, exact and ``>= 0``.
    tag : object
        Stored as each piece's ``pair``.

    Returns
    -------
    list of Piece
        Increasing ``t_from``, the first at ``t = 1``.

    Examples
    --------
    ``P = (3/4, 1/4)``, ``Q = (1/4, 3/4)``: ``delta(t) = (3/4 - t/4)_+``, zero from ``t = 3``.

    >>> from flint import fmpq
    >>> cols = [(fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4))]
    >>> [(p.t_from, p.A, p.B) for p in pair_function(cols, "x")]
    [(1, 3/4, 1/4), (3, 0, 0)]
    """
    inf_a = ZERO
    groups: dict = {}      # rational ratio -> [sum P, sum Q]
    other: list = []       # non-rational ratios (transcendental entries): (r, P, Q)
    for col in columns:
        p, q = col[0], col[1]
        if sign(p) == 0:
            continue
        if sign(q) == 0:
            inf_a = inf_a + p
            continue
        r = simplify(col[2] if len(col) > 2 else p / q)
        if isinstance(r, fmpq):
            if r > 1:
                g = groups.get(r)
                if g is None:
                    groups[r] = [p, q]
                else:
                    g[0] = g[0] + p
                    g[1] = g[1] + q
        elif sign(r - 1) > 0:
            other.append((r, p, q))
    items: list = [(r, g[0], g[1]) for r, g in groups.items()]
    if other:
        # mypy infers ``object`` for cmp_to_key's lambda arguments; they are the (r, P, Q) tuples
        items = _merge_equal(sorted(items + other, key=cmp_to_key(lambda u, v: _cmp(v[0], u[0]))))  # type: ignore[index]
    else:
        items.sort(key=lambda u: u[0], reverse=True)
    # descending ratios r_1 > r_2 > ...: on [r_{k+1}, r_k) the worst set is {r >= r_k}
    A, B = simplify(inf_a), ZERO
    pieces_desc = [Piece(items[0][0] if items else ONE, A, B, tag)] if items else [Piece(ONE, A, B, tag)]
    for k, (_r, p, q) in enumerate(items):
        A, B = simplify(A + p), simplify(B + q)
        start = items[k + 1][0] if k + 1 < len(items) else ONE
        pieces_desc.append(Piece(start, A, B, tag))
    return pieces_desc[::-1]


def _merge_equal(items):
    out: list = []
    for r, p, q in items:
        if out and sign(out[-1][0] - r) == 0:
            out[-1] = (out[-1][0], out[-1][1] + p, out[-1][2] + q)
        else:
            out.append((r, p, q))
    return out


def _line_sign(dA, dB, t) -> int:
    """``sign(dA - t dB)`` at an exact ``t`` (``None``: the limit t -> infinity)."""
    if t is None:
        return -sign(dB) if sign(dB) != 0 else sign(dA)
    return sign(dA - t * dB)


def _max2(f, g) -> list:
    """Upper envelope of two piecewise-linear profiles (exact; crossings split intervals)."""
    out: list = []
    i = j = 0
    lo = ONE
    while True:
        fi, gj = f[i], g[j]
        f_end = f[i + 1].t_from if i + 1 < len(f) else None
        g_end = g[j + 1].t_from if j + 1 < len(g) else None
        hi = f_end if not _lt(g_end, f_end) else g_end
        dA, dB = fi.A - gj.A, fi.B - gj.B
        s_lo, s_hi = _line_sign(dA, dB, lo), _line_sign(dA, dB, hi)
        if s_lo >= 0 and s_hi >= 0:
            _push(out, Piece(lo, fi.A, fi.B, fi.pair))
        elif s_lo <= 0 and s_hi <= 0:
            _push(out, Piece(lo, gj.A, gj.B, gj.pair))
        else:
            cross = simplify(dA / dB)
            first, second = (fi, gj) if s_lo > 0 else (gj, fi)
            _push(out, Piece(lo, first.A, first.B, first.pair))
            _push(out, Piece(cross, second.A, second.B, second.pair))
        if hi is None:
            return out
        lo = hi
        if f_end is not None and sign(f_end - hi) == 0:
            i += 1
        if g_end is not None and sign(g_end - hi) == 0:
            j += 1


def _push(out, pc):
    if out and sign(out[-1].A - pc.A) == 0 and sign(out[-1].B - pc.B) == 0:
        return
    out.append(pc)


def envelope(functions: list) -> list:
    """Return the upper envelope of piecewise-linear profiles, exactly (merged pairwise, a balanced tree).

    Parameters
    ----------
    functions : list of list of Piece
        Profiles as :func:`pair_function` returns them.

    Returns
    -------
    list of Piece
        The envelope; a crossing of two lines ``A - t B`` and ``A' - t B'`` starts a piece at the
        exact ``t = (A - A')/(B - B')``.  The empty list gives the zero profile.

    Examples
    --------
    ``3/4 - t/4`` against the constant ``2/5`` (mass ``2/5`` where ``Q = 0``): they cross at ``t = 7/5``.

    >>> from flint import fmpq
    >>> f = pair_function([(fmpq(3, 4), fmpq(1, 4)), (fmpq(1, 4), fmpq(3, 4))], "a")
    >>> g = pair_function([(fmpq(2, 5), fmpq(0)), (fmpq(3, 5), fmpq(1))], "b")
    >>> [(p.t_from, p.A, p.B, p.pair) for p in envelope([f, g])]
    [(1, 3/4, 1/4, 'a'), (7/5, 2/5, 0, 'b')]
    """
    fs = list(functions)
    if not fs:
        return [Piece(ONE, ZERO, ZERO, None)]
    while len(fs) > 1:
        fs = [_max2(fs[k], fs[k + 1]) if k + 1 < len(fs) else fs[k] for k in range(0, len(fs), 2)]
    return fs[0]


def _t_str(t) -> str:
    if t is None:
        return "inf"
    if sign(t - 1) == 0:
        return "0"
    mono = t.monomial() if hasattr(t, "monomial") else None
    if mono is not None and mono[0] == 1:      # t = exp(b): eps = b
        return str(mono[1])
    return f"log({exact_str(t)})"


def _delta_str(A, B) -> str:
    if sign(B) == 0:
        return exact_str(A)
    b = exact_str(B)
    return f"{exact_str(A)} - {b}*exp(eps)" if "+" not in b and " - " not in b else f"{exact_str(A)} - ({b})*exp(eps)"


class Profile:
    """An exact privacy profile: pieces ``delta = A - e^eps B`` on ``[eps_from, eps_to)`` (HLM15 Def. 1).

    Built by :func:`privacy_profile` and :func:`~exactdp.composition.composition.composed_profile`.

    Parameters
    ----------
    pieces : list of Piece
        The envelope, increasing ``t_from``; a piece's ``pair`` holds row indices into ``labels``.
    labels : sequence of str
        The mechanism's inputs.
    relation : str
        Which neighbour relation was used, in words.
    pairs : list of tuple
        The unordered neighbouring pairs (labels); both orders are checked.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> pr = privacy_profile(randomized_response(2, p="1/4"), [("0", "1")])
    >>> len(pr.pieces), pr.pairs
    (2, [('0', '1')])
    """

    def __init__(self, pieces, labels, relation, pairs):
        self.pieces = pieces
        self.labels = labels
        self.relation = relation
        self.pairs = pairs          # the unordered neighbouring pairs (labels); both orders are checked

    def _locate(self, level: Level) -> Piece:
        """The piece containing ``t = e^eps`` (binary search with exact comparisons)."""
        lo, hi = 0, len(self.pieces) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            b = self.pieces[mid].t_from   # is b <= e^eps ?
            if level.compare(b, ONE, ONE) <= 0:
                lo = mid
            else:
                hi = mid - 1
        return self.pieces[lo]

    def delta(self, eps: Any = None, *, alpha: Any = None, level: Level | None = None) -> Any:
        """Return the smallest delta at ``eps``: the exact value ``A - e^eps B`` of the right piece.

        With ``eps = log(R)/D`` and rational pieces the value is a real radical
        (``eps = log(2)/3`` gives ``A - B 2^(1/3)``).

        Parameters
        ----------
        eps : str or exact number, optional
            The level; or give ``alpha`` (``e^-eps``) or a :class:`~exactdp.exact.level.Level`.
        alpha : str or exact number, optional
            ``e^-eps``.
        level : Level, optional
            The level itself.

        Returns
        -------
        exact number
            ``delta(eps)``: rational, an exponential polynomial or a real radical.

        Raises
        ------
        UnsupportedRegime
            If ``e^eps`` is outside every exact regime.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> pr = privacy_profile(randomized_response(2, p="1/4"), [("0", "1")])
        >>> pr.delta(eps="log(2)"), pr.delta(alpha="1/3"), pr.delta(eps="0")   # 3/4 - t/4 up to t = 3
        (1/4, 0, 1/2)
        """
        lvl = approx_level(eps, alpha, level)
        pc = self._locate(lvl)
        E = lvl.factor(ONE)
        if E is None:
            if sign(pc.B) == 0:
                return pc.A
            if all(isinstance(v, fmpq) for v in (pc.A, pc.B, lvl.R, lvl.D)) and lvl.R > 0:
                return pc.A - pc.B * Rad.power(lvl.R, 1 / lvl.D)     # e^eps = R^(1/D), a real radical
            raise UnsupportedRegime(f"eps: e^eps = {lvl.factor_str(ONE)} is not in the exact field; the profile is "
                                    f"{_delta_str(pc.A, pc.B)} there")
        return simplify(pc.A - E * pc.B)

    def binding_pair(self, eps: Any = None, *, alpha: Any = None,
                     level: Level | None = None) -> tuple[str, str] | None:
        """Return the labels of the ordered pair attaining the profile at ``eps``.

        Parameters
        ----------
        eps : str or exact number, optional
            The level; or give ``alpha`` (``e^-eps``) or a :class:`~exactdp.exact.level.Level`.
        alpha : str or exact number, optional
            ``e^-eps``.
        level : Level, optional
            The level itself.

        Returns
        -------
        tuple of str or None
            ``(x, x')``, or ``None`` when no pair is recorded (no neighbours).

        Examples
        --------
        >>> from exactdp.mechanism import Mechanism
        >>> K = Mechanism.from_rows(["a", "b"], ["0", "1"], [["3/4", "1/4"], ["1/2", "1/2"]])
        >>> pr = privacy_profile(K, [("a", "b")])
        >>> pr.binding_pair(eps="log(4/3)"), pr.delta(eps="log(4/3)")   # b over a: 1/2 - (4/3)(1/4)
        (('b', 'a'), 1/6)
        """
        return self._pair_labels(self._locate(approx_level(eps, alpha, level)).pair)

    def _pair_labels(self, pair):
        return None if pair is None else (self.labels[pair[0]], self.labels[pair[1]])

    def epsilon_t(self, delta: Any) -> Any:
        """Return the smallest ``t = e^eps`` with ``delta(t) <= delta``.

        Parameters
        ----------
        delta : str or exact number
            The target ``delta >= 0``.

        Returns
        -------
        exact number or None
            ``t`` exactly, or ``None`` if no finite ``eps`` reaches ``delta``.

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> pr = privacy_profile(randomized_response(2, p="1/4"), [("0", "1")])
        >>> pr.epsilon_t("1/4"), pr.epsilon_t("0"), pr.epsilon_t("1")      # 3/4 - t/4 = delta
        (2, 3, 1)
        """
        dl = parse_delta(delta)
        pcs = self.pieces
        for k, pc in enumerate(pcs):
            end = pcs[k + 1].t_from if k + 1 < len(pcs) else None
            at_start = pc.A - pc.t_from * pc.B
            if sign(at_start - dl) <= 0:
                return pc.t_from
            at_end = (pc.A if sign(pc.B) == 0 else None) if end is None else pc.A - end * pc.B
            if at_end is not None and sign(at_end - dl) <= 0:
                return simplify((pc.A - dl) / pc.B)
        return None

    def epsilon(self, delta) -> str:
        """Return the smallest eps with ``delta(eps) <= delta``, as exact text.

        Parameters
        ----------
        delta : str or exact number
            The target ``delta >= 0``.

        Returns
        -------
        str
            ``"log(r)"``, ``"0"``, an exponent ``b`` when ``e^eps = exp(b)``, or ``"inf"``.

        Examples
        --------
        >>> from exactdp.mechanism import Mechanism
        >>> K = Mechanism.from_rows(["a", "b"], ["0", "1"], [["1", "0"], ["1/2", "1/2"]])
        >>> pr = privacy_profile(K, [("a", "b")])
        >>> pr.epsilon("0"), pr.epsilon("1/2")       # output 1 only from b: delta(b, a) = 1/2 at every eps
        ('inf', '0')
        """
        return _t_str(self.epsilon_t(delta))

    def to_json(self) -> dict:
        """Return the profile as JSON-ready exact text (the form certificates carry).

        Returns
        -------
        dict
            ``relation``, ``pairs``, ``ordered_pairs`` and ``pieces`` (``eps_from``, ``eps_to``, ``delta``,
            ``pair`` each).

        Examples
        --------
        >>> from exactdp.mechanisms import randomized_response
        >>> pr = privacy_profile(randomized_response(2, p="1/4"), [("0", "1")])
        >>> pr.to_json()["pieces"][0]
        {'eps_from': '0', 'eps_to': 'log(3)', 'delta': '3/4 - 1/4*exp(eps)', 'pair': ['0', '1']}
        """
        pcs = []
        for k, pc in enumerate(self.pieces):
            end = self.pieces[k + 1].t_from if k + 1 < len(self.pieces) else None
            pcs.append({"eps_from": _t_str(pc.t_from), "eps_to": _t_str(end), "delta": _delta_str(pc.A, pc.B),
                        "pair": list(self._pair_labels(pc.pair)) if pc.pair is not None else None})
        return {"relation": self.relation, "pairs": [list(p) for p in self.pairs],
                "ordered_pairs": 2 * len(self.pairs), "pieces": pcs}


#: most (ordered pair, output) cells :func:`privacy_profile` reads (each ordered pair's columns are sorted to
#: find the pairs with identical profiles); measured: a 200 x 200 randomized response over the discrete metric
#: (7,960,000 cells) took under 5 s, the command included
MAX_PROFILE_CELLS = 20_000_000


def check_profile_size(ordered_pairs: int, outputs: int) -> None:
    """Refuse up front a profile over more than :data:`MAX_PROFILE_CELLS` (ordered pair, output) cells.

    Parameters
    ----------
    ordered_pairs : int
        The number of ordered neighbouring pairs.
    outputs : int
        The number of outputs.

    Raises
    ------
    InputTooLarge
        Above the limit.

    Examples
    --------
    >>> check_profile_size(2 * 1500 * 1499 // 2, 1500)
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: privacy profile: 2,248,500 ordered neighbour pairs x 1,500 outputs = 3,372,750,000
    cells to read; the limit is 20,000,000
    """
    if ordered_pairs * outputs > MAX_PROFILE_CELLS:
        raise InputTooLarge(f"privacy profile: {ordered_pairs:,} ordered neighbour pairs x {outputs:,} outputs = "
                            f"{ordered_pairs * outputs:,} cells to read; the limit is {MAX_PROFILE_CELLS:,}")


def _precheck_metric_size(mech, neighbours) -> None:
    """For a metric whose every pair could be neighbours beyond the limit, count its pairs at distance 1 from
    the vectorised distance codes first (listing a million pairs one by one takes seconds)."""
    from ..metrics.space import FiniteMetric
    from ..metrics.symmetry import DistanceCodes

    n, W = len(mech.inputs), len(mech.outputs)
    if not isinstance(neighbours, FiniteMetric) or n * (n - 1) * W <= MAX_PROFILE_CELLS or len(neighbours) != n:
        return
    dc = DistanceCodes(neighbours)
    ones = [c for c, d in enumerate(dc.values) if d == 1]
    if ones:
        check_profile_size(int((dc.full() == ones[0]).sum()), W)


def privacy_profile(mech: Mechanism, neighbours: Any) -> Profile:
    """The exact privacy profile of ``mech`` over a neighbour relation.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (a symbolic alpha must be fixed
        first with ``mech.at(level)``).
    neighbours : FiniteMetric, networkx graph or list of label pairs
        As in :func:`~exactdp.privacy.approximate.certify_approx`.

    Returns
    -------
    Profile
        Pieces ``delta = A - e^eps B`` with exact breakpoints; ``delta(eps)``
        and ``epsilon(delta)`` evaluate it exactly.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> from exactdp.metrics import discrete
    >>> pr = privacy_profile(randomized_response(3, p="1/5"), discrete(3))
    >>> pr.delta(eps="0"), pr.delta(eps="log(2)"), pr.epsilon("0"), pr.epsilon("1/10")
    (2/5, 1/5, 'log(3)', 'log(5/2)')

    References
    ----------
    HLM15 Def. 1 (5); the worst-set lemma of :mod:`exactdp.privacy.approximate`.
    """
    if mech.regime == "symbolic":
        raise InvalidInput("privacy_profile: the mechanism's entries depend on a symbolic alpha; fix a level first "
                           "(mech.at(Level.from_eps(...)))")
    mech = mech.validate()
    _precheck_metric_size(mech, neighbours)
    pairs, rel = neighbour_relation(mech, neighbours)
    check_profile_size(2 * len(pairs), len(mech.outputs))
    vals = mech.values
    codes = mech.codes.astype(np.int64)
    V = max(len(vals), 1)
    seen: dict = {}
    fs = []
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            key = np.sort(codes[a] * V + codes[b]).tobytes()
            if key in seen:        # identical column multisets give identical profiles
                continue
            seen[key] = True
            cols = zip(mech.codes[a].tolist(), mech.codes[b].tolist(), strict=True)
            fs.append(pair_function([(vals[u], vals[v]) for u, v in cols], (a, b)))
    return Profile(envelope(fs), mech.inputs, rel, [(mech.inputs[i], mech.inputs[j]) for i, j in pairs])


def smallest_delta(mech: Mechanism, neighbours: Any, *, eps: Any = None, alpha: Any = None,
                   level: Level | None = None) -> Any:
    """Return the smallest delta at one eps: ``privacy_profile(mech, neighbours).delta(eps)``.

    Parameters
    ----------
    mech : Mechanism
        As for :func:`privacy_profile`.
    neighbours : FiniteMetric, networkx graph or list of label pairs
        As for :func:`privacy_profile`.
    eps : str or exact number, optional
        The level; or give ``alpha`` (``e^-eps``) or a :class:`~exactdp.exact.level.Level`.
    alpha : str or exact number, optional
        ``e^-eps``.
    level : Level, optional
        The level itself.

    Returns
    -------
    exact number
        ``delta(eps)``.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> smallest_delta(randomized_response(2, p="1/4"), [("0", "1")], eps="log(2)")    # 3/4 - 2/4
    1/4
    """
    return privacy_profile(mech, neighbours).delta(eps, alpha=alpha, level=level)

