"""The checks every topic's ``tests/<topic>/test_evidence.py`` runs on the kinds its ``evidence`` module declares
(issue 31: a module's tests at its mirrored path): each kind's genuine example round-trips through JSON exactly,
renders in every format from its evidence alone, and shows no hint as a fact.

A *hint* is a field declared ``field(metadata={"role": "hint"})`` (data that only speeds the re-check or helps a
reader, never a claim; docs/architecture.md#sec-certificates).  "Not shown as a fact" is tested two ways: (1)
dropping every hint (back to its default) changes no line of any rendering except lines that say ``hint``; (2) a
text hint set to a sentinel appears only on lines that say ``hint``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from html.parser import HTMLParser

import jsonschema
from _latex_check import latex_problems

from exactdp.certificate import Certificate, Evidence
from exactdp.certificate.kinds import KINDS
from exactdp.certificate.records import Record
from exactdp.certificate.schema import json_schema as _json_schema

SENTINEL = "SENTINEL-31-not-a-fact"
_VOID = {"br", "hr", "img", "meta", "link", "input", "col", "wbr"}


@functools.cache
def _validator():
    """A validator of the certificate schema, built once per session (building the schema takes 0.7 s)."""
    schema = _json_schema()
    return jsonschema.validators.validator_for(schema)(schema)


def kinds_of(module: str) -> list[str]:
    """The kinds whose evidence record and renderer are both declared in ``module`` (sorted)."""
    return sorted(k for k, row in KINDS.items()
                  if row.evidence.__module__ == module and row.renderer.__module__ == module)


def check_round_trip(kind: str) -> None:
    """The example is of ``kind``, valid against the schema, and equal to itself read back from JSON text."""
    c = KINDS[kind].example()
    assert c.kind == kind and type(c.evidence) is KINDS[kind].evidence and isinstance(c.evidence, Evidence)
    j = c.to_json()
    _validator().validate(j)
    text = json.dumps(j)
    back = Certificate.from_json(text)
    assert back == c
    assert back.to_json() == j and json.dumps(back.to_json()) == text


class _Tags(HTMLParser):
    """Open/close tags in order; a close that does not match the innermost open tag is recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(f"</{tag}> closes nothing open")


def html_problems(html: str) -> list[str]:
    """Unbalanced tags of an HTML fragment (empty when every tag closes in order)."""
    p = _Tags()
    p.feed(html)
    p.close()
    return p.problems + [f"<{t}> never closed" for t in p.stack]


def renderings(c: Certificate) -> dict[str, str]:
    """The certificate in every output format."""
    return {"text": c.to_text(), "markdown": c.to_markdown(), "latex": c.to_latex(), "html": c.to_html(),
            "json": c.render("json")}


def check_renders(kind: str) -> None:
    """Every format renders, from the evidence alone (a copy read back from JSON renders identically)."""
    c = KINDS[kind].example()
    out = renderings(c)
    assert renderings(Certificate.from_json(c.to_json_str())) == out
    verdict = c.verdict.value
    value_only = c.proof().value_only          # a computed value (leakage) shows no verdict line
    text = out["text"].splitlines()
    assert text[0].split(None, 1) == ["claim:", c.claim]
    assert (f"verdict: {verdict}" in text) is not value_only and "$" not in out["text"]
    assert out["markdown"].splitlines()[0] == f"**Claim.** {c.claim}"
    assert (f"**Verdict.** {verdict}" in out["markdown"]) is not value_only
    assert r"\begin{proof}" in out["latex"] and latex_problems(out["latex"]) == []
    assert out["html"].splitlines()[0] == '<div class="exactdp-certificate">' and html_problems(out["html"]) == []
    assert out["json"] == c.to_json_str() + "\n" and json.loads(out["json"]) == c.to_json()


def _with_hints(value, reset: bool):
    """``value`` with every hint field (at any depth) reset to its default, or, with ``reset=False``, every
    text hint set to :data:`SENTINEL`; returns ``(new value, number of hints changed)``."""
    if isinstance(value, list):
        parts = [_with_hints(v, reset) for v in value]
        return [p[0] for p in parts], sum(p[1] for p in parts)
    if not isinstance(value, Record):
        return value, 0
    changes, count = {}, 0
    for f in dataclasses.fields(value):
        old = getattr(value, f.name)
        if f.metadata.get("role") == "hint":
            text = isinstance(old, str) or str(f.type).replace(" ", "") in ("str", "str|None")
            default = None if f.default is dataclasses.MISSING else f.default
            new = default if reset else (SENTINEL if text else old)
            if new != old:
                changes[f.name], count = new, count + 1
        else:
            new, n = _with_hints(old, reset)
            if n:
                changes[f.name], count = new, count + n
    return (dataclasses.replace(value, **changes) if changes else value), count


def hint_fields(kind: str) -> list[str]:
    """Names of the hint fields of ``kind``'s evidence, at any depth (through nested records)."""
    out, seen = [], set()

    def visit(cls):
        if cls in seen:
            return
        seen.add(cls)
        for f in dataclasses.fields(cls):
            if f.metadata.get("role") == "hint":
                out.append(f"{cls.__name__}.{f.name}")
        for sub in cls._nested.values():
            visit(sub)
    visit(KINDS[kind].evidence)
    return sorted(out)


def _changed_lines(a: dict[str, str], b: dict[str, str]) -> list[str]:
    out = []
    for fmt in a:
        if fmt != "json":       # the JSON carries every field, hints included: that is its job
            out += sorted(set(a[fmt].splitlines()) ^ set(b[fmt].splitlines()))
    return out


def check_hints(kind: str, certificate: Certificate | None = None) -> int:
    """No rendering shows a hint of ``certificate`` (default: the example) as a fact; returns how many hint values
    the two probes changed (0 when the certificate carries no hint)."""
    c = certificate or KINDS[kind].example()
    base = renderings(c)
    dropped, n_dropped = _with_hints(c.evidence, reset=True)
    for line in _changed_lines(base, renderings(dataclasses.replace(c, evidence=dropped))):
        assert "hint" in line.lower(), f"{kind}: dropping the hints changed a line that states a fact: {line!r}"
    marked, n_marked = _with_hints(c.evidence, reset=False)
    for fmt, out in renderings(dataclasses.replace(c, evidence=marked)).items():
        if fmt != "json":
            for line in out.splitlines():
                assert SENTINEL not in line or "hint" in line.lower(), f"{kind} {fmt}: a hint shown as a fact"
    return n_dropped + n_marked
