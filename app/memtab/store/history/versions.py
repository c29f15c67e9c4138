"""The history index of one scope: every version of its files, one JSON line each.

A version says what a file held after one change (`sha256`, the content's blob), what
it held before (`prevSha256`), who changed it (`actor`, and the `runId` of a
consolidation or writer run), how (`op`), and from which workspace. A deletion keeps the
deleted content (`deleted: true`, `sha256` = what was deleted) and the file's pins and
usage (`meta`), so a deleted file comes back whole. A move is two versions: the old path
deleted with `movedTo`, the new path with `movedFrom`.

Scopes are keyed `global`, `project-<project dir name>` and `workspace-<id>`: the file
`index/<key>.jsonl` lists virtual paths (`/memories/project/x.md`) of that scope only.
"""

from __future__ import annotations

import re
import secrets
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, get_args

from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.home import Home
from memtab.store.paths import Scope, project_dir_name

Actor = Literal["user", "consolidator", "writer", "agent-tool", "external", "sync"]
ACTORS: tuple[str, ...] = get_args(Actor)
Op = Literal["create", "edit", "delete", "move", "restore", "revert", "seen"]
OPS: tuple[str, ...] = get_args(Op)
_SHA256 = re.compile(r"[0-9a-f]{64}")


def new_version_id(at_ms: int) -> str:
    """A unique version id that sorts by time: 11 hex digits of ms, 5 random ones."""
    return f"{at_ms:011x}{secrets.token_hex(3)[:5]}"


def scope_key(scope: Scope, *, project_path: str | None, workspace_id: str | None) -> str:
    """The index name of a scope (see the module doc); ValueError when it has none."""
    if scope is Scope.GLOBAL:
        return "global"
    if scope is Scope.PROJECT and project_path is not None:
        return f"project-{project_dir_name(project_path)}"
    if scope is Scope.WORKSPACE and workspace_id is not None:
        return f"workspace-{workspace_id}"
    raise ValueError(f"the {scope.value} scope is not available here")


@dataclass(frozen=True, slots=True)
class Version:
    """One recorded state of a file (see the module doc).

    Every version of every index read is kept in memory (`jsonlines` caches them per
    process): so slots, and `raw` holds only what `to_record` would not write back by
    itself (fields Memtab does not know, optional ones it could not read), usually
    nothing (None)."""

    id: str
    at: int
    path: str
    actor: str
    op: str
    sha256: str
    size_bytes: int
    deleted: bool = False
    prev_sha256: str | None = None
    run_id: str | None = None
    workspace_id: str | None = None
    moved_from: str | None = None
    moved_to: str | None = None
    restored_from: str | None = None
    revert_of: str | None = None
    stat: tuple[int, int] | None = None
    meta: dict[str, Any] | None = None
    raw: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def to_record(self) -> dict[str, Any]:
        """The index line (unknown fields of a line read from disk are kept)."""
        data: dict[str, Any] = {
            "id": self.id,
            "at": self.at,
            "path": self.path,
            "actor": self.actor,
            "op": self.op,
            "sha256": self.sha256,
            "sizeBytes": self.size_bytes,
            "deleted": self.deleted,
            "prevSha256": self.prev_sha256,
            "runId": self.run_id,
            "workspaceId": self.workspace_id,
        }
        optional = {
            "movedFrom": self.moved_from,
            "movedTo": self.moved_to,
            "restoredFrom": self.restored_from,
            "revertOf": self.revert_of,
            "stat": list(self.stat) if self.stat is not None else None,
            "meta": self.meta,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        return {**self.raw, **data} if self.raw else data

    def to_json(self) -> dict[str, Any]:
        """The CLI's `--json` shape (a stable contract: fields are added, never renamed)."""
        return {
            "id": self.id,
            "at": self.at,
            "actor": self.actor,
            "runId": self.run_id,
            "sizeBytes": self.size_bytes,
            "sha256": self.sha256,
            "deleted": self.deleted,
            "path": self.path,
            "op": self.op,
            "workspaceId": self.workspace_id,
            "movedFrom": self.moved_from,
            "movedTo": self.moved_to,
            "restoredFrom": self.restored_from,
            "revertOf": self.revert_of,
        }


def _optional_str(value: Any) -> str | None:
    return sys.intern(value) if isinstance(value, str) else None


def parse_version(raw: dict[str, Any]) -> Version | None:
    """A version from an index line, or None when a required field is wrong."""
    vid, at, path, sha = raw.get("id"), raw.get("at"), raw.get("path"), raw.get("sha256")
    actor, op, size = raw.get("actor"), raw.get("op"), raw.get("sizeBytes")
    if not isinstance(vid, str) or not vid or not isinstance(path, str):
        return None
    if isinstance(at, bool) or not isinstance(at, int) or at <= 0:
        return None
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        return None
    if not isinstance(actor, str) or not isinstance(op, str):
        return None
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        return None
    prev = raw.get("prevSha256")
    stat = raw.get("stat")
    meta = raw.get("meta")
    version = Version(
        id=vid,
        at=at,
        path=sys.intern(path),
        actor=_SHARED.get(actor, actor),
        op=_SHARED.get(op, op),
        sha256=sha,
        size_bytes=size,
        deleted=raw.get("deleted") is True,
        prev_sha256=prev if isinstance(prev, str) and _SHA256.fullmatch(prev) else None,
        run_id=_optional_str(raw.get("runId")),
        workspace_id=_optional_str(raw.get("workspaceId")),
        moved_from=_optional_str(raw.get("movedFrom")),
        moved_to=_optional_str(raw.get("movedTo")),
        restored_from=_optional_str(raw.get("restoredFrom")),
        revert_of=_optional_str(raw.get("revertOf")),
        stat=(
            (stat[0], stat[1])
            if isinstance(stat, list)
            and len(stat) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in stat)
            else None
        ),
        meta=meta if isinstance(meta, dict) else None,
    )
    unwritten = _unwritten(raw, version)
    return replace(version, raw=unwritten) if unwritten else version


# What `to_record` always writes, and the optional fields it writes when they hold a value.
_ALWAYS_WRITTEN = frozenset(
    (
        *("id", "at", "path", "actor", "op", "sha256", "sizeBytes", "deleted"),
        *("prevSha256", "runId", "workspaceId"),
    )
)
_OPTIONAL_FIELDS = {
    "movedFrom": "moved_from",
    "movedTo": "moved_to",
    "restoredFrom": "restored_from",
    "revertOf": "revert_of",
    "stat": "stat",
    "meta": "meta",
}
# Values most lines repeat, kept once: an index of thousands of lines holds a few actors
# and ops (paths, runs and workspaces repeat too: `sys.intern`).
_SHARED = {value: value for value in (*ACTORS, *OPS)}


def _unwritten(raw: dict[str, Any], version: Version) -> dict[str, Any]:
    """What of a line `to_record` would not write back: unknown fields, and optional
    ones it did not read (kept as they are). Lines Memtab writes have none."""
    return {
        key: value
        for key, value in raw.items()
        if key not in _ALWAYS_WRITTEN
        and (key not in _OPTIONAL_FIELDS or getattr(version, _OPTIONAL_FIELDS[key]) is None)
    }


class ScopeHistory:
    """The index of one scope of a home."""

    def __init__(self, home: Home, key: str) -> None:
        self.home = home
        self.key = key
        self.file: JsonLinesFile[Version] = JsonLinesFile(
            index_path(home, key), home.lock_path(f"history-{key}"), parse_version
        )

    def versions(self) -> list[Version]:
        """Every version, oldest first (the order they were recorded)."""
        return self.file.records()

    def newest_by_path(self) -> dict[str, Version]:
        newest: dict[str, Version] = {}
        for version in self.file.records():
            newest[version.path] = version
        return newest

    def find(self, version_id: str) -> Version | None:
        for version in self.file.records():
            if version.id == version_id:
                return version
        return None


def index_path(home: Home, key: str) -> Path:
    return home.history_index_dir / f"{key}.jsonl"


def index_keys(home: Home) -> list[str]:
    """The scopes that have an index in this home."""
    try:
        names = sorted(path.name for path in home.history_index_dir.iterdir())
    except FileNotFoundError:
        return []
    return [name[: -len(".jsonl")] for name in names if name.endswith(".jsonl")]
