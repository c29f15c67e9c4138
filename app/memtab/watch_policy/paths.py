"""What counts as a change, one rule for the window and `memtab watch` (docs/formats.md §14.5): no
reads, temps, hidden paths or parent noise; read through `ChangeEvent`'s attributes, so no watchdog
import."""

from __future__ import annotations

import os
from typing import Protocol

from memtab.fs.atomic import is_write_temp
from memtab.store.home import AGENT_INBOX_DIR, AGENT_INBOX_KINDS, is_agent_inbox, is_sync_repository

# watchdog's event types, plain strings.
CREATED = "created"
DELETED = "deleted"
MODIFIED = "modified"
MOVED = "moved"
CLOSED = "closed"

CONTENT_EVENT_TYPES = frozenset({CREATED, DELETED, MODIFIED, MOVED, CLOSED})
"""Only these change what is on disk (reading a file must never trigger a reload)."""

SETTLED_EVENT_TYPES = frozenset({MOVED, CLOSED, DELETED})
"""Events after which the path is as it will stay: a rename onto it, a write's close, a deletion."""

# Vim probes a directory by creating and deleting a file named 4913.
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
    """Whether a path relative to the watched directory is hidden (Gemini CLI's memory inbox aside),
    an editor or atomic-save temp, or in a sync repository; the directory itself never."""
    if not rel:
        return False
    if is_sync_repository(rel):
        return True
    parts = rel.split(os.sep)
    if any(part.startswith(".") for part in parts):
        # Gemini CLI's memory inbox is a hidden folder the Inbox follows.
        return not _counts_in_agent_inbox(rel, parts)
    name = parts[-1]
    return name == _VIM_PROBE_NAME or name.endswith(_TEMP_SUFFIXES) or is_write_temp(name)


def _counts_in_agent_inbox(rel: str, parts: list[str]) -> bool:
    """Whether a hidden path is what Gemini CLI's memory inbox holds that counts."""
    if not is_agent_inbox(rel):
        return False
    name = parts[-1]
    if name == AGENT_INBOX_DIR:
        return True
    if len(parts) > 1 and parts[-2] == AGENT_INBOX_DIR:
        return name in AGENT_INBOX_KINDS
    return name.endswith(".patch") and not name.startswith(".")


def relative_to_root(path: str, root: str) -> str | None:
    """`path` relative to `root` (`""` for the root), or None when outside; no file-system
    access."""
    if path == root:
        return ""
    prefix = root if root.endswith(os.sep) else root + os.sep
    if path.startswith(prefix):
        return path[len(prefix) :]
    return None


def changed_paths(
    event: ChangeEvent, watched_root: str, reported_root: str, *, shallow: bool = False
) -> list[str]:
    """The paths an event reports under `reported_root` after filtering: directory `modified`
    dropped, a move's ends judged apart, a `shallow` watch's hidden entries kept."""
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
    """Whether `rel` is a hidden entry of the watched folder itself, not a temp's name."""
    return rel.startswith(".") and os.sep not in rel and not is_ignored(rel[1:])


def is_settled(event: ChangeEvent) -> bool:
    """Whether the event leaves its paths as they will stay (`SETTLED_EVENT_TYPES`)."""
    return event.event_type in SETTLED_EVENT_TYPES
