"""BCSZ18: extending a mechanism from a subset of the metric, and the best extension.

:mod:`.extension` (the 2 eps inf-construction and its certificate), :mod:`.best` (the best extension, bracketed by
an exact LP); :mod:`.evidence` holds the records and worked proofs of the kinds ``extension`` and
``best_extension``.  A topic package (docs/architecture.md#sec-layers).
"""
