"""A structural LaTeX check for the generated documents (no TeX installation needed): braces balanced,
environments nested, math delimited, special characters escaped outside math and tables."""

from __future__ import annotations

import re

_ESCAPED = re.compile(r"\\[{}$%&#_^]")


def latex_problems(text: str) -> list[str]:
    """Every structural problem of ``text`` as ``'line N: what'`` (empty when the document is well formed).

    >>> latex_problems(r"\\begin{x} a_b \\end{y}")
    ['line 1: _ outside math', 'line 1: \\\\end{y} closes \\\\begin{x}']
    >>> latex_problems(r"$a_b$ \\{c\\} \\% 50")
    []
    """
    out, envs, depth = [], [], 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw
        if line.startswith("%"):                               # a whole-line comment
            continue
        if line.endswith("{%"):                                # a line-end comment after an opening brace
            line = line[:-1]
        line = _ESCAPED.sub("", line.replace("\\\\", " "))
        line = line.replace(r"\textbackslash", "")
        if line.count("$") % 2:
            out.append(f"line {n}: unbalanced $")
        text_parts = line.split("$")[::2]                      # outside inline math
        in_table = any(e == "tabular" for e in envs)
        for part in text_parts:
            part = re.sub(r"\\\[.*?\\\]", "", part)            # display math on one line
            for ch, what in (("_", "_ outside math"), ("^", "^ outside math"), ("#", "unescaped #"),
                             ("%", "unescaped %")):
                if ch in part:
                    out.append(f"line {n}: {what}")
            if "&" in part and not in_table:
                out.append(f"line {n}: & outside a table")
        for m in re.finditer(r"\\(begin|end)\{([^}]*)\}|[{}]", line):
            tok = m.group(0)
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
                if depth < 0:
                    out.append(f"line {n}: }} without {{")
                    depth = 0
            elif m.group(1) == "begin":
                envs.append(m.group(2))
            elif not envs or envs[-1] != m.group(2):
                out.append(f"line {n}: \\end{{{m.group(2)}}} closes " + (f"\\begin{{{envs[-1]}}}" if envs else
                                                                          "nothing"))
                if envs:
                    envs.pop()
            else:
                envs.pop()
    if depth:
        out.append(f"end: {depth} unclosed brace(s)")
    if envs:
        out.append("end: unclosed environment(s) " + ", ".join(envs))
    return out
