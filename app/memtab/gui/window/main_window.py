"""The main window: tabs (Memory first), a menu bar, and a status bar saying which home is
open, how it was found, and how the file watcher is watching it. It also says so when a
sidecar Memtab could not parse was kept aside (`memtab.fs.sidecar.on_kept_aside`).

Other tabs are added with `add_tab(widget, title)`; status bar widgets with
`add_status_widget(widget)`. The window owns the one `HomeWatcher` of the home; tabs
connect to `watcher.paths_changed` (the Memory tab is connected here).
"""

from __future__ import annotations

import functools
import html
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QStatusBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memtab import __version__
from memtab.components import glossary
from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.gui.activity.watch import HomeWatcher, WatchBackend
from memtab.gui.memory_tab.tab import MemoryTab
from memtab.gui.tasks.runner import TaskRunner
from memtab.gui.ui_state import UiState
from memtab.gui.window.geometry import place_window, remember_splitter, restore_splitter
from memtab.humanize import display_path
from memtab.logs import log_file
from memtab.store.home import Home

if TYPE_CHECKING:  # built after the first paint: importing them costs start-up time
    from memtab.gui.history.hub import HistoryHub
    from memtab.gui.tasks.writer import WriterSupervisor
    from memtab.gui.traces import TracesTab
    from memtab.gui.window.menus import WindowMenus
    from memtab.gui.writer.feedback import WriterFeedback
    from memtab.gui.writer.status import WriterStatusWidget

logger = logging.getLogger(__name__)

TRACES_SPLITTER = "traces"
WATCH_START_DELAY_MS = 150
KEPT_ASIDE_MESSAGE_MS = 30_000
# `WindowMenus`' menus, shown (empty) from the first paint until it is built.
MENU_TITLES = ("&File", "&Edit", "&View", "&Help")
OPEN_HOME_KEY = "open-home"

_SOURCE_TEXT = {
    "--home": "set with --home",
    "MEMTAB_HOME": "set by $MEMTAB_HOME",
    "XUM_ROOT": "set by $XUM_ROOT",
    "MUX_ROOT": "set by $MUX_ROOT",
    "~/.xum": "the xum home",
    "~/.mux": "the mux home",
    "~/.cmux": "the legacy cmux home",
    "Memtab": "Memtab's own home",
    "demo": "the demo home (memtab --demo)",
}


def source_text(source: str | None) -> str:
    """How the home was found, in words (HomeLocation.source)."""
    if source is None:
        return "opened directly"
    return _SOURCE_TEXT.get(source, f"set by {source}")


class KeptAsideNotices(QObject):
    """Brings news of sidecars kept aside (from whichever thread kept them) to the GUI
    thread: `kept_aside` carries a `memtab.fs.sidecar.KeptAside`. Call `stop()` when the
    window closes (not from `destroyed`: Python code run while Qt deletes the object can
    crash the process)."""

    kept_aside = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

        def deliver(kept: KeptAside) -> None:  # from any thread: queued to this one
            if shiboken6.isValid(self):
                self.kept_aside.emit(kept)

        self.stop = on_kept_aside(deliver)


class MainWindow(QMainWindow):
    """Memtab's window (build it with `memtab.gui.window.app.create_main_window`)."""

    menus: WindowMenus
    """Built once the Memory tab is assembled (see `_build_menus`)."""
    history: HistoryHub | None = None
    """The History panel, Runs…, Recently deleted; built with the menus."""

    def __init__(
        self,
        home: Home,
        memory_tab: MemoryTab,
        watcher: HomeWatcher,
        *,
        home_source: str | None = None,
        ui_state: UiState | None = None,
        traces_tab_factory: Callable[[], TracesTab] | None = None,
        writer_factory: Callable[[], WriterSupervisor] | None = None,
    ) -> None:
        """Lay out the window around `memory_tab`; `start()` begins watching and scanning.

        The menus are filled once the Memory tab is assembled (right after its first
        paint); the background writer is built once it has loaded, the Traces tab when
        it is first shown (or asked for), so they never delay the window.
        """
        super().__init__()
        self.setObjectName("mainWindow")
        self.home = home
        self.home_source = home_source
        self.memory_tab = memory_tab
        self.watcher = watcher
        watcher.setParent(self)
        self.ui_state = ui_state
        self._closing = False
        self._closed = False
        self.setWindowTitle(display_path(home.root))

        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("mainTabs")
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self.add_tab(memory_tab, "Memory")
        self._traces_tab: TracesTab | None = None
        self._traces_tab_factory = traces_tab_factory
        self._traces_container: QWidget | None = None
        if traces_tab_factory is not None:
            self._traces_container = QWidget(self)
            QVBoxLayout(self._traces_container).setContentsMargins(0, 0, 0, 0)
            self.add_tab(self._traces_container, "Traces")
            self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.writer: WriterSupervisor | None = None
        self.writer_status: WriterStatusWidget | None = None
        self.writer_feedback: WriterFeedback | None = None
        self._writer_factory = writer_factory

        self._home_label = QLabel(self)
        self._home_label.setObjectName("homeStatus")
        self._home_label.setText(f"{display_path(home.root)} · {source_text(home_source)}")
        self._home_label.setToolTip(
            f"Memory home: {home.root}\nChosen because it was {source_text(home_source)}."
        )
        self._home_label.setAccessibleName("Memory home")
        self._watch_label = QLabel(self)
        self._watch_label.setObjectName("watcherStatus")
        self._watch_label.setAccessibleName("File watcher")
        self.add_status_widget(self._home_label)
        self.add_status_widget(self._watch_label)
        self._update_watch_label()

        # The menu bar's titles now (a menu bar filled later would push the tab down); the
        # menus themselves once the Memory tab has built the actions they hold.
        for title in MENU_TITLES:
            self.menuBar().addMenu(title)
        if memory_tab.is_assembled:
            self._build_menus()
        else:
            memory_tab.assembled.connect(self._build_menus)
        self.successor: MainWindow | None = None
        """The window of the home opened with File → Open home (this one then closes)."""
        self._home_runner: TaskRunner | None = None
        memory_tab.picker.add_workspace_requested.connect(self.add_workspace)
        watcher.backend_changed.connect(self._on_watcher_backend_changed)
        watcher.paths_changed.connect(memory_tab._on_watcher_paths_changed)
        memory_tab.watch_targets_changed.connect(watcher.set_extra_targets)
        memory_tab.status_message.connect(self._on_memory_tab_status_message)
        self.kept_aside_notices = KeptAsideNotices(self)
        self.kept_aside_notices.kept_aside.connect(self._on_kept_aside_notices_kept_aside)
        self._restore_geometry()

    # -- for other parts of the app ----------------------------------------------------------

    def add_tab(self, widget: QWidget, title: str) -> int:
        """Add a tab (after the existing ones); returns its index."""
        return self.tabs.addTab(widget, title)

    @property
    def status_bar(self) -> QStatusBar:
        """The window's status bar (`showMessage` for transient notes)."""
        return self.statusBar()

    def add_status_widget(self, widget: QWidget, *, permanent: bool = True) -> None:
        """Add a widget to the status bar (permanent ones sit on the right)."""
        if permanent:
            self.statusBar().addPermanentWidget(widget)
        else:
            self.statusBar().addWidget(widget)

    @property
    def traces_tab(self) -> TracesTab | None:
        """The Traces tab (built now if it was not yet), or None in a window without one."""
        self._build_traces_tab()
        return self._traces_tab

    def _build_traces_tab(self) -> None:
        if self._traces_tab is None and self._traces_tab_factory is not None:
            assert self._traces_container is not None
            self._traces_tab = self._traces_tab_factory()
            restore_splitter(self.ui_state, TRACES_SPLITTER, self._traces_tab.splitter)
            layout = self._traces_container.layout()
            assert layout is not None
            layout.addWidget(self._traces_tab)

    @Slot(object)
    def show_trace(self, path: Path) -> None:
        """Switch to the Traces tab and open a writer trace dump."""
        traces = self.traces_tab
        if traces is None or self._traces_container is None:
            return
        self.tabs.setCurrentWidget(self._traces_container)
        traces.show_trace(Path(path))

    def _start_writer(self) -> None:
        if self._writer_factory is None or self.writer is not None:
            return
        from memtab.gui.writer.feedback import WriterFeedback
        from memtab.gui.writer.status import WriterStatusWidget

        self.writer = self._writer_factory()
        self.writer.setParent(self)
        self.writer.attach(self.watcher)
        self.writer_status = WriterStatusWidget(self)
        self.writer_status.attach(self.writer)
        self.writer_status.trace_requested.connect(self.show_trace)
        self.writer_feedback = WriterFeedback(self, self.writer, self.writer_status)
        self.statusBar().insertWidget(0, self.writer_status)
        self.writer.start()  # follows transcripts from their current end

    def start(self) -> None:
        """Scan the home (off the GUI thread), then watch it.

        The watcher starts once the first scan is shown: setting up inotify watches on a
        big home competes with that scan for the interpreter. Whatever changed in
        between is caught by one more scan right after the watch begins.
        """
        self.memory_tab.loaded.connect(self._on_memory_tab_loaded)
        self.memory_tab.start()

    @Slot()
    def _on_memory_tab_loaded(self) -> None:
        # Let the loaded tab paint first; the watch setup slows everything for a moment.
        QTimer.singleShot(WATCH_START_DELAY_MS, self._start_watching)

    @Slot()
    def _start_watching(self) -> None:
        if self.watcher.root is None and not self._closing:
            self.watcher.start(self.home.root)
            self.memory_tab.rescan_all()
            self._start_writer()

    # -- construction ------------------------------------------------------------------------

    @Slot()
    def _build_menus(self) -> None:
        from memtab.gui.history.hub import HistoryHub  # the tab's parts exist now
        from memtab.gui.window.menus import WindowMenus  # it imports the editor's view modes

        self.history = HistoryHub(self)
        self.watcher.paths_changed.connect(self.history._on_watcher_paths_changed)
        self.menuBar().clear()  # the titles shown until now
        self.menus = WindowMenus(self)

    def _restore_geometry(self) -> None:
        """As the user left it; on first start, fitted to the screen (a 1366×768 laptop)."""
        place_window(self, self.ui_state.geometry() if self.ui_state is not None else None)

    def _update_watch_label(self) -> None:
        backend = self.watcher.backend
        detail = self.watcher.backend_detail
        if backend is WatchBackend.NATIVE:
            text = f"Live · {detail}"
        elif backend is WatchBackend.POLLING:
            text = "Live · polling"
        elif backend is WatchBackend.WAITING:
            text = "Waiting for the home to appear"
        else:
            text = "Not watching yet" if not self._closing else "Not watching"
        self._watch_label.setText(text)
        how = glossary.INOTIFY if "inotify" in detail else ""
        if backend is WatchBackend.POLLING or "polling" in detail:
            how = f"{how} {glossary.POLLING}".strip()
        self._watch_label.setToolTip(
            f"{glossary.LIVE_WATCHING} {how}\nFile watcher: {backend.value} ({detail})"
        )

    # -- slots -------------------------------------------------------------------------------

    @Slot(int)
    def _on_tabs_current_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self._traces_container:
            self._build_traces_tab()  # on first view

    @Slot(str)
    def _on_watcher_backend_changed(self, backend: str) -> None:
        self._update_watch_label()

    @Slot(str)
    def _on_memory_tab_status_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 8000)

    @Slot(object)
    def _on_kept_aside_notices_kept_aside(self, kept: KeptAside) -> None:
        self.statusBar().showMessage(kept.message, KEPT_ASIDE_MESSAGE_MS)

    # -- commands (the menus' actions) --------------------------------------------------------

    @property
    def has_traces_tab(self) -> bool:
        """Whether this window has a Traces tab."""
        return self._traces_container is not None

    def show_memory_tab(self) -> None:
        """Bring the Memory tab to the front."""
        self.tabs.setCurrentWidget(self.memory_tab)

    def show_traces_tab(self) -> None:
        """Bring the Traces tab to the front (built now if it was not yet)."""
        if self.traces_tab is not None and self._traces_container is not None:
            self.tabs.setCurrentWidget(self._traces_container)

    def find_text(self) -> None:
        """Edit → Find (Ctrl+F): find in the open file, or search memories when no file
        is open (in the editor, its own Ctrl+F wins)."""
        self.show_memory_tab()
        editor = self.memory_tab.editor
        editor.commands.update()
        if editor.commands.find_action.isEnabled():
            editor.find_in_file()
        else:
            self.memory_tab.focus_search()

    def open_settings(self) -> None:
        """File → Settings."""
        from memtab.gui.settings.dialog import SettingsDialog  # loads the engines' settings

        dialog = SettingsDialog(self, home=self.home)
        if self.exec_dialog(dialog):
            self.statusBar().showMessage("Settings saved; they apply from the next run.", 8000)
            if dialog.sources_changed:  # other agents' memory is looked for elsewhere now
                self.memory_tab.rescan_all()
            if self.writer_feedback is not None:
                self.writer_feedback.reload_settings()

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts: the table made from the menus' actions."""
        from memtab.gui.window.menus import shortcut_rows
        from memtab.gui.window.shortcuts_dialog import ShortcutsDialog

        dialog = ShortcutsDialog(shortcut_rows(self.menus.menus), self)
        self.exec_dialog(dialog)

    def show_about(self) -> None:
        """Help → About."""
        QMessageBox.about(self, "About Memtab", self.about_text())

    def exec_dialog(self, dialog: QDialog) -> int:
        """Run a modal dialog (a seam for tests, which answer it instead)."""
        return dialog.exec()

    def choose_folder(self, title: str, start: str) -> Path | None:
        """Ask for a folder (a seam for tests)."""
        chosen = QFileDialog.getExistingDirectory(self, title, start)
        return Path(chosen) if chosen else None

    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (a seam for tests)."""
        answer = QMessageBox.question(self, title, text)
        return answer == QMessageBox.StandardButton.Yes

    def add_workspace(self) -> None:
        """File → Add workspace: register a project and workspace, then show it."""
        from memtab.gui.window.home_dialogs import AddWorkspaceDialog

        scan = self.memory_tab.scan
        dialog = AddWorkspaceDialog(
            self.home, scan.registry if scan else None, self._home_jobs(), self
        )
        if self.exec_dialog(dialog) and dialog.workspace_id is not None:
            self.show_memory_tab()
            if self.memory_tab.switch_workspace(dialog.workspace_id):
                self.statusBar().showMessage(f"Added workspace {dialog.name_edit.text()}", 8000)

    def open_home(self) -> None:
        """File → Open home: choose a folder; it opens in a new window, this one closes."""
        from memtab.gui.window.home_dialogs import describe_home_folder

        folder = self.choose_folder("Open a memory home", str(self.home.root.parent))
        if folder is None:
            return
        self._home_jobs().submit_latest(
            OPEN_HOME_KEY, functools.partial(describe_home_folder, folder.absolute())
        )

    def _home_jobs(self) -> TaskRunner:
        """The worker of File → Open home and Add workspace (started on first use)."""
        if self._home_runner is None:
            self._home_runner = TaskRunner("home", parent=self)
            self._home_runner.latest_finished.connect(self._on_home_runner_latest_finished)
        return self._home_runner

    @Slot(str, object)
    def _on_home_runner_latest_finished(self, key: str, result: object) -> None:
        from memtab.gui.window.home_dialogs import HomeFolder

        if key != OPEN_HOME_KEY or not isinstance(result, HomeFolder) or self._closing:
            return
        if not result.can_open:
            self.statusBar().showMessage(result.note or f"Cannot open {result.path}", 8000)
            return
        if result.note is not None and not self.confirm("Open this folder?", result.note):
            return
        if self.memory_tab.confirm_close():
            self.open_home_window(result.path)

    def open_home_window(self, folder: Path) -> MainWindow:
        """Open `folder` as the home of a new window, and close this one."""
        from memtab.gui.window.app import create_main_window  # app builds windows like this one

        window = create_main_window(Home(folder), None, ui_state=self.ui_state)
        window.restoreGeometry(self.saveGeometry())
        window.show()
        self.successor = window
        self.close_without_asking()
        return window

    def about_text(self) -> str:
        """Help → About: the version, the home and where the log is."""
        log = log_file()
        log_line = (
            f"Log: <code>{html.escape(str(log))}</code>"
            if log is not None
            else "Log: not written (run with --verbose to log to the terminal)"
        )
        return (
            f"<b>Memtab {__version__}</b><p>Browse, edit and consolidate the memories your "
            f"coding agents keep.</p><p>Home: <code>{html.escape(str(self.home.root))}</code>"
            f"</p><p>{log_line}</p>"
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ask about unsaved changes, remember the layout, stop the workers."""
        if self._closed:  # e.g. Ctrl+C in the terminal, after Open home replaced this one
            if self.successor is not None:
                self.successor.close()
            event.accept()
            return
        if not self._closing and not self.memory_tab.confirm_close():
            event.ignore()
            return
        self._closing = True
        self.kept_aside_notices.stop()
        if self.ui_state is not None:
            self.ui_state.set_geometry(bytes(self.saveGeometry().data()))
            if self._traces_tab is not None:
                remember_splitter(self.ui_state, TRACES_SPLITTER, self._traces_tab.splitter)
            self.memory_tab.save_ui_state()
            if self.history is not None:
                self.history.save_ui_state()
            self.ui_state.save()
        self.watcher.stop()
        if self.writer is not None:
            self.writer.shutdown()
        if self.writer_status is not None:
            self.writer_status.shutdown()
        if self._traces_tab is not None:
            self._traces_tab.shutdown()
        if self._home_runner is not None:
            self._home_runner.shutdown()
        if self.history is not None:
            self.history.shutdown()
        self.memory_tab.shutdown()
        self._closed = True
        event.accept()

    def close_without_asking(self) -> None:
        """Close even with unsaved changes (used by `--screenshot`)."""
        self._closing = True
        self.close()
