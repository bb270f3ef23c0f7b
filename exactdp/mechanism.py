"""The :class:`Mechanism` type: a labelled exact row-stochastic matrix.

Rows are secrets (inputs ``x``), columns are outputs ``z``; entry ``K(x)(z)``
is the probability of reporting ``z`` on ``x`` (ECP14 sec. 3.1 writes
``h_yz`` for the noise matrix of an oblivious mechanism).  Entries are exact:
rationals (:class:`flint.fmpq`), or :class:`~exactdp.exact.expo.ExpFrac`
values -- transcendental numbers such as ``exp(-1/2)``, or rational functions
of a symbolic ``alpha`` (all eps at once).

Storage is *interned*: a table of distinct exact values and an integer code
per cell (numpy ``int32``).  Structured mechanisms have few distinct values
(the geometric mechanism on ``{0..n}`` has ``3n`` of them for ``(n+1)^2``
cells), so privacy checks work on distinct value pairs, not on cells.

Validation is exact and happens at construction: every entry ``>= 0`` and
every row sums to exactly 1 (for a symbolic ``alpha``: as an identity, and
``>= 0`` for every ``alpha`` in (0, 1)); failures name the row.

>>> K = Mechanism.from_rows(["a", "b"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]])
>>> K.entry("a", "0")
3/4
>>> Mechanism.from_rows(["a"], ["0", "1"], [["1/2", "1/3"]])  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
...
exactdp.errors.NotStochastic: mechanism: row 'a' sums to 5/6, expected exactly 1; hint: each row is a probability
distribution over the outputs
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any

import numpy as np
from flint import fmpq

from .errors import ExactDPError, InputTooLarge, InvalidInput, LabelMismatch, NotStochastic, UnsupportedRegime
from .exact.decide import exact_latex, exact_str, sign
from .exact.expo import ExpFrac
from .exact.interop import as_rows
from .exact.level import level_of
from .exact.values import Setting, brief, probability

__all__ = ["MAX_CELLS", "Mechanism", "rational_power_of"]

#: largest number of matrix cells accepted
MAX_CELLS = 16_000_000

_RAT = re.compile(r"^\s*(-?\d+)\s*(?:/\s*(\d+))?\s*$", re.ASCII)


def _fast_entry(text, setting, allow_float, what):
    if isinstance(text, str) and len(text) <= 200:  # longer text goes through the parser and its digit limit
        m = _RAT.match(text)
        if m:
            den = int(m.group(2)) if m.group(2) else 1
            if den == 0:
                raise InvalidInput(f"{what}: division by zero in {text!r}")
            return fmpq(int(m.group(1)), den)
    return probability(text, setting=setting, what=what, allow_float=allow_float)


def _value_key(v):
    return ("q", v) if isinstance(v, fmpq) else ("e", v.key())


def _regime_of(values) -> str:
    reg = "rational"
    for v in values:
        if isinstance(v, ExpFrac):
            if v.has_eps():
                return "symbolic"
            reg = "transcendental"
    return reg


class Mechanism:
    """A labelled exact stochastic matrix (see module docstring).

    Build with :meth:`from_rows` (exact entries, validated) or the
    constructors in :mod:`exactdp.mechanisms`; the constructor below is their
    engine, on interned values.  ``K(x)(z)`` is ECP14's ``h_xz`` (sec. 3.1)
    and GRS12's ``x_ir``.

    Parameters
    ----------
    inputs, outputs : iterable
        Row and column labels (compared as strings, unique).
    codes : array_like of int
        ``len(inputs) x len(outputs)`` indices into ``values``.
    values : list
        The distinct exact entries (``fmpq`` or ``ExpFrac``).
    name : str, default "mechanism"
        A name for messages and proofs.
    validate : bool, default True
        Validate exactly now (entries ``>= 0``, rows sum to 1).
    provenance : str, default ""
        Where the mechanism comes from (shown in proofs).

    Raises
    ------
    InvalidInput
        ``codes`` of the wrong shape, no inputs or outputs, or a repeated label.
    NotStochastic
        A negative entry or a row that does not sum to exactly 1.

    Examples
    --------
    >>> from flint import fmpq
    >>> K = Mechanism(["a", "b"], ["0", "1"], [[0, 1], [1, 0]], [fmpq(3, 4), fmpq(1, 4)])
    >>> K
    <Mechanism mechanism: 2 x 2, rational>
    >>> K.entry("b", "0")
    1/4
    """

    def __init__(self, inputs, outputs, codes, values, *, name="mechanism", validate=True,
                 provenance: str = ""):
        self.inputs: tuple[str, ...] = tuple(str(x) for x in inputs)
        self.outputs: tuple[str, ...] = tuple(str(z) for z in outputs)
        self.codes = np.asarray(codes, dtype=np.int32)
        self.values: list = list(values)
        self.name = name
        self.provenance = provenance
        n, m = len(self.inputs), len(self.outputs)
        if self.codes.shape != (n, m):
            raise InvalidInput(f"mechanism: matrix shape {self.codes.shape}, expected {n} x {m} (inputs x outputs)")
        if n == 0 or m == 0:
            raise InvalidInput("mechanism: expected at least one input and one output")
        for what, labels in (("input", self.inputs), ("output", self.outputs)):
            if len(set(labels)) != len(labels):
                dup = next(x for x in labels if labels.count(x) > 1)
                raise InvalidInput(f"mechanism: {what} label {dup!r} appears twice; labels are compared as strings")
        self.row_index = {x: i for i, x in enumerate(self.inputs)}
        self.col_index = {z: j for j, z in enumerate(self.outputs)}
        self.regime = _regime_of(self.values)
        self.validated = False
        if validate:
            self._validate()

    # -- construction ----------------------------------------------------
    @classmethod
    def from_rows(cls, inputs, outputs, rows, *, alpha=None, eps=None, symbolic=True,
                  allow_float=False, name="mechanism", validate=True) -> Mechanism:
        """Build from exact entries (strings in the exactdp grammar, ints, Fractions, sympy expressions).

        ``rows`` may be a list of rows, a numpy integer array or a sympy ``Matrix``
        (taken structurally); binary floats are refused unless ``allow_float=True``.

        ``alpha``/``eps`` fix the level used to evaluate entries; by default
        ``alpha`` is the symbol (``symbolic=True``), so entries written in
        ``alpha`` stay valid for every eps and can be specialised later with
        :meth:`at`.

        Parameters
        ----------
        inputs, outputs : iterable
            Row and column labels (compared as strings, unique).
        rows : sequence of sequences
            The entries, one row per input, one entry per output.
        alpha, eps : exact number, optional
            The level at which ``alpha``/``eps`` in the entries are evaluated,
            at most one of them, normalised by :func:`~exactdp.exact.level_of`
            (text such as ``"1/3"`` or ``"log(2)"``, an ``fmpq``, an int, a
            sympy number).
        symbolic : bool, default True
            Without a level, keep ``alpha`` as a symbol (else the names
            ``alpha`` and ``eps`` are refused).
        allow_float : bool, default False
            Take binary floats at their exact binary value.
        name : str, default "mechanism"
            A name for messages and proofs.
        validate : bool, default True
            Validate exactly now.

        Returns
        -------
        Mechanism
            The exact matrix, interned.

        Raises
        ------
        InvalidInput
            Rows that are not a matrix of the right shape, a repeated label,
            both ``alpha`` and ``eps`` or an invalid level (see
            :func:`~exactdp.exact.level_of`), or an entry outside the grammar (:class:`~exactdp.errors.ParseError`;
            :class:`~exactdp.errors.UnsupportedRegime` for an irrational
            algebraic entry; :class:`~exactdp.errors.InputTooLarge` above
            ``MAX_CELLS`` cells).
        NotStochastic
            A negative entry or a row that does not sum to exactly 1.
        InvalidType
            A binary float without ``allow_float``.

        Examples
        --------
        >>> K = Mechanism.from_rows(["x"], ["y", "z"], [["alpha", "1 - alpha"]])
        >>> K.regime
        'symbolic'
        >>> from flint import fmpq
        >>> Mechanism.from_rows(["x"], ["y", "z"], [["alpha", "1 - alpha"]], alpha=fmpq(1, 3)).entry("x", "z")
        2/3
        >>> Mechanism.from_rows(["x"], ["y", "z"], [["alpha", "1 - alpha"]], alpha="1/3").entry("x", "z")
        2/3
        >>> Mechanism.from_rows(["x"], ["y", "z"], [["exp(-eps)", "1 - exp(-eps)"]], eps="log(2)").entry("x", "y")
        1/2
        """
        inputs, outputs = list(inputs), list(outputs)
        rows = as_rows(rows, "mechanism")  # numpy arrays and sympy matrices, structurally
        if not isinstance(rows, (list, tuple)) or not all(isinstance(r, (list, tuple)) for r in rows):
            raise InvalidInput("mechanism: 'matrix' must be a list of rows (lists of exact numbers)")
        n, m = len(inputs), len(outputs)
        if len(rows) != n:
            raise InvalidInput(f"mechanism: {len(rows)} rows for {n} inputs; the matrix must be {n} x {m}")
        if n * m > MAX_CELLS:
            raise InputTooLarge(f"mechanism: {n} x {m} cells exceed the limit {MAX_CELLS}")
        if alpha is not None or eps is not None:
            setting = level_of(eps=eps, alpha=alpha).setting()   # the one level normaliser
        else:
            setting = Setting.symbolic() if symbolic else Setting()
        interner = _Interner()
        if all(len(row) == m for row in rows):
            flat = list(chain.from_iterable(rows))
            if set(map(type, flat)) <= {str, int}:  # str and int never compare equal: the entries are their keys
                return cls(inputs, outputs, _codes_of_distinct(flat, n, m, interner, setting, allow_float,
                                                               inputs, outputs),
                           interner.values, name=name, validate=validate)
        table: dict = {}  # entry text -> code, so each distinct text is parsed once
        codes = np.empty((n, m), dtype=np.int32)
        for i, row in enumerate(rows):
            if len(row) != m:
                raise InvalidInput(f"mechanism: row {inputs[i]!r} has {len(row)} entries, "
                                   f"expected {m} (one per output)")
            for j, t in enumerate(row):
                key = t if isinstance(t, str) else (type(t).__name__, repr(t))
                c = table.get(key)
                if c is None:
                    c = interner.code(_fast_entry(t, setting, allow_float, f"entry ({inputs[i]!r}, {outputs[j]!r})"))
                    table[key] = c
                codes[i, j] = c
        return cls(inputs, outputs, codes, interner.values, name=name, validate=validate)

    # -- validation --------------------------------------------------------
    def _validate(self):
        from .exact.symbolic import sign_pieces  # symbolic regime only

        for c, v in enumerate(self.values):
            if self.regime == "symbolic":
                bad = [p for p in sign_pieces(v) if p.sign < 0]
                if bad:
                    i, j = map(int, np.argwhere(self.codes == c)[0])
                    raise NotStochastic(
                        f"mechanism: entry ({self.inputs[i]!r}, {self.outputs[j]!r}) = {brief(v)} is negative "
                        f"for alpha in {bad[0].lo.decimal(6)}..{bad[0].hi.decimal(6)}; "
                        "a probability must be >= 0 for every alpha in (0, 1)")
            elif sign(v) < 0:
                i, j = map(int, np.argwhere(self.codes == c)[0])
                raise NotStochastic(
                    f"mechanism: entry ({self.inputs[i]!r}, {self.outputs[j]!r}) = {brief(v)} is negative; "
                    "probabilities must be >= 0")
        fast = _vector_row_check(self)
        if fast is None:
            fast = _histogram_representatives(self)
        rows_to_check = range(len(self.inputs)) if fast is None else fast
        for i in rows_to_check:
            x = self.inputs[i]
            s = self.row_sum(i)
            if not (s - 1 == 0 if not isinstance(s, fmpq) else s == 1):
                raise NotStochastic(
                    f"mechanism: row {x!r} sums to {brief(s)}, expected exactly 1; hint: each row is a "
                    "probability distribution over the outputs")
        self.validated = True

    def validate(self) -> Mechanism:
        """Validate exactly (entries >= 0, rows sum to 1) and return ``self``.

        Returns
        -------
        Mechanism
            ``self``, now marked validated.

        Raises
        ------
        NotStochastic
            A negative entry (for a symbolic alpha: anywhere in (0, 1)) or a
            row that does not sum to exactly 1; the message names it.

        Examples
        --------
        >>> K = Mechanism.from_rows(["a"], ["0", "1"], [["1/4", "3/4"]], validate=False)
        >>> K.validated, K.validate() is K, K.validated
        (False, True, True)
        """
        if not self.validated:
            self._validate()
        return self

    def row_sum(self, i: int) -> Any:
        """Return the exact sum of row ``i`` (grouped by distinct value, then by denominator).

        Parameters
        ----------
        i : int
            Row index.

        Returns
        -------
        fmpq or ExpFrac
            The exact sum (a rational whenever it is one).

        Examples
        --------
        >>> Mechanism.from_rows(["a"], ["0", "1"], [["1/2", "1/3"]], validate=False).row_sum(0)
        5/6
        """
        codes, counts = np.unique(self.codes[i], return_counts=True)
        rat = fmpq(0)
        groups: dict = {}
        for c, k in zip(codes.tolist(), counts.tolist(), strict=True):
            v = self.values[c]
            if isinstance(v, fmpq):
                rat += v * k
            else:
                dk = id(v.den)  # same object, same denominator; equal copies merge in "+"
                g = groups.get(dk)
                if g is None:
                    groups[dk] = [v.den, {}]
                    g = groups[dk]
                acc = g[1]
                for e, q in v.num.items():
                    acc[e] = acc.get(e, 0) + q * k
        total = rat
        for den, num in groups.values():
            num = {e: q for e, q in num.items() if q != 0}
            total = total + ExpFrac(num, den)
        if isinstance(total, ExpFrac):
            r = total.rational()
            if r is not None:
                return r
        return total

    # -- access ------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        """``(number of inputs, number of outputs)``.

        Examples
        --------
        >>> Mechanism.from_rows(["a", "b"], ["0", "1", "2"], [["1", "0", "0"], ["0", "1/2", "1/2"]]).shape
        (2, 3)
        """
        return self.codes.shape

    def __repr__(self):
        return f"<Mechanism {self.name}: {len(self.inputs)} x {len(self.outputs)}, {self.regime}>"

    def entry(self, x: Any, z: Any) -> Any:
        """Return the exact entry ``K(x)(z)`` by labels.

        Parameters
        ----------
        x : str or object
            Input label (compared as a string).
        z : str or object
            Output label (compared as a string).

        Returns
        -------
        fmpq or ExpFrac
            The probability of output ``z`` on input ``x``.

        Raises
        ------
        InvalidInput
            A label that is not an input / output.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> geometric(2, "1/2").entry(1, 2)
        1/3
        """
        try:
            return self.values[self.codes[self.row_index[str(x)], self.col_index[str(z)]]]
        except KeyError as e:
            raise InvalidInput(f"mechanism: no input/output labelled {e.args[0]!r}") from None

    def __getitem__(self, ij):
        i, j = ij
        return self.values[self.codes[i, j]]

    def rows(self) -> list[list[Any]]:
        """Return the matrix as a list of lists of exact values.

        Returns
        -------
        list of list
            ``rows()[i][j] = K(inputs[i])(outputs[j])``.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> geometric(1, "1/2").rows()
        [[2/3, 1/3], [1/3, 2/3]]
        """
        return [[self.values[c] for c in row] for row in self.codes.tolist()]

    def to_json(self) -> dict:
        """Return the mechanism in the documented file format (exact strings).

        Returns
        -------
        dict
            ``{"inputs": [...], "outputs": [...], "matrix": [[...], ...]}``.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> geometric(1, eps="1").to_json()["matrix"][0]
        ['1/(exp(-1) + 1)', 'exp(-1)/(exp(-1) + 1)']
        """
        strs = [exact_str(v) for v in self.values]
        return {"inputs": list(self.inputs), "outputs": list(self.outputs),
                "matrix": [[strs[c] for c in row] for row in self.codes.tolist()]}

    def to_numpy(self) -> np.ndarray:
        """Return the matrix as a numpy float64 array, *rounded*.

        Each entry goes to the nearest double (from a certified ball), for
        plotting and float tools; exact work stays on the mechanism.

        Returns
        -------
        numpy.ndarray
            ``float64``, shape ``(inputs, outputs)``.

        Raises
        ------
        InvalidInput
            Entries in a symbolic alpha (fix a level first with :meth:`at`).

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> A = geometric(2, eps="1").to_numpy()
        >>> A.shape, A.dtype.name
        ((3, 3), 'float64')
        """
        from .exact.decide import arb_of

        if self.regime == "symbolic":
            raise InvalidInput("to_numpy: the entries depend on a symbolic alpha; fix a level first (mech.at(...))")
        vals = np.array([float(arb_of(v).mid()) for v in self.values])
        return vals[self.codes]

    def to_sympy(self) -> Any:
        """Return the matrix as an exact sympy ``Matrix`` (``exp(c eps)`` written ``alpha^(-c)``).

        Returns
        -------
        sympy.Matrix
            Exact entries (``Rational``, ``exp``, or expressions in ``alpha``).

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> geometric(1, "1/2").to_sympy()
        Matrix([
        [2/3, 1/3],
        [1/3, 2/3]])
        """
        import sympy as sp

        from .exact.interop import to_sympy

        vals = [to_sympy(v) for v in self.values]
        return sp.Matrix([[vals[c] for c in row] for row in self.codes.tolist()])

    def to_latex(self) -> str:
        """Return the matrix in LaTeX (a ``pmatrix`` of exact entries).

        Returns
        -------
        str
            ``\\begin{pmatrix} ... \\end{pmatrix}``.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> print(geometric(1, "1/2").to_latex())
        \\begin{pmatrix}\\frac{2}{3} & \\frac{1}{3} \\\\ \\frac{1}{3} & \\frac{2}{3}\\end{pmatrix}
        """
        lat = [exact_latex(v) for v in self.values]
        body = r" \\ ".join(" & ".join(lat[c] for c in row) for row in self.codes.tolist())
        return r"\begin{pmatrix}" + body + r"\end{pmatrix}"

    # -- transformations ------------------------------------------------------
    def concrete(self, what: str, hint: str = "fix a level first (mech.at(Level.from_eps(...)))") -> Mechanism:
        """Return the validated mechanism, refusing one whose entries depend on a symbolic alpha.

        The guard of every computation that needs numbers, not functions of
        alpha (the counterpart of :meth:`at`, which evaluates them at a level).

        Parameters
        ----------
        what : str
            The computation, named in the message.
        hint : str, optional
            What to do instead, appended to the message.

        Returns
        -------
        Mechanism
            ``self``, validated (:meth:`validate`).

        Raises
        ------
        InvalidInput
            The entries depend on a symbolic alpha.
        NotStochastic
            A negative entry or a row that does not sum to 1.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> geometric(2, "1/2").concrete("privacy_profile").regime
        'rational'
        >>> geometric(2).concrete("privacy_profile")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        exactdp.errors.InvalidInput: privacy_profile: the mechanism's entries depend on a symbolic alpha; ...
        """
        if self.regime == "symbolic":
            raise InvalidInput(f"{what}: the mechanism's entries depend on a symbolic alpha; {hint}")
        return self.validate()

    def at(self, level) -> Mechanism:
        """The mechanism with the symbolic ``alpha`` replaced by the level's exact value.

        Substitution is a ring homomorphism, so if this mechanism was validated
        for every alpha (rows sum to 1 as identities, entries ``>= 0`` on all of
        (0, 1)), the result is valid with no further work; otherwise it is
        validated exactly at the level.  A mechanism without ``alpha`` is
        returned as is (validated).

        Parameters
        ----------
        level : Level
            The privacy level (see :func:`~exactdp.exact.level.level_of`).

        Returns
        -------
        Mechanism
            Rational entries at a rational alpha, exponential expressions at
            a transcendental one.

        Raises
        ------
        UnsupportedRegime
            An irrational algebraic alpha (e.g. ``eps = log(sqrt(2))``).
        NotStochastic
            This mechanism was not validated and fails at the level.

        Examples
        --------
        >>> from exactdp.exact.level import Level
        >>> from exactdp.mechanisms import geometric
        >>> geometric(1).at(Level.from_alpha("1/2")).rows()
        [[2/3, 1/3], [1/3, 2/3]]
        """
        if self.regime != "symbolic":
            if not self.validated:
                self._validate()
            return self
        alpha = level.alpha()
        eps_lin = level._eps_lin
        out = []
        for v in self.values:
            if not isinstance(v, ExpFrac):  # a rational entry does not depend on alpha
                out.append(v)
                continue
            if eps_lin is not None:
                w = v.substitute_eps(eps_lin)
            elif alpha is not None and isinstance(alpha, fmpq):
                w = _at_rational_alpha(v, alpha)
            else:
                raise UnsupportedRegime(
                    f"entries in alpha cannot be evaluated exactly at eps = {level.eps_str()} "
                    "(alpha is an irrational algebraic number)")
            r = w.rational() if isinstance(w, ExpFrac) else w
            out.append(r if r is not None else w)
        res = Mechanism(self.inputs, self.outputs, self.codes, out, name=self.name,
                        validate=not self.validated,
                        provenance=f"{self.provenance} specialised at eps = {level.eps_str()}".strip())
        res.validated = True  # validated above, or implied by the identities in alpha
        return res

    def remap(self, mapping, outputs=None, name=None) -> Mechanism:
        """Post-process by a deterministic remap ``z -> mapping[z]`` (merges columns exactly).

        The user's remap of GRS12 Sec. 2 (post-processing preserves privacy).

        Parameters
        ----------
        mapping : dict or callable
            The image of every output (labels compared as strings).
        outputs : list, optional
            The new outputs, in order; default the images in first-seen order.
        name : str, optional
            Default ``"<name> remapped"``.

        Returns
        -------
        Mechanism
            ``K'(x)(o) = sum of K(x)(z) over z with mapping[z] = o``.

        Raises
        ------
        InvalidInput
            An output without an image, or an image not among ``outputs``.

        Examples
        --------
        >>> from exactdp.mechanisms import geometric
        >>> geometric(2, "1/2").remap({"0": "0", "1": "0", "2": "2"}).rows()[0]
        [5/6, 1/6]
        """
        if callable(mapping):
            mapping = {z: mapping(z) for z in self.outputs}
        mapping = {str(k): str(v) for k, v in mapping.items()}
        missing = [z for z in self.outputs if z not in mapping]
        if missing:
            raise InvalidInput(f"remap: output {missing[0]!r} has no image")
        if outputs is None:
            outputs = list(dict.fromkeys(mapping[z] for z in self.outputs))
        outputs = [str(o) for o in outputs]
        oidx = {o: k for k, o in enumerate(outputs)}
        for z in self.outputs:
            if mapping[z] not in oidx:
                raise InvalidInput(f"remap: image {mapping[z]!r} of {z!r} is not among the outputs")
        rows = []
        cols_of: list[list[int]] = [[] for _ in outputs]
        for j, z in enumerate(self.outputs):
            cols_of[oidx[mapping[z]]].append(j)
        for i in range(len(self.inputs)):
            row = []
            for cols in cols_of:
                s = fmpq(0)
                for j in cols:
                    s = s + self.values[self.codes[i, j]]
                row.append(s)
            rows.append(row)
        out = _from_values(self.inputs, outputs, rows, name or f"{self.name} remapped", validate=False,
                           provenance=f"{self.provenance}; deterministic remap".strip("; "))
        out.validated = self.validated  # merging columns preserves row sums and signs
        return out

    def compose(self, other: Mechanism, name=None) -> Mechanism:
        """Run ``self`` then ``other`` on its output: the exact product ``K H``.

        ``other``'s inputs must be ``self``'s outputs (as strings).  A randomised
        remap is a mechanism from the outputs to themselves (GRS12 Sec. 2).

        Parameters
        ----------
        other : Mechanism
            The second stage, with inputs the outputs of ``self``.
        name : str, optional
            Default ``"<other> o <self>"``.

        Returns
        -------
        Mechanism
            ``(K H)(x)(w) = sum_z K(x)(z) H(z)(w)``, exact and validated.

        Raises
        ------
        LabelMismatch
            ``other``'s inputs differ from ``self``'s outputs.

        Examples
        --------
        >>> K = Mechanism.from_rows(["a", "b"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]])
        >>> H = Mechanism.from_rows(["0", "1"], ["0", "1"], [["3/4", "1/4"], ["1/4", "3/4"]])
        >>> K.compose(H).rows()
        [[5/8, 3/8], [3/8, 5/8]]
        """
        if set(other.inputs) != set(self.outputs):
            raise LabelMismatch(
                f"compose: the second mechanism's inputs {sorted(other.inputs)[:5]}... must equal the first's "
                f"outputs {sorted(self.outputs)[:5]}...")
        order = [other.row_index[z] for z in self.outputs]
        rows = []
        for i in range(len(self.inputs)):
            krow = [self.values[c] for c in self.codes[i]]
            row = []
            for k in range(len(other.outputs)):
                s = fmpq(0)
                for j, a in enumerate(krow):
                    if sign(a) == 0:
                        continue
                    b = other.values[other.codes[order[j], k]]
                    s = s + a * b
                row.append(s)
            rows.append(row)
        return _from_values(self.inputs, other.outputs, rows, name or f"{other.name} o {self.name}",
                            validate=True)

    def _repr_html_(self, max_cells: int = 144) -> str:
        """Notebook view: a table of the exact entries (at most ``max_cells`` cells), else a summary."""
        from html import escape

        n, m = self.shape
        head = (f"<p><strong>{escape(self.name)}</strong>: {n} x {m} mechanism, {self.regime} entries, "
                f"{len(self.values)} distinct value{'s' if len(self.values) != 1 else ''}</p>")
        if n * m > max_cells:
            shown = ", ".join(f"<code>{escape(exact_str(v))}</code>" for v in self.values[:6])
            more = ", ..." if len(self.values) > 6 else ""
            return f'<div class="exactdp-mechanism">{head}<p>values: {shown}{more}</p></div>'
        strs = [escape(exact_str(v)) for v in self.values]
        cols = "".join(f"<th>{escape(z)}</th>" for z in self.outputs)
        body = "".join(f"<tr><th>{escape(x)}</th>" + "".join(f"<td>{strs[c]}</td>" for c in row) + "</tr>"
                       for x, row in zip(self.inputs, self.codes.tolist(), strict=True))
        return (f'<div class="exactdp-mechanism">{head}<table><thead><tr><th>x \\ z</th>{cols}</tr></thead>'
                f"<tbody>{body}</tbody></table></div>")


def _vector_row_check(mech):
    """Exact row sums for sparse exponential-polynomial entries over one denominator.

    Returns ``None`` when the fast path does not apply, else the list of rows
    whose sum is *not* 1 (each then re-summed by :meth:`Mechanism.row_sum` for
    the error message).  Every value is ``N_c / D`` with the same ``D``; the
    exponents are integer multiples of ``1/L`` of one atom; coefficients are
    scaled to integers.  A row sums to 1 iff the collected numerator equals
    ``D`` term by term (Lindemann--Weierstrass: collected coefficients decide).
    Integer accumulation is exact (int64, with an overflow bound checked first).
    """
    from math import lcm

    vals = mech.values
    if not vals or not all(isinstance(v, ExpFrac) for v in vals):
        return None
    den = vals[0].den
    dkey = tuple(sorted((k.terms, q) for k, q in den.items()))
    atom = None
    L, C = 1, 1
    for v in vals:
        if v.den is not den and tuple(sorted((k.terms, q) for k, q in v.den.items())) != dkey:
            return None
    for p in [den] + [v.num for v in vals]:
        for k, q in p.items():
            if k.terms:
                sa = k.single_atom()
                if sa is None or (atom is not None and sa[0] != atom):
                    return None
                atom = sa[0]
                L = lcm(L, int(sa[1].q))
            C = lcm(C, int(fmpq(q).q))
    def ekey(k):
        return int(k.terms[0][1] * L) if k.terms else 0
    T = max(len(v.num) for v in vals)
    V = len(vals)
    E = np.zeros((V, max(T, 1)), dtype=np.int64)
    Q = np.zeros((V, max(T, 1)), dtype=np.int64)
    bound = 2**62 // max(len(mech.outputs) * max(T, 1), 1)
    for c, v in enumerate(vals):
        for t, (k, q) in enumerate(v.num.items()):
            qi, ei = int(fmpq(q) * C), ekey(k)
            if abs(qi) >= bound or abs(ei) >= 2**40:  # beyond int64 work: the exact per-row sums decide
                return None
            E[c, t], Q[c, t] = ei, qi
    dterms = [(ekey(k), int(fmpq(q) * C)) for k, q in den.items()]
    lo = min(int(E.min()), min(e for e, _ in dterms))
    hi = max(int(E.max()), max(e for e, _ in dterms))
    K = hi - lo + 1
    n = len(mech.inputs)
    if n * K > 50_000_000:
        return None
    acc = np.zeros(n * K, dtype=np.int64)
    rows = np.arange(n, dtype=np.int64)[:, None, None]
    idx = rows * K + (E[mech.codes] - lo)
    np.add.at(acc, idx.ravel(), Q[mech.codes].ravel())
    target = np.zeros(K, dtype=np.int64)
    for e, q in dterms:
        target[e - lo] += q
    bad = np.nonzero((acc.reshape(n, K) != target[None, :]).any(axis=1))[0]
    return bad.tolist()


def _histogram_representatives(mech):
    """The first row of each distinct histogram of codes (ascending), or ``None`` when the table would be large.

    A row's sum depends only on how often each distinct value occurs in it, so rows with the same histogram
    have the same sum: checking the first row of each histogram checks every row, and the first failing
    representative is the first failing row (a randomized response has one histogram for all its rows).
    """
    n = mech.codes.shape[0]
    V = len(mech.values)
    if n * V > 4_000_000:
        return None
    if V <= 16:  # a few values (randomized response: two): one comparison pass per value
        counts = np.stack([np.count_nonzero(mech.codes == c, axis=1) for c in range(V)], axis=1)
    else:
        cells = (mech.codes.astype(np.int64) + (np.arange(n, dtype=np.int64) * V)[:, None]).ravel()
        counts = np.bincount(cells, minlength=n * V).reshape(n, V)
    _, first = np.unique(counts, axis=0, return_index=True)
    return sorted(first.tolist())


def rational_power_of(q: fmpq, e: fmpq) -> fmpq | None:
    """Return ``q^e`` for a rational ``q > 0`` and a rational exponent when it is rational, else ``None``.

    ``q^(a/b)`` (``a/b`` reduced, ``q = n/d`` reduced) is rational exactly when ``n`` and ``d`` are perfect
    ``b``-th powers (unique factorisation), so the test is two exact integer roots, no float.

    Parameters
    ----------
    q : fmpq
        The base, ``> 0``.
    e : fmpq
        The exponent.

    Returns
    -------
    fmpq or None
        The exact power, or ``None`` when it is irrational.

    Examples
    --------
    >>> from flint import fmpq
    >>> rational_power_of(fmpq(1, 4), fmpq(1, 2)), rational_power_of(fmpq(8, 27), fmpq(-2, 3))
    (1/2, 9/4)
    >>> print(rational_power_of(fmpq(2), fmpq(1, 2)), rational_power_of(fmpq(4, 3), fmpq(1, 2)))
    None None
    """
    a, b = int(e.p), int(e.q)
    roots = []
    for n in (int(q.p), int(q.q)):
        r = _int_root(n, b)
        if r is None:
            return None
        roots.append(r)
    base = fmpq(roots[0], roots[1])
    return base ** a if a >= 0 else 1 / base ** (-a)


def _int_root(n: int, b: int) -> int | None:
    """The exact integer ``b``-th root of ``n >= 1``, or ``None``."""
    if b == 1:
        return n
    if n.bit_length() > 100_000:           # a root of a number this large is not tried (stays irrational here)
        return None
    r = _newton_root(n, b)
    return r if r ** b == n else None


def _newton_root(n: int, b: int) -> int:
    """``floor(n^(1/b))`` by integer Newton iteration (exact)."""
    x = 1 << ((n.bit_length() + b - 1) // b)
    while True:
        y = ((b - 1) * x + n // x ** (b - 1)) // b
        if y >= x:
            return x
        x = y


def _at_rational_alpha(v: ExpFrac, alpha: fmpq):
    def ev(p):
        s = fmpq(0)
        for k, c in p.items():
            e = -k.eps_coefficient()  # exp(c eps) = alpha^(-c)
            if k.without_eps().terms:
                raise UnsupportedRegime(f"exp({k}) is transcendental at a rational alpha")
            if e.q != 1:
                # a fractional power of a rational alpha may still be rational: alpha = 1/4, e = 1/2 (issue 29)
                w = rational_power_of(alpha, e)
                if w is None:
                    raise UnsupportedRegime(f"alpha^({e}) is irrational at alpha = {alpha}")
                s += c * w
                continue
            s += c * alpha ** int(e.p)
        return s
    return ev(v.num) / ev(v.den)


def _codes_of_distinct(flat, n, m, interner, setting, allow_float, inputs, outputs):
    """The code matrix of ``n x m`` entries given row by row in ``flat`` (str and int only).

    Each distinct entry is parsed once, in the order of its first occurrence (row by row, as the cell-by-cell
    loop of :meth:`Mechanism.from_rows` does, so the values and codes are the same); the codes are then one
    dictionary look-up per cell in C (``map``), with no Python loop over the cells.
    """
    distinct = list(dict.fromkeys(flat))
    code_of = {}
    for t in distinct:
        try:
            code_of[t] = interner.code(_fast_entry(t, setting, allow_float, "entry"))
        except ExactDPError:
            i, j = divmod(flat.index(t), m)  # the first cell holding it, named as the cell-by-cell loop names it
            _fast_entry(t, setting, allow_float, f"entry ({inputs[i]!r}, {outputs[j]!r})")
            raise
    return np.fromiter(map(code_of.__getitem__, flat), dtype=np.int32, count=n * m).reshape(n, m)


class _Interner:
    """Distinct exact values and their codes (structural keys: equal keys, equal values)."""

    def __init__(self) -> None:
        self.values: list = []
        self._keys: dict = {}

    def code(self, v) -> int:
        if isinstance(v, ExpFrac):
            r = v.rational()
            v = r if r is not None else v
        k = _value_key(v)
        c = self._keys.get(k)
        if c is None:
            c = len(self.values)
            self.values.append(v)
            self._keys[k] = c
        return c


def _from_values(inputs, outputs, rows, name, validate=True, provenance=""):
    interner = _Interner()
    codes = np.array([[interner.code(v) for v in row] for row in rows], dtype=np.int32).reshape(
        len(inputs), len(outputs))
    return Mechanism(inputs, outputs, codes, interner.values, name=name, validate=validate, provenance=provenance)


def mechanism_from_values(inputs, outputs, rows, *, name="mechanism", validate=True):
    """A mechanism from exact values already in the kernel's types (``fmpq``/``ExpFrac``).

    Parameters
    ----------
    inputs, outputs : iterable
        Row and column labels (compared as strings, unique).
    rows : sequence of sequences
        Exact values, ``len(inputs) x len(outputs)``.
    name : str, default "mechanism"
        A name for messages and proofs.
    validate : bool, default True
        Validate exactly now.

    Returns
    -------
    Mechanism
        The matrix, interned.

    Raises
    ------
    InvalidInput
        Rows of the wrong shape, no inputs or outputs, or a repeated label.
    NotStochastic
        With ``validate``: a negative entry or a row not summing to 1.

    Examples
    --------
    >>> from flint import fmpq
    >>> mechanism_from_values(["a"], ["0", "1"], [[fmpq(1, 3), fmpq(2, 3)]]).entry("a", "1")
    2/3
    """
    return _from_values(inputs, outputs, rows, name, validate)

