"""The checking engines below :mod:`exactdp.theory`: privacy, smallest eps, all eps, (eps, delta), relations, LP.

They build the constraint sets and decide (a layer of docs/architecture.md#sec-layers); :mod:`exactdp.theory` builds on
them, and the public checkers, theirs and theory's, are reached through the front door :mod:`exactdp.certify`
(one layer above theory), so a user finds every checker in one place while imports still run one way.
"""

from .all_eps import certify_all_eps
from .approximate import certify_approx
from ..lp.optimum import certify_lp_infeasible, certify_lp_optimum
from .dprivacy import certify_privacy, resolve_level, smallest_epsilon
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
