"""The watchdog → Qt bridge: one GUI-thread object that reports what changed in the home.

`HomeWatcher` runs a watchdog observer over the memory home (recursively). The observer's
handler runs on the observer thread and does one thing: it turns the event into paths
(`views.changes.changed_paths`: reads, attribute changes, temp names and parent-dir noise
are dropped there) and posts them to the watcher through a queued signal. On the GUI
thread the watcher collects paths in a set and flushes them on a single-shot timer:
a trailing debounce (150 ms by default) that is capped by a maximum latency (1 s by
default), so a continuous stream of writes still reaches the views about once a second.
Each flush emits `paths_changed(list[str])`, sorted absolute paths under the root as
given to `start()`. Consumers classify them with `views.changes.ChangeSummary` and rescan
the affected scopes off the GUI thread; they never replay event semantics.

Backends: the platform's native observer (inotify on Linux) by default; watchdog's
polling observer when the native one cannot start (inotify watch/instance limits,
permissions) or when asked (`use_polling=True`, for network file systems and tests).
`backend` / `backend_detail` say which one runs, for a status line; `backend_changed`
fires when either changes.

Running out of inotify watches after start-up (a new directory past
`fs.inotify.max_user_watches`) is silent in watchdog: the new directory is simply not
watched. So each directory that appears is checked with a probe (`InotifyProbe`: can the
kernel give one more watch?); when it cannot, that directory is polled (recursively) from
then on, beside the native watch of everything else, and `backend_detail` says so. A
native observer whose thread died is replaced by polling of the whole home.

A root that does not exist yet (a new home, before the first write creates it) is not
created: the watcher waits, checking once a second, starts observing when it appears and
then reports the root itself (meaning "rescan everything"). If the root is deleted while
watched, it reports the root and goes back to waiting.

Usage::

    watcher = HomeWatcher(parent=window)
    watcher.paths_changed.connect(window._on_watcher_paths_changed)
    watcher.start(home)
    ...
    watcher.stop()  # on close; joins the observer thread
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import enum
import errno
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, QTimer, Signal, Slot
from watchdog.events import (
    EVENT_TYPE_CREATED,
    EVENT_TYPE_MOVED,
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingObserver

from memtab.logs import quiet_library_warnings
from memtab.views.changes import changed_paths

logger = logging.getLogger(__name__)

ObserverFactory = Callable[[], BaseObserver]
"""Builds an unstarted watchdog observer; `HomeWatcher` schedules and starts it."""

_OBSERVER_JOIN_TIMEOUT_S = 2.0


# Batches larger than this are reported as the root alone ("anything may have changed").
LARGE_BATCH = 500


class WatchBackend(enum.StrEnum):
    """Which machinery is watching the home."""

    STOPPED = "stopped"
    WAITING = "waiting"
    """The root does not exist (yet); checking for it periodically."""
    NATIVE = "native"
    """The platform observer: inotify, FSEvents, kqueue or ReadDirectoryChangesW."""
    POLLING = "polling"


# How often a native observer's threads are checked for having died.
_HEALTH_CHECK_MS = 5000


def _observer_name(observer: BaseObserver) -> str:
    """ "inotify", "fsevents", "polling"…: the watchdog observer class it is (or extends)."""
    for cls in type(observer).__mro__:
        if cls.__module__.startswith("watchdog.") and cls.__name__.endswith("Observer"):
            return cls.__name__.removesuffix("Observer").lower()
    return type(observer).__name__.removesuffix("Observer").lower()


class WatchProbe(Protocol):
    """Says whether the native watcher could watch a directory that just appeared."""

    def check(self, directory: str) -> None:
        """Raise OSError when one more native watch cannot be had (e.g. ENOSPC)."""

    def close(self) -> None:
        """Release what the probe holds."""


ProbeFactory = Callable[[], WatchProbe | None]


class InotifyProbe:
    """A private inotify instance that asks the kernel for one more watch, and returns it.

    The watch limit (`fs.inotify.max_user_watches`) is per user: when watchdog's watch of
    a new directory failed with ENOSPC a moment ago, this one fails the same way.
    """

    _IN_CLOEXEC = 0o2000000
    _IN_NONBLOCK = 0o4000
    _MASK = 0x00000400 | 0x01000000 | 0x02000000  # IN_DELETE_SELF | IN_ONLYDIR | DONT_FOLLOW
    # The directory went away or is unreadable: nothing to watch, nothing to poll either.
    _IGNORED = (errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.ELOOP)

    def __init__(self) -> None:
        """Open the inotify instance; OSError when even that is refused."""
        self._libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self._fd = self._libc.inotify_init1(self._IN_CLOEXEC | self._IN_NONBLOCK)
        if self._fd < 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))

    @classmethod
    def open(cls) -> InotifyProbe | None:
        """A probe, or None where inotify is unavailable (not Linux, no instance left)."""
        if not sys.platform.startswith("linux"):
            return None
        try:
            return cls()
        except (OSError, AttributeError) as error:
            logger.info("No inotify probe: %s", error)
            return None

    def check(self, directory: str) -> None:
        wd = self._libc.inotify_add_watch(
            self._fd, os.fsencode(directory), ctypes.c_uint32(self._MASK)
        )
        if wd < 0:
            code = ctypes.get_errno()
            if code in self._IGNORED:
                return
            if code == errno.ENOSPC:
                raise OSError(code, "inotify watch limit reached")
            raise OSError(code, os.strerror(code))
        self._libc.inotify_rm_watch(self._fd, wd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class _EventPoster(FileSystemEventHandler):
    """Observer-thread handler: filter one event into paths and post them, nothing else.

    `on_new_directory` (observer thread) sees every directory created or moved in first.
    """

    def __init__(
        self,
        post: Callable[[list[str]], None],
        watched_root: str,
        reported_root: str,
        on_new_directory: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__()
        self._post = post
        self._watched_root = watched_root
        self._reported_root = reported_root
        self.on_new_directory = on_new_directory

    def on_any_event(self, event: FileSystemEvent) -> None:
        if self.on_new_directory is not None and event.is_directory:
            if event.event_type == EVENT_TYPE_CREATED:
                self.on_new_directory(os.fsdecode(event.src_path))
            elif event.event_type == EVENT_TYPE_MOVED:
                self.on_new_directory(os.fsdecode(event.dest_path))
        paths = changed_paths(event, self._watched_root, self._reported_root)
        if paths:
            self._post(paths)


class HomeWatcher(QObject):
    """Reports coalesced changes under a directory tree; lives on the GUI thread.

    Signals:
        paths_changed(list[str]): sorted absolute paths (str) that changed since the
            last emission, under the root as passed to `start()`. The root itself in
            the list means "anything may have changed" (it appeared or vanished).
        backend_changed(str): the new `WatchBackend` value.
    """

    paths_changed = Signal(object)
    backend_changed = Signal(str)
    # Observer thread → GUI thread. The int is the observer generation, so paths posted
    # by an observer that has since been stopped or replaced are dropped.
    _paths_posted = Signal(object, int)
    # Observer thread → GUI thread: a new directory the native watcher could not watch.
    _native_gap = Signal(str, str, int)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        debounce_ms: int = 150,
        max_latency_ms: int = 1000,
        use_polling: bool = False,
        polling_interval_s: float = 1.0,
        missing_root_retry_ms: int = 1000,
        observer_factory: ObserverFactory | None = None,
        probe_factory: ProbeFactory | None = None,
    ) -> None:
        """Configure the watcher; nothing is watched until `start()`.

        `observer_factory` builds the native observer (default: watchdog's platform
        `Observer`); if it, or scheduling/starting it, raises OSError, the watcher falls
        back to polling every `polling_interval_s` seconds. `probe_factory` builds the
        probe of new directories when the native observer is inotify (default:
        `InotifyProbe.open`).
        """
        super().__init__(parent)
        if debounce_ms < 0 or max_latency_ms < debounce_ms:
            raise ValueError("need 0 <= debounce_ms <= max_latency_ms")
        self._debounce_ms = debounce_ms
        self._max_latency_ms = max_latency_ms
        self._use_polling = use_polling
        self._polling_interval_s = polling_interval_s
        self._observer_factory: ObserverFactory = observer_factory or Observer
        self._probe_factory: ProbeFactory = probe_factory or InotifyProbe.open
        self._probe: WatchProbe | None = None
        self._native_name = ""
        # Directories the native watcher could not watch, polled by `_gap_observer`.
        self._polled_dirs: list[str] = []
        self._gap_observer: BaseObserver | None = None
        self._handler: _EventPoster | None = None

        self._root: Path | None = None
        self._observer: BaseObserver | None = None
        self._generation = 0
        self._backend = WatchBackend.STOPPED
        self._backend_detail = "not watching"

        self._pending: set[str] = set()
        self._batch_started = 0.0  # monotonic time of the oldest pending path
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.timeout.connect(self._on_flush_timer_timeout)
        self._retry_timer = QTimer(self)
        self._retry_timer.setInterval(missing_root_retry_ms)
        self._retry_timer.timeout.connect(self._on_retry_timer_timeout)
        self._health_timer = QTimer(self)
        self._health_timer.setInterval(_HEALTH_CHECK_MS)
        self._health_timer.timeout.connect(self._on_health_timer_timeout)
        self._paths_posted.connect(
            self._on_observer_paths_posted, Qt.ConnectionType.QueuedConnection
        )
        self._native_gap.connect(self._on_native_gap, Qt.ConnectionType.QueuedConnection)

    @property
    def root(self) -> Path | None:
        """The watched root as given to `start()` (made absolute), or None when stopped."""
        return self._root

    @property
    def backend(self) -> WatchBackend:
        """Which machinery watches the home right now."""
        return self._backend

    @property
    def backend_detail(self) -> str:
        """A short human description of the backend, for a status line."""
        return self._backend_detail

    @property
    def polled_dirs(self) -> list[str]:
        """Directories polled because the native watcher could not watch them."""
        return list(self._polled_dirs)

    def start(self, root: Path) -> None:
        """Watch `root` recursively (restarting if already watching something).

        The root is never created; if it does not exist the watcher waits for it.
        """
        self.stop()
        quiet_library_warnings()
        self._root = Path(root).absolute()
        if self._root.is_dir():
            self._start_observer()
        else:
            self._wait_for_root()

    def stop(self) -> None:
        """Stop watching, join the observer thread and drop pending paths."""
        self._generation += 1
        self._retry_timer.stop()
        self._flush_timer.stop()
        self._pending.clear()
        self._stop_observer()
        self._root = None
        self._set_backend(WatchBackend.STOPPED, "not watching")

    # -- observer lifecycle ------------------------------------------------------------

    def _start_observer(self, *, polling_reason: str | None = None) -> None:
        assert self._root is not None
        self._generation += 1
        watched_root = os.path.realpath(self._root)
        handler = _EventPoster(self._make_poster(self._generation), watched_root, str(self._root))
        self._handler = handler
        fallback_reason = polling_reason or "requested"
        if not self._use_polling and polling_reason is None:
            try:
                observer = self._observer_factory()
                self._launch(observer, handler, watched_root)
            except OSError as exc:
                fallback_reason = f"native watcher failed: {exc}"
                logger.warning("Falling back to polling for %s: %s", self._root, exc)
            else:
                self._observer = observer
                polls = isinstance(observer, PollingObserver)
                self._native_name = _observer_name(observer)
                if polls:
                    self._set_backend(WatchBackend.POLLING, self._native_name)
                    return
                limit = self._start_probing(handler, watched_root)
                if limit is None:
                    self._set_backend(WatchBackend.NATIVE, self._native_name)
                    self._health_timer.start()
                    return
                # The limit ran out while the tree was being watched: which directories
                # went unwatched is unknown, so poll everything.
                fallback_reason = f"native watcher failed: {limit.strerror or limit}"
                logger.warning("Falling back to polling for %s: %s", self._root, limit)
                self._stop_observer()
                self._generation += 1
                handler = _EventPoster(
                    self._make_poster(self._generation), watched_root, str(self._root)
                )
                self._handler = handler
        try:
            observer = PollingObserver(timeout=self._polling_interval_s)
            self._launch(observer, handler, watched_root)
        except OSError as exc:  # the root vanished, or is unreadable
            logger.warning("Cannot watch %s: %s", self._root, exc)
            self._wait_for_root()
            return
        self._observer = observer
        interval = f"{self._polling_interval_s:g} s"
        self._set_backend(WatchBackend.POLLING, f"polling every {interval} ({fallback_reason})")

    def _start_probing(self, handler: _EventPoster, watched_root: str) -> OSError | None:
        """Check new directories from now on; the error if the root already exhausted
        the watch limit."""
        if self._native_name != "inotify":
            return None
        probe = self._probe_factory()
        if probe is None:
            return None
        try:
            probe.check(watched_root)
        except OSError as error:
            probe.close()
            return error
        self._probe = probe
        gap = self._native_gap
        generation = self._generation

        def check_new_directory(directory: str) -> None:
            try:
                probe.check(directory)
            except OSError as error:
                with contextlib.suppress(RuntimeError):  # the watcher is being deleted
                    gap.emit(directory, error.strerror or str(error), generation)

        handler.on_new_directory = check_new_directory
        return None

    @Slot(str, str, int)
    def _on_native_gap(self, directory: str, reason: str, generation: int) -> None:
        """Poll a directory the native watcher could not watch (GUI thread)."""
        if generation != self._generation or self._handler is None:
            return
        if any(
            directory == polled or directory.startswith(polled + os.sep)
            for polled in self._polled_dirs
        ):
            return
        logger.warning("Cannot watch %s natively (%s); polling it", directory, reason)
        try:
            if self._gap_observer is None:
                self._gap_observer = PollingObserver(timeout=self._polling_interval_s)
                self._gap_observer.start()
            self._gap_observer.schedule(
                self._handler, directory, recursive=True, event_filter=self._CHANGE_EVENTS
            )
        except OSError as error:  # it vanished already: nothing to poll
            logger.info("Not polling %s: %s", directory, error)
            return
        self._polled_dirs.append(directory)
        # Whatever was written in it before polling began is unknown: report it.
        self._add_pending([self._reported(directory)])
        count = len(self._polled_dirs)
        folders = "1 folder" if count == 1 else f"{count} folders"
        self._set_backend(
            WatchBackend.NATIVE, f"{self._native_name} + polling {folders} ({reason})"
        )

    def _reported(self, real_path: str) -> str:
        """`real_path` (under the real root) as a path under the root given to `start()`."""
        assert self._root is not None
        real_root = os.path.realpath(self._root)
        return str(self._root) + real_path[len(real_root) :]

    @Slot()
    def _on_health_timer_timeout(self) -> None:
        observer = self._observer
        if observer is None or self._backend is not WatchBackend.NATIVE or self._root is None:
            return
        threads = [observer, *observer.emitters]
        if all(thread.is_alive() for thread in threads) or not self._root.is_dir():
            return
        logger.warning("The native file watcher stopped; polling %s instead", self._root)
        self._stop_observer()
        self._start_observer(polling_reason="native watcher stopped")
        self._add_pending([str(self._root)])

    # Only events that can mean a change. Without this filter inotify also reports every
    # open and read-only close, so each scan's reads would flood the bridge with echoes.
    _CHANGE_EVENTS: list[type[FileSystemEvent]] = [  # noqa: RUF012 - read-only
        FileCreatedEvent,
        DirCreatedEvent,
        FileDeletedEvent,
        DirDeletedEvent,
        FileModifiedEvent,
        FileMovedEvent,
        DirMovedEvent,
        FileClosedEvent,
    ]

    @staticmethod
    def _launch(observer: BaseObserver, handler: _EventPoster, watched_root: str) -> None:
        """Schedule and start `observer`; on failure stop it and re-raise."""
        try:
            observer.schedule(
                handler, watched_root, recursive=True, event_filter=HomeWatcher._CHANGE_EVENTS
            )
            observer.start()
        except OSError:
            # Stopping an unstarted observer releases what its constructor/schedule took
            # (the inotify fd thread); anything it raises now is secondary.
            with contextlib.suppress(Exception):
                observer.stop()
            raise

    def _make_poster(self, generation: int) -> Callable[[list[str]], None]:
        """The observer-thread callable: emit the queued signal, tagged with `generation`."""
        signal = self._paths_posted

        def post(paths: list[str]) -> None:
            # After the watcher is deleted the emit raises; the observer is being stopped.
            with contextlib.suppress(RuntimeError):
                signal.emit(paths, generation)

        return post

    def _stop_observer(self) -> None:
        self._health_timer.stop()
        gap_observer, self._gap_observer = self._gap_observer, None
        self._polled_dirs.clear()
        observer, self._observer = self._observer, None
        for each in (observer, gap_observer):
            if each is None:
                continue
            each.stop()
            if each.is_alive():
                each.join(_OBSERVER_JOIN_TIMEOUT_S)
                if each.is_alive():
                    logger.warning(
                        "The file watcher thread did not stop within %.0f s",
                        _OBSERVER_JOIN_TIMEOUT_S,
                    )
        probe, self._probe = self._probe, None
        if probe is not None:
            probe.close()

    def _wait_for_root(self) -> None:
        self._stop_observer()
        self._set_backend(WatchBackend.WAITING, f"waiting for {self._root} to exist")
        self._retry_timer.start()

    def _set_backend(self, backend: WatchBackend, detail: str) -> None:
        changed = backend is not self._backend or detail != self._backend_detail
        self._backend, self._backend_detail = backend, detail
        if changed:
            logger.info("File watcher: %s (%s)", backend.value, detail)
            self.backend_changed.emit(backend.value)

    # -- coalescing --------------------------------------------------------------------

    def _add_pending(self, paths: list[str]) -> None:
        now = time.monotonic()
        if not self._pending:
            self._batch_started = now
        self._pending.update(paths)
        waited_ms = (now - self._batch_started) * 1000.0
        remaining_ms = max(0.0, self._max_latency_ms - waited_ms)
        self._flush_timer.start(int(min(self._debounce_ms, remaining_ms)))

    @Slot(object, int)
    def _on_observer_paths_posted(self, paths: list[str], generation: int) -> None:
        if generation != self._generation:
            return
        self._add_pending(paths)

    @Slot()
    def _on_flush_timer_timeout(self) -> None:
        if not self._pending:
            return
        batch, self._pending = sorted(self._pending), set()
        root = self._root
        if root is not None and str(root) in batch and not root.is_dir():
            logger.info("The watched home %s disappeared; waiting for it", root)
            self._generation += 1
            self._wait_for_root()
        elif root is not None and len(batch) > LARGE_BATCH:
            # A storm (a checkout, a bulk copy): every consumer would rescan everything
            # anyway, and classifying thousands of paths on the GUI thread would stall it.
            batch = [str(root)]
        self.paths_changed.emit(batch)

    @Slot()
    def _on_retry_timer_timeout(self) -> None:
        if self._root is None or not self._root.is_dir():
            return
        self._retry_timer.stop()
        self._start_observer()
        if self._backend is not WatchBackend.WAITING:
            # Whatever was written before the watch began is unknown: report the root.
            self._add_pending([str(self._root)])
