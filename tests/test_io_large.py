"""Large files in, large certificates out (issue 20, item 2).

- ``Mechanism.from_rows`` numbers the distinct entries without a Python loop over the cells: the values and
  codes are compared with an independent numbering (value by value, first occurrence row by row);
- rows are validated once per distinct histogram of values: the first failing row is still the one named;
- ``--format json`` is written by orjson where its bytes are those of ``json.dumps(obj, indent=2)``: checked
  against the standard library on random JSON (hypothesis) and on certificates, through the command line;
- ``.npz`` mechanisms of integer numerators and denominators: the same mechanism as its JSON, every bad file
  refused in one line.
"""

import json
import os
from fractions import Fraction

import numpy as np
import pytest
from flint import fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import Mechanism, certify_privacy, discrete, geometric, path
from exactdp.cli import main
from exactdp.errors import InvalidInput, NotStochastic, ParseError
from exactdp.io import json_text, load_mechanism, mechanism_from_npz


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def _first_occurrence_numbering(rows):
    """Independent brute force: code = rank of the entry's *value* among values by first occurrence."""
    values, codes = [], []
    for row in rows:
        crow = []
        for t in row:
            v = Fraction(t) if not isinstance(t, str) or "/" not in t else Fraction(*map(int, t.split("/")))
            if v not in values:
                values.append(v)
            crow.append(values.index(v))
        codes.append(crow)
    return values, codes


@pytest.mark.parametrize("rows", [
    [["1/2", "1/2"], ["1/3", "2/3"], ["2/4", "1/2"]],            # "2/4" and "1/2": one value, one code
    [[1, 0, 0], ["0", "1", 0], ["1/3", "1/3", "1/3"]],           # ints and strings mixed: 1 and "1" alike
    [["1"]],
])
def test_from_rows_numbers_distinct_values_by_first_occurrence(rows):
    n, m = len(rows), len(rows[0])
    K = Mechanism.from_rows([f"x{i}" for i in range(n)], [f"z{j}" for j in range(m)], rows)
    values, codes = _first_occurrence_numbering(rows)
    assert [Fraction(int(v.p), int(v.q)) for v in K.values] == values
    assert K.codes.tolist() == codes


def test_from_rows_bad_entry_named_by_its_first_cell():
    with pytest.raises(ParseError, match=r"entry \('b', '1'\)"):
        Mechanism.from_rows(["a", "b", "c"], ["0", "1"], [["1/2", "1/2"], ["1/2", "1/0x"], ["1/0x", "1/2"]])
    with pytest.raises(InvalidInput, match=r"row 'b' has 1 entries, expected 2"):  # ragged: the cell loop says so
        Mechanism.from_rows(["a", "b"], ["0", "1"], [["1/2", "1/2"], ["1"]])


def _first_bad_row(rows):
    for i, row in enumerate(rows):
        if sum(Fraction(t) for t in row) != 1:
            return i
    return None


@pytest.mark.parametrize("rows", [
    [["1/2", "1/2"], ["1/2", "1/2"], ["1/3", "1/2"], ["1/2", "1/2"], ["1/3", "1/2"]],   # row 2 first
    [["1/3", "1/2"], ["1/2", "1/2"], ["1/3", "1/2"]],                                    # row 0 first
    [["1/4", "1/2", "1/4"], ["1/2", "1/4", "1/4"], ["1/4", "1/4", "1/4"], ["1/4", "1/4", "1/2"]],
    [["1/4", "1/2", "1/4"], ["1/2", "1/4", "1/4"]],                                      # all rows sum to 1
])
def test_histogram_validation_names_the_first_failing_row(rows):
    labels = [f"r{i}" for i in range(len(rows))]
    bad = _first_bad_row(rows)
    if bad is None:
        assert Mechanism.from_rows(labels, [str(j) for j in range(len(rows[0]))], rows).validated
    else:
        with pytest.raises(NotStochastic, match=rf"row 'r{bad}' sums to"):
            Mechanism.from_rows(labels, [str(j) for j in range(len(rows[0]))], rows)


# -- json_text: the bytes of json.dumps(indent=2) ------------------------------------------------------------
_scalars = (st.none() | st.booleans() | st.integers(min_value=-2**80, max_value=2**80) | st.text(max_size=8)
            | st.floats(allow_nan=True, allow_infinity=True))
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                     | st.dictionaries(st.text(max_size=4) | st.integers(-5, 5), inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(_json)
def test_json_text_is_json_dumps_indent_2(obj):
    assert json_text(obj) == (json.dumps(obj, indent=2) + "\n").encode("ascii")


@pytest.mark.parametrize("obj", [[1e-07], [float("nan")], {"a": "\x7f"}, {"é": 1}, [2**64], {1: 2}, (1, 2), [],
                                 {}, [[[]]], "x", 3, None])
def test_json_text_edge_cases(obj):
    assert json_text(obj) == (json.dumps(obj, indent=2) + "\n").encode("ascii")


def _write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(json.dumps(obj))
    return str(p)


@pytest.mark.parametrize("labels, p", [(["a", "b", "c"], "1/4"), (["é", "b\u00ff", "c"], "1/4"),
                                       (["a", "b", "c"], "1/3")])
def test_cli_json_is_the_certificates_json(tmp_path, capsys, labels, p):
    stay = str(1 - 2 * Fraction(p))
    mech = _write(tmp_path, "m.json", {"inputs": labels, "outputs": labels,
                                       "matrix": [[stay if i == j else p for j in range(3)] for i in range(3)]})
    metric = _write(tmp_path, "d.json", {"kind": "discrete", "points": labels})
    code, out, _ = run(["certify", mech, "--metric", metric, "--eps", "log(2)", "--format", "json"], capsys)
    cert = certify_privacy(load_mechanism(mech), discrete(labels), eps="log(2)")
    assert out == cert.render("json")
    assert code == (0 if Fraction(stay) <= 2 * Fraction(p) else 1)   # 1 - 2p <= e^eps p with eps = log 2


# -- .npz ----------------------------------------------------------------------------------------------------
def _rr_npz(path_, m, **extra):
    num = np.ones((m, m), dtype=np.int64)
    np.fill_diagonal(num, 3)
    np.savez(path_, num=num, den=np.full((m, m), m + 2, dtype=np.int64), **extra)
    return str(path_)


def test_npz_is_the_same_mechanism_as_its_json(tmp_path):
    m = 6
    f = _rr_npz(tmp_path / "rr.npz", m)
    labels = [str(i) for i in range(m)]
    js = _write(tmp_path, "rr.json", {"matrix": [[f"3/{m + 2}" if i == j else f"1/{m + 2}" for j in range(m)]
                                                 for i in range(m)]})
    A, B = load_mechanism(f), load_mechanism(js)
    assert A.values == B.values and A.codes.tolist() == B.codes.tolist() and list(A.inputs) == labels
    A.validate()


def test_npz_reduces_fractions_and_keeps_labels(tmp_path):
    f = str(tmp_path / "k.npz")
    np.savez(f, num=np.array([[2, 1], [1, 3]]), den=np.array([[4, 2], [4, 4]]),
             inputs=np.array(["a", "b"]), outputs=np.array([10, 20]))
    K = mechanism_from_npz(f)
    assert K.inputs == ("a", "b") and K.outputs == ("10", "20")
    assert K.codes.tolist() == [[0, 0], [1, 2]] and [str(v) for v in K.values] == ["1/2", "1/4", "3/4"]


def test_npz_large_numbers_take_the_pair_route(tmp_path):
    f = str(tmp_path / "big.npz")
    big = 2**40
    np.savez(f, num=np.array([[1, big - 1], [big - 1, 1]], dtype=np.int64), den=np.full((2, 2), big))
    K = mechanism_from_npz(f).validate()
    assert K.codes.tolist() == [[0, 1], [1, 0]]
    assert K.values[0] == fmpq(1, big) and K.values[1] == fmpq(big - 1, big)


@pytest.mark.parametrize("arrays, pattern", [
    ({"num": np.array([[0.5, 0.5]]), "den": np.array([[1, 1]])}, r"'num' is a float64 array; exactdp reads integer"),
    ({"num": np.array([[1, 1]]), "den": np.array([[2.0, 2.0]])}, r"'den' is a float64 array"),
    ({"num": np.array([[1, 1]])}, r"no 'den' array"),
    ({"num": np.array([[1, 1]]), "den": np.array([[2, 0]])}, r"denominator 0 at row 0, column 1"),
    ({"num": np.array([[1, 1]]), "den": np.array([[2, 2], [2, 2]])}, r"shape \(1, 2\) but 'den' has shape"),
    ({"num": np.array([1, 1]), "den": np.array([2, 2])}, r"expected a non-empty 2-D array"),
    ({"num": np.array([[1, 1]]), "den": np.array([[2, 2]]), "inputs": np.array(["a", "b"])},
     r"'inputs' must be a 1-D array of 1 labels"),
    ({"num": np.array([[1, 1]], dtype=np.uint64), "den": np.array([[2**64 - 1, 2]], dtype=np.uint64)},
     r"beyond int64"),
    ({"num": np.array([[1, 1]], dtype=object), "den": np.array([[2, 2]], dtype=object)}, r"no object arrays"),
])
def test_bad_npz_refused_in_one_line(tmp_path, capsys, arrays, pattern):
    f = str(tmp_path / "bad.npz")
    np.savez(f, **arrays)
    with pytest.raises(InvalidInput, match=pattern):
        mechanism_from_npz(f)
    metric = _write(tmp_path, "d.json", {"kind": "path", "n": 2})
    code, out, err = run(["certify", f, "--metric", metric, "--eps", "1"], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "bad.npz" in err


def test_npz_not_a_zip_refused(tmp_path, capsys):
    f = tmp_path / "junk.npz"
    f.write_bytes(b"not a zip file at all")
    with pytest.raises(InvalidInput, match=r"not a readable .npz file"):
        mechanism_from_npz(str(f))
    with pytest.raises(InvalidInput, match="no such file"):
        mechanism_from_npz(str(tmp_path / "missing.npz"))
    code, out, err = run(["certify", str(f), "--metric", str(f), "--eps", "1"], capsys)
    assert code == 2 and out == "" and "junk.npz" in err


def test_npz_negative_entry_refused_by_validation(tmp_path):
    f = str(tmp_path / "neg.npz")
    np.savez(f, num=np.array([[-1, 3]]), den=np.array([[2, 2]]))
    with pytest.raises(NotStochastic, match="is negative"):
        mechanism_from_npz(f).validate()


def test_npz_certify_both_verdicts(tmp_path, capsys):
    f = _rr_npz(tmp_path / "rr.npz", 4)                         # stay/p = 3: private at eps = log 3, not below
    metric = _write(tmp_path, "d.json", {"kind": "discrete", "points": ["0", "1", "2", "3"]})
    assert run(["certify", f, "--metric", metric, "--eps", "log(3)"], capsys)[0] == 0
    assert run(["certify", f, "--metric", metric, "--eps", "log(2)"], capsys)[0] == 1


def test_geometric_from_npz_certifies_as_built(tmp_path):
    G = geometric(5, "1/2")
    num = np.array([[int(v.p) for v in row] for row in G.rows()], dtype=np.int64)
    den = np.array([[int(v.q) for v in row] for row in G.rows()], dtype=np.int64)
    f = str(tmp_path / "g.npz")
    np.savez(f, num=num, den=den)
    K = mechanism_from_npz(f)
    assert K.rows() == G.rows()
    assert certify_privacy(K, path(6), alpha="1/2").evidence.epsilon == "log(2)"
    assert os.path.basename(f) == K.name
