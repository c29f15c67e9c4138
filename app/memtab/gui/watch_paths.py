"""What a file-system event means for Memtab: pure Python, no Qt, unit-testable.

`memtab.gui.watch` runs a watchdog observer over the memory home and reports changed paths.
This module holds the rules it applies and the vocabulary its consumers use:

- `changed_paths(event, ...)` turns one watchdog event into the paths worth reporting
  (reads, attribute changes, editor/atomic-save temp files and parent-directory noise
  are dropped; both ends of a move count).
- `is_ignored(rel)` is the temp-name rule on a home-relative path.
- `classify_path(path, home)` says what one changed path affects (a scope, the journal,
  a transcript...); `ChangeSummary.from_paths(paths, home)` aggregates a whole batch so a
  view can ask `summary.affects(ChangeKind.PROJECT_SCOPE, dir_name)`.
- `path_affected(path, changed)` tells the open editor whether its file (or a directory
  above it) is among the changed paths.

The home layout it knows is SPEC §1.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import (
    EVENT_TYPE_CLOSED,
    EVENT_TYPE_CREATED,
    EVENT_TYPE_DELETED,
    EVENT_TYPE_MODIFIED,
    EVENT_TYPE_MOVED,
    FileSystemEvent,
)

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
    listing skips those too). The last component is also ignored when it is `4913` or
    ends in `.tmp` or `~`. The home itself (`rel == ""`) is never ignored.
    """
    if not rel:
        return False
    parts = rel.split(os.sep)
    if any(part.startswith(".") for part in parts):
        return True
    name = parts[-1]
    return name == _VIM_PROBE_NAME or name.endswith(_TEMP_SUFFIXES)


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


def path_affected(path: str | Path, changed: Iterable[str]) -> bool:
    """Whether `path` itself, or a directory above it, is among `changed`.

    The open editor calls this with a batch from `HomeWatcher.paths_changed`: a deleted
    or moved parent directory affects the file as much as a write to it.
    """
    target = os.fspath(path)
    return any(relative_to_root(target, candidate) is not None for candidate in changed)


class ChangeKind(enum.StrEnum):
    """What part of the home a changed path belongs to (SPEC §1)."""

    HOME = "home"
    """The home directory itself: everything may have changed."""
    MEMORY_DIR = "memory_dir"
    """`memory/` itself: the global scope and every project scope."""
    GLOBAL_SCOPE = "global_scope"
    """`memory/global/...`."""
    PROJECT_SCOPE = "project_scope"
    """`memory/project/<dirName>/...` (key = dirName); key None for `memory/project`."""
    WORKSPACE_DIR = "workspace_dir"
    """`sessions/<id>` itself (key = id), or `sessions/` (key None): scope, transcript, state."""
    WORKSPACE_SCOPE = "workspace_scope"
    """`sessions/<id>/memory/...` (key = workspace id)."""
    CHAT_TRANSCRIPT = "chat_transcript"
    """`sessions/<id>/chat.jsonl` (key = workspace id)."""
    WRITER_STATE = "writer_state"
    """`sessions/<id>/system1-memory-writer-state.json` (key = workspace id)."""
    WRITER_TRACES = "writer_traces"
    """`debug_obj/<id>[/system1_memory_writer/...]` (key = id); key None for `debug_obj/`."""
    MEMORY_META = "memory_meta"
    """`memory-meta.json` (pins and usage)."""
    CONSOLIDATION_JOURNAL = "consolidation_journal"
    """`memory-consolidation.json`."""
    CONFIG = "config"
    """`config.json` (the project/workspace registry)."""
    EXTENSION_METADATA = "extension_metadata"
    """`extensionMetadata.json` (workspace recency)."""
    OTHER = "other"
    """Anything else, including Memtab's own `memtab/` dir and paths outside the home."""


@dataclass(frozen=True)
class PathImpact:
    """One changed path's meaning: a kind and, for per-item kinds, which item.

    `key` is a project dirName or a workspace id; None means "the kind as a whole" (for
    example `memory/project` itself affects every project scope).
    """

    kind: ChangeKind
    key: str | None = None


_HOME_FILES = {
    "config.json": ChangeKind.CONFIG,
    "memory-meta.json": ChangeKind.MEMORY_META,
    "memory-consolidation.json": ChangeKind.CONSOLIDATION_JOURNAL,
    "extensionMetadata.json": ChangeKind.EXTENSION_METADATA,
}
_WORKSPACE_FILES = {
    "chat.jsonl": ChangeKind.CHAT_TRANSCRIPT,
    "system1-memory-writer-state.json": ChangeKind.WRITER_STATE,
}
_WRITER_TRACE_DIR = "system1_memory_writer"

# A change to a container affects everything inside it.
_CONTAINERS: dict[ChangeKind, tuple[ChangeKind, ...]] = {
    ChangeKind.GLOBAL_SCOPE: (ChangeKind.MEMORY_DIR,),
    ChangeKind.PROJECT_SCOPE: (ChangeKind.MEMORY_DIR,),
    ChangeKind.WORKSPACE_SCOPE: (ChangeKind.WORKSPACE_DIR,),
    ChangeKind.CHAT_TRANSCRIPT: (ChangeKind.WORKSPACE_DIR,),
    ChangeKind.WRITER_STATE: (ChangeKind.WORKSPACE_DIR,),
}


def classify_path(path: str | Path, home: str | Path) -> PathImpact:
    """What a changed absolute `path` affects inside the memory `home` (SPEC §1).

    Pure string work: `path` should be spelled under `home` as `HomeWatcher` reports it.
    """
    rel = relative_to_root(os.fspath(path), os.fspath(home))
    if rel is None:
        return PathImpact(ChangeKind.OTHER)
    if not rel:
        return PathImpact(ChangeKind.HOME)
    parts = rel.split(os.sep)
    top = parts[0]
    if len(parts) == 1 and top in _HOME_FILES:
        return PathImpact(_HOME_FILES[top])
    if top == "memory":
        return _classify_memory(parts[1:])
    if top == "sessions":
        return _classify_session(parts[1:])
    if top == "debug_obj":
        return _classify_debug(parts[1:])
    return PathImpact(ChangeKind.OTHER)


def _classify_memory(parts: list[str]) -> PathImpact:
    if not parts:
        return PathImpact(ChangeKind.MEMORY_DIR)
    if parts[0] == "global":
        return PathImpact(ChangeKind.GLOBAL_SCOPE)
    if parts[0] == "project":
        return PathImpact(ChangeKind.PROJECT_SCOPE, parts[1] if len(parts) > 1 else None)
    return PathImpact(ChangeKind.OTHER)


def _classify_session(parts: list[str]) -> PathImpact:
    if not parts:
        return PathImpact(ChangeKind.WORKSPACE_DIR)
    workspace_id = parts[0]
    if len(parts) == 1:
        return PathImpact(ChangeKind.WORKSPACE_DIR, workspace_id)
    if parts[1] == "memory":
        return PathImpact(ChangeKind.WORKSPACE_SCOPE, workspace_id)
    if len(parts) == 2 and parts[1] in _WORKSPACE_FILES:
        return PathImpact(_WORKSPACE_FILES[parts[1]], workspace_id)
    return PathImpact(ChangeKind.OTHER)


def _classify_debug(parts: list[str]) -> PathImpact:
    if not parts:
        return PathImpact(ChangeKind.WRITER_TRACES)
    if len(parts) == 1 or parts[1] == _WRITER_TRACE_DIR:
        return PathImpact(ChangeKind.WRITER_TRACES, parts[0])
    return PathImpact(ChangeKind.OTHER)


@dataclass(frozen=True)
class ChangeSummary:
    """A batch of changed paths, classified, for "do I need to rescan X?" questions."""

    impacts: frozenset[PathImpact]

    @classmethod
    def from_paths(cls, paths: Iterable[str], home: str | Path) -> ChangeSummary:
        """Classify every path of a `paths_changed` batch against `home`."""
        return cls(frozenset(classify_path(path, home) for path in paths))

    def affects(self, kind: ChangeKind, key: str | None = None) -> bool:
        """Whether the batch may have changed `kind` (for item `key`, or any item if None).

        Containers count: the home affects everything, `memory/` affects every memory
        scope, `sessions/<id>` affects that workspace's scope, transcript and writer state.
        """
        if PathImpact(ChangeKind.HOME) in self.impacts:
            return True
        kinds = (kind, *_CONTAINERS.get(kind, ()))
        return any(
            impact.kind in kinds and (key is None or impact.key is None or impact.key == key)
            for impact in self.impacts
        )

    def keys(self, kind: ChangeKind) -> frozenset[str]:
        """The explicit item keys (dirNames, workspace ids) seen for `kind`."""
        return frozenset(
            impact.key for impact in self.impacts if impact.kind is kind and impact.key is not None
        )
