"""All exceptions raised by exactdp.

Every error a user can provoke is an :class:`ExactDPError`.  Input errors also
subclass :class:`ValueError` (or :class:`TypeError`) so that generic handlers
keep working.  Messages name the argument, what was expected, what came in and
a hint.
"""

from .verdict import Verdict

__all__ = [
    "ExactDPError",
    "InvalidInput",
    "InvalidType",
    "ParseError",
    "NotStochastic",
    "NotAMetric",
    "LabelMismatch",
    "UnsupportedRegime",
    "InputTooLarge",
    "Undecided",
]


class ExactDPError(Exception):
    """Base class of every exactdp error."""


class InvalidInput(ExactDPError, ValueError):
    """An argument has the right type but a value outside its domain."""


class InvalidType(ExactDPError, TypeError):
    """An argument has the wrong type (for example a binary float)."""


class ParseError(InvalidInput):
    """Text that is not an exact number in the exactdp grammar."""


class NotStochastic(InvalidInput):
    """A matrix that is not row-stochastic (negative entry, row sum != 1)."""


class NotAMetric(InvalidInput):
    """Distances that violate a metric axiom (the offending points are named)."""


class LabelMismatch(InvalidInput):
    """Mechanism and metric label sets that do not match."""


class UnsupportedRegime(InvalidInput):
    """A value outside every exact decision regime (see DESIGN.md section 2)."""


class InputTooLarge(InvalidInput):
    """An input beyond the documented size limits."""


class Undecided(ExactDPError):
    """Raised inside the kernel when no exact regime decides a question.

    Checkers catch it and return a certificate whose verdict is
    :data:`exactdp.UNDECIDED` (the same value as :attr:`verdict`), with ``reason``
    and the ball ``enclosure`` found.
    """

    def __init__(self, reason: str, enclosure=None):
        super().__init__(reason)
        self.reason = reason
        self.enclosure = enclosure

    #: the one encoding of the third verdict (:data:`exactdp.UNDECIDED`)
    verdict = Verdict.UNDECIDED
