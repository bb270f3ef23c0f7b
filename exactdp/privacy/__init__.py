"""The d-privacy judgement: eps-DP on a metric, the smallest eps, every eps, (eps, delta), relations of alpha.

The lowest topic (docs/architecture.md#sec-layers): :mod:`.dprivacy` decides eps-DP and the smallest eps over the
generating pairs of a metric (:mod:`.constraints`, :mod:`.triples`), :mod:`.all_eps` every eps at once,
:mod:`.approximate` (eps, delta)-DP by the worst set, :mod:`.relation` relations between expressions of alpha;
:mod:`.evidence` holds the records and worked proofs of their kinds (privacy, epsilon, all_eps, approx, relation).
Every other topic builds on it; every checker is also reached through the front door :mod:`exactdp.certify`.
"""

from .all_eps import certify_all_eps
from .approximate import certify_approx
from .dprivacy import certify_privacy, resolve_level, smallest_epsilon
from .relation import certify_relation

__all__ = [
           "certify_all_eps",
           "certify_approx",
           "certify_privacy",
           "certify_relation",
           "resolve_level",
           "smallest_epsilon",
]
