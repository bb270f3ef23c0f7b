"""The privacy-constraints matrix ``Phi`` (ECP14 Def. 3) and certified solves with it.

``phi_yy' = e^(-d(y, y'))`` for the metric ``eps * d``.  Three regimes:

* **rational** -- ``alpha = e^(-eps)`` rational and integer distances: ``Phi`` is a
  rational matrix, solved exactly with FLINT (``fmpq_mat``);
* **transcendental** -- eps algebraic (e.g. ``1/2``): the entries are monomials
  in generators ``g = e^(-eps * atom / L)`` that are algebraically independent
  (Lindemann--Weierstrass).  The solution of ``Phi x = b`` is enclosed by an Arb
  ball solve (``arb_mat.solve``) at rising precision; a component whose ball
  contains 0 is tested *exactly* first: each component is a rational function
  of the generators, so if an exact rational solve at a rational sample of the
  generators gives a non-zero value, the function is not identically zero and,
  the generators being algebraically independent transcendentals, the true
  component is not zero -- so raising the precision must separate it.
* otherwise **undecided**.

>>> from exactdp.metrics import path
>>> from exactdp.exact.level import Level
>>> S = PhiSystem(path(3), Level.from_alpha("1/2"))
>>> S.exact_matrix().tolist()
[[1, 1/2, 1/4], [1/2, 1, 1/2], [1/4, 1/2, 1]]
>>> [str(v) for v in S.solve_ones().values]
['2/3', '1/3', '2/3']
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flint import arb, arb_mat, ctx, fmpq, fmpq_mat

from ..errors import InvalidInput, Undecided
from ..exact.lin import Lin

__all__ = ["PhiSystem", "Solution"]


@dataclass
class Solution:
    """Solution of ``Phi x = b``: exact values (rational regime) or certified balls with exact signs."""

    values: list | None          # exact fmpq values, or None
    balls: list | None           # arb enclosures (transcendental regime)
    signs: list                  # exact sign of each component (-1, 0, 1)
    method: str
    precision: int | None = None

    def negative(self):
        return [i for i, s in enumerate(self.signs) if s < 0]

    def nonnegative(self) -> bool:
        return all(s >= 0 for s in self.signs)

    def strings(self):
        if self.values is not None:
            return [str(v) for v in self.values]
        return [b.str(15, radius=True) for b in self.balls]


class PhiSystem:
    """``Phi`` for a metric scaled by a level (see module docstring)."""

    def __init__(self, metric, level):
        self.metric, self.level = metric, level
        n = len(metric)
        self.n = n
        if n > 20_000:
            raise InvalidInput(f"Phi: {n} points is beyond the dense limit 20000")
        D = [[metric.d(i, j) for j in range(n)] for i in range(n)] if n <= 3000 else None
        self._D = D
        self._dist_codes, self._dvals = self._codes()

    def _codes(self):
        import numpy as np

        n = self.n
        codes = np.zeros((n, n), dtype=np.int32)
        vals: list = []
        index: dict = {}
        for i in range(n):
            for j in range(n):
                d = self._D[i][j] if self._D is not None else self.metric.d(i, j)
                c = index.get(d)
                if c is None:
                    c = len(vals)
                    vals.append(d)
                    index[d] = c
                codes[i, j] = c
        return codes, vals

    # -- entries -------------------------------------------------------------------
    def _exact_factor(self, d):
        """``e^(-eps d)`` exactly (fmpq or ExpFrac), or None."""
        if d == math.inf:
            return fmpq(0)
        E = self.level.factor(d)
        return None if E is None else 1 / E

    def is_rational(self) -> bool:
        return all(isinstance(self._exact_factor(d), fmpq) for d in self._dvals)

    def entry(self, i, j):
        return self._exact_factor(self._dvals[self._dist_codes[i, j]])

    def exact_matrix(self) -> fmpq_mat:
        if not self.is_rational():
            raise Undecided("Phi is not rational at this level (use the transcendental regime)")
        facs = [self._exact_factor(d) for d in self._dvals]
        return fmpq_mat(self.n, self.n, [facs[c] for c in self._dist_codes.ravel().tolist()])

    def arb_matrix(self) -> arb_mat:
        facs = [arb(0) if d == math.inf else 1 / self.level.factor_arb(d) for d in self._dvals]
        return arb_mat(self.n, self.n, [facs[c] for c in self._dist_codes.ravel().tolist()])

    # -- generators for exact zero tests -------------------------------------------------
    def _generator_exponents(self):
        """Each distinct factor ``e^(-eps d)`` as a monomial ``prod g_s^k_s`` with integer ``k_s``."""
        eps = self.level._eps_lin
        if eps is None:
            return None
        units: dict = {}
        exps = []
        for d in self._dvals:
            if d == math.inf:
                exps.append(None)
                continue
            e = eps * Lin.coerce(d)
            exps.append(dict(e.terms))
            for a, c in e.terms:
                units[a] = math.lcm(units.get(a, 1), int(c.q))
        out = []
        for ex in exps:
            out.append(None if ex is None else {a: int(c * units[a]) for a, c in ex.items()})
        return out

    def sample_matrix(self, samples: dict) -> fmpq_mat:
        """``Phi`` with each generator ``g_s = e^(-atom_s/L_s)`` replaced by a rational ``samples[s]``."""
        exps = self._generator_exponents()
        facs = []
        for ex in exps:
            if ex is None:
                facs.append(fmpq(0))
                continue
            v = fmpq(1)
            for a, k in ex.items():
                v *= samples[a] ** k
            facs.append(v)
        return fmpq_mat(self.n, self.n, [facs[c] for c in self._dist_codes.ravel().tolist()])

    # -- solving ---------------------------------------------------------------------
    def solve(self, rhs, max_prec: int = 4096) -> Solution:
        """Solve ``Phi x = rhs`` (rhs exact rationals); raises ``InvalidInput`` if ``Phi`` is singular."""
        rhs = [fmpq(v) for v in rhs]
        if self.is_rational():
            M = self.exact_matrix()
            try:
                x = M.solve(fmpq_mat(self.n, 1, rhs))
            except ZeroDivisionError:
                raise InvalidInput("Phi is singular at this level: the solution is not unique") from None
            vals = [x[i, 0] for i in range(self.n)]
            return Solution(vals, None, [(v > 0) - (v < 0) for v in vals], "exact rational solve (FLINT fmpq_mat)")
        return self._solve_balls(rhs, max_prec)

    def solve_ones(self, **kw) -> Solution:
        return self.solve([1] * self.n, **kw)

    def _solve_balls(self, rhs, max_prec):
        n = self.n
        signs = [None] * n
        zero_checked = [False] * n
        prec = 64
        b = arb_mat(n, 1, [arb(v) for v in rhs])
        last = None
        while prec <= max_prec:
            with ctx.workprec(prec):
                try:
                    x = self.arb_matrix().solve(b)
                except ZeroDivisionError:
                    x = None
                if x is not None:
                    last = [x[i, 0] for i in range(n)]
                    for i, v in enumerate(last):
                        if signs[i] is None:
                            if v > 0:
                                signs[i] = 1
                            elif v < 0:
                                signs[i] = -1
                    if all(s is not None for s in signs):
                        return Solution(None, last, signs, "Arb ball solve (arb_mat.solve) at "
                                        f"{prec} bits; signs certified by the enclosures", prec)
            # components still containing 0: prove they are not identically zero
            pending = [i for i in range(n) if signs[i] is None and not zero_checked[i]]
            if pending:
                nz = self._nonzero_by_sample(pending, rhs)
                for i in pending:
                    zero_checked[i] = True
                    if not nz.get(i, False):
                        raise Undecided(f"component {i} of Phi^-1 b vanishes at the rational samples tried; it may be "
                                        "identically zero, which exactdp cannot yet certify for this instance",
                                        enclosure=str(last[i]) if last else None)
            prec *= 2
        raise Undecided(f"Phi x = b not separated from zero at {max_prec} bits (or Phi singular)",
                        enclosure=str(last) if last else None)

    def _nonzero_by_sample(self, idx, rhs):
        exps = self._generator_exponents()
        if exps is None:
            return {}
        atoms = sorted({a for ex in exps if ex for a in ex})
        out = {}
        for trial in range(3):
            samples = {a: fmpq(1, 2 + k + trial) for k, a in enumerate(atoms)}
            try:
                x = self.sample_matrix(samples).solve(fmpq_mat(self.n, 1, rhs))
            except ZeroDivisionError:
                continue
            for i in idx:
                if x[i, 0] != 0:
                    out[i] = True
            if all(out.get(i) for i in idx):
                break
        return out

