"""Mechanism constructors (layer 3 of DESIGN.md section 3)."""

from ..mechanism import Mechanism, mechanism_from_values
from .exponential import exponential
from .geometric import geometric
from .randomized_response import randomized_response

__all__ = ["Mechanism", "mechanism_from_values", "geometric", "randomized_response", "exponential"]
