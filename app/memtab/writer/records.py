"""The writer's records (`memtab.fs.records`): the files it reads and writes."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from memtab.fs.records import (
    AtLeast,
    Checked,
    Count,
    FiniteNumber,
    Healed,
    Lenient,
    OmitNone,
    OrNone,
    Record,
    TrimmedText,
    ValidItems,
)
from memtab.writer.config import memory_path_problem
from memtab.writer.offline.notes import Note

STATE_SCHEMA_VERSION = 1
SUGGESTIONS_VERSION = 1
SOURCE_OFFLINE_WRITER = "offline-writer"
SuggestionStatus = Literal["pending", "accepted", "dismissed"]


class WriterState(Record):
    """One workspace's writer schedule (docs/formats.md §10.1). Times are epoch ms. Read from any
    JSON object: turns that are not a number or ≤ 0 become 0 (others are floored), times must be
    finite numbers, the message id a non-blank string (trimmed); anything else reads as absent."""

    schema_version: Annotated[int, Healed(lambda _: STATE_SCHEMA_VERSION)] = STATE_SCHEMA_VERSION
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


# --- suggested memories (writer.inbox.suggestions) --------------------------------------------


def _workspace_file(path: str) -> str:
    problem = memory_path_problem(path)
    if problem is not None:
        raise ValueError(problem)  # suggestions only ever go to a workspace file
    return path


Text = Annotated[str, AtLeast(1)]


class SuggestionOrigin(Record, keep_unknown=True):
    """Where a suggestion was drawn from: messages, run and transcript (formats §10.4, §20.1)."""

    message_ids: ValidItems[tuple[str, ...]] = ()
    workspace_id: Annotated[OrNone[str], OmitNone] = None
    transcript_path: Annotated[OrNone[str], OmitNone] = None
    run_id: Annotated[OrNone[str], OmitNone] = None


class Suggestion(Record, keep_unknown=True):
    """One suggested memory: a bullet for a section of the workspace's notes file
    (docs/formats.md §10.4). An entry without a non-empty `id`, `section`, `text` and
    workspace-file `memoryPath`, an integer `createdAt` and a known `status` is not one."""

    id: Text
    section: Text
    text: Text
    memory_path: Annotated[Text, Checked(_workspace_file)]
    source: Annotated[str, Lenient(SOURCE_OFFLINE_WRITER)] = SOURCE_OFFLINE_WRITER
    created_at: int
    status: SuggestionStatus = "pending"
    decided_at: Annotated[OrNone[int], OmitNone] = None
    replaces: Annotated[OrNone[tuple[str, str]], OmitNone] = None
    origin: Annotated[OrNone[SuggestionOrigin], OmitNone] = None
    # Where an accepted suggestion was written when the user chose another file (§10.5).
    accepted_into: Annotated[OrNone[str], OmitNone] = None
    """Where it was drawn from (docs/formats.md §20.1); None: not known."""

    @property
    def note(self) -> Note:
        return Note(self.section, self.text, self.replaces)


class SuggestionFile(Record, keep_unknown=True):
    """A workspace's queue, `<home>/memtab/suggestions/<workspaceId>.json` (docs/formats.md
    §10.4): the entries this version understands are `Suggestion`s, any other is kept as
    it is; unknown top-level fields are kept too."""

    version: Annotated[int, Healed(lambda _: SUGGESTIONS_VERSION)] = SUGGESTIONS_VERSION
    workspace_id: str
    suggestions: Annotated[tuple[Suggestion | Any, ...], Lenient(())] = ()
