"""The history index of one scope (`index/<key>.jsonl`): every version of its files, one JSON line
each (docs/formats.md §14.2)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from memtab.fs.records import (
    AtLeast,
    Checked,
    Healed,
    KeepUnread,
    OmitNone,
    OrNone,
    Record,
    TrueOnly,
    computed,
)
from memtab.store.actors import actor_name
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.home import Home
from memtab.store.paths import Scope, project_dir_name

Actor = Literal["user", "consolidator", "writer", "agent-tool", "external", "sync"]
ACTORS: tuple[str, ...] = get_args(Actor)
Op = Literal["create", "edit", "delete", "move", "restore", "revert", "seen"]
OPS: tuple[str, ...] = get_args(Op)
_SHA256 = re.compile(r"[0-9a-f]{64}")


def new_version_id(at_ms: int, entropy: bytes = b"") -> str:
    """A unique version id sorting by time: 11 hex digits of ms, 5 random (`entropy`'s if given)."""
    return f"{at_ms:011x}{(entropy or os.urandom(3)).hex()[:5]}"


def scope_key(scope: Scope, *, project_path: str | None, workspace_id: str | None) -> str:
    """The index name of a scope; ValueError when it has none here."""
    if scope is Scope.GLOBAL:
        return "global"
    if scope is Scope.PROJECT and project_path is not None:
        return f"project-{project_dir_name(project_path)}"
    if scope in (Scope.WORKSPACE, Scope.SESSION) and workspace_id is not None:
        return f"{scope.value}-{workspace_id}"
    raise ValueError(f"the {scope.value} scope is not available here")


def _interned(value: Any) -> Any:
    return sys.intern(value) if type(value) is str else value


def _interned_or_none(value: Any) -> str | None:
    return sys.intern(value) if type(value) is str else None


def _shared(value: Any) -> Any:
    return _SHARED.get(value, value) if type(value) is str else value


def _a_sha256(value: str) -> str:
    if not _SHA256.fullmatch(value):
        raise ValueError("not a sha-256 in hex")
    return value


def _sha256_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and _SHA256.fullmatch(value) else None


Name = Annotated[str | None, Healed(_interned_or_none)]
"""An optional name many lines repeat, interned; not a string: none."""


class Version(Record, keep_unknown=True, checked_when_built=False):
    """One recorded state of a file, a line of the index (docs/formats.md §14.2); a line missing a
    required field is none, unknown fields written back. Slotted, interned and built unchecked:
    every version read is kept in memory."""

    id: Annotated[str, AtLeast(1)]
    at: Annotated[int, AtLeast(1)]
    path: Annotated[str, Healed(_interned)]
    actor: Annotated[str, Healed(_shared)]
    op: Annotated[str, Healed(_shared)]
    sha256: Annotated[str, Checked(_a_sha256)]
    size_bytes: Annotated[int, AtLeast(0)]
    deleted: TrueOnly = False
    prev_sha256: Annotated[str | None, Healed(_sha256_or_none)] = None
    run_id: Name = None
    workspace_id: Name = None
    moved_from: Annotated[Name, OmitNone, KeepUnread] = None
    moved_to: Annotated[Name, OmitNone, KeepUnread] = None
    restored_from: Annotated[Name, OmitNone, KeepUnread] = None
    revert_of: Annotated[Name, OmitNone, KeepUnread] = None
    stat: Annotated[OrNone[tuple[int, int]], OmitNone, KeepUnread] = None
    meta: Annotated[OrNone[dict[str, Any]], OmitNone, KeepUnread] = None

    def listed(self) -> VersionListing:
        """The version as the CLI lists it."""
        return VersionListing(**{f.name: getattr(self, f.name) for f in VersionListing.fields()})


class VersionListing(Record, write_only=True):
    """A version as `memtab history --json` lists it (stable: fields added, never renamed)."""

    id: str
    at: int
    actor: str
    actor_name: str = computed(lambda version: actor_name(version.actor))
    run_id: str | None
    size_bytes: int
    sha256: str
    deleted: bool
    path: str
    op: str
    workspace_id: str | None
    moved_from: str | None
    moved_to: str | None
    restored_from: str | None
    revert_of: str | None


def parse_version(raw: dict[str, Any]) -> Version | None:
    """A version from an index line, or None when a required field is wrong."""
    return Version.read(raw)


_SHARED = {value: value for value in (*ACTORS, *OPS)}  # values most lines repeat, kept once


class ScopeHistory:
    """The index of one scope of a home."""

    def __init__(self, home: Home, key: str) -> None:
        self.home = home
        self.key = key
        lock = home.lock_path(f"history-{key}")
        self.file = JsonLinesFile(index_path(home, key), lock, parse_version, own=home.memtab_dir)

    def versions(self) -> list[Version]:
        """Every version, oldest first (the order they were recorded)."""
        return self.file.records()

    def newest_by_path(self) -> dict[str, Version]:
        return {version.path: version for version in self.file.records()}

    def find(self, version_id: str) -> Version | None:
        return next((version for version in self.file.records() if version.id == version_id), None)


def index_path(home: Home, key: str) -> Path:
    return home.history_index_dir / f"{key}.jsonl"


def index_keys(home: Home) -> list[str]:
    """The scopes that have an index in this home."""
    try:
        names = sorted(path.name for path in home.history_index_dir.iterdir())
    except FileNotFoundError:
        return []
    return [name[: -len(".jsonl")] for name in names if name.endswith(".jsonl")]
