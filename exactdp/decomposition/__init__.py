"""HLM15 Lemmas 1-2 (set decomposition), checked exhaustively (kind ``decomposition``).

:mod:`.lemmas` enumerates every collection of rectangles on small universes; :mod:`.evidence` holds the record
and the worked proof.  A topic package (docs/architecture.md#sec-layers).
"""
