"""The certificate: verdict, method, typed evidence (docs/architecture.md#sec-certificates).

One encoding of the three verdicts everywhere: :class:`Verdict`.  Its
``UNDECIDED`` member refuses to act as a boolean, so an undecided answer can
never be mistaken for ``False``:

>>> bool(Verdict.HOLDS), bool(Verdict.FAILS)
(True, False)
>>> bool(Verdict.UNDECIDED)
Traceback (most recent call last):
...
TypeError: an undecided verdict has no truth value; compare with `is UNDECIDED`

A :class:`Certificate` is data: ``to_json`` / ``from_json`` round-trip it
exactly, and the JSON carries the schema name and version
(``schema/certificate.schema.json`` in the repository).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Generic, TypeVar

from ..verdict import Verdict
from .records import Evidence, evidence_from_json

if TYPE_CHECKING:
    from ..recheck import RecheckResult
    from .render import Proof

__all__ = ["SCHEMA", "SCHEMA_VERSION", "UNDECIDED", "Certificate", "Method", "Verdict"]

SCHEMA = "exactdp-certificate"
SCHEMA_VERSION = 2


#: the third verdict: no exact regime decides the question
UNDECIDED = Verdict.UNDECIDED

#: the evidence record type of a certificate: ``Certificate[PrivacyEvidence]`` has ``.evidence.epsilon``
E = TypeVar("E", bound=Evidence, covariant=True)


class Method(str, Enum):
    """What a verdict rests on (docs/architecture.md#sec-kernel); a precision in bits goes with the ball methods.

    Attributes
    ----------
    RATIONAL, TRANSCENDENCE_BALLS, SYMBOLIC_ROOTS : Method
        The three exact regimes of docs/architecture.md#sec-kernel.
    EXACT_LP, EXACT_SOLVE, BALL_SOLVE, VERIFIED_FLOAT : Method
        Exact or certified linear algebra (LP with its dual, solves).
    ENUMERATION, CLOSED_FORM : Method
        Exhaustive exact enumeration; a proved closed form (e.g. ECP14 Prop. 9).
    NONE : Method
        No exact regime applies (the verdict is undecided).

    Examples
    --------
    >>> str(Method.EXACT_LP), Method["RATIONAL"] is Method.RATIONAL
    ('exact LP with dual certificate', True)
    """

    RATIONAL = "exact rational arithmetic"
    TRANSCENDENCE_BALLS = "exact zero test (Lindemann-Weierstrass) and certified balls"
    SYMBOLIC_ROOTS = "symbolic alpha: exact identity tests and real-root isolation"
    EXACT_LP = "exact LP with dual certificate"
    EXACT_SOLVE = "exact linear solve"
    BALL_SOLVE = "certified ball (Arb) solve"
    VERIFIED_FLOAT = "verified floating-point solve with rigorous error bound"
    ENUMERATION = "exhaustive exact enumeration"
    CLOSED_FORM = "exact closed form"
    NONE = "no exact regime applies"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def of(cls, level=None, *mechs, values=(), exact_route: bool = True) -> Method:
        """The method a certificate at ``level`` about ``mechs`` names (docs/architecture.md#sec-method-rule).

        The one method rule of :class:`exactdp.exact.domain.Domain`.

        Parameters
        ----------
        level : Level or None
            The privacy level, if the question has one.
        *mechs : Mechanism
            The mechanisms whose entries the verdict compares.
        values : iterable of exact numbers, optional
            Further numbers the verdict rests on.
        exact_route : bool, default True
            False when the checker's route decided in certified balls.

        Returns
        -------
        Method
            ``RATIONAL`` or ``TRANSCENDENCE_BALLS``.

        Examples
        --------
        >>> from exactdp.exact import Level
        >>> from exactdp.mechanisms import randomized_response
        >>> Method.of(Level.from_eps("log(2)/3"), randomized_response(2, p="1/4")).name
        'RATIONAL'
        """
        from ..exact.domain import Domain
        return cls[Domain.of(level, *mechs, values=values, exact_route=exact_route).method]


@dataclass
class Certificate(Generic[E]):
    """The result of a checker: what was asked, the verdict, what it rests on, and the evidence.

    Parameters
    ----------
    kind : str
        The certificate kind; equals ``evidence.kind``.
    verdict : Verdict or bool
        Holds / fails / undecided (``True``/``False`` are converted).
    method : Method
        What the verdict rests on.
    claim : str
        What was asked, one line in words.
    evidence : Evidence
        The typed record of this kind (the type parameter ``E`` of ``Certificate[E]``): exact text and
        numbers only.
    reason : str or None
        Why the verdict is undecided (required then, absent otherwise).
    precision : int or None
        Ball precision in bits, where the method used balls.
    note : str
        How the method ran (e.g. how many comparisons the float filter settled).

    Raises
    ------
    TypeError
        A verdict that is not a bool or Verdict, a method that is not a
        :class:`Method`, or evidence that is not this kind's record.
    ValueError
        A reason without an undecided verdict, or an undecided verdict
        without a reason.

    Examples
    --------
    >>> from exactdp import geometric, path, certify_privacy
    >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
    >>> c.kind, c.verdict, c.method.name, c.evidence.epsilon
    ('privacy', <Verdict.HOLDS: 'holds'>, 'RATIONAL', 'log(2)')
    >>> Certificate.from_json(c.to_json()) == c
    True
    """

    kind: str
    verdict: Verdict
    method: Method
    claim: str
    evidence: E
    reason: str | None = None
    precision: int | None = None
    note: str = ""

    if TYPE_CHECKING:  # the generated __init__ also takes True/False for the verdict (``Verdict.of``)
        def __init__(self, kind: str, verdict: Verdict | bool, method: Method, claim: str, evidence: E,
                     reason: str | None = None, precision: int | None = None, note: str = "") -> None: ...

    def __post_init__(self) -> None:
        self.verdict = Verdict.of(self.verdict)
        if not isinstance(self.method, Method):
            raise TypeError(f"certificate: method must be a Method, got {self.method!r}")
        if not isinstance(self.evidence, Evidence) or self.evidence.kind != self.kind:
            raise TypeError(f"certificate of kind {self.kind!r} needs that kind's Evidence record, "
                            f"got {type(self.evidence).__name__}")
        if (self.verdict is UNDECIDED) != (self.reason is not None):
            raise ValueError("certificate: a reason is given exactly when the verdict is undecided")

    # -- the verdict -------------------------------------------------------------------------------------------
    @property
    def holds(self) -> bool | Verdict:
        """``True``, ``False`` or :data:`UNDECIDED`.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> c.holds
        True
        """
        return UNDECIDED if self.verdict is UNDECIDED else self.verdict is Verdict.HOLDS

    # -- data ----------------------------------------------------------------------------------------------------
    def to_json(self) -> dict:
        """Return the certificate as JSON data; :meth:`from_json` rebuilds it exactly.

        Returns
        -------
        dict
            ``schema``, ``version``, ``kind``, ``verdict``, ``method``,
            ``precision``, ``claim``, ``reason``, ``note`` and ``evidence``
            (exact text and numbers only), as ``schema/certificate.schema.json``
            documents.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> d = c.to_json()
        >>> d["schema"], d["version"], d["verdict"], d["evidence"]["epsilon"]
        ('exactdp-certificate', 2, 'holds', 'log(2)')
        """
        return {"schema": SCHEMA, "version": SCHEMA_VERSION, "kind": self.kind, "verdict": self.verdict.value,
                "method": self.method.name, "precision": self.precision, "claim": self.claim,
                "reason": self.reason, "note": self.note, "evidence": self.evidence.to_json()}

    def to_json_str(self) -> str:
        """Return :meth:`to_json` as indented JSON text (what ``--format json`` prints).

        Returns
        -------
        str
            JSON text, indented by 2.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> Certificate.from_json(c.to_json_str()) == c
        True
        """
        return json.dumps(self.to_json(), indent=2)

    @classmethod
    def from_json(cls: type[Certificate[Evidence]], data: dict | str) -> Certificate[Evidence]:
        """Rebuild a certificate from :meth:`to_json` output (a dict or JSON text).

        Parameters
        ----------
        data : dict or str
            The certificate's JSON.

        Returns
        -------
        Certificate
            Equal to the one dumped.

        Raises
        ------
        ValueError
            Not an exactdp certificate, another schema version, invalid JSON,
            or evidence fields that do not match the kind's schema.
        KeyError
            A missing top-level field or an unknown method name.

        Examples
        --------
        >>> Certificate.from_json({"schema": "exactdp-certificate", "version": 1})
        Traceback (most recent call last):
        ...
        ValueError: certificate schema version 1; this exactdp reads version 2 (a schema-1 file is still
        re-checked by exactdp recheck)
        """
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ValueError(f"not an exactdp certificate (expected \"schema\": \"{SCHEMA}\")")
        if data.get("version") != SCHEMA_VERSION:
            raise ValueError(f"certificate schema version {data.get('version')!r}; this exactdp reads "
                             f"version {SCHEMA_VERSION}" + (" (a schema-1 file is still re-checked by exactdp recheck)"
                                                            if data.get("version") == 1 else ""))
        return cls(kind=data["kind"], verdict=Verdict(data["verdict"]), method=Method[data["method"]],
                   claim=data["claim"], evidence=evidence_from_json(data["kind"], data["evidence"]),
                   reason=data["reason"], precision=data["precision"], note=data["note"])

    # -- rendering (from the evidence alone) ---------------------------------------------------------------------
    def proof(self) -> Proof:
        """Return the worked proof (:class:`~exactdp.certificate.render.Proof`) built from the evidence.

        Returns
        -------
        Proof
            Claim, steps, conclusion, summary; nothing recomputed.

        Raises
        ------
        LookupError
            No renderer is registered for this kind.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> p = c.proof()
        >>> p.steps[0].title, p.conclusion
        ('Definition', 'The mechanism is eps*d-private at eps = log(2).')
        """
        from .render import proof_of

        return proof_of(self)

    def to_text(self) -> str:
        """Return the certificate as plain text: claim, verdict, method and the proof's summary lines.

        Returns
        -------
        str
            Plain words and exact numbers, no LaTeX.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> print(c.to_text().splitlines()[1])
        verdict: holds
        """
        from .render import as_text

        return as_text(self)

    def to_markdown(self) -> str:
        """Return the worked proof in Markdown (``$...$`` math), as in ``proofs/``.

        Returns
        -------
        str
            Claim, verdict, method, the numbered proof steps and conclusion.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> c.to_markdown().splitlines()[0]
        '**Claim.** geometric(n=2) is eps*d-private with eps = log(2) on the path on 3 points (d(i, j) = |i - j|)'
        """
        from .render import as_markdown

        return as_markdown(self)

    def to_latex(self) -> str:
        """Return the worked proof in LaTeX (a fragment: paragraphs and display math).

        Returns
        -------
        str
            LaTeX text.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> print(c.to_latex().splitlines()[3])
        \\paragraph{Verdict.} holds.
        """
        from .render import as_latex

        return as_latex(self)

    def render(self, fmt: str) -> str:
        """Return the certificate in the format ``fmt`` (the command line's ``--format``).

        Parameters
        ----------
        fmt : {"text", "json", "markdown", "latex"}
            The output format.

        Returns
        -------
        str
            :meth:`to_text`, :meth:`to_json_str` (with a final newline),
            :meth:`to_markdown` or :meth:`to_latex`.

        Raises
        ------
        KeyError
            Another format.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> c.render("text") == c.to_text()
        True
        """
        if fmt == "json":
            return self.to_json_str() + "\n"
        return {"text": self.to_text, "markdown": self.to_markdown, "latex": self.to_latex}[fmt]()

    def to_html(self) -> str:
        """Return the worked proof as an HTML fragment (escaped; ``$...$`` math left for MathJax).

        Returns
        -------
        str
            The notebook view, a ``<div class="exactdp-certificate">``.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> c.to_html().splitlines()[0]
        '<div class="exactdp-certificate">'
        """
        from .render import as_html

        return as_html(self)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def _repr_html_(self) -> str:
        return self.to_html()

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def __str__(self) -> str:
        return self.to_text()

    # -- re-check --------------------------------------------------------------------------------------------------
    def recheck(self) -> RecheckResult:
        """Re-verify this certificate from its JSON alone in the independent kernel :mod:`exactdp.recheck`.

        Returns
        -------
        RecheckResult
            ``confirmed``, ``refuted`` or ``not checkable`` with the reason.

        Examples
        --------
        >>> from exactdp import geometric, path, certify_privacy
        >>> c = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2")
        >>> c.recheck().status
        'confirmed'
        """
        from ..recheck import recheck

        return recheck(self.to_json())
