"""HLM15 Lemmas 1-2 checked exhaustively (exactdp.decomposition.lemmas): counts, certificates, bad inputs."""

import itertools

import pytest

from exactdp.errors import InputTooLarge, InvalidInput
from exactdp.recheck import recheck
from exactdp.decomposition.lemmas import certify_decomposition, decomposition_counts


def _brute(X, Y, p, lemma):
    """An independent count: sets as bit masks; Lemma 1's parts built from the formula for every subset I."""
    rects = [(a, b) for a in range(1, 2 ** len(X)) for b in range(1, 2 ** len(Y))]
    if lemma == 2:
        rects = [(b, a) for a, b in rects]
        X, Y = Y, X
    full_y = 2 ** len(Y) - 1
    good = 0
    for coll in itertools.product(rects, repeat=p):
        union = {(i, j) for a, b in coll for i in range(len(X)) if a >> i & 1 for j in range(len(Y)) if b >> j & 1}
        cover, seconds = set(), []
        for mask in range(2 ** p):
            inside = [coll[i] for i in range(p) if mask >> i & 1]
            outside = [coll[i] for i in range(p) if not mask >> i & 1]
            a = 0
            b = full_y
            for ai, bi in inside:
                a |= ai
                b &= bi
            for _, bi in outside:
                b &= ~bi
            seconds.append(b)
            cover |= {(i, j) for i in range(len(X)) if a >> i & 1 for j in range(len(Y)) if b >> j & 1}
        disjoint = all(not (s & t) for s, t in itertools.combinations(seconds, 2))
        good += cover == union and disjoint
    return good


@pytest.mark.parametrize("lemma", [1, 2])
@pytest.mark.parametrize(("X", "Y", "p"), [(["x"], ["y"], 3), (["0", "1"], ["a"], 2), (["0", "1"], ["a", "b"], 2),
                                           (["0"], ["a", "b", "c"], 2)])
def test_counts_against_an_independent_enumeration(X, Y, p, lemma):
    counts = decomposition_counts(X, Y, p, lemma)
    rects = (2 ** len(X) - 1) * (2 ** len(Y) - 1)
    assert [c[:2] for c in counts] == [[k, rects ** k] for k in range(1, p + 1)]
    assert [c[2] for c in counts] == [_brute(X, Y, k, lemma) for k in range(1, p + 1)]
    assert all(good == n for _, n, good in counts)          # the lemma holds: every collection decomposes


@pytest.mark.parametrize("lemma", [1, 2])
def test_the_certificate_rechecks_and_a_changed_count_is_refuted(lemma):
    c = certify_decomposition(["0", "1"], ["a", "b"], 2, lemma=lemma)
    assert c.holds is True and c.evidence.counts == [[1, 9, 9], [2, 81, 81]]
    j = c.to_json()
    assert recheck(j).status == "confirmed"
    j["evidence"]["counts"][1][2] = 80
    assert recheck(j).status == "refuted"


@pytest.mark.parametrize(("args", "kw", "error", "words"), [
    ((["0"], ["a"], 1), {"lemma": 3}, InvalidInput, "lemma is 1 or 2"),
    ((["0"], ["a"], 1), {"lemma": True}, InvalidInput, "lemma is 1 or 2"),
    ((["0"], ["a"], 0), {}, InvalidInput, "max_rects"),
    ((["0"], ["a"], True), {}, InvalidInput, "max_rects"),
    (([], ["a"], 1), {}, InvalidInput, "non-empty list of distinct"),
    ((["0", "0"], ["a"], 1), {}, InvalidInput, "non-empty list of distinct"),
    ((["0", "1", "2"], ["a", "b", "c", "d"], 4), {}, InputTooLarge, "exceed the limit"),
])
def test_bad_inputs_are_refused(args, kw, error, words):
    with pytest.raises(error, match=words):
        certify_decomposition(*args, **kw)
