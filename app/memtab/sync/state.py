"""A target's sync state: where it left off, and what waits for the user.

`<home>/memtab/sync/<target>/state.json` (docs/formats.md §18.4), written atomically by
the sync holding the target's lock:

- `head`: the commit this home's scopes were last reconciled with. A file whose content
  differs from its blob in `head` was changed here since (unless it is pending).
- `pending`: files whose live content is not `head`'s, by repository path. `conflict`: a
  same-line change, where the file keeps this machine's text (`local`, a sha256) and the
  repository the other side's (`remote`, a blob id) until the user decides; `base` is
  their common ancestor (a blob id, or null when both created the file). `unapplied`: a
  merge result that could not be written because the file changed meanwhile; `base` is
  what the file held when the merge was made, and the next sync merges again from it.
- `meta`: pins and usage as last reconciled, by scope folder, in the repository's form:
  what this machine's memory-meta.json adds to them is what it changed since.
- `historyAt`: per history index, the time of the newest version already exported.
- `lastSyncAt`, `lastAttemptAt`, `offlineSince`, `lastError`: how the last syncs went;
  `unpushed`: commits made here that no push has taken yet.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from memtab.fs.atomic import atomic_write_json, make_directory_durably
from memtab.fs.sidecar import keep_aside, read_sidecar

logger = logging.getLogger(__name__)

PendingKind = Literal["conflict", "unapplied"]


@dataclass(frozen=True)
class Pending:
    """A file whose live content is not the repository's (see the module doc)."""

    kind: PendingKind
    base: str | None
    local: str | None
    """sha256 of the live content the record was made for (None: no file)."""
    remote: str | None = None
    """The blob id the repository holds (None: no file there)."""
    since: int = 0
    remote_commit: str | None = None
    reason: str | None = None
    """Why it could not be merged, in words (`both sides changed line 3`)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "base": self.base,
            "local": self.local,
            "remote": self.remote,
            "since": self.since,
            "remoteCommit": self.remote_commit,
            "reason": self.reason,
        }


def _pending_from_json(raw: Any) -> Pending | None:
    if not isinstance(raw, dict) or raw.get("kind") not in ("conflict", "unapplied"):
        return None

    def text(name: str) -> str | None:
        value = raw.get(name)
        return value if isinstance(value, str) and value else None

    since = raw.get("since")
    return Pending(
        raw["kind"],
        text("base"),
        text("local"),
        text("remote"),
        since if isinstance(since, int) and not isinstance(since, bool) else 0,
        text("remoteCommit"),
        text("reason"),
    )


@dataclass(frozen=True)
class SyncState:
    head: str | None = None
    pending: dict[str, Pending] = field(default_factory=dict)
    meta: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    history_at: dict[str, int] = field(default_factory=dict)
    last_sync_at: int | None = None
    last_attempt_at: int | None = None
    offline_since: int | None = None
    last_error: str | None = None
    unpushed: int = 0
    """Commits made here that no push has taken yet (what the next push sends)."""

    @property
    def conflicts(self) -> dict[str, Pending]:
        return {path: p for path, p in self.pending.items() if p.kind == "conflict"}

    def with_changes(self, **changes: Any) -> SyncState:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "head": self.head,
            "pending": {path: p.to_json() for path, p in sorted(self.pending.items())},
            "meta": self.meta,
            "historyAt": self.history_at,
            "lastSyncAt": self.last_sync_at,
            "lastAttemptAt": self.last_attempt_at,
            "offlineSince": self.offline_since,
            "lastError": self.last_error,
            "unpushed": self.unpushed,
        }


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def load_state(path: Path) -> SyncState:
    """The state in `path`; an empty one when missing. A file that cannot be parsed is
    kept aside (docs/formats.md §16) and the sync starts over from the repository."""
    read = read_sidecar(path)
    if read.problem is not None:
        if read.raw is not None:
            keep_aside(path, read.raw, read.problem)  # says so (a warning, the listeners)
            logger.info("The sync of %s starts over from its repository", path.parent.name)
        return SyncState()
    document = read.document
    raw_pending = document.get("pending")
    pending = {
        path: parsed
        for path, raw in (raw_pending.items() if isinstance(raw_pending, dict) else [])
        if isinstance(path, str) and (parsed := _pending_from_json(raw)) is not None
    }
    raw_meta = document.get("meta")
    meta = {
        prefix: {rel: entry for rel, entry in entries.items() if isinstance(entry, dict)}
        for prefix, entries in (raw_meta.items() if isinstance(raw_meta, dict) else [])
        if isinstance(entries, dict)
    }
    raw_history = document.get("historyAt")
    history_at = {
        key: value
        for key, value in (raw_history.items() if isinstance(raw_history, dict) else [])
        if isinstance(value, int) and not isinstance(value, bool)
    }
    head = document.get("head")
    error = document.get("lastError")
    return SyncState(
        head=head if isinstance(head, str) and head else None,
        pending=pending,
        meta=meta,
        history_at=history_at,
        last_sync_at=_int_or_none(document.get("lastSyncAt")),
        last_attempt_at=_int_or_none(document.get("lastAttemptAt")),
        offline_since=_int_or_none(document.get("offlineSince")),
        last_error=error if isinstance(error, str) else None,
        unpushed=_int_or_none(document.get("unpushed")) or 0,
    )


def save_state(path: Path, state: SyncState) -> None:
    make_directory_durably(path.parent)
    atomic_write_json(path, state.to_json())
