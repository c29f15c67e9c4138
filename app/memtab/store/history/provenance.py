"""Where the lines a writer added came from: the provenance log (docs/formats.md §20.1), read by
blame by version id."""

from __future__ import annotations

import logging
from typing import Any

from memtab.fs.clock import now_ms
from memtab.store.history.blobs import BlobStore
from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.history.records import KeptFrom, ProvenanceRecord
from memtab.store.history.versions import Version
from memtab.store.home import PROVENANCE_LOCK, Home

logger = logging.getLogger(__name__)


def _parse(raw: dict[str, Any]) -> ProvenanceRecord | None:
    record = ProvenanceRecord.read(raw)
    return record if record is not None and record.usable else None


class ProvenanceLog:
    """The provenance log of one home (`memtab/history/provenance.jsonl`)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        lock = home.lock_path(PROVENANCE_LOCK)
        self.file = JsonLinesFile(home.provenance_log_path, lock, _parse, own=home.memtab_dir)

    def records(self) -> list[ProvenanceRecord]:
        """Every record, oldest first."""
        return self.file.records()

    def by_version(self) -> dict[str, list[ProvenanceRecord]]:
        """Each version id's records, oldest first."""
        found: dict[str, list[ProvenanceRecord]] = {}
        for record in self.file.records():
            for version in record.versions:
                found.setdefault(version, []).append(record)
        return found

    def append(self, record: ProvenanceRecord) -> None:
        """Add a record. Raises OSError or TimeoutError (callers log it)."""
        self.file.append([record.to_json()])


def log_provenance(home: Home, record: ProvenanceRecord) -> None:
    """Append a record; a failure is a warning, never the failure of what it explains."""
    if not record.usable:
        return
    try:
        ProvenanceLog(home).append(record)
    except (OSError, TimeoutError) as error:
        path = record.memory_path
        logger.warning("Could not record where the new lines of %s came from: %s", path, error)


def log_kept_from(
    home: Home, version: Version, actor: str, other_side: bytes, at: int | None = None
) -> None:
    """Record that `version`, a conflict's resolution, kept lines of `other_side` written by
    `actor`; best effort (docs/formats.md §20.1)."""
    try:
        sha = BlobStore(home.history_blobs_dir, own=home.memtab_dir).put(other_side)
    except OSError as error:
        logger.warning("Could not keep the other side of %s's conflict: %s", version.path, error)
        return
    kept = KeptFrom(actor=actor, sha256=sha, at=at)
    record = ProvenanceRecord(
        at=now_ms(),
        kind="conflict-resolution",
        versions=(version.id,),
        workspace_id=version.workspace_id,
        memory_path=version.path,
        kept_from=kept,
    )
    log_provenance(home, record)


def kept_blobs(home: Home) -> set[str]:
    """The history blobs the records refer to (kept by history's prune)."""
    return {r.kept_from.sha256 for r in ProvenanceLog(home).records() if r.kept_from is not None}


def prune_provenance(home: Home, oldest_kept: int) -> int:
    """Drop records older than `oldest_kept` (ms), with the runs of the same age; how many."""
    return ProvenanceLog(home).file.drop(lambda r: r.at < oldest_kept, lambda r: r.to_json())
