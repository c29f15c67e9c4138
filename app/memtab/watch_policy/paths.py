"""What counts as a change: one rule for the window's watcher and `memtab watch`
(docs/formats.md §14.5).

- `changed_paths(event, ...)` turns one file-system event into the paths worth reporting
  (reads, attribute changes, editor/atomic-save temp files and parent-directory noise are
  dropped; both ends of a move count).
- `is_ignored(rel)` is the temp-name rule on a path relative to the watched directory.
- `is_settled(event)`: whether the event leaves its path as it will stay.

Events are watchdog's (`watchdog.events.FileSystemEvent`), read through the four attributes
`ChangeEvent` names, so this module imports no watchdog: the window's first paint loads it.
"""

from __future__ import annotations

import os
from typing import Protocol

from memtab.fs.atomic import is_write_temp
from memtab.store.home import AGENT_INBOX_DIR, AGENT_INBOX_KINDS, is_agent_inbox, is_sync_repository

# watchdog's event types (`watchdog.events.EVENT_TYPE_*`), plain strings.
CREATED = "created"
DELETED = "deleted"
MODIFIED = "modified"
MOVED = "moved"
CLOSED = "closed"

CONTENT_EVENT_TYPES = frozenset({CREATED, DELETED, MODIFIED, MOVED, CLOSED})
"""Only these change what is on disk. `opened`/`closed_no_write` are reads; an attribute
change is metadata (reading a file must never trigger a reload)."""

SETTLED_EVENT_TYPES = frozenset({MOVED, CLOSED, DELETED})
"""Events after which the path is as it will stay: a rename onto it (an atomic save), the
last close of a write, a deletion. A creation or modification is usually followed by more
writes, so those wait for the debounce."""

# Vim probes whether a directory is writable by creating and deleting a file named 4913.
_VIM_PROBE_NAME = "4913"
_TEMP_SUFFIXES = (".tmp", "~")


class ChangeEvent(Protocol):
    """What this policy reads of a file-system event (watchdog's `FileSystemEvent`)."""

    @property
    def event_type(self) -> str: ...

    @property
    def is_directory(self) -> bool: ...

    @property
    def src_path(self) -> bytes | str: ...

    @property
    def dest_path(self) -> bytes | str: ...


def is_ignored(rel: str) -> bool:
    """Whether a path relative to the watched directory is an editor or atomic-save temp,
    or hidden.

    Any component starting with `.` hides the path (dotfiles, vim's `.name.swp`/`.swx`,
    Memtab's own `.<name>.<random>.tmp`, lock files such as `.consolidate-lock`, and
    everything inside hidden dirs — a scope listing skips those too) but Gemini CLI's
    memory inbox: a `.patch` in it (`.inbox/{private,global}/`), and the folders that hold
    them (one moved away is its patches going). The last component is
    also ignored when it is `4913`, ends in `.tmp` or `~`, or is xum's atomic-write temp
    `<name>.<12 hex>` (`is_write_temp`). So is everything in a sync target's git repository
    (a fetch writes hundreds of files no view shows). The directory itself (`rel == ""`) is
    never ignored.
    """
    if not rel:
        return False
    if is_sync_repository(rel):
        return True
    parts = rel.split(os.sep)
    if any(part.startswith(".") for part in parts):
        # Gemini CLI's memory inbox is a hidden folder the Inbox follows; its temp files not.
        return not _counts_in_agent_inbox(rel, parts)
    name = parts[-1]
    return name == _VIM_PROBE_NAME or name.endswith(_TEMP_SUFFIXES) or is_write_temp(name)


def _counts_in_agent_inbox(rel: str, parts: list[str]) -> bool:
    """Whether a hidden path is what Gemini CLI's memory inbox holds that counts: the
    `.inbox` folder, a kind's folder in it, a patch — not a temp file (hidden, or of
    another suffix)."""
    if not is_agent_inbox(rel):
        return False
    name = parts[-1]
    if name == AGENT_INBOX_DIR:
        return True
    if len(parts) > 1 and parts[-2] == AGENT_INBOX_DIR:
        return name in AGENT_INBOX_KINDS
    return name.endswith(".patch") and not name.startswith(".")


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


def changed_paths(
    event: ChangeEvent, watched_root: str, reported_root: str, *, shallow: bool = False
) -> list[str]:
    """The paths an event reports, under `reported_root`, after filtering.

    `watched_root` is the directory the observer watches (as it was scheduled); `reported_root`
    is that directory as the caller spelled it (it may be a symlink to `watched_root`), so paths
    come back in the caller's terms. Directory `modified` events are dropped: they are
    the side effect of a child being created, deleted or moved, which is reported (or
    deliberately ignored, for temp files) on its own. For a move, the source and the
    destination are judged separately: an atomic save (`.a.md.x1.tmp` → `a.md`) reports
    `a.md` only; moving a real file away reports the source. A `shallow` watch (not
    recursive: a folder watched for the entries that come and go in it, as a project's
    `.claude` or `.loki`) reports a hidden entry of its own too.
    """
    if event.event_type not in CONTENT_EVENT_TYPES:
        return []
    if event.is_directory and event.event_type == MODIFIED:
        return []
    candidates = [event.src_path]
    if event.event_type == MOVED and event.dest_path:
        candidates.append(event.dest_path)
    reported: list[str] = []
    for raw in candidates:
        if not raw:
            continue
        rel = relative_to_root(os.fsdecode(raw), watched_root)
        if rel is None:
            continue
        if is_ignored(rel) and not (shallow and _is_hidden_entry(rel)):
            continue
        reported.append(os.path.join(reported_root, rel) if rel else reported_root)
    return reported


def _is_hidden_entry(rel: str) -> bool:
    """Whether `rel` is a hidden entry of the watched folder itself (`.loki`), not a temp
    file's name once its dot is off (`.a.md.x1.tmp`)."""
    return rel.startswith(".") and os.sep not in rel and not is_ignored(rel[1:])


def is_settled(event: ChangeEvent) -> bool:
    """Whether the event leaves its paths as they will stay (`SETTLED_EVENT_TYPES`)."""
    return event.event_type in SETTLED_EVENT_TYPES
