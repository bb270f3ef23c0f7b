"""The figures' tests draw with matplotlib's Agg back end (skipped where the optional extra is absent)."""

import pytest


@pytest.fixture
def plt():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")
