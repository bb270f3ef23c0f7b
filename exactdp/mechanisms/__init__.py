"""Mechanism constructors (layer 3 of DESIGN.md section 3)."""

from ..mechanism import Mechanism, mechanism_from_values
from .exponential import exponential
from .geometric import geometric
from .randomized_response import randomized_response
from .discrete_gaussian import discrete_gaussian
from .ldp import estimator_variance, generalized_rr, optimized_unary, subset_selection, symmetric_unary
from .ldp_hash import binary_local_hashing, hadamard_response, local_hashing, optimal_local_hashing
from .selection import permute_and_flip, report_noisy_max
from .staircase import staircase

__all__ = ["Mechanism", "mechanism_from_values", "geometric", "randomized_response", "exponential",
           "generalized_rr", "symmetric_unary", "optimized_unary", "subset_selection", "local_hashing",
           "binary_local_hashing", "optimal_local_hashing", "hadamard_response", "estimator_variance",
           "discrete_gaussian", "staircase", "permute_and_flip", "report_noisy_max"]
