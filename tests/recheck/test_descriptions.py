"""Descriptions and names the re-check reads (trust24b): a metric's description, an optimality user's name, and the
fields a producer leaves null.

The contract (docs/recheck.md, "Metrics"): a description written in the form of a family the kernel knows (path,
cycle, discrete metric, grids, subsets, Hamming spaces, a graph, an explicit matrix, ``c * (...)``) -- read after
Unicode NFKC, look-alike dashes and white space normalised, case-folded -- is a claim about that family, of any
size, and must be the carried metric exactly, whatever its record (edges, a distance table, one distance for all
pairs); any other text is a name and every kind's detail says "is a name, not re-derived".  The forgeries are the
shapes of the audit of /tmp/attack (findings 2-5 and 9), rebuilt here from genuine certificates made here.
"""

from __future__ import annotations

import importlib
from fractions import Fraction

import pytest

from exactdp import Level, certify_privacy, geometric, path, smallest_epsilon
from exactdp.privacy.all_eps import certify_all_eps
from exactdp.privacy.approximate import certify_approx
from exactdp.metrics import discrete, from_graph
from exactdp.recheck import KINDS, recheck
from exactdp.recheck._metric import canonical, describe_table, normalise
from exactdp.interop.audit import certify_audit
from exactdp.divergences.fdp import certify_fdp
from exactdp.optimality.universal import certify_universal_optimality
from exactdp.composition.composition import certify_profile
from exactdp.priors.regular import tight_constraints
from exactdp.divergences.renyi import certify_renyi
from exactdp.priors.theorem4 import tight_remap
from exactdp.optimality.users import User

from .test_contract import genuine_json

PATH3 = "path on 3 points (d(i, j) = |i - j|)"
G13 = geometric(2, "1/3")

#: kind -> a genuine certificate about geometric(2, 1/3) on path(3) (the audit's finding 2), made here
ON_PATH3 = {
    "privacy": lambda: certify_privacy(G13, path(3), eps="log(3)"),
    "epsilon": lambda: smallest_epsilon(G13, path(3)),
    "all_eps": lambda: certify_all_eps(geometric(2), path(3)),
    "approx": lambda: certify_approx(G13, path(3), eps="log(3)", delta="0"),
    "profile": lambda: certify_profile(G13, path(3), eps="log(3)", delta="0"),
    "audit": lambda: certify_audit([(G13, 1)], path(3), eps="log(3)", delta="0"),
    "renyi": lambda: certify_renyi(G13, path(3), [2]),
    "fdp": lambda: certify_fdp(G13, path(3), mu="2"),
}


def _deep(node, old: str, new: str):
    """Every string of the certificate with ``old`` replaced by ``new`` (the forger's consistent rewrite)."""
    if isinstance(node, dict):
        return {k: _deep(v, old, new) for k, v in node.items()}
    if isinstance(node, list):
        return [_deep(v, old, new) for v in node]
    return node.replace(old, new) if isinstance(node, str) else node


def _relabelled(j: dict, old: str, new: str) -> dict:
    """The certificate with the description ``old`` written ``new`` everywhere, the claim rebuilt by the kernel's own
    ``claim_text`` (so that only the re-derivation of the description can refute it)."""
    m = _deep(j, old, new)
    m["claim"] = importlib.import_module(f"exactdp.recheck.{KINDS[m['kind']]}").claim_text(m)
    return m


def _json(cert) -> dict:
    return cert.to_json()


def _claimed(j: dict) -> dict:
    """``j`` with its claim rebuilt by the kernel's own ``claim_text``."""
    return _relabelled(j, "\0", "\0")


@pytest.fixture(scope="module")
def on_path3():
    return {k: _json(f()) for k, f in ON_PATH3.items()}


# -------------------------------------------------------------------------------------------- normalising ----
def test_normalise_folds_look_alikes():
    assert normalise("path\u00a0on\u2003 3 points (d(i, j) = |i \u2212 j|) ") == PATH3
    assert normalise("\uff50ath on 3 points") == "path on 3 points"                       # full-width p
    assert normalise("path on 3\u200b points") == "path on 3 points"                       # zero-width space


@pytest.mark.parametrize("text, canon", [
    (PATH3, PATH3), ("Path on 3 points", PATH3), ("the path on 3 point", PATH3),
    ("path on 3 points (d(i,j)=|i-j|)", PATH3), ("CYCLE ON 4 POINTS", "cycle on 4 points"),
    ("2 * (discrete metric on 3 points)", "2 * (discrete metric on 3 points)"),
    ("3 x 2 grid, Euclidean distance, step 1/2", "3 x 2 grid, euclidean distance, step 1/2"),
    ("hamming distance on V^u with |V| = 2, u = 3", "Hamming distance on V^u with |V| = 2, u = 3"),
    ("three friends", None), ("2 * (three friends)", None), ("pathways on 3 points", None)])
def test_canonical_reads_the_family_forms(text, canon):
    assert canonical(text) == canon


@pytest.mark.parametrize("text", ["path on four points", "path on \u09e9 points", "path on 3 points (weighted)",
                                  "discrete metric with 3 points", "cycle of 3 friends", "4 x 4 grid, taxicab",
                                  "graph with 3 nodes", "subsets of something"])
def test_a_family_form_that_does_not_parse_is_refused(text):
    with pytest.raises(ValueError, match="written as a known family's"):
        canonical(text)


# ----------------------------------------------------------------------- finding 2: every kind on path(3) ----
@pytest.mark.parametrize("kind", sorted(ON_PATH3))
@pytest.mark.parametrize("forged", ["discrete metric on 3 points", "path on 4 points (d(i, j) = |i - j|)",
                                    "cycle on 3 points", "cycle on 5 points", "discrete metric on 4 points",
                                    "Discrete\u00a0metric on 3 points", "2 * (path on 3 points (d(i, j) = |i - j|))",
                                    "explicit distance matrix on 3 points", "path on three points"])
def test_a_family_the_metric_is_not_is_refuted(on_path3, kind, forged):
    j = on_path3[kind]
    assert recheck(j).status == "confirmed"
    r = recheck(_relabelled(j, PATH3, forged))
    assert r.status == "refuted", (kind, forged, r.detail)


@pytest.mark.parametrize("kind", sorted(ON_PATH3))
@pytest.mark.parametrize("spelled", ["path on 3 points (d(i, j) = |i \u2212 j|)", "path\u00a0on 3 points",
                                     "Path on 3 points"])
def test_the_same_family_spelled_otherwise_is_rebuilt(on_path3, kind, spelled):
    """A look-alike minus, a non-breaking space or a capital is the same path: rebuilt, no "name" note."""
    r = recheck(_relabelled(on_path3[kind], PATH3, spelled))
    assert r.status == "confirmed" and "is a name" not in r.detail, (kind, r.detail)


#: the genuine certificates that carry a metric description, and that description
DESCRIBED = {"all_eps at one level": PATH3, "all_eps fails": "discrete metric on 3 points", "all_eps holds": PATH3,
             "approx fails": "discrete metric on 3 points", "approx holds": "discrete metric on 3 points",
             "audit fails": PATH3, "best_extension": PATH3, "certify fails": "path on 4 points (d(i, j) = |i - j|)",
             "composition two": PATH3, "epsilon inf": "discrete metric on 3 points",
             "exponential_bound": "discrete metric on 2 points", "extension fails (a)": PATH3,
             "extension holds": PATH3, "extension transcendental": PATH3, "extension undefined": PATH3, "fdp": PATH3,
             "profile fails": PATH3, "profile holds": "discrete metric on 3 points", "regular": PATH3,
             "regular transcendental": PATH3, "renyi": PATH3, "renyi transcendental": PATH3,
             "threshold bracket": "graph with 4 nodes and 3 edges", "threshold symmetric": "cycle on 4 points",
             "tight fails": "graph with 4 nodes and 3 edges", "tight holds": PATH3, "tradeoff bracket": PATH3,
             "tradeoff zero": PATH3, "transcendental level": PATH3, "weighted graph": "graph with 3 nodes and 3 edges"}


@pytest.mark.parametrize("name", sorted(DESCRIBED))
def test_every_kind_says_a_name_is_a_name(name):
    """A description not in a family's form is a name: confirmed, and the detail of every kind says so (the audit
    found approx, profile, audit, renyi and fdp silent)."""
    j = genuine_json(name)
    assert DESCRIBED[name] in str(j) and "is a name" not in recheck(j).detail
    r = recheck(_relabelled(j, DESCRIBED[name], "three friends"))
    assert r.status == "confirmed", (name, r.detail)
    assert "description 'three friends' is a name, not re-derived" in r.detail, (name, r.detail)


def test_a_weighted_path_labelled_a_path_is_refuted():
    """The audit's F3: a path whose edges weigh 2 described as the unit path, with a look-alike minus, a
    non-breaking space, or without the formula."""
    import networkx as nx
    G = nx.path_graph(4)
    nx.set_edge_attributes(G, 2, "weight")
    m = from_graph(nx.relabel_nodes(G, str), weight="weight")
    j = _json(certify_privacy(geometric(3, "1/4"), m, eps="log(4)/2"))
    assert recheck(j).status == "confirmed"
    for forged in ("path on 4 points (d(i, j) = |i \u2212 j|)", "path on 4 points", "path\u00a0on 4 points"):
        r = recheck(_relabelled(j, j["evidence"]["metric"]["description"], forged))
        assert r.status == "refuted" and "not those of the path" in r.detail, (forged, r.detail)


def test_all_pairs_at_described_as_another_family_is_refuted():
    j = _json(certify_privacy(G13, discrete(3), eps="log(3)"))
    assert j["evidence"]["metric"]["all_pairs_at"] == "1"
    for forged in (PATH3, "cycle on 4 points", "discrete metric on 4 points", "2 * (discrete metric on 3 points)"):
        assert recheck(_relabelled(j, "discrete metric on 3 points", forged)).status == "refuted", forged
    # a cycle on 3 points is the discrete metric on 3 points, but its reduction is not the complete graph's
    r = recheck(_relabelled(j, "discrete metric on 3 points", "cycle on 3 points"))
    assert r.status == "refuted" and "reduction" in r.detail, r.detail


# ------------------------------------------------------------------ finding 3: the ECP14 distance tables ----
@pytest.mark.parametrize("name, forged", [("tight fails", "path on 3 points (d(i, j) = |i - j|)"),
                                          ("tight fails", "path on 4 points (d(i, j) = |i - j|)"),
                                          ("threshold bracket", "cycle on 4 points"),
                                          ("threshold path", "cycle on 4 points"),
                                          ("threshold path", "discrete metric on 3 points"),
                                          ("regular", "cycle on 5 points"), ("tight holds", "path on 2 points")])
def test_an_ecp14_table_labelled_another_family_is_refuted(name, forged):
    j = genuine_json(name)
    r = recheck(_relabelled(j, j["evidence"]["description"], forged))
    assert r.status == "refuted" and "is not the carried table's" in r.detail, (name, forged, r.detail)


def _table(n: int, dist) -> tuple:
    """``(labels, values, codes)`` of the table ``dist(i, j)`` on ``n`` points (the values as exact text)."""
    vals: dict = {}
    codes = [[vals.setdefault(str(dist(i, j)), len(vals)) for j in range(n)] for i in range(n)]
    return [str(i) for i in range(n)], list(vals), codes


def test_a_large_table_is_compared_entry_by_entry():
    """Above 150 points (no O(n^3) generating pairs) a path, cycle or discrete metric is compared with every entry
    (the table built here from |i - j|, independently of the kernel)."""
    n = 160
    labels, vals, codes = _table(n, lambda i, j: abs(i - j))
    assert describe_table(f"path on {n} points (d(i, j) = |i - j|)", labels, vals, codes) is True
    assert describe_table("2 * (path on 160 points)", labels, [str(2 * Fraction(v)) for v in vals], codes) is True
    for forged in (f"cycle on {n} points", f"path on {n + 1} points", f"discrete metric on {n} points"):
        with pytest.raises(ValueError):
            describe_table(forged, labels, vals, codes)
    codes[3][100] = codes[100][3] = vals.index("1")           # one entry changed
    with pytest.raises(ValueError, match="points 3 and 100"):
        describe_table(f"path on {n} points", labels, vals, codes)
    labels, vals, codes = _table(n, lambda i, j: min(abs(i - j), n - abs(i - j)))
    assert describe_table(f"cycle on {n} points", labels, vals, codes) is True


def test_a_large_hamming_table_and_graph():
    """A Hamming space of 256 words compared entry by entry; a graph's node count, components and edge range checked
    (the edge count itself is then a name)."""
    import itertools
    words = [",".join(w) for w in itertools.product("ab", repeat=8)]
    dist = [[sum(a != b for a, b in zip(x, y, strict=True)) for y in words] for x in words]
    vals = [str(k) for k in range(9)]
    codes = [[d for d in row] for row in dist]
    assert describe_table("Hamming distance on V^u with |V| = 2, u = 8", words, vals, codes) is True
    with pytest.raises(ValueError):
        describe_table("Hamming distance on V^u with |V| = 2, u = 7", words, vals, codes)
    n = len(words)
    assert describe_table(f"graph with {n} nodes and 1024 edges", words, vals, codes) is False
    for bad in (f"graph with {n} nodes and {n - 2} edges", f"graph with {n + 1} nodes and 1024 edges",
                f"graph with {n} nodes and {n * n} edges"):
        with pytest.raises(ValueError, match="is not a graph the table can come from"):
            describe_table(bad, words, vals, codes)
    with pytest.raises(ValueError):
        describe_table("path on 256 points", words, vals, codes)


# ------------------------------------------------------------------------ finding 4: tight's mechanism ----
def test_a_mechanism_where_the_producer_writes_none_is_refuted():
    """The producer (theory/regular.py) writes the tight-constraints mechanism only for an exact solve that holds;
    at a transcendental level the field is null, and anything there is refuted (the audit's F6, F6b)."""
    j = genuine_json("tight transcendental")
    assert j["evidence"]["mechanism"] is None and recheck(j).status == "confirmed"
    pts = j["evidence"]["distances"]["points"]
    n = len(pts)
    for values, codes in ((["1", "0"], [[0 if a == b else 1 for b in range(n)] for a in range(n)]),
                          (["7", "-6"], [[0, 1] + [1] * (n - 2) for _ in range(n)])):
        j["evidence"]["mechanism"] = {"name": "tight-constraints mechanism", "inputs": pts, "outputs": pts,
                                      "values": values, "codes": codes}
        r = recheck(j)
        assert r.status == "refuted" and "producer writes none" in r.detail, r.detail
    j = genuine_json("tight fails")                          # an exact solve that fails: no mechanism either
    j["evidence"]["mechanism"] = genuine_json("tight holds")["evidence"]["mechanism"]
    assert recheck(j).status == "refuted"


def test_the_regular_solve_states_no_lp():
    j = genuine_json("regular")
    assert j["evidence"]["route"] == "solve" and j["evidence"]["lp"] is None
    j["evidence"]["lp"] = {"value": "0", "x": ["1", "0"], "y": ["0"], "lam": []}
    r = recheck(j)
    assert r.status == "refuted" and "states no LP" in r.detail, r.detail


# ----------------------------------------------------------------------------- finding 5: user names ----
def _absolute_uniform() -> dict:
    return genuine_json("optimality")


@pytest.mark.parametrize("user, why", [
    ("Uniform prior, squared loss", "not that table"), ("uniform prior,\u00a0squared loss", "not that table"),
    ("UNIFORM PRIOR, BINARY LOSS", "not that table"), ("every prior, every loss", "not a prior the kernel"),
    ("uniform prior, absolute loss (all monotone losses)", "not a loss the kernel"),
    ("uniform prior, quadratic cost", "worded like a prior or loss"), ("prior (1/2, 1/4, 1/4), absolute loss",
                                                                      "prior is not 1/2, 1/4, 1/4"),
    ("uniform prior, loss |i - j|^(3/2)", "not that table"), ("uniform prior, loss 1 + 1/10|j - i|", "not that table")])
def test_a_user_name_that_names_another_user_is_refuted(user, why):
    j = _absolute_uniform()
    j["evidence"]["user"] = user
    r = recheck(_claimed(j))
    assert r.status == "refuted" and why in r.detail, (user, r.detail)


@pytest.mark.parametrize("user, note", [("uniform prior, absolute loss", False),
                                        ("Uniform  prior, ABSOLUTE loss", False),
                                        ("prior (1/3, 1/3, 1/3), loss |i - j|^(1)", False),
                                        ("uniform prior, table loss", False), ("a radar operator", True),
                                        ("uniform prior, a radar operator", True)])
def test_a_user_name_that_is_the_users_is_confirmed(user, note):
    j = _absolute_uniform()
    j["evidence"]["user"] = user
    r = recheck(_claimed(j))
    assert r.status == "confirmed", (user, r.detail)
    assert ("is a name, not re-derived" in r.detail) == note, (user, r.detail)


def test_the_producers_formula_losses_are_rebuilt():
    """GRS12 Fig. 2's user ("prior (...), loss |i - j|^(3/2)") and Thm 6.1's ("uniform prior, loss 1 + g|j - i|"),
    each with its table computed here; another exponent or slope is refuted."""
    from exactdp.optimality.users import power_loss
    j = _json(certify_universal_optimality(2, User(["1/2", "0", "1/2"], power_loss(2, "3/2"),
                                                   name="prior (1/2, 0, 1/2), loss |i - j|^(3/2)"), alpha="1/2"))
    assert recheck(j).status == "confirmed"
    assert recheck(_relabelled(j, "^(3/2)", "^(5/2)")).status == "refuted"
    g = Fraction(1, 10)
    loss = [[0 if i == r else 1 + g * abs(i - r) for r in range(3)] for i in range(3)]
    j = _json(certify_universal_optimality(2, User(["1/3"] * 3, [[str(v) for v in row] for row in loss],
                                                   name="uniform prior, loss 1 + 1/10|j - i|"), alpha="1/2"))
    assert recheck(j).status == "confirmed" and "is a name" not in recheck(j).detail
    assert recheck(_relabelled(j, "1/10|", "1/20|")).status == "refuted"


# ---------------------------------------------------------------------------- finding 9: theorem4 fails ----
def test_theorem4_fails_with_optimum_zero_is_refuted():
    j = _json(tight_remap(geometric(2, "1/2"), path(3), Level.from_alpha("1/2")))
    assert j["verdict"] == "holds" and j["evidence"]["lp_value"] == "0"
    j["verdict"] = "fails"
    r = recheck(j)
    assert r.status == "refuted" and "LP optimum 0" in r.detail, r.detail
    j["evidence"]["remap"], j["evidence"]["lp_value"] = None, "1/7"        # a positive optimum, no remap: the
    assert recheck(j).status == "not checkable"                             # dual is not carried
    j["evidence"]["variables"] += 1
    assert recheck(j).status == "refuted"


def test_the_fixtures_are_genuine(on_path3):
    for kind, j in on_path3.items():
        assert recheck(j).status == "confirmed", kind
    assert tight_constraints(path(3), Level.from_alpha("1/2")).holds
