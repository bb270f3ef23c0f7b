"""Users of a count query (GRS12 sec. 2.2): a prior over results and a monotone loss.

A user has a prior ``p`` over ``{0..n}`` (exact, non-negative, summing to
exactly 1) and a loss ``l(i, r) >= 0`` that is nondecreasing in ``|i - r|`` for
each fixed ``i``.  The expected loss of a mechanism ``x`` (GRS12 (1)) is
``sum_i p_i sum_r x_ir l(i, r)``.

>>> u = User.uniform(3, "absolute")
>>> u.loss[0]
[0, 1, 2, 3]
>>> User(["1/2", "1/2"], [[0, 2], [1, 0]]).loss[0]
[0, 2]
>>> User([1, 0, 0], [[0, 2, 1], [1, 0, 1], [2, 1, 0]])
Traceback (most recent call last):
...
exactdp.errors.InvalidInput: loss: not nondecreasing in |i - r| for i = 0: l(0, 1) = 2 > l(0, 2) = 1 although
|0 - 1| < |0 - 2| (i = 0, r = 1, r' = 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flint import fmpq

from ..errors import InvalidInput
from ..exact.lin import Lin
from ..exact.radical import Rad, to_rad
from ..exact.values import to_rational
import itertools

if TYPE_CHECKING:
    from ..mechanism import Mechanism

__all__ = ["LOSSES", "User", "expected_loss", "loss_table", "power_loss"]

LOSSES = ("absolute", "squared", "binary")


def loss_table(kind: str, n: int) -> list[list[fmpq]]:
    """Return the absolute ``|i-r|``, squared ``(i-r)^2`` or binary ``[i != r]`` loss on ``{0..n}``.

    Parameters
    ----------
    kind : str
        ``"absolute"``, ``"squared"`` or ``"binary"`` (:data:`LOSSES`).
    n : int
        The largest value; the table is ``(n+1) x (n+1)``.

    Returns
    -------
    list of list of fmpq
        ``table[i][r] = l(i, r)``.

    Raises
    ------
    InvalidInput
        For any other ``kind``.

    Examples
    --------
    >>> [[str(v) for v in row] for row in loss_table("squared", 2)]
    [['0', '1', '4'], ['1', '0', '1'], ['4', '1', '0']]
    >>> [str(v) for v in loss_table("binary", 2)[1]]
    ['1', '0', '1']
    """
    if kind not in LOSSES:
        raise InvalidInput(f"loss: expected one of {', '.join(LOSSES)} or a table, got {kind!r}")
    f = {"absolute": lambda i, r: abs(i - r), "squared": lambda i, r: (i - r) ** 2,
         "binary": lambda i, r: int(i != r)}[kind]
    return [[fmpq(f(i, r)) for r in range(n + 1)] for i in range(n + 1)]


def power_loss(n: int, exponent: Any) -> list[list[Any]]:
    """Return the loss ``l(i, r) = |i - r|^exponent`` on ``{0..n}`` as exact numbers (rational or :class:`Rad`).

    GRS12 (journal version) uses ``|i - j|^(3/2)`` for Fig. 3(a) and ``|j - i|^(1 - delta)`` for App. C
    (Thm 6.3 of the arXiv text).  Irrational values are real radicals, compared exactly.

    Parameters
    ----------
    n : int
        The largest value; the table is ``(n+1) x (n+1)``.
    exponent : rational
        A positive rational (an ``fmpq`` or anything :func:`fmpq` reads).

    Returns
    -------
    list of list
        ``table[i][r]``, an ``fmpq`` where rational, else a :class:`~exactdp.exact.radical.Rad`.

    Raises
    ------
    InvalidInput
        If the exponent is not positive.

    Examples
    --------
    >>> from flint import fmpq
    >>> [str(v) for v in power_loss(5, fmpq(3, 2))[0]]
    ['0', '1', '2*2^(1/2)', '3*3^(1/2)', '8', '5*5^(1/2)']
    """
    e = fmpq(exponent) if not isinstance(exponent, fmpq) else exponent
    if e <= 0:
        raise InvalidInput(f"exponent: expected a positive rational (the loss must grow with |i - r|), got {e}")
    return [[_simplest(Rad.power(abs(i - r), e)) if i != r else fmpq(0) for r in range(n + 1)]
            for i in range(n + 1)]


def _simplest(v):
    """A :class:`Rad` as ``fmpq`` when it is rational."""
    v = to_rad(v)
    return v.rational() if v.is_rational() else v


def _loss_entry(v, what):
    if isinstance(v, (Rad, Lin)):
        return _simplest(v)
    return to_rational(v, what=what)


class User:
    """A prior over ``{0..n}`` and a monotone loss (validated exactly), the user of GRS12 Section 2.

    Parameters
    ----------
    prior : sequence of exact numbers
        The probabilities ``p_0 .. p_n`` (length ``n + 1``, ``n >= 1``), nonnegative, summing to exactly 1.
    loss : str or sequence of sequences
        ``"absolute"``, ``"squared"``, ``"binary"`` or an ``(n+1) x (n+1)`` table, nonnegative and
        nondecreasing in ``|i - r|`` for each ``i``.
    name : str, optional
        A label for messages (default: the loss's name).

    Raises
    ------
    InvalidInput
        If the prior is not a probability distribution on at least two points, or the loss is not
        a monotone nonnegative table of the right size.

    Examples
    --------
    >>> u = User(["1/4", "3/4"], "binary")
    >>> u, [str(p) for p in u.prior], u.n
    (<User n=1: binary loss>, ['1/4', '3/4'], 1)
    >>> User(["1/2", "1/3"], "absolute")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: prior: the probabilities sum to 5/6, expected exactly 1
    """

    def __init__(self, prior, loss, name: str | None = None):
        p = [to_rational(v, what=f"prior[{i}]") for i, v in enumerate(prior)]
        if len(p) < 2:
            raise InvalidInput(f"prior: expected probabilities for {{0..n}} with n >= 1, got {len(p)} value(s)")
        for i, v in enumerate(p):
            if v < 0:
                raise InvalidInput(f"prior: p[{i}] = {v} is negative; a prior is a probability distribution")
        s = sum(p, fmpq(0))
        if s != 1:
            raise InvalidInput(f"prior: the probabilities sum to {s}, expected exactly 1")
        n = len(p) - 1
        if isinstance(loss, str):
            L = loss_table(loss, n)
            lname = loss
        else:
            short = next((r for r in loss if len(r) != n + 1), None) if len(loss) == n + 1 else None
            if len(loss) != n + 1 or short is not None:
                got = f"{len(loss)} rows" if short is None else f"a row of {len(short)} entries"
                raise InvalidInput(f"loss: expected a {n + 1} x {n + 1} table to match the prior, got {got}")
            L = [[_loss_entry(v, f"loss[{i}][{r}]") for r, v in enumerate(row)] for i, row in enumerate(loss)]
            lname = "table"
        _check_monotone(L)
        self.prior, self.loss, self.n = p, L, n
        self.name = name or f"{lname} loss"

    @classmethod
    def uniform(cls, n: int, loss: str | list = "absolute") -> User:
        """Return the user with the uniform prior ``1/(n+1)`` on ``{0..n}`` and the given loss.

        Parameters
        ----------
        n : int
            The largest value (``n >= 1``).
        loss : str or sequence of sequences, optional
            As for :class:`User` (default ``"absolute"``).

        Returns
        -------
        User
            The user, named after its prior and loss.

        Examples
        --------
        >>> u = User.uniform(2, "squared")
        >>> u, [str(p) for p in u.prior]
        (<User n=2: uniform prior, squared loss>, ['1/3', '1/3', '1/3'])
        """
        kind = loss if isinstance(loss, str) else "table"
        return cls([fmpq(1, n + 1)] * (n + 1), loss, name=f"uniform prior, {kind} loss")

    def __repr__(self):
        return f"<User n={self.n}: {self.name}>"

    @property
    def rational(self) -> bool:
        """True if every loss value is rational (the rational LP applies); else the radical LP is used.

        Examples
        --------
        >>> User.uniform(2).rational, User([1, 0, 0], power_loss(2, "1/2")).rational
        (True, False)
        """
        return all(isinstance(v, fmpq) for row in self.loss for v in row)

    def to_json(self) -> dict:
        """Return the prior and the loss as exact text, the form of a user file.

        Returns
        -------
        dict
            ``{"probabilities": [...], "loss": [[...], ...]}``, every number a string.

        Examples
        --------
        >>> User(["1/4", "3/4"], "binary").to_json()
        {'probabilities': ['1/4', '3/4'], 'loss': [['0', '1'], ['1', '0']]}
        """
        return {"probabilities": [str(v) for v in self.prior], "loss": [[str(v) for v in r] for r in self.loss]}


def _check_monotone(L: list) -> None:
    n = len(L) - 1
    for i, row in enumerate(L):
        for r, v in enumerate(row):
            if (v.sign() if isinstance(v, Rad) else (v > 0) - (v < 0)) < 0:
                raise InvalidInput(f"loss: l({i}, {r}) = {v} is negative; losses are >= 0")
        by_dist: dict = {}
        for r in range(n + 1):
            by_dist.setdefault(abs(i - r), []).append(r)
        ds = sorted(by_dist)
        for d1, d2 in itertools.pairwise(ds):
            r1 = max(by_dist[d1], key=lambda r: row[r])
            r2 = min(by_dist[d2], key=lambda r: row[r])
            if row[r1] > row[r2]:
                raise InvalidInput(
                    f"loss: not nondecreasing in |i - r| for i = {i}: l({i}, {r1}) = {row[r1]} > "
                    f"l({i}, {r2}) = {row[r2]} although |{i} - {r1}| < |{i} - {r2}| (i = {i}, r = {r1}, r' = {r2})")


def expected_loss(mech: Mechanism, user: User) -> Any:
    """Return the user's expected loss under a mechanism, GRS12 (1): ``sum_i p_i sum_r K(i)(r) l(i, r)``, exactly.

    Parameters
    ----------
    mech : Mechanism
        A mechanism with inputs ``"0".."n"`` and outputs among them.
    user : User
        The prior and the loss on ``{0..n}``.

    Returns
    -------
    fmpq or exact number
        The expected loss (rational for a rational mechanism and loss).

    Raises
    ------
    InvalidInput
        If the mechanism's inputs are not ``0..n`` or an output lies outside.

    Examples
    --------
    Randomized response keeping the input with probability ``3/4``: the loss is 1 exactly when the
    answer flips, so the expected absolute loss is ``1/4`` for any prior.

    >>> from exactdp.mechanism import Mechanism
    >>> K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]])
    >>> expected_loss(K, User(["1/3", "2/3"], "absolute"))
    1/4
    """
    n = user.n
    want = tuple(str(i) for i in range(n + 1))
    if tuple(sorted(mech.inputs, key=_int_or)) != want or not set(mech.outputs) <= set(want):
        raise InvalidInput(f"expected loss: the mechanism must have inputs 0..{n} and outputs within 0..{n}, got "
                           f"{len(mech.inputs)} inputs and outputs {list(mech.outputs)[:6]}")
    total = fmpq(0)
    for i in range(n + 1):
        if user.prior[i] == 0:
            continue
        row = mech.row_index[str(i)]
        for j, z in enumerate(mech.outputs):
            lz = user.loss[i][int(z)]
            if lz != 0:
                total = total + user.prior[i] * mech[row, j] * lz
    return total


def _int_or(s):
    try:
        return (0, int(s))
    except ValueError:
        return (1, s)

