"""Float accountants read exactly and audited: dp_accounting, OpenDP (kind ``audit``).

:mod:`.accountants` (dp_accounting's event trees and OpenDP's measurements as exact mechanisms, their answers
compared with the exact ones, modelling claims checked), :mod:`.audit` (an accountant's numbers against the exact
profile); :mod:`.evidence` holds the record and the worked proof.  A topic package
(docs/architecture.md#sec-layers).
"""
