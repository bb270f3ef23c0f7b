"""numpy, sympy and networkx objects taken structurally and given back (issue 11, interop)."""

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
import sympy as sp

from exactdp import Mechanism, certify_privacy, from_matrix, geometric, path
from exactdp.errors import InvalidInput, InvalidType


def test_mechanism_from_numpy_int_array_and_sympy_matrix():
    K = Mechanism.from_rows(["a", "b"], ["0", "1"], sp.Matrix([[sp.Rational(3, 4), sp.Rational(1, 4)],
                                                               [sp.Rational(1, 4), sp.Rational(3, 4)]]))
    assert K.rows() == Mechanism.from_rows(["a", "b"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]]).rows()
    D = Mechanism.from_rows(["a", "b"], ["0", "1"], np.array([[1, 0], [0, 1]], dtype=np.int64))
    assert [[str(v) for v in r] for r in D.rows()] == [["1", "0"], ["0", "1"]]
    with pytest.raises(InvalidType, match="binary float"):
        Mechanism.from_rows(["a", "b"], ["0", "1"], np.array([[0.75, 0.25], [0.25, 0.75]]))
    F = Mechanism.from_rows(["a", "b"], ["0", "1"], np.array([[0.75, 0.25], [0.25, 0.75]]), allow_float=True)
    assert F.rows() == K.rows()  # 0.75 and 0.25 are exact binary fractions
    with pytest.raises(InvalidInput, match="2-dimensional"):
        Mechanism.from_rows(["a"], ["0"], np.array([1]))


def test_sympy_values_and_levels():
    a = sp.Symbol("alpha")
    K = Mechanism.from_rows(["0", "1"], ["0", "1"], [[1 / (1 + a), a / (1 + a)], [a / (1 + a), 1 / (1 + a)]])
    assert K.regime == "symbolic"
    c = certify_privacy(K, path(2), eps=sp.log(2))
    assert c.holds is True and c.evidence.epsilon == "log(2)"
    E = Mechanism.from_rows(["0", "1"], ["0", "1"], [[1 - sp.exp(-1), sp.exp(-1)], [sp.exp(-1), 1 - sp.exp(-1)]])
    assert E.regime == "transcendental"
    with pytest.raises(InvalidType, match="not an exact number"):
        Mechanism.from_rows(["0"], ["0"], [[sp.sin(1)]])
    with pytest.raises(InvalidInput, match="knows only alpha and eps"):
        Mechanism.from_rows(["0"], ["0"], [[sp.Symbol("x")]])


def test_metrics_from_numpy_and_sympy():
    assert len(path(np.int64(4))) == 4
    m = from_matrix(["a", "b"], sp.Matrix([[0, 1], [1, 0]]))
    assert len(m) == 2 and [d for _, _, d in m.generating_pairs()] == [1]
    m2 = from_matrix(["a", "b", "c"], np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]]))
    assert [(i, j) for i, j, _ in m2.generating_pairs()] == [(0, 1), (1, 2)]


def test_give_back_numpy_sympy_networkx():
    G = geometric(3, "1/2")
    A = G.to_numpy()
    assert A.shape == (4, 4) and A.dtype == np.float64
    assert all(abs(A[i, j] - float(Fraction(str(G[i, j])))) == 0 for i in range(4) for j in range(4))
    # by hand (GRS12's truncated geometric mechanism, alpha = 1/2): rows 0 and 3, each entry correctly rounded
    assert A[0].tolist() == [float(Fraction(2, 3)), float(Fraction(1, 6)), float(Fraction(1, 12)),
                             float(Fraction(1, 12))]
    assert A[3].tolist() == A[0].tolist()[::-1]
    S = G.to_sympy()
    assert S.shape == (4, 4) and S[0, 0] == sp.Rational(2, 3) and all(sum(S.row(i)) == 1 for i in range(4))
    T = geometric(2).to_sympy()  # symbolic alpha
    al = sp.Symbol("alpha", positive=True)
    assert sp.simplify(T[0, 0] - 1 / (1 + al)) == 0
    with pytest.raises(InvalidInput, match="symbolic alpha"):
        geometric(2).to_numpy()
    N = path(4).to_networkx()
    assert sorted(N.edges()) == [("0", "1"), ("1", "2"), ("2", "3")]
    assert nx.shortest_path_length(N, "0", "3", weight="weight") == 3
    assert N.edges["0", "1"]["distance"] == "1"
