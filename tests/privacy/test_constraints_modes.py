"""The ways of finding the distinct constraint triples (issue 12, target 3; memory budget of target 2) against an
independent brute force over every inequality ``K(x)(z) <= alpha^(-d) K(x')(z)`` in exact rationals:

* one chunk (sorted, small problems);
* many chunks, keys bounded: a byte map of the forward keys, multiplicities counted in a second pass (with or
  without the forward keys kept);
* many chunks, keys unbounded: sorted chunk by chunk and merged (within the ``MAX_KEPT`` budget), or deduplicated
  again on every pass (budget exceeded).
"""

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.privacy import triples as C  # the modes' limits live with the triples
from exactdp.privacy.constraints import Constraints
from exactdp.exact.level import Level
from exactdp.mechanism import mechanism_from_values
from exactdp.metrics import from_matrix, path

MODES = {
    "one chunk": (1 << 30, {}),
    "byte map": (7, {}),
    "byte map, keys not kept": (7, {"MAX_KEY_CACHE": 0}),
    "byte map, tiny blocks": (7, {"FIRST_BLOCK": 1, "BLOCK": 4}),
    "sorted, merged": (7, {"MAX_BITMAP": 0}),
    "sorted, over budget": (7, {"MAX_BITMAP": 0, "MAX_KEPT": 0}),
}


def _brute(mech, metric, alpha):
    """(violated, tight, distinct triples, distinct tight triples) over every inequality, both directions; a
    triple is (code of K(x)(z), code of K(x')(z), d), as in the certificate (equal values may carry two codes)."""
    pts = metric.points
    viol = tight = 0
    triples, tight_triples = set(), set()
    for i, j, d in metric.generating_pairs():
        E = (1 / alpha) ** int(d)
        for z in mech.outputs:
            for x, xp in ((pts[i], pts[j]), (pts[j], pts[i])):
                a, b = mech.entry(x, z), mech.entry(xp, z)
                key = (int(mech.codes[mech.row_index[x], mech.col_index[z]]),
                       int(mech.codes[mech.row_index[xp], mech.col_index[z]]), d)
                triples.add(key)
                if a > E * b:
                    viol += 1
                elif a != 0 and a == E * b:
                    tight += 1
                    tight_triples.add(key)
    return viol, tight, len(triples), len(tight_triples)


def _check_mode(mech, metric, alpha, mode):
    chunk, patches = MODES[mode]
    with pytest.MonkeyPatch.context() as mp:
        for k, v in patches.items():
            mp.setattr(C, k, v)
        cons = Constraints(mech, metric, chunk=chunk)
        level = Level.from_alpha(str(alpha))
        decided = []
        for _ in range(2):  # the first pass finds the triples (and decides them as found), the second reuses them
            S = cons.decide(level)
            decided.append(S)
            S_other = cons.decide(Level.from_alpha("1/5"))  # a different level in between
            assert S_other is not S
        if cons.n_pairs > cons.pairs_per_chunk and not cons._complete:  # the mode named is the one that ran
            kept = cons._cached
            if mode == "sorted, over budget":
                assert kept is None
            else:
                assert (kept[0].fwd is not None) == mode.startswith("byte")
            assert (cons._keys is not None) == (mode in ("byte map", "byte map, tiny blocks"))
        viol, tight, distinct, tight_distinct = _brute(mech, metric, alpha)
        assert [(s.violated, s.tight) for s in decided] == [(viol, tight)] * 2
        if mode != "sorted, over budget":  # streamed chunk by chunk: distinct counts are per chunk (upper bounds)
            assert (S.stats.compared, S.tight_distinct) == (distinct, tight_distinct)
        else:
            assert S.stats.compared >= distinct and S.tight_distinct >= tight_distinct
        for t in ([S.worst] if S.worst else []) + S.tight_listed:
            x, xp, z, d = cons.locate(t)  # the recorded occurrence really holds the triple's values
            a, b = mech.entry(x, z), mech.entry(xp, z)
            assert (a, b, d) == (cons.mech.values[t.a], cons.mech.values[t.b], cons.dvals[t.dc])
            E = (1 / alpha) ** int(d)
            assert (a > E * b) if t is S.worst else (a == E * b)
        return S, _triples(cons)


def _triples(cons):
    """Every distinct triple with its recorded occurrence, in one order (the modes must agree on both)."""
    out = []
    for ch in cons.chunks():
        out += zip(ch.A.tolist(), ch.B.tolist(), ch.DC.tolist(), ch.first.tolist(), strict=True)
    return sorted(set(out))


def _mechanism(n, m, data):
    rows = []
    for _ in range(n):
        w = [data.draw(st.integers(0, 3)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([fmpq(v, sum(w)) for v in w])
    return mechanism_from_values([str(i) for i in range(n)], [f"o{j}" for j in range(m)], rows)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.sampled_from(["path", "matrix"]), st.data())
def test_every_mode_agrees_with_the_brute_force(n, m, kind, data):
    mech = _mechanism(n, m, data)
    if kind == "path":
        metric = path(n)
    else:  # distances in [2, 4] satisfy the triangle inequality
        D = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                D[i][j] = D[j][i] = data.draw(st.integers(2, 4))
        metric = from_matrix([str(i) for i in range(n)], D)
    alpha = fmpq(*data.draw(st.sampled_from([(1, 2), (1, 3), (2, 3)])))
    found = {mode: _check_mode(mech, metric, alpha, mode)[1] for mode in MODES}
    # every mode but the one streamed over budget finds the same triples at the same first occurrences (the
    # forward direction's when a triple occurs in both): the witnesses named do not depend on the mode
    assert len({tuple(t) for mode, t in found.items() if mode != "sorted, over budget"}) == 1


def test_a_tie_on_the_boundary_is_tight_in_every_mode():
    # K(0)(o) = 2/3 = 2 * 1/3 = alpha^(-1) K(1)(o) at alpha = 1/2: exactly tight, both outputs
    mech = mechanism_from_values(["0", "1"], ["o", "p"], [[fmpq(2, 3), fmpq(1, 3)], [fmpq(1, 3), fmpq(2, 3)]])
    for mode in MODES:
        S, _ = _check_mode(mech, path(2), fmpq(1, 2), mode)
        assert (S.violated, S.tight) == (0, 2)


@pytest.mark.parametrize("alpha, viol, tight", [(fmpq(1, 2), 0, 6 * 7), (fmpq(2, 3), 6 * 7, 0)])
def test_geometric_only_ties_or_only_violations_in_every_mode(alpha, viol, tight):
    # geometric(6, 1/2) on path(7): K(x)(z) / K(x')(z) = 2^(+-1) on every edge, so at alpha = 1/2 one direction
    # of each (edge, output) is a tie and nothing fails; at alpha = 2/3 that direction fails instead
    from exactdp.mechanisms import geometric

    for mode in MODES:
        S, _ = _check_mode(geometric(6, "1/2"), path(7), alpha, mode)
        assert (S.violated, S.tight) == (viol, tight)


def test_the_kept_budget_bounds_what_is_kept(monkeypatch):
    from exactdp.mechanisms import geometric

    monkeypatch.setattr(C, "MAX_BITMAP", 0)
    monkeypatch.setattr(C, "MAX_KEPT", 10)
    cons = Constraints(geometric(30, "1/2"), path(31), chunk=200)
    S = cons.decide(Level.from_alpha("1/2"))
    assert cons._cached is None and S.violated == 0 and S.tight == 30 * 31  # re-deduplicated on each pass
    monkeypatch.setattr(C, "MAX_KEPT", 10**6)
    cons = Constraints(geometric(30, "1/2"), path(31), chunk=200)
    assert cons.decide(Level.from_alpha("1/2")).tight == 30 * 31 and len(cons._cached) == 1
