"""The Memory tab: workspace picker, search, scope tree and footer on the left; the editor
on the right.

Data flow (ARCHITECTURE "Threads and the watcher"): the window's `HomeWatcher` reports
changed paths; `ScanScheduler` turns those that concern the tab into incremental rescans
off the GUI thread. The scan's tree is reconciled into the model in slices, so expansion,
selection and scroll position stay. After each scan the tab feeds the footer
(`set_context`), the editor (`follow_changes`) and the "agent edited" badges
(`components.activity.badges`).

The tab's parts each have one job: `ScanScheduler` (when to rescan), `SlicedReconcile` (a
tree reconciled into the model in slices), `SearchBox` (the search field and its
searches), `TreeEditorLink` (tree ↔ editor), `FileActions` (the tree's file actions, run
on the window's file operations; the rescan they cause shows their result, like any
other change on disk), `TabFiles` (the open file remembered and reopened, the row a file
operation selects after its rescan), `EditMarks` (the "agent edited" badges, naming who
changed a file), `InboxPanel` (what agents proposed), `MuxPresence` (whether mux runs,
for the warnings that only matter then) and `SourcesFollower` (other agents' memory,
scanned from the first scan shown on). What they share comes from the `WindowContext`
(home, UI state, own writes, actions, status bar, the file operations); what the tab
shows it publishes there (`context.shown`: the scan, its workspace), for the features
outside the tab too.

Start-up, in three steps: (1) the first paint shows what the constructor made (picker,
tree, scans, `TabLayout`'s stand-ins): a big home's outline, before any file is read
(`tree_ready`); only the modules `gui.first_paint.boundary.BEFORE_FIRST_PAINT` lists are
imported by then (a test holds it); (2) the first full scan, started once that paint is
done (run with it, it held the interpreter), is reconciled and painted, nothing else built
yet (`descriptions_shown`); (3) after that paint `assemble()` has the window reach its
phase after the paint: the window's one list (`gui.window.features.WINDOW_FEATURES`,
imported by name by `boundary.settled_step()`) starts the log's rotation, builds the
parts the paint does not show, each a feature of the list named for the attribute it
sets, has the tab place and wire them (`place_parts`, `wire_parts`: `assembled`),
builds the window's features that use them (history, blame, the check, sync, its
actions, the menus), and has the tab catch the parts up with the scan shown
(`catch_up`): `loaded` fires (the window then starts its watcher and writer; the
consolidation engine preloads once Consolidate now is pointed at). What needs the parts
sooner (an error, a search, a reveal) calls `assemble()`: the same list, sooner.
`TreeFill` builds a big home's folders as they are opened.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QSize, QTimer, Signal, Slot
from PySide6.QtWidgets import QLineEdit, QMenu, QWidget

from memtab.components import glossary
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan, ScanOutcome
from memtab.components.tree.scan_steps import ScanSteps, scan_steps
from memtab.components.tree.tree import default_expanded_keys
from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.gui.consolidation.lazy import LazyConsolidationTasks
from memtab.gui.context import WindowContext
from memtab.gui.first_paint.boundary import settled_step
from memtab.gui.memory_tab.layout import TabLayout
from memtab.gui.memory_tab.panes import Pane
from memtab.gui.memory_tab.workspace_picker import WorkspacePicker
from memtab.gui.tree.fill import TreeFill
from memtab.gui.tree.model import MemoryTreeModel
from memtab.gui.tree.reconcile import SlicedReconcile
from memtab.gui.tree.scan_scheduler import ScanScheduler
from memtab.gui.tree.view import MemoryTreeView
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Workspace

if TYPE_CHECKING:  # lazy: annotations only, built after the paint (gui.window.features)
    from memtab.components.tree.sources_scan import ContextLoader
    from memtab.gui.activity.edit_marks import EditMarks
    from memtab.gui.activity.mux_presence import MuxPresence
    from memtab.gui.consolidation.footer import ConsolidationFooter
    from memtab.gui.editor.editor import EditorPanel
    from memtab.gui.editor.tab.bar import MessageBar
    from memtab.gui.files.dialogs import TabDialogs
    from memtab.gui.files.file_actions import FileActions
    from memtab.gui.memory_tab.tab_files import TabFiles
    from memtab.gui.search.box import SearchBox
    from memtab.gui.tasks.file_ops import FileOpTasks
    from memtab.gui.tree.editor_link import TreeEditorLink
    from memtab.gui.tree.sources import SourcesFollower
    from memtab.gui.writer.inbox_panel import InboxPanel

logger = logging.getLogger(__name__)

SPLITTER_NAME = "memory"
# Small homes open fully expanded; big ones show their top-level folders only.
EXPAND_ALL_MAX_FILES = 150
_RELATIVE_TIME_REFRESH_MS = 60_000
Thunk = Callable[[], object]  # what runs once a workspace switch is made


class MemoryTab(QWidget):
    """The Memory tab (see the module docstring).

    Signals:
        tree_ready(): the tree first shows the home (a big home's outline: folders and
            counts; descriptions follow).
        descriptions_shown(): the tree first shows every description (the first scan).
        assembled(): the editor, footer, search and actions exist, placed and wired
            (see the module docstring); the window's features that use them follow.
        loaded(): the first scan is shown, the parts caught up (`--screenshot`, tests).
        tree_updated(): the tree finished showing a scan or search result.
        watch_targets_changed(object): other agents' directories to watch, as
            (directory, recursive) pairs (`HomeWatcher.set_extra_targets`).
        sources_loaded(): the tree first shows other agents' memory (`SourcesSync`).
    """

    tree_ready = Signal()
    descriptions_shown = Signal()
    assembled = Signal()
    loaded = Signal()
    tree_updated = Signal()
    watch_targets_changed = Signal(object)
    sources_loaded = Signal()

    # The parts: built after the paint, each by the feature of the window's list named
    # for it (`gui.window.features.WINDOW_FEATURES`), when the tab is assembled.
    editor: EditorPanel
    footer: ConsolidationFooter
    dialogs: TabDialogs
    marks: EditMarks
    inbox: InboxPanel
    mux: MuxPresence
    sources: SourcesFollower
    editor_link: TreeEditorLink
    search_box: SearchBox
    search_edit: QLineEdit
    file_ops: FileOpTasks
    files: TabFiles
    file_actions: FileActions
    message_bar: MessageBar
    news_bar: MessageBar

    def __init__(
        self,
        context: WindowContext,
        *,
        consolidation: LazyConsolidationTasks,
        workspace_id: str | None = None,
        source_context: ContextLoader | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Compose what the first paint shows; nothing is read until `start()`.

        The window's features after the paint (`gui.window.features`) build the editor,
        the footer and the rest when the tab is assembled, through the window
        (`set_assembler`; see the module docstring). `workspace_id`
        (e.g. `--workspace`) wins over the one remembered in the UI state. The tab takes
        ownership of its parts and of `consolidation`.
        `source_context` reads the settings of other agents' memory (tests inject one).
        """
        super().__init__(parent)
        self.setObjectName("memoryTab")
        self.context = context
        self.home = home = context.home
        self.own_writes = context.own_writes
        self.consolidation = consolidation
        consolidation.setParent(self)  # its lifetime is the tab's
        self.ui_state = ui_state = context.ui_state
        self._shown = context.shown
        self._explicit_workspace = workspace_id is not None
        remembered = ui_state.workspace_for(home.root) if ui_state is not None else None
        self._shown.workspace_id = workspace_id or remembered
        self._tree_ready = False
        self._first_scan_shown = False
        self._assembled = False
        self._assembler: Callable[[], None] | None = None
        self._loaded = False

        self.model = MemoryTreeModel(self)
        self.tree_fill = TreeFill(self.model, lambda: self._shown.scan, self.is_searching)
        self.tree = MemoryTreeView(self)
        self.tree.setModel(self.model)
        self.tree_reconcile = SlicedReconcile(self.model, self.tree_fill, self._quietly, self)
        self.scans = ScanScheduler(home, self, context.jobs, self, source_context=source_context)
        self.picker = WorkspacePicker(self)
        sizes = ui_state.splitter_sizes(SPLITTER_NAME) if ui_state is not None else None
        self._layout = TabLayout(self, self.picker, self.tree, sizes)
        self.splitter, self.new_button = self._layout.splitter, self._layout.new_button
        self.panes = self._layout.panes
        self.scans.scan_finished.connect(self._on_scans_scan_finished)
        self.scans.outline_finished.connect(self._on_scans_outline_finished)
        self.scans.scan_failed.connect(self._on_scans_scan_failed)
        self.picker.workspace_requested.connect(self._on_picker_workspace_requested)
        self.tree_reconcile.reconciled.connect(self._on_tree_reconciled)
        context.changes.published.connect(self._on_changes_published)
        context.settings.published.connect(self._on_settings_published)
        self._time_refresh = QTimer(self)
        self._time_refresh.setInterval(_RELATIVE_TIME_REFRESH_MS)
        self._time_refresh.timeout.connect(self._on_time_refresh_timeout)
        self._time_refresh.start()

    # -- construction ----------------------------------------------------------------------

    @property
    def is_assembled(self) -> bool:
        """Whether `assemble()` has run."""
        return self._assembled

    def set_assembler(self, assemble: Callable[[], None]) -> None:
        """How the tab is assembled: its window's features of the phase after the paint
        (`MainWindow`, as it is built; this package never names `gui.window.features`)."""
        self._assembler = assemble

    def assemble(self) -> None:
        """Build the editor, footer, search, actions and the rest now if they are not yet,
        put them in place and catch them up: the window reaches its phase after the paint,
        whose features build them (once; see the module docstring)."""
        if self._assembled:
            return
        if self._assembler is None:
            raise RuntimeError("a Memory tab is assembled by its window (MainWindow)")
        self._assembler()

    # -- the steps of the window's list that are the tab's (`gui.window.features`) -------

    def start_assembling(self) -> None:
        """The parts are being built: `assemble()` returns at once from here on."""
        self._assembled = True

    def place_parts(self) -> None:
        """Put the parts built in place: the layout, the tab order, the panes."""
        self.file_actions.fill_new_menu(self.new_button)
        over_tree: list[QWidget] = [self.message_bar, self.news_bar, self.inbox]
        self._layout.place(self.search_edit, over_tree, self.footer, self.editor)
        self._layout.set_tab_order(
            [self.picker.combo, self.search_edit, self.new_button, self.tree],
            [*over_tree, self.editor, self.footer],
        )
        self.panes.follow(self.context.actions, self.tree, self.editor)
        self.search_box.results_found.connect(self._on_search_box_results_found)

    def wire_parts(self) -> None:
        """Connect the parts to the tab and the window, then `assembled`."""
        self.inbox.status_message.connect(self.context.status.show)
        self.inbox.agent_accepting.connect(self.marks.claim_agent)  # badged as the agent's
        self.sources.status_message.connect(self.context.status.show)
        self.sources.watch_targets_changed.connect(self.watch_targets_changed)
        self.sources.shown.connect(self.sources_loaded)
        self.tree_updated.connect(self.sources.tree_shown)
        self.mux.changed.connect(self._on_mux_changed)
        self.marks.follow(self.consolidation)
        self.assembled.emit()

    def catch_up(self) -> None:
        """Feed the parts the scan the tree already shows (built after it: they have not
        seen it), then `loaded` if it was the first; after the window's features that
        follow the scans shown."""
        scan = self._shown.scan
        if scan is None:
            return
        caught_up = scan_steps(
            scan,
            None,
            assembled=True,
            searching=False,
            explicit_workspace=self._explicit_workspace,
        )
        self._apply_scan_to_parts(scan, caught_up)
        self.marks.show()
        self._shown.scan_applied.emit(scan)
        if self._first_scan_shown:
            self._finish_loading()

    # -- public API ------------------------------------------------------------------------

    @property
    def scan(self) -> HomeScan | None:
        """The scan the tree shows (None before the first one lands)."""
        return self._shown.scan

    @property
    def workspace_id(self) -> str | None:
        """The workspace asked for (the scan may show another when it is unknown)."""
        return self._shown.workspace_id

    @property
    def workspace(self) -> Workspace | None:
        """The workspace shown."""
        return self._shown.workspace

    @property
    def is_loaded(self) -> bool:
        """Whether the first scan has been shown."""
        return self._loaded

    @property
    def is_sources_loaded(self) -> bool:
        """Whether other agents' memory has been shown (`sources_loaded`)."""
        return self._assembled and self.sources.is_shown

    @property
    def is_idle(self) -> bool:
        """Whether nothing is scanning, building, searching, running or reconciling (tests)."""
        return not (
            self.scans.busy
            or (self._first_scan_shown and not self._loaded)  # the parts are still to build
            or (self._assembled and self.search_box.busy)
            or self.context.file_ops_busy
            or self.tree_reconcile.busy
            or (self._assembled and self.editor.reading)
        )

    @property
    def open_containers(self) -> Collection[str]:
        """The containers whose file rows the tree builds (`TreeFill`)."""
        return self.tree_fill.open_containers

    @property
    def agent_edited(self) -> frozenset[str]:
        """Physical paths of files with the "agent edited" badge."""
        return self.marks.edits.paths if self._assembled else frozenset()

    def view(self) -> ScopeView:
        """The shown workspace's scopes, to read."""
        return self._shown.view()

    def start(self) -> None:
        """Read the home for the first time (off the GUI thread; a big home's outline
        first)."""
        self.scans.start()

    def rescan_all(self) -> None:
        """Reread everything the tab shows (F5): the scopes, and the Inbox once built."""
        self.scans.request(None)
        if self._assembled:
            self.inbox.reload()

    def save_ui_state(self) -> None:
        """Remember splitter sizes and badges (the window saves the file)."""
        if self.ui_state is not None:
            self.ui_state.set_splitter_sizes(SPLITTER_NAME, self.panes.wide_sizes())
            if self._assembled:
                self.marks.save()

    def shutdown(self) -> None:
        """Stop every worker thread (on window close)."""
        self._time_refresh.stop()
        self.tree_reconcile.stop()
        self.scans.shutdown()
        if self._assembled:
            self.search_box.shutdown()
            self.mux.shutdown()
            self.editor.shutdown()
        self.consolidation.shutdown()

    def switch_workspace(self, workspace_id: str | None, then: Thunk = lambda: None) -> None:
        """Show another workspace once the drafts of the tabs it closes are saved or
        discarded (asked without blocking), then run `then` (not if drafts are kept)."""
        if (scan := self._shown.scan) is not None and workspace_id == self._shown.workspace_id:
            then()
            return
        self.assemble()
        workspace = scan.registry.workspace(workspace_id) if scan and workspace_id else None
        view = ScopeView(self.home, workspace)
        switch = functools.partial(self._show_workspace, workspace_id, view, then)
        self.editor.leave(switch, self.editor.tabs_leaving(view))

    def _show_workspace(self, workspace_id: str | None, view: ScopeView, then: Thunk) -> None:
        self._shown.workspace_id = workspace_id
        self._explicit_workspace = False
        if self.ui_state is not None:
            self.ui_state.set_workspace(self.home.root, workspace_id)
            self.context.save_ui_state()
        self.editor.set_store(view)
        self.picker.select_workspace(workspace_id)
        self.scans.request(None, supersede=True)
        then()

    def focus_search(self) -> None:
        """Ctrl+Shift+F: put the cursor in the search box."""
        self.assemble()
        self.panes.show_pane(Pane.FILES, focus=False)
        self.search_box.focus()

    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...] = ()
    ) -> None:
        """Open `path` of `workspace_id` (switching to it) with `lines` highlighted, as
        soon as the tree shows it (e.g. the notes the writer just recorded)."""
        self.assemble()
        now = workspace_id == self._shown.workspace_id  # else: once its tree is shown
        reveal = functools.partial(self.editor_link.reveal, path, lines, now=now)
        self.switch_workspace(workspace_id, reveal)

    def show_suggestions(self, workspace_id: str | None) -> None:
        """Show the Inbox of `workspace_id` (switching to it)."""
        self.assemble()
        self.panes.show_pane(Pane.FILES, focus=False)
        self.switch_workspace(workspace_id, self.inbox.reveal)

    def minimumSizeHint(self) -> QSize:
        """One pane's width: narrower than both, the tab shows one at a time (`panes`)."""
        return QSize(self.panes.one_pane_width(), super().minimumSizeHint().height())

    # -- what the collaborators ask of the tab (CommandsHost, FilesHost) -------------------

    def show_menu(self, menu: QMenu, where: QPoint) -> None:
        """Run a context menu (modal); a seam for tests."""
        menu.exec(where)

    def show_error(self, text: str) -> None:
        """An error in the tab's bar (and the status bar)."""
        self.assemble()
        if self._assembled:  # not in a window closed before its parts were built
            settled_step().show_tab_error(self, text)
        self.context.status.show(text)

    # -- scans -------------------------------------------------------------------------------

    @Slot(object)
    def _on_scans_outline_finished(self, outcome: ScanOutcome) -> None:
        if self._tree_ready or self._shown.scan is not None:
            self.scans.outline_shown()  # the scan it stood in for is shown already
            return
        scan = outcome.scan
        self.picker.set_registry(
            scan.registry, self._shown.workspace_id, readable=scan.registry_error is None
        )
        tree = outcome.presented
        assert isinstance(tree, TreeNode)
        self._show_tree(tree, self._on_outline_shown)

    def _on_outline_shown(self) -> None:
        self._expand_defaults()
        self._mark_tree_ready()
        self.tree.after_next_paint(self.scans.outline_shown)

    def _mark_tree_ready(self) -> None:
        if not self._tree_ready:
            self._tree_ready = True
            self.tree_ready.emit()

    def is_searching(self) -> bool:
        """Whether the tree shows search results (their containers hold only matches)."""
        return self._assembled and self.search_box.query.active

    @Slot(object)
    def _on_scans_scan_finished(self, outcome: ScanOutcome) -> None:
        previous = self._shown.scan
        scan = outcome.scan
        self._shown.scan = scan
        self.picker.set_registry(
            scan.registry, self._shown.workspace_id, readable=scan.registry_error is None
        )
        tree = outcome.presented
        assert isinstance(tree, TreeNode)
        steps = scan_steps(
            scan,
            previous,
            assembled=self._assembled,
            searching=self.is_searching(),
            explicit_workspace=self._explicit_workspace,
        )
        if steps.first:  # the tree alone, the parts after its paint
            self._show_tree(tree, self._on_first_scan_shown)
        else:
            self._apply_scan_to_parts(scan, steps)
            if steps.search_again:
                self.model.set_agent_edited(self.marks.badges)
                self.search_box.search(scan)
            else:
                self._show_tree(tree, None if self._first_scan_shown else self._on_first_scan_shown)
            if steps.followed:
                with self.marks.opening_quietly():  # a reload is not the user opening it
                    self.editor.follow_changes(steps.followed, self.editor_link.open_file)
        if steps.error:
            self.show_error(steps.error)
        if not steps.first:
            self._shown.scan_applied.emit(scan)

    def _apply_scan_to_parts(self, scan: HomeScan, steps: ScanSteps) -> None:
        """Feed a scan to the parts."""
        if steps.workspace_changed:
            self._on_workspace_shown(scan, steps.workspace_note)
        self.marks.scanned(scan, first=steps.workspace_changed)
        self.sources.scanned(scan)  # before the tree: a small one is shown at once
        self.footer.set_context(scan.workspace, scan.status, session=scan.shows_session)

    def _on_workspace_shown(self, scan: HomeScan, note: str | None) -> None:
        if note:
            self.show_error(note)
        self._shown.workspace_id = scan.workspace.id if scan.workspace is not None else None
        self.files.workspace_shown()
        # Keeps the open file when only the scan caught up with a switch already made.
        self.editor.set_store(scan.view())
        self.inbox.set_workspace(scan.workspace)
        self._shown.workspace_changed.emit(scan.workspace)

    @Slot(str)
    def _on_scans_scan_failed(self, message: str) -> None:
        self.show_error(message)

    # -- reconciling a tree into the model -------------------------------------------------------

    def _show_tree(self, tree: TreeNode, then: Callable[[], None] | None = None) -> None:
        """Reconcile `tree` into the model in slices (`SlicedReconcile`), then run `then` and the
        follow-ups of a shown tree."""
        self.tree_reconcile.show(tree, self.marks.badges if self._assembled else None, then)

    def _quietly(self) -> AbstractContextManager[None]:
        return self.editor_link.quietly() if self._assembled else contextlib.nullcontext()

    @Slot()
    def _on_tree_reconciled(self) -> None:
        if not self._assembled:
            return  # an outline: nothing is open or selected yet
        self.files.after_tree_shown()
        self.tree_updated.emit()

    def _on_first_scan_shown(self) -> None:
        """Build the parts once the tree has painted (at once if it cannot: not shown)."""
        self._expand_defaults()
        self._mark_tree_ready()
        self._first_scan_shown = True
        self.descriptions_shown.emit()
        if self._assembled:
            self._finish_loading()
        else:
            self.tree.after_next_paint(self.assemble)

    def _finish_loading(self) -> None:
        """The parts have caught up with the first scan: what follows it, then `loaded`."""
        if self._loaded:
            return
        self._loaded = True
        self.files.reopen_remembered_file()
        self.editor_link.mark_keyboard_row()
        self.mux.check()
        self.scans.enable_sources()  # other agents' memory: after the mux scopes are shown
        self.loaded.emit()

    def _expand_defaults(self) -> None:
        keys = default_expanded_keys(self.model.root, EXPAND_ALL_MAX_FILES)
        self.tree.set_expanded_keys(keys)

    @Slot(object)
    def _on_search_box_results_found(self, tree: TreeNode) -> None:
        self._show_tree(tree, self._on_search_tree_shown)

    def _on_search_tree_shown(self) -> None:
        self.search_box.after_tree_shown()
        if not self._first_scan_shown:
            self._on_first_scan_shown()

    # -- other agents' files, mux, the picker, the clock -------------------------------------

    @Slot(object)
    def _on_mux_changed(self, may_run: bool) -> None:
        note = glossary.PINS_WITH_MUX if may_run else glossary.PINS_WITHOUT_MUX
        self.model.pin_note = note
        self.file_actions.set_pin_note(note)

    @Slot(str)
    def _on_picker_workspace_requested(self, workspace_id: str) -> None:
        self.picker.select_workspace(self._shown.workspace_id)  # until the switch is made
        self.switch_workspace(workspace_id)

    @Slot(object)
    def _on_changes_published(self, batch: ChangeBatch) -> None:
        # Rescan what the batch touches (transcripts, writer traces and Memtab's own lock
        # files do not concern this tab).
        relevant = [path for path, place in batch.items() if self.scans.concerns(path, place)]
        if relevant:
            self.scans.request(relevant)

    @Slot(object)
    def _on_settings_published(self, change: SettingsChange) -> None:
        if change.touches(SettingsSection.SOURCES):  # other agents' memory is elsewhere now
            self.rescan_all()

    @Slot()
    def _on_time_refresh_timeout(self) -> None:
        self.tree.viewport().update()
