"""Objects from numpy and sympy, taken structurally (never by parsing their string forms).

* :func:`as_rows` turns a numpy array, a sympy ``Matrix`` or nested sequences into a list of rows
  (numpy integers become Python ints; numpy floats stay floats, so the float rule applies: refused
  unless the caller asks for their exact binary value);
* :func:`as_int` accepts Python and numpy integers (not bools, not floats);
* :func:`sympy_text` writes a sympy expression in the exactdp grammar by walking its tree (``Integer``,
  ``Rational``, ``Add``, ``Mul``, ``Pow`` with a rational exponent, ``exp``, ``log``, ``E``, the symbols
  ``alpha`` and ``eps``); the text is then read by exactdp's own parser.  Anything else is refused.

* :func:`to_sympy` gives an exact value back as a sympy expression (``exp(c eps)`` as ``alpha^(-c)``).

>>> import sympy as sp
>>> sympy_text(sp.exp(-sp.Rational(1, 2))), sympy_text(sp.sqrt(8))
('exp(-1/2)', '(2)*((2)^(1/2))')
>>> as_rows(sp.Matrix([[1, 2], [3, 4]]))
[[1, 2], [3, 4]]
>>> from exactdp.exact import exact_number
>>> to_sympy(exact_number("exp(-1/2) + 1/3"))
1/3 + exp(-1/2)
"""

from __future__ import annotations

from numbers import Integral
from typing import Any

from ..errors import InvalidInput, InvalidType

__all__ = ["as_int", "as_rows", "is_sympy", "sympy_text", "to_sympy"]

#: deepest sympy expression tree converted (a bound on the recursion)
MAX_DEPTH = 200


def is_sympy(x: object) -> bool:
    """Return whether ``x`` is a sympy object (by its type's module; sympy is not imported).

    Parameters
    ----------
    x : object
        Anything.

    Returns
    -------
    bool
        True for sympy numbers, expressions and matrices.

    Examples
    --------
    >>> import sympy as sp
    >>> is_sympy(sp.Rational(1, 3)), is_sympy("1/3")
    (True, False)
    """
    return type(x).__module__.startswith("sympy")


def _is_numpy(x) -> bool:
    return type(x).__module__ == "numpy"


def as_int(n: Any, what: str) -> Any:
    """Return a Python int for a numpy integer; other values unchanged (the caller refuses other types).

    Parameters
    ----------
    n : object
        The value.
    what : str
        Its name; not used here (the caller words its own refusal).

    Returns
    -------
    object
        ``int(n)`` for a numpy integer, else ``n`` itself (bools and floats included).

    Examples
    --------
    >>> import numpy as np
    >>> as_int(np.int64(3), "n"), type(as_int(np.int64(3), "n")).__name__, as_int(2.5, "n")
    (3, 'int', 2.5)
    """
    if isinstance(n, Integral) and not isinstance(n, bool) and _is_numpy(n):
        return int(n)
    return n


def as_rows(matrix: Any, what: str = "matrix") -> Any:
    """Return rows of scalars from a numpy array, a sympy Matrix or a sequence of sequences.

    Parameters
    ----------
    matrix : object
        A 2-D numpy array (integers become ints, floats stay floats), a sympy Matrix, or anything else
        (returned unchanged).
    what : str, optional
        Its name, for messages.

    Returns
    -------
    object
        A list of rows, or ``matrix`` itself.

    Raises
    ------
    InvalidInput
        For a numpy array that is not 2-dimensional.
    InvalidType
        For a boolean numpy array.

    Examples
    --------
    >>> import numpy as np
    >>> as_rows(np.array([[1, 0], [0, 1]], dtype=np.int8))
    [[1, 0], [0, 1]]
    >>> as_rows(np.zeros(3))
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: matrix: expected a 2-dimensional array, got 1 dimension(s)
    """
    if _is_numpy(matrix) and hasattr(matrix, "ndim"):
        if matrix.ndim != 2:
            raise InvalidInput(f"{what}: expected a 2-dimensional array, got {matrix.ndim} dimension(s)")
        if matrix.dtype.kind in "iu":
            return [[int(v) for v in row] for row in matrix.tolist()]
        if matrix.dtype.kind == "b":
            raise InvalidType(f"{what}: got a boolean array; expected exact numbers")
        return [list(row) for row in matrix.tolist()]  # floats stay floats (refused later unless allowed)
    if is_sympy(matrix) and hasattr(matrix, "tolist") and hasattr(matrix, "shape"):
        return [list(row) for row in matrix.tolist()]
    return matrix


def sympy_text(x: Any, depth: int = 0) -> str:
    """Return the exactdp-grammar text of a sympy expression, built from its tree (see the module docstring).

    Parameters
    ----------
    x : sympy expression
        Integers, rationals, ``E``, ``alpha``, ``eps``, sums, products, powers, ``exp`` and ``log``.
    depth : int, optional
        The depth reached so far (the recursion's guard, :data:`MAX_DEPTH`).

    Returns
    -------
    str
        Text that exactdp's parser reads back to the same number.

    Raises
    ------
    InvalidInput
        For another symbol or a tree deeper than :data:`MAX_DEPTH`.
    InvalidType
        For any other kind of sympy object (a float, ``pi``, ...).

    Examples
    --------
    >>> import sympy as sp
    >>> sympy_text(sp.Rational(3, 4) + sp.exp(-1))
    '(3/4 + exp(-1))'
    >>> sympy_text(sp.Float("0.5"))
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidType: sympy Float '0.500000000000000': not an exact number exactdp can take (rationals,
    sqrt, exp, log, alpha, eps)
    """
    if depth > MAX_DEPTH:
        raise InvalidInput(f"sympy expression nested deeper than {MAX_DEPTH}")
    name = type(x).__name__
    if getattr(x, "is_Integer", False):
        return str(int(x))
    if getattr(x, "is_Rational", False):
        return f"{int(x.p)}/{int(x.q)}"
    if name == "Exp1":
        return "exp(1)"
    if getattr(x, "is_Symbol", False):
        if x.name in ("alpha", "eps"):
            return x.name
        raise InvalidInput(f"sympy symbol {x.name!r}: exactdp knows only alpha and eps")
    args = [sympy_text(a, depth + 1) for a in getattr(x, "args", ())]
    if name == "Add":
        return "(" + " + ".join(args) + ")"
    if name == "Mul":
        return "*".join(f"({a})" for a in args)
    if name == "Pow":
        return f"({args[0]})^({args[1]})"
    if name in ("exp", "log") and len(args) == 1:
        return f"{name}({args[0]})"
    raise InvalidType(f"sympy {name} {str(x)[:60]!r}: not an exact number exactdp can take (rationals, sqrt, "
                      "exp, log, alpha, eps)")


def _lin_sympy(lin, sp):
    from .lin import EPS_ATOM

    alpha = sp.Symbol("alpha", positive=True)
    rest, power = sp.Integer(0), sp.Integer(0)
    for atom, c in lin.terms:
        q = sp.Rational(int(c.p), int(c.q))
        if atom == EPS_ATOM:
            power -= q              # exp(c eps) = alpha^(-c)
        else:
            rest += q * sp.sqrt(atom)
    return alpha ** power * sp.exp(rest)


def to_sympy(v: Any) -> Any:
    """Return an exact exactdp value (rational, square roots, exponential polynomial, in alpha) in sympy.

    Parameters
    ----------
    v : int, fmpq, Lin or ExpFrac
        The value; ``exp(c eps)`` becomes ``alpha^(-c)``.

    Returns
    -------
    sympy expression
        Equal to ``v``.

    Raises
    ------
    InvalidType
        For any other type.

    Examples
    --------
    >>> from exactdp.exact import exact_number
    >>> to_sympy(exact_number("1/3")), to_sympy(exact_number("2^(1/2)"))
    (1/3, sqrt(2))
    """
    import sympy as sp
    from flint import fmpq

    from .expo import ExpFrac
    from .lin import Lin

    if isinstance(v, int):
        return sp.Integer(v)
    if isinstance(v, fmpq):
        return sp.Rational(int(v.p), int(v.q))
    if isinstance(v, Lin):
        return sum((sp.Rational(int(c.p), int(c.q)) * (sp.sqrt(a) if a != 1 else 1) for a, c in v.terms),
                   sp.Integer(0))
    if isinstance(v, ExpFrac):
        def poly(p):
            return sum((sp.Rational(int(c.p), int(c.q)) * _lin_sympy(k, sp) for k, c in p.items()), sp.Integer(0))
        return poly(v.num) / poly(v.den)
    raise InvalidType(f"to_sympy: {type(v).__name__} is not an exact exactdp value")
