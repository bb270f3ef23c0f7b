"""Static typing: ``mypy exactdp`` is clean (bodies of unannotated functions included), and a certificate's
evidence keeps its type for callers.

Run through mypy's API with the configuration of pyproject.toml ([tool.mypy]); the cache goes to the
repository's .mypy_cache, so a second run takes a second or two.
"""

import os

import pytest
from mypy import api

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: mypy depends on tomli there
    import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = ["--config-file", os.path.join(ROOT, "pyproject.toml"), "--cache-dir", os.path.join(ROOT, ".mypy_cache")]


def _mypy(*args):
    out, err, status = api.run(ARGS + list(args))
    return out, err, status


@pytest.mark.slow
def test_the_package_is_clean():
    out, err, status = _mypy(os.path.join(ROOT, "exactdp"))
    assert status == 0, out[-5000:] + err[-2000:]
    assert "Success: no issues found" in out


def _config_text() -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return f.read()


def _pending_modules(config_text: str) -> list[str]:
    """The modules of the [[tool.mypy.overrides]] block that turns ``check_untyped_defs`` off again."""
    config = tomllib.loads(config_text)
    blocks = [o for o in config["tool"]["mypy"].get("overrides", []) if o.get("check_untyped_defs") is False]
    return [m for o in blocks for m in o["module"]]


def test_untyped_bodies_are_checked():
    config = tomllib.loads(_config_text())
    assert config["tool"]["mypy"]["check_untyped_defs"] is True


def test_every_pending_module_still_has_an_error(tmp_path):
    text = _config_text()
    pending = _pending_modules(text)
    if not pending:
        return
    strict = tmp_path / "pyproject.toml"
    strict.write_text(text.replace("check_untyped_defs = false", "check_untyped_defs = true"), encoding="utf-8")
    assert not _pending_modules(strict.read_text(encoding="utf-8"))
    out, _, _ = api.run(["--config-file", str(strict), "--cache-dir", os.path.join(ROOT, ".mypy_cache"),
                           os.path.join(ROOT, "exactdp")])
    files = {line.split(":", 1)[0].replace(os.sep, "/") for line in out.splitlines() if ": error:" in line}
    failing = {f.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for f in files}
    failing = {m[m.index("exactdp"):] for m in failing if "exactdp" in m}
    clean = [m for m in pending if m not in failing]
    assert not clean, f"these modules pass check_untyped_defs now; remove them from the override in pyproject.toml: " \
                      f"{clean}"


# A caller's program: Certificate[E] carries the evidence type, so a field of the wrong type is caught.
_CALLER = """
from exactdp.certify import certify_relation, smallest_epsilon
from exactdp.mechanisms import geometric
from exactdp.metrics import path

c = smallest_epsilon(geometric(3, "1/2"), path(4))
eps: str | None = c.evidence.epsilon
r = certify_relation("1/2", "1/3", ">")
failure: str | None = r.evidence.failure_set
"""


def _check_caller(tmp_path, monkeypatch, text):
    monkeypatch.chdir(ROOT)  # exactdp is found from the repository root
    f = tmp_path / "caller.py"
    f.write_text(text)
    return _mypy(str(f))


def test_a_callers_evidence_fields_type_check(tmp_path, monkeypatch):
    out, err, status = _check_caller(tmp_path, monkeypatch, _CALLER)
    assert status == 0, out[-3000:] + err[-2000:]


@pytest.mark.parametrize("line, message", [
    ("n: int = c.evidence.epsilon", 'Incompatible types in assignment (expression has type "str | None"'),
    ("c.evidence.no_such_field", '"EpsilonEvidence" has no attribute "no_such_field"'),
    ("r.evidence.epsilon", '"RelationEvidence" has no attribute "epsilon"'),
])
def test_a_wrong_evidence_field_is_caught(tmp_path, monkeypatch, line, message):
    out, err, status = _check_caller(tmp_path, monkeypatch, _CALLER + line + "\n")
    assert status == 1, out[-3000:] + err[-2000:]
    assert message in out, out[-3000:]
