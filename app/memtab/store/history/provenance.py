"""Where the lines a writer added came from: the provenance log (docs/formats.md §20.1).

History says who made a change (`actor`, `runId`); it cannot say what the writer read to
write it. So when a writer run writes memory, and when the user accepts the offline
writer's suggestions, Memtab appends one record (`records.ProvenanceRecord`) to
`memtab/history/provenance.jsonl`: the history versions it explains, and for each note
the line as written and the transcript messages it was drawn from (the offline writer
knows them note by note), or for a model's run the window of the transcript the model was
shown and the run's trace dump. Blame (`memtab.blame`) reads it by version id.

The records are pydantic (`history.records`): import this module where a record is
written or read, never on the way to the window's first paint.
"""

from __future__ import annotations

import logging
from typing import Any

from memtab.store.history.jsonlines import JsonLinesFile
from memtab.store.history.records import ProvenanceRecord
from memtab.store.home import PROVENANCE_LOCK, Home

logger = logging.getLogger(__name__)


def _parse(raw: dict[str, Any]) -> ProvenanceRecord | None:
    record = ProvenanceRecord.read(raw)
    return record if record is not None and record.usable else None


class ProvenanceLog:
    """The provenance log of one home (`memtab/history/provenance.jsonl`)."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self.file: JsonLinesFile[ProvenanceRecord] = JsonLinesFile(
            home.provenance_log_path, home.lock_path(PROVENANCE_LOCK), _parse
        )

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
        logger.warning(
            "Could not record where the new lines of %s came from: %s", record.memory_path, error
        )


def prune_provenance(home: Home, oldest_kept: int) -> int:
    """Drop records older than `oldest_kept` (ms), with the runs of the same age; how many."""
    return ProvenanceLog(home).file.drop(
        lambda record: record.at < oldest_kept, lambda record: record.to_json()
    )
