"""Consistent forgeries of ``privacy`` certificates (issue 27, item 4): the definition changed (the metric, the
level) and the claim rebuilt from the edited fields with the producer's own rule; every one is refuted."""

from __future__ import annotations

import copy
import json

import networkx as nx

from exactdp import certify_privacy, geometric, path
from exactdp.metrics import from_graph
from exactdp.recheck import recheck
from exactdp.recheck.privacy import claim_text


def _json(cert) -> dict:
    return json.loads(json.dumps(cert.to_json()))


def _doubled_path():
    G = nx.Graph()
    G.add_edge("0", "1", weight=2)
    G.add_edge("1", "2", weight=2)
    return from_graph(G, weight="weight")


def test_a_holding_certificate_moved_to_a_metric_where_it_fails_is_refuted():
    """geometric with alpha = 1/4 needs e^eps >= 4 per unit of distance: at eps = log(2) it holds on the path with
    edges of length 2 and fails on the unit path.  The forger keeps the holding evidence and swaps in the unit
    path's metric record (and the claim it gives)."""
    K = geometric(2, "1/4")
    held = _json(certify_privacy(K, _doubled_path(), eps="log(2)", with_epsilon=False))
    fails = _json(certify_privacy(K, path(3), eps="log(2)", with_epsilon=False))
    assert (held["verdict"], fails["verdict"]) == ("holds", "fails")
    assert recheck(held).status == "confirmed" and recheck(fails).status == "confirmed"
    f = copy.deepcopy(held)
    f["evidence"]["metric"] = fails["evidence"]["metric"]
    f["claim"] = claim_text(f)
    assert recheck(f).status == "refuted"


def test_a_holding_certificate_moved_to_a_smaller_level_is_refuted():
    """The same holding certificate restated at eps = log(3/2) (level record and claim from the producer's own
    certificate at that level): at e^(2 eps) = 9/4 < 4 the mechanism fails."""
    K = geometric(2, "1/4")
    held = _json(certify_privacy(K, _doubled_path(), eps="log(2)", with_epsilon=False))
    lower = _json(certify_privacy(K, _doubled_path(), eps="log(3/2)", with_epsilon=False))
    assert lower["verdict"] == "fails"
    f = copy.deepcopy(held)
    f["evidence"]["level"] = lower["evidence"]["level"]
    f["claim"] = claim_text(f)
    assert recheck(f).status == "refuted"
