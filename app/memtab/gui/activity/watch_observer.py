"""The watchdog side of `memtab.gui.activity.watch`: the event filter, the observer-thread handler
and starting an observer. Imported when watching begins (after the window's first paint),
so importing watchdog never delays start-up.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable

from watchdog.events import (
    EVENT_TYPE_CLOSED,
    EVENT_TYPE_CREATED,
    EVENT_TYPE_DELETED,
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
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from memtab.components.activity.changes import changed_paths
from memtab.watch.observers import BoundedPollingObserver, watching_any_depth

logger = logging.getLogger(__name__)

# Only events that can mean a change. Without this filter inotify also reports every open
# and read-only close, so each scan's reads would flood the bridge with echoes.
CHANGE_EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    DirCreatedEvent,
    FileDeletedEvent,
    DirDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    DirMovedEvent,
    FileClosedEvent,
]

# Events after which the path is as it will stay: a rename onto it (an atomic save), the
# last close of a write, a deletion. A creation or modification is usually followed by
# more writes, so those wait for the debounce.
_SETTLED_EVENT_TYPES = frozenset({EVENT_TYPE_MOVED, EVENT_TYPE_CLOSED, EVENT_TYPE_DELETED})

Poster = Callable[[list[str], bool], None]
"""Receives an event's paths and whether the event leaves them settled."""


class EventPoster(FileSystemEventHandler):
    """Observer-thread handler: filter one event into paths and post them, nothing else.

    `on_new_directory` (observer thread) sees every directory created or moved in first.
    """

    def __init__(
        self,
        post: Poster,
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
            self._post(paths, event.event_type in _SETTLED_EVENT_TYPES)


def native_observer() -> BaseObserver:
    """The platform's observer (inotify, FSEvents, kqueue, ReadDirectoryChangesW)."""
    return Observer()


def polling_observer(interval_s: float) -> BaseObserver:
    """Polling that lists no folder deeper than a tree of any depth allows
    (`memtab.watch.observers`)."""
    return BoundedPollingObserver(timeout=interval_s)


def is_polling(observer: BaseObserver) -> bool:
    return isinstance(observer, PollingObserver | BoundedPollingObserver)


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
