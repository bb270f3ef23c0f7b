"""Code-shape rules of the project contract: no function body over 50 lines.

The body is counted from its first statement after the docstring to its last line (nested functions
count in their enclosing function too), so a long function is split into named private helpers rather
than into closures.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "exactdp"
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
