"""Privacy-loss distributions, exact (eps, delta) profiles and composition.

:mod:`.profile` (the exact profile of a mechanism), :mod:`.composition` (privacy-loss distributions, composition and
the profile and composition certificates), :mod:`.lattice` (composition on the privacy-loss lattice by polynomial
powers, at accountant scale), :mod:`._expfield` (exact arithmetic in Q(e^(b/L))); :mod:`.evidence` holds the records
and worked proofs of the kinds ``profile``, ``composition`` and ``lattice_composition``.  A topic package
(docs/architecture.md#sec-layers).
"""
