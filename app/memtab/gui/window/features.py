"""The window's one step after its first paint: the only module that imports the features
the settled window is made of (the editor, the footer, search, file commands, the inbox,
the window's commands and menus, history, blame, check, loads, sync, the writer; Traces
when first shown).

`memtab.gui.first_paint` never imports it: `boundary.settled_step()` imports it by name when
the Memory tab is assembled (right after the tree's first paint, or sooner when something
needs the parts), so the import-linter contract "first-paint" holds the window's start to
what its package imports. Everything here imports at the top of the module but the
Traces tab, built on demand.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from memtab.gui.activity.edit_marks import EditMarks
from memtab.gui.activity.mux_presence import MuxPresence
from memtab.gui.blame.feature import BlameFeature
from memtab.gui.check.feature import CheckFeature
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.context import ChangeFeed
from memtab.gui.editor.bar import BarKind, MessageBar
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.files.commands import FileCommands
from memtab.gui.files.dialogs import TabDialogs
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.first_paint.memory_tab import MemoryTab
from memtab.gui.history.hub import HistoryHub
from memtab.gui.loads.feature import LoadsFeature
from memtab.gui.memory_tab.tab_files import TabFiles
from memtab.gui.paint import use_native_panels
from memtab.gui.search.box import SearchBox
from memtab.gui.sync.feature import SyncFeature
from memtab.gui.tasks.writer import WriterSupervisor
from memtab.gui.tree.sources import SourcesSync
from memtab.gui.tree.sync import TreeEditorSync
from memtab.gui.window.commands import WindowCommands
from memtab.gui.window.menus import WindowMenus
from memtab.gui.window.palette import Palette
from memtab.gui.writer.feedback import WriterFeedback
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.gui.writer.status import WriterStatusWidget
from memtab.log_rotation import start_rotating
from memtab.store.home import Home

if TYPE_CHECKING:  # lazy: the Traces tab loads when first shown (build_traces_tab)
    from memtab.gui.traces import TracesTab


def after_first_paint() -> None:
    """What changes once the tree has painted: the log file starts rotating, and rows'
    backgrounds are drawn by the widget style from then on (`memtab.gui.paint`)."""
    start_rotating()
    use_native_panels()


def build_tab_parts(tab: MemoryTab) -> None:
    """The Memory tab's parts the first paint does not show: the editor, the footer, search,
    the file commands, the inbox, the badges (`MemoryTab.assemble` wires them)."""
    tab.editor = EditorPanel(tab.context, tab_keys_in=tab)  # Ctrl+W from the tree too
    tab.footer = ConsolidationFooter(tab.consolidation)
    # The engine loads when Consolidate now is first pointed at or focused (a click may
    # follow), not with every window: ~1 MiB a window that never consolidates would keep.
    tab.footer.about_to_consolidate.connect(tab.consolidation.preload)
    tab.dialogs = TabDialogs(tab)  # replaced by canned answers in tests
    tab.marks = EditMarks(tab.home, tab.model, tab.editor, tab.own_writes, tab.ui_state, tab)
    tab.inbox = InboxPanel(tab.context, tab)
    tab.mux = MuxPresence(tab.home, tab)
    tab.sync = TreeEditorSync(tab.tree, tab.model, tab.editor, tab, shown=tab.context.shown)
    tab.sources = SourcesSync(tab.tree, tab.model, tab.editor, tab.footer, tab.is_searching, tab)
    tab.search_box = SearchBox(tab.context, tab, tab.tree, tab.model, tab.sync, tab)
    tab.file_ops = tab.context.file_ops
    tab.commands = FileCommands(tab.context, tab, tab.tree, tab.model, tab.editor, tab)
    tab.search_edit = tab.search_box.edit
    tab.message_bar = MessageBar(tab)


def build_tab_files(tab: MemoryTab) -> None:
    """The open file remembered and reopened, the row a file operation selects (once the
    tab's parts are placed)."""
    tab.files = TabFiles(
        tab.context,
        tab,
        model=tab.model,
        sync=tab.sync,
        editor=tab.editor,
        marks=tab.marks,
        sources=tab.sources,
        scans=tab.scans,
        message_bar=tab.message_bar,
        panes=tab.panes,
        parent=tab,
    )


def show_tab_error(tab: MemoryTab, text: str) -> None:
    """An error in the tab's message bar (the tab is assembled)."""
    tab.message_bar.show_message(BarKind.ERROR, text)


def build_traces_tab(home: Home, changes: ChangeFeed) -> TracesTab:
    """The Traces tab (built when first shown)."""
    # lazy: on demand — ~0.8 MiB the settled window keeps only once Traces is first shown
    from memtab.gui.traces import TracesTab

    return TracesTab(home, changes)


def build_writer(home: Home) -> WriterSupervisor:
    """The background memory writer of `home` (built once the Memory tab has loaded)."""
    return WriterSupervisor(home)


def build_writer_status(window: MainWindow, writer: WriterSupervisor) -> None:
    """The writer's status in the status bar and its feedback (a run's result, a trace)."""
    window.writer_status = status = WriterStatusWidget(window)
    status.attach(writer)
    status.trace_requested.connect(window.show_trace)
    window.writer_feedback = WriterFeedback(
        window.context, window, writer, status, window.memory_tab, window
    )
    window.statusBar().insertWidget(0, status)


def build_window_features(window: MainWindow) -> None:
    """The window's features that use the Memory tab's parts (history, blame, check,
    loads, the commands, the palette, sync) and its menus, made from the actions they
    registered (on the tab's `assembled`)."""
    tab = window.memory_tab
    window.history = history = HistoryHub(window.context, window, tab.editor, window)
    tab.footer.runs_dialog_requested.connect(history.show_runs)
    tab.commands.history_requested.connect(history.show_history)
    tab.commands.trash_requested.connect(history.open_trash)
    if tab.is_loaded:  # the hub is built once the tab is assembled, maybe after
        history.tab_loaded()
    else:
        tab.loaded.connect(history.tab_loaded)
    window.blame = BlameFeature(
        window.context,
        tab.editor,
        open_trace=window.show_trace,
        open_run=history.show_run,
        parent=window,
    )
    window.check = _build_check(window)
    window.loads = LoadsFeature(
        window.context,
        window,
        functools.partial(tab.sync.select_key, open_it=True),
        tab.editor,
        source_context=tab.scans.source_context,
        parent=window,
    )
    window.commands = WindowCommands(window.context, window, window)
    window.command_palette = Palette(
        window.context, window, functools.partial(tab.sync.select_key, open_it=True), window
    )
    _build_sync(window)
    window.menuBar().clear()  # the titles shown until now
    window.menus = WindowMenus(window.context.actions, window.menuBar(), window)
    window.status_bar.mode_indicator(
        window.context.actions.action("editor.tab_moves_focus"), "Tab moves focus"
    )


def _build_check(window: MainWindow) -> CheckFeature:
    """The Check panel, marks and fixes (reviewed like Consolidate now's plans)."""
    tab = window.memory_tab
    check = CheckFeature(
        window.context,
        window,
        tab.editor,
        tab.model,
        review=tab.consolidation.review,
        in_background=window.start_check,
        parent=window,
    )
    return check


def _build_sync(window: MainWindow) -> None:
    tab = window.memory_tab
    window.sync = sync = SyncFeature(
        window.context, window, rows=tab.model, editor=tab.editor, parent=window
    )
    window.status_bar.insert_permanent_first(sync.status)
    if window.watcher.root is not None:  # the menus were built after watching began
        sync.start()
