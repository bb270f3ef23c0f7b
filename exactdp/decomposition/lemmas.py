"""HLM15 Lemmas 1 and 2 (set decomposition), checked exhaustively on small universes (kind ``decomposition``).

HLM15 Lemma 1: a finite union of rectangles ``A_i x B_i`` (``i = 1..p``) equals the union over ``I`` of
``(union_{i in I} A_i) x (intersection_{i in I} B_i minus union_{i not in I} B_i)``, and these second factors
are pairwise disjoint.  Lemma 2 is the same with the two factors swapped (the paper's "analogous argument"):
Lemma 1 applied to the rectangles ``B_i x A_i``.  The check enumerates every ordered collection of ``p``
rectangles of non-empty sets, for ``p = 1..max_rects``; the independent re-check enumerates them again with
its own code (bit masks) and compares the counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..certificate import Certificate, Method, Verdict
from .evidence import DecompositionEvidence
from ..errors import InputTooLarge, InvalidInput

__all__ = ["certify_decomposition", "decomposition_counts"]

#: collections enumerated at most (``(2^|X| - 1)^p (2^|Y| - 1)^p`` summed over ``p``)
MAX_COLLECTIONS = 2_000_000


def _nonempty(universe: Sequence[str]) -> list[frozenset]:
    return [frozenset(s) for k in range(1, len(universe) + 1) for s in itertools.combinations(universe, k)]


def _lemma1(rects: list, Y: Sequence[str]) -> bool:
    """Whether Lemma 1's decomposition of ``rects`` (pairs of sets) is exact and its second factors disjoint."""
    p = len(rects)
    union = {(a, b) for A, B in rects for a in A for b in B}
    parts = []
    for k in range(p + 1):
        for chosen in itertools.combinations(range(p), k):
            At = frozenset().union(*(rects[i][0] for i in chosen)) if chosen else frozenset()
            Bt = frozenset(Y).intersection(*(rects[i][1] for i in chosen)) if chosen else frozenset(Y)
            Bt = Bt - frozenset().union(*(rects[i][1] for i in range(p) if i not in chosen))
            parts.append((At, Bt))
    cover = {(a, b) for At, Bt in parts for a in At for b in Bt}
    disjoint = all(not (parts[i][1] & parts[j][1]) for i in range(len(parts)) for j in range(i + 1, len(parts)))
    return cover == union and disjoint


def _universes(X: Sequence, Y: Sequence, max_rects: int, lemma: int) -> tuple[list[str], list[str]]:
    if lemma not in (1, 2) or isinstance(lemma, bool):
        raise InvalidInput(f"decomposition: lemma is 1 or 2, got {lemma!r}")
    if isinstance(max_rects, bool) or not isinstance(max_rects, int) or max_rects < 1:
        raise InvalidInput(f"decomposition: max_rects is an integer >= 1, got {max_rects!r}")
    Xs, Ys = [str(x) for x in X], [str(y) for y in Y]
    for name, u in (("X", Xs), ("Y", Ys)):
        if not u or len(set(u)) != len(u):
            raise InvalidInput(f"decomposition: {name} is a non-empty list of distinct labels, got {u!r}")
    rects = (2 ** len(Xs) - 1) * (2 ** len(Ys) - 1)
    total = sum(rects ** p for p in range(1, max_rects + 1))
    if total > MAX_COLLECTIONS:
        raise InputTooLarge(f"decomposition: {total} collections of rectangles exceed the limit {MAX_COLLECTIONS}")
    return Xs, Ys


def decomposition_counts(X: Sequence, Y: Sequence, max_rects: int, lemma: int = 1) -> list[list[int]]:
    """Count the collections of rectangles whose HLM15 Lemma 1 (or 2) decomposition is exact and disjoint.

    Parameters
    ----------
    X, Y : sequence of str
        The universes (distinct labels).
    max_rects : int
        The largest number ``p`` of rectangles in a collection.
    lemma : int, optional
        1 (disjoint second factors) or 2 (disjoint first factors: Lemma 1 with the factors swapped).

    Returns
    -------
    list of list of int
        ``[p, collections, exact and disjoint]`` for ``p = 1..max_rects``.

    Raises
    ------
    InvalidInput
        A bad lemma, ``max_rects`` or universe.
    InputTooLarge
        More than :data:`MAX_COLLECTIONS` collections.

    Examples
    --------
    One point and one output: a single rectangle ``{x} x {y}``, and ``p`` copies of it (``1^p`` collections):

    >>> decomposition_counts(["x"], ["y"], 3)
    [[1, 1, 1], [2, 1, 1], [3, 1, 1]]
    >>> decomposition_counts(["0", "1"], ["a"], 2, lemma=2)      # 3 rectangles: 3 and 9 collections
    [[1, 3, 3], [2, 9, 9]]
    """
    Xs, Ys = _universes(X, Y, max_rects, lemma)
    rect = [(A, B) for A in _nonempty(Xs) for B in _nonempty(Ys)]
    out = []
    for p in range(1, max_rects + 1):
        n = good = 0
        for rects in itertools.product(rect, repeat=p):
            n += 1
            if lemma == 1:
                good += _lemma1(list(rects), Ys)
            else:
                good += _lemma1([(B, A) for A, B in rects], Xs)
        out.append([p, n, good])
    return out


def certify_decomposition(X: Sequence, Y: Sequence, max_rects: int = 3, *,
                          lemma: int = 1) -> Certificate[DecompositionEvidence]:
    """Certify HLM15 Lemma 1 (or 2) on the universes ``X``, ``Y`` for every collection of ``p <= max_rects``.

    Parameters
    ----------
    X, Y : sequence of str
        The universes (distinct labels).
    max_rects : int, optional
        The largest number ``p`` of rectangles (default 3).
    lemma : int, optional
        1 or 2.

    Returns
    -------
    Certificate
        Kind ``decomposition``, method enumeration: holds iff every collection decomposes exactly and
        disjointly; the counts are re-derived by the independent re-check.

    Raises
    ------
    InvalidInput
        A bad lemma, ``max_rects`` or universe (as :func:`decomposition_counts`).
    InputTooLarge
        More than :data:`MAX_COLLECTIONS` collections.

    Examples
    --------
    >>> c = certify_decomposition(["0", "1"], ["a", "b"], 1)
    >>> c.verdict.value, c.evidence.counts, c.recheck().status
    ('holds', [[1, 9, 9]], 'confirmed')

    References
    ----------
    HLM15 Lemmas 1 and 2 (used in Theorem 5).
    """
    counts = decomposition_counts(X, Y, max_rects, lemma)
    Xs, Ys = [str(x) for x in X], [str(y) for y in Y]
    holds = all(good == n for _, n, good in counts)
    from ..recheck._labels import set_text     # one way to write a set of labels, unambiguously (issue 27)
    ev = DecompositionEvidence(statement=f"HLM15 Lemma {lemma}: exact and disjoint decomposition of every union "
                               f"of at most {max_rects} rectangles on X = {set_text(Xs)}, Y = "
                               f"{set_text(Ys)}", lemma=lemma, X=Xs, Y=Ys, max_rects=max_rects, counts=counts)
    return Certificate("decomposition", Verdict.HOLDS if holds else Verdict.FAILS, Method.ENUMERATION,
                       ev.statement, ev)
