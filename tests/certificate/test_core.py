"""The Certificate (exactdp.certificate.core): one encoding of undecided, and the constructor's checks (live
objects refused, evidence of another kind refused, a reason exactly when undecided)."""

import pytest

from exactdp import (UNDECIDED, Certificate, Mechanism, Method, Verdict, certify_privacy, from_matrix, geometric, path,
                     recheck)
from exactdp.certificate import Evidence, evidence_kind
from exactdp.errors import Undecided


def test_undecided_is_one_encoding():
    # alpha = 2^(-1/2) is irrational and the statement for every eps fails only near alpha = 1: nothing decides it
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/2+alpha/4", "1/2-alpha/4"], ["1/2-alpha/4", "1/2+alpha/4"]])
    c = certify_privacy(K, from_matrix(["0", "1"], [[0, "1/4"], ["1/4", 0]]), eps="log(2)/2")
    assert c.verdict is Verdict.UNDECIDED is UNDECIDED is c.holds is Undecided("x").verdict
    assert c.reason and c.to_json()["verdict"] == "undecided" and Verdict.UNDECIDED.exit_code == 3
    r = recheck(c.to_json())
    assert r.status == "not checkable" and r.ok is None and "asserts no verdict" in r.detail
    with pytest.raises(TypeError, match="no truth value"):
        bool(c.verdict)


def test_contract_refuses_live_objects_and_mismatched_kinds():
    from dataclasses import dataclass

    from flint import fmpq

    @dataclass(frozen=True)
    class Bad(Evidence):
        value: str

    from exactdp.certificate import records

    evidence_kind("test-only-bad", checker="exactdp.nowhere:nothing")(Bad)
    try:
        with pytest.raises(TypeError, match="exact JSON data only"):
            Bad(fmpq(1, 2))
    finally:  # the registry is global: a test kind left in it would leak into the schema and the kind list
        del records._KINDS["test-only-bad"]
    c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
    with pytest.raises(TypeError, match="needs that kind's Evidence"):
        Certificate("epsilon", Verdict.HOLDS, Method.RATIONAL, "x", c.evidence)
    with pytest.raises(ValueError, match="reason is given exactly when"):
        Certificate("privacy", Verdict.UNDECIDED, Method.RATIONAL, "x", c.evidence)
