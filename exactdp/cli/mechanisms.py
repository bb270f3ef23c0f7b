"""Named mechanisms and their analyses: ``mechanism``, ``fdp``, ``audit``, ``renyi``, ``opendp`` (issue 22)."""

from __future__ import annotations

import json
import sys

from ._common import FORMATS, emit, engine_progress, fix_level, level_args, load_at_level, neighbours_arg, usage

__all__ = ["COMMANDS"]


def _cmd_mechanism(a):
    """Build a named mechanism and write it in the file format ``certify`` reads (or list the names)."""
    from ..io import load_json
    from ..mechanisms.catalog import BUILDERS, build

    if a.list:
        for name, b in sorted(BUILDERS.items()):
            extra = " ".join(f"[--{p}]" for p in b.params)
            sys.stdout.write(f"{name:18} {b.summary}{'  ' + extra if extra else ''}\n")
        return 0
    if not a.name:
        raise usage("mechanism needs a NAME (exactdp mechanism --list names them)")
    needs_k = a.name not in ("permute-and-flip", "report-noisy-max")
    if needs_k and a.k is None:
        raise usage(f"mechanism {a.name} needs --k K (inputs 0..K-1)")
    params = {"g": a.g, "family": a.family, "omega": a.omega, "gamma": a.gamma, "base": a.base,
              "sigma2": a.sigma2, "sensitivity": a.sensitivity,
              "scores": load_json(a.scores) if a.scores else None}
    eps, alpha = a.eps, a.alpha
    if a.scale is not None or a.flip is not None:
        alpha = _practitioners_alpha(a)
    mech = build(a.name, k=a.k, eps=eps, alpha=alpha, **params)
    obj = {"name": mech.name, "provenance": mech.provenance, **mech.to_json()}
    text = json.dumps(obj, indent=1 if a.output else None) + "\n"
    if a.output:
        try:
            with open(a.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise usage(f"-o {a.output!r}: {e.strerror or type(e).__name__}") from None
        sys.stdout.write(f"wrote {a.output}: {mech.name}, {len(mech.inputs)} x {len(mech.outputs)}, "
                         f"{mech.regime} entries\n")
    else:
        sys.stdout.write(text)
    return 0


def _practitioners_alpha(a) -> str:
    """alpha = e^(-eps) from a practitioner's parameter, exactly: ``--scale B`` of the geometric mechanism (noise
    ``Pr[z] ∝ exp(-|z|/B)``: alpha = exp(-1/B), eps = 1/B per unit of the input) or ``--flip P`` of randomized
    response (the probability of not reporting the true value: ``P = (k-1)/(e^eps + k - 1)``, so
    ``alpha = P/((1-P)(k-1))``, WBLJ17 4.1)."""
    from flint import fmpq

    from ..exact.values import exact_number

    if a.eps is not None or a.alpha is not None:
        raise usage("--scale and --flip give the level: leave out --eps and --alpha")
    if a.scale is not None and a.flip is not None:
        raise usage("give --scale or --flip, not both")
    if a.scale is not None:
        if a.name != "geometric":
            raise usage(f"--scale is the noise scale of the geometric mechanism; {a.name} takes --eps or --alpha")
        b = exact_number(a.scale, what="--scale")
        if not isinstance(b, fmpq) or b <= 0:
            raise usage(f"--scale: expected a rational B > 0 (noise Pr[z] ∝ exp(-|z|/B)), got {_brief(a.scale)}")
        return f"exp(-1/({b}))"
    if a.name != "grr":
        raise usage(f"--flip is the flip probability of randomized response (grr); {a.name} takes --eps or --alpha")
    p = exact_number(a.flip, what="--flip")
    k = a.k if a.k is not None else 2
    if not isinstance(p, fmpq) or not 0 < p < fmpq(k - 1, k):
        raise usage(f"--flip: expected a rational 0 < P < (k-1)/k = {fmpq(k - 1, k)} (P = (k-1)/k is no privacy "
                    f"loss at all, eps = 0), got {_brief(a.flip)}")
    return str(p / ((1 - p) * (k - 1)))


def _register_mechanism(sub):
    m = sub.add_parser("mechanism", help="build a named mechanism (local-DP oracles, discrete Gaussian, staircase, "
                                         "permute-and-flip, ...) as a mechanism file; --list names them")
    m.add_argument("name", nargs="?", help="the builder (see --list)")
    m.add_argument("--list", action="store_true", help="name every builder, one line each")
    m.add_argument("--k", type=int, help="inputs 0..K-1 (the domain size of a local-DP oracle)")
    level_args(m)
    m.add_argument("--g", type=int, help="lh: the hash range g")
    m.add_argument("--family", choices=["linear", "all"], help="lh, olh: the hash family (default linear)")
    m.add_argument("--omega", type=int, help="subset: the subset size")
    m.add_argument("--gamma", help="staircase: gamma in (0, 1] with gamma*Delta an integer")
    m.add_argument("--sensitivity", help="staircase, permute-and-flip, report-noisy-max: the sensitivity Delta")
    m.add_argument("--base", help="discrete-gaussian: beta = e^(-1/(2 sigma^2)) in (0, 1)")
    m.add_argument("--sigma2", help="discrete-gaussian: a rational sigma^2 > 0")
    m.add_argument("--scores", help="permute-and-flip, report-noisy-max: JSON file, one row of scores per input")
    m.add_argument("--scale", help="geometric: the noise scale B instead of a level (Pr[z] ∝ exp(-|z|/B): eps = 1/B "
                                   "per unit of the input; with sensitivity D the query's eps is D/B)")
    m.add_argument("--flip", help="grr: the probability P of not reporting the true value instead of a level "
                                  "(e^eps = (1-P)(k-1)/P)")
    m.add_argument("-o", "--output", help="write the mechanism file here (default: JSON on stdout)")
    m.set_defaults(fn=_cmd_mechanism)


def _short(text: str, limit: int = 160) -> str:
    """Exact text for the text format: long expressions are cut (--format json prints them in full)."""
    return text if len(text) <= limit else f"{text[:limit // 2]}... ({len(text)} characters; --format json prints it)"


def _cmd_fdp(a):
    """The exact trade-off function of MECH.json (composed --times K) and the Gaussian-DP mu bracket, as a
    certificate (kind fdp); with --mu the verdict is whether f >= G_mu."""
    from ..io import load_metric
    from ..composition.composition import MAX_K
    from ..divergences.fdp import certify_fdp

    if a.times < 1 or a.times > MAX_K:
        raise usage(f"--times: expected 1 <= K <= {MAX_K}, got {a.times}")
    mech = fix_level(load_at_level(a.mechanism, a), a)   # the one rule: entries in alpha at --alpha/--eps
    cert = certify_fdp(mech, neighbours_arg(a, load_metric(a.metric)), a.times, width=a.mu_width, mu=a.mu)
    return emit(cert, a.format)


def _cmd_audit(a):
    """Is the plan (eps, delta)-DP?  The exact delta(eps) of the composition, the verdict and the exact slack, as a
    certificate (kind audit); --dp-accounting adds dp_accounting's answers (text format)."""
    from ..io import load_json, load_metric, load_plan
    from ..interop.audit import certify_audit

    if a.dp_accounting and a.format != "text":
        raise usage("--dp-accounting prints its comparison in the text format; --format "
                     f"{a.format} writes the certificate alone")
    obj = load_json(a.plan)
    entries = obj.get("plan") if isinstance(obj, dict) else obj
    event = truncation = None
    named = [isinstance(e, dict) and "dp_event" in e for e in entries] if isinstance(entries, list) else []
    if any(named) and not all(named):
        raise usage(f"plan file {a.plan!r}: entry {named.index(False)} names no dp_event while entry "
                    f"{named.index(True)} does; a plan names dp_events in every entry or in none")
    if named and all(named):
        # a plan naming dp_accounting events: the tree itself, read exactly (inputs "0" and "1": the event's pair)
        from ..interop.accountants import dp_event_of_json, plan_of_dp_event

        event, truncation = dp_event_of_json(entries)
        plan = plan_of_dp_event(event, truncation=truncation)
    else:
        plan = load_plan(a.plan)
    if a.metric is None and event is None and not a.neighbours:
        raise usage("audit needs --metric (or --neighbours) for a plan of mechanisms; only a plan of dp_events "
                    "has its pair (\"0\", \"1\") built in")
    nb = neighbours_arg(a, load_metric(a.metric)) if a.metric is not None else \
        neighbours_arg(a, [("0", "1")])
    cert = certify_audit(plan, nb, eps=a.eps, delta=a.delta)
    cmp = ecmp = None
    if a.dp_accounting:
        from ..interop.accountants import compare_dp_event, compare_plan_dp_accounting, dp_event_of_plan

        cmp = compare_plan_dp_accounting(plan, nb, eps=a.eps).to_json()
        if event is not None:
            source = "as the plan names it"
        else:
            event, exact_params, why = dp_event_of_plan(plan)
            source = (f"none: {why}" if event is None else "built from the plan, parameters "
                      + ("exact" if exact_params else "at their nearest floats (exactdp reads those floats exactly)"))
        ecmp = (source, compare_dp_event(event, a.eps, truncation=truncation).to_json() if event is not None else None)
    code = emit(cert, a.format)
    if cmp:
        print(f"dp_accounting at eps = {cmp['eps_query']} (the float's exact value): pessimistic {cmp['pessimistic']}, "
              f"optimistic {cmp['optimistic']}; exact {_short(cmp['delta_exact'])} (about {cmp['delta_exact_approx']});"
              f" pessimistic below exact: {'yes' if cmp['pessimistic_below_exact'] else 'no'} "
              "[route: from_two_probability_mass_functions per ordered pair, self_compose, compose]")
    if ecmp:
        _print_event_comparison(*ecmp)
    return code


def _print_event_comparison(source: str, c: dict | None) -> None:
    """The event-tree lines of ``audit --dp-accounting``: each side's answer and the route it took."""
    if c is None:
        print(f"dp_accounting event tree: {source}; only the per-pair route above")
        return
    print(f"dp_accounting event tree ({source}): {_short(c['event'], 300)}")
    got = "no answer" if c["dp_accounting"] is None else c["dp_accounting"]
    print(f"  dp_accounting at eps = {c['eps_query']}: {got} [route {c['dp_accounting_route']}]")
    if c["enclosure"] is None:
        print(f"  exactdp: no answer [route {c['exact_route']}]")
    else:
        lo, hi = c["enclosure"]
        val = _short(c["delta_exact"]) if c["delta_exact"] is not None else "certified enclosure"
        print(f"  exactdp on the same tree: {val} (in [{lo}, {hi}]) [route {c['exact_route']}]")
    verdict = {True: "yes", False: "no", None: "not decided (a side is missing or the float is inside the enclosure)"}
    print(f"  dp_accounting below exact: {verdict[c['below']]}")


def _register_fdp(sub):
    f = sub.add_parser("fdp", help="the exact f-DP trade-off function (DRS22) and a certified Gaussian-DP mu")
    f.add_argument("mechanism", help="mechanism file (entries at a fixed level)")
    f.add_argument("--metric", required=True, help="metric file; neighbours are its pairs at distance 1")
    f.add_argument("--neighbours", help="JSON file listing the neighbouring input pairs (instead of the metric's)")
    f.add_argument("--times", type=int, default=1, help="the K-fold composition (exact privacy-loss distribution)")
    f.add_argument("--mu-width", default="1/1000", help="width of the certified mu bracket (default 1/1000)")
    f.add_argument("--mu", help="decide f >= G_MU for this rational mu (exit 0 holds, 1 fails)")
    level_args(f)
    f.add_argument("--format", choices=FORMATS, default="text")
    f.set_defaults(fn=_cmd_fdp)


def _register_audit(sub):
    u = sub.add_parser("audit", help="check an accountant's (eps, delta) for a composition plan, exactly")
    u.add_argument("plan", help="plan file: JSON list of {\"mechanism\": \"A.json\", \"times\": 50} or "
                                "{\"builder\": \"grr\", \"k\": 4, \"eps\": \"1\", \"times\": 10} or dp_accounting "
                                "events {\"dp_event\": \"RandomizedResponseDpEvent\", \"noise_parameter\": 0.5, "
                                "\"num_buckets\": 2, \"times\": 3}")
    u.add_argument("--metric", help="metric file on the inputs; neighbours at distance 1 (required unless the plan "
                                    "names dp_events, whose pair is (\"0\", \"1\"))")
    u.add_argument("--neighbours", help="JSON file listing the neighbouring input pairs (instead of the metric's)")
    u.add_argument("--eps", required=True, help="the claimed eps, exact (1, 1/2, log(2))")
    u.add_argument("--delta", required=True,
                   help="the claimed delta, exact (1/100000, or 1e-5 read as an exact decimal)")
    u.add_argument("--dp-accounting", action="store_true", help="also dp_accounting's pessimistic and optimistic "
                   "delta at the same (float) eps, compared exactly, per pair and on the DpEvent tree the plan means, "
                   "each with its route (text format; needs pip install 'exactdp[interop]')")
    u.add_argument("--format", choices=FORMATS, default="text")
    u.set_defaults(fn=_cmd_audit)


def _register_renyi(sub):
    r = sub.add_parser("renyi", help="the exact Renyi-DP curve at integer orders (Mir17), as a certificate")
    r.add_argument("mechanism", help="mechanism file (entries at a fixed level)")
    r.add_argument("--metric", required=True, help="metric file; neighbours are its pairs at distance 1")
    r.add_argument("--neighbours", help="JSON file listing the neighbouring input pairs (instead of the metric's)")
    r.add_argument("--orders", default="2,3,4,8", help="integer orders alpha >= 2, comma-separated (default 2,3,4,8)")
    r.add_argument("--delta", help="also Mironov's (eps, delta) conversion at this delta in (0, 1), next to the exact "
                                   "smallest eps of the privacy profile (text format)")
    r.add_argument("--format", choices=FORMATS, default="text")
    r.add_argument("--quiet", action="store_true", help="no progress on stderr (shown only on a terminal)")
    level_args(r)
    r.set_defaults(fn=_cmd_renyi)


def _brief(text: str, limit: int = 40) -> str:
    """A user's value in a one-line message: whole when short, else its start and its length."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text):,} characters)"


def _orders(text: str, max_order: int | None = None) -> list:
    """``--orders``: distinct integers >= 2 (at most ``max_order``), comma-separated; the message names the first
    offending entry and shows at most the start of the list."""
    try:
        orders = [int(x) for x in text.split(",")]
    except ValueError:
        bad = next(x for x in text.split(",") if not x.strip().lstrip("+-").isdigit())
        raise usage(f"--orders: {_brief(bad)} is not an integer; expected integers separated by commas, got "
                    f"{_brief(text)}") from None
    top = f"[2, {max_order}]" if max_order is not None else ">= 2"
    for k, o in enumerate(orders):
        if o < 2 or (max_order is not None and o > max_order):
            raise usage(f"--orders: {o} is outside {top} (entry {k + 1} of {len(orders):,}), got {_brief(text)}")
        if o in orders[:k]:
            raise usage(f"--orders: {o} is given twice; expected distinct integers in {top}, got {_brief(text)}")
    return orders


def _cmd_renyi(a):
    """The RDP curve of MECH.json at --orders (kind renyi); with --delta the conversion and the exact eps."""
    from ..io import load_metric
    from ..divergences.renyi import MAX_ORDER, certify_renyi, rdp_to_dp, renyi_curve

    orders = _orders(a.orders, MAX_ORDER)
    mech = fix_level(load_at_level(a.mechanism, a), a)   # the one rule: entries in alpha at --alpha/--eps
    nb = neighbours_arg(a, load_metric(a.metric))
    with engine_progress(a, "renyi") as progress:
        cert = certify_renyi(mech, nb, orders, delta=a.delta, progress=progress)
    code = emit(cert, a.format)
    if a.delta is not None and a.format == "text":
        from ..exact.decide import arb_of, decimal_enclosure
        from ..composition.profile import privacy_profile

        conv = rdp_to_dp(renyi_curve(mech, nb, orders), a.delta)
        pr = privacy_profile(mech, nb)
        t = pr.epsilon_t(conv.delta)
        exact = ("inf", "inf") if t is None else decimal_enclosure(lambda: arb_of(t).log(), 8)
        print(f"Mironov's conversion at delta = {conv.delta} (order {conv.order}): eps = {_short(str(conv.epsilon))}"
              f" (about {conv.epsilon.enclosure(8)[1]})")
        print(f"exact smallest eps at delta = {conv.delta} (the privacy profile): {_short(pr.epsilon(conv.delta))} "
              f"(about {exact[1]})")
    return code


def _register_opendp(sub):
    o = sub.add_parser("opendp", help="OpenDP's privacy map for its integer Laplace / Gaussian measurements against "
                                      "the exact finite mechanism (needs pip install 'exactdp[interop]')")
    o.add_argument("measurement", choices=("laplace", "gaussian", "profile"),
                   help="make_laplace (eps) or make_gaussian (rho); profile: the exact privacy profile of the "
                        "measurement in --serialized, as a certificate (kind profile)")
    o.add_argument("--scale", help="laplace, gaussian: OpenDP's scale, exact (its nearest float is what OpenDP runs)")
    o.add_argument("--serialized", help="profile: a file holding OpenDP's serialize(measurement) JSON (read as "
                                        "JSON, never executed)")
    o.add_argument("--truncation", type=int, help="profile of make_gaussian: the noise bound T (noise on |z| <= T)")
    o.add_argument("--eps", help="profile: the query level, exact")
    o.add_argument("--delta", help="profile: with --eps, decide (eps, delta)-DP (exit 0 holds, 1 fails)")
    o.add_argument("--d-in", type=int, default=1, help="the input distance (default 1)")
    o.add_argument("--lo", type=int, help="laplace: the clamped input range's lower end (default 0); profile: the "
                                          "integer measurements' input range lo..hi")
    o.add_argument("--hi", type=int, help="laplace: the range's upper end (default 10)")
    o.add_argument("--window", type=int, default=8, help="gaussian: outputs within this distance (default 8)")
    o.add_argument("--orders", default="2,3,4", help="gaussian: integer Renyi orders (default 2,3,4)")
    o.add_argument("--format", choices=("text", "json"), default="text")
    o.set_defaults(fn=_cmd_opendp)


def _opendp_scale(text: str) -> None:
    """``--scale``: a rational > 0 whose nearest float (what OpenDP runs) is a positive finite number."""
    from ..exact.values import exact_number
    from flint import fmpq

    v = exact_number(text, what="--scale")
    if not isinstance(v, fmpq) or v <= 0:
        raise usage(f"--scale: expected a rational > 0 (OpenDP runs its nearest float), got {_brief(text)}")
    try:
        f = float(v)
    except OverflowError:
        f = float("inf")
    if not 0 < f < float("inf"):
        raise usage(f"--scale: {_brief(text)} is {'above' if f else 'below'} the range of the floats OpenDP runs "
                    "(positive doubles, about 2.2e-308 to 1.8e308)")


def _cmd_opendp(a):
    """OpenDP's reported eps (laplace) or rho (gaussian) next to the exact value; exit 0 consistent, 1 not."""
    from ..divergences.renyi import MAX_ORDER

    if a.measurement == "profile":
        return _opendp_profile(a)
    if a.scale is None:
        raise usage(f"opendp {a.measurement} needs --scale")
    orders = tuple(_orders(a.orders, MAX_ORDER))      # before OpenDP is imported: a bad list is bad input
    _opendp_scale(a.scale)
    a.lo = 0 if a.lo is None else a.lo
    a.hi = 10 if a.hi is None else a.hi
    from ..interop.accountants import check_opendp_gaussian, check_opendp_laplace

    if a.measurement == "laplace":
        r = check_opendp_laplace(a.scale, a.d_in, lo=a.lo, hi=a.hi)
    else:
        r = check_opendp_gaussian(a.scale, a.d_in, window=a.window, orders=orders)
    out = r.to_json()
    code = 0 if r.holds else 1
    if a.format == "json":
        print(json.dumps(out, indent=2))
        return code
    from ..certificate.display import with_decimals

    print(f"OpenDP {out['measurement']}, scale {out['scale']}, d_in = {out['d_in']}: reported {out['reported']} "
          f"(exactly {_short(out['reported_exact'])})")
    exact = with_decimals(out["exact"]) if isinstance(out["exact"], str) else \
        "; ".join(f"alpha = {k}: {v}" for k, v in out["exact"])
    print(f"exact: {_short(exact, 400)}")
    print(f"checked: {out['compared']}: {'holds' if r.holds else 'FAILS'}")
    return code


def _opendp_profile(a):
    """``opendp profile --serialized FILE``: the exact profile of an OpenDP measurement read from OpenDP's own
    serialized description; a measurement exactdp does not read is bad input (exit 2, its name in the line)."""
    from ..io import load_json
    from ..interop.accountants import certify_opendp

    if a.serialized is None:
        raise usage("opendp profile needs --serialized FILE (OpenDP's serialize(measurement) JSON)")
    if a.delta is not None and a.eps is None:
        raise usage("opendp profile: --delta needs --eps")
    if a.format not in ("text", "json"):
        raise usage(f"opendp profile: --format {a.format} is not available")
    desc = load_json(a.serialized)
    cert = certify_opendp(desc, lo=a.lo, hi=a.hi, d_in=a.d_in, truncation=a.truncation, eps=a.eps, delta=a.delta)
    return emit(cert, a.format)


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {
    "mechanism": _register_mechanism,
    "fdp": _register_fdp,
    "audit": _register_audit,
    "renyi": _register_renyi,
    "opendp": _register_opendp,
}
