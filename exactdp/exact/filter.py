"""One certified floating-point filter, in the manner of CGAL's filtered predicates.

A predicate such as ``sign(a - E b)`` is first evaluated on vectors of
IEEE-754 *enclosures* ``lo <= x <= hi``; an item whose enclosure excludes the
tie is settled there ("decided by the filter"), and every other item -- in
particular every exact tie -- is handed to an exact function ("sent to the
exact path").  Floats never decide alone: a status the filter returns is a
theorem about the enclosures, and the enclosures are proved below.

Statuses are ``int8`` codes of a sign: ``NEG = -1``, ``ZERO = 0``, ``POS = 1``
and ``UNKNOWN = 2`` (left for the exact path, or left undecided by it).  The
filter itself returns only ``NEG``, ``POS`` or ``UNKNOWN``: ``ZERO`` comes from
the exact path.

Why the enclosures are outward.  Every arithmetic helper here (:func:`add`,
:func:`sub`, :func:`mul_nonneg`) performs one IEEE-754 operation in the default
round-to-nearest mode and then moves the result one float outward with
``numpy.nextafter``.  Round-to-nearest returns the float nearest to the exact
result ``r``, so ``r`` lies between the midpoints from the rounded value ``f``
to its two float neighbours, strictly inside ``(f-, f+)`` where ``f-, f+`` are
those neighbours; hence ``nextafter(f, -inf) <= r <= nextafter(f, +inf)``.  This
holds across binade boundaries (the midpoint below a power of two is half as far
as the one above), in the subnormal range (the spacing there is uniform), and on
overflow: a result rounded to ``+inf`` has ``r >= MAX`` and
``nextafter(inf, -inf) = MAX``.  An operation on infinite operands (``inf -
inf``, ``0 * inf``) gives NaN; every comparison with NaN is false, so such an
item is ``UNKNOWN``, never decided.  The comparisons themselves
(:func:`compare`, :func:`sign_status`) do no arithmetic: a float comparison
is exact.  Enclosures of exact numbers come from Arb balls (rigorous error
bounds) whose end points are converted to floats and moved one float outward
(:func:`enclose`: any conversion with an error below one ulp -- to nearest or
toward zero -- is then outward, by the argument above), or from a correctly
rounded ``p / q`` one float outward (:func:`exactdp.exact.decide.float_bounds`).

Examples
--------
>>> import numpy as np
>>> lo, hi = np.array([0.5, -2.0, -1e-300]), np.array([1.0, -1.0, 1e-300])
>>> sign_status(lo, hi).tolist()              # positive, negative, too close to 0 to say
[1, -1, 2]
>>> stats = FilterStats()
>>> filtered(lo, hi, lambda idx: [0] * len(idx), stats).tolist()   # the exact path says: exactly 0
[1, -1, 0]
>>> stats.compared, stats.filtered, stats.exact
(3, 2, 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["NEG", "POS", "UNKNOWN", "ZERO", "FilterStats", "add", "compare", "enclose", "filtered", "mul_nonneg",
           "resolve", "sign_status", "sub"]

NEG, ZERO, POS, UNKNOWN = -1, 0, 1, 2


@dataclass
class FilterStats:
    """What a filtered predicate did: one record, reported the same way by every checker.

    Parameters
    ----------
    compared : int
        Items that met the predicate: ``zero + filtered + exact + repeated``.
    zero : int
        Settled before the filter by an exact test (e.g. an exact zero).
    filtered : int
        Settled by the certified float filter.
    exact : int
        Sent to the exact path.
    repeated : int
        Settled by an identical earlier exact comparison (checkers that do not deduplicate first).
    exact_seconds : float
        Time spent in the exact path (not in :meth:`note`: notes are rendered
        into the generated proofs and must not change from run to run).

    Examples
    --------
    >>> s = FilterStats(compared=5, zero=1, filtered=3, exact=1)
    >>> print(s.note())  # doctest: +NORMALIZE_WHITESPACE
    of 5 distinct comparisons, 3 were settled by a certified outward-rounded floating-point filter,
    1 decided exactly, 1 by exact zeros
    >>> s += FilterStats(compared=1, exact=1)
    >>> s.compared, s.exact
    (6, 2)
    """

    compared: int = 0
    zero: int = 0
    filtered: int = 0
    exact: int = 0
    repeated: int = 0
    exact_seconds: float = 0.0

    def __iadd__(self, other: FilterStats) -> FilterStats:
        self.compared += other.compared
        self.zero += other.zero
        self.filtered += other.filtered
        self.exact += other.exact
        self.repeated += other.repeated
        self.exact_seconds += other.exact_seconds
        return self

    def note(self, item: str = "distinct comparison") -> str:
        """Write the sentence every certificate note uses for these counts.

        Parameters
        ----------
        item : str, optional
            What was compared, in the singular.

        Returns
        -------
        str
            The counts as a sentence fragment (without the time, so that notes do not change between runs).

        Examples
        --------
        >>> FilterStats(compared=3, filtered=1, exact=1, repeated=1).note("candidate")[:51]
        'of 3 candidates, 1 was settled by a certified outwa'
        >>> FilterStats(compared=3, filtered=1, exact=1, repeated=1).note().split(", ")[-1]
        '1 by an identical earlier comparison'
        """
        n, f = self.compared, self.filtered
        return (f"of {n} {item}{'' if n == 1 else 's'}, {f} {'was' if f == 1 else 'were'} settled by a "
                f"certified outward-rounded floating-point filter, {self.exact} decided exactly, {self.zero} by "
                "exact zeros" + (f", {self.repeated} by an identical earlier comparison" if self.repeated else ""))


def _down(x: np.ndarray) -> np.ndarray:
    return np.nextafter(x, -np.inf)


def _up(x: np.ndarray) -> np.ndarray:
    return np.nextafter(x, np.inf)


def add(alo: Any, ahi: Any, blo: Any, bhi: Any) -> tuple[np.ndarray, np.ndarray]:
    """Enclose ``a + b`` outward from enclosures of ``a`` and ``b`` (one rounding, one float outward).

    Parameters
    ----------
    alo, ahi : array_like of float
        An enclosure ``alo <= a <= ahi``.
    blo, bhi : array_like of float
        An enclosure ``blo <= b <= bhi``.

    Returns
    -------
    tuple of numpy.ndarray
        ``(lo, hi)`` with ``lo <= a + b <= hi``.

    Examples
    --------
    >>> lo, hi = add(0.1, 0.1, 0.2, 0.2)
    >>> float(lo) < 0.30000000000000004 < float(hi)      # the float sum, strictly inside
    True
    """
    with np.errstate(invalid="ignore", over="ignore"):
        return _down(np.add(alo, blo)), _up(np.add(ahi, bhi))


def sub(alo: Any, ahi: Any, blo: Any, bhi: Any) -> tuple[np.ndarray, np.ndarray]:
    """Enclose ``a - b`` outward from enclosures of ``a`` and ``b``.

    Parameters
    ----------
    alo, ahi : array_like of float
        An enclosure ``alo <= a <= ahi``.
    blo, bhi : array_like of float
        An enclosure ``blo <= b <= bhi``.

    Returns
    -------
    tuple of numpy.ndarray
        ``(lo, hi)`` with ``lo <= a - b <= hi``.

    Examples
    --------
    >>> lo, hi = sub(1.0, 1.0, 1.0, 1.0)
    >>> float(lo) < 0.0 < float(hi)        # an exact tie stays undecided
    True
    """
    with np.errstate(invalid="ignore", over="ignore"):
        return _down(np.subtract(alo, bhi)), _up(np.subtract(ahi, blo))


def mul_nonneg(alo: Any, ahi: Any, blo: Any, bhi: Any) -> tuple[np.ndarray, np.ndarray]:
    """Enclose ``a b`` outward for numbers known to be ``>= 0`` (lower bounds below 0 are raised to 0).

    Parameters
    ----------
    alo, ahi : array_like of float
        An enclosure ``alo <= a <= ahi``.
    blo, bhi : array_like of float
        An enclosure ``blo <= b <= bhi``.

    Returns
    -------
    tuple of numpy.ndarray
        ``(lo, hi)`` with ``0 <= lo <= a b <= hi``.

    Examples
    --------
    >>> lo, hi = mul_nonneg(-1e-300, 2.0, 3.0, 3.0)     # a in [0, 2] (its float lower bound dipped below 0)
    >>> float(lo), float(hi) > 6.0
    (0.0, True)
    """
    with np.errstate(invalid="ignore", over="ignore"):
        lo = np.multiply(np.maximum(alo, 0.0), np.maximum(blo, 0.0))
        return np.maximum(_down(lo), 0.0), _up(np.multiply(ahi, bhi))


def compare(alo: Any, ahi: Any, blo: Any, bhi: Any) -> np.ndarray:
    """Give the statuses of ``sign(a - b)`` from enclosures; no arithmetic, so exact.

    ``NEG`` when ``ahi < blo``, ``POS`` when ``alo > bhi``, ``UNKNOWN`` otherwise (touching or overlapping
    enclosures, NaN).

    Parameters
    ----------
    alo, ahi : array_like of float
        An enclosure ``alo <= a <= ahi``.
    blo, bhi : array_like of float
        An enclosure ``blo <= b <= bhi``.

    Returns
    -------
    numpy.ndarray of int8
        One status per item (broadcast).

    Examples
    --------
    >>> compare([1.0, 1.0, 3.0], [2.0, 2.0, 4.0], [2.5, 2.0, 0.0], [3.0, 3.0, 1.0]).tolist()
    [-1, 2, 1]
    """
    alo, ahi, blo, bhi = (np.asarray(v, dtype=float) for v in (alo, ahi, blo, bhi))
    shape = np.broadcast_shapes(alo.shape, ahi.shape, blo.shape, bhi.shape)
    out = np.full(shape, UNKNOWN, dtype=np.int8)
    out[np.broadcast_to(ahi < blo, shape)] = NEG
    out[np.broadcast_to(alo > bhi, shape)] = POS
    return out


def sign_status(lo: Any, hi: Any) -> np.ndarray:
    """Give the statuses of ``sign(x)`` from enclosures ``lo <= x <= hi`` (``compare(x, 0)``).

    Parameters
    ----------
    lo, hi : array_like of float
        An enclosure of each item's ``x``.

    Returns
    -------
    numpy.ndarray of int8
        ``NEG``, ``POS`` or ``UNKNOWN`` per item.

    Examples
    --------
    >>> sign_status([0.0, -1.0, float("nan")], [1.0, 0.0, 1.0]).tolist()   # 0 in [lo, hi]: undecided
    [2, 2, 2]
    """
    return compare(lo, hi, 0.0, 0.0)


def resolve(status: np.ndarray, exact_fn: Callable[[np.ndarray], Iterable[int]],
            stats: FilterStats | None = None) -> np.ndarray:
    """Send the ``UNKNOWN`` items of ``status`` to ``exact_fn`` and fill in its statuses (in place; returned).

    Parameters
    ----------
    status : numpy.ndarray of int8
        The filter's statuses; changed in place.
    exact_fn : callable
        ``exact_fn(idx)`` gets the indices left undecided by the filter and returns one status per index
        (``NEG``, ``ZERO``, ``POS``, or ``UNKNOWN`` when the exact path cannot decide either).
    stats : FilterStats, optional
        Counts the items, those the filter settled, those sent to the exact path and its time.

    Returns
    -------
    numpy.ndarray of int8
        ``status``, filled in.

    Raises
    ------
    RuntimeError
        If ``exact_fn`` returns a different number of statuses (an internal error).

    Examples
    --------
    >>> import numpy as np
    >>> resolve(np.array([1, 2, -1, 2], dtype=np.int8), lambda idx: [0, 2]).tolist()
    [1, 0, -1, 2]
    """
    todo = np.nonzero(status == UNKNOWN)[0]
    if stats is not None:
        stats.compared += len(status)
        stats.filtered += len(status) - len(todo)
        stats.exact += len(todo)
    if len(todo):
        t0 = time.perf_counter()
        out = list(exact_fn(todo))
        if stats is not None:
            stats.exact_seconds += time.perf_counter() - t0
        if len(out) != len(todo):
            raise RuntimeError(f"internal error: the exact path returned {len(out)} statuses for {len(todo)} items")
        status[todo] = out
    return status


def filtered(lo: Any, hi: Any, exact_fn: Callable[[np.ndarray], Iterable[int]],
             stats: FilterStats | None = None) -> np.ndarray:
    """The filtered predicate ``sign(x)``: the float filter on ``lo <= x <= hi``, then ``exact_fn`` on the rest.

    Parameters
    ----------
    lo, hi : array_like of float
        Outward enclosures of each item's ``x`` (from :func:`enclose`, :func:`add`, :func:`sub`, ...).
    exact_fn : callable
        ``exact_fn(idx)``: the exact statuses of the items ``idx`` (see :func:`resolve`).
    stats : FilterStats, optional
        Counts added to.

    Returns
    -------
    numpy.ndarray of int8
        One status per item: ``NEG``, ``ZERO``, ``POS`` (``UNKNOWN`` only where the exact path said so).

    Examples
    --------
    >>> from fractions import Fraction
    >>> xs = [Fraction(1, 3) - Fraction(1, 3), Fraction(-1, 7), Fraction(1, 10**400)]
    >>> lo, hi = enclose(xs, lambda x: (float(x), float(x)))   # floats only as a guide, widened outward
    >>> filtered(lo, hi, lambda idx: [(xs[i] > 0) - (xs[i] < 0) for i in idx]).tolist()
    [0, -1, 1]
    """
    return resolve(sign_status(lo, hi), exact_fn, stats)


def enclose(values: Iterable[Any], bounds: Callable[[Any], tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Enclose values in float vectors ``lo <= v <= hi``.

    Parameters
    ----------
    values : iterable
        The exact values.
    bounds : callable
        ``bounds(v)`` gives floats nearest to a rigorous enclosure of ``v`` (the end points of an Arb ball, or
        the correctly rounded value twice); each is moved one float outward.

    Returns
    -------
    tuple of numpy.ndarray
        ``(lo, hi)``, one entry per value.

    Examples
    --------
    >>> lo, hi = enclose([0.1], lambda v: (v, v))
    >>> float(lo[0]) < 0.1 < float(hi[0])
    True
    """
    pairs = [bounds(v) for v in values]
    lo = np.array([p[0] for p in pairs], dtype=float)
    hi = np.array([p[1] for p in pairs], dtype=float)
    return _down(lo), _up(hi)

