"""The exact law of a Python sampler: run its own code against an exploring source of randomness.

A sampler is a function ``f(rng, *args)`` that draws randomness only through ``rng.randrange(...)`` (the
:class:`random.Random` method that the CKS20 reference code and OpenDP's pseudocode use).  :func:`law` runs ``f``
again and again against an :class:`ExploringRandom` that replays a recorded prefix of choices and, at the first
choice beyond the prefix, stops the run and branches: a depth-first search over choice sequences, each path
carrying its exact probability (a :class:`fractions.Fraction`).  Re-execution replaces forking, which Python
cannot do cheaply for a running function; it is sound because a sampler that reads no other randomness is a
deterministic function of its draws (and a replay that sees a different choice than recorded is refused).

Three devices keep the search small (issue 30; docs/samplers.md):

* **Symbolic draws.** ``randrange(m)`` returns a :class:`Sym`, a uniform integer on an interval that is not yet
  fixed.  A comparison with a number splits the path into the two sub-intervals with their exact probabilities
  (``rng.randrange(d) < n`` is two branches, not ``d``); any other use (arithmetic, hashing, ``Fraction(u, t)``)
  fixes the value, one branch per remaining integer.
* **Summaries.** A function named in ``summarise`` (looked up in the sampler's module globals) is replaced, for
  the duration of the search, by a wrapper that explores the original function once per argument value and
  then draws from that summarised law: one branch per output value, plus a residual branch.  The summaries nest
  (a summarised function's own calls are summarised too) and are cached per argument value and type.
* **Bounded depth.** A path that needs more than ``depth`` choices, or whose probability falls below ``tol``,
  is abandoned and its probability goes into the residual.  Loops that retry or count converge geometrically,
  so the residual shrinks fast with the depth.

Every output value ``v`` found has mass ``m(v)``: the exact probability of the finished paths that return it.
The residual ``r`` is the exact probability of the abandoned paths, so the true probability lies in
``[m(v), m(v) + r]``.  A summarised call's residual branch is abandoned too, which keeps both ends sound.
"""

from __future__ import annotations

import numbers
import operator
import random as _random_module
import secrets as _secrets_module
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil, floor

from ..errors import InvalidInput

# ExploringRandom and Sym are what a sampler sees during a search, never built by a user
__all__ = ["Law", "SamplerError", "law"]


class SamplerError(InvalidInput):
    """A sampler that cannot be explored as written.

    Another source of randomness, a draw from an empty range, a run that differs on replay, an exception raised
    by the sampler, or a bad argument of :func:`law`.

    Examples
    --------
    >>> law(lambda rng: rng.randrange(0))
    Traceback (most recent call last):
    ...
    exactdp.samplers.explore.SamplerError: rng.randrange: a draw from an empty range (m = 0 < 1): range(0, 0, 1)
    """


class _Branch(BaseException):
    """A run reached a choice beyond its prefix.  A BaseException, so that a sampler's ``except Exception``
    cannot swallow it."""

    def __init__(self, alts, residual):
        super().__init__()
        self.alts = alts
        self.residual = residual


class _Cut(BaseException):
    """A run needs a choice beyond the depth bound: its path is abandoned into the residual."""


#: the most randrange calls and choices of one run (trivial ones included) before it is abandoned
_MAX_CALLS = 100_000
_ONE = Fraction(1)
_ZERO = Fraction(0)


class ExploringRandom:
    """The source of randomness a sampler sees during :func:`law`: ``randrange`` and nothing else.

    It replays ``prefix`` (a tuple of ``(index, (number of alternatives, first probability))``) and raises an
    internal branching signal at the first choice beyond it.  Every other attribute (``random``, ``randint``,
    ``getrandbits``, ...)
    raises :class:`SamplerError`: its law is not explored, so it must not be used.

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> law(lambda rng: rng.randrange(6) < 2).masses
    {True: Fraction(1, 3), False: Fraction(2, 3)}
    """

    __slots__ = ("_calls", "_depth", "_pos", "_prefix")

    def __init__(self, prefix: tuple = (), depth: int = 64):
        self._prefix = prefix
        self._pos = 0
        self._depth = depth
        self._calls = 0

    def _choose(self, alts: Sequence, residual: Fraction = _ZERO):
        """One choice among ``alts`` (``(probability, value)`` pairs, probabilities > 0) and an abandoned branch
        of probability ``residual``; the probabilities sum to 1."""
        self._calls += 1  # trivial choices too: a loop of them makes no branch and could run forever
        if self._calls > _MAX_CALLS:
            raise _Cut
        if len(alts) == 1 and not residual:
            return alts[0][1]
        pos = self._pos
        if pos < len(self._prefix):
            i, sig = self._prefix[pos]
            if sig != (len(alts), alts[0][0]):
                raise SamplerError("the sampler made a different choice on replay: it is not a function of its "
                                   "rng.randrange draws (another source of randomness, or state kept between runs)")
            self._pos = pos + 1
            return alts[i][1]
        if pos >= self._depth:
            raise _Cut
        raise _Branch(alts, residual)

    def randrange(self, start, stop=None, step=1):
        """A uniform integer of ``range(start, stop, step)``; with one argument, of ``range(start)``.

        The value is a :class:`Sym` while only comparisons use it.
        """
        # a loop that draws only from one-element ranges makes no choice and could run forever: a run that
        # calls randrange this often is abandoned into the residual (always sound)
        self._calls += 1
        if self._calls > _MAX_CALLS:
            raise _Cut
        if stop is None:
            start, stop = 0, start
        try:
            start, stop, step = operator.index(start), operator.index(stop), operator.index(step)
        except TypeError:
            raise SamplerError(f"rng.randrange({start!r}, {stop!r}, {step!r}): the arguments must be integers") \
                from None
        r = range(start, stop, step)
        if len(r) < 1:
            raise SamplerError(f"rng.randrange: a draw from an empty range (m = {len(r)} < 1): "
                               f"range({start}, {stop}, {step})")
        if len(r) == 1:
            return r[0]
        if step == 1:
            return Sym(self, start, stop)
        p = Fraction(1, len(r))
        return self._choose([(p, v) for v in r])

    def __getattr__(self, name):
        raise SamplerError(f"the sampler calls rng.{name}: only rng.randrange is explored (its law would be "
                           "guessed otherwise)")


class Sym:
    """A uniform integer of ``[lo, hi)`` whose value is not fixed yet.

    A comparison with a number splits the path into the sub-intervals where it is true and false, with their
    exact probabilities; any other use fixes the value (one branch per integer left).  It is registered as a
    :class:`numbers.Integral`, so ``Fraction(u, t)`` works (and fixes ``u``).

    Examples
    --------
    >>> from exactdp.samplers import law
    >>> law(lambda rng: rng.randrange(10) >= 7).paths   # two branches, not ten
    3
    >>> law(lambda rng: rng.randrange(4) % 2).masses     # arithmetic: one branch per value
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    """

    __slots__ = ("_hi", "_lo", "_rng", "_value")

    def __init__(self, rng: ExploringRandom, lo: int, hi: int):
        self._rng, self._lo, self._hi = rng, lo, hi
        self._value: int | None = None

    def _fix(self) -> int:
        if self._value is None:
            lo, hi = self._lo, self._hi
            p = Fraction(1, hi - lo)
            self._value = value = self._rng._choose([(p, v) for v in range(lo, hi)])
            return value
        return self._value

    def _split(self, c: int) -> bool:
        """Whether the value is below ``c``: two branches when ``c`` cuts ``[lo, hi)``."""
        lo, hi = self._lo, self._hi
        if c <= lo:
            return False
        if c >= hi:
            return True
        n = hi - lo
        below = self._rng._choose([(Fraction(c - lo, n), True), (Fraction(hi - c, n), False)])
        if below:
            self._hi = c
        else:
            self._lo = c
        if self._hi - self._lo == 1:
            self._value = self._lo
        return below

    @staticmethod
    def _threshold(other):
        """``other`` as an exact rational, or None (then the value is fixed and the comparison delegated)."""
        if isinstance(other, bool | int):
            return Fraction(int(other))
        if isinstance(other, Fraction):
            return other
        if isinstance(other, float) and other == other and abs(other) != float("inf"):
            return Fraction(other)
        return None

    def _compare(self, other, op):
        if self._value is not None:
            return op(self._value, other)
        q = self._threshold(other)
        if q is None:
            return op(self._fix(), other._fix() if isinstance(other, Sym) else other)
        if op is operator.lt:
            return self._split(ceil(q))
        if op is operator.le:
            return self._split(floor(q) + 1)
        if op is operator.gt:
            return not self._split(floor(q) + 1)
        if op is operator.ge:
            return not self._split(ceil(q))
        # == and !=: the point q splits [lo, hi) into two intervals only at an end
        eq = op is operator.eq
        if q.denominator != 1 or not self._lo <= q < self._hi:
            return not eq
        k = int(q)
        if k == self._lo:
            return self._split(k + 1) == eq
        if k == self._hi - 1:
            return self._split(k) != eq
        return op(self._fix(), k)

    def __lt__(self, o):
        return self._compare(o, operator.lt)

    def __le__(self, o):
        return self._compare(o, operator.le)

    def __gt__(self, o):
        return self._compare(o, operator.gt)

    def __ge__(self, o):
        return self._compare(o, operator.ge)

    def __eq__(self, o):
        return self._compare(o, operator.eq)

    def __ne__(self, o):
        return self._compare(o, operator.ne)

    def __bool__(self):
        return self._compare(0, operator.ne)

    def __hash__(self):
        return hash(self._fix())

    def __repr__(self):
        if self._value is not None:
            return repr(self._value)
        return f"Sym[{self._lo}, {self._hi})"

    # every other use fixes the value
    def __index__(self):
        return self._fix()

    __int__ = __index__

    def __float__(self):
        return float(self._fix())

    def __str__(self):
        return str(self._fix())

    def __format__(self, spec):
        return format(self._fix(), spec)

    @property
    def numerator(self):
        return self._fix()

    @property
    def denominator(self):
        return 1

    @property
    def real(self):
        return self._fix()

    @property
    def imag(self):
        return 0

    def conjugate(self):
        return self._fix()

    def bit_length(self):
        return self._fix().bit_length()

    def __neg__(self):
        return -self._fix()

    def __pos__(self):
        return self._fix()

    def __abs__(self):
        return abs(self._fix())

    def __invert__(self):
        return ~self._fix()

    def __trunc__(self):
        return self._fix()

    __floor__ = __ceil__ = __trunc__

    def __round__(self, ndigits=None):
        return round(self._fix(), ndigits) if ndigits is not None else self._fix()


def _binary(name):
    op = getattr(operator, name)

    def forward(self, other):
        return op(self._fix(), other._fix() if isinstance(other, Sym) else other)

    def reflected(self, other):
        return op(other, self._fix())

    return forward, reflected


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift"):
    _fwd, _ref = _binary(_name + "_" if _name in ("and", "or") else _name)
    setattr(Sym, f"__{_name}__", _fwd)
    setattr(Sym, f"__r{_name}__", _ref)
Sym.__divmod__ = lambda self, o: divmod(self._fix(), o._fix() if isinstance(o, Sym) else o)  # type: ignore
Sym.__rdivmod__ = lambda self, o: divmod(o, self._fix())  # type: ignore
numbers.Integral.register(Sym)


def _settle(v):
    """A returned value with every :class:`Sym` in it fixed (an output must be a plain hashable value)."""
    if isinstance(v, Sym):
        return v._fix()
    if isinstance(v, tuple):
        return tuple(_settle(x) for x in v)
    return v


@dataclass(frozen=True)
class Law:
    """The explored law of a sampler: exact masses of the values found, and the residual.

    Parameters
    ----------
    masses : dict
        Output value -> the exact probability of the finished paths returning it (a lower bound of its
        probability).
    residual : Fraction
        The exact probability of the abandoned paths: every probability is at most its mass plus this.
    paths : int
        The number of runs of the sampler's code (the top level; summaries counted in ``summary_paths``).
    summary_paths : int
        The runs spent computing the summaries.
    summaries : int
        The number of (function, arguments) summaries computed.
    found : Fraction
        The total mass found (one minus the residual).

    Examples
    --------
    >>> L = law(lambda rng: rng.randrange(3) == 0)
    >>> L.masses[True], L.residual, L.paths
    (Fraction(1, 3), Fraction(0, 1), 3)
    """

    masses: dict
    residual: Fraction
    paths: int = 0
    summary_paths: int = 0
    summaries: int = 0
    found: Fraction = field(default=_ZERO)

    def interval(self, value) -> tuple[Fraction, Fraction]:
        """The exact enclosure ``[lo, hi]`` of the probability of ``value``.

        Parameters
        ----------
        value : hashable
            An output value.

        Returns
        -------
        (Fraction, Fraction)
            Its mass found and that plus the residual.

        Examples
        --------
        >>> from exactdp.samplers import law
        >>> law(lambda rng: rng.randrange(3)).interval(5)
        (Fraction(0, 1), Fraction(0, 1))
        """
        lo = self.masses.get(value, _ZERO)
        return lo, lo + self.residual

    def mass_outside(self, lo: int, hi: int) -> Fraction:
        """The mass found on values that are not integers of ``[lo, hi]``.

        Parameters
        ----------
        lo, hi : int
            The range.

        Returns
        -------
        Fraction
            The exact mass found outside it.

        Examples
        --------
        >>> law(lambda rng: rng.randrange(4)).mass_outside(0, 2)
        Fraction(1, 4)
        """
        return sum((m for v, m in self.masses.items()
                    if not (isinstance(v, int) and lo <= v <= hi)), _ZERO)


class _Search:
    """One search: the summaries' cache and the counters, shared by the nested explorations.

    With ``bits`` set, path probabilities are kept as integers ``N`` meaning ``N / 2**bits``, each product
    rounded down: every mass is then a lower bound of the exact one, and since the residual is computed as one
    minus the total mass found, the enclosures stay sound (the rounding only widens them, by at most one unit
    of ``2**-bits`` per run).  Without ``bits`` every probability is an exact :class:`fractions.Fraction`.
    """

    def __init__(self, depth: int, tol: Fraction | None, max_paths: int, bits: int | None):
        self.depth, self.tol, self.max_paths, self.bits = depth, tol, max_paths, bits
        self.one = _ONE if bits is None else 1 << bits
        self.tol_n = None if tol is None else (tol if bits is None else floor(tol * self.one))
        self.cache: dict = {}
        self.busy: set = set()
        self.summary_paths = 0

    def explore(self, run: Callable) -> tuple[dict, int]:
        """Depth-first search over the choice sequences of ``run(rng)``: (masses as exact lower bounds in the
        search's unit, runs)."""
        depth, tol, max_paths, exact = self.depth, self.tol_n, self.max_paths, self.bits is None
        masses: dict = {}
        runs = 0
        stack: list = [((), self.one)]
        while stack:
            prefix, p = stack.pop()
            if runs >= max_paths:
                continue
            runs += 1
            rng = ExploringRandom(prefix, depth)
            try:
                v = _settle(run(rng))
            except _Branch as b:
                n = len(b.alts)
                sig = (n, b.alts[0][0])  # replay checks that the same choice comes back
                for i in range(n - 1, -1, -1):
                    w = b.alts[i][0]
                    q = p * w if exact else (p * w.numerator) // w.denominator
                    if q and (tol is None or q >= tol):
                        stack.append(((*prefix, (i, sig)), q))
                continue
            except _Cut:
                continue
            except SamplerError:
                raise
            except Exception as e:  # the sampler's own failure on this path: named, never hidden
                raise SamplerError(f"the sampler raised {type(e).__name__}: {e} (after the choices "
                                   f"{[i for i, _ in prefix]})") from e
            try:
                masses[v] = masses.get(v, 0) + p
            except TypeError:
                raise SamplerError(f"the sampler returned an unhashable value {v!r}") from None
        return masses, runs

    def fractions(self, masses: dict) -> dict:
        """The masses as exact Fractions."""
        if self.bits is None:
            return masses
        return {v: Fraction(m, self.one) for v, m in masses.items()}

    def summary(self, name: str, original: Callable, a: tuple, kw: dict, rng_pos):
        """The summarised law of ``original`` at these arguments: (alternatives, residual), cached."""
        try:
            key = (name, tuple((type(x), _settle(x)) for i, x in enumerate(a) if i != rng_pos),
                   tuple(sorted((k, type(x), _settle(x)) for k, x in kw.items() if k != rng_pos)))
            hash(key)
        except TypeError:
            return None
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        if key in self.busy:  # a recursive call: explored inline, not summarised
            return None
        self.busy.add(key)
        try:
            def run(rng):
                if isinstance(rng_pos, int):
                    args = list(a)
                    args[rng_pos] = rng
                    return original(*args, **kw)
                return original(*a, **{**kw, rng_pos: rng})
            masses, runs = self.explore(run)
        finally:
            self.busy.discard(key)
        self.summary_paths += runs
        masses = self.fractions(masses)
        found = sum(masses.values(), _ZERO)
        hit = ([(m, v) for v, m in masses.items() if m], _ONE - found)
        self.cache[key] = hit
        return hit


def _wrapper(search: _Search, name: str, original: Callable) -> Callable:
    def summarised(*a, **kw):
        rng: ExploringRandom | None = None
        pos: int | str | None = None
        for i, x in enumerate(a):
            if isinstance(x, ExploringRandom):
                rng, pos = x, i
                break
        else:
            for k, x in kw.items():
                if isinstance(x, ExploringRandom):
                    rng, pos = x, k
                    break
        if rng is None:  # called without the source of randomness: a plain helper
            return original(*a, **kw)
        hit = search.summary(name, original, a, kw, pos)
        if hit is None:
            return original(*a, **kw)
        alts, residual = hit
        if not alts:  # nothing finished within the depth: the whole call is residual
            raise _Cut
        return rng._choose(alts, residual)

    summarised.__wrapped__ = original  # type: ignore[attr-defined]
    return summarised


_RANDOM_NAMES = ("random", "randrange", "randint", "choice", "choices", "shuffle", "sample", "uniform",
                 "getrandbits", "randbytes", "gauss", "normalvariate", "lognormvariate", "expovariate",
                 "vonmisesvariate", "gammavariate", "betavariate", "paretovariate", "weibullvariate", "triangular",
                 "binomialvariate")
_SECRETS_NAMES = ("randbelow", "randbits", "choice", "token_bytes", "token_hex", "token_urlsafe")


def _forbidden(where: str) -> Callable:
    def refuse(*a, **kw):
        raise SamplerError(f"the sampler calls {where}: only rng.randrange is explored (its law would be guessed "
                           "otherwise)")
    return refuse


class _Patched:
    """Summaries wrapped into the sampler's globals, and the random and secrets modules refused, for one search;
    everything is restored afterwards."""

    def __init__(self, func: Callable, names: Sequence[str], search: _Search):
        self.g = getattr(func, "__globals__", None)
        self.names, self.search = list(names), search
        self.saved: list = []

    def _set(self, obj, attr, value):
        if isinstance(obj, dict):
            self.saved.append((obj, attr, obj[attr]))
            obj[attr] = value
        else:
            self.saved.append((obj, attr, getattr(obj, attr)))
            setattr(obj, attr, value)

    def __enter__(self):
        if self.names and self.g is None:
            raise SamplerError("summarise needs a Python function (its module globals hold the names)")
        try:
            originals = {}
            for mod, names in ((_random_module, _RANDOM_NAMES), (_secrets_module, _SECRETS_NAMES)):
                for n in names:
                    if hasattr(mod, n):
                        orig = getattr(mod, n)
                        stub = _forbidden(f"{mod.__name__}.{n}")
                        originals[id(orig)] = stub
                        self._set(mod, n, stub)
            if self.g is not None:
                for k, v in list(self.g.items()):  # `from random import random` in the sampler's module
                    if id(v) in originals and callable(v):
                        self._set(self.g, k, originals[id(v)])
            for n in self.names:
                if self.g is None or n not in self.g or not callable(self.g[n]):
                    raise SamplerError(f"summarise: {n!r} is not a function of the sampler's module")
                self._set(self.g, n, _wrapper(self.search, n, self.g[n]))
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        for obj, attr, value in reversed(self.saved):
            if isinstance(obj, dict):
                obj[attr] = value
            else:
                setattr(obj, attr, value)
        self.saved.clear()


def _fraction(x, what: str) -> Fraction:
    if isinstance(x, float):
        raise SamplerError(f"{what} must be exact (an int or a Fraction), not the float {x!r}")
    try:
        return Fraction(x)
    except (TypeError, ValueError):
        raise SamplerError(f"{what} must be an exact rational, not {x!r}") from None


def law(func: Callable, args: Sequence = (), *, summarise: Sequence[str] = (), depth: int = 64,
        tol=None, max_paths: int = 1_000_000, bits: int | None = None) -> Law:
    """The exact law of the sampler ``func(rng, *args)``, explored to a bounded depth.

    Parameters
    ----------
    func : callable
        The sampler, called as ``func(rng, *args)``; it must draw only through ``rng.randrange``.
    args : sequence
        Its further arguments (exact: ints and :class:`fractions.Fraction`).
    summarise : sequence of str
        Names of functions of ``func``'s module whose law is computed once per argument value and then drawn
        from (one branch per output value).  A function is found by its name in the module globals, so the
        sampler must call it by that name.
    depth : int
        The most choices (draws, splits, summarised calls) a path may take; longer paths go into the residual.
    tol : Fraction, optional
        A path whose probability falls below ``tol`` is abandoned into the residual.
    max_paths : int
        The most runs per exploration; the paths not run by then go into the residual.
    bits : int, optional
        Keep each path probability as a multiple of ``2**-bits``, rounded down (fast; the masses are then exact
        dyadic lower bounds and the enclosures stay sound, at most one unit wider per run).  None (the default)
        keeps every probability exact.

    Returns
    -------
    Law
        Exact masses of every output value found and the exact residual.

    Raises
    ------
    SamplerError
        Another source of randomness (``random.random``, ``rng.getrandbits``, ...), a draw from an empty range,
        a run that differs on replay, an exception raised by the sampler, a bad argument.

    Notes
    -----
    Soundness: the runs are the sampler's own code; each finished path's probability is the product of its
    choices' exact probabilities; a summarised call draws output ``v`` with the exact mass found for it and
    abandons the path with the summary's residual, so its output probabilities are under-approximated by at
    most that residual.  Hence each value's true probability lies in ``[mass, mass + residual]``
    (Canonne, Kamath, Steinke 2020 give the samplers tested with this; issue 30).

    Examples
    --------
    Bernoulli(1/3) by a comparison, as in CKS20's Algorithm 1:

    >>> from fractions import Fraction
    >>> def bernoulli(rng, p):
    ...     return rng.randrange(p.denominator) < p.numerator
    >>> L = law(bernoulli, [Fraction(1, 3)])
    >>> L.masses[True], L.residual
    (Fraction(1, 3), Fraction(0, 1))

    A loop: the number of failures before a success of Bernoulli(1/2), cut at depth 10:

    >>> def geometric(rng):
    ...     k = 0
    ...     while rng.randrange(2):
    ...         k += 1
    ...     return k
    >>> L = law(geometric, depth=10)
    >>> L.masses[3], L.residual
    (Fraction(1, 16), Fraction(1, 1024))
    """
    if not callable(func):
        raise SamplerError(f"the sampler must be a function, not {func!r}")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise SamplerError(f"depth must be a non-negative integer, not {depth!r}")
    if isinstance(max_paths, bool) or not isinstance(max_paths, int) or max_paths < 1:
        raise SamplerError(f"max_paths must be a positive integer, not {max_paths!r}")
    if tol is not None:
        tol = _fraction(tol, "tol")
        if not 0 <= tol < 1:
            raise SamplerError(f"tol must lie in [0, 1), not {tol}")
    if bits is not None and (isinstance(bits, bool) or not isinstance(bits, int) or not 16 <= bits <= 100_000):
        raise SamplerError(f"bits must be an integer in [16, 100000] or None, not {bits!r}")
    if isinstance(summarise, str):
        summarise = [s for s in summarise.split(",") if s]
    args = tuple(args)
    search = _Search(depth, tol, max_paths, bits)
    with _Patched(func, summarise, search):
        masses, runs = search.explore(lambda rng: func(rng, *args))
    masses = search.fractions(masses)
    found = sum(masses.values(), _ZERO)
    # the residual is one minus the mass found: every abandoned path (depth, tol, max_paths, a summary's own
    # residual) and every rounding of a lower bound is in it, and hi = lo + residual is sound because the true
    # probabilities of the other values are at least their masses
    return Law(masses=masses, residual=_ONE - found, paths=runs, summary_paths=search.summary_paths,
               summaries=len(search.cache), found=found)
