"""exactdp.plot without matplotlib: importing exactdp never imports it, and a missing extra is named."""

import subprocess
import sys

import pytest

from exactdp import plot as P


def test_import_exactdp_does_not_import_matplotlib():
    code = "import sys, exactdp, exactdp.plot; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_matplotlib_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(P.MissingDependency, match=r"pip install 'exactdp\[plot\]'"):
        P.plot_geometric_vs_laplace(["1/2"])
    assert issubclass(P.MissingDependency, ImportError)
