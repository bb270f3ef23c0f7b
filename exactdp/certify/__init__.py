"""Every checker that returns a certificate, in one place (the front door; docs/architecture.md#sec-kinds).

A checker decides one claim exactly and returns a :class:`~exactdp.certificate.Certificate` of one kind.  Each
checker is written where its mathematics lives, in its topic package, and declared with its kind
(``@evidence_kind(name, checker=...)``); this package names them all, derived from the table of kinds
(:data:`exactdp.certificate.kinds.KINDS`), so ``from exactdp.certify import ...`` finds each of them while imports
still run one way.  The names are the functions themselves, not wrappers, and each is imported on first use
(PEP 562): ``import exactdp`` does not pay for a topic it does not call (``utility.tradeoff`` imports sympy).

>>> from exactdp.certify import certify_privacy, tight_constraints
>>> from exactdp import geometric, path
>>> certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2").verdict.value
'holds'
>>> from exactdp.certify import CHECKERS
>>> CHECKERS["utility_comparison"]
'compare_utilities'
"""

import importlib

# the privacy judgement's checkers are imported here (``import exactdp`` loads them anyway), so a type checker
# sees their signatures through this door; the others are typed at their modules and reached here on first use
from ..privacy import certify_all_eps as certify_all_eps
from ..privacy import certify_approx as certify_approx
from ..privacy import certify_privacy as certify_privacy
from ..privacy import certify_relation as certify_relation
from ..privacy import resolve_level as resolve_level
from ..privacy import smallest_epsilon as smallest_epsilon

_TABLE: dict = {}


def _where() -> dict:
    """public name -> the module defining it (every kind's checker), from the table of kinds, read once."""
    if not _TABLE:
        from ..certificate.kinds import KINDS

        _TABLE.update({kind.checker_name: kind.checker_module for kind in KINDS.values()})
    return _TABLE


def __getattr__(name: str):
    """The checker ``name``, imported from its module on first use (PEP 562); also ``CHECKERS`` and ``__all__``."""
    if name == "CHECKERS":      # certificate kind -> the name of the checker of this package that writes it
        from ..certificate.kinds import KINDS

        return {kind: k.checker_name for kind, k in KINDS.items()}
    if name == "__all__":
        return ["CHECKERS", "resolve_level", *sorted(_where())]
    if name not in _where():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    fn = getattr(importlib.import_module(_where()[name]), name)
    globals()[name] = fn
    return fn


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_where()) | {"CHECKERS"})
