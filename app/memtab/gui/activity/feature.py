"""The activity feature as the window builds it: the "agent edited" badges (`EditMarks`) and
whether mux runs (`MuxPresence`). The watcher (`watch.HomeWatcher`) is the first paint's.
"""

from __future__ import annotations

from memtab.gui.activity.edit_marks import EditMarks
from memtab.gui.activity.mux_presence import MuxPresence

__all__ = ["EditMarks", "MuxPresence"]
