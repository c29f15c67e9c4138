"""The Memory tab's settled half: `MemoryTabController` places the parts built after the paint
(editor, footer, search, file actions, Inbox, badges…) in the frame, wires them to each other
and the context, and takes each scan shown from the frame (`MemoryTab.settle`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, SignalInstance, Slot
from PySide6.QtWidgets import QApplication, QMenu, QSplitter, QToolButton, QWidget

from memtab.components import glossary
from memtab.components.activity.badges import Badge
from memtab.components.editor.session import BarKind
from memtab.components.files.ops import OpResult, ref_on_disk
from memtab.components.memory_tab import (
    FileFollowUps,
    OpShown,
    VisitedFiles,
    op_shown,
    remembered_ref,
    tabs_to_reopen,
    unsaved_marks,
)
from memtab.components.tree.nodes import TreeNode, ref_key
from memtab.components.tree.scan import HomeScan
from memtab.components.tree.scan_steps import ScanSteps
from memtab.components.window.ui_state import UiState
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.activity.edit_marks import EditMarks
from memtab.gui.activity.mux_presence import MuxPresence
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.context import WindowContext
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.editor.tab.held_keys import TypedAhead
from memtab.gui.files.dialogs import TabDialogs
from memtab.gui.files.file_actions import FileActions
from memtab.gui.memory_tab.overlay import TreeOverlay
from memtab.gui.memory_tab.panes import Pane, PaneSwitch
from memtab.gui.search.box import SearchBox
from memtab.gui.tasks.file_ops import OpFollowUp
from memtab.gui.toolkit.clock import QT_CLOCK
from memtab.gui.tree.editor_link import TreeEditorLink
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.scan_scheduler import ScanScheduler
from memtab.gui.tree.sources import SourcesFollower
from memtab.gui.tree.view import MemoryTreeView
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_view import ScopeView


class TabFiles(QObject):
    """Follows the open file and file operations (see the module docstring)."""

    def __init__(
        self,
        context: WindowContext,
        host: TabHost,
        *,
        model: MemoryTreeModel,
        editor_link: TreeEditorLink,
        editor: EditorPanel,
        marks: EditMarks,
        sources: SourcesFollower,
        scans: ScanScheduler,
        message_bar: MessageBar,
        panes: PaneSwitch,
        parent: QObject | None = None,
    ) -> None:
        """Listen to `editor`'s opened and closed files and the file operations' results."""
        super().__init__(parent)
        self._context = context
        self._host = host
        self._model = model
        self._editor_link = editor_link
        self._editor = editor
        self._marks = marks
        self._sources = sources
        self._scans = scans
        self._message_bar = message_bar
        self._panes = panes
        self._follow_ups = FileFollowUps()
        self._typed_ahead = TypedAhead(self)
        self.visited = VisitedFiles()  # Back and Forward
        for action_id, text, step, keys, tip in (
            # not StandardKey.Back: Backspace on some desktops
            ("editor.back", "&Back", -1, ["Alt+Left", "Back"],
             "The file shown before this one (as after following a link)"),
            ("editor.forward", "&Forward", 1, ["Alt+Right", "Forward"],
             "The file shown after this one, before going back"),
        ):  # fmt: skip
            context.actions.add(
                action_id,
                text,
                functools.partial(self.visited.go, step, self.edit_key),
                keys=keys,
                tip=tip,
                enabled_when=functools.partial(self.visited.can_go, step),
            )
        context.file_ops.op_queued.connect(self._on_file_ops_op_queued)
        context.file_ops.op_finished.connect(self._on_file_ops_op_finished)
        context.file_ops.op_failed.connect(self._on_file_ops_op_failed)
        editor.file_opened.connect(self._on_editor_file_opened)
        editor.file_closed.connect(self._on_editor_file_closed)
        editor.tabs_changed.connect(self._on_editor_tabs_changed)
        editor.link_opened.connect(self._on_editor_link_opened)
        editor.path_opened.connect(self._on_editor_path_opened)
        for changed in (editor.dirty_changed, editor.tabs_changed, editor.saved):
            changed.connect(self._mark_unsaved)

    def workspace_shown(self) -> None:
        """Another workspace is shown: reopen its remembered file once its tree is."""
        self._follow_ups.workspace_shown()

    def after_tree_shown(self) -> None:
        """A tree was merged: reopen the remembered file if due, select what is pending."""
        follow_ups = self._follow_ups
        if follow_ups.reopens(self._host.is_loaded, self._editor.current_ref is None):
            self.reopen_remembered_file()
        self._editor_link.show_open_file()
        self._editor_link.reveal_if_shown()
        if (pending := follow_ups.to_select) is not None:
            key, open_it = pending
            if self._model.reveal(key) is not None:
                follow_ups.selected()
                self._editor_link.select_key(key, open_it)

    def reopen_remembered_file(self) -> None:
        """Open the file that was open last time in this workspace, if it still exists;
        one the tree does not show yet is looked for again until the sources show."""
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is None or self._editor.current_path is not None:
            return
        remembered = ui_state.open_file_for(self._context.home.root, shown.workspace_id)
        if remembered is None:
            return
        ref = remembered_ref(remembered)
        if ref is None:
            return
        key = ref_key(ref)
        if self._model.reveal(key) is not None:
            with self._marks.opening_quietly():  # the user has not looked at it yet
                self._reopen_remembered_tabs()
                self._editor_link.select_key(key, open_it=True)
        else:
            self._follow_ups.not_shown(self._sources.is_shown)

    def _reopen_remembered_tabs(self) -> None:
        """Open behind the current one the other tabs that were open, if still there."""
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is None:
            return
        keys = ui_state.open_tabs_for(self._context.home.root, shown.workspace_id)
        is_open = self._editor.tab_for
        for file in tabs_to_reopen(keys, shown.scan, lambda ref: is_open(ref) is not None):
            self._editor.open(file, keep=True, show=False)

    @Slot()
    def _mark_unsaved(self) -> None:
        """Mark the rows of the files with unsaved changes in a tab (and only those)."""
        tabs = ((tab.ref, tab.is_dirty) for tab in self._editor.tabs)
        self._model.set_marks("unsaved", unsaved_marks(tabs))

    def _show_key(self, key: str) -> bool:
        """Select and open the row of `key` (False: the tree does not show it)."""
        if self._model.reveal(key) is None:
            return False
        self._editor_link.select_key(key, open_it=True)
        return True

    def edit_key(self, key: str) -> bool:
        """Open the row of `key` and put the keyboard in its text — past its frontmatter
        when it was just opened — as Quick open, Back and Forward do (False: the tree does
        not show it, and the keyboard stays)."""
        if not self._show_key(key):
            return False
        self._panes.show_pane(Pane.EDITOR)
        return True

    @Slot(object)
    def _on_editor_file_opened(self, ref: MemoryFileRef) -> None:
        self.visited.visited(ref_key(ref))
        self._sources.file_opened(ref)
        self._editor_link.clear_line_highlight()
        self._editor_link.show_open_file()
        self._remember_open_file(ref.key)
        if self._follow_ups.edits(ref):  # a new file: the cursor goes to its body
            self._panes.show_pane(Pane.EDITOR, focus=False)  # narrow: the text, not the tree
            self._editor.edit_at_end()
            self._typed_ahead.send_to(self._editor.text_edit)

    @Slot()
    def _on_editor_file_closed(self) -> None:
        # Nothing in the tree stays selected for a file the editor no longer shows.
        self._editor_link.clear_selection()
        self._sources.file_closed()

    @Slot(object)
    def _on_editor_link_opened(self, ref: MemoryFileRef) -> None:
        if not self._show_key(ref_key(ref)):
            self._editor.link_missing(ref)

    @Slot(object)
    def _on_editor_path_opened(self, path: Path) -> None:
        # An `@`-import: a memory file where the tree shows it, else the file on disk.
        scan = self._context.shown.scan
        ref = ref_on_disk(scan, path) if scan is not None else None
        if ref is not None and self._show_key(ref_key(ref)):
            return
        if path.is_file():
            self._editor.open_external(path)
        else:
            self._editor.path_missing(path)

    @Slot()
    def _on_editor_tabs_changed(self) -> None:
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is not None and self._host.is_loaded:
            keys = [ref.key for ref in self._editor.open_refs]
            ui_state.set_open_tabs(self._context.home.root, shown.workspace_id, keys)
        if (current := self._editor.current_ref) is not None:  # opened, its text may follow
            self._remember_open_file(current.key)

    def _remember_open_file(self, path: str) -> None:
        # Only opening is remembered: a file closed or deleted since is skipped on reopen.
        ui_state, shown = self._context.ui_state, self._context.shown
        if ui_state is not None and self._host.is_loaded:
            ui_state.set_open_file(self._context.home.root, shown.workspace_id, path)

    @Slot(object)
    def _on_file_ops_op_queued(self, follow_up: OpFollowUp) -> None:
        if follow_up.edit_created:  # New file: the user types on, into the file to come
            self._typed_ahead.hold(self._editor.window())

    @Slot(object, object)
    def _on_file_ops_op_finished(self, result: OpResult, follow_up: OpFollowUp) -> None:
        if follow_up.edit_created and result.created is None:
            self._typed_ahead.drop()  # no file was made: nothing to type into
        shown, words = op_shown(result, follow_up.without_copy is not None)
        if shown is OpShown.DONE:
            self._message_bar.clear()
            self._context.status.show(words)
        elif shown is OpShown.ASK_WITHOUT_COPY:
            self._offer_without_copy(words, result, follow_up)
        else:
            self._host.show_error(words)
        for old, _new in result.moved:
            self._marks.moved_away(old)
        self._editor.follow_moves(result.moved)
        self._follow_ups.created(
            result, open_created=follow_up.open_created, edit_created=follow_up.edit_created
        )
        self._scans.request([path for path in result.touched if path])

    def _offer_without_copy(self, refusal: str, result: OpResult, follow_up: OpFollowUp) -> None:
        """History could not keep a copy of what the operation would destroy: ask, and
        make it without one only if the user chooses to (docs/formats.md §14.2)."""
        assert result.unkept is not None and follow_up.without_copy is not None
        if self._host.dialogs.confirm_without_copy(refusal, result.unkept):
            self._context.file_ops.run(follow_up.without_copy, follow_up)
        else:
            self._context.status.show(f"{result.message}: nothing was {result.unkept}")

    @Slot(str)
    def _on_file_ops_op_failed(self, message: str) -> None:
        self._typed_ahead.drop()
        self._host.show_error(message)


INBOX_SPLITTER = "inbox"
"""The UI state's name of the editor/Inbox splitter's sizes."""
INBOX_SHARE = 0.5
"""The Inbox's share of the editor's column until the user moves the splitter."""


class InboxRoom(QObject):
    """Moves the Inbox between the tree and the editor's column (see the module doc)."""

    def __init__(
        self,
        inbox: InboxPanel,
        overlay: TreeOverlay,
        below_editor: QSplitter,
        panes: PaneSwitch,
        ui_state: UiState | None,
        parent: QObject | None = None,
    ) -> None:
        """Place `inbox` (over the tree in `overlay`, or below the editor in
        `below_editor`) as `panes` is narrow or wide, from now on."""
        super().__init__(parent)
        self._inbox = inbox
        self._overlay = overlay
        self._splitter = below_editor
        self._state = ui_state
        self._sized = False  # the splitter has its sizes (remembered, or the first share)
        self._fit_soon = QT_CLOCK.timer(self, self._fit, single_shot=True)
        below_editor.splitterMoved.connect(self._on_splitter_moved)
        inbox.reviewing_changed.connect(self._on_inbox_reviewing_changed)
        inbox.installEventFilter(self)
        panes.narrow_changed.connect(self._place)
        self._place(panes.narrow)

    @property
    def below_editor(self) -> bool:
        """Whether the Inbox sits below the editor (a wide tab)."""
        return self._inbox.parentWidget() is self._splitter

    def _place(self, narrow: bool) -> None:
        if narrow:
            if self.below_editor:
                self._overlay.add(self._inbox)  # reparented: out of the splitter
            elif self._inbox not in self._overlay.panels:
                self._overlay.add(self._inbox)
            self._inbox.set_roomy(False)
            return
        self._overlay.remove(self._inbox)
        self._splitter.addWidget(self._inbox)
        self._splitter.setStretchFactor(0, 1)
        self._splitter.setStretchFactor(1, 0)
        self._inbox.set_roomy(True)
        if not self._sized and not self._inbox.isHidden():
            self._size()

    def _size(self) -> None:
        """The splitter's sizes as the Inbox first shows below the editor, and as a review
        shows in it: remembered, or `INBOX_SHARE` of the column it has then."""
        self._sized = True
        sizes = self._state.splitter_sizes(INBOX_SPLITTER) if self._state else None
        if sizes is not None and len(sizes) == 2 and min(sizes) > 0:
            self._splitter.setSizes(sizes)
            return
        total = sum(self._splitter.sizes()) or self._splitter.height()
        share = int(total * INBOX_SHARE)
        self._splitter.setSizes([total - share, share])

    def _fit(self) -> None:
        """Without a review, the Inbox as tall as what it shows, at the bottom of the
        column (its buttons stay where they were as details come and go); the editor takes
        the rest."""
        if self._inbox.reviewing or not self.below_editor or self._inbox.isHidden():
            return
        total = sum(self._splitter.sizes())
        wanted = min(self._inbox.sizeHint().height(), total)
        if total and self._splitter.sizes()[1] != wanted:
            self._splitter.setSizes([total - wanted, wanted])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The Inbox shows (something waits) below the editor: size the splitter once."""
        # Asked of Show and LayoutRequest alone: other events come while the window is
        # torn down, when the splitter is no longer one. Not while the splitter is taking
        # the Inbox in (`_place` sizes it then).
        kind = event.type()
        if watched is not self._inbox or kind not in _FITTING_EVENTS:
            return False
        if self._splitter.indexOf(self._inbox) != 1:
            return False
        if kind == QEvent.Type.Show and not self._sized:
            self._size()
        self._fit_soon.start(0)
        return False

    @Slot(bool)
    def _on_inbox_reviewing_changed(self, reviewing: bool) -> None:
        """A review shows: the Inbox gets its room again (without one it is no taller
        than its rows, the editor taking the rest)."""
        if not self.below_editor:
            return
        if reviewing:
            self._size()
        else:
            self._fit()

    @Slot(int, int)
    def _on_splitter_moved(self, _position: int, _index: int) -> None:
        # The room a review is given (without one, the Inbox is as tall as its rows).
        if self._state is not None and self.below_editor and self._inbox.reviewing:
            self._state.set_splitter_sizes(INBOX_SPLITTER, self._splitter.sizes())


_FITTING_EVENTS = frozenset({QEvent.Type.Show, QEvent.Type.LayoutRequest})
"""The Inbox's events its room follows: it shows, what it shows changed."""


Thunk = Callable[[], object]
INBOX_KEY = "Ctrl+Shift+I"
SEARCH_KEY = "Ctrl+Shift+F"
NOTHING_WAITS = "Nothing waits in the Inbox: no agent proposed a memory for this workspace"


class TabFrame(Protocol):
    """What the controller asks of the tab's frame (`gui.first_paint.memory_tab.MemoryTab`,
    which sits above this package)."""

    @property
    def tree_updated(self) -> SignalInstance: ...
    @property
    def watch_targets_changed(self) -> SignalInstance: ...
    @property
    def sources_loaded(self) -> SignalInstance: ...
    @property
    def tree(self) -> MemoryTreeView: ...
    @property
    def model(self) -> MemoryTreeModel: ...
    @property
    def panes(self) -> PaneSwitch: ...
    @property
    def overlay(self) -> TreeOverlay: ...
    @property
    def below_editor(self) -> QSplitter: ...
    @property
    def new_button(self) -> QToolButton: ...
    @property
    def scan(self) -> HomeScan | None: ...
    @property
    def workspace_id(self) -> str | None: ...
    @property
    def is_loaded(self) -> bool: ...
    def is_searching(self) -> bool: ...
    def show_menu(self, menu: QMenu, where: QPoint) -> None: ...
    def show_error(self, text: str) -> None: ...
    def rescan_all(self) -> None: ...
    def place_parts(
        self, search_field: QWidget, over_tree: list[QWidget], footer: QWidget, editor: QWidget
    ) -> None: ...
    def settle(self, controller: MemoryTabController) -> None: ...
    def show_search_results(self, tree: TreeNode, then: Callable[[], None]) -> None: ...
    def switch_workspace(self, workspace_id: str | None, then: Thunk) -> None: ...
    def show_workspace(self, workspace_id: str | None) -> None: ...
    def stop_scanning(self) -> None: ...
    def bring_forward(self) -> None: ...


class TabHost:
    """What the tree's file actions and the open file ask of the tab (`FileActions`'
    `TabForFileActions`, `TabFiles`' `FilesHost`): the frame's menus, errors and rescans,
    and the dialogs they ask through (`dialogs`: the seam tests answer instead)."""

    def __init__(self, frame: TabFrame, dialogs: TabDialogs) -> None:
        self._frame = frame
        self.dialogs = dialogs

    @property
    def is_loaded(self) -> bool:
        return self._frame.is_loaded

    def is_searching(self) -> bool:
        return self._frame.is_searching()

    def show_menu(self, menu: QMenu, where: QPoint) -> None:
        self._frame.show_menu(menu, where)

    def show_error(self, text: str) -> None:
        self._frame.show_error(text)

    def rescan_all(self) -> None:
        self._frame.rescan_all()


class MemoryTabController(QObject):
    """The Memory tab's settled half (see the module docstring); its parts are its
    arguments, read by the window's other features."""

    def __init__(
        self,
        frame: TabFrame,
        context: WindowContext,
        *,
        consolidation: ConsolidationTasks,
        host: TabHost,
        editor: EditorPanel,
        footer: ConsolidationFooter,
        marks: EditMarks,
        inbox: InboxPanel,
        mux: MuxPresence,
        sources: SourcesFollower,
        editor_link: TreeEditorLink,
        search_box: SearchBox,
        file_actions: FileActions,
        files: TabFiles,
        message_bar: MessageBar,
        news_bar: MessageBar,
        parent: QObject | None = None,
    ) -> None:
        """Place the parts in `frame`, wire them, and settle the frame (`assembled`)."""
        super().__init__(parent)
        self.frame = frame
        self.context = context
        self.consolidation = consolidation
        self.host = host
        self.editor = editor
        self.footer = footer
        self.marks = marks
        self.inbox = inbox
        self.mux = mux
        self.sources = sources
        self.editor_link = editor_link
        self.search_box = search_box
        self.file_actions = file_actions
        self.files = files
        self.message_bar = message_bar
        self.news_bar = news_bar
        self._place()
        self._wire()
        frame.settle(self)

    def _place(self) -> None:
        frame = self.frame
        self.file_actions.fill_new_menu(frame.new_button)
        over_tree: list[QWidget] = [self.message_bar, self.news_bar, self.inbox]
        frame.place_parts(self.search_box.edit, over_tree, self.footer, self.editor)
        frame.panes.follow(self.context.actions, frame.tree, self.editor)
        self.inbox_room = InboxRoom(
            self.inbox,
            frame.overlay,
            frame.below_editor,
            frame.panes,
            self.context.ui_state,
            self,
        )

    def _wire(self) -> None:
        frame, context = self.frame, self.context
        self.search_box.results_found.connect(self._on_search_box_results_found)
        self.inbox.status_message.connect(context.status.show)
        self.inbox.agent_accepting.connect(self.marks.claim_agent)  # badged as the agent's
        self.sources.status_message.connect(context.status.show)
        self.sources.watch_targets_changed.connect(frame.watch_targets_changed)
        self.sources.shown.connect(frame.sources_loaded)
        frame.tree_updated.connect(self.sources.tree_shown)
        self.mux.changed.connect(self._on_mux_changed)
        self.marks.follow(self.consolidation)
        self.inbox.way_back.returning.connect(self._on_keyboard_returning)
        context.actions.add(
            "search.focus",
            "Search memories",
            self.focus_search,
            keys=[SEARCH_KEY],
            menu="edit",
            tip="Put the cursor in the search box (the files shown beside a terminal)",
        )
        context.actions.add(
            "inbox.focus",
            "&Inbox",
            self.focus_inbox,
            keys=[INBOX_KEY],
            menu="view",
            tip="Put the keyboard in the Inbox: what agents proposed, to accept or reject "
            "(Escape goes back)",
        )

    @property
    def dialogs(self) -> TabDialogs:
        return self.host.dialogs

    @dialogs.setter
    def dialogs(self, dialogs: TabDialogs) -> None:
        """Ask through `dialogs` from now on (tests: canned answers)."""
        self.host.dialogs = dialogs

    # -- what the frame asks (`first_paint.memory_tab.TabController`) ----------------------

    @property
    def badges(self) -> Mapping[str, Badge]:
        return self.marks.badges

    @property
    def agent_edited(self) -> frozenset[str]:
        return self.marks.edits.paths

    @property
    def busy(self) -> bool:
        """Whether a search runs or the editor reads a file."""
        return self.search_box.busy or self.editor.reading

    @property
    def sources_shown(self) -> bool:
        return self.sources.is_shown

    @property
    def has_unsaved_tabs(self) -> bool:
        return self.editor.has_unsaved_tabs

    def leave(self, then: Callable[[], None]) -> None:
        """Ask about the unsaved tabs (without blocking), then `then` unless kept."""
        self.editor.leave(then)

    def is_searching(self) -> bool:
        return self.search_box.query.active

    def quietly(self) -> AbstractContextManager[None]:
        """The tree changes without the editor following its selection."""
        return self.editor_link.quietly()

    def scan_shown(self, scan: HomeScan, steps: ScanSteps) -> None:
        """Feed a scan to the parts; a search under way searches it again."""
        self._apply(scan, steps)
        if steps.search_again:
            self.frame.model.set_agent_edited(self.marks.badges)
            self.search_box.search(scan)

    def files_changed(self, changed: frozenset[MemoryFileRef]) -> None:
        """The open tabs of `changed` files follow the disk."""
        with self.marks.opening_quietly():  # a reload is not the user opening it
            self.editor.follow_changes(changed, self.editor_link.open_file)

    def catch_up(self, scan: HomeScan, steps: ScanSteps) -> None:
        """Feed the parts the scan the tree showed before they were built."""
        self._apply(scan, steps)
        self.marks.show()

    def tree_shown(self) -> None:
        """A tree was reconciled: reopen or select what is pending."""
        self.files.after_tree_shown()

    def first_scan_loaded(self) -> None:
        """The first scan is shown and caught up with."""
        self.files.reopen_remembered_file()
        self.editor_link.mark_keyboard_row()
        self.mux.check()

    def show_error(self, text: str) -> None:
        self.message_bar.show_message(BarKind.ERROR, text)

    def reload(self) -> None:
        """Reread what the parts read themselves (the Inbox)."""
        self.inbox.reload()

    def switch_workspace(self, workspace_id: str | None, then: Thunk) -> None:
        """Show another workspace once the drafts of the tabs it closes are saved or
        discarded (asked without blocking), then run `then` (not if drafts are kept)."""
        scan = self.frame.scan
        workspace = scan.registry.workspace(workspace_id) if scan and workspace_id else None
        view = ScopeView(self.context.home, workspace)
        switch = functools.partial(self._show_workspace, workspace_id, view, then)
        self.editor.leave(switch, self.editor.tabs_leaving(view))

    def _show_workspace(self, workspace_id: str | None, view: ScopeView, then: Thunk) -> None:
        self.frame.show_workspace(workspace_id)
        self.editor.set_store(view)
        then()

    def focus_search(self) -> None:
        """The search's key: the files shown (narrow) and the cursor in the search box."""
        self._keyboard_to_files(lambda _came_from: self.search_box.focus())

    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...]
    ) -> None:
        """Open `path` of `workspace_id` (switching to it), `lines` highlighted."""
        now = workspace_id == self.frame.workspace_id  # else: once its tree is shown
        reveal = functools.partial(self.editor_link.reveal, path, lines, now=now)
        self.frame.switch_workspace(workspace_id, reveal)

    def focus_inbox(self) -> None:
        """The Inbox's key: the files shown (narrow) and the keyboard in the Inbox, or a
        word that nothing waits."""
        if not self.inbox.items:
            self.context.status.show(NOTHING_WAITS)
            return
        self._keyboard_to_files(self.inbox.take_keyboard)

    def _keyboard_to_files(self, take: Callable[[QWidget | None], object]) -> None:
        """A key for a part of the files' pane (the search, the Inbox): the tab in front and
        the files shown (a narrow tab shows one pane: else the part takes the keyboard
        unseen), then `take` given where the keyboard was."""
        came_from = QApplication.focusWidget()  # before a narrow tab hides the editor
        self.frame.bring_forward()
        self.frame.panes.show_pane(Pane.FILES, focus=False)
        take(came_from)

    def show_suggestions(self, workspace_id: str | None) -> None:
        """Show the Inbox of `workspace_id` (switching to it)."""
        self.frame.panes.show_pane(Pane.FILES, focus=False)
        self.frame.switch_workspace(workspace_id, self.inbox.reveal)

    def save_ui_state(self) -> None:
        """Remember the badges (the window saves the file)."""
        self.marks.save()

    def shutdown(self) -> None:
        """The frame's scans stop before the parts they feed (the window stops those
        after this, the last built first)."""
        self.frame.stop_scanning()

    def _apply(self, scan: HomeScan, steps: ScanSteps) -> None:
        if steps.workspace_changed:
            self._workspace_shown(scan, steps.workspace_note)
        self.marks.scanned(scan, first=steps.workspace_changed)
        self.sources.scanned(scan)  # before the tree: a small one is shown at once
        if scan.sources is not None:  # after the watcher took their folders
            self.inbox.sources_found(scan.sources)
        self.footer.set_context(scan.workspace, scan.status, session=scan.shows_session)

    def _workspace_shown(self, scan: HomeScan, note: str | None) -> None:
        if note:
            self.frame.show_error(note)
        self.files.workspace_shown()
        # Keeps the open file when only the scan caught up with a switch already made.
        self.editor.set_store(scan.view())
        self.inbox.set_workspace(scan.workspace)
        self.context.shown.workspace_changed.emit(scan.workspace)

    @Slot(object)
    def _on_search_box_results_found(self, tree: TreeNode) -> None:
        self.frame.show_search_results(tree, self.search_box.after_tree_shown)

    @Slot(QWidget)
    def _on_keyboard_returning(self, origin: QWidget) -> None:
        """Escape in the Inbox: a narrow tab shows the editor again if the keyboard came
        from there."""
        editor = self.editor
        if origin is editor or editor.isAncestorOf(origin):
            self.frame.panes.show_pane(Pane.EDITOR, focus=False)

    @Slot(object)
    def _on_mux_changed(self, may_run: bool) -> None:
        note = glossary.PINS_WITH_MUX if may_run else glossary.PINS_WITHOUT_MUX
        self.frame.model.pin_note = note
        self.file_actions.set_pin_note(note)
