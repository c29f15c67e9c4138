"""Resolving a file-sync tool's conflict copies (docs/formats.md §18.5): keep this, keep mine, or
merge (memory-meta.json by the sync rules); a memory file's copy then deleted through history, a
sidecar's moved to `memtab/conflict-copies/`."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
from pathlib import Path
from typing import Annotated, Literal

from memtab.fs.atomic import make_directory_durably
from memtab.fs.locking.locks import interprocess_lock
from memtab.fs.records import Key, NotWritten, OmitNone, Record, computed
from memtab.fs.sidecar import read_sidecar
from memtab.store.actors import EXTERNAL
from memtab.store.conflict_copies import (
    ConflictCopy,
    CopyName,
    copy_of,
    find_copies,
    parse_copy_name,
)
from memtab.store.errors import MemoryStoreError, NotFoundError
from memtab.store.history.provenance import log_kept_from
from memtab.store.home import Home
from memtab.store.paths import parse_file_path
from memtab.store.restore.from_history import file_history
from memtab.store.scopes.memory import MemoryStore
from memtab.store.sidecars.meta import MetaEntry, MetaStore, parse_meta_document
from memtab.store.text.line_merge import merge_union
from memtab.store.xum_locks import holding_meta
from memtab.sync.export import merge_record
from memtab.sync.records import MetaRecord

Keep = Literal["this", "mine", "both"]
# The sidecars a file-sync tool may copy, and each one's lock (§14.1).
SIDECAR_LOCKS = {
    "memory-meta.json": "memory-meta",
    "memory-consolidation.json": "memory-consolidation",
    "config.json": "config",
}
MERGEABLE_SIDECAR = "memory-meta.json"


def memory_copies(store: MemoryStore) -> list[ConflictCopy]:
    """The conflict copies in the store's scopes, in listing order."""
    found: list[ConflictCopy] = []
    for listing in store.list_all(read_files=False):
        copies = find_copies(entry.path for entry in listing.files)
        found += [copies[entry.path] for entry in listing.files if entry.path in copies]
    return found


class CopyRow(Record, write_only=True):
    """A conflict copy as `memtab conflicts --json` and doctor list it (docs/formats.md §18.5)."""

    path: str
    conflict_of: str
    tool: str
    when: str | None = None
    by: str | None = None
    kept: Annotated[str | None, OmitNone] = None
    """What `conflicts resolve` kept (this, mine, both, merged); written then only."""
    where: Annotated[str | None, Key("in"), OmitNone] = None
    """The scope folder the doctor found it in (written in the doctor's report only)."""


def copy_row(copy: ConflictCopy) -> CopyRow:
    name, path, original = copy.name, str(copy.path), str(copy.original)
    return CopyRow(path=path, conflict_of=original, tool=name.tool, when=name.when, by=name.by)


class SidecarCopy(Record, write_only=True):
    """A sidecar's conflict copy, and whether it merges by rule (docs/formats.md §18.5)."""

    path: Path
    original: Annotated[Path, Key("conflictOf")]
    name: Annotated[CopyName, NotWritten]
    tool: str = computed(lambda copy: copy.name.tool)
    when: str | None = computed(lambda copy: copy.name.when)
    by: str | None = computed(lambda copy: copy.name.by)
    mergeable: bool = computed(lambda copy: copy.original.name == MERGEABLE_SIDECAR)
    kept: Annotated[str | None, OmitNone] = None
    """What `conflicts resolve` kept (this, mine, both), and where it set the other aside."""
    set_aside: Annotated[Path | None, OmitNone] = None
    where: Annotated[str | None, Key("in"), OmitNone] = None  # `home` in the doctor's report


def sidecar_copies(home: Home) -> list[SidecarCopy]:
    """Conflict copies of the sidecars in the home's top directory."""
    try:
        names = sorted(entry.name for entry in os.scandir(home.root) if entry.is_file())
    except OSError:
        return []
    parsed = [(name, copy) for name in names if (copy := parse_copy_name(name)) is not None]
    return [
        SidecarCopy(path=home.root / name, original=home.root / copy.original, name=copy)
        for name, copy in parsed
        if copy.original in SIDECAR_LOCKS
    ]


def resolve_memory_copy(
    store: MemoryStore, raw_path: str, *, keep: Keep | None = None, merged: bytes | None = None
) -> ConflictCopy:
    """Resolve the conflict copy at `raw_path`; the copy it was. MemoryStoreError when it is none or
    the original changed meanwhile."""
    if (keep is None) == (merged is None):
        raise MemoryStoreError("Say what to keep: this, mine or both, or give the merged text")
    path = parse_file_path(raw_path)
    assert path.scope is not None
    siblings = {
        path.parent.child(name) for name, is_dir in store.entries(path.parent) if not is_dir
    }
    copy = copy_of(path, siblings)
    if copy is None:
        words = "is not a conflict copy of a file beside it (memtab conflicts lists them)"
        raise NotFoundError(f"{path} {words}")
    mine, theirs = store.read_whole(copy.original), store.read_whole(copy.path)
    if mine is None or theirs is None:
        raise NotFoundError(f"{copy.original} or its copy is gone; list the conflicts again")
    chosen = {"this": theirs, "mine": mine, None: merged}.get(keep)
    if keep == "both":
        try:
            chosen = merge_union(mine.decode("utf-8"), theirs.decode("utf-8")).encode("utf-8")
        except UnicodeDecodeError:
            words = "or its copy is not UTF-8 text; keep one of them instead"
            raise MemoryStoreError(f"{copy.original} {words}") from None
    assert chosen is not None
    if chosen != mine:
        with store.collecting_changes() as changes:
            store.restore_content(
                copy.original, chosen, expected_sha256=hashlib.sha256(mine).hexdigest(), op="edit"
            )
        # Who wrote the copy, as history recorded it (another program, unless it knew).
        versions = file_history(store, copy.path)
        writer = versions[0].actor if versions else EXTERNAL
        for change in changes:  # the lines it keeps from the copy are its writer's (§20.1)
            log_kept_from(store.home, change.after, writer, theirs)
    store.delete(copy.path)  # history keeps it: `memtab trash` lists it
    return copy


def resolve_sidecar_copy(home: Home, copy: SidecarCopy, keep: Keep) -> Path:
    """Resolve a sidecar's copy; where what went was put aside."""
    if keep == "both":
        if not copy.mergeable:
            words = "cannot be merged; keep this copy or yours instead"
            raise MemoryStoreError(f"{copy.original.name} {words}")
        _merge_meta_copy(home, copy.path)
        return _set_aside(home, copy.path)
    if keep == "mine":
        return _set_aside(home, copy.path)
    with _sidecar_locks(home, copy.original.name):
        aside = _set_aside(home, copy.original) if copy.original.exists() else None
        os.replace(copy.path, copy.original)
    return aside or copy.original


def _sidecar_locks(home: Home, name: str) -> contextlib.AbstractContextManager[None]:
    """The locks a sidecar is replaced under: Memtab's, and xum's for memory-meta.json
    (docs/formats.md §21.2)."""
    if name == MERGEABLE_SIDECAR:
        return holding_meta(home)
    return interprocess_lock(home.lock_path(SIDECAR_LOCKS[name]))


def _merge_meta_copy(home: Home, path: Path) -> None:
    """Merge a copy of memory-meta.json into it by the sync rules (no common state)."""
    read = read_sidecar(path)
    if read.problem is not None:
        raise MemoryStoreError(f"{path.name} is {read.problem}; keep yours instead")
    theirs = parse_meta_document(read.document)

    def merged_with(other: MetaEntry, current: MetaEntry) -> MetaEntry | None:
        entry = merge_record(
            None, MetaRecord.from_entry(current), MetaRecord.from_entry(other)
        ).to_entry()
        return None if entry.is_default else entry

    MetaStore(home).update_entries(
        {key: functools.partial(merged_with, e) for key, e in theirs.items()}
    )


def _set_aside(home: Home, path: Path) -> Path:
    """Move a file into `<home>/memtab/conflict-copies/` under a name not taken there."""
    folder = home.memtab_dir / "conflict-copies"
    make_directory_durably(folder)
    target, number = folder / path.name, 1
    while target.exists():
        target = folder / f"{path.name}.{number}"
        number += 1
    os.replace(path, target)
    return target
