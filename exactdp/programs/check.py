"""From a program to a certified answer: neighbour relations, the compiled mechanism, the checkers.

The compiled mechanism has one row per input vector ``x`` (label ``"x_1,...,x_n"``) and one column per output
label; its entries are the exact output probabilities written in ``alpha = e^(-eps)``: ``t^k`` is
``exp(-k eps / L)``, so the existing checkers (:func:`~exactdp.certify.certify_all_eps`,
:func:`~exactdp.certify.certify_privacy`, :func:`~exactdp.certify.smallest_epsilon`) decide the program's
privacy with the noise calibrated to the same eps that is checked.  A neighbour relation is the undirected graph
whose edges are the neighbour pairs; privacy on its shortest-path metric is privacy on the edges (ECP14 sec. 3.2),
so the certificate's metric is that graph.

>>> from exactdp.programs import parse_program
>>> p = parse_program("z = dlap(1)\\noutput clamp(q[1] + z, 0, 1)\\n")
>>> certify_program(p, n=1, domain=(0, 1), relation="all-differ").holds
True
"""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_poly

from ..privacy import certify_all_eps, certify_privacy, smallest_epsilon
from ..errors import InputTooLarge, InvalidInput, UnsupportedRegime
from ..exact.expo import ExpFrac
from ..exact.level import level_of
from ..exact.lin import Lin
from ..mechanism import Mechanism
from .compile import MAX_PATHS, base_power, output_distribution
from .language import Program, at_level, eps_scaled
from .linear import linear_form
from .product import independent_iterations, product_form
from .ratfunc import RatFunc

__all__ = ["MAX_INPUTS", "RELATIONS", "certify_program", "input_label", "level_mechanism", "neighbour_pairs",
           "program_certificate", "program_mechanism", "rational_base", "relation_metric"]

#: the named neighbour relations (a JSON file of pairs is the other form)
RELATIONS = ("all-differ", "one-differ", "increasing", "decreasing")
#: most input vectors compiled
MAX_INPUTS = 20_000


def input_label(x) -> str:
    """The row label of the input vector ``x``.

    Parameters
    ----------
    x : sequence of int
        The query answers.

    Returns
    -------
    str
        The answers joined by commas.

    Examples
    --------
    >>> input_label((0, 1, 2))
    '0,1,2'
    """
    return ",".join(str(int(v)) for v in x)


def neighbour_pairs(relation: str, n: int, domain: tuple[int, int]) -> tuple[list, list]:
    """The inputs and the unordered neighbour pairs of a named relation on ``{lo..hi}^n``.

    ``all-differ``: ``x != x'`` and ``|x_i - x'_i| <= 1`` for every ``i``; ``one-differ``: exactly one
    coordinate differs, by one; ``increasing``: ``x'_i - x_i`` in ``{0, 1}`` for every ``i`` (``x != x'``);
    ``decreasing``: in ``{-1, 0}``.  Privacy constrains both orders of a pair, so ``increasing`` and
    ``decreasing`` give the same unordered pairs (the monotone neighbours of Lyu et al. 2017 sec. 4).

    Parameters
    ----------
    relation : str
        One of :data:`RELATIONS`.
    n : int
        Number of queries (``>= 1``).
    domain : (int, int)
        ``(lo, hi)`` with ``lo <= hi``.

    Returns
    -------
    (list, list)
        The input tuples (lexicographic) and the pairs ``(x, x')`` with ``x < x'``.

    Raises
    ------
    InvalidInput
        An unknown relation, ``n < 1``, an empty domain, or more than :data:`MAX_INPUTS` inputs.

    Examples
    --------
    >>> neighbour_pairs("one-differ", 2, (0, 1))[1]
    [((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1))]
    >>> len(neighbour_pairs("all-differ", 2, (0, 1))[1])
    6
    """
    lo, hi = domain
    if relation not in RELATIONS:
        raise InvalidInput(f"relation: expected one of {', '.join(RELATIONS)} or a JSON file of pairs, "
                           f"got {relation!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidInput(f"n: expected an integer >= 1, got {n!r}")
    if lo > hi:
        raise InvalidInput(f"domain: expected lo <= hi, got {lo}..{hi}")
    size = hi - lo + 1
    # the count is compared by its logarithm first: (hi - lo + 1)^n itself has billions of digits at n = 10^10
    if (size > 1 and n * (size.bit_length() - 1) > MAX_INPUTS.bit_length()) or size ** min(n, 64) > MAX_INPUTS:
        raise InputTooLarge(f"domain {lo}..{hi} with n = {n}: {size}^{n} inputs exceed the limit {MAX_INPUTS}; "
                            "give explicit pairs")
    inputs = list(itertools.product(range(lo, hi + 1), repeat=n))
    pairs = []
    for a, b in itertools.combinations(inputs, 2):
        d = [y - x for x, y in zip(a, b, strict=True)]
        if relation == "all-differ":
            ok = all(abs(v) <= 1 for v in d)
        elif relation == "one-differ":
            ok = sum(1 for v in d if v) == 1 and all(abs(v) <= 1 for v in d)
        else:  # monotone: all steps in {0, 1} or all in {-1, 0}; a < b lexicographically, so either may occur
            ok = all(v in (0, 1) for v in d) or all(v in (-1, 0) for v in d)
        if ok:
            pairs.append((a, b))
    return inputs, pairs


def load_pairs(data: Any, n: int, domain: tuple[int, int] | None = None) -> tuple[list, list]:
    """Inputs and pairs from explicit JSON data: ``[[x, x'], ...]`` or ``{"pairs": [...]}`` (as DiPC takes them).

    Parameters
    ----------
    data : list or dict
        The parsed JSON.
    n : int
        Number of queries (the length of every vector).
    domain : (int, int), optional
        When given, every answer must lie in it.

    Returns
    -------
    (list, list)
        The inputs (in order of first appearance) and the pairs.

    Raises
    ------
    InvalidInput
        Data not of that shape, a vector of the wrong length or outside the domain, or a pair of equal vectors.

    Examples
    --------
    >>> load_pairs([[[0, 1], [1, 0]]], 2)
    ([(0, 1), (1, 0)], [((0, 1), (1, 0))])
    >>> load_pairs([[[0], [0]]], 1)
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: pairs: pair 1 is (0,) twice; a pair joins two different inputs
    """
    if isinstance(data, dict):
        data = data.get("pairs")
    if not isinstance(data, list) or not data:
        raise InvalidInput("pairs: expected a non-empty JSON list of [x, x'] pairs (or {\"pairs\": [...]})")
    seen: dict = {}
    pairs = []
    for k, pr in enumerate(data, 1):
        if not (isinstance(pr, list) and len(pr) == 2):
            raise InvalidInput(f"pairs: pair {k} is not a list of two input vectors")
        vecs = []
        for v in pr:
            if not (isinstance(v, list) and len(v) == n and all(type(c) is int for c in v)):
                raise InvalidInput(f"pairs: pair {k}: expected two lists of {n} integers, got {v!r}")
            if domain is not None and not all(domain[0] <= c <= domain[1] for c in v):
                raise InvalidInput(f"pairs: pair {k}: {v} leaves the domain {domain[0]}..{domain[1]}")
            vecs.append(tuple(v))
        if vecs[0] == vecs[1]:
            raise InvalidInput(f"pairs: pair {k} is {vecs[0]} twice; a pair joins two different inputs")
        for v in vecs:
            seen.setdefault(v, None)
        pairs.append((vecs[0], vecs[1]))
    return list(seen), pairs


def relation_metric(inputs: list, pairs: list, length: int = 1):
    """The shortest-path metric of the neighbour graph (edges = pairs, one node per input).

    Parameters
    ----------
    inputs : list of tuple
        The input vectors (the points).
    pairs : list of (tuple, tuple)
        The neighbour pairs (the edges).
    length : int, default 1
        The length of every edge.

    Returns
    -------
    FiniteMetric
        Points labelled by :func:`input_label`.

    Examples
    --------
    >>> relation_metric([(0,), (1,), (2,)], [((0,), (1,))]).distance("0", "1")
    1
    """
    import networkx as nx

    from ..metrics import from_graph

    G = nx.Graph()
    G.add_nodes_from(input_label(x) for x in inputs)
    G.add_edges_from(((input_label(a), input_label(b)) for a, b in pairs), w=length)
    return from_graph(G, weight="w" if length != 1 else None)


def _to_expfrac(v: RatFunc, L: int, den: fmpq_poly | None = None):
    """``v(t)`` with ``t = exp(-eps/L)``: an exact rational, or an :class:`ExpFrac` in eps (``L = 1``: ``t`` is
    written as ``alpha`` itself); with ``den`` (a multiple of ``v.den``) written over ``den``, not reduced."""
    if v.num == 0:
        return fmpq(0)
    num, den_v = v.num, v.den
    if den is not None and den != v.den:
        num, den_v = v.num * (den // v.den), den     # den is a multiple of v.den: the division is exact
    if den_v == 1 and num.degree() <= 0:
        return fmpq(num[0]) if num.degree() == 0 else fmpq(0)

    def d(p):
        return {(Lin.eps() * fmpq(-k, L) if k else Lin()): fmpq(p[k]) for k in range(p.degree() + 1) if p[k] != 0}
    return ExpFrac(d(num), d(den_v))


def _column_denominator(dists: list, z: str) -> fmpq_poly | None:
    """The lcm of the (monic) denominators of the nonzero entries of column ``z``; ``None`` when it is 1."""
    den = None
    for dist in dists:
        v = dist.get(z)
        if v is None or v.num == 0 or v.den.degree() <= 0:
            continue
        den = v.den if den is None else den * v.den // den.gcd(v.den)
    if den is None:
        return None
    lead = den[den.degree()]
    return den / lead if lead != 1 else den


def _root(v: int, L: int) -> int | None:
    r = round(v ** (1 / L)) if v < 2**1000 else None
    if r is None:
        return None
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**L == v:
            return c
    return None


def rational_base(alpha: fmpq, L: int) -> fmpq | None:
    """``t = alpha^(1/L)`` when it is rational, else ``None``.

    Parameters
    ----------
    alpha : fmpq
        A rational level ``alpha = e^(-eps)``.
    L : int
        The program's base power (:func:`~exactdp.programs.compile.base_power`).

    Returns
    -------
    fmpq or None
        The exact rational root, if there is one.

    Examples
    --------
    >>> rational_base(fmpq(1, 16), 4), rational_base(fmpq(1, 2), 4)
    (1/2, None)
    """
    p, q = _root(int(alpha.p), L), _root(int(alpha.q), L)
    return fmpq(p, q) if p is not None and q is not None else None


def program_mechanism(program: Program, inputs: list, *, max_paths: int = MAX_PATHS, t: fmpq | None = None,
                      name: str | None = None, base_as_alpha: bool = False) -> Mechanism:
    """The compiled mechanism of ``program`` on ``inputs``, exact for every eps (a symbolic alpha).

    Parameters
    ----------
    program : Program
        The parsed program.
    inputs : list of tuple of int
        The input vectors (rows).
    max_paths : int
        Most paths per input (:data:`~exactdp.programs.compile.MAX_PATHS`).
    t : fmpq, optional
        A rational base ``t = e^(-eps/L)``: the entries are then the exact rationals at ``t``.
    name : str, optional
        The mechanism's name (default: the program's).
    base_as_alpha : bool, default False
        Write the base ``t`` itself as ``alpha`` (entries polynomials in alpha; the privacy level is then
        ``eps/L`` and every neighbour pair must be put at distance ``L``, see :func:`certify_program`).

    Returns
    -------
    Mechanism
        Rows the inputs, columns every output label seen (sorted), entries the exact probabilities in
        ``alpha = e^(-eps)``.  Validated exactly (rows sum to 1 as identities).

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> K = program_mechanism(parse_program("output argmax(q + geo(1))"), [(0, 0), (0, 1)])
    >>> K.outputs, str(K.entry("0,0", "2"))
    (('1', '2'), 'alpha/(1 + alpha)')
    """
    L = base_power(program)
    Lw = 1 if base_as_alpha else L
    dists = [output_distribution(program, x, max_paths=max_paths) for x in inputs]
    outputs = sorted({z for d in dists for z in d}, key=lambda z: (len(z), z))
    intern: dict = {}
    values: list = []
    codes = []
    zero = RatFunc(0)
    # Symbolic entries of one column are written over one denominator (the lcm of the column's reduced
    # denominators): the all-eps check compares entries of the same column only, alpha^(-d) K(x')(z) - K(x)(z),
    # and with equal denominators that difference is a sum of numerators instead of two dense products of
    # degree-hundreds exponential polynomials (47 of 52 s for svt1 at n = 25 on one pair).  Values unchanged.
    col_den = {z: _column_denominator(dists, z) for z in outputs} if t is None else {}
    for d in dists:
        row = []
        for z in outputs:
            v = d.get(z, zero)
            # integer coefficients and denominators hash fast (str() of an fmpq_poly and the hash of an fmpq
            # cost 10-20 times more: 80% of the time for hist at n = 3)
            key: tuple = (tuple(v.num.numer().coeffs()), v.num.denom(), tuple(v.den.numer().coeffs()),
                          v.den.denom())
            cd = col_den.get(z)
            if cd is not None and cd != v.den:   # written over the column's denominator: a different form
                key = (key, tuple(cd.numer().coeffs()), cd.denom())
            if key not in intern:
                intern[key] = len(values)
                if t is not None:
                    values.append(fmpq(v.num(t)) / fmpq(v.den(t)))
                else:
                    values.append(_to_expfrac(v, Lw, cd))
            row.append(intern[key])
        codes.append(row)
    K = Mechanism([input_label(x) for x in inputs], outputs, codes, values, name=name or program.name,
                  validate=False,
                  provenance=f"noise program {program.name} compiled exactly (t = exp(-eps/{L}))")
    # Stochastic by construction, for every eps: each row sums to exactly 1 as an identity in t (checked by
    # output_distribution, which refuses otherwise), and each entry is a sum of probabilities of disjoint runs,
    # each a product of closed-form sums of non-negative series.  Re-validating through the ExpFrac form cost
    # 30 s at n = 12 (sparse exponential sums); tests/programs/test_check.py validates compiled mechanisms the slow
    # way and compares.
    K.validated = True
    return K


def certify_program(program: Program, *, n: int, domain: tuple[int, int] = (0, 2), relation: Any = "all-differ",
                    eps: Any = None, alpha: Any = None, cost: bool = False):
    """Decide the privacy of a noise program exactly and return the certificate.

    Parameters
    ----------
    program : Program
        The parsed program.
    n : int
        Number of queries.
    domain : (int, int), default (0, 2)
        The range ``lo..hi`` of every query answer.
    relation : str or list
        A name of :data:`RELATIONS`, or explicit pairs (``[[x, x'], ...]``, see :func:`load_pairs`).
    eps, alpha : exact number, optional
        A level ``eps0``: with ``cost=False`` the privacy certificate at ``eps0`` (the noise calibrated to
        ``eps0``, privacy checked at ``eps0``); with ``cost=True`` the exact smallest eps of the mechanism
        compiled at ``eps0`` (``inf``: not private for any eps).  Without a level: the ``all_eps``
        certificate, private for every eps or the exact set of eps where it fails.
    cost : bool, default False
        See ``eps``.

    Returns
    -------
    Certificate
        Kind ``all_eps``, ``privacy`` or ``epsilon`` of the compiled mechanism on the relation's graph.

    Raises
    ------
    InvalidInput
        A program or relation refused (with the place), or beyond the limits.

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> p = parse_program("s = q[1] + q[2]\\nz = dlap(1)\\noutput clamp(s + z, 0, 4)\\n")
    >>> certify_program(p, n=2, domain=(0, 1), relation="one-differ").holds
    True
    >>> c = certify_program(p, n=2, domain=(0, 1), relation="all-differ", eps="1", cost=True)
    >>> c.evidence.epsilon
    '2'
    """
    if isinstance(relation, str):
        inputs, pairs = neighbour_pairs(relation, n, domain)
    else:
        inputs, pairs = load_pairs(relation, n, domain)
    if not pairs:
        raise InvalidInput("relation: no neighbour pairs on these inputs; nothing to check")
    metric = relation_metric(inputs, pairs)
    what = relation if isinstance(relation, str) else f"{len(pairs)} explicit pairs"
    name = f"program {program.name} (n = {n}, inputs {domain[0]}..{domain[1]}, {what})"
    program = _resolve_eps_scaled(program, eps, alpha)
    if eps is None and alpha is None:
        if cost:
            raise InvalidInput("cost: the exact privacy cost is taken at a level; give eps or alpha")
        L = base_power(program)
        if L == 1:
            return certify_all_eps(program_mechanism(program, inputs, name=name), metric)
        # The kernel re-checks statements for every eps on entries polynomial in alpha itself.  With u = e^(-eps/L)
        # written as alpha, eps-privacy on the pairs is (eps/L)-privacy at distance L: the same statement for
        # every eps > 0, and a failure set in u (alpha = u^L).
        mech = program_mechanism(program, inputs, base_as_alpha=True,
                                 name=f"{name}, written in u = e^(-eps/{L}) as alpha, every pair at distance {L}")
        return certify_all_eps(mech, relation_metric(inputs, pairs, length=L))
    fixed = level_mechanism(program, inputs, eps=eps, alpha=alpha, name=name)
    if cost:
        return smallest_epsilon(fixed, metric)
    a = level_of(eps, alpha).alpha()
    if isinstance(a, fmpq):
        return certify_privacy(fixed, metric, alpha=a)
    return certify_privacy(fixed, metric, eps=eps, alpha=alpha)


def level_mechanism(program: Program, inputs: list, *, eps: Any = None, alpha: Any = None,
                    name: str | None = None) -> Mechanism:
    """The compiled mechanism of ``program`` with its noise at a level.

    Exact rationals at a rational ``alpha`` whose ``L``-th root is rational, exact exponential values otherwise
    (``Mechanism.at``).

    Parameters
    ----------
    program : Program
        The parsed program (a noise proportional to eps already put at its level).
    inputs : list of tuple of int
        The input vectors (rows).
    eps, alpha : exact number
        The level (one of them).
    name : str, optional
        The mechanism's name.

    Returns
    -------
    Mechanism
        The matrix at the level (the input of the profile, Renyi and f-DP checkers).

    Raises
    ------
    UnsupportedRegime
        At an ``alpha`` whose ``L``-th root is irrational (the entries are not numbers of one field there).

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> K = level_mechanism(parse_program("output argmax(q + geo(1))"), [(0, 0), (0, 1)], alpha="1/2")
    >>> str(K.entry("0,0", "2")), str(K.entry("0,1", "2"))
    ('1/3', '2/3')
    """
    level = level_of(eps, alpha)
    a = level.alpha()
    if isinstance(a, fmpq):
        L = base_power(program)
        t = rational_base(a, L)
        if t is None:
            raise UnsupportedRegime(f"the program's entries are rational functions of t = alpha^(1/{L}), irrational "
                                    f"at alpha = {a}; give eps, or an alpha whose {L}-th root is rational "
                                    f"(e.g. 1/{2 ** L})")
        return program_mechanism(program, inputs, t=t, name=name)
    mech = program_mechanism(program, inputs, name=name)
    try:
        return mech.at(level)
    except UnsupportedRegime as e:
        L = base_power(program)
        raise UnsupportedRegime(f"{e}: the program's entries are rational functions of t = alpha^(1/{L}); give "
                                f"eps, or an alpha whose {L}-th root is rational (e.g. 1/{2 ** L})") from None


def _resolve_eps_scaled(program: Program, eps: Any, alpha: Any) -> Program:
    """A program with a noise of scale proportional to eps, put at its rational level ``eps0`` (:func:`at_level`);
    any other program unchanged.  Without a rational eps0 it is refused with one line: its base
    ``e^(-1/(b eps))`` is no power of ``e^(-eps)``, so the every-eps route does not apply (``hist_eps``)."""
    if not eps_scaled(program):
        return program
    if eps is None:
        raise UnsupportedRegime(f"program {program.name}: a noise of scale proportional to eps has base "
                                "e^(-1/(b eps)), not a rational function of alpha = e^(-eps): decided at a rational "
                                "level only (give eps)")
    try:
        e0 = Fraction(str(eps))
    except (ValueError, ZeroDivisionError):
        e0 = Fraction(0)
    if e0 <= 0:
        raise UnsupportedRegime(f"program {program.name}: a noise of scale proportional to eps is compiled at a "
                                f"positive rational eps0 only, got {eps!r}")
    return at_level(program, e0)


def read_pairs_file(path: str, n: int, domain: tuple[int, int] | None = None) -> tuple[list, list]:
    """:func:`load_pairs` from a JSON file.

    Parameters
    ----------
    path : str
        The file.
    n : int
        Number of queries.
    domain : (int, int), optional
        The range of every answer.

    Returns
    -------
    (list, list)
        The inputs and the pairs.

    Raises
    ------
    InvalidInput
        A file that cannot be read, is not JSON (with its line and column), or not pairs.

    Examples
    --------
    >>> import json, os, tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     json.dump([[[0], [1]]], f)
    >>> read_pairs_file(f.name, 1)
    ([(0,), (1,)], [((0,), (1,))])
    >>> os.unlink(f.name)
    """
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise InvalidInput(f"pairs file {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise InvalidInput(f"pairs file {path}: line {e.lineno}, column {e.colno}: {e.msg}") from None
    return load_pairs(data, n, domain)


def _coeffs(p) -> list[str]:
    """The integer coefficients (lowest first) of an fmpq_poly whose denominator has been cleared."""
    return [str(int(c)) for c in p.coeffs()] or ["0"]


def _program_claim(name: str, n: int, domain, relation: str, pairs, verdict: str, never: bool, witness,
                   L: int, question: str = "all_eps", level: str | None = None, fs_text: str | None = None) -> str:
    rel = relation if relation != "pairs" else f"{len(pairs or [])} explicit pairs"
    head = f"program {name} (n = {n}, inputs {domain[0]}..{domain[1]}, {rel})"
    w = witness
    if question == "at_level":
        if verdict == "holds":
            return f"{head} with its noise at eps0 = {level} is eps0-DP"
        return (f"{head} with its noise at eps0 = {level} is not eps0-DP: output {w.output} has "
                f"P(x = {w.x}) > e^eps0 P(x = {w.x_prime})")
    if question == "cost":
        if verdict == "holds":
            return (f"{head} with its noise at eps0 = {level} has smallest eps = log(K_x(z)/K_x'(z)) at "
                    f"x = {w.x}, x' = {w.x_prime}, z = {w.output}")
        return (f"{head} with its noise at eps0 = {level} is not eps-DP for any eps: output {w.output} has "
                f"positive probability on {w.x} and probability 0 on {w.x_prime}")
    if verdict == "holds":
        return f"{head} is eps-DP for every eps > 0"
    if never:
        return (f"{head} is not eps-DP for any eps > 0: output {witness.output} has positive probability on "
                f"{witness.x} and probability 0 on {witness.x_prime}")
    return (f"{head} is not eps-DP for every eps: at eps = {L}*log(1/({witness.u})) output {witness.output} has "
            f"P(x = {witness.x}) > e^eps P(x = {witness.x_prime}); it fails exactly for u = e^(-eps/{L}) in "
            f"{fs_text}")


def program_certificate(program: Program, *, n: int, domain: tuple[int, int] = (0, 2), relation: Any = "all-differ",
                        eps: str | None = None, cost: bool = False, alpha: str | None = None, form: str = "auto"):
    """The ``program`` certificate: private for every eps, or where it fails, stated about the program text.

    The verdict is :func:`certify_program`'s (the all-eps route on the compiled matrix); the certificate carries
    the program text, ``n``, the domain and the relation as its definitional inputs, so the re-check
    (:mod:`exactdp.recheck.program`) re-derives the matrix from the text itself.

    Parameters
    ----------
    program : Program
        The parsed program.
    n : int
        Number of queries.
    domain : (int, int), default (0, 2)
        The range of every query answer.
    relation : str or list
        A name of :data:`RELATIONS`, or explicit pairs (``[[x, x'], ...]``).
    eps : str, optional
        A level ``eps0``, a positive rational: the question is then private at ``eps0`` (noise calibrated to
        ``eps0``), or with ``cost`` the smallest eps of the program with its noise at ``eps0``.
    cost : bool, default False
        See ``eps``.
    alpha : str, optional
        The level as a rational ``alpha = e^(-eps0)`` in ``(0, 1)`` instead of ``eps``, whose ``L``-th root is
        rational (the entries are then exact rationals): ``eps0 = log(1/alpha)``, written ``log(R)`` as the level.
    form : str, default "auto"
        How the claim is proved (the evidence's ``form``): ``auto`` takes the ``product`` form when it applies,
        then (for every eps) the ``linear`` form when it proves privacy, else the compiled ``matrix``; naming a
        form forces it (``InvalidInput`` when it does not apply).

    Returns
    -------
    Certificate
        Kind ``program``: holds (private for every eps > 0) or fails with a witness pair, output and a rational
        ``u = e^(-eps/L)`` (or ``never``: an output possible on one input and impossible on its neighbour).

    Examples
    --------
    >>> from exactdp.programs import parse_program
    >>> p = parse_program("s = q[1] + q[2]\\nz = dlap(1)\\noutput clamp(s + z, 0, 4)\\n", "sum")
    >>> c = program_certificate(p, n=2, domain=(0, 1), relation="all-differ")
    >>> c.verdict.value, c.evidence.witness.x, c.evidence.witness.x_prime
    ('fails', '0,0', '1,1')
    >>> program_certificate(p, n=2, domain=(0, 1), relation="one-differ").claim
    'program sum (n = 2, inputs 0..1, one-differ) is eps-DP for every eps > 0'
    """
    from ..certificate import UNDECIDED, Certificate, Method
    from .evidence import ProgramEvidence, ProgramWitness
    from ..certificate.records import IntMatrix

    if eps is None and alpha is None and cost:
        raise InvalidInput("cost: the exact privacy cost is taken at a level; give eps")
    if eps is not None and alpha is not None:
        raise InvalidInput("eps and alpha: give one level")
    resolved = _resolve_eps_scaled(program, eps, alpha)     # the text is carried as written; its matrix at eps0
    L = base_power(resolved)
    route = _form_route(program, resolved, n, domain, relation, L, form, eps is None and alpha is None)
    if isinstance(route, Certificate):
        return route
    if route is not None:
        inner, inputs, pairs, dists, rel, pair_data, lift = route
    else:
        inputs, pairs, rel, pair_data = _relation_of(relation, n, domain)
        dists = [output_distribution(resolved, x) for x in inputs]
        inner, lift = (n, relation), None
    outputs = sorted({z for d in dists for z in d}, key=lambda z: (len(z), z))
    values, codes = _carried_matrix(dists, outputs)
    labels = [input_label(x) for x in inputs]
    if eps is not None or alpha is not None:
        return _level_certificate(program, n, domain, inner, rel, pair_data, L, labels, outputs, values, codes,
                                  _level_of(eps, alpha, L), cost, lift)
    witness, undecided = _never_witness(inputs, pairs, outputs, dists), None
    never = witness is not None         # an output possible on one side, impossible on the other: never private
    pieces = [_whole()] if never else None
    if not never:
        witness, undecided, pieces = _all_eps_witness(program, inner[0], domain, inner[1])
    if witness is not None and lift is not None:
        x, y, z = lift(witness.x, witness.x_prime, witness.output)
        witness = ProgramWitness(x, y, z, witness.u)
    verdict = "holds" if witness is None else "fails"
    text = _set_text(pieces)
    ev = ProgramEvidence(name=program.name, text=program.text, n=n, domain=[int(domain[0]), int(domain[1])],
                         relation=rel, pairs=pair_data, question="all_eps", base_power=L, inputs=labels,
                         outputs=list(outputs), values=values, codes=IntMatrix(codes), never=never, witness=witness,
                         failure_set=pieces, failure_set_text=text, form="matrix" if route is None else "product")
    claim = _program_claim(program.name, n, domain, rel, pair_data, verdict, never, witness, L, fs_text=text)
    if undecided is not None:
        return Certificate("program", UNDECIDED, Method.NONE, claim, ev, reason=undecided)
    return Certificate("program", verdict == "holds", Method.SYMBOLIC_ROOTS, claim, ev)


def _relation_of(relation: Any, n: int, domain: tuple[int, int]) -> tuple[list, list, str, list | None]:
    """``(inputs, pairs, rel, pair_data)``: a named relation, or explicit pairs (carried in the certificate)."""
    if isinstance(relation, str):
        inputs, pairs = neighbour_pairs(relation, n, domain)
        rel, pair_data = relation, None
    else:
        inputs, pairs = load_pairs(relation, n, domain)
        rel, pair_data = "pairs", [[list(a), list(b)] for a, b in pairs]
    if not pairs:
        raise InvalidInput("relation: no neighbour pairs on these inputs; nothing to check")
    return inputs, pairs, rel, pair_data


def _form_route(program, resolved, n, domain, relation, L, form, every_eps):
    """The proof form asked for: the product route (:func:`_product_route`), the linear form's certificate, or
    None for the compiled matrix; ``InvalidInput`` when a form named does not apply."""
    if form not in ("auto", "matrix", "product", "linear"):
        raise InvalidInput(f"form: expected auto, matrix, product or linear, got {form!r}")
    # a product program on a one-coordinate relation is decided on its single iteration (programs/product.py):
    # the question is asked of K_1 on the value pairs, and the witness lifted to n
    route = _product_route(resolved, n, domain, relation) if form in ("auto", "product") else None
    if form == "product" and route is None:
        raise InvalidInput("form product: the program's iterations are not independent, or a pair of the relation "
                           "differs in several coordinates")
    if route is None and form in ("auto", "linear") and every_eps:
        cert = _linear_certificate(program, n, domain, relation, L)
        if cert is not None:
            return cert
    if form == "linear":
        raise InvalidInput("form linear: the program is not a post-processing of noisy linear queries whose bound "
                           "sum_k |L_k d| / b_k is at most 1 on every pair (the form states privacy for every eps)")
    return route


def _linear_certificate(program: Program, n: int, domain: tuple[int, int], relation: Any, L: int):
    """The ``linear`` form's certificate (private for every eps by :mod:`.linear`), or None when it proves nothing."""
    from ..certificate import Certificate, Method
    from ..certificate.records import IntMatrix
    from .evidence import ProgramEvidence

    if domain[0] >= domain[1]:
        return None                              # no pairs: the general route says so
    rel_pairs: Any
    if isinstance(relation, str):
        rel, pair_data, rel_pairs = relation, None, relation
    else:
        _, rel_pairs, rel, pair_data = _relation_of(relation, n, domain)
    lf = linear_form(program, n, domain, rel_pairs)
    if lf is None or not lf.private:
        return None
    forms = [[site, it, *f] for (site, it), f in sorted(lf.forms.items())]
    ev = ProgramEvidence(name=program.name, text=program.text, n=n, domain=[int(domain[0]), int(domain[1])],
                         relation=rel, pairs=pair_data, question="all_eps", base_power=L, inputs=[], outputs=[],
                         values=[], codes=IntMatrix([]), never=False, witness=None, form="linear", noise_forms=forms)
    claim = _program_claim(program.name, n, domain, rel, pair_data, "holds", False, None, L)
    return Certificate("program", True, Method.RATIONAL, claim, ev)


def _product_route(program: Program, n: int, domain: tuple[int, int], relation: Any):
    """The product route of :mod:`.product`, or None: ``((1, value pairs), inputs, pairs, dists, rel, pair_data,
    lift)`` with the inputs, pairs and distributions those of the single iteration ``K_1``."""
    if n < 2 or independent_iterations(program) is not None:
        return None
    rel_pairs: Any
    if isinstance(relation, str):
        if relation != "one-differ" or domain[0] >= domain[1]:
            return None                      # several coordinates, or no pairs (the general route says so)
        rel, pair_data, rel_pairs = relation, None, relation
    else:
        _, rel_pairs, rel, pair_data = _relation_of(relation, n, domain)
    inputs = [(v,) for v in range(domain[0], domain[1] + 1)]
    dists = [output_distribution(program, x) for x in inputs]
    outputs = sorted({z for d in dists for z in d}, key=lambda z: (len(z), z))
    form = product_form(program, n, domain, rel_pairs, dists, outputs)
    if form is None:
        return None
    pairs1 = [((a,), (b,)) for a, b in form.pairs1]
    inner = (1, [[[a], [b]] for a, b in form.pairs1])
    return inner, inputs, pairs1, dists, rel, pair_data, form.lift


def _carried_matrix(dists: list, outputs: list) -> tuple[list, list]:
    """``(values, codes)``: each distinct entry once as integer ``[numerator, denominator]`` coefficient lists, and
    every input's row as indices into them (the certificate's compact matrix)."""
    intern: dict = {}
    values: list = []
    codes = []
    zero = RatFunc(0)
    for d in dists:
        row = []
        for z in outputs:
            v = d.get(z, zero)
            # clear the rational coefficients: N/D = (num.numer() * den.denom()) / (den.numer() * num.denom())
            key = ([*_coeffs(v.num.numer() * v.den.denom())], [*_coeffs(v.den.numer() * v.num.denom())])
            k = repr(key)
            if k not in intern:
                intern[k] = len(values)
                values.append([key[0], key[1]])
            row.append(intern[k])
        codes.append(row)
    return values, codes


def _never_witness(inputs: list, pairs: list, outputs: list, dists: list):
    """The first ordered pair and output possible on one side and impossible on the other (never private for any
    eps), as a witness with u ``"-"``; None when there is none."""
    from .evidence import ProgramWitness

    idx = {x: i for i, x in enumerate(inputs)}
    zero = RatFunc(0)
    for a, b in pairs:
        for x, y in ((a, b), (b, a)):
            for z in outputs:
                kx, ky = dists[idx[x]].get(z, zero), dists[idx[y]].get(z, zero)
                if not kx.is_zero() and ky.is_zero():
                    return ProgramWitness(input_label(x), input_label(y), z, "-")
    return None


def _set_text(pieces) -> str | None:
    """The failure set's text from its pieces (the ``all_eps`` kind's ``AlphaSet`` text), None without one."""
    if pieces is None:
        return None
    return " U ".join(f"{{{p.lo}}}" if p.point else f"{'[' if p.lo_closed else '('}{p.lo}, {p.hi}"
                      f"{']' if p.hi_closed else ')'}" for p in pieces) or "{}"


def _whole():
    from ..privacy.evidence import Piece
    return Piece(lo="0", hi="1", point=False, lo_closed=False, hi_closed=False, lo_approx="0", hi_approx="1")


def _all_eps_witness(program: Program, n: int, domain: tuple[int, int], relation: Any):
    """``(witness, undecided, pieces)`` from :func:`certify_program` (the all-eps route on the compiled matrix): a
    failure's witness at its rational sample ``u`` and the exact failure set of ``u`` (None when private), or the
    reason it is undecided."""
    from .evidence import ProgramWitness

    witness, pieces = None, None
    inner = certify_program(program, n=n, domain=domain, relation=relation)
    undecided = inner.reason if inner.verdict.value == "undecided" else None
    if inner.verdict.value == "fails":
        w = inner.evidence.witness
        if w is None or inner.evidence.sample_alpha is None:
            raise UnsupportedRegime(f"program {program.name}: fails only at irrational u; no rational witness")
        witness = ProgramWitness(w.x, w.x_prime, w.output, inner.evidence.sample_alpha)
        pieces = list(inner.evidence.failure_set or [])
    return witness, undecided, pieces


def _level_of(eps: Any, alpha: Any, L: int) -> tuple[dict, str]:
    """``(level keyword for certify_program, level text)``: a positive rational ``eps0`` as written in lowest terms,
    or a rational ``alpha`` in (0, 1) with a rational ``L``-th root as ``log(1/alpha)``."""
    if alpha is not None:
        try:
            a = fmpq(alpha) if isinstance(alpha, str) and re.fullmatch(r"[0-9]+(/[0-9]+)?", alpha) else None
        except (ValueError, ZeroDivisionError):
            a = None
        if a is None or not 0 < a < 1:
            raise InvalidInput(f"alpha: the program certificate at a level takes a rational alpha in (0, 1), got "
                               f"{alpha!r}")
        if rational_base(a, L) is None:
            raise UnsupportedRegime(f"alpha = {a}: the program's entries are rational functions of "
                                    f"t = alpha^(1/{L}), irrational here; give eps, or an alpha whose {L}-th root is "
                                    f"rational (e.g. 1/{2 ** L})")
        return {"alpha": str(a)}, f"log({1 / a})"
    try:
        e0 = fmpq(eps) if isinstance(eps, str) and eps.replace("/", "", 1).isdigit() else None
    except (ValueError, ZeroDivisionError):
        e0 = None
    if e0 is None or e0 <= 0:
        raise InvalidInput(f"eps: the program certificate at a level takes a positive rational eps0, got {eps!r}")
    return {"eps": str(e0)}, str(e0)


def _level_certificate(program, n, domain, inner, rel, pair_data, L, labels, outputs, values, codes, level_of, cost,
                       lift=None):
    """The ``program`` certificate at a level: the verdict and witness from the matrix checkers at ``eps0``, asked
    of the program at ``inner = (n, relation)`` (the single iteration on the value pairs for a product, whose
    witness ``lift`` carries to ``n``).  ``level_of`` is :func:`_level_of`'s pair."""
    from ..certificate import UNDECIDED, Certificate, Method
    from .evidence import ProgramEvidence, ProgramWitness
    from ..certificate.records import IntMatrix

    at, level = level_of
    n_in, relation = inner
    inner_cert = certify_program(program, n=n_in, domain=domain, relation=relation, cost=True, **at)
    b = inner_cert.evidence.binding
    undecided = inner_cert.reason if inner_cert.verdict.value == "undecided" else None
    witness = None
    if b is not None:
        x, y, z = lift(b.x, b.x_prime, b.output) if lift else (b.x, b.x_prime, b.output)
        witness = ProgramWitness(x, y, z, "-")
    if cost:
        question, verdict = "cost", ("fails" if inner_cert.evidence.epsilon == "inf" else "holds")
    else:
        question = "at_level"
        priv = certify_program(program, n=n_in, domain=domain, relation=relation, **at)
        undecided = undecided or (priv.reason if priv.verdict.value == "undecided" else None)
        verdict = priv.verdict.value if priv.verdict.value != "undecided" else "holds"
        if verdict == "holds":
            witness = None
    ev = ProgramEvidence(name=program.name, text=program.text, n=n, domain=[int(domain[0]), int(domain[1])],
                         relation=rel, pairs=pair_data, question=question, base_power=L, inputs=labels,
                         outputs=list(outputs), values=values, codes=IntMatrix(codes), never=False, witness=witness,
                         level=level, epsilon=inner_cert.evidence.epsilon if cost else None,
                         form="matrix" if lift is None else "product")
    claim = _program_claim(program.name, n, domain, rel, pair_data, verdict, False, witness, L, question, level)
    if undecided is not None or (witness is None and not (question == "at_level" and verdict == "holds")):
        return Certificate("program", UNDECIDED, Method.NONE, claim, ev,
                           reason=undecided or "no attaining pair was found")
    # at a rational u0 (a level log(R)) every value is a fraction; at a rational eps0, u0 is transcendental
    method = Method.RATIONAL if "alpha" in at else Method.TRANSCENDENCE_BALLS
    return Certificate("program", verdict == "holds", method, claim, ev)
