"""One certify call validates the mechanism once and builds its constraints once (issue 21, "data going back and
forth"): the public functions are thin, the private engines take the validated objects."""

from __future__ import annotations

import collections

import pytest

import exactdp.privacy.constraints as C
from exactdp import Mechanism
from exactdp.certify import certify_all_eps, certify_privacy, smallest_epsilon
from exactdp.mechanisms import geometric
from exactdp.metrics import path


@pytest.fixture
def calls(monkeypatch):
    """Counts of ``Mechanism.validate`` calls, validations actually run, and ``Constraints`` built."""
    n: collections.Counter = collections.Counter()
    validate, run, init = Mechanism.validate, Mechanism._validate, C.Constraints.__init__

    def counted_validate(self):
        n["validate"] += 1
        return validate(self)

    def counted_run(self):
        n["validations"] += 1
        return run(self)

    def counted_init(self, *a, **k):
        n["constraints"] += 1
        return init(self, *a, **k)

    monkeypatch.setattr(Mechanism, "validate", counted_validate)
    monkeypatch.setattr(Mechanism, "_validate", counted_run)
    monkeypatch.setattr(C.Constraints, "__init__", counted_init)
    return n


def _once(calls):
    """One validation run, one constraint set, and no second trip through ``Mechanism.validate``."""
    assert calls["validations"] == 1 and calls["constraints"] == 1 and calls["validate"] <= 1, dict(calls)


def _unvalidated():
    return Mechanism.from_rows(["0", "1", "2"], ["a", "b"], [["2/3", "1/3"], ["1/2", "1/2"], ["1/3", "2/3"]],
                               validate=False)


def test_certify_privacy_with_smallest_eps_validates_and_builds_once(calls):
    c = certify_privacy(_unvalidated(), path(3), eps="log(2)")
    assert c.holds is True and c.evidence.smallest is not None
    _once(calls)


@pytest.mark.parametrize("with_epsilon", [True, False])
def test_a_failing_level_too(calls, with_epsilon):
    c = certify_privacy(_unvalidated(), path(3), eps="1/10", with_epsilon=with_epsilon)
    assert c.holds is False
    _once(calls)


def test_smallest_epsilon_alone(calls):
    # the largest neighbouring ratio: max(2/3 : 1/2, 1/2 : 1/3) = max(4/3, 3/2)
    assert smallest_epsilon(_unvalidated(), path(3)).evidence.epsilon == "log(3/2)"
    assert dict(calls) == {"validate": 1, "validations": 1, "constraints": 1}


def _in_alpha():
    return Mechanism.from_rows(["0", "1"], ["a", "b"], [["1/(1+alpha)", "alpha/(1+alpha)"],
                                                        ["alpha/(1+alpha)", "1/(1+alpha)"]], validate=False)


@pytest.mark.parametrize("level", [{"alpha": "1/2"}, {"eps": "1"}])
def test_a_mechanism_in_alpha_is_validated_once_at_the_level(calls, level):
    c = certify_privacy(_in_alpha(), path(2), **level)
    assert c.kind == "privacy" and c.holds is True
    assert calls["validations"] == 1 and calls["constraints"] == 1


def test_the_every_eps_fallback_validates_and_builds_once(calls):
    c = certify_privacy(_in_alpha(), path(2), eps="log(2)/2")   # alpha = 2^(-1/2): settled for every eps
    assert c.kind == "all_eps" and c.holds is True
    assert dict(calls) == {"validate": 1, "validations": 1, "constraints": 1}
    calls.clear()
    assert certify_all_eps(_in_alpha(), path(2)).holds is True
    assert dict(calls) == {"validate": 1, "validations": 1, "constraints": 1}


def test_geometric_is_valid_by_construction(calls):
    assert certify_privacy(geometric(4), path(5), alpha="1/2").holds is True
    assert calls["validations"] == 0 and calls["constraints"] == 1
