"""Reading mechanism, metric and prior files (JSON, or CSV for bare matrices).

Numbers in files are exact: JSON integers, strings in the exactdp grammar
(``"3/4"``, ``"exp(-1/2)"``, ``"(1-alpha)/(1+alpha)"``), and JSON decimal
literals such as ``0.25``, which are taken at their exact *decimal* value (the
text is never converted to a binary float).  ``NaN`` and ``Infinity`` are
refused, and so is a key given twice in one object.  Files are read in
chunks and refused as soon as they pass :data:`MAX_FILE_BYTES` (the size the
system reports is not trusted: pipes and ``/dev/zero`` report 0).
"""

from __future__ import annotations

import csv
import json
import os
import sys
import zipfile
import zlib
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

import numpy as np
import orjson

from .errors import InputTooLarge, InvalidInput
from .exact.parse import MAX_DIGITS
from .mechanism import MAX_CELLS, Mechanism

if TYPE_CHECKING:
    from .metrics.space import FiniteMetric
    from .optimality.users import User

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_INT_DIGITS",
    "json_text",
    "load_json",
    "load_mechanism",
    "load_metric",
    "load_plan",
    "load_prior_for",
    "load_user",
    "mechanism_from_json",
    "mechanism_from_npz",
    "read_prior_file",
]

#: largest input file accepted (bytes)
MAX_FILE_BYTES = 256 * 1024 * 1024


#: most decimal digits in one JSON integer literal (the same limit as in expressions)
MAX_INT_DIGITS = MAX_DIGITS

_CHUNK = 1 << 20


def _refuse_constant(name):
    raise InvalidInput(f"JSON: {name} is not an exact number; write probabilities as exact numbers such as \"1/3\"")


def _parse_int(text):
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise InputTooLarge(f"JSON: an integer with {len(text.lstrip('-'))} digits exceeds the limit "
                            f"{MAX_INT_DIGITS} digits")
    return int(text)


def _unique_keys(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise InvalidInput(f"JSON: the key {k!r} is given twice in one object; give each key once")
        out[k] = v
    return out


def _read_bytes(path: str) -> bytes:
    """The file's bytes, read in chunks and refused as soon as they pass :data:`MAX_FILE_BYTES`.

    The reported size is not trusted: ``/dev/zero``, pipes and ``/dev/stdin``
    report 0 bytes and never end.
    """
    chunks, total = [], 0
    try:
        with open(path, "rb") as f:
            while True:
                b = f.read(min(_CHUNK, MAX_FILE_BYTES + 1 - total))
                if not b:
                    break
                chunks.append(b)
                total += len(b)
                if total > MAX_FILE_BYTES:
                    raise InputTooLarge(f"file {path!r}: more than {MAX_FILE_BYTES} bytes exceed the limit "
                                        f"{MAX_FILE_BYTES}")
    except IsADirectoryError:
        raise InvalidInput(f"file {path!r}: is a directory; give a JSON (or CSV) file") from None
    except OSError as e:
        raise InvalidInput(f"file {path!r}: {e.strerror or type(e).__name__}") from None
    return b"".join(chunks)


def _read(path: str) -> str:
    data = _read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInput(f"file {path!r}: not UTF-8 text (byte {data[e.start]:#04x} at offset {e.start}); "
                           "input files are UTF-8 JSON or CSV") from None


def load_json(path: str) -> Any:
    """Decode a JSON file keeping decimal literals as exact text.

    Refused with a one-line :class:`~exactdp.errors.InvalidInput`: malformed
    JSON, ``NaN``/``Infinity``, a key given twice in one object, an integer
    of more than :data:`MAX_INT_DIGITS` digits, nesting deeper than the JSON
    decoder's recursion limit, files over :data:`MAX_FILE_BYTES`.

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    object
        The decoded JSON; a decimal literal such as ``0.25`` stays the text ``"0.25"`` (read exactly later).

    Raises
    ------
    InvalidInput
        For the files above.
    InputTooLarge
        For nesting deeper than the decoder allows.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "x.json")
    >>> _ = p.write_text('{"x": 0.25, "n": 3}')
    >>> load_json(str(p))
    {'x': '0.25', 'n': 3}
    >>> _ = p.write_text('{"a": 1, "a": 2}')
    >>> load_json(str(p))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: file '...x.json': JSON: the key 'a' is given twice in one object; give each key once
    >>> d.cleanup()
    """
    text = _read(path)
    try:
        return json.loads(text, parse_float=lambda s: s, parse_int=_parse_int, parse_constant=_refuse_constant,
                          object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as e:
        raise InvalidInput(f"file {path!r}: malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except InvalidInput as e:  # raised by the hooks above
        raise type(e)(f"file {path!r}: {e}") from None
    except RecursionError:
        raise InputTooLarge(f"file {path!r}: JSON nested deeper than the decoder allows (about "
                            f"{sys.getrecursionlimit()} levels); exactdp files need a few levels") from None


def mechanism_from_json(obj: Any, *, validate: bool = False, name: str = "mechanism", eps: Any = None,
                        alpha: Any = None) -> Mechanism:
    """Return a mechanism from ``{"inputs": [...], "outputs": [...], "matrix": [[...], ...]}``.

    Entries may use the symbol ``alpha`` (or ``eps``); validation happens when
    a level is fixed (``Mechanism.at``) or for every alpha (``validate()``).

    Parameters
    ----------
    obj : dict or list
        The decoded file (a bare list is the matrix); labels default to ``0, 1, ...``.
    validate : bool, optional
        Validate now (default: later, see above).
    name : str, optional
        The name when ``obj`` has none.
    eps, alpha : str or exact number, optional
        A level at which to read the entries (one of them at most), for entries
        such as ``eps/2`` that are exact only at a fixed level.

    Returns
    -------
    Mechanism
        The mechanism, exact.

    Raises
    ------
    InvalidInput
        If ``matrix`` is missing or not a list of rows, or the labels are not lists.

    Examples
    --------
    >>> K = mechanism_from_json({"inputs": ["a", "b"], "matrix": [["3/4", "1/4"], ["0.25", "0.75"]]})
    >>> K.outputs, K.entry("b", "0")
    (('0', '1'), 1/4)
    """
    from .metrics.spec import check_keys, check_labels

    if isinstance(obj, list):
        obj = {"matrix": obj}
    if not isinstance(obj, dict) or "matrix" not in obj:
        raise InvalidInput("mechanism file: expected a JSON object with 'matrix' (and optional 'inputs', 'outputs')")
    check_keys(obj, ("matrix", "inputs", "outputs", "name", "provenance"), "mechanism file")
    M = obj["matrix"]
    if not isinstance(M, list) or not M or not all(isinstance(r, list) for r in M):
        raise InvalidInput("mechanism file: 'matrix' must be a non-empty list of rows")
    inputs = obj.get("inputs", [str(i) for i in range(len(M))])
    outputs = obj.get("outputs", [str(j) for j in range(len(M[0]))])
    if not isinstance(inputs, list) or not isinstance(outputs, list):
        raise InvalidInput("mechanism file: 'inputs' and 'outputs' must be lists of labels")
    check_labels(inputs, "mechanism file: 'inputs'")
    check_labels(outputs, "mechanism file: 'outputs'")
    if isinstance(obj.get("name"), str):
        check_labels([obj["name"]], "mechanism file: 'name'")
    return Mechanism.from_rows(inputs, outputs, M, validate=validate, name=obj.get("name", name), eps=eps,
                               alpha=alpha)


def load_mechanism(path: str, *, eps: Any = None, alpha: Any = None) -> Mechanism:
    """Load a mechanism from JSON (documented format), CSV (a bare matrix, labels 0..) or ``.npz``.

    See :func:`mechanism_from_json` for the JSON layout and :func:`mechanism_from_npz` for the ``.npz`` one.

    Parameters
    ----------
    path : str
        The file; its suffix chooses the format (``.npz``, ``.csv``, else JSON).
    eps, alpha : str or exact number, optional
        Read the entries at this level (see :func:`mechanism_from_json`).

    Returns
    -------
    Mechanism
        Named after the file unless the JSON gives a ``name``.

    Raises
    ------
    InvalidInput
        For an unreadable, malformed or empty file.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "rr.csv")
    >>> _ = p.write_text("3/4, 1/4\\n0.25, 0.75\\n")
    >>> K = load_mechanism(str(p))
    >>> K, K.entry("1", "0")
    (<Mechanism rr.csv: 2 x 2, rational>, 1/4)
    >>> d.cleanup()
    """
    if path.lower().endswith(".npz"):
        return mechanism_from_npz(path)
    if path.lower().endswith(".csv"):
        text = _read(path)
        try:
            rows = [[c.strip() for c in r] for r in csv.reader(text.splitlines()) if any(c.strip() for c in r)]
        except csv.Error as e:
            raise InvalidInput(f"file {path!r}: malformed CSV: {e}") from None
        if not rows:
            raise InvalidInput(f"file {path!r}: empty CSV")
        from .certificate.display import terminal_safe

        return mechanism_from_json({"matrix": rows, "name": terminal_safe(os.path.basename(path))}, eps=eps,
                                   alpha=alpha)
    from .certificate.display import terminal_safe

    obj = load_json(path)
    if isinstance(obj, dict) and "name" not in obj:
        obj = {**obj, "name": terminal_safe(os.path.basename(path))}   # a file name is shown, escaped, never refused
    return mechanism_from_json(obj, eps=eps, alpha=alpha)


def mechanism_from_npz(path: str, *, name: str | None = None) -> Mechanism:
    """A mechanism from a numpy ``.npz`` file of integer numerators and denominators.

    The file holds ``num`` and ``den``, two integer arrays of one 2-D shape (inputs x outputs); entry
    ``(i, j)`` is exactly ``num[i, j] / den[i, j]``.  Optional ``inputs`` and ``outputs`` arrays of labels
    (strings or integers; default ``0..``).  Integers only, and at most 64 bits (``int64``, or ``uint64`` up to
    the ``int64`` limit): object arrays would need pickle, which runs code from the file, so the file is read
    with ``allow_pickle=False``; write larger numbers in JSON.  A float array is refused (a float is not an
    exact probability), and so is a zero or negative denominator.

    Equal values get one code however they are written (``1/2`` and ``2/4``): fractions are reduced
    (``numpy.gcd``) and the distinct pairs found by ``numpy.unique``, in order of first occurrence row by
    row, as :meth:`~exactdp.mechanism.Mechanism.from_rows` numbers them -- the same values and codes as the
    same matrix written in JSON.

    Parameters
    ----------
    path : str
        The ``.npz`` file (``numpy.savez(path, num=..., den=...)``).
    name : str, optional
        Default the file's base name.

    Returns
    -------
    Mechanism
        Not yet validated (certify validates exactly before it decides).

    Raises
    ------
    InvalidInput
        A missing or unreadable file, no ``num``/``den``, arrays that are not 2-D integer arrays of one shape,
        a denominator ``<= 0``, labels that do not fit the shape.

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> f = os.path.join(tempfile.mkdtemp(), "rr.npz")
    >>> np.savez(f, num=np.array([[3, 1], [1, 3]]), den=np.array([[4, 4], [4, 4]]))
    >>> mechanism_from_npz(f).rows()
    [[3/4, 1/4], [1/4, 3/4]]
    >>> np.savez(f, num=np.array([[0.75, 0.25]]), den=np.array([[1, 1]]))
    >>> mechanism_from_npz(f)
    Traceback (most recent call last):
    ...
    exactdp.errors.InvalidInput: mechanism file 'rr.npz': 'num' is a float64 array; exactdp reads integer numerators
    and denominators (num / den, e.g. int64) so that every entry is exact
    """
    label = os.path.basename(path)
    what = f"mechanism file {label!r}"
    arrays = _npz_arrays(path, what)
    num, den = _npz_fractions(arrays, what)
    n, m = num.shape
    labels = []
    for k, size in (("inputs", n), ("outputs", m)):
        a = arrays.get(k)
        if a is None:
            labels.append([str(i) for i in range(size)])
            continue
        if a.ndim != 1 or len(a) != size or a.dtype.kind not in "iuU":
            raise InvalidInput(f"{what}: {k!r} must be a 1-D array of {size} labels (strings or integers), got "
                               f"dtype {a.dtype} and shape {a.shape}")
        labels.append([str(x) for x in a.tolist()])
    if n * m > MAX_CELLS:
        raise InputTooLarge(f"{what}: {n} x {m} cells exceed the limit {MAX_CELLS}")
    codes, values = _codes_of_fractions(num, den)
    return Mechanism(labels[0], labels[1], codes, values, name=name or label, validate=False)


def _npz_arrays(path: str, what: str) -> dict:
    """The arrays of an ``.npz`` file, read without pickle."""
    if not zipfile.is_zipfile(path):  # np.load would take any other bytes for a pickle
        if not os.path.isfile(path):
            raise InvalidInput(f"{what}: no such file")
        raise InvalidInput(f"{what}: not a readable .npz file (a zip of .npy arrays, as numpy.savez writes)")
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except ValueError as e:  # an object array (pickled)
        raise InvalidInput(f"{what}: {_one_line(e)}; numbers must be int64 arrays (no object arrays)") from None
    except (OSError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as e:  # a damaged archive or member
        raise InvalidInput(f"{what}: not a readable .npz file ({type(e).__name__}: {_one_line(e)})") from None


def _npz_fractions(arrays: dict, what: str) -> tuple:
    """``num`` and ``den`` as int64 arrays of one 2-D shape, ``den > 0``; refused in one line otherwise."""
    missing = [k for k in ("num", "den") if k not in arrays]
    if missing:
        raise InvalidInput(f"{what}: no {' or '.join(repr(k) for k in missing)} array; expected integer arrays "
                           f"'num' and 'den' (entries num / den), found {sorted(arrays)}")
    nd = []
    for k in ("num", "den"):
        a = arrays[k]
        if a.dtype.kind not in "iu":
            raise InvalidInput(f"{what}: {k!r} is a {a.dtype} array; exactdp reads integer numerators and "
                               "denominators (num / den, e.g. int64) so that every entry is exact")
        if a.ndim != 2 or 0 in a.shape:
            raise InvalidInput(f"{what}: {k!r} has shape {a.shape}; expected a non-empty 2-D array (inputs x outputs)")
        if a.dtype.kind == "u" and int(a.max()) > np.iinfo(np.int64).max:
            raise InvalidInput(f"{what}: {k!r} has entries beyond int64; write numbers this large in JSON")
        nd.append(a.astype(np.int64))
    num, den = nd
    if num.shape != den.shape:
        raise InvalidInput(f"{what}: 'num' has shape {num.shape} but 'den' has shape {den.shape}")
    if (den <= 0).any():
        i, j = map(int, np.argwhere(den <= 0)[0])
        raise InvalidInput(f"{what}: denominator {int(den[i, j])} at row {i}, column {j}; denominators must be > 0")
    return num, den


def _codes_of_fractions(num, den) -> tuple:
    """Codes and distinct values of the fractions ``num / den`` (``den > 0``), by first occurrence row by row."""
    from flint import fmpq

    n, m = num.shape
    g = np.gcd(num, den)  # den > 0, so g > 0
    num, den = (num // g).ravel(), (den // g).ravel()
    if int(num.min()) >= -2**31 and int(num.max()) < 2**31 and int(den.max()) < 2**32:
        key = num * 2**32 + den  # one int64 per value: distinct pairs, distinct keys (0 < den < 2^32)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    else:  # the pairs themselves (a slower sort of rows)
        _, first, inverse = np.unique(np.stack([num, den], axis=1), axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)  # distinct values by first occurrence, row by row
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    codes = rank[inverse.ravel()].reshape(n, m).astype(np.int32)
    return codes, [fmpq(int(num[f]), int(den[f])) for f in first[order].tolist()]


def _one_line(e: BaseException) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text[:200]


def load_metric(path: str) -> FiniteMetric:
    """Load a metric from a JSON file (the objects of :func:`~exactdp.metrics.metric_from_spec`).

    Parameters
    ----------
    path : str
        The file, e.g. ``{"kind": "path", "n": 4}``.

    Returns
    -------
    FiniteMetric
        The metric.

    Raises
    ------
    InvalidInput
        For an unreadable file or an invalid metric object.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "path3.json")
    >>> _ = p.write_text('{"kind": "path", "n": 3}')
    >>> load_metric(str(p)).points
    ('0', '1', '2')
    >>> d.cleanup()
    """
    from .metrics import metric_from_spec

    return metric_from_spec(load_json(path))


def read_prior_file(path: str) -> tuple[list[str] | None, list]:
    """Read a prior file, ``{"probabilities": [...], "points": [...]}`` (or a bare list).

    Values stay as read (exact text or integers); the caller validates them for its setting.

    Parameters
    ----------
    path : str
        The file.

    Returns
    -------
    points : list of str or None
        The points, if the file names them.
    probabilities : list
        The values as read.

    Raises
    ------
    InvalidInput
        If the object has no ``probabilities`` or the lists differ in length.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "prior.json")
    >>> _ = p.write_text('{"probabilities": ["1/4", 0.75], "points": ["a", "b"]}')
    >>> read_prior_file(str(p))
    (['a', 'b'], ['1/4', '0.75'])
    >>> d.cleanup()
    """
    obj = load_json(path)
    if isinstance(obj, list):
        obj = {"probabilities": obj}
    if not isinstance(obj, dict) or "probabilities" not in obj:
        raise InvalidInput(f"prior file {path!r}: expected {{\"probabilities\": [...]}} (and optional \"points\")")
    from .metrics.spec import check_keys, check_labels

    check_keys(obj, ("probabilities", "points"), f"prior file {path!r}")
    if isinstance(obj.get("points"), list):
        check_labels(obj["points"], f"prior file {path!r}: 'points'")
    probs, pts = obj["probabilities"], obj.get("points")
    if not isinstance(probs, list) or (pts is not None and not isinstance(pts, list)):
        raise InvalidInput(f"prior file {path!r}: 'probabilities' and 'points' must be lists")
    if pts is not None and len(pts) != len(probs):
        raise InvalidInput(f"prior file {path!r}: {len(pts)} points but {len(probs)} probabilities")
    return (None if pts is None else [str(p) for p in pts]), probs


def load_prior_for(path: str, labels: Sequence[Any]) -> dict:
    """Read a prior file as ``{label: probability}`` for the given point labels.

    Parameters
    ----------
    path : str
        The prior file (:func:`read_prior_file`).
    labels : sequence
        The points the prior is for; a file without ``points`` lists probabilities in this order.

    Returns
    -------
    dict
        Each label (as a string) -> its probability as read.

    Raises
    ------
    InvalidInput
        If the file's points differ from ``labels``, a point is listed twice, or the counts differ.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "prior.json")
    >>> _ = p.write_text('["1/4", "3/4"]')
    >>> load_prior_for(str(p), ["x", "y"])
    {'x': '1/4', 'y': '3/4'}
    >>> d.cleanup()
    """
    pts, probs = read_prior_file(path)
    if pts is None:
        if len(probs) != len(labels):
            raise InvalidInput(f"prior file {path!r}: {len(probs)} probabilities for {len(labels)} points")
        pts = list(labels)
    if len(set(pts)) != len(pts):
        dup = next(x for x in pts if pts.count(x) > 1)
        raise InvalidInput(f"prior file {path!r}: point {dup!r} is listed twice; labels are compared as strings")
    if set(pts) != {str(x) for x in labels}:
        extra = sorted(set(pts) - {str(x) for x in labels})[:5]
        missing = sorted({str(x) for x in labels} - set(pts))[:5]
        raise InvalidInput(f"prior file {path!r}: its points differ from the {len(labels)} points it is for: no "
                           f"probability for {missing}; not among those points: {extra}")
    return dict(zip(pts, probs, strict=True))


def load_user(prior_path: str, loss: str, n: int | None = None) -> User:
    """Load a GRS12 user from a prior file and a loss name or loss file.

    Parameters
    ----------
    prior_path : str
        The prior on ``0..n`` (:func:`read_prior_file`; its points, if given, must be ``0..n`` in order).
    loss : str
        ``absolute``, ``squared``, ``binary``, or a file ``{"matrix": [[...]]}``.
    n : int, optional
        The expected ``n``, checked against the number of probabilities.

    Returns
    -------
    User
        The validated user.

    Raises
    ------
    InvalidInput
        For a prior or loss that does not fit (see :class:`~exactdp.optimality.users.User`).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "prior.json")
    >>> _ = p.write_text('{"probabilities": ["1/2", 0, "1/2"]}')
    >>> u = load_user(str(p), "squared", n=2)
    >>> u, u.loss[0]
    (<User n=2: prior (1/2, 0, 1/2), squared loss>, [0, 1, 4])
    >>> d.cleanup()
    """
    from .optimality.users import LOSSES, User

    pts, probs = read_prior_file(prior_path)
    if pts is not None and pts != [str(i) for i in range(len(probs))]:
        raise InvalidInput(f"prior file {prior_path!r}: points must be 0..n in order, got {pts[:6]}")
    if n is not None and len(probs) != n + 1:
        raise InvalidInput(f"prior file {prior_path!r}: {len(probs)} probabilities, expected n + 1 = {n + 1}")
    if loss in LOSSES:
        table = loss
    elif not os.path.exists(loss) and ("/" in loss or "." in loss):   # meant as a file: say it is missing
        raise InvalidInput(f"loss: the loss file {loss!r} does not exist (the built-in losses are "
                           f"{', '.join(LOSSES)})")
    elif not os.path.exists(loss):
        raise InvalidInput(f"loss: unknown loss {loss!r}; give absolute, squared, binary or a loss file "
                           "{\"matrix\": [[...]]}")
    else:
        lobj = load_json(loss)
        if not isinstance(lobj, dict) or "matrix" not in lobj:
            raise InvalidInput(f"loss: expected one of {', '.join(LOSSES)} or a file {{\"matrix\": [[...]]}}, "
                               f"got {loss!r}")
        table = lobj["matrix"]
    user = User(probs, table)
    # named by what it is, in the words the re-check re-derives (not by its files' names, which it cannot read)
    prior = "uniform prior" if len(set(user.prior)) == 1 else f"prior ({', '.join(str(p) for p in user.prior)})"
    user.name = f"{prior}, {loss if loss in LOSSES else 'table'} loss"
    return user


# -- writing ----------------------------------------------------------------------------------------------------
_PLAIN = frozenset({dict, list, str, int, bool, type(None)})


def _orjson_safe(obj: Any) -> bool:
    """Whether orjson writes ``obj`` exactly as ``json.dumps(obj, indent=2)`` does (given ASCII output).

    Its strings, ints (up to 64 bits: it refuses larger ones), ``true``/``false``/``null``, lists and dicts
    with string keys come out the same; floats (``1e-07`` against ``1e-7``, ``NaN``), tuples, subclasses and
    other keys do not, and send the object to the standard library.  A list of ints (a row of a code matrix)
    is recognised by its ``sum`` being an ``int`` -- one float, string or container makes it a float or a
    ``TypeError`` -- in C, at a few nanoseconds an entry; other lists have their types collected (``map``).
    """
    if type(obj) is not dict and type(obj) is not list:
        return type(obj) in _PLAIN
    todo: list[Any] = [obj]
    while todo:
        x = todo.pop()
        vals: list[Any]
        if type(x) is dict:
            if not all(type(k) is str for k in x):
                return False
            vals = list(x.values())
        else:
            vals = x
            try:
                if type(sum(vals)) is int:  # ints and bools only
                    continue
            except TypeError:
                pass
        kinds = set(map(type, vals))
        if not kinds <= _PLAIN:
            return False
        if dict in kinds or list in kinds:
            todo.extend(v for v in vals if type(v) is dict or type(v) is list)
    return True


def json_text(obj: Any) -> bytes:
    """``json.dumps(obj, indent=2)`` followed by a newline, as UTF-8 bytes, byte for byte -- fast.

    A certificate of a 2000 x 2000 mechanism carries its code matrix: 112 MB of indented JSON that the
    standard library's pure-Python indenting encoder writes in about 5 s; orjson writes it in 0.2 s.  orjson
    is used only where its output is the same bytes (:func:`_orjson_safe`, and ASCII output: the standard
    library escapes every non-ASCII character and DEL as ``\\u`` escapes); otherwise the standard library writes.

    Parameters
    ----------
    obj : JSON data
        Dicts, lists, strings, ints, booleans and ``None`` (anything ``json.dumps`` takes).

    Returns
    -------
    bytes
        The indented JSON text and a final newline.

    Examples
    --------
    >>> print(json_text({"a": [1, "\u00e9"], "b": {}}).decode())
    {
      "a": [
        1,
        "\\u00e9"
      ],
      "b": {}
    }
    <BLANKLINE>
    """
    if _orjson_safe(obj):
        try:
            out = orjson.dumps(obj, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        except (TypeError, orjson.JSONEncodeError):  # an int beyond 64 bits, nesting deeper than orjson's limit
            pass
        else:
            if out.isascii() and b"\x7f" not in out:
                return out
    return (json.dumps(obj, indent=2) + "\n").encode("ascii")
_PLAN_KEYS = {"mechanism", "builder", "times", "k", "eps", "alpha"}


def load_plan(path: str) -> list:
    """A composition plan: a JSON list of ``{"mechanism": "A.json", "times": 50}`` or builder entries.

    A builder entry names a mechanism of :data:`exactdp.mechanisms.catalog.BUILDERS` with its
    parameters, e.g. ``{"builder": "grr", "k": 4, "eps": "1", "times": 10}`` (further keys are the
    builder's parameters: ``g``, ``omega``, ...).  Mechanism paths are relative to the plan file.
    ``times`` defaults to 1.

    Parameters
    ----------
    path : str
        The plan file (a list, or ``{"plan": [...]}``).

    Returns
    -------
    list of tuple
        ``[(Mechanism, times), ...]`` for :func:`exactdp.interop.audit.audit`.

    Raises
    ------
    InvalidInput
        For an entry that is not one mechanism file or one builder, a bad ``times``, or a mechanism
        whose level is not fixed.

    Examples
    --------
    Generalized randomized response on 3 values at ``eps = log 2`` keeps its input with probability
    ``e^eps/(e^eps + 2) = 1/2`` (WBLJ17 4.1):

    >>> import tempfile
    >>> from pathlib import Path
    >>> d = tempfile.TemporaryDirectory()
    >>> p = Path(d.name, "plan.json")
    >>> _ = p.write_text('[{"builder": "grr", "k": 3, "eps": "log(2)", "times": 5}]')
    >>> [(m.rows()[0], times) for m, times in load_plan(str(p))]
    [([1/2, 1/4, 1/4], 5)]
    >>> d.cleanup()
    """
    from .mechanisms.catalog import BUILDERS, build

    from .interop.audit import MAX_PLAN

    obj = load_json(path)
    if isinstance(obj, dict) and "plan" in obj:
        obj = obj["plan"]
    if not isinstance(obj, list) or not obj:
        raise InvalidInput(f"plan file {path!r}: expected a non-empty JSON list of entries such as "
                           "{\"mechanism\": \"A.json\", \"times\": 50}")
    if len(obj) > MAX_PLAN:  # before any entry's mechanism is read or built (10^6 entries: hours)
        raise InputTooLarge(f"plan file {path!r}: {len(obj):,} entries exceed the limit {MAX_PLAN:,}; repeat one "
                            "entry with \"times\" instead of listing it again")
    out = []
    for n, e in enumerate(obj):
        where = f"plan file {path!r}, entry {n}"
        if not isinstance(e, dict):
            raise InvalidInput(f"{where}: expected an object, got {type(e).__name__}")
        if ("mechanism" in e) == ("builder" in e):
            raise InvalidInput(f"{where}: give exactly one of \"mechanism\" (a file) and \"builder\" (a name)")
        times = e.get("times", 1)
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise InvalidInput(f"{where}: \"times\" must be an integer >= 1, got {times!r}")
        if "mechanism" in e:
            extra = sorted(set(e) - {"mechanism", "times"})
            if extra:
                raise InvalidInput(f"{where}: unknown key {extra[0]!r} next to \"mechanism\" (only \"times\")")
            f = e["mechanism"]
            if not isinstance(f, str):
                raise InvalidInput(f"{where}: \"mechanism\" must be a file name")
            mech = load_mechanism(os.path.join(os.path.dirname(path), f))
        else:
            name = e["builder"]
            if not isinstance(name, str) or name not in BUILDERS:
                raise InvalidInput(f"{where}: unknown builder {name!r}; expected one of {', '.join(sorted(BUILDERS))}")
            k = e.get("k")
            if isinstance(k, bool) or not isinstance(k, int):
                raise InvalidInput(f"{where}: builder {name} needs an integer \"k\", got {k!r}")
            params = {p: v for p, v in e.items() if p not in _PLAN_KEYS}
            mech = build(name, k=k, eps=e.get("eps"), alpha=e.get("alpha"), **params)
        if mech.regime == "symbolic":
            raise InvalidInput(f"{where}: the mechanism depends on a symbolic alpha; fix its level (\"eps\" or "
                               "\"alpha\", or entries at a fixed level)")
        out.append((mech, times))
    return out
