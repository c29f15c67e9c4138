"""The writer's records (pydantic, `memtab.fs.records`): the files it reads and writes.

Imported by the functions that read or write them (`writer.state`), never at the top of a
module the window imports: a settled window does not load pydantic.
"""

from __future__ import annotations

from typing import Annotated

from memtab.fs.pydantic_once import BeforeValidator
from memtab.fs.records import Count, FiniteNumber, OmitNone, Record, TrimmedText

STATE_SCHEMA_VERSION = 1


class WriterState(Record):
    """One workspace's writer schedule (docs/formats.md §10.1). Times are epoch ms.

    Read from any JSON object: turns that are not a number or ≤ 0 become 0 (others are
    floored), times must be finite numbers, the message id a non-blank string (trimmed);
    anything else reads as absent. `schemaVersion` is always written as 1.
    """

    schema_version: Annotated[int, BeforeValidator(lambda _: STATE_SCHEMA_VERSION)] = (
        STATE_SCHEMA_VERSION
    )
    turns_since_last_run: Count = 0
    last_run_started_at: Annotated[FiniteNumber, OmitNone] = None
    last_run_completed_at: Annotated[FiniteNumber, OmitNone] = None
    last_run_message_id: Annotated[TrimmedText, OmitNone] = None

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
        return self.replaced(turns_since_last_run=turns)
