"""Every checker that returns a certificate, in one place (the front door; docs/architecture.md#sec-layers).

A checker decides one claim exactly and returns a :class:`~exactdp.certificate.Certificate` of one kind (the
table of kinds: :data:`exactdp.certificate.kinds.KINDS`).  The checkers are written where their mathematics
lives -- the privacy engines in :mod:`exactdp.privacy`, the optimality, prior, utility, extension, profile and
audit theory in :mod:`exactdp.theory` -- and this package, one layer above both, names them all, so
``from exactdp.certify import ...`` finds each of them while imports still run one way (import-linter's
layers contract in ``pyproject.toml``).  The names are the functions themselves, not wrappers: the output is
the same whichever path a caller imports.

>>> from exactdp.certify import certify_privacy, tight_constraints
>>> from exactdp import geometric, path
>>> certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2").verdict.value
'holds'
"""

import importlib

from ..privacy import (
    certify_all_eps,
    certify_approx,
    certify_lp_infeasible,
    certify_lp_optimum,
    certify_privacy,
    certify_relation,
    resolve_level,
    smallest_epsilon,
)
#: public name -> the module of :mod:`exactdp.theory` defining it; loaded on first use (PEP 562), so
#: ``import exactdp`` does not pay for theory it does not call (``theory.tradeoff`` imports sympy)
_THEORY = {
    "best_extension_bracket": "extension_lp",
    "certify_audit": "audit",
    "certify_composition": "profile_cert",
    "certify_decomposition": "decomposition",
    "certify_exponential_bound": "utility",
    "certify_extension": "extension_cert",
    "certify_fdp": "fdp",
    "certify_lattice_composition": "lattice_cert",
    "certify_profile": "profile_cert",
    "certify_renyi": "renyi",
    "certify_tradeoff": "tradeoff",
    "certify_universal_optimality": "optimality",
    "certify_utility": "utility",
    "compare_utilities": "utility_grid",
    "leakage": "leakage",
    "regular_prior": "regular",
    "threshold": "threshold",
    "tight_constraints": "regular",
    "tight_remap": "theorem4",
}


def __getattr__(name: str):
    """The theory checker ``name``, imported from its module on first use (PEP 562)."""
    if name not in _THEORY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    fn = getattr(importlib.import_module(f"..theory.{_THEORY[name]}", __name__), name)
    globals()[name] = fn
    return fn


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_THEORY))


#: certificate kind -> the checker of this package that writes it
CHECKERS = {
    "privacy": "certify_privacy",
    "epsilon": "smallest_epsilon",
    "all_eps": "certify_all_eps",
    "approx": "certify_approx",
    "relation": "certify_relation",
    "lp": "certify_lp_optimum",
    "infeasible": "certify_lp_infeasible",
    "optimality": "certify_universal_optimality",
    "regular": "regular_prior",
    "tight": "tight_constraints",
    "threshold": "threshold",
    "leakage": "leakage",
    "theorem4": "tight_remap",
    "utility": "certify_utility",
    "exponential_bound": "certify_exponential_bound",
    "tradeoff": "certify_tradeoff",
    "utility_comparison": "compare_utilities",
    "extension": "certify_extension",
    "best_extension": "best_extension_bracket",
    "profile": "certify_profile",
    "composition": "certify_composition",
    "renyi": "certify_renyi",
    "fdp": "certify_fdp",
    "audit": "certify_audit",
    "decomposition": "certify_decomposition",
    "lattice_composition": "certify_lattice_composition",
}

__all__ = [
    "CHECKERS",
    "best_extension_bracket",
    "certify_all_eps",
    "certify_approx",
    "certify_audit",
    "certify_composition",
    "certify_decomposition",
    "certify_exponential_bound",
    "certify_extension",
    "certify_fdp",
    "certify_lattice_composition",
    "certify_lp_infeasible",
    "certify_lp_optimum",
    "certify_privacy",
    "certify_profile",
    "certify_relation",
    "certify_renyi",
    "certify_tradeoff",
    "certify_universal_optimality",
    "certify_utility",
    "compare_utilities",
    "leakage",
    "regular_prior",
    "resolve_level",
    "smallest_epsilon",
    "threshold",
    "tight_constraints",
    "tight_remap",
]
