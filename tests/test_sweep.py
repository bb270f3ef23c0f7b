"""Sweeps on Dask (issue 20, item 5): ``exactdp reproduce`` and the figure curves run their independent jobs
through :func:`exactdp.sweep.sweep`, the engine of ``exactdp batch``.

A run on a two-worker ``LocalCluster`` must give exactly the serial results, in input order: the same JSON
rows for ``reproduce`` (re-checks included) and the same exact rationals for the ECP14 Fig. 7 curve.  The
engine's own contract (order, refusals) is tested on a function whose results are known independently.
"""

import json
import logging
import sys

import pytest

from exactdp.cli import main
from exactdp.errors import InvalidInput
from exactdp.sweep import sweep

# fast claims from four papers (under a second each)
CLAIMS = ["ECP14-ex1", "HLM15-ex6", "KL10-def2.2", "GRS12-ex2.1"]


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR, scheduler_kwargs={"dashboard_address": ":0"}) as c:
        yield c


def _run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_serial_sweep_is_map_in_order():
    assert list(sweep(abs, [-3, 1, -2, 0])) == [3, 1, 2, 0]
    assert list(sweep(abs, [])) == []


def test_sweep_on_a_cluster_keeps_input_order(cluster):
    items = list(range(-40, 40, 3))
    assert list(sweep(abs, items, scheduler=cluster.scheduler_address)) == [abs(x) for x in items]


def test_reproduce_on_two_workers_is_the_serial_run(cluster, capsys):
    serial = _run(["reproduce", *CLAIMS, "--format", "json", "--recheck"], capsys)
    on_cluster = _run(["reproduce", *CLAIMS, "--format", "json", "--recheck", "--scheduler",
                       cluster.scheduler_address], capsys)
    assert on_cluster == serial
    code, out, _ = serial
    rows = json.loads(out)
    assert code == 0 and [r["id"] for r in rows] == CLAIMS  # input order, not completion order
    assert [r["status"] for r in rows] == ["reproduced", "reproduced", "reconstructed", "reproduced"]
    assert all(r["recheck"]["refuted"] == 0 for r in rows)


def test_geo_utility_curve_on_two_workers_is_the_serial_curve(cluster):
    from flint import fmpq

    from exactdp.plot import geo_utility_data

    levels = ["2/5", "7/10", "1", "13/10"]
    serial = geo_utility_data(6, levels)
    on_cluster = geo_utility_data(6, levels, mapper=lambda fn, jobs: sweep(fn, jobs,
                                                                         scheduler=cluster.scheduler_address))
    assert on_cluster == serial
    assert [e for e, _, _ in serial] == [fmpq(2, 5), fmpq(7, 10), fmpq(1), fmpq(13, 10)]
    for _, tight, lap in serial:  # enclosures: lo <= hi, utilities in (0, 1]
        assert 0 < lap[0] <= lap[1] <= 1
        assert tight is None or 0 < tight[0] <= tight[1] <= 1


def test_plot_geo_utility_command(cluster, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "fig7.svg"
    code, stdout, err = _run(["plot", "geo-utility", "--side", "4", "--levels", "1/2,1", "-o", str(out),
                              "--scheduler", cluster.scheduler_address], capsys)
    assert code == 0 and stdout == f"wrote {out}\n" and err == ""
    assert out.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(("args", "pattern"), [
    (["reproduce", "ECP14-ex1", "--workers", "0"], "reproduce --workers: expected N >= 1, got 0"),
    (["reproduce", "ECP14-ex1", "--workers", "0", "--format", "markdown"], "expected N >= 1"),  # before the header
    (["plot", "geo-utility", "--side", "201", "-o", "x.png"], "--side: expected 2 <= N <= 200, got 201"),
    (["plot", "geo-utility", "--levels", "1,,2", "-o", "x.png"], "--levels: expected 1 to 1000 rationals"),
    (["plot", "geo-utility", "--side", "3", "--levels", "-1", "-o", "x.png"], "eps must be a rational > 0"),
])
def test_bad_sweep_arguments_refused_in_one_line(args, pattern, capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(args, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and pattern in err


def test_sweep_refusals(monkeypatch):
    with pytest.raises(InvalidInput, match="give --workers or --scheduler, not both"):
        sweep(abs, [1], workers=2, scheduler="tcp://127.0.0.1:8786")
    with pytest.raises(InvalidInput, match="x --workers: expected N >= 1, got -1"):
        sweep(abs, [1], workers=-1, what="x")
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if the dask extra were not installed
    with pytest.raises(InvalidInput, match=r"needs Dask: pip install 'exactdp\[dask\]'"):
        sweep(abs, [1], workers=2)


def test_reproduce_without_dask_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, out, err = _run(["reproduce", "ECP14-ex1", "--workers", "2"], capsys)
    assert code == 2 and out == "" and "reproduce --workers/--scheduler needs Dask" in err


@pytest.mark.slow
def test_a_sweep_starts_when_port_8787_is_taken():
    # CI on two cores ran two clusters at once: the second found Dask's default HTTP port 8787 taken, and its
    # warning failed the test run; the scheduler's routes now go to a free port
    import socket

    pytest.importorskip("dask.distributed")
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", 8787))
            s.listen()
        except OSError:
            pass                                # taken already: the case under test holds anyway
        assert list(sweep(abs, [-2, 1, -3], workers=2)) == [2, 1, 3]
