"""Certificates: the contract every layer shares (docs/architecture.md#sec-certificates).

A certificate is data, not prose and not live objects:

- :class:`Verdict` -- holds / fails / undecided, one encoding everywhere
  (the :class:`~exactdp.errors.Undecided` exception carries ``Verdict.UNDECIDED``);
- :class:`Method` -- what the verdict rests on (with ``precision`` in bits for balls);
- ``evidence`` -- one typed, frozen :class:`Evidence` record per certificate kind,
  holding exact text and numbers only (see :mod:`exactdp.certificate.records`).

Three separate steps:

1. **decide** -- a checker returns ``Certificate(kind, verdict, method, claim, evidence, reason=...)``;
2. **render** -- one renderer per kind (:func:`renderer`) writes the worked proof
   (:class:`Proof` of :class:`Step`) from the evidence alone; ``to_text``,
   ``to_markdown``, ``to_latex`` and the notebook view use it;
3. **re-check** -- :func:`exactdp.recheck.recheck` reads only ``to_json()`` and
   re-derives the verdict with its own small kernel.

Adding a certificate kind: its row in the table :data:`exactdp.certificate.kinds.KINDS`,
a frozen dataclass subclass of :class:`Evidence` decorated ``@evidence_kind("name")``
(fields: exact JSON data; nested records declared in ``_nested``), a renderer
decorated ``@renderer("name")`` (``def _(cert) -> Proof``), a re-check module
``exactdp/recheck/<concept>.py`` listed in ``exactdp.recheck.KINDS``, and its entry in
``schema/certificate.schema.json`` (regenerated); ``tests/certificate/test_kinds.py``
checks that all of them name the same kinds.

>>> from exactdp import geometric, path, certify_privacy
>>> c = certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2")
>>> c.verdict, c.method.name, c.evidence.epsilon
(<Verdict.HOLDS: 'holds'>, 'RATIONAL', 'log(2)')
>>> Certificate.from_json(c.to_json()) == c
True
"""

from .common import Constraint, LevelData, MechanismData, MetricData, level_data, mechanism_data, metric_data
from .core import SCHEMA, SCHEMA_VERSION, UNDECIDED, Certificate, Method, Verdict
from .records import Evidence, Record, evidence_from_json, evidence_kind, evidence_kinds
from .render import Proof, Step, renderer
from . import kinds as _kinds  # noqa: F401  (the table of kinds: imports every evidence module, filling the registries)

__all__ = [
           "SCHEMA",
           "SCHEMA_VERSION",
           "UNDECIDED",
           "Certificate",
           "Constraint",
           "Evidence",
           "LevelData",
           "MechanismData",
           "Method",
           "MetricData",
           "Proof",
           "Record",
           "Step",
           "Verdict",
           "evidence_from_json",
           "evidence_kind",
           "evidence_kinds",
           "level_data",
           "mechanism_data",
           "metric_data",
           "renderer",
]
