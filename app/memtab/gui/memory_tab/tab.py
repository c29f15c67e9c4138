"""The Memory tab: workspace picker, search, scope tree and footer on the left; the editor
on the right.

Data flow (ARCHITECTURE "Threads and the watcher"): the window's `HomeWatcher` reports
changed paths; `ScanScheduler` turns those that concern the tab into incremental rescans
off the GUI thread. The scan's tree is merged into the model in slices, so expansion,
selection and scroll position stay. After each scan the tab feeds the footer
(`set_context`), the editor (`handle_disk_change`) and the "agent edited" badges
(`views.badges`).

The tab is the coordinator of a few collaborators, each with one job: `ScanScheduler`
(when to rescan), `SearchBox` (the search field and its searches), `TreeEditorSync`
(tree ↔ editor), `TabActions` (commands and menus), `FileOpTasks` (file operations
off the GUI thread; the rescan they cause shows their result, like any other change on
disk), `EditMarks` (the "agent edited" badges, naming who changed a file),
`SuggestionsPanel` (the offline writer's suggested memories) and `MuxPresence` (whether
mux runs, for the warnings that only matter then). They reach the tab through small
Protocols (`ScanTarget`, `ActionHost`).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from PySide6.QtCore import QObject, QPoint, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMenu,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memtab.gui.memory_tab.dialogs import TabDialogs
from memtab.gui.memory_tab.edit_marks import EditMarks
from memtab.gui.memory_tab.editor import EditorPanel
from memtab.gui.memory_tab.editor_bar import BarKind, MessageBar
from memtab.gui.memory_tab.file_op_tasks import FileOpTasks, Operation, OpFollowUp
from memtab.gui.memory_tab.footer import ConsolidationFooter
from memtab.gui.memory_tab.icons import tinted_icon
from memtab.gui.memory_tab.lazy_consolidation import LazyConsolidationTasks
from memtab.gui.memory_tab.mux_presence import MuxPresence
from memtab.gui.memory_tab.scan_scheduler import ScanScheduler
from memtab.gui.memory_tab.search_box import SearchBox
from memtab.gui.memory_tab.suggestions_panel import SuggestionsPanel
from memtab.gui.memory_tab.tab_actions import TabActions
from memtab.gui.memory_tab.tree_model import MemoryTreeModel
from memtab.gui.memory_tab.tree_sync import TreeEditorSync
from memtab.gui.memory_tab.tree_view import MemoryTreeView
from memtab.gui.style import muted_text
from memtab.gui.ui_state import UiState
from memtab.gui.workspace_picker import WorkspacePicker
from memtab.store.home import Home
from memtab.store.memory import MemoryStore
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path
from memtab.store.registry import Workspace
from memtab.views import glossary
from memtab.views.file_ops import OpResult
from memtab.views.own_writes import OwnWrites
from memtab.views.scan import HomeScan, ScanOutcome
from memtab.views.tree import NodeKind, SectionId, TreeNode, directory_key, file_key, section_key

logger = logging.getLogger(__name__)

SPLITTER_NAME = "memory"
# Small homes open fully expanded; big ones show their top-level folders only.
EXPAND_ALL_MAX_FILES = 150
_RELATIVE_TIME_REFRESH_MS = 60_000
# The tree merges a scan in slices this long, painting in between.
MERGE_SLICE_MS = 12.0


class Stoppable(Protocol):
    """A collaborator with a worker thread to stop when the window closes."""

    def shutdown(self, timeout_ms: int = ...) -> bool: ...


def workspace_identity(workspace: Workspace | None) -> tuple[str, str | None] | None:
    """What makes two workspaces show the same scopes: the id and the project identity."""
    return (workspace.id, workspace.project_identity) if workspace is not None else None


class MemoryTab(QWidget):
    """The Memory tab (see the module docstring).

    Signals:
        loaded(): the first scan is shown (used by `--screenshot` and the benchmarks).
        scan_applied(HomeScan): after every scan (the tree may still be merging it).
        tree_updated(): the tree finished showing a scan or search result.
        status_message(str): a short note for the window's status bar.
        workspace_changed(object): the shown Workspace (or None) changed.
    """

    loaded = Signal()
    scan_applied = Signal(object)
    tree_updated = Signal()
    status_message = Signal(str)
    workspace_changed = Signal(object)

    def __init__(
        self,
        home: Home,
        *,
        editor: EditorPanel,
        footer: ConsolidationFooter,
        own_writes: OwnWrites,
        consolidation: Stoppable | None = None,
        ui_state: UiState | None = None,
        workspace_id: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Compose the tab; nothing is read until `start()`.

        `workspace_id` (e.g. `--workspace`) wins over the one remembered in `ui_state`.
        The tab takes ownership of `editor`, `footer` and `consolidation`.
        """
        super().__init__(parent)
        self.setObjectName("memoryTab")
        self.home = home
        self.editor = editor
        self.footer = footer
        self.own_writes = own_writes
        self.consolidation = consolidation
        owned: object = consolidation  # a QObject in the app: its lifetime is the tab's
        if isinstance(owned, QObject):
            owned.setParent(self)
        self.ui_state = ui_state
        self.dialogs = TabDialogs(self)  # replaced by canned answers in tests
        self._explicit_workspace = workspace_id is not None
        remembered = ui_state.workspace_for(home.root) if ui_state is not None else None
        self._workspace_id: str | None = workspace_id or remembered
        self._scan: HomeScan | None = None
        self._loaded = False
        self._select_after_scan: tuple[str, bool] | None = None
        self._after_merge: Callable[[], None] | None = None
        self._reopen_pending = False

        self.model = MemoryTreeModel(self)
        self.tree = MemoryTreeView(self)
        self.tree.setModel(self.model)
        self.marks = EditMarks(home, self.model, editor, own_writes, ui_state, self)
        self.suggestions = SuggestionsPanel(home, own_writes, self)
        self.mux = MuxPresence(home, self)
        self.sync = TreeEditorSync(self.tree, self.model, editor, self)
        self.scans = ScanScheduler(home, self, self)
        self.search_box = SearchBox(self, self.tree, self.model, self.sync, self)
        self.file_ops = FileOpTasks(self)
        self.commands = TabActions(self, self.tree, self.model, editor, own_writes, self)
        self._build_ui()
        self._connect()
        self._merge_timer = QTimer(self)
        self._merge_timer.setSingleShot(True)
        self._merge_timer.setInterval(0)
        self._merge_timer.timeout.connect(self._on_merge_timer_timeout)
        self._time_refresh = QTimer(self)
        self._time_refresh.setInterval(_RELATIVE_TIME_REFRESH_MS)
        self._time_refresh.timeout.connect(self._on_time_refresh_timeout)
        self._time_refresh.start()

    # -- construction ----------------------------------------------------------------------

    def _build_ui(self) -> None:
        self.picker = WorkspacePicker(self)
        self.search_edit = self.search_box.edit
        self.new_button = QToolButton(self)
        self.new_button.setAccessibleName("New")
        self.new_button.setToolTip("New memory file or folder")
        self.new_button.setIcon(tinted_icon("new-file", muted_text(self.palette())))
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.new_button.setAutoRaise(True)
        self.commands.fill_new_menu(self.new_button)
        search_row = QHBoxLayout()
        search_row.setSpacing(4)
        search_row.addWidget(self.search_edit, 1)
        search_row.addWidget(self.new_button)

        self.message_bar = MessageBar(self)
        left = QWidget(self)
        left.setObjectName("memoryTreePane")
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(8, 8, 4, 6)
        left_layout.setSpacing(6)
        left_layout.addWidget(self.picker)
        left_layout.addLayout(search_row)
        left_layout.addWidget(self.message_bar)
        left_layout.addWidget(self.suggestions)
        left_layout.addWidget(self.tree, 1)
        left_layout.addWidget(self.footer)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("memorySplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.editor)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        sizes = self.ui_state.splitter_sizes(SPLITTER_NAME) if self.ui_state else None
        self.splitter.setSizes(sizes if sizes and len(sizes) == 2 else [430, 850])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

        commands = self.commands
        self.find_action = commands.add_action("Search memories", self.focus_search, "Ctrl+Shift+F")
        # F3 in the tree; in the editor its own F3 (find next in the file) wins.
        self.next_match_action = commands.add_action(
            "Next search result", self.next_match, QKeySequence.StandardKey.FindNext
        )
        self.previous_match_action = commands.add_action(
            "Previous search result", self.previous_match, QKeySequence.StandardKey.FindPrevious
        )
        self.reload_action = commands.add_action("Reload from disk", self.rescan_all, "F5")
        self.new_file_action = commands.new_file_action
        self.new_folder_action = commands.new_folder_action
        self.pin_action = commands.pin_action
        self.rename_action = commands.rename_action
        self.delete_action = commands.delete_action
        self.delete_orphan_action = commands.delete_orphan_action
        self._set_tab_order()

    def _set_tab_order(self) -> None:
        """Picker → search → tree → editor → footer (the editor sits right of the footer
        on screen, but is where the keyboard goes after choosing a file)."""
        chain: list[QWidget] = []
        widget = self.picker.combo.nextInFocusChain()
        while widget is not None and widget is not self.picker.combo and len(chain) < 1000:
            chain.append(widget)
            widget = widget.nextInFocusChain()

        def inside(container: QWidget) -> list[QWidget]:
            return [
                w
                for w in chain
                if w is not container
                and container.isAncestorOf(w)
                and w.focusPolicy() & Qt.FocusPolicy.TabFocus
            ]

        order = [self.picker.combo, self.search_edit, self.new_button, self.tree]
        order += inside(self.editor) + inside(self.footer)
        for first, second in itertools.pairwise(order):
            QWidget.setTabOrder(first, second)

    def _connect(self) -> None:
        self.scans.scan_finished.connect(self._on_scans_scan_finished)
        self.scans.scan_failed.connect(self._on_scans_scan_failed)
        self.search_box.results_found.connect(self._on_search_box_results_found)
        self.file_ops.op_finished.connect(self._on_file_ops_op_finished)
        self.file_ops.op_failed.connect(self._on_file_ops_op_failed)
        self.picker.workspace_requested.connect(self._on_picker_workspace_requested)
        self.editor.file_opened.connect(self._on_editor_file_opened)
        self.editor.file_closed.connect(self._on_editor_file_closed)
        self.suggestions.status_message.connect(self.status_message)
        self.mux.changed.connect(self._on_mux_changed)
        if isinstance(self.consolidation, LazyConsolidationTasks):
            self.marks.follow(self.consolidation)

    # -- public API ------------------------------------------------------------------------

    @property
    def scan(self) -> HomeScan | None:
        """The scan the tree shows (None before the first one lands)."""
        return self._scan

    @property
    def workspace_id(self) -> str | None:
        """The workspace asked for (the scan may show another when it is unknown)."""
        return self._workspace_id

    @property
    def workspace(self) -> Workspace | None:
        """The workspace shown."""
        return self._scan.workspace if self._scan is not None else None

    @property
    def is_loaded(self) -> bool:
        """Whether the first scan has been shown."""
        return self._loaded

    @property
    def is_idle(self) -> bool:
        """Whether nothing is scanning, searching, running a file operation or merging
        (tests wait for this instead of sleeping)."""
        return not (
            self.scans.busy
            or self.search_box.busy
            or self.file_ops.busy
            or self.model.merging
            or self._merge_timer.isActive()
        )

    @property
    def agent_edited(self) -> frozenset[str]:
        """Physical paths of files with the "agent edited" badge."""
        return self.marks.edits.paths

    def store(self) -> MemoryStore:
        """A store for the shown workspace."""
        return MemoryStore(self.home, self.workspace)

    def start(self) -> None:
        """Read the home for the first time (off the GUI thread)."""
        self.scans.request(None)

    def handle_paths_changed(self, paths: Iterable[str]) -> None:
        """What the window's watcher reported: rescan what it touches (transcripts, writer
        traces and Memtab's own lock files do not concern this tab)."""
        relevant = [path for path in paths if self.scans.concerns(path)]
        if relevant:
            self.scans.request(relevant)
        self.suggestions.handle_paths_changed(paths)

    @Slot(object)
    def _on_watcher_paths_changed(self, paths: list[str]) -> None:
        self.handle_paths_changed(paths)

    def rescan_all(self) -> None:
        """Reread everything (F5)."""
        self.scans.request(None)

    def confirm_close(self) -> bool:
        """The unsaved-changes guard for closing the window."""
        return self.editor.confirm_discard()

    def save_ui_state(self) -> None:
        """Remember splitter sizes and badges (the window saves the file)."""
        if self.ui_state is not None:
            self.ui_state.set_splitter_sizes(SPLITTER_NAME, self.splitter.sizes())
            self.marks.save()

    def shutdown(self) -> None:
        """Stop every worker thread (on window close)."""
        self._time_refresh.stop()
        self._merge_timer.stop()
        self.scans.shutdown()
        self.search_box.shutdown()
        self.file_ops.shutdown()
        self.suggestions.shutdown()
        self.mux.shutdown()
        self.editor.shutdown()
        if self.consolidation is not None:
            self.consolidation.shutdown()

    def switch_workspace(self, workspace_id: str | None) -> bool:
        """Show another workspace; False if the user kept unsaved changes instead."""
        if workspace_id == self._workspace_id and self._scan is not None:
            return True
        if not self.editor.confirm_discard():
            return False
        self._workspace_id = workspace_id
        self._explicit_workspace = False
        if self.ui_state is not None:
            self.ui_state.set_workspace(self.home.root, workspace_id)
            self.ui_state.save()
        workspace = (
            self._scan.registry.workspace(workspace_id) if self._scan and workspace_id else None
        )
        self.editor.set_store(MemoryStore(self.home, workspace))
        self.picker.select_workspace(workspace_id)
        self.scans.request(None, supersede=True)
        return True

    def focus_search(self) -> None:
        """Ctrl+Shift+F: put the cursor in the search box."""
        self.search_box.focus()

    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...] = ()
    ) -> None:
        """Open `path` of `workspace_id` (switching to it) with `lines` highlighted, as
        soon as the tree shows it (e.g. the notes the writer just recorded)."""
        switching = workspace_id != self._workspace_id
        if switching and not self.switch_workspace(workspace_id):
            return
        self.sync.reveal(path, lines, now=not switching)  # else once its tree is shown

    def show_suggestions(self, workspace_id: str | None) -> None:
        """Show the suggested memories of `workspace_id` (switching to it)."""
        if workspace_id == self._workspace_id or self.switch_workspace(workspace_id):
            self.suggestions.reveal()

    def next_match(self) -> None:
        """F3: the next matching line of the search results, in the editor."""
        if not self.sync.step_match(forward=True):
            self.show_status("No matching lines: type in the search box first")

    def previous_match(self) -> None:
        """Shift+F3: the previous matching line of the search results."""
        if not self.sync.step_match(forward=False):
            self.show_status("No matching lines: type in the search box first")

    # -- what the collaborators ask of the tab (ActionHost) ----------------------------------

    def run_op(self, operation: Operation, follow_up: OpFollowUp | None = None) -> None:
        """Run a file operation off the GUI thread; its rescan shows the result."""
        self.file_ops.run(operation, follow_up)

    def show_menu(self, menu: QMenu, where: QPoint) -> None:
        """Run a context menu (modal); a seam for tests."""
        menu.exec(where)

    def show_status(self, text: str) -> None:
        """A short note for the window's status bar."""
        self.status_message.emit(text)

    def show_error(self, text: str) -> None:
        """An error in the tab's bar (and the status bar)."""
        self.message_bar.show_message(BarKind.ERROR, text)
        self.status_message.emit(text)

    # -- scans -------------------------------------------------------------------------------

    @Slot(object)
    def _on_scans_scan_finished(self, outcome: ScanOutcome) -> None:
        previous = self._scan
        scan = outcome.scan
        self._scan = scan
        same_workspace = previous is not None and workspace_identity(
            previous.workspace
        ) == workspace_identity(scan.workspace)
        if not same_workspace:
            self._on_workspace_shown(scan)
        self.picker.set_registry(
            scan.registry, self._workspace_id, readable=scan.registry_error is None
        )
        self.marks.scanned(scan, first=not same_workspace)
        if self.search_box.query.active:
            self.model.set_agent_edited(self.marks.badges)
            self.search_box.search(scan)
        else:
            tree = outcome.presented
            assert isinstance(tree, TreeNode)
            self._show_tree(tree, None if self._loaded else self._on_first_tree_shown)
        self.footer.set_context(scan.workspace, scan.status, list(scan.recent_runs) or None)
        if same_workspace and not scan.changes.empty:
            with self.marks.opening_quietly():  # a reload is not the user opening it
                self.editor.handle_disk_change(set(scan.changes.changed), set(scan.changes.deleted))
        if scan.registry_error:
            self.show_error(scan.registry_error)
        self.scan_applied.emit(scan)

    def _on_workspace_shown(self, scan: HomeScan) -> None:
        if scan.workspace_note and self._explicit_workspace:
            self.show_error(scan.workspace_note + "; showing another workspace instead.")
        self._workspace_id = scan.workspace.id if scan.workspace is not None else None
        self._reopen_pending = True
        # Keeps the open file when only the scan caught up with a switch already made.
        self.editor.set_store(scan.store())
        self.suggestions.set_workspace(scan.workspace)
        self.workspace_changed.emit(scan.workspace)

    @Slot(str)
    def _on_scans_scan_failed(self, message: str) -> None:
        self.show_error(message)

    # -- merging a tree into the model -------------------------------------------------------

    def _show_tree(self, tree: TreeNode, then: Callable[[], None] | None = None) -> None:
        """Merge `tree` into the model in slices of a few ms (the GUI stays responsive
        even when thousands of rows change), then run the follow-ups and `then`."""
        self.model.start_merge(tree, self.marks.badges)
        self._after_merge = then
        self._continue_merge()

    @Slot()
    def _on_merge_timer_timeout(self) -> None:
        self._continue_merge()

    def _continue_merge(self) -> None:
        with self.sync.quietly():
            done = self.model.continue_merge(MERGE_SLICE_MS)
        if not done:
            self._merge_timer.start()
            return
        after, self._after_merge = self._after_merge, None
        if after is not None:
            after()
        if self._reopen_pending and self._loaded:
            self._reopen_pending = False
            self._reopen_remembered_file()
        self.sync.show_open_file()
        self.sync.reveal_if_shown()
        if self._select_after_scan is not None:
            key, open_it = self._select_after_scan
            if self.model.node_for_key(key) is not None:
                self._select_after_scan = None
                self.sync.select_key(key, open_it)
        self.tree_updated.emit()

    def _on_first_tree_shown(self) -> None:
        self._expand_defaults()
        self._loaded = True
        self._reopen_remembered_file()
        self.sync.mark_keyboard_row()
        self.mux.check()
        if self._scan is not None:
            self.search_box.warm(self._scan)
        self.loaded.emit()

    def _expand_defaults(self) -> None:
        total = self._scan.file_count if self._scan is not None else 0
        keys = {section_key(SectionId(scope.value)) for scope in Scope}
        if total <= EXPAND_ALL_MAX_FILES:
            keys.update(
                node.key
                for node in self.model.nodes()
                if node.kind is NodeKind.DIRECTORY and not node.read_only
            )
        self.tree.set_expanded_keys(keys)

    @Slot(object)
    def _on_search_box_results_found(self, tree: TreeNode) -> None:
        self._show_tree(tree, self._on_search_tree_shown)

    def _on_search_tree_shown(self) -> None:
        self.search_box.after_tree_shown()
        if not self._loaded:
            self._on_first_tree_shown()

    # -- the open file -----------------------------------------------------------------------

    @Slot(object)
    def _on_editor_file_opened(self, path: object) -> None:
        if isinstance(path, VirtualPath):
            self.sync.clear_line_highlight()
            self.sync.show_open_file()
            self._remember_open_file(str(path))

    @Slot()
    def _on_editor_file_closed(self) -> None:
        # Nothing in the tree stays selected for a file the editor no longer shows.
        self.sync.clear_selection()

    @Slot(object)
    def _on_mux_changed(self, may_run: bool) -> None:
        note = glossary.PINS_WITH_MUX if may_run else glossary.PINS_WITHOUT_MUX
        self.model.pin_note = note
        self.commands.set_pin_note(note)

    def _remember_open_file(self, path: str) -> None:
        # Only opening is remembered: a file closed or deleted since is skipped on reopen.
        if self.ui_state is not None and self._loaded:
            self.ui_state.set_open_file(self.home.root, self._workspace_id, path)

    def _reopen_remembered_file(self) -> None:
        """Open the file that was open last time in this workspace, if it still exists."""
        if self.ui_state is None or self.editor.current_path is not None:
            return
        remembered = self.ui_state.open_file_for(self.home.root, self._workspace_id)
        if remembered is None:
            return
        try:
            key = file_key(parse_file_path(remembered))
        except PathError:
            return
        if self.model.node_for_key(key) is not None:
            with self.marks.opening_quietly():  # the user has not looked at it yet
                self.sync.select_key(key, open_it=True)

    @Slot(str)
    def _on_picker_workspace_requested(self, workspace_id: str) -> None:
        if not self.switch_workspace(workspace_id):
            self.picker.select_workspace(self._workspace_id)

    # -- file-operation follow-ups -----------------------------------------------------------

    @Slot(object, object)
    def _on_file_ops_op_finished(self, result: OpResult, follow_up: OpFollowUp) -> None:
        if result.ok:
            self.message_bar.clear()
            self.status_message.emit(result.message)
        else:
            self.show_error(f"{result.message}: {result.error}")
        for old, _new in result.moved:
            self.marks.moved_away(old)
        if result.created is not None:
            created = result.created
            is_file = follow_up.open_created
            key = file_key(created) if is_file else directory_key(created)
            self._select_after_scan = (key, is_file)
        for old_open, new_open in (follow_up.reopen or {}).items():
            if any(old_open.is_within(old) for old, _new in result.moved):
                self.editor.close_file()
                self._select_after_scan = (file_key(new_open), True)
        self.scans.request([path for path in result.touched if path])

    @Slot(str)
    def _on_file_ops_op_failed(self, message: str) -> None:
        self.show_error(message)

    @Slot()
    def _on_time_refresh_timeout(self) -> None:
        self.tree.viewport().update()
