"""Static typing: ``mypy exactdp`` is clean, and a certificate's evidence keeps its type for callers.

Run through mypy's API with the configuration of pyproject.toml ([tool.mypy]); the cache goes to the
repository's .mypy_cache, so a second run takes a second or two.
"""

import os

import pytest
from mypy import api

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
