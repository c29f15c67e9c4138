"""The memory writer's corner of the status bar: what it is doing, a link to the trace of
a failed run, and a pause/resume toggle.

    widget = WriterStatusWidget()
    window.statusBar().addPermanentWidget(widget)
    widget.attach(supervisor)                      # status in, pause/resume out
    widget.trace_requested.connect(window._on_writer_status_trace_requested)  # Path

Without `attach`, feed it with `set_status(WriterStatus)` and listen to
`paused_changed(bool)`.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QWidget

from memtab.gui.tasks.writer import WriterActivity, WriterStatus, WriterSupervisor

TRACE_LINK = "memtab-writer-trace"
_DOT_COLORS = {
    "idle": "#8a8f98",
    "paused": "#c98a00",
    "running": "#2f7de1",
    "failed": "#d33a2c",
}


def status_text(status: WriterStatus) -> str:
    """The plain-text line the widget shows for a status."""
    name = status.workspace_name or status.workspace_id or ""
    if status.activity is WriterActivity.RUNNING:
        return f"Writing memory for {name}…"
    if status.activity is WriterActivity.FAILED:
        return f"Memory writer failed for {name}"
    if status.standby:
        return "Memory writer runs in another Memtab window"
    return "Memory writer paused" if status.paused else "Memory writer idle"


class WriterStatusWidget(QWidget):
    """Status-bar widget of the background memory writer.

    Signals:
        trace_requested(Path): the user clicked "view trace" of a failed run.
        paused_changed(bool): the pause/resume toggle changed (by the user or `setPaused`).
    """

    trace_requested = Signal(object)
    paused_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._status = WriterStatus()
        self._dot = QLabel("●", self)
        self._dot.setObjectName("writerStatusDot")
        self._label = QLabel(self)
        self._label.setObjectName("writerStatusText")
        self._label.setTextFormat(Qt.TextFormat.RichText)
        self._label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self._label.linkActivated.connect(self._on_label_link_activated)
        self._toggle = QToolButton(self)
        self._toggle.setObjectName("writerPauseToggle")
        self._toggle.setCheckable(True)
        self._toggle.setAutoRaise(True)
        self._toggle.toggled.connect(self._on_toggle_toggled)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.setSpacing(4)
        layout.addWidget(self._dot)
        layout.addWidget(self._label)
        layout.addWidget(self._toggle)
        self._render()

    # --- public API -----------------------------------------------------------------------

    @property
    def status(self) -> WriterStatus:
        """The status shown."""
        return self._status

    def text(self) -> str:
        """The line shown, as plain text (for tests and accessibility)."""
        return status_text(self._status)

    def isPaused(self) -> bool:
        """Whether the toggle says "paused"."""
        return self._toggle.isChecked()

    @Slot(bool)
    def setPaused(self, paused: bool) -> None:
        """Set the toggle; `paused_changed` is emitted if it changes."""
        self._toggle.setChecked(paused)

    @Slot(object)
    def set_status(self, status: WriterStatus) -> None:
        """Show a status (the toggle follows its `paused`, without echoing it back)."""
        self._status = status
        if self._toggle.isChecked() != status.paused:
            self._toggle.blockSignals(True)
            self._toggle.setChecked(status.paused)
            self._toggle.blockSignals(False)
        self._render()

    def attach(self, supervisor: WriterSupervisor) -> None:
        """Show the supervisor's status and pause/resume it from the toggle."""
        supervisor.status_changed.connect(self.set_status)
        self.paused_changed.connect(supervisor.set_paused)
        self.set_status(supervisor.status)

    # --- internals ------------------------------------------------------------------------

    def _render(self) -> None:
        status = self._status
        text = html.escape(status_text(status))
        if status.activity is WriterActivity.FAILED and status.trace_path is not None:
            text += f' · <a href="{TRACE_LINK}">view trace</a>'
        self._label.setText(text)
        key = "paused" if status.paused and status.activity is WriterActivity.IDLE else None
        color = _DOT_COLORS[key or status.activity.value]
        self._dot.setStyleSheet(f"color: {color};")
        self._label.setToolTip(status.message)
        self._dot.setToolTip(status.message)
        paused = self._toggle.isChecked()
        self._toggle.setText("Resume" if paused else "Pause")
        self._toggle.setToolTip(
            "Resume the background memory writer"
            if paused
            else "Pause the background memory writer (no runs until resumed)"
        )

    @Slot(str)
    def _on_label_link_activated(self, link: str) -> None:
        if link == TRACE_LINK and self._status.trace_path is not None:
            self.trace_requested.emit(Path(self._status.trace_path))

    @Slot(bool)
    def _on_toggle_toggled(self, paused: bool) -> None:
        self._render()
        self.paused_changed.emit(paused)
