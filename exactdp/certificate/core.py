"""The certificate: verdict, method, typed evidence (DESIGN.md section 4).

One encoding of the three verdicts everywhere: :class:`Verdict`.  Its
``UNDECIDED`` member refuses to act as a boolean, so an undecided answer can
never be mistaken for ``False``:

>>> bool(Verdict.HOLDS), bool(Verdict.FAILS)
(True, False)
>>> bool(Verdict.UNDECIDED)
Traceback (most recent call last):
...
TypeError: an undecided verdict has no truth value; compare with `is UNDECIDED`

A :class:`Certificate` is data: ``to_json`` / ``from_json`` round-trip it
exactly, and the JSON carries the schema name and version
(``schema/certificate.schema.json`` in the repository).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum

from ..verdict import Verdict
from .records import Evidence, evidence_from_json

__all__ = ["Verdict", "Method", "Certificate", "UNDECIDED", "SCHEMA", "SCHEMA_VERSION"]

SCHEMA = "exactdp-certificate"
SCHEMA_VERSION = 1


#: the third verdict: no exact regime decides the question
UNDECIDED = Verdict.UNDECIDED


class Method(str, Enum):
    """What a verdict rests on (DESIGN.md section 2); a precision in bits goes with the ball methods."""

    RATIONAL = "exact rational arithmetic"
    TRANSCENDENCE_BALLS = "exact zero test (Lindemann-Weierstrass) and certified balls"
    SYMBOLIC_ROOTS = "symbolic alpha: exact identity tests and real-root isolation"
    EXACT_LP = "exact LP with dual certificate"
    EXACT_SOLVE = "exact linear solve"
    BALL_SOLVE = "certified ball (Arb) solve"
    VERIFIED_FLOAT = "verified floating-point solve with rigorous error bound"
    ENUMERATION = "exhaustive exact enumeration"
    CLOSED_FORM = "exact closed form"
    NONE = "no exact regime applies"

    def __str__(self):
        return self.value


@dataclass
class Certificate:
    """The result of a checker: what was asked, the verdict, what it rests on, and the evidence.

    Attributes
    ----------
    kind : str
        The certificate kind; equals ``evidence.kind``.
    verdict : Verdict
    method : Method
    claim : str
        What was asked, one line in words.
    evidence : Evidence
        The typed record of this kind: exact text and numbers only.
    reason : str or None
        Why the verdict is undecided (required then, absent otherwise).
    precision : int or None
        Ball precision in bits, where the method used balls.
    note : str
        How the method ran (e.g. how many comparisons the float filter settled).
    """

    kind: str
    verdict: Verdict
    method: Method
    claim: str
    evidence: Evidence
    reason: str | None = None
    precision: int | None = None
    note: str = ""

    def __post_init__(self):
        self.verdict = Verdict.of(self.verdict)
        if not isinstance(self.method, Method):
            raise TypeError(f"certificate: method must be a Method, got {self.method!r}")
        if not isinstance(self.evidence, Evidence) or self.evidence.kind != self.kind:
            raise TypeError(f"certificate of kind {self.kind!r} needs that kind's Evidence record, "
                            f"got {type(self.evidence).__name__}")
        if (self.verdict is UNDECIDED) != (self.reason is not None):
            raise ValueError("certificate: a reason is given exactly when the verdict is undecided")

    # -- the verdict -------------------------------------------------------------------------------------------
    @property
    def holds(self):
        """``True``, ``False`` or :data:`UNDECIDED`."""
        return UNDECIDED if self.verdict is UNDECIDED else self.verdict is Verdict.HOLDS

    # -- data ----------------------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The certificate as JSON data; :meth:`from_json` rebuilds it exactly."""
        return {"schema": SCHEMA, "version": SCHEMA_VERSION, "kind": self.kind, "verdict": self.verdict.value,
                "method": self.method.name, "precision": self.precision, "claim": self.claim,
                "reason": self.reason, "note": self.note, "evidence": self.evidence.to_json()}

    def to_json_str(self) -> str:
        return json.dumps(self.to_json(), indent=2)

    @classmethod
    def from_json(cls, data) -> "Certificate":
        """Rebuild a certificate from :meth:`to_json` output (a dict or JSON text)."""
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ValueError(f"not an exactdp certificate (expected \"schema\": \"{SCHEMA}\")")
        if data.get("version") != SCHEMA_VERSION:
            raise ValueError(f"certificate schema version {data.get('version')!r}; this exactdp reads "
                             f"version {SCHEMA_VERSION}")
        return cls(kind=data["kind"], verdict=Verdict(data["verdict"]), method=Method[data["method"]],
                   claim=data["claim"], evidence=evidence_from_json(data["kind"], data["evidence"]),
                   reason=data["reason"], precision=data["precision"], note=data["note"])

    # -- rendering (from the evidence alone) ---------------------------------------------------------------------
    def proof(self):
        """The worked proof (:class:`~exactdp.certificate.render.Proof`) built from the evidence."""
        from .render import proof_of

        return proof_of(self)

    def to_text(self) -> str:
        from .render import as_text

        return as_text(self)

    def to_markdown(self) -> str:
        from .render import as_markdown

        return as_markdown(self)

    def to_latex(self) -> str:
        from .render import as_latex

        return as_latex(self)

    def render(self, fmt: str) -> str:
        """``fmt`` one of ``text``, ``json``, ``markdown``, ``latex``."""
        if fmt == "json":
            return self.to_json_str() + "\n"
        return {"text": self.to_text, "markdown": self.to_markdown, "latex": self.to_latex}[fmt]()

    def _repr_markdown_(self):
        return self.to_markdown()

    def __str__(self):
        return self.to_text()

    # -- re-check --------------------------------------------------------------------------------------------------
    def recheck(self):
        """Re-verify this certificate from its JSON alone in the independent kernel :mod:`exactdp.recheck`."""
        from ..recheck import recheck

        return recheck(self.to_json())
