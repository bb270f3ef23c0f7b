"""Paper claims: registry, reproduction and generated proofs (a layer of docs/architecture.md#sec-layers)."""

from .registry import Claim, ClaimResult, claims, get_claim, run_claim
from .proofs import render_proofs, write_proofs

__all__ = ["Claim", "ClaimResult", "claims", "get_claim", "render_proofs", "run_claim", "write_proofs"]
