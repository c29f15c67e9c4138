"""The main window: tabs (Memory first), a menu bar, a status bar (the home, how it was found,
how it is watched, a sidecar kept aside), and the one `HomeWatcher`. It is the `WindowShell`
its features ask; they run as one ordered list in phases (`gui/window/features`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

import shiboken6
from PySide6 import QtGui, QtWidgets
from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, QSize, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QCloseEvent, QStatusTipEvent
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QSizePolicy,
    QSplitter,
    QStatusBar,
    QTabWidget,
    QToolButton,
    QWidget,
)

from memtab.components import glossary
from memtab.components.window.phases import Composition, FeatureKey, Phase
from memtab.components.window.ui_state import UiState
from memtab.fs.sidecar import KeptAside, on_kept_aside
from memtab.gui.activity.watch import HomeWatcher, WatchBackend
from memtab.gui.context import WindowContext
from memtab.gui.first_paint.boundary import settled_step
from memtab.gui.first_paint.held_keys import HeldKeys
from memtab.gui.first_paint.memory_tab import MemoryTab
from memtab.gui.toolkit.screen_room import FRAME_ALLOWANCE, room_on
from memtab.gui.toolkit.widgets import ElidedLabel, named, vbox
from memtab.humanize import display_path
from memtab.store.home import Home
from memtab.store.paths import VirtualPath

PREFERRED_SIZE = QSize(1280, 820)
LAPTOP_WIDTH = 1366
"""The widest available geometry the first window opens maximized on."""


def fitted_geometry(available: QRect, preferred: QSize = PREFERRED_SIZE) -> QRect:
    """The first window's client geometry on a screen with `available` geometry: the
    preferred size where it fits, shrunk to fit (frame included) where not, centred."""
    size = preferred.boundedTo(room_on(available))
    rect = QRect(available.topLeft(), size)
    rect.moveCenter(available.center())
    # The title bar sits above the client area: keep it on the screen.
    top = available.top() + FRAME_ALLOWANCE.height() - FRAME_ALLOWANCE.width() // 2
    if rect.top() < top:
        rect.moveTop(top)
    return rect


def place_window(window: QWidget, saved: bytes | None) -> None:
    """Restore `saved` geometry, or fit the window to its screen (first start)."""
    if saved is not None and window.restoreGeometry(QByteArray(saved)):
        return
    available = window.screen().availableGeometry()
    window.setGeometry(fitted_geometry(available))  # what un-maximizing gives back
    if opens_maximized(available):
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


def opens_maximized(available: QRect) -> bool:
    """Whether the first window opens maximized on a screen with `available` geometry."""
    return available.width() <= LAPTOP_WIDTH


def restore_splitter(state: UiState | None, name: str, splitter: QSplitter) -> bool:
    """Give `splitter` its saved sizes (when there are as many as it has parts)."""
    sizes = state.splitter_sizes(name) if state is not None else None
    if sizes is None or len(sizes) != splitter.count() or not any(sizes):
        return False
    splitter.setSizes(sizes)
    return True


def remember_splitter(state: UiState | None, name: str, splitter: QSplitter) -> None:
    """Note `splitter`'s sizes in `state` (saved with the rest on close)."""
    if state is not None:
        state.set_splitter_sizes(name, splitter.sizes())


HOME_LABEL_MIN_WIDTH = 80
ROOMY_WIDTH = 900
"""The least width of a bar whose notes show beside the normal widgets and the home."""


class WindowStatusBar(QStatusBar):
    """A status bar whose notes elide beside the normal widgets (see the module
    docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        """An empty bar with the note's label (normal widgets go before it)."""
        super().__init__(parent)
        self.setObjectName("windowStatusBar")
        self._normal = 0  # normal widgets: a permanent one's index counts them
        self._give_way: list[QWidget] = []  # what a note covers in a narrow bar
        self._covered: list[QWidget] = []  # what the note shown covers now
        self._before_tip: str | None = None  # the note a hovered entry's tip stands in for
        self.note = ElidedLabel("", self, min_width=0, elide=Qt.TextElideMode.ElideRight)
        named(self.note, "statusNote", accessible="Status")
        # As tall from the start as a tool button (the writer's Pause comes a moment after
        # the window shows) and empty as with a note: nothing arriving in the bar later
        # moves the tab above it.
        button = QToolButton()  # never shown; gone with this function
        button.setAutoRaise(True)
        button.setText("Pause")
        self.note.setMinimumHeight(button.sizeHint().height())
        self.addWidget(self.note, 1)
        self._expiry = QTimer(self)
        self._expiry.setSingleShot(True)
        self._expiry.timeout.connect(self.clearMessage)

    def addWidget(self, widget: QWidget, stretch: int | None = 0) -> None:
        """A normal widget, on the left (counted: permanent ones are placed after)."""
        self._normal += 1
        if self._normal > 1:  # not the note itself
            self._give_way.append(widget)
        super().addWidget(widget, stretch)

    def insertWidget(self, index: int, widget: QWidget, stretch: int | None = 0) -> int:
        """A normal widget at `index` among the normal ones."""
        self._normal += 1
        self._give_way.append(widget)
        return super().insertWidget(index, widget, stretch)

    def insert_permanent_first(self, widget: QWidget) -> None:
        """A permanent widget left of the other permanent ones (the notes never cover
        it)."""
        self.insertPermanentWidget(self._normal, widget)

    def mode_indicator(self, action: QtGui.QAction, text: str) -> QToolButton:
        """A permanent button saying `text` while the checkable `action` is on (a mode
        the keys change, as VS Code shows "Tab Moves Focus"); a click turns it off."""
        keys = action.shortcut().toString(QtGui.QKeySequence.SequenceFormat.NativeText)
        how = f"Click or press {keys}" if keys else "Click"
        tip = f"{action.toolTip()}. {how} to turn it off."
        button = named(QToolButton(self), accessible=text, tip=tip)
        button.setAutoRaise(True)
        button.setText(text)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab never stops on a status note
        button.clicked.connect(action.trigger)
        action.toggled.connect(button.setVisible)
        self.insert_permanent_first(button)
        button.setVisible(action.isChecked())
        return button

    def home_label(self, text: str, tooltip: str) -> ElidedLabel:
        """A permanent label for the home (right of the notes), eliding in the middle."""
        label = ElidedLabel(text, self, min_width=HOME_LABEL_MIN_WIDTH)
        label.set_full_text(text, tooltip)
        self.addPermanentWidget(label)
        self._give_way.append(label)
        return label

    def showMessage(self, text: str, timeout: int | None = 0) -> None:
        """Show `text` (elided to the room there is) for `timeout` ms (0: until
        replaced or cleared)."""
        self._before_tip = None  # a note that comes while a tip shows stays after it
        self.note.set_full_text(text)
        self._cover(bool(text) and self.width() < ROOMY_WIDTH)
        if timeout:
            self._expiry.start(timeout)
        else:
            self._expiry.stop()
        self.messageChanged.emit(text)

    def show_tip(self, tip: str) -> None:
        """Show a hovered menu entry's or widget's status tip in the note's place; ""
        (the pointer left it) gives the note back. The window sends its tips here: Qt's
        own, painted over the bar, hid the writer's status and ran into the home's label."""
        if tip:
            if self._before_tip is None:
                self._before_tip = self.note.full_text
            self.note.set_full_text(tip)
            self._cover(self.width() < ROOMY_WIDTH)
        elif self._before_tip is not None:
            before, self._before_tip = self._before_tip, None
            self.note.set_full_text(before)
            self._cover(bool(before) and self.width() < ROOMY_WIDTH)

    def currentMessage(self) -> str:
        """The note shown, whole ("" when none)."""
        return self.note.full_text

    def clearMessage(self) -> None:
        self._expiry.stop()
        if self._before_tip is not None:  # under a tip: gone once the tip goes
            self._before_tip = ""
            return
        self._cover(False)
        if self.note.full_text:
            self.note.set_full_text("")
            self.messageChanged.emit("")

    def _cover(self, cover: bool) -> None:
        """Hide what gives way to a note (those shown), or show again what was hidden."""
        for widget in self._covered:
            widget.show()
        self._covered = [w for w in self._give_way if w.isVisibleTo(self)] if cover else []
        for widget in self._covered:
            widget.hide()


T = TypeVar("T")

TRACES_SPLITTER = "traces"
WATCH_START_DELAY_MS = 150
KEPT_ASIDE_MESSAGE_MS = 30_000
# `WindowMenus`' menus, shown (empty) from the first paint until it is built.
MENU_TITLES = ("&File", "&Edit", "&View", "&Help")
WindowFactory = Callable[[Home], "MainWindow"]
"""Builds the window of another home (File → Open home): `app.create_main_window`'s."""

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
    """Brings news of sidecars kept aside (any thread) to the GUI thread as `kept_aside`.
    Call `stop()` when the window closes (not from `destroyed`: that can crash)."""

    kept_aside = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

        def deliver(kept: KeptAside) -> None:  # from any thread: queued to this one
            if shiboken6.isValid(self):
                self.kept_aside.emit(kept)

        self.stop = on_kept_aside(deliver)


class OwnActions(Protocol):
    """What the window asks of its own actions (`gui.window.window_actions.WindowActions`,
    built after the first paint: this package names no module of `gui.window`)."""

    def add_workspace(self) -> None: ...
    def shutdown(self) -> None: ...


class TracesPage(Protocol):
    """What the window asks of the Traces tab (`gui.traces.feature.TracesTab`, built when first
    shown)."""

    @property
    def splitter(self) -> QSplitter: ...
    def show_trace(self, path: Path) -> None: ...
    def find_in_trace(self) -> None: ...


OWN_ACTIONS = FeatureKey[OwnActions]("own actions")
"""The window's own actions (File → Add workspace, the picker's link: `add_workspace`)."""
TRACES = FeatureKey[TracesPage | None]("traces")
"""The Traces tab (None in a window without one), built on demand."""


class MainWindow(QMainWindow):
    """Memtab's window (build it with `create_main_window`); `memory_tab_current(bool)` as the
    current tab changes."""

    memory_tab_current = Signal(bool)

    def __init__(
        self,
        context: WindowContext,
        memory_tab: MemoryTab,
        watcher: HomeWatcher,
        *,
        home_source: str | None = None,
        with_traces: bool = True,
        start_writer: bool = True,
        window_factory: WindowFactory | None = None,
        start_check: bool = True,
    ) -> None:
        """Lay out the window around `memory_tab`; `start()` begins watching and scanning.
        The menus, the writer and the Traces tab are built after the first paint
        (`features`); `start_writer`, `start_check`, `with_traces` turn them off."""
        super().__init__()
        self.setObjectName("mainWindow")
        self.context = context
        self.home = home = context.home
        self.home_source = home_source
        self.memory_tab = memory_tab
        self.watcher = watcher
        watcher.setParent(self)
        self.ui_state = context.ui_state
        self._window_factory = window_factory
        self.start_check = start_check
        """Whether the memory is checked against the code in the background."""
        self.start_writer = start_writer
        """Whether the background memory writer runs in this window."""
        self.features: Composition[MainWindow] | None = None
        """The window's features, built phase by phase (made when the Memory tab is first
        assembled, or the Traces tab first asked for: its list is the settled step's,
        `gui.window.features.WINDOW_FEATURES`)."""
        self.is_closing = False
        self._closed = False
        self.setWindowTitle(display_path(home.root))

        self.tabs = named(QTabWidget(self), "mainTabs")
        self.tabs.setDocumentMode(True)
        self.setCentralWidget(self.tabs)
        self.add_tab(memory_tab, "Memory")
        # The keyboard starts in the tree: else the window's activation hands it to the
        # first widget of its focus chain, the tab bar, where no key does anything.
        memory_tab.tree.setFocus()
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self._traces_tab: TracesPage | None = None
        self.traces_container: QWidget | None = None
        if with_traces:
            self.traces_container = QWidget(self)
            vbox(on=self.traces_container, margins=0)
            self.add_tab(self.traces_container, "Traces")

        self.setStatusBar(WindowStatusBar(self))
        self._home_label = self.status_bar.home_label(
            f"{display_path(home.root)} · {source_text(home_source)}",
            f"Memory home: {home.root}\nChosen because it was {source_text(home_source)}.",
        )
        named(self._home_label, "homeStatus", accessible="Memory home")
        self._watch_label = named(QLabel(self), "watcherStatus", accessible="File watcher")
        self.add_status_widget(self._watch_label)
        self._update_watch_label()

        # The menu bar's titles now (a menu bar filled later would push the tab down); the
        # menus themselves once the Memory tab has built the actions they hold.
        for title in MENU_TITLES:
            self.menuBar().addMenu(title)
        memory_tab.set_assembler(self._assemble_memory_tab)
        self.held_keys = HeldKeys(self, memory_tab.assemble, self.menuBar())
        """Shortcuts pressed before the actions are built, carried out once they are."""
        self.successor: MainWindow | None = None
        """The window of the home opened with File → Open home (this one then closes)."""
        memory_tab.picker.add_workspace_requested.connect(self.add_workspace)
        memory_tab.forward_requested.connect(self.show_memory_tab)
        watcher.backend_changed.connect(self._on_watcher_backend_changed)
        watcher.paths_changed.connect(context.changes.publish)
        memory_tab.watch_targets_changed.connect(watcher.set_extra_targets)
        context.owned_by(self)
        context.actions.attach(self)
        context.status.shown.connect(self.status_bar.showMessage)
        self.kept_aside_notices = KeptAsideNotices(self)
        self.kept_aside_notices.kept_aside.connect(self._on_kept_aside_notices_kept_aside)
        # As the user left it; on first start, fitted to the screen (a 1366×768 laptop).
        place_window(self, self.ui_state.geometry() if self.ui_state is not None else None)

    def add_tab(self, widget: QWidget, title: str) -> int:
        """Add a tab (after the existing ones); returns its index."""
        index = self.tabs.addTab(widget, title)
        self._size_by_current_tab()
        return index

    def _size_by_current_tab(self) -> None:
        """Only the tab in front sets the window's least size: a tab stack asks for the
        widest of its pages (the Traces tab's kept the window wide behind a Memory tab that
        fits half a laptop screen)."""
        current = self.tabs.currentWidget()
        for index in range(self.tabs.count()):
            page = self.tabs.widget(index)
            policy = QSizePolicy.Policy.Preferred if page is current else QSizePolicy.Policy.Ignored
            if page is not None:
                page.setSizePolicy(policy, policy)

    @property
    def status_bar(self) -> WindowStatusBar:
        """The window's status bar (`showMessage` for transient notes, elided)."""
        bar = self.statusBar()
        assert isinstance(bar, WindowStatusBar)
        return bar

    def add_status_widget(self, widget: QWidget) -> None:
        self.statusBar().addPermanentWidget(widget)

    @property
    def traces_tab(self) -> TracesPage | None:
        """The Traces tab (built now if it was not yet), or None in a window without one."""
        self._build_traces_tab()
        return self._traces_tab

    @property
    def shown_traces_tab(self) -> TracesPage | None:
        """The Traces tab when it is the one shown, else None."""
        container = self.traces_container
        if container is None or self.tabs.currentWidget() is not container:
            return None
        return self.traces_tab

    def _build_traces_tab(self) -> None:
        if self._traces_tab is None and self.traces_container is not None:
            features = self._composition()
            features.demand(TRACES.name)
            self._traces_tab = features.get(TRACES)

    @Slot(object)
    def show_trace(self, path: Path) -> None:
        """Switch to the Traces tab and open a writer trace dump."""
        traces = self.traces_tab
        if traces is None or self.traces_container is None:
            return
        self.tabs.setCurrentWidget(self.traces_container)
        traces.show_trace(Path(path))

    def start(self) -> None:
        """Scan the home (off the GUI thread), then watch it once the first scan is shown (its
        inotify setup competes with the scan); one more scan catches what changed between."""
        self.memory_tab.loaded.connect(self._on_memory_tab_loaded)
        self.memory_tab.start()

    @Slot()
    def _on_memory_tab_loaded(self) -> None:
        # Let the loaded tab paint first; the watch setup slows everything for a moment.
        QTimer.singleShot(WATCH_START_DELAY_MS, self._start_watching)

    @Slot()
    def _start_watching(self) -> None:
        if self.watcher.root is None and not self.is_closing:
            self._composition().reach(Phase.WATCHING)

    def _composition(self) -> Composition[MainWindow]:
        """The window's features (their list is the step after the first paint's)."""
        if self.features is None:
            self.features = Composition(self, settled_step().WINDOW_FEATURES)
            self.features.reach(Phase.FIRST_PAINT)
        return self.features

    def part(self, key: FeatureKey[T]) -> T:
        """What the feature `key` names built (`Composition.get`: a feature asks for one
        the window's list builds before it)."""
        return self._composition().get(key)

    def built_part(self, key: FeatureKey[T]) -> T | None:
        """What the feature `key` names built, or None while it is not built (a feature
        of a later phase asked for sooner, e.g. by an action)."""
        return None if self.features is None else self.features.find(key)

    def _assemble_memory_tab(self) -> None:
        """The Memory tab's parts and the features that use them (`MemoryTab.assemble`):
        the phase after the paint (not once the window is closing)."""
        if not self.is_closing:
            self._composition().reach(Phase.AFTER_PAINT)
            self.held_keys.release(self.context.actions)

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
            text = "Not watching yet" if not self.is_closing else "Not watching"
        self._watch_label.setText(text)
        how = glossary.INOTIFY if "inotify" in detail else ""
        if backend is WatchBackend.POLLING or "polling" in detail:
            how = f"{how} {glossary.POLLING}".strip()
        self._watch_label.setToolTip(
            f"{glossary.LIVE_WATCHING} {how}\nFile watcher: {backend.value} ({detail})"
        )

    @Slot(int)
    def _on_tabs_current_changed(self, index: int) -> None:
        if self.traces_container is not None and self.tabs.widget(index) is self.traces_container:
            self._build_traces_tab()  # on first view
        self._size_by_current_tab()
        self.memory_tab_current.emit(self.tabs.widget(index) is self.memory_tab)

    @Slot(str)
    def _on_watcher_backend_changed(self, backend: str) -> None:
        self._update_watch_label()

    @Slot(object)
    def _on_kept_aside_notices_kept_aside(self, kept: KeptAside) -> None:
        self.statusBar().showMessage(kept.message, KEPT_ASIDE_MESSAGE_MS)

    # -- the window's own actions (in the menus) ---------------------------------------------------

    @property
    def has_traces_tab(self) -> bool:
        return self.traces_container is not None

    def show_memory_tab(self) -> None:
        self.tabs.setCurrentWidget(self.memory_tab)

    def show_traces_tab(self) -> None:
        """Bring the Traces tab to the front (built now if it was not yet)."""
        if self.traces_tab is not None and self.traces_container is not None:
            self.tabs.setCurrentWidget(self.traces_container)

    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...] = ()
    ) -> None:
        """Open `path` of `workspace_id` in the Memory tab, `lines` highlighted."""
        self.memory_tab.reveal_file(workspace_id, path, lines)

    def show_suggestions(self, workspace_id: str | None) -> None:
        self.memory_tab.show_suggestions(workspace_id)

    def add_dock(self, title: str, name: str, *, below: bool = False) -> QtWidgets.QDockWidget:
        """A hidden panel docked at the right, beside the editor (or below the tabs: a list)."""
        dock = named(QtWidgets.QDockWidget(title), name)
        feature = QtWidgets.QDockWidget.DockWidgetFeature
        dock.setFeatures(feature.DockWidgetClosable | feature.DockWidgetMovable)
        area = (
            Qt.DockWidgetArea.BottomDockWidgetArea
            if below
            else Qt.DockWidgetArea.RightDockWidgetArea
        )
        self.addDockWidget(area, dock)
        self.context.actions.share_keys(self.memory_tab, dock)  # its panels: the tab's keys
        if below:
            dock.visibilityChanged.connect(functools.partial(self._first_height, dock))
        dock.hide()
        return dock

    def _first_height(self, dock: QtWidgets.QDockWidget, visible: bool) -> None:
        """A list docked below first takes a third of the window's height, not all its
        rows want: Trust took 308 of 728 px and left the tree 51."""
        if visible and not dock.property("sized"):
            dock.setProperty("sized", True)
            wanted = max(dock.minimumSizeHint().height(), self.height() // 3)
            self.resizeDocks([dock], [wanted], Qt.Orientation.Vertical)

    def as_widget(self) -> QWidget:
        return self

    def add_workspace(self) -> None:
        """File → Add workspace (also the picker's link)."""
        self.memory_tab.assemble()  # the window's actions are built with the tab's parts
        if not self.is_closing:
            self.part(OWN_ACTIONS).add_workspace()

    def exec_dialog(self, dialog: QtWidgets.QDialog) -> int:
        """Run a modal dialog (a seam for tests, which answer it instead)."""
        return dialog.exec()

    def choose_folder(self, title: str, start: str) -> Path | None:
        """Ask for a folder (a seam for tests)."""
        chosen = QtWidgets.QFileDialog.getExistingDirectory(self, title, start)
        return Path(chosen) if chosen else None

    def confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (a seam for tests)."""
        answer = QtWidgets.QMessageBox.question(self, title, text)
        return answer == QtWidgets.QMessageBox.StandardButton.Yes

    def open_home_window(self, folder: Path) -> MainWindow:
        """Open `folder` as the home of a new window, and close this one."""
        assert self._window_factory is not None, "this window opens no other home"
        window = self._window_factory(Home(folder))
        window.restoreGeometry(self.saveGeometry())
        window.show()
        self.successor = window
        self.close_without_asking()
        return window

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        """A key no widget took: held until the actions are built if they are not yet
        (`HeldKeys`), else Qt's."""
        if self.is_closing or not self.held_keys.hold(event):
            super().keyPressEvent(event)

    def event(self, event: QEvent) -> bool:
        """A menu entry's or a widget's status tip shows in the note's place of the
        window's bar (`WindowStatusBar.show_tip`), not in Qt's own note over it."""
        if isinstance(event, QStatusTipEvent):
            self.status_bar.show_tip(event.tip())
            return True
        return super().event(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Ask about unsaved changes, remember the layout, stop the workers."""
        if self._closed:  # e.g. Ctrl+C in the terminal, after Open home replaced this one
            if self.successor is not None:
                self.successor.close()
            event.accept()
            return
        controller = self.memory_tab.controller
        unsaved = controller is not None and controller.has_unsaved_tabs
        if not self.is_closing and (
            unsaved or any(q.needs_asking() for q in self.context.before_closing)
        ):
            # Ask about every tab with unsaved changes, then what the features ask (sync's
            # changes not sent yet), each without blocking; close after the last.
            event.ignore()
            self._ask_before_closing(0)
            return
        self.is_closing = True
        self.kept_aside_notices.stop()
        # Before the paint's step only the Memory tab is built: nothing more to import.
        features = self.features
        if self.ui_state is not None:
            self.ui_state.set_geometry(bytes(self.saveGeometry().data()))
            if self._traces_tab is not None:
                remember_splitter(self.ui_state, TRACES_SPLITTER, self._traces_tab.splitter)
            (features or self.memory_tab).save_ui_state()
            self.context.save_ui_state()
        self.watcher.stop()
        (features or self.memory_tab).shutdown()
        self.context.shutdown()
        self._closed = True
        event.accept()

    def _ask_before_closing(self, step: int) -> None:
        """Ask the `step`th question (0: the editor's unsaved changes), then the next."""
        controller = self.memory_tab.controller
        questions = self.context.before_closing
        if step == 0:
            if controller is not None and controller.has_unsaved_tabs:
                controller.leave(lambda: self._ask_before_closing(1))
            else:
                self._ask_before_closing(1)
        elif step <= len(questions):
            question = questions[step - 1]
            if question.needs_asking():
                question.ask(lambda: self._ask_before_closing(step + 1))
            else:
                self._ask_before_closing(step + 1)
        else:
            # Later: an answer given inside this close event cannot close the window from it.
            QTimer.singleShot(0, self.close_without_asking)

    def close_without_asking(self) -> None:
        """Close even with unsaved changes (used by `--screenshot`)."""
        self.is_closing = True
        self.close()
