"""ECP14's Euclidean grid one size up, through the command line (issue 20, item 4).

Run:  nice -n 10 python benchmarks/bench_grid200.py [--side 200]     (--quick: a 30 x 30 grid, a smoke run)

Each row is a whole command under ``/usr/bin/time -v`` (wall clock, user + system CPU, peak resident memory):
``exactdp tight GRID.json --eps 1`` (existence of the tight-constraints mechanism), ``exactdp tight GRID.json
--threshold`` (the certified bracket of width 1e-9) and ``exactdp recheck`` of each certificate.  The reference
is the float floor: a fresh Python that solves the same symmetry-reduced system in numpy at eps = 1 (no
certificate, its building of the quotient included).  The commands run one after the other, once each: on a
shared machine compare the CPU column.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from _machine import machine  # noqa: E402

FLOAT_FLOOR = r"""
import sys
from exactdp.exact.verified_solve import blas_single_thread
from exactdp.metrics import grid
from exactdp.priors.threshold import _FloatGuide
side = int(sys.argv[1])
with blas_single_thread():
    print(_FloatGuide(grid((side, side), "euclidean")).zmin(1.0))
"""


def timed(args, out_path=None):
    """``(exit code, wall s, CPU s, peak MiB, stdout text)`` of one command under /usr/bin/time -v."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.NamedTemporaryFile("w+", suffix=".time") as tf:
        t0 = time.perf_counter()
        with open(out_path or os.devnull, "w") as out:
            r = subprocess.run(["/usr/bin/time", "-v", "-o", tf.name, *args], stdout=out, stderr=subprocess.PIPE,
                               text=True, env=env, cwd=ROOT)
        wall = time.perf_counter() - t0
        with open(tf.name) as f:
            rep = f.read()
    def field(name):
        m = re.search(rf"{re.escape(name)}: ([0-9.]+)", rep)
        return float(m.group(1)) if m else float("nan")
    cpu = field("User time (seconds)") + field("System time (seconds)")
    text = ""
    if out_path:
        with open(out_path) as f:
            text = f.read()
    return r.returncode, wall, cpu, field("Maximum resident set size (kbytes)") / 1024, text or r.stderr


def main():
    side = 30 if "--quick" in sys.argv else int(sys.argv[sys.argv.index("--side") + 1]) if "--side" in sys.argv \
        else 200
    exe = [sys.executable, "-m", "exactdp"]
    print(f"Machine: {machine()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
          f"{os.getloadavg()[0]:.1f} at the start; {side} x {side} Euclidean grid\n")
    print("| task | result | exit | wall (s) | CPU (s) | peak memory (MiB) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        g = os.path.join(d, "grid.json")
        with open(g, "w") as f:
            json.dump({"kind": "grid", "shape": [side, side], "norm": "euclidean"}, f)
        rows = []
        for what, args in (("existence at eps = 1", ["tight", g, "--eps", "1"]),
                           ("threshold bracket (width 1e-9)", ["tight", g, "--threshold"])):
            cert = os.path.join(d, f"{len(rows)}.json")
            code, wall, cpu, mib, text = timed([*exe, *args, "--format", "json", "--quiet"], cert)
            ev = json.loads(text)["evidence"] if code in (0, 1) else {}
            res = (f"exists = {code == 0}, {ev.get('cells')} cells" if "eps" in what else
                   f"[{ev.get('lo')}, {ev.get('hi')}]" if code == 0 else text.strip()[-200:])
            rows.append((f"`exactdp tight` {what}", res, code, wall, cpu, mib))
            code, wall, cpu, mib, text = timed([*exe, "recheck", cert, "--format", "json"], os.path.join(d, "r.json"))
            try:
                rc = json.loads(text)
                res = f"{rc['status']}: {rc['detail'][:160]}"
            except (ValueError, KeyError):
                res = text.strip()[-200:]
            rows.append(("`exactdp recheck` of its certificate", res, code, wall, cpu, mib))
        code, wall, cpu, mib, text = timed([sys.executable, "-c", FLOAT_FLOOR, str(side)], os.path.join(d, "f.txt"))
        rows.append(("float floor: numpy solve of the same quotient at eps = 1 (no certificate)",
                     f"min z = {float(text):.3g}" if code == 0 else text[-200:], code, wall, cpu, mib))
    for task, res, code, wall, cpu, mib in rows:
        print(f"| {task} | {res} | {code} | {wall:.1f} | {cpu:.1f} | {mib:,.0f} |")


if __name__ == "__main__":
    main()
