"""CONTRIBUTING.md's recipes name real places (issue 31, item 5): every path exists, every dotted name imports,
every signature it writes is the code's, the layer list is pyproject.toml's contract, and the command recipe
lists the command modules there are.  Cheap checks (imports and attributes), so a rename or a new API that the
page does not follow fails here rather than in a newcomer's hands.
"""

import importlib
import inspect
import json
import pkgutil
import re
import sys
from dataclasses import fields
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
CODE = re.findall(r"`([^`\n]+)`", TEXT)


def _section(title: str) -> str:
    """The text of one ``## title`` section of the page."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", TEXT, re.MULTILINE | re.DOTALL)
    assert m, f"CONTRIBUTING.md has no section {title!r}"
    return m.group(1)


def _resolve(dotted: str):
    """Import the longest module prefix of ``dotted`` and walk the rest as attributes."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def _params(call: str) -> list[str]:
    """The parameter names a recipe writes in ``name(a, b, c)``."""
    return [p.strip() for p in call[call.index("(") + 1:call.rindex(")")].split(",")]


def test_the_page_shows_no_api_that_does_not_exist():
    assert "register(Claim(" not in TEXT            # register is a decorator; it builds the Claim itself


def test_every_path_it_names_exists():
    paths = [c for c in CODE if "/" in c and " " not in c and not c.startswith(("http", "@"))]
    assert len(paths) >= 20
    missing = []
    for c in paths:
        pattern = re.sub(r"<[^>]+>", "*", c)       # exactdp/certificate/<concept>.py: some module is there
        if not any(ROOT.glob(pattern.rstrip("/"))):
            missing.append(c)
    assert missing == []


def test_every_dotted_name_it_names_resolves():
    dotted = [c for c in CODE if re.fullmatch(r"(exactdp|flint|fractions)(\.\w+)+", c)]
    assert "exactdp.recheck.KINDS" in dotted and "exactdp.papers.registry.register" in dotted
    for name in dotted:
        _resolve(name)                              # ModuleNotFoundError / AttributeError name the stale one


def test_the_layer_list_is_the_import_contract():
    chain = re.search(r"```\n(cli -> .*?)\n```", TEXT, re.DOTALL).group(1)
    written = [" | ".join(p.strip() for p in w.split("|")) for w in chain.replace("\n", " ").split("->")]
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert written == [m.replace("exactdp.", "") for m in layers]


def test_the_kind_recipe():
    from exactdp.certificate import records, render
    from exactdp.certificate.kinds import KINDS, Kind

    (row,) = [c for c in CODE if c.startswith("Kind(")]
    assert _params(row) == [f.name for f in fields(Kind)]
    for name in ("@evidence_kind(", "@renderer(", 'field(metadata={"role": "hint"})', "example()"):
        assert name in TEXT
    assert callable(records.evidence_kind) and callable(render.renderer)
    assert issubclass(records.Evidence, records.Record)
    assert list(inspect.signature(records.evidence_kind).parameters) == ["name", "checker"]
    # every declared kind: its evidence in a topic's `evidence` module, its checker named in the front door
    front = importlib.import_module("exactdp.certify")
    for name, kind in KINDS.items():
        assert kind.evidence.__module__.endswith(".evidence"), name
        assert front.CHECKERS[name] == kind.checker_name and getattr(front, kind.checker_name) is kind.checker
    kernel = importlib.import_module("exactdp.recheck")   # the package (exactdp.recheck is also a function)
    for module in set(kernel.KINDS.values()):
        mod = importlib.import_module(f"exactdp.recheck.{module}")
        assert set(mod.EVIDENCE) == {k for k, m in kernel.KINDS.items() if m == module}
        for fn in (mod.check, mod.claim_text):     # one argument, the certificate (its name varies: cert, c)
            required = [p for p in inspect.signature(fn).parameters.values() if p.default is p.empty]
            assert len(required) == 1, (module, fn.__name__)
    for written in ("check(cert: dict)", "claim_text(cert: dict)"):
        assert written in CODE


#: the throwaway kind of the recipe, in its three modules (a new evidence record and renderer appended to a
#: topic's evidence module, a checker module, a kernel module): the claim "n is even", re-derived by the kernel
_EVIDENCE = '''

@evidence_kind("zz_even", checker="exactdp.divergences.zz_even:certify_even")
@dataclass(frozen=True)
class ZzEvenEvidence(Evidence):
    n: int

    @classmethod
    def example(cls):
        from exactdp.divergences.zz_even import certify_even
        return certify_even(4)


@renderer("zz_even")
def _zz_even(cert):
    return Proof(cert.claim, [Step("Parity", f"{cert.evidence.n} = 2 * {cert.evidence.n // 2}.")], "Even.")
'''
_CHECKER = '''
from exactdp.certificate import Certificate, Method, Verdict
from exactdp.divergences.evidence import ZzEvenEvidence


def certify_even(n: int) -> Certificate:
    return Certificate("zz_even", Verdict.HOLDS if n % 2 == 0 else Verdict.FAILS, Method.RATIONAL,
                       f"{n} is even", ZzEvenEvidence(n=n))
'''
_KERNEL = '''
EVIDENCE = {"zz_even": {"n": "int"}}


def claim_text(c: dict) -> str:
    return f"{c['evidence']['n']} is even"


def check(c: dict):
    even = c["evidence"]["n"] % 2 == 0
    if (c["verdict"] == "holds") != even:
        return "refuted", 1, "the parity of n says otherwise"
    return "confirmed", 1, "n mod 2 recomputed"
'''
#: the throwaway mechanism of the mechanism recipe (a builder module and its export) and the throwaway claim of
#: the claim recipe (a registered function in a paper module, built from the public API)
_MECHANISM = '''"""A throwaway coin (the recipe's example): keep the input bit with probability p."""
from ..mechanism import Mechanism, mechanism_from_values


def zz_coin(p: str) -> Mechanism:
    from flint import fmpq
    q = fmpq(*map(int, p.split("/")))
    return mechanism_from_values(["0", "1"], ["0", "1"], [[q, 1 - q], [1 - q, q]], name=f"zz coin (p = {p})")
'''
_CLAIM = '''

@register("ZZ00-coin", "KL10", "nowhere", "The coin with p = 3/4 is log(3)-DP.", "log(3)")
def _zz_coin_claim():
    from exactdp.mechanisms import zz_coin
    from exactdp.metrics import discrete
    led = Ledger()
    c = smallest_epsilon(zz_coin("3/4"), discrete(2))
    led.compare("eps", "log(3)", c.evidence.epsilon)
    return led.result("the coin's smallest eps", certificates=[c])
'''
_PROBE = '''
import json, exactdp
from exactdp.certificate.kinds import KINDS
from exactdp.certificate.schema import json_schema
from exactdp.certificate.explain import explain
from exactdp.certify import CHECKERS, certify_even
from exactdp.recheck import KINDS as KERNEL, recheck

cert = KINDS["zz_even"].example()
forged = json.loads(cert.to_json_str())
forged["evidence"]["n"], forged["claim"] = 5, "5 is even"
print(json.dumps({
    "kind": cert.kind, "checker": CHECKERS["zz_even"], "front": certify_even(6).verdict.value,
    "kernel": KERNEL["zz_even"], "schema": "zz_even" in json.dumps(json_schema()),
    "genuine": recheck(cert.to_json_str()).status, "forged": recheck(json.dumps(forged)).status,
    "explain": explain(cert.to_json_str(), "markdown").status,
    "text": "Parity" in explain(cert.to_json_str(), "text").document,
}))
from exactdp.mechanisms import zz_coin
from exactdp.metrics import discrete
from exactdp.papers.registry import get_claim
print(json.dumps({"coin": exactdp.smallest_epsilon(zz_coin("3/4"), discrete(2)).evidence.epsilon,
                  "claim": get_claim("ZZ00-coin").run().status}))
'''


def _changed(copy: Path) -> set:
    return {p.relative_to(copy.parent).as_posix() for p in copy.rglob("*.py")
            if not (ROOT / p.relative_to(copy.parent)).is_file()
            or (ROOT / p.relative_to(copy.parent)).read_bytes() != p.read_bytes()}


@pytest.mark.slow
def test_a_throwaway_kind_mechanism_and_claim_follow_their_recipes(tmp_path):
    # issue 31's "done when": a kind added in a temporary copy by the recipe above (three modules and nothing
    # that repeats its name) reaches the table of kinds, the front door, the schema, the kernel and explain; a
    # mechanism and a claim added by theirs are importable and run
    import os
    import shutil
    import subprocess

    copy = tmp_path / "exactdp"
    shutil.copytree(ROOT / "exactdp", copy, ignore=shutil.ignore_patterns("__pycache__"))
    evidence = copy / "divergences" / "evidence.py"
    for path, text in {evidence: evidence.read_text(encoding="utf-8") + _EVIDENCE,
                       copy / "divergences" / "zz_even.py": _CHECKER, copy / "recheck" / "zz_even.py": _KERNEL}.items():
        path.write_text(text, encoding="utf-8")
    assert _changed(copy) == {"exactdp/divergences/evidence.py", "exactdp/divergences/zz_even.py",
                              "exactdp/recheck/zz_even.py"}
    init, paper = copy / "mechanisms" / "__init__.py", copy / "papers" / "kl10.py"
    (copy / "mechanisms" / "zz_coin.py").write_text(_MECHANISM, encoding="utf-8")
    init.write_text(init.read_text(encoding="utf-8") + "from .zz_coin import zz_coin  # noqa: E402\n", encoding="utf-8")
    paper.write_text(paper.read_text(encoding="utf-8") + _CLAIM, encoding="utf-8")
    out = subprocess.run([sys.executable, "-c", _PROBE], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-2000:]
    kind, rest = out.stdout.strip().splitlines()
    assert json.loads(kind) == {
        "kind": "zz_even", "checker": "certify_even", "front": "holds", "kernel": "zz_even", "schema": True,
        "genuine": "confirmed", "forged": "refuted", "explain": "confirmed", "text": True}
    assert json.loads(rest) == {"coin": "log(3)", "claim": "reproduced"}


def test_the_schema_command_writes_the_committed_schema():
    from exactdp.certificate.schema import json_schema

    assert "json.dumps(json_schema(),\n   indent=2)" in TEXT
    assert json.dumps(json_schema(), indent=2) + "\n" == (ROOT / "schema" / "certificate.schema.json").read_text(
        encoding="utf-8")


def test_the_claim_recipe(monkeypatch):
    from exactdp.papers import registry

    (deco,) = [c for c in CODE if c.startswith("@register(")]
    assert _params(deco) == list(inspect.signature(registry.register).parameters)
    assert _params("result(facts, sections, certificates)") == list(
        inspect.signature(registry.Ledger.result).parameters)[1:4]
    assert "ledger.result(facts, sections, certificates)" in CODE
    for method in ("compare", "check"):
        assert callable(getattr(registry.Ledger, method))
    # the decorator builds the Claim and hands the function back unchanged, as the recipe says
    monkeypatch.setattr(registry, "_REGISTRY", {})

    def claim():
        led = registry.Ledger()
        led.compare("n", "3", "3")
        return led.result("n = 3")

    assert registry.register("ZZ00-x", "ZZ00", "Example 0", "n is 3.", "3")(claim) is claim
    got = registry._REGISTRY["ZZ00-x"]
    assert isinstance(got, registry.Claim) and got.run is claim and got.run().status == "reproduced"
    # "a new paper module is also imported in claims()": every module that registers a claim is imported there
    imported = set(re.findall(r"\w+", inspect.getsource(registry.claims).split("from . import", 1)[1].split(")")[0]))
    papers = Path(registry.__file__).parent
    registering = {p.stem for p in papers.glob("*.py") if "@register(" in p.read_text(encoding="utf-8")}
    assert registering <= imported, registering - imported


def test_the_command_recipe():
    import exactdp.cli as cli
    from exactdp.cli import _app, _common

    listed = set(re.findall(r"`(\w+)\.py`", _section("Adding a command"))) - {"_common", "checks"}
    groups = {m.name for m in pkgutil.iter_modules(cli.__path__)
              if hasattr(importlib.import_module(f"exactdp.cli.{m.name}"), "COMMANDS")}
    assert listed == groups
    for name in ("_ORDER", "_CMD_EXITS", "_EXIT_CODES", "_registrars"):
        assert hasattr(_app, name), name
    assert callable(_common.emit)
    for group in groups:
        mod = importlib.import_module(f"exactdp.cli.{group}")
        for command, register in mod.COMMANDS.items():
            stem = command.replace("-", "_")
            assert register.__name__ == f"_register_{stem}" and callable(getattr(mod, f"_cmd_{stem}")), command
