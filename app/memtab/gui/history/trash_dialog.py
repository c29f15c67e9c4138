"""Recently deleted: the files every memory the window shows lost — by Memtab, a run or
another program — grouped by scope or agent and by burst, with Restore, Restore to… and
Restore all (recorded changes Edit → Undo takes back); its reads run on its own worker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QInputDialog,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidgetItem,
    QWidget,
)

from memtab.components.history.deleted import (
    BurstFiles,
    DeletedFile,
    DeletedPreview,
    TrashGroup,
    burst_text,
    deleted_preview,
    load_trash,
)
from memtab.components.history.history import SCOPE_TITLES
from memtab.components.history.trash_view import (
    READING,
    SELECT_PROMPT,
    Restore,
    TrashPresenter,
    group_title,
    may_restore_to,
    restore_kind,
    restored_words,
    restoring_burst_text,
    restoring_text,
    row_key,
    still_gone,
)
from memtab.components.history.trash_view import burst_row as burst_view
from memtab.components.history.trash_view import file_row as file_view
from memtab.components.jobs import plain
from memtab.file_protocol.file_ref import AGENT_TITLES, OTHER_AGENTS
from memtab.gui.tasks.jobs import JobClient, JobService, Lane
from memtab.gui.toolkit.dialog_layout import (
    button_box,
    fit_to_screen,
    fit_to_title,
    small_dialog,
    stack_when_narrow,
)
from memtab.gui.toolkit.row_list import FittedTree, tree_rows
from memtab.gui.toolkit.style import muted_text, set_style_sheet
from memtab.gui.toolkit.widgets import ElidedLabel, hbox, named, vbox
from memtab.sources.model import Source
from memtab.store.paths import SCOPE_ORDER, PathError, Scope, VirtualPath, parse_file_path
from memtab.store.scopes.memory import MemoryStore
from memtab.watch.events import ChangeEvent, EventRestore, restore_event

PATH_ROLE = Qt.ItemDataRole.UserRole  # a file row's path as history names it
ORPHAN_ROLE = Qt.ItemDataRole.UserRole + 1  # a file row's orphaned project dir ("" for none)
ROW_ROLE = Qt.ItemDataRole.UserRole + 2  # a file row's `row_key`
BURST_ROLE = Qt.ItemDataRole.UserRole + 3  # a burst row's id
GROUP_ROLE = Qt.ItemDataRole.UserRole + 4  # a group row's filter key


def group_row(group: TrashGroup) -> QTreeWidgetItem:
    """A group's title row: `Claude Code (20)` (the files still deleted)."""
    header = QTreeWidgetItem([group_title(group)])
    header.setFlags(Qt.ItemFlag.ItemIsEnabled)
    header.setData(0, GROUP_ROLE, group.filter_key)
    return header


def burst_row(burst: BurstFiles, palette: QPalette) -> QTreeWidgetItem:
    """A burst: what happened over every column (`setFirstColumnSpanned` once in the
    tree): its files' rows say the rest."""
    view = burst_view(burst)
    row = QTreeWidgetItem([view.words])
    row.setData(0, BURST_ROLE, burst.id)
    font = QFont(row.font(0))
    font.setBold(True)
    row.setFont(0, font)
    row.setToolTip(0, view.tooltip)
    if view.muted:
        _mute(row, palette)
    return row


def file_row(file: DeletedFile, palette: QPalette) -> QTreeWidgetItem:
    """A deleted (or a burst's rewritten) file: its name, when, who, its size."""
    view = file_view(file)
    row = QTreeWidgetItem(list(view.cells))
    row.setData(0, PATH_ROLE, file.path)
    row.setData(0, ORPHAN_ROLE, file.orphan_dir or "")
    row.setData(0, ROW_ROLE, row_key(file))
    for column, tip in enumerate(view.tooltips):
        if tip:
            row.setToolTip(column, tip)
    if view.muted:
        _mute(row, palette)
    return row


def _mute(row: QTreeWidgetItem, palette: QPalette) -> None:
    """Grey a row whose files are back (or cannot come back): still listed, still read."""
    color = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    for column in range(4):
        row.setForeground(column, color)


RestoreAll = Callable[
    [ChangeEvent, frozenset[str] | None, Callable[[EventRestore], None], Callable[[str], None]],
    None,
]
"""How the window restores a burst: (its event, only those files, told what it did, told
why it failed)."""

STACK_BELOW = 760  # px: narrower, the list goes above the preview (its File column readable)
LIST_KEY = "trash"
PREVIEW_KEY = "trash-preview"
RESTORE_BURST_KEY = "trash-restore-burst"


class TrashDialog(QDialog):
    """Recently deleted (see the module docstring)."""

    # a mux file: (path, version id, target VirtualPath or None for where it was, the orphaned
    # project dir it was deleted from or "")
    restore_requested = Signal(str, str, object, str)
    restore_file_requested = Signal(object)  # another agent's deleted file (`DeletedFile`)
    loaded = Signal()  # the list (or its failure) is shown

    def __init__(
        self,
        jobs: JobService,
        parent: QWidget | None = None,
        *,
        restore_all: RestoreAll | None = None,
    ) -> None:
        """An empty dialog (`show_store` lists); its reads run on `jobs`' scans lane, and
        Restore all through `restore_all` (none: on its own worker, with no undo step)."""
        super().__init__(parent)
        self._restore_all = restore_all
        self.setWindowTitle("Recently deleted")
        self.setAccessibleName("Recently deleted")
        self._store: MemoryStore | None = None
        self._sources: tuple[Source, ...] | None = None
        self._state = TrashPresenter()
        self._job_service = jobs
        self._client: JobClient | None = None  # made on first use, let go on close

        self.scope_filter = named(QComboBox(self), accessible="Scope or agent")
        self.scope_filter.addItem("Everything", None)
        for scope in SCOPE_ORDER:
            self.scope_filter.addItem(SCOPE_TITLES[scope], scope.value)
        for agent in OTHER_AGENTS:
            self.scope_filter.addItem(AGENT_TITLES[agent], agent)
        self.scope_filter.currentIndexChanged.connect(self._on_scope_filter_changed)
        self.files = FittedTree(["File", "Deleted", "By", "Size"], self, stretch=0, whole=(1,))
        self.files.setAccessibleName("Deleted files")
        self.files.setAllColumnsShowFocus(True)
        self.files.setUniformRowHeights(True)
        self.files.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a long path keeps its name
        self.files.currentItemChanged.connect(self._on_files_current_item_changed)
        self.files.itemDoubleClicked.connect(self._on_files_item_double_clicked)
        self.preview = named(QPlainTextEdit(self), accessible="Deleted content")
        self.preview.setReadOnly(True)
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
        self.restore_all_button = QPushButton("Restore &all", self)
        self.restore_all_button.setToolTip(
            "Put back every file this burst deleted or rewrote (a file changed since is "
            "left as it is)"
        )
        self.restore_all_button.clicked.connect(self._on_restore_all_button_clicked)
        actions = hbox(
            (self.note, 1), self.restore_all_button, self.restore_to_button, self.restore_button
        )
        vbox(hbox(self.scope_filter, 1), (splitter, 1), actions, button_box(self), on=self)
        self._recolor()
        self._update_buttons()
        fit_to_title(self)
        fit_to_screen(self, QSize(820, 520), remember="trash")

    @property
    def groups(self) -> list[TrashGroup]:
        """The deleted files by scope and agent, as last read."""
        return list(self._state.groups)

    @property
    def bursts(self) -> list[BurstFiles]:
        """The bursts listed, newest first."""
        return self._state.bursts

    @property
    def busy(self) -> bool:
        return self._client is not None and self._client.is_busy()

    def show_store(
        self,
        store: MemoryStore,
        scope: Scope | None = None,
        sources: Sequence[Source] | None = None,
    ) -> None:
        """List what `store`'s scopes and the other agents' `sources` (None: those
        discovery finds) lost (`scope`: only that one), the newest deletion selected once
        listed (where the deletions are: it opens there)."""
        if not self.isVisible():
            self.note.set_full_text("")  # opened again: what it said last time is over
        self._state.wanted_newest = True
        self._store = store
        self._sources = tuple(sources) if sources is not None else None
        self.scope_filter.blockSignals(True)
        index = self.scope_filter.findData(scope.value if scope is not None else None)
        self.scope_filter.setCurrentIndex(max(index, 0))
        self.scope_filter.blockSignals(False)
        self.reload()

    def show_burst(self, burst_id: str) -> None:
        """Select a burst once it is listed (the burst notice's Review…)."""
        self._state.wanted_burst = burst_id
        if self.select_burst(burst_id):
            self._state.wanted_burst = None

    def reload(self, *, record_first: bool = True) -> None:
        """Read the trash again (off the GUI thread); `record_first`: record what other
        programs deleted first (not when history itself just changed: it is up to date)."""
        if self._store is not None:
            job = plain(load_trash, self._store, record_first=record_first, sources=self._sources)
            self._jobs().submit_latest(LIST_KEY, job)

    def select_path(self, path: str, orphan_dir: str | None = None) -> bool:
        """Select a deleted file (of an orphaned project dir: `orphan_dir`); False when
        it is not listed."""
        for item in tree_rows(self.files):
            if item.data(0, PATH_ROLE) == path and item.data(0, ORPHAN_ROLE) == (orphan_dir or ""):
                self.files.setCurrentItem(item)
                return True
        return False

    def select_burst(self, burst_id: str) -> bool:
        """Select a burst's row (shown whatever the filter hid); False when not listed."""
        if self._state.burst(burst_id) is None:
            return False
        if not any(item.data(0, BURST_ROLE) == burst_id for item in tree_rows(self.files)):
            self.scope_filter.setCurrentIndex(0)  # everything: it is in another group
        for item in tree_rows(self.files):
            if item.data(0, BURST_ROLE) == burst_id:
                item.setExpanded(True)
                self.files.setCurrentItem(item)
                self.files.scrollToItem(item)
                return True
        return False

    def ask_target(self, item: DeletedFile) -> VirtualPath | None:
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
        """Drop the jobs under way (closing the dialog, or the window)."""
        client, self._client = self._client, None
        if client is not None:
            client.shutdown()

    def done(self, result: int) -> None:
        """Closing drops the jobs under way (reopening makes a new client)."""
        self.shutdown()
        super().done(result)

    def _jobs(self) -> JobClient:
        if self._client is None:
            self._client = self._job_service.client("trash-dialog", Lane.SCANS, parent=self)
            self._client.latest_finished.connect(self._on_client_latest_finished)
            self._client.latest_failed.connect(self._on_client_latest_failed)
        return self._client

    def _show_groups(self, groups: list[TrashGroup]) -> None:
        selected = self._selection_key()
        self._state.take(groups)
        palette = self.palette()
        self.files.blockSignals(True)
        self.files.clear()
        for group in self._state.shown(self.scope_filter.currentData()):
            header = group_row(group)
            self.files.addTopLevelItem(header)
            header.setFirstColumnSpanned(True)  # once in the tree: spanning is the view's
            for burst in group.bursts:
                row = burst_row(burst, palette)
                header.addChild(row)
                row.setFirstColumnSpanned(True)
                row.addChildren([file_row(file, palette) for file in burst.files])
                row.setExpanded(bool(burst.left_to_restore))  # a restored burst folds away
            for item in group.items:
                header.addChild(file_row(item, palette))
            if not group.items and not group.bursts:
                empty = QTreeWidgetItem([self._state.empty_words(group)])
                empty.setFlags(Qt.ItemFlag.NoItemFlags)
                header.addChild(empty)
                empty.setFirstColumnSpanned(True)
            header.setExpanded(True)
        self.files.blockSignals(False)
        if not self._select_again(selected):
            # The file shown was restored (or the filter hides it): nothing is being read.
            self.preview.clear()
            self.preview.setPlaceholderText(SELECT_PROMPT)
        wanted = self._state.wanted_burst
        if wanted is not None and self.select_burst(wanted):
            self._state.wanted_burst = None
        elif self._state.wanted_newest:
            self._state.wanted_newest = False
            self._select_newest()
        self._update_buttons()
        self.restore_all_button.setVisible(self._state.has_bursts)
        self.loaded.emit()

    def _select_newest(self) -> None:
        """The newest deletion the filter shows, selected and in view; or the words of
        what the filter hides."""
        shown = self.scope_filter.currentData()
        newest = self._state.newest(shown)
        if newest is not None:
            kind, key = newest
            self._select_again((BURST_ROLE if kind == "burst" else ROW_ROLE, key))
            current = self.files.currentItem()
            if current is not None:
                self.files.scrollToItem(current)
        elsewhere = self._state.elsewhere(shown)
        if elsewhere is not None:
            self.note.set_full_text(elsewhere)

    def _selection_key(self) -> tuple[int, str] | None:
        current = self.files.currentItem()
        for role in (BURST_ROLE, ROW_ROLE):
            if current is not None and current.data(0, role):
                return role, str(current.data(0, role))
        return None

    def _select_again(self, selected: tuple[int, str] | None) -> bool:
        if selected is None:
            return False
        role, key = selected
        for item in tree_rows(self.files):
            if item.data(0, role) == key:
                self.files.setCurrentItem(item)
                return True
        return False

    def _selected(self) -> DeletedFile | None:
        current = self.files.currentItem()
        return self._state.file(current.data(0, ROW_ROLE) if current is not None else None)

    def _selected_burst(self) -> BurstFiles | None:
        """The burst selected, or the burst of the file selected."""
        current = self.files.currentItem()
        burst_id = current.data(0, BURST_ROLE) if current is not None else None
        return None if current is None else self._state.burst_of(burst_id, self._selected())

    def _update_buttons(self) -> None:
        buttons = self._state.buttons(self._selected(), self._selected_burst())
        self.restore_button.setEnabled(buttons.restore)
        self.restore_to_button.setEnabled(buttons.restore_to)
        self.restore_all_button.setEnabled(buttons.restore_all)
        if buttons.note is not None:
            self.note.set_full_text(buttons.note)

    def _restore(self, to: VirtualPath | None) -> None:
        file = self._selected()
        if file is None or not file.restorable or self._store is None:
            return
        self.note.set_full_text(restoring_text(file))
        kind = restore_kind(file)
        if kind is Restore.BURST:
            self._restore_burst(file.burst_id, frozenset({file.path}))
        elif kind is Restore.AGENT_FILE:
            self.restore_file_requested.emit(file)
        else:
            self.restore_requested.emit(file.path, file.version.id, to, file.orphan_dir or "")

    def _restore_burst(self, burst_id: str | None, only: frozenset[str]) -> None:
        burst = self._state.burst(burst_id)
        if burst is None or self._store is None:
            return
        self.restore_all_button.setEnabled(False)
        if self._restore_all is not None:
            self._restore_all(burst.event, only, self._burst_restored, self._burst_failed)
            return
        job = plain(restore_event, self._store.home, burst.event, only)
        self._jobs().submit_latest(RESTORE_BURST_KEY, job)

    def _burst_restored(self, result: EventRestore) -> None:
        self.note.set_full_text(restored_words(result))
        self.reload(record_first=False)

    def _burst_failed(self, message: str) -> None:
        self.note.set_full_text(f"Restoring failed: {message}")
        self._update_buttons()

    def changeEvent(self, event: QEvent) -> None:
        """Follow palette changes (light ↔ dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolor()
        super().changeEvent(event)

    def _recolor(self) -> None:
        set_style_sheet(self.note, f"color: {muted_text(self.palette()).name()}")

    @Slot()
    def _on_scope_filter_changed(self) -> None:
        self._show_groups(self._state.groups)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_files_current_item_changed(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        self._update_buttons()
        self.preview.clear()
        self.preview.setPlaceholderText(SELECT_PROMPT)
        burst = self._state.burst(current.data(0, BURST_ROLE) if current is not None else None)
        if burst is not None:
            self.preview.setPlainText(burst_text(burst))
            return
        selected = self._selected()
        if selected is not None and self._store is not None:
            self.preview.setPlaceholderText(READING)
            self._jobs().submit_latest(
                PREVIEW_KEY, plain(deleted_preview, self._store.home, selected)
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
        if selected is None or not may_restore_to(selected):
            return
        target = self.ask_target(selected)
        if target is not None:
            self._restore(target)

    @Slot()
    def _on_restore_all_button_clicked(self) -> None:
        burst = self._selected_burst()
        if burst is None:
            return
        self.note.set_full_text(restoring_burst_text(burst))
        self._restore_burst(burst.id, still_gone(burst))

    @Slot(str, object)
    def _on_client_latest_finished(self, key: str, result: object) -> None:
        if key == LIST_KEY and isinstance(result, list):
            self._show_groups(result)
        elif key == RESTORE_BURST_KEY and isinstance(result, EventRestore):
            self._burst_restored(result)
        elif key == PREVIEW_KEY and isinstance(result, DeletedPreview):
            current = self.files.currentItem()
            if current is not None and current.data(0, ROW_ROLE) == row_key(result.file):
                self.preview.setPlainText(result.text)

    @Slot(str, str)
    def _on_client_latest_failed(self, key: str, message: str) -> None:
        if key == LIST_KEY:
            self.note.set_full_text(f"Cannot read what was deleted: {message}")
            self.loaded.emit()
        elif key == RESTORE_BURST_KEY:
            self._update_buttons()
            self.note.set_full_text(f"Cannot restore them: {message}")
        else:
            self.preview.setPlaceholderText(f"Cannot show it: {message}")
