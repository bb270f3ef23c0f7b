"""Strict reading of a certificate's JSON before any work (issue 18, "strict parsing").

A certificate is refused -- ``ValueError("not a certificate: ...")``, exit 2 on the command line -- when
its JSON repeats a key, when a top-level field is missing, unknown or of the wrong type, when the
verdict is not one of ``holds``, ``fails``, ``undecided``, and, for the kinds whose module states the
shape of its evidence (a module-level ``EVIDENCE`` spec), when an evidence field is missing, unknown or
of the wrong type.  This module's own spec language is deliberately small:

``"str"``, ``"int"``, ``"bool"``
    that JSON type (``bool`` is not an ``int`` here);
``"?"`` + spec, e.g. ``"?str"``, or ``("?", spec)``
    the spec or ``null``;
``[spec]``
    a list of ``spec``;
``("map", spec)``
    an object with any keys (strings, as in all JSON) whose values are ``spec``;
``("tuple", [spec_0, spec_1, ...])``
    a list of exactly that many items, item ``i`` of ``spec_i``;
``{name: spec, ...}``
    an object with exactly these fields.

>>> conform({"a": "1", "b": [1, 2]}, {"a": "str", "b": ["int"]}, "x")
>>> conform({"f": {"0": "1/2"}, "atom": [[2, "9/10"]]}, {"f": ("map", "str"), "atom": [("tuple", ["int", "str"])]}, "x")
>>> conform({"a": 1}, {"a": "str"}, "x")
Traceback (most recent call last):
...
ValueError: not a certificate: x.a: expected str, got int
"""

from __future__ import annotations

import json
import unicodedata

__all__ = ["METHODS", "TOP", "VERDICTS", "conform", "loads_strict", "refuse_control"]

VERDICTS = ("holds", "fails", "undecided")
#: the names of the methods a verdict may rest on (``exactdp.certificate.Method``; a test keeps them equal)
METHODS = ("RATIONAL", "TRANSCENDENCE_BALLS", "SYMBOLIC_ROOTS", "EXACT_LP", "EXACT_SOLVE", "BALL_SOLVE",
           "VERIFIED_FLOAT", "ENUMERATION", "CLOSED_FORM", "NONE")

#: the top-level fields of a certificate (every version)
TOP = {"schema": "str", "version": "int", "kind": "str", "verdict": "str", "method": "str", "precision": "?int",
       "claim": "str", "reason": "?str", "note": "str", "evidence": "any"}

_TYPES = {"str": str, "int": int, "bool": bool}


def _bad(where: str, what: str):
    """The error for a file that is not a certificate: ValueError, so the answer is ``not a certificate`` (exit 2)."""
    return ValueError(f"not a certificate: {where}: {what}")


def conform(value, spec, where: str) -> None:
    """Raise ``ValueError("not a certificate: ...")`` unless ``value`` has the shape ``spec`` (module docstring)."""
    if isinstance(spec, str) and spec.startswith("?"):
        spec = ("?", spec[1:])
    if isinstance(spec, tuple) and spec[0] == "map":
        if type(value) is not dict:
            raise _bad(where, f"expected an object, got {_name(value)}")
        for k, v in value.items():
            conform(v, spec[1], f"{where}.{k}")
        return
    if isinstance(spec, tuple) and spec[0] == "tuple":
        if type(value) is not list or len(value) != len(spec[1]):
            raise _bad(where, f"expected a list of {len(spec[1])} items, got {_name(value)}")
        for i, (v, s) in enumerate(zip(value, spec[1], strict=True)):
            conform(v, s, f"{where}[{i}]")
        return
    if isinstance(spec, tuple):
        if value is not None:
            conform(value, spec[1], where)
        return
    if spec == "any":
        return
    if isinstance(spec, str):
        t = _TYPES[spec]
        if type(value) is not t:
            raise _bad(where, f"expected {spec}, got {_name(value)}")
        return
    if isinstance(spec, list):
        if type(value) is not list:
            raise _bad(where, f"expected a list, got {_name(value)}")
        for i, v in enumerate(value):
            conform(v, spec[0], f"{where}[{i}]")
        return
    if type(value) is not dict:
        raise _bad(where, f"expected an object, got {_name(value)}")
    extra = sorted(set(value) - set(spec))
    missing = sorted(set(spec) - set(value))
    if extra or missing:
        raise _bad(where, "fields do not match" + (f"; unknown {extra}" if extra else "")
                   + (f"; missing {missing}" if missing else ""))
    for k, s in spec.items():
        conform(value[k], s, f"{where}.{k}")
    if set(spec) == _LEVEL_FIELDS:
        _one_level(value, where)


#: the fields of a level record: ``eps`` when it is algebraic, otherwise ``e^eps = R^(1/D)``
_LEVEL_FIELDS = {"text", "eps", "R", "D"}


def _one_level(value: dict, where: str) -> None:
    """A level states either ``eps`` or ``(R, D)``, never both and never neither (a field no check would read)."""
    if (value["eps"] is None) != (value["R"] is not None and value["D"] is not None) or \
            (value["eps"] is not None and (value["R"] is not None or value["D"] is not None)):
        raise _bad(where, "a level states either eps, or R and D (e^eps = R^(1/D)): "
                   f"eps = {value['eps']!r}, R = {value['R']!r}, D = {value['D']!r}")


def _name(v) -> str:
    """The JSON type name of ``v`` (``null``, ``object``, ``list``, or Python's type name), for messages."""
    if v is None:
        return "null"
    return "object" if isinstance(v, dict) else "list" if isinstance(v, list) else type(v).__name__


def _no_duplicates(pairs: list) -> dict:
    """``object_pairs_hook`` of the strict reader: an object from its pairs, refused when a key appears twice
    (``json`` would keep the last one silently, so two readers could see different certificates)."""
    out: dict = {}
    for k, v in pairs:
        if k in out:
            raise _bad("JSON", f"the key {k!r} appears twice in one object")
        out[k] = v
    return out


def _no_constant(name: str):
    """``parse_constant`` hook of the strict reader: ``NaN``, ``Infinity`` and ``-Infinity`` are refused (not JSON
    numbers, and not exact)."""
    raise _bad("JSON", f"{name} is not a JSON number")


def loads_strict(text: str):
    """``json.loads`` refusing repeated keys and ``NaN``/``Infinity`` (``ValueError``).

    >>> loads_strict('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    ValueError: not a certificate: JSON: the key 'a' appears twice in one object
    """
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


#: characters that change how a printed line reads: bidirectional embeddings, overrides and isolates (Cf)
_BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c")


def _control(text: str) -> str | None:
    """The first control character of ``text`` (a C0/C1 control such as a newline, a line or paragraph
    separator, or a bidirectional control), or None."""
    for ch in text:
        if ch in _BIDI or unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return ch
    return None


def refuse_control(value, where: str = "certificate", multiline: frozenset = frozenset()) -> None:
    """Refuse (``ValueError("not a certificate: ...")``) a control character in any text of the JSON, keys too.

    Every text of a certificate is printed on one line of a claim, a proof or a detail (a name, a label, a note):
    a newline would start a line of its own -- e.g. one reading like a checked step under "the proof below is
    checked" -- and a bidirectional control would reorder what is shown.  No checked fact needs one.

    >>> refuse_control({"note": "two", "evidence": {"names": ["a", "b"]}})
    >>> refuse_control({"note": "fine", "evidence": {"names": ["a\\nchecked: b"]}})
    Traceback (most recent call last):
    ...
    ValueError: not a certificate: certificate.evidence.names[0]: a control character ('\\n') in a text field

    A field named in ``multiline`` (a program's source text, which the renderers never print as a line of a
    proof) may hold line feeds and tabs, and nothing else of the kind:

    >>> refuse_control({"evidence": {"text": "x = 1\\ny = 2"}}, multiline=frozenset({"certificate.evidence.text"}))
    """
    # an explicit stack rather than recursion: the depth of the JSON sets no Python limit here
    stack = [(value, where)]
    while stack:
        v, w = stack.pop()
        if isinstance(v, str):
            ch = _control(v.replace("\n", "").replace("\t", "") if w in multiline else v)
            if ch is not None:
                raise _bad(w, f"a control character ({ch!r}) in a text field")
        elif isinstance(v, dict):
            for k, x in v.items():
                ch = _control(k) if isinstance(k, str) else None
                if ch is not None:
                    raise _bad(w, f"a control character ({ch!r}) in a key")
                stack.append((x, f"{w}.{k}"))
        elif isinstance(v, list):
            stack.extend((x, f"{w}[{i}]") for i, x in enumerate(v))
