"""The writer's tools for the lessons task (docs/formats.md §10.2): `record_lessons` judged in
code (`writer.lessons.judge`) and the kept lessons written under the notes' headings, at most
`MOST_LESSONS` a run whatever path they come by, each with the line of the conversation it
restates; and `no_new_memories`. Whatever the model answers, the offline writer's notes for
the same events are written too, through the same rails: a usable answer adds to them, one
not usable is replaced by them."""

from __future__ import annotations

from typing import Any

from memtab.llm.types import ToolCall, ToolOutcome, ToolSpec
from memtab.redact import redact_outgoing
from memtab.store.paths import PathError, VirtualPath
from memtab.store.scopes.memory import MemoryStore, MemoryStoreError
from memtab.writer.job.rails import UNSTATED_RULE
from memtab.writer.lessons.digest import Digest
from memtab.writer.lessons.judge import MOST_LESSONS, NOT_A_LESSON, TOO_MANY, Lesson, judge
from memtab.writer.offline.notes import (
    DIRECTIVES,
    Note,
    apply_notes,
    note_command,
    notes_missing_from,
)
from memtab.writer.prompts import lessons_tool_specs
from memtab.writer.tools import (
    NO_NEW_MEMORIES,
    STALE_CHANGED,
    ContentRails,
    Effect,
    KeptLesson,
    WriterTools,
)

RECORD_LESSONS = "record_lessons"
SAVE_TRIES = 3
SHOWN_CHARS = 200
NOT_USABLE = "the model's answer was not usable ({why})"
OFFLINE_WRITTEN = "the offline notes were written"
OFFLINE_FOUND_NOTHING = "the offline writer found nothing to write"


def evidence_of(note: Note) -> str:
    """A proposed note's evidence: the messages code drew it from."""
    return ", ".join(note.message_ids) or "the conversation"


class LessonTools(WriterTools):
    """The writer's tools for the lessons task over one memory file and one digest."""

    def __init__(
        self,
        store: MemoryStore,
        memory_path: VirtualPath,
        rails: ContentRails | None,
        digest: Digest,
        offline_notes: tuple[Note, ...] = (),
    ) -> None:
        super().__init__(store, memory_path, rails)
        self.digest = digest
        self.offline_notes = offline_notes
        """What the offline writer writes for these events: the run's notes when the model's
        answer is not usable (`write_offline_notes`)."""
        self.fell_back = ""
        """Why the offline notes were written instead of the model's, for the run's summary."""
        self.judged = 0  # lessons judged this run, by every call of every attempt
        self.users_words: set[Note] = set()
        """The notes that are a rule in the user's words (the rails take them as stated)."""

    @property
    def specs(self) -> list[ToolSpec]:
        return list(lessons_tool_specs())

    def execute(self, call: ToolCall) -> ToolOutcome:
        if call.name == NO_NEW_MEMORIES:  # the offline writer's notes stand still
            if not self.offline_notes:
                return super().execute(call)
            return self._write_kept(call.id, {})
        if call.name != RECORD_LESSONS:
            return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)
        return self._write_kept(call.id, self._kept((call.arguments or {}).get("lessons")))

    def write_offline_notes(self, call_id: str, why: str) -> ToolOutcome:
        """Write the offline writer's notes through the rails (its directives are the user's
        words), because the model's answer was not usable (`why`): a model's run never keeps
        less than the offline writer."""
        done = OFFLINE_WRITTEN if self.offline_notes else OFFLINE_FOUND_NOTHING
        self.fell_back = f"{NOT_USABLE.format(why=why)}; {done}"
        if not self.offline_notes:
            return super().execute(ToolCall(id=call_id, name=NO_NEW_MEMORIES, arguments={}))
        return self._write_kept(call_id, {})

    def _write_kept(self, call_id: str, kept: dict[Note, str]) -> ToolOutcome:
        """Write `kept` (each note with its evidence) beside the offline writer's notes
        (`_with_offline_notes`) through the rails, and tally the effect."""
        outcome, effect = self._save_lessons(call_id, self._with_offline_notes(kept))
        self.tally.write_failed = outcome.is_error
        self.tally.wrote |= effect == "wrote"
        self.tally.unchanged |= effect in ("unchanged", "refused")
        return outcome

    def _with_offline_notes(self, kept: dict[Note, str]) -> dict[Note, str]:
        """What a model's usable answer writes: the offline writer's notes for the same events,
        then what the answer adds that they do not say. A model's answer adds to the offline
        notes and never drops one: it gives no reason with what it leaves out, so only the rails
        refuse an offline note (a secret, a forbidden command, ...), as they refuse any note.
        The offline directives are the user's words, found in their line."""
        written = {note: evidence_of(note) for note in self.offline_notes}
        self.users_words |= {note for note in written if note.section == DIRECTIVES}
        commands = {note_command(note) for note in written} - {None}
        added = notes_missing_from(apply_notes("", list(written)), list(kept))
        for note in added:
            if note_command(note) not in commands:  # one note a command
                written.setdefault(note, kept[note])
        return written

    def _kept(self, lessons: Any) -> dict[Note, str]:
        """The notes of the lessons that pass their checks, each with its evidence; each refused
        lesson named, those past the run's limit together (refused in time linear in them)."""
        notes: dict[Note, str] = {}
        values = lessons if isinstance(lessons, list) else []
        room = max(0, MOST_LESSONS - self.judged)
        for value in values[:room]:
            self.judged += 1
            lesson = Lesson.read(value)
            if lesson is None:
                self.refuse(str(value)[:SHOWN_CHARS], NOT_A_LESSON)
                continue
            judgement = judge(lesson, self.digest)
            if judgement.note is None or judgement.evidence is None:
                self.refuse(lesson.shown, judgement.why or NOT_A_LESSON)
            else:
                notes.setdefault(judgement.note, judgement.evidence)
                if judgement.users_words:
                    self.users_words.add(judgement.note)
        beyond = values[room:]
        if beyond:
            first = Lesson.read(beyond[0])
            shown = first.shown if first is not None else str(beyond[0])
            more = f" (and {len(beyond) - 1} more)" if len(beyond) > 1 else ""
            self.refuse(f"{shown[:SHOWN_CHARS]}{more}", TOO_MANY)
        return notes

    def _save_lessons(self, call_id: str, kept: dict[Note, str]) -> tuple[ToolOutcome, Effect]:
        """Add the notes of `kept` the file does not say yet, naming each with its evidence in
        the answer (the run's dump keeps it); a change meanwhile is read again."""
        outcome: tuple[ToolOutcome, Effect] = ToolOutcome(call_id, STALE_CHANGED, True), None
        for _ in range(SAVE_TRIES):
            try:
                current = self.read_current()
            except (MemoryStoreError, PathError) as error:
                return ToolOutcome(call_id, str(error), is_error=True), None
            content = current.content if current is not None else ""
            notes = self._through_rails(content, notes_missing_from(content, list(kept)))
            lessons = tuple(KeptLesson(line=note.text, evidence=kept[note]) for note in notes)
            outcome = self.save(call_id, current, apply_notes(content, notes), lessons)
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
            mine = [
                why
                for line, why in refused
                if line == redact_outgoing(note.bullet)
                # the user's rule in their words is stated, though no directive reads it so
                and not (why == UNSTATED_RULE and note in self.users_words)
            ]
            if mine:
                self.refuse(note.bullet, mine[0])
            else:
                kept.append(note)
        return kept
