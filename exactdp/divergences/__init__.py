"""Divergences: Rényi DP and f-DP, exactly (kinds ``renyi``, ``fdp``).

:mod:`.renyi` (Rényi divergences, curves and conversion to (eps, delta)), :mod:`.fdp` (trade-off functions,
Gaussian DP); :mod:`.evidence` holds the records and worked proofs.  A topic package
(docs/architecture.md#sec-layers).
"""
