"""Pins and usage across machines, merged by rule (docs/formats.md §18.3): counts added as deltas
since the common state (the larger without one), times the latest, pins a union, renames carrying
them; kept in `.memtab/meta/<scope dir>.json`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.store.sidecars.meta import MetaEntry
from memtab.sync.records import MetaRecord, RepoMetaFile

_DEFAULT = MetaRecord()
_DEFAULT_ENTRY = MetaEntry()
Records = dict[str, MetaRecord]


def parse_records(data: bytes | None) -> Records:
    """A repository meta file's entries (an unreadable one has none: the files stay)."""
    if not data:
        return {}
    try:
        document = parse_json(data)
    except JsonError:
        return {}
    read = RepoMetaFile.read(document)
    entries = read.entries if read is not None else {}
    return {rel: record for rel, record in entries.items() if not record.is_default}


def render_records(records: Mapping[str, MetaRecord]) -> bytes:
    """The meta file's bytes: sorted, so equal entries are equal blobs."""
    document = RepoMetaFile(entries={rel: records[rel] for rel in sorted(records)}).to_json()
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()


def _latest(one: int | None, other: int | None) -> int | None:
    if one is None:
        return other
    return one if other is None else max(one, other)


def export_entries(
    tree: Mapping[str, MetaRecord],
    local: Mapping[str, MetaEntry],
    baseline: Mapping[str, MetaRecord],
    files: Iterable[str],
    now: int,
) -> Records:
    """The repository's entries once this machine's changes since `baseline` are added, for `files`
    only."""
    exported: Records = {}
    for rel in files:
        held = tree.get(rel, _DEFAULT)
        mine = local.get(rel, _DEFAULT_ENTRY)
        before = baseline.get(rel, _DEFAULT)
        count = max(0, held.access_count + mine.access_count - before.access_count)
        accessed = _latest(held.last_accessed_at, mine.last_accessed_at)
        written = _latest(held.last_write_at, mine.last_write_at)
        record = held
        # Most files changed nothing: their record is the repository's as it is.
        if (count, accessed, written) != (
            held.access_count,
            held.last_accessed_at,
            held.last_write_at,
        ):
            record = held.replaced(
                access_count=count, last_accessed_at=accessed, last_write_at=written
            )
        if mine.pinned != before.pinned:
            record = record.replaced(pinned=mine.pinned, pin_changed_at=now)
        if not record.is_default:
            exported[rel] = record
    return exported


def follow_renames(records: Mapping[str, MetaRecord], renames: Mapping[str, str]) -> Records:
    """`records` with a moved file's entry at its new path, so the other side's changes under the
    old name merge in."""
    moved = dict(records)
    for old, new in renames.items():
        if old in moved and new not in moved:
            moved[new] = moved.pop(old)
    return moved


def merge_records(
    base: Mapping[str, MetaRecord] | None,
    ours: Mapping[str, MetaRecord],
    theirs: Mapping[str, MetaRecord],
    files: Iterable[str],
) -> Records:
    """The entries of the merged `files`; `base` None: no common state."""
    merged: Records = {}
    for rel in files:
        one, other = ours.get(rel, _DEFAULT), theirs.get(rel, _DEFAULT)
        before = None if base is None else base.get(rel, _DEFAULT)
        record = merge_record(before, one, other)
        if not record.is_default:
            merged[rel] = record
    return merged


def merge_record(base: MetaRecord | None, ours: MetaRecord, theirs: MetaRecord) -> MetaRecord:
    """One file's entry from two sides (and their common state, when known)."""
    if base is None:
        count = max(ours.access_count, theirs.access_count)
    else:
        count = max(0, ours.access_count + theirs.access_count - base.access_count)
    pinned, changed_at = _merged_pin(base, ours, theirs)
    return MetaRecord(
        pinned=pinned,
        pin_changed_at=changed_at,
        access_count=count,
        last_accessed_at=_latest(ours.last_accessed_at, theirs.last_accessed_at),
        last_write_at=_latest(ours.last_write_at, theirs.last_write_at),
    )


def _merged_pin(
    base: MetaRecord | None, ours: MetaRecord, theirs: MetaRecord
) -> tuple[bool, int | None]:
    if ours.pinned == theirs.pinned:
        return ours.pinned, _latest(ours.pin_changed_at, theirs.pin_changed_at)
    if base is not None and ours.pinned == base.pinned:
        return theirs.pinned, theirs.pin_changed_at  # only theirs changed it
    if base is not None and theirs.pinned == base.pinned:
        return ours.pinned, ours.pin_changed_at
    pinned, unpinned = (ours, theirs) if ours.pinned else (theirs, ours)
    if unpinned.pin_changed_at is not None and (
        pinned.pin_changed_at is None or unpinned.pin_changed_at > pinned.pin_changed_at
    ):
        return False, unpinned.pin_changed_at
    return True, pinned.pin_changed_at


def import_entry(current: MetaEntry, exported: MetaEntry, merged: MetaRecord) -> MetaEntry:
    """This machine's entry once the merge comes back: what others added, added to `current`."""
    pinned = merged.pinned if current.pinned == exported.pinned else current.pinned
    return MetaEntry(
        pinned=pinned,
        access_count=max(0, current.access_count + merged.access_count - exported.access_count),
        last_accessed_at=_latest(current.last_accessed_at, merged.last_accessed_at),
        last_write_at=_latest(current.last_write_at, merged.last_write_at),
    )
