"""ECP14: the matrix Phi, regular priors, tight constraints, thresholds and leakage.

:mod:`.phi` (Phi and its solves), :mod:`.regular` (regular priors, tight-constraints mechanisms), :mod:`.threshold`
(the exact threshold of eps), :mod:`.leakage`, :mod:`.theorem4`, :mod:`.sensitivity` (uniform Delta-sensitivity),
:mod:`.parametric` (a root of a polynomial from an LP's basis, shared with the tradeoff); :mod:`.evidence` holds the
records and worked proofs of the kinds ``regular``, ``tight``, ``threshold``, ``leakage`` and ``theorem4``.  A
topic package (docs/architecture.md#sec-layers).
"""
