"""Re-check a certificate from its JSON alone (docs/architecture.md#sec-recheck-kernel: the de Bruijn criterion).

:func:`recheck` reads a certificate's JSON -- a dict, JSON text, or the path
of a file -- and re-derives its verdict with a small kernel of its own
(:mod:`exactdp.recheck._kernel`: Python :mod:`fractions`, an
exponential-polynomial identity test, :mod:`mpmath` intervals and Bernstein
bounds).  This package imports nothing else from exactdp (an import-linter
contract in ``pyproject.toml`` enforces it, in the test suite), so a bug in a
checker cannot vouch for itself.

The JSON is read strictly first (:mod:`exactdp.recheck._schema`): a repeated
key, a verdict other than holds / fails / undecided, or a missing, unknown or
mistyped field is refused (``ValueError("not a certificate: ...")``, exit 2)
before any work.  The answer is a :class:`RecheckResult`: ``confirmed`` (the
evidence proves the verdict and the claim sentence is the one its checked
fields state), ``refuted`` (it does not: a bug to report) or ``not checkable``
(with the mathematical reason, e.g. an undecided verdict has nothing to
confirm, or ``too large (...)`` beyond the kernel's stated work limits).  The
per-kind contract is ``docs/recheck.md``.

>>> import json
>>> from exactdp import geometric, path, certify_privacy
>>> text = json.dumps(certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2").to_json())
>>> r = recheck(text)
>>> r.status, r.ok
('confirmed', True)
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any

from ._kernel import NotHere, TooLarge, readable_ints
from ._labels import names_note
from ._schema import METHODS, TOP, VERDICTS, conform, loads_strict, refuse_control

__all__ = ["KINDS", "VERSIONS", "RecheckResult", "recheck"]

def _discover() -> dict:
    """Certificate kind -> the kind module of this package that re-checks it.

    A kind module is a module of this package whose name has no leading underscore (the underscored ones are
    the core judgements the kinds share); the kinds it re-checks are the keys of its ``EVIDENCE`` table (the
    shape of each kind's evidence, which the strict reader holds the certificate to).  Adding a kind is adding
    its module: nothing else in the kernel repeats its name.
    """
    import pkgutil

    out: dict = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        for kind in getattr(mod, "EVIDENCE", {}):
            if kind in out:     # two modules claiming one kind would make the re-check depend on import order
                raise ImportError(f"kind {kind!r} is re-checked by both {out[kind]} and {info.name}")
            out[kind] = info.name
    return out


_KINDS: dict = {}


def __getattr__(name: str):
    """``KINDS`` (certificate kind -> kind module), found on first use: ``import exactdp`` loads no kind module."""
    if name == "KINDS":
        if not _KINDS:
            _KINDS.update(_discover())
        return dict(_KINDS)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: why a schema-1 certificate is not re-checked (a kind module may give its own reason as ``V1``)
_V1_REASON = ("its evidence lacks what the schema-2 re-check derives the verdict from (the metric's definition, "
              "typed witness records); it is never confirmed on trust: re-run the checker for a schema-2 certificate")

#: schema versions read (a kind module may answer a version-1 certificate ``not checkable``, see ``V1``)
VERSIONS = (1, 2)

#: largest certificate file read (bytes)
MAX_BYTES = 512 * 2**20


@dataclass
class RecheckResult:
    """The answer of :func:`recheck`: ``confirmed``, ``refuted`` or ``not checkable``.

    Parameters
    ----------
    status : str
        ``"confirmed"`` (the evidence proves the verdict), ``"refuted"`` (it
        does not: a bug to report) or ``"not checkable"`` (with the reason).
    checked : int
        How many facts (constraints, entries, pairs) were re-derived.
    detail : str
        What was checked, or why it was refuted or not checkable.

    Examples
    --------
    >>> r = RecheckResult("refuted", 3, "constraint 2 fails")
    >>> r.ok, r.exit_code, bool(r)
    (False, 1, False)
    """

    status: str
    checked: int
    detail: str

    @property
    def ok(self) -> bool | None:
        """``True`` confirmed, ``False`` refuted, ``None`` not checkable.

        Examples
        --------
        >>> RecheckResult("not checkable", 0, "undecided").ok is None
        True
        """
        return {"confirmed": True, "refuted": False}.get(self.status)

    def __bool__(self):
        """A result is true only when ``confirmed`` (refuted and not checkable are both false)."""
        return self.status == "confirmed"

    @property
    def exit_code(self) -> int:
        """The command line's exit code: 0 confirmed, 1 refuted, 3 not checkable.

        Examples
        --------
        >>> RecheckResult("confirmed", 5, "").exit_code
        0
        """
        return {"confirmed": 0, "refuted": 1}.get(self.status, 3)


def _load(cert) -> dict:
    """The certificate's JSON, read strictly (``ValueError("not a certificate: ...")`` otherwise)."""
    if hasattr(cert, "to_json") and not isinstance(cert, (str, bytes, dict)):
        cert = cert.to_json()
    if isinstance(cert, (bytes, os.PathLike)) or (isinstance(cert, str) and not cert.lstrip().startswith("{")):
        path = os.fsdecode(cert)
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ValueError(f"certificate file {path!r} is larger than {MAX_BYTES} bytes")
        cert = raw.decode("utf-8")
    if isinstance(cert, str):
        cert = loads_strict(cert)
    if not isinstance(cert, dict) or cert.get("schema") != "exactdp-certificate":
        raise ValueError('not an exactdp certificate (expected "schema": "exactdp-certificate")')
    if type(cert.get("version")) is not int or cert["version"] not in VERSIONS:
        raise ValueError(f"certificate schema version {cert.get('version')!r}; this re-check reads versions "
                         f"{', '.join(map(str, VERSIONS))}")
    conform(cert, TOP, "certificate")
    # issue 27: no text field may print a line (or reorder one) of its own; a program's source is lines by nature
    # and is never rendered (the kind program re-derives everything from it)
    refuse_control(cert, multiline=frozenset({"certificate.evidence.text"}) if cert.get("kind") == "program"
                   else frozenset())
    if cert["verdict"] not in VERDICTS:
        raise ValueError(f"not a certificate: the verdict {cert['verdict']!r} is not one of {', '.join(VERDICTS)}")
    if cert["method"] not in METHODS:
        raise ValueError(f"not a certificate: the method {cert['method']!r} is not one of {', '.join(METHODS)}")
    if (cert["verdict"] == "undecided") != (cert["reason"] is not None):
        raise ValueError("not a certificate: a reason is given exactly when the verdict is undecided")
    return cert


def recheck(cert: Any) -> RecheckResult:
    """Re-derive a certificate's verdict from its JSON (dict, text, file path, or an object with ``to_json``).

    The independent kernel of docs/architecture.md#sec-certificates (the de Bruijn criterion):
    each kind's ``check`` re-derives the paper's statement from the evidence
    alone (e.g. ECP14 Def. 1 constraints for ``privacy``, the LP dual of
    GRS12 Thm 3.1 for ``optimality``).

    Parameters
    ----------
    cert : dict or str or os.PathLike or Certificate
        The certificate JSON as a dict, JSON text, the path of a file, or an
        object with ``to_json()``.

    Returns
    -------
    RecheckResult
        ``confirmed``, ``refuted`` (also for malformed evidence) or ``not
        checkable`` (an undecided verdict, an unknown kind, or a question
        outside this kernel), with what was checked.

    Raises
    ------
    ValueError
        When the input is not a certificate (``not a certificate: ...``): wrong schema or version, not JSON,
        a repeated key, a verdict other than holds / fails / undecided, a missing, unknown or mistyped
        top-level field, or (for kinds that state their evidence's shape) evidence field.  Checked before
        any work; the command line answers exit 2.
    OSError
        When a file cannot be read.

    Examples
    --------
    >>> from exactdp import geometric, path, certify_privacy
    >>> cert = certify_privacy(geometric(2, "1/2"), path(3), alpha="1/2").to_json()
    >>> recheck(cert).status
    'confirmed'
    >>> cert["evidence"]["mechanism"]["values"][0] = "1/2"   # tampered: K(0)(0) = 2/3 becomes 1/2
    >>> recheck(cert).ok
    False
    >>> recheck({"schema": "something else"})
    Traceback (most recent call last):
    ...
    ValueError: not an exactdp certificate (expected "schema": "exactdp-certificate")
    """
    c = _load(cert)
    kind = c["kind"]
    kinds = __getattr__("KINDS")
    if kind not in kinds:
        return RecheckResult("not checkable", 0, f"no re-check for certificate kind {kind!r}")
    mod = importlib.import_module(f"{__name__}.{kinds[kind]}")
    spec = getattr(mod, "EVIDENCE", None) if c["version"] >= 2 else getattr(mod, "EVIDENCE_V1", None)
    if isinstance(spec, dict) and kind in spec:                  # EVIDENCE = {kind: shape, ...}
        conform(c["evidence"], spec[kind], "evidence")
    if c["verdict"] == "undecided":
        return RecheckResult("not checkable", 0, "an undecided certificate asserts no verdict; reason given: "
                             + str(c.get("reason")))
    if c["version"] == 1:
        return RecheckResult("not checkable", 0, f"schema-1 {kind} certificate: {getattr(mod, 'V1', _V1_REASON)}")
    try:
        with readable_ints():                # numbers up to the stated 2^20 bits (issue 27)
            return _checked(c, mod)
    except TooLarge as e:
        return RecheckResult("not checkable", 0, f"too large ({e})")
    except NotHere as e:
        return RecheckResult("not checkable", 0, f"outside this kernel: {e}")
    except (KeyError, TypeError, IndexError, ValueError, ArithmeticError, AttributeError) as e:
        # malformed evidence, including numbers that divide by zero or overflow a float conversion
        return RecheckResult("refuted", 0, f"malformed evidence ({type(e).__name__}: {e})")
    except RecursionError:
        return RecheckResult("not checkable", 0, "too large (nesting beyond the interpreter's recursion limit)")


def _checked(c: dict, mod) -> RecheckResult:
    """The kind's claim, method and check (exceptions are answered by :func:`recheck`)."""
    claim = mod.claim_text(c)
    if c["claim"] != claim:
        return RecheckResult("refuted", 0, f"the claim {c['claim'][:200]!r} is not the one the checked "
                             f"fields state: {claim[:200]!r}")
    want = getattr(mod, "method_of", None)
    want = want(c) if callable(want) else None
    if want is not None and (c["method"], c["precision"]) != (want, None):
        return RecheckResult("refuted", 0, f"the method {c['method']!r} (precision {c['precision']}) is not "
                             f"{want!r}, the one the checked numbers call for")
    status, n, detail = mod.check(c)
    if status == "confirmed":
        # every kind: a mechanism name in a builder's form is a claim about its matrix (refuted otherwise), any
        # other name a label the detail says it is (issue 27; an outside forger had kinds confirm a false name)
        try:
            note = names_note(c["evidence"])
        except ValueError as e:
            return RecheckResult("refuted", n, str(e))
        if note and note.lstrip("; ") not in detail:
            detail += note
    return RecheckResult(status, n, detail)
