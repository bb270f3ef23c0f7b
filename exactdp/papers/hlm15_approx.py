"""HLM15 with delta > 0: Def. 2 / Theorem 3, Theorem 4 / Corollary 1, the Section 4 remark,
Lemmas 1-2, Theorem 5 and Example 6 (condition (12)).

Every number is exact; the (eps, delta) certificates come from
:func:`~exactdp.privacy.approximate.certify_approx` and the profiles from
:mod:`exactdp.composition.profile`.
"""

from __future__ import annotations

import itertools

from flint import fmpq

from ..privacy.approximate import affine_sign, approx_level, certify_approx
from ..exact import exact_str, sign
from ..mechanism import Mechanism
from ..mechanisms import randomized_response
from ..mechanisms.product import product_sanitisation, repeated
from ..metrics import hamming
from ..decomposition.lemmas import certify_decomposition
from ..composition.profile import privacy_profile
from ..certificate import UNDECIDED
from .registry import CertificateProof, ClaimResult, Ledger, md_table, register, set_text

# The claims are reached through the registry (exactdp.papers: claims, get_claim, run_claim), not by name;
# this module has no public names of its own, and its helpers are internal (tests reach some of them).
__all__: list[str] = []

PAIR = [("0", "1")]


def _cert_line(c):
    w = c.evidence.witness
    return (f"{c.verdict.value}: excess {c.evidence.excess} at ({w.get('x')}, {w.get('x_prime')}), "
            f"S* = {set_text(w.get('worst_set', []))}")


# ---------------------------------------------------------------- Section 4 remark ----
@register("HLM15-sec4", "HLM15", "Section 4, remark after Theorem 4",
          "Binary randomized response P(Z_i = i) = 1 - p is (eps, delta)-DP iff p >= (1 - delta)/(1 + e^eps); with "
          "eps = 0.1, delta = 0.4, p = 0.286 it is, but answering twice gives (1 - p)^2 = 0.5098 > e^eps p^2 + delta "
          "with p^2 = 0.081796, so repetition breaks (eps, delta)-DP.",
          "(1 - p)^2 = 0.5098, p^2 = 0.081796; violation for eps = 0.1, delta = 0.4")
def sec4() -> ClaimResult:
    p, eps, delta = fmpq(286, 1000), "1/10", "2/5"
    R = randomized_response(2, p=str(p))
    one = certify_approx(R, PAIR, eps=eps, delta=delta)
    two = certify_approx(repeated(R, 2), PAIR, eps=eps, delta=delta)
    a, b = (1 - p) ** 2, p ** 2
    led = Ledger()
    led.compare("(1 - p)^2 (rounded to 4 places)", "0.5098", exact_str(a), agrees=f"{float(a):.4f}" == "0.5098")
    led.compare("p^2", "0.081796", exact_str(b), agrees=b == fmpq(81796, 10**6))
    led.compare("one answer at p = 0.286", "(eps, delta)-DP", one.verdict.value, agrees=one.holds)
    led.compare("two answers at p = 0.286", "not (eps, delta)-DP", f"{two.verdict.value}, excess {two.evidence.excess}",
                agrees=None if two.holds is UNDECIDED else two.holds is False)
    assert two.evidence.witness is not None  # a decided certificate names its worst pair
    led.compare("the violating set", "A x A = {(0,0)}", set_text(two.evidence.witness["worst_set"]),
                agrees=two.evidence.witness["worst_set"] == ["0,0"])
    led.check(two.evidence.witness["lhs"] == exact_str(a), "the certified P(S*) is not (1 - p)^2")
    nums = md_table(["quantity", "paper", "exact", "note"],
                    [["(1 - p)^2", "0.5098", f"{exact_str(a)} = 0.509796", "printed value rounded to 4 places"],
                     ["p^2", "0.081796", f"{exact_str(b)} = 0.081796", "exact"]])
    rows, iff_certs, iff_fails = _sec4_iff(eps, delta)
    certs = [one, two, *iff_certs]
    decided = all(c.holds is not UNDECIDED for c in certs[2:])
    led.compare("the 'iff' over all p in (0, 1)", "private iff p >= (1 - delta)/(1 + e^eps)",
                "private iff (1 - delta)/(1 + e^eps) <= p <= (e^eps + delta)/(1 + e^eps) (p = 9/10 is not)"
                if iff_fails else "see the table", agrees=(not iff_fails) if decided else None)
    sections = [
        ("The printed numbers", nums),
        ("One answer is private, two are not",
         f"- one answer: {_cert_line(one)} <= delta = 2/5.\n- two answers: {_cert_line(two)} > 2/5: the paper's "
         f"set A x A = {{(0,0)}} is exactly the worst set S*, and (1 - p)^2 = {exact_str(a)} > e^(1/10) p^2 + 2/5 "
         f"= {two.evidence.witness['rhs']} (decided by the Lindemann-Weierstrass zero test and balls)."),
        ("The 'iff' over all p in (0, 1)",
         "With two outputs the worst set of a pair is a singleton (the set {0, 1} has excess 1 - e^eps <= 0), so "
         "the mechanism is (eps, delta)-DP iff (1 - p) - e^eps p <= delta and p - e^eps (1 - p) <= delta, i.e.\n\n"
         "    (1 - delta)/(1 + e^eps) <= p <= (e^eps + delta)/(1 + e^eps).\n\n"
         "The printed condition is the left inequality only; it is the exact condition for p <= 1/2 (the "
         "natural reading, where Z_i reports i more often than not) but not over all of (0, 1): a large p makes "
         "the answer an almost deterministic negation, which is not private.\n\n"
         + md_table(["p", "case", "verdict", "exact largest excess"], rows)),
        ("Certificate: two answers", CertificateProof(two)),
    ]
    return led.result(f"(1 - p)^2 = {exact_str(a)}, p^2 = {exact_str(b)}; two answers: {two.verdict.value} with "
                      f"excess {two.evidence.excess} at delta = 2/5", sections, certs)


def _sec4_iff(eps, delta):
    """HLM15 sec. 4's 'iff' over all p in (0, 1): five levels of p across both bounds, certified."""
    # the "iff" over all p in (0, 1)
    up = f"(exp({eps}) + {delta})/(1 + exp({eps}))"
    cases = [("9/10", "meets the printed condition, far above the upper bound"),
             (up, "the exact upper bound (e^eps + delta)/(1 + e^eps)"), ("716/1000", "just above the upper bound"),
             ("(1 - 2/5)/(1 + exp(1/10))", "the printed lower bound itself"), ("285/1000", "just below it")]
    rows, certs = [], []
    for pv, what in cases:
        c = certify_approx(randomized_response(2, p=pv), PAIR, eps=eps, delta=delta)
        certs.append(c)
        rows.append([pv, what, c.verdict.value, c.evidence.excess])
    iff_fails = certs[0].holds is False and certs[1].holds is True and certs[2].holds is False
    iff_fails &= certs[3].holds is True and certs[4].holds is False
    return rows, certs, iff_fails


# ---------------------------------------------------------------- Example 6 with delta > 0 ----
GRID_M = (1, 2, 3)
GRID_T = ("1", "2", "3/2")
GRID_D = ("0", "1/10", "1/3")


def _eps_of(t):
    return "0" if t == "1" else f"log({t})"


@register("HLM15-ex6-delta", "HLM15", "Example 6, condition (12) with delta > 0",
          "Randomized response on m + 1 categories with P(Y_d = d) = 1 - pm, P(Y_d = d') = p and the hypothesis "
          "1 - pm > p is (eps, delta)-DP iff 1 - pm <= e^eps p + delta (12), i.e. p >= (1 - delta)/(m + e^eps).",
          "p >= (1 - delta)/(m + e^eps), under 1 - pm > p")
def ex6_delta() -> ClaimResult:
    rows, certs, led = [], [], Ledger()
    for m, t, d in itertools.product(GRID_M, GRID_T, GRID_D):
        T, D = fmpq(t), fmpq(d)
        ps = (1 - D) / (m + T)
        hyp = 1 - ps * m > ps
        hi = (ps + fmpq(1, m + 1)) / 2
        out = []
        for pv in (ps, ps * fmpq(9, 10), hi):
            c = certify_approx(randomized_response(m + 1, p=str(pv)), _all_pairs(m + 1), eps=_eps_of(t), delta=d)
            certs.append(c)
            out.append(c)
        at, below, above = out
        led.compare(f"m = {m}, e^eps = {t}, delta = {d}: at p*, below, above", "holds, fails, holds",
                    f"{at.verdict.value} (excess {at.evidence.excess}), {below.verdict.value}, {above.verdict.value}",
                    agrees=None if UNDECIDED in (at.holds, below.holds, above.holds) else
                    (at.holds is True and below.holds is False and above.holds is True))
        led.check(at.holds is not True or at.evidence.excess == exact_str(D), "the excess at p* is not delta")
        rows.append([m, t, d, exact_str(ps), "yes" if hyp else "no (equality)",
                     f"{at.verdict.value}, excess {at.evidence.excess}", below.verdict.value, above.verdict.value])
    # without the hypothesis: p in (1/(m+1), 1/m] satisfies (12) but need not be private
    free = []
    for m, t, d in ((2, "2", "1/10"), (3, "3/2", "1/10"), (2, "2", "1/3")):
        pv = fmpq(1, m)
        c = certify_approx(randomized_response(m + 1, p=str(pv)), _all_pairs(m + 1), eps=_eps_of(t), delta=d)
        certs.append(c)
        holds12 = 1 - pv * m <= fmpq(t) * pv + fmpq(d)
        led.check(holds12, f"(12) fails at p = 1/{m}: not a counterexample to the 'iff' without the hypothesis")
        led.check(c.holds is not True, f"p = 1/{m} is private: the table's statement is wrong")
        free.append([m, t, d, exact_str(pv), "holds" if holds12 else "fails", _cert_line(c)])
    sections = [
        ("Condition (12) on a grid of (m, e^eps, delta)",
         "p* = (1 - delta)/(m + e^eps); 'below' is p = (9/10) p*, 'above' is p = (p* + 1/(m+1))/2, which keeps the "
         "hypothesis 1 - pm > p. At p* the exact largest excess equals delta: the boundary case.\n\n"
         + md_table(["m", "e^eps", "delta", "p*", "1 - p*m > p*", "at p*", "below", "above"], rows)),
        ("Without the hypothesis 1 - pm > p",
         "For p > 1/(m + 1) an input's own category is no longer the most likely answer; (12) still holds but the "
         "worst set becomes {d'} with excess p - e^eps (1 - pm), and at p = 1/m (the answer is never the truth) "
         "the mechanism fails for delta < p:\n\n"
         + md_table(["m", "e^eps", "delta", "p", "(12)", "exact verdict"], free)),
        ("Certificate: m = 2, e^eps = 2, delta = 1/10 at p*", CertificateProof(certs[3 * 13])),
    ]
    return led.result(f"{len(rows)} grid points (m, e^eps, delta) decided at p* = (1 - delta)/(m + e^eps), below and "
                      "above it; without the hypothesis (12) is not sufficient (p = 1/m fails, "
                      f"{sum(c.holds is False for c in certs[-len(free):])} of {len(free)} cases)", sections, certs)


def _all_pairs(k):
    return [(str(i), str(j)) for i in range(k) for j in range(i + 1, k)]


# ---------------------------------------------------------------- Def. 2, worst-set lemma, Theorem 3 ----
LEMMA_INSTANCES = [
    (["1/2", "1/3", "1/6", "0"], ["1/6", "1/6", "1/3", "1/3"]),
    (["2/5", "2/5", "1/10", "1/10"], ["1/10", "3/10", "3/10", "3/10"]),
    (["1/4", "1/4", "1/4", "1/4"], ["0", "1/2", "1/4", "1/4"]),
]
LEMMA_EPS = ("0", "log(3/2)", "1/2")


def _brute_best(P, Q, level):
    """max over all 2^m output sets of P(S) - e^eps Q(S), decided with the kernel's exact comparison."""
    best = None
    for k in range(len(P) + 1):
        for S in itertools.combinations(range(len(P)), k):
            A, B = sum((P[y] for y in S), fmpq(0)), sum((Q[y] for y in S), fmpq(0))
            if best is None or affine_sign(A - best[0], B - best[1], level) > 0:
                best = (A, B, S)
    return best


@register("HLM15-thm3", "HLM15", "Definition 2 and Theorem 3 (sufficient sets)",
          "Testing (5) on an algebra S that generates the output sigma-algebra suffices (Theorem 3). For a finite "
          "output space the largest violation of (5) over all sets is attained at S* = {y : P_x(y) > e^eps P_x'(y)} "
          "(worst-set lemma), and the class generating the outputs must be an algebra once delta > 0.",
          "Theorem 3: an algebra generating A_Q is a sufficient set for (eps, delta)-DP")
def thm3() -> ClaimResult:
    rows, led = [], Ledger()
    for P, Q in LEMMA_INSTANCES:
        M = Mechanism.from_rows(["x", "x'"], ["a", "b", "c", "d"], [P, Q])
        for eps in LEMMA_EPS:
            lvl = approx_level(eps=eps)
            c = certify_approx(M, [("x", "x'")], eps=eps, delta="0")
            assert c.evidence.witness is not None  # a decided certificate names its worst pair
            Pv, Qv = M.rows()
            bx, bq = _brute_best(Pv, Qv, lvl), _brute_best(Qv, Pv, lvl)
            top = bx if affine_sign(bx[0] - bq[0], bx[1] - bq[1], lvl) >= 0 else bq
            wit = c.evidence.witness
            same = affine_sign(top[0] - fmpq(wit["lhs"]), top[1] - fmpq(wit["P_x'(S)"]), lvl) == 0
            led.compare(f"worst set of {' '.join(P)} / {' '.join(Q)} at eps = {eps}", "S* attains the maximum",
                        "equal to brute force" if same else "brute force is larger", agrees=same)
            rows.append([" ".join(P) + " / " + " ".join(Q), eps, c.evidence.excess, set_text(wit["worst_set"]),
                         "equal" if same else "DIFFERENT"])
    # the counterexample: singletons generate the power set but are not an algebra
    M = Mechanism.from_rows(["x", "x'"], ["a", "b", "c", "d"], [["1/2", "1/2", "0", "0"], ["0", "0", "1/2", "1/2"]])
    eps, delta = "log(2)", "1/2"
    singles = [(z, M.entry(x, z) - 2 * M.entry(xp, z)) for x, xp in (("x", "x'"), ("x'", "x")) for z in M.outputs]
    worst_single = max(v for _, v in singles)
    full = certify_approx(M, [("x", "x'")], eps=eps, delta=delta)
    pure = certify_approx(randomized_response(3, p="1/5"), _all_pairs(3), eps="log(3)", delta="0")
    led.check(worst_single == fmpq(1, 2), "the singletons' largest violation is not 1/2")
    led.compare("a generating class that is not an algebra", "not sufficient once delta > 0",
                f"singletons pass, all sets: {full.verdict.value} with excess {full.evidence.excess}",
                agrees=None if full.holds is UNDECIDED else full.holds is False)
    sections = [
        ("Worst-set lemma against all 16 output sets",
         "For each instance (rows P / Q on outputs a, b, c, d) and level, the largest P(S) - e^eps Q(S) over all "
         "16 sets and both orders (each compared exactly) equals the excess of the lemma's set S*.\n\n"
         + md_table(["P / Q", "eps", "excess of S*", "S*", "brute force"], rows)),
        ("Theorem 3 needs an algebra once delta > 0",
         "On a finite output space every algebra that generates the power set is the power set itself, so "
         "Theorem 3 says: test every set. A class that generates the power set without being an algebra -- the "
         "singletons -- is not enough once delta > 0. With P = (1/2, 1/2, 0, 0), Q = (0, 0, 1/2, 1/2), "
         f"eps = log(2), delta = 1/2: every singleton satisfies (5) (largest P(y) - 2 Q(y) is "
         f"{exact_str(worst_single)} <= 1/2, both orders), yet {_cert_line(full)} > 1/2. For delta = 0 the "
         "singletons do suffice: P(S) - e^eps Q(S) = sum over y in S of (P(y) - e^eps Q(y)) <= 0 term by term "
         f"(for example randomized response m = 2, p = 1/5 at eps = log(3): {_cert_line(pure)}); the additive "
         "delta is what breaks the sum."),
        ("Certificate: the counterexample over all sets", CertificateProof(full)),
    ]
    return led.result(f"the worst-set lemma against brute force over all 16 sets on {len(rows)} instances; "
                      f"singletons (not an algebra) pass (5) with delta = 1/2 while the set "
                      f"{set_text(full.evidence.witness['worst_set']) if full.evidence.witness else '-'} has excess "
                      f"{full.evidence.excess}", sections, [full, pure])


# ---------------------------------------------------------------- Theorem 4 / Corollary 1 ----
def _binary_queries(outputs):
    """Every map from the outputs to {0, 1} (2^|outputs| queries), as remap dictionaries."""
    for bits in itertools.product("01", repeat=len(outputs)):
        yield dict(zip(outputs, bits, strict=True))


@register("HLM15-thm4", "HLM15", "Theorem 4 and Corollary 1 (identity query)",
          "If the sanitisation Y_d is (eps, delta)-DP then Q o Y_d is (eps, delta)-DP for every query Q (Theorem 4); "
          "a sanitised response mechanism is (eps, delta)-DP for the identity query iff it is for every query "
          "(Corollary 1).",
          "the identity query covers every query")
def thm4() -> ClaimResult:
    D = hamming(["0", "1"], 2)
    Y = product_sanitisation(Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["1/3", "2/3"]]), 2)
    ident = privacy_profile(Y, D)
    rows, led, certs = [], Ledger(), []
    for eps in ("0", "log(3/2)", "log(2)", "1/2"):
        dI = ident.delta(eps=eps)
        certs.append(certify_approx(Y, D, eps=eps, delta=dI))     # the identity query, at its exact delta
        worst, attained = None, 0
        for q in _binary_queries(Y.outputs):
            certs.append(certify_approx(Y.remap(q), D, eps=eps, delta=dI))
            dq = privacy_profile(Y.remap(q), D).delta(eps=eps)
            led.check(sign(dq - dI) <= 0 or certs[-1].holds is not True, "a certified query exceeds its own profile")
            if sign(dq - dI) > 0:
                led.compare(f"a binary query at eps = {eps}", f"delta <= {exact_str(dI)}", exact_str(dq), agrees=False)
            attained += sign(dq - dI) == 0
            worst = dq if worst is None or sign(dq - worst) > 0 else worst
        led.compare(f"the identity query at eps = {eps} (Corollary 1)", f"covers all 16 queries: delta {exact_str(dI)}",
                    f"largest over the queries {exact_str(worst)}, attained by {attained}",
                    agrees=sign(worst - dI) <= 0 and attained >= 1)
        rows.append([eps, exact_str(dI), exact_str(worst), attained])
    body = ("Sanitisation: the product (7) of the 1-D mechanism rows (3/4, 1/4), (1/3, 2/3) on D^2 = {0,1}^2 with "
            "Hamming neighbours. For each of the 2^4 = 16 binary queries Q : U^2 -> {0, 1} the mechanism Q o Y is "
            "Y with its columns merged by Q; its exact smallest delta at eps is never above the identity's, and the "
            "query that is the indicator of the identity's worst set S* attains it (Corollary 1's 'only if' is the "
            "identity query itself).\n\n"
            + md_table(["eps", "delta of the identity query", "largest delta over the 16 queries",
                        "queries attaining it"], rows))
    return led.result(f"16 binary queries at {len(rows)} levels: the largest delta(Q o Y) against delta(Y), exactly "
                      "(table)", [("Every binary query of a small instance", body)], certs)


# ---------------------------------------------------------------- Lemmas 1-2 ----
@register("HLM15-lem1-2", "HLM15", "Lemmas 1 and 2 (set decomposition)",
          "A finite union of rectangles A_i x B_i equals the union over I of (union_{i in I} A_i) x "
          "(intersection_{i in I} B_i minus union_{i not in I} B_i), and these second factors are pairwise "
          "disjoint (Lemma 1); symmetrically the first factors can be made disjoint (Lemma 2).",
          "Lemma 1 and Lemma 2 (decompositions used in Theorem 5)")
def lem12() -> ClaimResult:
    X, Yu = ("0", "1"), ("a", "b", "c")
    # Lemma 2 is Lemma 1 with the factors swapped (theory.decomposition); one certificate per lemma
    certs = [certify_decomposition(X, Yu, 3, lemma=k) for k in (1, 2)]
    counts, led = [], Ledger()
    for (p, n, good1), (_, _, good2) in zip(certs[0].evidence.counts, certs[1].evidence.counts, strict=True):
        led.compare(f"Lemmas 1 and 2 on {n} collections of {p} rectangles", "exact and disjoint",
                    f"{good1} and {good2} of {n}", agrees=good1 == n and good2 == n)
        counts.append([p, n, good1, good2])
    body = (f"Universes X = {{0, 1}} and Y = {{a, b, c}}: all {counts[0][1]} rectangles of non-empty sets, and every "
            "ordered collection of p of them. Lemma 2 is checked as Lemma 1 applied with the two factors swapped "
            "(the 'analogous argument' the paper mentions), which gives disjoint first factors.\n\n"
            + md_table(["p", "collections", "Lemma 1 exact and disjoint", "Lemma 2 exact and disjoint"], counts)
            + "\n\nThe printed proof has two typos, reconstructed from the statement: in its second paragraph the "
            "intersection is written over i not in I (it is over i in I), and in the disjointness step "
            "'x in union_{i not in J} B_k' should read 'x in union_{i not in J} B_i'.")
    body += ("\n\n**Certificates.** One `decomposition` certificate per lemma; the re-check enumerates every "
             "collection again with its own code (bit masks) and compares the counts.")
    return led.result(f"{sum(c[2] for c in counts)} and {sum(c[3] for c in counts)} of {sum(c[1] for c in counts)} "
                      "collections (p <= 3) on X = {0,1}, Y = {a,b,c} decompose exactly and disjointly",
                       [("Exhaustive check", body)], certs)


# ---------------------------------------------------------------- Lemma 3 / Theorem 5 ----
ONE_D = {
    "randomized response m = 2, p = 1/5": (["0", "1", "2"], [["3/5", "1/5", "1/5"], ["1/5", "3/5", "1/5"],
                                                              ["1/5", "1/5", "3/5"]]),
    "an asymmetric 3 x 3 mechanism": (["0", "1", "2"], [["1/2", "1/3", "1/6"], ["1/4", "1/2", "1/4"],
                                                         ["1/10", "3/10", "3/5"]]),
}


@register("HLM15-thm5", "HLM15", "Lemma 3 and Theorem 5 (product sanitisations)",
          "The product sanitisation (7) of a 1-D mechanism Y_d on D is (eps, delta)-DP on D^n (Hamming neighbours) "
          "iff Y_d satisfies P(Y_d in A) <= e^eps P(Y_d' in A) + delta for all d, d' in D.",
          "Theorem 5 and Lemma 3: product private iff its one-dimensional mechanism is")
def thm5() -> ClaimResult:
    rows, certs, led = [], [], Ledger()
    for name, (labels, M) in ONE_D.items():
        Y1 = Mechanism.from_rows(labels, labels, M, name=name)
        p1 = privacy_profile(Y1, _all_pairs(len(labels)))
        for n in (2, 3):
            Yn = product_sanitisation(Y1, n)
            pn = privacy_profile(Yn, hamming(labels, n))
            same = [(q["eps_from"], q["eps_to"], q["delta"]) for q in pn.to_json()["pieces"]] == \
                   [(q["eps_from"], q["eps_to"], q["delta"]) for q in p1.to_json()["pieces"]]
            led.compare(f"{name}, n = {n}: the product's profile", "equal to the 1-D profile",
                        "identical" if same else "different", agrees=same)
            d = p1.delta(eps="log(2)")
            c_at = certify_approx(Yn, hamming(labels, n), eps="log(2)", delta=exact_str(d))
            below = d * fmpq(99, 100)
            c_below = certify_approx(Yn, hamming(labels, n), eps="log(2)", delta=exact_str(below))
            certs += [c_at, c_below]
            led.check(UNDECIDED in (c_at.holds, c_below.holds) or (c_at.holds is True and c_below.holds is False
                                                              and c_at.evidence.excess == exact_str(d)),
                      "the certified product delta disagrees with its profile")
            rows.append([name, n, len(Yn.inputs), len(p1.pieces), "identical" if same else "DIFFERENT",
                         exact_str(d), c_at.verdict.value, c_below.verdict.value])
    body = ("For a neighbouring pair differing in coordinate 1, the rows are P_1 (x) R and Q_1 (x) R with the same "
            "R on the other coordinates, so sum_{y,z} (P_1(y) R(z) - e^eps Q_1(y) R(z))_+ = sum_z R(z) "
            "sum_y (P_1(y) - e^eps Q_1(y))_+: the product's excess equals the 1-D excess, pair by pair. The whole "
            "exact profiles agree, piece by piece, with no gap:\n\n"
            + md_table(["1-D mechanism", "n", "size of D^n", "1-D pieces", "profile of the product vs 1-D",
                        "delta at eps = log 2", "product at that delta", "at 99/100 of it"], rows))
    n_same = sum(r[4] == "identical" for r in rows)
    return led.result(f"the product's exact privacy profile against the 1-D profile: identical in {n_same} of "
                      f"{len(rows)} cases (n = 2, 3; two 1-D mechanisms)",
                       [("Product against one dimension", body),
                        ("Certificate: randomized response, n = 2, delta at eps = log 2", CertificateProof(certs[0]))],
                       certs)
