"""The exact law of a sampler implementation: ``sampler`` (issue 30)."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from fractions import Fraction

from ._common import usage

__all__ = ["COMMANDS"]


def _load(spec: str):
    """``FILE.py:FUNCTION`` -> the function (its module imported from the file under a private name)."""
    path, sep, name = spec.rpartition(":")
    if not sep or not path or not name:
        raise usage(f"sampler: expected FILE.py:FUNCTION, not {spec!r}")
    if not os.path.isfile(path):
        raise usage(f"sampler: no file {path!r}")
    mod_name = f"_exactdp_sampler_{abs(hash(os.path.abspath(path)))}"
    try:
        spec_ = importlib.util.spec_from_file_location(mod_name, path)
        if spec_ is None or spec_.loader is None:
            raise ImportError("not a Python module")
        mod = importlib.util.module_from_spec(spec_)
        sys.modules[mod_name] = mod
        spec_.loader.exec_module(mod)
    except BaseException as e:  # any failure of the user's module is bad input, named in one line
        if isinstance(e, KeyboardInterrupt):
            raise
        sys.modules.pop(mod_name, None)
        raise usage(f"sampler: {path} does not import: {type(e).__name__}: {e}".replace("\n", " ")) from None
    fn = getattr(mod, name, None)
    if not callable(fn):
        raise usage(f"sampler: {path} has no function {name!r}")
    return fn


def _args(text: str | None) -> list:
    if not text:
        return []
    out: list = []
    for part in text.split(","):
        p = part.strip()
        try:
            out.append(Fraction(p))  # exact rationals, as the samplers expect (1 / Fraction(1) stays exact)
        except (ValueError, ZeroDivisionError):
            raise usage(f"sampler: --args: {p!r} is not an exact number (e.g. 3/2)") from None
    return out


def _support(text: str) -> tuple[int, int]:
    lo, sep, hi = text.partition("..")
    try:
        a, b = int(lo), int(hi)
    except ValueError:
        raise usage(f"sampler: --support must be LO..HI with integers, not {text!r}") from None
    if not sep or a > b:
        raise usage(f"sampler: --support must be LO..HI with LO <= HI, not {text!r}")
    from ..samplers.targets import MAX_SUPPORT

    if b - a > MAX_SUPPORT - 1:     # refused before the sampler is explored (which may take minutes)
        raise usage(f"sampler: --support {a}..{b}: at most {MAX_SUPPORT} values are compared")
    return a, b


def _fraction(text: str, what: str) -> Fraction:
    try:
        q = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise usage(f"sampler: {what}: {text!r} is not an exact number") from None
    return q


def _cmd_sampler(a):
    from ..samplers import compare, law, parse_target

    fn = _load(a.sampler)
    args = _args(a.args)
    support = _support(a.support)
    tgt = parse_target(a.target)
    width = _fraction(a.width, "--width")
    tol = _fraction(a.tol, "--tol") if a.tol else None
    names = [s.strip() for s in (a.summarise or "").split(",") if s.strip()]
    if (a.eps is None) != (a.delta is None):
        raise usage("sampler: --eps and --delta go together (the question (eps, delta)-DP?)")
    if a.sensitivity < 1:
        raise usage(f"sampler: --sensitivity must be a positive integer, not {a.sensitivity}")
    L = law(fn, args, summarise=names, depth=a.depth, tol=tol, bits=a.bits or None)
    c = compare(L, tgt, support, width=width)
    priv, cert = _privacy(a, L, support, args)
    if a.certificate is not None:
        if cert is None:
            raise usage("sampler: --certificate: no privacy certificate (the outputs are not integers of a range "
                        "LO < HI, or no value of the range has a positive lower bound)")
        with open(a.certificate, "w", encoding="utf-8") as f:
            f.write(cert.to_json_str())
    if a.format == "json":
        print(json.dumps(_json_result(c, L, priv, cert), indent=1))
    else:
        _print_text(a, c, L, support, args, priv, cert)
    return c.exit_code


def _privacy(a, L, support, args):
    """The privacy statement of the additive mechanism the sampler implements, and the same as a certificate the
    kernel re-derives from the intervals; ``(None, None)`` when the outputs are not integers of a range."""
    from ..samplers import SamplerError, additive_privacy
    from ..samplers.privacy import certify_sampler_privacy

    if not (support[0] < support[1] and all(isinstance(v, int) and not isinstance(v, bool) for v in L.masses)):
        return None, None
    try:
        priv = additive_privacy(L, support, min(a.sensitivity, support[1] - support[0]))
    except SamplerError:  # no positive lower bound in the range: the privacy line is left out
        priv = None
    try:
        cert = certify_sampler_privacy(L, support, a.sensitivity, eps=a.eps, delta=a.delta,
                                       name=f"{os.path.basename(a.sampler)}({', '.join(map(str, args))})")
    except SamplerError as e:
        if a.eps is not None:          # a question that cannot be asked is bad input, not a silent omission
            raise usage(f"sampler: {e}") from None
        cert = None
    return priv, cert


def _json_result(c, L, priv, cert) -> dict:
    data = {"verdict": c.verdict, "target": c.target, "residual": str(c.residual), "width_bound": str(c.width),
            "paths": L.paths, "summary_paths": L.summary_paths, "summaries": L.summaries,
            "rows": [{"value": r.value, "lo": str(r.lo), "hi": str(r.hi), "target": r.target,
                      "status": r.status} for r in c.rows],
            "witness": None if c.witness is None else {"value": c.witness.value, "status": c.witness.status,
                                                       "lo": str(c.witness.lo), "hi": str(c.witness.hi),
                                                       "target": c.witness.target},
            "reason": c.reason}
    if priv is not None:
        data["privacy"] = {"ratio_upper": None if priv.ratio_upper is None else str(priv.ratio_upper),
                           "ratio_lower": str(priv.ratio_lower), "delta": str(priv.delta),
                           "eps_upper": priv.eps_upper, "eps_lower": priv.eps_lower}
    if cert is not None:
        data["certificate"] = cert.to_json()     # re-checked by `exactdp recheck` (kind sampler_privacy)
    return data


def _print_text(a, c, L, support, args, priv, cert) -> None:
    print(f"sampler {a.sampler}({', '.join(map(str, args))}) vs {c.target} on {support[0]}..{support[1]}: "
          f"{c.verdict}")
    print(f"  explored: {L.paths} runs (+{L.summary_paths} in {L.summaries} summaries), depth {a.depth}; "
          f"residual (every interval's width) {float(c.residual):.3e}")
    w = c.witness
    if w is not None:
        side = "below" if w.status == "below" else "above"
        print(f"  witness: P[{w.value}] = {w.target} lies {side} the enclosure of the code's probability")
        print(f"    lo = {w.lo}\n    hi = {w.hi}")
        print(f"    (lo ~ {float(w.lo):.12e}, hi ~ {float(w.hi):.12e})")
    elif c.reason:
        print(f"  undecided: {c.reason}")
    if a.format == "text" and c.verdict != "differs":
        for r in c.rows:
            print(f"  {r.value:>6}  [{float(r.lo):.15e}, {float(r.hi):.15e}]  target {r.target}  {r.status}")
    if priv is not None:
        print(f"  privacy: {priv.statement()}")
    if cert is not None and a.eps is not None:
        print(f"  question (eps, delta) = ({a.eps}, {a.delta}): {cert.verdict.value}"
              + (f" ({cert.reason})" if cert.reason else ""))


def _register_sampler(sub):
    s = sub.add_parser("sampler", help="the exact law of a sampler's own Python code, compared with a target law "
                                       "(matches / differs with a witness / undecided)")
    s.add_argument("sampler", help="FILE.py:FUNCTION, a function f(rng, *args) drawing only through "
                                   "rng.randrange")
    s.add_argument("--args", help="its arguments, exact, comma-separated (e.g. 3/2 or 1,2/3)")
    s.add_argument("--target", required=True, help="bernoulli_exp:X, geometric_exp:X, dlaplace:S, dgauss:SIGMA2 "
                                                   "(or NAME(P)), or a JSON table {\"values\": {\"0\": \"1/2\"}}")
    s.add_argument("--support", required=True, help="the output values compared, LO..HI")
    s.add_argument("--summarise", help="functions of the sampler's module summarised once per argument, "
                                       "comma-separated")
    s.add_argument("--depth", type=int, default=100, help="the most choices per path (default 100)")
    s.add_argument("--tol", default="1e-22",
                   help="abandon paths of probability below this (exact, default 1e-22; 0 for none)")
    s.add_argument("--bits", type=int, default=128, help="path probabilities rounded down to multiples of "
                                                         "2^-BITS (sound lower bounds; 0: exact fractions)")
    s.add_argument("--width", default="1e-18", help="matches needs the residual at most this (default 1e-18)")
    s.add_argument("--format", choices=("text", "summary", "json"), default="text",
                   help="text (every row), summary (the verdict and witness only), json")
    s.add_argument("--sensitivity", type=int, default=1, help="neighbouring inputs of x + Z differ by at most "
                                                              "this (default 1)")
    s.add_argument("--eps", help="the privacy question's eps (log(Q) or an exact rational), with --delta")
    s.add_argument("--delta", help="the privacy question's delta (exact), with --eps")
    s.add_argument("--certificate", metavar="FILE", help="write the sampler_privacy certificate (re-checked by "
                                                         "`exactdp recheck FILE`) to FILE")
    s.set_defaults(fn=_cmd_sampler)


#: command name -> the function that adds it to the parser (``_app._ORDER`` orders them)
COMMANDS = {"sampler": _register_sampler}
