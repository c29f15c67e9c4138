"""`memory-meta.json`: pins and usage per memory path (docs/formats.md §7).

mux keeps this file cached in memory and may overwrite it; Memtab re-reads it before every
change, under a lock, so two Memtab processes never lose each other's updates. Changes go
through `memtab.fs.sidecar`: a BOM is fine, an unparsable file is kept aside rather than
overwritten, and fields Memtab does not know (a top-level `version`, extra per-entry
fields) are written back untouched — xum's provenance marker `carriesProjectSkillContent`
among them: it stays as it is on every change, moves with its entry, keeps an entry that
holds nothing else, and comes back with a file restored from history (§7).
"""

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
    """The component `escape_key_component` escaped (read left to right, so `%253A` is
    `%3A`)."""
    return _ESCAPED.sub(lambda match: "%" if match[1] == "25" else ":", component)


def global_key(relative: str) -> str:
    return f"global:{escape_key_component(relative)}"


def project_key(project_path: str, relative: str) -> str:
    return f"project:{escape_key_component(project_path)}:{escape_key_component(relative)}"


def workspace_key(workspace_id: str, relative: str) -> str:
    return f"workspace:{escape_key_component(workspace_id)}:{escape_key_component(relative)}"


def session_key(workspace_id: str, relative: str) -> str:
    """The key of a file of xum's session scope: the ACTING workspace's id (§7)."""
    return f"session:{escape_key_component(workspace_id)}:{escape_key_component(relative)}"


def key_in_subtree(key: str, subtree: str) -> bool:
    """True when `key` is `subtree` itself or a path below it."""
    return key == subtree or key.startswith(subtree + "/")


class MetaEntry(Record):
    """Pin and usage of one memory path: an entry of memory-meta.json (docs/formats.md
    §7). Every value heals as mux heals it — pinned only when exactly `true`, a count
    floored (else 0), times finite and positive (else null); an entry that is no object
    is the default one (`sanitize_entry`)."""

    pinned: TrueOnly = False
    access_count: Count = 0
    last_accessed_at: PositiveTime = None
    last_write_at: PositiveTime = None

    @property
    def is_default(self) -> bool:
        """Nothing pinned, counted or timed: mux drops such an entry."""
        return not (self.pinned or self.access_count or self.last_accessed_at or self.last_write_at)


class MetaFile(Record):
    """memory-meta.json (docs/formats.md §7) as Memtab reads it: `entries` by key, an entry
    that is no object dropped, a file whose `entries` is no object empty. What else the
    file holds (a `version`, fields of a newer mux) is kept by every change: changes edit
    the document itself (`fs.sidecar`), never this record."""

    entries: ValidEntries[dict[str, MetaEntry]] = field(default_factory=dict)


_DEFAULT_ENTRY = MetaEntry()
# xum's marker that a file was written with project skill content in context (true), or
# verified clean (false); absent is unknown, which xum reads as carrying it
# (src/node/services/memoryMeta.ts). Memtab never sets it, only keeps it.
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
    if read is None:
        return {}
    return {key: entry for key, entry in read.entries.items() if not entry.is_default}


def _shape_problem(document: dict[str, Any]) -> str | None:
    entries = document.get("entries")
    if entries is None or isinstance(entries, dict):
        return None
    return "its `entries` is not an object"


class _Entries:
    """The raw `entries` object of the file being changed, read and set as MetaEntry.

    Setting an entry rewrites only the four fields Memtab knows: any other field of the
    entry (a newer mux's, a user's) is kept. An entry left with only default values and
    nothing else is dropped, as mux does.
    """

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.raw))

    def get(self, key: str) -> MetaEntry:
        return sanitize_entry(self.raw.get(key))

    def set(self, key: str, entry: MetaEntry) -> None:
        current, known = self.raw.get(key), _known_fields()
        others = (
            {name: value for name, value in current.items() if name not in known}
            if isinstance(current, dict)
            else {}
        )
        if entry.is_default and not others:
            self.raw.pop(key, None)
        else:
            self.raw[key] = {**others, **entry.to_json()}

    def heal(self) -> None:
        """Self-heal every entry as mux does on each write (docs/formats.md §7) — known fields
        sanitized, non-objects and all-default entries dropped — keeping unknown fields."""
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
    """The keys an entry's known fields are written under: made at the first change, not
    as the window's start loads this module (they build the entry's writer)."""
    return frozenset(MetaEntry().to_json())


Counted = Literal["write", "create", "drop"]
"""What a counted change did to a file: wrote it (`WRITE`: one more use, the write time),
created it (`CREATE`), or removed it (`DROP`: its entry forgotten)."""
WRITE: Counted = "write"
CREATE: Counted = "create"
"""A file made where none was: a fresh entry (one use, the write time), never the pins,
usage or provenance of an entry left for no file — one a restore killed between giving a
deleted file's pins back and publishing it leaves (`bulk_restore`), or a file deleted by
hand. A restore that gives pins back on purpose counts no write (`restore_content`)."""
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
        # Re-read under the locks (Memtab's, then xum's) right before writing: mux or
        # another Memtab may have changed the file since we last looked. Every field
        # Memtab does not know stays.
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
        """Several agent reads in one update of the file: one more use per read.
        LockUnavailableError when the file's lock is not had within `lock_timeout_s`."""
        now = self._clock()
        with self._editing(lock_timeout_s) as entries:
            for key in keys:
                entry = entries.get(key)
                entries.set(
                    key, entry.replaced(access_count=entry.access_count + 1, last_accessed_at=now)
                )

    def record_write(self, key: str, *, created: bool = False) -> None:
        """An agent or the editor wrote the file: one more use, and the write time.
        `created`: the file was not there before (see `record_writes`)."""
        self.record_writes([key], created=created)

    def record_writes(self, keys: Iterable[str], *, created: bool = False) -> None:
        """Several writes in one update of the file (a burst's restore: 745 files).
        `created`: files that were not there, each starting a fresh entry (see
        `CREATE`)."""
        self.record_writes_and_drops((key, CREATE if created else WRITE) for key in keys)

    def record_writes_and_drops(self, changes: Iterable[tuple[str, Counted]]) -> None:
        """Writes counted (`WRITE`, `CREATE`) and removed files forgotten (`DROP`, with
        what is under it), in their order, in one update of the file (a burst's restore
        taken back)."""
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
            if pinned:
                entries.set(
                    key,
                    entry.replaced(
                        pinned=True, access_count=entry.access_count + 1, last_accessed_at=now
                    ),
                )
            else:
                entries.set(key, entry.replaced(pinned=False))

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """Every entry as history keeps it with a removed file: pins, usage and xum's
        provenance marker."""
        document = read_sidecar(self._home.meta_path).document
        raw_entries = document.get("entries") if isinstance(document, dict) else None
        if not isinstance(raw_entries, dict):
            return {}
        kept: dict[str, dict[str, Any]] = {}
        for key, raw in raw_entries.items():
            entry, provenance = sanitize_entry(raw), provenance_of(raw)
            if provenance or not entry.is_default:
                kept[key] = {**entry.to_json(), **provenance}
        return kept

    def restore_entry(
        self, key: str, entry: MetaEntry, provenance: Mapping[str, bool] | None = None
    ) -> None:
        """Give a file brought back from history the pins, usage and provenance it had."""
        with self._editing() as entries:
            entries.set(key, entry)
            if provenance:
                current = entries.raw.get(key)
                entries.raw[key] = {**(current if isinstance(current, dict) else {}), **provenance}

    def restore_entries(self, kept: Mapping[str, Any]) -> None:
        """`restore_entry` for several files in one write: each key given the pins, usage
        and provenance history kept of it (`kept`, as a deleted version holds them)."""
        with self._editing() as entries:
            for key, raw in kept.items():
                entries.set(key, sanitize_entry(raw))
                provenance = provenance_of(raw)
                if provenance:
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
        """Change several entries in one write: each key's entry becomes what its function
        makes of the entry as it is now (None: removed). Sync brings other machines' pins
        and usage in this way (re-read under the lock, so nothing counted meanwhile is
        lost). `before_write` is told, under the lock and before the file is written, each
        entry that changes as it is and as it will be: a caller's note of what it is about
        to write (sync's, so a kill between the two is told apart)."""
        with self._editing() as entries:
            changing: dict[str, tuple[MetaEntry, MetaEntry]] = {}
            for key, update in updates.items():
                current = entries.get(key)
                updated = update(current)
                # None forgets pins and usage; xum's marker (any field Memtab does not
                # know) stays with the file.
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
        """Carry pins, usage and provenance to a renamed file or directory (what was left
        at the destination goes first, as xum's renameKeys: a stale marker must not stay
        beside content it does not describe); optionally record a write."""
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
