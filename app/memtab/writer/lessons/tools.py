"""The lessons task's tools: `record_lessons` and `no_new_memories` (docs/formats.md §10.2)."""

from __future__ import annotations

from typing import Any

from memtab.llm.types import ChatProvider, ToolCall, ToolOutcome, ToolSpec
from memtab.redact import redact_outgoing
from memtab.store.paths import PathError, VirtualPath
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError
from memtab.writer.lessons.checks import (
    MOST_LESSONS,
    NOT_A_LESSON,
    TOO_MANY,
    Lesson,
    lesson_note,
    why_refused,
)
from memtab.writer.lessons.digest import Digest
from memtab.writer.offline.notes import Note, apply_notes, notes_missing_from
from memtab.writer.prompts import lessons_tool_specs
from memtab.writer.tools import (
    NO_NEW_MEMORIES,
    STALE_CHANGED,
    ContentRails,
    Effect,
    WriterTools,
)

RECORD_LESSONS = "record_lessons"
SAVE_TRIES = 3


def asks_for_lessons(provider: ChatProvider) -> bool:
    """Whether a run gives `provider` the lessons task: its replies are asked by JSON schema
    (`OpenAIProvider.structured`, set for a server on this machine), the other providers
    edit the file with `memory_write`."""
    return getattr(provider, "structured", None) is not None


class LessonTools(WriterTools):
    """The writer's tools for the lessons task over one memory file and one digest."""

    def __init__(
        self,
        store: MemoryStore,
        memory_path: VirtualPath,
        rails: ContentRails | None,
        digest: Digest,
    ) -> None:
        super().__init__(store, memory_path, rails)
        self.digest = digest

    @property
    def specs(self) -> list[ToolSpec]:
        return list(lessons_tool_specs())

    def execute(self, call: ToolCall) -> ToolOutcome:
        if call.name == NO_NEW_MEMORIES:
            return super().execute(call)
        if call.name != RECORD_LESSONS:
            return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)
        notes = self._kept_notes((call.arguments or {}).get("lessons"))
        outcome, effect = self._save_notes(call.id, notes)
        self.tally.write_failed = outcome.is_error
        self.tally.wrote |= effect == "wrote"
        self.tally.unchanged |= effect in ("unchanged", "refused")
        return outcome

    def _kept_notes(self, lessons: Any) -> list[Note]:
        """The notes of the lessons that pass their checks, each refused one named."""
        notes: list[Note] = []
        for index, value in enumerate(lessons if isinstance(lessons, list) else []):
            lesson = Lesson.read(value)
            if lesson is None:
                self._refuse(str(value)[:200], NOT_A_LESSON)
                continue
            why = TOO_MANY if index >= MOST_LESSONS else why_refused(lesson, self.digest)
            if why is not None:
                self._refuse(lesson.shown, why)
                continue
            note = lesson_note(lesson, self.digest)
            if note not in notes:
                notes.append(note)
        return notes

    def _save_notes(self, call_id: str, notes: list[Note]) -> tuple[ToolOutcome, Effect]:
        """Add `notes` the file does not say yet; a change meanwhile is read again."""
        outcome: tuple[ToolOutcome, Effect] = (
            ToolOutcome(call_id, STALE_CHANGED, is_error=True),
            None,
        )
        for _ in range(SAVE_TRIES):
            try:
                current = self.read_current()
            except (MemoryStoreError, PathError) as error:
                return ToolOutcome(call_id, str(error), is_error=True), None
            content = current.content if current is not None else ""
            kept = self._through_rails(content, notes_missing_from(content, notes))
            outcome = self.save(call_id, current, apply_notes(content, kept))
            if outcome[0].content != STALE_CHANGED:
                return outcome
        return outcome

    def _through_rails(self, content: str, notes: list[Note]) -> list[Note]:
        """The notes the writer's rails keep, each read as its own write (a file's new
        header never stands written alone, its one note refused)."""
        if self.rails is None:
            return notes
        kept = []
        for note in notes:
            _, refused = self.rails.apply(content, apply_notes(content, [note]))
            mine = [why for line, why in refused if line == redact_outgoing(note.bullet)]
            if mine:
                self._refuse(note.bullet, mine[0])
            else:
                kept.append(note)
        return kept

    def _refuse(self, line: str, why: str) -> None:
        found = (redact_outgoing(line), why)
        if found not in self.refused:
            self.refused.append(found)
