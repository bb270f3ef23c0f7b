"""OpenDP measurements read exactly (issue 29, item 3): ``mechanism_of_opendp`` / ``certify_opendp`` and
``exactdp opendp profile --serialized FILE``.

Each recognised measurement is compared, exactly (``==`` on every entry), with the builder that has the same law;
profiles are checked against a brute force from the definition (Fractions) where the entries are rational, both
verdicts are exercised, and every measurement exactdp does not read is refused with its name."""

from __future__ import annotations

import json
from fractions import Fraction as Fr

import pytest
from flint import fmpq

from exactdp.cli import main
from exactdp.errors import InvalidInput
from exactdp.mechanisms import geometric, randomized_response

dp = pytest.importorskip("opendp.prelude")
dp.enable_features("contrib")

from exactdp.interop.accountants import certify_opendp, mechanism_of_opendp, plan_of_dp_event  # noqa: E402


def int_lap(scale, **kw):
    return dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=scale, **kw)


def brute_delta(rows, pairs, t: Fr) -> Fr:
    """max over ordered pairs of sum_y max(P(y) - t Q(y), 0), from the definition."""
    best = Fr(0)
    for a, b in pairs:
        for u, v in ((a, b), (b, a)):
            best = max(best, sum((max(Fr(str(p)) - t * Fr(str(q)), Fr(0)) for p, q in zip(rows[u], rows[v],
                                                                                          strict=True)), Fr(0)))
    return best


def test_randomized_response_bool_is_the_builder_and_its_profile():
    m, nb, name = mechanism_of_opendp(dp.m.make_randomized_response_bool(prob=0.75))
    ref = randomized_response(["False", "True"], p="1/4")
    assert name == "make_randomized_response_bool" and nb == [("False", "True")]
    assert m.rows() == ref.rows() and list(map(str, m.inputs)) == list(map(str, ref.inputs))
    rows = m.rows()
    for eps, t in (("0", Fr(1)), ("log(2)", Fr(2))):
        got = certify_opendp(dp.m.make_randomized_response_bool(prob=0.75), eps=eps).evidence.query.delta_at_eps
        assert Fr(got) == brute_delta(rows, [(0, 1)], t)
    # OpenDP's map is log(prob/(1 - prob)) = log 3: delta 0 exactly there, not below
    c = certify_opendp(dp.m.make_randomized_response_bool(prob=0.75), eps="log(3)", delta="0")
    assert c.holds and c.recheck().status == "confirmed"
    c = certify_opendp(dp.m.make_randomized_response_bool(prob=0.75), eps="log(2)", delta="0")
    assert not c.holds and c.recheck().status == "confirmed"


def test_randomized_response_categorical_is_the_builder():
    meas = dp.m.make_randomized_response(categories=["a", "b", "c"], prob=0.5)
    m, nb, _ = mechanism_of_opendp(meas)
    ref = randomized_response(["a", "b", "c"], p="1/4")      # each other category (1 - 1/2)/2
    assert m.rows() == ref.rows() and nb == [("a", "b"), ("a", "c"), ("b", "c")]
    # OpenDP's map: log(prob m / (1 - prob)) = log 2
    assert certify_opendp(meas, eps="log(2)", delta="0").holds
    c = certify_opendp(meas, eps="1/2", delta="0")
    assert not c.holds
    assert Fr(certify_opendp(meas, eps="0").evidence.query.delta_at_eps) == brute_delta(m.rows(), [(0, 1)], Fr(1))


@pytest.mark.parametrize("make", ["make_laplace", "make_geometric"])
def test_integer_laplace_is_the_clamped_geometric_mechanism(make):
    meas = getattr(dp.m, make)(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=2.0)
    m, nb, name = mechanism_of_opendp(meas, lo=3, hi=6, d_in=2)
    assert name == make
    assert m.rows() == geometric(3, eps="1/2").rows()
    assert [str(x) for x in m.inputs] == ["3", "4", "5", "6"]
    assert nb == [("3", "4"), ("3", "5"), ("4", "5"), ("4", "6"), ("5", "6")]
    # pairs at distance <= 2: pure DP at exactly d_in/scale = 1 (OpenDP's map(2) = 1.0), not below
    c = certify_opendp(meas, lo=3, hi=6, d_in=2, eps="1", delta="0")
    assert c.holds and c.recheck().status == "confirmed"
    assert not certify_opendp(meas, lo=3, hi=6, d_in=2, eps="9/10", delta="0").holds
    assert float(meas.map(2)) == 1.0


def test_integer_laplace_takes_the_domain_bounds_as_its_input_range():
    meas = dp.m.make_laplace(dp.atom_domain(bounds=(0, 2), T=int), dp.absolute_distance(T=int), scale=1.0)
    m, _, _ = mechanism_of_opendp(meas)
    assert m.rows() == geometric(2, eps="1").rows()
    with pytest.raises(InvalidInput, match=r"range 0\.\.5 is not inside the domain's bounds \(0, 2\)"):
        mechanism_of_opendp(meas, lo=0, hi=5)


def test_discrete_gaussian_with_a_stated_truncation_is_the_event_reader_s():
    meas = dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0)
    m, nb, _ = mechanism_of_opendp(meas, lo=0, hi=1, truncation=4)

    class DiscreteGaussianDpEvent:            # dp_accounting 0.6.0 has none; the reader matches it by name
        sigma, sensitivity = 1.0, 1

    ((ref, times),) = plan_of_dp_event(DiscreteGaussianDpEvent(), truncation=4)
    assert times == 1 and nb == [("0", "1")]
    assert m.rows() == ref.rows() and [str(y) for y in m.outputs] == [str(y) for y in ref.outputs]
    # the loss of the truncated mechanism is unbounded (an output only one input reaches): no pure DP
    assert not certify_opendp(meas, lo=0, hi=1, truncation=4, eps="20", delta="0").holds


def test_a_serialized_description_is_read_the_same_as_the_measurement():
    meas = int_lap(2.0)
    desc = json.loads(dp.serialize(meas))
    a, _, _ = mechanism_of_opendp(meas, lo=0, hi=3)
    b, _, _ = mechanism_of_opendp(desc, lo=0, hi=3)
    assert a.rows() == b.rows()
    desc["__kwargs__"]["scale"] = "2.0"                  # exactdp's JSON reader keeps decimals as text
    assert mechanism_of_opendp(desc, lo=0, hi=3)[0].rows() == a.rows()


@pytest.mark.parametrize("build, kw, match", [
    (lambda: dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=2.0), {},
     r"make_laplace on atom_domain\(T=f64\) is not read"),
    (lambda: dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=2.0), {},
     r"make_laplace on the domain 'vector_domain' is not read"),
    (lambda: dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(0, 1))), dp.symmetric_distance())
     >> dp.m.then_laplace(scale=1.0), {}, r"make_chain_mt is not read exactly"),
    (lambda: dp.m.make_geometric(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=2.0, bounds=(0, 9)),
     {"lo": 0, "hi": 3}, r"make_geometric with bounds .* is not read"),
    (lambda: int_lap(2.0), {}, r"make_laplace on all integers has infinitely many inputs"),
    (lambda: int_lap(2.0), {"lo": 0, "hi": 201}, r"201 steps; at most 200"),
    (lambda: int_lap(2.0), {"lo": 3, "hi": 3}, r"integers lo < hi"),
    (lambda: dp.m.make_laplace(dp.atom_domain(T="u32"), dp.absolute_distance(T="u32"), scale=1.0),
     {"lo": -1, "hi": 3}, r"not in the domain of u32 \(unsigned\)"),
    (lambda: int_lap(2.0), {"lo": 0, "hi": 3, "d_in": 0}, r"d_in must be an integer >= 1"),
    (lambda: int_lap(0.3), {"lo": 0, "hi": 3}, r"1/scale = .* has a denominator above 65,536"),
    (lambda: dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0), {"lo": 0, "hi": 1},
     r"make_gaussian on integers is the discrete Gaussian.*state the truncation"),
    (lambda: dp.m.make_gaussian(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0),
     {"lo": 0, "hi": 1, "truncation": 0}, r"truncation must be an integer in 1\.\.200"),
    (lambda: "make_laplace", {}, r"expected an OpenDP Measurement .* got str"),
    (lambda: {"__function__": 3}, {}, r"expected OpenDP's serialized measurement"),
    (lambda: {"__function__": "make_randomized_response_bool", "__kwargs__": {"prob": 0.25}}, {},
     r"needs 1/2 <= prob <= 1, got 1/4"),
    (lambda: {"__function__": "make_randomized_response", "__kwargs__": {"categories": ["a", "a"], "prob": 0.5}},
     {}, r"at least 2 distinct categories"),
    (lambda: {"__function__": "make_randomized_response_bool", "__kwargs__": {"prob": "nan"}}, {},
     r"prob = nan is not a finite number"),
])
def test_measurements_not_read_are_refused_by_name(build, kw, match):
    with pytest.raises(InvalidInput, match=match):
        mechanism_of_opendp(build(), **kw)


def test_cli_opendp_profile_exit_codes(tmp_path, capsys):
    rr = tmp_path / "rr.json"
    rr.write_text(dp.serialize(dp.m.make_randomized_response_bool(prob=0.75)))
    assert main(["opendp", "profile", "--serialized", str(rr), "--eps", "log(3)", "--delta", "0"]) == 0
    assert "Holds" in capsys.readouterr().out
    assert main(["opendp", "profile", "--serialized", str(rr), "--eps", "log(2)", "--delta", "0"]) == 1
    assert "Fails" in capsys.readouterr().out
    fl = tmp_path / "f.json"
    fl.write_text(dp.serialize(dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float),
                                                 scale=2.0)))
    assert main(["opendp", "profile", "--serialized", str(fl), "--lo", "0", "--hi", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "make_laplace on atom_domain(T=f64) is not read" in err
    ch = tmp_path / "c.json"
    ch.write_text(dp.serialize(dp.t.make_sum(dp.vector_domain(dp.atom_domain(bounds=(0, 1))),
                                             dp.symmetric_distance()) >> dp.m.then_laplace(scale=1.0)))
    assert main(["opendp", "profile", "--serialized", str(ch)]) == 2
    assert "make_chain_mt is not read exactly" in capsys.readouterr().err
    assert main(["opendp", "profile"]) == 2
    assert "needs --serialized FILE" in capsys.readouterr().err
    assert main(["opendp", "profile", "--serialized", str(rr), "--delta", "0"]) == 2
    assert "--delta needs --eps" in capsys.readouterr().err
    assert main(["opendp", "laplace"]) == 2
    assert "needs --scale" in capsys.readouterr().err
    lap = tmp_path / "l.json"
    lap.write_text(dp.serialize(int_lap(2.0)))
    assert main(["opendp", "profile", "--serialized", str(lap), "--lo", "0", "--hi", "2", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kind"] == "profile"


def test_exact_binary_value_of_the_probability():
    # 0.7 is not 7/10: the mechanism OpenDP runs keeps with the float's exact value
    m, _, _ = mechanism_of_opendp(dp.m.make_randomized_response_bool(prob=0.7))
    assert m.entry("True", "True") == fmpq(Fr(0.7).numerator, Fr(0.7).denominator) != fmpq(7, 10)
