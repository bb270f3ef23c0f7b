"""KL10 Def. 2.3 exactly: ``t* = e^(eps*)`` as a root of a polynomial, from the utility LP's optimal basis.

With ``t = e^eps`` the utility LP of :mod:`exactdp.utility.tradeoff` has constraint entries ``+-1`` and
``-t^d`` (``d`` an integer distance).  Fix a basis ``B`` of its standard form (HiGHS's, repaired by the exact
simplex at a rational ``t0``): the basic solution and its duals are rational functions of ``t`` -- Cramer's
rule on the polynomial basis matrix ``M(t)``, computed here by fraction-free Gauss--Jordan elimination over
``Z[t]`` (every division exact).  On an interval where that primal and dual stay feasible (finitely many
polynomial sign conditions) the optimum is ``s*(t) = X_s(t)/D(t)``; ``t*`` solves ``X_s(t) = (1 - delta) D(t)``.

:func:`exact_root` finds a root ``r`` of that polynomial inside the bracket known from exact LPs, takes the
irreducible factor ``P`` of ``r`` (python-flint's factorisation) and rational ends ``a < r < b`` with ``P``'s
only root in ``(a, b)`` at ``r``, and proves (sympy's exact Sturm counts) that every sign condition holds on
``[a, r]``: each condition polynomial is positive at ``a`` and its roots in ``(a, b)`` are at most ``r``
itself.  Then ``s*(t) = X_s/D < 1 - delta`` on ``[a, r)`` and ``= 1 - delta`` at ``r``, and since ``s*`` is
non-decreasing, ``t* = r`` exactly.  Floats (the complex roots' positions) only choose the interval.

Polynomials are written ``"t^2 - 3*t + 1"`` (integer coefficients, descending powers; ``"0"``): the
certificate's text, re-read by :mod:`exactdp.recheck._sturm`.

>>> from flint import fmpz_poly
>>> poly_text(fmpz_poly([1, -3, 1])), poly_text(fmpz_poly([-6, 1])), poly_text(fmpz_poly([]))
('t^2 - 3*t + 1', 't - 6', '0')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from flint import fmpq, fmpz_poly

__all__ = ["ExactRoot", "Parametric", "SymbolicLP", "exact_root", "parametric_solution", "poly_text"]

_T = sp.Symbol("t")

#: the largest degree put in a certificate (the re-check kernel's Sturm sequences stop at 200,
#: ``exactdp.recheck._sturm.MAX_POLY_DEGREE``); a basis beyond it is not used for the exact value
MAX_CERT_DEGREE = 200


def poly_text(p: fmpz_poly) -> str:
    """Return ``p`` as text in ``t``, descending powers, integer coefficients (``"0"`` for the zero polynomial).

    Parameters
    ----------
    p : fmpz_poly
        The polynomial.

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> from flint import fmpz_poly
    >>> poly_text(fmpz_poly([0, -1, 0, 2]))
    '2*t^3 - t'
    """
    cs = [int(c) for c in p.coeffs()]
    out: list[str] = []
    for k in range(len(cs) - 1, -1, -1):
        c = cs[k]
        if c == 0:
            continue
        mono = "" if k == 0 else ("t" if k == 1 else f"t^{k}")
        mag = abs(c)
        body = str(mag) if not mono else (mono if mag == 1 else f"{mag}*{mono}")
        if not out:
            out.append(("-" if c < 0 else "") + body)
        else:
            out.append(("- " if c < 0 else "+ ") + body)
    return " ".join(out) if out else "0"


def _mono(c: int, d: int) -> fmpz_poly:
    return fmpz_poly([0] * d + [c])


@dataclass
class SymbolicLP:
    """The utility LP with entries ``c t^d`` as ``(c, d)``: ``min c.x``, ``A_eq x = b_eq``, ``A_ub x <= b_ub``.

    Parameters
    ----------
    c : list
        The costs (rational constants).
    A_eq, A_ub : list of dict
        Rows ``{j: (c, d)}`` meaning the entry ``c t^d``.
    b_eq, b_ub : list
        The right-hand sides (integers).

    Examples
    --------
    Maximise ``x0`` subject to ``x0 + x1 = 1`` and ``x0 <= t x1``; at ``t = 2``:

    >>> lp = SymbolicLP(c=[-1, 0], A_eq=[{0: (1, 0), 1: (1, 0)}], b_eq=[1], A_ub=[{0: (1, 0), 1: (-1, 1)}],
    ...                 b_ub=[0])
    >>> lp.at(fmpq(2))[1]
    [{0: 1, 1: -2}]
    """

    c: list
    A_eq: list
    b_eq: list
    A_ub: list
    b_ub: list

    def at(self, t: fmpq):
        """The rows evaluated at a rational ``t``.

        Parameters
        ----------
        t : fmpq

        Returns
        -------
        tuple
            ``(A_eq, A_ub)`` with rows ``{j: fmpq}``.

        Examples
        --------
        >>> SymbolicLP([0], [], [], [{0: (-1, 2)}], [0]).at(fmpq(3))
        ([], [{0: -9}])
        """
        def ev(rows):
            return [{j: fmpq(c) * t ** d for j, (c, d) in r.items()} for r in rows]
        return ev(self.A_eq), ev(self.A_ub)


@dataclass
class Parametric:
    """Basic primal ``X_j/D`` and duals ``Y_i/E`` (equalities), ``L_k/E`` (inequalities), polynomials in ``t``.

    Parameters
    ----------
    X : list of fmpz_poly
        Numerators of the basic primal values.
    D : fmpz_poly
        Their common denominator.
    Y, L : list of fmpz_poly
        Numerators of the duals of the equalities and inequalities.
    E : fmpz_poly
        Their common denominator.

    Examples
    --------
    The LP of :class:`SymbolicLP` with rows 0 and 1 tight: ``x0 = t/(t + 1)``, ``x1 = 1/(t + 1)``.

    >>> lp = SymbolicLP(c=[-1, 0], A_eq=[{0: (1, 0), 1: (1, 0)}], b_eq=[1], A_ub=[{0: (1, 0), 1: (-1, 1)}],
    ...                 b_ub=[0])
    >>> par = parametric_solution(lp, {("x", 0), ("x", 1), ("s", 2)}, fmpq(2))
    >>> [poly_text(p) for p in par.X], poly_text(par.D)
    (['t', '1'], 't + 1')
    """

    X: list
    D: fmpz_poly
    Y: list
    L: list
    E: fmpz_poly

    def value_num(self) -> fmpz_poly:
        """The numerator of the last variable (``s``): ``s(t) = value_num/D``.

        Returns
        -------
        fmpz_poly

        Examples
        --------
        >>> one = fmpz_poly([1])
        >>> Parametric([one, fmpz_poly([0, 1])], fmpz_poly([1, 1]), [], [], one).value_num()
        x
        """
        return self.X[-1]


def _ff_solve(M: list, rhs: list):
    """Fraction-free Gauss--Jordan over ``Z[t]``: ``(numerators, det)`` with ``x = numerators/det``, or None.

    Rows are kept sparse (``{column: polynomial}``, the right-hand side at column ``n``); after step ``k`` every
    entry is a minor of the augmented matrix, so each division by the previous pivot is exact (checked)."""
    n = len(M)
    A = []
    for i in range(n):
        row = {j: v for j, v in enumerate(M[i]) if v != 0}
        if rhs[i] != 0:
            row[n] = rhs[i]
        A.append(row)
    prev = fmpz_poly([1])
    for k in range(n):
        cand = [i for i in range(k, n) if k in A[i]]
        if not cand:
            return None
        piv = min(cand, key=lambda i: (A[i][k].degree(), len(A[i]), sum(abs(int(c)) for c in A[i][k].coeffs())))
        A[k], A[piv] = A[piv], A[k]
        pk = A[k]
        p = pk[k]
        for i in range(n):
            if i == k:
                continue
            row = A[i]
            f = row.pop(k, None)
            new = {}
            for j in set(row) | (set(pk) if f is not None else set()):
                if j == k:
                    continue
                num = p * row[j] if j in row else fmpz_poly([])
                if f is not None and j in pk:
                    num -= f * pk[j]
                if num == 0:
                    continue
                if prev.degree() > 0 or prev != 1:
                    q, r = divmod(num, prev)
                    if r != 0:
                        return None  # not exact: never for a correct elimination; refuse rather than guess
                    num = q
                new[j] = num
            A[i] = new
        prev = p
    det = A[n - 1][n - 1] if n else fmpz_poly([1])
    return [A[i].get(n, fmpz_poly([])) for i in range(n)], det


def _normalise(polys: list, den: fmpz_poly, t0: fmpq):
    g = den
    for p in polys:
        if p != 0:
            g = g.gcd(p)
    if g.degree() > 0 or (g != 0 and abs(int(g.coeffs()[0])) > 1):
        polys = [p // g if p != 0 else p for p in polys]
        den = den // g
    if den(t0) < 0:
        polys, den = [-p for p in polys], -den
    return polys, den


def parametric_solution(sym: SymbolicLP, basis: set, t0: fmpq) -> Parametric | None:
    """Return the basic solution of ``basis`` as rational functions of ``t`` (None if ``M(t)`` is singular).

    The basis is given as in the exact simplex's standard form (``("x", j)`` / ``("s", k)``; rows ``A_ub``,
    ``A_eq``, ``-A_eq``).

    Parameters
    ----------
    sym : SymbolicLP
        The LP.
    basis : set of tuple
        The basic structurals ``("x", j)`` and slacks ``("s", k)``.
    t0 : fmpq
        A point where the basis is known to be valid (the duals' signs are fixed there).

    Returns
    -------
    Parametric or None
        Primal and dual numerators and denominators in ``t``.

    Examples
    --------
    >>> lp = SymbolicLP(c=[-1, 0], A_eq=[{0: (1, 0), 1: (1, 0)}], b_eq=[1], A_ub=[{0: (1, 0), 1: (-1, 1)}],
    ...                 b_ub=[0])              # max x0 s.t. x0 + x1 = 1, x0 <= t x1
    >>> par = parametric_solution(lp, {("x", 0), ("x", 1), ("s", 2)}, fmpq(2))   # rows 0 and 1 tight
    >>> [poly_text(p) for p in par.X], poly_text(par.D)      # x0 = t/(t + 1)
    (['t', '1'], 't + 1')
    """
    m_ub, m_eq = len(sym.A_ub), len(sym.A_eq)
    rows = list(sym.A_ub) + list(sym.A_eq) + [{j: (-c, d) for j, (c, d) in r.items()} for r in sym.A_eq]
    b = list(sym.b_ub) + list(sym.b_eq) + [-v for v in sym.b_eq]
    C = sorted(j for kind, j in basis if kind == "x")
    slack_rows = {k for kind, k in basis if kind == "s"}
    R = [k for k in range(len(rows)) if k not in slack_rows]
    if len(R) != len(C):
        return None
    M = [[_mono(*rows[k][j]) if j in rows[k] else fmpz_poly([]) for j in C] for k in R]
    primal = _ff_solve(M, [fmpz_poly([int(b[k])]) for k in R])
    dual = _ff_solve([[M[i][j] for i in range(len(R))] for j in range(len(C))],
                     [fmpz_poly([int(sym.c[j])]) for j in C])
    if primal is None or dual is None:
        return None
    (xs, D), (us, E) = primal, dual
    if D == 0 or E == 0:
        return None
    n = len(sym.c)
    X = [fmpz_poly([])] * n
    for j, v in zip(C, xs, strict=True):
        X[j] = v
    u = {k: v for k, v in zip(R, us, strict=True)}
    zero = fmpz_poly([])
    L = [-u.get(k, zero) for k in range(m_ub)]
    Y = [u.get(m_ub + i, zero) - u.get(m_ub + m_eq + i, zero) for i in range(m_eq)]
    X, D = _normalise(X, D, t0)
    YL, E = _normalise(Y + L, E, t0)
    return Parametric(X, D, YL[:m_eq], YL[m_eq:], E)


def _row_dot(row: dict, P: list) -> fmpz_poly:
    out = fmpz_poly([])
    for j, (c, d) in row.items():
        if P[j] != 0:
            out += _mono(c, d) * P[j]
    return out


def conditions(sym: SymbolicLP, par: Parametric):
    """The basis' optimality conditions as polynomials in ``t``.

    Parameters
    ----------
    sym : SymbolicLP
    par : Parametric

    Returns
    -------
    tuple
        ``(identities, signs)``: polynomials that must vanish identically (equalities, zero gap), and polynomials
        that must be ``>= 0`` on ``[a, t*]`` (primal values, slacks, inequality duals, reduced costs).

    Examples
    --------
    >>> lp = SymbolicLP(c=[-1, 0], A_eq=[{0: (1, 0), 1: (1, 0)}], b_eq=[1], A_ub=[{0: (1, 0), 1: (-1, 1)}], b_ub=[0])
    >>> ident, signs = conditions(lp, parametric_solution(lp, {("x", 0), ("x", 1), ("s", 2)}, fmpq(2)))
    >>> all(p == 0 for p in ident), [poly_text(p) for p in signs]
    (True, ['t', '1', '0', '1', '0', '0'])
    """
    X, D, Y, L, E = par.X, par.D, par.Y, par.L, par.E
    ident = [_row_dot(r, X) - int(bv) * D for r, bv in zip(sym.A_eq, sym.b_eq, strict=True)]
    cx = sum((int(c) * X[j] for j, c in enumerate(sym.c) if c), fmpz_poly([]))
    by = sum((int(bv) * y for bv, y in zip(sym.b_eq, Y, strict=True)), fmpz_poly([])) - \
        sum((int(bv) * lv for bv, lv in zip(sym.b_ub, L, strict=True)), fmpz_poly([]))
    ident.append(cx * E - by * D)
    signs = list(X) + [int(bv) * D - _row_dot(r, X) for r, bv in zip(sym.A_ub, sym.b_ub, strict=True)] + list(L)
    red = [int(c) * E for c in sym.c]
    for r, y in zip(sym.A_eq, Y, strict=True):
        for j, (c, d) in r.items():
            red[j] -= _mono(c, d) * y
    for r, lv in zip(sym.A_ub, L, strict=True):
        if lv != 0:
            for j, (c, d) in r.items():
                red[j] += _mono(c, d) * lv
    return ident, signs + red


def valid_at(sym: SymbolicLP, par: Parametric, t: fmpq) -> bool:
    """Is the basis primal and dual feasible at the rational ``t`` (every condition evaluated exactly)?

    Parameters
    ----------
    sym : SymbolicLP
    par : Parametric
    t : fmpq

    Returns
    -------
    bool

    Examples
    --------
    >>> lp = SymbolicLP(c=[-1, 0], A_eq=[{0: (1, 0), 1: (1, 0)}], b_eq=[1], A_ub=[{0: (1, 0), 1: (-1, 1)}], b_ub=[0])
    >>> valid_at(lp, parametric_solution(lp, {("x", 0), ("x", 1), ("s", 2)}, fmpq(2)), fmpq(5))
    True
    """
    ident, signs = conditions(sym, par)
    return all(p == 0 for p in ident) and par.D(t) > 0 and par.E(t) > 0 and all(p(t) >= 0 for p in signs)


@dataclass
class ExactRoot:
    """``t*`` = the only root of ``poly`` in ``(a, b)``; the basis ``par`` is valid on ``[a, t*]``.

    Parameters
    ----------
    poly : fmpz_poly
        Square-free, with one root in ``(a, b)``.
    a, b : fmpq
        The isolating interval.
    par : Parametric
        The basic solution valid up to ``t*``.

    Examples
    --------
    >>> r = ExactRoot(fmpz_poly([-2, 0, 1]), fmpq(1), fmpq(2), None)      # t* = sqrt(2)
    >>> r.rational() is None, ExactRoot(fmpz_poly([-6, 1]), fmpq(5), fmpq(7), None).rational()
    (True, 6)
    """

    poly: fmpz_poly
    a: fmpq
    b: fmpq
    par: Parametric

    def rational(self) -> fmpq | None:
        """``t*`` when it is rational (a linear polynomial), else None.

        Returns
        -------
        fmpq or None

        Examples
        --------
        >>> ExactRoot(fmpz_poly([-6, 1]), fmpq(5), fmpq(7), None).rational()
        6
        """
        if self.poly.degree() == 1:
            c0, c1 = (int(c) for c in self.poly.coeffs())
            return fmpq(-c0, c1)
        return None


def _sp(p: fmpz_poly) -> sp.Poly:
    return sp.Poly([int(c) for c in reversed(p.coeffs())] or [0], _T)


def _simple_between(a: fmpq, b: fmpq) -> fmpq:
    """The rational with the smallest denominator strictly between ``0 <= a < b`` (Stern--Brocot)."""
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 0
    while True:
        mn, md = lo_n + hi_n, lo_d + hi_d
        m = fmpq(mn, md)
        if m <= a:
            lo_n, lo_d = mn, md
        elif m >= b:
            hi_n, hi_d = mn, md
        else:
            return m


def _q(x) -> fmpq:
    x = sp.Rational(x)
    return fmpq(int(x.p), int(x.q))


def _strip(p: fmpz_poly, P: fmpz_poly):
    """``p = P^k q`` with ``P`` not dividing ``q``: ``(q, k)``."""
    k = 0
    while p != 0 and p.degree() >= P.degree():
        q, r = divmod(p, P)
        if r != 0:
            break
        p, k = q, k + 1
    return p, k


def _holds_on(p: fmpz_poly, P: fmpz_poly, a: fmpq, b: fmpq) -> bool:
    """``p >= 0`` on ``[a, r]`` (``r`` the root of ``P`` in ``(a, b)``): ``p(a) > 0`` and ``p``'s only possible
    root in ``[a, b]`` is ``r`` (sympy's exact count of the cofactor's roots)."""
    if p == 0:
        return True
    q, _k = _strip(p, P)
    if p(a) <= 0 or q(b) == 0:
        return False
    return q.degree() <= 0 or _sp(q).count_roots(sp.Rational(int(a.p), int(a.q)), sp.Rational(int(b.p), int(b.q))) == 0


def exact_root(sym: SymbolicLP, par: Parametric, target: fmpq, lo: fmpq, hi: fmpq | None) -> tuple:
    """``t*`` proved from this basis, or a rational guess for the next LP.

    ``lo < t* <= hi`` is known (``hi`` None: not yet bounded above).  The polynomial
    ``N = q X_s - p D`` (``target = p/q``) is factored; for each of its real roots in the bracket, rational ends
    are chosen around the root and every sign condition is proved on ``[a, r]``.

    Parameters
    ----------
    sym : SymbolicLP
    par : Parametric
    target : fmpq
        ``1 - delta``.
    lo, hi : fmpq (hi may be None)

    Returns
    -------
    tuple
        ``(ExactRoot or None, guess)``; ``guess`` a rational near the basis' root in the bracket, or None.

    Examples
    --------
    >>> lp = SymbolicLP(c=[0, -1], A_eq=[{0: (1, 0), 1: (1, 0)}], b_eq=[1], A_ub=[{1: (1, 0), 0: (-1, 1)}], b_ub=[0])
    >>> par = parametric_solution(lp, {("x", 0), ("x", 1), ("s", 2)}, fmpq(2))   # max x1 = t/(t + 1): 3/4 at t = 3
    >>> ex, _ = exact_root(lp, par, fmpq(3, 4), fmpq(1), None)
    >>> poly_text(ex.poly), ex.a < 3 < ex.b
    ('t - 3', True)
    """
    if max(p.degree() for p in par.X + par.Y + par.L + [par.D, par.E]) > MAX_CERT_DEGREE:
        return None, None
    ident, signs = conditions(sym, par)
    if any(p != 0 for p in ident):
        return None, None
    N = int(target.q) * par.value_num() - int(target.p) * par.D
    if N == 0:
        return None, None
    guess = None
    roots = []
    for P, _mult in N.factor()[1]:
        if P.degree() < 1:
            continue
        for iv in _sp(P).intervals(inf=sp.Rational(int(lo.p), int(lo.q)),
                                   sup=None if hi is None else sp.Rational(int(hi.p), int(hi.q))):
            (x0, x1), _m = iv
            roots.append((P, _q(x0), _q(x1)))
    for P, x0, x1 in sorted(roots, key=lambda r: r[1]):   # roots in [lo, hi]; each proof is self-contained
        if guess is None:
            guess = (x0 + x1) / 2
        ex = _certify(sym, par, P, x0, x1, N, signs)
        if ex is not None:
            return ex, guess
    return None, guess


def _certify(sym, par, P, x0, x1, N, signs):
    """Rational ends ``a < r < b`` around the root of ``P`` in ``[x0, x1]`` with every condition proved."""
    Psp = _sp(P)
    r_f = float((x0 + x1) / 2)
    others = [p for p in signs if p != 0] + [par.D, par.E, N]
    dist = max(r_f - 1, 0) / 2 or 1e-300
    for p in others:
        q, _k = _strip(p, P)
        if q.degree() >= 1:
            for z, _m in q.complex_roots():
                dist = min(dist, abs(complex(z) - r_f))
    for P2, _m in N.factor()[1]:
        if P2 != P and P2.degree() >= 1:
            for z, _m2 in P2.complex_roots():
                dist = min(dist, abs(complex(z) - r_f))
    fr = Fraction(max(dist, 1e-30) / 4) if math.isfinite(dist) else Fraction(1, 4)
    rho = fmpq(fr.numerator, fr.denominator)
    for _attempt in range(4):
        if rho <= 0:
            return None
        lo_s, hi_s = sp.Rational(int(x0.p), int(x0.q)), sp.Rational(int(x1.p), int(x1.q))
        while hi_s - lo_s > sp.Rational(int(rho.p), int(rho.q)) / 2:
            lo_s, hi_s = Psp.refine_root(lo_s, hi_s, eps=sp.Rational(int(rho.p), int(rho.q)) / 4)
        ilo, ihi = _q(lo_s), _q(hi_s)
        a = _simple_between(ilo - rho, ilo) if ilo > rho else None
        b = _simple_between(ihi, ihi + rho)
        if a is not None and a >= 1 and _ends_ok(par, P, N, a, b) and all(_holds_on(p, P, a, b) for p in signs):
            return ExactRoot(P, a, b, par)
        rho /= 16
    return None


def _ends_ok(par, P, N, a, b) -> bool:
    A, B = sp.Rational(int(a.p), int(a.q)), sp.Rational(int(b.p), int(b.q))
    if P(a) == 0 or P(b) == 0 or _sp(P).count_roots(A, B) != 1:
        return False
    if N(a) >= 0 or N(b) == 0:
        return False
    Nq, _k = _strip(N, P)
    if Nq.degree() >= 1 and _sp(Nq).count_roots(A, B) != 0:
        return False
    for den in (par.D, par.E):
        if den(a) <= 0 or den(b) <= 0 or (den.degree() >= 1 and _sp(den).count_roots(A, B) != 0):
            return False
    return True
