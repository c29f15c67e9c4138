"""Consolidation as the window builds it: the Memory tab's footer (`ConsolidationFooter`)
and the engine's tasks, loaded on first use (`LazyConsolidationTasks`).
"""

from __future__ import annotations

from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.lazy import LazyConsolidationTasks

__all__ = ["ConsolidationFooter", "LazyConsolidationTasks"]
