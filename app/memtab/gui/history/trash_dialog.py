"""Recently deleted: the files each scope lost — by a delete in Memtab, a consolidation
run, or another program (mux, a shell) while Memtab was watching — and restoring them.

Files are grouped under their scope (as in the tree), and the files of orphaned project
dirs (deleted whole from the tree) under their dir, with the project scope; the scope
filter shows one. The preview shows what the file held. **Restore** puts it back where it
was, with its pins and usage — beside a newer file of the same name if one took its
place; **Restore to…** puts it at another path (not an orphan's file: it goes back into
its dir). Either asks the tab to do it (`restore_requested`), as a recorded change of its
own; the tree and editor follow through the watcher like for any change.

Above the list, a burst — what one program deleted or rewrote in many files at once
(`memtab.watch.events`: "Claude Code removed 23 files at 14:02"), in any memory Memtab
knows, other agents' too — is offered whole: **Restore all** puts back every file of it
that has not changed since (`restore_event`, the user's restores), on the dialog's worker.

Listing (after recording what other programs deleted) and reading a deleted file's
content run on the dialog's own worker (`components.history.history`).
"""

from __future__ import annotations

import functools
import logging

from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QInputDialog,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memtab import humanize
from memtab.components.history.history import (
    SCOPE_TITLES,
    TrashGroup,
    actor_words,
    deleted_text,
    load_trash,
)
from memtab.fs.clock import now_ms
from memtab.gui.history.widgets import fit_columns
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.gui.toolkit.dialog_layout import (
    fit_to_screen,
    fit_to_title,
    give_mnemonics,
    small_dialog,
    stack_when_narrow,
)
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.widgets import ElidedLabel
from memtab.store.history.describe import display_name
from memtab.store.home import Home
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.restore.from_history import TrashItem
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import (
    BURST_MIN_FILES,
    ChangeEvent,
    EventRestore,
    change_events,
    restore_event,
)

logger = logging.getLogger(__name__)

STACK_BELOW = 640  # px: narrower, the list goes above the preview
LIST_KEY = "trash"
PREVIEW_KEY = "trash-preview"
BURSTS_KEY = "trash-bursts"
RESTORE_ALL_KEY = "trash-restore-all"
BURSTS_SHOWN_MS = 7 * 24 * 60 * 60 * 1000
_PATH_ROLE = Qt.ItemDataRole.UserRole
_SCOPE_ROLE = Qt.ItemDataRole.UserRole + 1
_ORPHAN_ROLE = Qt.ItemDataRole.UserRole + 2
NOTHING = "Nothing was deleted here (that Memtab saw)."
SELECT_PROMPT = "Select a file to see what it held."
READING = "Reading…"


def _list_job(store: MemoryStore, record_first: bool, _ctx: TaskContext) -> object:
    return load_trash(store, record_first=record_first)


def _preview_job(home: Home, item: TrashItem, _ctx: TaskContext) -> object:
    return (item.version.id, deleted_text(home, item))


def _bursts_job(home: Home, _ctx: TaskContext) -> object:
    return change_events(home, min_files=BURST_MIN_FILES, since_ms=now_ms() - BURSTS_SHOWN_MS)


def _restore_all_job(home: Home, event: ChangeEvent, _ctx: TaskContext) -> object:
    return restore_event(home, event)


def restored_words(result: EventRestore) -> str:
    """`Restored 23 files` and what was left, in one line."""
    count = len(result.restored)
    words = f"Restored {count} file{'s' if count != 1 else ''}"
    if result.left:
        left = result.left[0]
        more = f" and {len(result.left) - 1} more" if len(result.left) > 1 else ""
        words += f"; left {display_name(left.path)} ({left.why}){more}"
    return words


class TrashDialog(QDialog):
    """Recently deleted (see the module docstring).

    Signals:
        restore_requested(str, str, object, str): (path, version id, target VirtualPath
            or None for where it was, the orphaned project dir it was deleted from or "").
        loaded(): the list (or its failure) is shown.
    """

    restore_requested = Signal(str, str, object, str)
    loaded = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Recently deleted")
        self.setAccessibleName("Recently deleted")
        self._store: MemoryStore | None = None
        self._groups: list[TrashGroup] = []
        self._runner: TaskRunner | None = None  # started on first use, stopped on close

        self.scope_filter = QComboBox(self)
        self.scope_filter.setAccessibleName("Scope")
        self.scope_filter.addItem("All scopes", None)
        for scope in (Scope.GLOBAL, Scope.PROJECT, Scope.WORKSPACE):
            self.scope_filter.addItem(SCOPE_TITLES[scope], scope.value)
        self.scope_filter.currentIndexChanged.connect(self._on_scope_filter_changed)
        self.files = QTreeWidget(self)
        self.files.setAccessibleName("Deleted files")
        self.files.setHeaderLabels(["File", "Deleted", "By", "Size"])
        self.files.setAllColumnsShowFocus(True)
        self.files.setUniformRowHeights(True)
        fit_columns(self.files, stretch=0)
        self.files.currentItemChanged.connect(self._on_files_current_item_changed)
        self.files.itemDoubleClicked.connect(self._on_files_item_double_clicked)
        self.preview = QPlainTextEdit(self)
        self.preview.setReadOnly(True)
        self.preview.setAccessibleName("Deleted content")
        self.preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview.setPlaceholderText(SELECT_PROMPT)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.files)
        splitter.addWidget(self.preview)
        splitter.setSizes([480, 340])
        stack_when_narrow(splitter, STACK_BELOW)

        self.note = ElidedLabel("", self, min_width=0)
        self.restore_button = QPushButton("&Restore", self)
        self.restore_button.setToolTip(
            "Put it back where it was, with its pins and usage (beside a newer file of "
            "the same name, if one took its place)"
        )
        self.restore_button.clicked.connect(self._on_restore_button_clicked)
        self.restore_to_button = QPushButton("Restore &to…", self)
        self.restore_to_button.clicked.connect(self._on_restore_to_button_clicked)
        actions = QHBoxLayout()
        actions.addWidget(self.note, 1)
        actions.addWidget(self.restore_to_button)
        actions.addWidget(self.restore_button)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        give_mnemonics(buttons)
        buttons.rejected.connect(self.reject)
        self.bursts = QComboBox(self)
        self.bursts.setAccessibleName("What a program did to many files at once")
        self.bursts.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.restore_all_button = QPushButton("Restore &all", self)
        self.restore_all_button.setToolTip(
            "Put back every file this burst deleted or rewrote (a file changed since is "
            "left as it is)"
        )
        self.restore_all_button.clicked.connect(self._on_restore_all_button_clicked)
        self._events: list[ChangeEvent] = []
        top = QHBoxLayout()
        top.addWidget(self.scope_filter)
        top.addStretch(1)
        top.addWidget(self.bursts)
        top.addWidget(self.restore_all_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        layout.addLayout(actions)
        layout.addWidget(buttons)
        self._recolor()
        self._update_buttons()
        self._show_bursts([])
        fit_to_title(self)
        fit_to_screen(self, QSize(820, 520), remember="trash")

    # -- what the window calls ---------------------------------------------------------------

    @property
    def groups(self) -> list[TrashGroup]:
        """The deleted files by scope, as last read."""
        return list(self._groups)

    @property
    def busy(self) -> bool:
        return self._runner is not None and self._runner.is_busy()

    def show_store(self, store: MemoryStore, scope: Scope | None = None) -> None:
        """List what `store`'s scopes lost (`scope`: only that one)."""
        self._store = store
        self.scope_filter.blockSignals(True)
        index = self.scope_filter.findData(scope.value if scope is not None else None)
        self.scope_filter.setCurrentIndex(max(index, 0))
        self.scope_filter.blockSignals(False)
        self.reload()

    def reload(self, *, record_first: bool = True) -> None:
        """Read the trash again (off the GUI thread); `record_first`: record what other programs
        deleted first (not when history itself just changed: it is up to date)."""
        if self._store is not None:
            job = functools.partial(_list_job, self._store, record_first)
            self._jobs().submit_latest(LIST_KEY, job)
            bursts = functools.partial(_bursts_job, self._store.home)
            self._jobs().submit_latest(BURSTS_KEY, bursts)

    def select_path(self, path: str, orphan_dir: str | None = None) -> bool:
        """Select a deleted file (of an orphaned project dir: `orphan_dir`); False when
        it is not listed."""
        for group_index in range(self.files.topLevelItemCount()):
            group = self.files.topLevelItem(group_index)
            for index in range(group.childCount() if group is not None else 0):
                item = group.child(index) if group is not None else None
                if (
                    item is not None
                    and item.data(0, _PATH_ROLE) == path
                    and item.data(0, _ORPHAN_ROLE) == (orphan_dir or "")
                ):
                    self.files.setCurrentItem(item)
                    return True
        return False

    def ask_target(self, item: TrashItem) -> VirtualPath | None:
        """Where "Restore to…" puts a file (a seam for tests); None when cancelled."""
        ask = QInputDialog(self)
        small_dialog(ask)
        ask.setWindowTitle("Restore to")
        ask.setLabelText("Restore it at this path (a new name, another folder or scope):")
        ask.setTextValue(item.path)
        ask.setOkButtonText("&Restore")
        ask.setCancelButtonText("&Cancel")
        answered = ask.exec() == QDialog.DialogCode.Accepted
        text = ask.textValue()
        ask.deleteLater()
        if not answered:
            return None
        try:
            target = parse_file_path(text.strip())
        except PathError as error:
            self.note.set_full_text(str(error))
            return None
        reason = (
            self._store.unavailable_reason(target.scope) if self._store and target.scope else None
        )
        if reason:
            self.note.set_full_text(reason)
            return None
        return target

    def shutdown(self) -> None:
        """Stop the worker (closing the dialog, or the window)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.shutdown()

    def done(self, result: int) -> None:
        """Closing stops the worker (reopening starts another)."""
        self.shutdown()
        super().done(result)

    def _jobs(self) -> TaskRunner:
        if self._runner is None:
            self._runner = TaskRunner("trash-dialog", parent=self)
            self._runner.latest_finished.connect(self._on_runner_latest_finished)
            self._runner.latest_failed.connect(self._on_runner_latest_failed)
        return self._runner

    # -- showing -----------------------------------------------------------------------------

    def _show_groups(self, groups: list[TrashGroup]) -> None:
        selected = self._selected()
        self._groups = groups
        wanted = self.scope_filter.currentData()
        self.files.blockSignals(True)
        self.files.clear()
        for group in groups:
            if wanted is not None and group.scope.value != wanted:
                continue
            header = QTreeWidgetItem([f"{group.label} ({len(group.items)})"])
            header.setFlags(Qt.ItemFlag.ItemIsEnabled)
            header.setData(0, _SCOPE_ROLE, group.scope.value)
            self.files.addTopLevelItem(header)
            header.setFirstColumnSpanned(True)  # once in the tree: spanning is the view's
            for item in group.items:
                header.addChild(self._row(item, group.orphan_dir))
            if not group.items:
                empty = QTreeWidgetItem([NOTHING])
                empty.setFlags(Qt.ItemFlag.NoItemFlags)
                header.addChild(empty)
                empty.setFirstColumnSpanned(True)
            header.setExpanded(True)
        self.files.blockSignals(False)
        if selected is None or not self.select_path(selected[1].path, selected[0].orphan_dir):
            # The file shown was restored (or the filter hides it): nothing is being read.
            self.preview.clear()
            self.preview.setPlaceholderText(SELECT_PROMPT)
        self._update_buttons()
        self.loaded.emit()

    def _row(self, item: TrashItem, orphan_dir: str | None) -> QTreeWidgetItem:
        row = QTreeWidgetItem(
            [
                display_name(item.path) + (" · pinned" if item.pinned else ""),
                humanize.relative_time(item.deleted_at),
                actor_words(item.version.actor),
                humanize.size_text(item.version.size_bytes),
            ]
        )
        row.setData(0, _PATH_ROLE, item.path)
        row.setData(0, _ORPHAN_ROLE, orphan_dir or "")
        row.setToolTip(
            0, item.path + ("\nPinned: the pin comes back with it" if item.pinned else "")
        )
        row.setToolTip(1, humanize.absolute_time(item.deleted_at))
        if item.version.run_id:
            row.setToolTip(2, f"Run {item.version.run_id}")
        return row

    @property
    def events(self) -> list[ChangeEvent]:
        """The bursts offered, newest first."""
        return list(self._events)

    def _show_bursts(self, events: list[ChangeEvent]) -> None:
        self._events = events
        self.bursts.clear()
        for event in events:
            self.bursts.addItem(event.words(), event.id)
            self.bursts.setItemData(
                self.bursts.count() - 1,
                "\n".join(v.path for v in event.versions[:20]),
                Qt.ItemDataRole.ToolTipRole,
            )
        self.bursts.setVisible(bool(events))
        self.restore_all_button.setVisible(bool(events))

    def _selected(self) -> tuple[TrashGroup, TrashItem] | None:
        current = self.files.currentItem()
        if current is None:
            return None
        path, orphan_dir = current.data(0, _PATH_ROLE), current.data(0, _ORPHAN_ROLE) or None
        for group in self._groups:
            for item in group.items:
                if item.path == path and group.orphan_dir == orphan_dir:
                    return group, item
        return None

    def _update_buttons(self) -> None:
        selected = self._selected()
        self.restore_button.setEnabled(selected is not None)
        self.restore_to_button.setEnabled(selected is not None and not selected[0].orphan_dir)

    def _restore(self, to: VirtualPath | None) -> None:
        selected = self._selected()
        if selected is None:
            return
        group, item = selected
        self.note.set_full_text(f"Restoring {display_name(item.path)}…")
        self.restore_requested.emit(item.path, item.version.id, to, group.orphan_dir or "")

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        self.note.setStyleSheet(f"color: {muted_text(self.palette()).name()}")

    # -- slots -------------------------------------------------------------------------------

    @Slot()
    def _on_scope_filter_changed(self) -> None:
        self._show_groups(self._groups)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_files_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        self._update_buttons()
        selected = self._selected()
        self.preview.clear()
        self.preview.setPlaceholderText(SELECT_PROMPT)
        if selected is not None and self._store is not None:
            item = selected[1]
            self.preview.setPlaceholderText(READING)
            self._jobs().submit_latest(
                PREVIEW_KEY, functools.partial(_preview_job, self._store.home, item)
            )

    @Slot(QTreeWidgetItem, int)
    def _on_files_item_double_clicked(self, _item: QTreeWidgetItem, _column: int) -> None:
        self._restore(None)

    @Slot()
    def _on_restore_button_clicked(self) -> None:
        self._restore(None)

    @Slot()
    def _on_restore_to_button_clicked(self) -> None:
        selected = self._selected()
        if selected is None or selected[0].orphan_dir:
            return
        target = self.ask_target(selected[1])
        if target is not None:
            self._restore(target)

    @Slot()
    def _on_restore_all_button_clicked(self) -> None:
        event = next((e for e in self._events if e.id == self.bursts.currentData()), None)
        if event is None or self._store is None:
            return
        self.restore_all_button.setEnabled(False)
        self.note.set_full_text(f"Restoring what {event.words()}…")
        job = functools.partial(_restore_all_job, self._store.home, event)
        self._jobs().submit_latest(RESTORE_ALL_KEY, job)

    @Slot(str, object)
    def _on_runner_latest_finished(self, key: str, result: object) -> None:
        if key == LIST_KEY and isinstance(result, list):
            self._show_groups(result)
        elif key == BURSTS_KEY and isinstance(result, list):
            self._show_bursts(result)
        elif key == RESTORE_ALL_KEY and isinstance(result, EventRestore):
            self.restore_all_button.setEnabled(True)
            self.note.set_full_text(restored_words(result))
            self.reload(record_first=False)
        elif key == PREVIEW_KEY and isinstance(result, tuple):
            version_id, text = result
            selected = self._selected()
            if selected is not None and selected[1].version.id == version_id:
                self.preview.setPlainText(text)

    @Slot(str, str)
    def _on_runner_latest_failed(self, key: str, message: str) -> None:
        if key == LIST_KEY:
            self.note.set_full_text(f"Cannot read what was deleted: {message}")
            self.loaded.emit()
        elif key == RESTORE_ALL_KEY:
            self.restore_all_button.setEnabled(True)
            self.note.set_full_text(f"Cannot restore them: {message}")
        elif key == BURSTS_KEY:
            logger.warning("Cannot read the bursts of changes: %s", message)
        else:
            self.preview.setPlaceholderText(f"Cannot show it: {message}")
