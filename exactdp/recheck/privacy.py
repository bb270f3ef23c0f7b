"""The kinds ``privacy`` and ``epsilon``: eps*d-privacy of a carried mechanism on a carried metric.

The judgement itself is the core module :mod:`exactdp.recheck._dprivacy` (the utility kind re-checks the
smallest eps it carries with the same judgement, and no kind module imports another); this module is the
kind's entry in :data:`exactdp.recheck.KINDS`.  The contract is in ``docs/recheck.md``.
"""

from ._dprivacy import EVIDENCE, V1, check, claim_text

__all__ = ["EVIDENCE", "V1", "check", "claim_text"]
