"""Re-check a certificate from its JSON alone (DESIGN.md section 4: the de Bruijn criterion).

:func:`recheck` reads a certificate's JSON -- a dict, JSON text, or the path
of a file -- and re-derives its verdict with a small kernel of its own
(:mod:`exactdp.recheck._kernel`: Python :mod:`fractions`, an
exponential-polynomial identity test, :mod:`mpmath` intervals and Bernstein
bounds).  This package imports nothing else from exactdp (an import-linter
contract in ``pyproject.toml`` enforces it, in the test suite), so a bug in a
checker cannot vouch for itself.

The answer is a :class:`RecheckResult`: ``confirmed`` (the evidence proves the
verdict), ``refuted`` (it does not: a bug to report) or ``not checkable``
(with the mathematical reason, e.g. an undecided verdict has nothing to
confirm).

>>> import json
>>> from exactdp import geometric, path, certify_privacy
>>> text = json.dumps(certify_privacy(geometric(3, "1/2"), path(4), alpha="1/2").to_json())
>>> r = recheck(text)
>>> r.status, r.ok
('confirmed', True)
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass
from typing import Any

from ._kernel import NotHere

__all__ = ["recheck", "RecheckResult", "KINDS"]

#: certificate kind -> module of this package holding its ``check(cert: dict)``
KINDS = {"privacy": "privacy", "epsilon": "privacy", "all_eps": "all_eps", "optimality": "optimality",
         "tight": "ecp14", "regular": "ecp14", "threshold": "ecp14", "leakage": "ecp14", "theorem4": "ecp14",
         "relation": "relation", "extension": "extension", "best_extension": "extension", "utility": "kl10",
         "exponential_bound": "kl10", "tradeoff": "kl10", "approx": "approx"}

#: largest certificate file read (bytes)
MAX_BYTES = 512 * 2**20


@dataclass
class RecheckResult:
    """``status`` is ``confirmed``, ``refuted`` or ``not checkable``; ``checked`` counts what was re-derived."""

    status: str
    checked: int
    detail: str

    @property
    def ok(self) -> bool | None:
        """``True`` confirmed, ``False`` refuted, ``None`` not checkable."""
        return {"confirmed": True, "refuted": False}.get(self.status)

    def __bool__(self):
        return self.status == "confirmed"

    @property
    def exit_code(self) -> int:
        """0 confirmed, 1 refuted, 3 not checkable."""
        return {"confirmed": 0, "refuted": 1}.get(self.status, 3)


def _load(cert) -> dict:
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
        cert = json.loads(cert)
    if not isinstance(cert, dict) or cert.get("schema") != "exactdp-certificate":
        raise ValueError('not an exactdp certificate (expected "schema": "exactdp-certificate")')
    if cert.get("version") != 1:
        raise ValueError(f"certificate schema version {cert.get('version')!r}; this re-check reads version 1")
    return cert


def recheck(cert: Any) -> RecheckResult:
    """Re-derive a certificate's verdict from its JSON (dict, text, file path, or an object with ``to_json``).

    Raises
    ------
    ValueError
        When the input is not an exactdp certificate (wrong schema or version, not JSON).
    OSError
        When a file cannot be read.
    """
    c = _load(cert)
    kind = c.get("kind")
    if kind not in KINDS:
        return RecheckResult("not checkable", 0, f"no re-check for certificate kind {kind!r}")
    if c.get("verdict") == "undecided":
        return RecheckResult("not checkable", 0, "an undecided certificate asserts no verdict; reason given: "
                             + str(c.get("reason")))
    mod = importlib.import_module(f"{__name__}.{KINDS[kind]}")
    try:
        status, n, detail = mod.check(c)
    except NotHere as e:
        return RecheckResult("not checkable", 0, f"outside this kernel: {e}")
    except (KeyError, TypeError, IndexError, ValueError) as e:
        return RecheckResult("refuted", 0, f"malformed evidence ({type(e).__name__}: {e})")
    return RecheckResult(status, n, detail)
