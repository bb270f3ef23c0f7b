"""KL10's generalised exponential mechanism (3) against an independent Fraction brute force; bad inputs."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import InvalidInput
from exactdp.mechanisms import exponential
from exactdp.metrics import path


def _brute_exponential(X, Y, f, mu, q):
    """KL10 (3) with beta = log(q): weights mu(y) q^(-sigma(f(x), y)), independent Fractions."""
    out = []
    for x in range(len(X)):
        w = [Fraction(str(mu[k])) * Fraction(1, q) ** int(Y.d(Y.index[f[X.points[x]]], k)) for k in range(len(Y))]
        out.append([v / sum(w) for v in w])
    return out


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(2, 6), st.integers(2, 4), st.data())
def test_general_exponential_against_brute_force(nx_, ny, q, data):
    X, Y = path(nx_), path(ny)
    f = {str(i): str(data.draw(st.integers(0, ny - 1))) for i in range(nx_)}
    mu = [data.draw(st.integers(0, 3)) for _ in range(ny)]
    if sum(mu) == 0:
        mu[0] = 1
    E = exponential(X, beta=f"log({q})", output_metric=Y, f=f, mu=[str(m) for m in mu])
    assert [[Fraction(str(v)) for v in r] for r in E.rows()] == _brute_exponential(X, Y, f, mu, q)


def test_todays_call_is_unchanged():
    E = exponential(path(3), beta="log(2)")
    assert [[str(v) for v in r] for r in E.rows()] == [["4/7", "2/7", "1/7"], ["1/4", "1/2", "1/4"],
                                                       ["1/7", "2/7", "4/7"]]


def test_exponential_bad_inputs():
    with pytest.raises(InvalidInput, match="mu: every weight is 0"):
        exponential(path(2), beta="log(2)", mu=["0", "0"])
    with pytest.raises(InvalidInput, match=r"mu\['1'\]: expected an exact rational weight >= 0"):
        exponential(path(2), beta="log(2)", mu=["1", "-1"])
    with pytest.raises(InvalidInput, match="no weight for the output"):
        exponential(path(2), beta="log(2)", mu={"0": 1})
    with pytest.raises(InvalidInput, match="is not a point of the output metric"):
        exponential(path(3), beta="log(2)", output_metric=path(2))
    with pytest.raises(InvalidInput, match="no image for the input"):
        exponential(path(2), beta="log(2)", output_metric=path(2), f={"0": "0"})
