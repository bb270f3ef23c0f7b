"""The kinds ``profile`` and ``composition``: the exact privacy profile of mechanisms run k times.

The judgement is the core module :mod:`exactdp.recheck._pld` (privacy-loss distributions, their exact
convolution and the upper envelope of ``delta``), shared with the ``renyi``, ``fdp`` and ``audit`` kinds, since
no kind module imports another; this module is the kind's entry in :data:`exactdp.recheck.KINDS`.  The contract
is in ``docs/recheck.md``.
"""

from ._pld import EVIDENCE, check, claim_text, method_of

__all__ = ["EVIDENCE", "check", "claim_text", "method_of"]
