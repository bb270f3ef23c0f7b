"""Re-check ``utility_comparison`` certificates (ECP14 sec. 7, Figs. 6-7) from their JSON alone.

* the tight-constraints utility ``sum(z)/n`` is re-summed with :mod:`fractions` from the per-cell enclosures
  of ``z`` and the cell sizes (which must add up to ``n``); the enclosures of ``z`` themselves come from the
  ``tight`` certificate at the same level (re-checked as that kind);
* the other utility is re-derived with :mod:`mpmath` intervals: the geometric closed form, or the planar
  Laplace utility on the ``side x side`` Euclidean grid as ``(1/n) sum_z 1/Z_z`` -- the column maximum of
  ``K(x)(z) = e^(-beta d(x,z))/Z_x`` is at ``x = z``, since the triangle inequality gives
  ``Z_x >= e^(-beta d(x,z)) Z_z`` -- with the normalisers ``Z`` from 2-D prefix sums, evaluated once per
  orbit of the square's symmetries (found here by folding every point);
* both stated enclosures must contain the re-derived ones, and the verdict and margin must follow exactly.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from ._kernel import NotHere

CONFIRMED, REFUTED = "confirmed", "refuted"

#: largest grid side re-derived here
MAX_SIDE = 200


def _iv(q: Fraction):
    return mpmath.iv.mpf(q.numerator) / q.denominator


def _tight(ev: dict):
    n = ev["points"]
    cells = ev["tight_cells"]
    if sum(int(c[0]) for c in cells) != n or any(int(c[0]) < 1 for c in cells):
        return None, "the cell sizes do not add up to the number of points"
    lo = sum(int(c[0]) * Fraction(c[1]) for c in cells) / n
    hi = sum(int(c[0]) * Fraction(c[2]) for c in cells) / n
    t = [Fraction(v) for v in ev["tight_utility"]]
    if not (t[0] <= lo <= hi <= t[1]):
        return None, f"sum(z)/n in [{float(lo)}, {float(hi)}] is not inside the stated tight-constraints enclosure"
    return t, f"sum(z)/n re-summed over {len(cells)} cells"


def _geometric(eps: Fraction, p: dict):
    iv = mpmath.iv
    N, step, power = int(p["values"]), int(p["step"]), int(p["power"])
    a = iv.exp(-_iv(eps / step))
    return ((2 / (1 + a) + (N - 2) * (1 - a) / (1 + a)) / N) ** power


def _orbits(N: int) -> dict:
    """Folded key -> orbit size, by folding every point of the grid."""
    out: dict = {}
    for i in range(N):
        for j in range(N):
            p, q = min(i, N - 1 - i), min(j, N - 1 - j)
            key = (min(p, q), max(p, q))
            out[key] = out.get(key, 0) + 1
    return out


def _prefix_sums(N: int, beta):
    iv = mpmath.iv
    wcache: dict = {}

    def w(s):
        if s not in wcache:
            wcache[s] = iv.exp(-beta * iv.sqrt(s))
        return wcache[s]
    G = [[None] * N for _ in range(N)]
    for u in range(N):
        run = iv.mpf(0)
        for v in range(N):
            run = run + w(u * u + v * v)
            G[u][v] = run + (G[u - 1][v] if u else 0)
    return G


def _laplace(eps: Fraction, p: dict):
    N = int(p["side"])
    if not 1 <= N <= MAX_SIDE:
        raise NotHere(f"a grid side of {N} is outside this kernel's range 1..{MAX_SIDE}")
    iv = mpmath.iv
    beta = _iv(eps / 2)
    G = _prefix_sums(N, beta)

    def Z(a, b):
        A, B = N - 1 - a, N - 1 - b
        return G[a][b] + G[a][B] + G[A][b] + G[A][B] - G[a][0] - G[A][0] - G[0][b] - G[0][B] + 1
    total = iv.mpf(0)
    for key, size in _orbits(N).items():
        total += size / Z(*key)
    return total / (N * N)


def check(c: dict):
    ev = c["evidence"]
    saved = mpmath.iv.prec
    try:
        mpmath.iv.prec = 100
        t, tdetail = _tight(ev)
        if t is None:
            return REFUTED, len(ev["tight_cells"]), tdetail
        eps = Fraction(ev["eps"])
        if eps <= 0:
            return REFUTED, 0, "eps is not positive"
        u = {"geometric": _geometric, "planar-laplace": _laplace}[ev["other"]](eps, ev["other_params"])
        o = [Fraction(v) for v in ev["other_utility"]]
        inside = _iv(o[0]).b <= u.a and u.b <= _iv(o[1]).a
    finally:
        mpmath.iv.prec = saved
    if not inside:
        return REFUTED, 1, f"the {ev['other']} utility re-derived in intervals is NOT inside the stated enclosure"
    want = "holds" if t[0] > o[1] else ("fails" if t[1] < o[0] else "undecided")
    ok = want == c["verdict"] and Fraction(ev["margin"]) == t[0] - o[1]
    return (CONFIRMED if ok else REFUTED), len(ev["tight_cells"]) + 1, (
        f"{tdetail}; the {ev['other']} utility re-derived in interval arithmetic inside the stated enclosure; "
        f"verdict {want}" + ("" if ok else f" but the certificate says {c['verdict']} (margin {ev['margin']})")
        + "; the enclosures of z rest on the tight certificate at the same level")
