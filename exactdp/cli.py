"""The ``exactdp`` command line.

Exit codes: 0 the property holds, 1 it does not (witness printed), 2 bad input
(one line on stderr, no traceback), 3 undecided.
"""

from __future__ import annotations

import argparse
import json
import sys

from .certificate import UNDECIDED
from .errors import ExactDPError, Undecided

__all__ = ["main"]

FORMATS = ("text", "json", "markdown", "latex")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one clear line, exit 2
        sys.stderr.write(f"exactdp: error: {message} (see 'exactdp --help')\n")
        raise SystemExit(2)


def _emit(cert, fmt):
    if fmt == "json":
        print(json.dumps(cert.to_json(), indent=2))
    elif fmt == "markdown":
        print(cert.to_markdown())
    elif fmt == "latex":
        print(cert.to_latex())
    else:
        print(cert.to_text(), end="")
    if cert.holds is UNDECIDED:
        return 3
    return 0 if cert.holds else 1


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
        cert = certify_privacy(mech, metric, eps=a.eps, alpha=a.alpha)
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


def _concrete_mech(mech, a):
    if mech.regime != "symbolic":
        return mech.validate()
    if not (a.eps or getattr(a, "alpha", None)):
        raise _usage("the entries use alpha: give --alpha or --eps to fix their value")
    from .certify.approximate import approx_level

    return mech.at(approx_level(a.eps, getattr(a, "alpha", None)))


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


def _print_profile(pr, extra, fmt):
    out = {**pr.to_json(), **extra}
    if fmt == "json":
        print(json.dumps(out, indent=2))
        return 0
    print(f"relation: {out['relation']} ({out['ordered_pairs']} ordered pairs)")
    for p in out["pieces"]:
        print(f"eps in [{p['eps_from']}, {p['eps_to']}): delta = {p['delta']}   (pair {p['pair']})")
    for k, v in extra.items():
        print(f"{k}: {v}")
    return 0


def _profile_queries(pr, a):
    from .exact.decide import exact_str

    extra = {}
    if a.eps is not None:
        extra["delta_at_eps"] = exact_str(pr.delta(eps=a.eps))
        extra["eps"] = a.eps
    if a.delta is not None:
        extra["epsilon_for_delta"] = pr.epsilon(a.delta)
        extra["delta"] = a.delta
    return extra


def _cmd_profile(a):
    from .io import load_mechanism, load_metric
    from .theory.profile import privacy_profile

    mech = load_mechanism(a.mechanism)
    if mech.regime == "symbolic":
        raise _usage("profile: the entries use alpha; write them at a fixed level (e.g. alpha = 1/2)")
    pr = privacy_profile(mech, _neighbours_arg(a, load_metric(a.metric)))
    return _print_profile(pr, _profile_queries(pr, a), a.format)


def _cmd_compose(a):
    from .io import load_mechanism, load_metric
    from .theory.composition import MAX_K, composed_profile

    if a.times < 1 or a.times > MAX_K:
        raise _usage(f"--times: expected 1 <= K <= {MAX_K}, got {a.times}")
    mech = load_mechanism(a.mechanism)
    if mech.regime == "symbolic":
        raise _usage("compose: the entries use alpha; write them at a fixed rational level (e.g. alpha = 1/2)")
    pr = composed_profile(mech, _neighbours_arg(a, load_metric(a.metric)), a.times)
    extra = {"times": a.times, **_profile_queries(pr, a)}
    if a.format == "json":
        return _print_profile(pr, extra, "json")
    for k, v in extra.items():
        print(f"{k}: {v}")
    print(f"profile: {len(pr.pieces)} pieces (--format json prints them)")
    return 0


def _fix_level(mech, a):
    """Evaluate a mechanism written in alpha at the level given by --alpha/--eps (required then)."""
    if mech.regime != "symbolic":
        return mech.validate()
    from .certify.privacy import resolve_level

    if not (a.eps or a.alpha):
        raise _usage("the entries use alpha: give --alpha or --eps to fix their value")
    return mech.at(resolve_level(a.eps, a.alpha))


def _cmd_epsilon(a):
    from .certify import smallest_epsilon
    from .io import load_mechanism, load_metric

    mech, metric = load_mechanism(a.mechanism), load_metric(a.metric)
    return _emit(smallest_epsilon(_fix_level(mech, a), metric), a.format)


def _cmd_optimal(a):
    from .io import load_user
    from .theory.optimality import certify_universal_optimality

    if a.n < 1:
        raise _usage(f"--n: expected n >= 1, got {a.n}")
    user = load_user(a.prior, a.loss, a.n)
    return _emit(certify_universal_optimality(a.n, user, alpha=a.alpha, eps=a.eps), a.format)


def _cmd_remap(a):
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
    if a.format == "json":
        print(json.dumps(out, indent=2))
    else:
        print(f"optimal remap: {mapping}\nexpected loss: {after}"
              + (f" (without remapping: {before})" if before is not None else ""))
    return 0


def _cmd_tight(a):
    from .certify.privacy import resolve_level
    from .io import load_metric
    from .theory.regular import tight_constraints
    from .theory.threshold import threshold

    metric = load_metric(a.metric)
    if a.threshold:
        return _emit(threshold(metric), a.format)
    return _emit(tight_constraints(metric, resolve_level(a.eps, a.alpha)), a.format)


def _cmd_regular(a):
    from .certify.privacy import resolve_level
    from .io import load_metric, load_prior_for
    from .theory.regular import regular_prior

    metric = load_metric(a.metric)
    prior = load_prior_for(a.prior, list(metric.points))
    return _emit(regular_prior(prior, metric, resolve_level(a.eps, a.alpha)), a.format)


def _cmd_leakage(a):
    from .io import load_mechanism, load_prior_for
    from .theory.leakage import leakage

    mech = _fix_level(load_mechanism(a.mechanism), a)
    prior = load_prior_for(a.prior, list(mech.inputs))
    return _emit(leakage(mech, prior), a.format)


def _cmd_reproduce(a):
    from .papers import claims, get_claim, run_claim

    chosen = [get_claim(i) for i in a.ids] if a.ids else claims()
    rows = []
    for c in chosen:
        r = run_claim(c.id)
        rows.append({"id": c.id, "paper": c.paper, "where": c.where, "statement": c.statement,
                     "paper_says": c.paper_says, "exact": r.exact, "status": r.status})
    if a.format == "json":
        print(json.dumps(rows, indent=2))
    elif a.format in ("markdown", "latex"):
        print("| claim | paper says | exact result | status |\n|---|---|---|---|")
        for r in rows:
            print(f"| {r['id']} | {r['paper_says']} | {r['exact']} | {r['status']} |")
    else:
        for r in rows:
            print(f"{r['id']:<14} {r['status']:<13} paper: {r['paper_says']}\n{'':<28} exact: {r['exact']}")
    statuses = {r["status"] for r in rows}
    if "differs" in statuses:
        return 1
    if "undecided" in statuses:
        return 3
    return 0


def _cmd_proofs(a):
    from .papers import write_proofs

    stale = write_proofs(a.dir, check=a.check)
    if a.check:
        if stale:
            sys.stderr.write("exactdp: stale proofs: " + ", ".join(stale) + " (run 'exactdp proofs')\n")
            return 1
        print("proofs are up to date")
        return 0
    print(f"wrote {len(stale)} proof file(s) to {a.dir}")
    return 0


class _UsageError(Exception):
    pass


def _usage(msg):
    return _UsageError(msg)


def build_parser():
    p = _Parser(prog="exactdp", description="Exact verification of differential privacy over finite metrics.")
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

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
    c.set_defaults(fn=_cmd_certify)

    pf = sub.add_parser("profile", help="the exact privacy profile delta(eps) over a neighbour relation")
    pf.add_argument("mechanism")
    pf.add_argument("--metric", required=True, help="metric file; neighbours are its pairs at distance 1")
    pf.add_argument("--neighbours", help="JSON file: list of neighbouring input pairs")
    pf.add_argument("--eps", help="also print the smallest delta at this eps")
    pf.add_argument("--delta", help="also print the smallest eps for this delta")
    pf.add_argument("--format", choices=("text", "json"), default="text")
    pf.set_defaults(fn=_cmd_profile)

    cp = sub.add_parser("compose", help="exact (eps, delta) of K independent repetitions (privacy-loss distribution)")
    cp.add_argument("mechanism")
    cp.add_argument("--metric", required=True)
    cp.add_argument("--neighbours", help="JSON file: list of neighbouring input pairs")
    cp.add_argument("--times", type=int, required=True, help="number of repetitions K >= 1")
    cpg = cp.add_mutually_exclusive_group(required=True)
    cpg.add_argument("--eps", help="print the smallest delta at this eps")
    cpg.add_argument("--delta", help="print the smallest eps for this delta")
    cp.add_argument("--format", choices=("text", "json"), default="text")
    cp.set_defaults(fn=_cmd_compose)

    e = sub.add_parser("epsilon", help="the exact smallest eps for which the mechanism is private")
    e.add_argument("mechanism")
    e.add_argument("--metric", required=True)
    _level_args(e)
    e.add_argument("--format", choices=FORMATS, default="text")
    e.set_defaults(fn=_cmd_epsilon)

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
    t.add_argument("--format", choices=FORMATS, default="text")
    t.set_defaults(fn=_cmd_tight)

    g = sub.add_parser("regular", help="is a prior d-regular (ECP14 Def. 4)?  mu and gamma")
    g.add_argument("prior", help="prior file: {\"points\": [...], \"probabilities\": [...]}")
    g.add_argument("--metric", required=True)
    _level_args(g, required=True)
    g.add_argument("--format", choices=FORMATS, default="text")
    g.set_defaults(fn=_cmd_regular)

    lk = sub.add_parser("leakage", help="min-entropy leakage of a mechanism for a prior, in bits (exact)")
    lk.add_argument("mechanism")
    lk.add_argument("--prior", required=True)
    _level_args(lk)
    lk.add_argument("--format", choices=FORMATS, default="text")
    lk.set_defaults(fn=_cmd_leakage)

    r = sub.add_parser("reproduce", help="reproduce the papers' claims exactly")
    r.add_argument("ids", nargs="*", help="claim ids (default: all)")
    r.add_argument("--format", choices=FORMATS, default="text")
    r.set_defaults(fn=_cmd_reproduce)

    pr = sub.add_parser("proofs", help="write (or --check) the worked proofs in proofs/")
    pr.add_argument("--check", action="store_true", help="fail if any proof file is stale")
    pr.add_argument("--dir", default="proofs")
    pr.set_defaults(fn=_cmd_proofs)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    a = parser.parse_args(argv)
    try:
        return a.fn(a)
    except _UsageError as e:
        sys.stderr.write(f"exactdp: error: {e}\n")
        return 2
    except Undecided as e:
        sys.stderr.write(f"exactdp: undecided: {e.reason}\n")
        return 3
    except (ExactDPError, ValueError, TypeError) as e:
        # exactdp errors are ValueError/TypeError subclasses; anything else is a bug and keeps its traceback
        if not isinstance(e, ExactDPError):
            raise
        msg = str(e).splitlines()[0] if str(e) else type(e).__name__
        sys.stderr.write(f"exactdp: error: {msg}\n")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
