"""The writer's three tools over its one memory file: `memory_read`, `memory_write`
(compare-and-swap) and `no_new_memories` (docs/formats.md §10.2, §12)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Protocol

from memtab.fs.records import OmitEmpty, OmitNone, Record
from memtab.fs.terminal_text import without_controls
from memtab.llm.types import ToolCall, ToolOutcome, ToolSpec
from memtab.redact import redact_outgoing, redact_view
from memtab.store.files import FileContent
from memtab.store.paths import PathError, VirtualPath
from memtab.store.scopes.memory import (
    MemoryStore,
    MemoryStoreError,
    NotFoundError,
    SaveConflictError,
)
from memtab.writer.prompts import tool_specs

logger = logging.getLogger(__name__)

MEMORY_READ = "memory_read"
MEMORY_WRITE = "memory_write"
NO_NEW_MEMORIES = "no_new_memories"

STALE_NOT_FOUND = (
    "old_string was not found in the memory file; it may have changed since you read it. "
    "Call memory_read and retry with text copied from the current content."
)
STALE_CHANGED = (
    "The memory file changed while this write was being applied (stale compare-and-swap); "
    "nothing was written. Call memory_read and retry with the current content."
)
NOTHING_CHANGED = "Nothing was written: the file already says this."
EVERY_LINE_REFUSED = (
    "Nothing was written: every line this write added was refused (see `refused`). Write "
    "again without them, or call no_new_memories if nothing else is worth remembering."
)
SOME_LINES_REFUSED = "Written without the lines in `refused`; do not write them again."
EMPTY_OLD_STRING = (
    "old_string is empty but the memory file is not empty. Call memory_read and retry with "
    "old_string set to text copied from the current content (or the whole file)."
)
OLD_STRING_IN_EMPTY_FILE = (
    "The memory file is empty, so old_string cannot be in it. Call memory_write with "
    'old_string set to "" and new_string set to the whole new file.'
)


TOOL_ANSWERS = (
    STALE_NOT_FOUND,
    STALE_CHANGED,
    EMPTY_OLD_STRING,
    OLD_STRING_IN_EMPTY_FILE,
    NOTHING_CHANGED,
    EVERY_LINE_REFUSED,
    SOME_LINES_REFUSED,
)
"""What the tools tell a model in words (a note copying one restates instructions)."""


@dataclass
class AttemptTally:
    """What one attempt's tool calls did."""

    wrote: bool = False
    no_new_memories: bool = False
    write_failed: bool = False
    unchanged: bool = False
    """A write went through and changed nothing: the file already said it."""

    @property
    def satisfied(self) -> bool:
        """The tool policy: a successful write, or "nothing new" — `no_new_memories`, or a
        write of what the file already says — with no failed write since the attempt's
        last write that went through (a failed write means the model still owes one)."""
        nothing_new = self.no_new_memories or self.unchanged
        return self.wrote or (nothing_new and not self.write_failed)


class ContentRails(Protocol):
    """What a run refuses of a model's write (`writer.job.rails.WriterRails`)."""

    def apply(self, before: str, after: str) -> tuple[str, list[tuple[str, str]]]:
        """`after` without the lines refused of what it adds to `before`, and the (line,
        why) of each refused line."""
        ...


class WriterTools:
    """Executes the writer's tool calls against one memory file of a workspace store."""

    def __init__(
        self, store: MemoryStore, memory_path: VirtualPath, rails: ContentRails | None = None
    ) -> None:
        self.store = store
        self.memory_path = memory_path
        self.rails = rails
        self.tally = AttemptTally()
        self.written: str | None = None  # the content of the last successful write
        self.refused: list[tuple[str, str]] = []  # (line, why), every attempt's, each once
        self._refused_once: set[tuple[str, str]] = set()

    def physical_path(self) -> Path:
        """Where the memory file lives on disk. Raises MemoryStoreError / PathError."""
        return self.store.physical(self.memory_path)

    @property
    def specs(self) -> list[ToolSpec]:
        """The tool specs offered to the model."""
        return list(tool_specs())

    def start_attempt(self) -> AttemptTally:
        """A fresh tally for the next attempt (earlier attempts' flags do not carry over)."""
        self.tally = AttemptTally()
        return self.tally

    def read_current(self) -> FileContent | None:
        """The memory file now, or None when it does not exist. Raises MemoryStoreError."""
        try:
            return self.store.read(self.memory_path)
        except NotFoundError:
            return None

    def execute(self, call: ToolCall) -> ToolOutcome:
        """Answer one tool call (errors come back as error outcomes, never raised)."""
        arguments = call.arguments or {}
        if call.name == MEMORY_READ:
            return self._read(call.id)
        if call.name == MEMORY_WRITE:
            outcome, effect = self._write(call.id, arguments)
            # A write that goes through pays what a failed one owed.
            self.tally.write_failed = outcome.is_error
            self.tally.wrote |= effect == "wrote"
            self.tally.unchanged |= effect == "unchanged"
            return outcome
        if call.name == NO_NEW_MEMORIES:
            self.tally.no_new_memories = True
            return ToolOutcome(call.id, _answer(Succeeded()))
        return ToolOutcome(call.id, f"Unknown tool {call.name!r}", is_error=True)

    def _read(self, call_id: str) -> ToolOutcome:
        try:
            current = self.read_current()
        except (MemoryStoreError, PathError) as error:
            return ToolOutcome(call_id, str(error), is_error=True)
        if current is None:
            return ToolOutcome(call_id, _answer(MemoryRead(exists=False, content="")))
        shown = redact_view(current.content).text
        return ToolOutcome(call_id, _answer(MemoryRead(exists=True, content=shown)))

    def _write(self, call_id: str, arguments: dict[str, Any]) -> tuple[ToolOutcome, Effect]:
        """The answer to a `memory_write`, and what it did to the file: wrote it, left it
        as it was (nothing new), or refused every line it added (the model still owes a
        write, or `no_new_memories`); None when it failed."""
        old_string = arguments.get("old_string")
        new_string = arguments.get("new_string")
        if not isinstance(old_string, str) or not isinstance(new_string, str):
            return _error(call_id, "old_string and new_string are required strings")
        count = 1 if (given := arguments.get("replace_count")) is None else given
        if isinstance(count, bool) or not isinstance(count, int) or (count < 1 and count != -1):
            return _error(call_id, "replace_count must be a positive integer or -1")
        try:
            current = self.read_current()
        except (MemoryStoreError, PathError) as error:
            return _error(call_id, str(error))
        content = current.content if current is not None else ""
        view = redact_view(content)
        # What the model saw of it, as the file holds it.
        edit = view.original_edit(old_string, new_string) if view.hides and count == 1 else None
        old_string, new_string = edit or (old_string, new_string)
        replaced = replace_text(content, old_string, new_string, count)
        if isinstance(replaced, _Refusal):
            return _error(call_id, replaced.message)
        return self.save(call_id, current, replaced)

    def refuse(self, line: str, why: str) -> None:
        """Name a refused line (redacted) in the run's result, once."""
        self._name_refused(redact_outgoing(line), why)

    def _name_refused(self, line: str, why: str) -> None:
        if (line, why) not in self._refused_once:
            self._refused_once.add((line, why))
            self.refused.append((line, why))

    def save(
        self,
        call_id: str,
        current: FileContent | None,
        replaced: str,
        kept: tuple[KeptLesson, ...] = (),
    ) -> tuple[ToolOutcome, Effect]:
        """Save `replaced` over `current` (None: no file yet) through the rails, and what
        that did: wrote, left the file as it was, refused every line it added, or failed
        (None; a change meanwhile is stale). `kept`: the lessons the write holds, each
        through the rails already, named in the answer with their evidence."""
        content = current.content if current is not None else ""
        refused: list[tuple[str, str]] = []
        if self.rails is not None and not kept:
            replaced, refused = self.rails.apply(content, replaced)
            for line, why in refused:  # named redacted by the rails
                self._name_refused(line, why)
        new_content = redact_added_lines(content, replaced)
        lines = tuple(RefusedLine(line=line, why=why) for line, why in refused)
        if new_content == content:
            nothing = EVERY_LINE_REFUSED if refused else NOTHING_CHANGED
            answer = ToolOutcome(call_id, _answer(Succeeded(refused=lines, note=nothing)))
            return answer, "refused" if refused else "unchanged"
        try:
            self.store.save(
                self.memory_path, new_content, current.sha256 if current is not None else None
            )
        except SaveConflictError:
            logger.info("memory_write on %s lost a race; the model retries", self.memory_path)
            return _error(call_id, STALE_CHANGED)
        except (MemoryStoreError, PathError, OSError) as error:
            return _error(call_id, str(error))
        self.written = new_content
        some = SOME_LINES_REFUSED if refused else None
        written = Succeeded(refused=lines, note=some, kept=kept)
        return ToolOutcome(call_id, _answer(written)), "wrote"


Effect = Literal["wrote", "unchanged", "refused"] | None


def _error(call_id: str, message: str) -> tuple[ToolOutcome, Effect]:
    return ToolOutcome(call_id, message, is_error=True), None


@dataclass(frozen=True)
class _Refusal:
    message: str


def replace_text(content: str, old: str, new: str, count: int) -> str | _Refusal:
    """`content` with `old` replaced by `new` as `memory_write` defines it, or why not. An empty
    `old` replaces a blank file whole. Otherwise `count` (default 1) is how many occurrences to
    replace, first ones first; 1 requires a unique match; -1 replaces all."""
    if old == "":
        if content.strip():
            return _Refusal(EMPTY_OLD_STRING)
        if count != 1:
            return _Refusal("When old_string is empty, replace_count must be 1")
        return new
    occurrences = content.count(old)
    if occurrences == 0:
        # A small model quotes the headings it means to write as the file's text.
        return _Refusal(OLD_STRING_IN_EMPTY_FILE if not content.strip() else STALE_NOT_FOUND)
    if count == 1 and occurrences > 1:
        return _Refusal(
            f"old_string occurs {occurrences} times in the memory file. Include more "
            f"surrounding text to make it unique, or set replace_count to {occurrences} or -1."
        )
    if count > occurrences:
        return _Refusal(
            f"replace_count is {count} but old_string occurs only {occurrences} time(s)."
        )
    return content.replace(old, new, -1 if count == -1 else count)


def redact_added_lines(before: str, after: str) -> str:
    """`after` with secrets redacted and control characters taken out (`without_controls`) in the
    lines that `before` does not contain. Consecutive added lines are redacted as one block, so a
    multi-line secret (a PEM private key) is caught whole."""
    existing = set(before.split("\n"))
    output: list[str] = []
    added: list[str] = []
    for line in after.split("\n"):
        if line in existing:
            if added:
                output.append(redact_outgoing(without_controls("\n".join(added))))
                added = []
            output.append(line)
        else:
            added.append(line)
    if added:
        output.append(redact_outgoing(without_controls("\n".join(added))))
    return "\n".join(output)


class MemoryRead(Record, write_only=True):
    """`memory_read`'s answer (docs/formats.md §10.2): empty content when the file is missing."""

    exists: bool
    content: str


class RefusedLine(Record, write_only=True):
    """A line of a write the rails refused, and why (§10.2)."""

    line: str
    why: str


class KeptLesson(Record, write_only=True):
    """A lesson `record_lessons` wrote (§10.2), and the line of the conversation it restates."""

    line: str
    evidence: str


class Succeeded(Record, write_only=True):
    """A `memory_write`, `record_lessons` or `no_new_memories` that went through (§10.2): what was
    refused, a note, the lessons kept."""

    success: bool = True
    refused: Annotated[tuple[RefusedLine, ...], OmitEmpty] = ()
    note: Annotated[str | None, OmitNone] = None
    kept: Annotated[tuple[KeptLesson, ...], OmitEmpty] = ()


def _answer(answer: Record) -> str:
    return json.dumps(answer.to_json(), ensure_ascii=False)
