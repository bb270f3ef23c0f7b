"""The re-check kernel's shape (issue 27): independent kinds over core judgements, within a line budget.

docs/architecture.md#sec-recheck-kernel states the rule and the budget; this file holds the code to them: no kind
module of ``exactdp.recheck.KINDS`` imports another, directly or through a core module (checked on grimp's import
graph, the engine of import-linter, over the kinds the kernel discovers, so no list repeats their names); every core
module is named in the page; the kernel stays within the stated budget.
"""

import importlib
import re
from pathlib import Path

recheck_pkg = importlib.import_module("exactdp.recheck")   # the package (exactdp.recheck is also a function)

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "exactdp" / "recheck"
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("(sec-recheck-kernel)="):PAGE.index("(sec-papers)=")]


def test_no_kind_module_imports_another():
    import grimp

    graph = grimp.build_graph("exactdp")
    kinds = sorted({f"exactdp.recheck.{m}" for m in recheck_pkg.KINDS.values()})
    assert len(kinds) >= 19 and not any(m.rsplit(".", 1)[1].startswith("_") for m in kinds)
    chains = [graph.find_shortest_chain(importer=a, imported=b) for a in kinds for b in kinds if a != b]
    assert [c for c in chains if c] == []


def test_a_kind_module_importing_another_is_seen():
    # the check above can fail: the same graph query finds the chain through a core module that exists
    import grimp

    graph = grimp.build_graph("exactdp")
    assert graph.find_shortest_chain(importer="exactdp.recheck.privacy", imported="exactdp.recheck._dprivacy")


def test_every_core_module_is_named_on_the_architecture_page():
    core = sorted(p.stem for p in KERNEL.glob("_*.py") if p.name != "__init__.py")
    assert core, "the kernel has core modules"
    missing = [m for m in core if f"`{m}`" not in SECTION]
    assert not missing, f"name these core modules in docs/architecture.md#sec-recheck-kernel: {missing}"


def test_every_module_is_a_kind_or_a_core_module():
    kinds = set(recheck_pkg.KINDS.values())
    for p in KERNEL.glob("*.py"):
        assert p.name == "__init__.py" or p.stem.startswith("_") or p.stem in kinds, p.name


def test_the_kernel_is_within_its_line_budget():
    budget = int(re.search(r"line budget of (\d+) lines", SECTION).group(1))
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in KERNEL.glob("*.py"))
    assert lines <= budget, f"the kernel has {lines} lines, over its budget of {budget}: shrink it, or raise the " \
                            "budget in docs/architecture.md with the reason"
