"""Re-check ``optimality`` certificates (GRS12 Thm 3.1 for one user).

The user-specific LP GRS12 (2)-(6) is rebuilt here from the user (prior and
loss) and alpha; the optimum is verified from the certificate's primal and
dual (:func:`~exactdp.recheck._lp.check_lp`; with a loss of square roots,
such as the journal's ``|i - j|^(3/2)``, the reduced costs are sums of square
roots signed by this kernel).  The truncated geometric
mechanism (GRS12 Sec. 2: ``(1-a)/(1+a) a^|i-j|`` inside, ``a^|i-j|/(1+a)`` at
the ends 0 and n) is rebuilt too, remapped by the stated Bayes remap, and its
expected loss compared with the optimum.
"""

from __future__ import annotations

import re
from fractions import Fraction

from ._kernel import Refuted, refute_unless
from ._kernel import fraction, within_limit
from ._kernel import NotHere, _add, _mul, _neg, check_codes, reduced_costs, sign, value
from ._metric import normalise
from ._lp import _num, check_lp
from ._lp import rank
from ._lp import LP_SOLUTION
from ._dprivacy import MECH

CONFIRMED, REFUTED = "confirmed", "refuted"

#: the evidence shape per kind (read by the dispatcher before any work)
EVIDENCE = {"optimality": {"n": "int", "alpha": "str", "user": "str", "prior": ["str"], "loss": [["str"]],
                           "lp": LP_SOLUTION, "unique": "?bool", "optimum": MECH, "remap": ("map", "str"),
                           "geometric_loss": "str", "attains": "bool"}}


#: largest n whose GRS12 user LP this kernel re-checks: the optimum's uniqueness is a rank modulo a prime (sparse,
#: banded), the Bayes remap is in integers; measured 0.6 s at n = 40, 1.7 s at n = 60 and 4.2 s at n = 100
#: (absolute loss; the rank over fractions it replaced took 60 s at n = 60 and 10 min / 23.6 GB at n = 300)
MAX_N = 100


def _user_lp(n, a, prior, loss) -> tuple[list, list, list, list, list]:
    """The user-specific LP GRS12 (2)-(6), rebuilt from the definition: variables ``x_ir`` (row ``i``, output ``r``),
    cost ``sum prior_i loss(i, r) x_ir``, each row summing to 1, and ``alpha x_(i+1)r <= x_ir``, ``alpha x_ir <=
    x_(i+1)r`` for neighbours (``-ln(alpha)``-DP); ``x >= 0`` is the LP's standard form. A zero prior gives a cost
    of exactly 0 (never ``0`` times a sum of square roots)."""
    N = n + 1
    v = lambda i, r: i * N + r  # noqa: E731
    c = [_mul(prior[i], loss[i][r]) if prior[i] != 0 else Fraction(0) for i in range(N) for r in range(N)]
    A_eq = [{v(i, r): Fraction(1) for r in range(N)} for i in range(N)]
    A_ub = []
    for i in range(n):
        for r in range(N):
            A_ub.append({v(i + 1, r): a, v(i, r): Fraction(-1)})   # alpha x_(i+1)r <= x_ir
            A_ub.append({v(i, r): a, v(i + 1, r): Fraction(-1)})   # alpha x_ir <= x_(i+1)r
    return c, A_eq, [Fraction(1)] * N, A_ub, [Fraction(0)] * len(A_ub)


def _geometric(n, a):
    """The truncated geometric mechanism of GRS12 Sec. 2 on ``{0..n}`` at ``alpha = a``: ``(1-a)/(1+a) a^|i-j|``
    inside, ``a^|i-j|/(1+a)`` at the ends 0 and n, exactly in fractions."""
    def g(i, j):
        """Entry ``(i, j)`` of the truncated geometric mechanism."""
        w = a ** abs(i - j)
        return w / (1 + a) if j in (0, n) else w * (1 - a) / (1 + a)
    return [[g(i, j) for j in range(n + 1)] for i in range(n + 1)]


def _same(x, y) -> bool:
    """Are ``x`` and ``y`` equal (exact zero test of the difference)?"""
    return sign(_add(x, _neg(y))) == 0


def claim_text(c: dict) -> str:
    """The claim of an ``optimality`` certificate, rebuilt from its evidence.

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        The claim sentence (GRS12's universal optimality for one user).

    Examples
    --------
    >>> claim_text({"evidence": {"n": 3, "alpha": "1/2", "user": "uniform prior, absolute loss"}})
    'the Bayes-remapped geometric mechanism (n = 3, alpha = 1/2) is optimal for the user (uniform prior, absolute loss)'
    """
    ev = c["evidence"]
    return (f"the Bayes-remapped geometric mechanism (n = {ev['n']}, alpha = {ev['alpha']}) is optimal for the user "
            f"({ev['user']})")


def _unique(lp_rows, lp: dict) -> bool | None:
    """GRS12's optimum is unique when the optimal face is one point: the kernel redoes the rank argument.

    Every optimum is complementary to the checked dual: ``x_j = 0`` where the reduced cost is ``> 0`` and row
    ``k`` tight where ``lam_k > 0``.  If the equalities (rows sums and those tight rows) restricted to the
    remaining coordinates have full column rank (Gaussian elimination over fractions), the face is a point.
    Returns ``True`` then, else ``None`` (not decided)."""
    c, A_eq, _, A_ub, _ = lp_rows
    y, lam = [_num(v) for v in lp["y"]], [_num(v) for v in lp["lam"]]
    red = reduced_costs(c, A_eq, y, A_ub, lam)
    F = [j for j, r in enumerate(red) if sign(r) == 0]
    if not F:
        return True
    fidx = {j: k for k, j in enumerate(F)}
    rows = [{fidx[j]: a for j, a in r.items() if j in fidx} for r in A_eq]
    rows += [{fidx[j]: a for j, a in A_ub[k].items() if j in fidx} for k in range(len(A_ub)) if sign(lam[k]) > 0]
    if _full_rank_mod_p(rows, len(F)):
        return True
    within_limit(len(F) <= MAX_RATIONAL_RANK,
                 f"the rank of a {len(rows)} x {len(F)} face matrix over fractions (its rank "
                 f"modulo {_P} is not full, which proves nothing over the rationals)")
    return True if rank(rows, len(F)) == len(F) else None


#: the prime of the modular rank (a Mersenne prime: Python ints reduce it fast)
_P = 2 ** 61 - 1
#: largest face whose rank is recomputed over fractions when the modular rank is not full
MAX_RATIONAL_RANK = 41 * 41


def _full_rank_mod_p(rows: list, n: int) -> bool:
    """Do the rational ``rows`` (sparse: column -> Fraction) have full column rank ``n``, by sparse Gaussian
    elimination modulo the prime ``_P``?

    Sound for ``True`` only: scale each row by the lcm ``D`` of its denominators (no row's rank changes); when
    ``_P`` divides no denominator, the integer matrix reduced modulo ``_P`` is the reduced rows times the units
    ``D mod _P``, and a rank modulo a prime is at most the rank over the rationals (a minor that is non-zero
    modulo ``_P`` is a non-zero integer).  So rank ``n`` modulo ``_P`` is rank ``n`` over the rationals.  ``False``
    (a denominator divisible by ``_P``, or a rank below ``n`` modulo ``_P``) proves nothing: the caller decides
    over the rationals.  Rows are reduced one at a time against the pivots so far (the user LP's rows are banded:
    little fill-in)."""
    if len(rows) < n:
        return False
    pivots: dict = {}
    for r in rows:
        row = {}
        for j, a in r.items():
            a = fraction(a)
            if a.denominator % _P == 0:
                return False
            v = a.numerator * pow(a.denominator, -1, _P) % _P
            if v:
                row[j] = v
        while row:
            col = min(row)
            piv = pivots.get(col)
            if piv is None:
                inv = pow(row[col], -1, _P)
                pivots[col] = {j: v * inv % _P for j, v in row.items()}
                break
            f = row[col]
            for j, v in piv.items():
                w = (row.get(j, 0) - f * v) % _P
                if w:
                    row[j] = w
                else:
                    row.pop(j, None)
        if len(pivots) == n:
            return True
    return len(pivots) == n


#: largest n whose Bayes remap is re-derived here
MAX_REMAP_N = 100


def _bayes_remap(n, prior, G, loss) -> dict:
    """The Bayes remap of the geometric mechanism: each output to the result of least expected loss (ties to the
    smallest result)."""
    if all(isinstance(v, Fraction) for row in loss for v in row):
        return _bayes_remap_integer(n, prior, G, loss)
    out = {}
    for z in range(n + 1):
        best, arg = None, None
        for r in range(n + 1):
            e = Fraction(0)
            for i in range(n + 1):
                if prior[i] and G[i][z]:
                    e = _add(e, _mul(prior[i] * G[i][z], loss[i][r]))
            if best is None or sign(_add(e, _neg(best))) < 0:
                best, arg = e, r
        out[z] = arg
    return out


def _bayes_remap_integer(n, prior, G, loss) -> dict:
    """:func:`_bayes_remap` for a rational loss, in integers: for each output ``z`` the weights ``prior_i G[i][z]``
    and the loss table are scaled by the lcm of their denominators (one positive factor per ``z``), which orders
    the expected losses ``sum_i prior_i G[i][z] loss[i][r]`` over ``r`` exactly as the fractions do."""
    from math import lcm

    dl = lcm(*(v.denominator for row in loss for v in row))
    L = [[int(v * dl) for v in row] for row in loss]
    out = {}
    for z in range(n + 1):
        w = [prior[i] * G[i][z] for i in range(n + 1)]
        dw = lcm(*(v.denominator for v in w))
        W = [(i, int(v * dw)) for i, v in enumerate(w) if v]
        best, arg = None, None
        for r in range(n + 1):
            e = sum(wi * L[i][r] for i, wi in W)
            if best is None or e < best:
                best, arg = e, r
        out[z] = arg
    return out


def check(c: dict):
    """Re-check an ``optimality`` certificate: the user's LP optimum, the Bayes remap and their loss, exactly.

    Parameters
    ----------
    c : dict
        The certificate's JSON, its evidence conformed to ``EVIDENCE`` (by :func:`exactdp.recheck.recheck`).

    Returns
    -------
    tuple
        ``(status, checked, detail)``: ``"confirmed"`` or ``"refuted"``, the facts re-derived, and why.

    Examples
    --------
    >>> ev = {"n": 3, "alpha": "1/2", "user": "uniform prior, absolute loss"}
    >>> check({"claim": "the geometric mechanism is optimal", "verdict": "holds", "evidence": ev})
    ('refuted', 0, 'the claim is not the one its evidence states')
    """
    try:
        refute_unless(c["claim"] == claim_text(c), "the claim is not the one its evidence states")
        return _check(c)
    except Refuted as e:
        return REFUTED, 0, str(e)


_LOSSES = {"absolute": lambda i, r: abs(i - r), "squared": lambda i, r: (i - r) ** 2,
           "binary": lambda i, r: int(i != r)}


def _parts(text: str) -> list:
    """``text`` split at the commas, ``;`` and `` and `` outside parentheses.

    >>> _parts("prior (1/4, 3/4), loss |i - j|^(3/2) and x")
    ['prior (1/4, 3/4)', 'loss |i - j|^(3/2)', 'x']
    """
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        depth += (text[i] == "(") - (text[i] == ")")
        if depth == 0 and text[i] in ",;":
            out.append(text[start:i])
            start = i + 1
        elif depth == 0 and text.startswith(" and ", i):
            out.append(text[start:i])
            start, i = i + 5, i + 4
        i += 1
    out.append(text[start:])
    return [p.strip() for p in out if p.strip()]


#: a loss written as a formula in ``|i - j|`` (the producer's words): ``|i - j|^e`` and ``1 + g|j - i|`` off the
#: diagonal (GRS12 Thm 6.1's loss)
_POWER = re.compile(r"(?:the )?loss \|[ij] - [ij]\|\^\(?([0-9]+(?:/[0-9]+)?)\)?")
_AFFINE = re.compile(r"(?:the )?loss 1 \+ ([0-9]+(?:/[0-9]+)?) ?\|[ij] - [ij]\|")


def _loss_is(loss: list, f) -> bool:
    """Every carried loss entry equals ``f(i, r)`` (an exact text of this kernel), decided exactly."""
    k = len(loss)
    return all(sign(_add(loss[i][r], _neg(value(f(i, r))))) == 0 for i in range(k) for r in range(k))


def _user_part(name: str, part: str, prior: list, loss: list) -> bool:
    """Check one part of a user's name that speaks of a prior or a loss (True), or say it is free text (False)."""
    if (m := re.fullmatch(r"(?:the )?prior \(([^()]*)\)", part)) is not None:
        try:
            stated = [fraction(v.strip()) for v in m.group(1).split(",")]
        except (ValueError, ZeroDivisionError):
            stated = None
        refute_unless(stated == prior, f"the user is named {name!r}, but the prior is not {m.group(1)}")
        return True
    if "prior" in part:
        refute_unless(re.fullmatch(r"(?:the )?uniform prior", part) is not None,
                      f"the user is named {name!r}: {part!r} is not "
                      "a prior the kernel re-derives (the uniform prior, or prior (p_0, ..., p_n))")
        refute_unless(len(set(prior)) == 1, f"the user is named {name!r}, but the prior is not uniform")
        return True
    if (m := _POWER.fullmatch(part)) is not None:
        refute_unless(_loss_is(loss, lambda i, r: f"{abs(i - r)}^({m.group(1)})"),
                      f"the user is named {name!r}, but the loss "
                      "is not that table")
        return True
    if (m := _AFFINE.fullmatch(part)) is not None:
        refute_unless(_loss_is(loss, lambda i, r: "0" if i == r else f"1 + ({m.group(1)})*{abs(i - r)}"),
                      f"the user is named {name!r}, but the loss is not that table")
        return True
    if "loss" in part:
        m = re.fullmatch(r"(?:the )?(absolute|squared|binary|table) loss", part)
        if m is None:
            raise Refuted(f"the user is named {name!r}: {part!r} is not a loss the kernel re-derives (absolute, "
                          "squared, binary, a table, |i - j|^e, 1 + g|j - i|)")
        f = _LOSSES.get(m.group(1))
        refute_unless(f is None or all(loss[i][r] == f(i, r) for i in range(len(loss)) for r in range(len(loss))),
                      f"the user is named {name!r}, but the loss is not that table")
        return True
    refute_unless(re.search(r"\b(uniform|absolute|squared|quadratic|binary)\b", part) is None,
                  f"the user is named {name!r}: {part!r} is worded like a prior or loss the kernel knows but is "
                  f"not its form")
    return False


def _check_user_name(name: str, prior: list, loss: list) -> str:
    """The user's name, read after :func:`._metric.normalise` and case-folding, in parts (split at commas, ``;``
    and ``and`` outside parentheses): a part that names a prior or a loss the kernel knows is re-derived -- the
    uniform prior, ``prior (p_0, ..., p_n)``, the checker's losses (``|i - r|``, ``(i - r)^2``, ``[i != r]``, a table,
    ``|i - j|^e``, ``1 + g|j - i|``) -- and refuted when the carried prior or loss is another; a part that speaks of a
    prior or loss in another way ("every prior", "0-1 loss") or uses a known family's word out of its form is
    refuted.  Any other text is a name: the returned note (``""`` when every part was re-derived) says so.

    >>> _check_user_name("Uniform prior,\u00a0absolute loss", [Fraction(1, 2)] * 2, [[0, 1], [1, 0]])
    ''
    >>> _check_user_name("a radar operator", [Fraction(1, 2)] * 2, [[0, 1], [1, 0]])
    "; the user's name 'a radar operator' is a name, not re-derived (the statement is about the carried prior and loss)"
    >>> _check_user_name("every prior, every loss", [Fraction(1, 2)] * 2, [[0, 1], [1, 0]])
    Traceback (most recent call last):
    ...
    exactdp.recheck._kernel.Refuted: the user is named 'every prior, every loss': 'every prior' is not a prior the \
kernel re-derives (the uniform prior, or prior (p_0, ..., p_n))
    """
    free = False
    for part in _parts(normalise(name).casefold()):
        free = not _user_part(name, part, prior, loss) or free
    return (f"; the user's name {name!r} is a name, not re-derived (the statement is about the carried prior and "
            "loss)") if free else ""


def _check(c: dict):
    """Re-check an optimality certificate: ``n`` refused above ``MAX_N`` before the LP is built; the user and alpha
    well formed; the user LP rebuilt and its optimum verified from primal and dual; the stated optimum is the
    primal; uniqueness re-decided; then the geometric mechanism's remapped loss compared with the optimum."""
    ev = c["evidence"]
    n, a = ev["n"], fraction(ev["alpha"])
    refute_unless(type(n) is int and n >= 1, "n is not an integer >= 1")
    # the user LP has (n + 1)^2 variables (see MAX_N): the kernel refuses above MAX_N before building anything
    within_limit(n <= MAX_N,
                 f"the user LP at n = {n} has {(n + 1) ** 2:,} variables; this kernel re-checks n <= {MAX_N}")
    prior = [fraction(v) for v in ev["prior"]]
    loss = [[value(v) for v in row] for row in ev["loss"]]   # rationals, or sums of square roots (|i-j|^(3/2))
    if not (0 < a < 1) or len(prior) != n + 1 or sum(prior) != 1 or any(p < 0 for p in prior) \
            or len(loss) != n + 1 or any(len(r) != n + 1 for r in loss):
        return REFUTED, 0, "the user or alpha is not well formed"
    note = _check_user_name(ev["user"], prior, loss)
    rows = _user_lp(n, a, prior, loss)
    ok, detail = check_lp(*rows, ev["lp"])
    refute_unless(ok, detail)
    # the stated optimum is the LP's primal, as a mechanism on {0..n}
    opt, labels = ev["optimum"], [str(i) for i in range(n + 1)]
    check_codes(opt["codes"], len(opt["values"]))
    x = [fraction(v) for v in ev["lp"]["x"]]
    refute_unless(opt["name"] == f"LP optimum (n={n}, alpha={ev['alpha']})" and opt["inputs"] == labels
                  and opt["outputs"] == labels and len(opt["codes"]) == n + 1
                  and [fraction(opt["values"][k]) for row in opt["codes"] for k in row] == x,
                  "the stated optimum is not the LP's verified optimal point")
    u = _unique(rows, ev["lp"])
    refute_unless(ev["unique"] is u,
                  f"uniqueness re-derived by the rank of the optimal face: {u}, stated {ev['unique']}")
    G = _geometric(n, a)
    if n > MAX_REMAP_N:
        raise NotHere(f"re-deriving the Bayes remap for n = {n} > {MAX_REMAP_N} ((n+1)^3 exact terms)")
    remap = _bayes_remap(n, prior, G, loss)
    refute_unless(ev["remap"] == {str(z): str(r) for z, r in remap.items()}, "the remap is not the Bayes remap")
    g_loss = Fraction(0)
    for i in range(n + 1):
        for z in range(n + 1):
            g_loss = _add(g_loss, _mul(prior[i] * G[i][z], loss[i][remap[z]]))
    # the remapped geometric mechanism is a feasible point of the user LP, so its loss is at least the verified optimum:
    # equality is what GRS12 Thm 3.1 claims for this user
    attains = _same(g_loss, value(ev["lp"]["value"]))
    ok = ok and _same(g_loss, value(ev["geometric_loss"])) and attains == ev["attains"] \
        and (c["verdict"] == "holds") == attains
    return (CONFIRMED if ok else REFUTED), (n + 1) ** 2, (
        f"user LP rebuilt ({(n + 1) ** 2} variables): {detail}; the optimum is its primal, uniqueness "
        f"{'proved by the rank of the optimal face' if u else 'not decided'}; Bayes remap re-derived; remapped "
        f"geometric loss {g_loss if isinstance(g_loss, Fraction) else ev['geometric_loss']} "
        f"{'=' if attains else '!='} optimum{note}")


def method_of(c: dict) -> str:
    """The method an optimality certificate's verdict rests on (the dispatcher refutes another, or a precision).

    Parameters
    ----------
    c : dict
        The certificate's JSON.

    Returns
    -------
    str
        Always ``"EXACT_LP"``.

    Examples
    --------
    >>> method_of({"evidence": {}})
    'EXACT_LP'
    """
    return "EXACT_LP"
