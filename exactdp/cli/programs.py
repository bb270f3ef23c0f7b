"""``program``: exact privacy of a noise program (issue 28; the language is in ``docs/programs.md``)."""

from __future__ import annotations

import os
import re
import sys

from ._common import FORMATS, emit, running_note, usage

__all__ = ["COMMANDS"]

_DOMAIN = re.compile(r"^\s*(-?\d{1,6})\s*\.\.\s*(-?\d{1,6})\s*$")
#: a positive rational eps0: the program certificate at that level (other levels: the matrix certificates)
_RATIONAL = re.compile(r"^[0-9]{1,12}(/[1-9][0-9]{0,11})?$")


def _cmd_program(a):
    from ..programs import RELATIONS, ProgramError, certify_program, parse_program, read_pairs_file
    from ..programs.check import program_certificate

    try:
        with open(a.file, encoding="utf-8") as f:
            text = f.read(1_000_001)
    except (OSError, UnicodeDecodeError) as e:
        raise usage(f"program file {a.file}: {getattr(e, 'strerror', None) or e}") from None
    m = _DOMAIN.match(a.domain)
    if m is None:
        raise usage(f"--domain: expected LO..HI with integers of at most 6 digits, e.g. 0..2, got {a.domain!r}")
    domain = (int(m.group(1)), int(m.group(2)))
    if domain[0] > domain[1]:
        raise usage(f"--domain: expected LO <= HI, got {a.domain}")
    if a.n < 1:
        raise usage(f"--n: expected an integer >= 1, got {a.n}")
    if a.cost and a.all_eps:
        raise usage("--cost is the exact privacy cost at a level: give --eps or --alpha, not --all-eps")
    writes = _write_paths(a)
    name = a.file.rsplit("/", 1)[-1].rsplit(".", 1)[0] or "program"
    try:
        program = parse_program(text, name)
    except ProgramError as e:
        raise usage(f"{a.file}: {e}") from None
    relation = a.relation
    if relation not in RELATIONS:
        if not relation.endswith(".json"):
            raise usage(f"--relation: expected one of {', '.join(RELATIONS)} or a JSON file of pairs, "
                        f"got {relation!r}")
        relation = [[list(x), list(y)] for x, y in read_pairs_file(relation, a.n, domain)[1]]
    try:
        with running_note(a, f"program {name}: compiling and deciding (n = {a.n})"):
            if a.all_eps:   # the certificate is about the program text: the re-check re-derives the matrix from it
                cert = program_certificate(program, n=a.n, domain=domain, relation=relation, form=a.form)
            elif a.eps is not None and _RATIONAL.match(a.eps) and a.eps.split("/")[0].strip("0"):
                cert = program_certificate(program, n=a.n, domain=domain, relation=relation, eps=a.eps, cost=a.cost,
                                           form=a.form)
            elif a.alpha is not None and _RATIONAL.match(a.alpha) and a.alpha.split("/")[0].strip("0"):
                # a rational alpha: the certificate is about the text too, at eps0 = log(1/alpha)
                cert = program_certificate(program, n=a.n, domain=domain, relation=relation, alpha=a.alpha,
                                           cost=a.cost, form=a.form)
            else:
                cert = certify_program(program, n=a.n, domain=domain, relation=relation, eps=a.eps, alpha=a.alpha,
                                       cost=a.cost)
    except ProgramError as e:
        raise usage(f"{a.file}: {e}") from None
    if writes:
        _write_matrix(a, program, domain, relation)
    return emit(cert, a.format)


def _write_paths(a) -> list:
    """The ``--write-*`` paths, refused before any work: at a level only; the parent must exist, the path must not
    be a directory."""
    writes = [(flag, path) for flag, path in (("--write-mechanism", a.write_mechanism),
                                              ("--write-metric", a.write_metric)) if path]
    if writes and a.all_eps:
        raise usage("--write-mechanism and --write-metric write the matrix at a level: give --eps or --alpha")
    for flag, path in writes:
        parent = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path) or not os.path.isdir(parent):
            raise usage(f"{flag} {path!r}: " + ("a directory" if os.path.isdir(path) else
                                               f"the directory {parent!r} does not exist"))
    return writes


def _write_matrix(a, program, domain, relation) -> None:
    """``--write-mechanism`` / ``--write-metric``: the compiled matrix at the level (a mechanism file) and the
    relation's graph (a metric file, neighbours at distance 1), the inputs of ``exactdp profile``, ``renyi`` and
    ``fdp``.  Those certificates are about the matrix; that it is the program's is what the ``program``
    certificate printed here states (and its re-check re-derives)."""
    import json

    from ..programs import input_label, load_pairs, neighbour_pairs
    from ..programs.check import level_mechanism
    from ..programs.language import at_level, eps_scaled

    inputs, pairs = (neighbour_pairs(relation, a.n, domain) if isinstance(relation, str)
                     else load_pairs(relation, a.n, domain))
    if eps_scaled(program):
        from fractions import Fraction
        program = at_level(program, Fraction(a.eps))      # a rational eps0: program_certificate accepted it
    what = relation if isinstance(relation, str) else f"{len(pairs)} explicit pairs"
    level = f"eps0 = {a.eps}" if a.eps is not None else f"alpha = {a.alpha}"
    mech = level_mechanism(program, inputs, eps=a.eps, alpha=a.alpha,
                           name=f"program {program.name} (n = {a.n}, inputs {domain[0]}..{domain[1]}, {what}) "
                                f"at {level}")
    out = []
    if a.write_mechanism:
        out.append((a.write_mechanism, {"name": mech.name, "provenance": mech.provenance, **mech.to_json()},
                    f"{len(mech.inputs)} x {len(mech.outputs)} mechanism"))
    if a.write_metric:
        out.append((a.write_metric, {"kind": "graph", "nodes": [input_label(x) for x in inputs],
                                     "edges": [[input_label(x), input_label(y)] for x, y in pairs]},
                    f"graph of {len(pairs)} neighbour pairs"))
    for path, obj, said in out:
        try:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(obj, f, indent=1)
                f.write("\n")
        except OSError as e:
            raise usage(f"{path!r}: {e.strerror or type(e).__name__}") from None
        sys.stderr.write(f"wrote {path}: {said}\n")


def _register_program(sub):
    p = sub.add_parser("program", help="exact privacy of a noise program (report noisy max, sparse vector, ...) for "
                                       "every eps, or its exact cost at a level")
    p.add_argument("file", help="the program (text form, see docs/programs.md)")
    p.add_argument("--n", type=int, required=True, help="number of queries q_1..q_n")
    p.add_argument("--domain", default="0..2", help="range LO..HI of every query answer (default 0..2)")
    p.add_argument("--relation", default="all-differ",
                   help="all-differ, one-differ, increasing, decreasing, or a JSON file of pairs [[x, x'], ...]")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--eps", help="the level eps0: noise calibrated to eps0, privacy checked at eps0")
    g.add_argument("--alpha", help="the level as alpha = e^(-eps0)")
    g.add_argument("--all-eps", action="store_true", help="decide for every eps > 0 at once")
    p.add_argument("--cost", action="store_true", help="with --eps/--alpha: the exact smallest eps of the program "
                                                       "compiled at eps0 (inf: not private for any eps)")
    p.add_argument("--form", choices=("auto", "matrix", "product", "linear"), default="auto",
                   help="how the program certificate proves its claim: auto (product, then for every eps the noisy "
                        "linear queries, then the compiled matrix), or that form only (exit 2 when it does not "
                        "apply)")
    p.add_argument("--write-mechanism", metavar="FILE",
                   help="with --eps/--alpha: also write the compiled matrix at that level as a mechanism file (for "
                        "exactdp profile, renyi, fdp)")
    p.add_argument("--write-metric", metavar="FILE",
                   help="also write the relation's graph as a metric file (neighbours at distance 1)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--quiet", action="store_true", help="no progress line on the terminal")
    p.set_defaults(fn=_cmd_program)


COMMANDS = {"program": _register_program}
