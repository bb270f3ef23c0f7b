"""The test folders mirror the package (issues 21, 31): every module of ``exactdp`` has its tests where a newcomer
looks.

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

#: module -> the test files that exercise it (relative to the repository root); each group says why it is not
#: mirrored.  Keep it short: a module with tests of its own gets tests/<package>/test_<module>.py instead.
ELSEWHERE = {
    # entry points: only a subprocess or an interrupted import reaches them
    "exactdp/__main__.py": ["tests/cli/test_exit_codes.py"],  # `python -m exactdp` in a subprocess
    "exactdp/_startup.py": ["tests/cli/test_exit_codes.py"],  # Ctrl-C during the command line's imports
    "exactdp/cli/__main__.py": ["tests/cli/test_cli.py"],  # `python -m exactdp.cli` in a subprocess
    # cli/: the commands are exercised through `main`; tests/cli/test_<topic>.py are named by command or concern
    "exactdp/cli/_app.py": ["tests/cli/test_exit_codes.py"],
    "exactdp/cli/_common.py": ["tests/cli/test_quiet_stdout.py", "tests/cli/test_privacy_approx.py"],
    "exactdp/cli/checks.py": ["tests/cli/test_exit_codes.py", "tests/cli/test_fresh_install.py",
                              "tests/priors/test_phi_routes.py"],
    # two small shared types, met by every certificate and every command
    "exactdp/errors.py": ["tests/exact/test_precision_exhaustion.py", "tests/cli/test_exit_codes.py"],
    "exactdp/verdict.py": [_KINDS, "tests/composition/test_composition_transcendental.py"],
    # certificate/: the contract every kind shares, held for all kinds at once by one harness each
    "exactdp/certificate/common.py": [_KINDS, _RECHECK],  # the mechanism/metric/level records every kind embeds
    # `exactdp explain`: the command's tests call the module's explain() directly as well as through main
    "exactdp/certificate/explain.py": ["tests/cli/test_tools_explain.py", "tests/certificate/test_sections.py"],
    # certify_relation: its four shapes are cases of the contract table, attacked by the kernel's harness
    "exactdp/privacy/relation.py": [_KINDS, _RECHECK],
    # exact/: number types and LP back ends under the public solvers, tested through them
    "exactdp/exact/qspan.py": ["tests/exact/test_lin.py", "tests/exact/test_lp_irrational.py",
                               "tests/exact/test_precision_exhaustion.py"],  # the shared base of Lin and Rad
    "exactdp/exact/radical.py": ["tests/exact/test_lp_irrational.py", "tests/exact/test_precision_exhaustion.py"],
    "exactdp/exact/symbolic.py": ["tests/privacy/test_all_eps.py"],  # the all-eps engine's root isolation
    "exactdp/exact/lp_float.py": ["tests/exact/test_lp.py"],  # HiGHS's start basis: solve_lp against brute force
    # topic internals reached only through their topic's public function
    "exactdp/composition/_expfield.py": ["tests/extension/test_extension.py"],
    "exactdp/priors/parametric.py": ["tests/utility/test_tradeoff_exact.py"],  # the tradeoff's exact value
    # the builders' shared level parsing, the command line's table of builders, the partitions behind verified solves
    "exactdp/mechanisms/_levels.py": ["tests/mechanisms/test_discrete_gaussian.py", "tests/mechanisms/test_ldp.py"],
    "exactdp/mechanisms/catalog.py": ["tests/cli/test_mechanisms.py"],
    "exactdp/metrics/symmetry.py": ["tests/exact/test_verified_solve.py"],
    # papers/: every claim is run (tests/papers/test_claims.py) and certified (test_certified_claims.py)
    **{f"exactdp/papers/{m}.py": [_CLAIMS, "tests/papers/test_certified_claims.py"] for m in (
        "bcsz18", "ecp14", "grs12_databases", "grs12_discussion", "grs12_optimality", "hlm15_accuracy",
        "hlm15_approx", "kl10", "proofs")},
    "exactdp/papers/registry.py": ["tests/papers/test_statuses.py"],
    "exactdp/plot/fdp.py": ["tests/cli/test_fdp.py"],  # the f-DP figure, drawn through `exactdp plot fdp`
    # recheck/: the kernel, attacked kind by kind through one harness (and forgeries files named by attack)
    **{f"exactdp/recheck/{m}.py": [_RECHECK] for m in (
        "_dprivacy", "_kernel", "_levels", "_lp", "_metric", "_pld", "_schema", "optimality", "priors", "profile")},
    "exactdp/recheck/fdp.py": ["tests/recheck/test_renyi_fdp_audit.py", _RECHECK],
    "exactdp/recheck/_failure_set.py": ["tests/recheck/test_program_forgeries.py",
                                        "tests/recheck/test_all_eps_forgeries.py"],
    "exactdp/recheck/_grid.py": ["tests/recheck/test_scale.py"],
    "exactdp/recheck/_sturm.py": ["tests/utility/test_tradeoff_exact.py"],
    "exactdp/recheck/_verified.py": ["tests/recheck/test_quotient.py", "tests/recheck/test_scale.py"],
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
    assert _mirrored("exactdp/privacy/constraints.py")  # tests/privacy/test_constraints_fast.py
    assert _mirrored("exactdp/privacy/dprivacy.py")  # tests/privacy/test_dprivacy.py
    assert _mirrored("exactdp/priors/evidence.py")  # tests/priors/test_evidence.py
    assert _mirrored("exactdp/exact/__init__.py")
    assert not _mirrored("exactdp/recheck/_kernel.py")
    assert not _mirrored("exactdp/exact/l.py")  # test_level.py is not test_l_*.py
    assert _mirrored("exactdp/utility/tradeoff.py")  # test_tradeoff_exact.py: there is no module tradeoff_exact
    assert _mirrored("exactdp/utility/utility.py")  # tests/utility/test_utility.py
    assert _mirrored("exactdp/utility/grid.py")  # tests/utility/test_grid.py
    assert not _mirrored("exactdp/priors/parametric.py")  # no test_parametric*.py in tests/priors/
    assert _mirrored("exactdp/optimality/universal.py")  # tests/optimality/test_universal.py
    assert not _mirrored("exactdp/nowhere/__init__.py")
