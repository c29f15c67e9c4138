"""The offline writer: Memtab's built-in memory writer, no model needed."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from memtab.fs.jsonfile import JsonError, parse_json
from memtab.humanize import plural
from memtab.llm.types import (
    CallsSoFar,
    ModelReply,
    OfflineProvider,
    ProviderError,
    ToolCall,
    ToolOutcome,
)
from memtab.transcripts.budget import EventBudget, select_event_budget
from memtab.transcripts.events import TranscriptEvent
from memtab.writer.inbox.suggestions import SuggestionError, SuggestionQueue
from memtab.writer.offline.extract import extract_findings
from memtab.writer.offline.findings import Findings
from memtab.writer.offline.notes import (
    MAX_NOTES_PER_RUN,
    Note,
    apply_notes,
    notes_to_propose,
    surest_notes,
)
from memtab.writer.records import Suggestion, SuggestionOrigin
from memtab.writer.tools import MEMORY_READ, MEMORY_WRITE, NO_NEW_MEMORIES

logger = logging.getLogger(__name__)

OFFLINE_WRITER_MODEL = "offline-writer"
MAX_WRITE_TRIES = 3


class OfflineWriterProvider(OfflineProvider):
    """A deterministic, rule-based stand-in for a model (see the module docstring)."""

    label = "offline writer"
    model_label = OFFLINE_WRITER_MODEL
    needs = frozenset((MEMORY_READ, MEMORY_WRITE, NO_NEW_MEMORIES))

    def __init__(
        self,
        events: Sequence[TranscriptEvent] = (),
        *,
        queue: SuggestionQueue | None = None,
        memory_path: str = "",
        whole: Findings | None = None,
        origin: SuggestionOrigin | None = None,
    ) -> None:
        self.events = tuple(events)
        self.whole = whole
        """What a digest of the whole transcript found (used instead of `events`)."""
        self.queue = queue
        self.memory_path = memory_path
        self.origin = origin or SuggestionOrigin()
        """The run and transcript its notes are drawn from: `writer.job.run` sets it when the
        run starts, and each note carries it (docs/formats.md §20.1)."""
        self.proposed: list[Suggestion] = []
        """The suggestions this run added to the review queue."""
        self.written_notes: tuple[Note, ...] = ()
        """The notes of its last `memory_write` (with the messages each came from)."""
        self.left_out = 0
        """How many notes the run found past `notes.MAX_NOTES_PER_RUN` and left out."""

    def for_run(
        self,
        budget: EventBudget,
        *,
        queue: SuggestionQueue | None,
        memory_path: str,
        whole: Findings | None = None,
    ) -> OfflineWriterProvider:
        """An offline writer for one run: what the digest of the whole transcript found
        (`whole`, `writer.job.providers.read_for_run`), else the events a model is shown — the
        run's budget window, selected with the run's own `max_json_chars` (sub-agents left
        out) — and the queue its notes go to (None: it writes them to the memory file)."""
        if whole is not None:
            return OfflineWriterProvider(queue=queue, memory_path=memory_path, whole=whole)
        mainline = [event for event in budget.events if not event.sidechain]
        window = select_event_budget(mainline, budget.max_json_chars).events
        return OfflineWriterProvider(window, queue=queue, memory_path=memory_path)

    def next_turn(self, calls: CallsSoFar) -> ModelReply:
        """The next turn of the offline writer."""
        history = [(call, outcome) for call, outcome in calls if outcome is not None]
        step = len(history)
        if not history:
            return _call(MEMORY_READ, {}, step)
        last_call, last_outcome = history[-1]
        if last_call.name == NO_NEW_MEMORIES:
            if self.proposed:
                suggested = plural(len(self.proposed), "memory", "memories")
                return ModelReply(text=f"Suggested {suggested} for review.")
            return ModelReply(text="No new memories in this conversation.")
        if last_call.name == MEMORY_WRITE:
            if not last_outcome.is_error:
                return ModelReply(text="Updated the memory file.")
            failed_writes = sum(
                1 for call, outcome in history if call.name == MEMORY_WRITE and outcome.is_error
            )
            if failed_writes >= MAX_WRITE_TRIES:
                return ModelReply(text=f"Gave up after {failed_writes} failed writes.")
            return _call(MEMORY_READ, {}, step)
        if last_call.name == MEMORY_READ:
            if last_outcome.is_error:
                return ModelReply(text=f"Cannot read the memory file: {last_outcome.content}")
            return self._update(_read_content(last_outcome), step)
        return _call(MEMORY_READ, {}, step)

    def _update(self, current: str, step: int) -> ModelReply:
        findings = self.whole if self.whole is not None else extract_findings(self.events)
        notes, self.left_out = surest_notes(notes_to_propose(current, findings))
        if self.left_out:
            logger.info(
                "offline writer left out %d less sure notes (a run keeps at most %d)",
                self.left_out,
                MAX_NOTES_PER_RUN,
            )
        if not notes:
            return _call(NO_NEW_MEMORIES, {}, step)
        if self.queue is not None:
            try:
                self.proposed += self.queue.propose(
                    notes, memory_path=self.memory_path, origin=self.origin
                )
            except (OSError, TimeoutError, SuggestionError) as error:
                raise ProviderError(
                    "config", f"offline writer: cannot save suggested memories: {error}"
                ) from None
            logger.info("offline writer suggested %d memories", len(self.proposed))
            return _call(NO_NEW_MEMORIES, {}, step)
        old_string = current if current.strip() else ""
        new_string = apply_notes(current, notes)
        self.written_notes = tuple(notes)
        return _call(MEMORY_WRITE, {"old_string": old_string, "new_string": new_string}, step)


def _call(name: str, arguments: dict[str, Any], step: int) -> ModelReply:
    call = ToolCall(id=f"offline_{step}_{name}", name=name, arguments=arguments)
    return ModelReply(text="", tool_calls=(call,), stop_reason="tool_use")


def _read_content(outcome: ToolOutcome) -> str:
    """The `content` of a `memory_read` result (its JSON answer)."""
    try:
        value = parse_json(outcome.content)
    except JsonError:
        return ""
    content = value.get("content") if isinstance(value, dict) else None
    return content if isinstance(content, str) else ""
