"""An independent exact evaluator of noise programs for the tests (issue 28): concrete runs, fractions, bounds.

It shares only the parser with exactdp.programs.  Every run is a concrete execution on concrete noise values;
the noise values are enumerated depth first in a window ``[-W, W]`` (``[0, W]`` for one-sided noise) at a
rational base ``t``, each run weighted exactly by ``prod P(Z = z)`` with ``P`` written from its definition.  The
mass of every noise value left outside its window is added up exactly, so for every output ``z`` the true
probability lies in ``[low[z], low[z] + lost]`` -- a truncated-sum bound, never an estimate.
"""

from fractions import Fraction

from exactdp.programs.language import Assign, For, If, Noise, Num, Output, Query, Stop, Var
import contextlib


class _Need(Exception):
    def __init__(self, noise):
        self.noise = noise


class _Stop(Exception):
    pass


def _weight(kind, a, z):
    if kind == "geo":
        return (1 - a) * a ** z if z >= 0 else Fraction(0)
    return (1 - a) / (1 + a) * a ** abs(z)


def _tail(kind, a, W):
    """P(value outside the window): |Z| > W (two-sided) or Z > W (one-sided)."""
    return a ** (W + 1) if kind == "geo" else 2 * a ** (W + 1) / (1 + a)


class _Interp:
    def __init__(self, x, values):
        self.x, self.values, self.k, self.out = x, values, 0, []

    def draw(self, nz):
        if self.k == len(self.values):
            raise _Need(nz)
        self.k += 1
        return self.values[self.k - 1]

    def ev(self, e, env):
        if isinstance(e, Num):
            return e.value
        if isinstance(e, Var):
            return len(self.x) if e.name == "n" else env[e.name]
        if isinstance(e, Query):
            return self.x[(env["i"] if e.index is None else self.ev(e.index, env)) - 1]
        a, b = self.ev(e.left, env), self.ev(e.right, env)
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b

    def test(self, c, env):
        a, b = self.ev(c.left, env), self.ev(c.right, env)
        return {">=": a >= b, ">": a > b, "<=": a <= b, "<": a < b, "==": a == b, "!=": a != b}[c.op]

    def block(self, stmts, env):
        for s in stmts:
            if isinstance(s, Assign):
                env[s.name] = self.draw(s.value) if isinstance(s.value, Noise) else self.ev(s.value, env)
            elif isinstance(s, If):
                self.block(s.then if self.test(s.cond, env) else s.orelse, env)
            elif isinstance(s, For):
                for i in range(1, len(self.x) + 1):
                    env["i"] = i
                    self.block(s.body, env)
            elif isinstance(s, Stop):
                raise _Stop
            elif isinstance(s, Output):
                if s.kind == "symbol":
                    self.out.append(s.value)
                elif s.kind == "int":
                    self.out.append(str(self.ev(s.value, env)))
                elif s.kind == "clamp":
                    self.out.append(str(min(max(self.ev(s.value, env), s.lo), s.hi)))
                else:
                    scores = [q + self.draw(s.value) for q in self.x]
                    best = max(scores)
                    if s.kind == "argmax":
                        self.out.append(str(scores.index(best) + 1))
                    else:
                        self.out.append(str(min(max(best, s.lo), s.hi)))


def brute_distribution(program, x, t: Fraction, L: int, W: int, eps0: Fraction | None = None):
    """``(low, lost)``: exact lower sums per output label and the exact mass left outside the windows.

    ``t = e^(-eps0/L)``; a noise of scale ``b eps`` (``per_eps``) has base ``e^(-1/(b eps0)) = t^(L/(b eps0^2))``,
    from its definition (the exponent must be an integer: choose ``L`` so)."""
    low: dict = {}
    lost = Fraction(0)
    stack = [((), Fraction(1))]
    while stack:
        values, w = stack.pop()
        it = _Interp(tuple(x), list(values))
        try:
            with contextlib.suppress(_Stop):
                it.block(program.body, {})
        except _Need as need:
            nz = need.noise
            if getattr(nz, "per_eps", False):
                e = Fraction(L) / (nz.scale * eps0 * eps0)
                assert e.denominator == 1, "choose L so that the base is an integer power of t"
                a = t ** int(e)
            else:
                a = t ** (L * nz.scale.denominator // nz.scale.numerator)
            lost += w * _tail(nz.kind, a, W)
            for z in range(0 if nz.kind == "geo" else -W, W + 1):
                stack.append(((*values, z), w * _weight(nz.kind, a, z)))
            continue
        label = ",".join(it.out) if it.out else "none"
        low[label] = low.get(label, Fraction(0)) + w
    return low, lost
