"""The three verdicts, one encoding everywhere (DESIGN.md section 4).

The lowest module of exactdp: certificates, the ``Undecided`` exception and
the command line's exit codes all use :class:`Verdict`.

>>> bool(Verdict.HOLDS), bool(Verdict.FAILS), Verdict.UNDECIDED.exit_code
(True, False, 3)
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Verdict"]


class Verdict(str, Enum):
    """holds / fails / undecided."""

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
    def of(cls, holds) -> "Verdict":
        """``True`` -> HOLDS, ``False`` -> FAILS, a Verdict -> itself."""
        if isinstance(holds, Verdict):
            return holds
        if holds is True or holds is False:
            return cls.HOLDS if holds else cls.FAILS
        raise TypeError(f"verdict: expected True, False or a Verdict, got {holds!r}")

    @property
    def exit_code(self) -> int:
        """The command line's exit code: 0 holds, 1 fails, 3 undecided."""
        return {"holds": 0, "fails": 1, "undecided": 3}[self.value]
