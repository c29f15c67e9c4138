"""The Traces tab as the window builds it, when first shown (`TracesTab`)."""

from __future__ import annotations

from memtab.gui.traces.tab import TracesTab

__all__ = ["TracesTab"]
