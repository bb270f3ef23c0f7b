"""Certificates: an exact verdict, its witness, and a worked proof (DESIGN.md section 4).

Every checker returns a :class:`Certificate`.  ``holds`` is ``True``,
``False`` or :data:`UNDECIDED` (a distinct value that refuses to act as a
boolean, so it can never be mistaken for ``False``).  The proof renders as
Markdown (:meth:`Certificate.to_markdown`), LaTeX (:meth:`Certificate.to_latex`)
and JSON (:meth:`Certificate.to_json`); :meth:`Certificate.recheck` re-verifies
the evidence in :mod:`exactdp.recheck`, a small kernel that shares no code with
the checkers (Python ``fractions`` and ``mpmath`` intervals only).

>>> UNDECIDED
undecided
>>> bool(UNDECIDED)
Traceback (most recent call last):
...
TypeError: an undecided verdict has no truth value; compare with `is UNDECIDED`
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

__all__ = ["Certificate", "Step", "UNDECIDED", "verdict_str"]


class _Undecided:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self):
        return "undecided"

    __str__ = __repr__

    def __bool__(self):
        raise TypeError("an undecided verdict has no truth value; compare with `is UNDECIDED`")

    def __reduce__(self):  # pragma: no cover - pickling keeps the singleton
        return (_Undecided, ())


#: the third verdict: no exact regime decides the question
UNDECIDED = _Undecided()


def verdict_str(holds) -> str:
    if holds is UNDECIDED:
        return "undecided"
    return "holds" if holds else "fails"


@dataclass
class Step:
    """One step of a worked proof: a title, Markdown text and LaTeX text."""

    title: str
    markdown: str
    latex: str = ""


@dataclass
class Certificate:
    """The result of a checker: verdict, witness, method and worked proof.

    Attributes
    ----------
    claim, claim_latex : str
        What was asked, in words/formula.
    holds : bool or UNDECIDED
    witness : dict
        When ``holds`` is False: the exact counterexample.  When True: the
        binding (tight) constraints and margins.  Exact values are strings in
        the exactdp grammar.
    method : str
        What the verdict rests on (rational arithmetic, Lindemann--Weierstrass
        + balls, symbolic root isolation, ...).
    steps : list of Step
        The worked proof.
    data : dict
        Machine-readable results (e.g. ``epsilon``, ``epsilon_enclosure``).
    evidence : dict
        What :meth:`recheck` needs, in exact strings.
    """

    kind: str
    claim: str
    claim_latex: str
    holds: object
    witness: dict = field(default_factory=dict)
    method: str = ""
    steps: list = field(default_factory=list)
    data: dict = field(default_factory=dict)
    evidence: dict = field(default_factory=dict)
    conclusion: str = ""

    # -- rendering -----------------------------------------------------------
    def verdict(self) -> str:
        return verdict_str(self.holds)

    def to_json(self) -> dict:
        holds = "undecided" if self.holds is UNDECIDED else bool(self.holds)
        out = {"kind": self.kind, "claim": self.claim, "holds": holds, "method": self.method}
        out.update(self.data)
        out["witness"] = self.witness
        return out

    def to_json_str(self) -> str:
        return json.dumps(self.to_json(), indent=2)

    def to_markdown(self) -> str:
        lines = [f"**Claim.** {self.claim}", "", f"$$ {self.claim_latex} $$", "",
                 f"**Verdict.** {self.verdict()}", "", f"**Method.** {self.method}", "", "**Proof.**", ""]
        for k, s in enumerate(self.steps, 1):
            lines += [f"{k}. *{s.title}.* {s.markdown}", ""]
        if self.conclusion:
            lines += [f"**Conclusion.** {self.conclusion}", ""]
        return "\n".join(lines).rstrip() + "\n"

    def _repr_markdown_(self):
        return self.to_markdown()

    def to_latex(self) -> str:
        lines = [r"\paragraph{Claim.} " + _tex_text(self.claim), r"\[ " + self.claim_latex + r" \]",
                 r"\paragraph{Verdict.} " + self.verdict() + ".",
                 r"\paragraph{Method.} " + _tex_text(self.method), r"\begin{proof}", r"\begin{enumerate}"]
        for s in self.steps:
            body = s.latex or _tex_text(s.markdown)
            lines.append(r"\item \emph{" + _tex_text(s.title) + ".} " + body)
        lines.append(r"\end{enumerate}")
        if self.conclusion:
            lines.append(_tex_text(self.conclusion))
        lines.append(r"\end{proof}")
        return "\n".join(lines) + "\n"

    def to_text(self) -> str:
        w = self.witness
        lines = [f"claim:   {self.claim}", f"verdict: {self.verdict()}", f"method:  {self.method}"]
        for k, v in self.data.items():
            if isinstance(v, (str, int)) or v is None:
                lines.append(f"{k}: {v}")
            elif isinstance(v, list) and all(isinstance(t, str) for t in v) and len(v) <= 4:
                lines.append(f"{k}: [{', '.join(v)}]")
        if w:
            lines.append("witness:")
            for k, v in w.items():
                if isinstance(v, list):
                    lines.append(f"  {k}: {len(v)} item(s)" + (f", first: {v[0]}" if v else ""))
                else:
                    lines.append(f"  {k}: {v}")
        if self.conclusion:
            lines.append(f"conclusion: {self.conclusion}")
        return "\n".join(lines) + "\n"

    def recheck(self):
        """Re-verify from the evidence alone in the independent kernel :mod:`exactdp.recheck`."""
        from .recheck import recheck_certificate

        return recheck_certificate(self)


def _tex_text(s: str) -> str:
    """Markdown-ish text to LaTeX text: keep $...$ math, escape the rest."""
    out, math_mode = [], False
    for part in s.split("$"):
        if math_mode:
            out.append("$" + part + "$")
        else:
            for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"), ("_", r"\_"),
                         ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}")):
                part = part.replace(a, b)
            part = part.replace("**", "").replace("`", "")
            out.append(part)
        math_mode = not math_mode
    return "".join(out)
