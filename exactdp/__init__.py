"""exactdp: exact verification of differential privacy over finite metric spaces.

>>> from exactdp import geometric, path, certify_privacy
>>> c = certify_privacy(geometric(10, "1/2"), path(11), alpha="1/2")
>>> c.holds, c.evidence.epsilon
(True, 'log(2)')
"""

from exactdp import _startup  # noqa: F401  (first: Ctrl-C during the command line's imports, issue 32)
from .certificate import UNDECIDED, Certificate, Method, Verdict
from .privacy import certify_all_eps, certify_approx, certify_privacy, smallest_epsilon
from .recheck import recheck
from .errors import (ExactDPError, InvalidInput, InvalidType, LabelMismatch, NotAMetric, NotStochastic,
                     ParseError, Undecided, UnsupportedRegime)
from .exact.level import Level
from .mechanism import Mechanism
from .mechanisms import exponential, geometric, randomized_response
from .mechanisms import (binary_local_hashing, discrete_gaussian, estimator_variance, generalized_rr,
                         hadamard_response, local_hashing, optimal_local_hashing, optimized_unary, permute_and_flip,
                         report_noisy_max, staircase, subset_selection, symmetric_unary)
from .metrics import (FiniteMetric, cycle, discrete, from_graph, from_matrix, grid, hamming, induced, path,
                      symmetric_difference)
from .metrics import node_distance_space
from .extension.extension import extend
from .extension.extension import certify_extension

__version__ = "0.1.0"

__all__ = [
                     "UNDECIDED",
                     "Certificate",
                     "ExactDPError",
                     "FiniteMetric",
                     "InvalidInput",
                     "InvalidType",
                     "LabelMismatch",
                     "Level",
                     "Mechanism",
                     "Method",
                     "NotAMetric",
                     "NotStochastic",
                     "ParseError",
                     "Undecided",
                     "UnsupportedRegime",
                     "Verdict",
                     "binary_local_hashing",
                     "certify_all_eps",
                     "certify_approx",
                     "certify_extension",
                     "certify_privacy",
                     "cycle",
                     "discrete",
                     "discrete_gaussian",
                     "estimator_variance",
                     "exponential",
                     "extend",
                     "from_graph",
                     "from_matrix",
                     "generalized_rr",
                     "geometric",
                     "grid",
                     "hadamard_response",
                     "hamming",
                     "induced",
                     "local_hashing",
                     "node_distance_space",
                     "optimal_local_hashing",
                     "optimized_unary",
                     "path",
                     "permute_and_flip",
                     "randomized_response",
                     "recheck",
                     "report_noisy_max",
                     "smallest_epsilon",
                     "staircase",
                     "subset_selection",
                     "symmetric_difference",
                     "symmetric_unary",
]
