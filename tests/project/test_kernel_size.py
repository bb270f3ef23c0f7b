"""The re-check kernel's shape (issue 27): independent kinds over core judgements, within a line budget.

docs/architecture.md#sec-recheck-kernel states the rule and the budget; this file holds the code to them: the
import-linter contract that keeps kind modules from importing each other lists exactly the kind modules of
``exactdp.recheck.KINDS``; every core module is named in the page; the kernel stays within the stated budget.
"""

import importlib
import re
from pathlib import Path

recheck_pkg = importlib.import_module("exactdp.recheck")   # the package (exactdp.recheck is also a function)

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "exactdp" / "recheck"
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SECTION = PAGE[PAGE.index("(sec-recheck-kernel)="):PAGE.index("(sec-papers)=")]


def _independence_modules() -> set:
    # read without tomllib (Python 3.11+; the project supports 3.10): the one contract of type "independence"
    conf = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (block,) = re.findall(r'type = "independence"\nmodules = \[(.*?)\]', conf, flags=re.S)
    return set(re.findall(r'"([^"]+)"', block))


def test_the_independence_contract_lists_every_kind_module():
    kinds = {f"exactdp.recheck.{m}" for m in recheck_pkg.KINDS.values()}
    assert _independence_modules() == kinds
    assert not any(m.rsplit(".", 1)[1].startswith("_") for m in kinds)      # a kind is never a core module


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
