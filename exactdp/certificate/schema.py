"""The JSON Schema of certificates, generated from the evidence records.

A field declared ``dataclasses.field(metadata={"role": "hint"})`` is a *hint* (data that only speeds the
re-check or helps people read, never a claim): its schema carries ``"x-exactdp-role": "hint"``.  Every other
field is a claim, re-derived by the independent re-check.  ``list[T]`` annotations give typed arrays.

``schema/certificate.schema.json`` in the repository is this function's
output; a test regenerates it and fails when the file is stale, and validates
certificates of every kind against it.
"""

from __future__ import annotations

from dataclasses import MISSING, fields

from .core import SCHEMA, SCHEMA_VERSION, Method, Verdict
from .records import Record, evidence_kinds

__all__ = ["json_schema"]

_BASIC: dict[str, dict] = {"str": {"type": "string"}, "int": {"type": "integer"}, "bool": {"type": "boolean"},
          "list": {"type": "array"}, "dict": {"type": "object"}, "None": {"type": "null"},
          "IntMatrix": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}}


def _one(p: str, records: dict) -> dict:
    if p.startswith("list[") and p.endswith("]"):
        return {"type": "array", "items": _one(p[5:-1].strip(), records)}
    if p.startswith("dict[str,") and p.endswith("]"):
        return {"type": "object", "additionalProperties": _one(p[9:-1].strip(), records)}
    if p in _BASIC:
        return _BASIC[p]
    if p in records:
        return {"$ref": f"#/$defs/{p}"}
    raise TypeError(f"schema: unsupported annotation {p!r}")


def _type(annotation: str, records: dict) -> dict:
    out = [_one(p.strip(), records) for p in annotation.split("|")]
    return out[0] if len(out) == 1 else {"anyOf": out}


def _record_schema(cls, records: dict) -> dict:
    props, required = {}, []
    for f in fields(cls):
        t = _type(f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type)), records)
        sub = cls._nested.get(f.name)
        if sub is not None and "array" in str(t):
            t = {"anyOf": [{"type": "array", "items": {"$ref": f"#/$defs/{sub.__name__}"}}, {"type": "null"}]} \
                if "None" in str(f.type) else {"type": "array", "items": {"$ref": f"#/$defs/{sub.__name__}"}}
        if f.metadata.get("role") == "hint":
            t = {**t, "x-exactdp-role": "hint"}
        props[f.name] = t
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(f.name)
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False,
            "description": (cls.__doc__ or "").strip().split("\n\n")[0]}


def _all_records() -> dict:
    seen: dict = {}

    def visit(cls):
        if cls.__name__ in seen:
            if seen[cls.__name__] is not cls:  # the schema names a record by its class name: two would merge
                raise TypeError(f"two certificate records are named {cls.__name__!r} "
                                f"({seen[cls.__name__].__module__} and {cls.__module__}): rename one")
            return
        seen[cls.__name__] = cls
        for sub in cls._nested.values():
            visit(sub)
    for cls in evidence_kinds().values():
        visit(cls)
    return dict(sorted(seen.items()))


def json_schema() -> dict:
    """The JSON Schema (draft 2020-12) of an exactdp certificate, one evidence branch per kind.

    Returns
    -------
    dict
        The schema; ``schema/certificate.schema.json`` is its JSON text.

    Examples
    --------
    >>> s = json_schema()
    >>> s["properties"]["version"], s["$defs"]["Piece"]["properties"]["lo_approx"]["x-exactdp-role"]
    ({'const': 2}, 'hint')
    """
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
