"""Honest statuses (issue 19, item 5): ``differs`` only when a certified computation contradicts a printed
statement, with both numbers; an internal inconsistency is an error (exit 4), never ``differs``."""

import pathlib
import re

import pytest

from exactdp.cli import main
from exactdp.papers import registry
from exactdp.papers.registry import Finding, InternalInconsistency, Ledger, run_claim

PAPERS = pathlib.Path(registry.__file__).parent


@pytest.fixture
def fresh(monkeypatch):
    """run_claim memoises results: give each test an empty memo."""
    monkeypatch.setattr(registry, "_RESULTS", {})


def test_ledger_statuses_and_sentences():
    led = Ledger()
    led.compare("x", "1/2", "1/2")                      # equal texts agree by default
    assert led.status() == "reproduced" and led.sentence("facts") == "facts; agrees with the paper"
    led.undecided("y", "holds", "no exact regime")
    assert led.status() == "undecided" and "undecided -- y: undecided (no exact regime)" in led.sentence("")
    led.compare("threshold", "0.8", "in [0.968, 0.969]", agrees=False)
    r = led.result("facts", agreed="reconstructed")
    assert r.status == "differs" and "threshold: printed 0.8, exact in [0.968, 0.969]" in r.exact
    assert r.findings[-1] == Finding("threshold", "0.8", "in [0.968, 0.969]", False)
    assert Ledger().compare("z", "1", "2") is False


def test_ledger_reconstructed_and_empty():
    led = Ledger()
    led.compare("a", "yes", "yes", agrees=True)
    assert led.result("f", agreed="reconstructed").status == "reconstructed"
    with pytest.raises(InternalInconsistency, match="compared nothing"):
        Ledger().result("f")


def test_check_raises_and_is_not_bad_input():
    from exactdp.errors import ExactDPError

    with pytest.raises(InternalInconsistency, match="internal inconsistency: two solvers disagree"):
        Ledger().check(False, "two solvers disagree")
    assert not issubclass(InternalInconsistency, ExactDPError)     # the CLI must not call it bad input (exit 2)
    Ledger().check(True, "fine")


def test_forced_internal_failure_is_an_error_not_differs(monkeypatch, fresh, capsys):
    from exactdp.papers import ecp14

    # every metric reported ball-size symmetric: the claim's own sanity check (the path on 4 points is not)
    # must fail as an internal error, not as "the paper differs"
    monkeypatch.setattr(ecp14, "ball_size_symmetric", lambda m: True)
    with pytest.raises(InternalInconsistency, match="path on 4 points"):
        run_claim("ECP14-prop9")
    monkeypatch.setattr(registry, "_RESULTS", {})
    code = main(["reproduce", "ECP14-prop9"])
    out, err = capsys.readouterr()
    assert code == 4 and "internal error" in err and "differs" not in out


def test_a_printed_number_that_disagrees_is_differs_with_both(monkeypatch, fresh, capsys):
    from exactdp.papers import grs12_optimality

    printed = ["D0UUUU", "D0SUUU", "D0DUUU", "D0DDUU", "D0DDDD"]      # one glyph changed in the last row
    monkeypatch.setattr(grs12_optimality, "FIGURE_3", printed)
    r = run_claim("GRS12-fig3")
    assert r.status == "differs"
    assert "printed D0UUUU / D0SUUU / D0DUUU / D0DDUU / D0DDDD, exact D0UUUU / D0SUUU / D0DUUU / D0DDUU / D0DDDU" \
        in r.exact
    monkeypatch.setattr(registry, "_RESULTS", {})
    assert main(["reproduce", "GRS12-fig3"]) == 1
    assert "differs" in capsys.readouterr().out


def test_the_unpatched_claim_is_reproduced(fresh):
    r = run_claim("GRS12-fig3")
    assert r.status == "reproduced" and all(f.agrees is True for f in r.findings)


def test_a_real_difference_names_both_numbers(fresh):
    # ECP14 sec. 7.1: the printed threshold 0.8 against a certified "none exists at 0.8" and the certified sign
    # change of z (0.968..., independent of the print; only a lower bound on eps*: issue 27)
    r = run_claim("ECP14-sec7.1-sum")
    bad = [f for f in r.findings if f.agrees is False]
    assert r.status == "differs" and [f.printed for f in bad] == ["0.8 (one exists there and above)"]
    assert bad[0].exact.startswith("none exists at the printed level (certified); z changes sign in [0.968")
    assert "eps* > 0.968" in r.exact


def test_every_claim_goes_through_the_ledger():
    """One home: no claim module builds a ClaimResult (or a status) by hand."""
    for path in sorted(PAPERS.glob("*.py")):
        if path.name == "registry.py":
            continue
        src = path.read_text(encoding="utf-8")
        assert "ClaimResult(" not in src.replace("-> ClaimResult", ""), path.name
        assert not re.search(r"\"(reproduced|differs|reconstructed|undecided)\" if ", src), path.name
