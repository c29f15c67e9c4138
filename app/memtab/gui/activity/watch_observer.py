"""The watchdog side of `memtab.gui.activity.watch`: the observer-thread handler, starting an
observer, and one watch's observers, extra directories and polled gaps (`Observing`);
imported when watching begins, so watchdog never delays start-up.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
from collections.abc import Callable, Sequence

from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from memtab.components.activity.inotify_probe import (
    InotifyProbe,
    ProbeFactory,
    WatchProbe,
    gap_detail,
    needs_polling,
)
from memtab.watch.observers import (
    CHANGE_EVENTS,
    BoundedPollingObserver,
    EventPoster,
    Poster,
    watching_any_depth,
)

logger = logging.getLogger(__name__)

# The watcher names watchdog's and the handler's types through this module alone (it loads
# them when watching starts).
__all__ = ["BaseObserver", "EventPoster", "ObservedWatch"]


def observer_name(observer: BaseObserver) -> str:
    """ "inotify", "fsevents", "polling"…: the watchdog observer class it is (or extends)."""
    if isinstance(observer, BoundedPollingObserver):
        return "polling"
    for cls in type(observer).__mro__:
        if cls.__module__.startswith("watchdog.") and cls.__name__.endswith("Observer"):
            return cls.__name__.removesuffix("Observer").lower()
    return type(observer).__name__.removesuffix("Observer").lower()


def watch(
    observer: BaseObserver, handler: EventPoster, directory: str, *, recursive: bool = True
) -> ObservedWatch:
    """Schedule `handler` on `directory` (recursively unless told) for the change events
    only; the watch, to unschedule it. OSError (`TooDeepToWatchError` too) if it fails."""
    with watching_any_depth(directory):
        return observer.schedule(
            handler, directory, recursive=recursive, event_filter=CHANGE_EVENTS
        )


def unwatch(observer: BaseObserver, watch: ObservedWatch) -> None:
    """Stop a watch (one already gone, e.g. its directory deleted, is fine)."""
    with contextlib.suppress(KeyError, OSError):
        observer.unschedule(watch)


def launch(observer: BaseObserver, handler: EventPoster, watched_root: str) -> None:
    """Schedule and start `observer`; on failure stop it and re-raise."""
    try:
        with watching_any_depth(watched_root):
            watch(observer, handler, watched_root)
            observer.start()
    except OSError:
        # Stopping an unstarted observer releases what its constructor/schedule took
        # (the inotify fd thread); anything it raises now is secondary.
        with contextlib.suppress(Exception):
            observer.stop()
        raise


def _identity(directory: str) -> tuple[int, int] | None:
    """Which directory is at `directory` now (device and inode), None when none is."""
    try:
        status = os.stat(directory)
    except OSError:
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISDIR(status.st_mode) else None


class Observing:
    """The watchdog side of one watch of a root: its observer, the extra directories'
    watches, the probe of new directories and the directories polled instead."""

    def __init__(
        self, post: Poster, watched_root: str, reported_root: str, polling_interval_s: float
    ) -> None:
        """Events under `watched_root` (the real root) are posted under `reported_root`
        (the root as given); polling looks every `polling_interval_s` seconds."""
        self._post = post
        self.watched_root = watched_root
        self.handler = EventPoster(post, watched_root, reported_root)
        self._polling_interval_s = polling_interval_s
        self.observer: BaseObserver | None = None
        self.native_name = ""
        self._probe: WatchProbe | None = None
        # Directories the native observer could not watch, polled by `_gap_observer`.
        self.polled_dirs: list[str] = []
        self._gap_observer: BaseObserver | None = None
        # Each extra watch, and which directory it watches (`_identity`): another one made
        # at its path (the folder removed and made again) is not watched by it.
        self._extra_watches: dict[tuple[str, bool], tuple[ObservedWatch, tuple[int, int]]] = {}

    def start_native(self, factory: Callable[[], BaseObserver] | None) -> bool:
        """Start the platform's observer (`factory`'s, else watchdog's: inotify, FSEvents…);
        whether it polls all the same. OSError when it cannot start (nothing is left running)."""
        observer = (factory or Observer)()
        launch(observer, self.handler, self.watched_root)
        self.observer = observer
        self.native_name = observer_name(observer)
        return isinstance(observer, PollingObserver | BoundedPollingObserver)

    def start_polling(self) -> None:
        """Start polling the root instead. OSError when it cannot (the root vanished, or
        is unreadable)."""
        # Polling that lists no folder deeper than a tree of any depth allows.
        observer = BoundedPollingObserver(timeout=self._polling_interval_s)
        launch(observer, self.handler, self.watched_root)
        self.observer = observer

    def start_probing(
        self, factory: ProbeFactory | None, report_gap: Callable[[str, str], None]
    ) -> OSError | None:
        """Check new directories from now on when the observer is inotify (`factory`'s
        probe, else `InotifyProbe.open`): `report_gap(directory, reason)`, on the observer
        thread, for one the kernel would not watch. The error if the root already
        exhausted the watch limit."""
        if self.native_name != "inotify":
            return None
        probe = (factory or InotifyProbe.open)()
        if probe is None:
            return None
        try:
            probe.check(self.watched_root)
        except OSError as error:
            probe.close()
            return error
        self._probe = probe

        def check_new_directory(directory: str) -> None:
            try:
                probe.check(directory)
            except OSError as error:
                report_gap(directory, error.strerror or str(error))

        self.handler.on_new_directory = check_new_directory
        return None

    def needs_polling(self, directory: str) -> bool:
        """Whether a directory the native observer could not watch is to be polled (not
        under one polled already)."""
        return needs_polling(directory, self.polled_dirs)

    def poll(self, directory: str, reason: str) -> str:
        """Poll `directory`, which the native observer could not watch (`reason`); the
        backend's detail from now on. OSError when it cannot (it vanished already)."""
        if self._gap_observer is None:
            self._gap_observer = BoundedPollingObserver(timeout=self._polling_interval_s)
            self._gap_observer.start()
        watch(self._gap_observer, self.handler, directory)
        self.polled_dirs.append(directory)
        return gap_detail(self.native_name, len(self.polled_dirs), reason)

    def schedule_extras(
        self, targets: Sequence[tuple[str, bool]]
    ) -> tuple[list[str], list[tuple[str, OSError]]]:
        """Put the extra watches on the observer: gone targets and gone directories go, kept
        ones stay (never a moment unwatched), new ones are made. The directories newly
        watched, and those that could not be."""
        observer = self.observer
        if observer is None:
            return [], []
        wanted = set(targets)
        ended = {emitter.watch for emitter in observer.emitters if not emitter.is_alive()}
        for target in [
            target
            for target, (watched, identity) in self._extra_watches.items()
            if target not in wanted or watched in ended or _identity(target[0]) != identity
        ]:
            unwatch(observer, self._extra_watches.pop(target)[0])
        added: list[str] = []
        failed: list[tuple[str, OSError]] = []
        for directory, recursive in targets:
            identity = _identity(directory)
            if (directory, recursive) in self._extra_watches or identity is None:
                continue
            poster = EventPoster(
                self._post, os.path.realpath(directory), directory, shallow=not recursive
            )
            try:
                watched = watch(observer, poster, directory, recursive=recursive)
            except OSError as error:
                failed.append((directory, error))
                continue
            self._extra_watches[directory, recursive] = (watched, identity)
            added.append(directory)
        return added, failed

    def alive(self) -> bool:
        """Whether the observer and each of its emitters still run."""
        observer = self.observer
        if observer is None:
            return False
        return all(thread.is_alive() for thread in (observer, *observer.emitters))

    def stop(self, join_timeout_s: float) -> None:
        """Stop the observers, wait up to `join_timeout_s` for each, close the probe."""
        for each in (self.observer, self._gap_observer):
            if each is None:
                continue
            each.stop()
            if each.is_alive():
                each.join(join_timeout_s)
                if each.is_alive():
                    logger.warning(
                        "The file watcher thread did not stop within %.0f s", join_timeout_s
                    )
        self.observer = self._gap_observer = None
        self.polled_dirs.clear()
        self._extra_watches = {}
        probe, self._probe = self._probe, None
        if probe is not None:
            probe.close()
