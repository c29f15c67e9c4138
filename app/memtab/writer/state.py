"""The writer's scheduling state: `sessions/<ws>/system1-memory-writer-state.json`
(docs/formats.md §10.1).

mux owns the same file when its own writer runs, so the shape is exactly mux's:
`{schemaVersion: 1, turnsSinceLastRun, lastRunStartedAt?, lastRunCompletedAt?,
lastRunMessageId?}`. Loading sanitizes like mux does, and a missing, unreadable or corrupt
file is the default state: losing a turn count is harmless, failing the writer over it is
not. Saving goes through `memtab.fs.sidecar`: other fields in the file are kept, and a
corrupt file is kept aside before it is replaced.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memtab.fs.sidecar import edit_sidecar, read_sidecar

logger = logging.getLogger(__name__)

STATE_SCHEMA_VERSION = 1


@dataclass(frozen=True)
class WriterState:
    """One workspace's writer schedule. Times are epoch milliseconds."""

    turns_since_last_run: int = 0
    last_run_started_at: int | float | None = None
    last_run_completed_at: int | float | None = None
    last_run_message_id: str | None = None

    @property
    def has_incomplete_run(self) -> bool:
        """A run started and never recorded its end (or recorded an older one): a crash."""
        if self.last_run_started_at is None:
            return False
        return (
            self.last_run_completed_at is None
            or self.last_run_completed_at < self.last_run_started_at
        )

    def with_turns(self, turns: int) -> WriterState:
        """A copy with another turn count."""
        return replace(self, turns_since_last_run=turns)

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object (absent fields are left out, as mux writes them)."""
        data: dict[str, Any] = {
            "schemaVersion": STATE_SCHEMA_VERSION,
            "turnsSinceLastRun": self.turns_since_last_run,
        }
        if self.last_run_started_at is not None:
            data["lastRunStartedAt"] = self.last_run_started_at
        if self.last_run_completed_at is not None:
            data["lastRunCompletedAt"] = self.last_run_completed_at
        if self.last_run_message_id is not None:
            data["lastRunMessageId"] = self.last_run_message_id
        return data


def _finite_number(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value):
        return None
    return int(value) if float(value).is_integer() else value


def sanitize_state(raw: Any) -> WriterState:
    """A state from any JSON value: turns that are not a number or ≤ 0 become 0 (others
    are floored), timestamps must be finite numbers, the message id a non-blank string
    (trimmed); everything else is dropped."""
    if not isinstance(raw, dict):
        return WriterState()
    turns = _finite_number(raw.get("turnsSinceLastRun"))
    message_id = raw.get("lastRunMessageId")
    return WriterState(
        turns_since_last_run=math.floor(turns) if turns is not None and turns > 0 else 0,
        last_run_started_at=_finite_number(raw.get("lastRunStartedAt")),
        last_run_completed_at=_finite_number(raw.get("lastRunCompletedAt")),
        last_run_message_id=(
            message_id.strip() if isinstance(message_id, str) and message_id.strip() else None
        ),
    )


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
    """The sanitized state in `path` (the default state when there is none)."""
    return sanitize_state(read_state_document(path))


_STATE_FIELDS = frozenset(
    (
        "schemaVersion",
        "turnsSinceLastRun",
        "lastRunStartedAt",
        "lastRunCompletedAt",
        "lastRunMessageId",
    )
)


def save_state(path: Path, state: WriterState) -> None:
    """Write the state atomically (parent directory created), keeping other fields.

    No interprocess lock: the scheduler keeps this process's writes apart, and the
    writer lock keeps other Memtab processes' writers out of the home.
    """
    fields = state.to_json()
    with edit_sidecar(path, None) as document:
        for name in _STATE_FIELDS - fields.keys():  # absent fields are left out, as mux does
            document.pop(name, None)
        document.update(fields)
