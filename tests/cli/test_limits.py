"""Sizes the command line refuses before it starts the work (issue 32, items 1-4: a new user's hangs).

Each refusal is exit 2 with one line on stderr naming the limit; none of these tests times anything: a refusal
that came after the work would still pass here, but the refusals are made from the input's size alone (the
paths below never reach the distance codes, checked by making them raise)."""

import json

import pytest

from exactdp.cli import main


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(p)


def one_line(err):
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err


@pytest.fixture
def no_codes(monkeypatch):
    """Make the O(n) set-up of a solve fail loudly: a refusal must come before it."""
    import exactdp.metrics.symmetry as sym

    def boom(*a, **k):
        raise AssertionError("the distance codes were built before the size was refused")
    monkeypatch.setattr(sym.DistanceCodes, "__init__", boom)


@pytest.mark.parametrize("cmd", ["tight", "regular"])
def test_tight_and_regular_refuse_a_large_path_by_its_cells(tmp_path, capsys, no_codes, cmd):
    m = write(tmp_path, "p.json", {"kind": "path", "n": 40_000})
    args = [cmd, m, "--eps", "1"] if cmd == "tight" else [cmd, write(tmp_path, "pr.json", [1]), "--metric", m,
                                                          "--eps", "1"]
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"exactdp: error: {cmd}: the route solves Phi z = b by the verified float solve")
    assert "here 20,000 cells for 40,000 points (orbits of the metric's symmetries, counted in closed form)" in err
    assert "the limit is 5,050 cells" in err


@pytest.mark.slow
@pytest.mark.parametrize("cmd,spec,cells", [("tight", {"kind": "path", "n": 10**6}, "500,000"),
                                            ("regular", {"kind": "grid", "shape": [1000, 1000]}, "125,250")])
def test_the_reported_million_point_metrics_are_refused_before_the_work(tmp_path, capsys, no_codes, cmd, spec,
                                                                        cells):
    """The issue's inputs: tight on a 10^6-point path, regular on the 1000 x 1000 grid (they hung)."""
    m = write(tmp_path, "m.json", spec)
    args = [cmd, m, "--alpha", "1/2"] if cmd == "tight" else [cmd, write(tmp_path, "pr.json", [1]), "--metric", m,
                                                              "--alpha", "1/2"]
    code, out, err = run(args, capsys)
    assert (code, out) == (2, "") and f"here {cells} cells for 1,000,000 points" in one_line(err)


def test_a_path_within_the_limits_still_runs(tmp_path, capsys):
    code, out, err = run(["tight", write(tmp_path, "p.json", {"kind": "path", "n": 3}), "--alpha", "1/2"], capsys)
    assert code == 0 and err == "" and out


@pytest.mark.parametrize("orders,bad", [("64,257", "257"), ("2,100000", "100000"), ("1", "1")])
def test_opendp_orders_are_bounded_before_opendp_runs(monkeypatch, capsys, orders, bad):
    """issue 32 item 3: --orders 64 hung; the orders are bounded by the Renyi limit, refused as bad input."""
    import exactdp.interop.accountants as acc

    def boom(*a, **k):
        raise AssertionError("OpenDP ran before the orders were checked")
    monkeypatch.setattr(acc, "check_opendp_gaussian", boom)
    code, out, err = run(["opendp", "gaussian", "--scale", "1", "--orders", orders], capsys)
    assert (code, out) == (2, "")
    assert one_line(err).startswith(f"exactdp: error: --orders: {bad} is outside [2, 256]")


def test_a_plan_is_refused_by_its_entries_before_any_mechanism_is_read(tmp_path, capsys):
    """issue 32 item 4: the entry limit comes first; the mechanism file named 1,001 times does not exist, so a
    check made after reading entries would report that instead."""
    from exactdp.interop.audit import MAX_PLAN

    plan = write(tmp_path, "plan.json", [{"mechanism": "missing.json", "times": 1}] * (MAX_PLAN + 1))
    metric = write(tmp_path, "m.json", {"kind": "path", "n": 2})
    code, out, err = run(["audit", plan, "--metric", metric, "--eps", "1", "--delta", "0"], capsys)
    assert (code, out) == (2, "")
    assert "1,001 entries exceed the limit 1,000" in one_line(err) and "missing" not in err
    ok = write(tmp_path, "ok.json", [{"builder": "grr", "k": 2, "eps": "log(3)", "times": 2}])
    code, out, err = run(["audit", ok, "--metric", metric, "--eps", "log(9)", "--delta", "0"], capsys)
    assert code == 0 and err == ""
