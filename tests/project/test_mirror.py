"""The test folders mirror the package (issue 21): every module of ``exactdp`` has its tests where a newcomer looks.

A module ``exactdp/a/b.py`` is *mirrored* when ``tests/a/test_b.py`` or ``tests/a/test_b_*.py`` exists (a file
``test_b_c.py`` belongs to the module ``b_c`` if there is one: the longest module name wins), or a folder
``tests/a/b/`` for a module with that many tests; a package ``exactdp/a/`` is mirrored by the folder
``tests/a/``.  A module tested elsewhere (through the public function that calls it, or by the one harness that
covers every certificate kind) is listed in ``ELSEWHERE`` with the test files that exercise it.  The table may not
go stale: a listed module that becomes mirrored, or that no longer exists, fails, and so does a listed test file
that does not exist.  See tests/README.md.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "exactdp"
TESTS = ROOT / "tests"

_KINDS = "tests/certificate/test_certificates.py"  # every certificate kind: decide, JSON round trip, re-check
_RECHECK = "tests/recheck/test_contract.py"  # the mutation harness over every kind the kernel re-checks
_CLAIMS = "tests/papers/test_claims.py"  # every paper claim is run and its proof compared with proofs/

#: module -> the test files that exercise it (relative to the repository root)
ELSEWHERE = {
    "exactdp/__main__.py": ["tests/cli/test_exit_codes.py"],  # `python -m exactdp` in a subprocess
    "exactdp/_startup.py": ["tests/cli/test_exit_codes.py"],  # Ctrl-C during the command line's imports
    # cli/: the commands are exercised through `main` (tests/cli/test_<topic>.py name topics, not modules)
    "exactdp/cli/__main__.py": ["tests/cli/test_cli.py"],  # `python -m exactdp.cli` in a subprocess
    "exactdp/cli/_app.py": ["tests/cli/test_exit_codes.py"],
    "exactdp/cli/_common.py": ["tests/cli/test_quiet_stdout.py", "tests/cli/test_approx.py"],
    "exactdp/cli/checks.py": ["tests/cli/test_exit_codes.py", "tests/cli/test_fresh_install.py",
                              "tests/theory/test_phi_routes.py"],
    "exactdp/cli/mechanisms.py": ["tests/cli/test_mechanism.py", "tests/cli/test_fdp.py", "tests/theory/test_audit.py"],
    "exactdp/cli/privacy.py": ["tests/cli/test_cli.py", "tests/cli/test_approx.py"],
    "exactdp/cli/tools.py": ["tests/cli/test_cli.py", "tests/cli/test_explain.py", "tests/papers/test_statuses.py"],
    "exactdp/cli/users.py": ["tests/cli/test_exit_codes.py", "tests/theory/test_ecp14.py",
                             "tests/theory/test_optimality.py"],
    "exactdp/errors.py": ["tests/exact/test_precision_exhaustion.py", "tests/cli/test_exit_codes.py"],
    "exactdp/verdict.py": [_KINDS, "tests/theory/test_composition_transcendental.py"],
    # certificate/: the evidence records, one module per kind, and their renderers
    **{f"exactdp/certificate/{m}.py": [_KINDS, _RECHECK] for m in (
        "approximate", "common", "core", "decomposition", "lp", "optimality", "priors", "privacy", "records",
        "relation", "schema", "utility", "utility_comparison")},
    **{f"exactdp/certificate/{m}.py": ["tests/recheck/test_renyi_fdp_audit.py", _RECHECK] for m in (
        "audit", "fdp", "renyi")},
    **{f"exactdp/recheck/{m}.py": ["tests/recheck/test_renyi_fdp_audit.py", _RECHECK] for m in ("audit", "fdp")},
    "exactdp/certificate/render.py": ["tests/certificate/test_repr.py", "tests/papers/test_proof_text.py"],
    "exactdp/lp/optimum.py": [_RECHECK, "tests/papers/test_certified_claims.py"],
    "exactdp/privacy/relation.py": [_KINDS, _RECHECK],
    "exactdp/exact/expo.py": ["tests/exact/test_kernel.py", "tests/exact/test_precision_exhaustion.py"],
    "exactdp/exact/lin.py": ["tests/exact/test_kernel.py", "tests/exact/test_precision_exhaustion.py"],
    "exactdp/exact/lp_float.py": ["tests/exact/test_lp.py"],
    "exactdp/exact/lp_simplex.py": ["tests/exact/test_lp.py"],
    "exactdp/exact/lp_sparse.py": ["tests/exact/test_lp.py"],
    "exactdp/exact/radical.py": ["tests/exact/test_lp_irrational.py", "tests/exact/test_precision_exhaustion.py"],
    # typed proof blocks
    "exactdp/exact/qspan.py": ["tests/exact/test_kernel.py", "tests/exact/test_lp_irrational.py",
                               "tests/exact/test_precision_exhaustion.py"],  # the shared base of Lin and Rad
    "exactdp/exact/symbolic.py": ["tests/engine/test_all_eps.py"],
    # mechanisms/: each builder against an independent brute force
    "exactdp/mechanisms/_levels.py": ["tests/mechanisms/test_central.py", "tests/mechanisms/test_ldp.py"],
    "exactdp/mechanisms/catalog.py": ["tests/cli/test_mechanism.py"],
    "exactdp/mechanisms/discrete_gaussian.py": ["tests/mechanisms/test_central.py"],
    "exactdp/mechanisms/exponential.py": ["tests/theory/test_kl10.py", "tests/test_mechanism_limits.py"],
    "exactdp/mechanisms/geometric.py": ["tests/mechanisms/test_build_fast.py", "tests/test_mechanism.py"],
    "exactdp/mechanisms/ldp_hash.py": ["tests/mechanisms/test_ldp.py"],
    "exactdp/mechanisms/product.py": ["tests/theory/test_composition.py"],
    "exactdp/mechanisms/randomized_response.py": ["tests/engine/test_approximate.py", "tests/test_mechanism.py"],
    "exactdp/mechanisms/selection.py": ["tests/mechanisms/test_central.py"],
    "exactdp/mechanisms/staircase.py": ["tests/mechanisms/test_central.py"],
    # metrics/: one test file for the spaces, one for the inputs at the limits
    **{f"exactdp/metrics/{m}.py": ["tests/metrics/test_metrics.py", "tests/metrics/test_limits.py"] for m in (
        "databases", "graphs", "space", "spec")},
    "exactdp/metrics/graph_space.py": ["tests/theory/test_extension.py"],
    "exactdp/metrics/symmetry.py": ["tests/exact/test_verified_solve.py"],
    # papers/: every claim is run (tests/papers/test_claims.py) and certified (test_certified_claims.py)
    **{f"exactdp/papers/{m}.py": [_CLAIMS, "tests/papers/test_certified_claims.py"] for m in (
        "bcsz18", "ecp14", "grs12_databases", "grs12_discussion", "grs12_optimality", "hlm15_accuracy",
        "hlm15_approx", "kl10", "proofs")},
    "exactdp/papers/registry.py": ["tests/papers/test_statuses.py"],
    # plot/: the figures' exact data
    **{f"exactdp/plot/{m}.py": ["tests/plot/test_plot.py"] for m in ("_base", "losses", "mechanism", "priors")},
    **{f"exactdp/plot/{m}.py": ["tests/plot/test_plot_approx.py"] for m in ("extension", "profile")},
    "exactdp/plot/fdp.py": ["tests/cli/test_fdp.py"],
    # recheck/: the kernel, attacked kind by kind through one harness
    **{f"exactdp/recheck/{m}.py": [_RECHECK] for m in (
        "_dprivacy", "_kernel", "_levels", "_lp", "_metric", "_pld", "_schema", "approximate", "decomposition",
        "extension", "infeasible", "lp", "optimality", "priors", "privacy", "profile", "relation",
        "utility_comparison")},
    "exactdp/recheck/_grid.py": ["tests/recheck/test_scale.py"],
    "exactdp/recheck/_failure_set.py": ["tests/recheck/test_forgeries_all_eps.py",
                                        "tests/recheck/test_forgeries_program.py"],
    "exactdp/recheck/_labels.py": ["tests/recheck/test_forgeries_labels.py"],
    # kind program (issue 28 item 5): forgeries, genuine certificates and the kernel's evaluator in one file
    **{f"exactdp/{m}/program.py": ["tests/recheck/test_forgeries_program.py", _RECHECK]
       for m in ("certificate", "recheck")},
    "exactdp/recheck/_sturm.py": ["tests/theory/test_tradeoff_exact.py"],
    "exactdp/recheck/_verified.py": ["tests/recheck/test_quotient.py", "tests/recheck/test_scale.py"],
    "exactdp/recheck/utility.py": ["tests/theory/test_tradeoff_exact.py", _RECHECK],
    # theory/
    "exactdp/composition/_expfield.py": ["tests/theory/test_extension.py"],
    "exactdp/utility/accuracy.py": ["tests/papers/test_hlm15.py"],
    **{f"exactdp/theory/{m}.py": ["tests/theory/test_extension.py", "tests/certificate/test_extension_certificates.py"]
       for m in ("extension_cert", "extension_lp")},
    "exactdp/priors/leakage.py": ["tests/theory/test_ecp14.py"],
    "exactdp/composition/composition.py": ["tests/certificate/test_profile_certificates.py"],
    "exactdp/priors/regular.py": ["tests/theory/test_ecp14.py", "tests/recheck/test_quotient.py"],
    "exactdp/optimality/remaps.py": ["tests/theory/test_optimality.py"],
    "exactdp/priors/sensitivity.py": ["tests/theory/test_ecp14.py"],
    "exactdp/priors/theorem4.py": ["tests/theory/test_ecp14.py", _KINDS],
    "exactdp/priors/parametric.py": ["tests/theory/test_tradeoff_exact.py"],
    "exactdp/optimality/users.py": ["tests/theory/test_optimality.py"],
    "exactdp/utility/utility.py": ["tests/theory/test_kl10.py"],  # tests/theory/test_utility_grid.py is utility_grid's
    "exactdp/composition/evidence.py": ["tests/recheck/test_forgeries_lattice.py"],  # kind lattice_composition
    "exactdp/recheck/lattice.py": ["tests/recheck/test_forgeries_lattice.py"],
    "exactdp/samplers/evidence.py": ["tests/recheck/test_forgeries_sampler.py"],  # kind sampler_privacy
    "exactdp/recheck/sampler.py": ["tests/recheck/test_forgeries_sampler.py"],
    "exactdp/composition/lattice.py": ["tests/recheck/test_forgeries_lattice.py", "tests/cli/test_compose_lattice.py"],
}


def _modules():
    return sorted(p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*.py"))


def _mirrored(module):
    """True if ``tests/`` holds the folder or file that mirrors ``module`` (a path such as exactdp/a/b.py)."""
    parts = Path(module).parts[1:]  # drop "exactdp"
    folder = TESTS.joinpath(*parts[:-1])
    stem = Path(parts[-1]).stem
    if stem == "__init__":
        return (folder / "__init__.py").is_file()
    siblings = [p.stem for p in (PACKAGE / Path(*parts[:-1])).glob("*.py")]

    def owner(test):  # the module a test file belongs to: the longest module name its name starts with
        name = test.stem[len("test_"):]
        return max((m for m in siblings if name == m or name.startswith(m + "_")), key=len, default=None)

    return any(owner(t) == stem for t in folder.glob(f"test_{stem}*.py")) or (folder / stem / "__init__.py").is_file()


@pytest.mark.parametrize("module", _modules())
def test_every_module_has_its_tests(module):
    if module in ELSEWHERE:
        assert not _mirrored(module), f"{module} is mirrored now: drop it from ELSEWHERE"
        for test in ELSEWHERE[module]:
            assert (ROOT / test).is_file(), f"{module}: {test} does not exist"
    else:
        assert _mirrored(module), (
            f"{module} has no tests/.../test_<module>.py: add one, move its tests there, or list it in ELSEWHERE")


def test_the_table_names_only_modules_that_exist():
    assert sorted(set(ELSEWHERE) - set(_modules())) == []


def test_no_test_file_is_left_in_a_folder_without_a_package():
    # every folder of tests/ is a package (equal basenames in two folders would collide otherwise), except the
    # support folder that conftest.py puts on sys.path
    folders = {p.parent for p in TESTS.rglob("*.py")} - {TESTS / "_support"}
    assert sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file()) == []


def test_the_mirror_rule_on_known_cases():
    # the rule itself, on cases decided by hand: a mirrored module, an unmirrored one, a package, a prefix match
    assert _mirrored("exactdp/exact/level.py")  # tests/exact/test_level.py
    assert _mirrored("exactdp/privacy/constraints.py")  # tests/engine/test_constraints_fast.py
    assert _mirrored("exactdp/exact/__init__.py")
    assert not _mirrored("exactdp/recheck/_kernel.py")
    assert not _mirrored("exactdp/exact/l.py")  # test_level.py is not test_l_*.py
    assert _mirrored("exactdp/utility/tradeoff.py")  # test_tradeoff_exact.py: there is no module tradeoff_exact
    assert not _mirrored("exactdp/utility/utility.py")  # test_utility_grid.py belongs to theory/utility_grid.py
    assert _mirrored("exactdp/utility/grid.py")
    assert not _mirrored("exactdp/nowhere/__init__.py")
