"""HLM15 (eps, delta) claims: every certificate is confirmed by the independent re-check."""

import pytest

from exactdp.papers import run_claim

IDS = ["HLM15-sec4", "HLM15-ex6-delta", "HLM15-thm3", "HLM15-thm5", "HLM15-thm6-7"]


@pytest.mark.parametrize("cid", IDS)
def test_approx_certificates_recheck(cid):
    certs = [c for c in run_claim(cid).certificates if c.kind == "approx"]
    assert certs
    for c in certs:
        got = c.recheck()
        assert got.ok is True, (cid, c.claim, got.detail)


def test_sec4_numbers():
    from flint import fmpq
    p = fmpq(286, 1000)
    assert (1 - p) ** 2 == fmpq(509796, 10**6) and p ** 2 == fmpq(81796, 10**6)
    two = run_claim("HLM15-sec4").certificates[1]
    assert two.holds is False and two.evidence.witness["worst_set"] == ["0,0"]
