"""Suggested memories: what the offline writer proposed for the shown workspace, to accept
(as it is, or edited first) or dismiss.

Built on `memtab.writer.suggestions.SuggestionQueue`; every read and change runs on the
panel's worker thread (the queue is a file under a cross-process lock, and accepting
writes the workspace's notes file through the store). The panel shows itself only while
the workspace has suggestions waiting. It follows the queue file through the window's
watcher (`handle_paths_changed`): what the writer, the CLI (`memtab suggestions`) or
another Memtab decides shows here at once. Accepted lines land in the notes file; the
watcher's rescan then shows them in the tree, like any other change.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memtab.components.activity.own_writes import OwnWrites
from memtab.gui.style import Accent, accent_text, mute
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.humanize import plural
from memtab.store.home import Home, HomeError
from memtab.store.memory import MemoryStoreError
from memtab.store.paths import PathError
from memtab.store.registry import Workspace
from memtab.writer.suggestions import (
    SuggestionError,
    SuggestionQueue,
    queue_path,
    sections_order,
)

if TYPE_CHECKING:  # the records load pydantic: on the panel's worker thread, with the queue
    from memtab.writer.records import Suggestion

logger = logging.getLogger(__name__)

LOAD_KEY = "load"
LIST_ROWS = 5  # the list's height in rows; more scroll
_ID_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass(frozen=True)
class Pending:
    """The suggestions waiting in one workspace's queue (a load job's result)."""

    workspace_id: str
    suggestions: tuple[Suggestion, ...]


@dataclass(frozen=True)
class Decided:
    """What an accept or dismiss job did: a note for the status bar, or why it failed."""

    message: str
    error: bool = False
    memory_path: str | None = None


def load_pending(home: Home, workspace_id: str, _context: TaskContext) -> Pending:
    """The job: read the queue (a missing or unreadable one reads as empty)."""
    pending = SuggestionQueue(home, workspace_id).pending()
    return Pending(workspace_id, tuple(sections_order(pending)))


def accept(
    home: Home, workspace: Workspace, ids: Sequence[str], text: str | None, _context: TaskContext
) -> Decided:
    """The job: write the suggestions into their notes file and mark them accepted."""
    try:
        done = SuggestionQueue(home, workspace.id).accept(ids, workspace=workspace, text=text)
    except (SuggestionError, MemoryStoreError, PathError, HomeError, OSError, TimeoutError) as e:
        return Decided(f"Could not accept: {e}", error=True)
    accepted = plural(len(done.suggestions), "suggestion")
    return Decided(f"Accepted {accepted} into {done.memory_path}", memory_path=done.memory_path)


def dismiss(home: Home, workspace_id: str, ids: Sequence[str], _context: TaskContext) -> Decided:
    """The job: dismiss the suggestions (they are not proposed again)."""
    try:
        done = SuggestionQueue(home, workspace_id).dismiss(ids)
    except (SuggestionError, OSError, TimeoutError) as e:
        return Decided(f"Could not dismiss: {e}", error=True)
    return Decided(f"Dismissed {plural(len(done), 'suggestion')}")


class EditSuggestionDialog(QDialog):
    """Edit a suggestion's text before accepting it."""

    def __init__(self, suggestion: Suggestion, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit, then accept — Memtab")
        where = QLabel(f"Goes to {suggestion.memory_path}, under “{suggestion.section}”.", self)
        mute(where)
        self.text_edit = QPlainTextEdit(suggestion.text, self)
        self.text_edit.setAccessibleName("Suggested memory")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Accept")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(where)
        layout.addWidget(self.text_edit, 1)
        layout.addWidget(buttons)
        self.resize(480, 200)

    @property
    def text(self) -> str:
        return self.text_edit.toPlainText()


class SuggestionsPanel(QFrame):
    """The Suggested memories list of the shown workspace (see the module docstring).

    Signals:
        status_message(str): what an accept or dismiss did (or why it failed).
        count_changed(int): how many suggestions wait for review.
    """

    status_message = Signal(str)
    count_changed = Signal(int)

    def __init__(self, home: Home, own_writes: OwnWrites, parent: QWidget | None = None) -> None:
        """A hidden panel; `set_workspace` fills it."""
        super().__init__(parent)
        self.setObjectName("suggestionsPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.home = home
        self._own_writes = own_writes
        self._workspace: Workspace | None = None
        self._queue_path: str | None = None
        self._suggestions: tuple[Suggestion, ...] = ()
        self._decisions: set[int] = set()
        self._runner = TaskRunner("suggestions", parent=self)
        self._runner.latest_finished.connect(self._on_runner_latest_finished)
        self._runner.job_finished.connect(self._on_runner_job_finished)
        self._runner.job_failed.connect(self._on_runner_job_failed)
        self._build()
        self.hide()

    def _build(self) -> None:
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("suggestionsToggle")
        self.toggle.setCheckable(True)
        self.toggle.setChecked(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setToolTip(
            "Notes the offline memory writer proposed for this workspace: accept them into "
            "the notes file, edit them first, or dismiss them (they are not proposed again)."
        )
        self.toggle.toggled.connect(self._on_toggle_toggled)
        self.list = QListWidget(self)
        self.list.setObjectName("suggestionsList")
        self.list.setAccessibleName("Suggested memories")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.itemSelectionChanged.connect(self._on_list_item_selection_changed)
        self.list.itemDoubleClicked.connect(self._on_list_item_double_clicked)
        self.accept_button = QPushButton("Accept", self)
        self.accept_button.setToolTip("Write the selected suggestions into the notes file")
        self.edit_button = QPushButton("Edit…", self)
        self.edit_button.setToolTip("Edit the selected suggestion, then accept it")
        self.dismiss_button = QPushButton("Dismiss", self)
        self.dismiss_button.setToolTip("Drop the selected suggestions; they are not proposed again")
        self.accept_button.clicked.connect(self._on_accept_button_clicked)
        self.edit_button.clicked.connect(self._on_edit_button_clicked)
        self.dismiss_button.clicked.connect(self._on_dismiss_button_clicked)
        self.error_label = QLabel(self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {accent_text(self.palette(), Accent.ERROR).name()}")
        self.error_label.hide()
        self._body = QWidget(self)
        body = QVBoxLayout(self._body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(4)
        body.addWidget(self.list)
        buttons = QHBoxLayout()
        buttons.setSpacing(4)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.dismiss_button)
        buttons.addStretch(1)
        body.addLayout(buttons)
        body.addWidget(self.error_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.toggle)
        layout.addWidget(self._body)
        self._update_buttons()

    # -- public API ----------------------------------------------------------------------

    @property
    def suggestions(self) -> tuple[Suggestion, ...]:
        """The suggestions shown, in the notes file's section order."""
        return self._suggestions

    @property
    def busy(self) -> bool:
        """Whether a load, accept or dismiss is queued or running."""
        return self._runner.is_busy()

    def set_workspace(self, workspace: Workspace | None) -> None:
        """Show the suggestions of `workspace` (none for no workspace)."""
        self._workspace = workspace
        self._queue_path = str(queue_path(self.home, workspace.id)) if workspace else None
        self._show(())
        self.reload()

    def reload(self) -> None:
        """Read the queue again (off the GUI thread)."""
        if self._workspace is None:
            self._runner.cancel_latest(LOAD_KEY)
            return
        self._runner.submit_latest(
            LOAD_KEY, functools.partial(load_pending, self.home, self._workspace.id)
        )

    def handle_paths_changed(self, paths: Iterable[str]) -> None:
        """What the window's watcher reported: reload when the queue file changed."""
        if self._queue_path is not None and any(str(path) == self._queue_path for path in paths):
            self.reload()

    def reveal(self) -> None:
        """Open the list and put the keyboard in it (from "Suggested N notes — review")."""
        self.toggle.setChecked(True)
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)
        if self.list.count() and not self.list.selectedItems():
            self.list.setCurrentRow(0)

    def accept_selected(self, text: str | None = None) -> None:
        """Accept the selected suggestions (`text`: the edited text of the one selected)."""
        ids = self.selected_ids()
        if ids and self._workspace is not None:
            for path in {s.memory_path for s in self._suggestions if s.id in ids}:
                self._own_writes.note(path)  # the user's own change: no "agent edited" badge
            self._decide(functools.partial(accept, self.home, self._workspace, ids, text))

    def dismiss_selected(self) -> None:
        """Dismiss the selected suggestions."""
        ids = self.selected_ids()
        if ids and self._workspace is not None:
            self._decide(functools.partial(dismiss, self.home, self._workspace.id, ids))

    def edit_selected(self) -> None:
        """Edit the selected suggestion in a dialog, then accept it."""
        ids = self.selected_ids()
        chosen = [s for s in self._suggestions if s.id in ids]
        if len(chosen) != 1:
            return
        dialog = EditSuggestionDialog(chosen[0], self)
        if self.exec_dialog(dialog):
            self.accept_selected(dialog.text)

    def exec_dialog(self, dialog: QDialog) -> int:
        """Run a modal dialog (a seam for tests)."""
        return dialog.exec()

    def selected_ids(self) -> list[str]:
        """The ids of the selected suggestions, in list order."""
        return [
            str(item.data(_ID_ROLE))
            for item in (self.list.item(row) for row in range(self.list.count()))
            if item is not None and item.isSelected()
        ]

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Stop the worker thread (on window close)."""
        self._runner.shutdown(timeout_ms)

    # -- internals -----------------------------------------------------------------------

    def _decide(self, job: functools.partial[Decided]) -> None:
        self.error_label.hide()
        self._decisions.add(self._runner.submit(job))
        self._update_buttons()

    def _show(self, suggestions: tuple[Suggestion, ...]) -> None:
        selected = set(self.selected_ids())
        self._suggestions = suggestions
        self.list.clear()
        for suggestion in suggestions:
            item = QListWidgetItem(f"{suggestion.text}")
            item.setData(_ID_ROLE, suggestion.id)
            item.setToolTip(
                f"{suggestion.section} · goes to {suggestion.memory_path}\n{suggestion.text}"
            )
            self.list.addItem(item)
            item.setSelected(suggestion.id in selected)
        count = len(suggestions)
        self.toggle.setText(f"Suggested memories ({count})")
        self.list.setFixedHeight(
            max(1, min(count, LIST_ROWS)) * (self.list.fontMetrics().height() + 8) + 6
        )
        self.setVisible(count > 0)
        self._update_buttons()
        self.count_changed.emit(count)

    def _update_buttons(self) -> None:
        selected = len(self.selected_ids())
        deciding = bool(self._decisions)
        self.accept_button.setEnabled(selected > 0 and not deciding)
        self.dismiss_button.setEnabled(selected > 0 and not deciding)
        self.edit_button.setEnabled(selected == 1 and not deciding)

    @Slot(str, object)
    def _on_runner_latest_finished(self, key: str, result: object) -> None:
        current = self._workspace.id if self._workspace is not None else None
        if key == LOAD_KEY and isinstance(result, Pending) and result.workspace_id == current:
            self._show(result.suggestions)

    @Slot(int, object)
    def _on_runner_job_finished(self, job: int, result: object) -> None:
        if job not in self._decisions or not isinstance(result, Decided):
            return
        self._decisions.discard(job)
        if result.error:
            self.error_label.setText(result.message)
            self.error_label.show()
        self.status_message.emit(result.message)
        self._update_buttons()
        self.reload()  # the watcher would too; this is sooner

    @Slot(int, str)
    def _on_runner_job_failed(self, job: int, message: str) -> None:
        if job in self._decisions:
            self._decisions.discard(job)
            self.error_label.setText(message)
            self.error_label.show()
            self._update_buttons()

    @Slot(bool)
    def _on_toggle_toggled(self, expanded: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self._body.setVisible(expanded)

    @Slot()
    def _on_list_item_selection_changed(self) -> None:
        self._update_buttons()

    @Slot(QListWidgetItem)
    def _on_list_item_double_clicked(self, _item: QListWidgetItem) -> None:
        self.edit_selected()

    @Slot()
    def _on_accept_button_clicked(self) -> None:
        self.accept_selected()

    @Slot()
    def _on_edit_button_clicked(self) -> None:
        self.edit_selected()

    @Slot()
    def _on_dismiss_button_clicked(self) -> None:
        self.dismiss_selected()
