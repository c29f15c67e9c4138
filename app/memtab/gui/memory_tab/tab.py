"""The Memory tab: workspace picker, search, scope tree and footer on the left; the editor
on the right.

Data flow (ARCHITECTURE "Threads and the watcher"): the window's `HomeWatcher` reports
changed paths; the tab collects them and asks `ScanTasks` for an incremental rescan off
the GUI thread (one at a time — changes arriving meanwhile are folded into the next one;
a workspace switch supersedes the scan in flight). The scan's tree is merged into the
model, so expansion, selection and scroll position stay. After each scan the tab feeds
the footer (`set_context`), the editor (`handle_disk_change`) and the "agent edited"
badges (changed files that `OwnWrites` does not claim).

File operations (create, move, delete, pin) run on their own worker (`file_ops`); the
rescan they cause shows their result, like any other change on disk.
"""

from __future__ import annotations

import functools
import itertools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPoint,
    Qt,
    QTimer,
    QUrl,
    Signal,
    Slot,
)
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memtab.gui.memory_tab import file_ops
from memtab.gui.memory_tab.dialogs import NewKind, TabDialogs
from memtab.gui.memory_tab.editor import EditorPanel
from memtab.gui.memory_tab.editor_bar import BarKind, MessageBar
from memtab.gui.memory_tab.editor_colors import muted_text
from memtab.gui.memory_tab.icons import tinted_icon
from memtab.gui.memory_tab.own_writes import OwnWrites
from memtab.gui.memory_tab.search import SearchQuery
from memtab.gui.memory_tab.search_tasks import SearchOutcome, SearchTasks
from memtab.gui.memory_tab.tree_model import PIN_NOTE, MemoryTreeModel
from memtab.gui.memory_tab.tree_nodes import (
    NodeKind,
    SectionId,
    TreeNode,
    build_tree,
    directory_key,
    file_key,
    section_key,
)
from memtab.gui.memory_tab.tree_view import MemoryTreeView
from memtab.gui.tasks.runner import TaskContext, TaskRunner
from memtab.gui.tasks.scan import HomeScan, ScanOutcome, ScanRequest, ScanTasks
from memtab.gui.ui_state import UiState
from memtab.gui.watch_paths import ChangeKind, classify_path
from memtab.gui.workspace_picker import WorkspacePicker
from memtab.store.home import Home, Workspace
from memtab.store.journal import ConsolidationRecord, ConsolidationStatus
from memtab.store.memory import MemoryStore
from memtab.store.paths import PathError, Scope, VirtualPath, parse_file_path

logger = logging.getLogger(__name__)

SPLITTER_NAME = "memory"
# Small homes open fully expanded; big ones show their top-level folders only.
EXPAND_ALL_MAX_FILES = 150
_RELATIVE_TIME_REFRESH_MS = 60_000
# Changes that can alter what the tab shows (the scopes, pins/usage, the journal, the
# registry); others (transcripts, writer state and traces, Memtab's locks) are ignored.
RESCAN_KINDS = frozenset(
    {
        ChangeKind.HOME,
        ChangeKind.MEMORY_DIR,
        ChangeKind.GLOBAL_SCOPE,
        ChangeKind.PROJECT_SCOPE,
        ChangeKind.WORKSPACE_DIR,
        ChangeKind.WORKSPACE_SCOPE,
        ChangeKind.MEMORY_META,
        ChangeKind.CONSOLIDATION_JOURNAL,
        ChangeKind.CONFIG,
    }
)
# The tree merges a scan in slices this long, painting in between.
MERGE_SLICE_MS = 12.0


class ContextFooter(Protocol):
    """The footer's side of the seam (the editor engineer's `ConsolidationFooter`)."""

    def set_context(
        self,
        workspace: Workspace | None,
        status: ConsolidationStatus | None,
        recent_runs: list[tuple[str, ConsolidationRecord]] | None = None,
    ) -> None: ...


@dataclass(frozen=True)
class _OpFollowUp:
    """What to do in the tree once a file operation has finished."""

    open_created: bool = False
    reopen: dict[VirtualPath, VirtualPath] | None = None


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
        footer: QWidget,
        own_writes: OwnWrites,
        consolidation: QObject | None = None,
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
        if consolidation is not None:
            consolidation.setParent(self)
        self.ui_state = ui_state
        self.dialogs = TabDialogs(self)
        self._explicit_workspace = workspace_id is not None
        remembered = ui_state.workspace_for(home.root) if ui_state is not None else None
        self._workspace_id: str | None = workspace_id or remembered
        self._scan: HomeScan | None = None
        self._loaded = False
        self._pending_paths: set[str] | None = set()
        self._scan_due = False
        self._inflight_paths: frozenset[str] | None = frozenset()
        self._agent_edited: set[str] = set()
        self._browse_expanded: set[str] | None = None
        self._query = SearchQuery.parse("")
        self._syncing_selection = False
        self._select_after_scan: tuple[str, bool] | None = None
        self._op_follow_ups: dict[int, _OpFollowUp] = {}

        self.model = MemoryTreeModel(self)
        self._scans = ScanTasks(build_tree, parent=self)
        self._searches = SearchTasks(self)
        self._ops = TaskRunner("file-ops", parent=self)
        self._build_ui()
        self._build_actions()
        self._connect()
        self._after_merge: Callable[[], None] | None = None
        self._reopen_pending = False
        self._merge_timer = QTimer(self)
        self._merge_timer.setSingleShot(True)
        self._merge_timer.setInterval(0)
        self._merge_timer.timeout.connect(self._continue_merge)
        self._time_refresh = QTimer(self)
        self._time_refresh.setInterval(_RELATIVE_TIME_REFRESH_MS)
        self._time_refresh.timeout.connect(self._on_time_refresh_timeout)
        self._time_refresh.start()

    # -- construction ----------------------------------------------------------------------

    def _build_ui(self) -> None:
        self.picker = WorkspacePicker(self)
        self.search_edit = QLineEdit(self)
        self.search_edit.setObjectName("memorySearch")
        self.search_edit.setAccessibleName("Search memories")
        self.search_edit.setPlaceholderText("Search memories  (Ctrl+F)")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.addAction(
            tinted_icon("search", muted_text(self.palette())),
            QLineEdit.ActionPosition.LeadingPosition,
        )
        self.search_edit.installEventFilter(self)
        self.new_button = QToolButton(self)
        self.new_button.setAccessibleName("New")
        self.new_button.setToolTip("New memory file or folder")
        self.new_button.setIcon(tinted_icon("new-file", muted_text(self.palette())))
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.new_button.setAutoRaise(True)
        search_row = QHBoxLayout()
        search_row.setSpacing(4)
        search_row.addWidget(self.search_edit, 1)
        search_row.addWidget(self.new_button)

        self.message_bar = MessageBar(self)
        self.tree = MemoryTreeView(self)
        self.tree.setModel(self.model)

        left = QWidget(self)
        left.setObjectName("memoryTreePane")
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(8, 8, 4, 6)
        left_layout.setSpacing(6)
        left_layout.addWidget(self.picker)
        left_layout.addLayout(search_row)
        left_layout.addWidget(self.message_bar)
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

    def _action(
        self,
        text: str,
        slot: Callable[[], None],
        shortcut: str | QKeySequence.StandardKey | None = None,
        *,
        on: QWidget | None = None,
        context: Qt.ShortcutContext = Qt.ShortcutContext.WidgetWithChildrenShortcut,
        tip: str | None = None,
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(context)
        if tip:
            action.setToolTip(tip)
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        (on or self).addAction(action)
        return action

    def _build_actions(self) -> None:
        tree_only = Qt.ShortcutContext.WidgetShortcut
        self.new_file_action = self._action("New memory file…", self.new_file, "Ctrl+N")
        self.new_folder_action = self._action("New folder…", self.new_folder, "Ctrl+Shift+N")
        self.find_action = self._action("Search memories", self.focus_search, "Ctrl+F")
        self.reload_action = self._action("Reload from disk", self.rescan_all, "F5")
        self.pin_action = self._action(
            "Pin", self.toggle_pin, "Ctrl+D", on=self.tree, context=tree_only, tip=PIN_NOTE
        )
        self.rename_action = self._action(
            "Rename or move…", self.rename_selected, "F2", on=self.tree, context=tree_only
        )
        self.delete_action = self._action(
            "Delete…",
            self.delete_selected,
            QKeySequence.StandardKey.Delete,
            on=self.tree,
            context=tree_only,
        )
        self.copy_path_action = self._action(
            "Copy path", self.copy_selected_path, "Ctrl+Shift+C", on=self.tree, context=tree_only
        )
        self.reveal_action = self._action("Open containing folder", self.reveal_selected)
        self.delete_orphan_action = self._action(
            "Delete orphaned project memory…", self.delete_selected_orphan
        )
        menu = QMenu(self.new_button)
        menu.addAction(self.new_file_action)
        menu.addAction(self.new_folder_action)
        self.new_button.setMenu(menu)

    def _connect(self) -> None:
        self._scans.scan_finished.connect(self._on_scans_scan_finished)
        self._scans.scan_failed.connect(self._on_scans_scan_failed)
        self._searches.search_finished.connect(self._on_searches_search_finished)
        self._ops.job_finished.connect(self._on_ops_job_finished)
        self._ops.job_failed.connect(self._on_ops_job_failed)
        self.picker.workspace_requested.connect(self._on_picker_workspace_requested)
        self.search_edit.textChanged.connect(self._on_search_edit_text_changed)
        self.tree.selectionModel().currentChanged.connect(self._on_tree_current_changed)
        self.tree.activated.connect(self._on_tree_activated)
        self.tree.context_menu_requested.connect(self._on_tree_context_menu_requested)
        self.model.move_requested.connect(self._on_model_move_requested)
        self.editor.file_opened.connect(self._on_editor_file_opened)

    # -- public API ------------------------------------------------------------------------

    @property
    def scan(self) -> HomeScan | None:
        """The scan the tree shows (None before the first one lands)."""
        return self._scan

    @property
    def workspace(self) -> Workspace | None:
        """The workspace shown."""
        return self._scan.workspace if self._scan is not None else None

    @property
    def is_loaded(self) -> bool:
        """Whether the first scan has been shown."""
        return self._loaded

    @property
    def agent_edited(self) -> frozenset[str]:
        """Physical paths of files with the "agent edited" badge."""
        return frozenset(self._agent_edited)

    def store(self) -> MemoryStore:
        """A store for the shown workspace."""
        return MemoryStore(self.home, self.workspace)

    def start(self) -> None:
        """Read the home for the first time (off the GUI thread)."""
        self._request_scan(None)

    def handle_paths_changed(self, paths: Iterable[str]) -> None:
        """What the window's watcher reported: rescan what it touches (transcripts, writer
        traces and Memtab's own lock files do not concern this tab)."""
        relevant = [
            path for path in paths if classify_path(path, self.home.root).kind in RESCAN_KINDS
        ]
        if relevant:
            self._request_scan(relevant)

    @Slot(object)
    def _on_watcher_paths_changed(self, paths: list[str]) -> None:
        self.handle_paths_changed(paths)

    def rescan_all(self) -> None:
        """Reread everything (F5)."""
        self._request_scan(None)

    def confirm_close(self) -> bool:
        """The unsaved-changes guard for closing the window."""
        return self.editor.confirm_discard()

    def save_ui_state(self) -> None:
        """Remember splitter sizes (the window saves the file)."""
        if self.ui_state is not None:
            self.ui_state.set_splitter_sizes(SPLITTER_NAME, self.splitter.sizes())

    def shutdown(self) -> None:
        """Stop every worker thread (on window close)."""
        self._time_refresh.stop()
        self._merge_timer.stop()
        self._scans.shutdown()
        self._searches.shutdown()
        self._ops.shutdown()
        shutdown = getattr(self.editor, "shutdown", None)
        if callable(shutdown):
            shutdown()
        if self.consolidation is not None:
            stop = getattr(self.consolidation, "shutdown", None)
            if callable(stop):
                stop()

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
        self._request_scan(None, supersede=True)
        return True

    def focus_search(self) -> None:
        """Ctrl+F: put the cursor in the search box."""
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    # -- scanning ----------------------------------------------------------------------------

    def _request_scan(self, paths: Iterable[str] | None, *, supersede: bool = False) -> None:
        if paths is None:
            self._pending_paths = None
        elif self._pending_paths is not None:
            self._pending_paths.update(paths)
        if supersede:
            # The scan in flight is cancelled; whatever it covered must be covered again.
            if self._inflight_paths is None or self._pending_paths is None:
                self._pending_paths = None
            else:
                self._pending_paths.update(self._inflight_paths)
            self._submit_scan()
        elif self._scans.busy:
            self._scan_due = True
        else:
            self._submit_scan()

    def _submit_scan(self) -> None:
        pending = self._pending_paths
        self._pending_paths = set()
        self._scan_due = False
        self._inflight_paths = frozenset(pending) if pending is not None else None
        self._scans.scan(
            ScanRequest(
                home=self.home,
                workspace_id=self._workspace_id,
                choose_default=True,
                previous=self._scan,
                changed_paths=self._inflight_paths,
            )
        )

    @Slot(object)
    def _on_scans_scan_finished(self, outcome: ScanOutcome) -> None:
        previous = self._scan
        scan = outcome.scan
        self._scan = scan
        self._inflight_paths = frozenset()
        same_workspace = previous is not None and workspace_identity(
            previous.workspace
        ) == workspace_identity(scan.workspace)
        if not same_workspace:
            self._on_workspace_shown(scan)
        self.picker.set_registry(
            scan.registry, self._workspace_id, readable=scan.registry_error is None
        )
        self._agent_edited = self._badges_after(scan)
        if self._query.active:
            self.model.set_agent_edited(self._agent_edited)
            self._searches.search(scan, self._query)
        else:
            tree = outcome.presented
            assert isinstance(tree, TreeNode)
            self._show_tree(tree, None if self._loaded else self._on_first_tree_shown)
        footer = cast(ContextFooter, self.footer)
        footer.set_context(scan.workspace, scan.status, list(scan.recent_runs) or None)
        if same_workspace and not scan.changes.empty:
            self.editor.handle_disk_change(set(scan.changes.changed), set(scan.changes.deleted))
        if scan.registry_error:
            self._show_error(scan.registry_error)
        self.scan_applied.emit(scan)
        if self._scan_due:
            self._submit_scan()

    def _on_workspace_shown(self, scan: HomeScan) -> None:
        if scan.workspace_note and self._explicit_workspace:
            self._show_error(scan.workspace_note + "; showing another workspace instead.")
        self._workspace_id = scan.workspace.id if scan.workspace is not None else None
        self._reopen_pending = True
        # Keeps the open file when only the scan caught up with a switch already made.
        self.editor.set_store(scan.store())
        self.workspace_changed.emit(scan.workspace)

    @Slot(str)
    def _on_scans_scan_failed(self, message: str) -> None:
        self._inflight_paths = frozenset()
        self._show_error(message)
        if self._scan_due:
            self._submit_scan()

    def _show_tree(self, tree: TreeNode, then: Callable[[], None] | None = None) -> None:
        """Merge `tree` into the model in slices of a few ms (the GUI stays responsive
        even when thousands of rows change), then run the follow-ups and `then`."""
        self.model.start_merge(tree, self._agent_edited)
        self._after_merge = then
        self._continue_merge()

    @Slot()
    def _continue_merge(self) -> None:
        self._syncing_selection = True
        try:
            done = self.model.continue_merge(MERGE_SLICE_MS)
        finally:
            self._syncing_selection = False
        if not done:
            self._merge_timer.start()
            return
        after, self._after_merge = self._after_merge, None
        if after is not None:
            after()
        if self._reopen_pending and self._loaded:
            self._reopen_pending = False
            self._reopen_remembered_file()
        self._sync_selection_to_editor()
        if self._select_after_scan is not None:
            key, open_it = self._select_after_scan
            if self.model.node_for_key(key) is not None:
                self._select_after_scan = None
                self._select_key(key, open_it)
        self.tree_updated.emit()

    def _on_first_tree_shown(self) -> None:
        self._expand_defaults()
        self._loaded = True
        self._reopen_remembered_file()
        if self._scan is not None:
            self._searches.warm(self._scan)
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

    # -- badges ----------------------------------------------------------------------------

    def _is_own_change(self, physical: str, path: VirtualPath, sha: str | None) -> bool:
        if self.own_writes.is_own(path, sha) or self.own_writes.is_own(physical, sha):
            return True
        ancestor = path.parent
        while not ancestor.is_root:  # a folder Memtab created or moved
            if self.own_writes.is_own(ancestor):
                return True
            ancestor = ancestor.parent
        return False

    def _badges_after(self, scan: HomeScan) -> set[str]:
        """The "agent edited" set once `scan`'s changes are counted in."""
        changes = scan.changes
        badges = set(self._agent_edited)
        if changes.empty:
            return badges
        open_path = self.editor.current_path
        anything_own = len(self.own_writes) > 0
        for path in changes.deleted:
            assert path.scope is not None
            physical = scan.scope(path.scope).physical(path)
            if physical is not None:
                badges.discard(physical)
        for path in changes.changed:
            assert path.scope is not None
            physical = scan.scope(path.scope).physical(path)
            if physical is None or path == open_path:
                continue
            if anything_own and self._is_own_change(physical, path, changes.shas.get(path)):
                continue
            badges.add(physical)
        return badges

    def _clear_badge(self, path: VirtualPath) -> None:
        if self._scan is None or path.scope is None:
            return
        physical = self._scan.scope(path.scope).physical(path)
        if physical is not None and physical in self._agent_edited:
            self._agent_edited.discard(physical)
            self.model.set_agent_edited(self._agent_edited)

    # -- search ----------------------------------------------------------------------------

    @Slot(str)
    def _on_search_edit_text_changed(self, text: str) -> None:
        query = SearchQuery.parse(text)
        if query.terms == self._query.terms:
            self._query = query
            return
        if query.active and not self._query.active:
            self._browse_expanded = self.tree.expanded_keys()
        self._query = query
        self.tree.delegate.highlight_terms = query.terms
        self.model.refresh_all()
        if self._scan is not None:
            self._searches.search(self._scan, query)

    @Slot(object)
    def _on_searches_search_finished(self, outcome: SearchOutcome) -> None:
        if outcome.scan is not self._scan or outcome.query.terms != self._query.terms:
            return  # stale: the home or the query changed since
        self._show_tree(outcome.tree, self._on_search_tree_shown)

    def _on_search_tree_shown(self) -> None:
        if self._query.active:
            self.tree.expandAll()
        elif self._browse_expanded is not None:
            self.tree.set_expanded_keys(self._browse_expanded, collapse_others=True)
            self._browse_expanded = None
        if not self._loaded:
            self._on_first_tree_shown()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Search box keys: Escape clears, Down/Enter go to the first match."""
        if watched is self.search_edit and event.type() == QEvent.Type.KeyPress:
            key = cast(QKeyEvent, event).key()
            if key == Qt.Key.Key_Escape and self.search_edit.text():
                self.search_edit.clear()
                return True
            if key in (Qt.Key.Key_Down, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self._focus_first_file()
                return True
        return super().eventFilter(watched, event)

    def _focus_first_file(self) -> None:
        self.tree.setFocus(Qt.FocusReason.OtherFocusReason)
        current = self.tree.current_node()
        if current is not None and current.kind is NodeKind.FILE:
            return
        first = next((node for node in self.model.nodes() if node.kind is NodeKind.FILE), None)
        if first is not None:
            self._select_key(first.key, open_it=False)

    # -- tree ↔ editor ---------------------------------------------------------------------

    def _select_key(self, key: str, open_it: bool) -> None:
        self._syncing_selection = not open_it
        try:
            if self.tree.select_key(key):
                self.tree.selectionModel().select(
                    self.tree.currentIndex(),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
        finally:
            self._syncing_selection = False

    def _sync_selection_to_editor(self) -> None:
        """Keep the open file's row current (e.g. after a rescan removed the old row)."""
        path = self.editor.current_path
        if path is None:
            return
        current = self.tree.current_node()
        if current is not None and current.path == path:
            return
        if self.model.node_for_key(file_key(path)) is not None:
            self._select_key(file_key(path), open_it=False)

    @Slot(QModelIndex, QModelIndex)
    def _on_tree_current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if self._syncing_selection:
            return
        node = self.tree.node_at(current)
        if node is None or node.kind is not NodeKind.FILE:
            return
        self._open_node(node)

    def _open_node(self, node: TreeNode) -> None:
        if node.read_only and node.orphan_dir is not None and node.physical is not None:
            relative = node.physical.split(f"/{node.orphan_dir}/", 1)[-1]
            self.editor.open_read_only(
                Path(node.physical),
                file_ops.orphan_file_title(node.orphan_dir, relative),
                "Orphaned project memory: no registered project owns it, so it is read-only.",
            )
            return
        if node.path is None:
            return
        if not self.editor.open_file(node.path):
            # The user kept their unsaved changes: point the tree back at that file.
            self._sync_selection_to_editor()

    @Slot(QModelIndex)
    def _on_tree_activated(self, index: QModelIndex) -> None:
        node = self.tree.node_at(index)
        if node is None:
            return
        if node.kind is NodeKind.FILE:
            if self.editor.current_path != node.path or node.path is None:
                self._open_node(node)
            self.editor.setFocus(Qt.FocusReason.OtherFocusReason)
            text_edit = getattr(self.editor, "text_edit", None)
            if isinstance(text_edit, QWidget):
                text_edit.setFocus(Qt.FocusReason.OtherFocusReason)
        elif node.children:
            self.tree.setExpanded(index, not self.tree.isExpanded(index))

    @Slot(object)
    def _on_editor_file_opened(self, path: object) -> None:
        if isinstance(path, VirtualPath):
            self._clear_badge(path)
            self._sync_selection_to_editor()
            self._remember_open_file(str(path))

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
            self._select_key(key, open_it=True)

    @Slot(str)
    def _on_picker_workspace_requested(self, workspace_id: str) -> None:
        if not self.switch_workspace(workspace_id):
            self.picker.select_workspace(self._workspace_id)

    # -- context menu and actions ------------------------------------------------------------

    def _selected_scope_nodes(self) -> list[TreeNode]:
        """Selected files and directories inside scopes (not orphans, sections, messages)."""
        return [
            node
            for node in self.tree.selected_nodes()
            if node.kind in (NodeKind.FILE, NodeKind.DIRECTORY)
            and not node.read_only
            and node.path is not None
        ]

    def _target_location(self) -> VirtualPath:
        """Where "New" creates things: the selected folder or section, a file's folder,
        else the workspace scope (or global when there is no workspace)."""
        node = self.tree.current_node()
        while node is not None and not (node.accepts_drops and node.path is not None):
            node = node.parent
        if node is not None and node.path is not None:
            return node.path
        store = self.store()
        for scope in (Scope.WORKSPACE, Scope.PROJECT, Scope.GLOBAL):
            if store.unavailable_reason(scope) is None:
                return VirtualPath(scope)
        return VirtualPath(Scope.GLOBAL)

    @Slot(QPoint)
    def _on_tree_context_menu_requested(self, position: QPoint) -> None:
        index = self.tree.indexAt(position)
        node = self.tree.node_at(index)
        if node is None:
            return
        menu = self._context_menu(node)
        if menu.actions():
            self.show_menu(menu, self.tree.viewport().mapToGlobal(position))

    def show_menu(self, menu: QMenu, where: QPoint) -> None:
        """Run a context menu (modal); a seam for tests."""
        menu.exec(where)

    def _context_menu(self, node: TreeNode) -> QMenu:
        """The actions offered for a row (also what tests inspect)."""
        menu = QMenu(self)
        menu.setToolTipsVisible(True)  # the pin action's note about mux
        if node.read_only:
            if node.kind is NodeKind.ORPHAN_DIR:
                menu.addAction(self.delete_orphan_action)
            if node.physical:
                menu.addAction(self.reveal_action)
            return menu
        if node.kind is NodeKind.FILE:
            self.pin_action.setText("Unpin" if node.pinned else "Pin")
            menu.addAction(self.pin_action)
        if node.kind in (NodeKind.SECTION, NodeKind.DIRECTORY) and node.accepts_drops:
            menu.addAction(self.new_file_action)
            menu.addAction(self.new_folder_action)
        if node.kind in (NodeKind.FILE, NodeKind.DIRECTORY):
            menu.addSeparator()
            menu.addAction(self.rename_action)
            menu.addAction(self.copy_path_action)
            menu.addAction(self.reveal_action)
            menu.addSeparator()
            menu.addAction(self.delete_action)
        return menu

    def new_file(self) -> None:
        """Ask for a name (and description) and create a memory file; open it."""
        self._new_item(NewKind.FILE)

    def new_folder(self) -> None:
        """Ask for a name and create a folder."""
        self._new_item(NewKind.FOLDER)

    def _new_item(self, kind: NewKind) -> None:
        store = self.store()
        answer = self.dialogs.ask_new_item(store, self._target_location(), kind)
        if answer is None:
            return
        path, description = answer
        if kind is NewKind.FILE:
            content = file_ops.initial_content(description)
            self.own_writes.note(path, file_ops.new_file_sha(content))
            self._run_op(
                functools.partial(file_ops.create_file, store, path, content),
                _OpFollowUp(open_created=True),
            )
        else:
            self.own_writes.note(path)
            self._run_op(functools.partial(file_ops.create_directory, store, path))

    def toggle_pin(self) -> None:
        """Pin the selected file, or unpin it if pinned (Ctrl+D)."""
        node = self.tree.current_node()
        if node is None or node.kind is not NodeKind.FILE or node.read_only or node.path is None:
            return
        self._run_op(
            functools.partial(file_ops.set_pinned, self.store(), node.path, not node.pinned)
        )

    def rename_selected(self) -> None:
        """Rename or move the current file or folder through a dialog (F2)."""
        node = self.tree.current_node()
        if node is None or node.kind not in (NodeKind.FILE, NodeKind.DIRECTORY):
            return
        if node.read_only or node.path is None:
            return
        target = self.dialogs.ask_move_target(self.store(), node.path)
        if target is not None:
            self.move_paths([(node.path, target)])

    @Slot(object, object)
    def _on_model_move_requested(self, sources: list[VirtualPath], target_dir: VirtualPath) -> None:
        moves = []
        for source in sources:
            try:
                moves.append((source, target_dir.child(source.name)))
            except ValueError as error:
                self._show_error(str(error))
                return
        self.move_paths(moves)

    def move_paths(self, moves: list[tuple[VirtualPath, VirtualPath]]) -> None:
        """Move files/folders (across scopes too); an open file follows if it is clean."""
        open_path = self.editor.current_path
        reopen: dict[VirtualPath, VirtualPath] = {}
        for old, new in moves:
            if open_path is not None and open_path.is_within(old):
                if not self.editor.confirm_discard():
                    return
                reopen[open_path] = VirtualPath(
                    new.scope, new.segments + open_path.segments[len(old.segments) :]
                )
            self.own_writes.note(new)
        self._run_op(
            functools.partial(file_ops.move, self.store(), moves), _OpFollowUp(reopen=reopen)
        )

    def delete_selected(self) -> None:
        """Delete the selected files/folders after confirmation (Del)."""
        nodes = self._selected_scope_nodes()
        if not nodes:
            return
        # A folder's contents go with it: don't list them twice.
        paths = [node.path for node in nodes if node.path is not None]
        roots = [p for p in paths if not any(p != q and p.is_within(q) for q in paths)]
        file_count = sum(
            1 if node.kind is NodeKind.FILE else node.file_count
            for node in nodes
            if node.path in roots
        )
        open_path = self.editor.current_path
        affects_open = open_path is not None and any(open_path.is_within(p) for p in roots)
        loses_draft = affects_open and self.editor.is_dirty
        names = [p.name for p in roots]
        if not self.dialogs.confirm_delete(names, file_count, loses_draft):
            return
        if affects_open:
            self.editor.close_file()
        self._run_op(functools.partial(file_ops.delete, self.store(), roots))

    def delete_selected_orphan(self) -> None:
        """Delete the selected orphaned project dir after confirmation."""
        node = self.tree.current_node()
        if node is None or node.kind is not NodeKind.ORPHAN_DIR or node.orphan_dir is None:
            return
        if not self.dialogs.confirm_delete_orphan(node.orphan_dir, node.file_count):
            return
        self._run_op(
            functools.partial(file_ops.delete_orphan_project_dir, self.home, node.orphan_dir)
        )

    def copy_selected_path(self) -> None:
        """Copy the virtual paths of the selection (Ctrl+Shift+C)."""
        paths = [str(node.path) for node in self._selected_scope_nodes() if node.path is not None]
        if paths:
            QGuiApplication.clipboard().setText("\n".join(paths))
            self.status_message.emit(
                f"Copied {paths[0]}" if len(paths) == 1 else f"Copied {len(paths)} paths"
            )

    def reveal_selected(self) -> None:
        """Open the folder holding the current item in the system file manager."""
        node = self.tree.current_node()
        if node is None or not node.physical:
            return
        folder = (
            node.physical if node.kind is not NodeKind.FILE else str(Path(node.physical).parent)
        )
        QDesktopServices.openUrl(QUrl.fromLocalFile(folder))

    # -- file operations -------------------------------------------------------------------

    def _run_op(
        self, operation: Callable[[], file_ops.OpResult], follow_up: _OpFollowUp | None = None
    ) -> None:
        job = self._ops.submit(_OpJob(operation))
        self._op_follow_ups[job] = follow_up or _OpFollowUp()

    @Slot(int, object)
    def _on_ops_job_finished(self, job: int, result: object) -> None:
        follow_up = self._op_follow_ups.pop(job, _OpFollowUp())
        assert isinstance(result, file_ops.OpResult)
        if result.ok:
            self.message_bar.clear()
            self.status_message.emit(result.message)
        else:
            self._show_error(f"{result.message}: {result.error}")
        for old, new in result.moved:
            self._drop_badges_under(old, new)
        if result.created is not None:
            created = result.created
            is_file = follow_up.open_created
            key = file_key(created) if is_file else directory_key(created)
            self._select_after_scan = (key, is_file)
        for old_open, new_open in (follow_up.reopen or {}).items():
            if any(old_open.is_within(old) for old, _new in result.moved):
                self.editor.close_file()
                self._select_after_scan = (file_key(new_open), True)
        self._request_scan([path for path in result.touched if path])

    @Slot(int, str)
    def _on_ops_job_failed(self, job: int, message: str) -> None:
        self._op_follow_ups.pop(job, None)
        self._show_error(message)

    def _drop_badges_under(self, old: VirtualPath, new: VirtualPath) -> None:
        if self._scan is None or old.scope is None or new.scope is None:
            return
        prefix = self._scan.scope(old.scope).physical(old)
        if prefix is None:
            return
        moved = {p for p in self._agent_edited if p == prefix or p.startswith(prefix + "/")}
        if moved:
            self._agent_edited -= moved
            self.model.set_agent_edited(self._agent_edited)

    def _show_error(self, text: str) -> None:
        self.message_bar.show_message(BarKind.ERROR, text)
        self.status_message.emit(text)

    # -- misc ------------------------------------------------------------------------------

    @Slot()
    def _on_time_refresh_timeout(self) -> None:
        self.tree.viewport().update()


class _OpJob:
    """Runs one file operation on the worker thread."""

    def __init__(self, operation: Callable[[], file_ops.OpResult]) -> None:
        self._operation = operation

    def __call__(self, context: TaskContext) -> file_ops.OpResult:
        return self._operation()
