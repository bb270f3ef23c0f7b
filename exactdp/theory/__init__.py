"""Theory built on certificates: utility and error bounds (a layer of docs/architecture.md#sec-layers)."""

from .accuracy import expected_error, hlm15_theorem6_bound, hlm15_theorem7_bound, max_expected_error
from .renyi import rdp_to_dp, renyi_curve, renyi_divergence

__all__ = [
           "expected_error",
           "hlm15_theorem6_bound",
           "hlm15_theorem7_bound",
           "max_expected_error",
           "rdp_to_dp",
           "renyi_curve",
           "renyi_divergence",
]
