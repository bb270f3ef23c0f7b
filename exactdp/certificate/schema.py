"""The JSON Schema of certificates, generated from the evidence records.

``schema/certificate.schema.json`` in the repository is this function's
output; a test regenerates it and fails when the file is stale, and validates
certificates of every kind against it.
"""

from __future__ import annotations

from dataclasses import MISSING, fields

from .core import SCHEMA, SCHEMA_VERSION, Method, Verdict
from .records import Record, evidence_kinds

__all__ = ["json_schema"]

_BASIC = {"str": {"type": "string"}, "int": {"type": "integer"}, "bool": {"type": "boolean"},
          "list": {"type": "array"}, "dict": {"type": "object"}, "None": {"type": "null"},
          "IntMatrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}


def _type(annotation: str, records: dict) -> dict:
    parts = [p.strip() for p in annotation.split("|")]
    out: list = []
    for p in parts:
        if p in _BASIC:
            out.append(_BASIC[p])
        elif p in records:
            out.append({"$ref": f"#/$defs/{p}"})
        else:
            raise TypeError(f"schema: unsupported annotation {annotation!r}")
    return out[0] if len(out) == 1 else {"anyOf": out}


def _record_schema(cls, records: dict) -> dict:
    props, required = {}, []
    for f in fields(cls):
        t = _type(str(f.type), records)
        sub = cls._nested.get(f.name)
        if sub is not None and "array" in str(t):
            t = {"anyOf": [{"type": "array", "items": {"$ref": f"#/$defs/{sub.__name__}"}}, {"type": "null"}]} \
                if "None" in str(f.type) else {"type": "array", "items": {"$ref": f"#/$defs/{sub.__name__}"}}
        props[f.name] = t
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(f.name)
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False,
            "description": (cls.__doc__ or "").strip().split("\n\n")[0]}


def _all_records() -> dict:
    seen: dict = {}

    def visit(cls):
        if cls.__name__ in seen:
            return
        seen[cls.__name__] = cls
        for sub in cls._nested.values():
            visit(sub)
    for cls in evidence_kinds().values():
        visit(cls)
    return dict(sorted(seen.items()))


def json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of an exactdp certificate, one evidence branch per kind."""
    records = _all_records()
    assert all(issubclass(c, Record) for c in records.values())
    defs = {name: _record_schema(cls, records) for name, cls in records.items()}
    kinds = evidence_kinds()
    branches = [{"if": {"properties": {"kind": {"const": k}}},
                 "then": {"properties": {"evidence": {"$ref": f"#/$defs/{cls.__name__}"}}}}
                for k, cls in sorted(kinds.items())]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{SCHEMA}/{SCHEMA_VERSION}",
        "title": "exactdp certificate",
        "description": "A certificate: verdict, method and typed evidence (exact text and numbers only). Exact "
                       "numbers are strings in the exactdp grammar (\"3/4\", \"log(2)\", \"1/12*exp(2/3)\").",
        "type": "object",
        "properties": {
            "schema": {"const": SCHEMA},
            "version": {"const": SCHEMA_VERSION},
            "kind": {"enum": sorted(kinds)},
            "verdict": {"enum": [v.value for v in Verdict]},
            "method": {"enum": [m.name for m in Method]},
            "precision": {"type": ["integer", "null"]},
            "claim": {"type": "string"},
            "reason": {"type": ["string", "null"]},
            "note": {"type": "string"},
            "evidence": {"type": "object"},
        },
        "required": ["schema", "version", "kind", "verdict", "method", "precision", "claim", "reason", "note",
                     "evidence"],
        "additionalProperties": False,
        "allOf": branches,
        "$defs": defs,
    }
