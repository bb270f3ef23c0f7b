"""HLM15: Holohan, Leith, Mason, "Differential privacy in metric spaces" (2015).

Example 6 (randomized response on ``m + 1`` categories) and Example 7 (its
expected error meets the Theorem 7 lower bound for the discrete metric).
"""

from __future__ import annotations

from ..privacy.evidence import PrivacyEvidence
from ..certify import certify_relation
from ..certify import certify_all_eps
from ..certify import certify_privacy
from ..exact import Setting, exact_number, exact_str
from ..mechanisms import randomized_response
from ..metrics import discrete
from ..utility.accuracy import hlm15_theorem7_bound, max_expected_error
from ..certificate import UNDECIDED
from .registry import CertificateProof, ClaimResult, Ledger, register

# The claims are reached through the registry (exactdp.papers: claims, get_claim, run_claim), not by name;
# this module has no public names of its own, and its helpers are internal (tests reach some of them).
__all__: list[str] = []

INSTANCES = [(1, "1/2"), (2, "1"), (3, "log(2)"), (5, "log(3)")]


def _p_star(m, eps):
    return f"1/({m} + exp({eps}))" if "log" not in eps else f"1/({m} + {_exp_log(eps)})"


def _exp_log(eps):
    return eps[4:-1]  # exp(log(q)) = q


@register("HLM15-ex6", "HLM15", "Example 6",
          "Randomized response on |D| = m + 1 categories, P(Y_d = d) = 1 - pm and P(Y_d = d') = p, is "
          "(eps, delta)-private iff 1 - pm <= e^eps p + delta (12); with delta = 0 the choice p = 1/(m + e^eps) "
          "is eps-private, and any smaller p is not.",
          "p >= (1 - delta)/(m + e^eps)")
def ex6() -> ClaimResult:
    sections: list = []
    certs, led = [], Ledger()
    rows = ["| m | eps | p | private at eps | smallest eps | smaller p' | private | smallest eps for p' |",
            "|---|---|---|---|---|---|---|---|"]
    for m, eps in INSTANCES:
        D = discrete(m + 1)
        p = _p_star(m, eps)
        R = randomized_response(m + 1, p=p)
        c = certify_privacy(R, D, eps=eps)
        p2 = f"99/100/({m} + {_exp_log(eps)})" if "log" in eps else f"99/100/({m} + exp({eps}))"
        R2 = randomized_response(m + 1, p=p2)
        c2 = certify_privacy(R2, D, eps=eps)
        certs += [c, c2]
        # rational or exponential entries: never the symbolic all-eps fallback; c2's smallest eps is decided
        assert isinstance(c.evidence, PrivacyEvidence) and isinstance(c2.evidence, PrivacyEvidence)
        assert c2.evidence.enclosure is not None
        led.compare(f"m = {m}, eps = {eps}: p = 1/(m + e^eps)", f"eps-private, smallest eps {eps}",
                    f"{c.verdict.value}, smallest eps {c.evidence.epsilon}",
                    agrees=None if c.holds is UNDECIDED else (c.holds is True and c.evidence.epsilon == eps))
        led.compare(f"m = {m}, eps = {eps}: p' = (99/100) p", "not eps-private", c2.verdict.value,
                    agrees=None if c2.holds is UNDECIDED else c2.holds is False)
        led.check(c.recheck().status != "refuted" and c2.recheck().status != "refuted",
                  "a certificate fails its independent re-check")
        rows.append(f"| {m} | {eps} | {p} | {c.verdict.value} ({c.evidence.tight_count} tight) "
                    f"| {c.evidence.epsilon} | "
                    f"{p2} | {c2.verdict.value} | {c2.evidence.epsilon} = {c2.evidence.enclosure[0]}... |")
    sections.append(("Instances", "\n".join(rows) + "\n\nFor p = 1/(m + e^eps) every constraint "
                     "1 - pm <= e^eps p holds with equality on the diagonal outputs, so the smallest eps is exactly "
                     "eps; for p' = (99/100) p the ratio (1 - p'm)/p' exceeds e^eps, and the exact witness is "
                     "below."))
    sym = certify_all_eps(randomized_response(4), discrete(4))
    certs.append(sym)
    led.compare("p = alpha/(1 + 3 alpha), m = 3, every eps", "eps-private for every eps", sym.verdict.value,
                agrees=sym.holds)
    sections.append(("For every eps at once (m = 3, p = alpha/(1 + 3 alpha) = 1/(3 + e^eps))", CertificateProof(sym)))
    sections.append((f"Certificate: m = {INSTANCES[1][0]}, eps = {INSTANCES[1][1]}, p = 1/(m + e^eps)",
                     CertificateProof(certs[2])))
    sections.append((f"Certificate: m = {INSTANCES[1][0]}, eps = {INSTANCES[1][1]}, p' = (99/100)/(m + e^eps)",
                     CertificateProof(certs[3])))
    return led.result("p = 1/(m + e^eps) and p' = 0.99 p decided exactly for (m, eps) = "
                      + ", ".join(f"({m}, {e})" for m, e in INSTANCES) + f"; every eps symbolically (m = 3): "
                      f"{sym.verdict.value}", sections, certs)


@register("HLM15-ex7", "HLM15", "Example 7",
          "For randomized response with p = (1 - delta)/(m + e^eps) and the discrete metric (kappa = 1), the expected "
          "error is m p = (1 - delta) m/(m + e^eps), which equals the Theorem 7 lower bound: the bound is tight.",
          "E = mp = (1 - delta) m/(m + e^eps), tight (delta = 0 here)")
def ex7() -> ClaimResult:
    rows = ["| m | eps | max expected error E | Theorem 7 bound m/(m + e^eps) | equal |", "|---|---|---|---|---|"]
    led, certs = Ledger(), []
    for m, eps in INSTANCES:
        D = discrete(m + 1)
        R = randomized_response(m + 1, p=_p_star(m, eps))
        E = max_expected_error(R, D)
        bound = hlm15_theorem7_bound(D, eps)
        eq = bool(bound == E)  # exact: fmpq equality or the Lindemann-Weierstrass zero test
        certs.append(certify_relation(E, bound, statement=f"m = {m}, eps = {eps}: the largest expected error of "
                                      "randomized response equals the Theorem 7 bound m/(m + e^eps)"))
        led.compare(f"E at m = {m}, eps = {eps}", f"m p = {exact_str(bound)} (the bound)", exact_str(E), agrees=eq)
        rows.append(f"| {m} | {eps} | {exact_str(E)} | {exact_str(bound)} | {'yes, exactly' if eq else 'NO'} |")
    # symbolic identity: E(alpha) = m alpha/(1 + m alpha) = m/(m + 1/alpha)
    m = 3
    R = randomized_response(m + 1)
    E = max_expected_error(R, discrete(m + 1))
    alpha = exact_number("alpha", Setting.symbolic())
    bound = hlm15_theorem7_bound(discrete(m + 1), 1 / alpha)
    ident = (E - bound).is_zero()
    led.compare(f"E for every eps (m = {m})", exact_str(bound), exact_str(E), agrees=ident)
    certs.append(certify_relation(E, bound, for_all_alpha=True, statement=f"m = {m}: E(alpha) = m/(m + 1/alpha) "
                                  "for every alpha in (0, 1)"))
    body = "\n".join(rows) + (
        "\n\nThe expected error of input d is sum over d' != d of p * rho(d', d) = m p, the same for every d. "
        "Equality with the bound is an exact identity (a Lindemann-Weierstrass zero test when e^eps is "
        "transcendental).\n\n"
        f"For every eps at once (m = {m}): E(alpha) = {exact_str(E)} and the bound m/(m + e^eps) = "
        f"{exact_str(bound)} with e^eps = 1/alpha; their difference is "
        + ("identically zero.\n" if ident else "NOT identically zero.\n"))
    return led.result(f"E = m/(m + e^eps) against the Theorem 7 bound on {len(INSTANCES)} instances and, "
                      "symbolically, for every eps (m = 3)", [("Expected error against the bound", body)], certs)


