"""Sync's records (`memtab.fs.records`): a target's state and the repository's
pins and usage (docs/formats.md §18.3, §18.4).

- `SyncState` (with its `Pending` files): `<home>/memtab/sync/<target>/state.json`.
- `ImportIntent` (with its `IntendedFile`s and `MetaChange`s): `<home>/memtab/sync/<target>/
  import.json`, what an import is about to write, while it writes (§18.3).
- `MetaRecord`: one file's pins and usage in the repository's `.memtab/meta/<scope>.json`
  (`{"entries": {path: MetaRecord}}`, `meta_merge.parse_records`/`render_records`): the
  entry of memory-meta.json (§7: a `MetaEntry`, `store.sidecars.meta`, healed alike) plus
  `pinChangedAt`.

The sync machine (engine, export, merges) imports them with its modules: a window that
syncs does so on a worker thread. `sync.state` loads them with the first state read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from memtab.fs.records import (
    AtLeast,
    Healed,
    Lenient,
    OmitNone,
    OrNone,
    Record,
    ValidEntries,
    WrittenAs,
    field,
)
from memtab.store.sidecars.meta import MetaEntry

T = TypeVar("T")
PendingKind = Literal["conflict", "unapplied"]
STATE_VERSION = 1
INTENT_VERSION: Literal[1] = 1


def _non_empty(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


Text = Annotated[str | None, Healed(_non_empty)]
"""A non-empty string, else None."""


def _by_path(entries: dict[str, T]) -> dict[str, T]:
    return dict(sorted(entries.items()))


class Pending(Record):
    """A file whose live content is not the repository's (docs/formats.md §18.4): a
    `conflict` keeps this machine's text in the file (`local`, a sha256) and the other
    side's in the repository (`remote`, a blob id); an `unapplied` merge could not be
    written and is merged again from `base`."""

    kind: PendingKind
    base: Text = None
    local: Text = None
    """sha256 of the live content the record was made for (None: no file)."""
    remote: Text = None
    """The blob id the repository holds (None: no file there)."""
    since: Annotated[int, Lenient(0)] = 0
    remote_commit: Text = None
    reason: Text = None
    """Why it could not be merged, in words (`both sides changed line 3`)."""


class SyncState(Record):
    """A target's state, `<home>/memtab/sync/<target>/state.json` (docs/formats.md §18.4):
    where the last sync left off and what waits for the user. Read leniently: a bad
    pending file, meta entry or history time is dropped, a bad value reads as absent."""

    version: Annotated[int, Healed(lambda _: STATE_VERSION)] = STATE_VERSION
    head: Text = None
    pending: Annotated[ValidEntries[dict[str, Pending]], WrittenAs(_by_path)] = field(
        default_factory=dict
    )
    """Written sorted by path."""
    meta: ValidEntries[dict[str, _ScopeMeta]] = field(default_factory=dict)
    history_at: ValidEntries[dict[str, int]] = field(default_factory=dict)
    last_sync_at: OrNone[int] = None
    last_attempt_at: OrNone[int] = None
    offline_since: OrNone[int] = None
    last_error: OrNone[str] = None
    unpushed: Annotated[int, Lenient(0)] = 0
    """Commits made here that no push has taken yet (what the next push sends)."""

    @property
    def conflicts(self) -> dict[str, Pending]:
        return {path: p for path, p in self.pending.items() if p.kind == "conflict"}

    def with_changes(self, **changes: Any) -> SyncState:
        return self.replaced(**changes)


class MetaRecord(MetaEntry):
    """One file's pins and usage as the repository keeps them (see the module doc): the
    entry of memory-meta.json, healed alike (`MetaEntry`), and `pinChangedAt`, a positive
    integer; a value that is no object is the default entry."""

    pin_changed_at: Annotated[OrNone[Annotated[int, AtLeast(1)]], OmitNone] = None

    @classmethod
    def before_read(cls, value: Any) -> Any:
        return value if isinstance(value, dict | MetaRecord) else {}

    @classmethod
    def from_entry(cls, entry: MetaEntry, pin_changed_at: int | None = None) -> MetaRecord:
        return cls(
            pinned=entry.pinned,
            pin_changed_at=pin_changed_at,
            access_count=entry.access_count,
            last_accessed_at=entry.last_accessed_at,
            last_write_at=entry.last_write_at,
        )

    def to_entry(self) -> MetaEntry:
        return MetaEntry(
            pinned=self.pinned,
            access_count=self.access_count,
            last_accessed_at=self.last_accessed_at,
            last_write_at=self.last_write_at,
        )


def _objects_only(entries: Any) -> Any:
    if not isinstance(entries, dict):
        return entries
    return {rel: entry for rel, entry in entries.items() if isinstance(entry, dict | MetaRecord)}


_ScopeMeta = Annotated[dict[str, MetaRecord], Healed(_objects_only), WrittenAs(_by_path)]
"""A scope folder's entries in `meta` (SyncState's), by path; an entry that is no object is
dropped. (Declared after `MetaRecord`: SyncState's fields are resolved at its first read.)"""


class RepoFormat(Record):
    """`.memtab/format.json` in the repository (docs/formats.md §18.2): the version of the
    repository's layout."""

    format: Literal[1]


class RepoMetaFile(Record):
    """`.memtab/meta/<scope>.json` in the repository: every file's `MetaRecord`."""

    entries: Annotated[dict[str, MetaRecord], Lenient({})] = field(default_factory=dict)


class IntendedFile(Record, checked_when_built=False):
    """A file an import writes (docs/formats.md §18.3): the blob it held when the merge was
    made (`before`) and the blob the import leaves (`after`); None: no file. Built by the
    thousand from the repository's own ids, unchecked (read from the file, checked)."""

    before: str | None = None
    after: str | None = None


class MetaChange(Record):
    """A memory-meta.json entry as an import found it and as it was about to leave it."""

    before: MetaEntry
    after: MetaEntry


class ImportIntent(Record):
    """`<home>/memtab/sync/<target>/import.json` (docs/formats.md §18.3): what an import is
    about to write, written before its first file and gone once the state says it is done.
    Read strictly: a field that does not read makes the whole intent unreadable (the next
    sync then works the import out from the repository)."""

    version: Literal[1]
    merge: str
    """The commit brought in: the branch moves to it once the scopes hold it."""
    start: str | None
    """The branch's commit when the import began (None: the branch had none)."""
    remote: str | None = None
    files: dict[str, IntendedFile]
    """Every file the import writes, by repository path."""
    state: SyncState
    """The state the import began from (its conflicts included)."""
    done: SyncState | None = None
    """The state once every file is written (None: they are being written)."""
    meta: dict[str, MetaChange] = field(default_factory=dict)
    """With `done`: each entry of memory-meta.json the import was about to change, by key."""
