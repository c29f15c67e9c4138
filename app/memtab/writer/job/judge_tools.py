"""The writer's tool for the judging task (docs/formats.md §10.2, "Time"): code proposes notes
(the offline writer's, each drawn from the conversation), the model keeps some by number with
`keep_notes`, and the kept ones are written through the rails as the lessons task's are."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from memtab.llm.types import ToolCall, ToolOutcome, ToolSpec
from memtab.store.paths import VirtualPath
from memtab.store.scopes.memory import MemoryStore
from memtab.writer.job.lesson_tools import LessonTools
from memtab.writer.lessons.digest import Digest
from memtab.writer.offline.notes import Note
from memtab.writer.prompts import judge_tool_specs
from memtab.writer.tools import NO_NEW_MEMORIES, ContentRails

KEEP_NOTES = "keep_notes"
DIRECTIVES = "Directives"
NOT_PROPOSED = "not one of the proposed notes"


class JudgeTools(LessonTools):
    """`keep_notes` over the notes shown to the model (`proposed`, numbered from 1)."""

    def __init__(
        self,
        store: MemoryStore,
        memory_path: VirtualPath,
        rails: ContentRails | None,
        digest: Digest,
        proposed: Sequence[Note],
    ) -> None:
        super().__init__(store, memory_path, rails, digest)
        self.proposed = tuple(proposed)

    @property
    def specs(self) -> list[ToolSpec]:
        """`keep_notes`, its numbers those shown: a server asked by schema writes no other."""
        count = len(self.proposed)
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
        kept = self._chosen((call.arguments or {}).get("keep"))
        if not kept:  # none worth keeping: the model's answer, as no_new_memories is
            return super().execute(ToolCall(id=call.id, name=NO_NEW_MEMORIES, arguments={}))
        return self._write_kept(call.id, kept)

    def _chosen(self, numbers: Any) -> dict[Note, str]:
        """The proposed notes `numbers` name, each once, in their order, with the messages
        each was drawn from as its evidence; a number naming none is refused."""
        chosen: dict[Note, str] = {}
        strays: list[str] = []
        for number in numbers if isinstance(numbers, list) else []:
            valid = isinstance(number, int) and not isinstance(number, bool)
            if not valid or not 1 <= number <= len(self.proposed):
                strays.append(str(number)[:40])
                continue
            note = self.proposed[number - 1]
            chosen.setdefault(note, ", ".join(note.message_ids) or "the conversation")
            if note.section == DIRECTIVES:  # the offline writer's directive: the user's words
                self.users_words.add(note)
        if strays:  # named together, as many as a reply held
            more = f" (and {len(strays) - 1} more)" if len(strays) > 1 else ""
            self.refuse(f"{strays[0]}{more}", NOT_PROPOSED)
        return chosen
