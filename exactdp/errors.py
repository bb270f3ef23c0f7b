"""All exceptions raised by exactdp.

Every error a user can provoke is an :class:`ExactDPError`.  Input errors also
subclass :class:`ValueError` (or :class:`TypeError`) so that generic handlers
keep working.  Messages name the argument, what was expected, what came in and
a hint.
"""

from .verdict import Verdict

__all__ = [
    "ExactDPError",
    "InputTooLarge",
    "InvalidInput",
    "InvalidType",
    "LabelMismatch",
    "NeedsLevel",
    "NotAMetric",
    "NotStochastic",
    "ParseError",
    "Undecided",
    "UnsupportedRegime",
]


class ExactDPError(Exception):
    """Base class of every exactdp error.

    Catch it to handle every error exactdp raises on purpose; anything else
    escaping the library is a bug (the command line's exit 4).

    Examples
    --------
    >>> from exactdp.exact.values import exact_number
    >>> try:
    ...     exact_number("1/0")
    ... except ExactDPError as e:
    ...     print(type(e).__name__, "|", e)
    InvalidInput | number: expression: division by zero
    """


class InvalidInput(ExactDPError, ValueError):
    """An argument has the right type but a value outside its domain.

    Examples
    --------
    >>> from exactdp.exact.level import Level
    >>> Level.from_alpha("2")
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: alpha: expected 0 < alpha < 1, got 2; hint: alpha = e^(-eps) with eps > 0
    >>> issubclass(InvalidInput, ValueError)
    True
    """


class InvalidType(ExactDPError, TypeError):
    """An argument has the wrong type (for example a binary float).

    Examples
    --------
    >>> from exactdp.exact.values import exact_number
    >>> exact_number([1])
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidType: number: got list [1]; expected an int, Fraction, exact string or Decimal
    >>> issubclass(InvalidType, TypeError)
    True
    """


class ParseError(InvalidInput):
    """Text that is not an exact number in the exactdp grammar.

    Examples
    --------
    >>> from exactdp.exact.values import exact_number
    >>> exact_number("1/")
    Traceback (most recent call last):
    ...
    exactdp.errors.ParseError: number: expression: expected a number, name or '(', got end of input at position 2
    in '1/'
    """


class NotStochastic(InvalidInput):
    """A matrix that is not row-stochastic (negative entry, row sum != 1).

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> Mechanism.from_rows(["a"], ["0", "1"], [["3/2", "-1/2"]])
    Traceback (most recent call last):
    ...
    exactdp.errors.NotStochastic: mechanism: entry ('a', '1') = -1/2 is negative; probabilities must be >= 0
    """


class NotAMetric(InvalidInput):
    """Distances that violate a metric axiom (the offending points are named).

    Examples
    --------
    >>> from exactdp.metrics import from_matrix
    >>> from_matrix(["a", "b"], [[0, 1], [2, 0]])
    Traceback (most recent call last):
    ...
    exactdp.errors.NotAMetric: distances: not symmetric: d('a', 'b') = 1 but d('b', 'a') = 2
    """


class LabelMismatch(InvalidInput):
    """Mechanism and metric label sets that do not match.

    Examples
    --------
    >>> from exactdp import Mechanism
    >>> from exactdp.certify import certify_privacy
    >>> from exactdp.metrics import path
    >>> certify_privacy(Mechanism.from_rows(["a", "b"], ["0"], [["1"], ["1"]]), path(2), alpha="1/2")
    Traceback (most recent call last):
    ...
    exactdp.errors.LabelMismatch: mechanism inputs and metric points differ: 2 inputs vs 2 points; only in the
    mechanism: ['a', 'b'], only in the metric: ['0', '1']; hint: labels are compared as strings
    """


class UnsupportedRegime(InvalidInput):
    """A value outside every exact decision regime (see docs/architecture.md#sec-kernel).

    Examples
    --------
    >>> from exactdp.exact.values import exact_number
    >>> exact_number("log(3)*log(2)")
    Traceback (most recent call last):
    ...
    exactdp.errors.UnsupportedRegime: number: a logarithm may be scaled by a rational or used inside exp(), nothing more
    """


class NeedsLevel(UnsupportedRegime):
    """A value that uses ``eps`` outside ``exp(...)``, read where no level is fixed.

    Such a value (``eps/2``) is exact at a given level but is not a function of
    ``alpha = exp(-eps)`` for every eps at once; the command line evaluates it at
    ``--eps``/``--alpha`` when one is given (issue 32 item 12).

    Examples
    --------
    >>> from exactdp.exact.values import probability, Setting
    >>> probability("eps/2", setting=Setting.symbolic())
    Traceback (most recent call last):
    ...
    exactdp.errors.NeedsLevel: entry: eps/2 uses eps outside exp(...); read for every eps, an entry must be a
    function of alpha = exp(-eps): give the level (--eps or --alpha) to evaluate it there
    """



class InputTooLarge(InvalidInput):
    """An input beyond the documented size limits.

    Examples
    --------
    >>> from exactdp.exact.values import exact_number
    >>> exact_number("2^1000000")
    Traceback (most recent call last):
    ...
    exactdp.errors.InputTooLarge: number: expression: exponent 1000000 is beyond the limit 100000
    """


class Undecided(ExactDPError):
    """Raised inside the kernel when no exact regime decides a question.

    Checkers catch it and return a certificate whose verdict is
    :data:`exactdp.UNDECIDED` (the same value as :attr:`verdict`), with ``reason``
    and the ball ``enclosure`` found.

    Parameters
    ----------
    reason : str
        Why no exact regime decides (shown to the user).
    enclosure : str, optional
        The ball or interval found, as text.

    Examples
    --------
    >>> e = Undecided("eps = log(2) with irrational distances", enclosure="[0.1 +/- 0.2]")
    >>> e.verdict.value, e.reason, e.enclosure
    ('undecided', 'eps = log(2) with irrational distances', '[0.1 +/- 0.2]')
    """

    def __init__(self, reason: str, enclosure=None):
        super().__init__(reason)
        self.reason = reason
        self.enclosure = enclosure

    #: the one encoding of the third verdict (:data:`exactdp.UNDECIDED`)
    verdict = Verdict.UNDECIDED
