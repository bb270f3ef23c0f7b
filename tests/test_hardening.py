"""Regression tests for issue 8 (hardening), library side: each input is the one the issue reports."""

import math

import networkx as nx
import pytest
from flint import fmpq

from exactdp import UNDECIDED
from exactdp.certify import certify_all_eps, certify_privacy, smallest_epsilon
from exactdp.errors import (InputTooLarge, InvalidInput, InvalidType, NotAMetric, NotStochastic, ParseError,
                            UnsupportedRegime)
from exactdp.exact.decide import decimal_enclosure, float_bounds
from exactdp.exact.level import Level
from exactdp.exact.lin import squarefree_split
from exactdp.exact.values import MAX_POLY_POWER, MAX_RESULT_BITS, brief, exact_number
from exactdp.mechanism import Mechanism
from exactdp.mechanisms import exponential, geometric
from exactdp.metrics import as_metric, from_graph, from_matrix, grid, metric_from_spec, path

GEO2 = [["1/(1+alpha)", "alpha/(1+alpha)"], ["alpha/(1+alpha)", "1/(1+alpha)"]]


def geo2():
    return Mechanism.from_rows(["0", "1"], ["0", "1"], GEO2, validate=False)


# ---------------------------------------------------------------- numbers ----
@pytest.mark.parametrize("text", ["٢/٣", "１/２", "1/٣"])
def test_non_ascii_digits_refused(text):
    with pytest.raises(ParseError, match="non-ASCII digit"):
        exact_number(text)


def test_5001_digit_string_refused_before_int_conversion():
    with pytest.raises(InputTooLarge, match="5001 digits; the limit is 2000"):
        exact_number("1" * 5001)
    with pytest.raises(InputTooLarge, match="5001 digits"):
        Mechanism.from_rows(["0"], ["0"], [["1" * 5001]])
    with pytest.raises(InputTooLarge, match="decimal exponent"):
        exact_number("1e" + "9" * 5001)


def test_tower_of_powers_refused_with_abbreviated_exponent():
    with pytest.raises(InputTooLarge, match=r"exponent 20035299304068464649\.\.\.9156736 \(19729 digits\) is beyond"):
        exact_number("2^2^2^2^2^2")


def test_result_size_of_powers_bounded():
    with pytest.raises(InputTooLarge, match=f"beyond the limit {MAX_RESULT_BITS} bits"):
        exact_number("(2^100000)^100000")
    assert exact_number("(2^1000)^900") == fmpq(2) ** 900_000  # under the limit: exact
    with pytest.raises(InputTooLarge, match=f"limit {MAX_POLY_POWER}"):
        exact_number("(1+exp(1))^5000")


def test_long_plus_zero_chain_evaluates_iteratively():
    text = "1/2" + "+0" * 1000
    assert len(text) == 2003
    assert exact_number(text) == fmpq(1, 2)
    assert exact_number("1" + "-1+1" * 2400) == 1  # 9,601 characters, under the length limit


def test_brief_keeps_short_numbers_and_cuts_long_ones():
    assert brief(fmpq(-3, 4)) == "-3/4"
    b = brief(fmpq(2) ** 65536)
    assert b.endswith("(19729 digits)") and len(b) < 60


def test_square_root_of_hard_to_factor_integer_refused_fast():
    with pytest.raises(UnsupportedRegime, match="cannot be factored cheaply"):
        exact_number("sqrt(10^200+1)")
    with pytest.raises(UnsupportedRegime, match="perfect squares"):
        exact_number("sqrt(10^2000+3)")
    assert squarefree_split(2**300 * 3) == (2**150, 3)
    assert exact_number("sqrt(10^3000)") == fmpq(10) ** 1500


# ------------------------------------------------------------ float filter ----
@pytest.mark.parametrize("text", ["10^400", "1/10^400", "-10^400", "7/10^330"])
def test_float_bounds_beyond_float_range(text):
    x = exact_number(text)
    lo, hi = float_bounds(x)
    assert lo <= hi
    # the bounds enclose x (checked exactly, infinities as sides only)
    assert lo == -math.inf or fmpq(*lo.as_integer_ratio()) <= x
    assert hi == math.inf or x <= fmpq(*hi.as_integer_ratio())


def test_decimal_enclosure_of_tiny_number():
    x = fmpq(1, 10**400)
    lo, hi = decimal_enclosure(x)
    assert lo.startswith("0." + "0" * 399) and exact_number(lo) <= x <= exact_number(hi) < 2 * x


@pytest.mark.parametrize("dist, holds", [("10^400", True), ("1/10^400", False)])
def test_matrix_metric_with_huge_and_tiny_distances(dist, holds):
    m = from_matrix(["0", "1"], [[0, dist], [dist, 0]])
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2/3", "1/3"], ["1/3", "2/3"]])
    # the binding ratio is 2 against e^(d) (eps = 1) or 2^d (eps = log 2)
    for eps in ("1", "log(2)"):
        assert certify_privacy(K, m, eps=eps).holds is holds


# -------------------------------------------------- huge exponent numerators ----
@pytest.mark.parametrize("eps", ["499999999999/1000000000000", "49999999/100000000"])
def test_geometric_2x2_at_eps_with_huge_denominator(eps):
    c = certify_privacy(geo2(), path(2), eps=eps)
    # the ratio K(0)(0)/K(1)(0) is 1/alpha = e^eps exactly: holds, tight
    assert c.holds is True and c.evidence.epsilon == eps
    f = c.evidence.factors[0]
    assert (f.distance, f.factor) == ("1", f"exp({eps})")
    assert c.recheck().ok is True


def test_distance_1_over_1000003_at_alpha_half():
    m = from_matrix(["0", "1"], [[0, "1/1000003"], ["1/1000003", 0]])
    c = certify_privacy(geo2(), m, alpha="1/2")
    # K(0)(0)/K(1)(0) = 1/alpha = 2 > 2^(1/1000003)
    assert c.holds is False and c.evidence.violation.lhs == "2/3"


# ------------------------------------------------------------------ levels ----
def test_level_log_3_600_over_2_has_rational_alpha():
    L = Level.from_eps("log(3^600)/2")
    assert L.alpha() == fmpq(1, 3**300)
    c = certify_privacy(geo2(), path(2), eps="log(3^600)/2")
    assert c.holds is True and c.recheck().ok is True
    assert Level.from_eps("log(2^3001)/3").alpha() is None  # 2^3001 is no cube


def test_level_with_astronomical_power_refused():
    with pytest.raises(InputTooLarge, match="more than 1000000 bits"):
        Level.from_eps("10^1000*log(2)")


def test_symbolic_mechanism_at_irrational_alpha_settled_by_all_eps_proof():
    c = certify_privacy(geometric(3), path(4), eps="log(2)/2")
    assert c.holds is True and c.kind == "all_eps" and "at eps = log(2)/2" in c.claim
    assert certify_all_eps(geometric(3), path(4)).holds is True  # the proof that settles it
    # failing for every alpha settles it too: the ratio 1/alpha exceeds e^(eps/2) = alpha^(-1/2) everywhere
    half = from_matrix(["0", "1"], [[0, "1/2"], ["1/2", 0]])
    c = certify_privacy(geo2(), half, eps="log(2)/2")
    assert c.holds is False and c.evidence.failure_set_text == "(0, 1)" and "at eps = log(2)/2" in c.claim
    # where the all-eps proof fails only for some alpha, alpha = 2^(-1/2) stays undecided (no guess)
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1/2+alpha/4", "1/2-alpha/4"], ["1/2-alpha/4", "1/2+alpha/4"]],
                            validate=False)
    quarter = from_matrix(["0", "1"], [[0, "1/4"], ["1/4", 0]])
    assert certify_privacy(K, quarter, eps="log(2)/2").holds is UNDECIDED


# -------------------------------------------------------------- mechanisms ----
def test_negative_entry_of_symbolic_mechanism_at_alpha():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["2*alpha", "1-2*alpha"], ["1/2", "1/2"]], validate=False)
    with pytest.raises(NotStochastic, match=r"entry \('0', '1'\) = -1/2 is negative"):
        certify_privacy(K, path(2), alpha="3/4")
    assert certify_privacy(K, path(2), alpha="1/4").holds is True  # rows 1/2, 1/2 and 1/2, 1/2


def test_huge_row_sum_abbreviated_in_message():
    with pytest.raises(NotStochastic, match=r"sums to 20035299304068464649\.\.\.9156737 \(19729 digits\), expected"):
        Mechanism.from_rows(["0"], ["0", "1"], [["2^65536", "1"]])


def test_exponential_on_2x2_euclidean_grid_exactly_beta():
    m = grid((2, 2), "euclidean")
    c = smallest_epsilon(exponential(m, beta="1/4"), m)
    # every row has the same normaliser, so the ratio is e^(beta (d(x',z) - d(x,z))) <= e^(beta d(x,x'))
    assert c.holds is True and c.evidence.epsilon == "1/4" and c.recheck().ok is True


def test_identity_mechanism_has_no_finite_epsilon():
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [["1", "0"], ["0", "1"]])
    c = smallest_epsilon(K, path(2))
    assert c.holds is False and c.evidence.epsilon == "inf" and c.recheck().ok is True
    assert "$" not in c.to_text() and "not eps d-private for any finite eps" in c.to_text()


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
    with pytest.raises(InvalidType, match="got the decimal number 3.0; write it without a decimal point"):
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
