"""Kind ``sampler_privacy`` (issue 30 item 4): genuine certificates of CKS20 samplers confirmed by the kernel,
consistent forgeries refuted, bad JSON refused, and the numbers against a brute force over Fractions."""

import copy
import json
from fractions import Fraction

import pytest

from exactdp.cli import main
from exactdp.recheck import recheck
from exactdp.recheck.sampler import MAX_PAIRS
from exactdp.samplers import SamplerError, cks20, law
from exactdp.samplers.privacy import certify_sampler_privacy

FAST = {"depth": 30, "tol": Fraction(1, 10**9), "bits": 64}
_LAWS: dict = {}


def dlap(scale):
    if scale not in _LAWS:
        _LAWS[scale] = law(cks20.dlaplace, [Fraction(scale)], summarise=cks20.SUMMARISE, **FAST)
    return _LAWS[scale]


def triangle(rng):
    return rng.randrange(3) - rng.randrange(3)   # P[z] = (3 - |z|)/9 on -2..2


def brute(L, lo, hi, k):
    """R, delta, L by the definitions, written independently (every pair, then the max)."""
    iv = {z: (L.masses.get(z, Fraction(0)), L.masses.get(z, Fraction(0)) + L.residual) for z in range(lo, hi + 1)}
    shifts = [d for j in range(1, k + 1) for d in (j, -j)]
    pairs = [(z, d) for d in shifts for z in range(lo, hi + 1) if lo <= z - d <= hi]
    R = max(iv[z][1] / iv[z - d][0] for z, d in pairs if iv[z - d][0] > 0)
    low = max(iv[z][0] / iv[z - d][1] for z, d in pairs if iv[z - d][1] > 0)
    delta = max(1 - sum(iv[z][0] for z, dd in pairs if dd == d and iv[z - d][0] > 0) for d in shifts)
    return R, delta, low


@pytest.mark.parametrize("scale,k", [(1, 1), ("3/2", 2)])
def test_genuine_cks20_certificates_are_confirmed(scale, k):
    L = dlap(scale)
    c = certify_sampler_privacy(L, (-3, 3), k, inputs=(0, 4), name=f"dlaplace({scale})")
    ev = c.evidence
    R, delta, low = brute(L, -3, 3, k)
    assert (Fraction(ev.ratio), Fraction(ev.delta), Fraction(ev.ratio_lower)) == (R, delta, low)
    # the truth lies between: the discrete Laplace ratio at shift k is e^(k/scale) (e, e^(4/3) to 6 decimals)
    below, above = {1: ("2.718281", "2.718282"), "3/2": ("3.793667", "3.793668")}[scale]
    assert low <= Fraction(above) and Fraction(below) <= R and 0 < L.residual < Fraction(1, 10**6)
    r = recheck(json.loads(c.to_json_str()))
    assert r.status == "confirmed" and r.checked == sum(2 * (7 - j) for j in range(1, k + 1))


def test_exact_law_numbers_and_the_question():
    L = law(triangle)
    c = certify_sampler_privacy(L, (-2, 2), eps="log(2)", delta="1/9", name="tri")
    assert c.verdict.value == "holds" and c.method.name == "RATIONAL"
    assert (c.evidence.ratio, c.evidence.delta, c.evidence.ratio_lower) == ("2", "1/9", "2")
    assert (c.evidence.at.z, c.evidence.at.shift) == (-1, 1) and recheck(c).status == "confirmed"
    t = certify_sampler_privacy(L, (-2, 2), eps="7/10", delta="1/9")       # 2 <= e^0.7 = 2.0137...
    assert t.verdict.value == "holds" and t.method.name == "TRANSCENDENCE_BALLS" and recheck(t).status == "confirmed"
    u = certify_sampler_privacy(L, (-2, 2), eps="69/100", delta="1/9")     # 2 > e^0.69 = 1.9937...
    assert u.verdict.value == "undecided" and "cannot show a failure" in u.reason
    assert recheck(u).status == "not checkable"
    assert certify_sampler_privacy(L, (-2, 2), eps="log(2)", delta="1/10").verdict.value == "undecided"


def test_a_zero_lower_bound_moves_its_mass_into_delta():
    c = certify_sampler_privacy(law(triangle), (-3, 2), name="tri")       # P[-3] = 0
    R, delta, _ = brute(law(triangle), -3, 2, 1)
    # delta = P[-2] at shift 1: its partner -3 has lo = 0, so -2 leaves G_1
    assert (Fraction(c.evidence.ratio), Fraction(c.evidence.delta)) == (R, delta) == (2, Fraction(1, 9))
    assert recheck(c).status == "confirmed"


def _cert():
    return json.loads(certify_sampler_privacy(dlap(1), (-3, 3), name="dlaplace(1)").to_json_str())


def _reclaim(c):
    from exactdp.recheck.sampler import claim_text
    c["claim"] = claim_text(c)
    return c


def _refit(c):
    """What a forger recomputes from the intervals: R, the pair, delta, L, the claim (with the producer's code)."""
    from exactdp.samplers.privacy import _bounds
    ev = c["evidence"]
    iv = {i["value"]: (Fraction(i["lo"]), Fraction(i["hi"])) for i in ev["intervals"]}
    k = min(ev["sensitivity"], ev["inputs"][1] - ev["inputs"][0], ev["support"][1] - ev["support"][0])
    R, at, low, d = _bounds(iv, *ev["support"], k)
    ev.update(ratio=str(R), at={"z": at[0], "shift": at[1]}, ratio_lower=str(low), delta=str(d))
    return _reclaim(c)


def test_a_narrowed_interval_with_eps_recomputed_is_refuted():
    c = _cert()
    i = c["evidence"]["intervals"][3]
    i["hi"] = str((Fraction(i["lo"]) + Fraction(i["hi"])) / 2)          # hi moved halfway down to lo
    c = _refit(c)
    r = recheck(c)
    assert r.status == "refuted" and "lo + residual" in r.detail


def test_a_raised_lower_bound_with_eps_recomputed_is_refuted():
    c = _cert()
    i = c["evidence"]["intervals"][4]
    i["lo"] = str(Fraction(i["lo"]) + Fraction(c["evidence"]["residual"]) / 2)
    i["hi"] = str(Fraction(i["lo"]) + Fraction(c["evidence"]["residual"]))
    r = recheck(_refit(c))
    assert r.status == "refuted" and "sum to 1" in r.detail


def test_a_lowered_residual_with_delta_recomputed_is_refuted():
    c = _cert()
    ev = c["evidence"]
    ev["residual"] = str(Fraction(ev["residual"]) / 2)
    for i in ev["intervals"]:
        i["hi"] = str(Fraction(i["lo"]) + Fraction(ev["residual"]))
    r = recheck(_refit(c))
    assert r.status == "refuted" and "sum to 1" in r.detail


def test_a_changed_shift_is_refuted():
    c = _cert()
    c["evidence"]["sensitivity"] = 2
    c["evidence"]["inputs"] = [0, 2]
    r = recheck(_reclaim(c))                                  # the claim restated, R and delta left at shift 1
    assert r.status == "refuted" and "re-derived" in r.detail
    c2 = _cert()
    c2["evidence"]["at"]["shift"] = -c2["evidence"]["at"]["shift"]
    r2 = recheck(c2)
    assert r2.status == "refuted" and "first attaining" in r2.detail
    assert recheck(_refit(copy.deepcopy(c))).status == "confirmed"   # honest at shift 2: confirmed


def test_a_forged_question_and_verdict_are_refuted():
    c = _cert()
    c["evidence"].update(eps_asked="1/2", delta_asked="1")        # R ~ e > e^(1/2)
    c["method"] = "TRANSCENDENCE_BALLS"
    r = recheck(_reclaim(c))
    assert r.status == "refuted" and "exceeds e^eps" in r.detail
    c = _cert()
    c["verdict"] = "fails"
    assert recheck(c).status == "refuted"


@pytest.mark.parametrize("mutate,pattern", [
    (lambda ev: ev.pop("residual"), "not a certificate"),
    (lambda ev: ev.update(extra=1), "not a certificate"),
    (lambda ev: ev.update(sensitivity="1"), "not a certificate"),
    (lambda ev: ev["intervals"][0].update(value="-3"), "not a certificate"),
])
def test_bad_json_is_refused(mutate, pattern):
    c = _cert()
    mutate(c["evidence"])
    with pytest.raises(ValueError, match=pattern):
        recheck(c)


def test_malformed_numbers_and_a_huge_range():
    c = _cert()
    c["evidence"]["intervals"][0]["lo"] = "1/0"
    assert recheck(c).status == "refuted"
    c = _cert()
    c["evidence"]["support"] = [0, MAX_PAIRS]
    r = recheck(_reclaim(c))
    assert r.status == "not checkable" and "too large" in r.detail


@pytest.mark.parametrize("kw,pattern", [({"support": (1, 1)}, "LO < HI"), ({"sensitivity": 0}, "sensitivity"),
                                        ({"inputs": (3, 2)}, "inputs"), ({"eps": "1"}, "both"),
                                        ({"eps": "x", "delta": "0"}, "eps must be"),
                                        ({"eps": "1", "delta": "2"}, "delta must be"),
                                        ({"inputs": (1, 1)}, "neighbours"), ({"support": (5, 9)}, "positive lower")])
def test_bad_checker_inputs(kw, pattern):
    args = {"support": (-2, 2), **kw}
    with pytest.raises(SamplerError, match=pattern):
        certify_sampler_privacy(law(triangle), **args)


def test_the_command_emits_the_certificate_and_recheck_confirms_it(tmp_path, capsys):
    f = tmp_path / "s.py"
    f.write_text("def tri(rng):\n    return rng.randrange(3) - rng.randrange(3)\n")
    out_cert, table = tmp_path / "c.json", tmp_path / "t.json"
    table.write_text('{"values": {"-2": "1/9", "-1": "2/9", "0": "1/3", "1": "2/9", "2": "1/9"}}')
    code = main(["sampler", f"{f}:tri", "--target", str(table), "--support=-2..2", "--bits", "0", "--eps", "log(2)",
                 "--delta", "1/9", "--format", "json", "--certificate", str(out_cert)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["certificate"]["kind"] == "sampler_privacy"
    assert data["certificate"]["verdict"] == "holds" and json.loads(out_cert.read_text()) == data["certificate"]
    assert main(["recheck", str(out_cert)]) == 0
    assert "confirmed" in capsys.readouterr().out
    assert main(["sampler", f"{f}:tri", "--target", "dlaplace:1", "--support=-2..2", "--eps", "1"]) == 2
    assert "--eps and --delta" in capsys.readouterr().err


def test_a_shift_past_the_range_leaves_all_the_mass_to_delta():
    c = certify_sampler_privacy(law(triangle), (-2, 2), 5, inputs=(0, 9), name="tri")
    R, _, _ = brute(law(triangle), -2, 2, 4)                  # shifts up to 4 pair values; shift 5 pairs none
    assert (Fraction(c.evidence.ratio), c.evidence.delta) == (R, "1") and recheck(c).status == "confirmed"
    j = json.loads(c.to_json_str())
    j["evidence"]["delta"] = str(brute(law(triangle), -2, 2, 4)[1])   # the delta of shifts <= 4 only: too small
    r = recheck(_reclaim(j))
    assert r.status == "refuted" and "not the re-derived" in r.detail


def test_numbers_too_long_or_a_common_denominator_too_large_are_refused_before_the_sums():
    from exactdp.recheck.sampler import MAX_COMMON_BITS, MAX_NUMBER_CHARS
    c = _cert()
    c["evidence"]["intervals"][0]["lo"] = "1/" + "7" * MAX_NUMBER_CHARS
    r = recheck(c)
    assert r.status == "not checkable" and "characters" in r.detail
    c = _cert()
    primes_ish = [(1 << 700) + 2 * i + 1 for i in range(7)]     # seven distinct odd 701-bit denominators
    assert MAX_COMMON_BITS < 7 * 701
    for i, d in zip(c["evidence"]["intervals"], primes_ish, strict=True):
        i["lo"] = i["hi"] = f"1/{d}"
    c["evidence"]["residual"] = "0"
    r = recheck(_reclaim(c))
    assert r.status == "not checkable" and "common denominator" in r.detail
