"""The writer's tool for the judging task (docs/formats.md §10.2, "Time"): code proposes notes
(the offline writer's, each drawn from the conversation), the model keeps some by number with
`keep_notes`, and they are written through the rails as the lessons task's are: beside every
offline note, for a number left out drops none (`LessonTools._with_offline_notes`). An
answer failing its controls (`rules_task`) is not used at all: the offline writer's notes are
written instead."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from memtab.humanize import plural
from memtab.llm.types import ToolCall, ToolOutcome, ToolSpec
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.writer.job.lesson_tools import LessonTools, evidence_of
from memtab.writer.job.rules_task import RulesQuestion, RulesVerdict
from memtab.writer.lessons.digest import Digest
from memtab.writer.lessons.judge import MOST_LESSONS
from memtab.writer.offline.notes import DIRECTIVES, Note
from memtab.writer.prompts import judge_tool_specs
from memtab.writer.tools import NO_NEW_MEMORIES, ContentRails

KEEP_NOTES = "keep_notes"
NOT_PROPOSED = "not one of the proposed notes"


class JudgeTools(LessonTools):
    """`keep_notes` over the notes shown to the model (`proposed`, numbered from 1), then the
    user's sentences (`question`, numbered on: `rules_task`)."""

    def __init__(
        self,
        store: MemoryStore,
        memory_path: VirtualPath,
        rails: ContentRails | None,
        digest: Digest,
        proposed: Sequence[Note],
        question: RulesQuestion | None = None,
        offline_notes: tuple[Note, ...] = (),
    ) -> None:
        super().__init__(store, memory_path, rails, digest, offline_notes)
        self.proposed = tuple(proposed)
        self.question = question
        self.rules_says = ""
        """What the answer did with the user's sentences, for the run's summary."""

    @property
    def sentences(self) -> tuple[str, ...]:
        """The user's sentences as shown, the controls among them."""
        return self.question.shown if self.question is not None else ()

    @property
    def specs(self) -> list[ToolSpec]:
        """`keep_notes`, its numbers those shown: a server asked by schema writes no other."""
        count = len(self.proposed) + len(self.sentences)
        specs = []
        for spec in judge_tool_specs():
            keep = copy.deepcopy(spec.input_schema)
            keep["properties"]["keep"]["maxItems"] = count
            keep["properties"]["keep"]["items"]["maximum"] = count
            specs.append(replace(spec, input_schema=keep))
        return specs

    def execute(self, call: ToolCall) -> ToolOutcome:
        if call.name != KEEP_NOTES:
            return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)
        numbers = (call.arguments or {}).get("keep")
        verdict = self._verdict(numbers)
        if verdict is not None and not verdict.passed:
            return self.write_offline_notes(call.id, f"controls failed: {verdict.why}")
        kept = {**self._chosen(numbers), **self._rules(verdict)}
        if not kept:  # none worth keeping: the model's answer, as no_new_memories is
            return super().execute(ToolCall(id=call.id, name=NO_NEW_MEMORIES, arguments={}))
        return self._write_kept(call.id, kept)

    def _chosen(self, numbers: Any) -> dict[Note, str]:
        """The proposed notes `numbers` name, each once, in their order, with the messages
        each was drawn from as its evidence; a number naming none is refused."""
        chosen: dict[Note, str] = {}
        strays: list[str] = []
        notes = len(self.proposed)
        for number in numbers if isinstance(numbers, list) else []:
            valid = isinstance(number, int) and not isinstance(number, bool)
            if not valid or not 1 <= number <= notes + len(self.sentences):
                strays.append(str(number)[:40])
                continue
            if number > notes:
                continue  # one of the user's sentences (`_rules`)
            note = self.proposed[number - 1]
            chosen.setdefault(note, evidence_of(note))
            if note.section == DIRECTIVES:  # the offline writer's directive: the user's words
                self.users_words.add(note)
        if strays:  # named together, as many as a reply held
            more = f" (and {len(strays) - 1} more)" if len(strays) > 1 else ""
            self.refuse(f"{strays[0]}{more}", NOT_PROPOSED)
        return chosen

    def _verdict(self, numbers: Any) -> RulesVerdict | None:
        """What the answer says of the user's sentences, and whether it passed its controls
        (None: none were shown)."""
        if self.question is None:
            return None
        first = len(self.proposed)
        chosen = [
            number - first
            for number in (numbers if isinstance(numbers, list) else [])
            if isinstance(number, int) and not isinstance(number, bool) and number > first
        ]
        return self.question.verdict(chosen)

    def _rules(self, verdict: RulesVerdict | None) -> dict[Note, str]:
        """The user's sentences a controlled answer keeps, as directives in their words, each
        with its line as evidence."""
        if self.question is None or verdict is None:
            return {}
        rules = dict(list(verdict.notes().items())[:MOST_LESSONS])
        self.users_words |= rules.keys()
        shown = plural(len(self.question.sentences), "sentence")
        self.rules_says = (
            f"the user's {shown}: {len(rules)} kept as standing rules in their words "
            "(controls passed)"
        )
        return rules
