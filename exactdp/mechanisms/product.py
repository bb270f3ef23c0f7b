"""Product mechanisms built exactly: the k-fold repeated query and HLM15's product sanitisation.

* :func:`repeated` -- the same query answered ``k`` times with independent
  noise (HLM15 Section 4 remark: ``Z^(k)_(q_1..q_k) = (Z_1, ..., Z_k)``):
  inputs unchanged, outputs ``k``-tuples, ``P(y_1..y_k | x) = prod P(y_i | x)``.
* :func:`product_sanitisation` -- HLM15 (7): a database ``d = (d_1..d_n)`` in
  ``D^n`` is sanitised row by row, independently, by the same 1-D mechanism:
  ``P(u_1..u_n | d) = prod P(u_i | d_i)``.

Output tuples are labelled by their entries joined with commas (as
:func:`~exactdp.metrics.database_label`), so :func:`~exactdp.metrics.hamming`
on the 1-D inputs gives the neighbour relation of ``D^n``.

>>> from exactdp.mechanisms import randomized_response
>>> R2 = repeated(randomized_response(2, p="1/4"), 2)
>>> R2.outputs, R2.entry("0", "0,0")
(('0,0', '0,1', '1,0', '1,1'), 9/16)
"""

from __future__ import annotations

import itertools

from ..errors import InputTooLarge, InvalidInput, InvalidType
from ..mechanism import MAX_CELLS, Mechanism, mechanism_from_values

__all__ = ["product_sanitisation", "repeated"]


def _check_k(k, what):
    if isinstance(k, bool) or not isinstance(k, int):
        raise InvalidType(f"{what}: expected an integer, got {k!r}")
    if k < 1:
        raise InvalidInput(f"{what}: expected an integer >= 1, got {k}")


def _concrete(mech, what):
    if mech.regime == "symbolic":
        raise InvalidInput(f"{what}: the mechanism's entries depend on a symbolic alpha; fix a level first")
    return mech.validate()


def repeated(mech: Mechanism, k: int, *, name: str | None = None) -> Mechanism:
    """Return the ``k``-fold repetition of ``mech`` (independent noise each time), built exactly.

    Parameters
    ----------
    mech : Mechanism
        Rational or transcendental entries (a symbolic alpha must be fixed first).
    k : int
        ``k >= 1``; the product has ``|outputs|^k`` columns (at most
        :data:`~exactdp.mechanism.MAX_CELLS` cells in all).
    name : str, optional
        The product's name.

    Returns
    -------
    Mechanism
        The same inputs; outputs the ``k``-tuples joined with commas, ``P(y_1..y_k | x) = prod P(y_i | x)``.

    Raises
    ------
    InvalidType
        If ``k`` is not an integer.
    InvalidInput
        If ``k < 1`` or the mechanism is symbolic.
    InputTooLarge
        Beyond :data:`~exactdp.mechanism.MAX_CELLS` cells.

    Examples
    --------
    Randomized response keeping its input with probability ``3/4``, three times:

    >>> from exactdp.mechanisms import randomized_response
    >>> R3 = repeated(randomized_response(2, p="1/4"), 3)
    >>> R3.shape, R3.entry("0", "0,1,0")       # (3/4) (1/4) (3/4)
    ((2, 8), 9/64)

    References
    ----------
    HLM15 Section 4, the remark after Theorem 4 (repeated output perturbation).
    """
    _check_k(k, "k")
    mech = _concrete(mech, "repeated")
    n, m = mech.shape
    if n * m**k > MAX_CELLS:
        raise InputTooLarge(f"repeated: {n} x {m}^{k} cells exceed {MAX_CELLS}; hint: use "
                            "exactdp.composition.composition for large k")
    rows = mech.rows()
    outs = list(itertools.product(range(m), repeat=k))
    labels = [",".join(mech.outputs[y] for y in t) for t in outs]
    table = []
    for row in rows:
        out = []
        for t in outs:
            v = row[t[0]]
            for y in t[1:]:
                v = v * row[y]
            out.append(v)
        table.append(out)
    return mechanism_from_values(mech.inputs, labels, table, name=name or f"{mech.name}, repeated {k} times")


def product_sanitisation(mech: Mechanism, n: int, *, name: str | None = None) -> Mechanism:
    """Return the product sanitisation of ``D^n`` from the 1-D mechanism ``mech`` on ``D`` (HLM15 (7)).

    Parameters
    ----------
    mech : Mechanism
        The 1-D mechanism on ``D``; a symbolic alpha must be fixed first.
    n : int
        The number of rows of a database, ``n >= 1``.
    name : str, optional
        The product's name.

    Returns
    -------
    Mechanism
        Inputs and outputs the ``n``-tuples joined with commas, ``P(u | d) = prod P(u_i | d_i)``.

    Raises
    ------
    InvalidType
        If ``n`` is not an integer.
    InvalidInput
        If ``n < 1`` or the mechanism is symbolic.
    InputTooLarge
        Beyond :data:`~exactdp.mechanism.MAX_CELLS` cells.

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> Y = product_sanitisation(randomized_response(2, p="1/4"), 2)
    >>> Y.shape, Y.entry("0,1", "0,0")
    ((4, 4), 3/16)

    References
    ----------
    HLM15 Section 5, (7), Lemma 3 and Theorem 5.
    """
    _check_k(n, "n")
    mech = _concrete(mech, "product_sanitisation")
    d, m = mech.shape
    if d**n * m**n > MAX_CELLS:
        raise InputTooLarge(f"product_sanitisation: {d}^{n} x {m}^{n} cells exceed {MAX_CELLS}")
    rows = mech.rows()
    ins = list(itertools.product(range(d), repeat=n))
    outs = list(itertools.product(range(m), repeat=n))
    table = []
    for x in ins:
        out = []
        for u in outs:
            v = rows[x[0]][u[0]]
            for xi, ui in zip(x[1:], u[1:], strict=True):
                v = v * rows[xi][ui]
            out.append(v)
        table.append(out)
    return mechanism_from_values([",".join(mech.inputs[i] for i in x) for x in ins],
                                 [",".join(mech.outputs[y] for y in u) for u in outs], table,
                                 name=name or f"product sanitisation of {mech.name} on D^{n}")
