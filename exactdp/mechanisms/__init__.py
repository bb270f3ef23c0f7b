"""Mechanism constructors (a layer of docs/architecture.md#sec-layers)."""

from ..mechanism import Mechanism, mechanism_from_values
from .exponential import exponential
from .geometric import geometric
from .randomized_response import randomized_response
from .discrete_gaussian import discrete_gaussian
from .ldp import estimator_variance, generalized_rr, optimized_unary, subset_selection, symmetric_unary
from .ldp_hash import binary_local_hashing, hadamard_response, local_hashing, optimal_local_hashing
from .selection import permute_and_flip, report_noisy_max
from .staircase import staircase

__all__ = [
           "Mechanism",
           "binary_local_hashing",
           "discrete_gaussian",
           "estimator_variance",
           "exponential",
           "generalized_rr",
           "geometric",
           "hadamard_response",
           "local_hashing",
           "mechanism_from_values",
           "optimal_local_hashing",
           "optimized_unary",
           "permute_and_flip",
           "randomized_response",
           "report_noisy_max",
           "staircase",
           "subset_selection",
           "symmetric_unary",
]
