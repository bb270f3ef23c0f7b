"""The checkers' front door (issue 21): every public checker is importable from ``exactdp.certify``.

The checkers live where their mathematics lives (``exactdp.privacy``, ``exactdp.theory``); ``exactdp.certify``
sits one layer above both and names them all.  Each kind of the table of kinds is written by the checker
``CHECKERS`` names for it: shown by the checker's return annotation (``Certificate[XEvidence]``) where it is
specific, and otherwise by calling the checker on a small input and reading the certificate's kind.
"""

import importlib
import inspect
import subprocess
import sys

import pytest

import exactdp.certify as front
from exactdp.certificate.kinds import KINDS

#: the checkers issue 21 found outside exactdp.certify (theory), and the ones that were in it (engine)
THEORY = ["certify_extension", "certify_tradeoff", "threshold", "regular_prior", "tight_constraints", "leakage",
          "tight_remap", "certify_utility", "certify_exponential_bound", "compare_utilities",
          "certify_universal_optimality", "certify_profile", "certify_composition", "certify_renyi", "certify_fdp",
          "certify_audit", "best_extension_bracket", "certify_decomposition", "certify_lattice_composition"]
ENGINE = ["certify_privacy", "smallest_epsilon", "certify_all_eps", "certify_approx", "certify_relation",
          "certify_lp_optimum", "certify_lp_infeasible", "resolve_level"]

#: kinds no checker of the front door writes: ``program`` is written by exactdp.programs.check.program_certificate
#: (exactdp.programs sits above exactdp.certify in the layers of docs/architecture.md, so certify cannot name it)
#: and ``sampler_privacy`` by exactdp.samplers.privacy.certify_sampler_privacy (exactdp.samplers: the same layer story)
NO_CHECKER: set = {"program", "sampler_privacy"}


def test_every_checker_is_importable_from_the_front_door():
    assert sorted(front.__all__) == sorted(["CHECKERS", *THEORY, *ENGINE])
    for name in THEORY:
        fn = getattr(front, name)
        assert fn.__module__.startswith("exactdp.theory.")
        assert fn is getattr(importlib.import_module(fn.__module__), name)  # the function itself, not a wrapper
    for name in ENGINE:
        fn = getattr(front, name)
        assert fn is getattr(importlib.import_module("exactdp.privacy"), name)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'certify_nothing'"):
        front.certify_nothing  # noqa: B018
    with pytest.raises(ImportError):
        from exactdp.certify import certify_nothing  # noqa: F401
    assert set(THEORY) <= set(dir(front))


def test_every_kind_has_its_checker_in_the_front_door():
    assert set(front.CHECKERS) == set(KINDS) - NO_CHECKER
    assert set(front.CHECKERS.values()) <= set(front.__all__)


def _call(kind):
    from exactdp.exact import LinearProgram, solve_lp
    from exactdp.exact.level import Level
    from exactdp.mechanisms import generalized_rr, randomized_response
    from exactdp.metrics import discrete, grid

    rr = randomized_response(2, p="1/4")
    if kind == "lp":
        return front.certify_lp_optimum(solve_lp(LinearProgram(c=[1, 2], A_eq=[{0: 1, 1: 1}], b_eq=[1])), "min")
    if kind == "infeasible":
        lp = LinearProgram(c=[0, 0], A_eq=[{0: 1, 1: 1}], b_eq=[1], A_ub=[{0: 1, 1: 1}], b_ub=["1/2"])
        return front.certify_lp_infeasible(lp, "x0 + x1 cannot be 1 and at most 1/2")
    if kind == "utility_comparison":
        tc = front.tight_constraints(grid((3, 3), "euclidean"), Level.from_eps("2"))
        return front.compare_utilities("2", tc, "planar-laplace", {"side": 3})
    if kind == "profile":
        return front.certify_profile(rr, discrete(2), eps="log(2)", delta="1/10")
    if kind == "composition":
        return front.certify_composition([(rr, 1), (rr, 1)], [("0", "1")], eps="0")
    if kind == "renyi":
        return front.certify_renyi(generalized_rr(3, eps="log(2)"), discrete(3), [2])
    if kind == "fdp":
        return front.certify_fdp(rr, [("0", "1")], mu="27/20")
    if kind == "audit":
        return front.certify_audit([(rr, 2)], [("0", "1")], eps="log(3)", delta="1/3")
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", sorted(set(KINDS) - NO_CHECKER))
def test_each_checker_writes_its_kind(kind):
    fn = getattr(front, front.CHECKERS[kind])
    ann = str(inspect.signature(fn).return_annotation)
    if "[" in ann:  # Certificate[XEvidence] (certify_privacy: PrivacyEvidence | AllEpsEvidence, first is its own)
        assert ann.startswith("Certificate[")
        assert ann[len("Certificate["):-1].split(" | ")[0] == KINDS[kind].evidence.__name__
    else:
        assert _call(kind).kind == kind


def test_import_exactdp_loads_no_theory_module_through_the_front_door():
    # the theory checkers are loaded on first use: tradeoff (sympy) stays unloaded by ``import exactdp``
    code = ("import sys, exactdp.certify; print('exactdp.utility.tradeoff' in sys.modules); "
            "from exactdp.certify import certify_tradeoff; print('exactdp.utility.tradeoff' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120).stdout
    assert out.split() == ["False", "True"]
