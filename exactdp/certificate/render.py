"""Rendering a certificate from its evidence alone: text, Markdown, LaTeX (DESIGN.md section 4).

Each certificate kind has one renderer, registered with :func:`renderer`,
that turns the typed evidence into a :class:`Proof`: the claim as a formula,
the worked steps (definitions, the reduction used, each step with exact
numbers), the conclusion, and a short plain-text summary.  The renderer never
recomputes anything: what the proof says is what the evidence holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Step", "Proof", "renderer", "proof_of", "as_text", "as_markdown", "as_latex", "tex_text", "plain"]


@dataclass
class Step:
    """One step of a worked proof: a title and Markdown text (``$...$`` for math), optional LaTeX."""

    title: str
    markdown: str
    latex: str = ""


@dataclass
class Proof:
    """A worked proof: the claim as a formula, the steps, the conclusion and a plain-text summary."""

    claim_latex: str
    steps: list = field(default_factory=list)
    conclusion: str = ""
    #: (label, value) lines for the text view: plain words and exact numbers, no LaTeX
    summary: list = field(default_factory=list)


_RENDERERS: dict = {}


def renderer(kind: str):
    """Decorator registering ``fn(certificate) -> Proof`` as the renderer of ``kind``."""
    def deco(fn):
        if kind in _RENDERERS and _RENDERERS[kind] is not fn:
            raise ValueError(f"renderer for {kind!r} registered twice")
        _RENDERERS[kind] = fn
        return fn
    return deco


def proof_of(cert) -> Proof:
    fn = _RENDERERS.get(cert.kind)
    if fn is None:
        raise LookupError(f"no renderer registered for certificate kind {cert.kind!r}")
    return fn(cert)


def _method_line(cert) -> str:
    m = str(cert.method) + (f" at {cert.precision} bits" if cert.precision else "")
    return m + (f"; {cert.note}" if cert.note else "")


def plain(s: str) -> str:
    """Markdown-with-math to plain text: drop ``$``, ``\\`` commands become words or symbols."""
    s = s.replace("$", "").replace("**", "").replace("`", "")
    for a, b in ((r"\varepsilon", "eps"), (r"\alpha", "alpha"), (r"\le", "<="), (r"\ge", ">="),
                 (r"\ne", "!="), (r"\infty", "inf"), (r"\in", "in"), (r"\cdot", "*"), (r"\,", " "),
                 (r"\log", "log"), (r"\exp", "exp")):
        s = s.replace(a, b)
    s = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", s)
    s = re.sub(r"\\[a-zA-Z]+", "", s)
    return s.replace("{", "").replace("}", "")


def as_text(cert) -> str:
    p = proof_of(cert)
    lines = [f"claim:   {cert.claim}", f"verdict: {cert.verdict.value}", f"method:  {_method_line(cert)}"]
    if cert.reason:
        lines.append(f"reason:  {cert.reason}")
    lines += [f"{k}: {v}" for k, v in p.summary]
    if p.conclusion:
        lines.append(f"conclusion: {plain(p.conclusion)}")
    return "\n".join(lines) + "\n"


def as_markdown(cert) -> str:
    p = proof_of(cert)
    lines = [f"**Claim.** {cert.claim}", "", f"$$ {p.claim_latex} $$", "",
             f"**Verdict.** {cert.verdict.value}", "", f"**Method.** {_method_line(cert)}", ""]
    if cert.reason:
        lines += [f"**Why undecided.** {cert.reason}", ""]
    lines += ["**Proof.**", ""]
    for k, s in enumerate(p.steps, 1):
        lines += [f"{k}. *{s.title}.* {s.markdown}", ""]
    if p.conclusion:
        lines += [f"**Conclusion.** {p.conclusion}", ""]
    return "\n".join(lines).rstrip() + "\n"


def as_latex(cert) -> str:
    p = proof_of(cert)
    lines = [r"\paragraph{Claim.} " + tex_text(cert.claim), r"\[ " + p.claim_latex + r" \]",
             r"\paragraph{Verdict.} " + cert.verdict.value + ".",
             r"\paragraph{Method.} " + tex_text(_method_line(cert))]
    if cert.reason:
        lines.append(r"\paragraph{Why undecided.} " + tex_text(cert.reason))
    lines += [r"\begin{proof}", r"\begin{enumerate}"]
    for s in p.steps:
        lines.append(r"\item \emph{" + tex_text(s.title) + ".} " + (s.latex or tex_text(s.markdown)))
    lines.append(r"\end{enumerate}")
    if p.conclusion:
        lines.append(tex_text(p.conclusion))
    lines.append(r"\end{proof}")
    return "\n".join(lines) + "\n"


_TEX_ESCAPE = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
               "~": r"\textasciitilde{}", "^": r"\^{}"}
_TEX_SPECIAL = re.compile(r"[\\&%#_{}~^]")


def tex_text(s: str) -> str:
    """Markdown-ish text to LaTeX text: keep ``$...$`` math, escape the rest."""
    out, math_mode = [], False
    for part in s.split("$"):
        if math_mode:
            out.append("$" + part + "$")
        else:
            part = _TEX_SPECIAL.sub(lambda m: _TEX_ESCAPE[m.group(0)], part)
            out.append(part.replace("**", "").replace("`", ""))
        math_mode = not math_mode
    return "".join(out)
