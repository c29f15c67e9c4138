"""What a file-system event means for Memtab's views.

`memtab.gui.activity.watch` runs a watchdog observer over the memory home and reports changed paths.
This module holds the rules it applies and what its consumers ask of a batch:

- `changed_paths(event, ...)` turns one watchdog event into the paths worth reporting
  (reads, attribute changes, editor/atomic-save temp files and parent-directory noise
  are dropped; both ends of a move count).
- `is_ignored(rel)` is the temp-name rule on a home-relative path.
- a whole batch is classified once, for every feature of a window, as a
  `change_batch.ChangeBatch` (the window context publishes it).
"""

from __future__ import annotations

import os

from watchdog.events import (
    EVENT_TYPE_CLOSED,
    EVENT_TYPE_CREATED,
    EVENT_TYPE_DELETED,
    EVENT_TYPE_MODIFIED,
    EVENT_TYPE_MOVED,
    FileSystemEvent,
)

from memtab.fs.atomic import is_write_temp
from memtab.store.home import is_sync_repository

# Only these change what is on disk. `opened`/`closed_no_write` are reads; `attrib` is
# metadata (reading a file must never trigger a reload).
_CONTENT_EVENT_TYPES = frozenset(
    {
        EVENT_TYPE_CREATED,
        EVENT_TYPE_DELETED,
        EVENT_TYPE_MODIFIED,
        EVENT_TYPE_MOVED,
        EVENT_TYPE_CLOSED,
    }
)

# Vim probes whether a directory is writable by creating and deleting a file named 4913.
_VIM_PROBE_NAME = "4913"
_TEMP_SUFFIXES = (".tmp", "~")


def is_ignored(rel: str) -> bool:
    """Whether a home-relative path is an editor or atomic-save temp, or hidden.

    Any component starting with `.` hides the path (dotfiles, vim's `.name.swp`/`.swx`,
    Memtab's own `.<name>.<random>.tmp`, and everything inside hidden dirs — a scope
    listing skips those too). The last component is also ignored when it is `4913`, ends
    in `.tmp` or `~`, or is xum's atomic-write temp `<name>.<12 hex>` (`is_write_temp`).
    So is everything in a sync target's git repository (a fetch writes hundreds of files
    no view shows). The home itself (`rel == ""`) is never ignored.
    """
    if not rel:
        return False
    if is_sync_repository(rel):
        return True
    parts = rel.split(os.sep)
    if any(part.startswith(".") for part in parts):
        return True
    name = parts[-1]
    return name == _VIM_PROBE_NAME or name.endswith(_TEMP_SUFFIXES) or is_write_temp(name)


def relative_to_root(path: str, root: str) -> str | None:
    """`path` relative to `root` (`""` for the root itself), or None when outside it.

    Both are plain absolute strings; no file-system access.
    """
    if path == root:
        return ""
    prefix = root if root.endswith(os.sep) else root + os.sep
    if path.startswith(prefix):
        return path[len(prefix) :]
    return None


def changed_paths(event: FileSystemEvent, watched_root: str, reported_root: str) -> list[str]:
    """The paths an event reports, under `reported_root`, after filtering.

    `watched_root` is the directory the observer watches (a realpath); `reported_root` is
    the home as the caller spelled it (it may be a symlink to `watched_root`), so paths
    come back in the caller's terms. Directory `modified` events are dropped: they are
    the side effect of a child being created, deleted or moved, which is reported (or
    deliberately ignored, for temp files) on its own. For a move, the source and the
    destination are judged separately: an atomic save (`.a.md.x1.tmp` → `a.md`) reports
    `a.md` only; moving a real file away reports the source.
    """
    if event.event_type not in _CONTENT_EVENT_TYPES:
        return []
    if event.is_directory and event.event_type == EVENT_TYPE_MODIFIED:
        return []
    candidates = [event.src_path]
    if event.event_type == EVENT_TYPE_MOVED and event.dest_path:
        candidates.append(event.dest_path)
    reported: list[str] = []
    for raw in candidates:
        if not raw:
            continue
        rel = relative_to_root(os.fsdecode(raw), watched_root)
        if rel is None or is_ignored(rel):
            continue
        reported.append(os.path.join(reported_root, rel) if rel else reported_root)
    return reported
