"""The floating-point guide of the exact LP: HiGHS (highspy) finds a basis, nothing more.

The float solve never decides anything.  It returns HiGHS's *actual* simplex
basis (which structural variables and which row slacks are basic), mapped to
the internal standard form of :mod:`exactdp.exact.lp_simplex`; the exact
engine rebuilds the basic solution and its duals in rational arithmetic and
pivots exactly from there if the basis is not exactly optimal.

Scaling: columns by ``lp.scale`` (optional float hints, ``x_j = scale_j y_j``)
and every row by its largest scaled coefficient, so that HiGHS's absolute
tolerances act as relative ones (a privacy row between entries near
``alpha^40`` is enforced as strictly as one near 1).  Scales are clipped to
``[1e-200, 1e200]`` so that no scaled coefficient under- or overflows.  On the
GRS12 user LP the row sums then hold coefficients from 1 down to
``alpha^n``, and HiGHS drops every coefficient below 1e-9 (its
``small_matrix_value``): the float model it solves is then a different LP,
and its postsolve can fail ("not set" at n = 150, measured; the same is the
likely cause, not re-measured here, of the "unbounded" report on the
feasible bounded LP at n = 1000 in issue 8).  So when HiGHS does not end
``optimal`` it is run again without presolve, then unscaled, then
with the primal simplex; the last basis it has is used as the exact start either
way -- the exact engine then decides optimality, infeasibility or
unboundedness itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .lp import LinearProgram

__all__ = ["float_basis", "quiet_highs"]


def quiet_highs():
    """A new ``highspy.Highs`` that prints nothing, from its construction on.

    highspy 1.16 writes its banner (``Running HiGHS ...``, ``Includes third-party software ...``) to the C
    level standard output when the first solver object of the process is built, before any option can be
    set; exactdp's standard output carries only its own output (``--format json`` must parse), so file
    descriptor 1 points to the null device while the object is built, and ``output_flag`` is then off.

    Returns
    -------
    highspy.Highs
        A solver with all output off.

    Examples
    --------
    >>> type(quiet_highs()).__name__
    'Highs'
    """
    import os
    import sys

    import highspy

    for stream in (sys.stdout, sys.__stdout__):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: nothing of ours is pending
            pass
    try:
        saved = os.dup(1)
    except OSError:  # no file descriptor 1 at all: nothing can be printed on it
        saved = None
    null = os.open(os.devnull, os.O_WRONLY) if saved is not None else None
    try:
        if null is not None:
            os.dup2(null, 1)
        h = highspy.Highs()
    finally:
        if saved is not None and null is not None:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(null)
    h.setOptionValue("output_flag", False)
    return h


# Measured on the scaled GRS12 user LP (alpha = 1/2): with presolve HiGHS's basis was exactly optimal at
# n = 40 and 60 (without: 12 and 52 exact pivots) and needed 22 pivots at n = 80; at n = 150 the presolve +
# postsolve round trip ended "not set" and the second attempt (no presolve) gave a basis 232 pivots away.
_ATTEMPTS = (
    {"scaled": True, "options": {}},
    {"scaled": True, "options": {"presolve": "off"}},
    {"scaled": False, "options": {"presolve": "off"}},
    {"scaled": False, "options": {"presolve": "off", "simplex_strategy": 4,
                                  "primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}},
)


def _csr(rows, sc, n):
    starts, idx, vals, rho = [0], [], [], []
    for r in rows:
        items = [(j, float(v) * sc[j]) for j, v in r.items()]
        m = max((abs(v) for _, v in items), default=1.0) or 1.0
        rho.append(m)
        for j, v in items:
            idx.append(j)
            vals.append(v / m)
        starts.append(len(idx))
    return (np.array(starts[:-1], dtype=np.int32), np.array(idx, dtype=np.int32), np.array(vals, dtype=float),
            np.array(rho, dtype=float))


def _run(lp, scaled, options):
    import highspy

    n = lp.n
    sc = np.ones(n)
    if scaled and lp.scale is not None:
        sc = np.clip(np.array([float(s) for s in lp.scale], dtype=float), 1e-200, 1e200)
    h = quiet_highs()
    for k, v in options.items():
        h.setOptionValue(k, v)
    inf = highspy.kHighsInf
    cost = np.array([float(v) for v in lp.c]) * sc
    h.addCols(n, cost, np.zeros(n), np.full(n, inf), 0, np.zeros(n, dtype=np.int32), np.zeros(0, dtype=np.int32),
              np.zeros(0))
    m_ub = len(lp.A_ub)
    for rows, rhs, eq in ((lp.A_ub, lp.b_ub, False), (lp.A_eq, lp.b_eq, True)):
        if not rows:
            continue
        starts, idx, vals, rho = _csr(rows, sc, n)
        up = np.array([float(b) for b in rhs]) / rho
        lo = up.copy() if eq else np.full(len(rows), -inf)
        h.addRows(len(rows), lo, up, len(idx), starts, idx, vals)
    h.run()
    status = h.getModelStatus()
    basis = h.getBasis()
    if not basis.valid:
        return status, None
    basic = highspy.HighsBasisStatus.kBasic
    col_basic = [s == basic for s in basis.col_status]
    row_basic = [s == basic for s in basis.row_status]
    duals = list(h.getSolution().row_dual) if h.getSolution().dual_valid else [0.0] * len(row_basic)
    return status, (col_basic, row_basic[:m_ub], row_basic[m_ub:], duals[m_ub:])


def _internal_basis(lp, col_basic, ub_basic, eq_basic, eq_duals):
    """HiGHS statuses -> ``(basic structurals, rows whose slack is basic)`` of the internal form.

    The internal form (:class:`exactdp.exact.lp_simplex.StandardForm`) has rows ``A_ub``, then ``A_eq``
    (``a.x + s+ = b``), then ``-A_eq`` (``-a.x + s- = -b``).  A non-basic equality row keeps one of ``s+``,
    ``s-`` basic (at 0): the one whose dual must vanish given the sign of HiGHS's dual ``y``
    (``y = lam- - lam+``), so that no degenerate pivot is needed to fix the sign.  A basic equality row
    keeps both.
    """
    n, m_ub, m_eq = lp.n, len(lp.A_ub), len(lp.A_eq)
    cols = {j for j in range(n) if col_basic[j]}
    rows = {k for k in range(m_ub) if ub_basic[k]}
    for i in range(m_eq):
        plus, minus = m_ub + i, m_ub + m_eq + i
        if eq_basic[i]:
            rows |= {plus, minus}
        else:
            rows.add(plus if eq_duals[i] >= 0 else minus)
    return cols, rows


def float_basis(lp: LinearProgram) -> tuple[tuple[set[int], set[int]] | None, list[str]]:
    """``(basis, statuses)``: HiGHS's basis in the internal form (None if it gave none) and its statuses.

    The basis is ``(basic structurals, rows whose slack is basic)`` (see :func:`_internal_basis`); the
    statuses are HiGHS's model statuses of the attempts made.

    Parameters
    ----------
    lp : LinearProgram
        The LP (its coefficients rounded to doubles for HiGHS).

    Returns
    -------
    basis : tuple of set or None
        ``(basic structurals, rows whose slack is basic)``, or ``None``.
    statuses : list of str
        One per attempt.

    Examples
    --------
    >>> from exactdp.exact.lp import LinearProgram
    >>> float_basis(LinearProgram(c=[2, 3], A_ub=[{0: -1, 1: -1}, {0: -1, 1: 1}], b_ub=[-4, 2]))
    (({0}, {1}), ['kOptimal'])
    """
    import highspy

    note: list[str] = []
    got = None
    for att in _ATTEMPTS:
        try:
            status, b = _run(lp, att["scaled"], att["options"])
        except OverflowError:  # a coefficient beyond the double range: no float guide, the exact start is used
            return None, [*note, "coefficients overflow a double"]
        note.append(str(status).split(".")[-1])
        if b is not None:
            got = b
        if status == highspy.HighsModelStatus.kOptimal and b is not None:
            break
    if got is None:
        return None, note
    return _internal_basis(lp, *got), note
