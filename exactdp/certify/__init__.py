"""Checkers that return certificates (layer 4 of DESIGN.md section 3)."""

from .all_eps import certify_all_eps
from .approximate import certify_approx
from .lp import certify_lp_infeasible, certify_lp_optimum
from .privacy import certify_privacy, resolve_level, smallest_epsilon
from .relation import certify_relation

__all__ = [
           "certify_all_eps",
           "certify_approx",
           "certify_lp_infeasible",
           "certify_lp_optimum",
           "certify_privacy",
           "certify_relation",
           "resolve_level",
           "smallest_epsilon",
]
