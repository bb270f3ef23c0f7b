"""Notebook views: Certificate._repr_html_ / _repr_latex_ and Mechanism._repr_html_ (escaped, exact)."""

import re

import pytest

from exactdp import Certificate, Mechanism, certify_privacy, geometric, path
from exactdp.certificate.render import md_html


def _cert():
    return certify_privacy(geometric(3, "1/2"), path(4), eps="2/3")


def test_certificate_html_has_claim_verdict_and_every_step():
    c = _cert()
    h = c._repr_html_()
    assert h == c.to_html()
    assert "<strong>Verdict.</strong>" in h and ">fails</span>" in h
    assert h.count("<li>") == len(c.proof().steps) == 6
    # the witness of the evidence appears as exact math for MathJax
    assert r"$K(x)(z) = \frac{1}{6}$" in h
    assert "&gt;= 0" in h  # text is escaped: ">= 0" in the proof of row validity


def test_certificate_html_escapes_everything_outside_markup():
    data = _cert().to_json()
    data["claim"] = "<script>alert('x')</script> & $a < b$"
    h = Certificate.from_json(data)._repr_html_()
    assert "<script>" not in h
    assert "&lt;script&gt;alert('x')&lt;/script&gt; &amp; $a &lt; b$" in h


def test_certificate_latex_is_the_proof():
    c = _cert()
    t = c._repr_latex_()
    assert t == c.to_latex()
    assert t.startswith(r"\paragraph{Claim.}") and r"\begin{proof}" in t and t.count(r"\item") == 6


def test_md_html_blocks():
    text = "intro *it* and `x<y`\n\n- one\n- **two**\n\n| a | b |\n|---|---|\n| 1/2 | $x$ |"
    assert md_html(text) == ("<p>intro <em>it</em> and <code>x&lt;y</code></p>\n"
                             "<ul><li>one</li><li><strong>two</strong></li></ul>\n"
                             "<table><thead><tr><th>a</th><th>b</th></tr></thead>"
                             "<tbody><tr><td>1/2</td><td>$x$</td></tr></tbody></table>")


def test_mechanism_html_small_is_a_table_of_exact_fractions():
    K = Mechanism.from_rows(["<a>", "b"], ["0", "1"], [["3/4", "1/4"], ["1/3", "2/3"]])
    h = K._repr_html_()
    assert "&lt;a&gt;" in h and "<a>" not in h
    cells = re.findall(r"<td>(.*?)</td>", h)
    assert cells == ["3/4", "1/4", "1/3", "2/3"]
    assert "2 x 2 mechanism, rational entries, 4 distinct values" in h


def test_mechanism_html_symbolic_entries():
    h = geometric(2)._repr_html_()
    assert re.findall(r"<td>(.*?)</td>", h)[0] == "1/(1 + alpha)"


def test_mechanism_html_large_is_summarised():
    h = geometric(40, "1/3")._repr_html_()
    assert "<table>" not in h and "<td>" not in h
    assert "41 x 41 mechanism, rational entries, 81 distinct values" in h
    # the largest values of the 1/3-geometric mechanism: 1/(1+a) = 3/4, a/(1+a) = 1/4, ...
    assert "<code>3/4</code>" in h and h.endswith("...</p></div>")


# ------------------------------------------------ plain text of Markdown with math (audit 2026-11-24) ----
@pytest.mark.parametrize("md,text", [
    (r"$\pi$ is regular iff $\pi = \mu \Phi$ for some $\mu \ge 0$", "pi is regular iff pi = mu Phi for some mu >= 0"),
    (r"$(\varepsilon, \delta)$-differentially private", "(eps, delta)-differentially private"),
    (r"iff $\Phi z = 1$, $p \equiv 0$", "iff Phi z = 1, p == 0"),
    (r"rational functions of $\alpha^{1/1}$", "rational functions of alpha^(1/1)"),
    (r"$\frac{\log(61/9)}{2}$ and $\frac{1}{1 + e^{-\varepsilon}}$", "log(61/9)/2 and 1/(1 + e^(-eps))"),
    (r"$\gamma_y = \mu_y \sum_{y'} \phi_{yy'}$", "gamma_y = mu_y sum_y' phi_yy'"),
    (r"$m_{D_1}(w) \le e^{\varepsilon d} m_{D_2}(w)$", "m_(D_1)(w) <= e^(eps d) m_(D_2)(w)"),
    (r"$\tilde A_I = \bigcup_{i \in I} A_i \setminus B$", "tilde(A)_I = union_(i in I) A_i minus B"),
    (r"$\sqrt{2} \cdot \mathbb{R}$, $\sqrt[3]{x}$, $\{1, 2\}$, $P \| Q$", "sqrt(2) * R, x^(1/3), {1, 2}, P || Q"),
    (r"$\mu\Phi$ and $2\alpha$ and $\foo$", "mu Phi and 2 alpha and foo"),          # an unknown command: its name
    ("**Bold** and *italic* keep 2*alpha**2 - 1 and a*b", "Bold and italic keep 2*alpha**2 - 1 and a*b"),
    ("costs $5 only", "costs $5 only"),                                             # an unmatched $ is a dollar
])
def test_plain_text_names_every_symbol(md, text):
    from exactdp.certificate.render import plain
    assert plain(md) == text
