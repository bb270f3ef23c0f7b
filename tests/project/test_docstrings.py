"""Every public function, class and method has a numpydoc docstring (issue 7), checked by numpydoc's validator.

"Public" is every module-public name (issue 21): in each module of the package whose dotted path has no
component with a leading underscore, the names in its ``__all__`` (a module without ``__all__``: the functions and
classes it defines without a leading underscore), and the public methods and properties those classes define
themselves.  The checks chosen (numpydoc's codes):

* GL08 -- there is a docstring;
* SS01, SS02, SS03, SS06 -- a one-line summary, capitalised, ending with a period;
* PR01, PR02 -- every parameter documented, none that does not exist;
* RT01 -- a Returns section (functions and methods);
* EX01 -- an Examples section (its doctests run in the suite, ``--doctest-modules``).

Not chosen: ES01 (an extended summary is optional), SS05 (it takes noun summaries such as "Subsets of ..."
for third-person verbs).  Raises sections are read by a check of our own: every exception named there exists.

``numpydoc_pending.txt`` (beside this file) lists the objects that still fail, in files other branches edited in
the same round (issue 21); the list may only shrink: an object there that passes fails the test.
"""

from __future__ import annotations

import ast
import builtins
import enum
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import numpydoc.validate as numpydoc_validate  # the test extra installs numpydoc: a missing one fails, never skips
import pytest
from numpydoc.docscrape import NumpyDocString

import exactdp

EXCLUDED_MODULES: set = set()

CHECKS = {"GL08", "SS01", "SS02", "SS03", "SS06", "PR01", "PR02", "RT01", "EX01"}

PENDING_FILE = Path(__file__).resolve().parent / "numpydoc_pending.txt"


def _modules() -> list[str]:
    """The package and every module of it without a private component (``exactdp.recheck._kernel`` is private)."""
    found = [m.name for m in pkgutil.walk_packages(exactdp.__path__, "exactdp.")
             if not any(part.startswith("_") for part in m.name.split(".")[1:])]
    return ["exactdp", *sorted(found)]


def _add_class_members(out: dict, path: str, cls: type) -> None:
    for attr, member in vars(cls).items():
        if attr.startswith("_"):
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            member = member.fget
        if inspect.isfunction(member):
            out[f"{path}.{attr}"] = member


def _public_objects() -> dict:
    """Import path -> object, for every module-public function, class, method and property."""
    out: dict = {}
    for modname in _modules():
        if modname in EXCLUDED_MODULES:
            continue
        mod = importlib.import_module(modname)
        names = getattr(mod, "__all__", None)
        if names is None:
            names = [n for n, o in vars(mod).items()
                     if not n.startswith("_") and getattr(o, "__module__", "") == modname]
        for name in names:
            obj = getattr(mod, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue  # constants
            if not obj.__module__.startswith("exactdp") or obj.__module__ in EXCLUDED_MODULES:
                continue
            path = f"{obj.__module__}.{obj.__qualname__}"
            out[path] = obj
            if inspect.isclass(obj):
                _add_class_members(out, path, obj)
    return out


PUBLIC = _public_objects()


def _pending() -> set:
    lines = PENDING_FILE.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


PENDING = _pending()


def _relevant(obj, code: str, message: str) -> bool:
    if code not in CHECKS:
        return False
    if code == "PR01":
        if inspect.isclass(obj) and issubclass(obj, enum.Enum):
            return False  # Enum's own constructor arguments (value, names, module, ...); members are listed instead
        missing = ast.literal_eval(message[message.index("{"):message.rindex("}") + 1])
        return any(not p.startswith("_") for p in missing)  # private keyword hooks (_data=...) are not API
    return True


def problems(path: str) -> list[str]:
    """The chosen numpydoc errors of one object, as ``CODE: message``."""
    obj = PUBLIC.get(path)
    result = numpydoc_validate.validate(path)
    return [f"{code}: {msg}" for code, msg in result["errors"] if _relevant(obj, code, msg)]


def test_there_is_something_to_check():
    assert any(NumpyDocString(inspect.getdoc(PUBLIC[p]) or "")["Raises"] for p in PUBLIC)
    # the collection itself: every module-public name (issue 21: ~300 functions and classes) and their methods
    assert len(PUBLIC) >= 600
    assert "exactdp.mechanism.Mechanism.from_rows" in PUBLIC
    assert "exactdp.metrics.graphs.grid" in PUBLIC
    assert "exactdp.optimality.users.User.uniform" in PUBLIC  # a module's __all__, not a package's
    assert "exactdp.io.load_mechanism" in PUBLIC  # a module that no package re-exports
    assert not any(".recheck._kernel." in p for p in PUBLIC)  # a private module
    assert not any(p.startswith(m + ".") for m in EXCLUDED_MODULES for p in PUBLIC)


def test_the_validator_flags_a_bad_docstring(tmp_path, monkeypatch):
    (tmp_path / "dsbad.py").write_text(
        'def nodoc(x):\n    return x\n\n\n'
        'def partial(x, y):\n    """Add two numbers.\n\n'
        '    Parameters\n    ----------\n    x : int\n        One.\n    """\n'
        '    return x + y\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "dsbad", raising=False)
    codes = {c for c, _ in numpydoc_validate.validate("dsbad.nodoc")["errors"]}
    assert "GL08" in codes
    codes = {c for c, _ in numpydoc_validate.validate("dsbad.partial")["errors"]}
    assert {"PR01", "RT01", "EX01"} <= codes


@pytest.mark.parametrize("path", sorted(PUBLIC))
def test_numpydoc(path):
    found = problems(path)
    if path in PENDING:
        assert found, f"{path} passes now: remove it from {PENDING_FILE.name}"
    else:
        assert not found, f"{path}: " + "; ".join(found)


def test_the_pending_list_names_only_public_objects():
    assert not PENDING - set(PUBLIC), f"not public (or gone); remove from {PENDING_FILE.name}: {PENDING - set(PUBLIC)}"


_KNOWN_EXCEPTIONS = {name for name in dir(builtins) if isinstance(getattr(builtins, name), type)
                     and issubclass(getattr(builtins, name), BaseException)}


def _exception_names() -> set:
    """Python's exceptions and every exception class an exactdp module defines (errors, LP outcomes, ...)."""
    ours = {name for modname, mod in list(sys.modules.items()) if modname.split(".")[0] == "exactdp"
            for name, o in vars(mod).items() if isinstance(o, type) and issubclass(o, BaseException)}
    return _KNOWN_EXCEPTIONS | ours


@pytest.mark.parametrize("path", sorted(PUBLIC))
def test_raises_names_real_exceptions(path):
    doc = inspect.getdoc(PUBLIC[path]) or ""
    names = [p.type or p.name for p in NumpyDocString(doc)["Raises"]]  # an entry's name is its "type" line
    unknown = [n for n in names if n.strip("`~:.").split(".")[-1] not in _exception_names()]
    assert not unknown, f"{path}: Raises names {unknown}, which are not exceptions exactdp or Python define"


def test_the_raises_check_knows_a_typo():
    assert {"InvalidInput", "LPInfeasible", "TypeError"} <= _exception_names()
    assert "InvalidImput" not in _exception_names()
