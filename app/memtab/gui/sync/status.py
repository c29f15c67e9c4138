"""Sync's corner of the status bar: in sync / ↑2 ↓1 / syncing / offline / N conflicts.

    widget = SyncStatusWidget()
    window.add_status_widget(widget)
    sync.changed.connect(widget.show_look)            # SyncLook
    sync.busy_changed.connect(widget.set_syncing)
    widget.set_copies(3)                              # file-sync conflict copies shown
    widget.conflicts_requested.connect(open_conflicts)
    widget.sync_requested.connect(sync.sync_now)

"↑2 ↓1" counts files (not commits: a sync makes one per change): 2 changed here wait to
be sent, 1 changed on another machine waits to be brought in; the tooltip names them.
A click opens the conflicts when there are any, else syncs now. Hidden while the home
has no sync target and no conflict copies. Offline is a plain state, never a dialog: the
changes wait and the schedule retries (the tooltip says since when and git's words).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QToolButton, QWidget

from memtab.components.sync.status import SyncLine, SyncLook, sync_line
from memtab.fs.clock import now_ms


class SyncStatusWidget(QToolButton):
    """The status-bar button (see the module docstring).

    Signals:
        conflicts_requested(): open the conflicts (there are some).
        sync_requested(): sync now.
    """

    conflicts_requested = Signal()
    sync_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("syncStatus")
        self.setAutoRaise(True)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setAccessibleName("Sync")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._look = SyncLook()
        self._syncing = False
        self._copies = 0
        self._progress = ""
        self.line = SyncLine("", "", visible=False)
        self.clicked.connect(self._on_clicked)
        self.setVisible(False)

    @Slot(object)
    def show_look(self, look: SyncLook) -> None:
        self._look = look
        self._update()

    @Slot(bool)
    def set_syncing(self, syncing: bool) -> None:
        self._syncing = syncing
        self._progress = ""
        self._update()

    @Slot(str)
    def set_progress(self, line: str) -> None:
        """What the running sync does now (its tooltip, not the window's messages)."""
        self._progress = line
        self._update()

    def set_copies(self, copies: int) -> None:
        """How many file-sync conflict copies the Memory tab shows."""
        if copies != self._copies:
            self._copies = copies
            self._update()

    def _update(self) -> None:
        self.line = line = sync_line(
            self._look,
            syncing=self._syncing,
            copies=self._copies,
            now_ms=now_ms(),
            progress=self._progress,
        )
        self.setText(line.text)
        self.setToolTip(line.tooltip)
        self.setVisible(line.visible)

    @Slot()
    def _on_clicked(self) -> None:
        if self.line.conflicts:
            self.conflicts_requested.emit()
        else:
            self.sync_requested.emit()
