"""Sync's records: a target's state, an import's intent, and the repository's pins and usage
(docs/formats.md §18.3, §18.4)."""

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


Text = Annotated[str | None, Healed(lambda text: text if isinstance(text, str) and text else None)]
"""A non-empty string, else None."""


def _by_path(entries: dict[str, T]) -> dict[str, T]:
    return dict(sorted(entries.items()))


class Pending(Record):
    """A file whose live content is not the repository's (docs/formats.md §18.4): a `conflict`
    (`local` here, `remote` in the repository) or an `unapplied` merge, merged again from `base`."""

    kind: PendingKind
    base: Text = None
    local: Text = None  # sha256 of the live content the record was made for (None: no file)
    remote: Text = None  # the blob id the repository holds (None: no file there)
    since: Annotated[int, Lenient(0)] = 0
    remote_commit: Text = None
    reason: Text = None  # why it could not be merged, in words (`both sides changed line 3`)


class SyncState(Record):
    """A target's `state.json` (docs/formats.md §18.4), read leniently."""

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


class MetaRecord(MetaEntry):
    """One file's pins and usage in the repository: memory-meta.json's entry healed alike, and
    `pinChangedAt`."""

    pin_changed_at: Annotated[OrNone[Annotated[int, AtLeast(1)]], OmitNone] = None

    @classmethod
    def before_read(cls, value: Any) -> Any:
        return value if isinstance(value, dict | MetaRecord) else {}

    @classmethod
    def from_entry(cls, entry: MetaEntry, pin_changed_at: int | None = None) -> MetaRecord:
        return cls(**_entry_fields(entry), pin_changed_at=pin_changed_at)

    def to_entry(self) -> MetaEntry:
        return MetaEntry(**_entry_fields(self))


def _entry_fields(entry: MetaEntry) -> dict[str, Any]:
    return {declared.name: getattr(entry, declared.name) for declared in MetaEntry.fields()}


def _objects_only(entries: Any) -> Any:
    if not isinstance(entries, dict):
        return entries
    return {rel: entry for rel, entry in entries.items() if isinstance(entry, dict | MetaRecord)}


_ScopeMeta = Annotated[dict[str, MetaRecord], Healed(_objects_only), WrittenAs(_by_path)]
"""A scope folder's entries by path (declared after `MetaRecord`: read at first use)."""


class RepoFormat(Record):
    """`.memtab/format.json` (docs/formats.md §18.2): the layout's version."""

    format: Literal[1]


class RepoMetaFile(Record):
    """`.memtab/meta/<scope>.json` in the repository: every file's `MetaRecord`."""

    entries: Annotated[dict[str, MetaRecord], Lenient({})] = field(default_factory=dict)


class IntendedFile(Record, checked_when_built=False):
    """A file an import writes (docs/formats.md §18.3): its blob `before` and `after` (None: no
    file); built unchecked."""

    before: str | None = None
    after: str | None = None


class MetaChange(Record):
    """A memory-meta.json entry as an import found it and as it was about to leave it."""

    before: MetaEntry
    after: MetaEntry


class ImportIntent(Record):
    """`import.json` (docs/formats.md §18.3): what an import is about to write, read strictly (else
    worked out from the repository)."""

    version: Literal[1]
    merge: str  # the commit brought in: the branch moves to it once the scopes hold it
    start: str | None  # the branch's commit when the import began (None: the branch had none)
    remote: str | None = None
    files: dict[str, IntendedFile]  # every file the import writes, by repository path
    state: SyncState  # the state the import began from (its conflicts included)
    done: SyncState | None = None
    """The state once every file is written (None: they are being written)."""
    meta: dict[str, MetaChange] = field(default_factory=dict)
    """With `done`: each entry of memory-meta.json the import was about to change, by key."""
