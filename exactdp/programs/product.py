"""Programs whose iterations are independent: the product lemma (issue 28).

A program that is one loop ``for i: BODY end`` is a *product* when BODY

* draws all its noise itself (fresh on every iteration: there is no statement outside the loop),
* keeps no state from one iteration to the next (every variable it reads was assigned earlier in the same
  iteration, on every branch),
* reads the current query ``q`` only (not ``q[k]``, ``i`` or ``n``), never ``stop``\\ s and releases no
  ``argmax``/``max`` (which read every query),
* outputs exactly one item on every run (checked on the compiled iteration: every label a single item).

Then the iterations are independent runs of the same mechanism ``K_1`` (the program at ``n = 1``) and the program
at ``n`` releases their outputs in order:

    K_n(x)(z_1, ..., z_n) = prod_j K_1(x_j)(z_j).

**Lemma** (a pair differing in one coordinate).  Let ``x, x'`` differ in coordinate ``j`` only.  For every eps,
``K_n(x)(z) <= e^eps K_n(x')(z)`` for every ``z`` iff ``K_1(x_j)(w) <= e^eps K_1(x'_j)(w)`` for every ``w``.
*Proof.*  The factors ``k != j`` are the same on both sides: when one is 0 both sides are 0, otherwise it
cancels, so the second statement gives the first.  Conversely, pick ``z_k`` with ``K_1(x_k)(z_k) > 0`` for
``k != j`` (each row sums to 1) and divide.  []

So on a relation whose every pair differs in one coordinate (``one-differ``, or explicit pairs of that form) the
program at ``n`` is eps-DP exactly when ``K_1`` is on the value pairs ``(x_j, x'_j)``: the same failure set, the
same smallest eps at a level, the same "never" outputs; a witness of ``K_1`` becomes one of ``K_n`` by padding
every other coordinate with an output whose probability is positive on all of ``(0, 1)``, which keeps the failure
at every eps (:func:`ProductForm.lift`).  ``hist`` at ``n = 4`` is 3 rows and 15 columns instead of 81 rows and
50,625 columns (343 s before this route).  The kernel checks the same conditions on the text with its own parser
(:mod:`exactdp.recheck.program`).

>>> from exactdp.programs import parse_program
>>> hist = parse_program("for i:\\n  z = dlap(1)\\n  output clamp(q + z, -1, 1)\\nend\\n")
>>> independent_iterations(hist) is None
True
>>> independent_iterations(parse_program("s = 0\\nfor i:\\n  s = s + q\\n  output clamp(s, 0, 1)\\nend\\n"))
'a statement outside the loop'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..exact.symbolic import sign_pieces_poly
from .language import Assign, BinOp, Compare, For, If, Noise, Output, Program, Query, Stop, Var
from .ratfunc import RatFunc

__all__ = ["ProductForm", "coordinate_pairs", "independent_iterations", "positive_on_01", "product_form"]


def independent_iterations(program: Program) -> str | None:
    """Why the program's iterations are not independent runs of one body, or None when they are.

    Parameters
    ----------
    program : Program
        A parsed program.

    Returns
    -------
    str or None
        The first reason found (a statement outside the loop, state carried across iterations, ``q[k]``, ``i``,
        ``n``, ``stop``, ``argmax``/``max``), or None.  The one-item-per-run condition is checked on the
        compiled iteration (:func:`product_form`).

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> independent_iterations(parse_program("for i:\\n  z = dlap(1)\\n  output clamp(q + z, 0, 1)\\nend\\n")) is None
    True
    >>> independent_iterations(parse_program("for i:\\n  if i >= 2:\\n    stop\\n  end\\n  output 1\\nend\\n"))
    "the body reads 'i'"
    """
    if len(program.body) != 1 or not isinstance(program.body[0], For):
        return "a statement outside the loop" if any(isinstance(s, For) for s in program.body) else "no loop"
    try:
        _block(program.body[0].body, set())
    except _Dependent as e:
        return str(e)
    return None


class _Dependent(Exception):
    """The body reads something that ties one iteration to another."""


def _block(stmts: list, assigned: set) -> set:
    """The names surely assigned after ``stmts`` (those before, plus every assignment on every branch)."""
    for s in stmts:
        if isinstance(s, Assign):
            if not isinstance(s.value, Noise):
                _reads(s.value, assigned)
            assigned = assigned | {s.name}
        elif isinstance(s, If):
            _reads(s.cond, assigned)
            assigned = _block(s.then, assigned) & _block(s.orelse, assigned)
        elif isinstance(s, Output):
            if s.kind in ("argmax", "max"):
                raise _Dependent(f"an {s.kind} over every query")
            if s.kind != "symbol":
                _reads(s.value, assigned)
        elif isinstance(s, Stop):
            raise _Dependent("a stop")
        else:
            raise _Dependent(f"a {type(s).__name__} in the body")
    return assigned


def _reads(node: Any, assigned: set) -> None:
    if isinstance(node, Var):
        if node.name in ("i", "n"):
            raise _Dependent(f"the body reads {node.name!r}")
        if node.name not in assigned:
            raise _Dependent(f"the body reads {node.name!r} before assigning it in the same iteration")
    elif isinstance(node, Query):
        if node.index is not None:
            raise _Dependent("the body reads q[k]")
    elif isinstance(node, (BinOp, Compare)):
        _reads(node.left, assigned)
        _reads(node.right, assigned)
    # Num and Noise read nothing


def coordinate_pairs(relation: Any, n: int, domain: tuple[int, int]) -> list | None:
    """The value pairs ``(x_j, x'_j)`` of a relation whose every pair differs in exactly one coordinate, else None.

    Parameters
    ----------
    relation : str or list
        ``one-differ`` (the pairs ``(a, a + 1)`` of the domain, every coordinate), another name (None for
        ``n >= 2``: its pairs differ in several coordinates), or the explicit pairs ``[(x, x'), ...]`` as tuples.
    n : int
        Number of queries.
    domain : (int, int)
        ``(lo, hi)``.

    Returns
    -------
    list or None
        ``[(a, b), ...]`` without repeats (either order of a value pair once), in order of first appearance.

    Examples
    --------
    >>> coordinate_pairs("one-differ", 4, (0, 2))
    [(0, 1), (1, 2)]
    >>> coordinate_pairs([((0, 0), (0, 2)), ((1, 0), (1, 2))], 2, (0, 2)), coordinate_pairs("all-differ", 2, (0, 2))
    ([(0, 2)], None)
    """
    lo, hi = domain
    if isinstance(relation, str):
        return [(a, a + 1) for a in range(lo, hi)] if relation == "one-differ" else None
    out: list = []
    for x, y in relation:
        diff = [k for k in range(n) if x[k] != y[k]]
        if len(diff) != 1:
            return None
        p = (x[diff[0]], y[diff[0]])
        if p not in out and p[::-1] not in out:
            out.append(p)
    return out


def positive_on_01(v: RatFunc) -> bool:
    """Whether a probability (a rational function of ``t``, non-negative on ``(0, 1)``) is positive on all of it.

    Parameters
    ----------
    v : RatFunc
        The entry.

    Returns
    -------
    bool
        Its numerator is not 0 and has no root in ``(0, 1)``.

    Examples
    --------
    >>> from flint import fmpq_poly
    >>> positive_on_01(RatFunc(fmpq_poly([1, -1]))), positive_on_01(RatFunc(fmpq_poly([1, -2, 1])))
    (True, True)
    >>> positive_on_01(RatFunc(fmpq_poly([1, -4, 4]))), positive_on_01(RatFunc(0))      # (1 - 2t)^2, and 0
    (False, False)
    """
    pieces = sign_pieces_poly(v.num)
    return len(pieces) == 1 and pieces[0].sign > 0


@dataclass(frozen=True)
class ProductForm:
    """A product program on a one-coordinate relation: the value pairs, the pairs at ``n``, and the padding.

    Parameters
    ----------
    n : int
        Number of queries.
    pairs1 : list of (int, int)
        The value pairs ``(a, b)`` (:func:`coordinate_pairs`).
    pairs : list or None
        The explicit pairs at ``n`` (None for ``one-differ``).
    lo : int
        The domain's lowest value (the padding input of ``one-differ``).
    pad : dict
        Value ``v`` -> an output of ``K_1(v)`` positive on all of ``(0, 1)``.

    Examples
    --------
    >>> ProductForm(2, [(0, 1)], None, 0, {0: "0", 1: "0"}).lift("0", "1", "1")
    ('0,0', '1,0', '1,0')
    """

    n: int
    pairs1: list
    pairs: list | None
    lo: int
    pad: dict

    def lift(self, x: str, y: str, z: str) -> tuple[str, str, str]:
        """The pair and output at ``n`` of a witness ``(x, y, z)`` of ``K_1`` (value labels).

        Coordinate ``j`` carries the witness (the first coordinate for ``one-differ``, the first explicit pair
        whose differing coordinate holds ``{x, y}`` otherwise); every other coordinate an input value and its
        positive output, so the ratio at ``n`` is the ratio at 1 at every eps.

        Parameters
        ----------
        x, y : str
            The witness's two values (labels of ``K_1``'s rows).
        z : str
            Its output (a label of ``K_1``).

        Returns
        -------
        (str, str, str)
            The two inputs and the output at ``n``.

        Examples
        --------
        >>> f = ProductForm(3, [(0, 1)], None, 0, {0: "0", 1: "1"})
        >>> f.lift("1", "0", "-2")
        ('1,0,0', '0,0,0', '-2,0,0')
        """
        a, b = int(x), int(y)
        if self.pairs is None:
            xs, ys, j = [a] + [self.lo] * (self.n - 1), [b] + [self.lo] * (self.n - 1), 0
        else:
            for p, p2 in self.pairs:
                j = next(k for k in range(self.n) if p[k] != p2[k])
                if (p[j], p2[j]) in ((a, b), (b, a)):
                    xs, ys = (list(p), list(p2)) if p[j] == a else (list(p2), list(p))
                    break
            else:  # pragma: no cover - every value pair came from a pair
                raise AssertionError(f"no pair carries the values {a}, {b}")
        zs = [z if k == j else self.pad[xs[k]] for k in range(self.n)]
        return ",".join(map(str, xs)), ",".join(map(str, ys)), ",".join(zs)


def product_form(program: Program, n: int, domain: tuple[int, int], relation: Any, dists1: list,
                 outputs1: list) -> ProductForm | None:
    """The product form of ``program`` at ``n`` on ``relation``, or None when the lemma does not apply.

    Parameters
    ----------
    program : Program
        The program (its noise at a level already resolved).
    n : int
        Number of queries (the form is used for ``n >= 2``).
    domain : (int, int)
        ``(lo, hi)``.
    relation : str or list
        A name or the explicit pairs at ``n`` (tuples).
    dists1 : list of dict
        ``K_1(v)`` for every value ``v`` of the domain, in order: label -> RatFunc.
    outputs1 : list of str
        Every label of ``K_1``.

    Returns
    -------
    ProductForm or None
        None when the iterations are not independent, a pair differs in several coordinates, a run outputs
        other than one item, or some value has no output positive on all of ``(0, 1)`` to pad with.

    Examples
    --------
    >>> from exactdp.programs import parse_program, output_distribution
    >>> p = parse_program("for i:\\n  z = dlap(1)\\n  output clamp(q + z, 0, 1)\\nend\\n")
    >>> d1 = [output_distribution(p, (v,)) for v in (0, 1)]
    >>> f = product_form(p, 3, (0, 1), "one-differ", d1, ["0", "1"])
    >>> f.pairs1, f.pad, product_form(p, 3, (0, 1), "all-differ", d1, ["0", "1"]) is None
    ([(0, 1)], {0: '0', 1: '0'}, True)
    """
    if n < 2 or independent_iterations(program) is not None:
        return None
    pairs1 = coordinate_pairs(relation, n, domain)
    if pairs1 is None or any("," in z or z == "none" for z in outputs1):
        return None
    lo = domain[0]
    pad = {}
    for v, d in enumerate(dists1, start=lo):
        w = next((z for z in outputs1 if z in d and positive_on_01(d[z])), None)
        if w is None:
            return None
        pad[v] = w
    return ProductForm(n, pairs1, None if isinstance(relation, str) else list(relation), lo, pad)
