"""BCSZ18 extension: against an independent brute force, both verdicts, corner cases
(the node-distance space is tested in tests/metrics/test_graph_space.py)."""

from fractions import Fraction

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput, LabelMismatch, Mechanism, Undecided, UNDECIDED
from exactdp.metrics import from_graph, path
from exactdp.extension.extension import ZeroNormaliser, extend, extension_data, restrict_metric
from exactdp.extension.extension import certify_extension


def _brute_extension(G, H, rows, alpha):
    """BCSZ18's formula with Fractions and networkx distances, written independently of exactdp."""
    R = 1 / Fraction(alpha)
    dist = dict(nx.all_pairs_shortest_path_length(G))
    out = {}
    for D in G.nodes:
        m = []
        for w in range(len(rows[0])):
            m.append(min(R ** dist[D][h] * rows[k][w] for k, h in enumerate(H) if h in dist[D]))
        Z = sum(m)
        if Z == 0:
            return None
        out[str(D)] = [v / Z for v in m]
    return out


def _brute_private(G, rows_by_point, alpha):
    """Every pair (not only edges), every output: K(x)(w) <= alpha^(-d) K(x')(w)."""
    R = 1 / Fraction(alpha)
    dist = dict(nx.all_pairs_shortest_path_length(G))
    for x in G.nodes:
        for y, d in dist[x].items():
            for a, b in zip(rows_by_point[str(x)], rows_by_point[str(y)], strict=True):
                if a > R ** d * b:
                    return False
    return True


@st.composite
def instances(draw):
    n = draw(st.integers(2, 7))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=12))
    G = nx.path_graph(n)  # connected
    G.add_edges_from((u, v) for u, v in edges if u != v)
    H = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n)))
    W = draw(st.integers(1, 4))
    rows = []
    for _ in H:
        ws = draw(st.lists(st.integers(0, 5), min_size=W, max_size=W))
        if sum(ws) == 0:
            ws[0] = 1
        rows.append([Fraction(v, sum(ws)) for v in ws])
    alpha = draw(st.sampled_from(["1/2", "1/3", "2/3", "9/10"]))
    return G, H, rows, alpha


def _mech(H, rows):
    return Mechanism.from_rows([str(h) for h in H], [f"w{j}" for j in range(len(rows[0]))],
                               [[str(v) for v in r] for r in rows])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_extension_equals_brute_force(inst):
    G, H, rows, alpha = inst
    want = _brute_extension(G, H, rows, alpha)
    if want is None:  # some Z_D = 0: supports differ, the extension is undefined
        with pytest.raises(ZeroNormaliser, match="Z_D = 0"):
            extend(_mech(H, rows), from_graph(G), [str(h) for h in H], alpha=alpha)
        return
    A = extend(_mech(H, rows), from_graph(G), [str(h) for h in H], alpha=alpha)
    got = {x: [Fraction(str(v)) for v in A.rows()[A.row_index[x]]] for x in A.inputs}
    assert got == want


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_private_input_gives_agreement_and_2eps(inst):
    G, H, _rows, alpha = inst
    # make Â private on H by construction: an exponential-type mechanism in the restricted distances
    dist = dict(nx.all_pairs_shortest_path_length(G))
    a = Fraction(alpha)
    prows = []
    for h in H:
        ws = [a ** dist[h][c] for c in H]  # weights alpha^d(h, c): the exponential mechanism, 2 eps-private
        prows.append([w / sum(ws) for w in ws])
    alpha2 = str(a * a)  # Â is private at eps = 2 log(1/alpha), alpha2 = alpha^2
    Ah = _mech(H, prows)
    c = certify_extension(Ah, from_graph(G), [str(h) for h in H], alpha=alpha2)
    ev = c.evidence
    assert c.holds is True and ev.agrees_on_H is True and ev.normalisers_equal_1 == len(H)
    A = {x: [Fraction(s) for s in r] for x, r in zip(ev.mechanism.inputs, ev.mechanism.rows(), strict=True)}
    assert _brute_private(G, A, str(Fraction(alpha2) ** 2))
    assert c.recheck().ok is True
    for h, r in zip(H, prows, strict=True):
        assert A[str(h)] == r


def test_fails_when_A_hat_is_not_private_with_witness():
    Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"]])
    c = certify_extension(Ah, path(4), ["0", "3"], eps="1/3")  # ratio 3 > e^(3 * 1/3) = e
    v = c.evidence.violation
    assert c.holds is False and c.evidence.witness["part"] == "a"
    assert (v.x, v.x_prime, v.output) == ("0", "3", "a")
    assert c.evidence.agrees_on_H is False  # Z_0 < 1: the minimum is not attained at D' = D
    assert c.recheck().status == "confirmed"  # e^(eps d) = e^(d/3) transcendental: exact zero test and intervals
    ok = certify_extension(Ah, path(4), ["0", "3"], eps="1")  # 3 <= e^3: private, boundary far
    assert ok.holds is True


def test_boundary_ratio_equal_to_bound():
    # Â(0)(a)/Â(3)(a) = 8 = (1/alpha)^3 exactly at alpha = 1/2: private with equality
    Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["8/9", "1/9"], ["1/9", "8/9"]])
    c = certify_extension(Ah, path(4), ["0", "3"], alpha="1/2")
    assert c.holds is True and c.evidence.epsilon_of_A_hat == "log(8)/3"  # = log(2), tight
    A = c.evidence.mechanism.rows()
    # m_1 = (min(2*8/9, 4*1/9), min(2*1/9, 4*8/9)) = (4/9, 2/9), Z_1 = 2/3
    assert A[1] == ["2/3", "1/3"] and A[2] == ["1/3", "2/3"]
    # A(1)(b)/A(0)(b) = 3 > 2 = e^eps: the extension loses more than eps here, and stays below 2 eps
    assert c.evidence.epsilon == "log(3)"
    b = c.evidence.binding
    assert (b["ratio"], b["factor2"]) == ("3", "4")


def test_disjoint_supports_fail_part_a_and_leave_extension_undefined():
    Ah = Mechanism.from_rows(["0", "2"], ["a", "b"], [["1", "0"], ["0", "1"]])
    c = certify_extension(Ah, path(3), ["0", "2"], alpha="1/2")
    assert c.holds is False and c.evidence.witness["part"] == "a" and c.evidence.private_2eps == "undefined"
    assert "Z_D = 0" in c.evidence.extension_note and c.recheck().status == "confirmed"


def test_h_empty_and_label_errors():
    Ah = Mechanism.from_rows(["0"], ["a"], [["1"]])
    with pytest.raises(InvalidInput, match="H: expected a non-empty subset"):
        extend(Ah, path(3), [], alpha="1/2")
    with pytest.raises(InvalidInput, match="not a point of the metric"):
        extend(Ah, path(3), ["7"], alpha="1/2")
    with pytest.raises(LabelMismatch, match="inputs must be exactly H"):
        extend(Ah, path(3), ["1"], alpha="1/2")
    with pytest.raises(InvalidInput, match="appears twice"):
        extend(Ah, path(3), ["0", "0"], alpha="1/2")
    with pytest.raises(InvalidInput, match="exactly one of eps, alpha"):
        extend(Ah, path(3), ["0"])


def test_disconnected_metric_per_component_and_undefined_component():
    G = nx.Graph([(0, 1), (1, 2), (3, 4)])
    Ah = Mechanism.from_rows(["0", "3"], ["a", "b"], [["1/2", "1/2"], ["1/3", "2/3"]])
    A = extend(Ah, from_graph(G), ["0", "3"], alpha="1/2")
    assert [str(v) for v in A.rows()[A.row_index["4"]]] == ["1/3", "2/3"]  # only H-point 3 is reachable
    assert [str(v) for v in A.rows()[A.row_index["2"]]] == ["1/2", "1/2"]
    G.add_edge(5, 6)
    with pytest.raises(InvalidInput, match="no point of H, so the extension is undefined there"):
        extend(Ah, from_graph(G), ["0", "3"], alpha="1/2")


def test_point_of_H_has_normaliser_exactly_one():
    Ah = Mechanism.from_rows(["0", "2"], ["a", "b"], [["2/3", "1/3"], ["1/3", "2/3"]])
    X = extension_data(Ah, path(3), ["0", "2"], alpha="1/2")
    from flint import fmpq
    assert [fmpq(1), fmpq(4, 3), fmpq(1)] == X.Z  # m_1 = (min(4/3, 2/3), min(2/3, 4/3))


def test_undecided_outside_the_field():
    Ah = Mechanism.from_rows(["0", "2"], ["a", "b"], [["2/3", "1/3"], ["1/3", "2/3"]])
    with pytest.raises(Undecided, match="irrational algebraic"):
        extend(Ah, path(3), ["0", "2"], eps="log(2)/3")
    c = certify_extension(Ah, path(3), ["0", "2"], eps="log(2)/3")  # Â: ratio 2 > e^(2 eps) = 2^(2/3)
    assert c.holds is False and c.evidence.witness["part"] == "a"
    assert "irrational algebraic" in c.evidence.extension_note
    ok = Mechanism.from_rows(["0", "2"], ["a", "b"], [["5/9", "4/9"], ["4/9", "5/9"]])  # ratio 5/4 < 2^(2/3)
    c = certify_extension(ok, path(3), ["0", "2"], eps="log(2)/3")
    assert c.holds is UNDECIDED and "irrational algebraic" in c.reason


def test_transcendental_regime_against_mpmath():
    import mpmath
    Ah = Mechanism.from_rows(["0", "3"], ["a", "b", "c"], [["1/2", "1/4", "1/4"], ["1/5", "2/5", "2/5"]])
    c = certify_extension(Ah, path(4), ["0", "3"], eps="1/2")
    assert c.holds is True
    mpmath.mp.dps = 40
    rows = [[mpmath.mpf(1) / 2, mpmath.mpf(1) / 4, mpmath.mpf(1) / 4], [mpmath.mpf(1) / 5, mpmath.mpf(2) / 5] * 1
            + [mpmath.mpf(2) / 5]]
    A = extend(Ah, path(4), ["0", "3"], eps="1/2")
    for D in range(4):
        m = [min(mpmath.exp(mpmath.mpf(abs(D - h)) / 2) * rows[k][w] for k, h in enumerate([0, 3])) for w in range(3)]
        Z = sum(m)
        for w in range(3):
            got = A.rows()[D][w]
            assert abs(mpmath.mpf(float(got.arb().mid()) if hasattr(got, "arb") else float(got)) - m[w] / Z) < 1e-12


def test_restricted_metric_uses_distances_of_M():
    R = restrict_metric(path(6), ["0", "5"])
    assert R.distance("0", "5") == 5 and len(R.generating_pairs()) == 1
