"""GRS12: users of a count query and the universal optimality of the geometric mechanism (kind ``optimality``).

:mod:`.users` (a prior and a monotone loss), :mod:`.remaps` (optimal Bayes remaps), :mod:`.universal` (the
user's LP, the privacy LP and the certified statement that the geometric mechanism followed by the user's remap is
optimal); :mod:`.evidence` holds the record and the worked proof.  A topic package (docs/architecture.md#sec-layers).
"""
