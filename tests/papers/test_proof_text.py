"""The generated proofs contain no code: no Python list, set, dict, bool or None repr (issue 19, item 6).

It scans the files ``exactdp proofs`` writes to ``proofs/`` (Markdown and LaTeX); the staleness test
(tests/papers/test_claims.py) keeps them equal to what the generator produces now.
"""

import pathlib
import re

import pytest

PROOFS = pathlib.Path(__file__).resolve().parents[2] / "proofs"

#: pattern -> what it betrays
LEAKS = {
    r"\['|\[\"": "a Python list of strings",
    r"\{'|\{\"|': |\": ": "a Python dict or set of strings",
    r"\bTrue\b|\bFalse\b": "a Python bool",
    r"\bNone\b": "Python's None",
    r"\(s\)": "a pluralisation placeholder '(s)'",
    r"\bfmpq\(|\bfrozenset\(|\bLevel\(|<[a-z_.]+ object at": "a Python object repr",
    r"\\\{[^}( \\]*,[^}) \\]*\\\}": "a product label typeset as a set (a tuple belongs in parentheses)",
    r"\(1 [a-z]+s\)": "a plural after the count 1",
}


#: leaks written by the certificate renderers (exactdp/certificate/, owned elsewhere; reported in issue 19's
#: branch notes): the scan tolerates exactly these fragments, and test_known_renderer_leaks_are_still_there
#: fails once one is fixed, so that its allowance is removed here
#: leaks allowed in the scan: none (the certificate renderers' ones -- extension, privacy, approx, kl10 -- are fixed)
KNOWN_RENDERER_LEAKS: dict = {}


def _files():
    return sorted([*PROOFS.glob("*.md"), *PROOFS.glob("*.tex")])


def leaks(text: str, allowed=KNOWN_RENDERER_LEAKS) -> list[str]:
    """Every line of ``text`` with a code leak, as ``'line N: what: the line'``."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for known in allowed:
            line = re.sub(known, "", line)
        for pat, what in LEAKS.items():
            if re.search(pat, line):
                out.append(f"line {n}: {what}: {line.strip()[:160]}")
    return out


def tex_as_text(line: str) -> str:
    """A line of the generated LaTeX with its text-mode escapes undone outside ``$...$`` (so ``\\{0,1\\}`` in
    text reads as the set ``{0,1}``, as in the Markdown), math left as it is."""
    parts = line.split("$")
    for k in range(0, len(parts), 2):
        parts[k] = (parts[k].replace(r"\{", "{").replace(r"\}", "}").replace(r"\_", "_")
                    .replace(r"\textasciicircum{}", "^"))
    return "$".join(parts)


@pytest.mark.parametrize("text, n", [("the set ['0,0'] is", 1), ("equal exactly: True", 1), ("2 ordered pair(s)", 1),
                                     ("{'a': 1}", 1), ("value None", 1), ("fmpq(1, 2)", 1),
                                     (r"$S^* = \{0,0\}$", 1), ("(1 outputs)", 1), (r"$\{a, b\}$ (2 outputs)", 0),
                                     ("the set {(0, 0)} and 2 ordered pairs; x = 1/2", 0),
                                     ("TrueSkill and Nonetheless", 0)])
def test_the_scanner_finds_what_it_should(text, n):
    assert len(leaks(text, allowed={})) == n


def test_tex_text_escapes_are_read_as_the_markdown_writes_them():
    assert tex_as_text(r"D\textasciicircum{}2 = \{0,1\} and $\{0,0\}$") == r"D^2 = {0,1} and $\{0,0\}$"
    assert leaks(tex_as_text(r"the set $S^* = \{0,0\}$"), allowed={}) and not leaks(tex_as_text(r"\{0,1\}"), {})


def test_proofs_exist():
    names = {p.name for p in _files()}
    assert "README.md" in names and len(names) > 30
    assert {n[:-3] for n in names if n.endswith(".md")} - {"README"} == {n[:-4] for n in names if n.endswith(".tex")}


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_no_code_in_generated_proofs(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".tex":
        text = "\n".join(tex_as_text(ln) for ln in text.splitlines())
    found = leaks(text)
    assert not found, f"{path.name}:\n" + "\n".join(found)
