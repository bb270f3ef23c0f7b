"""The three verdicts, one encoding everywhere (docs/architecture.md#sec-certificates).

The lowest module of exactdp: certificates, the ``Undecided`` exception and
the command line's exit codes all use :class:`Verdict`.

>>> bool(Verdict.HOLDS), bool(Verdict.FAILS), Verdict.UNDECIDED.exit_code
(True, False, 3)
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Verdict"]


class Verdict(str, Enum):
    """The verdict of a certificate: holds / fails / undecided.

    One encoding everywhere (docs/architecture.md#sec-certificates): certificates, the
    ``Undecided`` exception's payload and the command line's exit codes.
    ``bool()`` is defined only for the two decided verdicts.

    Attributes
    ----------
    HOLDS, FAILS, UNDECIDED : Verdict
        The values ``"holds"``, ``"fails"``, ``"undecided"``.

    Examples
    --------
    >>> Verdict("fails") is Verdict.FAILS, str(Verdict.HOLDS)
    (True, 'holds')
    >>> bool(Verdict.UNDECIDED)
    Traceback (most recent call last):
    ...
    TypeError: an undecided verdict has no truth value; compare with `is UNDECIDED`
    """

    HOLDS = "holds"
    FAILS = "fails"
    UNDECIDED = "undecided"

    def __bool__(self):
        if self is Verdict.UNDECIDED:
            raise TypeError("an undecided verdict has no truth value; compare with `is UNDECIDED`")
        return self is Verdict.HOLDS

    def __str__(self):
        return self.value

    @classmethod
    def of(cls, holds) -> Verdict:
        """Return the verdict of ``holds``: ``True`` -> HOLDS, ``False`` -> FAILS, a Verdict -> itself.

        Parameters
        ----------
        holds : bool or Verdict
            The decided truth value, or a verdict.

        Returns
        -------
        Verdict
            The one encoding.

        Raises
        ------
        TypeError
            Anything else (a programming error, not user input).

        Examples
        --------
        >>> Verdict.of(True), Verdict.of(Verdict.UNDECIDED)
        (<Verdict.HOLDS: 'holds'>, <Verdict.UNDECIDED: 'undecided'>)
        """
        if isinstance(holds, Verdict):
            return holds
        if holds is True or holds is False:
            return cls.HOLDS if holds else cls.FAILS
        raise TypeError(f"verdict: expected True, False or a Verdict, got {holds!r}")

    @property
    def exit_code(self) -> int:
        """The command line's exit code: 0 holds, 1 fails, 3 undecided.

        Examples
        --------
        >>> [v.exit_code for v in Verdict]
        [0, 1, 3]
        """
        return {"holds": 0, "fails": 1, "undecided": 3}[self.value]
