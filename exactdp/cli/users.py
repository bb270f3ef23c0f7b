"""A mechanism for a user, a prior or a level: ``optimal``, ``remap``, ``tight``, ``regular``, ``leakage``."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from ._common import FORMATS, emit, fix_level, level_args, load_at_level, progress_line, usage
from .checks import check_phi_route

__all__ = ["COMMANDS"]

if TYPE_CHECKING:
    from ..certificate import Certificate


def _cmd_optimal(a):
    from ..io import load_user
    from ..optimality.universal import certify_universal_optimality, check_lp_size

    if a.n < 1:
        raise usage(f"--n: expected n >= 1, got {a.n}")
    check_lp_size(a.n)  # up front: reading an (n+1) x (n+1) loss is itself the slow part of a too large n
    user = load_user(a.prior, a.loss, a.n)
    # the exact LP has no step counter: one line says what runs (terminal only), cleared before the result
    progress_line(a, f"exactdp optimal: exact LP with (n+1)^2 = {(a.n + 1) ** 2:,} variables (HiGHS basis, then exact "
                 "pivots) ...")
    try:
        cert = certify_universal_optimality(a.n, user, alpha=a.alpha, eps=a.eps)
    finally:
        progress_line(a, "")
    return emit(cert, a.format)


def _cmd_remap(a):
    from ..exact.decide import exact_latex
    from ..io import load_user
    from ..optimality.remaps import bayes_remap
    from ..optimality.users import expected_loss

    mech = fix_level(load_at_level(a.mechanism, a), a)
    results = [str(i) for i in range(len(mech.inputs))]
    if set(mech.inputs) != set(results):
        odd = [x for x in mech.inputs if x not in set(results)][:3]
        raise usage(f"remap: the mechanism's inputs must be the user's results 0..{len(results) - 1} (the prior and "
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
    from ..exact.level import level_of as resolve_level
    from ..io import load_metric
    from ..priors.regular import tight_constraints
    from ..priors.threshold import threshold

    metric = load_metric(a.metric)
    say = _step_progress(a, "tight", metric)
    c: Certificate
    if a.threshold:
        c = threshold(metric, progress=say)  # refuses by the cells of its bracket's verified solves
    else:
        level = resolve_level(a.eps, a.alpha)
        check_phi_route(metric, "tight", progress=say, level=level)
        c = tight_constraints(metric, level, progress=say)
    if say is not None:
        progress_line(a, "")  # clear the progress line before the result
    return emit(c, a.format)


#: smallest metric for which ``tight`` and ``regular`` report their steps (smaller ones take well under a second)
PROGRESS_POINTS = 300


def _step_progress(a, cmd: str, metric):
    """The engines' ``progress`` callback: a line on stderr per step (terminal only, not with --quiet), or None."""
    if len(metric) < PROGRESS_POINTS or getattr(a, "quiet", False) or not sys.stderr.isatty():
        return None
    return lambda stage, done, total: progress_line(a, f"exactdp {cmd}: {stage} ...")


def _cmd_regular(a):
    from ..exact.level import level_of as resolve_level
    from ..io import load_metric, load_prior_for
    from ..priors.regular import prior_from, regular_prior

    metric = load_metric(a.metric)
    level = resolve_level(a.eps, a.alpha)
    check_phi_route(metric, "regular", level=level)  # refused before a huge prior is read (a prior only adds cells)
    prior = load_prior_for(a.prior, list(metric.points))
    say = _step_progress(a, "regular", metric)
    check_phi_route(metric, "regular", rhs=prior_from(prior, metric), progress=say, level=level)
    c = regular_prior(prior, metric, level, progress=say)
    if say is not None:
        progress_line(a, "")  # clear the progress line before the result
    return emit(c, a.format)


def _cmd_leakage(a):
    from ..io import load_prior_for
    from ..priors.leakage import leakage

    mech = fix_level(load_at_level(a.mechanism, a), a)
    prior = load_prior_for(a.prior, list(mech.inputs))
    return emit(leakage(mech, prior), a.format)


def _register_optimal(sub):
    o = sub.add_parser("optimal", help="the exact optimal private mechanism for a user (GRS12 LP) and whether "
                                       "the remapped geometric mechanism attains it")
    o.add_argument("--prior", required=True, help="prior file: {\"probabilities\": [...]}")
    o.add_argument("--loss", required=True, help="absolute, squared, binary, or a file {\"matrix\": [[...]]}")
    o.add_argument("--n", type=int, required=True, help="results 0..n")
    level_args(o, required=True)
    o.add_argument("--format", choices=FORMATS, default="text")
    o.set_defaults(fn=_cmd_optimal)


def _register_remap(sub):
    rm = sub.add_parser("remap", help="the Bayes-optimal remap of a mechanism for a user")
    rm.add_argument("mechanism")
    rm.add_argument("--prior", required=True)
    rm.add_argument("--loss", required=True)
    level_args(rm)
    rm.add_argument("--format", choices=FORMATS, default="text")
    rm.set_defaults(fn=_cmd_remap)


def _register_tight(sub):
    t = sub.add_parser("tight", help="the tight-constraints mechanism (ECP14 Def. 6) or the threshold eps")
    t.add_argument("metric", help="metric file (JSON)")
    tg = level_args(t)
    tg.add_argument("--threshold", action="store_true",
                    help="the threshold eps*: the smallest eps from which one exists at every larger eps, with the "
                    "exact set of eps where one exists (certified; a bracket on large metrics)")
    t.add_argument("--quiet", action="store_true", help="no progress on stderr")
    t.add_argument("--format", choices=FORMATS, default="text")
    t.set_defaults(fn=_cmd_tight)


def _register_regular(sub):
    g = sub.add_parser("regular", help="is a prior d-regular (ECP14 Def. 4)?  mu and gamma")
    g.add_argument("prior", help="prior file: {\"points\": [...], \"probabilities\": [...]}")
    g.add_argument("--metric", required=True)
    level_args(g, required=True)
    g.add_argument("--quiet", action="store_true", help="no progress on stderr")
    g.add_argument("--format", choices=FORMATS, default="text")
    g.set_defaults(fn=_cmd_regular)


def _register_leakage(sub):
    lk = sub.add_parser("leakage", help="min-entropy leakage of a mechanism for a prior, in bits (exact)")
    lk.add_argument("mechanism")
    lk.add_argument("--prior", required=True)
    level_args(lk)
    lk.add_argument("--format", choices=FORMATS, default="text")
    lk.set_defaults(fn=_cmd_leakage)


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {
    "optimal": _register_optimal,
    "remap": _register_remap,
    "tight": _register_tight,
    "regular": _register_regular,
    "leakage": _register_leakage,
}
