"""What every feature of a window needs, handed to it explicitly: the `WindowContext` (home,
UI state, actions, status, what the tab shows, the disk's changes, settings news, the job
service, the file channel and operations), and `WindowShell`, what a feature may ask of
the window itself, so nothing below `gui/window/` imports the window.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from PySide6 import QtWidgets
from PySide6.QtCore import QObject, Signal, SignalInstance, Slot

from memtab.components.activity.change_batch import ChangeBatch
from memtab.components.activity.own_writes import OwnWrites
from memtab.components.tree.scan import HomeScan
from memtab.components.window.settings_news import SettingsChange
from memtab.components.window.ui_state import UiState
from memtab.gui.actions import ActionRegistry
from memtab.gui.tasks.jobs import JobService
from memtab.store.home import Home
from memtab.store.paths import VirtualPath
from memtab.store.scopes.scope_view import ScopeView
from memtab.store.sidecars.registry import Workspace

if TYPE_CHECKING:  # lazy: built on first use, after the first paint (see `_files`)
    from memtab.components.files.undo import UndoStack
    from memtab.gui.tasks.file_channel import FileChannel
    from memtab.gui.tasks.file_ops import FileOpTasks, FileParts


STATUS_MS = 8000
"""How long a status-bar note stays."""


class StatusNotices(QObject):
    """Short notes for the window's status bar, from any feature."""

    shown = Signal(str, int)  # a note and how long it stays (ms); the window shows it

    def show(self, text: str, timeout_ms: int = STATUS_MS) -> None:
        """Put `text` in the status bar for `timeout_ms`."""
        self.shown.emit(text, timeout_ms)


class Shown(QObject):
    """What the Memory tab shows, for the features that follow it: the tab sets `scan`
    and `workspace_id` and emits the signals; the others only read."""

    # (HomeScan) after every scan shown (the tree may still be merging)
    scan_applied = Signal(object)
    workspace_changed = Signal(object)  # the shown `Workspace` (or None) changed

    def __init__(self, home: Home, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._home = home
        self.scan: HomeScan | None = None
        """The scan the tree shows (None before the first one lands)."""
        self.workspace_id: str | None = None
        """The workspace asked for (the scan may show another when it is unknown)."""

    @property
    def workspace(self) -> Workspace | None:
        return self.scan.workspace if self.scan is not None else None

    def view(self) -> ScopeView:
        """The shown workspace's scopes, to read (to change them:
        `MemoryStore.of(shown.view())`, after the first paint)."""
        return ScopeView(self._home, self.workspace)


class ChangeFeed(QObject):
    """The watcher's batches, each classified once (`ChangeBatch`), for every feature that
    follows the disk: they connect to `published` instead of re-reading the paths."""

    published = Signal(object)  # (ChangeBatch) one batch of changed paths with the place of each

    def __init__(self, home: Home, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._home = home

    @Slot(object)
    def publish(self, paths: Iterable[str]) -> None:
        """Classify a batch of the watcher's paths (`HomeWatcher.paths_changed`) once and
        hand it to every subscriber."""
        self.published.emit(ChangeBatch.classify(paths, self._home))


class SettingsFeed(QObject):
    """Changes of settings.json, for every feature that holds a setting: they connect to
    `published` and apply the sections they follow at once."""

    # (SettingsChange) which sections changed, and what the file holds now
    published = Signal(object)

    def publish(self, change: SettingsChange) -> None:
        """Hand a change to every subscriber (nothing when no section changed)."""
        if change.sections:
            self.published.emit(change)


class WindowShell(Protocol):
    """What a feature may ask of the window (`MainWindow` provides it)."""

    @property
    def memory_tab_current(self) -> SignalInstance:
        """Signal(bool): whether the Memory tab is the one in front, when that changes."""
        ...

    def show_memory_tab(self) -> None:
        """Bring the Memory tab to the front."""

    def reveal_file(
        self, workspace_id: str | None, path: VirtualPath, lines: tuple[int, ...] = ()
    ) -> None:
        """Open `path` of `workspace_id` in the Memory tab, `lines` highlighted."""

    def show_suggestions(self, workspace_id: str | None) -> None:
        """Show the suggested memories of `workspace_id` in the Memory tab."""

    def add_dock(self, title: str, name: str, *, below: bool = False) -> QtWidgets.QDockWidget:
        """A hidden panel docked beside the editor (or below the tabs: a list of rows)."""

    def as_widget(self) -> QtWidgets.QWidget: ...
    def isActiveWindow(self) -> bool: ...

    def activateWindow(self) -> None:
        """Make the window the active one (QWidget's)."""


class ClosingQuestion(Protocol):
    """What a feature asks before its window closes, without blocking (the window asks
    each in turn, and closes once the last lets it)."""

    def needs_asking(self) -> bool:
        """Whether there may be something to ask (else the window closes without it)."""
        ...

    def ask(self, then: Callable[[], object]) -> None:
        """Ask, or find there is nothing to ask; run `then` once the window may close
        (never, on Cancel)."""
        ...


class WindowContext:
    """What every feature of one window needs (see the module docstring)."""

    def __init__(
        self,
        home: Home,
        *,
        ui_state: UiState | None = None,
        own_writes: OwnWrites | None = None,
    ) -> None:
        """A context for a window on `home` (`owned_by(window)` once there is one)."""
        self.home = home
        self.ui_state = ui_state
        self.own_writes = own_writes if own_writes is not None else OwnWrites()
        self._owner = QObject()  # parent of the context's QObjects
        self.actions = ActionRegistry(self._owner)
        self.status = StatusNotices(self._owner)
        self.shown = Shown(home, self._owner)
        self.changes = ChangeFeed(home, self._owner)
        self.settings = SettingsFeed(self._owner)
        self.jobs = JobService(self._owner)
        """The window's job service: each feature's client, on its lanes."""
        self._file_parts: FileParts | None = None
        self.before_closing: list[ClosingQuestion] = []
        """What the window asks before it closes, in order (see `ClosingQuestion`)."""

    def _files(self) -> FileParts:
        """The file channel, the file-operation worker and undo, made with the first of them."""
        if self._file_parts is None:
            # lazy: the file channel, the file-operation worker and undo, with the store's
            # writing side (77 modules, ~3.6 MiB traced, ~0.45 s at load 5 after the first
            # paint's) load with the first file job, after the paint — by then the
            # window's features have imported them (the file actions, history)
            from memtab.gui.tasks.file_ops import FileParts

            self._file_parts = FileParts(self.jobs, self._owner, self.own_writes)
        return self._file_parts

    @property
    def files(self) -> FileChannel:
        """The channel of the window's reads and writes of memory files (its workers start
        with their first job; `shutdown()` lets the writes asked for finish)."""
        return self._files().channel

    def save_ui_state(self) -> None:
        """Write the UI state as it is now, on the file channel (the GUI thread never
        fsyncs; closing the window lets the write finish)."""
        if self.ui_state is not None:
            save = self.ui_state.save_job()
            self.files.write(lambda _ctx: save())

    @property
    def file_ops(self) -> FileOpTasks:
        """The file-operation worker (started on first use; `shutdown()` stops it)."""
        return self._files().ops

    @property
    def file_ops_busy(self) -> bool:
        """Whether a file operation is queued or running (False before the first)."""
        return self._file_parts is not None and self._file_parts.ops_busy

    @property
    def undo_stack(self) -> UndoStack:
        """How to take back each file operation (Edit → Undo)."""
        return self._files().undo

    def owned_by(self, owner: QObject) -> None:
        """Let `owner` (the window) own the context's QObjects."""
        self._owner.setParent(owner)

    def shutdown(self) -> None:
        """Stop the job service (on window close), once the writes asked for ran."""
        if self._file_parts is not None:
            self._file_parts.shutdown()
        self.jobs.shutdown()
