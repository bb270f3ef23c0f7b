"""Programs of independent iterations (exactdp/programs/product.py): the product lemma and its route.

Every answer of the product route is compared with the general route, which compiles the whole matrix at ``n``
and does not know the lemma: the verdicts, failure sets and smallest eps agree exactly, the lifted witnesses fail
on the full matrix, and the full matrix is the product of the single iteration's, entry by entry.
"""

import itertools
import json
import re
from pathlib import Path

import pytest
from flint import fmpq

from exactdp.programs import certify_program, output_distribution, parse_program
from exactdp.programs.check import program_certificate
from exactdp.programs.product import coordinate_pairs, independent_iterations, positive_on_01
from exactdp.programs.ratfunc import RatFunc
from exactdp.recheck import recheck

SUITE = Path(__file__).resolve().parents[2] / "examples" / "programs"

HIST = "for i:\n  z = dlap(1)\n  output clamp(q + z, -2, 2)\nend\n"
#: noise of half the calibrated scale: the ratio reaches e^(2 eps), fails at every eps with cost 2
HALF = "for i:\n  z = dlap(1/2)\n  output clamp(q + z, -2, 3)\nend\n"
#: one-sided noise: output -1... on q = 0 is impossible on q = 1: never private
ONE_SIDED = "for i:\n  z = geo(1)\n  output clamp(q + z, 0, 4)\nend\n"
#: a threshold per query with fresh noise and a local variable set on both branches
LOCAL = ("for i:\n  nu = dlap(2)\n  if q + nu >= 1:\n    b = 1\n  else:\n    b = 0\n  end\n"
         "  output clamp(2 * b + q + nu, -1, 3)\nend\n")


def _p(text, name="p"):
    return parse_program(text, name)


def _json(c):
    return json.loads(json.dumps(c.to_json()))


def test_suite_programs_of_independent_iterations():
    found = {}
    for f in sorted(SUITE.glob("*.prog")):
        found[f.stem] = independent_iterations(_p(f.read_text(), f.stem))
    assert {k for k, v in found.items() if v is None} == {"hist", "hist_eps"}
    assert found["prefix_sum"] == "a statement outside the loop"
    assert found["nm_index_lap"] == "no loop"


@pytest.mark.parametrize("text,why", [
    ("for i:\n  z = dlap(1)\n  output clamp(q + i + z, 0, 3)\nend\n", "the body reads 'i'"),
    ("for i:\n  z = dlap(1)\n  output clamp(q + n + z, 0, 3)\nend\n", "the body reads 'n'"),
    ("for i:\n  z = dlap(1)\n  output clamp(q[1] + z, 0, 3)\nend\n", "the body reads q[k]"),
    ("for i:\n  z = dlap(1)\n  output clamp(q + z, 0, 3)\n  stop\nend\n", "a stop"),
    ("for i:\n  if q >= 1:\n    s = 1\n  end\n  z = dlap(1)\n  output clamp(q + z, 0, 3)\n  t = s\nend\n",
     "the body reads 's' before assigning it in the same iteration"),
    ("w = 0\nfor i:\n  z = dlap(1)\n  output clamp(q + z, 0, 3)\nend\n", "a statement outside the loop"),
])
def test_what_ties_iterations_is_named(text, why):
    assert independent_iterations(_p(text)) == why


def test_coordinate_pairs():
    assert coordinate_pairs("one-differ", 3, (0, 3)) == [(0, 1), (1, 2), (2, 3)]
    assert coordinate_pairs("increasing", 3, (0, 3)) is None
    assert coordinate_pairs([((0, 1), (2, 1)), ((2, 0), (0, 0)), ((1, 1), (1, 0))], 2, (0, 2)) == [(0, 2), (1, 0)]
    assert coordinate_pairs([((0, 1), (1, 0))], 2, (0, 2)) is None


def test_positive_on_01_decides_exactly():
    from flint import fmpq_poly
    assert positive_on_01(RatFunc(fmpq_poly([0, 1])))            # t > 0 on the open interval
    assert not positive_on_01(RatFunc(fmpq_poly([1, -3])))       # 1 - 3t vanishes at 1/3
    assert not positive_on_01(RatFunc(0))


@pytest.mark.parametrize("text", [HIST, HALF, ONE_SIDED, LOCAL])
def test_the_full_matrix_is_the_product_of_one_iteration(text):
    """The lemma's premise, by the general compiler at n = 2: K_2(x)(z1,z2) = K_1(x1)(z1) K_1(x2)(z2) exactly."""
    p = _p(text)
    one = {v: output_distribution(p, (v,)) for v in range(3)}
    for x in itertools.product(range(3), repeat=2):
        full = output_distribution(p, x)
        expect = {f"{a},{b}": va * vb for a, va in one[x[0]].items() for b, vb in one[x[1]].items()}
        assert {k: v for k, v in expect.items() if not v.is_zero()} == full


@pytest.mark.parametrize("text,verdict", [(HIST, "holds"), (HALF, "fails"), (ONE_SIDED, "fails"),
                                          (LOCAL, "holds")])
def test_every_eps_route_agrees_with_the_full_matrix(text, verdict):
    p = _p(text)
    c = program_certificate(p, n=3, domain=(0, 2), relation="one-differ")
    full = certify_program(p, n=3, domain=(0, 2), relation="one-differ")      # the matrix route, 27 x 125
    assert c.evidence.form == "product" and c.verdict.value == verdict == full.verdict.value
    assert c.evidence.inputs == ["0", "1", "2"]
    if verdict == "fails":
        def exact(pieces):          # the ends and their closedness (the approximations are labels)
            return [(q.lo, q.hi, q.point, q.lo_closed, q.hi_closed) for q in pieces]
        assert exact(c.evidence.failure_set) == exact(full.evidence.failure_set)
        w = c.evidence.witness
        x, y = tuple(map(int, w.x.split(","))), tuple(map(int, w.x_prime.split(",")))
        assert sum(a != b for a, b in zip(x, y, strict=True)) == 1
        kx, ky = output_distribution(p, x), output_distribution(p, y)
        if c.evidence.never:
            assert w.output in kx and w.output not in ky
        else:                               # fails at the witness's u on the full matrix: u^L K_x(z) > K_x'(z)
            u, L = fmpq(*map(int, w.u.split("/"))) if "/" in w.u else fmpq(int(w.u)), c.evidence.base_power
            assert kx[w.output].num(u) / kx[w.output].den(u) * u ** L > ky[w.output].num(u) / ky[w.output].den(u)
    assert recheck(_json(c)).status == "confirmed"


@pytest.mark.parametrize("text", [HIST, HALF, LOCAL])
def test_cost_and_level_agree_with_the_full_matrix(text):
    p = _p(text)
    c = program_certificate(p, n=2, domain=(0, 2), relation="one-differ", eps="1", cost=True)
    full = certify_program(p, n=2, domain=(0, 2), relation="one-differ", eps="1", cost=True)
    assert c.evidence.form == "product" and c.evidence.epsilon == full.evidence.epsilon
    # the lifted witness's ratio at n is K_1's ratio at its differing coordinate, as rational functions of t
    w = c.evidence.witness
    x, y, z = (tuple(map(int, w.x.split(","))), tuple(map(int, w.x_prime.split(","))), w.output.split(","))
    j = next(k for k in range(2) if x[k] != y[k])
    kx, ky = output_distribution(p, x)[w.output], output_distribution(p, y)[w.output]
    k1x, k1y = output_distribution(p, (x[j],))[z[j]], output_distribution(p, (y[j],))[z[j]]
    assert kx * k1y == ky * k1x
    at = program_certificate(p, n=2, domain=(0, 2), relation="one-differ", eps="1")
    assert at.verdict.value == certify_program(p, n=2, domain=(0, 2), relation="one-differ", eps="1").verdict.value
    for cert in (c, at):
        assert recheck(_json(cert)).status == "confirmed"


def test_explicit_pairs_of_one_coordinate_take_the_route():
    p = _p(HALF)
    pairs = [[[0, 2, 1], [0, 2, 2]], [[1, 0, 0], [1, 1, 0]]]
    c = program_certificate(p, n=3, domain=(0, 2), relation=pairs)
    assert c.evidence.form == "product" and c.verdict.value == "fails"
    w = c.evidence.witness
    assert [[int(v) for v in w.x.split(",")], [int(v) for v in w.x_prime.split(",")]] in (pairs + [q[::-1]
                                                                                                   for q in pairs])
    assert recheck(_json(c)).status == "confirmed"


@pytest.mark.parametrize("text,relation", [
    (HIST, "all-differ"),                                                      # pairs differ in several places
    (HIST, [[[0, 0], [1, 1]]]),
    ("s = 0\nfor i:\n  z = dlap(1)\n  s = s + q\n  output clamp(s + z, -2, 3)\nend\n", "one-differ"),
    ("for i:\n  z = dlap(1)\n  if q + z >= 1:\n    output \"T\"\n  end\nend\n", "one-differ"),  # 0 or 1 items
    ("for i:\n  z = dlap(1)\n  output \"a\"\n  output clamp(q + z, 0, 2)\nend\n", "one-differ"),  # 2 items
])
def test_other_programs_and_relations_take_the_general_route(text, relation):
    p = _p(text)
    c = program_certificate(p, n=2, domain=(0, 2), relation=relation)
    assert c.evidence.form in ("matrix", "linear")           # never the product form
    assert all(len(x.split(",")) == 2 for x in c.evidence.inputs) and (c.evidence.inputs or c.evidence.form == "linear")
    assert c.verdict.value == certify_program(p, n=2, domain=(0, 2), relation=relation).verdict.value
    assert recheck(_json(c)).status == "confirmed"


def test_hist_at_large_n_needs_no_enumeration():
    text = (SUITE / "hist.prog").read_text()
    c = program_certificate(_p(text, "hist"), n=40, domain=(0, 2), relation=re.search(r"# relation: (\S+)",
                                                                                     text).group(1))
    assert c.holds and c.evidence.form == "product" and c.claim.startswith("program hist (n = 40")
    assert recheck(_json(c)).status == "confirmed"
