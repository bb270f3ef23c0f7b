"""Free text a certificate carries -- mechanism names, statements -- rebuilt where it is a builder's, else a label.

Issue 27: a name in a builder's form ("randomized response on m + 1 = 3 categories, p = 0") is a claim about
the matrix it names, as a metric's description in a family's form is (:mod:`exactdp.recheck._metric`).
:func:`mechanism_name` rebuilds the forms of exactdp's builders whose matrix is a function of the numbers in the
name (randomized response, the range-restricted geometric mechanism with its level read off the matrix) and
answers ``False`` for any other text, which every kind's detail then flags as a label (:func:`label_note`),
never stated as fact.  A form the kernel knows, over another matrix, is a ``ValueError`` (refuted).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

from ._kernel import NotHere, _add, _div, _mul, _neg, fraction, sign, value

__all__ = ["label_note", "mechanism_name", "mechanism_note", "names_note", "set_text"]

#: largest matrix whose builder's name is rebuilt entry by entry (above it the name is flagged as a label)
MAX_NAMED_CELLS = 40_000

_RR = re.compile(r"^randomized response on m \+ 1 = ([0-9]+) categories, p = (.+)$")
_GEOMETRIC = re.compile(r"^geometric\(n=([0-9]+)\)$")
#: a builder's whole name followed by more words names a mechanism derived from it ("geometric(n=2) remapped": its
#: Bayes remap), whose matrix is not the builder's: a label, like a composition
_DERIVED = re.compile(r"^geometric\(n=[0-9]+\) \S")
#: a name that starts like a builder's (any spelling of the numbers after it) is a claim about that builder:
#: "randomized response on ...", "geometric(n = ..."; "geometric(1/2) on the edge count" is a label
_BUILDER_FORM = re.compile(r"^\s*(?:randomized\s+response\s+on\b|geometric\s*\(\s*n\s*=)", re.IGNORECASE)
#: two more builders whose names pin their matrices (an outside forger had "discrete Gaussian (n = 2, sigma^2 = 4)"
#: over the sigma^2 = 1 matrix confirmed): the family's form, as the builder writes it, is a claim
_GRR = re.compile(r"^generalized randomized response \(k = ([0-9]+)\)$")
_DGAUSS = re.compile(r"^discrete Gaussian \(n = ([0-9]+), sigma\^2 = ([0-9]+(?:/[0-9]+)?)\)$")
_DGAUSS_BASE = re.compile(r"^discrete Gaussian \(n = [0-9]+, beta = ")         # its base is not rebuilt: a label
_FAMILY_FORM = re.compile(r"^\s*(?:generalized\s+randomized\s+response\s*\(|discrete\s+gaussian\s*\()", re.I)


#: a label written bare in a set: no comma, brace, quote or white space that would make it read as several
_BARE = re.compile(r'^[^,{}"\s]+$')


def set_text(labels) -> str:
    """A set of labels as a claim writes it, unambiguously: ``{a, b}`` when every label is bare, else each label
    JSON-quoted (issue 27: the labels ``"a, b"`` and ``"c"`` must not read as the universe ``{a, b, c}``).

    >>> print(set_text(["a", "b"]), set_text(["a, b", "c"]))
    {a, b} {"a, b", "c"}
    """
    if all(isinstance(x, str) and _BARE.match(x) for x in labels):
        return "{" + ", ".join(labels) + "}"
    return "{" + ", ".join(json.dumps(x, ensure_ascii=False) for x in labels) + "}"


def label_note(what: str, text: str) -> str:
    """The note a kind's detail appends for a free text it does not re-derive.

    >>> label_note("statement", "GRS12 footnote 4")
    "; the statement 'GRS12 footnote 4' is a label, not re-derived"
    """
    return f"; the {what} {text!r} is a label, not re-derived"


def _eq(a, b) -> bool:
    """``a == b`` exactly: fractions compared directly, else by the kernel's zero test of ``a - b``."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a == b
    return sign(_add(a, _neg(b))) == 0


def _matrix(m: dict) -> list:
    """The exact matrix of a carried mechanism (``values`` indexed by ``codes``), each distinct value parsed once."""
    vals: dict = {}

    def at(c):
        """The exact value of code ``c``, parsed once."""
        if c not in vals:
            vals[c] = value(m["values"][c])
        return vals[c]
    return [[at(c) for c in row] for row in m["codes"]]


def _family_name(m: dict) -> bool | None:
    """:func:`mechanism_name` for generalized randomized response and the discrete Gaussian; ``None`` for a name
    in neither family's form.

    ``generalized randomized response (k = K)``: a ``K x K`` matrix on ``0..K-1`` with one value on the diagonal and
    one, no larger, off it (GRR at some eps >= 0: every such stochastic matrix is one, e^eps the ratio).
    ``discrete Gaussian (n = N, sigma^2 = S)``: on ``0..N``, ``K(x)(y) = K(x)(x) e^(-(y-x)^2 / (2 S))`` (CKS20
    Def. 1 truncated to ``0..N``; the rows summing to 1 is each kind's own check).

    >>> grr = {"name": "generalized randomized response (k = 2)", "inputs": ["0", "1"], "outputs": ["0", "1"],
    ...        "values": ["3/4", "1/4"], "codes": [[0, 1], [1, 0]]}
    >>> _family_name(grr), _family_name({**grr, "name": "K"})
    (True, None)
    >>> _family_name({**grr, "values": ["1/2", "0", "1"], "codes": [[0, 0], [1, 2]]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the mechanism is named 'generalized randomized response (k = 2)', but its matrix is not that one
    """
    name = m["name"]
    if not _FAMILY_FORM.match(name):
        return None
    if " o " in name or _DGAUSS_BASE.match(name):
        return False
    grr, dg = _GRR.match(name), _DGAUSS.match(name)
    if grr is None and dg is None:
        raise ValueError(f"the mechanism's name {name!r} is written in a builder's form, not as that builder "
                         "writes it")
    bad = ValueError(f"the mechanism is named {name!r}, but its matrix is not that one")
    # the discrete Gaussian's (n, 2 sigma^2); GRR's k (one of the two matched, checked just above)
    n_dg, two_s = (int(dg[1]), 2 * fraction(dg[2])) if dg is not None else (0, Fraction(0))
    k = int(grr[1]) if grr is not None else n_dg + 1
    labels = [str(i) for i in range(k)]
    if m["inputs"] != labels or m["outputs"] != labels:
        raise bad
    if k * k > MAX_NAMED_CELLS:
        return False                     # flagged as a label: the kernel does not rebuild a matrix this large
    try:
        K = _matrix(m)
    except NotHere:
        return False                     # numbers outside this kernel's (a symbolic alpha): flagged as a label
    if grr is not None:
        a, b = K[0][0], K[0][1] if k > 1 else K[0][0]
        ok = sign(_add(a, _neg(b))) >= 0 and all(_eq(K[i][j], a if i == j else b) for i in range(k) for j in range(k))
    else:
        if two_s == 0:
            raise bad
        factor = {d: value(f"exp(-{Fraction(d * d, 1) / two_s})") for d in range(1, k)}
        ok = all(i == j or _eq(K[i][j], _mul(K[i][i], factor[abs(i - j)])) for i in range(k) for j in range(k))
    if not ok:
        raise bad
    return True


def mechanism_name(m: dict) -> bool:
    """Is the mechanism record's name a builder's, rebuilt from its matrix?

    ``True``: the name is ``randomized response on m + 1 = k categories, p = P`` over the ``k x k`` matrix with
    ``1 - (k - 1) P`` on the diagonal and ``P`` elsewhere (HLM15 Ex. 6), or ``geometric(n=N)`` over the ``N + 1``
    labels ``0..N`` with ``K(i)(j) = alpha^|i-j| c_j / (1 + alpha)``, ``c_j = 1`` at the ends and ``1 - alpha``
    inside (GRS12 Ex. 2.1), ``alpha = 1/K(0)(0) - 1`` read off the matrix.  ``False``: any other text (a label).
    ``ValueError``: a builder's form over another matrix.

    >>> rr = {"name": "randomized response on m + 1 = 2 categories, p = 1/4", "inputs": ["0", "1"],
    ...       "outputs": ["0", "1"], "values": ["3/4", "1/4"], "codes": [[0, 1], [1, 0]]}
    >>> mechanism_name(rr), mechanism_name({**rr, "name": "K"}), mechanism_name({**rr, "name": rr["name"] + " o f"})
    (True, False, False)
    >>> mechanism_name({**rr, "name": "geometric(n=1) remapped"})
    False
    >>> mechanism_name({**rr, "name": "randomized response on m + 1 = 2 categories, p = 0"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the mechanism is named 'randomized response on m + 1 = 2 categories, p = 0', but its matrix is ...
    """
    name = m["name"]
    family = _family_name(m)
    if family is not None:
        return family
    if not _BUILDER_FORM.match(name) or " o " in name or _DERIVED.match(name):
        # " o " is exactdp's composition (B o A: A post-processed by B, e.g. "randomized response ... o f"): its
        # matrix is not the builder's, and the kernel does not rebuild a composition; the name is a label
        return False
    bad = ValueError(f"the mechanism is named {name!r}, but its matrix is not that one")
    n_in, n_out = len(m["inputs"]), len(m["outputs"])
    rr, geo = _RR.match(name), _GEOMETRIC.match(name)
    if rr is None and geo is None:
        raise ValueError(f"the mechanism's name {name!r} is written in a builder's form, not as that builder "
                         "writes it")
    form = rr if rr is not None else geo
    assert form is not None                     # one of the two matched (checked just above)
    k = int(form[1]) + (1 if geo else 0)
    if n_in != k or n_out != k:
        raise bad
    if k * k > MAX_NAMED_CELLS:
        return False                     # flagged as a label: the kernel does not rebuild a matrix this large
    try:
        K = _matrix(m)
        p = value(rr[2]) if rr is not None else None
    except NotHere:
        return False                     # numbers outside this kernel's (a symbolic alpha): flagged as a label
    if rr is not None:
        if m["inputs"] != m["outputs"] or (isinstance(p, Fraction) and rr[2] != str(p)):
            raise bad                    # a rational p is written as the builder writes it ("1/5", not "2/10")
        stay = _add(Fraction(1), _neg(_mul(Fraction(k - 1, 1), p)))
        ok = all(_eq(K[i][j], stay if i == j else p) for i in range(k) for j in range(k))
    else:
        if m["inputs"] != [str(i) for i in range(k)] or m["outputs"] != m["inputs"]:
            raise bad
        a = _add(_div(Fraction(1), K[0][0]), Fraction(-1))
        one_plus = _add(Fraction(1), a)
        inner = _div(_add(Fraction(1), _neg(a)), one_plus)
        ends = _div(Fraction(1), one_plus)
        powers = [Fraction(1)]
        for _ in range(k):
            powers.append(_mul(powers[-1], a))
        ok = sign(a) > 0 and sign(_add(a, Fraction(-1))) < 0 and all(
            _eq(K[i][j], _mul(powers[abs(i - j)], ends if j in (0, k - 1) else inner))
            for i in range(k) for j in range(k))
    if not ok:
        raise bad
    return True


def mechanism_note(m: dict, what: str = "mechanism's name") -> str:
    """``""`` when the name is a builder's, rebuilt (:func:`mechanism_name`); else :func:`label_note`.

    >>> mechanism_note({"name": "K", "inputs": [], "outputs": [], "values": [], "codes": []})
    "; the mechanism's name 'K' is a label, not re-derived"
    """
    return "" if mechanism_name(m) else label_note(what, m["name"])


_MECHANISM_KEYS = frozenset(("name", "inputs", "outputs", "values", "codes"))


def _mechanism_records(evidence) -> list:
    """Every mechanism record (a dict with a name, labels, values and codes) anywhere in the evidence."""
    found, stack = [], [evidence]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if v.keys() >= _MECHANISM_KEYS and isinstance(v["name"], str):
                found.append(v)
            stack.extend(x for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list) and v and isinstance(v[0], (dict, list)):
            stack.extend(v)
    return found


def names_note(evidence) -> str:
    """Check every mechanism name of a certificate, whatever its kind; return the detail's note on the others.

    Issue 27: a name in a builder's form is a claim about its matrix for every kind, not only those whose module
    asks (:func:`mechanism_name` refutes it over another matrix: ``ValueError``); any other name appears in a claim
    as written and is flagged here as a label.  Called by the dispatcher once a kind has confirmed.

    >>> rr = {"name": "randomized response on m + 1 = 2 categories, p = 1/3", "inputs": ["0", "1"],
    ...       "outputs": ["0", "1"], "values": ["3/4", "1/4"], "codes": [[0, 1], [1, 0]]}
    >>> names_note({"mechanism": rr})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the mechanism is named 'randomized response on m + 1 = 2 categories, p = 1/3', but its matrix is ...
    >>> names_note({"factors": [{"mechanism": {**rr, "name": "K"}}]})
    "; the mechanism's name 'K' is a label, not re-derived"
    """
    labels = []
    for m in _mechanism_records(evidence):
        if not mechanism_name(m) and m["name"] not in labels:
            labels.append(m["name"])
    if not labels:
        return ""
    if len(labels) == 1:
        return label_note("mechanism's name", labels[0])
    return "; the mechanisms' names " + ", ".join(repr(x[:80]) for x in labels[:5]) + \
        (" ..." if len(labels) > 5 else "") + " are labels, not re-derived"
