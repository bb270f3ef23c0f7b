"""GRS12 Section 3 and 5 claims: Theorem 3.1 (universal optimality), Figures 2 and 3."""

from __future__ import annotations

import random

from flint import fmpq

from ..errors import InvalidInput
from ..mechanism import Mechanism
from ..exact.decide import exact_str
from ..mechanisms import geometric
from ..theory.optimality import (certify_universal_optimality, check_lemmas, constraint_matrix, lemma_5_11_remap,
                                 optimal_mechanism)
from ..theory.remaps import bayes_remap
from ..theory.users import LOSSES, User
from .registry import ClaimResult, md_table, register

ALPHAS = ("1/2", "1/3", "2/3", "9/10")
SEED = 20261122
N_RANDOM = 200

#: Figure 2 as printed in GRS12 (rows: inputs 0..5, columns: outputs 0..5)
FIGURE_2 = [
    ["2/3", "0", "1/4", "1/24", "1/48", "1/48"],
    ["1/3", "0", "1/2", "1/12", "1/24", "1/24"],
    ["1/6", "0", "1/2", "1/6", "1/12", "1/12"],
    ["1/12", "0", "1/4", "1/3", "1/6", "1/6"],
    ["1/24", "0", "1/8", "1/6", "1/3", "1/3"],
    ["1/48", "0", "1/16", "1/12", "1/6", "2/3"],
]
#: the Figure 3 entries that survived the text conversion: (row, column) -> glyph
FIGURE_3_SURVIVING = {**{(i, 1): "Z" for i in range(5)}, (1, 2): "S"}


def random_user(rng: random.Random, n: int) -> User:
    """A random rational prior and a random monotone loss table (GRS12 sec. 2.2)."""
    while True:
        w = [rng.randint(0, 9) for _ in range(n + 1)]
        if sum(w):
            break
    prior = [fmpq(x, sum(w)) for x in w]
    loss = []
    for i in range(n + 1):
        base = [rng.randint(0, 2)]
        for _ in range(n):
            base.append(base[-1] + 1 + rng.randint(0, 3))
        row = []
        for r in range(n + 1):
            k = abs(i - r)
            row.append(base[k] + (rng.randint(0, 1) if k else 0))
        loss.append(row)
    return User(prior, loss, name="random user")


def _batch():
    rows = []
    for n in range(1, 7):
        for a in ALPHAS:
            for loss in LOSSES:
                rows.append((n, a, User.uniform(n, loss)))
    rng = random.Random(SEED)
    for _ in range(N_RANDOM):
        n = rng.randint(1, 6)
        rows.append((n, rng.choice(ALPHAS), random_user(rng, n)))
    return rows


@register("GRS12-thm3.1", "GRS12", "Theorem 3.1",
          "For every user (prior and monotone loss) the alpha-geometric mechanism followed by the user's optimal "
          "remap minimises the user's expected loss over all oblivious eps-differentially private mechanisms "
          "with range {0..n}.",
          "the remapped geometric mechanism is optimal for every user")
def thm31() -> ClaimResult:
    results, fails = [], []
    pattern = {"lemma 5.5": 0, "lemma 5.6": 0, "lemma 5.9": 0, "lemma 5.11": 0}
    strict = 0
    for n, a, u in _batch():
        c = certify_universal_optimality(n, u, alpha=a)
        results.append((n, a, u, c))
        if c.holds is not True or c.recheck().ok is not True:
            fails.append((n, a, u.name))
        # Section 5 on the LP vertex (the lemmas assume full support and strictly monotone losses)
        if all(p > 0 for p in u.prior) and _strict(u):
            strict += 1
            od = c.evidence.optimum
            opt = Mechanism.from_rows(od.inputs, od.outputs, od.rows(), name=od.name)
            C = constraint_matrix(opt, fmpq(a))
            for k, v in check_lemmas(C).items():
                pattern[k] += v
            try:
                m = lemma_5_11_remap(C, n)
                G = geometric(n, a)
                pattern["lemma 5.11"] += G.remap(m, outputs=[str(r) for r in range(n + 1)]).rows() == opt.rows()
            except InvalidInput:
                pass  # the column patterns do not partition the outputs: counted as a failure of Lemma 5.11
    fixed = [r for r in results if r[2].name != "random user"]
    table = ["| n | alpha | absolute | squared | binary |", "|---|---|---|---|---|"]
    for n in range(1, 7):
        for a in ALPHAS:
            cells = []
            for loss in LOSSES:
                c = next(r[3] for r in fixed if r[0] == n and r[1] == a and r[2].name.endswith(f"{loss} loss"))
                cells.append(f"{c.evidence.lp.value} {'=' if c.holds else '!='} geometric")
            table.append(f"| {n} | {a} | " + " | ".join(cells) + " |")
    rnd = [r for r in results if r[2].name == "random user"]
    body = ("\n".join(table) + "\n\nEach cell is the exact optimum of the user-specific LP (uniform prior), equal to "
            "the expected loss of the Bayes-remapped geometric mechanism. Each LP optimum was rebuilt exactly from "
            "the HiGHS basis and verified with its dual (primal and dual feasibility, zero gap).\n\n"
            f"Random users (seed {SEED}): {len(rnd)} users with random rational priors (weights 0..9) and random "
            "monotone loss tables, n in 1..6, alpha in {1/2, 1/3, 2/3, 9/10}: "
            f"{sum(1 for r in rnd if r[3].holds is True)} of {len(rnd)} attained exactly.\n\n"
            f"Section 5 on the LP optimum (the vertex rebuilt exactly), for the {strict} users with a full-support "
            "prior and a strictly monotone loss (the lemmas' hypotheses; the paper handles the rest by a limiting "
            "argument): " + ", ".join(f"{k} holds on {v} of {strict}" for k, v in pattern.items())
            + " (Lemma 5.11: the remap built from the vertex's constraint matrix, applied to the range-restricted "
            "geometric mechanism, reproduces the vertex exactly).\n")
    ok_lemmas = all(v == strict for v in pattern.values())
    example = results[2 * 12 + 0][3]  # n = 3, alpha = 1/2, absolute loss
    status = "reproduced" if not fails and ok_lemmas else "differs"
    exact = (f"remapped geometric = LP optimum exactly for all {len(results)} users "
             f"({len(fixed)} uniform-prior instances and {len(rnd)} random users)") if not fails else \
        f"differs for {fails[:5]}"
    return ClaimResult(status, exact, [("Instances", body), ("Worked certificate: n = 3, alpha = 1/2, absolute loss",
                                                             example.to_markdown())],
                       [r[3] for r in results])


def _strict(u: User) -> bool:
    """Loss strictly increasing in |i - r| for each i."""
    n = u.n
    for i in range(n + 1):
        for r in range(n + 1):
            for r2 in range(n + 1):
                if abs(i - r) < abs(i - r2) and not u.loss[i][r] < u.loss[i][r2]:
                    return False
    return True


def _figure2_mechanism():
    G = geometric(5, "1/2")
    mapping = {str(z): ("2" if z == 1 else str(z)) for z in range(6)}
    return G.remap(mapping, outputs=[str(r) for r in range(6)], name="geometric(5, 1/2) remapped 1 -> 2")


def _find_user_for(target):
    """Search small priors and the three losses for a user whose unique LP optimum is ``target``."""
    weights = [(a, b, c, d, e, f) for a in range(1, 4) for b in range(0, 2) for c in range(1, 4)
               for d in range(1, 3) for e in range(1, 3) for f in range(1, 3)]
    G = geometric(5, "1/2")
    want = {str(z): ("2" if z == 1 else str(z)) for z in range(6)}
    for loss in LOSSES:
        for w in weights:
            u = User([fmpq(x, sum(w)) for x in w], loss, name=f"prior {list(w)}/{sum(w)}, {loss} loss")
            mapping, _ = bayes_remap(G, u)
            if mapping != want:
                continue
            sol, opt = optimal_mechanism(5, fmpq(1, 2), u)
            if sol.unique and opt.rows() == target.rows():
                return u, sol
    return None, None


@register("GRS12-fig2", "GRS12", "Figure 2 (Example 5.2)",
          "Figure 2 shows an optimal 1/2-geometric-derived (eps = log 2) private mechanism for a specific user: "
          "the range-restricted geometric mechanism with output 1 remapped to 2.",
          "the 6 x 6 table of Figure 2 (first row 2/3, 0, 1/4, 1/24, 1/48, 1/48)")
def fig2() -> ClaimResult:
    from ..mechanism import Mechanism

    M = _figure2_mechanism()
    printed = Mechanism.from_rows(range(6), range(6), FIGURE_2, name="Figure 2 as printed")
    same = M.rows() == printed.rows()
    u, sol = _find_user_for(M)
    ok = same and u is not None
    table = md_table(["input"] + list(range(6)), [[i] + [exact_str(v) for v in row] for i, row in enumerate(M.rows())])
    body = ("The range-restricted geometric mechanism with n = 5, alpha = 1/2, after the remap 1 -> 2 "
            "(every other output kept):\n\n" + table + "\n\n"
            f"Equal, entry by entry, to the table printed in the paper: {same}.\n")
    if u is not None:
        body += (f"\n**Reconstruction (the paper's user was lost).** exactdp searched small priors and the three "
                 f"standard losses; the first user for whom this table is the *unique* optimum of the user-specific "
                 f"LP is: {u.name}, prior ({', '.join(exact_str(p) for p in u.prior)}). Optimal value "
                 f"{exact_str(sol.value)}; uniqueness certified from the dual (strict complementarity / rank). "
                 f"{sol.method}.\n")
    return ClaimResult("reproduced" if ok else "differs",
                       ("Figure 2 = geometric(5, 1/2) remapped 1 -> 2, exactly; it is the unique LP optimum for the "
                        f"reconstructed user {u.name if u else '(none found)'}"), [("Figure 2", body)], [])


@register("GRS12-fig3", "GRS12", "Figure 3",
          "Figure 3 lists the constraint matrix of the Figure 2 mechanism: per adjacent row pair and column, a zero "
          "column, a slack constraint, or one of the two tight privacy constraints.",
          "column 1 is a Z column; row 1 has S in column 2 (the other glyphs were lost)")
def fig3() -> ClaimResult:
    M = _figure2_mechanism()
    C = constraint_matrix(M, fmpq(1, 2))
    surv = all(C[i][j] == g for (i, j), g in FIGURE_3_SURVIVING.items())
    lemmas = check_lemmas(C)
    mapping = lemma_5_11_remap(C, 5)
    G = geometric(5, "1/2")
    rebuilt = G.remap(mapping, outputs=[str(r) for r in range(6)])
    reproduces = rebuilt.rows() == M.rows()
    table = md_table(["rows"] + list(range(6)), [[f"{i}, {i + 1}"] + row for i, row in enumerate(C)])
    body = ("Glyphs (the paper's arrows were lost; our choice): Z zero column, S slack, D: x_(i+1)r = alpha x_ir, "
            "U: x_ir = alpha x_(i+1)r.\n\n" + table + "\n\n"
            f"Surviving entries of the printed figure (column 1 all Z, S at row 1 column 2) agree: {surv}.\n\n"
            f"Section 5 patterns on this vertex: {', '.join(f'{k}: {v}' for k, v in lemmas.items())}.\n\n"
            f"Lemma 5.11: the remap built from the column patterns sends {mapping}; applied to the range-restricted "
            f"geometric mechanism it reproduces Figure 2 exactly: {reproduces}.\n")
    ok = surv and all(lemmas.values()) and reproduces
    return ClaimResult("reproduced" if ok else "differs",
                       "constraint matrix computed exactly; the surviving glyphs agree; Lemmas 5.5, 5.6, 5.9 hold and "
                       "the Lemma 5.11 remap rebuilds Figure 2", [("Figure 3", body)], [])
