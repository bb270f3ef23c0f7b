"""The papers, figures and certificate files: ``reproduce``, ``plot``, ``recheck``, ``proofs``, ``explain``."""

from __future__ import annotations

import json
import os
import sys

from ._common import (FORMATS, fix_level, level_args, load_at_level, load_subset, neighbours_arg, progress_line,
                      sweep_args, usage)
from .checks import check_plot_output, check_writable_dir

__all__ = ["COMMANDS"]


def _chosen_claims(ids):
    """Claims by id, or every claim of a paper (``GRS12``), or all of them."""
    from ..papers import claims, get_claim

    if not ids:
        return claims()
    papers = {c.paper for c in claims()}
    out = []
    for i in ids:
        out += [c for c in claims() if c.paper == i] if i in papers else [get_claim(i)]
    return out


def _reproduce_job(job) -> dict:
    """One claim's row of ``exactdp reproduce``: ``job = (claim id, recheck)``; plain data in and out, so that
    it runs on a Dask worker as well as here."""
    from ..papers import get_claim, run_claim

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


def _table_start(fmt: str, header: list, spec: str) -> None:
    """The head of a table in Markdown or LaTeX (``spec``: the LaTeX column specification)."""
    if fmt == "markdown":
        print("| " + " | ".join(header) + " |\n" + "|---" * len(header) + "|", flush=True)
    elif fmt == "latex":
        print("\\begin{tabular}{" + spec + "}\n" + " & ".join(header) + r" \\ \hline", flush=True)


def _table_row(fmt: str, cells: list) -> None:
    """One row of a table in Markdown (``|`` escaped) or LaTeX (every special character escaped)."""
    from ..certificate.sections import tex_escape

    if fmt == "markdown":
        print("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |", flush=True)
    else:
        print(" & ".join(tex_escape(str(c)) for c in cells) + r" \\", flush=True)


def _table_end(fmt: str) -> None:
    if fmt == "latex":
        print("\\end{tabular}", flush=True)


def _recheck_counts(r) -> str:
    k, n = r["recheck"], r["certificates"]
    return (f"re-check of {n} certificate{'' if n == 1 else 's'}: {k['confirmed']} confirmed, "
            f"{k['refuted']} refuted, {k['not checkable']} not checkable")


def _print_row(a, r):
    if a.format in ("markdown", "latex"):
        _table_row(a.format, [r["id"], r["paper_says"], r["exact"], r["status"]]
                   + ([_recheck_counts(r)] if a.recheck else []))
        return
    print(f"{r['id']:<14} {r['status']:<13} paper: {r['paper_says']}\n{'':<28} exact: {r['exact']}", flush=True)
    if a.recheck:
        print(f"{'':<28} {_recheck_counts(r)}" + "".join(f"\n{'':<30}- {n}" for n in r["recheck_notes"]),
              flush=True)


def _print_list(fmt: str, chosen) -> None:
    """``reproduce --list`` in each format."""
    listed = [{"id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement} for c in chosen]
    if fmt == "json":
        print(json.dumps(listed, indent=2))
    elif fmt == "text":
        for r in listed:
            print(f"{r['id']:<22} {r['paper']} {r['where']}: {r['statement']}")
    else:
        _table_start(fmt, ["claim", "paper", "where", "statement"], "lllp{9cm}")
        for r in listed:
            _table_row(fmt, [r["id"], r["paper"], r["where"], r["statement"]])
        _table_end(fmt)


def _cmd_reproduce(a):
    chosen = _chosen_claims(a.ids)
    if a.list:
        _print_list(a.format, chosen)
        return 0
    from ..sweep import sweep

    results = sweep(_reproduce_job, [(c.id, bool(a.recheck)) for c in chosen], workers=a.workers,
                    scheduler=a.scheduler, what="reproduce")   # refuses a bad --workers before any output
    _table_start(a.format, ["claim", "paper says", "exact result", "status"] + (["re-check"] if a.recheck else []),
                 "lp{5cm}p{5cm}l" + ("p{4cm}" if a.recheck else ""))
    rows: list = []
    for k, c in enumerate(chosen, 1):
        # serially the claim runs now; on Dask every claim was submitted and this waits for its result
        progress_line(a, f"exactdp reproduce: [{k}/{len(chosen)}] {c.id} ...")
        rows.append(next(results))
        progress_line(a, "")
        if a.format != "json":  # results stream claim by claim, in input order
            _print_row(a, rows[-1])
    _table_end(a.format)
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


def _register_reproduce(sub):
    r = sub.add_parser("reproduce", help="reproduce the papers' claims exactly")
    r.add_argument("ids", nargs="*", help="claim ids or paper names such as GRS12 (default: all)")
    r.add_argument("--list", action="store_true", help="list the claims (ids, papers, statements) without running them")
    r.add_argument("--quiet", action="store_true", help="no progress on stderr")
    r.add_argument("--format", choices=FORMATS, default="text")
    r.add_argument("--recheck", action="store_true",
                   help="re-check every certificate with the independent kernel (exit 4 if one is refuted)")
    sweep_args(r)
    r.set_defaults(fn=_cmd_reproduce)


def _cmd_plot(a):
    fmt = check_plot_output(a)
    from exactdp import plot
    from ..exact.level import level_of
    from ..io import load_metric

    if a.what == "mechanism":
        if not a.file:
            raise usage("plot mechanism needs MECH.json")
        ax = plot.plot_mechanism(fix_level(load_at_level(a.file, a), a))
    elif a.what == "region":
        if not a.file:
            raise usage("plot region needs METRIC.json (a metric on three points)")
        if not (a.eps or a.alpha):
            raise usage("plot region needs a level: --alpha A or --eps E")
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
        # the figures of exactdp.plot are top-level figures (matplotlib types ax.figure as Figure | SubFigure)
        ax.figure.savefig(a.output, format=fmt, dpi=a.dpi, bbox_inches="tight")  # type: ignore[union-attr]
    except OSError as e:
        raise usage(f"-o {a.output!r}: cannot write the figure: {e.strerror or e}") from None
    print(f"wrote {a.output}")
    return 0


#: largest --side of ``plot geo-utility`` (the 200 x 200 grid is the largest measured for its verified solves)
MAX_GEO_SIDE = 200


def _plot_geo_utility(plot, a):
    """plot geo-utility [--side N] [--levels ...] [--workers N | --scheduler ADDRESS]: ECP14 Fig. 7, one job per
    level through :func:`exactdp.sweep.sweep` (in this process by default, or on Dask), then the threshold."""
    from ..sweep import sweep

    if not 2 <= a.side <= MAX_GEO_SIDE:
        raise usage(f"--side: expected 2 <= N <= {MAX_GEO_SIDE}, got {a.side}")
    levels = ([x.strip() for x in a.levels.split(",")] if a.levels else [f"{k}/100" for k in range(40, 131, 5)])
    if not levels or len(levels) > 1000 or any(not x for x in levels):
        raise usage("--levels: expected 1 to 1000 rationals separated by commas, e.g. 1/2,3/4,1")

    def mapper(fn, jobs):
        jobs = list(jobs)
        for k, r in enumerate(sweep(fn, jobs, workers=a.workers, scheduler=a.scheduler, what="plot"), 1):
            progress_line(a, f"exactdp plot: {k}/{len(jobs)} levels")
            yield r
        progress_line(a, "exactdp plot: the certified threshold ...")

    ax, _, _ = plot.plot_geo_utility(a.side, levels, mapper=mapper)
    progress_line(a, "")
    return ax


def _plot_approx(plot, a):
    """plot profile MECH.json --metric M [--times K --bounds] / plot extension MECH_H.json --metric M --subset H."""
    from ..io import load_mechanism, load_metric

    if not a.file or not a.metric:
        raise usage(f"plot {a.what} needs MECH.json and --metric METRIC.json")
    mech, metric = load_mechanism(a.file), load_metric(a.metric)
    if a.what == "profile":
        if a.times is not None and not 1 <= a.times <= 10_000:
            raise usage(f"--times: expected 1 <= K <= 10000 for a plot, got {a.times}")
        if a.bounds and a.times is None:
            raise usage("--bounds needs --times K (the bounds are for the K-fold composition)")
        if mech.regime == "symbolic":
            mech = fix_level(mech, a)
        ax, _ = plot.plot_profile(mech, neighbours_arg(a, metric), times=a.times, bounds=a.bounds, logy=a.logy)
        return ax
    if not (a.eps or a.alpha):
        raise usage("plot extension needs --eps or --alpha (the level at which the mechanism on H is private)")
    H = load_subset(a.subset) if a.subset else None
    ax, _ = plot.plot_extension(mech, metric, H, eps=a.eps, alpha=a.alpha)
    return ax


def _plot_fdp(plot, a):
    """plot fdp MECH.json --metric M [--times K]: the exact trade-off function and G_mu (issue 22)."""
    from ..io import load_mechanism, load_metric

    if not a.file or not a.metric:
        raise usage("plot fdp needs MECH.json and --metric METRIC.json")
    if a.times is not None and not 1 <= a.times <= 10_000:
        raise usage(f"--times: expected 1 <= K <= 10000 for a plot, got {a.times}")
    mech = load_mechanism(a.file)
    if mech.regime == "symbolic":
        mech = fix_level(mech, a)
    ax, _ = plot.plot_fdp(mech, neighbours_arg(a, load_metric(a.metric)), times=a.times)
    return ax


def _register_plot(sub):
    pl = sub.add_parser("plot", help="draw a figure from exact data (needs the plot extra: pip install "
                                     "'exactdp[plot]')")
    pl.add_argument("what", choices=["mechanism", "region", "losses", "profile", "extension", "fdp", "geo-utility"],
                    help="mechanism: a heat map of MECH.json; region: the regular priors of a 3-point METRIC.json "
                         "(ECP14 Fig. 2); losses: geometric against Laplace (GRS12 sec. 6.1); profile: the exact "
                         "delta(eps) of MECH.json (HLM15), with --times K its K-fold composition; extension: the "
                         "BCSZ18 extension of MECH.json (a mechanism on H) to --metric, against eps d and 2 eps d; "
                         "fdp: the exact trade-off function of MECH.json (DRS22), with --times K its K-fold "
                         "composition; geo-utility: ECP14 Fig. 7, utility against eps on the --side x --side "
                         "Euclidean grid (certified, one job per level)")
    pl.add_argument("file", nargs="?", help="MECH.json or METRIC.json")
    level_args(pl)
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
    sweep_args(pl)
    pl.add_argument("--output", "-o", required=True, help="image file (.png, .pdf, .svg)")
    pl.add_argument("--dpi", type=int, default=120)
    pl.set_defaults(fn=_cmd_plot)


def _certificate_text(path: str) -> str:
    """A certificate file's text, or a one-line usage error that says what is wrong with the file (never a Python
    exception's name)."""
    from ..recheck import MAX_BYTES

    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except IsADirectoryError:
        raise usage(f"certificate {path!r}: is a directory; give a certificate file (--format json)") from None
    except OSError as e:
        raise usage(f"certificate {path!r}: {e.strerror or 'cannot be read'}") from None
    if len(raw) > MAX_BYTES:
        raise usage(f"certificate {path!r}: larger than {MAX_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise usage(f"certificate {path!r}: not UTF-8 text (byte {raw[e.start]:#04x} at offset {e.start}); a "
                    "certificate is UTF-8 JSON") from None
    if not text.lstrip().startswith("{"):              # never read as the name of another file
        raise usage(f"certificate {path!r}: not a certificate: expected a JSON object")
    return text


def _refuse_unknown_kind(path: str, text: str) -> None:
    """A certificate whose ``kind`` no exactdp knows is not a certificate (exit 2, docs/explain.md), not a
    certificate the kernel cannot check (exit 3): said here, before the re-check, in one line."""
    from ..certificate.kinds import KINDS

    try:
        kind = json.loads(text).get("kind")
    except (ValueError, RecursionError, AttributeError):
        return                                  # the re-check's reader says what is wrong with the file
    if isinstance(kind, str) and kind not in KINDS:
        shown = kind if len(kind) <= 40 and kind.isprintable() else kind[:40].encode("unicode_escape").decode() + "..."
        raise usage(f"certificate {path!r}: not a certificate: unknown kind {shown!r}; known: "
                    f"{', '.join(sorted(KINDS))}")


def _not_a_certificate(path: str, e: Exception):
    """The usage error for a file the re-check refused to read as a certificate."""
    if isinstance(e, json.JSONDecodeError):
        why = f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}"
    elif isinstance(e, RecursionError):
        why = "not a certificate: nested too deeply to read"
    else:
        why = str(e).splitlines()[0] if str(e) else "not a certificate"
    return usage(f"certificate {path!r}: {why}")


def _cmd_recheck(a):
    from ..recheck import recheck

    text = _certificate_text(a.certificate)
    _refuse_unknown_kind(a.certificate, text)
    try:
        res = recheck(text)
    except (ValueError, RecursionError) as e:
        raise _not_a_certificate(a.certificate, e) from None
    if a.format == "json":
        print(json.dumps({"status": res.status, "checked": res.checked, "detail": res.detail}, indent=2))
    else:
        from ..certificate.display import terminal_safe

        # the detail quotes the file (labels of a certificate anyone could have written): escaped for a terminal
        print(terminal_safe(f"re-check: {res.status}\nchecked: {res.checked}\ndetail:  {res.detail}"))
    return res.exit_code


def _register_recheck(sub):
    rc = sub.add_parser("recheck", help="re-check a certificate JSON file with the independent kernel "
                                        "(exit 0 confirmed, 1 refuted, 3 not checkable)")
    rc.add_argument("certificate", help="certificate file written by --format json")
    rc.add_argument("--format", choices=("text", "json"), default="text")
    rc.set_defaults(fn=_cmd_recheck)


def _cmd_proofs(a):
    from ..papers import write_proofs

    if a.check and not os.path.isdir(a.dir):
        raise usage(f"proofs --check: there is no directory {a.dir!r} (run from the repository, or give --dir)")
    if not a.check:
        check_writable_dir(a.dir, "proofs --dir")
    # every claim is run (minutes in all): one progress line on a terminal, never with --quiet (issue 32 item 13)
    try:
        stale = write_proofs(a.dir, check=a.check,
                             progress=lambda cid, k, n: progress_line(a, f"exactdp proofs: claim {k + 1}/{n} ({cid})"))
    finally:
        progress_line(a, "")
    if a.check:
        if stale:
            sys.stderr.write("exactdp: stale proofs: " + ", ".join(stale) + " (run 'exactdp proofs')\n")
            return 1
        print("proofs are up to date")
        return 0
    print(f"wrote {len(stale)} proof file{'' if len(stale) == 1 else 's'} to {a.dir}")
    return 0


def _register_proofs(sub):
    pr = sub.add_parser("proofs", help="write (or --check) the worked proofs in proofs/")
    pr.add_argument("--check", action="store_true", help="fail if any proof file is stale")
    pr.add_argument("--dir", default="proofs")
    pr.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    pr.set_defaults(fn=_cmd_proofs)


def _register_explain(sub):
    from ..certificate.explain import EXPLAIN_FORMATS

    ex = sub.add_parser("explain", help="re-check a certificate file with the independent kernel, then print its "
                                        "worked proof for a reader (text, Markdown, LaTeX or HTML)")
    ex.add_argument("certificate", help="certificate file written by --format json")
    ex.add_argument("--format", choices=EXPLAIN_FORMATS, default="text",
                    help="latex: a standalone document; html: a fragment (MathJax for the $...$ math)")
    ex.set_defaults(fn=_cmd_explain)


def _cmd_explain(a):
    from ..certificate.explain import explain

    text = _certificate_text(a.certificate)
    _refuse_unknown_kind(a.certificate, text)
    try:
        res = explain(text, a.format)
    except (ValueError, RecursionError) as e:
        raise _not_a_certificate(a.certificate, e) from None
    from ..certificate.display import terminal_safe

    sys.stdout.write(terminal_safe(res.document))
    return res.exit_code


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {
    "reproduce": _register_reproduce,
    "plot": _register_plot,
    "recheck": _register_recheck,
    "proofs": _register_proofs,
    "explain": _register_explain,
}
