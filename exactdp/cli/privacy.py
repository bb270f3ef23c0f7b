"""The privacy of one given mechanism: ``certify`` (pure and approximate), ``profile``, ``compose``, ``epsilon``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._common import (FORMATS, emit, engine_progress, fix_level, level_args, load_at_level, neighbours_arg,
                      running_note, usage)

__all__ = ["COMMANDS"]

if TYPE_CHECKING:
    from ..certificate import Certificate


def _cmd_certify(a):
    from ..certify import certify_all_eps, certify_privacy
    from ..io import load_metric
    from ..mechanisms import geometric
    from ..metrics import path

    if a.example:
        if a.mechanism or a.metric:
            raise usage("--example replaces MECH.json and --metric")
        # the range-restricted geometric mechanism, n = 10, alpha = 1/2 (symbolic alpha with --all-eps)
        mech, metric = (geometric(10) if a.all_eps else geometric(10, "1/2")), path(11)
        if not (a.eps or a.alpha or a.all_eps):
            a.alpha = "1/2"
    else:
        if not a.mechanism or not a.metric:
            raise usage("certify needs MECH.json and --metric METRIC.json (or --example geometric)")
        mech, metric = load_at_level(a.mechanism, a), load_metric(a.metric)
    if a.delta is not None or a.neighbours:
        return _cmd_certify_approx(a, mech, metric)
    cert: Certificate
    if a.all_eps:
        cert = certify_all_eps(mech, metric)
    else:
        if not (a.eps or a.alpha):
            raise usage("certify needs --eps, --alpha or --all-eps")
        with engine_progress(a, "certify") as progress:
            cert = certify_privacy(mech, metric, eps=a.eps, alpha=a.alpha, progress=progress)
    return emit(cert, a.format)


def _cmd_certify_approx(a, mech, metric):
    from ..certify import certify_approx

    if a.all_eps:
        raise usage("--delta does not combine with --all-eps")
    if a.delta is None:
        raise usage("--neighbours needs --delta (the pure case uses the metric's generating pairs)")
    if not (a.eps or a.alpha):
        raise usage("certify --delta needs --eps or --alpha")
    cert = certify_approx(mech, neighbours_arg(a, metric), eps=a.eps, alpha=a.alpha, delta=a.delta)
    return emit(cert, a.format)


def _profile_level(a) -> dict:
    """The query of profile / compose: the level (--eps | --alpha; eps = 0 is the total-variation question) and
    delta, each optional."""
    return {"eps": a.eps, "alpha": a.alpha, "delta": a.delta}


def _cmd_profile(a):
    from ..io import load_metric
    from ..composition.composition import certify_profile

    mech = _fix_alpha(load_at_level(a.mechanism, a), a, "profile")
    relation = neighbours_arg(a, load_metric(a.metric))
    # the exact profile has no step counter: one line says what runs (terminal only), cleared before the result
    with running_note(a, f"exactdp profile: exact privacy-loss distributions of a {len(mech.inputs)} x "
                         f"{len(mech.outputs)} mechanism ..."):
        cert = certify_profile(mech, relation, **_profile_level(a))
    return _emit_with_enclosure(cert, a.format)


def _emit_with_enclosure(cert, fmt) -> int:
    """emit, then (text only) a certified decimal enclosure of a delta that is not a short rational (issue 29):
    at k = 20 the exact delta is a 40-term expression in e with no decimal at all.  The enclosure is computed
    from the certificate's exact text by Arb at rising precision (``decimal_enclosure``), not from a float."""
    code = emit(cert, fmt)
    q = getattr(cert.evidence, "query", None)
    text = getattr(q, "delta_at_eps", None)
    if fmt == "text" and text is not None and ("exp" in text or "sqrt" in text or "^" in text or len(text) > 40):
        from ..exact.decide import decimal_enclosure
        from ..exact.values import exact_number

        lo, hi = decimal_enclosure(exact_number(text), 17)
        print(f"delta at eps, certified decimal enclosure: [{lo}, {hi}] (the exact value above: {len(text):,} "
              "characters)")
    return code


def _times(text: str, n: int, limit: int) -> list:
    """--times K (every mechanism K times) or K1,K2,... (one per mechanism), each in [1, limit]."""
    parts = text.split(",")
    if len(parts) not in (1, n):
        raise usage(f"--times: expected one K or {n} comma-separated values (one per mechanism), got {text!r}")
    try:
        ks = [int(p) for p in parts]
    except ValueError:
        raise usage(f"--times: expected integers, got {text!r}") from None
    bad = next((k for k in ks if not 1 <= k <= limit), None)
    if bad is not None:
        raise usage(f"--times: expected 1 <= K <= {limit}, got {bad}")
    return ks * n if len(ks) == 1 else ks


def _cmd_compose(a):
    from ..io import load_metric
    from ..composition.composition import MAX_K
    from ..composition.composition import certify_composition

    ks = _times(a.times, len(a.mechanism), MAX_K)
    mechs = [_fix_alpha(load_at_level(m, a), a, f"compose ({m})") for m in a.mechanism]
    if a.lattice:
        return _compose_lattice(a, mechs, ks)
    relation = neighbours_arg(a, load_metric(a.metric))
    with running_note(a, f"exactdp compose: exact convolution of {sum(ks):,} runs of {len(mechs)} "
                         f"mechanism{'' if len(mechs) == 1 else 's'} ..."):
        cert = certify_composition(list(zip(mechs, ks, strict=True)), relation, **_profile_level(a))
    return _emit_with_enclosure(cert, a.format)


def _compose_lattice(a, mechs, ks) -> int:
    """compose --lattice: the delta at --eps of the runs on one privacy-loss lattice (issue 29).

    A ``lattice_composition`` certificate (``--format json``; ``exactdp recheck`` redoes the polynomial power in
    Python integers): the exact delta when the route is exact, and always a certified decimal enclosure; with
    --delta the verdict, decided exactly on the exact route and from the enclosure on the ball route (undecided,
    exit 3, when delta lies inside it)."""
    from ..privacy.approximate import approx_level
    from ..io import load_metric
    from ..composition.lattice import lattice_certificate

    if a.eps is None and a.alpha is None:
        raise usage("compose --lattice needs --eps or --alpha (the delta at that level)")
    if a.format not in ("text", "json"):
        raise usage("compose --lattice: --format text or json")
    lvl = approx_level(a.eps, a.alpha, None)
    cert, r = lattice_certificate(list(zip(mechs, ks, strict=True)), neighbours_arg(a, load_metric(a.metric)),
                                  level=lvl, delta=a.delta)
    if a.format == "json":
        return emit(cert, "json")
    print(r.text())
    if a.delta is not None:
        v = cert.verdict.value
        word = v if v in ("holds", "fails") else "undecided (delta lies inside the enclosure)"
        print(f"({a.eps or 'alpha = ' + str(a.alpha)}, {a.delta})-DP of the composition: {word}")
    return cert.verdict.exit_code


def _fix_alpha(mech, a, cmd):
    """profile, compose: the level (--eps | --alpha) is the eps of the delta query and, as in ``certify``, the
    level at which a mechanism written in alpha is evaluated."""
    if mech.regime != "symbolic":
        return mech
    if a.alpha is None and a.eps is None:
        raise usage(f"{cmd}: the entries use alpha; give --alpha A or --eps E to fix the level (e.g. --alpha 1/2 "
                     "or --alpha 'exp(-1)')")
    from ..exact.level import level_of

    return mech.at(level_of(a.eps, a.alpha))


def _cmd_epsilon(a):
    from ..certify import smallest_epsilon
    from ..io import load_metric

    mech, metric = load_at_level(a.mechanism, a), load_metric(a.metric)
    with engine_progress(a, "epsilon") as progress:
        cert = smallest_epsilon(fix_level(mech, a), metric, progress=progress)
    return emit(cert, a.format)


def _register_certify(sub):
    c = sub.add_parser("certify", help="certify eps*d-privacy of a mechanism (exactly)")
    c.add_argument("mechanism", nargs="?", help="mechanism file (JSON, or CSV for a bare matrix)")
    c.add_argument("--metric", help="metric file (JSON)")
    g = level_args(c)
    g.add_argument("--all-eps", action="store_true", help="prove the statement for every eps > 0 (symbolic alpha)")
    c.add_argument("--example", choices=["geometric"], help="embedded default: geometric mechanism, n = 10")
    c.add_argument("--format", choices=FORMATS, default="text")
    c.add_argument("--delta", help="(eps, delta)-DP: exact delta in [0, 1] (HLM15 Def. 1); neighbours are the "
                                  "metric's pairs at distance 1 unless --neighbours lists them")
    c.add_argument("--neighbours", help="JSON file: list of neighbouring input pairs [[\"a\", \"b\"], ...]")
    c.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    c.set_defaults(fn=_cmd_certify)


def _register_profile(sub):
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
    pf.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    pf.add_argument("--format", choices=FORMATS, default="text")
    pf.set_defaults(fn=_cmd_profile)


def _register_compose(sub):
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
    cp.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    cp.add_argument("--format", choices=FORMATS, default="text")
    cp.add_argument("--lattice", action="store_true",
                    help="mechanisms whose losses lie on one lattice c*b^n: the delta at --eps of the runs as a "
                         "FLINT polynomial power (k = 1000 in well under a second for randomized response), exact or "
                         "a certified enclosure, with the route taken; not a certificate")
    cp.set_defaults(fn=_cmd_compose)


def _register_epsilon(sub):
    e = sub.add_parser("epsilon", help="the exact smallest eps for which the mechanism is private")
    e.add_argument("mechanism")
    e.add_argument("--metric", required=True)
    level_args(e)
    e.add_argument("--format", choices=FORMATS, default="text")
    e.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    e.set_defaults(fn=_cmd_epsilon)


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {
    "certify": _register_certify,
    "profile": _register_profile,
    "compose": _register_compose,
    "epsilon": _register_epsilon,
}
