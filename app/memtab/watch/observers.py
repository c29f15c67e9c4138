"""watchdog observers that survive a tree of any depth (`watching_any_depth`,
`BoundedPollingObserver`, docs/formats.md §5), and the one handler the recorder and the window put
on them (`EventPoster`)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
from watchdog.observers.api import ObservedWatch
from watchdog.observers.polling import PollingObserverVFS

from memtab.logs import quiet_library_warnings
from memtab.store.paths import MAX_PATH_DEPTH, short_path
from memtab.watch_policy.paths import changed_paths, is_settled

WATCH_MAX_DEPTH = 2 * MAX_PATH_DEPTH
"""How many levels below a watch's root polling lists."""


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
"""The events a watch asks for: only those that can mean a change (not every read's echo)."""

Poster = Callable[[list[str], bool], None]
"""Receives an event's paths and whether the event leaves them settled."""


class EventPoster(FileSystemEventHandler):
    """Observer-thread handler: filter an event into paths by the one watcher policy and post them.
    `watched_root` as scheduled, `reported_root` as the caller spells it; `shallow` for a
    non-recursive watch; `on_new_directory` sees new directories first."""

    def __init__(
        self,
        post: Poster,
        watched_root: str,
        reported_root: str,
        on_new_directory: Callable[[str], None] | None = None,
        *,
        shallow: bool = False,
    ) -> None:
        super().__init__()
        self._post = post
        self._watched_root = watched_root
        self._reported_root = reported_root
        self._shallow = shallow
        self.on_new_directory = on_new_directory

    def on_any_event(self, event: FileSystemEvent) -> None:
        if self.on_new_directory is not None and event.is_directory:
            if event.event_type == EVENT_TYPE_CREATED:
                self.on_new_directory(os.fsdecode(event.src_path))
            elif event.event_type == EVENT_TYPE_MOVED:
                self.on_new_directory(os.fsdecode(event.dest_path))
        paths = changed_paths(event, self._watched_root, self._reported_root, shallow=self._shallow)
        if paths:
            self._post(paths, is_settled(event))


class TooDeepToWatchError(OSError):
    """watchdog's native watcher could not walk a tree this deep (its recursion)."""

    def __init__(self, roots: tuple[str, ...]) -> None:
        deep = next((found for root in roots if (found := deep_directory(root))), None)
        where = f": {short_path(deep)}" if deep else ""
        super().__init__(
            f"a folder is nested more than {WATCH_MAX_DEPTH} levels deep{where}, deeper "
            "than the native watcher can follow"
        )
        self.directory = deep


@contextlib.contextmanager
def watching_any_depth(*roots: str | Path) -> Iterator[None]:
    """Around starting an observer on `roots`: watchdog's RecursionError becomes TooDeepToWatchError
    (the caller polls instead), its harmless noise dropped."""
    quiet_library_warnings()
    try:
        yield
    except RecursionError:
        raise TooDeepToWatchError(tuple(os.fspath(root) for root in roots)) from None


def deep_directory(root: str, limit: int = WATCH_MAX_DEPTH) -> str | None:
    """The first folder more than `limit` levels below `root` (no links, a stack), or None."""
    pending: list[tuple[str, int]] = [(root, 0)]
    while pending:
        directory, depth = pending.pop()
        try:
            with os.scandir(directory) as entries:
                below = [entry.path for entry in entries if _is_directory(entry)]
        except OSError:
            continue
        if below and depth + 1 > limit:
            return below[0]
        pending.extend((path, depth + 1) for path in below)
    return None


class BoundedPollingObserver(PollingObserverVFS):
    """watchdog's polling observer listing no folder past `max_depth` below its watch's root."""

    def __init__(self, *, timeout: float, max_depth: int = WATCH_MAX_DEPTH) -> None:
        self._listdir = _BoundedListdir(max_depth)
        super().__init__(os.stat, self._listdir, polling_interval=timeout)

    def schedule(
        self, event_handler: FileSystemEventHandler, path: str | Path, **options: Any
    ) -> ObservedWatch:
        self._listdir.roots.add(os.fspath(path))
        return super().schedule(event_handler, path, **options)


class _BoundedListdir:
    """`os.scandir` listing nothing `max_depth` levels below a path's longest root."""

    def __init__(self, max_depth: int) -> None:
        self.max_depth = max_depth
        self.roots: set[str] = set()

    def __call__(self, path: str | None) -> Iterator[os.DirEntry[str]]:
        text = os.fspath(path or ".")
        depths = [
            text[len(root) :].count(os.sep)
            for root in self.roots
            if text == root or text.startswith(root.rstrip(os.sep) + os.sep)
        ]
        if depths and min(depths) >= self.max_depth:
            return iter(())
        return os.scandir(text)


def _is_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False
