"""The writer's scheduling state: `sessions/<ws>/system1-memory-writer-state.json` (docs/formats.md
§10.1), the record `writer.records.WriterState`."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from memtab.fs.sidecar import edit_sidecar, read_sidecar
from memtab.writer.records import WriterState

logger = logging.getLogger(__name__)


def sanitize_state(raw: Any) -> WriterState:
    """The state in any JSON value (the default state for one that is not an object)."""
    return WriterState.read(raw) or WriterState()


def read_state_document(path: Path) -> Any:
    """The file's JSON object; None when it is missing, unreadable or not a JSON object."""
    read = read_sidecar(path)
    if read.problem is not None:
        logger.debug(
            "The writer state %s cannot be used (%s); starting from zero", path, read.problem
        )
        return None
    return read.document if read.exists else None


def load_state(path: Path) -> WriterState:
    """The healed state in `path` (the default state when there is none)."""
    return sanitize_state(read_state_document(path))


def save_state(path: Path, state: WriterState) -> None:
    """Write the state atomically (parent directory created), keeping other fields. No interprocess
    lock: the scheduler keeps this process's writes apart, and the writer lock keeps other Memtab
    processes' writers out of the home."""
    fields = state.to_json()
    with edit_sidecar(path, None) as document:
        for field in type(state).fields():  # absent fields are left out, as mux
            if field.key not in fields:
                document.pop(field.key, None)
        document.update(fields)
