"""Utility and error: KL10's exponential mechanism and tradeoff, HLM15's expected errors, ECP14's grids.

:mod:`.utility` (the utility of a mechanism and the exponential mechanism's bound), :mod:`.tradeoff` (KL10's
privacy-utility tradeoff, exactly), :mod:`.accuracy` and :mod:`.approx_error` (HLM15's expected errors and their
lower bounds), :mod:`.grid` (ECP14's utility comparison on grids); :mod:`.evidence` holds the records and worked
proofs of the kinds ``utility``, ``exponential_bound``, ``tradeoff`` and ``utility_comparison``.  A topic package
(docs/architecture.md#sec-layers).
"""
