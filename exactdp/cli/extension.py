"""``extend`` (the BCSZ18 extension from a subset) and ``tradeoff`` (KL10's exact eps*(gamma, delta))."""

from __future__ import annotations

from ._common import FORMATS, emit, engine_progress, level_args, load_at_level, load_subset, usage

__all__ = ["COMMANDS"]


def _cmd_extend(a):
    from ..io import load_metric
    from ..extension.extension import certify_extension

    if not (a.eps or a.alpha):
        raise usage("extend needs --eps or --alpha (the level at which the mechanism on H is private)")
    mech, metric, H = load_at_level(a.mechanism, a), load_metric(a.metric), load_subset(a.subset)
    return emit(certify_extension(mech, metric, H, eps=a.eps, alpha=a.alpha), a.format)


def _cmd_tradeoff(a):
    from ..io import load_metric
    from ..utility.tradeoff import certify_tradeoff

    metric = load_metric(a.metric)
    with engine_progress(a, "tradeoff") as progress:
        cert = certify_tradeoff(metric, gamma=a.gamma, delta=a.delta, ball=a.ball, progress=progress)
    return emit(cert, a.format)


def _register_extend(sub):
    x = sub.add_parser("extend", help="extend a mechanism from a subset H to the whole metric (BCSZ18) and certify "
                                      "agreement on H and 2 eps-privacy")
    x.add_argument("mechanism", help="mechanism on H (JSON; its inputs are the points of H)")
    x.add_argument("--metric", required=True, help="metric file (JSON)")
    x.add_argument("--subset", required=True, help="H: JSON list of point labels")
    level_args(x, required=True)
    x.add_argument("--format", choices=FORMATS, default="text")
    x.set_defaults(fn=_cmd_extend)


def _register_tradeoff(sub):
    t = sub.add_parser("tradeoff", help="KL10's eps*(gamma, delta) exactly (the LP's optimal basis, parametric in "
                                          "t = e^eps)")
    t.add_argument("--metric", required=True, help="metric file (JSON); f = id, Y = X")
    t.add_argument("--gamma", required=True, help="utility radius gamma > 0")
    t.add_argument("--delta", required=True, help="failure probability, rational 0 < delta < 1")
    t.add_argument("--ball", choices=["open", "closed"], default="open", help="B(f(x), gamma): sigma < or <= gamma")
    t.add_argument("--format", choices=FORMATS, default="text")
    t.set_defaults(fn=_cmd_tradeoff)


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {"extend": _register_extend, "tradeoff": _register_tradeoff}
