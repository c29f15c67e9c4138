"""The window's composition root: `WINDOW_FEATURES`, every feature in build order with its
phase (`components/window/phases.py`). `memtab.gui.first_paint` never imports it:
`boundary.settled_step()` does, so the "first-paint" contract holds.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, Slot
from PySide6.QtGui import QContextMenuEvent, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

from memtab.components.window.phases import Feature, Phase, keyed
from memtab.fs.heap import keep_heap_trimmed, share_one_arena
from memtab.gui.activity.edit_marks import EditMarks
from memtab.gui.activity.mux_presence import MuxPresence
from memtab.gui.blame.feature import BlameFeature
from memtab.gui.check.feature import CheckFeature
from memtab.gui.consolidation.footer import ConsolidationFooter
from memtab.gui.consolidation.tasks import ConsolidationTasks
from memtab.gui.editor.editor import EditorPanel
from memtab.gui.editor.tab.bar import MessageBar
from memtab.gui.files.dialogs import TabDialogs
from memtab.gui.files.file_actions import FileActions
from memtab.gui.first_paint.main_window import (
    OWN_ACTIONS,
    TRACES,
    TRACES_SPLITTER,
    MainWindow,
    restore_splitter,
)
from memtab.gui.history.hub import HistoryHub
from memtab.gui.loads.feature import LoadsFeature
from memtab.gui.memory_tab.controller import MemoryTabController, TabFiles, TabHost
from memtab.gui.memory_tab.panes import Pane
from memtab.gui.search.box import SearchBox
from memtab.gui.sync.feature import SyncFeature
from memtab.gui.toolkit.keyboard_home import KeyboardHome
from memtab.gui.toolkit.keyboard_return import keyboard_stop
from memtab.gui.toolkit.paint import use_native_panels
from memtab.gui.toolkit.text.text_fields import keep_window_keys_from_fields
from memtab.gui.toolkit.widgets import named
from memtab.gui.tree.editor_link import TreeEditorLink
from memtab.gui.tree.sources import SourcesFollower
from memtab.gui.trust.feature import TrustFeature
from memtab.gui.window.keys import (
    BLAME,
    CHECK,
    CONSOLIDATION,
    DIALOGS,
    EDITOR,
    EDITOR_LINK,
    FILE_ACTIONS,
    FILES,
    FOOTER,
    HISTORY,
    INBOX,
    LOADS,
    MARKS,
    MEMORY_TAB,
    MENUS,
    MESSAGE_BAR,
    MUX,
    NEWS_BAR,
    PALETTE,
    SEARCH_BOX,
    SOURCES,
    SYNC,
    TAB_HOST,
    TRUST,
    WRITER,
    WRITER_FEEDBACK,
    WRITER_STATUS,
)
from memtab.gui.window.menus import WindowMenus
from memtab.gui.window.palette import Palette
from memtab.gui.window.window_actions import WindowActions
from memtab.gui.writer.feedback import WriterFeedback, WriterStatusWidget, WriterSupervisor
from memtab.gui.writer.inbox_panel import InboxPanel
from memtab.log_rotation import start_rotating

if TYPE_CHECKING:  # lazy: the Traces tab loads when first shown (build_traces)
    from memtab.gui.traces.feature import TracesTab


NO_MODIFIER = Qt.KeyboardModifier.NoModifier


def is_context_menu_key(event: QKeyEvent) -> bool:
    """Whether `event` is Shift+F10 or the Menu key (alone)."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return (event.key() == Qt.Key.Key_F10 and modifiers == Qt.KeyboardModifier.ShiftModifier) or (
        event.key() == Qt.Key.Key_Menu and modifiers == NO_MODIFIER
    )


def menu_place(widget: QWidget) -> tuple[QWidget, QPoint]:
    """Where the context menu of `widget` opens, by the keyboard: the widget the event goes
    to (a scroll area's viewport) and the point in it."""
    if isinstance(widget, QAbstractItemView):
        view = widget.viewport()
        row = widget.visualRect(widget.currentIndex())
        if row.isValid() and view.rect().intersects(row):
            x = min(row.left() + row.height(), view.width() // 2)
            return view, QPoint(x, row.center().y())
        return view, view.rect().center()
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return widget.viewport(), widget.cursorRect().bottomLeft()
    if isinstance(widget, QAbstractScrollArea):
        return widget.viewport(), widget.viewport().rect().center()
    return widget, widget.rect().center()


class ContextMenuKeys(QObject):
    """`open_context_menus_by_key`' filter, on each widget the focus reaches."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        app.focusChanged.connect(self._on_application_focus_changed)
        self._on_application_focus_changed(None, app.focusWidget())

    @Slot(QWidget, QWidget)
    def _on_application_focus_changed(self, _old: QWidget | None, now: QWidget | None) -> None:
        if now is not None:
            now.installEventFilter(self)  # again: Qt keeps one, and puts it first

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        if not (isinstance(event, QKeyEvent) and is_context_menu_key(event)):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the key is the widget's: no shortcut of the window takes it
            return True
        if isinstance(watched, QWidget) and watched.hasFocus():
            target, point = menu_place(watched)
            QApplication.sendEvent(
                target,
                QContextMenuEvent(
                    QContextMenuEvent.Reason.Keyboard, point, target.mapToGlobal(point)
                ),
            )
            return True
        return False


def open_context_menus_by_key() -> None:
    """Make Shift+F10 and the Menu key open the context menu of what has the keyboard,
    in every window of the application (once for the process)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication) or app.findChild(ContextMenuKeys) is not None:
        return
    ContextMenuKeys(app)


def after_first_paint() -> None:
    """What changes once the tree has painted: log rotation, the heap's arenas (`fs.heap`),
    rows' backgrounds by the style (`toolkit.paint`), window keys never a text field's
    (`text_fields`), and Shift+F10 / Menu opening the context menu (`ContextMenuKeys`)."""
    start_rotating()
    share_one_arena()
    keep_heap_trimmed()
    use_native_panels()
    keep_window_keys_from_fields()
    open_context_menus_by_key()


def start_assembling(window: MainWindow) -> None:
    """The first step after the paint: the Memory tab is being assembled (its `assemble()`
    returns at once from here on), and what changes once the tree has painted."""
    window.memory_tab.start_assembling()
    after_first_paint()


# The Memory tab's parts, in the order they are built, each a feature the composition keeps
# by its key (`keys`; and stops, the last built first), none of them shown by the paint;
# then the tab's controller, built with them.


def build_footer(window: MainWindow) -> ConsolidationFooter:
    consolidation = window.part(CONSOLIDATION)
    footer = ConsolidationFooter(consolidation, window.context.jobs)
    # The engine loads when Consolidate now is first pointed at or focused (a click may
    # follow), not with every window: ~1 MiB a window that never consolidates would keep.
    footer.about_to_consolidate.connect(consolidation.preload)
    return footer


def build_marks(window: MainWindow) -> EditMarks:
    """The edit marks: the badges naming who changed a file, other windows' runs too."""
    tab, context = window.memory_tab, window.context
    editor = window.part(EDITOR)
    marks = EditMarks(tab.home, tab.model, editor, context.own_writes, context.ui_state, tab)
    marks.follow_other_runs(context)
    return marks


def build_editor_link(window: MainWindow) -> TreeEditorLink:
    """The tree and the editor kept in step."""
    tab = window.memory_tab
    editor = window.part(EDITOR)
    return TreeEditorLink(tab.tree, tab.model, editor, tab, shown=window.context.shown)


def build_sources(window: MainWindow) -> SourcesFollower:
    """Other agents' memory in the tree, followed from the first scan shown."""
    tab = window.memory_tab
    editor, footer = window.part(EDITOR), window.part(FOOTER)
    return SourcesFollower(tab.tree, tab.model, editor, footer, tab.is_searching, tab)


def build_search_box(window: MainWindow) -> SearchBox:
    """The search field and its searches."""
    tab = window.memory_tab
    link = window.part(EDITOR_LINK)
    box = SearchBox(window.context, tab, tab.tree, tab.model, link, tab)
    # F3 out of the open file: the next matching line (one key, one action).
    window.part(EDITOR).editor_actions.steps_elsewhere(box.next_result, box.previous_result)
    return box


def build_file_actions(window: MainWindow) -> FileActions:
    """The tree's file actions, run by the window's file operations."""
    tab = window.memory_tab
    editor, host = window.part(EDITOR), window.part(TAB_HOST)
    return FileActions(window.context, tab, tab.tree, tab.model, editor, host)


def build_files(window: MainWindow) -> TabFiles:
    """The open file remembered and reopened, the row a file operation selects."""
    tab = window.memory_tab
    return TabFiles(
        window.context,
        window.part(TAB_HOST),
        model=tab.model,
        editor_link=window.part(EDITOR_LINK),
        editor=window.part(EDITOR),
        marks=window.part(MARKS),
        sources=window.part(SOURCES),
        scans=tab.scans,
        message_bar=window.part(MESSAGE_BAR),
        panes=tab.panes,
        parent=tab,
    )


def build_memory_tab(window: MainWindow) -> MemoryTabController:
    """The Memory tab's settled half, with its parts: it places and wires them and
    settles the tab (`assembled`)."""
    part = window.part
    return MemoryTabController(
        window.memory_tab,
        window.context,
        consolidation=part(CONSOLIDATION),
        host=part(TAB_HOST),
        editor=part(EDITOR),
        footer=part(FOOTER),
        marks=part(MARKS),
        inbox=part(INBOX),
        mux=part(MUX),
        sources=part(SOURCES),
        editor_link=part(EDITOR_LINK),
        search_box=part(SEARCH_BOX),
        file_actions=part(FILE_ACTIONS),
        files=part(FILES),
        message_bar=part(MESSAGE_BAR),
        news_bar=part(NEWS_BAR),
        parent=window.memory_tab,
    )


def build_history(window: MainWindow) -> HistoryHub:
    """The History panel, Runs…, Recently deleted (the tab's parts exist now)."""
    tab = window.memory_tab
    history = HistoryHub(
        window.context, window, window.part(EDITOR), window, news=window.part(NEWS_BAR)
    )
    window.status_bar.insert_permanent_first(history.recording_note)
    window.part(FOOTER).runs_dialog_requested.connect(history.show_runs)
    history.trace_requested.connect(window.show_trace)  # Runs…' Open trace
    window.part(CONSOLIDATION).run_logged.connect(history.run_ended)  # Edit → Undo takes it back
    file_actions = window.part(FILE_ACTIONS)
    file_actions.history_requested.connect(history.show_history)
    file_actions.trash_requested.connect(history.open_trash)
    if tab.is_loaded:  # the hub is built once the tab is assembled, maybe after
        history.tab_loaded()
    else:
        tab.loaded.connect(history.tab_loaded)
    return history


def build_blame(window: MainWindow) -> BlameFeature:
    """View → Blame: the editor's blame gutter and its cards."""
    return BlameFeature(
        window.context,
        window.part(EDITOR),
        open_trace=window.show_trace,
        open_run=window.part(HISTORY).show_run,  # a card opens its run in Runs…
        parent=window,
    )


def build_check(window: MainWindow) -> CheckFeature:
    """The Check panel, marks and fixes (reviewed like Consolidate now's plans)."""
    return CheckFeature(
        window.context,
        window,
        window.part(EDITOR),
        window.memory_tab.model,
        review=window.part(CONSOLIDATION).review,
        in_background=window.start_check,
        parent=window,
    )


def build_loads(window: MainWindow) -> LoadsFeature:
    """View → What each agent loads."""
    tab = window.memory_tab
    return LoadsFeature(
        window.context,
        window,
        functools.partial(window.part(EDITOR_LINK).select_key, open_it=True),
        window.part(EDITOR),
        source_context=tab.scans.source_context,
        parent=window,
    )


def build_trust(window: MainWindow) -> TrustFeature:
    """What needs you (the editor's room with no file open) and View → Trust."""
    link = window.part(EDITOR_LINK)
    return TrustFeature(
        window.context,
        window,
        window.part(EDITOR).empty_room,
        open_key=link.reveal_key,
        badges=window.part(MARKS),
        inbox=window.part(INBOX),
        check=window.part(CHECK),
        show_room=functools.partial(window.memory_tab.panes.show_pane, Pane.EDITOR, focus=False),
        in_background=window.start_check,  # the memory's background looks, as the check's
        parent=window,
    )


def build_palette(window: MainWindow) -> Palette:
    edit = window.part(FILES).edit_key  # Quick open: the keyboard in the file's text
    return Palette(window.context, window, edit, window)


def build_sync(window: MainWindow) -> SyncFeature:
    """Sync over git and its conflicts: File → Sync now, the status bar's line."""
    sync = SyncFeature(
        window.context,
        window,
        rows=window.memory_tab.model,
        editor=window.part(EDITOR),
        parent=window,
    )
    window.status_bar.insert_permanent_first(sync.status)
    sync.sync.changed.connect(window.part(MARKS).claim_sync)  # what it brings in is badged sync's
    return sync


def keyboard_home(window: MainWindow) -> None:
    """Where the keyboard goes once what held it is gone (`KeyboardHome`): on the Memory
    tab its open file's text or its tree, on another tab its first stop."""
    page = window.tabs.currentWidget()
    if page is window.memory_tab:
        window.memory_tab.panes.take_keyboard_home()
    elif page is not None and (stop := keyboard_stop(page)) is not None:
        stop.setFocus(Qt.FocusReason.OtherFocusReason)


def build_menus(window: MainWindow) -> WindowMenus:
    """The menus, made from the actions every feature before registered."""
    window.menuBar().clear()  # the titles shown until now
    menus = WindowMenus(window.context.actions, window.menuBar(), window)
    window.status_bar.mode_indicator(
        window.context.actions.action("editor.tab_moves_focus"), "Tab moves focus"
    )
    return menus


def start_watching(window: MainWindow) -> None:
    """Watch the home, and read once more what changed before the watch began: the tree's
    scopes and the Inbox (a harvest or an agent's proposal written meanwhile)."""
    window.watcher.start(window.home.root)
    window.memory_tab.rescan_all()


def build_writer(window: MainWindow) -> WriterSupervisor | None:
    """The background memory writer, following the watcher's batches (not in a window
    that runs none)."""
    if not window.start_writer:
        return None
    writer = WriterSupervisor(window.home, window.context.jobs)
    writer.setParent(window)
    writer.attach(window.context.changes)
    writer.follow_settings(window.context.settings)
    return writer


def build_writer_status(window: MainWindow) -> WriterStatusWidget | None:
    """The writer's status in the status bar."""
    writer = window.part(WRITER)
    if writer is None:
        return None
    status = WriterStatusWidget(window)
    status.attach(writer)
    status.trace_requested.connect(window.show_trace)
    window.statusBar().insertWidget(0, status)
    return status


def build_writer_feedback(window: MainWindow) -> WriterFeedback | None:
    """What the writer did, told in the window (a run's result, a trace)."""
    writer, status = window.part(WRITER), window.part(WRITER_STATUS)
    if writer is None or status is None:
        return None
    return WriterFeedback(window.context, window, writer, status, window.part(MEMORY_TAB), window)


def start_writer(window: MainWindow) -> None:
    """The writer follows every transcript from its current end."""
    if (writer := window.part(WRITER)) is not None:
        writer.start()


def build_traces(window: MainWindow) -> TracesTab | None:
    """The Traces tab, in its place among the tabs (None in a window without one)."""
    container = window.traces_container
    if container is None:
        return None
    # lazy: on demand — ~0.8 MiB the settled window keeps only once Traces is first shown
    from memtab.gui.traces.feature import TracesTab

    traces = TracesTab(window.home, window.context.changes, window.context.jobs)
    restore_splitter(window.ui_state, TRACES_SPLITTER, traces.splitter)
    layout = container.layout()
    assert layout is not None
    layout.addWidget(traces)
    container.setFocusProxy(traces)  # the tab shown: the keyboard in its list, not its page
    return traces


WINDOW_FEATURES: tuple[Feature[MainWindow], ...] = (
    # built before the first paint by the window's start (`first_paint.app`)
    Feature("memory tab", Phase.FIRST_PAINT, lambda w: w.memory_tab),
    # right after the tree's first paint (`MemoryTab.assemble()`, or sooner when needed):
    # the Memory tab's parts, then its controller with them...
    Feature("start assembling", Phase.AFTER_PAINT, start_assembling),
    keyed(
        CONSOLIDATION,
        Phase.AFTER_PAINT,
        lambda window: ConsolidationTasks(
            window.home, window.context.jobs, parent=window.memory_tab
        ),
    ),
    keyed(
        EDITOR,
        Phase.AFTER_PAINT,
        lambda w: EditorPanel(w.context, tab_keys_in=w.memory_tab),
    ),
    keyed(FOOTER, Phase.AFTER_PAINT, build_footer),
    keyed(DIALOGS, Phase.AFTER_PAINT, lambda w: TabDialogs(w.memory_tab)),
    keyed(MARKS, Phase.AFTER_PAINT, build_marks),
    keyed(INBOX, Phase.AFTER_PAINT, lambda w: InboxPanel(w.context, w.memory_tab)),
    keyed(
        MUX,
        Phase.AFTER_PAINT,
        lambda w: MuxPresence(w.home, w.context.jobs, w.memory_tab),
    ),
    keyed(EDITOR_LINK, Phase.AFTER_PAINT, build_editor_link),
    keyed(SOURCES, Phase.AFTER_PAINT, build_sources),
    keyed(SEARCH_BOX, Phase.AFTER_PAINT, build_search_box),
    keyed(TAB_HOST, Phase.AFTER_PAINT, lambda w: TabHost(w.memory_tab, w.part(DIALOGS))),
    keyed(FILE_ACTIONS, Phase.AFTER_PAINT, build_file_actions),
    keyed(MESSAGE_BAR, Phase.AFTER_PAINT, lambda w: MessageBar(w.memory_tab)),
    # the tab's news bar (a burst of deletions: `gui/history/hub.py`)
    keyed(
        NEWS_BAR,
        Phase.AFTER_PAINT,
        lambda w: named(MessageBar(w.memory_tab), "newsBar", accessible="News"),
    ),
    keyed(FILES, Phase.AFTER_PAINT, build_files),
    keyed(MEMORY_TAB, Phase.AFTER_PAINT, build_memory_tab),
    # ...then the window's features that use them...
    keyed(HISTORY, Phase.AFTER_PAINT, build_history),
    keyed(BLAME, Phase.AFTER_PAINT, build_blame),
    keyed(CHECK, Phase.AFTER_PAINT, build_check),
    keyed(LOADS, Phase.AFTER_PAINT, build_loads),
    keyed(TRUST, Phase.AFTER_PAINT, build_trust),
    keyed(
        OWN_ACTIONS,
        Phase.AFTER_PAINT,
        lambda w: WindowActions(w.context, w, w.part(MEMORY_TAB), w),
    ),
    keyed(PALETTE, Phase.AFTER_PAINT, build_palette),
    keyed(SYNC, Phase.AFTER_PAINT, build_sync),
    keyed(MENUS, Phase.AFTER_PAINT, build_menus),
    Feature(
        "keyboard home",
        Phase.AFTER_PAINT,
        lambda w: KeyboardHome(w, functools.partial(keyboard_home, w)),
    ),
    # ...and the controller catches up with the scan the tree shows (`loaded` when it is the first)
    Feature("tab caught up", Phase.AFTER_PAINT, lambda w: w.memory_tab.catch_up()),
    # once the first scan is shown (its paint first: the watch setup slows everything)
    Feature("watching", Phase.WATCHING, start_watching),
    keyed(WRITER, Phase.WATCHING, build_writer),
    keyed(WRITER_STATUS, Phase.WATCHING, build_writer_status),
    keyed(WRITER_FEEDBACK, Phase.WATCHING, build_writer_feedback),
    Feature("writer start", Phase.WATCHING, start_writer),
    Feature("sync start", Phase.WATCHING, lambda w: w.part(SYNC).start()),
    # when first shown or asked for
    keyed(TRACES, Phase.ON_DEMAND, build_traces),
)
"""The window's features in the order they are built, each with its phase."""
