"""Starting the GUI: `create_main_window` (the one way to build the window) and `run_app`
(`memtab` without a command: checks Qt's platform plugin, installs the crash dialog).
`MEMTAB_TIMING=1` prints when the tree first painted, loaded and showed other agents'
memory (tests/bench/test_startup_bench.py reads it)."""

from __future__ import annotations

import contextlib
import functools
import gc
import linecache
import logging
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from PySide6 import QtCore
from PySide6.QtCore import (
    QEvent,
    QEventLoop,
    QLibraryInfo,
    QMessageLogContext,
    QObject,
    Qt,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication, QWidget

from memtab import __version__
from memtab.components.window.ui_state import UiState
from memtab.fs.user_files import write_output_file
from memtab.gui.activity.watch import HomeWatcher, WatchBackend
from memtab.gui.context import WindowContext
from memtab.gui.first_paint.main_window import MainWindow
from memtab.gui.first_paint.memory_tab import MemoryTab
from memtab.gui.toolkit.crash_reports import CrashReporter
from memtab.gui.toolkit.icons import app_icon
from memtab.gui.tree.scan_scheduler import ContextLoader
from memtab.resources import resource_path
from memtab.store.home import Home, HomeLocation

logger = logging.getLogger(__name__)

SCREENSHOT_TIMEOUT_MS = 30_000
# How long the first show waits for the tree to hold the home (a big home's outline, a small
# one's scan): its first frame complete, not the sections filling in a moment after.
FIRST_SHOW_WAIT_MS = 300
TIMING_VARIABLE = "MEMTAB_TIMING"
GC_THRESHOLD_YOUNG = 10_000
GC_HOLD_OFF_LIMIT_MS = 30_000
# How long a busy worker thread may keep the interpreter while the GUI thread waits for it.
GIL_SWITCH_INTERVAL_S = 0.001


def application() -> QApplication:
    """The process's QApplication, created (and named) on first use."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    app = QApplication([sys.argv[0] if sys.argv else "memtab"])
    app.setApplicationName("memtab")
    app.setApplicationDisplayName("Memtab")
    app.setDesktopFileName("memtab")
    app.setWindowIcon(app_icon())
    return app


def create_main_window(
    home: Home,
    workspace_id: str | None,
    *,
    home_source: str | None = None,
    ui_state: UiState | None = None,
    watcher: HomeWatcher | None = None,
    start_writer: bool = True,
    start_check: bool = True,
    source_context: ContextLoader | None = None,
) -> MainWindow:
    """Build the main window for `home` (not shown) and start watching and scanning it.
    `workspace_id` wins over the remembered one; `watcher`, `ui_state` and `source_context`
    are for tests; the writer and the check start unless `start_writer`/`start_check` is False."""
    application()
    prefer_the_gui_thread()
    state = ui_state if ui_state is not None else UiState.load()
    context = WindowContext(home, ui_state=state)
    tab = MemoryTab(
        context,
        workspace_id=workspace_id,
        source_context=source_context,
    )
    watcher = watcher or HomeWatcher()
    window = MainWindow(
        context,
        tab,
        watcher,
        home_source=home_source,
        start_writer=start_writer,
        window_factory=functools.partial(another_home_window, ui_state=state),
        start_check=start_check,
    )
    window.start()
    return window


def another_home_window(home: Home, *, ui_state: UiState) -> MainWindow:
    """The window of another home, opened by File → Open home (same UI state)."""
    return create_main_window(home, None, ui_state=ui_state)


class _PaintTimer(QObject):
    """Prints when the tree is first painted after each start-up milestone (MEMTAB_TIMING=1):
    `tree-paint` once it shows the home, `loaded-paint` once every description is in."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._armed: list[str] = []
        self._reported: set[str] = set()
        tab, events = window.memory_tab, ("tree-paint", "loaded-paint", "sources-paint")
        for reached, count in (
            (tab.tree_ready, 1),
            (tab.descriptions_shown, 2),
            (tab.sources_loaded, 3),
        ):
            reached.connect(functools.partial(self._arm, *events[:count]))

    def _arm(self, *events: str) -> None:
        self._armed += [event for event in events if event not in self._reported]
        viewport = self._window.memory_tab.tree.viewport()
        viewport.installEventFilter(self)
        viewport.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Report the first paint after each milestone, then stop listening."""
        if self._armed and event.type() == QEvent.Type.Paint:
            armed, self._armed = self._armed, []
            if isinstance(watched, QWidget):
                watched.removeEventFilter(self)
            for name in armed:
                self._report(name)
        return False

    def _report(self, name: str) -> None:
        self._reported.add(name)
        tab = self._window.memory_tab
        scan_ms = tab.scan.duration_ms if tab.scan is not None else 0.0
        files = sum(section.file_count for section in tab.model.root.children)
        print(
            f"memtab-timing: {name} at {time.time():.6f} scan-ms {scan_ms:.1f} "
            f"files {files} peak-rss-mb {_peak_rss_mb():.0f} "
            f"cpu-ms {time.process_time() * 1000:.0f}",
            file=sys.stderr,
            flush=True,
        )


def _peak_rss_mb() -> float:
    """The process's peak resident memory in MiB (0 where the platform cannot say); on Linux
    VmHWM, which unlike `ru_maxrss` leaves out the parent it was forked from."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        status = Path("/proc/self/status").read_text(encoding="ascii", errors="replace")
        return int(status.split("VmHWM:")[1].split()[0]) / 1024
    try:
        import resource  # lazy: platform (not on Windows)
    except ImportError:  # Windows
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / (1024 if sys.platform == "darwin" else 1)


def prefer_the_gui_thread() -> None:
    """Let the GUI thread have the interpreter within 1 ms, not CPython's default 5: with busy
    workers, 5 ms waits alone break a 16 ms frame."""
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)


def tune_garbage_collection() -> None:
    """Keep Python's cycle collector from freezing the GUI: collections held off while the
    window starts, then `gc.freeze()` on what is alive and a higher first threshold (a full
    collection over Qt's wrappers took 100 ms or more)."""
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD_YOUNG, 20, 20)
    gc.enable()


def release_unread_texts() -> None:
    """Once the window has loaded, let go of texts nothing reads: the docstrings of Memtab's
    modules and classes (`tests/unit/test_docstrings_unread.py`) and the lines of enum.py
    PySide's import read through `inspect`."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "memtab" or name.startswith("memtab.")):
            continue
        module.__doc__ = None
        for value in list(vars(module).values()):
            if isinstance(value, type) and value.__module__ == name:
                value.__doc__ = None
    linecache.clearcache()


def show_when_ready(window: MainWindow, wait_ms: int = FIRST_SHOW_WAIT_MS) -> None:
    """Show `window` once its tree holds the home, or after `wait_ms` whatever it holds (a slow
    disk's home fills in after, as it comes)."""
    tab = window.memory_tab
    if tab.is_tree_ready:
        window.show()
        return
    deadline = QTimer(window)
    deadline.setSingleShot(True)

    def show_now() -> None:
        deadline.stop()
        tab.tree_ready.disconnect(show_now)
        if not window.is_closing:
            window.show()

    tab.tree_ready.connect(show_now)
    deadline.timeout.connect(show_now)
    deadline.start(wait_ms)


def _wait_until_loaded(window: MainWindow, timeout_ms: int) -> bool:
    """Wait for the first scan shown, then (each at most as long again) for other agents'
    memory and for the file watcher to start, so a screenshot shows them too (the status
    bar says "Live · inotify", not "Not watching yet")."""
    tab = window.memory_tab
    watcher = window.watcher
    for milestone, done in (
        (tab.loaded, lambda: tab.is_loaded),
        (tab.sources_loaded, lambda: tab.is_sources_loaded),
        (watcher.backend_changed, lambda: watcher.backend is not WatchBackend.STOPPED),
    ):
        if not done():
            loop = QEventLoop()
            milestone.connect(loop.quit)
            QTimer.singleShot(timeout_ms, loop.quit)
            loop.exec()
    return tab.is_loaded


def take_screenshot(
    window: MainWindow, target: Path, timeout_ms: int = SCREENSHOT_TIMEOUT_MS
) -> bool:
    """Show the window, wait for the Memory tab's first scan, and save it as a PNG (at
    the size fitted to the screen, never maximized: the README's pictures keep theirs)."""
    window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMaximized)
    show_when_ready(window)
    if not _wait_until_loaded(window, timeout_ms):
        print(
            f"memtab: the Memory tab did not load within {timeout_ms / 1000:.0f} s; "
            "no screenshot taken",
            file=sys.stderr,
        )
        return False
    # One more turn of the loop: layouts and the merged tree settle and paint.
    QApplication.processEvents()
    problem = save_screenshot(window, target)
    if problem is not None:
        print(f"memtab: could not write the screenshot {target}: {problem}", file=sys.stderr)
        return False
    return True


def save_screenshot(widget: QWidget, target: Path) -> str | None:
    """Write `widget` as a PNG to the file the user named — into a FIFO or `/dev/null`,
    never renamed over (docs/formats.md §16.1); why not, or None."""
    # Named through the module: PySide builds a class's Python enums when it is first named,
    # and these three are needed only here, after the first paint.
    data = QtCore.QByteArray()
    buffer = QtCore.QBuffer(data)
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    encoded = widget.grab().save(buffer, "PNG")
    buffer.close()
    if not encoded:
        return "the window could not be encoded as a PNG"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_output_file(target, bytes(data.data()))
    except OSError as error:
        return error.strerror or str(error)
    return None


# Qt messages that say nothing about Memtab: a platform plugin that cannot do something
# (the offscreen one, used by --screenshot, cannot honour size hints, raise or grab).
_IGNORED_QT_MESSAGES = ("This plugin does not support ",)


def _log_qt_message(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Route Qt's own messages to logging, dropping known noise; a fatal message and the
    platform plugin's diagnostics also go to stderr (why the window did not open)."""
    if message.startswith(_IGNORED_QT_MESSAGES):
        return
    level = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
    }.get(mode, logging.ERROR)
    logging.getLogger("qt").log(level, "%s", message)
    category = context.category or ""
    if mode == QtMsgType.QtFatalMsg or (
        category.startswith("qt.qpa.plugin") and level >= logging.WARNING
    ):
        print(f"Qt: {message}", file=sys.stderr, flush=True)
    if mode == QtMsgType.QtFatalMsg:
        print(
            "memtab: Qt could not start. Run with QT_DEBUG_PLUGINS=1 to see every library "
            "the platform plugin tried to load; docs/troubleshooting.md.",
            file=sys.stderr,
            flush=True,
        )


def _platform_will_be_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt is about to use its xcb (X11) platform plugin."""
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(":")[0].split(";")[0] == "xcb"
    wayland = environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE") == "wayland"
    return sys.platform.startswith("linux") and not wayland


def platform_plugin_problem(
    plugin: Path | None = None, environ: Mapping[str, str] | None = None
) -> str | None:
    """Why Qt's xcb platform plugin (default: the installed `platforms/libqxcb.so`) cannot
    load, in the dynamic loader's words (Qt's own message names the wrong library), or None."""
    if plugin is None:
        if not _platform_will_be_xcb(os.environ if environ is None else environ):
            return None
        plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
        plugin = plugins / "platforms" / "libqxcb.so"
        if not plugin.is_file():
            return None
    import ctypes  # lazy: platform — only where Qt is about to load xcb

    try:
        ctypes.CDLL(str(plugin))
    except OSError as error:
        reason = str(error)
        missing = reason.split(":", 1)[0].strip()
        package = system_packages().get(missing)
        hint = (
            f" On Debian/Ubuntu: apt-get install {package}."
            if package
            else " Install the package that provides it."
        )
        return (
            f"Qt's xcb platform plugin cannot be loaded: {reason}.{hint} From Memtab's "
            "source, scripts/install-system-deps installs everything Qt needs."
        )
    return None


def system_packages() -> dict[str, str]:
    """The Debian/Ubuntu package of each library Qt's platform plugins load."""
    table = resource_path("linux", "qt-libraries.tsv")
    packages: dict[str, str] = {}
    try:
        lines = table.read_text(encoding="utf-8").splitlines()
    except OSError:
        return packages
    for line in lines:
        library, _, package = line.partition("\t")
        if package and not line.startswith("#"):
            packages[library.strip()] = package.strip()
    return packages


def run_app(location: HomeLocation, workspace_id: str | None, screenshot: str | None = None) -> int:
    """Open the window on `location` (and, with `screenshot`, save a PNG and exit)."""
    problem = platform_plugin_problem()
    if problem is not None:
        print(f"memtab: {problem}", file=sys.stderr)
        return 1
    # Installed here, not in `application()`; tests install it too (tests/support/logfail.py).
    qInstallMessageHandler(_log_qt_message)
    app = application()
    crashes = CrashReporter(app, show_dialogs=not screenshot)
    crashes.install()
    logger.info("Memtab %s opens %s (%s)", __version__, location.path, location.source)
    window = create_main_window(Home(location.path), workspace_id, home_source=location.source)
    window.memory_tab.loaded.connect(tune_garbage_collection)
    window.memory_tab.loaded.connect(release_unread_texts)
    # A window that never loads (its home unreadable) collects again all the same.
    QTimer.singleShot(GC_HOLD_OFF_LIMIT_MS, gc.enable)
    if os.environ.get(TIMING_VARIABLE, "").strip() not in ("", "0"):
        _PaintTimer(window)
    if screenshot:
        ok = take_screenshot(window, Path(screenshot))
        window.close_without_asking()
        destroy_window(window)
        return 0 if ok and not crashes.errors_seen else 1
    window.memory_tab.loaded.connect(functools.partial(close_on_ctrl_c, window))
    show_when_ready(window)
    status = int(app.exec())
    destroy_window(window)
    return status


def destroy_window(window: MainWindow) -> None:
    """Destroy the closed window's Qt objects now, while the application exists: left to the
    interpreter's last collection, wrappers freed after Qt's teardown crashed the exit."""
    import shiboken6  # lazy: only at exit (the wrappers' teardown)

    windows: list[MainWindow] = []
    current: MainWindow | None = window
    while current is not None and shiboken6.isValid(current):
        windows.append(current)  # and the windows Open home put in its place
        current = current.successor
    for each in reversed(windows):
        shiboken6.delete(each)


def close_on_ctrl_c(window: MainWindow) -> None:
    """Make Ctrl+C in the terminal close the window (asking about unsaved changes), from
    its first scan shown on (before it, Ctrl+C raises Python's KeyboardInterrupt)."""
    import signal  # lazy: its enums would cost the start before the first paint

    signal.signal(signal.SIGINT, lambda *_: window.close())
    wakeup = QTimer(window)
    wakeup.timeout.connect(_let_python_handle_signals)
    wakeup.start(250)


def _let_python_handle_signals() -> None:
    """Qt's loop never runs Python code on its own; this timer tick lets signals in."""
