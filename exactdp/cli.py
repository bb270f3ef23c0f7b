"""The ``exactdp`` command line.

Exit codes (DESIGN.md section 5): 0 the property holds, 1 it does not (witness
printed), 2 bad input (one line on stderr, no traceback), 3 undecided, 4
internal error -- a bug, reported in one line (the traceback only with
``--debug``).  A crash never looks like a verdict.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Sequence

from .cli_checks import UsageError as _UsageError
from .cli_checks import check_phi_route as _check_phi_route
from .cli_checks import check_plot_output as _check_plot_output
from .cli_checks import check_writable_dir as _check_writable_dir
from .errors import ExactDPError, Undecided

__all__ = ["main"]

FORMATS = ("text", "json", "markdown", "latex")

#: exit code of an internal error (a bug in exactdp, never a verdict)
EXIT_BUG = 4
#: exit code when the output pipe was closed early (128 + SIGPIPE, the shell's convention)
EXIT_PIPE = 141

_EXIT_CODES = """exit codes:
  0  the property holds (certify, epsilon, optimal, tight, regular, extend); the
     command did its job (remap, leakage, profile, compose, tradeoff, plot,
     proofs); every claim reproduced or reconstructed (reproduce); recheck: the
     certificate is confirmed by the independent kernel
  1  the property does not hold, the witness is printed; reproduce: a claim
     differs from the paper; proofs --check: a proof file is stale; recheck: the
     certificate is refuted (a bug, please report it)
  2  bad input or usage, or an input beyond what the route can do (the limit
     is named): one line on stderr, no traceback
  3  undecided: no exact regime decides it (the reason is printed); reproduce:
     a claim is undecided and none differs; recheck: not checkable by the small
     kernel (the reason is printed)
  4  internal error: a bug in exactdp, please report it (traceback with --debug);
     reproduce --recheck: a certificate was refuted
141  the output pipe was closed early (e.g. | head): stopped quietly"""

_CMD_EXITS = {
    "certify": "0 private at the level (or for every eps with --all-eps), 1 not private (witness), 2 bad input, "
               "3 undecided, 4 bug",
    "epsilon": "0 a finite smallest eps exists (printed exactly), 1 not private for any finite eps, 2 bad input, "
               "3 undecided, 4 bug",
    "optimal": "0 the remapped geometric mechanism attains the exact LP optimum, 1 it does not, 2 bad input, "
               "3 undecided, 4 bug",
    "remap": "0 the remap was computed, 2 bad input, 4 bug",
    "tight": "0 the tight-constraints mechanism exists (or the threshold was found), 1 it does not, 2 bad input, "
             "3 undecided, 4 bug",
    "regular": "0 the prior is d-regular, 1 it is not, 2 bad input, 3 undecided, 4 bug",
    "leakage": "0 the leakage was computed, 2 bad input, 3 undecided, 4 bug",
    "reproduce": "0 every claim reproduced or reconstructed (the paper's setting was lost in the text and is "
                 "rebuilt, then checked), 1 some claim differs from the paper, 2 unknown id, "
                 "3 some claim undecided (none differs), 4 bug (also: with --recheck, a refuted certificate)",
    "proofs": "0 written (or up to date with --check), 1 stale proof files with --check, 2 bad input, 4 bug",
    "profile": "0 (eps, delta)-DP with --eps and --delta (otherwise: the profile was certified), 1 not (eps, "
               "delta)-DP, 2 bad input, 3 undecided, 4 bug",
    "compose": "0 the composition is (eps, delta)-DP with --eps and --delta (otherwise: its profile was certified), "
               "1 it is not, 2 bad input, 3 undecided, 4 bug",
    "extend": "0 the extension agrees with the mechanism on H and is 2 eps-private (BCSZ18), 1 not (the failing part "
              "is printed), 2 bad input, 3 undecided, 4 bug",
    "tradeoff": "0 the certified smallest eps (or bracket) was found, 2 bad input or beyond the LP route's reach "
                "(the numbers are printed), 3 undecided (e.g. an irrational distance), 4 bug",
    "plot": "0 the figure was written, 2 bad input (or matplotlib missing: pip install 'exactdp[plot]'), 4 bug",
    "recheck": "0 the certificate is confirmed by the independent kernel, 1 refuted (a bug), 2 not a certificate, "
               "3 not checkable (the reason is printed), 4 bug",
    "mechanism": "0 the mechanism was built (or listed), 2 bad input, 3 undecided, 4 bug",
    "fdp": "0 the exact trade-off function was computed (with --mu: f >= G_mu holds), 1 with --mu: it does not, "
           "2 bad input, 3 undecided, 4 bug",
    "renyi": "0 the RDP curve was certified, 2 bad input, 3 undecided, 4 bug",
    "opendp": "0 OpenDP's reported eps (rho) is at least the exact one, 1 it is below, 2 bad input (or OpenDP "
              "missing: pip install 'exactdp[interop]'), 4 bug",
    "audit": "0 the claimed (eps, delta) holds for the plan, 1 it is violated (the exact excess is printed), "
             "2 bad input, 3 undecided, 4 bug",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, exit 2
        sys.stderr.write(f"exactdp: error: {message} (see 'exactdp --help')\n")
        raise SystemExit(2)


def _emit(cert, fmt):
    if fmt == "json":  # the same bytes as cert.render("json"), written fast (a large mechanism's codes: 100 MB)
        from .io import json_text

        data = json_text(cert.to_json())
        out = getattr(sys.stdout, "buffer", None)
        if out is None:
            sys.stdout.write(data.decode("ascii"))
        else:
            sys.stdout.flush()
            out.write(data)
            out.flush()
        return cert.verdict.exit_code
    sys.stdout.write(cert.render(fmt))
    return cert.verdict.exit_code


def _level_args(p, required=False):
    g = p.add_mutually_exclusive_group(required=required)
    g.add_argument("--eps", help="exact privacy level, e.g. 1/2, log(2), sqrt(2)")
    g.add_argument("--alpha", help="alpha = e^(-eps) in (0,1), e.g. 1/2 or exp(-1/2)")
    return g


def _cmd_certify(a):
    from .certify import certify_all_eps, certify_privacy
    from .io import load_mechanism, load_metric
    from .mechanisms import geometric
    from .metrics import path

    if a.example:
        if a.mechanism or a.metric:
            raise _usage("--example replaces MECH.json and --metric")
        # the range-restricted geometric mechanism, n = 10, alpha = 1/2 (symbolic alpha with --all-eps)
        mech, metric = (geometric(10) if a.all_eps else geometric(10, "1/2")), path(11)
        if not (a.eps or a.alpha or a.all_eps):
            a.alpha = "1/2"
    else:
        if not a.mechanism or not a.metric:
            raise _usage("certify needs MECH.json and --metric METRIC.json (or --example geometric)")
        mech, metric = load_mechanism(a.mechanism), load_metric(a.metric)
    if a.delta is not None or a.neighbours:
        return _cmd_certify_approx(a, mech, metric)
    if a.all_eps:
        cert = certify_all_eps(mech, metric)
    else:
        if not (a.eps or a.alpha):
            raise _usage("certify needs --eps, --alpha or --all-eps")
        with _engine_progress(a, "certify") as progress:
            cert = certify_privacy(mech, metric, eps=a.eps, alpha=a.alpha, progress=progress)
    return _emit(cert, a.format)


# ---- approximate DP: certify --delta, profile, compose (issue 9) ----
def _neighbours_arg(a, metric):
    """The neighbour relation: --neighbours FILE (JSON list of label pairs, or {"pairs": [...]}) or the metric."""
    if not a.neighbours:
        return metric
    from .io import load_json

    obj = load_json(a.neighbours)
    pairs = obj.get("pairs") if isinstance(obj, dict) else obj
    if not isinstance(pairs, list):
        raise _usage(f"--neighbours {a.neighbours!r}: expected a JSON list of label pairs or {{\"pairs\": [...]}}")
    return pairs


def _cmd_certify_approx(a, mech, metric):
    from .certify.approximate import certify_approx

    if a.all_eps:
        raise _usage("--delta does not combine with --all-eps")
    if a.delta is None:
        raise _usage("--neighbours needs --delta (the pure case uses the metric's generating pairs)")
    if not (a.eps or a.alpha):
        raise _usage("certify --delta needs --eps or --alpha")
    cert = certify_approx(mech, _neighbours_arg(a, metric), eps=a.eps, alpha=a.alpha, delta=a.delta)
    return _emit(cert, a.format)


def _profile_level(a) -> dict:
    """The query of profile / compose: the level (--eps | --alpha; eps = 0 is the total-variation question) and
    delta, each optional."""
    return {"eps": a.eps, "alpha": a.alpha, "delta": a.delta}


def _cmd_profile(a):
    from .io import load_mechanism, load_metric
    from .theory.profile_cert import certify_profile

    mech = _fix_alpha(load_mechanism(a.mechanism), a, "profile")
    cert = certify_profile(mech, _neighbours_arg(a, load_metric(a.metric)), **_profile_level(a))
    return _emit(cert, a.format)


def _times(text: str, n: int, limit: int) -> list:
    """--times K (every mechanism K times) or K1,K2,... (one per mechanism), each in [1, limit]."""
    parts = text.split(",")
    if len(parts) not in (1, n):
        raise _usage(f"--times: expected one K or {n} comma-separated values (one per mechanism), got {text!r}")
    try:
        ks = [int(p) for p in parts]
    except ValueError:
        raise _usage(f"--times: expected integers, got {text!r}") from None
    bad = next((k for k in ks if not 1 <= k <= limit), None)
    if bad is not None:
        raise _usage(f"--times: expected 1 <= K <= {limit}, got {bad}")
    return ks * n if len(ks) == 1 else ks


def _cmd_compose(a):
    from .io import load_mechanism, load_metric
    from .theory.composition import MAX_K
    from .theory.profile_cert import certify_composition

    ks = _times(a.times, len(a.mechanism), MAX_K)
    mechs = [_fix_alpha(load_mechanism(m), a, f"compose ({m})") for m in a.mechanism]
    cert = certify_composition(list(zip(mechs, ks, strict=True)), _neighbours_arg(a, load_metric(a.metric)),
                               **_profile_level(a))
    return _emit(cert, a.format)


def _fix_alpha(mech, a, cmd):
    """profile, compose: the level (--eps | --alpha) is the eps of the delta query and, as in ``certify``, the
    level at which a mechanism written in alpha is evaluated."""
    if mech.regime != "symbolic":
        return mech
    if a.alpha is None and a.eps is None:
        raise _usage(f"{cmd}: the entries use alpha; give --alpha A or --eps E to fix the level (e.g. --alpha 1/2 "
                     "or --alpha 'exp(-1)')")
    from .exact.level import level_of

    return mech.at(level_of(a.eps, a.alpha))


def _fix_level(mech, a):
    """Evaluate a mechanism written in alpha at the level given by --alpha/--eps (required then)."""
    if mech.regime != "symbolic":
        return mech.validate()
    from .exact.level import level_of as resolve_level

    if not (a.eps or a.alpha):
        raise _usage("the entries use alpha: give --alpha or --eps to fix their value")
    return mech.at(resolve_level(a.eps, a.alpha))


def _cmd_epsilon(a):
    from .certify import smallest_epsilon
    from .io import load_mechanism, load_metric

    mech, metric = load_mechanism(a.mechanism), load_metric(a.metric)
    with _engine_progress(a, "epsilon") as progress:
        cert = smallest_epsilon(_fix_level(mech, a), metric, progress=progress)
    return _emit(cert, a.format)


def _cmd_optimal(a):
    from .io import load_user
    from .theory.optimality import certify_universal_optimality, check_lp_size

    if a.n < 1:
        raise _usage(f"--n: expected n >= 1, got {a.n}")
    check_lp_size(a.n)  # up front: reading an (n+1) x (n+1) loss is itself the slow part of a too large n
    user = load_user(a.prior, a.loss, a.n)
    # the exact LP has no step counter: one line says what runs (terminal only), cleared before the result
    _progress(a, f"exactdp optimal: exact LP with (n+1)^2 = {(a.n + 1) ** 2:,} variables (HiGHS basis, then exact "
                 "pivots) ...")
    try:
        cert = certify_universal_optimality(a.n, user, alpha=a.alpha, eps=a.eps)
    finally:
        _progress(a, "")
    return _emit(cert, a.format)


def _cmd_remap(a):
    from .exact.decide import exact_latex
    from .io import load_mechanism, load_user
    from .theory.remaps import bayes_remap
    from .theory.users import expected_loss

    mech = _fix_level(load_mechanism(a.mechanism), a)
    results = [str(i) for i in range(len(mech.inputs))]
    if set(mech.inputs) != set(results):
        odd = [x for x in mech.inputs if x not in set(results)][:3]
        raise _usage(f"remap: the mechanism's inputs must be the user's results 0..{len(results) - 1} (the prior and "
                     f"the loss are indexed by them); got {', '.join(repr(x) for x in odd)}")
    user = load_user(a.prior, a.loss, len(mech.inputs) - 1)
    mapping, remapped = bayes_remap(mech, user)
    before, after = expected_loss(mech, user) if set(mech.outputs) <= {str(i) for i in range(user.n + 1)} else None, \
        expected_loss(remapped, user)
    out = {"remap": mapping, "expected_loss": str(after),
           "expected_loss_without_remap": None if before is None else str(before),
           "mechanism": remapped.to_json()}
    pairs = ", ".join(f"{z} -> {r}" for z, r in mapping.items())
    if a.format == "json":
        print(json.dumps(out, indent=2))
    elif a.format == "markdown":
        print("| output | remapped to |\n|---|---|\n" + "\n".join(f"| {z} | {r} |" for z, r in mapping.items())
              + f"\n\n**Expected loss** after the Bayes remap: ${exact_latex(after)}$"
              + (f" (without remapping: ${exact_latex(before)}$)." if before is not None else "."))
    elif a.format == "latex":
        print(r"\begin{tabular}{ll}output & remapped to\\ \hline" + "\n"
              + "\n".join(rf"{z} & {r}\\" for z, r in mapping.items()) + "\n\\end{tabular}\n\n"
              + rf"Expected loss after the Bayes remap: ${exact_latex(after)}$"
              + (rf" (without remapping: ${exact_latex(before)}$)." if before is not None else "."))
    else:
        print(f"optimal remap: {pairs}\nexpected loss: {after}"
              + (f" (without remapping: {before})" if before is not None else ""))
    return 0


def _cmd_tight(a):
    from .exact.level import level_of as resolve_level
    from .io import load_metric
    from .theory.regular import tight_constraints
    from .theory.threshold import threshold

    metric = load_metric(a.metric)
    say = _step_progress(a, "tight", metric)
    if a.threshold:
        c = threshold(metric, progress=say)  # refuses by the cells of its bracket's verified solves
    else:
        level = resolve_level(a.eps, a.alpha)
        _check_phi_route(metric, "tight", progress=say, level=level)
        c = tight_constraints(metric, level, progress=say)
    if say is not None:
        _progress(a, "")  # clear the progress line before the result
    return _emit(c, a.format)


#: smallest metric for which ``tight`` and ``regular`` report their steps (smaller ones take well under a second)
PROGRESS_POINTS = 300


def _step_progress(a, cmd: str, metric):
    """The engines' ``progress`` callback: a line on stderr per step (terminal only, not with --quiet), or None."""
    if len(metric) < PROGRESS_POINTS or getattr(a, "quiet", False) or not sys.stderr.isatty():
        return None
    return lambda stage, done, total: _progress(a, f"exactdp {cmd}: {stage} ...")



def _cmd_regular(a):
    from .exact.level import level_of as resolve_level
    from .io import load_metric, load_prior_for
    from .theory.regular import prior_from, regular_prior

    metric = load_metric(a.metric)
    level = resolve_level(a.eps, a.alpha)
    _check_phi_route(metric, "regular", level=level)  # refused before a huge prior is read (a prior only adds cells)
    prior = load_prior_for(a.prior, list(metric.points))
    say = _step_progress(a, "regular", metric)
    _check_phi_route(metric, "regular", rhs=prior_from(prior, metric), progress=say, level=level)
    c = regular_prior(prior, metric, level, progress=say)
    if say is not None:
        _progress(a, "")  # clear the progress line before the result
    return _emit(c, a.format)


def _cmd_leakage(a):
    from .io import load_mechanism, load_prior_for
    from .theory.leakage import leakage

    mech = _fix_level(load_mechanism(a.mechanism), a)
    prior = load_prior_for(a.prior, list(mech.inputs))
    return _emit(leakage(mech, prior), a.format)


def _progress(a, text: str) -> None:
    """A progress line on stderr: only on a terminal, never with --quiet."""
    if not getattr(a, "quiet", False) and sys.stderr.isatty():
        sys.stderr.write(f"\r\033[K{text}" if text else "\r\033[K")
        sys.stderr.flush()


@contextlib.contextmanager
def _engine_progress(a, command: str):
    """A ``progress(stage, done, total)`` callback for the certify engine that redraws one stderr line at most
    five times a second (None, so the engine skips the calls, off a terminal or with --quiet); the line is
    cleared at the end."""
    if getattr(a, "quiet", False) or not sys.stderr.isatty():
        yield None
        return
    last = [0.0]

    def progress(stage, done, total):
        now = time.monotonic()
        if now - last[0] >= 0.2:
            last[0] = now
            _progress(a, f"exactdp {command}: {stage}" + (f" {done}/{total}" if total else " ..."))
    try:
        yield progress
    finally:
        _progress(a, "")


def _chosen_claims(ids):
    """Claims by id, or every claim of a paper (``GRS12``), or all of them."""
    from .papers import claims, get_claim

    if not ids:
        return claims()
    papers = {c.paper for c in claims()}
    out = []
    for i in ids:
        out += [c for c in claims() if c.paper == i] if i in papers else [get_claim(i)]
    return out


def _reproduce_row(a, c):
    return _reproduce_job((c.id, bool(a.recheck)))


def _reproduce_job(job) -> dict:
    """One claim's row of ``exactdp reproduce``: ``job = (claim id, recheck)``; plain data in and out, so that
    it runs on a Dask worker as well as here."""
    from .papers import get_claim, run_claim

    cid, recheck = job
    c = get_claim(cid)
    r = run_claim(cid)
    row = {"id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement,
           "paper_says": c.paper_says, "exact": r.exact, "status": r.status, "certificates": len(r.certificates)}
    if recheck:
        checks = r.rechecks()
        row["recheck"] = {s: sum(x.status == s for x in checks) for s in ("confirmed", "refuted", "not checkable")}
        row["recheck_notes"] = sorted({x.detail for x in checks if x.status != "confirmed"})
    return row


def _print_row(a, r):
    if a.format in ("markdown", "latex"):
        print(f"| {r['id']} | {r['paper_says']} | {r['exact']} | {r['status']} |", flush=True)
        return
    print(f"{r['id']:<14} {r['status']:<13} paper: {r['paper_says']}\n{'':<28} exact: {r['exact']}", flush=True)
    if a.recheck:
        k = r["recheck"]
        print(f"{'':<28} re-check of {r['certificates']} certificate{'' if r['certificates'] == 1 else 's'}: {k['confirmed']} confirmed, "
              f"{k['refuted']} refuted, {k['not checkable']} not checkable"
              + "".join(f"\n{'':<30}- {n}" for n in r["recheck_notes"]), flush=True)


def _cmd_reproduce(a):
    chosen = _chosen_claims(a.ids)
    if a.list:
        rows = [{"id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement} for c in chosen]
        if a.format == "json":
            print(json.dumps(rows, indent=2))
        else:
            for r in rows:
                print(f"{r['id']:<22} {r['paper']} {r['where']}: {r['statement']}")
        return 0
    from .sweep import sweep

    results = sweep(_reproduce_job, [(c.id, bool(a.recheck)) for c in chosen], workers=a.workers,
                    scheduler=a.scheduler, what="reproduce")   # refuses a bad --workers before any output
    if a.format in ("markdown", "latex"):
        print("| claim | paper says | exact result | status |\n|---|---|---|---|")
    rows: list = []
    for k, c in enumerate(chosen, 1):
        # serially the claim runs now; on Dask every claim was submitted and this waits for its result
        _progress(a, f"exactdp reproduce: [{k}/{len(chosen)}] {c.id} ...")
        rows.append(next(results))
        _progress(a, "")
        if a.format != "json":  # results stream claim by claim, in input order
            _print_row(a, rows[-1])
    if a.format == "json":
        print(json.dumps(rows, indent=2))
    if a.recheck and any(r["recheck"]["refuted"] for r in rows):
        sys.stderr.write("exactdp: a certificate failed its independent re-check: this is a bug, please report it\n")
        return 4
    statuses = {r["status"] for r in rows}
    if "differs" in statuses:
        return 1
    if "undecided" in statuses:
        return 3
    return 0


def _cmd_plot(a):
    fmt = _check_plot_output(a)
    from . import plot
    from .exact.level import level_of
    from .io import load_mechanism, load_metric

    if a.what == "mechanism":
        if not a.file:
            raise _usage("plot mechanism needs MECH.json")
        ax = plot.plot_mechanism(_fix_level(load_mechanism(a.file), a))
    elif a.what == "region":
        if not a.file:
            raise _usage("plot region needs METRIC.json (a metric on three points)")
        ax, _ = plot.plot_regular_region(load_metric(a.file), level_of(a.eps, a.alpha))
    elif a.what in ("profile", "extension"):
        ax = _plot_approx(plot, a)
    elif a.what == "fdp":
        ax = _plot_fdp(plot, a)
    elif a.what == "geo-utility":
        ax = _plot_geo_utility(plot, a)
    else:
        ax, _ = plot.plot_geometric_vs_laplace()
    try:
        ax.figure.savefig(a.output, format=fmt, dpi=a.dpi, bbox_inches="tight")
    except OSError as e:
        raise _usage(f"-o {a.output!r}: cannot write the figure: {e.strerror or e}") from None
    print(f"wrote {a.output}")
    return 0


#: largest --side of ``plot geo-utility`` (the 200 x 200 grid is the largest measured for its verified solves)
MAX_GEO_SIDE = 200


def _plot_geo_utility(plot, a):
    """plot geo-utility [--side N] [--levels ...] [--workers N | --scheduler ADDRESS]: ECP14 Fig. 7, one job per
    level through :func:`exactdp.sweep.sweep` (in this process by default, or on Dask), then the threshold."""
    from .sweep import sweep

    if not 2 <= a.side <= MAX_GEO_SIDE:
        raise _usage(f"--side: expected 2 <= N <= {MAX_GEO_SIDE}, got {a.side}")
    levels = ([x.strip() for x in a.levels.split(",")] if a.levels else [f"{k}/100" for k in range(40, 131, 5)])
    if not levels or len(levels) > 1000 or any(not x for x in levels):
        raise _usage("--levels: expected 1 to 1000 rationals separated by commas, e.g. 1/2,3/4,1")

    def mapper(fn, jobs):
        jobs = list(jobs)
        for k, r in enumerate(sweep(fn, jobs, workers=a.workers, scheduler=a.scheduler, what="plot"), 1):
            _progress(a, f"exactdp plot: {k}/{len(jobs)} levels")
            yield r
        _progress(a, "exactdp plot: the certified threshold ...")

    ax, _, _ = plot.plot_geo_utility(a.side, levels, mapper=mapper)
    _progress(a, "")
    return ax


def _plot_approx(plot, a):
    """plot profile MECH.json --metric M [--times K --bounds] / plot extension MECH_H.json --metric M --subset H."""
    from .io import load_mechanism, load_metric

    if not a.file or not a.metric:
        raise _usage(f"plot {a.what} needs MECH.json and --metric METRIC.json")
    mech, metric = load_mechanism(a.file), load_metric(a.metric)
    if a.what == "profile":
        if a.times is not None and not 1 <= a.times <= 10_000:
            raise _usage(f"--times: expected 1 <= K <= 10000 for a plot, got {a.times}")
        if a.bounds and a.times is None:
            raise _usage("--bounds needs --times K (the bounds are for the K-fold composition)")
        if mech.regime == "symbolic":
            mech = _fix_level(mech, a)
        ax, _ = plot.plot_profile(mech, _neighbours_arg(a, metric), times=a.times, bounds=a.bounds, logy=a.logy)
        return ax
    if not (a.eps or a.alpha):
        raise _usage("plot extension needs --eps or --alpha (the level at which the mechanism on H is private)")
    H = _load_subset(a.subset) if a.subset else None
    ax, _ = plot.plot_extension(mech, metric, H, eps=a.eps, alpha=a.alpha)
    return ax


def _plot_fdp(plot, a):
    """plot fdp MECH.json --metric M [--times K]: the exact trade-off function and G_mu (issue 22)."""
    from .io import load_mechanism, load_metric

    if not a.file or not a.metric:
        raise _usage("plot fdp needs MECH.json and --metric METRIC.json")
    if a.times is not None and not 1 <= a.times <= 10_000:
        raise _usage(f"--times: expected 1 <= K <= 10000 for a plot, got {a.times}")
    mech = load_mechanism(a.file)
    if mech.regime == "symbolic":
        mech = _fix_level(mech, a)
    ax, _ = plot.plot_fdp(mech, _neighbours_arg(a, load_metric(a.metric)), times=a.times)
    return ax


def _cmd_recheck(a):
    from .recheck import recheck

    try:
        res = recheck(a.certificate)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as e:
        raise _usage(f"certificate {a.certificate!r}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    if a.format == "json":
        print(json.dumps({"status": res.status, "checked": res.checked, "detail": res.detail}, indent=2))
    else:
        print(f"re-check: {res.status}\nchecked: {res.checked}\ndetail:  {res.detail}")
    return res.exit_code


def _cmd_proofs(a):
    from .papers import write_proofs

    if a.check and not os.path.isdir(a.dir):
        raise _usage(f"proofs --check: there is no directory {a.dir!r} (run from the repository, or give --dir)")
    if not a.check:
        _check_writable_dir(a.dir, "proofs --dir")
    stale = write_proofs(a.dir, check=a.check)
    if a.check:
        if stale:
            sys.stderr.write("exactdp: stale proofs: " + ", ".join(stale) + " (run 'exactdp proofs')\n")
            return 1
        print("proofs are up to date")
        return 0
    print(f"wrote {len(stale)} proof file{'' if len(stale) == 1 else 's'} to {a.dir}")
    return 0


# -- extension (BCSZ18) and tradeoff (KL10) ---------------------------------------------------------------------
def _load_subset(path):
    from .io import load_json

    obj = load_json(path)
    if isinstance(obj, dict):
        obj = obj.get("points")
    if not isinstance(obj, list):
        raise _usage(f"--subset {path}: expected a JSON list of point labels or {{\"points\": [...]}}")
    return [str(h) for h in obj]


def _cmd_extend(a):
    from .io import load_mechanism, load_metric
    from .theory.extension_cert import certify_extension

    if not (a.eps or a.alpha):
        raise _usage("extend needs --eps or --alpha (the level at which the mechanism on H is private)")
    mech, metric, H = load_mechanism(a.mechanism), load_metric(a.metric), _load_subset(a.subset)
    return _emit(certify_extension(mech, metric, H, eps=a.eps, alpha=a.alpha), a.format)


def _cmd_tradeoff(a):
    from .io import load_metric
    from .theory.tradeoff import certify_tradeoff

    metric = load_metric(a.metric)
    with _engine_progress(a, "tradeoff") as progress:
        cert = certify_tradeoff(metric, gamma=a.gamma, delta=a.delta, ball=a.ball, progress=progress)
    return _emit(cert, a.format)


def _register_extension_commands(sub):
    x = sub.add_parser("extend", help="extend a mechanism from a subset H to the whole metric (BCSZ18) and certify "
                                      "agreement on H and 2 eps-privacy")
    x.add_argument("mechanism", help="mechanism on H (JSON; its inputs are the points of H)")
    x.add_argument("--metric", required=True, help="metric file (JSON)")
    x.add_argument("--subset", required=True, help="H: JSON list of point labels")
    _level_args(x, required=True)
    x.add_argument("--format", choices=FORMATS, default="text")
    x.set_defaults(fn=_cmd_extend)

    t = sub.add_parser("tradeoff", help="KL10's eps*(gamma, delta) exactly (the LP's optimal basis, parametric in "
                                          "t = e^eps)")
    t.add_argument("--metric", required=True, help="metric file (JSON); f = id, Y = X")
    t.add_argument("--gamma", required=True, help="utility radius gamma > 0")
    t.add_argument("--delta", required=True, help="failure probability, rational 0 < delta < 1")
    t.add_argument("--ball", choices=["open", "closed"], default="open", help="B(f(x), gamma): sigma < or <= gamma")
    t.add_argument("--format", choices=FORMATS, default="text")
    t.set_defaults(fn=_cmd_tradeoff)


# ---- exactdp mechanism NAME: the builders of exactdp.mechanisms.catalog (issue 22) ----
def _cmd_mechanism(a):
    """Build a named mechanism and write it in the file format ``certify`` reads (or list the names)."""
    from .io import load_json
    from .mechanisms.catalog import BUILDERS, build

    if a.list:
        for name, b in sorted(BUILDERS.items()):
            extra = " ".join(f"[--{p}]" for p in b.params)
            sys.stdout.write(f"{name:18} {b.summary}{'  ' + extra if extra else ''}\n")
        return 0
    if not a.name:
        raise _usage("mechanism needs a NAME (exactdp mechanism --list names them)")
    needs_k = a.name not in ("permute-and-flip", "report-noisy-max")
    if needs_k and a.k is None:
        raise _usage(f"mechanism {a.name} needs --k K (inputs 0..K-1)")
    params = {"g": a.g, "family": a.family, "omega": a.omega, "gamma": a.gamma, "base": a.base,
              "sigma2": a.sigma2, "sensitivity": a.sensitivity,
              "scores": load_json(a.scores) if a.scores else None}
    mech = build(a.name, k=a.k, eps=a.eps, alpha=a.alpha, **params)
    obj = {"name": mech.name, "provenance": mech.provenance, **mech.to_json()}
    text = json.dumps(obj, indent=1 if a.output else None) + "\n"
    if a.output:
        try:
            with open(a.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise _usage(f"-o {a.output!r}: {e.strerror or type(e).__name__}") from None
        sys.stdout.write(f"wrote {a.output}: {mech.name}, {len(mech.inputs)} x {len(mech.outputs)}, "
                         f"{mech.regime} entries\n")
    else:
        sys.stdout.write(text)
    return 0


def _register_mechanism_command(sub):
    m = sub.add_parser("mechanism", help="build a named mechanism (local-DP oracles, discrete Gaussian, staircase, "
                                         "permute-and-flip, ...) as a mechanism file; --list names them")
    m.add_argument("name", nargs="?", help="the builder (see --list)")
    m.add_argument("--list", action="store_true", help="name every builder, one line each")
    m.add_argument("--k", type=int, help="inputs 0..K-1 (the domain size of a local-DP oracle)")
    _level_args(m)
    m.add_argument("--g", type=int, help="lh: the hash range g")
    m.add_argument("--family", choices=["linear", "all"], help="lh, olh: the hash family (default linear)")
    m.add_argument("--omega", type=int, help="subset: the subset size")
    m.add_argument("--gamma", help="staircase: gamma in (0, 1] with gamma*Delta an integer")
    m.add_argument("--sensitivity", help="staircase, permute-and-flip, report-noisy-max: the sensitivity Delta")
    m.add_argument("--base", help="discrete-gaussian: beta = e^(-1/(2 sigma^2)) in (0, 1)")
    m.add_argument("--sigma2", help="discrete-gaussian: a rational sigma^2 > 0")
    m.add_argument("--scores", help="permute-and-flip, report-noisy-max: JSON file, one row of scores per input")
    m.add_argument("-o", "--output", help="write the mechanism file here (default: JSON on stdout)")
    m.set_defaults(fn=_cmd_mechanism)


# ---- exactdp fdp / audit: f-DP exactly and the audit of an accountant's claim (issue 22) ----
def _short(text: str, limit: int = 160) -> str:
    """Exact text for the text format: long expressions are cut (--format json prints them in full)."""
    return text if len(text) <= limit else f"{text[:limit // 2]}... ({len(text)} characters; --format json prints it)"


def _cmd_fdp(a):
    """The exact trade-off function of MECH.json (composed --times K) and the Gaussian-DP mu bracket, as a
    certificate (kind fdp); with --mu the verdict is whether f >= G_mu."""
    from .io import load_mechanism, load_metric
    from .theory.composition import MAX_K
    from .theory.fdp import certify_fdp

    if a.times < 1 or a.times > MAX_K:
        raise _usage(f"--times: expected 1 <= K <= {MAX_K}, got {a.times}")
    mech = load_mechanism(a.mechanism)
    if mech.regime == "symbolic":
        raise _usage("fdp: the entries use alpha; write them at a fixed level (e.g. alpha = 1/2 or exp(-1))")
    cert = certify_fdp(mech, _neighbours_arg(a, load_metric(a.metric)), a.times, width=a.mu_width, mu=a.mu)
    return _emit(cert, a.format)


def _cmd_audit(a):
    """Is the plan (eps, delta)-DP?  The exact delta(eps) of the composition, the verdict and the exact slack, as a
    certificate (kind audit); --dp-accounting adds dp_accounting's answers (text format)."""
    from .io import load_metric, load_plan
    from .theory.audit import certify_audit

    if a.dp_accounting and a.format != "text":
        raise _usage("--dp-accounting prints its comparison in the text format; --format "
                     f"{a.format} writes the certificate alone")
    plan = load_plan(a.plan)
    nb = _neighbours_arg(a, load_metric(a.metric))
    cert = certify_audit(plan, nb, eps=a.eps, delta=a.delta)
    cmp = None
    if a.dp_accounting:
        from .theory.accountants import compare_plan_dp_accounting

        cmp = compare_plan_dp_accounting(plan, nb, eps=a.eps).to_json()
    code = _emit(cert, a.format)
    if cmp:
        print(f"dp_accounting at eps = {cmp['eps_query']} (the float's exact value): pessimistic {cmp['pessimistic']}, "
              f"optimistic {cmp['optimistic']}; exact {_short(cmp['delta_exact'])} (about {cmp['delta_exact_approx']});"
              f" pessimistic below exact: {'yes' if cmp['pessimistic_below_exact'] else 'no'}")
    return code


def _register_fdp_audit_commands(sub):
    f = sub.add_parser("fdp", help="the exact f-DP trade-off function (DRS22) and a certified Gaussian-DP mu")
    f.add_argument("mechanism", help="mechanism file (entries at a fixed level)")
    f.add_argument("--metric", required=True, help="metric file; neighbours are its pairs at distance 1")
    f.add_argument("--neighbours", help="JSON file listing the neighbouring input pairs (instead of the metric's)")
    f.add_argument("--times", type=int, default=1, help="the K-fold composition (exact privacy-loss distribution)")
    f.add_argument("--mu-width", default="1/1000", help="width of the certified mu bracket (default 1/1000)")
    f.add_argument("--mu", help="decide f >= G_MU for this rational mu (exit 0 holds, 1 fails)")
    f.add_argument("--format", choices=FORMATS, default="text")
    f.set_defaults(fn=_cmd_fdp)

    u = sub.add_parser("audit", help="check an accountant's (eps, delta) for a composition plan, exactly")
    u.add_argument("plan", help="plan file: JSON list of {\"mechanism\": \"A.json\", \"times\": 50} or "
                                "{\"builder\": \"grr\", \"k\": 4, \"eps\": \"1\", \"times\": 10}")
    u.add_argument("--metric", required=True, help="metric file on the inputs; neighbours at distance 1")
    u.add_argument("--neighbours", help="JSON file listing the neighbouring input pairs (instead of the metric's)")
    u.add_argument("--eps", required=True, help="the claimed eps, exact (1, 1/2, log(2))")
    u.add_argument("--delta", required=True,
                   help="the claimed delta, exact (1/100000, or 1e-5 read as an exact decimal)")
    u.add_argument("--dp-accounting", action="store_true", help="also dp_accounting's pessimistic and optimistic "
                   "delta at the same (float) eps, compared exactly (text format; needs pip install "
                   "'exactdp[interop]')")
    u.add_argument("--format", choices=FORMATS, default="text")
    u.set_defaults(fn=_cmd_audit)


# ---- exactdp renyi: the exact RDP curve as a certificate (issue 22) ----
def _register_renyi_command(sub):
    r = sub.add_parser("renyi", help="the exact Renyi-DP curve at integer orders (Mir17), as a certificate")
    r.add_argument("mechanism", help="mechanism file (entries at a fixed level)")
    r.add_argument("--metric", required=True, help="metric file; neighbours are its pairs at distance 1")
    r.add_argument("--neighbours", help="JSON file listing the neighbouring input pairs (instead of the metric's)")
    r.add_argument("--orders", default="2,3,4,8", help="integer orders alpha >= 2, comma-separated (default 2,3,4,8)")
    r.add_argument("--delta", help="also Mironov's (eps, delta) conversion at this delta in (0, 1), next to the exact "
                                   "smallest eps of the privacy profile (text format)")
    r.add_argument("--format", choices=FORMATS, default="text")
    r.set_defaults(fn=_cmd_renyi)


def _cmd_renyi(a):
    """The RDP curve of MECH.json at --orders (kind renyi); with --delta the conversion and the exact eps."""
    from .io import load_mechanism, load_metric
    from .theory.renyi import MAX_ORDER, certify_renyi, rdp_to_dp, renyi_curve

    try:
        orders = [int(x) for x in a.orders.split(",")]
    except ValueError:
        raise _usage(f"--orders: expected integers separated by commas, got {a.orders!r}") from None
    if not orders or any(o < 2 or o > MAX_ORDER for o in orders) or len(set(orders)) != len(orders):
        raise _usage(f"--orders: expected distinct integers in [2, {MAX_ORDER}], got {a.orders!r}")
    mech = load_mechanism(a.mechanism)
    if mech.regime == "symbolic":
        raise _usage("renyi: the entries use alpha; write them at a fixed level (e.g. alpha = 1/2 or exp(-1))")
    nb = _neighbours_arg(a, load_metric(a.metric))
    cert = certify_renyi(mech, nb, orders, delta=a.delta)
    code = _emit(cert, a.format)
    if a.delta is not None and a.format == "text":
        from .exact.decide import arb_of, decimal_enclosure
        from .theory.profile import privacy_profile

        conv = rdp_to_dp(renyi_curve(mech, nb, orders), a.delta)
        pr = privacy_profile(mech, nb)
        t = pr.epsilon_t(conv.delta)
        exact = ("inf", "inf") if t is None else decimal_enclosure(lambda: arb_of(t).log(), 8)
        print(f"Mironov's conversion at delta = {conv.delta} (order {conv.order}): eps = {_short(str(conv.epsilon))}"
              f" (about {conv.epsilon.enclosure(8)[1]})")
        print(f"exact smallest eps at delta = {conv.delta} (the privacy profile): {_short(pr.epsilon(conv.delta))} "
              f"(about {exact[1]})")
    return code


# ---- exactdp opendp: OpenDP's integer mechanisms against the exact finite mechanism they sample (issue 22) ----
def _register_opendp_command(sub):
    o = sub.add_parser("opendp", help="OpenDP's privacy map for its integer Laplace / Gaussian measurements against "
                                      "the exact finite mechanism (needs pip install 'exactdp[interop]')")
    o.add_argument("measurement", choices=("laplace", "gaussian"), help="make_laplace (eps) or make_gaussian (rho)")
    o.add_argument("--scale", required=True, help="OpenDP's scale, exact (its nearest float is what OpenDP runs)")
    o.add_argument("--d-in", type=int, default=1, help="the input distance (default 1)")
    o.add_argument("--lo", type=int, default=0, help="laplace: the clamped input range's lower end (default 0)")
    o.add_argument("--hi", type=int, default=10, help="laplace: the range's upper end (default 10)")
    o.add_argument("--window", type=int, default=8, help="gaussian: outputs within this distance (default 8)")
    o.add_argument("--orders", default="2,3,4", help="gaussian: integer Renyi orders (default 2,3,4)")
    o.add_argument("--format", choices=("text", "json"), default="text")
    o.set_defaults(fn=_cmd_opendp)


def _cmd_opendp(a):
    """OpenDP's reported eps (laplace) or rho (gaussian) next to the exact value; exit 0 consistent, 1 not."""
    from .theory.accountants import check_opendp_gaussian, check_opendp_laplace

    if a.measurement == "laplace":
        r = check_opendp_laplace(a.scale, a.d_in, lo=a.lo, hi=a.hi)
    else:
        try:
            orders = tuple(int(x) for x in a.orders.split(","))
        except ValueError:
            raise _usage(f"--orders: expected integers separated by commas, got {a.orders!r}") from None
        r = check_opendp_gaussian(a.scale, a.d_in, window=a.window, orders=orders)
    out = r.to_json()
    code = 0 if r.holds else 1
    if a.format == "json":
        print(json.dumps(out, indent=2))
        return code
    print(f"OpenDP {out['measurement']}, scale {out['scale']}, d_in = {out['d_in']}: reported {out['reported']} "
          f"(exactly {_short(out['reported_exact'])})")
    exact = out["exact"] if isinstance(out["exact"], str) else "; ".join(f"alpha = {k}: {v}" for k, v in out["exact"])
    print(f"exact: {_short(exact, 400)}")
    print(f"checked: {out['compared']}: {'holds' if r.holds else 'FAILS'}")
    return code


def _usage(msg):
    return _UsageError(msg)


class _Sub:
    """``add_parser`` with the shared ``--debug`` flag and the command's exit codes as epilog."""

    def __init__(self, sub):
        self.sub = sub
        self.common = argparse.ArgumentParser(add_help=False)
        self.common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                                 help="show the traceback of an internal error (exit 4)")

    def add_parser(self, name, **kw):
        return self.sub.add_parser(name, parents=[self.common], epilog=f"exit codes: {_CMD_EXITS[name]}", **kw)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("exactdp")
    except PackageNotFoundError:  # running from a source tree that was not installed
        from . import __version__

        return __version__


def build_parser():
    """The ``exactdp`` argument parser: global options, then one sub-command per group helper below."""
    p = _Parser(prog="exactdp", description="Exact verification of differential privacy over finite metrics.",
                epilog=_EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--debug", action="store_true", help="show the traceback of an internal error (exit 4)")
    p.add_argument("--version", action="version", version=f"exactdp {_version()}")
    sub = _Sub(p.add_subparsers(dest="cmd", required=True, parser_class=_Parser))

    _add_privacy_commands(sub)
    _add_user_commands(sub)
    _add_tool_commands(sub)
    _register_extension_commands(sub)
    _register_mechanism_command(sub)
    _register_batch_command(sub)
    _register_fdp_audit_commands(sub)
    _register_explain_command(sub)
    _register_renyi_command(sub)
    _register_opendp_command(sub)
    return p


def _add_privacy_commands(sub):
    """Register certify, profile, compose and epsilon: the privacy of one given mechanism."""
    c = sub.add_parser("certify", help="certify eps*d-privacy of a mechanism (exactly)")
    c.add_argument("mechanism", nargs="?", help="mechanism file (JSON, or CSV for a bare matrix)")
    c.add_argument("--metric", help="metric file (JSON)")
    g = _level_args(c)
    g.add_argument("--all-eps", action="store_true", help="prove the statement for every eps > 0 (symbolic alpha)")
    c.add_argument("--example", choices=["geometric"], help="embedded default: geometric mechanism, n = 10")
    c.add_argument("--format", choices=FORMATS, default="text")
    c.add_argument("--delta", help="(eps, delta)-DP: exact delta in [0, 1] (HLM15 Def. 1); neighbours are the "
                                  "metric's pairs at distance 1 unless --neighbours lists them")
    c.add_argument("--neighbours", help="JSON file: list of neighbouring input pairs [[\"a\", \"b\"], ...]")
    c.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    c.set_defaults(fn=_cmd_certify)

    pf = sub.add_parser("profile", help="the exact privacy profile delta(eps) over a neighbour relation, as a "
                                        "certificate (with --eps and --delta: the verdict)")
    pf.add_argument("mechanism")
    pf.add_argument("--metric", required=True, help="metric file; neighbours are its pairs at distance 1")
    pf.add_argument("--neighbours", help="JSON file: list of neighbouring input pairs")
    pfg = pf.add_mutually_exclusive_group()
    pfg.add_argument("--eps", help="the smallest delta at this eps (with --delta: is the mechanism (eps, delta)-DP?); "
                                   "eps = 0 is the total-variation distance; a mechanism written in alpha is "
                                   "evaluated at this level")
    pfg.add_argument("--alpha", help="the same level written as alpha = e^(-eps) in (0, 1] (alpha = 1: eps = 0)")
    pf.add_argument("--delta", help="the smallest eps for this delta")
    pf.add_argument("--format", choices=FORMATS, default="text")
    pf.set_defaults(fn=_cmd_profile)

    cp = sub.add_parser("compose", help="exact (eps, delta) of independent runs of one or more mechanisms on the "
                                        "same input (privacy-loss distributions), as a certificate")
    cp.add_argument("mechanism", nargs="+", help="mechanism files (the same inputs; outputs may differ)")
    cp.add_argument("--metric", required=True)
    cp.add_argument("--neighbours", help="JSON file: list of neighbouring input pairs")
    cp.add_argument("--times", default="1", help="runs of each mechanism: K (each K times) or K1,K2,... (one per "
                                                 "mechanism); default 1")
    cpg = cp.add_mutually_exclusive_group()
    cpg.add_argument("--eps", help="the smallest delta at this eps (with --delta: the verdict); eps = 0 is the "
                                   "total-variation distance; mechanisms written in alpha are evaluated at this level")
    cpg.add_argument("--alpha", help="the same level written as alpha = e^(-eps) in (0, 1] (alpha = 1: eps = 0)")
    cp.add_argument("--delta", help="the smallest eps for this delta")
    cp.add_argument("--format", choices=FORMATS, default="text")
    cp.set_defaults(fn=_cmd_compose)

    e = sub.add_parser("epsilon", help="the exact smallest eps for which the mechanism is private")
    e.add_argument("mechanism")
    e.add_argument("--metric", required=True)
    _level_args(e)
    e.add_argument("--format", choices=FORMATS, default="text")
    e.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    e.set_defaults(fn=_cmd_epsilon)


def _add_user_commands(sub):
    """Register optimal, remap, tight, regular and leakage: a mechanism for a user, prior or level."""
    o = sub.add_parser("optimal", help="the exact optimal private mechanism for a user (GRS12 LP) and whether "
                                       "the remapped geometric mechanism attains it")
    o.add_argument("--prior", required=True, help="prior file: {\"probabilities\": [...]}")
    o.add_argument("--loss", required=True, help="absolute, squared, binary, or a file {\"matrix\": [[...]]}")
    o.add_argument("--n", type=int, required=True, help="results 0..n")
    _level_args(o, required=True)
    o.add_argument("--format", choices=FORMATS, default="text")
    o.set_defaults(fn=_cmd_optimal)

    rm = sub.add_parser("remap", help="the Bayes-optimal remap of a mechanism for a user")
    rm.add_argument("mechanism")
    rm.add_argument("--prior", required=True)
    rm.add_argument("--loss", required=True)
    _level_args(rm)
    rm.add_argument("--format", choices=FORMATS, default="text")
    rm.set_defaults(fn=_cmd_remap)

    t = sub.add_parser("tight", help="the tight-constraints mechanism (ECP14 Def. 6) or the threshold eps")
    t.add_argument("metric", help="metric file (JSON)")
    tg = _level_args(t)
    tg.add_argument("--threshold", action="store_true", help="the smallest eps at which one exists (certified)")
    t.add_argument("--quiet", action="store_true", help="no progress on stderr")
    t.add_argument("--format", choices=FORMATS, default="text")
    t.set_defaults(fn=_cmd_tight)

    g = sub.add_parser("regular", help="is a prior d-regular (ECP14 Def. 4)?  mu and gamma")
    g.add_argument("prior", help="prior file: {\"points\": [...], \"probabilities\": [...]}")
    g.add_argument("--metric", required=True)
    _level_args(g, required=True)
    g.add_argument("--quiet", action="store_true", help="no progress on stderr")
    g.add_argument("--format", choices=FORMATS, default="text")
    g.set_defaults(fn=_cmd_regular)

    lk = sub.add_parser("leakage", help="min-entropy leakage of a mechanism for a prior, in bits (exact)")
    lk.add_argument("mechanism")
    lk.add_argument("--prior", required=True)
    _level_args(lk)
    lk.add_argument("--format", choices=FORMATS, default="text")
    lk.set_defaults(fn=_cmd_leakage)


def _add_tool_commands(sub):
    """Register reproduce, plot, recheck and proofs: the papers, figures and certificate files."""
    r = sub.add_parser("reproduce", help="reproduce the papers' claims exactly")
    r.add_argument("ids", nargs="*", help="claim ids or paper names such as GRS12 (default: all)")
    r.add_argument("--list", action="store_true", help="list the claims (ids, papers, statements) without running them")
    r.add_argument("--quiet", action="store_true", help="no progress on stderr")
    r.add_argument("--format", choices=FORMATS, default="text")
    r.add_argument("--recheck", action="store_true",
                   help="re-check every certificate with the independent kernel (exit 4 if one is refuted)")
    _sweep_args(r)
    r.set_defaults(fn=_cmd_reproduce)

    pl = sub.add_parser("plot", help="draw a figure from exact data (needs the plot extra: pip install "
                                     "'exactdp[plot]')")
    pl.add_argument("what", choices=["mechanism", "region", "losses", "profile", "extension", "fdp", "geo-utility"],
                    help="mechanism: a heat map of MECH.json; region: the regular priors of a 3-point METRIC.json "
                         "(ECP14 Fig. 2); losses: geometric against Laplace (GRS12 sec. 6.1); profile: the exact "
                         "delta(eps) of MECH.json (HLM15), with --times K its K-fold composition; extension: the "
                         "BCSZ18 extension of MECH.json (a mechanism on H) to --metric, against eps d and 2 eps d; fdp: the "
                         "exact trade-off function of MECH.json (DRS22), with --times K its K-fold composition; "
                         "geo-utility: ECP14 Fig. 7, utility against eps on the --side x --side Euclidean grid "
                         "(certified, one job per level)")
    pl.add_argument("file", nargs="?", help="MECH.json or METRIC.json")
    _level_args(pl)
    pl.add_argument("--metric", help="profile, extension: the metric file (neighbours: its pairs at distance 1)")
    pl.add_argument("--neighbours", help="profile: JSON file listing the neighbouring input pairs")
    pl.add_argument("--times", type=int, help="profile: also draw the exact K-fold composition")
    pl.add_argument("--bounds", action="store_true", help="profile with --times: draw the basic and advanced "
                                                         "composition bounds")
    pl.add_argument("--logy", action="store_true", help="profile: logarithmic delta axis")
    pl.add_argument("--subset", help="extension: H as a JSON list of point labels (default: the mechanism's inputs)")
    pl.add_argument("--side", type=int, default=100, help="geo-utility: the grid's side (the paper's: 100)")
    pl.add_argument("--levels", help="geo-utility: the eps levels, rationals separated by commas (default: the "
                                     "paper's 19, 0.40, 0.45, ..., 1.30)")
    pl.add_argument("--quiet", action="store_true", help="geo-utility: no progress on stderr")
    _sweep_args(pl)
    pl.add_argument("--output", "-o", required=True, help="image file (.png, .pdf, .svg)")
    pl.add_argument("--dpi", type=int, default=120)
    pl.set_defaults(fn=_cmd_plot)

    rc = sub.add_parser("recheck", help="re-check a certificate JSON file with the independent kernel "
                                        "(exit 0 confirmed, 1 refuted, 3 not checkable)")
    rc.add_argument("certificate", help="certificate file written by --format json")
    rc.add_argument("--format", choices=("text", "json"), default="text")
    rc.set_defaults(fn=_cmd_recheck)

    pr = sub.add_parser("proofs", help="write (or --check) the worked proofs in proofs/")
    pr.add_argument("--check", action="store_true", help="fail if any proof file is stale")
    pr.add_argument("--dir", default="proofs")
    pr.set_defaults(fn=_cmd_proofs)


# ---- explain: a certificate file's worked proof for a reader, after the independent re-check (issue 19) ----
_CMD_EXITS["explain"] = ("0 the re-check confirmed the certificate (its proof is printed), 1 refuted (the refutation "
                         "is printed, never the proof), 2 bad input (not a certificate), 3 not checkable (the proof "
                         "is printed marked unverified), 4 bug")


def _register_explain_command(sub):
    from .certificate.sections import EXPLAIN_FORMATS

    ex = sub.add_parser("explain", help="re-check a certificate file with the independent kernel, then print its "
                                        "worked proof for a reader (text, Markdown, LaTeX or HTML)")
    ex.add_argument("certificate", help="certificate file written by --format json")
    ex.add_argument("--format", choices=EXPLAIN_FORMATS, default="text",
                    help="latex: a standalone document; html: a fragment (MathJax for the $...$ math)")
    ex.set_defaults(fn=_cmd_explain)


def _cmd_explain(a):
    from .certificate.sections import explain
    from .recheck import MAX_BYTES

    try:
        with open(a.certificate, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ValueError(f"larger than {MAX_BYTES} bytes")
        res = explain(raw.decode("utf-8"), a.format)
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as e:
        raise _usage(f"certificate {a.certificate!r}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    sys.stdout.write(res.document)
    return res.exit_code


# ---- batch: many independent jobs, serially or through Dask (issue 20, item 5) ----
_CMD_EXITS["batch"] = ("0 every job ran (each result line carries the job's own exit code), 2 bad input (a bad "
                       "JOBS line, or Dask missing for --workers/--scheduler), 4 bug (also: a job ended in an "
                       "internal error)")


def _sweep_args(p):
    """``--workers N`` / ``--scheduler ADDRESS``: where a sweep's independent jobs run (:mod:`exactdp.sweep`)."""
    w = p.add_mutually_exclusive_group()
    w.add_argument("--workers", type=int, help="run the jobs on a local Dask cluster of N worker processes (needs "
                                               "the dask extra: pip install 'exactdp[dask]')")
    w.add_argument("--scheduler", help="run the jobs on an existing Dask cluster: its scheduler address "
                                       "(tcp://host:port); its workers read the jobs' files, so give paths they "
                                       "can open")


def _register_batch_command(sub):
    b = sub.add_parser("batch", help="run many jobs (one JSON array of a command's arguments per line), serially "
                                     "or on a Dask cluster; one JSON result per line, in input order")
    b.add_argument("jobs", help="JOBS.jsonl: one job per line, e.g. [\"certify\", \"M.json\", \"--metric\", "
                                "\"D.json\", \"--eps\", \"1/2\"]; a job without --format gets --format json")
    _sweep_args(b)
    b.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    b.set_defaults(fn=_cmd_batch)


def _read_jobs(path: str) -> list:
    """The jobs of a JOBS.jsonl file: a list of argument lists (strings), blank lines skipped."""
    from .io import _read

    jobs = []
    for k, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            args = json.loads(line)
        except json.JSONDecodeError as e:
            raise _usage(f"{path}, line {k}: not JSON ({e.msg}); each line is a JSON array of arguments") from None
        if not isinstance(args, list) or not args or not all(isinstance(x, str) for x in args):
            raise _usage(f"{path}, line {k}: expected a non-empty JSON array of strings such as "
                         "[\"certify\", \"M.json\", \"--metric\", \"D.json\", \"--eps\", \"1/2\"]")
        if args[0] == "batch":
            raise _usage(f"{path}, line {k}: a job cannot be a batch")
        jobs.append((k, args))
    return jobs


def _with_json_format(args: list) -> list:
    """``args`` plus ``--format json`` when its command takes ``--format json`` and none was given."""
    if any(x == "--format" or x.startswith("--format=") for x in args):
        return args
    sub = next(x for x in build_parser()._actions if isinstance(x, argparse._SubParsersAction))
    cmd = sub.choices.get(args[0])
    fmt = None if cmd is None else cmd._option_string_actions.get("--format")
    return [*args, "--format", "json"] if fmt is not None and "json" in (fmt.choices or ()) else args


_BATCH_LOCK = threading.Lock()


def _batch_job(job) -> dict:
    """Run one job in this process; its stdout (JSON when it is JSON), stderr and exit code as one record.

    The command line writes to ``sys.stdout``, which is one per process: jobs in one process take turns (a
    lock), so a Dask worker with several threads stays correct; parallelism comes from worker processes.
    """
    import io

    line, args = job
    with _BATCH_LOCK:
        out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            try:
                code = main(_with_json_format(list(args)))
            except SystemExit as e:  # --help, usage errors
                code = e.code if isinstance(e.code, int) else 2
            out.flush()
            text = out.buffer.getvalue().decode("utf-8")  # type: ignore[attr-defined]
        finally:
            sys.stdout, sys.stderr = saved
    try:
        output = json.loads(text) if text.strip() else None
    except json.JSONDecodeError:
        output = text
    return {"line": line, "args": list(args), "exit": code, "output": output, "stderr": err.getvalue()}


def _batch_results(a, jobs):
    """The results of ``jobs`` in input order: serially here, or on Dask (:func:`exactdp.sweep.sweep`)."""
    from .sweep import sweep

    return sweep(_batch_job, jobs, workers=a.workers, scheduler=a.scheduler, what="batch")


def _cmd_batch(a):
    jobs = _read_jobs(a.jobs)
    bug = False
    for done, r in enumerate(_batch_results(a, jobs), 1):
        _progress(a, f"exactdp batch: {done}/{len(jobs)} jobs")
        sys.stdout.write(json.dumps(r) + "\n")
        sys.stdout.flush()
        bug = bug or r["exit"] == EXIT_BUG
    _progress(a, "")
    return EXIT_BUG if bug else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see the module docstring)."""
    parser = build_parser()
    a = parser.parse_args(argv)
    try:
        return _run(a)
    except BrokenPipeError:
        # the reader closed the pipe (``exactdp reproduce --list | head``): stop quietly, as Unix tools do
        # when SIGPIPE ends them (128 + 13); never a verdict, never a bug report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except Exception as e:
        if getattr(a, "debug", False):
            raise
        sys.stderr.write(f"exactdp: internal error: {type(e).__name__}: {_one_line(e)}; this is a bug, please "
                         "report it (rerun with --debug for the traceback)\n")
        return EXIT_BUG


def _one_line(e, limit=300):
    msg = str(e).splitlines()[0] if str(e) else type(e).__name__
    return msg if len(msg) <= limit else msg[:limit] + "..."


def _run(a) -> int:
    try:
        return a.fn(a)
    except _UsageError as e:
        sys.stderr.write(f"exactdp: error: {e}\n")
        return 2
    except Undecided as e:
        sys.stderr.write(f"exactdp: undecided: {e.reason}\n")
        return 3
    except ExactDPError as e:
        sys.stderr.write(f"exactdp: error: {_one_line(e, 2000)}\n")
        return 2
    except RecursionError:
        if getattr(a, "debug", False):
            raise
        sys.stderr.write("exactdp: error: input nested too deeply to process; simplify the expression or file\n")
        return 2
    except MemoryError:
        if getattr(a, "debug", False):
            raise
        sys.stderr.write("exactdp: error: out of memory; the input is too large for exact computation on this "
                         "machine (see the limits in the README)\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
