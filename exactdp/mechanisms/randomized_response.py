"""Randomized response on ``m + 1`` categories (HLM15 Example 6).

``P(Y_d = d) = 1 - p m`` and ``P(Y_d = d') = p`` for each of the ``m`` other
categories ``d' != d``.  HLM15 (12): it is ``(eps, delta)``-private iff
``1 - p m <= e^eps p + delta``; with ``delta = 0`` the smallest admissible
``p`` is ``1/(m + e^eps)``, which is the default here (in a symbolic alpha:
``p = alpha/(1 + m alpha)``).

>>> R = randomized_response(["a", "b", "c"], p="1/4")
>>> R.entry("a", "a"), R.entry("a", "b")
(1/2, 1/4)
>>> randomized_response(["a", "b"]).entry("a", "b")
ExpFrac('alpha/(1 + alpha)')
"""

from __future__ import annotations

from typing import Any, cast
from collections.abc import Iterable

import numpy as np
from flint import fmpq

from ..errors import InvalidInput
from ..exact.decide import exact_str, sign
from ..exact.values import Setting, probability
from ..mechanism import Mechanism

__all__ = ["randomized_response"]


def randomized_response(categories: int | Iterable[Any], p: Any = None, *, name: str | None = None) -> Mechanism:
    """Randomized response on the given categories (HLM15 Ex. 6).

    Parameters
    ----------
    categories : int or sequence
        ``m + 1`` category labels (or their number).
    p : exact number or expression in alpha, optional
        Probability of each wrong category; ``0 <= p <= 1/m``.  Default
        ``1/(m + e^eps) = alpha/(1 + m alpha)``, the HLM15 threshold.
    name : str, optional
        A name for messages and proofs.

    Returns
    -------
    Mechanism
        Square, inputs and outputs the categories: ``1 - m p`` on the
        diagonal, ``p`` elsewhere (HLM15 Ex. 6).

    Raises
    ------
    InvalidInput
        Fewer than 2 categories, a repeated label, or a rational ``p``
        outside ``[0, 1/m]`` (:class:`~exactdp.errors.ParseError` for text
        outside the grammar, :class:`~exactdp.errors.UnsupportedRegime` for
        an irrational algebraic ``p``).

    Examples
    --------
    >>> R = randomized_response(3, p="1/6")
    >>> R.entry("0", "0"), R.entry("2", "1")
    (2/3, 1/6)
    >>> randomized_response(3, p="2/3")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: p: expected 0 <= p <= 1/m = 1/2, got 2/3

    References
    ----------
    HLM15 Example 6, condition (12); Example 7 for its expected error.
    """
    if isinstance(categories, int) and not isinstance(categories, bool):
        categories = [str(k) for k in range(categories)]
    cats = [str(c) for c in cast(Iterable[Any], categories)]  # an int was turned into labels above
    if len(cats) < 2:
        raise InvalidInput(f"randomized response: expected at least 2 categories, got {len(cats)}")
    m = len(cats) - 1
    text = p if p is not None else f"alpha/(1 + {m}*alpha)"
    pv = probability(text, setting=Setting.symbolic(), what="p")
    stay = 1 - m * pv
    if (not hasattr(pv, "has_eps") or not pv.has_eps()) and (sign(pv) < 0 or sign(stay) < 0):
        raise InvalidInput(f"p: expected 0 <= p <= 1/m = 1/{m}, got {exact_str(pv)}")
    if isinstance(stay, fmpq) is False and hasattr(stay, "rational") and stay.rational() is not None:
        stay = stay.rational()
    codes = np.ones((m + 1, m + 1), dtype=np.int32)
    np.fill_diagonal(codes, 0)
    return Mechanism(cats, cats, codes, [stay, pv],
                     name=name or f"randomized response on m + 1 = {m + 1} categories, p = {exact_str(pv)}",
                     provenance="randomized response (HLM15 Ex. 6)")
