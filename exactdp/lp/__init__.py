"""Exact LP optima and infeasibility, certified (kinds ``lp``, ``infeasible``).

:mod:`.optimum` turns an exact LP solution of :mod:`exactdp.exact` into a certificate: the optimum by its dual
(feasibility of both and a zero gap), infeasibility by a Farkas combination; :mod:`.evidence` holds the records
and the worked proofs.  A topic package (docs/architecture.md#sec-layers).
"""
