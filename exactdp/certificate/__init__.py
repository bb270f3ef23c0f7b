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

Adding a certificate kind (docs/architecture.md#sec-kinds): in its topic package's ``evidence`` module, a frozen
dataclass subclass of :class:`Evidence` decorated ``@evidence_kind("name", checker="exactdp.<pkg>.<mod>:<fn>")``
(fields: exact JSON data; nested records declared in ``_nested``) with an ``example()`` classmethod, and a renderer
decorated ``@renderer("name")``; its checker where its mathematics lives; its kernel module
``exactdp/recheck/<concept>.py`` with an ``EVIDENCE`` table naming the kind.  The table of kinds
(:data:`exactdp.certificate.kinds.KINDS`), the front door, the JSON schema (``schema/certificate.schema.json``,
regenerated) and the test tables are derived from these.

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
