"""The checkers' front door (issues 21, 31): every kind's checker is importable from ``exactdp.certify``.

The checkers live where their mathematics lives, in the topic packages; each is declared with its kind
(``@evidence_kind(name, checker=...)``), and ``exactdp.certify`` names them all, derived from the table of kinds.
Each kind is written by its checker: the kind's genuine example calls it (seen by wrapping the checker in its
module) and returns a certificate of that kind.
"""

import importlib
import subprocess
import sys

import pytest

import exactdp.certify as front
from exactdp.certificate.kinds import KINDS


def test_every_checker_is_importable_from_the_front_door():
    names = {k.checker_name for k in KINDS.values()}
    assert len(names) == len(KINDS)             # one checker per kind
    assert sorted(front.__all__) == sorted({"CHECKERS", "resolve_level", *names})
    for kind in KINDS.values():
        fn = getattr(front, kind.checker_name)
        assert fn.__module__ == kind.checker_module
        assert fn is getattr(importlib.import_module(fn.__module__), fn.__name__)   # the function, not a wrapper
    assert front.resolve_level is importlib.import_module("exactdp.privacy").resolve_level


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'certify_nothing'"):
        front.certify_nothing  # noqa: B018
    with pytest.raises(ImportError):
        from exactdp.certify import certify_nothing  # noqa: F401
    assert {k.checker_name for k in KINDS.values()} <= set(dir(front))


def test_every_kind_has_its_checker_in_the_front_door():
    assert set(front.CHECKERS) == set(KINDS)
    assert set(front.CHECKERS.values()) <= set(front.__all__)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_checker_writes_its_kind(kind, monkeypatch):
    k = KINDS[kind]
    module = importlib.import_module(k.checker_module)
    real, calls = getattr(module, k.checker_name), []

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, k.checker_name, spy)
    cert = k.example()
    assert calls and cert.kind == kind


def test_import_exactdp_loads_no_topic_checker_through_the_front_door():
    # the checkers are loaded on first use: tradeoff (sympy) stays unloaded by ``import exactdp``
    code = ("import sys, exactdp.certify; print('exactdp.utility.tradeoff' in sys.modules); "
            "from exactdp.certify import certify_tradeoff; print('exactdp.utility.tradeoff' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.split() == ["False", "True"]
