"""``exactdp explain CERT.json`` (issue 19, item 6): re-check first, then the worked proof for a reader.

Exit codes are the re-check's: 0 confirmed (the proof is printed), 1 refuted (the refutation, never the proof),
3 not checkable (the proof, marked unverified), 2 not a certificate (one line on stderr, nothing on stdout).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from _latex_check import latex_problems

from exactdp import certify_privacy, geometric
from exactdp.certificate.explain import EXPLAIN_FORMATS, explain
from exactdp.cli import main
from exactdp.metrics import from_matrix
from exactdp.recheck import KINDS
from exactdp.certificate.kinds import KINDS as KINDS_TABLE
from tests.recheck.test_contract import GENUINE as CONTRACT

#: one small fresh certificate of every kind the independent kernel re-checks: each kind's declared example
GENUINE = {name: kind.example for name, kind in KINDS_TABLE.items()}

_CACHE: dict = {}


def cert_text(kind: str) -> str:
    if kind not in _CACHE:
        _CACHE[kind] = GENUINE[kind]().to_json_str()
    return _CACHE[kind]


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_every_rechecked_kind_has_a_genuine_certificate_here():
    assert {json.loads(cert_text(k))["kind"] for k in GENUINE} == set(KINDS) == set(GENUINE)


#: how each format shows the steps of a proof (absent when refuted)
STEPS = {"text": "proof:\n  1. ", "markdown": "**Proof.**", "latex": r"\begin{proof}", "html": "<details>"}


@pytest.mark.parametrize("kind", sorted(GENUINE))
@pytest.mark.parametrize("fmt", EXPLAIN_FORMATS)
def test_a_genuine_certificate_is_confirmed_and_explained(kind, fmt):
    data = json.loads(cert_text(kind))
    e = explain(cert_text(kind), fmt)
    assert (e.status, e.exit_code) == ("confirmed", 0), e.detail
    first = e.document.splitlines()[0] if fmt != "latex" else e.document.split(r"\section*")[1]
    assert "confirmed" in first and "REFUTED" not in e.document and "UNVERIFIED" not in e.document
    assert STEPS[fmt] in e.document or not GENUINE[kind]().proof().steps
    if fmt == "text":
        assert f"claim:   {data['claim']}" in e.document
    elif fmt == "markdown":
        assert f"**Claim.** {data['claim']}" in e.document
    elif fmt == "latex":
        assert e.document.startswith(r"\documentclass") and latex_problems(e.document) == []
    else:
        assert '<div class="exactdp-certificate">' in e.document


def _tampered(kind: str = "privacy") -> dict:
    data = json.loads(cert_text(kind))
    data["evidence"]["tight_count"] += 1                  # one count changed: the kernel refutes it
    return data


@pytest.mark.parametrize("fmt", EXPLAIN_FORMATS)
def test_a_refuted_certificate_is_never_shown_as_a_proof(fmt):
    e = explain(json.dumps(_tampered()), fmt)
    assert (e.status, e.exit_code) == ("refuted", 1)
    assert "REFUTED" in e.document and "not a proof" in e.document and STEPS[fmt] not in e.document
    assert "Claim" not in e.document and "claim:" not in e.document
    assert fmt != "latex" or latex_problems(e.document) == []


def _unchecked():
    """Holds, but the kernel covers no irrational ratio of distances: not checkable."""
    s = "sqrt(2)"
    return certify_privacy(geometric(2, "1/2"), from_matrix(["0", "1", "2"], [[0, s, 2], [s, 0, s], [2, s, 0]]),
                           eps="log(2)")


@pytest.mark.parametrize("fmt", EXPLAIN_FORMATS)
def test_a_certificate_the_kernel_cannot_check_is_marked_unverified(fmt):
    c = _unchecked()
    e = explain(c.to_json_str(), fmt)
    assert (e.status, e.exit_code) == ("not checkable", 3) and "irrational" in e.detail
    assert "UNVERIFIED" in e.document and STEPS[fmt] in e.document
    assert e.document.index("UNVERIFIED") < e.document.index(STEPS[fmt])    # the mark comes before the proof


@pytest.mark.skipif(not (shutil.which("pdflatex") or shutil.which("lualatex")),
                    reason="no pdflatex or lualatex on this machine (latex_problems checks the structure above)")
@pytest.mark.parametrize("kind", ["all_eps", "optimality", "approx"])
def test_an_explained_certificate_compiles(tmp_path, kind):
    tex = shutil.which("pdflatex") or shutil.which("lualatex")
    (tmp_path / "c.tex").write_text(explain(cert_text(kind), "latex").document, encoding="utf-8")
    r = subprocess.run([tex, "-interaction=nonstopmode", "-halt-on-error", "c.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:]


def test_the_command_line(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(cert_text("regular"))
    code, out, err = run(["explain", str(good)], capsys)
    assert code == 0 and err == "" and out.startswith("re-check: confirmed")
    code, out, err = run(["explain", str(good), "--format", "markdown"], capsys)
    assert code == 0 and out.startswith("**Independent re-check: confirmed**") and "**Proof.**" in out
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_tampered()))
    code, out, err = run(["explain", str(bad), "--format", "latex"], capsys)
    assert code == 1 and err == "" and "REFUTED" in out and r"\begin{proof}" not in out
    unc = tmp_path / "unchecked.json"
    unc.write_text(_unchecked().to_json_str())
    code, out, err = run(["explain", str(unc)], capsys)
    assert code == 3 and err == "" and out.startswith("re-check: not checkable -- UNVERIFIED")


def _dup_key(t):
    return t.replace('"kind": ', '"kind": "privacy", "kind": ', 1)


@pytest.mark.parametrize("name, content, words", [
    ("empty", b"", "expected a JSON object"),
    ("not JSON", b"{nope", "JSON"),
    ("a list", b"[1, 2]", "expected a JSON object"),
    ("a path as text", b"good.json", "expected a JSON object"),       # never read as the name of another file
    ("another schema", b'{"schema": "x"}', "not an exactdp certificate"),
    ("not UTF-8", b"{\xff\xfe}", "not UTF-8 text (byte 0xff at offset 1)"),
    ("a repeated key", None, "appears twice"),
    ("an unknown verdict", None, "verdict"),
    ("schema version 3", None, "version"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, name, content, words):
    text = cert_text("privacy")
    if content is None:
        data = json.loads(text)
        if name == "a repeated key":
            content = _dup_key(text).encode()
        else:
            if name == "an unknown verdict":
                data["verdict"] = "maybe"
            else:
                data["version"] = 3
            content = json.dumps(data).encode()
    f = tmp_path / "c.json"
    f.write_bytes(content)
    (tmp_path / "good.json").write_text(text)
    code, out, err = run(["explain", str(f)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and words.lower() in err.lower(), err
    assert "Traceback" not in err


@pytest.mark.parametrize("cmd", ["recheck", "explain"])
def test_what_is_wrong_with_the_file_is_said_in_words(tmp_path, capsys, cmd):
    # audit 2026-11-24 defect 10: no Python exception class name in a message; the file and its problem are named
    (tmp_path / "bad.json").write_bytes(b"\xff{}")
    (tmp_path / "half.json").write_text('{"schema": ')
    (tmp_path / "dir").mkdir()
    cases = {"none.json": "certificate '{d}/none.json': No such file or directory",
             "dir": "certificate '{d}/dir': is a directory; give a certificate file",
             "bad.json": "certificate '{d}/bad.json': not UTF-8 text (byte 0xff at offset 0)",
             "half.json": "certificate '{d}/half.json': not JSON: Expecting value at line 1, column 12"}
    for name, words in cases.items():
        code, out, err = run([cmd, str(tmp_path / name)], capsys)
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert words.format(d=tmp_path) in err, err
        assert not re.search(r"[A-Z][a-z]+(Error|Exception)\b", err), err


@pytest.mark.parametrize("fmt", EXPLAIN_FORMATS)
def test_an_unknown_kind_gets_the_recheck_answer(tmp_path, capsys, fmt):
    # audit 2026-11-24 defect 7: explain answers what recheck answers; issue 32: for an unknown kind that answer
    # is "not a certificate" (exit 2, one line), as this page's table says, no longer "not checkable" (3)
    data = json.loads(cert_text("privacy"))
    data["kind"] = "nonsense"
    f = tmp_path / "c.json"
    f.write_text(json.dumps(data))
    code, out, err = run(["recheck", str(f)], capsys)
    assert (code, out) == (2, "") and "unknown kind 'nonsense'" in err and err.count("\n") == 1
    code, out, err2 = run(["explain", str(f), "--format", fmt], capsys)
    assert (code, out, err2) == (2, "", err)
    # the library's explain (no command line around it) still answers with the kernel's "not checkable"
    e = explain(json.dumps(data), fmt)
    assert (e.status, e.exit_code) == ("not checkable", 3)


def test_missing_file_directory_and_json_format_are_refused(tmp_path, capsys):
    for args in (["explain", str(tmp_path / "none.json")], ["explain", str(tmp_path)]):
        code, out, err = run(args, capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    (tmp_path / "c.json").write_text(cert_text("privacy"))
    with pytest.raises(SystemExit) as e:
        main(["explain", str(tmp_path / "c.json"), "--format", "json"])   # explain is for reading
    assert e.value.code == 2
    assert "invalid choice: 'json'" in capsys.readouterr().err


def test_unknown_format_in_the_library():
    with pytest.raises(ValueError, match="format: expected one of text, markdown, latex, html"):
        explain(cert_text("privacy"), "json")


# ------------------------------------------- the text format keeps the math (audit 2026-11-24, defect 5) ----
#: math commands that carry content: each must be named in the plain text of the span it is in
_NAMED = {"alpha": "alpha", "beta": "beta", "gamma": "gamma", "delta": "delta", "varepsilon": "eps", "lambda": "lambda",
          "mu": "mu", "pi": "pi", "phi": "phi", "Phi": "Phi", "rho": "rho", "sigma": "sigma", "sum": "sum",
          "max": "max", "min": "min", "log": "log", "exp": "exp", "le": "<=", "ge": ">=", "infty": "inf",
          "sqrt": "sqrt", "cdot": "*", "equiv": "==", "in": "in", "notin": "not in"}
_LABEL = re.compile(r"^(claim|method|kernel|re-check|verdict|conclusion|reason):\s+")


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_the_text_explanation_keeps_every_math_symbol(name):
    # every genuine certificate of the re-check contract (every kind, every route)
    from exactdp.certificate.render import plain_math

    cert = CONTRACT[name]()
    doc = explain(cert.to_json_str(), "text").document
    for line in doc.splitlines():
        body = _LABEL.sub("", line.strip())
        assert "  " not in body and "$" not in body and "\\" not in body and "()" not in body, line
        assert not re.search(r"[\^_](\s|$|[,.;])", body), line      # an exponent or index lost its operand
    for step in cert.proof().steps:
        for span in re.findall(r"\$([^$]+)\$", step.markdown):
            text = plain_math(span)
            assert text.strip(), span
            for cmd in re.findall(r"\\([a-zA-Z]+)", span):
                assert _NAMED.get(cmd, "") in text, (cmd, span, text)


def test_the_text_of_the_audits_examples():
    e = explain(CONTRACT["regular"]().to_json_str()).document
    assert "pi is regular iff pi = mu Phi for some mu >= 0, where phi_yy' = e^(-eps d(y,y'))" in e
    e = explain(CONTRACT["approx holds"]().to_json_str()).document
    assert "(eps, delta)" in e and "(eps, )" not in e


def test_a_polynomial_keeps_its_exponent_in_the_text_conclusion(tmp_path, capsys):
    # K(0) = (1/2, 1/2), K(1) = (alpha^3, 1 - alpha^3) on 2 points at distance 1: at z = 0 the constraint is
    # alpha^-1 alpha^3 - 1/2 = alpha^2 - 1/2 >= 0, failing below the root of 2*alpha**2 - 1 (sympy's spelling)
    (tmp_path / "m.json").write_text(json.dumps({"inputs": ["0", "1"], "outputs": ["0", "1"],
                                                 "matrix": [["1/2", "1/2"], ["alpha^3", "1-alpha^3"]]}))
    (tmp_path / "d.json").write_text(json.dumps({"kind": "discrete", "points": ["0", "1"]}))
    code, out, _ = run(["certify", str(tmp_path / "m.json"), "--metric", str(tmp_path / "d.json"), "--all-eps"],
                       capsys)
    assert code == 1
    assert "root of 2*alpha**2 - 1 in [" in out and "alpha2" not in out
