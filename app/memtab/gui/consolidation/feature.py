"""Consolidation as the window builds it: the Memory tab's footer (`ConsolidationFooter`).
The engine's lazy tasks (`lazy.LazyConsolidationTasks`) are the first paint's.
"""

from __future__ import annotations

from memtab.gui.consolidation.footer import ConsolidationFooter

__all__ = ["ConsolidationFooter"]
