"""Dense items for Japanese and Portuguese tuned-on sessions first labelled sparsely
(2026-11-23, "h28"): each session read whole again, the way the measured part was labelled
(tests/quality/gold.py's header), and everything written down that the person whose memory
it is would want their agent to know next time, without looking at the offline writer's
notes on it. The items are added to the session's earlier ones (corpus.py
`_with_dense_items`); none is removed.

Each row: the transcript's file name (as in corpus.py) and its new items (fragments one note
must all contain; `a|b` is met by either spelling).
"""

from __future__ import annotations

DenseItems = tuple[str, tuple[tuple[str, ...], ...]]

DENSE_INTL_ITEMS: tuple[DenseItems, ...] = ()
