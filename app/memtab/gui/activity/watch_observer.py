"""The watchdog side of `memtab.gui.activity.watch`: the observer-thread handler (the one
`memtab watch` uses, `memtab.watch.observers.EventPoster`) and starting an observer.
Imported when watching begins (after the window's first paint), so importing watchdog never
delays start-up.
"""

from __future__ import annotations

import contextlib
import logging

from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

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
__all__ = [
    "BaseObserver",
    "EventPoster",
    "ObservedWatch",
    "event_poster",
    "is_polling",
    "launch",
    "native_observer",
    "observer_name",
    "polling_observer",
    "unwatch",
    "watch",
]


def event_poster(
    post: Poster, watched_root: str, reported_root: str, *, shallow: bool = False
) -> EventPoster:
    """The observer-thread handler: each event's paths, filtered by the one watcher policy
    (`memtab.watch_policy.paths`; `shallow` for a watch that is not recursive), posted with
    whether they are settled."""
    return EventPoster(post, watched_root, reported_root, shallow=shallow)


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
