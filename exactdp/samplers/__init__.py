"""Exact laws of sampler implementations (issue 30): run a sampler's own code against an exploring source of
randomness, enclose each output probability in an exact rational interval, compare with a target law through Arb
balls, and bound the privacy of the additive mechanism the code implements.

:func:`law` explores (``explore.py``), :func:`compare` decides against a target (``targets.py``),
:func:`additive_privacy` states the privacy of the implementation (``privacy.py``); ``cks20.py`` holds
reference samplers from Canonne, Kamath and Steinke 2020 and their planted-bug mutants for the tests.
"""

from .explore import Law, SamplerError, law
from .privacy import AdditivePrivacy, additive_privacy
from .targets import Comparison, Row, Target, compare, parse_target, target

__all__ = ["AdditivePrivacy", "Comparison", "Law", "Row", "SamplerError", "Target",
           "additive_privacy", "compare", "law", "parse_target", "target"]
