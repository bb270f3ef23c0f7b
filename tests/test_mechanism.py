import pytest
from flint import fmpq

from exactdp import Level, Mechanism, exponential, geometric, path, randomized_response
from exactdp.errors import InputTooLarge, InvalidInput, InvalidType, LabelMismatch, NotStochastic, UnsupportedRegime
from exactdp.exact.expo import ExpFrac
from exactdp.metrics import grid


def test_rows_validated_exactly_and_named():
    with pytest.raises(NotStochastic, match=r"row 'b' sums to 1001/1000, expected exactly 1"):
        Mechanism.from_rows(["a", "b"], ["0", "1"], [["1/2", "1/2"], ["0.5", "0.501"]])
    with pytest.raises(NotStochastic, match=r"entry \('a', '1'\) = -1/2 is negative"):
        Mechanism.from_rows(["a"], ["0", "1"], [["3/2", "-1/2"]])
    with pytest.raises(NotStochastic, match=r"negative for alpha in 0\.5"):
        Mechanism.from_rows(["a"], ["0", "1"], [["2*alpha", "1 - 2*alpha"]])
    with pytest.raises(NotStochastic, match="sums to"):
        Mechanism.from_rows(["a"], ["0", "1"], [["exp(-1)", "1/2"]])


@pytest.mark.parametrize("entry, err, msg", [
    (0.5, InvalidType, "binary float 0.5"), ("nan", InvalidInput, "finite"), ("inf", InvalidInput, "finite"),
    (float("nan"), InvalidInput, "NaN"), ("__import__('os')", InvalidInput, "unknown name"),
    ("1/0", InvalidInput, "division by zero"), ("log(2)", UnsupportedRegime, "logarithm"),
])
def test_bad_entries(entry, err, msg):
    with pytest.raises(err, match=msg):
        Mechanism.from_rows(["a"], ["0", "1"], [[entry, "1/2"]])


def test_floats_on_request():
    K = Mechanism.from_rows(["a"], ["0", "1"], [[0.25, 0.75]], allow_float=True)
    assert K.entry("a", "1") == fmpq(3, 4)


def test_shape_and_labels():
    with pytest.raises(InvalidInput, match="row 'a' has 1 entries, expected 2"):
        Mechanism.from_rows(["a"], ["0", "1"], [["1"]])
    with pytest.raises(InvalidInput, match="2 rows for 1 inputs"):
        Mechanism.from_rows(["a"], ["0"], [["1"], ["1"]])
    with pytest.raises(InvalidInput, match="appears twice"):
        Mechanism.from_rows(["a", "a"], ["0"], [["1"], ["1"]])


def test_geometric_matches_formula():
    n = 5
    G = geometric(n, "1/3")
    a = fmpq(1, 3)
    for i in range(n + 1):
        for r in range(n + 1):
            if r == 0:
                want = a**i / (1 + a)
            elif r == n:
                want = a ** (n - i) / (1 + a)
            else:
                want = (1 - a) / (1 + a) * a ** abs(r - i)
            assert G.entry(i, r) == want
    S = geometric(n)
    assert S.regime == "symbolic" and S.validated
    assert S.at(Level.from_alpha("1/3")).rows() == G.rows()
    T = geometric(n, eps="1/2")
    assert T.regime == "transcendental"
    assert (T.entry(0, 0) - 1 / (1 + ExpFrac.exp(-__import__("exactdp").exact.lin.Lin.rat(fmpq(1, 2))))).is_zero()
    with pytest.raises(InvalidInput, match="n >= 1"):
        geometric(0)
    with pytest.raises(InputTooLarge):
        geometric(10**5)


def test_randomized_response():
    R = randomized_response(["x", "y", "z"], p="1/5")
    assert R.entry("x", "x") == fmpq(3, 5) and R.entry("x", "z") == fmpq(1, 5)
    with pytest.raises(InvalidInput, match="p: expected 0 <= p <= 1/m"):
        randomized_response(3, p="3/4")
    with pytest.raises(InvalidInput, match="at least 2"):
        randomized_response(1)


def test_exponential_rows_and_regimes():
    E = exponential(path(3), beta="log(2)")
    assert E.rows()[0] == [fmpq(4, 7), fmpq(2, 7), fmpq(1, 7)]
    X = exponential(grid((2, 2), "euclidean"), beta="1")
    assert X.regime == "transcendental" and X.validated
    with pytest.raises(UnsupportedRegime):
        exponential(grid((2, 2), "euclidean"))  # eps * sqrt(2) is outside the symbolic regime


def test_remap_and_compose():
    G = geometric(3, "1/2")
    merged = G.remap({"0": "low", "1": "low", "2": "high", "3": "high"})
    assert merged.outputs == ("low", "high")
    assert merged.entry("0", "low") == G.entry(0, 0) + G.entry(0, 1)
    flip = Mechanism.from_rows(["low", "high"], ["low", "high"], [["0", "1"], ["1", "0"]])
    C = merged.compose(flip)
    assert C.entry("0", "high") == merged.entry("0", "low")
    with pytest.raises(LabelMismatch):
        G.compose(flip)
    with pytest.raises(InvalidInput, match="no image"):
        G.remap({"0": "a"})


def test_level_of_entries_through_the_one_normaliser():
    rows = [["alpha", "1 - alpha"]]
    for kw in ({"alpha": "1/3"}, {"alpha": fmpq(1, 3)}, {"eps": "log(3)"}):
        assert Mechanism.from_rows(["x"], ["y", "z"], rows, **kw).entry("x", "y") == fmpq(1, 3)
    with pytest.raises(InvalidInput, match="alpha"):
        Mechanism.from_rows(["x"], ["y", "z"], rows, alpha="3/2")
    with pytest.raises(InvalidInput):
        Mechanism.from_rows(["x"], ["y", "z"], rows, alpha="1/3", eps="1")
