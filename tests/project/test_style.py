"""Code-shape rules of the project contract: ruff reports nothing, and no function body is over 50 lines.

ruff runs with the configuration of pyproject.toml ([tool.ruff]: rules E, F, W, B, UP, SIM, RUF, lines up to
120 characters); every per-file ignore there must still hide a finding, so the list of exceptions only shrinks.

The body of a function is counted from its first statement after the docstring to its last line (nested
functions count in their enclosing function too), so a long function is split into named private helpers
rather than into closures.
"""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: mypy (the test extra) depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "exactdp"
LINTED = ["exactdp", "tests", "benchmarks", "docs", "examples"]


def _ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run ``ruff check`` (the test extra installs it: a missing ruff fails, never skips)."""
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=False)


def _per_file_ignores() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["ruff"]["lint"]["per-file-ignores"]


def _glob_regex(pattern: str) -> re.Pattern:
    """A ruff (globset) path pattern as a regular expression: ``**/`` any folders, ``*`` within one name."""
    out = re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*")
    return re.compile(out + "$")


def test_ruff_reports_nothing():
    r = _ruff("--output-format", "concise", *LINTED)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]


def test_every_per_file_ignore_still_hides_a_finding():
    r = _ruff("--output-format", "json", "--config", "lint.per-file-ignores = {}", *LINTED)
    assert r.returncode in (0, 1), r.stderr[-2000:]
    found = {(Path(x["filename"]).resolve().relative_to(ROOT).as_posix(), x["code"]) for x in json.loads(r.stdout)}
    stale = []
    for pattern, codes in _per_file_ignores().items():
        rx = _glob_regex(pattern)
        stale += [f"{pattern}: {code}" for code in codes if not any(rx.match(p) and c == code for p, c in found)]
    assert not stale, f"remove these per-file ignores from pyproject.toml (nothing left to hide): {stale}"


def test_the_glob_reading_matches_ruffs_folders():
    assert _glob_regex("tests/**/test_lp.py").match("tests/test_lp.py")
    assert _glob_regex("tests/**/test_lp.py").match("tests/exact/test_lp.py")
    assert not _glob_regex("tests/**/test_lp.py").match("tests/test_lp_float.py")
    assert _glob_regex("tests/**").match("tests/papers/test_x.py")
    assert not _glob_regex("exactdp/io.py").match("exactdp/io_py")


def test_the_configuration_catches_what_it_should(tmp_path):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.py").write_text(
        "import os\n\n\n"
        "def f(x=[]):\n    return x\n\n\n"
        "def g(x):\n    return [y for y in zip(x, x)]  # " + "a" * 100 + "\n", encoding="utf-8")
    (tmp_path / "good.py").write_text(
        "from flint import fmpq\n\n\ndef h(delta=fmpq(0)):\n    return delta\n", encoding="utf-8")
    r = _ruff("--output-format", "json", "bad.py", "good.py", cwd=tmp_path)
    codes = {(Path(x["filename"]).name, x["code"]) for x in json.loads(r.stdout)}
    # an unused import, a mutable default, zip without strict=, a line over 120; an fmpq default is a constant
    assert codes == {("bad.py", "F401"), ("bad.py", "B006"), ("bad.py", "B905"), ("bad.py", "E501")}
MAX_BODY_LINES = 50

# none: every function body is at most MAX_BODY_LINES lines (the list stays for a reviewed exception)
ALLOWED_LONG: set = set()


def body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the end of the function (0 if none)."""
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body = body[1:]
    if not body:
        return 0
    return node.end_lineno - body[0].lineno + 1


def long_functions(source: str) -> list[tuple[str, int]]:
    """``(name, body lines)`` of every function in ``source`` whose body exceeds the limit."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = body_lines(node)
            if n > MAX_BODY_LINES:
                out.append((node.name, n))
    return out


def test_the_counter_sees_a_long_function_and_skips_the_docstring():
    long_body = "\n".join(f"    x{i} = {i}" for i in range(MAX_BODY_LINES + 1))
    doc = '    """' + "\n" * 30 + '    """\n'
    assert long_functions(f"def f():\n{long_body}\n") == [("f", MAX_BODY_LINES + 1)]
    short_body = "\n".join(f"    x{i} = {i}" for i in range(MAX_BODY_LINES))
    assert long_functions(f"def g():\n{doc}{short_body}\n") == []
    nested = "def outer():\n    def inner():\n" + "\n".join(f"        y{i} = {i}" for i in range(MAX_BODY_LINES)) \
        + "\n    return inner\n"
    assert long_functions(nested) == [("outer", MAX_BODY_LINES + 2)]


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_function_body_over_50_lines(path):
    rel = path.relative_to(PACKAGE).as_posix()
    found = [(name, n) for name, n in long_functions(path.read_text(encoding="utf-8"))
             if (rel, name) not in ALLOWED_LONG]
    assert not found, f"{rel}: split these into named private helpers (body lines > {MAX_BODY_LINES}): {found}"


def test_the_allow_list_names_only_functions_that_exist_and_are_long():
    for rel, name in ALLOWED_LONG:
        names = [n for n, _ in long_functions((PACKAGE / rel).read_text(encoding="utf-8"))]
        assert name in names, f"{rel}:{name} is no longer over the limit; remove it from ALLOWED_LONG"
