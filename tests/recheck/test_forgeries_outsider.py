"""Forgeries and hostile certificates built by an outsider (public docs and genuine certificates only).

Each test asserts the CORRECT behaviour (refuted / not checkable / an answer within the time the contract
states); each was found as a hang (minutes of CPU) and is answered in seconds since the fix its docstring names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from exactdp.certificate.kinds import KINDS

#: the contract's bound on a hostile certificate (docs/recheck.md: "in seconds"; test_contract allows 20 s CPU)
CPU_LIMIT = 20

_RUN = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
    resource.setrlimit(resource.RLIMIT_CPU, (@LIMIT@, @LIMIT@ + 1))
    from exactdp.recheck import recheck
    try:
        r = recheck(sys.stdin.read())
        print(json.dumps([r.status, r.detail]))
    except ValueError as e:
        print(json.dumps(["refused", str(e)]))
""").replace("@LIMIT@", str(CPU_LIMIT))


def _bounded(cert: dict):
    """The re-check's answer in a fresh process with a CPU limit (a hang is killed by SIGXCPU) and 2 GiB."""
    p = subprocess.run([sys.executable, "-c", _RUN], input=json.dumps(cert), capture_output=True, text=True,
                       timeout=10 * CPU_LIMIT, env={**os.environ})
    assert p.returncode == 0, f"the re-check did not answer within {CPU_LIMIT} s CPU (rc {p.returncode}): " \
                              f"{p.stderr[-500:]}"
    return json.loads(p.stdout)


def _program_example() -> dict:
    return json.loads(json.dumps(KINDS["program"].example().to_json()))


# ------------------------------------------------------------------------------------------- program ----
@pytest.mark.slow
def test_program_text_with_repeated_squaring_is_answered_in_seconds():
    c = _program_example()
    # a forger prepends 30 lines of integer squaring (no noise involved; the text parses and is within 20,000
    # characters); 24 lines already take ~19 s CPU, 26 lines more than a minute
    c["evidence"]["text"] = "x = 3\n" + "x = x*x\n" * 30 + "if x >= 0:\n  y = 1\nend\n" + c["evidence"]["text"]
    status, detail = _bounded(c)
    assert status in ("not checkable", "refuted", "refused"), detail


@pytest.mark.slow
def test_program_with_coprime_noise_scales_at_a_level_is_answered_in_seconds():
    from exactdp.programs import parse_program
    from exactdp.programs.check import program_certificate

    text = "r = dlap(61)\nnu = dlap(59)\noutput clamp(q[1] + nu + r, -40, 40)\n"
    p = parse_program(text, "coprime_scales")
    c = json.loads(json.dumps(program_certificate(p, n=1, domain=(0, 1), eps="1").to_json()))
    assert c["evidence"]["base_power"] == 3599 and len(c["evidence"]["outputs"]) == 81
    status, detail = _bounded(c)
    assert status in ("confirmed", "not checkable"), detail


@pytest.mark.slow
def test_all_eps_program_with_scales_9_and_7_is_answered_in_seconds():
    from exactdp.programs import parse_program
    from exactdp.programs.check import program_certificate

    text = "r = dlap(9)\nnu = dlap(7)\noutput clamp(q[1] + nu + r, -4, 4)\n"
    p = parse_program(text, "scales_9_7")
    c = json.loads(json.dumps(program_certificate(p, n=1, domain=(0, 2)).to_json()))
    assert c["evidence"]["base_power"] == 63 and c["verdict"] == "holds"
    status, detail = _bounded(c)
    assert status in ("confirmed", "not checkable"), detail
