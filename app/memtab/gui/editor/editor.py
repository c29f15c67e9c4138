"""The editor panel: the open memory files as tabs, VS Code's way (a preview tab the next file
replaces, kept tabs, Save / Discard / Cancel without blocking, tabs that follow moves).
What the window asks of "the editor" is the current tab's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QFont, QMouseEvent, QPaintEvent
from PySide6.QtWidgets import (
    QMessageBox,
    QStackedWidget,
    QStyle,
    QStyleOptionTab,
    QStylePainter,
    QTabBar,
    QWidget,
)

from memtab.components.editor.leaving import DiscardChoice, Leaving, save_label, unsaved_question
from memtab.components.editor.panel import OpenTabs, moved_path, stepped_index, tab_text
from memtab.components.editor.session import BarKind
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.file_protocol.memory_file import MemoryFile, MuxFile
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor_actions import AutoSave, EditorActions
from memtab.gui.editor.tab.bar import BarKeys
from memtab.gui.editor.tab.file_tab import CurrentTab, FileTab
from memtab.gui.editor.text.view import EmptyRoom, EmptyState
from memtab.gui.tasks.jobs import JobClient, Lane
from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.gui.toolkit.dialog_layout import answer_later, message_box
from memtab.gui.toolkit.widgets import chain_tab_order, named, tab_stops, vbox
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.store.scopes.scope_view import ScopeView


class EditorTabBar(QTabBar):
    """Tabs of the open files, the preview's title in italics: a double click keeps a tab, a
    middle click closes it; titles elide in the middle and the bar scrolls, never widening."""

    keep_requested = Signal(int)  # the tab at this index was double-clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        named(self, "editorTabs", accessible="Open files")
        self.setDocumentMode(True)
        self.setTabsClosable(True)
        self.setUsesScrollButtons(True)
        self.setExpanding(False)
        self.setElideMode(Qt.TextElideMode.ElideMiddle)
        self.setSelectionBehaviorOnRemove(QTabBar.SelectionBehavior.SelectPreviousTab)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Ctrl+Tab moves between tabs
        self._preview: set[int] = set()

    def is_preview(self, index: int) -> bool:
        """Whether the tab at `index` is the preview tab (drawn in italics)."""
        return index in self._preview

    def set_preview(self, index: int, preview: bool) -> None:
        """Draw the tab at `index` as the preview tab, or as a kept one."""
        if preview:
            self._preview.add(index)
        else:
            self._preview.discard(index)
        self.update()

    def tabInserted(self, index: int) -> None:
        """Keep the preview marks on their tabs when one is inserted before them."""
        self._preview = {i + 1 if i >= index else i for i in self._preview}
        super().tabInserted(index)

    def tabRemoved(self, index: int) -> None:
        """Keep the preview marks on their tabs when one before them is removed."""
        self._preview = {i - 1 if i > index else i for i in self._preview if i != index}
        super().tabRemoved(index)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the tabs as the style does, the preview tab's label in italics."""
        if not self._preview:
            super().paintEvent(event)
            return
        painter = QStylePainter(self)
        current = self.currentIndex()
        order = [i for i in range(self.count()) if i != current]
        if current >= 0:
            order.append(current)  # the current tab overlaps its neighbours
        for index in order:
            option = QStyleOptionTab()
            self.initStyleOption(option, index)
            if not option.rect.intersects(event.rect()):
                continue
            painter.drawControl(QStyle.ControlElement.CE_TabBarTabShape, option)
            font = QFont(self.font())
            font.setItalic(index in self._preview)
            painter.setFont(font)
            painter.drawControl(QStyle.ControlElement.CE_TabBarTabLabel, option)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        """A double click keeps the tab."""
        index = self.tabAt(event.position().toPoint())
        if index >= 0 and event.button() == Qt.MouseButton.LeftButton:
            self.keep_requested.emit(index)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        """A middle click closes the tab."""
        index = self.tabAt(event.position().toPoint())
        if index >= 0 and event.button() == Qt.MouseButton.MiddleButton:
            self.tabCloseRequested.emit(index)
            event.accept()
            return
        super().mouseReleaseEvent(event)


def chain_like(model: QWidget, widget: QWidget) -> None:
    """Put `widget`'s tab stops in the focus chain after `model`'s (a new tab is made after
    the window chained its parts: Tab would reach it last)."""
    stops = tab_stops(model)
    chain_tab_order([stops[-1] if stops else model, *tab_stops(widget)])


def ask_unsaved(
    parent: QWidget, names: Sequence[str], answer: Callable[[DiscardChoice], None]
) -> QMessageBox:
    """Ask Save / Discard / Cancel about unsaved changes to `names`; `answer` is called
    once with the choice (closing the box is Cancel). Returns the open box."""
    button = QMessageBox.StandardButton
    box, buttons = message_box(
        parent,
        QMessageBox.Icon.Warning,
        "Unsaved changes",
        *unsaved_question(names),
        # "Cancel": give_mnemonics makes it Alt+C
        [(save_label(names), button.Save), ("&Discard", button.Discard), ("Cancel", button.Cancel)],
        default=0,
        window_modal=True,
    )
    answers = (DiscardChoice.SAVE, DiscardChoice.DISCARD, DiscardChoice.CANCEL)
    answer_later(box, buttons, lambda index: answer(answers[index]))  # closed: -1, Cancel
    return box


NO_WORKSPACE_NOTE = "no workspace is selected"


class EditorPanel(CurrentTab, QWidget):
    """The open memory files of the selected workspace, or of other agents, as tabs."""

    saved = Signal(object)  # a file's MemoryFileRef, after a save (of any tab)
    dirty_changed = Signal(bool)  # whether the current tab has unsaved changes
    # the current tab's MemoryFileRef, once it was opened or reopened and its text is shown, or made
    # current
    file_opened = Signal(object)
    file_closed = Signal()  # the last tab was closed (the panel shows its empty state)
    tabs_changed = Signal()  # a tab was opened, closed or kept (the UI state remembers them)
    # a link in the current tab's preview leads to this memory file (a MemoryFileRef); the tab opens
    # it where the tree shows it
    link_opened = Signal(object)
    # an `@`-import followed leads to this file on disk (a Path): the tab shows it if it is a memory
    # file, else `open_external` opens it
    path_opened = Signal(object)

    def __init__(
        self,
        context: WindowContext,
        parent: QWidget | None = None,
        *,
        clock: GuiClock = QT_CLOCK,
        tab_keys_in: QWidget | None = None,
    ) -> None:
        """No tab open; its actions are registered in `context.actions`, its diffs run on
        `context.jobs` (`shutdown()` drops them on close: the tab calls it). `clock` times
        when a slow read says "Reading…". `tab_keys_in`: where Ctrl+W, Ctrl+Tab, Ctrl+H work (the
        Memory tab: from the tree too); the panel itself by default."""
        super().__init__(parent)
        self._context = context  # its registry claims the editor's keys: keep it alive
        self._clock = clock
        self._store: MemoryStore | None = None
        self._tasks: JobClient | None = None  # the tabs' diffs, made with the first
        self._last_dirty = False
        self._quiet_switch = False
        self._tabs = OpenTabs[FileTab]()
        self._leaving = Leaving[FileTab](
            lambda tab: tab in self._tabs,
            lambda: self.current_tab,
            self.set_current_tab,
            self.close_tab,
            # Looked up at each question: tests patch the panel's `_ask_unsaved`.
            lambda names, answer: self._ask_unsaved(names, answer),  # noqa: PLW0108
        )

        self.tab_bar = EditorTabBar(self)
        self.tab_bar.currentChanged.connect(self._on_tab_bar_current_changed)
        self.tab_bar.tabCloseRequested.connect(self._on_tab_bar_tab_close_requested)
        self.tab_bar.keep_requested.connect(self._on_tab_bar_keep_requested)
        self.tab_bar.hide()
        self._stack = QStackedWidget(self)
        # With no tab open the panel shows the empty state; the empty page (a tab with no
        # file, never in the bar) stands in for the current tab's widgets only once one of
        # them is asked for: its text machinery, ~0.9 MiB, is not kept by every window.
        self._empty_state = EmptyState(self._stack)
        self._stack.addWidget(self._empty_state)
        self._empty_page: FileTab | None = None
        self.empty_room = EmptyRoom(self._stack)  # what another feature shows there
        vbox(self.tab_bar, (self._stack, 1), on=self, margins=0, spacing=0)
        self.autosave = AutoSave(
            self, lambda: list(self._tabs), context.ui_state, context.save_ui_state
        )
        self.editor_actions = EditorActions(
            context.actions, self, self, lambda: self._current.view, tab_keys_in=tab_keys_in
        )
        self.editor_actions.notice.connect(self._on_actions_notice)
        self.editor_actions.said.connect(context.status.show)
        self.bar_keys = BarKeys(context.actions, self, self, context.status.show)
        self.refresh_chrome()

    @property
    def tabs(self) -> list[FileTab]:
        """The open tabs, in the tab bar's order."""
        return list(self._tabs)

    @property
    def current_tab(self) -> FileTab | None:
        """The tab shown (None: no tab is open)."""
        return self._tabs.at(self.tab_bar.currentIndex())

    @property
    def _current(self) -> FileTab:
        return self.current_tab or self._empty

    @property
    def _shown(self) -> FileTab | None:
        return self.current_tab or self._empty_page

    @property
    def _empty(self) -> FileTab:
        """The empty page, built when first asked for (and shown then, with no tab open)."""
        if self._empty_page is None:
            self._empty_page = page = self._new_tab()
            if not self._tabs:
                self._stack.setCurrentWidget(page)
        return self._empty_page

    @property
    def _built_pages(self) -> list[FileTab]:
        """The open tabs and the empty page, if built."""
        return [*self._tabs, *([self._empty_page] if self._empty_page is not None else [])]

    def tab_for(self, ref: MemoryFileRef) -> FileTab | None:
        return self._tabs.tab_for(ref)

    def set_current_tab(self, tab: FileTab) -> None:
        self.tab_bar.setCurrentIndex(self._tabs.index(tab))

    def keep(self, tab: FileTab) -> None:
        """Make `tab` a kept tab (a preview tab is replaced by the next file opened)."""
        if not tab.kept:
            tab.kept = True
            self._retitle(tab)
            self.tabs_changed.emit()

    def next_tab(self, step: int = 1) -> None:
        """Show the tab after the current one (the first after the last; `step` -1: the
        one before), the keyboard in it: what is typed next goes into the file shown."""
        index = stepped_index(len(self._tabs), self.tab_bar.currentIndex(), step)
        if index is not None:
            self.tab_bar.setCurrentIndex(index)
            self._current.view.take_keyboard()

    def previous_tab(self) -> None:
        self.next_tab(-1)

    def close_current_tab(self) -> None:
        """Close the current tab, asking first if it has unsaved changes (Ctrl+W)."""
        tab = self.current_tab
        if tab is not None:
            self.close_tab_asking(tab)

    def close_tab_asking(self, tab: FileTab) -> None:
        """Close `tab`; with unsaved changes ask Save / Discard / Cancel first (a save
        that fails keeps it open, the bar saying why: `Leaving.close_asking`)."""
        self._leaving.close_asking(tab)

    def close_tab(self, tab: FileTab, *, remembered: bool = True) -> None:
        """Close `tab`, dropping its buffer (ask first: `close_tab_asking`);
        `remembered=False` leaves the open tabs remembered as they were (`tabs_changed` is
        not emitted: the tab closes because another workspace is shown)."""
        if tab not in self._tabs:
            return
        was_current = tab is self.current_tab
        index = self._tabs.remove(tab)
        with self._switching_quietly():
            self.tab_bar.removeTab(index)
        self._stack.removeWidget(tab)
        tab.shutdown()
        tab.deleteLater()
        self.tab_bar.setVisible(bool(self._tabs))
        if not self._tabs:
            self._stack.setCurrentWidget(self._empty_page or self._empty_state)
            self.refresh_chrome()
            self.file_closed.emit()
        elif was_current:
            self._show_current()
        if remembered:
            self.tabs_changed.emit()

    def leave(self, then: Callable[[], object], tabs: Collection[FileTab] | None = None) -> None:
        """Run `then` once the unsaved changes of `tabs` (all tabs: None) are saved or
        the user chose to discard them; Cancel, or a save that fails (the tab shown, its
        bar saying why), runs nothing. Asks once for all of them, without blocking
        (`components.editor.leaving`)."""
        self._leaving.leave(then, list(self._tabs if tabs is None else tabs))

    @property
    def open_refs(self) -> list[MemoryFileRef]:
        """The memory files open in tabs, in the tab bar's order."""
        return self._tabs.refs

    def close_files_asking(
        self, refs: Collection[MemoryFileRef], then: Callable[[], object]
    ) -> None:
        """Close the tabs of `refs` and run `then`, once their unsaved changes are saved
        or discarded (`leave`; Cancel closes nothing and runs nothing)."""
        tabs = self._tabs.of_refs(refs)

        def close_then() -> None:
            for tab in tabs:
                self.close_tab(tab)
            then()

        self.leave(close_then, tabs)

    def tabs_leaving(self, view: ScopeView | None) -> list[FileTab]:
        """The tabs `set_store(view)` would close (their files are not in its workspace)."""
        store = MemoryStore.of(view) if view is not None else None
        return [tab for tab in self._tabs if tab.file is None or tab.file.in_store(store) is None]

    def tabs_within(self, paths: Collection[VirtualPath]) -> list[FileTab]:
        """The tabs of mux files at or under `paths`."""
        return self._tabs.within(paths)

    def unsaved_within(self, paths: Collection[VirtualPath]) -> bool:
        """Whether a tab of a mux file at or under `paths` has unsaved changes."""
        return any(tab.is_dirty for tab in self.tabs_within(paths))

    def close_tabs_within(self, paths: Collection[VirtualPath]) -> None:
        """Close the tabs of mux files at or under `paths` (deleted: the caller asked)."""
        for tab in self.tabs_within(paths):
            self.close_tab(tab)

    def follow_moves(self, moves: Collection[tuple[VirtualPath, VirtualPath]]) -> None:
        """Files were moved (renamed) by Memtab: their tabs follow, buffers and all."""
        if self._store is None:
            return
        for old, new in moves:
            for tab in self.tabs_within([old]):
                assert tab.path is not None
                tab.retarget(MuxFile(self._store, moved_path(tab.path, old, new)))
                self._retitle(tab)
        self.tabs_changed.emit()

    @property
    def has_unsaved_tabs(self) -> bool:
        return self._tabs.has_unsaved

    def set_store(self, view: ScopeView | None) -> None:
        """Use the store of another workspace's scopes (`view`'s). Closes the tabs whose
        files are not there (`MemoryFile.in_store`: the same workspace of the same home, or
        another agent's file) — `leave` first."""
        self._store = store = MemoryStore.of(view) if view is not None else None
        for tab in self._tabs:
            if not tab.keep_in(store):
                self.close_tab(tab, remembered=False)

    def open_file(self, path: VirtualPath, *, keep: bool = False) -> None:
        """Open the mux file at `path` through the workspace's store (see `open`)."""
        if self._store is None:
            tab = self._tab_to_open(keep, identity=None)
            tab.show_unavailable(str(path), NO_WORKSPACE_NOTE)
            self._retitle(tab)
            return
        self.open(MuxFile(self._store, path), keep=keep)

    def open(self, file: MemoryFile, *, keep: bool = False, show: bool = True) -> None:
        """Show `file` in its tab, or open it: in the preview tab, or (`keep`) a kept one.

        Reopening an open file keeps its buffer as it is. A file that cannot be read opens
        with the error in the bar. `show=False` opens it behind the current tab."""
        tab = self.tab_for(file.ref)
        if tab is not None:
            if keep:
                self.keep(tab)
            if show and tab is not self.current_tab:
                self.set_current_tab(tab)
            elif show and not tab.reading:
                self.file_opened.emit(file.ref)
            return
        tab = self._tab_to_open(keep, identity=file.ref.key, show=show)
        tab.open(file)
        self._retitle(tab)
        self.tabs_changed.emit()

    def when_loaded(self, ref: MemoryFileRef, then: Callable[[], None]) -> None:
        """Run `then` once the text of `ref`'s tab is shown (now if it is), if that tab is
        the current one then (a match selected, lines highlighted in the text)."""
        tab = self.tab_for(ref)
        if tab is not None:
            tab.after_load(lambda: then() if tab is self.current_tab else None)

    def open_read_only(self, physical: Path, title: str, note: str) -> None:
        """Show a file that is not in a scope of this workspace (e.g. an orphan project
        dir), read-only with `note`, in the preview tab."""
        identity = f"physical:{physical}"
        tab = self._tabs.with_identity(identity)
        if tab is None:
            tab = self._tab_to_open(False, identity=identity)
            tab.open_read_only(physical, title, note)
            self._retitle(tab)
        else:
            self.set_current_tab(tab)

    def follow_changes(
        self,
        changed: Collection[MemoryFileRef],
        listed: Callable[[MemoryFileRef], MemoryFile | None] | None = None,
    ) -> None:
        """A rescan saw the files `changed` (created, modified or gone): each tab follows
        the disk when its file is one of them (`FileTab.follow_changes`)."""
        for tab in self._tabs:
            tab.follow_changes(changed, listed)

    def save(self, then: Callable[[bool], None] | None = None) -> None:
        """Save the current tab if the file on disk is still the one loaded, on the
        window's file channel; `then(True)` once saved (nothing to save counts),
        `then(False)` when its bar says why not."""
        self._current.save(then)

    @property
    def saving(self) -> bool:
        return self._tabs.saving

    @property
    def reading_refs(self) -> list[MemoryFileRef]:
        """The files of the tabs whose text is still on its way ("Reading…")."""
        return self._tabs.reading_refs

    @property
    def reading(self) -> bool:
        """Whether a tab's read is on its way (opening or following its file, a choice of
        its bar that looks at the disk)."""
        return any(tab.doc.reads.pending for tab in self._built_pages)

    def find_in_file(self, query: str | None = None) -> None:
        """Open the find bar (with `query`, else the selection) and select the first match
        from the cursor (the window's Edit → Find; also Ctrl+F in the editor)."""
        self.editor_actions.find_in_file(query)

    def shutdown(self) -> None:
        """Drop the diffs under way (call on close)."""
        self.editor_actions.stop()
        for tab in self._built_pages:
            tab.shutdown()
        if self._tasks is not None:
            self._tasks.shutdown()
            self._tasks = None

    def refresh_chrome(self) -> None:
        """Follow the current tab's state: actions, the conflict's keys, `dirty_changed`."""
        self.editor_actions.update()
        self.bar_keys.follow_bar()
        dirty = self.is_dirty
        if dirty != self._last_dirty:
            self._last_dirty = dirty
            self.dirty_changed.emit(dirty)

    def _ask_unsaved(self, names: list[str], answer: Callable[[DiscardChoice], None]) -> None:
        """Ask Save / Discard / Cancel about unsaved changes to `names` (patched in tests)."""
        ask_unsaved(self, names, answer)

    def _task_runner(self) -> JobClient:
        if self._tasks is None:
            self._tasks = self._context.jobs.client("editor-diff", Lane.JOBS, parent=self)
        return self._tasks

    def _new_tab(self) -> FileTab:
        tab = FileTab(
            self._context.own_writes,
            self._context.files,
            self._task_runner,
            self,
            clock=self._clock,
        )
        tab.saved.connect(self.saved)
        tab.opened.connect(self._on_tab_opened)
        tab.state_changed.connect(self._on_tab_state_changed)
        tab.close_requested.connect(self._on_tab_close_requested)
        tab.link_opened.connect(self._on_tab_link_opened)
        tab.action_requested.connect(self._on_tab_action_requested)
        tab.path_link_opened.connect(self.path_opened)
        tab.prompts.bar.offer_changed.connect(self.bar_keys.follow_bar)
        tab.view.text_edit.textChanged.connect(self.autosave.edited)
        tab.view.set_file_actions(self.editor_actions.file_actions)
        tab.view.set_path_actions(self.editor_actions.path_actions)
        self._stack.addWidget(tab)
        chain_like(self.tab_bar, tab)
        return tab

    def _tab_to_open(self, keep: bool, identity: str | None, *, show: bool = True) -> FileTab:
        """The tab a new file opens in: the preview tab (replaced) unless `keep`, else a new
        tab after the current one; made current when `show`."""
        tab = self._tabs.preview_to_replace(identity, keep=keep)
        if tab is None:
            tab = self._new_tab()
            tab.view.set_view_mode(self.view_mode)
            index = self._tabs.insert(tab, self.tab_bar.currentIndex(), shown=show)
            with self._switching_quietly():
                self.tab_bar.insertTab(index, "")
            self.tab_bar.show()
        tab.kept = keep
        if show and tab is not self.current_tab:
            with self._switching_quietly():
                self.set_current_tab(tab)
        if tab is self.current_tab:  # shown, or the first tab (which a bar makes current)
            self._stack.setCurrentWidget(tab)
        return tab

    def _retitle(self, tab: FileTab) -> None:
        """Say in the bar what `tab` is: its name, unsaved (●), preview (italics)."""
        if tab not in self._tabs:
            return
        index = self._tabs.index(tab)
        self.tab_bar.setTabText(index, tab_text(tab.title, dirty=tab.is_dirty))
        self.tab_bar.setTabToolTip(index, tab.tooltip)
        self.tab_bar.set_preview(index, not tab.kept)

    @contextmanager
    def _switching_quietly(self) -> Iterator[None]:
        """Tab bar changes made by code inside the block say nothing (the caller does)."""
        quiet, self._quiet_switch = self._quiet_switch, True
        try:
            yield
        finally:
            self._quiet_switch = quiet

    def _show_current(self) -> None:
        """The tab bar's current tab changed: show it, say which file is current."""
        tab = self._shown
        self._stack.setCurrentWidget(tab or self._empty_state)
        self.refresh_chrome()
        # A tab still reading says so once its text is shown.
        if tab is not None and tab.ref is not None and not tab.reading:
            self.file_opened.emit(tab.ref)

    @Slot(int)
    def _on_tab_bar_current_changed(self, _index: int) -> None:
        if not self._quiet_switch:
            self._show_current()

    @Slot(int)
    def _on_tab_bar_tab_close_requested(self, index: int) -> None:
        if (tab := self._tabs.at(index)) is not None:
            self.close_tab_asking(tab)

    @Slot(int)
    def _on_tab_bar_keep_requested(self, index: int) -> None:
        if (tab := self._tabs.at(index)) is not None:
            self.keep(tab)

    @Slot(object)
    def _on_tab_opened(self, ref: MemoryFileRef) -> None:
        tab = self.sender()
        if isinstance(tab, FileTab):
            self._retitle(tab)
        if tab is self._shown:
            self._stack.setCurrentWidget(tab)
            self.refresh_chrome()
            self.file_opened.emit(ref)

    @Slot()
    def _on_tab_state_changed(self) -> None:
        tab = self.sender()
        if isinstance(tab, FileTab):
            self._retitle(tab)
            if tab is self._shown:
                self.refresh_chrome()

    @Slot()
    def _on_tab_close_requested(self) -> None:
        tab = self.sender()
        if isinstance(tab, FileTab):
            self.close_tab_asking(tab)

    @Slot(object)
    def _on_tab_link_opened(self, ref: MemoryFileRef) -> None:
        tab = self.sender()
        if isinstance(tab, FileTab):
            self.keep(tab)  # followed a link: the page it came from stays
        self.link_opened.emit(ref)

    @Slot(str)
    def _on_tab_action_requested(self, action_id: str) -> None:
        # Another feature's action (the cut's, the loads feature's), by its registered id.
        if action_id in self._context.actions:
            self._context.actions.action(action_id).trigger()

    def open_external(self, path: Path) -> None:
        """Open the file at `path` in the external editor (a failure is a notice)."""
        self.editor_actions.open_path(path)

    def path_missing(self, path: Path) -> None:
        """Say in the current tab that the file an `@`-import names does not exist."""
        self._on_actions_notice(
            BarKind.WARNING, f"{path.name} does not exist: the import leads to {path}."
        )

    def link_missing(self, ref: MemoryFileRef) -> None:
        """Say in the current tab that the file a link leads to does not exist."""
        self._on_actions_notice(
            BarKind.WARNING, f"{ref.name} does not exist: the link leads to {ref.shown}."
        )

    @Slot(object, str)
    def _on_actions_notice(self, kind: BarKind, text: str) -> None:
        self._current.show_notice(kind, text)
