"""Programs that only look at noisy linear queries: the discrete Laplace bound and post-processing (issue 28).

Give every noise the program may draw a name ``k = (site, iteration)`` -- the ``site``-th noise assignment of the
text (in reading order) in the loop's ``iteration`` (0 outside the loop) -- and pair it with an integer linear form
``L_k`` of the inputs; write ``Y_k = L_k(x) + Z_k``.  Run the program with the inputs as unknowns: every value is
``A.x + sum_k B_k Z_k + c``.  If every value the program *observes* -- each comparison (its two sides subtracted)
that involves the inputs or noise, and each released number -- satisfies

    A = sum_k B_k L_k,            so that the value is  sum_k B_k Y_k + c,

then the path taken and the outputs are a function of ``Y`` alone, and the program is a post-processing of the
release of ``Y`` (Dwork and Roth 2014, Prop. 2.1): drawing every possible noise in advance does not change the
law, since each is drawn at most once, independently.  ``Y`` is the discrete Laplace mechanism on the linear
queries ``L_k``: for ``Z_k ~ DLap(b_k/eps)``, ``P(Z_k = y - L_k x) / P(Z_k = y - L_k x') <= e^(eps |L_k d| / b_k)``
with ``d = x - x'`` (triangle inequality; Dwork and Roth Thm. 3.6 in its discrete form), and for a one-sided
``Geo`` the supports agree only if ``L_k d = 0``.  Hence, if for every neighbour pair

    S(d) = sum_k |L_k d| / b_k <= 1     (and L_k d = 0 for every one-sided noise),

the program is eps-DP for every eps > 0.  Only this direction is claimed: a larger ``S`` proves nothing (the
program's own outputs may lose more than ``Y`` does not), and such programs take the compiled route.

``prefix_sum`` (``L`` of each ``eta_i`` is ``q_i``: ``S = 1`` on ``one-differ``) and ``smart_sum`` (``q_i`` in
two noisy sums of scale 2: ``S = 1/2 + 1/2``) are private for every eps at any ``n`` this way, without the
``15^n`` outputs of their matrices.

>>> from exactdp.programs import parse_program
>>> p = parse_program("s = 0\\nfor i:\\n  z = dlap(1)\\n  s = s + q + z\\n  output clamp(s, -2, 2)\\nend\\n")
>>> f = linear_form(p, 3, (0, 2), "one-differ")
>>> sorted(f.forms.items()), f.bound
([((0, 1), (1, 0, 0)), ((0, 2), (0, 1, 0)), ((0, 3), (0, 0, 1))], Fraction(1, 1))
>>> linear_form(p, 3, (0, 2), "all-differ").bound
Fraction(3, 1)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .language import Assign, BinOp, For, If, Noise, Num, Output, Program, Query, Stop, Var

__all__ = ["LinearForm", "linear_form", "noise_sites"]

#: most paths explored (a comparison on noise forks both ways); beyond, the lemma is not tried
MAX_PATHS = 4096
#: most coefficient operations spent on the run and on the elimination (estimated before it); beyond, the lemma is
#: not tried (the kernel has the same kind of bound): 12 noisy branches before a running sum at n = 100 are 4,096
#: paths of 100 iterations over values of 100 coefficients
MAX_WORK = 2_000_000


@dataclass(frozen=True)
class LinearForm:
    """The noisy linear queries of a program and the bound they give.

    Parameters
    ----------
    forms : dict
        ``(site, iteration)`` -> the integer coefficients of ``L_k`` on ``q_1..q_n`` (only non-zero forms).
    scales : dict
        ``(site, iteration)`` -> ``(kind, b)`` of every noise the program may draw.
    bound : Fraction
        ``max S(d)`` over the relation's pairs (``inf`` as None when a one-sided noise is shifted).

    Examples
    --------
    >>> LinearForm({(0, 1): (1,)}, {(0, 1): ("dlap", Fraction(1))}, Fraction(1)).private
    True
    """

    forms: dict
    scales: dict
    bound: Fraction | None

    @property
    def private(self) -> bool:
        """``S(d) <= 1`` on every pair: eps-DP for every eps.

        Returns
        -------
        bool
            Whether the bound proves privacy.

        Examples
        --------
        >>> LinearForm({}, {}, None).private, LinearForm({}, {}, Fraction(3, 2)).private
        (False, False)
        """
        return self.bound is not None and self.bound <= 1


class _Out(Exception):
    """The lemma does not apply to this program (a value not of the form, argmax/max, too many paths)."""


def noise_sites(program: Program) -> dict:
    """Each noise assignment of the text -> its site number (reading order: then-branch before else-branch).

    Parameters
    ----------
    program : Program
        A parsed program.

    Returns
    -------
    dict
        ``id(node)`` -> site.

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> len(noise_sites(parse_program("a = dlap(1)\\nfor i:\\n  b = geo(2)\\nend\\noutput 1\\n")))
    2
    """
    sites: dict = {}

    def walk(stmts):
        for s in stmts:
            if isinstance(s, Assign) and isinstance(s.value, Noise):
                sites[id(s)] = len(sites)
            elif isinstance(s, If):
                walk(s.then)
                walk(s.orelse)
            elif isinstance(s, For):
                walk(s.body)

    walk(program.body)
    return sites


# a value: (A, B, c) with A a tuple of n ints (the inputs' coefficients), B a dict noise -> int, c an int
def _const(c: int, n: int):
    return (0,) * n, {}, c


#: largest magnitude of a coefficient or constant followed (the compiler's bound too): a text squaring a constant
#: again and again is not followed
MAX_VALUE = 2**62


def _small(v):
    if any(abs(t) > MAX_VALUE for t in (*v[0], *v[1].values(), v[2])):
        raise _Out(f"a value beyond {MAX_VALUE} in magnitude")
    return v


def _plus(u, v, s: int = 1):
    B = dict(u[1])
    for k, c in v[1].items():
        B[k] = B.get(k, 0) + s * c
    return tuple(a + s * b for a, b in zip(u[0], v[0], strict=True)), {k: c for k, c in B.items() if c}, u[2] + s * v[2]


def _data_free(v) -> bool:
    return not any(v[0]) and not v[1]


class _Walk:
    """Runs the program with the inputs and the noises as unknowns, forking on comparisons that involve them."""

    def __init__(self, program: Program, n: int):
        self.n, self.sites = n, noise_sites(program)
        self.work = 0
        self.observed: list = []
        self.scales: dict = {}

    def ev(self, e, env, i):
        n = self.n
        if isinstance(e, Num):
            return _const(e.value, n)
        if isinstance(e, Var):
            if e.name == "n":
                return _const(n, n)
            if e.name == "i" and i:
                return _const(i, n)
            if e.name not in env:
                raise _Out(f"{e.name!r} read before it is set")
            return env[e.name]
        if isinstance(e, Query):
            if e.index is None:
                j = i
            else:
                k = self.ev(e.index, env, i)
                j = k[2] if _data_free(k) else 0
            if not 1 <= j <= n:
                raise _Out("a query outside 1..n")
            return tuple(int(t == j - 1) for t in range(n)), {}, 0
        if isinstance(e, BinOp):
            a, b = self.ev(e.left, env, i), self.ev(e.right, env, i)
            self.spend(len(a[0]) + len(a[1]) + len(b[1]))
            if e.op in "+-":
                return _small(_plus(a, b, 1 if e.op == "+" else -1))
            if not _data_free(a) and not _data_free(b):
                raise _Out("a product of two unknowns")
            k, v = (a[2], b) if _data_free(a) else (b[2], a)
            return _small((tuple(k * t for t in v[0]), {z: k * c for z, c in v[1].items() if k * c}, k * v[2]))
        raise _Out(f"a {type(e).__name__} in an expression")

    def spend(self, k: int) -> None:
        """Count ``k`` coefficient operations against :data:`MAX_WORK`."""
        self.work += k
        if self.work > MAX_WORK:
            raise _Out(f"more than {MAX_WORK} coefficient operations")

    def block(self, stmts, states, i):
        """Run ``stmts`` on every ``(env, stopped)`` state; the states after them."""
        for s in stmts:
            nxt = []
            for env, stopped in states:
                if stopped:
                    nxt.append((env, stopped))
                else:
                    nxt.extend(self.stmt(s, env, i))
            states = nxt
            if len(states) > MAX_PATHS:
                raise _Out(f"more than {MAX_PATHS} paths")
        return states

    def stmt(self, s, env, i):
        if isinstance(s, Assign):
            if isinstance(s.value, Noise):
                if s.value.per_eps:
                    raise _Out("a noise of scale proportional to eps")
                k = (self.sites[id(s)], i)
                self.scales[k] = (s.value.kind, s.value.scale)
                return [({**env, s.name: ((0,) * self.n, {k: 1}, 0)}, False)]
            return [({**env, s.name: self.ev(s.value, env, i)}, False)]
        if isinstance(s, If):
            a, b = self.ev(s.cond.left, env, i), self.ev(s.cond.right, env, i)
            self.spend(len(a[0]) + len(a[1]) + len(b[1]))
            d = _plus(a, b, -1)
            if _data_free(d):
                taken = _holds(s.cond.op, d[2])
                return self.block(s.then if taken else s.orelse, [(env, False)], i)
            self.observed.append(d)
            return self.block(s.then, [(env, False)], i) + self.block(s.orelse, [(env, False)], i)
        if isinstance(s, Output):
            if s.kind in ("argmax", "max"):
                raise _Out(f"an {s.kind} output")
            if s.kind != "symbol":
                v = self.ev(s.value, env, i)
                if not _data_free(v):
                    self.observed.append(v)
            return [(env, False)]
        if isinstance(s, Stop):
            return [(env, True)]
        if isinstance(s, For):
            states = [(env, False)]
            for it in range(1, self.n + 1):
                states = self.block(s.body, states, it)
            return states
        raise _Out(f"a {type(s).__name__}")


def _holds(op: str, c: int) -> bool:
    return {">=": c >= 0, ">": c > 0, "==": c == 0, "!=": c != 0, "<=": c <= 0, "<": c < 0}[op]


def _solve(observed: list, n: int) -> dict | None:
    """Integer forms ``L_k`` with ``A = sum_k B_k L_k`` for every observed value, or None.

    One Gaussian elimination over the rationals with the ``n`` inputs' coefficients as right-hand sides, the latest
    noise first as pivot and free unknowns 0 (any solution is sound; this choice puts a comparison's difference on
    the noise drawn for it rather than on a shared one); no solution, or one that is not integral, gives None."""
    noises = sorted({k for _, B, _ in observed for k in B}, key=lambda k: (k[1], k[0]), reverse=True)
    m = len(noises)
    rows = [[Fraction(B.get(k, 0)) for k in noises] + [Fraction(a) for a in A] for A, B, _ in observed]
    piv: list = []
    r = 0
    for c in range(m):
        p = next((t for t in range(r, len(rows)) if rows[t][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        lead = rows[r][c]
        rows[r] = [v / lead for v in rows[r]]
        for t in range(len(rows)):
            if t != r and rows[t][c] != 0:
                f = rows[t][c]
                rows[t] = [a - f * b for a, b in zip(rows[t], rows[r], strict=True)]
        piv.append(c)
        r += 1
    if any(any(row[m:]) for row in rows[r:]):
        return None                                        # no solution: a value that is not of the form
    forms = {k: [0] * n for k in noises}
    for t, c in enumerate(piv):
        if any(v.denominator != 1 for v in rows[t][m:]):
            return None
        forms[noises[c]] = [int(v) for v in rows[t][m:]]
    return {k: tuple(v) for k, v in forms.items() if any(v)}


def _differences(relation: Any, n: int, domain: tuple[int, int]):
    """The differences ``d = x - x'`` of the relation's pairs, up to sign (one-differ, all-differ and monotone
    without enumerating inputs: every sign pattern the domain allows)."""
    lo, hi = domain
    if hi <= lo:
        return []
    if not isinstance(relation, str):
        return [tuple(a - b for a, b in zip(x, y, strict=True)) for x, y in relation]
    if relation == "one-differ":
        return [tuple(int(t == j) for t in range(n)) for j in range(n)]
    steps = (-1, 0, 1) if relation == "all-differ" else (0, 1)
    return [d for d in itertools.product(steps, repeat=n) if any(d)]


def linear_form(program: Program, n: int, domain: tuple[int, int], relation: Any) -> LinearForm | None:
    """The noisy linear queries of ``program`` at ``n`` and their bound ``max S(d)`` on the relation, or None.

    Parameters
    ----------
    program : Program
        A parsed program (no noise proportional to eps).
    n : int
        Number of queries.
    domain : (int, int)
        ``(lo, hi)``.
    relation : str or list
        A named relation or the explicit pairs (tuples).

    Returns
    -------
    LinearForm or None
        None when some observed value is not a combination of noisy linear queries with integer forms, the
        program releases an argmax/max, reads a name before setting it, or forks into more than
        :data:`MAX_PATHS` paths; all-differ and the monotone relations are tried up to ``n = 10``.

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> svt = parse_program("rho = dlap(2)\\nfor i:\\n  nu = dlap(4)\\n  if q + nu >= 1 + rho:\\n    output \\"T\\"\\n"
    ...                     "    stop\\n  else:\\n    output \\"F\\"\\n  end\\nend\\n")
    >>> f = linear_form(svt, 3, (0, 2), "all-differ")
    >>> f.forms[(1, 2)], f.bound
    ((0, 1, 0), Fraction(3, 4))
    """
    if isinstance(relation, str) and relation != "one-differ" and n > 10:
        return None                      # 3^n differences: not tried beyond n = 10
    walk = _Walk(program, n)
    try:
        walk.block(program.body, [({}, False)], 0)
    except _Out:
        return None
    distinct = {(v[0], tuple(sorted(v[1].items()))): v for v in walk.observed}     # the same value on many paths
    rows, cols = len(distinct), len({k for v in distinct.values() for k in v[1]})
    if rows * min(rows, cols) * (cols + n) > MAX_WORK:          # the elimination's row operations
        return None
    forms = _solve(list(distinct.values()), n)
    if forms is None:
        return None
    bound = Fraction(0)
    for d in _differences(relation, n, domain):
        s = Fraction(0)
        for k, (kind, b) in walk.scales.items():
            shift = sum(c * t for c, t in zip(forms.get(k, (0,) * n), d, strict=True))
            if shift and kind == "geo":
                return LinearForm(forms, walk.scales, None)
            s += Fraction(abs(shift)) / b
        bound = max(bound, s)
    return LinearForm(forms, walk.scales, bound)
