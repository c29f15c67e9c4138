"""Resolve conflicts…: every conflict of the home (sync's, file-sync copies, sidecar copies:
`components.sync.conflicts`), each opened in the three-way view with Keep mine, Keep theirs,
Keep both and Keep the text below; the engine decides, on the dialog's own worker.
"""

from __future__ import annotations

import functools

from PySide6.QtCore import QSize, Qt, Slot
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from memtab.components.merge import ThreeWayTexts
from memtab.components.sync.conflicts import (
    DECISIONS,
    EMPTY_TEXT,
    KEEP_BOTH_AGAIN,
    RESOLVING,
    ConflictItem,
    ConflictsPresenter,
    ConflictTexts,
    Decision,
    Press,
    allowed,
    list_conflicts,
    load_texts,
    resolve,
    resolve_failed_text,
)
from memtab.gui.context import WindowContext
from memtab.gui.sync.service import WindowSync
from memtab.gui.tasks.jobs import Lane
from memtab.gui.toolkit.dialog_layout import fit_to_screen, stack_when_narrow
from memtab.gui.toolkit.text.three_way import ThreeWayView
from memtab.gui.toolkit.widgets import WrappedLabel, hbox, named, vbox

STACK_BELOW = 840  # px: narrower, the list goes above the texts
LIST_KEY = "conflicts"
TEXTS_KEY = "conflict-texts"
_ITEM_ROLE = Qt.ItemDataRole.UserRole


class ConflictsDialog(QDialog):
    """The conflicts of one window's home (see the module docstring)."""

    def __init__(
        self, context: WindowContext, sync: WindowSync, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("conflictsDialog")
        self.setWindowTitle("Resolve conflicts")
        self._context = context
        self._sync = sync
        self._jobs = context.jobs.client("conflicts", Lane.JOBS, parent=self)
        self._jobs.latest_finished.connect(self._on_jobs_latest_finished)
        self._jobs.latest_failed.connect(self._on_jobs_latest_failed)
        self._jobs.job_finished.connect(self._on_jobs_job_finished)
        self._jobs.job_failed.connect(self._on_jobs_job_failed)
        self._state: ConflictsPresenter[ConflictItem] = ConflictsPresenter()

        self.list = named(QListWidget(self), "conflictList", accessible="Conflicts")
        self.list.setSpacing(3)
        self.list.currentItemChanged.connect(self._on_list_current_item_changed)
        self.empty = WrappedLabel(EMPTY_TEXT, self)
        self.detail = WrappedLabel("", self)
        self.view = ThreeWayView(self)
        self.view.merged_edited.connect(self._on_view_merged_edited)
        self.message = named(WrappedLabel("", self), "conflictMessage")
        self.buttons: dict[Decision, QPushButton] = {}
        for decision, choice in DECISIONS.items():
            button = named(QPushButton(choice.label, self), f"conflict_{decision}", tip=choice.tip)
            button.setAutoDefault(False)
            button.clicked.connect(functools.partial(self.decide, decision))
            self.buttons[decision] = button
        close = QPushButton("Close", self)
        close.setAutoDefault(False)
        close.clicked.connect(self.close)
        row = hbox(*self.buttons.values(), 1, close)

        right = QWidget(self)
        vbox(self.detail, (self.view, 1), self.message, row, on=right, margins=0)
        left = QWidget(self)
        vbox(QLabel("Conflicts", left), (self.list, 1), self.empty, on=left, margins=0)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([260, 740])
        # Narrow, the list goes above: the decisions' row needs the whole width.
        stack_when_narrow(splitter, STACK_BELOW)
        QVBoxLayout(self).addWidget(splitter)
        fit_to_screen(self, QSize(1000, 640), remember="conflicts")
        self._show_item(None)

    @property
    def busy(self) -> bool:
        return self._jobs.is_busy()

    def reload(self, select: str | None = None, *, show_both: bool = False) -> None:
        """Read the conflicts again (the selection stays when it is still there, else
        `select`'s conflict is selected once listed: a virtual path); `show_both`: with
        Keep both's result shown in its text to keep, for a second press to keep (an
        editor bar's Keep both)."""
        if select is not None:
            self._state.want(select, show_both=show_both)
        home, workspace = self._context.home, self._context.shown.workspace
        job = functools.partial(list_conflicts, home, workspace, self._sync.git_program)
        self._jobs.submit_latest(LIST_KEY, job)

    def select(self, key: str) -> bool:
        """Select the conflict `key` names (a virtual path, a sidecar copy's path)."""
        for row in range(self.list.count()):
            if self.list.item(row).data(_ITEM_ROLE) == key:
                self.list.setCurrentRow(row)
                return True
        return False

    @property
    def items(self) -> list[ConflictItem]:
        return list(self._state.items)

    def current(self) -> ConflictItem | None:
        item = self.list.currentItem()
        return self._state.item(item.data(_ITEM_ROLE) if item is not None else None)

    def _show_list(self, items: list[ConflictItem]) -> None:
        selected = self.current()
        keys = self._state.listed(items, selected.key if selected is not None else None)
        self.list.blockSignals(True)
        self.list.clear()
        for found in items:
            row = QListWidgetItem(found.title, self.list)
            row.setData(_ITEM_ROLE, found.key)
            row.setToolTip(found.detail)
        self.list.blockSignals(False)
        self.empty.setVisible(not items)
        if not items:
            self._show_item(None)
        elif not any(self.select(key) for key in keys):
            self.list.setCurrentRow(0)

    def _show_item(self, item: ConflictItem | None) -> None:
        self.view.clear()
        self._state.shown()
        self.view.setEnabled(item is not None)
        self.detail.setText(item.detail if item is not None else "")
        for button in self.buttons.values():
            button.setEnabled(False)
        if item is None:
            return
        self.buttons["merged"].setVisible(item.editable)
        home, workspace = self._context.home, self._context.shown.workspace
        job = functools.partial(load_texts, home, workspace, item, self._sync.git_program)
        self._jobs.submit_latest(TEXTS_KEY, job)

    def _enable(self, item: ConflictItem, texts: ThreeWayTexts) -> None:
        self.view.set_texts(texts)
        offered = allowed(item, binary=texts.binary)
        self.view.merged.setReadOnly(not offered.editable)
        for decision, enabled in offered.buttons.items():
            self.buttons[decision].setEnabled(enabled)
        if self._state.show_both_now(item, offered.buttons["both"]):
            self.decide("both")  # shows what it keeps: a second press keeps it

    def decide(self, decision: Decision) -> None:
        """Resolve the selected conflict as `decision` says (on the worker)."""
        item = self.current()
        press = self._state.press(decision, item)
        if item is None or press is Press.NOTHING:
            return
        # Keep both is seen before it is kept: its result in the text to keep, and a
        # second press keeps it.
        if press is Press.SHOW_BOTH and self.view.show_both():
            self._state.both_shown = True
            self.message.setText(KEEP_BOTH_AGAIN)
            return
        merged = self.view.merged_text() if decision == "merged" else None
        home, workspace = self._context.home, self._context.shown.workspace
        job = functools.partial(
            resolve, home, workspace, item, decision, merged, self._sync.git_program
        )
        for button in self.buttons.values():
            button.setEnabled(False)
        self.message.setText(RESOLVING)
        self._state.deciding = self._jobs.submit(job)

    def shutdown(self) -> None:
        self._jobs.shutdown()

    @Slot(object, object)
    def _on_list_current_item_changed(
        self, current: QListWidgetItem | None, _previous: QListWidgetItem | None
    ) -> None:
        self.message.clear()
        self._show_item(self.current() if current is not None else None)

    @Slot()
    def _on_view_merged_edited(self) -> None:
        if self._state.merged_edited():  # no longer Keep both's result: shown again next
            self.message.clear()

    @Slot(str, object)
    def _on_jobs_latest_finished(self, key: str, result: object) -> None:
        if key == LIST_KEY and isinstance(result, list):
            self._show_list(result)
        elif (
            key == TEXTS_KEY and isinstance(result, ConflictTexts) and result.item == self.current()
        ):
            self._enable(result.item, result.texts)

    @Slot(str, str)
    def _on_jobs_latest_failed(self, key: str, message: str) -> None:
        if key == LIST_KEY:
            self.empty.setVisible(False)
        self.message.setText(f"Cannot read the conflicts: {message}")

    @Slot(int, object)
    def _on_jobs_job_finished(self, job_id: int, result: object) -> None:
        if not self._state.ended(job_id):
            return
        self.message.setText(str(result))
        self._context.status.show(str(result))
        self._sync.look_again()
        self.reload()

    @Slot(int, str)
    def _on_jobs_job_failed(self, job_id: int, message: str) -> None:
        if not self._state.ended(job_id):
            return
        self.message.setText(resolve_failed_text(message))
        self.reload()
