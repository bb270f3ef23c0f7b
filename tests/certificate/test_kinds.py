"""One registry of certificate kinds (issue 21): the table, the two registries, the kernel's KINDS and the schema agree.

The kinds are counted independently here from the source text: every ``@evidence_kind("...", checker=...)`` and
``@renderer("...")`` decorator in the ``evidence`` modules of the topic packages, and the ``kind`` enum of the committed
``schema/certificate.schema.json``; the registries filled at import must name the same set.
"""

import importlib
import importlib.util
import json
import re
from pathlib import Path

import pytest

from exactdp.certificate import evidence_kinds
from exactdp.certificate.kinds import KINDS, Kind
from exactdp.certificate.render import renderers
from exactdp.recheck import KINDS as KERNEL_KINDS

ROOT = Path(__file__).resolve().parents[2]
EVIDENCE = sorted((ROOT / "exactdp").glob("*/evidence.py"))


def _decorated(name: str) -> list[str]:
    """Every kind named by ``@name("..."...)`` in the topics' evidence modules (one decorator a line)."""
    found = []
    for f in EVIDENCE:
        found += re.findall(rf'^@{name}\("([a-z0-9_]+)"(?:, checker="exactdp\.[\w.]+:\w+")?\)$', f.read_text(),
                            flags=re.M)
    return found


def test_table_lists_each_kind_once_under_its_own_name():
    assert all(isinstance(k, Kind) and k.name == name for name, k in KINDS.items())
    assert len({k.evidence for k in KINDS.values()}) == len(KINDS)  # one evidence class per kind


def test_the_evidence_registry_is_the_table():
    assert evidence_kinds() == {name: k.evidence for name, k in KINDS.items()}
    assert all(k.evidence.kind == name for name, k in KINDS.items())


def test_the_renderer_registry_is_the_table():
    assert set(renderers()) == set(KINDS)
    assert all(callable(k.renderer) for k in KINDS.values())


def test_the_kernel_kinds_are_the_table():
    assert {name: k.recheck for name, k in KINDS.items()} == KERNEL_KINDS


def test_the_schema_kinds_are_the_table():
    schema = json.loads((ROOT / "schema" / "certificate.schema.json").read_text())
    assert sorted(schema["properties"]["kind"]["enum"]) == sorted(KINDS)


def test_every_kind_is_registered_one_way_in_the_source():
    # one decorator per kind, written as a decorator: a call form (evidence_kind("x")(Cls)) or a loop would not
    # be counted here and the sets would differ
    ev, rn = _decorated("evidence_kind"), _decorated("renderer")
    assert sorted(ev) == sorted(set(ev)) == sorted(KINDS)
    assert sorted(rn) == sorted(set(rn)) == sorted(KINDS)
    calls = [f.name for f in EVIDENCE if re.search(r'^\s*(evidence_kind|renderer)\((?!name)', f.read_text(),
                                                             flags=re.M)]
    assert calls == []


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_has_a_genuine_example_the_kernel_confirms(kind):
    cert = KINDS[kind].example()
    assert cert.kind == kind and isinstance(cert.evidence, KINDS[kind].evidence)
    assert cert.recheck().status == "confirmed"


def test_no_declaration_is_found_outside_an_evidence_module():
    # the registry is filled by importing each package's `evidence` module; a kind declared elsewhere would be
    # missing until something imported its module
    stray = [p.relative_to(ROOT).as_posix() for p in (ROOT / "exactdp").rglob("*.py")
             if p.name != "evidence.py" and "recheck" not in p.parts
             and re.search(r'^@(evidence_kind|renderer)\(', p.read_text(), flags=re.M)]
    assert stray == []


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_recheck_module_exists_and_checks(kind):
    name = f"exactdp.recheck.{KINDS[kind].recheck}"
    assert importlib.util.find_spec(name) is not None, name
    mod = importlib.import_module(name)
    assert callable(getattr(mod, "check", None)) and callable(getattr(mod, "claim_text", None))


def test_modules_are_named_by_concept_not_by_paper():
    papers = {"ecp14", "kl10", "grs12", "hlm15", "bcsz18"}
    # every package but exactdp/papers/, whose claims are filed by paper on purpose (one module per paper)
    packages = sorted(p.name for p in (ROOT / "exactdp").iterdir() if (p / "__init__.py").is_file())
    assert "papers" in packages and "plot" in packages
    for pkg in (p for p in packages if p != "papers"):
        stems = {p.stem for p in (ROOT / "exactdp" / pkg).glob("*.py")}
        assert not stems & papers, (pkg, stems & papers)
        assert not {s for s in stems if s.endswith(("_cmp", "approx"))}, pkg
