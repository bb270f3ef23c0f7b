"""Re-check ``decomposition`` certificates (HLM15 Lemmas 1-2) by redoing the enumeration with bit masks.

Subsets are bit masks; a set of pairs ``(a, b)`` is a mask over ``X x Y``.  For every ordered
collection of ``p`` rectangles and every ``I``, the pieces of Lemma 1 are rebuilt, their union
compared with the union of the rectangles and the second factors tested pairwise for overlap.
Lemma 2 swaps the factors.  The counts must equal the certificate's, and the verdict must say
whether every collection passed.
"""

from __future__ import annotations

from itertools import product

from ._labels import set_text
from ._kernel import NotHere

CONFIRMED, REFUTED = "confirmed", "refuted"
#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {"decomposition": {"statement": "str", "lemma": "int", "X": ["str"], "Y": ["str"], "max_rects": "int",
                              "counts": [["int"]]}}
MAX_WORK = 5_000_000


def _grid(A, B, nb):
    """The rectangle ``A x B`` as a mask over ``X x Y`` (bit ``a * nb + b``): the copy of ``B``'s mask shifted to row
    ``a`` for every ``a`` in ``A``."""
    m = 0
    for a in range(A.bit_length()):
        if A >> a & 1:
            m |= B << (a * nb)
    return m


def _ok(rects, na, nb) -> bool:
    """Do the Lemma 1 pieces of the rectangles pass? For every subset ``I`` (a bit mask) the piece is ``(union of
    A_i, i in I) x (intersection of B_i, i in I, minus the B_j, j not in I)``; the second factors must be pairwise
    disjoint (checked cumulatively in ``seen``) and the pieces' union must equal the rectangles' union."""
    p, full = len(rects), (1 << nb) - 1
    union = 0
    for A, B in rects:
        union |= _grid(A, B, nb)
    cover, seen = 0, 0
    for subset in range(1 << p):        # the subset I of the rectangles, as a bit mask
        At, Bt, out = 0, full, 0
        for i, (A, B) in enumerate(rects):
            if subset >> i & 1:
                At, Bt = At | A, Bt & B
            else:
                out |= B
        Bt &= ~out
        if Bt & seen:
            return False
        seen |= Bt
        cover |= _grid(At, Bt, nb)
    return cover == union


def _work(na: int, nb: int, top: int) -> int:
    """Steps of the enumeration (collections times subsets ``I``), or ``MAX_WORK + 1`` as soon as it exceeds it."""
    if na + nb > 40:
        return MAX_WORK + 1
    r, total = ((1 << na) - 1) * ((1 << nb) - 1), 0
    for p in range(1, top + 1):
        total += r ** p * 2 ** p
        if total > MAX_WORK:
            return MAX_WORK + 1
    return total


def claim_text(c: dict) -> str:
    """The claim of a ``decomposition`` certificate, rebuilt from its evidence.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        The claim sentence (HLM15 Lemma 1 or 2).

    Examples
    --------
    >>> claim_text({"evidence": {"lemma": 1, "max_rects": 2, "X": ["a", "b"], "Y": ["u"]}})
    'HLM15 Lemma 1: exact and disjoint decomposition of every union of at most 2 rectangles on X = {a, b}, Y = {u}'
    """
    ev = c["evidence"]
    return (f"HLM15 Lemma {ev['lemma']}: exact and disjoint decomposition of every union of at most "
            f"{ev['max_rects']} rectangles on X = {set_text(ev['X'])}, Y = {set_text(ev['Y'])}")


def check(c: dict):
    """Re-check a ``decomposition`` certificate: HLM15 Lemma 1 or 2 re-enumerated over every collection.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the collections enumerated, and the
        counts found.

    Examples
    --------
    One point on each side: the only rectangle is ``{a} x {u}``, one collection of at most one rectangle, and it
    decomposes.

    >>> claim = ("HLM15 Lemma 1: exact and disjoint decomposition of every union of at most 1 rectangles on "
    ...          "X = {a}, Y = {u}")
    >>> ev = {"statement": claim, "lemma": 1, "X": ["a"], "Y": ["u"], "max_rects": 1, "counts": [[1, 1, 1]]}
    >>> check({"claim": claim, "verdict": "holds", "evidence": ev})
    ('confirmed', 1, 'Lemma 1 re-enumerated: [[1, 1, 1]] (certificate: [[1, 1, 1]])')
    >>> check({"claim": claim, "verdict": "fails", "evidence": ev})[0]
    'refuted'
    """
    ev = c["evidence"]
    if c["claim"] != claim_text(c) or ev["statement"] != c["claim"]:
        return REFUTED, 0, "the claim (or the statement) is not the one its evidence states"
    X, Y, lemma, top = list(ev["X"]), list(ev["Y"]), ev["lemma"], ev["max_rects"]
    if lemma not in (1, 2) or len(set(X)) != len(X) or len(set(Y)) != len(Y) or not X or not Y \
            or type(top) is not int or top < 1:
        return REFUTED, 0, "the universes, the lemma or p are not well formed"
    # Lemma 2 is Lemma 1 with the factors swapped: the same enumeration on (Y, X)
    na, nb = (len(X), len(Y)) if lemma == 1 else (len(Y), len(X))
    if _work(na, nb, top) > MAX_WORK:    # counted before anything is built: hostile sizes cost nothing
        raise NotHere(f"the enumeration is larger than the {MAX_WORK:,} steps this re-check redoes")
    # every rectangle A x B with A, B non-empty, and every ordered collection of p of them (repeats included): the lemma
    # is about all of them
    rects = [(A, B) for A in range(1, 1 << na) for B in range(1, 1 << nb)]
    got = []
    for p in range(1, top + 1):
        n = good = 0
        for coll in product(rects, repeat=p):
            n += 1
            good += _ok(coll, na, nb)
        got.append([p, n, good])
    holds = all(g == n for _, n, g in got)
    ok = got == ev["counts"] and holds == (c["verdict"] == "holds")
    return (CONFIRMED if ok else REFUTED), sum(n for _, n, _ in got), \
        f"Lemma {lemma} re-enumerated: {got} (certificate: {ev['counts']})"


def method_of(c: dict) -> str:
    """The method a decomposition certificate's verdict rests on (the dispatcher refutes another, or a precision).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        Always ``"ENUMERATION"``.

    Examples
    --------
    >>> method_of({"evidence": {}})
    'ENUMERATION'
    """
    return "ENUMERATION"
