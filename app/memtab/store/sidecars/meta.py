"""`memory-meta.json`: pins and usage per memory path (docs/formats.md §7), reread under the lock
before every change through `fs.sidecar`, keeping every field Memtab does not know (xum's
`carriesProjectSkillContent` too)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal

from memtab.fs.clock import Clock, now_ms
from memtab.fs.lazy_re import LazyPattern
from memtab.fs.locking.locks import DEFAULT_TIMEOUT_S
from memtab.fs.records import Count, PositiveTime, Record, TrueOnly, ValidEntries, field
from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.store.home import Home
from memtab.store.xum_locks import holding_meta

_ESCAPED = LazyPattern(r"%(25|3A)")


def escape_key_component(component: str) -> str:
    """Escape one key component: `%` → `%25`, then `:` → `%3A` (`/` stays literal)."""
    return component.replace("%", "%25").replace(":", "%3A")


def unescape_key_component(component: str) -> str:
    """The component `escape_key_component` escaped."""
    return _ESCAPED.sub(lambda match: "%" if match[1] == "25" else ":", component)


def global_key(relative: str) -> str:
    return f"global:{escape_key_component(relative)}"


def _scoped_key(scope: str, owner: str, relative: str) -> str:
    return f"{scope}:{escape_key_component(owner)}:{escape_key_component(relative)}"


project_key = functools.partial(_scoped_key, "project")
workspace_key = functools.partial(_scoped_key, "workspace")
session_key = functools.partial(_scoped_key, "session")
"""The key of a file of xum's session scope: the ACTING workspace's id (§7)."""


def key_in_subtree(key: str, subtree: str) -> bool:
    """True when `key` is `subtree` itself or a path below it."""
    return key == subtree or key.startswith(subtree + "/")


class MetaEntry(Record):
    """Pin and usage of one memory path (docs/formats.md §7), every value healed as mux heals it."""

    pinned: TrueOnly = False
    access_count: Count = 0
    last_accessed_at: PositiveTime = None
    last_write_at: PositiveTime = None

    @property
    def is_default(self) -> bool:
        """Nothing pinned, counted or timed: mux drops such an entry."""
        return not (self.pinned or self.access_count or self.last_accessed_at or self.last_write_at)


class MetaFile(Record):
    """memory-meta.json as read (docs/formats.md §7); changes edit the document, not this."""

    entries: ValidEntries[dict[str, MetaEntry]] = field(default_factory=dict)


_DEFAULT_ENTRY = MetaEntry()
# xum's marker: written with project skill content in context (true) or verified clean (false);
# Memtab only keeps it.
PROVENANCE_FIELD = "carriesProjectSkillContent"


def provenance_of(raw: Any) -> dict[str, bool]:
    """An entry's provenance marker as xum keeps it (a boolean), else nothing."""
    value = raw.get(PROVENANCE_FIELD) if isinstance(raw, dict) else None
    return {PROVENANCE_FIELD: value} if isinstance(value, bool) else {}


def sanitize_entry(raw: Any) -> MetaEntry:
    """One entry healed per docs/formats.md §7 (`MetaEntry`; no object: the default)."""
    return MetaEntry.read(raw) or _DEFAULT_ENTRY


def parse_meta_document(document: Any) -> dict[str, MetaEntry]:
    """All non-default entries of a parsed meta file; anything malformed heals to empty."""
    read = MetaFile.read(document)
    entries = read.entries if read is not None else {}
    return {key: entry for key, entry in entries.items() if not entry.is_default}


def _shape_problem(document: dict[str, Any]) -> str | None:
    entries = document.get("entries")
    return (
        None if entries is None or isinstance(entries, dict) else "its `entries` is not an object"
    )


class _Entries:
    """The raw `entries` of the file being changed, read and set as MetaEntry: only the known fields
    rewritten, an all-default entry dropped (as mux)."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.raw))

    def get(self, key: str) -> MetaEntry:
        return sanitize_entry(self.raw.get(key))

    def set(self, key: str, entry: MetaEntry) -> None:
        current, known = self.raw.get(key), _known_fields()
        current = current if isinstance(current, dict) else {}
        others = {name: value for name, value in current.items() if name not in known}
        if entry.is_default and not others:
            self.raw.pop(key, None)
        else:
            self.raw[key] = {**others, **entry.to_json()}

    def heal(self) -> None:
        """Heal every entry as mux does on each write (docs/formats.md §7), unknown fields kept."""
        for key in self:
            raw = self.raw[key]
            if isinstance(raw, dict):
                self.set(key, sanitize_entry(raw))
            else:
                del self.raw[key]

    def pop_subtree(self, subtree_key: str) -> dict[str, Any]:
        """Remove and return the raw entries of `subtree_key` and every key below it."""
        return {key: self.raw.pop(key) for key in self if key_in_subtree(key, subtree_key)}


@functools.cache
def _known_fields() -> frozenset[str]:
    """The keys of an entry's known fields, made at the first change."""
    return frozenset(MetaEntry().to_json())


Counted = Literal["write", "create", "drop"]
"""What a counted change did to a file: wrote, created, or removed it."""
WRITE: Counted = "write"
CREATE: Counted = "create"
"""A file made where none was: a fresh entry, never the pins of one left for no file."""
DROP: Counted = "drop"


class MetaStore:
    """Reads and updates `memory-meta.json` of one home."""

    def __init__(self, home: Home, clock: Clock = now_ms) -> None:
        self._home = home
        self._clock = clock

    def load(self) -> dict[str, MetaEntry]:
        """Every entry, self-healed; a missing or unusable file is empty."""
        return parse_meta_document(read_sidecar(self._home.meta_path).document)

    @contextmanager
    def _editing(self, lock_timeout_s: float = DEFAULT_TIMEOUT_S) -> Iterator[_Entries]:
        # Reread under the locks (Memtab's, then xum's) right before writing.
        with (
            holding_meta(self._home, timeout_s=lock_timeout_s),
            edit_sidecar(self._home.meta_path, None, shape_problem=_shape_problem) as document,
        ):
            entries = document.get("entries")
            if not isinstance(entries, dict):
                entries = document["entries"] = {}
            editing = _Entries(entries)
            yield editing
            editing.heal()

    def record_read(self, key: str) -> None:
        """An agent read the file: one more use."""
        self.record_reads([key])

    def record_reads(
        self, keys: Iterable[str], *, lock_timeout_s: float = DEFAULT_TIMEOUT_S
    ) -> None:
        """Several agent reads in one update; LockUnavailableError past `lock_timeout_s`."""
        now = self._clock()
        with self._editing(lock_timeout_s) as entries:
            for key in keys:
                entry = entries.get(key)
                entries.set(
                    key, entry.replaced(access_count=entry.access_count + 1, last_accessed_at=now)
                )

    def record_write(self, key: str, *, created: bool = False) -> None:
        """An agent or the editor wrote the file: one more use, and the write time."""
        self.record_writes([key], created=created)

    def record_writes(self, keys: Iterable[str], *, created: bool = False) -> None:
        """Several writes in one update; `created`: each a fresh entry."""
        self.record_writes_and_drops((key, CREATE if created else WRITE) for key in keys)

    def record_writes_and_drops(self, changes: Iterable[tuple[str, Counted]]) -> None:
        """Count writes and forget removed files (and all below them), in order, in one update."""
        now = self._clock()
        with self._editing() as entries:
            for key, counted in changes:
                if counted == DROP:
                    entries.pop_subtree(key)
                    continue
                if counted == CREATE:  # what is there is no entry of this file's
                    entries.raw.pop(key, None)
                entries.set(key, _written(entries.get(key), now))

    def set_pinned(self, key: str, pinned: bool) -> None:
        """Pin (counts as one use) or unpin (keeps the usage stats)."""
        now = self._clock()
        with self._editing() as entries:
            entry = entries.get(key)
            used = {"access_count": entry.access_count + 1, "last_accessed_at": now}
            entries.set(key, entry.replaced(pinned=pinned, **(used if pinned else {})))

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Every entry as history keeps it with a removed file."""
        document = read_sidecar(self._home.meta_path).document
        raw_entries = document.get("entries") if isinstance(document, dict) else None
        if not isinstance(raw_entries, dict):
            return {}
        read = ((key, sanitize_entry(raw), provenance_of(raw)) for key, raw in raw_entries.items())
        return {key: {**e.to_json(), **kept} for key, e, kept in read if kept or not e.is_default}

    def restore_entries(self, kept: Mapping[str, Any]) -> None:
        """Give several keys the pins, usage and provenance history kept, in one write."""
        with self._editing() as entries:
            for key, raw in kept.items():
                entries.set(key, sanitize_entry(raw))
                if provenance := provenance_of(raw):
                    current = entries.raw.get(key)
                    entries.raw[key] = {
                        **(current if isinstance(current, dict) else {}),
                        **provenance,
                    }

    def update_entries(
        self,
        updates: Mapping[str, Callable[[MetaEntry], MetaEntry | None]],
        *,
        before_write: Callable[[dict[str, tuple[MetaEntry, MetaEntry]]], None] | None = None,
    ) -> None:
        """Change several entries in one write: each becomes what its function makes of it now
        (None: removed). `before_write` is told each change under the lock, before the write."""
        with self._editing() as entries:
            changing: dict[str, tuple[MetaEntry, MetaEntry]] = {}
            for key, update in updates.items():
                current = entries.get(key)
                updated = update(current)
                # None forgets pins and usage; xum's marker stays with the file.
                entries.set(key, _DEFAULT_ENTRY if updated is None else updated)
                if entries.get(key) != current:
                    changing[key] = (current, entries.get(key))
            if before_write is not None:
                before_write(changing)

    def drop_subtree(self, subtree_key: str) -> None:
        """Forget pins and usage of a deleted file or directory."""
        self.drop_subtrees([subtree_key])

    def drop_subtrees(self, subtree_keys: Iterable[str]) -> None:
        """Forget pins and usage of several deleted files or directories (one write)."""
        with self._editing() as entries:
            for subtree_key in subtree_keys:
                entries.pop_subtree(subtree_key)

    def move_subtree(self, old_key: str, new_key: str, *, record_write: bool) -> None:
        """Carry pins, usage and provenance to a renamed file or directory, replacing what was at
        the destination (as xum's renameKeys); optionally record a write."""
        now = self._clock()
        with self._editing() as entries:
            moved = entries.pop_subtree(old_key)
            entries.pop_subtree(new_key)
            for key, raw in moved.items():
                entries.raw[new_key + key[len(old_key) :]] = raw
            if record_write:
                entries.set(new_key, _written(entries.get(new_key), now))


def _written(entry: MetaEntry, now: int) -> MetaEntry:
    return entry.replaced(
        access_count=entry.access_count + 1, last_accessed_at=now, last_write_at=now
    )
