"""The tutorials in docs/tutorials/ (jupytext MyST Markdown notebooks) are executed here.

Each tutorial's ``{code-cell}`` blocks run in order in one fresh namespace, in a temporary working
directory, as a Jupyter kernel would run them (no kernel needed); the tutorials carry their own
``assert`` statements.  This executes the project's own documentation files, never user input.
"""

import re
import sys
from pathlib import Path

import pytest

TUTORIALS = Path(__file__).resolve().parents[2] / "docs" / "tutorials"
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)


def code_cells(path: Path) -> list:
    return CELL.findall(path.read_text(encoding="utf-8"))


def tutorial_files():
    return sorted(p for p in TUTORIALS.glob("*.md") if p.name != "index.md")


def test_there_are_tutorials_with_code():
    names = [p.name for p in tutorial_files()]
    expected = {"first_certificate.md", "geometric_optimality.md", "tight_constraints.md", "approximate_dp.md"}
    assert expected <= set(names)
    assert all(len(code_cells(p)) >= 5 for p in tutorial_files())


def test_cell_extraction():
    text = "a\n```{code-cell} python\nx = 1\n```\n\n```python\nnot a cell\n```\n```{code-cell} python\ny = x\n```\n"
    p = TUTORIALS.parent / "_extraction_probe.md"
    try:
        p.write_text(text)
        assert code_cells(p) == ["x = 1\n", "y = x\n"]
    finally:
        p.unlink()


@pytest.mark.parametrize("path", tutorial_files(), ids=lambda p: p.stem)
def test_tutorial_runs(path, tmp_path, monkeypatch):
    cells = code_cells(path)
    if any("exactdp.plot" in c for c in cells):
        pytest.importorskip("matplotlib")
        import matplotlib

        matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__tutorial__"}
    try:
        for k, src in enumerate(cells, 1):
            code = compile(src, f"{path.name}, cell {k}", "exec")
            exec(code, namespace)
    finally:
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is not None:
            plt.close("all")
