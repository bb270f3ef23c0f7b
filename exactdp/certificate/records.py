"""Typed evidence records: exact JSON data only, never live objects (DESIGN.md section 4).

A :class:`Record` is a frozen dataclass whose fields hold JSON values that
are exact by construction: ``str`` (exact numbers in the exactdp grammar,
e.g. ``"3/4"``, ``"log(2)"``, ``"1/12*exp(2/3)"``), ``int``, ``bool``,
``None``, lists and string-keyed dicts of these, and nested records.  A float,
an ``fmpq`` or a live ``Mechanism`` in a record is an internal error: it is
refused when the record is built, so a certificate can never depend on an
object the independent re-check cannot see.

An :class:`Evidence` is a record registered under a certificate *kind* with
:func:`evidence_kind`; :func:`evidence_from_json` rebuilds it from JSON.
Nested records are declared per class in ``_nested`` (field name -> record
class), so ``from_json(to_json(r)) == r`` exactly.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair(Record):
...     x: str
...     y: str
>>> Pair("1/2", "3").to_json()
{'x': '1/2', 'y': '3'}
>>> Pair.from_json({'x': '1/2', 'y': '3'}) == Pair("1/2", "3")
True
>>> Pair(0.5, "3")
Traceback (most recent call last):
...
TypeError: Pair.x: evidence holds exact JSON data only (str, int, bool, None, list, dict, records), got float
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, ClassVar, TypeVar

__all__ = ["Record", "Evidence", "evidence_kind", "evidence_from_json", "evidence_kinds"]


def _flat_ints(rows: list) -> bool:
    """Is every element a list of plain ints?"""
    return all(type(r) is list and set(map(type, r)) <= _INT for r in rows)


_INT = {int}


def _check(value: Any, where: str) -> None:
    if value is None or isinstance(value, (str, bool, Record)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, list):
        if value and type(value[0]) is list and _flat_ints(value):
            return  # a matrix of ints (a mechanism's codes): checked row by row in C, not cell by cell
        for v in value:
            _check(v, where)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where}: evidence dict keys are strings, got {type(k).__name__}")
            _check(v, where)
        return
    raise TypeError(f"{where}: evidence holds exact JSON data only (str, int, bool, None, list, dict, records), "
                    f"got {type(value).__name__}")


def _dump(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_json()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


_RecordT = TypeVar("_RecordT", bound="Record")


@dataclass(frozen=True)
class Record:
    """Base of typed evidence records (see the module docstring)."""

    #: field name -> Record subclass for nested records (a single record, or a list of them)
    _nested: ClassVar[dict] = {}

    def __post_init__(self):
        for f in fields(self):
            _check(getattr(self, f.name), f"{type(self).__name__}.{f.name}")

    def to_json(self) -> dict:
        """The record as JSON data (a dict of exact values)."""
        return {f.name: _dump(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls: type[_RecordT], data: dict) -> _RecordT:
        """Rebuild a record from :meth:`to_json` output; unknown or missing fields are refused."""
        if not isinstance(data, dict):
            raise ValueError(f"{cls.__name__}: expected a JSON object, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        extra = sorted(set(data) - set(names))
        missing = [n for n in names if n not in data]
        if extra or missing:
            raise ValueError(f"{cls.__name__}: fields do not match the schema"
                             + (f"; unknown {extra}" if extra else "") + (f"; missing {missing}" if missing else ""))
        kw = {}
        for n in names:
            v, sub = data[n], cls._nested.get(n)
            if sub is not None and v is not None:
                v = [sub.from_json(x) for x in v] if isinstance(v, list) else sub.from_json(v)
            kw[n] = v
        return cls(**kw)


_KINDS: dict = {}


@dataclass(frozen=True)
class Evidence(Record):
    """The evidence of one certificate kind; subclasses are registered with :func:`evidence_kind`."""

    kind: ClassVar[str] = ""


_R = TypeVar("_R", bound=type)


def evidence_kind(name: str) -> Callable[[_R], _R]:
    """Class decorator registering an :class:`Evidence` subclass under certificate kind ``name``."""
    def deco(cls: _R) -> _R:
        if not (isinstance(cls, type) and issubclass(cls, Evidence)):
            raise TypeError("evidence_kind: decorate an Evidence subclass")
        if name in _KINDS and _KINDS[name] is not cls:
            raise ValueError(f"evidence kind {name!r} registered twice")
        cls.kind = name
        _KINDS[name] = cls
        return cls
    return deco


def evidence_kinds() -> dict:
    """The registered kinds: name -> Evidence subclass."""
    return dict(_KINDS)


def evidence_from_json(kind: str, data: dict) -> Evidence:
    """Rebuild the evidence of a certificate of ``kind`` from JSON."""
    cls = _KINDS.get(kind)
    if cls is None:
        raise ValueError(f"certificate kind {kind!r} is unknown; known: {', '.join(sorted(_KINDS))}")
    return cls.from_json(data)
