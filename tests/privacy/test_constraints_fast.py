"""The complete-metric fast path of the constraint triples (issue 12, target 3) against the generic streaming."""

import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import certify_privacy
from exactdp.privacy.constraints import Constraints
from exactdp.exact.level import Level
from exactdp.mechanism import mechanism_from_values
from exactdp.mechanisms import randomized_response
from exactdp.metrics import discrete, path


def _summaries(mech, metric, level):
    fast = Constraints(mech, metric)
    slow = Constraints(mech, metric)
    slow._complete = False
    assert fast._complete
    out = []
    for c in (fast, slow):
        s = c.decide(level)
        worst = None if s.worst is None else (c.mech.values[s.worst.a], c.mech.values[s.worst.b])
        out.append((s.violated, s.tight, s.tight_distinct, worst, c.distinct(), c.total,
                    sorted((str(c.mech.values[t.a]), str(c.mech.values[t.b])) for t in s.tight_listed)))
        for t in s.tight_listed + ([s.worst] if s.worst else []):
            x, xp, z, d = c.locate(t)  # the recorded occurrence really holds these two values
            assert (mech.entry(x, z), mech.entry(xp, z), d) == (c.mech.values[t.a], c.mech.values[t.b], 1)
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(1, 4), st.data())
def test_fast_path_equals_generic(n, m, data):
    rows = []
    for _ in range(n):
        w = [data.draw(st.integers(0, 3)) for _ in range(m)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([fmpq(v, sum(w)) for v in w])
    mech = mechanism_from_values([str(i) for i in range(n)], [f"o{j}" for j in range(m)], rows)
    level = Level.from_alpha(data.draw(st.sampled_from(["1/2", "1/3", "2/3"])))
    fast, slow = _summaries(mech, discrete(n), level)
    assert fast[:3] == slow[:3] and fast[4:6] == slow[4:6]
    assert fast[3] == slow[3] or (fast[3] is not None and slow[3] is not None)


@pytest.mark.parametrize("p, eps, holds", [(None, "log(3)", True), ("1/10", "log(3)", False), ("1/10", "log(6)", True)])
def test_randomized_response_on_the_discrete_metric(p, eps, holds):
    R = randomized_response([str(i) for i in range(5)], p=p)
    c = certify_privacy(R, discrete(5), eps=eps)
    assert c.holds is holds
    # the smallest eps: stay/p = (1 - 4p)/p, i.e. 3 for the default p at alpha = 1/3 and 6 for p = 1/10
    assert c.evidence.epsilon == ("log(3)" if p is None else "log(6)")


def test_fast_path_only_for_complete_metrics():
    R = randomized_response([str(i) for i in range(3)], p="1/4")
    assert not Constraints(R, path(3))._complete
    assert Constraints(R, discrete(3))._complete


def _summary(cons, level):
    s = cons.decide(level)
    return s.violated, s.tight, s.tight_distinct, cons.distinct(), s.stats.compared


@pytest.mark.parametrize("max_keys", [1 << 27, 0])
def test_chunked_streaming_merges_to_the_same_triples(monkeypatch, max_keys):
    import exactdp.privacy.triples as C
    from exactdp.mechanisms import geometric

    monkeypatch.setattr(C, "MAX_BITMAP", max_keys)
    G, P = geometric(30, "1/2"), path(31)
    one = Constraints(G, P)
    many = Constraints(G, P, chunk=200)
    assert many.pairs_per_chunk < many.n_pairs
    first = _summary(many, Level.from_alpha("1/2"))  # streamed chunk by chunk (distinct counts per chunk)
    assert first[:2] == _summary(one, Level.from_alpha("1/2"))[:2]
    for lv in ("1/2", "1/3", "3/5"):
        level = Level.from_alpha(lv)
        assert _summary(one, level) == _summary(many, level)  # later passes: the merged distinct triples


def test_log_filter_settles_values_below_the_float_range():
    from exactdp.mechanisms import geometric

    G, P = geometric(1100, "1/2"), path(1101)   # entries down to 2^-1100 (below the smallest double)
    cons = Constraints(G, P)
    s = cons.decide(Level.from_alpha("1/2"))
    assert s.violated == 0 and s.tight > 0
    # only the exact ties need exact work: every comparison the filters leave is a tie
    assert s.stats.exact == s.tight_distinct
    s = cons.decide(Level.from_alpha("2/3"))
    assert s.violated > 0


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2**80), st.integers(-5000, 5000), st.integers(1, 2**80))
def test_value_and_log_tables_enclose_every_rational(p, e, q):
    # values far below and far above the float range, and in it: lo <= v <= hi and lo <= log v <= hi, exactly
    from fractions import Fraction

    from flint import arb, ctx

    v = fmpq(p, q) * fmpq(2) ** e
    mech = mechanism_from_values(["0", "1"], ["z"], [[v], [fmpq(0)]], validate=False)
    cons = Constraints(mech, path(2))
    zero, lo, hi, _, _ = cons.value_tables()
    llo, lhi = cons.log_tables()
    c = mech.codes[0, 0]
    assert not zero[c] and zero[mech.codes[1, 0]]
    exact = Fraction(int(v.p), int(v.q))
    assert (lo[c] == -float("inf") or Fraction(lo[c]) <= exact) and (hi[c] == float("inf") or exact <= Fraction(hi[c]))
    with ctx.workprec(200):
        L = arb(v).log()
        assert arb(float(llo[c])) < L and arb(float(lhi[c])) > L
