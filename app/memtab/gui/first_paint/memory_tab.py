"""The Memory tab's frame: workspace picker, tree and outline, and the scans that fill them —
what the first paint shows; the controller (`gui/memory_tab/controller.py`) is built after.

Start-up in three steps: (1) the first paint shows a big home's outline (`tree_ready`);
(2) the first full scan is painted (`descriptions_shown`); (3) `assemble()` has the window run
its features after the paint, which build the controller, place its parts (`assembled`) and
catch it up with the scan shown (`loaded`). Scans are reconciled in slices (`SlicedReconcile`)
so expansion, selection and scroll stay; `TreeFill` builds a big home's folders as opened.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Mapping
from contextlib import AbstractContextManager
from typing import Protocol

from PySide6.QtCore import QPoint, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QLineEdit,
    QMenu,
    QSplitter,
    QToolButton,
    QWidget,
)

from memtab.components.activity.badges import Badge
from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.tree.nodes import TreeNode
from memtab.components.tree.scan import HomeScan, ScanOutcome
from memtab.components.tree.scan_steps import ScanSteps, scan_steps
from memtab.components.tree.tree import default_expanded_keys
from memtab.components.window.settings_news import SettingsChange, SettingsSection
from memtab.file_protocol.file_ref import MemoryFileRef
from memtab.gui.context import WindowContext
from memtab.gui.first_paint.boundary import load_settled_step
from memtab.gui.memory_tab.overlay import TreeOverlay
from memtab.gui.memory_tab.panes import PaneSwitch
from memtab.gui.memory_tab.workspace_picker import WorkspacePicker
from memtab.gui.toolkit.icons import tinted_icon
from memtab.gui.toolkit.style import muted_text
from memtab.gui.toolkit.widgets import chain_tab_order, hbox, named, tab_stops, vbox
from memtab.gui.tree.model import MemoryTreeModel, SlicedReconcile, TreeFill
from memtab.gui.tree.scan_scheduler import ContextLoader, ScanScheduler
from memtab.gui.tree.view import MemoryTreeView
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Workspace

# The search field's own (`gui.search.box`); a test keeps the two alike.
SEARCH_PLACEHOLDER = "Search memories  (Ctrl+Shift+F)"
DEFAULT_SPLITTER_SIZES = [430, 850]


class TabLayout:
    """The tab's panes: picker, search row, tree (and later the message bar and footer)
    on the left of a splitter, the editor on the right."""

    def __init__(
        self, tab: QWidget, picker: QWidget, tree: MemoryTreeView, sizes: list[int] | None
    ) -> None:
        """Lay out `tab`; `sizes` are the splitter's remembered sizes, if any."""
        search_stand_in = QLineEdit(tab)
        search_stand_in.setPlaceholderText(SEARCH_PLACEHOLDER)
        search_stand_in.setEnabled(False)
        self.new_button = named(QToolButton(tab), accessible="New", tip="New memory file or folder")
        self.new_button.setIcon(tinted_icon("new-file", muted_text(tab.palette())))
        self.new_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.new_button.setAutoRaise(True)
        self._search_row = hbox((search_stand_in, 1), self.new_button, spacing=4)
        left = named(QWidget(tab), "memoryTreePane")
        self._left = vbox(
            picker, self._search_row, (tree, 1), on=left, margins=(8, 8, 4, 6), spacing=6
        )
        # The editor's pane: the Files button (shown while narrow) above the editor.
        self.editor_pane = named(QWidget(tab), "memoryEditorPane")
        back = named(QToolButton(self.editor_pane), "backToFiles")
        editor_stand_in = QWidget(self.editor_pane)
        back_row = hbox(back, 1, margins=(4, 4, 4, 0))
        self._editor_column = vbox(
            back_row, (editor_stand_in, 1), on=self.editor_pane, margins=0, spacing=0
        )
        # Replaced (and deleted) by `place`, which lets go of them.
        self._stand_ins: tuple[QWidget, QWidget] | None = (search_stand_in, editor_stand_in)

        self.splitter = named(QSplitter(Qt.Orientation.Horizontal, tab), "memorySplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.editor_pane)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        usable = sizes is not None and len(sizes) == 2 and min(sizes) > 0
        wide_sizes = sizes if sizes is not None and usable else DEFAULT_SPLITTER_SIZES
        self.splitter.setSizes(wide_sizes)
        vbox(self.splitter, on=tab, margins=0)
        self.tree_pane = left
        self.panes = PaneSwitch(self.splitter, left, self.editor_pane, back, wide_sizes, tab)
        self.overlay = TreeOverlay(tree, left)
        self.below_editor: QSplitter | None = None  # made with the editor (`place`)

    def place(
        self,
        search_field: QWidget,
        over_tree: list[QWidget],
        footer: QWidget,
        editor: QWidget,
    ) -> None:
        """Put the assembled parts where their stand-ins (or gaps) are: `over_tree` (the
        message bar, the news bar, the Inbox) over the bottom of the tree, where they come
        and go without moving it (`TreeOverlay`)."""
        assert self._stand_ins is not None, "the parts are placed once"
        search_stand_in, editor_stand_in = self._stand_ins
        self._stand_ins = None
        self._search_row.replaceWidget(search_stand_in, search_field)
        search_stand_in.deleteLater()
        for widget in over_tree:
            self.overlay.add(widget)
        self._left.addWidget(footer)
        # The editor over what a wide tab shows below it (the Inbox:
        # `memory_tab.controller.InboxRoom`).
        below = QSplitter(Qt.Orientation.Vertical, self.editor_pane)
        self.below_editor = named(below, "belowEditorSplitter")
        self.below_editor.setChildrenCollapsible(False)
        self.below_editor.addWidget(editor)
        self._editor_column.replaceWidget(editor_stand_in, self.below_editor)
        editor_stand_in.deleteLater()

    @staticmethod
    def set_tab_order(widgets: list[QWidget], containers: list[QWidget]) -> None:
        """Tab through `widgets`, then the tab stops inside each of `containers` in turn:
        picker → search → tree → the panels over its bottom (message bar, Inbox; skipped
        while hidden) → editor → footer (the editor sits right of the footer on screen,
        but is where the keyboard goes after choosing a file)."""
        chain_tab_order([*widgets, *(stop for c in containers for stop in tab_stops(c))])


SPLITTER_NAME = "memory"
# Small homes open fully expanded; big ones show their top-level folders only.
EXPAND_ALL_MAX_FILES = 150
_RELATIVE_TIME_REFRESH_MS = 60_000
Thunk = Callable[[], object]  # what runs once a workspace switch is made


class TabController(Protocol):
    """What the frame asks of the tab's settled half once it is built
    (`gui.memory_tab.controller.MemoryTabController`; this package names none of it)."""

    @property
    def badges(self) -> Mapping[str, Badge]: ...
    @property
    def agent_edited(self) -> frozenset[str]: ...
    @property
    def busy(self) -> bool: ...
    @property
    def sources_shown(self) -> bool: ...
    @property
    def has_unsaved_tabs(self) -> bool: ...
    def leave(self, then: Callable[[], None]) -> None: ...
    def is_searching(self) -> bool: ...
    def quietly(self) -> AbstractContextManager[None]: ...
    def scan_shown(self, scan: HomeScan, steps: ScanSteps) -> None: ...
    def files_changed(self, changed: frozenset[MemoryFileRef]) -> None: ...
    def catch_up(self, scan: HomeScan, steps: ScanSteps) -> None: ...
    def tree_shown(self) -> None: ...
    def first_scan_loaded(self) -> None: ...
    def show_error(self, text: str) -> None: ...
    def reload(self) -> None: ...
    def switch_workspace(self, workspace_id: str | None, then: Thunk) -> None: ...
    def focus_search(self) -> None: ...
    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...]
    ) -> None: ...
    def show_suggestions(self, workspace_id: str | None) -> None: ...


class MemoryTab(QWidget):
    """The Memory tab's frame. Signals: tree_ready, descriptions_shown, assembled, loaded (the
    start-up steps), tree_updated (a scan or search shown), watch_targets_changed(object)
    (other agents' (directory, recursive) pairs), sources_loaded, forward_requested (a key
    for one of its parts was pressed on another tab: the window shows this one)."""

    tree_ready = Signal()
    descriptions_shown = Signal()
    assembled = Signal()
    loaded = Signal()
    tree_updated = Signal()
    watch_targets_changed = Signal(object)
    sources_loaded = Signal()
    forward_requested = Signal()
    _settled_step_loaded = Signal()  # from the worker importing it (`load_settled_step`)

    def __init__(
        self,
        context: WindowContext,
        *,
        workspace_id: str | None = None,
        source_context: ContextLoader | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Compose what the first paint shows, its first scan started before its widgets are laid
        out (`start`). `workspace_id` wins over the remembered one; `source_context` reads other
        agents' settings (tests)."""
        super().__init__(parent)
        self.setObjectName("memoryTab")
        self.context = context
        self.home = home = context.home
        self.ui_state = ui_state = context.ui_state
        self._shown = context.shown
        self._explicit_workspace = workspace_id is not None
        remembered = ui_state.workspace_for(home.root) if ui_state is not None else None
        self._shown.workspace_id = workspace_id or remembered
        self._tree_ready = False
        self._first_scan_shown = False
        self.is_assembled = False
        self._assembler: Callable[[], None] | None = None
        self.controller: TabController | None = None
        self.is_loaded = False
        self._stopped = False

        self.model = MemoryTreeModel(self)
        self.tree_fill = TreeFill(self.model, lambda: self._shown.scan, self.is_searching)
        self.tree = MemoryTreeView(self)
        self.tree.setModel(self.model)
        self.tree_reconcile = SlicedReconcile(self.model, self.tree_fill, self._quietly, self)
        self.scans = ScanScheduler(home, self, context.jobs, self, source_context=source_context)
        self._scan_started = False
        # The outline is read on the worker while Qt lays out the widgets and loads the fonts
        # (its C++, without the interpreter's lock); what it finds waits in the event queue.
        self.start()
        self.picker = WorkspacePicker(self)
        sizes = ui_state.splitter_sizes(SPLITTER_NAME) if ui_state is not None else None
        self._layout = TabLayout(self, self.picker, self.tree, sizes)
        self.splitter, self.new_button = self._layout.splitter, self._layout.new_button
        self.panes = self._layout.panes
        self.scans.scan_finished.connect(self._on_scans_scan_finished)
        self.scans.outline_finished.connect(self._on_scans_outline_finished)
        self.scans.scan_failed.connect(self.show_error)
        self.picker.workspace_requested.connect(self._on_picker_workspace_requested)
        self.tree_reconcile.reconciled.connect(self._on_tree_reconciled)
        context.changes.published.connect(self._on_changes_published)
        context.settings.published.connect(self._on_settings_published)
        self._time_refresh = QTimer(self)
        self._time_refresh.setInterval(_RELATIVE_TIME_REFRESH_MS)
        self._time_refresh.timeout.connect(self._on_time_refresh_timeout)
        self._time_refresh.start()
        self._settled_step_loaded.connect(self._on_settled_step_loaded)

    def set_assembler(self, assemble: Callable[[], None]) -> None:
        """How the tab is assembled: its window's features of the phase after the paint
        (`MainWindow`, as it is built; this package never names `gui.window.features`)."""
        self._assembler = assemble

    def assemble(self) -> None:
        """Build the controller now if it is not yet: the window reaches its phase after
        the paint, whose features build it (once; see the module docstring)."""
        if self.is_assembled:
            return
        if self._assembler is None:
            raise RuntimeError("a Memory tab is assembled by its window (MainWindow)")
        self._assembler()

    def start_assembling(self) -> None:
        """The controller is being built: `assemble()` returns at once from here on."""
        self.is_assembled = True

    def place_parts(
        self, search_field: QWidget, over_tree: list[QWidget], footer: QWidget, editor: QWidget
    ) -> None:
        """Put the controller's parts in the frame's gaps, and the tab order through them."""
        self._layout.place(search_field, over_tree, footer, editor)
        self._layout.set_tab_order(
            [self.picker.combo, search_field, self.new_button, self.tree],
            [*over_tree, editor, footer],
        )

    @property
    def overlay(self) -> TreeOverlay:
        return self._layout.overlay

    @property
    def below_editor(self) -> QSplitter:
        """The splitter of the editor and what a wide tab shows below it (once placed)."""
        splitter = self._layout.below_editor
        assert splitter is not None, "the editor is placed first (place_parts)"
        return splitter

    def settle(self, controller: TabController) -> None:
        """The controller is built and wired: the frame follows it from now on
        (`assembled`)."""
        self.is_assembled = True
        self.controller = controller
        self.assembled.emit()

    def catch_up(self) -> None:
        """Feed the controller the scan the tree already shows (built after it: it has not
        seen it), then `loaded` if it was the first; after the window's features that
        follow the scans shown."""
        scan, controller = self._shown.scan, self.controller
        if scan is None or controller is None:
            return
        caught_up = scan_steps(
            scan,
            None,
            assembled=True,
            searching=False,
            explicit_workspace=self._explicit_workspace,
        )
        self._workspace_shown(scan)
        controller.catch_up(scan, caught_up)
        self._shown.scan_applied.emit(scan)
        if self._first_scan_shown:
            self._finish_loading()

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
        return self._shown.workspace

    @property
    def is_tree_ready(self) -> bool:
        """Whether the tree holds the home's folders and counts (`tree_ready`)."""
        return self._tree_ready

    @property
    def is_sources_loaded(self) -> bool:
        """Whether other agents' memory has been shown (`sources_loaded`)."""
        return self.controller is not None and self.controller.sources_shown

    @property
    def is_idle(self) -> bool:
        """Whether nothing is scanning, building, searching, running or reconciling (tests)."""
        return not (
            self.scans.busy
            or (self._first_scan_shown and not self.is_loaded)  # the controller is still to build
            or (self.controller is not None and self.controller.busy)
            or self.context.file_ops_busy
            or self.tree_reconcile.busy
        )

    @property
    def open_containers(self) -> Collection[str]:
        """The containers whose file rows the tree builds (`TreeFill`)."""
        return self.tree_fill.open_containers

    @property
    def agent_edited(self) -> frozenset[str]:
        return self.controller.agent_edited if self.controller is not None else frozenset()

    def view(self) -> ScopeView:
        """The shown workspace's scopes, to read."""
        return self._shown.view()

    def start(self) -> None:
        """Read the home for the first time (off the GUI thread; a big home's outline
        first), once."""
        if not self._scan_started:
            self._scan_started = True
            self.scans.start()

    def rescan_all(self) -> None:
        """Reread everything the tab shows (F5): the scopes, and the controller's (the
        Inbox) once built."""
        self.scans.request(None)
        if self.controller is not None:
            self.controller.reload()

    def save_ui_state(self) -> None:
        """Remember the splitter's sizes (the window saves the file)."""
        if self.ui_state is not None:
            self.ui_state.set_splitter_sizes(SPLITTER_NAME, self.panes.wide_sizes())

    def stop_scanning(self) -> None:
        """Stop the scans and what shows them (once): nothing reaches the tree after."""
        if self._stopped:
            return
        self._stopped = True
        self._time_refresh.stop()
        self.tree_reconcile.stop()
        self.scans.shutdown()

    def shutdown(self) -> None:
        """Stop the frame's workers (on window close; the controller has them stop before
        its parts: `stop_scanning`)."""
        self.stop_scanning()

    def switch_workspace(self, workspace_id: str | None, then: Thunk = lambda: None) -> None:
        """Show another workspace once the drafts of the tabs it closes are saved or
        discarded (asked without blocking), then run `then` (not if drafts are kept)."""
        if self._shown.scan is not None and workspace_id == self._shown.workspace_id:
            then()
            return
        self.assemble()
        if self.controller is not None:  # not in a window closing before it was built
            self.controller.switch_workspace(workspace_id, then)

    def bring_forward(self) -> None:
        """Be the tab in front (the window shows it: `forward_requested`)."""
        self.forward_requested.emit()

    def focus_search(self) -> None:
        """Ctrl+Shift+F: put the cursor in the search box."""
        self.assemble()
        if self.controller is not None:
            self.controller.focus_search()

    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...] = ()
    ) -> None:
        """Open `path` of `workspace_id` (switching to it) with `lines` highlighted, as
        soon as the tree shows it (e.g. the notes the writer just recorded)."""
        self.assemble()
        if self.controller is not None:
            self.controller.reveal_file(workspace_id, path, lines)

    def show_suggestions(self, workspace_id: str | None) -> None:
        """Show the Inbox of `workspace_id` (switching to it)."""
        self.assemble()
        if self.controller is not None:
            self.controller.show_suggestions(workspace_id)

    def show_workspace(self, workspace_id: str | None) -> None:
        """A workspace switch is made (the controller's, once drafts are settled): the
        picker and the next scan show `workspace_id`, remembered for this home."""
        self._shown.workspace_id = workspace_id
        self._explicit_workspace = False
        if self.ui_state is not None:
            self.ui_state.set_workspace(self.home.root, workspace_id)
            self.context.save_ui_state()
        self.picker.select_workspace(workspace_id)
        self.scans.request(None, supersede=True)

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
        if self.controller is not None:  # not in a window closed before it was built
            self.controller.show_error(text)
        self.context.status.show(text)

    def is_searching(self) -> bool:
        """Whether the tree shows search results (their containers hold only matches)."""
        return self.controller is not None and self.controller.is_searching()

    def show_tree(self, tree: TreeNode, then: Callable[[], None] | None = None) -> None:
        """Reconcile `tree` into the model in slices (`SlicedReconcile`), then run `then` and the
        follow-ups of a shown tree."""
        badges = self.controller.badges if self.controller is not None else None
        self.tree_reconcile.show(tree, badges, then)

    def show_search_results(self, tree: TreeNode, then: Callable[[], None]) -> None:
        """Show a search's `tree`, then `then` (the first scan's follow-ups if it comes
        first)."""
        self.show_tree(tree, lambda: self._after_search_tree_shown(then))

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
        self.show_tree(tree, self._on_outline_shown)

    def _on_outline_shown(self) -> None:
        self._expand_defaults()
        self._mark_tree_ready()
        self.tree.after_next_paint(self.scans.outline_shown)

    def _mark_tree_ready(self) -> None:
        if not self._tree_ready:
            self._tree_ready = True
            self.tree_ready.emit()

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
        controller = self.controller
        steps = scan_steps(
            scan,
            previous,
            assembled=controller is not None,
            searching=self.is_searching(),
            explicit_workspace=self._explicit_workspace,
        )
        if controller is None or steps.first:  # the tree alone, the controller after its paint
            self.show_tree(tree, self._on_first_scan_shown)
        else:
            if steps.workspace_changed:
                self._workspace_shown(scan)
            controller.scan_shown(scan, steps)
            if not steps.search_again:
                then = None if self._first_scan_shown else self._on_first_scan_shown
                self.show_tree(tree, then)
            if steps.followed:
                controller.files_changed(steps.followed)
        if steps.error:
            self.show_error(steps.error)
        if controller is not None and not steps.first:
            self._shown.scan_applied.emit(scan)

    def _workspace_shown(self, scan: HomeScan) -> None:
        self._shown.workspace_id = scan.workspace.id if scan.workspace is not None else None

    def _quietly(self) -> AbstractContextManager[None]:
        controller = self.controller
        return controller.quietly() if controller is not None else contextlib.nullcontext()

    @Slot()
    def _on_tree_reconciled(self) -> None:
        if self.controller is None:
            return  # an outline or the first scan: nothing is open or selected yet
        self.controller.tree_shown()
        self.tree_updated.emit()

    def _on_first_scan_shown(self) -> None:
        """Build the controller once the tree has painted (at once if it cannot: not shown)."""
        self._expand_defaults()
        self._mark_tree_ready()
        self._first_scan_shown = True
        self.descriptions_shown.emit()
        if self.controller is not None:
            self._finish_loading()
        else:  # its modules imported on a worker, so keys and paints go on meanwhile
            self.tree.after_next_paint(lambda: load_settled_step(self._settled_step_loaded.emit))

    @Slot()
    def _on_settled_step_loaded(self) -> None:
        self.assemble()

    def _finish_loading(self) -> None:
        """The controller has caught up with the first scan: what follows it, then
        `loaded`."""
        if self.is_loaded or self.controller is None:
            return
        self.is_loaded = True
        self.controller.first_scan_loaded()
        self.scans.enable_sources()  # other agents' memory: after the mux scopes are shown
        self.loaded.emit()

    def _expand_defaults(self) -> None:
        keys = default_expanded_keys(self.model.root, EXPAND_ALL_MAX_FILES)
        self.tree.set_expanded_keys(keys)

    def _after_search_tree_shown(self, then: Callable[[], None]) -> None:
        then()
        if not self._first_scan_shown:
            self._on_first_scan_shown()

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
