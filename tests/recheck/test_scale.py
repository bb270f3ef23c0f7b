"""Issue 19 item 4 / issue 21: the re-check at the papers' sizes, and no global precision in the kernel.

* a unit grid described by its definition is re-derived in the kernel (``recheck/_grid.py``): its orbit
  partition is checked equitable here by brute force on every point, its limb-summed quotient against exact
  integer sums over the full distance matrix;
* the numpy product of Rump's verification (``recheck/_verified.py``) is an upper bound of the exact defect,
  checked in exact rationals;
* tight / threshold / utility_comparison certificates that carry a grid's definition instead of its distance
  matrix are confirmed, and forged ones refuted;
* re-checking every ECP14 kind leaves mpmath's global precisions alone and never touches ``mpmath.iv``.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from fractions import Fraction

import mpmath
import pytest

from exactdp.exact.level import Level
from exactdp.metrics import grid, path
from exactdp.recheck import recheck
from exactdp.recheck._grid import Grid
from exactdp.recheck._verified import _S, Inverse, ListQ, _fixed_factors, enclose_quotient, quotient

SHAPES = [(1, 1), (1, 4), (3, 3), (4, 4), (3, 5), (5, 5), (6, 4)]


def _keys(R, C, norm):
    """The distance key of every pair of points, by brute force over the definition."""
    pts = [(r, c) for r in range(R) for c in range(C)]
    f = {"euclidean": lambda a, b: a * a + b * b, "chebyshev": max, "manhattan": lambda a, b: a + b}[norm]
    return [[f(abs(p[0] - q[0]), abs(p[1] - q[1])) for q in pts] for p in pts]


@pytest.mark.parametrize("norm", ["euclidean", "chebyshev", "manhattan"])
@pytest.mark.parametrize("shape", SHAPES)
def test_orbit_partition_is_equitable_by_brute_force(shape, norm):
    g = Grid({"kind": "grid", "shape": list(shape), "norm": norm})
    R, C = shape
    keys = _keys(R, C, norm)
    assert g.points == [f"{r},{c}" for r in range(R) for c in range(C)]
    assert sorted(g.keys) == sorted({v for row in keys for v in row})
    # every point of a cell sees the same multiset of distances into every cell
    seen: dict = {}
    for i, row in enumerate(keys):
        sig = Counter(zip(g.cell_of, row, strict=True))
        assert seen.setdefault(g.cell_of[i], sig) == sig
    # the cells are the orbits of the square's (rectangle's) reflections: sizes 1, 2, 4 or 8
    sizes = Counter(g.cell_of)
    assert set(sizes.values()) <= {1, 2, 4, 8} and len(sizes) == g.k
    # the orbit count by Burnside-free brute force: fold each point by hand
    folded = {(min(r, R - 1 - r), min(c, C - 1 - c)) for r in range(R) for c in range(C)}
    if R == C:
        folded = {tuple(sorted(p)) for p in folded}
    assert g.k == len(folded)


@pytest.mark.parametrize("norm", ["euclidean", "chebyshev", "manhattan"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 5), (6, 6)])
def test_limb_quotient_equals_exact_integer_sums(shape, norm):
    g = Grid({"kind": "grid", "shape": list(shape), "norm": norm})
    level = {"eps": "7/10"}
    F = _fixed_factors(level, g.values)
    LQ = g.enclosure(F)
    Qlo, Qhi = LQ.lists()
    # the kernel's cell-by-cell route over the full distance matrix (exact Python integers)
    index = {v: i for i, v in enumerate(g.keys)}
    codes = [[index[v] for v in row] for row in _keys(*shape, norm)]
    k, counts, _ = quotient(codes, g.cell_of, [Fraction(1)] * g.n, len(g.values))
    assert k == g.k
    assert (Qlo, Qhi) == enclose_quotient(level, g.values, k, counts) == g.quotient(F)
    # the midpoints summed from the limbs are within 3u of the exact ones (the bound _defect_rows uses)
    for row_lo, row_hi, row_f in zip(Qlo, Qhi, LQ.midpoints().tolist(), strict=True):
        for lo, hi, f in zip(row_lo, row_hi, row_f, strict=True):
            mid = Fraction(lo + hi, 2 ** (_S + 1))
            assert abs(Fraction(f) - mid) <= 3 * Fraction(1, 2**53) * Fraction(f)
    # the integer quantities the verification reads, against the plain lists
    LL = ListQ(Qlo, Qhi)
    assert LQ.widths() == LL.widths()
    rng = random.Random(k)
    for bits in (1, 60, 130):
        Y = [rng.randrange(-(2**bits), 2**bits) for _ in range(k)]
        assert LQ.mid_dot(Y) == LL.mid_dot(Y)
    other = g.enclosure(_fixed_factors({"eps": "71/100"}, g.values))
    exact = LL.near(ListQ(*other.lists()))
    bound = LQ.near(other)
    # an upper bound, loose only by borrows between limbs (< 2^77 per entry, i.e. below 2^-33 at scale 2^-S)
    assert all(e <= b <= e + k * 2**77 for e, b in zip(exact, bound, strict=True))


def test_grid_descriptions_refused():
    for bad in ({"kind": "grid", "shape": [3], "norm": "euclidean"},
                {"kind": "grid", "shape": [3, 0], "norm": "euclidean"},
                {"kind": "grid", "shape": [3, 3], "norm": "taxicab"},
                {"kind": "grid", "shape": [3, True], "norm": "euclidean"},
                {"kind": "grid", "shape": [3, 3], "norm": "euclidean", "step": 2}, {"kind": "path"}, None):
        with pytest.raises(ValueError):
            Grid(bad)


def test_numpy_defect_bound_is_an_upper_bound_in_exact_arithmetic():
    g = Grid({"kind": "grid", "shape": [6, 6], "norm": "euclidean"})
    Qlo, Qhi = g.quotient(_fixed_factors({"eps": "1/3"}, g.values))
    R = Inverse.of(Qlo, Qhi)
    bounds = R.verify(Qlo, Qhi)
    Rq = [[Fraction(v) * Fraction(2) ** R.exp for v in row] for row in R.M]
    k = g.k
    for Q in (Qlo, Qhi):          # two points of the enclosure: the exact defect is below the bound at both
        Qq = [[Fraction(v, 2**_S) for v in row] for row in Q]
        for i in range(k):
            row = [sum(Rq[i][m] * Qq[m][j] for m in range(k)) for j in range(k)]
            exact = sum(abs((1 if i == j else 0) - row[j]) for j in range(k))
            assert exact <= bounds[i]
    assert max(bounds) < Fraction(1, 10**9)


# --------------------------------------------------------------------- certificates without a matrix ----
@pytest.fixture()
def small_caps(monkeypatch):
    """Certificates of a 6 x 6 grid made as the 100 x 100 grid's are: no distance matrix, no carried inverse."""
    from exactdp.priors import evidence as priors
    from exactdp.priors import regular
    from exactdp.priors import threshold

    monkeypatch.setattr(priors, "MAX_DISTANCE_POINTS", 10)
    monkeypatch.setattr(regular, "MAX_CARRIED_INVERSE", 2)
    return threshold


def _forged(j, **fields):
    bad = copy.deepcopy(j)
    bad["evidence"].update(fields)
    return bad


def test_tight_certificate_on_a_described_grid(small_caps):
    from exactdp.priors.regular import tight_constraints

    m = grid((6, 6), "euclidean")
    for eps, holds in (("2", True), ("1/5", False)):
        c = tight_constraints(m, Level.from_eps(eps))
        j = c.to_json()
        ev = j["evidence"]
        assert c.holds is holds and ev["distances"] is None and ev["verified"]["inverse"] is None
        assert ev["metric"] == {"kind": "grid", "shape": [6, 6], "norm": "euclidean"}
        r = recheck(j)
        assert r.status == "confirmed" and "symmetry orbits" in r.detail, r.detail
    # fails: the negative points are certified; naming other ones, or none, is refuted
    assert ev["negative"]
    assert recheck(_forged(j, negative=ev["negative"][1:])).status == "refuted"
    assert recheck(_forged(j, negative=[])).status == "refuted"
    # the metric the description names, and nothing else
    for spec in ({"kind": "grid", "shape": [6, 6], "norm": "chebyshev"},
                 {"kind": "grid", "shape": [6, 5], "norm": "euclidean"},
                 {"kind": "path", "shape": [6, 6], "norm": "euclidean"}):
        assert recheck(_forged(j, metric=spec)).status == "refuted"
    with pytest.raises(ValueError, match="not a certificate"):           # a mistyped description: refused
        recheck(_forged(j, metric={"kind": "grid", "shape": [6, 6]}))
    # a stated enclosure of z moved off the value
    z = list(ev["z"])
    mid, rad = z[0][1:-1].split(" +/- ")
    z[0] = f"[{float(Fraction(mid) + Fraction(1, 1000))!r} +/- {rad}]"
    assert recheck(_forged(j, z=z)).status == "refuted"


def test_threshold_bracket_on_a_described_grid(small_caps):
    c = small_caps.threshold(grid((6, 6), "euclidean"))
    j = c.to_json()
    ev = j["evidence"]
    assert ev["route"] == "bracket" and ev["distances"] is None and ev["ends"] is None and ev["metric"] is not None
    r = recheck(j)
    assert r.status == "confirmed" and "symmetry orbits" in r.detail, r.detail
    # a point that is not negative at lo, or a bracket moved above the threshold, is refuted
    others = [p for p in grid((6, 6), "euclidean").points if p != ev["negative_at_lo"]]
    refuted = 0
    for p in others:
        refuted += recheck(_forged(j, negative_at_lo=str(p))).status == "refuted"
    assert refuted >= 1
    lo, hi = Fraction(ev["lo_rational"]), Fraction(ev["hi_rational"])
    shift = 2 * (hi - lo)
    moved = _forged(j, lo_rational=str(lo + shift), hi_rational=str(hi + shift))
    assert recheck(moved).status == "refuted"        # the decimal text no longer matches, at least


def test_utility_comparison_on_a_described_grid(small_caps):
    from exactdp.priors.regular import tight_constraints
    from exactdp.utility.grid import compare_utilities

    tc = tight_constraints(grid((6, 6), "euclidean"), Level.from_eps("2"))
    c = compare_utilities("2", tc, "planar-laplace", {"side": 6})
    assert c.evidence.tight.inverse is None
    assert recheck(c.to_json()).status == "confirmed"


def test_a_path_without_its_inverse_stays_not_checkable():
    import networkx as nx

    from exactdp.metrics import from_graph
    from exactdp.priors.regular import tight_constraints
    from exactdp.utility.grid import compare_utilities

    n = 31                                  # the graph of a sum query: points within 3 steps are adjacent
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((i, j) for i in range(n) for j in range(i + 1, min(n, i + 4)))
    tc = tight_constraints(from_graph(G), Level.from_eps("13/10"))
    c = compare_utilities("13/10", tc, "geometric", {"values": n, "step": 3, "power": 1},
                          metric={"kind": "path", "points": n, "reach": 3})
    j = c.to_json()
    assert c.holds is True and recheck(j).status == "confirmed"
    j["evidence"]["tight"]["inverse"] = None        # only a grid's quotient is derived in the kernel
    r = recheck(j)
    assert r.status == "not checkable" and "grid" in r.detail, r.detail


# --------------------------------------------------------------------------------- global precision ----
class _Tripwire:
    """Stands in for ``mpmath.iv``: any use of mpmath's global interval context fails the test."""

    def __getattr__(self, name):
        raise AssertionError(f"the re-check used mpmath's global interval context (mpmath.iv.{name})")


def _ecp14_certificates():
    from exactdp.mechanisms import geometric, randomized_response
    from exactdp.priors.leakage import leakage
    from exactdp.priors.regular import regular_prior, tight_constraints
    from exactdp.priors.theorem4 import tight_remap
    from exactdp.priors.threshold import threshold
    from exactdp.utility.grid import compare_utilities

    tc = tight_constraints(grid((4, 4), "euclidean"), Level.from_eps("2"))
    return [tight_constraints(grid((3, 3), "euclidean"), Level.from_eps("2")),   # transcendental, quotient
            tight_constraints(path(4), Level.from_alpha("1/2")),                   # rational
            regular_prior(["1/4"] * 4, path(4), Level.from_eps("1")),              # transcendental, gamma balls
            threshold(grid((4, 4), "euclidean")),                                  # bracket
            compare_utilities("2", tc, "planar-laplace", {"side": 4}),
            leakage(randomized_response(["a", "b"], p="1/4"), ["1/3", "2/3"]),
            tight_remap(geometric(3, "1/2"), path(4), Level.from_alpha("1/2"))]


def test_no_global_precision_is_set_or_used(monkeypatch):
    jsons = [c.to_json() for c in _ecp14_certificates()]
    assert {j["kind"] for j in jsons} == {"tight", "regular", "threshold", "utility_comparison", "leakage", "theorem4"}
    mp_prec, iv_prec = mpmath.mp.prec, mpmath.iv.prec
    monkeypatch.setattr(mpmath, "iv", _Tripwire())
    for j in jsons:
        r = recheck(j)
        assert r.status == "confirmed", (j["kind"], r.detail)
    monkeypatch.undo()
    assert (mpmath.mp.prec, mpmath.iv.prec) == (mp_prec, iv_prec)


# ------------------------------------------------------------------------------------ strict evidence ----
@pytest.fixture(scope="module")
def ecp14_jsons():
    return {c.kind: c.to_json() for c in _ecp14_certificates() if c.kind != "tight" or c.evidence.exact is False}


@pytest.mark.parametrize("kind", ["tight", "regular", "threshold", "leakage", "theorem4", "utility_comparison"])
def test_evidence_is_read_strictly(ecp14_jsons, kind):
    j = ecp14_jsons[kind]
    assert recheck(j).status == "confirmed"
    ev = j["evidence"]
    claims = [k for k, v in ev.items() if isinstance(v, (str, int, list)) and not isinstance(v, bool)]
    assert claims
    for k in claims:
        missing = copy.deepcopy(j)
        del missing["evidence"][k]
        with pytest.raises(ValueError, match=f"not a certificate: evidence: fields do not match; missing \\['{k}'\\]"):
            recheck(missing)
        mistyped = copy.deepcopy(j)
        mistyped["evidence"][k] = {"a": 1}                 # an object where a string, integer or list is due
        with pytest.raises(ValueError, match=f"not a certificate: evidence.{k}: expected"):
            recheck(mistyped)
    unknown = copy.deepcopy(j)
    unknown["evidence"]["surplus"] = "1"
    with pytest.raises(ValueError, match="unknown \\['surplus'\\]"):
        recheck(unknown)
    # a boolean is not an integer, an integer not a string (inside a list too)
    first = claims[0]
    bad = copy.deepcopy(j)
    bad["evidence"][first] = [True] if isinstance(ev[first], list) else True
    with pytest.raises(ValueError, match="not a certificate"):
        recheck(bad)


def test_a_large_optimality_certificate_is_refused_before_any_work():
    """A genuine GRS12 optimality certificate at n = 300 once took the kernel 10 min and 23.6 GB; the kernel
    counts the user LP first and answers 'not checkable: too large' at once."""
    import json
    import time

    from exactdp.recheck import recheck
    from exactdp.recheck.optimality import MAX_N
    from exactdp.optimality.universal import certify_universal_optimality
    from exactdp.optimality.users import User

    n = 2
    u = User(["1/3"] * 3, [[abs(i - j) for j in range(3)] for i in range(3)])
    j = json.loads(json.dumps(certify_universal_optimality(n, u, alpha="1/2").to_json()))
    assert recheck(j).status == "confirmed"
    # the same certificate claiming n = MAX_N + 1 (with a prior and loss of that size): refused by its size
    big = MAX_N + 1
    j["evidence"]["n"] = big
    j["evidence"]["prior"] = [f"1/{big + 1}"] * (big + 1)
    j["evidence"]["loss"] = [[str(abs(i - k)) for k in range(big + 1)] for i in range(big + 1)]
    from exactdp.recheck.optimality import claim_text

    j["claim"] = claim_text(j)          # consistent, so that only the size decides
    t = time.process_time()
    r = recheck(j)
    assert r.status == "not checkable" and time.process_time() - t < 5, r.detail
    assert "too large" in r.detail and f"n <= {MAX_N}" in r.detail


def test_optimality_uniqueness_by_a_modular_rank_at_n_60():
    """GRS12's optimum is unique when the optimal face has full column rank; the kernel proves it by sparse
    elimination modulo the prime 2^61 - 1 (full rank there is full rank over the rationals), so n = 60 -- once
    60 s over fractions -- re-checks in seconds, and a face whose modular rank is not full (a zero loss: every
    private mechanism is optimal) is not decided above the rational rank's limit."""
    import json
    import time

    from exactdp.recheck import recheck
    from exactdp.recheck.optimality import MAX_RATIONAL_RANK, _full_rank_mod_p
    from exactdp.optimality.universal import certify_universal_optimality
    from exactdp.optimality.users import User

    j = json.loads(json.dumps(certify_universal_optimality(60, User.uniform(60, "absolute"), alpha="1/2").to_json()))
    t = time.process_time()
    r = recheck(j)
    assert r.status == "confirmed" and j["evidence"]["unique"] is True and "proved by the rank" in r.detail
    assert time.process_time() - t < 30
    # the modular rank against a brute-force rational rank on small matrices: full iff full
    from fractions import Fraction as F

    from exactdp.recheck._lp import rank as _rank
    for rows, n in (([{0: F(1), 1: F(2)}, {0: F(2), 1: F(4)}], 2), ([{0: F(1, 3)}, {1: F(5, 7)}], 2),
                    ([{0: F(1), 1: F(1)}, {1: F(1), 2: F(1)}, {0: F(1), 2: F(-1)}], 3),
                    ([{0: F(1), 1: F(1)}, {1: F(1), 2: F(1)}, {0: F(1), 2: F(1)}], 3)):
        assert _full_rank_mod_p(rows, n) == (_rank(rows, n) == n)
    n = 41                                   # zero loss: the face is every variable, 42^2 > MAX_RATIONAL_RANK
    assert MAX_RATIONAL_RANK < 42 * 42
    z = User([f"1/{n + 1}"] * (n + 1), [[0] * (n + 1) for _ in range(n + 1)])
    j = json.loads(json.dumps(certify_universal_optimality(n, z, alpha="1/2").to_json()))
    assert j["evidence"]["unique"] is None
    r = recheck(j)
    assert r.status == "not checkable" and "modulo" in r.detail, r.detail


def test_limb_products_are_bounded_before_they_are_trusted(monkeypatch):
    # mid_dot sums products below 2^21 * 2^28 over at most MAX_DOT_CELLS = 2^13 cells: below 2^62 in int64, but
    # only for limbs in [0, 2^42) -- a larger limb, or more cells, is refused instead of overflowing silently
    import numpy as np

    from exactdp.recheck import _grid
    from exactdp.recheck._kernel import NotHere

    assert _grid.MAX_DOT_CELLS * 2**21 * 2**28 <= 2**62
    L = np.zeros((2, 3, 2, 2), dtype=np.int64)
    L[0, 0, 0, 0] = L[1, 0, 0, 0] = 2**41           # lo + hi = 2^42: one past the bound
    with pytest.raises(NotHere, match="outside"):
        _grid.LimbQ(L).mid_dot([1, 1])
    L[1, 0, 0, 0] = 2**41 - 1                         # 2^42 - 1: accepted, and exact
    got = _grid.LimbQ(L).mid_dot([3, -5])
    assert got == [(2**42 - 1) * 3 << (2 * 37), 0]
    monkeypatch.setattr(_grid, "MAX_DOT_CELLS", 1)
    with pytest.raises(NotHere, match="above 1 cells"):
        _grid.LimbQ(L).mid_dot([1, 1])


@pytest.mark.parametrize("n", [2, 61, 500, 2000])
def test_a_long_sum_is_one_level_deep_and_exact(n):
    # t0 + t1 - t2 ... nests n deep in the parser; read as one chain it stays under the nesting limit of 60,
    # and its value is the sum left to right (rationals and exponential terms mixed, signs alternating)
    from exactdp.recheck import _kernel as K

    rng = random.Random(n)
    coeff = [Fraction(rng.randint(-9, 9), rng.randint(1, 9)) for _ in range(n)]
    expo = [rng.randint(0, 3) for _ in range(n)]
    terms = [f"({c.numerator}/{c.denominator})" + (f"*exp({e}/3)" if e else "") for c, e in zip(coeff, expo,
                                                                                                   strict=True)]
    text = terms[0] + "".join((" - " if i % 2 else " + ") + t for i, t in enumerate(terms[1:]))
    v = K._val(K._tree(text))
    want: dict = {}
    for i, (c, e) in enumerate(zip(coeff, expo, strict=True)):
        want[e] = want.get(e, 0) + (-c if i and i % 2 == 0 else c)  # term i > 0 follows ' - ' when i is even
    want = {e: c for e, c in want.items() if c}
    if isinstance(v, Fraction):
        assert set(want) <= {0} and v == want.get(0, 0)
    else:
        got = {(dict(k).get(1, Fraction(0)) * 3): c for k, c in v.num.items()}
        assert v.den == {(): 1} and got == {Fraction(e): c for e, c in want.items()}


@pytest.mark.parametrize("text", ["exp(" * 61 + "0" + ")" * 61, "-" * 61 + "1", "(2 * " * 61 + "1" + ")" * 61,
                                  "(1 + " * 61 + "1" + ")" * 61])
def test_nesting_other_than_a_chain_of_sums_is_still_bounded(text):
    from exactdp.recheck import _kernel as K

    with pytest.raises(K.TooLarge, match="nested more than 60 deep"):
        K._tree(text)


def test_a_sum_too_long_is_not_checkable_not_a_crash():
    # refused by the parser's own recursion or, where the stack allows the parse, by the term count: both are
    # "not checkable" (NotHere), never a crash
    from exactdp.recheck._kernel import NotHere, _tree

    with pytest.raises(NotHere, match=r"RecursionError|more than 4096 exponential terms"):
        _tree(" + ".join(["exp(1)"] * 9000))


@pytest.mark.parametrize("text", ["1/\u09ea", "\uff12/\uff14", "1_0/20", "0x10", "0b1/0b10", "0o7", "exp(1\u22122)",
                                  "1/2\u00a0"])
def test_python_only_number_forms_are_not_the_grammar(text):
    # a Bengali four (looks like 8, reads as 4), fullwidth digits, digit-group underscores, radix prefixes, a
    # Unicode minus, a non-breaking space: Python reads some of them, the exactdp grammar does not
    from exactdp.recheck import _kernel as K

    with pytest.raises(ValueError, match="not a number of the exactdp grammar"):
        K._tree(text)
    with pytest.raises(ValueError):
        K.fraction(text)
    with pytest.raises(ValueError):
        K.rational(text)


@pytest.mark.parametrize("text, value", [("3", Fraction(3)), ("-3/4", Fraction(-3, 4)), ("0004/8", Fraction(1, 2)),
                                         ("0.25", Fraction(1, 4)), ("1e-3", Fraction(1, 1000))])
def test_fraction_reads_the_producers_numbers(text, value):
    from exactdp.recheck import _kernel as K

    assert K.fraction(text) == value and K.rational(text) == value


@pytest.mark.parametrize("text", [" 1/2", "1/2 ", "1 /2", "+1/2", "1/-2", "½", "sqrt(2)", "", "1/"])
def test_fraction_refuses_what_fraction_alone_would_stretch_to_read(text):
    from exactdp.recheck import _kernel as K

    with pytest.raises(ValueError):
        K.fraction(text)


def test_no_kind_reads_a_number_with_fraction_alone():
    # every rational read from a certificate goes through the kernel's one grammar (fraction / value): a bare
    # Fraction(text) would read ' 1/2', '1_0/20' and a Bengali four (an adversary's look-alike of 8) as numbers
    import ast
    from pathlib import Path

    import importlib

    R = importlib.import_module("exactdp.recheck")    # the package (exactdp.recheck is also the function's name)
    allowed = {"_kernel.py", "_verified.py", "_sturm.py"}     # the grammar itself; floats made exact; ints
    found = []
    for p in sorted(Path(R.__file__).parent.glob("*.py")):
        if p.name in allowed:
            continue
        src = p.read_text(encoding="utf-8")
        for n in ast.walk(ast.parse(src)):
            if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Fraction" and len(n.args) == 1:
                a = n.args[0]
                if isinstance(a, ast.Constant) or (isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant)):
                    continue
                if "libmp" in ast.get_source_segment(src, a):
                    continue
                found.append(f"{p.name}:{n.lineno}")
    assert not found, found
