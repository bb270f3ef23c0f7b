"""The certificate kinds: one table naming each kind's evidence record, renderer and re-check module.

A certificate kind is three things kept in three places: its typed evidence record
(``@evidence_kind("name")`` in :mod:`exactdp.certificate.records`), its renderer (``@renderer("name")`` in
:mod:`exactdp.certificate.render`) and its re-check module (``exactdp.recheck.KINDS``: kind -> module of
:mod:`exactdp.recheck` holding ``check`` and ``claim_text``).  :data:`KINDS` lists every kind once with all
three; importing this module imports every evidence module, so the two registries are filled.  The kernel
(:mod:`exactdp.recheck`) may not import exactdp, so it keeps its own ``KINDS``; ``tests/certificate/test_kinds.py``
checks that the evidence registry, the renderer registry, ``exactdp.recheck.KINDS``, the JSON schema's kinds and
this table name the same kinds, and that every re-check module exists.

Adding a kind: its row here, its evidence class (``@evidence_kind``) and renderer (``@renderer``) in the
module of this package named by its concept, its module in :mod:`exactdp.recheck` and its entry in
``exactdp.recheck.KINDS``, then ``schema/certificate.schema.json`` regenerated.

>>> KINDS["approx"].evidence.__name__, KINDS["approx"].recheck
('ApproxEvidence', 'approximate')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..privacy import evidence as approximate
from ..interop import evidence as audit
from ..decomposition import evidence as decomposition
from ..extension import evidence as extension
from ..divergences import evidence as fdp
from ..lp import evidence as lp
from ..optimality import evidence as optimality
from ..priors import evidence as priors
from ..privacy import evidence as privacy
from ..composition import evidence as profile
from ..privacy import evidence as relation
from ..divergences import evidence as renyi
from ..utility import evidence as utility
from ..utility import evidence as utility_comparison
from ..composition import evidence as lattice
from ..programs import evidence as program
from ..samplers import evidence as sampler
from .records import Evidence
from .render import renderers

__all__ = ["KINDS", "Kind"]


@dataclass(frozen=True)
class Kind:
    """One certificate kind: its name, evidence record and re-check module.

    Parameters
    ----------
    name : str
        The kind, as written in a certificate's ``kind`` field.
    evidence : type
        The :class:`~exactdp.certificate.records.Evidence` subclass registered for it.
    recheck : str
        The module of :mod:`exactdp.recheck` (``exactdp.recheck.<recheck>``) whose ``check`` re-derives it.

    Examples
    --------
    >>> k = KINDS["tradeoff"]
    >>> k.evidence.kind, k.recheck, k.renderer.__module__
    ('tradeoff', 'utility', 'exactdp.utility.evidence')
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


#: every certificate kind: name -> :class:`Kind` (the one table; the registries and the kernel's KINDS follow it)
KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("privacy", privacy.PrivacyEvidence, "privacy"),
    Kind("epsilon", privacy.EpsilonEvidence, "privacy"),
    Kind("all_eps", privacy.AllEpsEvidence, "all_eps"),
    Kind("approx", approximate.ApproxEvidence, "approximate"),
    Kind("relation", relation.RelationEvidence, "relation"),
    Kind("lp", lp.LPEvidence, "lp"),
    Kind("infeasible", lp.InfeasibleEvidence, "infeasible"),
    Kind("optimality", optimality.OptimalityEvidence, "optimality"),
    Kind("regular", priors.RegularEvidence, "priors"),
    Kind("tight", priors.TightEvidence, "priors"),
    Kind("threshold", priors.ThresholdEvidence, "priors"),
    Kind("leakage", priors.LeakageEvidence, "priors"),
    Kind("theorem4", priors.Theorem4Evidence, "priors"),
    Kind("utility", utility.UtilityEvidence, "utility"),
    Kind("exponential_bound", utility.ExponentialBoundEvidence, "utility"),
    Kind("tradeoff", utility.TradeoffEvidence, "utility"),
    Kind("utility_comparison", utility_comparison.UtilityComparisonEvidence, "utility_comparison"),
    Kind("extension", extension.ExtensionEvidence, "extension"),
    Kind("best_extension", extension.BestExtensionEvidence, "extension"),
    Kind("decomposition", decomposition.DecompositionEvidence, "decomposition"),
    Kind("profile", profile.ProfileEvidence, "profile"),
    Kind("composition", profile.CompositionEvidence, "profile"),
    Kind("renyi", renyi.RenyiEvidence, "renyi"),
    Kind("fdp", fdp.FdpEvidence, "fdp"),
    Kind("audit", audit.AuditEvidence, "audit"),
    Kind("lattice_composition", lattice.LatticeCompositionEvidence, "lattice"),
    Kind("program", program.ProgramEvidence, "program"),
    Kind("sampler_privacy", sampler.SamplerPrivacyEvidence, "sampler"),
)}
