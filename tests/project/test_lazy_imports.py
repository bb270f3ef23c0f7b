"""Start-up cost (issue 20): sympy and networkx are imported only by the routes that use them.

``import exactdp`` and certifying a rational JSON mechanism at a fixed level from the command line must not
import sympy (root isolation, the all-eps regime) nor networkx (graphs given as edges); each check runs in a fresh
interpreter and reads ``sys.modules`` after the command.  The positive controls show the probe can fail: the
routes that need sympy or networkx still import them, and the lazily made ``symbolic.U`` is the same symbol.
"""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_PROBE = """
import io, json, sys
from contextlib import redirect_stdout
import exactdp
after_import = sorted(m for m in ("sympy", "networkx") if m in sys.modules)
from exactdp.cli import main
buf = io.StringIO()
with redirect_stdout(buf):
    code = main(json.loads(sys.argv[1]))
sys.stderr.write(json.dumps({"code": code, "after_import": after_import,
                             "after_command": sorted(m for m in ("sympy", "networkx") if m in sys.modules),
                             "out": buf.getvalue()}))
"""


def _probe(args):
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    r = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True, env=env,
                       timeout=120, check=False)
    return json.loads(r.stderr.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("lazy")
    rr = d / "rr.json"
    rr.write_text(json.dumps({"inputs": ["a", "b", "c"], "outputs": ["a", "b", "c"],
                              "matrix": [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]}))
    disc = d / "disc.json"
    disc.write_text(json.dumps({"kind": "discrete", "points": ["a", "b", "c"]}))
    graph = d / "graph.json"
    graph.write_text(json.dumps({"kind": "graph", "nodes": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]}))
    return {"rr": str(rr), "disc": str(disc), "graph": str(graph)}


@pytest.mark.parametrize(("level", "fmt", "code"), [
    (["--eps", "log(2)"], "text", 0),       # a tie at the rational level alpha = 1/2: holds
    (["--alpha", "1/2"], "json", 0),
    (["--eps", "log(3/2)"], "markdown", 1),  # 2 > 3/2: fails, with a witness
    (["--eps", "1/2"], "latex", 1),          # a transcendental level: still no sympy
])
def test_certify_json_mechanism_imports_neither_sympy_nor_networkx(files, level, fmt, code):
    r = _probe(["certify", files["rr"], "--metric", files["disc"], *level, "--format", fmt])
    assert r["code"] == code
    assert r["after_import"] == []
    assert r["after_command"] == []
    assert r["out"]


def test_a_graph_metric_imports_networkx_but_not_sympy(files):
    r = _probe(["certify", files["rr"], "--metric", files["graph"], "--alpha", "1/2"])
    assert r["code"] == 0 and r["after_import"] == []
    assert r["after_command"] == ["networkx"]


def test_the_all_eps_route_imports_sympy(files):
    r = _probe(["certify", files["rr"], "--metric", files["disc"], "--all-eps"])
    assert r["code"] == 1  # ratio 2 on the discrete metric: fails for eps < log 2
    assert r["after_import"] == [] and "sympy" in r["after_command"]
    assert "1/2" in r["out"]  # the failure set's end alpha = 1/2, printed from sympy's exact root


def test_symbolic_u_is_made_on_first_use():
    import sympy as sp

    from exactdp.exact import symbolic

    assert sp.Symbol("alpha", positive=True) == symbolic.U
    assert symbolic.U is symbolic.U
    with pytest.raises(AttributeError, match="no attribute 'V'"):
        _ = symbolic.V
