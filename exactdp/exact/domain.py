"""The number domain of a question, and the one method rule (docs/architecture.md#sec-method-rule).

Every checker asks the same two questions of its inputs -- the level ``e^eps`` and the mechanisms' entries --
before it computes: in which arithmetic do the numbers live, and so which method does the certificate name?
:class:`Domain` answers both, once, for every kind (the kernel answers them again, independently, in
:func:`exactdp.recheck._levels.method_for`):

======================================  ==================================  =======================
entries                                 level ``e^eps``                     method
======================================  ==================================  =======================
rationals (or none)                     none, or ``R^(1/D)``, ``R``, ``D``  ``RATIONAL``
                                        rational (``eps = log(R)/D``)
rational functions of alpha, evaluated  as above                            ``RATIONAL``
at a rational alpha
exponential polynomials (``exp(-1)``)   any                                 ``TRANSCENDENCE_BALLS``
any                                     ``eps`` algebraic (``1/2``)         ``TRANSCENDENCE_BALLS``
======================================  ==================================  =======================

At ``e^eps = R^(1/D)`` with ``D > 1`` the numbers a checker compares are ``a + b R^(p/D)`` with ``a``, ``b``
rational (a constraint ``u <= R^(d/D) v``, a hockey-stick ``A - B R^(1/D)``); their signs are decided by
``D``-th powers in fractions, so the method is ``RATIONAL`` there too. A checker whose route left exact
arithmetic (a ball route) says so with ``exact_route=False`` and names ``TRANSCENDENCE_BALLS``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from flint import fmpq

from .level import Level

__all__ = ["Domain"]


@dataclass(frozen=True)
class Domain:
    """Where a question's numbers live, and the method a certificate about it names.

    Parameters
    ----------
    rational_entries : bool
        Every entry (and every extra value) is a rational.
    rational_level : bool
        No level, or ``e^eps = R^(1/D)`` with ``R`` rational (:attr:`Level.regime` ``"rational"``).
    exact_route : bool, default True
        The checker computed exactly (False: a certified-ball route decided).

    Examples
    --------
    >>> from exactdp.mechanisms import randomized_response
    >>> R = randomized_response(2, p="1/4")
    >>> Domain.of(Level.from_eps("log(2)/3"), R).method, Domain.of(Level.from_eps("1/2"), R).method
    ('RATIONAL', 'TRANSCENDENCE_BALLS')
    >>> Domain.of(None, R, exact_route=False).method, Domain.of(values=[fmpq(1, 6)]).rational
    ('TRANSCENDENCE_BALLS', True)
    """

    rational_entries: bool
    rational_level: bool
    exact_route: bool = True

    @classmethod
    def of(cls, level: Level | None = None, *mechs: Any, values: Iterable[Any] = (),
           exact_route: bool = True) -> Domain:
        """The domain of a question at ``level`` about ``mechs`` (and extra exact ``values``).

        Parameters
        ----------
        level : Level or None
            The privacy level, if the question has one.
        *mechs : Mechanism
            The mechanisms whose entries the checker compares (``regime`` ``"rational"`` when every entry is).
        values : iterable of exact numbers, optional
            Further numbers the verdict rests on (a relation's difference, say).
        exact_route : bool, default True
            False when the checker's route decided in certified balls.

        Returns
        -------
        Domain
            The domain; :attr:`method` names the certificate's method.

        Examples
        --------
        >>> Domain.of(Level.from_alpha("1/2")).rational, Domain.of(values=[fmpq(1, 2)]).method
        (True, 'RATIONAL')
        """
        entries = all(m.regime == "rational" for m in mechs) and all(isinstance(v, fmpq) for v in values)
        return cls(entries, level is None or level.regime == "rational", exact_route)

    @property
    def rational(self) -> bool:
        """Whether every comparison of the question happens in fractions (regime 1 of docs/architecture.md).

        Examples
        --------
        >>> Domain(True, False).rational
        False
        """
        return self.rational_entries and self.rational_level and self.exact_route

    @property
    def method(self) -> str:
        """The name of the certificate's :class:`~exactdp.certificate.core.Method` (``Method[name]``).

        Examples
        --------
        >>> Domain(True, True).method, Domain(False, True).method
        ('RATIONAL', 'TRANSCENDENCE_BALLS')
        """
        return "RATIONAL" if self.rational else "TRANSCENDENCE_BALLS"
