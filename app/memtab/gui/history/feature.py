"""History as the window builds it: the hub (`HistoryHub`) — the History panel, Runs…,
Recently deleted, and what other programs change recorded.
"""

from __future__ import annotations

from memtab.gui.history.hub import HistoryHub

__all__ = ["HistoryHub"]
