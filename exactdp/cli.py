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
import time
from typing import Sequence

from .errors import ExactDPError, Undecided

__all__ = ["main"]

FORMATS = ("text", "json", "markdown", "latex")

#: exit code of an internal error (a bug in exactdp, never a verdict)
EXIT_BUG = 4
#: exit code when the output pipe was closed early (128 + SIGPIPE, the shell's convention)
EXIT_PIPE = 141
#: largest n for ``optimal``: the exact LP has (n+1)^2 variables (about 10^6 at the limit)
MAX_OPTIMAL_N = 1_000
#: most points for ``tight`` and ``regular`` at a level: they solve the dense n x n system Phi z = 1 exactly
#: (measured: 800 points of a path at alpha = 1/2 take 36 s and 340 MB; the cost grows like n^3)
MAX_PHI_POINTS = 1_500

_EXIT_CODES = """exit codes:
  0  the property holds (certify, epsilon, optimal, tight, regular, leakage); the
     command did its job (remap, proofs); every claim reproduced (reproduce)
  1  the property does not hold, the witness is printed; reproduce: a claim
     differs from the paper; proofs --check: a proof file is stale
  2  bad input or usage: one line on stderr, no traceback
  3  undecided: no exact regime decides it (the reason is printed); reproduce:
     a claim is undecided and none differs
  4  internal error: a bug in exactdp, please report it (traceback with --debug)
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
    "reproduce": "0 every claim reproduced, 1 some claim differs from the paper, 2 unknown id, "
                 "3 some claim undecided (none differs), 4 bug (also: with --recheck, a refuted certificate)",
    "proofs": "0 written (or up to date with --check), 1 stale proof files with --check, 2 bad input, 4 bug",
    "profile": "0 (eps, delta)-DP with --eps and --delta (otherwise: the profile was certified), 1 not (eps, "
               "delta)-DP, 2 bad input, 3 undecided, 4 bug",
    "compose": "0 the composition is (eps, delta)-DP with --eps and --delta (otherwise: its profile was certified), "
               "1 it is not, 2 bad input, 3 undecided, 4 bug",
    "extend": "0 the extension agrees with the mechanism on H and is 2 eps-private (BCSZ18), 1 not (the failing part "
              "is printed), 2 bad input, 3 undecided, 4 bug",
    "tradeoff": "0 the certified smallest eps (or bracket) was found, 2 bad input, 3 undecided, 4 bug",
    "plot": "0 the figure was written, 2 bad input (or matplotlib missing: pip install 'exactdp[plot]'), 4 bug",
    "recheck": "0 the certificate is confirmed by the independent kernel, 1 refuted (a bug), 2 not a certificate, "
               "3 not checkable (the reason is printed), 4 bug",
    "mechanism": "0 the mechanism was built (or listed), 2 bad input, 3 undecided, 4 bug",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, exit 2
        sys.stderr.write(f"exactdp: error: {message} (see 'exactdp --help')\n")
        raise SystemExit(2)


def _emit(cert, fmt):
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
    """The query of profile / compose: the level (eps) and delta, each optional."""
    return {"eps": a.eps, "delta": a.delta}


def _cmd_profile(a):
    from .io import load_mechanism, load_metric
    from .theory.profile_cert import certify_profile

    mech = load_mechanism(a.mechanism)
    if mech.regime == "symbolic":
        raise _usage("profile: the entries use alpha; write them at a fixed level (e.g. alpha = 1/2)")
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
    mechs = [load_mechanism(m) for m in a.mechanism]
    for path, mech in zip(a.mechanism, mechs):
        if mech.regime == "symbolic":
            raise _usage(f"compose: the entries of {path} use alpha; write them at a fixed level (e.g. alpha = 1/2 "
                         "or exp(-1))")
    cert = certify_composition(list(zip(mechs, ks)), _neighbours_arg(a, load_metric(a.metric)),
                               **_profile_level(a))
    return _emit(cert, a.format)


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
    from .theory.optimality import certify_universal_optimality

    if a.n < 1:
        raise _usage(f"--n: expected n >= 1, got {a.n}")
    if a.n > MAX_OPTIMAL_N:
        raise _usage(f"--n {a.n}: the exact LP would have (n+1)^2 = {(a.n + 1) ** 2:,} variables; the limit is "
                     f"n <= {MAX_OPTIMAL_N} (about {(MAX_OPTIMAL_N + 1) ** 2:,} variables)")
    user = load_user(a.prior, a.loss, a.n)
    return _emit(certify_universal_optimality(a.n, user, alpha=a.alpha, eps=a.eps), a.format)


def _cmd_remap(a):
    from .exact.decide import exact_latex
    from .io import load_mechanism, load_user
    from .theory.remaps import bayes_remap
    from .theory.users import expected_loss

    mech = _fix_level(load_mechanism(a.mechanism), a)
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
        c = threshold(metric, progress=say)
    else:
        _check_phi_size(metric, "tight")
        c = tight_constraints(metric, resolve_level(a.eps, a.alpha), progress=say)
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


def _check_phi_size(metric, cmd):
    n = len(metric)
    if n > MAX_PHI_POINTS:
        raise _usage(f"{cmd}: the metric has {n:,} points; the exact dense solve of Phi z = 1 would hold "
                     f"{n * n:,} exact entries and cost about n^3 operations; the limit is {MAX_PHI_POINTS:,} points")


def _cmd_regular(a):
    from .exact.level import level_of as resolve_level
    from .io import load_metric, load_prior_for
    from .theory.regular import regular_prior

    metric = load_metric(a.metric)
    _check_phi_size(metric, "regular")
    prior = load_prior_for(a.prior, list(metric.points))
    say = _step_progress(a, "regular", metric)
    c = regular_prior(prior, metric, resolve_level(a.eps, a.alpha), progress=say)
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
    from .papers import run_claim

    r = run_claim(c.id)
    row = {"id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement,
           "paper_says": c.paper_says, "exact": r.exact, "status": r.status, "certificates": len(r.certificates)}
    if a.recheck:
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
        print(f"{'':<28} re-check of {r['certificates']} certificate(s): {k['confirmed']} confirmed, "
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
    if a.format in ("markdown", "latex"):
        print("| claim | paper says | exact result | status |\n|---|---|---|---|")
    rows = []
    for k, c in enumerate(chosen, 1):
        _progress(a, f"exactdp reproduce: [{k}/{len(chosen)}] {c.id} ...")
        rows.append(_reproduce_row(a, c))
        _progress(a, "")
        if a.format != "json":  # results stream claim by claim
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
    else:
        ax, _ = plot.plot_geometric_vs_laplace()
    ax.figure.savefig(a.output, dpi=a.dpi, bbox_inches="tight")
    print(f"wrote {a.output}")
    return 0


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
    stale = write_proofs(a.dir, check=a.check)
    if a.check:
        if stale:
            sys.stderr.write("exactdp: stale proofs: " + ", ".join(stale) + " (run 'exactdp proofs')\n")
            return 1
        print("proofs are up to date")
        return 0
    print(f"wrote {len(stale)} proof file(s) to {a.dir}")
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
    return _emit(certify_tradeoff(metric, gamma=a.gamma, delta=a.delta, ball=a.ball), a.format)


def _register_extension_commands(sub):
    x = sub.add_parser("extend", help="extend a mechanism from a subset H to the whole metric (BCSZ18) and certify "
                                      "agreement on H and 2 eps-privacy")
    x.add_argument("mechanism", help="mechanism on H (JSON; its inputs are the points of H)")
    x.add_argument("--metric", required=True, help="metric file (JSON)")
    x.add_argument("--subset", required=True, help="H: JSON list of point labels")
    _level_args(x)
    x.add_argument("--format", choices=FORMATS, default="text")
    x.set_defaults(fn=_cmd_extend)

    t = sub.add_parser("tradeoff", help="KL10's eps*(gamma, delta), bracketed by exact LPs")
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


class _UsageError(Exception):
    pass


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
    pf.add_argument("--eps", help="the smallest delta at this eps (with --delta: is the mechanism (eps, delta)-DP?)")
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
    cp.add_argument("--eps", help="the smallest delta at this eps (with --delta: the verdict)")
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
    r.set_defaults(fn=_cmd_reproduce)

    pl = sub.add_parser("plot", help="draw a figure from exact data (needs the plot extra: pip install "
                                     "'exactdp[plot]')")
    pl.add_argument("what", choices=["mechanism", "region", "losses", "profile", "extension"],
                    help="mechanism: a heat map of MECH.json; region: the regular priors of a 3-point METRIC.json "
                         "(ECP14 Fig. 2); losses: geometric against Laplace (GRS12 sec. 6.1); profile: the exact "
                         "delta(eps) of MECH.json (HLM15), with --times K its K-fold composition; extension: the "
                         "BCSZ18 extension of MECH.json (a mechanism on H) to --metric, against eps d and 2 eps d")
    pl.add_argument("file", nargs="?", help="MECH.json or METRIC.json")
    _level_args(pl)
    pl.add_argument("--metric", help="profile, extension: the metric file (neighbours: its pairs at distance 1)")
    pl.add_argument("--neighbours", help="profile: JSON file listing the neighbouring input pairs")
    pl.add_argument("--times", type=int, help="profile: also draw the exact K-fold composition")
    pl.add_argument("--bounds", action="store_true", help="profile with --times: draw the basic and advanced "
                                                         "composition bounds")
    pl.add_argument("--logy", action="store_true", help="profile: logarithmic delta axis")
    pl.add_argument("--subset", help="extension: H as a JSON list of point labels (default: the mechanism's inputs)")
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
    except Exception as e:  # noqa: BLE001 -- the one place that turns a bug into exit 4
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
