"""End to end, with the reference measured in the same run (issue 20, items 1 and 2).

Run:  python benchmarks/bench_build.py        (add --quick for a smoke run; --markdown for docs/benchmarks.md rows)

1. ``geometric(n, "1/2")`` built, then ``certify_privacy`` on ``path(n + 1)`` (in process, imports excluded),
   against a numpy float check that builds its own matrix: the log-probabilities of the same mechanism
   written directly in log space (no underflow), then the largest change along the path's edges compared with
   eps = log 2 (with a relative slack of 1e-12, the float check cannot see ties).
2. ``exactdp certify`` of an m x m randomized response read from JSON, the whole command (a fresh process,
   text and JSON output), against the same work done with floats by a numpy user: a fresh process that reads
   the JSON with the standard library, turns the distinct entries into floats and checks max - min of the log
   column by column (the discrete metric) against eps = log 3.  The same mechanism is also read from ``.npz``.

Times are wall-clock and CPU (user + system; of the child for a command), each the best of a few runs: on a
shared machine the CPU time is the steadier of the two.  ``--root DIR`` times the exactdp of another checkout (for a
before/after comparison in one sitting: ``git archive <commit> | tar -x -C DIR``); rows it cannot run say so.
"""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if "--root" in sys.argv:
    ROOT = os.path.abspath(sys.argv[sys.argv.index("--root") + 1])
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from _machine import machine  # noqa: E402

from exactdp import certify_privacy, geometric, path  # noqa: E402


def best(fn, reps):
    """``fn()``'s result and its best wall-clock and best CPU time (this process) over ``reps`` runs."""
    out, t, c = None, math.inf, math.inf
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        t, c = min(t, time.perf_counter() - t0), min(c, time.process_time() - c0)
    return out, (t, c)


def numpy_geometric_check(n, alpha=0.5):
    """The float reference: build log K for the range-restricted geometric mechanism and check the path's edges."""
    la, l1p = math.log(alpha), math.log1p(alpha)
    i = np.arange(n + 1)
    L = math.log(1 - alpha) - l1p + la * np.abs(i[None, :] - i[:, None])
    L[:, 0] = la * i - l1p
    L[:, n] = la * (n - i) - l1p
    return bool(np.max(np.abs(np.diff(L, axis=0))) <= -la * (1 + 1e-12))


def build_certify_rows(quick):
    n = 400 if quick else 3999
    P = path(n + 1)
    reps = 2 if quick else 5

    def exact():
        c = certify_privacy(geometric(n, "1/2"), P, alpha="1/2")
        assert c.holds is True and c.evidence.epsilon == "log(2)"
        return c
    exact()  # warm the imports and caches of both sides once
    numpy_geometric_check(n)
    _, tb = best(lambda: geometric(n, "1/2"), reps)
    _, tt = best(exact, reps)
    f, tf = best(lambda: numpy_geometric_check(n), reps)
    assert f is True
    return [(f"`geometric({n}, \"1/2\")` built + `certify_privacy` on `path({n + 1})` (build alone "
             f"{tb[0]:.3f} s)", tt, tf, "numpy float check building its own log matrix")]


FLOAT_CHILD = r"""
import json, math, sys, time
from fractions import Fraction
import numpy as np
t0 = time.perf_counter()
with open(sys.argv[1]) as f:
    obj = json.load(f)
flat = [s for row in obj["matrix"] for s in row]
distinct = {s: math.log(float(Fraction(s))) for s in dict.fromkeys(flat)}
L = np.fromiter(map(distinct.__getitem__, flat), dtype=float, count=len(flat)).reshape(len(obj["matrix"]), -1)
ok = bool((L.max(axis=0) - L.min(axis=0)).max() <= math.log(3) * (1 + 1e-12))
print(time.perf_counter() - t0, ok)
"""


def write_rr(m, directory):
    """An m x m randomized response at eps = log 3 (JSON and npz) and the discrete metric on its labels."""
    pts = [str(i) for i in range(m)]
    p, stay = f"1/{m + 2}", f"3/{m + 2}"
    mech = os.path.join(directory, f"rr{m}.json")
    with open(mech, "w") as f:
        json.dump({"inputs": pts, "outputs": pts, "matrix": [[stay if i == j else p for j in range(m)]
                                                               for i in range(m)]}, f)
    num = np.ones((m, m), dtype=np.int64)
    np.fill_diagonal(num, 3)
    npz = os.path.join(directory, f"rr{m}.npz")
    np.savez(npz, num=num, den=np.full((m, m), m + 2, dtype=np.int64))
    metric = os.path.join(directory, f"discrete{m}.json")
    with open(metric, "w") as f:
        json.dump({"kind": "discrete", "points": pts}, f)
    return mech, npz, metric


def run_cmd(args, reps):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t, c = math.inf, math.inf
    for _ in range(reps):
        t0, u0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        # cwd: ``python -m`` puts the working directory first on sys.path, before PYTHONPATH
        r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        u1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = min(t, time.perf_counter() - t0)
        c = min(c, (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime))  # the child's user + system CPU
        if r.returncode != 0:
            if "--root" in sys.argv:  # an older checkout without the feature
                return None
            raise AssertionError(r.stderr[-1000:])
    return t, c


def cli_rows(quick):
    m = 200 if quick else 2000
    reps = 1 if quick else 3
    rows = []
    with tempfile.TemporaryDirectory() as d:
        mech, npz, metric = write_rr(m, d)
        def cmd(mech_file, fmt):
            return [sys.executable, "-m", "exactdp", "certify", mech_file, "--metric", metric, "--eps", "log(3)",
                    "--format", fmt]
        tref = run_cmd([sys.executable, "-c", FLOAT_CHILD, mech], reps)
        for what, path_, fmt in [("JSON in, text out", mech, "text"), ("JSON in, JSON certificate out", mech, "json"),
                                 (".npz in, JSON certificate out", npz, "json")]:
            t = run_cmd(cmd(path_, fmt), reps)
            rows.append((f"`exactdp certify` of a {m} x {m} randomized response, {what} (whole command)", t, tref,
                         "a fresh python reading the JSON (stdlib) and checking in float (numpy)"))
        tnone = run_cmd([sys.executable, "-c", "import exactdp.cli"], reps)
        rows.append(("  (of which: starting Python and importing exactdp)", tnone, None, ""))
    return rows


def main():
    quick = "--quick" in sys.argv
    print(f"Machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
          f"{os.getloadavg()[0]:.1f}; exactdp from {ROOT}\n")
    print("| task | exactdp wall / CPU (s) | reference wall / CPU (s) | ratio wall / CPU | reference |")
    print("|---|---|---|---|---|")
    for name, t, tr, ref in build_certify_rows(quick) + cli_rows(quick):
        ts = f"{t[0]:.3f} / {t[1]:.3f}" if t else "cannot (older checkout)"
        rs = f"{tr[0]:.3f} / {tr[1]:.3f}" if tr else "-"
        ratio = f"{t[0] / tr[0]:.2f} / {t[1] / tr[1]:.2f}" if tr and t else "-"
        print(f"| {name} | {ts} | {rs} | {ratio} | {ref} |")


if __name__ == "__main__":
    main()
