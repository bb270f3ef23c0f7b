"""Typed evidence records: exact JSON data only, never live objects (docs/architecture.md#sec-certificates).

A :class:`Record` is a frozen dataclass whose fields hold JSON values that
are exact by construction: ``str`` (exact numbers in the exactdp grammar,
e.g. ``"3/4"``, ``"log(2)"``, ``"1/12*exp(2/3)"``), ``int``, ``bool``,
``None``, lists and string-keyed dicts of these, and nested records.  A float,
an ``fmpq`` or a live ``Mechanism`` in a record is an internal error: it is
refused when the record is built, so a certificate can never depend on an
object the independent re-check cannot see.

An :class:`Evidence` is a record registered under a certificate *kind* with
:func:`evidence_kind`; :func:`evidence_from_json` rebuilds it from JSON.
Nested records are declared per class in ``_nested`` (field name -> record
class), so ``from_json(to_json(r)) == r`` exactly.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair(Record):
...     x: str
...     y: str
>>> Pair("1/2", "3").to_json()
{'x': '1/2', 'y': '3'}
>>> Pair.from_json({'x': '1/2', 'y': '3'}) == Pair("1/2", "3")
True
>>> Pair(0.5, "3")
Traceback (most recent call last):
...
TypeError: Pair.x: evidence holds exact JSON data only (str, int, bool, None, list, dict, records), got float
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar
from collections.abc import Callable

import numpy as np

__all__ = ["Evidence", "IntMatrix", "Record", "evidence_from_json", "evidence_kind", "evidence_kinds"]


class IntMatrix:
    """A read-only matrix of integers (a code matrix) held compactly; its JSON is a list of rows of ints.

    Code matrices (a mechanism's, a metric's distances) are the one large item of
    evidence: 16 million cells for a 4000 x 4000 mechanism.  Held as Python lists
    they cost seconds to build and to check; held here they are a read-only int64
    copy, exact all the same, and become lists only when the certificate is
    written as JSON.

    Parameters
    ----------
    data : list of list of int or numpy integer array
        The rows; a float, bool or string entry, or a ragged or non-2-D shape,
        is refused.

    Raises
    ------
    TypeError
        ``data`` is not a 2-D matrix of integers.

    Examples
    --------
    >>> m = IntMatrix([[0, 1], [1, 0]])
    >>> m[0], len(m), m == [[0, 1], [1, 0]], m.tolist()
    ([0, 1], 2, True, [[0, 1], [1, 0]])
    >>> IntMatrix([[0, 0.5]])
    Traceback (most recent call last):
    ...
    TypeError: IntMatrix: expected a 2-D matrix of integers (lists of plain ints)
    """

    __slots__ = ("_a",)
    _a: np.ndarray

    def __init__(self, data):
        if isinstance(data, IntMatrix):
            a = data._a
        else:
            if isinstance(data, list) and not data:
                data = np.zeros((0, 0), dtype=np.int64)
            try:
                a = data if isinstance(data, np.ndarray) else np.array(data, dtype=object)
                if a.dtype == object:
                    if not all(type(v) is int for v in a.ravel().tolist()):
                        raise TypeError
                    a = a.astype(np.int64)                       # a fresh array: ints beyond int64 overflow
                elif a.dtype.kind == "u" and a.size and int(a.max()) > np.iinfo(np.int64).max:
                    raise OverflowError
                elif a.dtype.kind in "iu":
                    # one copy (the caller's array may change later), in the caller's width when it is int32 or
                    # int64: a mechanism's int32 codes are not widened (16 million cells: 64 MB, not 128 MB)
                    a = a.astype(a.dtype if a.dtype in (np.int32, np.int64) else np.int64, copy=True)
            except (TypeError, ValueError, OverflowError):
                raise TypeError("IntMatrix: expected a 2-D matrix of integers (lists of plain ints)") from None
            if a.ndim != 2 or a.dtype.kind not in "iu":
                raise TypeError(f"IntMatrix: expected a 2-D matrix of integers, got dtype {a.dtype} and shape "
                                f"{a.shape}")
            a.setflags(write=False)
        self._a = a

    def tolist(self) -> list:
        """Return the rows as lists of Python ints (the JSON form).

        Returns
        -------
        list of list of int
            A fresh copy.

        Examples
        --------
        >>> IntMatrix([[2, 3]]).tolist()
        [[2, 3]]
        """
        return self._a.tolist()

    def __len__(self) -> int:
        return int(self._a.shape[0])

    def __getitem__(self, i):
        return self._a[i].tolist()

    def __iter__(self):
        return (row.tolist() for row in self._a)

    def __eq__(self, other) -> bool:
        if isinstance(other, IntMatrix):
            return self._a.shape == other._a.shape and bool(np.array_equal(self._a, other._a))
        if isinstance(other, list):
            try:
                return self == IntMatrix(other)
            except TypeError:
                return False
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking container semantics: unhashable, like a list

    def __repr__(self) -> str:
        n, m = self._a.shape
        return f"IntMatrix({self.tolist()!r})" if n * m <= 64 else f"IntMatrix(<{n} x {m} integers>)"


#: the exact types of plain JSON scalars: a list of them is checked by its set of types (in C), not item by item
_SCALARS = frozenset({str, int, bool, type(None)})


def _check(value: Any, where: str) -> None:
    if value is None or isinstance(value, (str, bool, Record, IntMatrix)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, list):
        types = set(map(type, value))
        if types <= _SCALARS:
            return  # strings, ints, ... (a mechanism's values, a metric's labels)
        if types == {list} and all(set(map(type, r)) <= _SCALARS for r in value):
            return  # rows of scalars (a matrix of codes, a metric's pairs): checked row by row in C
        for v in value:
            _check(v, where)
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where}: evidence dict keys are strings, got {type(k).__name__}")
            _check(v, where)
        return
    raise TypeError(f"{where}: evidence holds exact JSON data only (str, int, bool, None, list, dict, records), "
                    f"got {type(value).__name__}")


def _dump(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_json()
    if isinstance(value, IntMatrix):
        return value.tolist()
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


_RecordT = TypeVar("_RecordT", bound="Record")


@dataclass(frozen=True)
class Record:
    """Base of typed evidence records (see the module docstring).

    Subclasses are frozen dataclasses; their fields are the record's
    parameters.  Every field is checked at construction: exact JSON data
    only (docs/architecture.md#sec-certificates).

    Raises
    ------
    TypeError
        A field holding anything but ``str``, ``int``, ``bool``, ``None``,
        lists, string-keyed dicts and records (a float, an ``fmpq``, a live
        object): an internal error of the checker that built it.

    Examples
    --------
    >>> from exactdp.certificate.common import LevelData
    >>> LevelData(text="log(2)", eps=None, R="2", D="1").to_json()
    {'text': 'log(2)', 'eps': None, 'R': '2', 'D': '1'}
    """

    #: field name -> Record subclass for nested records (a single record, or a list of them)
    _nested: ClassVar[dict] = {}

    def __post_init__(self):
        for f in fields(self):
            _check(getattr(self, f.name), f"{type(self).__name__}.{f.name}")

    def to_json(self) -> dict:
        """Return the record as JSON data (a dict of exact values).

        Returns
        -------
        dict
            Field name -> JSON value; nested records as dicts.

        Examples
        --------
        >>> from exactdp.certificate.common import LevelData
        >>> LevelData(text="1/2", eps="1/2", R=None, D=None).to_json()["eps"]
        '1/2'
        """
        return {f.name: _dump(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls: type[_RecordT], data: dict) -> _RecordT:
        """Rebuild a record from :meth:`to_json` output; unknown or missing fields are refused.

        Parameters
        ----------
        data : dict
            A JSON object with exactly the record's fields.

        Returns
        -------
        Record
            An instance of ``cls`` equal to the one dumped.

        Raises
        ------
        ValueError
            Not a dict, or fields that do not match the schema.
        TypeError
            A field value that is not exact JSON data.

        Examples
        --------
        >>> from exactdp.certificate.common import LevelData
        >>> LevelData.from_json({"text": "log(2)", "eps": None, "R": "2", "D": "1"}).R
        '2'
        >>> LevelData.from_json({"text": "log(2)"})
        Traceback (most recent call last):
        ...
        ValueError: LevelData: fields do not match the schema; missing ['eps', 'R', 'D']
        """
        if not isinstance(data, dict):
            raise ValueError(f"{cls.__name__}: expected a JSON object, got {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        extra = sorted(set(data) - set(names))
        missing = [n for n in names if n not in data]
        if extra or missing:
            raise ValueError(f"{cls.__name__}: fields do not match the schema"
                             + (f"; unknown {extra}" if extra else "") + (f"; missing {missing}" if missing else ""))
        kw = {}
        for n in names:
            v, sub = data[n], cls._nested.get(n)
            if sub is not None and v is not None:
                v = [sub.from_json(x) for x in v] if isinstance(v, list) else sub.from_json(v)
            kw[n] = v
        return cls(**kw)


_KINDS: dict = {}
_LOADED: list = []


@dataclass(frozen=True)
class Evidence(Record):
    """The evidence of one certificate kind; subclasses are registered with :func:`evidence_kind`.

    ``kind`` (a class variable) is the name it is registered under and ``checker`` the function that writes it
    (``"exactdp.<package>.<module>:<function>"``, imported only when asked for).  A subclass also defines
    :meth:`example`: one genuine certificate of its kind, from which the test tables, the documentation's table of
    kinds and the front door are derived (docs/architecture.md#sec-kinds).

    Examples
    --------
    >>> evidence_kinds()["privacy"].kind
    'privacy'
    >>> evidence_kinds()["privacy"].checker
    'exactdp.privacy.dprivacy:certify_privacy'
    """

    kind: ClassVar[str] = ""
    checker: ClassVar[str] = ""

    @classmethod
    def example(cls) -> Any:
        """One small genuine certificate of this kind (a kind's declaration must define it).

        Returns
        -------
        Certificate
            A fresh certificate of kind ``cls.kind``.

        Raises
        ------
        NotImplementedError
            The subclass declares no example.

        Examples
        --------
        >>> Evidence.example()
        Traceback (most recent call last):
        ...
        NotImplementedError: evidence kind '' declares no example
        """
        raise NotImplementedError(f"evidence kind {cls.kind!r} declares no example")


_R = TypeVar("_R", bound=type)


def evidence_kind(name: str, *, checker: str) -> Callable[[_R], _R]:
    """Return a class decorator declaring certificate kind ``name``: its evidence record and its checker.

    This is the one declaration of a kind on the library's side (docs/architecture.md#sec-kinds): the table of
    kinds (:data:`exactdp.certificate.kinds.KINDS`), the front door :mod:`exactdp.certify`, the JSON schema and
    the test tables are derived from the registry it fills, together with the renderer registered by
    ``@renderer(name)`` and the kernel's module found by :mod:`exactdp.recheck`.

    Parameters
    ----------
    name : str
        The certificate kind (``"privacy"``, ``"optimality"``, ...).
    checker : str
        ``"exactdp.<package>.<module>:<function>"``: the public function that decides the claim and returns a
        certificate of this kind (imported on first use, so that a record never imports its checker).

    Returns
    -------
    callable
        The decorator; it sets ``cls.kind = name`` and ``cls.checker = checker`` and returns ``cls``.

    Raises
    ------
    TypeError
        (from the decorator) The class is not an :class:`Evidence` subclass.
    ValueError
        ``checker`` is not of the form ``exactdp.<module path>:<name>``; (from the decorator) ``name`` is
        already registered to another class.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @evidence_kind("privacy", checker="exactdp.privacy.dprivacy:certify_privacy")
    ... @dataclass(frozen=True)
    ... class Other(Evidence):
    ...     note: str
    Traceback (most recent call last):
    ...
    ValueError: evidence kind 'privacy' registered twice
    >>> evidence_kind("mine", checker="certify_mine")
    Traceback (most recent call last):
    ...
    ValueError: evidence kind 'mine': checker must read 'exactdp.<module path>:<function>', not 'certify_mine'
    """
    module, _, fn = checker.partition(":")
    if not (module.startswith("exactdp.") and fn.isidentifier()):
        raise ValueError(f"evidence kind {name!r}: checker must read 'exactdp.<module path>:<function>', "
                         f"not {checker!r}")

    def deco(cls: _R) -> _R:
        if not (isinstance(cls, type) and issubclass(cls, Evidence)):
            raise TypeError("evidence_kind: decorate an Evidence subclass")
        if name in _KINDS and _KINDS[name] is not cls:
            raise ValueError(f"evidence kind {name!r} registered twice")
        cls.kind = name
        cls.checker = checker
        _KINDS[name] = cls
        return cls
    return deco


def load_kinds() -> None:
    """Import every module that declares kinds: the ``evidence`` module of each package of exactdp.

    A topic package (docs/architecture.md#sec-layers) keeps the records and renderers of its kinds in its module
    ``evidence``; finding them by that name (not by a list) is what lets a new kind, or a new topic, be added
    without editing a table here.  The imports are done once, on the first question about the registry, so that
    ``import exactdp.certificate`` stays below the topics in the layers.
    """
    if _LOADED:
        return
    import importlib
    import os
    import pkgutil

    root = importlib.import_module(__name__.split(".")[0])
    for info in sorted(pkgutil.iter_modules(root.__path__), key=lambda i: i.name):
        # looked up on disk, not with find_spec, which would import every package (the command line's too)
        where = getattr(info.module_finder, "path", "")
        if info.ispkg and os.path.exists(os.path.join(where, info.name, "evidence.py")):
            importlib.import_module(f"{root.__name__}.{info.name}.evidence")
    _LOADED.append(True)


def evidence_kinds() -> dict:
    """Return the declared kinds: name -> Evidence subclass.

    Returns
    -------
    dict
        A copy of the registry, with every package's ``evidence`` module loaded.

    Examples
    --------
    >>> evidence_kinds()["optimality"].__name__
    'OptimalityEvidence'
    """
    load_kinds()
    return dict(_KINDS)


def evidence_from_json(kind: str, data: dict) -> Evidence:
    """Rebuild the evidence of a certificate of ``kind`` from JSON.

    Parameters
    ----------
    kind : str
        A registered certificate kind.
    data : dict
        The ``evidence`` object of a certificate's JSON.

    Returns
    -------
    Evidence
        The typed record, equal to the one dumped.

    Raises
    ------
    ValueError
        An unknown kind, or fields that do not match the kind's schema.

    Examples
    --------
    >>> from exactdp import geometric, path, certify_privacy
    >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
    >>> evidence_from_json("privacy", c.to_json()["evidence"]) == c.evidence
    True
    """
    cls = _KINDS.get(kind)
    if cls is None:
        load_kinds()
        cls = _KINDS.get(kind)
    if cls is None:
        raise ValueError(f"certificate kind {kind!r} is unknown; known: {', '.join(sorted(_KINDS))}")
    return cls.from_json(data)
