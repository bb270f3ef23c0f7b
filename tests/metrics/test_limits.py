"""Regression tests for issue 8 (hardening), library side: metrics.

Each input is the one the issue reports. Moved from tests/test_hardening.py, which was split by the module each
test exercises."""

import networkx as nx
import pytest
from flint import fmpq

from exactdp.certify import certify_all_eps, certify_privacy, smallest_epsilon
from exactdp.errors import InputTooLarge, InvalidInput, InvalidType, NotAMetric
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import geometric
from exactdp.metrics import as_metric, from_graph, from_matrix, metric_from_spec, path

GEO2 = [["1/(1+alpha)", "alpha/(1+alpha)"], ["alpha/(1+alpha)", "1/(1+alpha)"]]


def geo2():
    return Mechanism.from_rows(["0", "1"], ["0", "1"], GEO2, validate=False)


# ----------------------------------------------------------------- metrics ----
def test_parallel_edges_take_the_minimum():
    spec = {"kind": "graph", "nodes": ["0", "1"], "edges": [["0", "1", 1], ["0", "1", 5]]}
    assert metric_from_spec(spec).distance("0", "1") == 1
    spec["edges"].reverse()
    assert metric_from_spec(spec).distance("0", "1") == 1
    M = nx.MultiGraph()
    M.add_edge("a", "b", w=5)
    M.add_edge("a", "b", w="1/2")
    M.add_edge("b", "c", w=1)
    m = from_graph(M, weight="w")
    assert m.distance("a", "b") == fmpq(1, 2) and m.distance("a", "c") == fmpq(3, 2)
    assert [(i, j, d) for i, j, d in m.generating_pairs()] == [(0, 1, fmpq(1, 2)), (1, 2, 1)]
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
    assert smallest_epsilon(K, metric_from_spec(spec)).evidence.epsilon == "log(2)"


def test_duplicate_graph_nodes_refused_like_matrix_and_discrete():
    with pytest.raises(InvalidInput, match="node '0' is listed twice"):
        metric_from_spec({"kind": "graph", "nodes": ["0", "1", "0"], "edges": [["0", "1"]]})
    with pytest.raises(InvalidInput, match="node '1' is listed twice"):
        metric_from_spec({"kind": "graph", "nodes": [1, "1"], "edges": []})
    with pytest.raises(InvalidInput, match="appears twice"):
        from_graph(nx.Graph([(1, "1")]))
    with pytest.raises(InvalidInput, match="appears twice"):
        metric_from_spec({"kind": "discrete", "points": ["a", "a"]})


def test_decimal_n_message():
    with pytest.raises(InvalidType, match=r"got the decimal number 3\.0; write it without a decimal point"):
        metric_from_spec({"kind": "path", "n": "3.0"})
    with pytest.raises(InvalidType, match="got str '3'"):
        metric_from_spec({"kind": "path", "n": "3"})


@pytest.mark.parametrize("spec, msg", [
    ({"kind": "hamming", "values": 5, "individuals": 2}, "'values' of kind 'hamming' must be a list"),
    ({"kind": "hamming", "values": [0, 1], "individuals": 10**1000}, "databases exceed the limit"),
    ({"kind": "subsets", "ground": "ab"}, "must be a list"),
    ({"kind": "matrix", "points": ["a"], "distances": [5]}, "list of rows"),
])
def test_malformed_specs_refused(spec, msg):
    with pytest.raises(InvalidInput if "exceed" in msg else InvalidType, match=msg):
        metric_from_spec(spec)


def test_networkx_graph_accepted_by_certifiers():
    G = nx.path_graph(4)
    c = certify_privacy(geometric(3, "1/2"), G, eps="log(2)")
    assert c.holds is True and c.evidence.epsilon == "log(2)"
    assert smallest_epsilon(geometric(3, "1/2"), G).evidence.epsilon == "log(2)"
    assert certify_all_eps(geometric(3), G).holds is True
    W = nx.Graph()
    W.add_edge(0, 1, weight=2)
    W.add_edge(1, 2, weight=2)
    # distance 2 per step: the geometric mechanism at alpha = 1/2 needs only eps = log(2)/2
    assert smallest_epsilon(geometric(2, "1/2"), W).evidence.epsilon == "log(2)/2"


def test_as_metric_refusals():
    G = nx.Graph()
    G.add_edge(0, 1, weight=2)
    G.add_edge(1, 2)
    with pytest.raises(InvalidInput, match="1 of 2 edges of the graph have no 'weight'"):
        as_metric(G)
    with pytest.raises(InvalidType, match="got DiGraph"):
        as_metric(nx.DiGraph([(0, 1)]))
    with pytest.raises(InvalidType, match="got str"):
        certify_privacy(geometric(1, "1/2"), "path", eps="1")
    m = path(3)
    assert as_metric(m) is m


def test_triangle_check_beyond_float_range():
    big = ["10^400", "10^401", "2*10^400"]
    with pytest.raises(NotAMetric, match=r"triangle inequality fails for \('a', 'b', 'c'\): d\('a', 'c'\) = "
                                         r"10000000000000000000\.\.\.0000000 \(402 digits\) >"):
        from_matrix(["a", "b", "c"], [[0, big[0], big[1]], [big[0], 0, big[0]], [big[1], big[0], 0]])
    m = from_matrix(["a", "b", "c"], [[0, big[0], big[2]], [big[0], 0, big[0]], [big[2], big[0], 0]])
    assert [(i, j) for i, j, _ in m.generating_pairs()] == [(0, 1), (1, 2)]  # b lies between a and c


@pytest.mark.parametrize("e", ["alpha^99999", "alpha^(1/99999)"])
def test_symbolic_degree_bounded_before_root_isolation(e):
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [[f"1/(1+{e})", f"{e}/(1+{e})"], [f"{e}/(1+{e})", f"1/(1+{e})"]],
                            validate=False)
    with pytest.raises(InputTooLarge, match=r"degree 9999[89] in u = alpha\^\(1/(1|99999)\) is beyond the limit 1000"):
        certify_all_eps(K, path(2))


def test_huge_rational_eps_on_symbolic_mechanism():
    # exponents of 10^30 do not fit the int64 fast row check; the exact row sums decide instead
    c = certify_privacy(geo2(), path(2), eps="10^30")
    assert c.holds is True and c.evidence.epsilon == "1000000000000000000000000000000"


# ------------------------------------------------- issue 32: sizes refused before the work ----
@pytest.mark.parametrize("spec", [{"kind": "path", "n": 3001}, {"kind": "path", "n": 3002},
                                  {"kind": "cycle", "n": 3001}, {"kind": "discrete", "points": 3001},
                                  {"kind": "grid", "shape": [55, 56]}, {"kind": "grid", "shape": [57, 57]},
                                  {"kind": "grid", "shape": [1, 3001]}])
def test_orbit_cells_closed_form_equals_the_partition_built(spec):
    """The cells a command refuses by (closed form, no O(n) work) are those the partition has when built."""
    from exactdp.metrics.symmetry import equitable_partition, orbit_cells

    if spec["kind"] == "discrete":
        spec = {"kind": "discrete", "points": [str(i) for i in range(spec["points"])]}
    m = metric_from_spec(spec)
    assert orbit_cells(m) == equitable_partition(m).ncells


def test_orbit_cells_none_where_refinement_may_be_coarser():
    from exactdp.metrics.symmetry import orbit_cells

    assert orbit_cells(path(3000)) is None                      # colour refinement's domain (MAX_REFINE)
    assert orbit_cells(metric_from_spec({"kind": "graph", "nodes": [str(i) for i in range(3001)],
                                         "edges": [[str(i), str(i + 1)] for i in range(3000)]})) is None


def test_structured_codes_are_the_exact_distances():
    """The first-column lookup (one sort) gives each code the distance it stands for (brute force on small)."""
    from exactdp.metrics import grid
    from exactdp.metrics.symmetry import DistanceCodes

    for m in (path(7), grid((4, 5), "manhattan"), grid((4, 4), "euclidean")):
        dc = DistanceCodes(m)
        full = dc.full()
        n = len(m)
        assert all(dc.values[full[i, j]] == m.d(i, j) for i in range(n) for j in range(n))
        assert len(set(map(str, dc.values))) == dc.ncodes


def test_generic_codes_refused_before_the_quadratic_work():
    """issue 32 item 1: 20,001 points of a generic metric are refused by the point limit, not computed."""
    from exactdp.metrics.symmetry import MAX_CODED_POINTS, DistanceCodes

    n = MAX_CODED_POINTS + 1
    m = metric_from_spec({"kind": "graph", "nodes": [str(i) for i in range(n)],
                          "edges": [[str(i), str(i + 1)] for i in range(n - 1)]})
    with pytest.raises(InputTooLarge, match=r"20,001 points whose distances are not a known formula.*20,000 points"):
        DistanceCodes(m)
