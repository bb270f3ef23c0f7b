"""The table of certificate kinds, derived from each kind's one declaration (docs/architecture.md#sec-kinds).

A kind is declared once, in the ``evidence`` module of its topic package: its evidence record decorated
``@evidence_kind("name", checker="exactdp.<package>.<module>:<function>")`` with an ``example()`` classmethod (one
genuine certificate), and its renderer decorated ``@renderer("name")``.  The kernel finds its own module by
itself (:data:`exactdp.recheck.KINDS`: the kind modules' ``EVIDENCE`` tables).  :data:`KINDS` joins the three;
the front door :mod:`exactdp.certify`, the JSON schema, the documentation's table of kinds and the test tables
(the re-check harness, ``explain``, the front door) are derived from it, so that adding a kind touches its own
modules, its tests and its docs, and nothing that only repeats its name.

>>> KINDS["approx"].evidence.__name__, KINDS["approx"].recheck, KINDS["approx"].checker_name
('ApproxEvidence', 'approximate', 'certify_approx')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..recheck import KINDS as _KERNEL_KINDS
from .records import Evidence, evidence_kinds
from .render import renderers

__all__ = ["KINDS", "Kind"]


@dataclass(frozen=True)
class Kind:
    """One certificate kind: its evidence record, renderer, checker, kernel module and genuine example.

    Parameters
    ----------
    name : str
        The kind, as written in a certificate's ``kind`` field.
    evidence : type
        The :class:`~exactdp.certificate.records.Evidence` subclass declared for it.
    recheck : str
        The module of :mod:`exactdp.recheck` (``exactdp.recheck.<recheck>``) whose ``check`` re-derives it.

    Examples
    --------
    >>> k = KINDS["tradeoff"]
    >>> k.evidence.kind, k.recheck, k.renderer.__module__, k.checker_module
    ('tradeoff', 'utility', 'exactdp.utility.evidence', 'exactdp.utility.tradeoff')
    >>> k.example().kind
    'tradeoff'
    """

    name: str
    evidence: type[Evidence]
    recheck: str

    @property
    def renderer(self) -> Callable[[Any], Any]:
        """The function registered with ``@renderer(name)``: certificate -> worked proof.

        Examples
        --------
        >>> KINDS["profile"].renderer is KINDS["composition"].renderer
        True
        """
        return renderers()[self.name]

    @property
    def checker_module(self) -> str:
        """The module defining the checker (``exactdp.<package>.<module>``).

        Examples
        --------
        >>> KINDS["threshold"].checker_module
        'exactdp.priors.threshold'
        """
        return self.evidence.checker.partition(":")[0]

    @property
    def checker_name(self) -> str:
        """The checker's public name (what :mod:`exactdp.certify` exports).

        Examples
        --------
        >>> KINDS["theorem4"].checker_name
        'tight_remap'
        """
        return self.evidence.checker.partition(":")[2]

    @property
    def checker(self) -> Callable[..., Any]:
        """The checker itself, imported on first use (a record never imports its checker).

        Examples
        --------
        >>> from exactdp.certify import certify_fdp
        >>> KINDS["fdp"].checker is certify_fdp
        True
        """
        return getattr(importlib.import_module(self.checker_module), self.checker_name)

    def example(self) -> Any:
        """A small genuine certificate of this kind (the evidence record's ``example``).

        Returns
        -------
        Certificate
            Fresh, of kind :attr:`name`; the kernel confirms it (tests/certificate/test_kinds.py).

        Examples
        --------
        >>> KINDS["relation"].example().verdict.value
        'holds'
        """
        return self.evidence.example()


def _table() -> dict[str, Kind]:
    declared = evidence_kinds()
    missing = sorted(set(declared) ^ set(_KERNEL_KINDS))
    if missing:         # a kind the library writes but the kernel cannot read, or the reverse, is a bug
        raise ImportError(f"kinds declared on one side of the fence only: {missing}")
    return {name: Kind(name, declared[name], _KERNEL_KINDS[name]) for name in sorted(declared)}


#: every certificate kind: name -> :class:`Kind`, joined from the declarations and the kernel's modules
KINDS: dict[str, Kind] = _table()
