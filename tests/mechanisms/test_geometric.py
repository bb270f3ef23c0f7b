"""The geometric mechanism's fast builder (issue 20, item 1) gives exactly what the slow cell-by-cell constructions
give.

The geometric mechanism is built over its 2n + 1 distinct values with a numpy code matrix and is stochastic by
construction (no O(n^2) exact validation); here its output is compared entry by entry with the GRS12 formulas
evaluated cell by cell (Python ``fractions`` at a rational alpha, ``ExpFrac`` arithmetic otherwise), validated
exactly cell by cell, and its certificates are compared, as JSON text, with those of the route it replaced (the
symbolic mechanism validated exactly, then specialised by ``Mechanism.at``).
"""

from fractions import Fraction

import pytest
from flint import fmpq

from exactdp import Level, Mechanism, certify_all_eps, certify_privacy, geometric, path
from exactdp.exact.expo import ExpFrac
from exactdp.exact.lin import Lin
from exactdp.mechanism import mechanism_from_values


def _grs12(n, i, r, a):
    """GRS12 Ex. 2.1 with range restriction, one cell: works for Fraction and ExpFrac ``a`` alike."""
    if r == 0:
        return a ** i / (1 + a)
    if r == n:
        return a ** (n - i) / (1 + a)
    return (1 - a) / (1 + a) * a ** abs(r - i)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 20])
@pytest.mark.parametrize("alpha", ["1/2", "2/3", "1/7", "999/1000"])
def test_geometric_rational_alpha_cell_by_cell(n, alpha):
    G = geometric(n, alpha)
    a = Fraction(alpha)
    for i in range(n + 1):
        for r in range(n + 1):
            want = _grs12(n, i, r, a)
            assert G[i, r] == fmpq(want.numerator, want.denominator), (i, r)
    assert G.validated and G.regime == "rational"
    # the exact validation of every cell passes (the builder skips it: stochastic by construction)
    Mechanism(G.inputs, G.outputs, G.codes, G.values, validate=True)


def _slow_symbolic(n):
    a = ExpFrac.exp(-Lin.eps())
    return mechanism_from_values(range(n + 1), range(n + 1),
                                 [[_grs12(n, i, r, a) for r in range(n + 1)] for i in range(n + 1)])


@pytest.mark.parametrize("n", [1, 2, 5, 12])
@pytest.mark.parametrize("level", [None, "1/2", "sqrt(2)", "log(3)"])
def test_geometric_symbolic_and_eps_cell_by_cell(n, level):
    slow = _slow_symbolic(n)  # validated exactly for every alpha, cell by cell
    G = geometric(n) if level is None else geometric(n, eps=level)
    if level is not None:
        slow = slow.at(Level.from_eps(level))
    assert G.regime == slow.regime
    for i in range(n + 1):
        for r in range(n + 1):
            assert G[i, r] - slow[i, r] == 0, (i, r)
    Mechanism(G.inputs, G.outputs, G.codes, G.values, validate=True)


def _old_route(n, level):
    """The construction the fast builder replaced: the symbolic mechanism, validated exactly, then ``at``."""
    S = geometric(n)
    V = Mechanism(S.inputs, S.outputs, S.codes, S.values, validate=True, name=S.name, provenance=S.provenance)
    return V if level is None else V.at(level)


@pytest.mark.parametrize("n", [1, 4, 30])
def test_geometric_certificates_unchanged(n):
    for kw, at in [({"alpha": "1/2"}, Level.from_alpha("1/2")), ({"eps": "1/2"}, Level.from_eps("1/2")),
                   ({"alpha": "3/5"}, Level.from_alpha("3/5"))]:
        fast, old = geometric(n, **kw), _old_route(n, at)
        assert [str(v) for v in fast.values] == [str(v) for v in old.values]
        assert (fast.codes == old.codes).all() and fast.provenance == old.provenance
        for level in ({"alpha": "1/2"}, {"eps": "1/3"}, {"alpha": "1/3"}):
            assert (certify_privacy(fast, path(n + 1), **level).to_json_str()
                    == certify_privacy(old, path(n + 1), **level).to_json_str())
    assert (certify_all_eps(geometric(n), path(n + 1)).to_json_str()
            == certify_all_eps(_old_route(n, None), path(n + 1)).to_json_str())


def test_geometric_irrational_algebraic_alpha_refused_as_before():
    from exactdp.errors import UnsupportedRegime

    with pytest.raises(UnsupportedRegime, match="irrational algebraic"):
        geometric(3, eps="log(2)/3")
