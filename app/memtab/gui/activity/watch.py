"""The watchdog → Qt bridge: `HomeWatcher` watches the home (and extra directories) and
emits `paths_changed(list[str])` on the GUI thread, debounced by the one coalescing policy
(`memtab.watch_policy`). Native observer by default, polling where inotify cannot serve;
a root that does not exist yet is waited for, and its appearance or loss reported as the root.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot

from memtab.gui.toolkit.clock import QT_CLOCK, GuiClock
from memtab.watch_policy.coalesce import Coalescer, PostedPaths, reported_batch

if TYPE_CHECKING:  # lazy: watchdog (~20 ms) loads when watching starts (watch_observer)
    from memtab.components.activity.inotify_probe import ProbeFactory
    from memtab.gui.activity.watch_observer import BaseObserver, Observing

logger = logging.getLogger(__name__)

ObserverFactory = Callable[[], "BaseObserver"]  # an unstarted observer `HomeWatcher` starts

_OBSERVER_JOIN_TIMEOUT_S = 2.0


class WatchBackend(enum.StrEnum):
    """Which machinery is watching the home."""

    STOPPED = "stopped"
    WAITING = "waiting"  # the root does not exist (yet); checking for it periodically
    NATIVE = "native"  # the platform observer: inotify, FSEvents, kqueue, ReadDirectoryChanges
    POLLING = "polling"


# How often a native observer's threads are checked for having died.
_HEALTH_CHECK_MS = 5000


class HomeWatcher(QObject):
    """Reports coalesced changes under a directory tree; lives on the GUI thread."""

    # (list[str]) sorted absolute paths (str) that changed since the last emission, under the root
    # as passed to `start()`. The root itself in the list means "anything may have changed" (it
    # appeared or vanished)
    paths_changed = Signal(object)
    backend_changed = Signal(str)  # the new `WatchBackend` value
    # Observer thread → GUI thread: "the inbox has paths". Events go into the inbox with
    # whether they are settled (see the module docstring) and the observer generation, so
    # paths posted by an observer that has since been stopped or replaced are dropped.
    # One signal per filling of the inbox, not per event: a storm of thousands of events
    # reaches the GUI thread as a few drains, not thousands of queued calls.
    _paths_posted = Signal()
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
        clock: GuiClock = QT_CLOCK,
    ) -> None:
        """Configure the watcher; nothing is watched until `start()`. `observer_factory` builds
        the native observer (OSError: polling every `polling_interval_s` s), `probe_factory`
        the probe of new directories, `clock` times the debounce and checks."""
        super().__init__(parent)
        self._coalescer = Coalescer(debounce_ms=debounce_ms, max_latency_ms=max_latency_ms)
        self._missing_root_retry_ms = missing_root_retry_ms
        self._clock = clock
        self._use_polling = use_polling
        self._polling_interval_s = polling_interval_s
        self._observer_factory = observer_factory
        self._probe_factory = probe_factory
        self.extra_targets: tuple[tuple[str, bool], ...] = ()
        # The extra directories and every folder holding them: one of them in a batch
        # may be an extra directory coming or going.
        self._extra_holders: frozenset[str] = frozenset()
        self._extras_handed = False  # whether `set_extra_targets` was called yet

        self.root: Path | None = None  # as given to start(), made absolute; None: stopped
        # The watchdog side of the watch, while observing (`watch_observer.Observing`).
        self._watching: Observing | None = None
        self._generation = 0
        self.backend = WatchBackend.STOPPED
        self.backend_detail = "not watching"

        self._inbox = PostedPaths()
        self._flush_timer = clock.timer(self, self._on_flush_timer_timeout, single_shot=True)
        self._retry_timer = clock.timer(self, self._on_retry_timer_timeout, single_shot=False)
        self._health_timer = clock.timer(self, self._on_health_timer_timeout, single_shot=False)
        self._paths_posted.connect(
            self._on_observer_paths_posted, Qt.ConnectionType.QueuedConnection
        )
        self._native_gap.connect(self._on_native_gap, Qt.ConnectionType.QueuedConnection)

    @property
    def polled_dirs(self) -> list[str]:
        """Directories polled because the native watcher could not watch them."""
        return list(self._watching.polled_dirs) if self._watching is not None else []

    @Slot(object)
    def set_extra_targets(self, targets: Sequence[tuple[str, bool]]) -> None:
        """Also watch these directories (other agents' memory outside the home), each
        recursively or not, replacing the previous ones; one watched anew while watching is
        reported at once (what was written before its watch began is unknown)."""
        wanted = tuple(sorted((str(Path(d).absolute()), bool(r)) for d, r in targets))
        if wanted == self.extra_targets:
            return
        first = not self._extras_handed
        self._extras_handed = True
        self.extra_targets = wanted
        self._extra_holders = frozenset(
            str(folder)
            for directory, _ in wanted
            for folder in (Path(directory), *Path(directory).parents)
        )
        added = self._schedule_extras()
        if added and not first:
            self._add_pending(added)

    def _schedule_extras(self) -> list[str]:
        """Put the extra watches on the running observer (`Observing.schedule_extras`);
        the directories newly watched."""
        if self._watching is None:
            return []
        added, failed = self._watching.schedule_extras(self.extra_targets)
        for directory, error in failed:
            logger.warning("Cannot watch %s: %s", directory, error.strerror or error)
        return added

    def start(self, root: Path) -> None:
        """Watch `root` recursively (restarting if already watching something).

        The root is never created; if it does not exist the watcher waits for it.
        """
        self.stop()
        self.root = Path(root).absolute()
        if self.root.is_dir():
            self._start_observer()
        else:
            self._wait_for_root()

    def stop(self) -> None:
        """Stop watching, join the observer thread and drop pending paths."""
        self._generation += 1
        self._retry_timer.stop()
        self._flush_timer.stop()
        self._coalescer.clear()
        self._stop_observer()
        self.root = None
        self._set_backend(WatchBackend.STOPPED, "not watching")

    def _start_observer(self, *, polling_reason: str | None = None) -> None:
        # lazy: watchdog, the observers and the probe of new directories (37 modules,
        # ~1.5 MiB traced, ~45 ms) load when watching starts, after the paint
        from memtab.gui.activity.watch_observer import Observing

        assert self.root is not None
        watched_root = os.path.realpath(self.root)

        def observing() -> Observing:
            self._generation += 1
            post = self._make_poster(self._generation)
            return Observing(post, watched_root, str(self.root), self._polling_interval_s)

        watching = observing()
        fallback_reason = polling_reason or "requested"
        if not self._use_polling and polling_reason is None:
            try:
                polls = watching.start_native(self._observer_factory)
            except OSError as exc:
                fallback_reason = f"native watcher failed: {exc}"
                logger.warning("Falling back to polling for %s: %s", self.root, exc)
            else:
                self._watching = watching
                if polls:
                    self._schedule_extras()
                    self._set_backend(WatchBackend.POLLING, watching.native_name)
                    return
                limit = watching.start_probing(self._probe_factory, self._gap_reporter())
                if limit is None:
                    self._schedule_extras()
                    self._set_backend(WatchBackend.NATIVE, watching.native_name)
                    self._health_timer.start(_HEALTH_CHECK_MS)
                    return
                # The limit ran out while the tree was being watched: which directories
                # went unwatched is unknown, so poll everything.
                fallback_reason = f"native watcher failed: {limit.strerror or limit}"
                logger.warning("Falling back to polling for %s: %s", self.root, limit)
                self._stop_observer()
                watching = observing()
        try:
            watching.start_polling()
        except OSError as exc:  # the root vanished, or is unreadable
            logger.warning("Cannot watch %s: %s", self.root, exc)
            self._wait_for_root()
            return
        self._watching = watching
        self._schedule_extras()
        interval = f"{self._polling_interval_s:g} s"
        self._set_backend(WatchBackend.POLLING, f"polling every {interval} ({fallback_reason})")

    def _gap_reporter(self) -> Callable[[str, str], None]:
        """The observer-thread callable the probe reports a directory it could not watch
        to: on to the GUI thread, tagged with this generation."""
        gap, generation = self._native_gap, self._generation

        def report(directory: str, reason: str) -> None:
            with contextlib.suppress(RuntimeError):  # the watcher is being deleted
                gap.emit(directory, reason, generation)

        return report

    @Slot(str, str, int)
    def _on_native_gap(self, directory: str, reason: str, generation: int) -> None:
        """Poll a directory the native watcher could not watch (GUI thread)."""
        watching = self._watching
        if generation != self._generation or not (watching and watching.needs_polling(directory)):
            return
        logger.warning("Cannot watch %s natively (%s); polling it", directory, reason)
        try:
            detail = watching.poll(directory, reason)
        except OSError as error:  # it vanished already: nothing to poll
            logger.info("Not polling %s: %s", directory, error)
            return
        # Whatever was written in it before polling began is unknown: report it (as a path
        # under the root given to `start()`).
        assert self.root is not None
        self._add_pending([str(self.root) + directory[len(os.path.realpath(self.root)) :]])
        self._set_backend(WatchBackend.NATIVE, detail)

    @Slot()
    def _on_health_timer_timeout(self) -> None:
        watching = self._watching
        if watching is None or self.backend is not WatchBackend.NATIVE or self.root is None:
            return
        # An extra directory's watch ends when the directory goes (Gemini CLI's memory
        # folder removed, moved away): no failure of the watcher. Made again, it is
        # watched anew and reported (what was written in it before is unknown).
        if added := self._schedule_extras():
            self._add_pending(added)
        if watching.alive() or not self.root.is_dir():
            return
        logger.warning("The native file watcher stopped; polling %s instead", self.root)
        self._stop_observer()
        self._start_observer(polling_reason="native watcher stopped")
        self._add_pending([str(self.root)])

    def _make_poster(self, generation: int) -> Callable[[list[str], bool], None]:
        """The observer-thread callable: put the paths in the inbox (tagged with
        `generation`) and signal the GUI thread if it was empty."""
        signal, inbox = self._paths_posted, self._inbox

        def post(paths: list[str], settled: bool) -> None:
            if inbox.post(paths, settled, generation):
                # After the watcher is deleted the emit raises; the observer is stopping.
                with contextlib.suppress(RuntimeError):
                    signal.emit()

        return post

    def _stop_observer(self) -> None:
        self._health_timer.stop()
        watching, self._watching = self._watching, None
        if watching is not None:
            watching.stop(_OBSERVER_JOIN_TIMEOUT_S)

    def _wait_for_root(self) -> None:
        self._stop_observer()
        self._set_backend(WatchBackend.WAITING, f"waiting for {self.root} to exist")
        self._retry_timer.start(self._missing_root_retry_ms)

    def _set_backend(self, backend: WatchBackend, detail: str) -> None:
        changed = backend is not self.backend or detail != self.backend_detail
        self.backend, self.backend_detail = backend, detail
        if changed:
            logger.info("File watcher: %s (%s)", backend.value, detail)
            self.backend_changed.emit(backend.value)

    def _add_pending(self, paths: list[str], *, settled: bool = False) -> None:
        decision = self._coalescer.add(self._clock.monotonic_ms(), paths, settled=settled)
        if decision.report is not None:
            self._emit(decision.report)  # the leading edge
        else:
            self._flush_timer.start(decision.wait_ms)

    @Slot()
    def _on_observer_paths_posted(self) -> None:
        taken = self._inbox.take(self._generation)
        if taken is not None:
            paths, settled = taken
            self._add_pending(paths, settled=settled)
            # An extra directory (or one holding it) came or went — Gemini CLI's memory
            # folder removed and made again before its source is listed anew: watch the
            # one there now, and report it (what was written in it before is unknown).
            if not self._extra_holders.isdisjoint(paths) and (added := self._schedule_extras()):
                self._add_pending(added)

    @Slot()
    def _on_flush_timer_timeout(self) -> None:
        batch = self._coalescer.take()
        if batch:
            self._emit(batch)

    def _emit(self, batch: list[str]) -> None:
        root = self.root
        if root is not None:
            batch, vanished = reported_batch(batch, str(root), root.is_dir)
            if vanished:
                logger.info("The watched home %s disappeared; waiting for it", root)
                self._generation += 1
                self._wait_for_root()
        self.paths_changed.emit(batch)

    @Slot()
    def _on_retry_timer_timeout(self) -> None:
        if self.root is None or not self.root.is_dir():
            return
        self._retry_timer.stop()
        self._start_observer()
        if self.backend is not WatchBackend.WAITING:
            # Whatever was written before the watch began is unknown: report the root.
            self._add_pending([str(self.root)])
