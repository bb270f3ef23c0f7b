"""exactdp: exact verification of differential privacy over finite metric spaces.

>>> from exactdp import geometric, path, certify_privacy
>>> c = certify_privacy(geometric(10, "1/2"), path(11), alpha="1/2")
>>> c.holds, c.evidence.epsilon
(True, 'log(2)')
"""

from .certificate import UNDECIDED, Certificate, Method, Verdict
from .certify import certify_all_eps, certify_approx, certify_privacy, smallest_epsilon
from .recheck import recheck
from .errors import (ExactDPError, InvalidInput, InvalidType, LabelMismatch, NotAMetric, NotStochastic,
                     ParseError, Undecided, UnsupportedRegime)
from .exact.level import Level
from .mechanism import Mechanism
from .mechanisms import exponential, geometric, randomized_response
from .metrics import (FiniteMetric, cycle, discrete, from_graph, from_matrix, grid, hamming, induced, path,
                      symmetric_difference)
from .metrics import node_distance_space
from .theory.extension import extend
from .theory.extension_cert import certify_extension

__version__ = "0.1.0"

__all__ = [
    "UNDECIDED", "Certificate", "Verdict", "Method", "recheck", "certify_privacy", "smallest_epsilon", "certify_all_eps",
    "certify_approx",
    "ExactDPError", "InvalidInput", "InvalidType", "LabelMismatch", "NotAMetric", "NotStochastic", "ParseError",
    "Undecided", "UnsupportedRegime", "Level", "Mechanism", "geometric", "randomized_response", "exponential",
    "FiniteMetric", "from_graph", "from_matrix", "path", "cycle", "discrete", "grid", "hamming", "induced",
    "symmetric_difference", "node_distance_space", "extend", "certify_extension",
]
