"""The Traces tab: the background writer's trace dumps, listed and opened in full."""

from memtab.gui.traces.tab import TracesTab

__all__ = ["TracesTab"]
