"""The History panel: every version of the open file, a diff of one against it now, and
Restore this version (a recorded change); Codex's own commits too. Reads and diffs run on its
own worker, nothing while it is hidden.
"""

from __future__ import annotations

import functools

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QPushButton,
    QSplitter,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.history.history import (
    COMPUTING,
    NO_DIFFERENCES,
    NO_FILE,
    PICK_VERSION,
    RESTORE_TIP,
    FileHistory,
    Selected,
    commit_diff,
    history_note,
    load_file_history,
    panel_rows,
    selected,
    title_text,
    version_diff,
)
from memtab.components.jobs import plain
from memtab.components.text_diff import DiffResult
from memtab.file_protocol.memory_file import MemoryFile
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.keyboard_return import PanelLetters
from memtab.gui.toolkit.row_list import RowList, tree_rows
from memtab.gui.toolkit.style import mute
from memtab.gui.toolkit.text.diff_view import DiffPane
from memtab.gui.toolkit.widgets import ElidedLabel, WrappedLabel, hbox, named, vbox

HISTORY_KEY = "file-history"
DIFF_KEY = "version-diff"
PANEL_WIDTH = 440  # the panel's width at first: a version's when, who, change and size, none cut
_ID_ROLE = Qt.ItemDataRole.UserRole


class HistoryPanel(QWidget):
    """The open file's versions (see the module docstring)."""

    restore_requested = Signal(object, str)  # restore the file (its MemoryFile) to version id
    loaded = Signal()  # a history (or its failure) is shown — tests wait for it

    def __init__(self, jobs: JobService, parent: QWidget | None = None) -> None:
        """An empty panel; its reads run on `jobs`' scans lane."""
        super().__init__(parent)
        self.setObjectName("historyPanel")
        self.setAccessibleName("File history")
        self.subject: MemoryFile | None = None
        self.history: FileHistory | None = None
        self._active = False
        self._job_service = jobs
        self._client: JobClient | None = None  # made with the first read

        self.title = ElidedLabel(NO_FILE, self, min_width=0)
        self.note = mute(WrappedLabel("", self))
        # Who is never cut ("Anot…" named nobody); Change, the longest, gives way first.
        self.versions = RowList(
            ["When", "Who", "Change", "Size"], "Versions", self, stretch=2, whole=(0, 1)
        )
        self.versions.currentItemChanged.connect(self._show_selected)
        self.diff = DiffPane(self)
        self.diff.show_message(PICK_VERSION)
        # Alt+S: Alt+R is the Inbox's Reject (the Inbox is no panel of its own letters)
        self.restore_button = named(QPushButton("Re&store this version", self), tip=RESTORE_TIP)
        self.restore_button.setEnabled(False)
        self.restore_button.clicked.connect(self._on_restore_button_clicked)
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.versions)
        splitter.addWidget(self.diff)
        splitter.setSizes([200, 300])
        vbox(self.title, self.note, (splitter, 1), hbox(1, self.restore_button), on=self, margins=6)
        self.setFocusProxy(self.versions)  # the panel's key puts the keyboard in its versions
        self.letters = PanelLetters(self)  # a letter another panel has too is each one's own
        self.setMinimumWidth(240)
        self._show_state(NO_FILE)

    def sizeHint(self) -> QSize:
        """As wide as a version's row needs — when, who, a change's words, the size — so
        the dock opens showing them (at 1366 px it opened ~260 px wide: "Anot…")."""
        return QSize(PANEL_WIDTH, super().sizeHint().height())

    @property
    def busy(self) -> bool:
        """Whether a history or a diff is being read (tests wait for this)."""
        return self._client is not None and self._client.is_busy()

    def show_file(self, file: MemoryFile | None) -> None:
        """Follow the editor: show `file`'s history (None: no file)."""
        if file is not None and file == self.subject:
            return
        self.subject = file
        self.history = None
        self.versions.clear()
        self.reload()

    def set_active(self, active: bool) -> None:
        """Read history only while shown; showing it reloads it."""
        was, self._active = self._active, active
        if active and not was:
            self.reload()

    def reload(self) -> None:
        """Read the file's history again (off the GUI thread), keeping the selection."""
        subject = self.subject
        if subject is None:
            self._show_state(NO_FILE)
            return
        self.title.set_full_text(title_text(subject.label), subject.ref.key)
        if self._active:
            self._jobs().submit_latest(HISTORY_KEY, plain(load_file_history, subject))

    def select_version(self, version_id: str) -> bool:
        """Select the row of a version (False when it is not listed)."""
        for item in tree_rows(self.versions):
            if item.data(0, _ID_ROLE) == version_id:
                self.versions.setCurrentItem(item)
                return True
        return False

    def shutdown(self) -> None:
        """Drop the reads under way (on window close)."""
        if self._client is not None:
            self._client.shutdown()

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._job_service.client("history-panel", Lane.SCANS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    def _show_state(self, note: str) -> None:
        shown = self.subject is not None
        if not shown:
            self.title.set_full_text(NO_FILE)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.versions.setVisible(shown)
        self.diff.setVisible(shown)
        self.restore_button.setVisible(shown)
        self.restore_button.setEnabled(False)

    def _show_history(self, history: FileHistory) -> None:
        chosen = self._selected()
        self.history = history
        self.versions.blockSignals(True)
        self.versions.clear()
        for row in panel_rows(history):
            item = QTreeWidgetItem(list(row.cells))
            item.setData(0, _ID_ROLE, row.id)
            for column in range(4):
                item.setToolTip(column, row.tooltip)
            self.versions.addTopLevelItem(item)
        self.versions.blockSignals(False)
        self._show_state(history_note(history))
        version = chosen.version if chosen is not None else None
        if version is None or not self.select_version(version.id):
            self.diff.show_message(PICK_VERSION)
        self.loaded.emit()

    def _selected(self) -> Selected | None:
        item = self.versions.currentItem()
        return selected(self.history, item.data(0, _ID_ROLE) if item is not None else None)

    def _show_selected(self) -> None:
        chosen, history, subject = self._selected(), self.history, self.subject
        if chosen is None or history is None or subject is None:
            self.restore_button.setEnabled(False)
            self.diff.show_message(PICK_VERSION)
            return
        self.restore_button.setEnabled(chosen.restore)
        self.restore_button.setToolTip(chosen.restore_tip)
        self.diff.set_sides(*chosen.sides)
        self.diff.show_message(COMPUTING)
        if chosen.commit is not None:
            job = functools.partial(commit_diff, subject, chosen.commit.sha, history.current)
        else:
            assert chosen.version is not None
            job = functools.partial(version_diff, subject.home, chosen.version, history.current)
        self._jobs().submit_latest(DIFF_KEY, job)

    @Slot()
    def _on_restore_button_clicked(self) -> None:
        chosen = self._selected()
        if chosen is not None and chosen.version is not None and self.subject is not None:
            self.restore_requested.emit(self.subject, chosen.version.id)

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        shown = self.subject.ref if self.subject is not None else None
        if key == HISTORY_KEY and isinstance(result, FileHistory) and result.ref == shown:
            self._show_history(result)
        elif key == DIFF_KEY and isinstance(result, DiffResult):
            self.diff.set_diff(result, NO_DIFFERENCES)

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        if key == HISTORY_KEY:
            self.history = None
            self.versions.clear()
            self._show_state(f"Cannot read the history: {message}")
            self.loaded.emit()
        else:
            self.diff.show_message(f"Cannot show the differences: {message}")
