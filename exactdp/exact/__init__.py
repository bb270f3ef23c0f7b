"""The exact number kernel (docs/architecture.md#sec-kernel) -- its public surface.

Layers above (theory, papers) use these names; the submodules are the
private engines behind them.

- numbers from text and Python objects: :func:`exact_number` (exactdp's own parser, never ``eval``);
- exact text, LaTeX and outward-rounded decimal enclosures: :func:`exact_str`, :func:`exact_latex`,
  :func:`decimal_enclosure`;
- certified signs and balls: :func:`sign` (exact zero test, then Arb balls at rising precision), :func:`arb_of`;
- privacy levels: :class:`Level` and the one normaliser :func:`level_of`;
- exact linear programming with dual certificates: :class:`LinearProgram`, :class:`LPSolution`,
  :func:`solve_lp`; with an irrational (radical) cost over a rational polytope:
  :func:`solve_lp_irrational` and its optimal face :func:`optimal_face_constraints`;
- exact number types for the regimes of docs/architecture.md#sec-kernel: :class:`Rad` (Q-combinations of real
  radicals such as ``2^(9/10)``), :class:`Lin` (Q-combinations of ``sqrt(s)`` and ``eps``, the exponents
  of the transcendental regime) and :class:`ExpFrac` (quotients of exponential polynomials).

>>> from exactdp.exact import exact_number, exact_str, sign
>>> exact_str(exact_number("1/2 + 1/3")), sign(exact_number("exp(1) - 2718/1000"))
('5/6', 1)
"""

from .domain import Domain
from .decide import arb_of, decimal_enclosure, exact_latex, exact_str, sign
from .level import Level, level_of
from .lp import LinearProgram, LPInfeasible, LPSolution, LPUnbounded, solve_lp
from .values import Setting, exact_number
from .expo import ExpFrac
from .lin import Lin
from .lp_irrational import IrrationalLPSolution, optimal_face_constraints, solve_lp_irrational
from .radical import Rad

__all__ = [
           "Domain",
           "ExpFrac",
           "IrrationalLPSolution",
           "LPInfeasible",
           "LPSolution",
           "LPUnbounded",
           "Level",
           "Lin",
           "LinearProgram",
           "Rad",
           "Setting",
           "arb_of",
           "decimal_enclosure",
           "exact_latex",
           "exact_number",
           "exact_str",
           "level_of",
           "optimal_face_constraints",
           "sign",
           "solve_lp",
           "solve_lp_irrational",
]
