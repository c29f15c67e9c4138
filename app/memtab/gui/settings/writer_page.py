"""Settings → Memory writer: how the background writer runs (`WriterSettingsBox`).

Its spin boxes take their ranges from the settings record (`memtab.writer.config`),
so the form cannot offer a value the writer would refuse; `settings()` is what Save
writes (`memtab.writer.config.save_writer_settings`).
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from memtab.components import glossary
from memtab.writer.config import WriterSettings, number_range
from memtab.writer.config_values import OfflineNotes, WriterMode

WRITER_MODES: tuple[tuple[WriterMode, str], ...] = (
    (WriterMode.AUTO, "Automatic — step aside where mux runs its own writer"),
    (WriterMode.ALWAYS, "Always — also on workspaces mux writes"),
    (WriterMode.OFF, "Off — only `memtab write` runs it"),
)
OFFLINE_NOTES_CHOICES: tuple[tuple[OfflineNotes, str], ...] = (
    (OfflineNotes.SUGGEST, "Suggest — queue them for review (the Inbox, `memtab inbox`)"),
    (OfflineNotes.WRITE, "Write — add them to the memory file directly"),
)


class WriterSettingsBox(QGroupBox):
    """The background writer's settings: mode, timeout, memory file, offline notes, trace
    dumps, notifications."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Background memory writer", parent)
        self.writer_mode = QComboBox(self)
        self.writer_mode.setAccessibleName("Writer mode")
        for mode, label in WRITER_MODES:
            self.writer_mode.addItem(label, mode.value)
        self.writer_mode.setToolTip(glossary.STEP_ASIDE)
        self.writer_timeout = QDoubleSpinBox(self)
        self.writer_timeout.setAccessibleName("Writer timeout")
        self.writer_timeout.setRange(*number_range("timeout_s"))
        self.writer_timeout.setDecimals(0)
        self.writer_timeout.setSuffix(" s")
        self.memory_path = QLineEdit(self)
        self.memory_path.setAccessibleName("Writer memory file")
        self.offline_notes = QComboBox(self)
        self.offline_notes.setAccessibleName("Offline writer notes")
        self.offline_notes.setToolTip(
            "What the writer does with its notes when no model is configured"
        )
        for choice, label in OFFLINE_NOTES_CHOICES:
            self.offline_notes.addItem(label, choice.value)
        self.dump_successful = QCheckBox("Also keep trace dumps of successful runs", self)
        self.notify = QCheckBox(
            "Notify me when it records notes while Memtab is not in front", self
        )
        self.max_dumps = QSpinBox(self)
        self.max_dumps.setAccessibleName("Trace dumps kept per workspace")
        low, high = number_range("max_dumps")
        self.max_dumps.setRange(int(low), int(high))

        form = QFormLayout(self)
        form.addRow("&Runs:", self.writer_mode)
        form.addRow("&Timeout per run:", self.writer_timeout)
        form.addRow("Memory &file:", self.memory_path)
        form.addRow("&Offline notes:", self.offline_notes)
        form.addRow("Trace dumps &kept:", self.max_dumps)
        form.addRow("", self.dump_successful)
        form.addRow("", self.notify)

    def load(self, writer: WriterSettings) -> None:
        """Show `writer`'s values."""
        self.writer_mode.setCurrentIndex(self.writer_mode.findData(writer.mode.value))
        self.writer_timeout.setValue(writer.timeout_s)
        self.memory_path.setText(writer.memory_path)
        self.offline_notes.setCurrentIndex(self.offline_notes.findData(writer.offline_notes.value))
        self.dump_successful.setChecked(writer.dump_successful_runs)
        self.notify.setChecked(writer.notify)
        self.max_dumps.setValue(writer.max_dumps)

    def settings(self) -> WriterSettings:
        """The values shown, as the writer reads them."""
        return WriterSettings(
            mode=WriterMode(self.writer_mode.currentData()),
            timeout_s=self.writer_timeout.value(),
            memory_path=self.memory_path.text().strip(),
            dump_successful_runs=self.dump_successful.isChecked(),
            max_dumps=self.max_dumps.value(),
            offline_notes=OfflineNotes(self.offline_notes.currentData()),
            notify=self.notify.isChecked(),
        )
